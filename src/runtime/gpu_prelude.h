/* The GPU runtime's device-side text (gpu_run.c): the prelude NVRTC compiles
 * before the kernel file, and the launcher after it. Inside src/runtime/.
 *
 * What the prelude does to the kernel file's code:
 * - __global__ becomes __device__, so that the launcher (the one real
 *   kernel, sv_gpu_launch) calls the entry as a function; __launch_bounds__
 *   is dropped with it.
 * - __syncthreads() becomes sv_gpu_sync(__LINE__): the real barrier
 *   (bar.sync 0), then the block copies its shared-memory window and out[]
 *   into this run's snapshot of the step, a second real barrier, thread 0
 *   moves the marks' row and the step count, a third, then with --shake a
 *   seeded per-warp __nanosleep before the kernel's next reads.
 *   Before the barrier each thread writes the line it waits at into host
 *   memory (mapped), 0 after it, -1 once it has returned from the entry:
 *   what the host reads when the block hangs (a deadlock, an endless loop).
 * - Each __shared__ declaration (rewritten by source_scan.c as
 *   SV_RT_STATIC / SV_RT_EXTERN) is followed by its registration: the first
 *   thread to run it records its offset in the shared window, its size and
 *   rows (2-D), under its line and name's hash, in the order they run
 *   (static arrays at file scope are registered by the launcher).
 * - The launcher poisons the window and out[] (0xA5A5A5A5: the host's
 *   "never written"), registers the extern array, runs the entry, waits at
 *   its own barrier (bar.sync 1, so that a thread that has returned never
 *   completes a barrier of the kernel's) and snapshots the end.
 * - Write recording (gpu_ptx.h): sv_rt_mk is the record the rewritten PTX
 *   reads before each of the kernel's accesses. Thread 0 fills it with
 *   inline asm (which the rewrite leaves alone) after the launcher's
 *   poison (the window holds the prelude's own shared variables, this
 *   record too) and before the barrier the kernel starts after; sv_gpu_sync
 *   moves its row to the next step between its second and third real
 *   barriers, when every thread has finished the step's accesses and the
 *   snapshot and none has begun the next step's: the prelude's own C code
 *   (whose accesses are rewritten too, and read the row, though they mark
 *   nothing) never runs beside that write, so compute-sanitizer's racecheck
 *   finds no hazard of the prelude's. The prelude's own reads of the window and out[] (the
 *   snapshot) are inline asm for the same reason: they are not the
 *   kernel's. */
#ifndef SV_RUNTIME_GPU_PRELUDE_H
#define SV_RUNTIME_GPU_PRELUDE_H

#include "gpu_ptx.h"

#define SV_GPU_POISON 0xA5A5A5A5u
#define SV_GPU_STR_(x) #x
#define SV_GPU_STR(x) SV_GPU_STR_(x)
#define SV_GPU_MAX_REGS 64

/* The run's header in device memory, as both sides see it. */
#define SV_GPU_PRELUDE_TYPES                                                        \
    "typedef unsigned int sv_u32;\n"                                                \
    "struct sv_reg { sv_u32 line, hash, off, bytes, rows, order; };\n"              \
    "struct sv_run { sv_u32 nsteps, nregs, overflow, pad;\n"                        \
    "  sv_u32 seen[" "64" "]; struct sv_reg reg[" "64" "]; int lines[SV_MAXS]; };\n"

static const char sv_gpu_prelude[] =
    "#line 1 \"<scanviz GPU prelude>\"\n"
    "#define SV_POISON 0xA5A5A5A5u\n"
    SV_GPU_PRELUDE_TYPES
    "struct sv_ctl { struct sv_run *run; sv_u32 *snap; volatile int *state; const sv_u32 *out;\n"
    "  unsigned char *mark; unsigned long long seed;\n"
    "  sv_u32 w0, wwords, n, maxs, run_index, shake_ns, mrow, mpad; };\n"
    "__shared__ struct sv_ctl sv_cs;\n"
    "__shared__ sv_u32 sv_nstep;\n"
    "__device__ sv_u32 sv_tstep[1024];\n"
    "struct __align__(8) sv_mk_rec { unsigned long long q[" SV_GPU_STR(SV_MK_BYTES) " / 8]; };\n"
    "__shared__ struct sv_mk_rec sv_rt_mk;\n"
    "__device__ __forceinline__ sv_u32 sv_mk_at(sv_u32 off) {\n"
    "  return (sv_u32)__cvta_generic_to_shared(&sv_rt_mk) + off; }\n"
    "__device__ __forceinline__ void sv_mk_put32(sv_u32 off, sv_u32 v) {\n"
    "  asm volatile(\"st.shared.u32 [%0], %1;\" :: \"r\"(sv_mk_at(off)), \"r\"(v) : \"memory\"); }\n"
    "__device__ __forceinline__ void sv_mk_put64(sv_u32 off, const void *p, bool global) {\n"
    "  unsigned long long v = (unsigned long long)p;\n"
    "  if (global) asm(\"cvta.to.global.u64 %0, %0;\" : \"+l\"(v));\n"
    "  asm volatile(\"st.shared.u64 [%0], %1;\" :: \"r\"(sv_mk_at(off)), \"l\"(v) : \"memory\"); }\n"
    "__device__ __forceinline__ sv_u32 sv_ldg(const sv_u32 *p) {\n"
    "  sv_u32 v; asm volatile(\"ld.volatile.u32 %0, [%1];\" : \"=r\"(v) : \"l\"(p)); return v; }\n"
    "__device__ __forceinline__ void sv_stg(sv_u32 *p, sv_u32 v) {\n"
    "  asm volatile(\"st.u32 [%0], %1;\" :: \"l\"(p), \"r\"(v) : \"memory\"); }\n";

/* (two strings: C17 promises literals of 4095 bytes, no more) */
static const char sv_gpu_prelude_sync[] =
    "__device__ __forceinline__ void sv_real_sync() { __syncthreads(); }\n"
    "__device__ __forceinline__ void sv_end_sync(sv_u32 n) {\n"
    "  asm volatile(\"bar.sync 1, %0;\" :: \"r\"((n + 31u) & ~31u) : \"memory\"); }\n"
    "__device__ __forceinline__ sv_u32 sv_lds(sv_u32 a) {\n"
    "  sv_u32 v; asm volatile(\"ld.shared.u32 %0, [%1];\" : \"=r\"(v) : \"r\"(a)); return v; }\n"
    "__device__ __forceinline__ void sv_sts(sv_u32 a, sv_u32 v) {\n"
    "  asm volatile(\"st.shared.u32 [%0], %1;\" :: \"r\"(a), \"r\"(v) : \"memory\"); }\n"
    "constexpr sv_u32 sv_fnv(const char *s, sv_u32 h = 2166136261u) {\n"
    "  return *s ? sv_fnv(s + 1, (h ^ (unsigned char)*s) * 16777619u) : h; }\n"
    "template <typename A> struct sv_rows_of { static constexpr sv_u32 v = 1; };\n"
    "template <typename E, unsigned long N, unsigned long M> struct sv_rows_of<E[N][M]> {\n"
    "  static constexpr sv_u32 v = (sv_u32)N; };\n"
    "__device__ void sv_reg_add(sv_u32 line, sv_u32 hash, const void *p, sv_u32 bytes,\n"
    "                           sv_u32 rows) {\n"
    "  struct sv_run *r = sv_cs.run;\n"
    "  sv_u32 key = (hash ^ (line * 2654435761u)) | 1u;\n"
    "  for (sv_u32 k = 0; k < 64u; k++) {\n"
    "    sv_u32 s = (key + k) & 63u;\n"
    "    sv_u32 was = ((volatile sv_u32 *)r->seen)[s];\n"
    "    if (was == key) return;\n"
    "    if (was == 0u) {\n"
    "      was = atomicCAS(&r->seen[s], 0u, key);\n"
    "      if (was == key) return;\n"
    "      if (was == 0u) {\n"
    "        sv_u32 o = atomicAdd(&r->nregs, 1u);\n"
    "        if (o < 64u) { struct sv_reg g = {line, hash,\n"
    "          (sv_u32)__cvta_generic_to_shared(p), bytes, rows, o}; r->reg[o] = g; }\n"
    "        return; } } } }\n"
    "__device__ unsigned long long sv_mix(unsigned long long x) {\n"
    "  x += 0x9E3779B97F4A7C15ull; x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;\n"
    "  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull; return x ^ (x >> 31); }\n"
    "__device__ sv_u32 sv_snapshot(int line) {\n"
    "  sv_u32 step = sv_nstep, t = threadIdx.x, nt = blockDim.x;\n"
    "  const sv_u32 *out = sv_cs.out;\n"
    "  if (step < sv_cs.maxs) {\n"
    "    sv_u32 *s = sv_cs.snap + (unsigned long long)step * (sv_cs.wwords + sv_cs.n);\n"
    /* (the marks' record is skipped: the snapshot is no reader of the
     * prelude's own words) */
    "    sv_u32 mk = (sv_u32)__cvta_generic_to_shared(&sv_rt_mk);\n"
    "    for (sv_u32 w = t; w < sv_cs.wwords; w += nt) {\n"
    "      sv_u32 a = sv_cs.w0 + 4u * w;\n"
    "      sv_stg(s + w, a - mk < " SV_GPU_STR(SV_MK_BYTES) "u ? 0u : sv_lds(a)); }\n"
    "    for (sv_u32 i = t; i < sv_cs.n; i += nt)\n"
    "      sv_stg(s + sv_cs.wwords + i, sv_ldg(out + i));\n"
    "    if (t == 0) sv_cs.run->lines[step] = line;\n"
    "  } else if (t == 0) sv_cs.run->overflow = 1u;\n"
    "  return step; }\n"
    "__device__ void sv_shake(sv_u32 step) {\n"
    "  if (sv_cs.shake_ns) {\n"
    "    unsigned long long h = sv_mix(sv_cs.seed ^ sv_mix(((unsigned long long)sv_cs.run_index\n"
    "      << 40) ^ ((unsigned long long)(threadIdx.x >> 5) << 20) ^ step));\n"
    "    __nanosleep((unsigned)(h % sv_cs.shake_ns)); } }\n"
    "__device__ void sv_gpu_sync(int line) {\n"
    "  sv_cs.state[threadIdx.x] = line;\n"
    "  sv_real_sync();\n"
    "  sv_cs.state[threadIdx.x] = 0;\n"
    "  sv_u32 step = sv_snapshot(line);\n"
    "  sv_stg(&sv_tstep[threadIdx.x], step + 1u);\n"
    "  sv_real_sync();\n"
    "  if (threadIdx.x == 0) {\n"
    "    sv_mk_put32(" SV_GPU_STR(SV_MK_ROW) ", (step + 1u < sv_cs.maxs ? step + 1u : sv_cs.maxs) *\n"
    "                sv_cs.mrow);\n"
    "    sv_nstep = step + 1u; }\n"
    "  sv_real_sync();\n"
    "  sv_shake(step + 1u); }\n"
    "#define __syncthreads() sv_gpu_sync(__LINE__)\n"
    "#undef __global__\n"
    "#define __global__ __device__\n"
    "#undef __launch_bounds__\n"
    "#define __launch_bounds__(...)\n"
    "#define SV_RT_EXTERN(T, name) extern __shared__ __align__(16) T name[]\n"
    "#define SV_RT_STATIC(T, name, dims, text, line) __shared__ T name dims;\\\n"
    "  sv_reg_add(line, sv_fnv(text), &name, (sv_u32)sizeof(name),\\\n"
    "             sv_rows_of<decltype(name)>::v)\n"
    "#define SV_RT_FSTATIC(T, name, dims, text, line) __shared__ T name dims\n";

/* Warp-level CUDA beside NVRTC's own (issue 30), after the sync above. */
static const char sv_gpu_prelude_warp[] =
    /* the counting barriers: the same step, then the hardware's count */
    "__device__ int sv_gpu_sync_count(int p, int line) {\n"
    "  sv_gpu_sync(line); return __syncthreads_count(p); }\n"
    "#define __syncthreads_count(p) sv_gpu_sync_count((p) ? 1 : 0, __LINE__)\n"
    "#define __syncthreads_and(p) (sv_gpu_sync_count((p) ? 1 : 0, __LINE__) == (int)blockDim.x)\n"
    "#define __syncthreads_or(p) (sv_gpu_sync_count((p) ? 1 : 0, __LINE__) != 0)\n"
    /* std::min, std::max and the float math, as the CPU runtime has them */
    "namespace std { using ::min; using ::max; using ::abs; using ::fabs; using ::sqrt;\n"
    "  using ::exp; using ::exp2; using ::log; using ::log2; using ::log10; using ::pow;\n"
    "  using ::sin; using ::cos; using ::tan; using ::tanh; using ::floor; using ::ceil;\n"
    "  using ::round; using ::trunc; using ::fmin; using ::fmax; using ::fma; }\n";

/* printf (issue 30): the format is a literal (the source scan checks it),
 * so the record's head goes before it and its end after it, in the same
 * device printf: run, thread, step (each thread's own count of barriers
 * passed, sv_tstep, in global memory: no shared word, so no hazard of the
 * prelude's own), line; process.c takes the records apart. The step and
 * run are read with inline asm, not as the kernel's accesses. */
static const char sv_gpu_prelude_print[] =
    "__device__ __forceinline__ sv_u32 sv_print_step() {\n"
    "  return sv_ldg(&sv_tstep[threadIdx.x]); }\n"
    "__device__ __forceinline__ sv_u32 sv_print_run() {\n"
    "  return sv_lds((sv_u32)__cvta_generic_to_shared(&sv_cs.run_index)); }\n"
    "#define printf(fmt, ...) printf(\"\\x1esv %u %u %u %d\\x1f\" fmt \"\\x1d\", sv_print_run(),\\\n"
    "  threadIdx.x, sv_print_step(), __LINE__, ##__VA_ARGS__)\n";

#endif
