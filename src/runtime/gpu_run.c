/* The GPU backend of the kernel runtime (backend.h): NVRTC compiles the
 * kernel file at run time, the driver API runs it, and the trace is built
 * from snapshots of the block's shared memory taken at every barrier.
 *
 * - No link-time dependency: libcuda.so.1 and libnvrtc are loaded with
 *   dlopen and the few functions used are declared here, so a binary runs
 *   where neither exists (sv_rt_gpu_available says why in words).
 * - The text NVRTC gets: the prelude (gpu_prelude.h), the run's scan as
 *   constants (SV_SCAN_OP, SV_SCAN_EXCLUSIVE) and scan_ops.h (Op::apply,
 *   Op::identity, scan_exclusive: the CPU runtime's, bit for bit), then the
 *   kernel file as source_scan.c writes it for the CPU (its __shared__
 *   declarations rewritten, the built-in #includes blanked, a #line 1
 *   "file.cu" first, so messages carry the file's own line numbers), then
 *   a launcher (a template entry instantiated with the run's type). A
 *   shipped kernel (req->builtin: the chapter's, the mistakes) is its
 *   embedded text, compiled the same way. NVRTC makes PTX for the device's
 *   virtual architecture (compute_XY) with -lineinfo and --fmad=false (the
 *   CPU runtime does no contraction either; the PTX's .rn operations keep
 *   the driver's compiler from fusing them), the PTX is rewritten to record
 *   accesses (gpu_ptx.h) and the driver compiles it, in the runtime's
 *   child, every run: the child writes no cache (issue 27).
 * - A step is the state after a barrier: the snapshot gives every cell's
 *   value, the step's row of marks which cells the kernel stored to in it,
 *   a store of the value a cell already held included (the launcher's
 *   poison, 0xA5A5A5A5, still tells a value never written; a change with
 *   no mark, which only a write the rewrite does not see could make,
 *   counts as a write too). Every barrier is a step; the end is one when
 *   the kernel read or wrote in[], out[] or a traced array after its last
 *   barrier, as on the CPU runtime. Per-write operands, the order of
 *   accesses and hazards need the CPU runtime (or --racecheck).
 * - --runs R: R launches back to back, each into its own slot; the shown run
 *   is the first whose output differs from the scan (else run 0). With
 *   each_run (sv_runtime_run_each, the mistakes lab) every run's trace is
 *   built and sent in order.
 * - Failures: a compile error (NVRTC's log, the first error's line); an
 *   illegal address (the launch's error; the block is gone, so no thread or
 *   line); a write past out[n - 1] (a guard of 64 cells after out[]); a
 *   block that does not finish within the time limit: the threads' states
 *   (host memory the kernel writes) say whether some wait at a barrier (a
 *   deadlock, with where) or none does (the time limit). The child
 *   process ends with the context; the caller's process never touches the
 *   GPU: the runtime's child is a fresh program (process.c), so it can use
 *   CUDA although the window's own process may have, behind the GPU's
 *   walls (gpu_walls). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "cpu_compile.h"
#include "gpu_prelude.h"
#include "gpu_ptx.h"
#include "gpu_run.h"
#include "source_scan.h"
#include "request.h"
#include "shipped.h"
#include "sandbox.h"
#include "wire.h"

#include "../core/error.h"
#include "../core/fileio.h"
#include "../core/racecheck.h"
#include "../core/spawn.h"

/* ---- The driver and NVRTC, by dlopen ------------------------------------- */

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

enum {
    CU_ATTR_MAX_THREADS = 1, CU_ATTR_CC_MAJOR = 75, CU_ATTR_CC_MINOR = 76,
    CU_FUNC_SHARED_BYTES = 1, CU_FUNC_MAX_DYN_SHARED = 8,
    CU_HOSTALLOC_DEVICEMAP = 2, CUDA_NOT_READY = 600
};

typedef struct nv_api {
    void *cuda, *nvrtc;
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetName)(char *, int, CUdevice);
    CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
    CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*cuMemsetD32)(CUdeviceptr, unsigned, size_t);
    CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
    CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, unsigned, void *, void **, void **);
    CUresult (*cuStreamQuery)(void *);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuGetErrorString)(CUresult, const char **);
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *, const char *, int,
                                      const char *const *, const char *const *);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *);
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, size_t *);
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char *);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *);
    nvrtcResult (*nvrtcVersion)(int *, int *);
    nvrtcResult (*nvrtcAddNameExpression)(nvrtcProgram, const char *);
    nvrtcResult (*nvrtcGetLoweredName)(nvrtcProgram, const char *, const char **);
} nv_api;

static const char *const kNvrtcNames[] = {
    "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
    "/usr/local/cuda/lib64/libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.12",
    "/usr/local/cuda/lib64/libnvrtc.so"};

static void *open_nvrtc(void)
{
    for (size_t i = 0; i < sizeof kNvrtcNames / sizeof *kNvrtcNames; i++) {
        void *h = dlopen(kNvrtcNames[i], RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
    }
    return NULL;
}

/* Loads both libraries (once per process), or NVRTC alone without
 * with_cuda (the rewrite's test, on a machine with no driver). False with
 * why in words. */
static bool nv_load(nv_api *a, bool with_cuda, char *why, size_t whylen)
{
    if ((a->cuda || !with_cuda) && a->nvrtc)
        return true;
    if (with_cuda && !a->cuda && !(a->cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL))) {
        sv_errorf(why, whylen, "no CUDA driver (libcuda.so.1 not found)");
        return false;
    }
    if (!a->nvrtc && !(a->nvrtc = open_nvrtc())) {
        sv_errorf(why, whylen, "no NVRTC (libnvrtc.so.13 or .12 not found; it comes with the "
                  "CUDA toolkit)");
        return false;
    }
    struct { void **fn; void *lib; const char *name; } syms[] = {
#define SV_SYM(lib, f, s) {(void **)&a->f, a->lib, s}
        SV_SYM(cuda, cuInit, "cuInit"), SV_SYM(cuda, cuDeviceGet, "cuDeviceGet"),
        SV_SYM(cuda, cuDeviceGetName, "cuDeviceGetName"),
        SV_SYM(cuda, cuDeviceGetAttribute, "cuDeviceGetAttribute"),
        SV_SYM(cuda, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
        SV_SYM(cuda, cuCtxSetCurrent, "cuCtxSetCurrent"),
        SV_SYM(cuda, cuModuleLoadDataEx, "cuModuleLoadDataEx"),
        SV_SYM(cuda, cuModuleGetFunction, "cuModuleGetFunction"),
        SV_SYM(cuda, cuModuleGetGlobal, "cuModuleGetGlobal_v2"),
        SV_SYM(cuda, cuFuncGetAttribute, "cuFuncGetAttribute"),
        SV_SYM(cuda, cuFuncSetAttribute, "cuFuncSetAttribute"),
        SV_SYM(cuda, cuMemAlloc, "cuMemAlloc_v2"), SV_SYM(cuda, cuMemcpyHtoD, "cuMemcpyHtoD_v2"),
        SV_SYM(cuda, cuMemcpyDtoH, "cuMemcpyDtoH_v2"), SV_SYM(cuda, cuMemsetD32, "cuMemsetD32_v2"),
        SV_SYM(cuda, cuMemsetD8, "cuMemsetD8_v2"),
        SV_SYM(cuda, cuMemcpyDtoD, "cuMemcpyDtoD_v2"),
        SV_SYM(cuda, cuMemHostAlloc, "cuMemHostAlloc"),
        SV_SYM(cuda, cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"),
        SV_SYM(cuda, cuLaunchKernel, "cuLaunchKernel"),
        SV_SYM(cuda, cuStreamQuery, "cuStreamQuery"),
        SV_SYM(cuda, cuCtxSynchronize, "cuCtxSynchronize"),
        SV_SYM(cuda, cuGetErrorString, "cuGetErrorString"),
        SV_SYM(nvrtc, nvrtcCreateProgram, "nvrtcCreateProgram"),
        SV_SYM(nvrtc, nvrtcCompileProgram, "nvrtcCompileProgram"),
        SV_SYM(nvrtc, nvrtcGetProgramLogSize, "nvrtcGetProgramLogSize"),
        SV_SYM(nvrtc, nvrtcGetProgramLog, "nvrtcGetProgramLog"),
        SV_SYM(nvrtc, nvrtcGetPTXSize, "nvrtcGetPTXSize"),
        SV_SYM(nvrtc, nvrtcGetPTX, "nvrtcGetPTX"),
        SV_SYM(nvrtc, nvrtcDestroyProgram, "nvrtcDestroyProgram"),
        SV_SYM(nvrtc, nvrtcVersion, "nvrtcVersion"),
        SV_SYM(nvrtc, nvrtcAddNameExpression, "nvrtcAddNameExpression"),
        SV_SYM(nvrtc, nvrtcGetLoweredName, "nvrtcGetLoweredName"),
#undef SV_SYM
    };
    for (size_t i = 0; i < sizeof syms / sizeof *syms; i++) {
        if (!syms[i].lib)
            continue; /* (the driver, not loaded) */
        *syms[i].fn = dlsym(syms[i].lib, syms[i].name);
        if (!*syms[i].fn) {
            sv_errorf(why, whylen, "the CUDA driver or NVRTC has no %s (too old?)", syms[i].name);
            a->cuda = a->nvrtc = NULL;
            return false;
        }
    }
    return true;
}

static nv_api api;
static bool rc_mode;    /* this process is the sanitized run of --racecheck */
static bool fresh_mode; /* this process is the sanitized run of --racecheck, a fresh program */

bool sv_rt_gpu_available(char *why, size_t whylen)
{
    /* Only what needs no CUDA call: this runs in the caller's process,
     * and a process that has initialized CUDA cannot use it in a child it
     * forks. The device itself is looked for in the child. */
    if (!nv_load(&api, true, why, whylen))
        return false;
    if (access("/dev/nvidiactl", F_OK) != 0) {
        sv_errorf(why, whylen, "no NVIDIA GPU (/dev/nvidiactl is missing)");
        return false;
    }
    return true;
}

static const char *cu_words(CUresult r);

/* Device 0: its name, compute capability, SMs and most threads a block (the
 * probe's and gpu_open's one query); the driver's first error. */
static CUresult device_query(CUdevice *dev, sv_runtime_gpu_device *d)
{
    enum { ATTR_SMS = 16 };
    int mt = 0;
    CUresult r = api.cuDeviceGet(dev, 0);
    if (r == 0)
        r = api.cuDeviceGetName(d->name, sizeof d->name, *dev);
    if (r == 0)
        r = api.cuDeviceGetAttribute(&d->cc_major, CU_ATTR_CC_MAJOR, *dev);
    if (r == 0)
        r = api.cuDeviceGetAttribute(&d->cc_minor, CU_ATTR_CC_MINOR, *dev);
    if (r == 0)
        r = api.cuDeviceGetAttribute(&d->sm_count, ATTR_SMS, *dev);
    if (r == 0)
        r = api.cuDeviceGetAttribute(&mt, CU_ATTR_MAX_THREADS, *dev);
    d->name[sizeof d->name - 1] = '\0';
    d->max_threads_per_block = mt > 0 ? (size_t)mt : 0;
    return r;
}

bool sv_rt_gpu_probe(sv_runtime_gpu_device *d, char *why, size_t whylen)
{
    memset(d, 0, sizeof *d);
    if (!sv_rt_gpu_available(why, whylen))
        return false;
    enum { NO_DEVICE = 100, INSUFFICIENT_DRIVER = 35 };
    CUresult r = api.cuInit(0);
    CUdevice dev = 0;
    if (r == 0)
        r = device_query(&dev, d);
    if (r == NO_DEVICE) {
        sv_errorf(why, whylen, "no CUDA device");
        return false;
    }
    if (r == INSUFFICIENT_DRIVER) {
        sv_errorf(why, whylen, "no CUDA driver (%s)", cu_words(r));
        return false;
    }
    if (r != 0) {
        sv_errorf(why, whylen, "the CUDA driver: %s (CUDA error %d)", cu_words(r), r);
        return false;
    }
    sv_errorf(why, whylen, "%s", "");
    return true;
}

static const char *cu_words(CUresult r)
{
    const char *s = NULL;
    if (api.cuGetErrorString && api.cuGetErrorString(r, &s) == 0 && s)
        return s;
    return "unknown CUDA error";
}

#define CU(call, what)                                                                     \
    do {                                                                                   \
        CUresult cu_r_ = (call);                                                           \
        if (cu_r_ != 0) {                                                                  \
            sv_errorf(err, errlen, "%s: %s (CUDA error %d)", what, cu_words(cu_r_), cu_r_); \
            return false;                                                                  \
        }                                                                                  \
    } while (0)

/* ---- The text NVRTC compiles ----------------------------------------------- */

/* The brace depth of the code before offset at (comments, strings and
 * character literals skipped): 0 at file scope. */
static int depth_at(const char *s, size_t at)
{
    int d = 0;
    for (size_t i = 0; i < at && s[i]; i++) {
        char c = s[i];
        if (c == '/' && s[i + 1] == '/') {
            while (i < at && s[i] && s[i] != '\n')
                i++;
        } else if (c == '/' && s[i + 1] == '*') {
            for (i += 2; i < at && s[i] && !(s[i] == '*' && s[i + 1] == '/'); i++) {
            }
            i++;
        } else if (c == '"' || c == '\'') {
            for (i++; i < at && s[i] && s[i] != c; i++)
                if (s[i] == '\\')
                    i++;
        } else if (c == '{') {
            d++;
        } else if (c == '}') {
            d--;
        }
    }
    return d;
}

/* The launcher: poison, the marks' record (inline asm, after the poison,
 * which covers the prelude's own shared variables, and before the first
 * marked access, gpu_prelude.h), the extern and
 * file-scope arrays registered, the entry (a template instantiated with
 * the run's type), the end barrier and its snapshot. */
static size_t put_launcher(char *o, size_t cap, const sv_source_scan *s, sv_type type,
                           const char *text)
{
    const sv_scan_kernel *k = &s->kernels[s->entry];
    const char *T = sv_source_ctype(type);
    size_t u = (size_t)snprintf(o, cap,
        "\n#line 1 \"<scanviz GPU launcher>\"\n"
        "extern \"C\" __attribute__((global)) void sv_gpu_launch(const %s *in, %s *out, int n,\n"
        "                                                       struct sv_ctl c) {\n"
        "  extern __shared__ __align__(16) unsigned char sv_dyn[];\n"
        "  c.w0 = (sv_u32)__cvta_generic_to_shared(sv_dyn) - c.w0; /* static bytes below */\n"
        "  for (sv_u32 w = threadIdx.x; w < c.wwords; w += blockDim.x)\n"
        "    sv_sts(c.w0 + 4u * w, SV_POISON);\n"
        "  sv_stg(&sv_tstep[threadIdx.x], 0u);\n"
        "  sv_real_sync();\n"
        /* the record after the poison: the window holds the prelude's own
         * shared variables (sv_rt_mk too), and before the first marked
         * access (the store into c.run below) */
        "  if (threadIdx.x == 0) {\n"
        "    sv_mk_put64(%d, c.mark, false); sv_mk_put64(%d, out, false);\n"
        "    sv_mk_put64(%d, out, true); sv_mk_put64(%d, in, false); sv_mk_put64(%d, in, true);\n"
        "    sv_mk_put32(%d, 0u); sv_mk_put32(%d, c.w0); sv_mk_put32(%d, c.wwords);\n"
        "    sv_mk_put32(%d, 4u * (sv_u32)n); sv_mk_put32(%d, c.wwords + (sv_u32)n + 4u);\n"
        "    sv_mk_put32(%d, 2u * (c.wwords + (sv_u32)n + 4u));\n"
        "    c.run->pad = c.w0; sv_cs = c; sv_nstep = 0; }\n"
        "  sv_real_sync();\n"
        "  if (threadIdx.x == 0) {\n", T, T, SV_MK_BASE, SV_MK_OUT, SV_MK_OUTG, SV_MK_IN,
        SV_MK_ING, SV_MK_ROW, SV_MK_W0, SV_MK_WWORDS, SV_MK_IOBYTES, SV_MK_READ, SV_MK_INREAD);
    /* the extern array first, then the file-scope ones, as the CPU runtime
     * places them */
    for (size_t i = 0; i < s->nshared && u < cap; i++)
        if (s->shared[i].is_extern) {
            u += (size_t)snprintf(o + u, cap - u,
                                  "    sv_reg_add(%d, sv_fnv(\"%s\"), sv_dyn, 8u * (sv_u32)n, 2u);\n",
                                  s->shared[i].line, s->shared[i].name);
            break; /* every extern array aliases the dynamic memory */
        }
    for (size_t i = 0; i < s->nshared && u < cap; i++) {
        const sv_scan_shared *d = &s->shared[i];
        if (!d->is_extern && depth_at(text, d->kw_at) == 0)
            u += (size_t)snprintf(o + u, cap - u,
                                  "    sv_reg_add(%d, sv_fnv(\"%s\"), &%s, (sv_u32)sizeof(%s), "
                                  "sv_rows_of<decltype(%s)>::v);\n",
                                  d->line, d->name, d->name, d->name, d->name);
    }
    if (u < cap)
        u += (size_t)snprintf(o + u, cap - u,
            "  }\n"
            "  sv_real_sync();\n"
            "  sv_shake(0u);\n"
            "  %s%s%s%s(in, out, n);\n"
            "  sv_cs.state[threadIdx.x] = -1;\n"
            "  sv_end_sync(blockDim.x);\n"
            "  sv_u32 step = sv_snapshot(0);\n"
            "  if (threadIdx.x == 0) sv_cs.run->nsteps = step < c.maxs ? step + 1u : c.maxs;\n"
            "}\n",
            k->name, k->tparam[0] ? "<" : "", k->tparam[0] ? T : "", k->tparam[0] ? ">" : "");
    return u < cap ? u : cap - 1;
}

/* scan_ops.h's text (the build embeds it, runtime_embed). */
extern const unsigned char sv_rt_scan_ops_h[];
extern const size_t sv_rt_scan_ops_h_size;

/* The whole text (malloc'd): the prelude, the run's scan as constants
 * (SV_SCAN_OP: core's sv_op, SV_SCAN_EXCLUSIVE 0 or 1) and scan_ops.h
 * (Op::apply, Op::identity, scan_exclusive, as the CPU runtime has them),
 * the kernel file as the CPU compiler gets it up to its launcher
 * (file-scope static arrays marked SV_RT_FSTATIC, registered by the
 * launcher instead), the GPU launcher. */
char *sv_rt_gpu_text(const sv_source_scan *s, const char *src, const char *path, sv_type type,
                     sv_op op, sv_scan scan)
{
    char *cpu = sv_source_cpu_text(s, src, path, type);
    if (!cpu)
        return NULL;
    char *cut = strstr(cpu, "\n#line 1 \"<scanviz launcher>\"");
    if (cut)
        *cut = '\0';
    size_t len = strlen(cpu),
           cap = sizeof sv_gpu_prelude + sizeof sv_gpu_prelude_sync + sizeof sv_gpu_prelude_warp +
                 sizeof sv_gpu_prelude_print +
                 sv_rt_scan_ops_h_size + len +
                 2 * len / 10 + 16384;
    char *o = malloc(cap);
    if (!o) {
        free(cpu);
        return NULL;
    }
    size_t u = (size_t)snprintf(o, cap, "%s%s%s%s#define SV_SCAN_OP %d\n#define SV_SCAN_EXCLUSIVE %d\n"
                                "#line 1 \"<scanviz scan_ops.h>\"\n",
                                sv_gpu_prelude, sv_gpu_prelude_sync, sv_gpu_prelude_warp,
                                sv_gpu_prelude_print, (int)op,
                                scan == SV_SCAN_EXCLUSIVE ? 1 : 0);
    memcpy(o + u, sv_rt_scan_ops_h, sv_rt_scan_ops_h_size);
    u += sv_rt_scan_ops_h_size;
    o[u++] = '\n';
    /* copy, renaming the file-scope SV_RT_STATIC( */
    const char *p = cpu;
    for (const char *q; (q = strstr(p, "SV_RT_STATIC(")) != NULL; p = q + 13) {
        memcpy(o + u, p, (size_t)(q - p));
        u += (size_t)(q - p);
        const char *name = depth_at(cpu, (size_t)(q - cpu)) == 0 ? "SV_RT_FSTATIC(" : "SV_RT_STATIC(";
        u += (size_t)snprintf(o + u, cap - u, "%s", name);
    }
    u += (size_t)snprintf(o + u, cap - u, "%s", p);
    put_launcher(o + u, cap - u, s, type, src);
    free(cpu);
    return o;
}

/* ---- Compile (cached by content) ------------------------------------------ */


/* The first "(N): error" of the log for path: N, else 0. */
static int first_error_line(const char *log, const char *path)
{
    size_t pl = strlen(path);
    for (const char *p = strstr(log, path); p; p = strstr(p + 1, path)) {
        int line = 0;
        if (p[pl] == '(' && sscanf(p + pl, "(%d): error", &line) == 1 && strstr(p + pl, "error"))
            return line;
    }
    return 0;
}

typedef struct gpu_bin {
    char *data;
    size_t len;
    bool cached;
    double compile_ms;
} gpu_bin;

static double ms_since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) * 1e3 + (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* One NVRTC program: text compiled with opts, each of the nexpr name
 * expressions (may be "": none) added and its lowered name copied into
 * lowered[k] ("" when none); *ptx, or on a compile error *log (NVRTC's
 * messages). False with err when NVRTC itself failed. */
static bool nvrtc_build(const char *text, const char *path, const char *const *opts, int nopts,
                        char (*exprs)[256], size_t nexpr, char (*lowered)[256], char **ptx,
                        char **log, char *err, size_t errlen)
{
    *ptx = *log = NULL;
    nvrtcProgram prog = NULL;
    if (api.nvrtcCreateProgram(&prog, text, path, 0, NULL, NULL) != 0) {
        sv_errorf(err, errlen, "nvrtcCreateProgram failed");
        return false;
    }
    for (size_t k = 0; k < nexpr; k++)
        if (exprs[k][0])
            api.nvrtcAddNameExpression(prog, exprs[k]);
    bool ok = true;
    if (api.nvrtcCompileProgram(prog, nopts, opts) != 0) {
        size_t loglen = 0;
        api.nvrtcGetProgramLogSize(prog, &loglen);
        *log = malloc(loglen + 1);
        if (*log) {
            (*log)[0] = '\0';
            if (loglen)
                api.nvrtcGetProgramLog(prog, *log);
            (*log)[loglen] = '\0';
        }
        if (!*log || !(*log)[0]) {
            free(*log);
            *log = strdup("NVRTC refused the file (no log)");
        }
        ok = *log != NULL;
        if (!ok)
            sv_errorf(err, errlen, "out of memory");
    } else {
        for (size_t k = 0; k < nexpr; k++) {
            const char *low = NULL;
            lowered[k][0] = '\0';
            if (exprs[k][0] && api.nvrtcGetLoweredName(prog, exprs[k], &low) == 0 && low)
                snprintf(lowered[k], sizeof lowered[k], "%s", low);
        }
        size_t n = 0;
        ok = api.nvrtcGetPTXSize(prog, &n) == 0 && n > 0 && (*ptx = malloc(n + 1)) &&
             api.nvrtcGetPTX(prog, *ptx) == 0;
        if (ok)
            (*ptx)[n] = '\0';
        else
            sv_errorf(err, errlen, "NVRTC gave no PTX");
    }
    api.nvrtcDestroyProgram(&prog);
    return ok;
}

bool sv_rt_gpu_nvrtc(const char *text, const char *path, int arch, char **ptx, char **log,
                     char *err, size_t errlen)
{
    *ptx = *log = NULL;
    if (!nv_load(&api, false, err, errlen))
        return false;
    /* PTX for the virtual architecture (no cubin: the PTX is rewritten,
     * gpu_ptx.h, and the driver compiles it for the device) */
    char archopt[32], maxs[48];
    snprintf(archopt, sizeof archopt, "-arch=compute_%d", arch);
    snprintf(maxs, sizeof maxs, "-DSV_MAXS=%d", SV_KTRACE_MAX_STEPS);
    const char *opts[] = {archopt, "-std=c++17", "-lineinfo", "--fmad=false", "-default-device",
                          maxs};
    return nvrtc_build(text, path, opts, (int)(sizeof opts / sizeof *opts), NULL, 0, NULL, ptx,
                       log, err, errlen);
}

/* The module's text for text: NVRTC's PTX with the write recording put in
 * (gpu_ptx.h), in this child, every run (the child cannot write the
 * kernel cache, issue 27; a compile is 25-200 ms). A compile error fills
 * t's failure (true return, no data). */
static bool gpu_compile(const char *text, const char *path, int arch, gpu_bin *b, sv_ktrace *t,
                        char *err, size_t errlen)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *ptx = NULL, *log = NULL;
    if (!sv_rt_gpu_nvrtc(text, path, arch, &ptx, &log, err, errlen))
        return false;
    bool ok = true;
    if (log) {
        ok = sv_ktrace_fail(t, SV_KFAIL_COMPILE, log, first_error_line(log, path), -1, err,
                            errlen);
    } else {
#ifdef SV_GPU_NO_MARKS
        b->data = strdup(ptx);
#else
        b->data = sv_gpu_ptx_mark(ptx, NULL, err, errlen);
#endif
        b->len = b->data ? strlen(b->data) + 1 : 0;
        ok = b->data != NULL;
    }
    free(ptx);
    free(log);
    b->compile_ms = ms_since(&t0);
    return ok;
}

/* ---- Running ---------------------------------------------------------------- */

/* The run's header as the prelude lays it out (SV_GPU_PRELUDE_TYPES). */
typedef struct gpu_reg {
    uint32_t line, hash, off, bytes, rows, order;
} gpu_reg;
typedef struct gpu_run_hdr {
    uint32_t nsteps, nregs, overflow, w0;
    uint32_t seen[SV_GPU_MAX_REGS];
    gpu_reg reg[SV_GPU_MAX_REGS];
    int32_t lines[SV_KTRACE_MAX_STEPS];
} gpu_run_hdr;
/* struct sv_ctl, by value. */
typedef struct gpu_ctl {
    CUdeviceptr run, snap, state, out, mark;
    unsigned long long seed;
    uint32_t w0, wwords, n, maxs, run_index, shake_ns, mrow, mpad;
} gpu_ctl;

#define OUT_GUARD 64            /* cells after out[] that catch a write past its end */
#define SNAP_BUDGET ((size_t)1 << 30) /* device bytes for all runs' snapshots */
#define SHAKE_NS 2000           /* --shake: up to 2 us per warp before each interval */

/* Everything one call holds; the child process ends soon after. */
typedef struct gpu_job {
    const sv_runtime_request *req;
    sv_ktrace *t;
    uint32_t n, runs, wwords, maxs, static_bytes;
    uint32_t run_base;       /* each_run: the batch's first run (its shake's run index) */
    size_t hdr_bytes, snap_words, slot_bytes, out_words;
    size_t mrow, mark_bytes; /* a marks row's bytes (gpu_ptx.h); one run's marks: maxs + 1 rows */
    CUdeviceptr d_in, d_slots, d_outs, d_state, d_marks;
    int *h_state;
    gpu_run_hdr *hdr;  /* runs headers, host copies */
    uint32_t *outs;    /* runs x out_words */
    bool *wrong;       /* runs: run k's output is not what it must be */
    bool *out_marked;  /* n: the run's out[i] was stored to (job_steps, for job_output) */
    double run_ms;
} gpu_job;

static uint32_t fnv32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* Device, context, module and function; t->device named. */
static bool gpu_open(const gpu_bin *b, CUfunction *fn, int *arch, uint32_t *max_threads,
                     sv_ktrace *t, char *err, size_t errlen)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    sv_runtime_gpu_device d;
    memset(&d, 0, sizeof d);
    CU(device_query(&dev, &d), "no CUDA device");
    *arch = d.cc_major * 10 + d.cc_minor;
    *max_threads = (uint32_t)d.max_threads_per_block;
    unsigned mt = *max_threads;
    if (!sv_ktrace_set_text(&t->device, d.name, err, errlen))
        return false;
    if (!b)
        return true;
    CU(api.cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    CU(api.cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    /* the driver compiles the rewritten PTX (its messages, should it
     * refuse the rewrite, into the error), for blocks of the device's
     * most threads: its registers then fit one block of n <= 1024 (the
     * kernel file's own __launch_bounds__ is dropped, gpu_prelude.h) */
    char jlog[4096] = "";
    int jopt[3] = {5 /* CU_JIT_ERROR_LOG_BUFFER */, 6 /* ..._SIZE_BYTES */,
                   1 /* CU_JIT_THREADS_PER_BLOCK */};
    void *jval[3] = {jlog, (void *)(uintptr_t)sizeof jlog, (void *)(uintptr_t)(unsigned)mt};
    CUresult lr = api.cuModuleLoadDataEx(&mod, b->data, 3, jopt, jval);
    if (lr != 0) {
        jlog[sizeof jlog - 1] = '\0';
        sv_errorf(err, errlen, "loading the compiled kernel: %s (CUDA error %d): %.900s",
                  cu_words(lr), lr, jlog);
        return false;
    }
    CU(api.cuModuleGetFunction(fn, mod, "sv_gpu_launch"), "the launcher");
    return true;
}

/* The runs' headers, out[] (poisoned) and marks as before any run. */
static bool job_reset(gpu_job *j, char *err, size_t errlen)
{
    for (uint32_t k = 0; k < j->runs; k++)
        CU(api.cuMemsetD32(j->d_slots + k * j->slot_bytes, 0, sizeof(gpu_run_hdr) / 4),
           "cuMemsetD32");
    CU(api.cuMemsetD32(j->d_outs, SV_GPU_POISON, j->out_words * j->runs), "cuMemsetD32");
    CU(api.cuMemsetD32(j->d_marks, 0, j->mark_bytes * j->runs / 4), "cuMemsetD32");
    return true;
}

/* Buffers for j->runs runs of fn (each_run: a batch's). */
static bool job_alloc(gpu_job *j, CUfunction fn, char *err, size_t errlen)
{
    int sb = 0;
    CU(api.cuFuncGetAttribute(&sb, CU_FUNC_SHARED_BYTES, fn), "cuFuncGetAttribute");
    j->static_bytes = (uint32_t)sb;
    size_t dyn = 8u * (size_t)j->n;
    CU(api.cuFuncSetAttribute(fn, CU_FUNC_MAX_DYN_SHARED, (int)dyn), "cuFuncSetAttribute");
    j->wwords = (uint32_t)((j->static_bytes + dyn) / 4);
    j->mrow = SV_MK_ROW_BYTES(j->wwords, j->n);
    /* a step: its snapshot and its marks row */
    size_t step_bytes = ((size_t)j->wwords + j->n) * 4 + j->mrow;
    size_t fit = SNAP_BUDGET / (step_bytes * j->runs);
    j->maxs = (uint32_t)(fit > SV_KTRACE_MAX_STEPS ? SV_KTRACE_MAX_STEPS : fit < 2 ? 2 : fit);
    j->hdr_bytes = (sizeof(gpu_run_hdr) + 255) & ~(size_t)255;
    j->snap_words = (size_t)j->maxs * (j->wwords + j->n);
    j->slot_bytes = j->hdr_bytes + j->snap_words * 4;
    j->out_words = (size_t)j->n + OUT_GUARD;
    /* the last row takes the marks of the steps past maxs (overflow) */
    j->mark_bytes = (((size_t)j->maxs + 1) * j->mrow + 255) & ~(size_t)255;
    j->out_marked = calloc(j->n, sizeof *j->out_marked);
    if (!j->out_marked) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    CU(api.cuMemAlloc(&j->d_in, (size_t)j->n * 4), "cuMemAlloc");
    CU(api.cuMemAlloc(&j->d_marks, j->mark_bytes * j->runs), "cuMemAlloc (write marks)");
    CU(api.cuMemAlloc(&j->d_slots, j->slot_bytes * j->runs), "cuMemAlloc (snapshots)");
    CU(api.cuMemAlloc(&j->d_outs, j->out_words * 4 * j->runs), "cuMemAlloc");
    CU(api.cuMemHostAlloc((void **)&j->h_state, (size_t)j->n * sizeof(int),
                          CU_HOSTALLOC_DEVICEMAP), "cuMemHostAlloc");
    CU(api.cuMemHostGetDevicePointer(&j->d_state, j->h_state, 0), "cuMemHostGetDevicePointer");
    memset(j->h_state, 0, (size_t)j->n * sizeof(int));
    uint32_t *in = malloc((size_t)j->n * 4);
    if (!in) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    for (uint32_t i = 0; i < j->n; i++)
        in[i] = j->t->input[i].bits;
    CUresult r = api.cuMemcpyHtoD(j->d_in, in, (size_t)j->n * 4);
    free(in);
    CU(r, "copying the input");
    return job_reset(j, err, errlen);
}

/* Whether the threads' states stay the same over about 100 ms: a block
 * stuck at a barrier is frozen, while a loop that never ends (barriers
 * inside it) keeps changing them; one look could catch it at a barrier. */
static bool states_frozen(gpu_job *j)
{
    volatile int *st = (volatile int *)j->h_state;
    for (int look = 0; look < 20; look++) {
        int first[64];
        uint32_t m = j->n < 64 ? j->n : 64, stride = j->n / m ? j->n / m : 1;
        for (uint32_t k = 0; k < m; k++)
            first[k] = st[k * stride];
        nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
        for (uint32_t k = 0; k < m; k++)
            if (st[k * stride] != first[k])
                return false;
    }
    return true;
}

/* Where the threads are when the block has not finished: a deadlock when
 * some wait at a barrier (each barrier line with its count and first
 * thread, and line 0 for those that have returned), else the time limit.
 * The GPU counts a barrier's arrivals by warp, so in a warp split by an
 * `if` around __syncthreads() the threads that wait are not always the
 * ones the CPU runtime names (its fibers wait one by one). */
static bool classify_hang(gpu_job *j, char *err, size_t errlen)
{
    uint32_t waiting = 0, ended = 0;
    bool frozen = states_frozen(j);
    for (uint32_t i = 0; i < j->n; i++) {
        int s = ((volatile int *)j->h_state)[i];
        waiting += s > 0;
        ended += s < 0;
    }
    if (!frozen)
        waiting = 0; /* still moving: the time limit, not a deadlock */
    char msg[512];
    if (waiting > 0) {
        if (!sv_ktrace_fail(j->t, SV_KFAIL_DEADLOCK, "", 0, -1, err, errlen))
            return false;
        for (uint32_t i = 0; i < j->n; i++) {
            int s = ((volatile int *)j->h_state)[i];
            bool seen = s == 0;
            for (size_t w = 0; w < j->t->failure.nwaits && !seen; w++)
                seen = j->t->failure.waits[w].line == (s < 0 ? 0 : s);
            if (seen)
                continue;
            uint32_t count = 0;
            for (uint32_t q = i; q < j->n; q++)
                count += ((volatile int *)j->h_state)[q] == s;
            if (!sv_ktrace_add_wait(j->t, s < 0 ? 0 : s, count, i, err, errlen))
                return false;
        }
        snprintf(msg, sizeof msg, "deadlock on the GPU: %u threads wait at a barrier, %u have "
                 "returned, %u are elsewhere", (unsigned)waiting, (unsigned)ended,
                 (unsigned)(j->n - waiting - ended));
        return sv_ktrace_set_text(&j->t->failure.message, msg, err, errlen);
    }
    uint32_t ms = sv_runtime_time_limit_ms(j->req);
    snprintf(msg, sizeof msg, "the kernel ran past its time limit of %u ms on the GPU (no "
             "thread waits at a barrier)", (unsigned)ms);
    return sv_ktrace_fail(j->t, SV_KFAIL_TIME, msg, 0, -1, err, errlen);
}

/* Launches every run and waits for them, at most the time limit less a
 * margin; *done false when they did not finish (t's failure says why). */
static bool job_run(gpu_job *j, CUfunction fn, bool *done, char *err, size_t errlen)
{
    const sv_runtime_request *req = j->req;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    *done = false;
    for (uint32_t k = 0; k < j->runs; k++) {
        gpu_ctl c = {j->d_slots + k * j->slot_bytes, j->d_slots + k * j->slot_bytes + j->hdr_bytes,
                     j->d_state, j->d_outs + k * j->out_words * 4, j->d_marks + k * j->mark_bytes,
                     req->shake_seed ? req->shake_seed : 1, j->static_bytes, j->wwords, j->n,
                     j->maxs, j->run_base + k, req->shake ? SHAKE_NS : 0, (uint32_t)j->mrow, 0};
        CUdeviceptr out = c.out;
        int n = (int)j->n;
        void *params[] = {&j->d_in, &out, &n, &c};
        CU(api.cuLaunchKernel(fn, 1, 1, 1, j->n, 1, 1, (unsigned)(8u * j->n), NULL, params, NULL),
           "launching the kernel");
    }
    uint32_t ms = sv_runtime_time_limit_ms(req);
    double limit = ms > 400 ? ms - 200.0 : ms * 0.5;
    for (;;) {
        CUresult r = api.cuStreamQuery(NULL);
        if (r == 0)
            break;
        if (r != CUDA_NOT_READY) {
            char msg[512];
            snprintf(msg, sizeof msg, "the kernel failed on the GPU: %s (CUDA error %d); an "
                     "illegal address is an access outside a buffer: the CPU runtime "
                     "(--backend cpu) names the thread, the cell and the line", cu_words(r), r);
            return sv_ktrace_fail(j->t, r == 700 ? SV_KFAIL_OUT_OF_RANGE : SV_KFAIL_CRASH, msg,
                                  0, -1, err, errlen);
        }
        if (ms_since(&t0) > limit)
            return classify_hang(j, err, errlen);
        struct timespec nap = {0, 200000};
        nanosleep(&nap, NULL);
    }
    j->run_ms += ms_since(&t0); /* (each_run: over its batches) */
    *done = true;
    return true;
}

/* ---- The trace from the snapshots ------------------------------------------ */

/* Copies every run's header and out[] back; the shown run: the first whose
 * output is not what it must hold (the scan, or the exercise's round; an
 * unwritten cell included), else run 0. */
static bool job_collect(gpu_job *j, uint32_t *shown, char *err, size_t errlen)
{
    j->hdr = malloc(sizeof(gpu_run_hdr) * j->runs);
    j->outs = malloc(j->out_words * 4 * j->runs);
    j->wrong = calloc(j->runs, sizeof *j->wrong);
    sv_value *expected = malloc(sizeof *expected * j->n);
    double *mag = malloc(sizeof *mag * j->n);
    if (!j->hdr || !j->outs || !j->wrong || !expected || !mag) {
        free(expected);
        free(mag);
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    /* what out[] must hold: the scan, or the exercise's round (output_round) */
    if (!sv_ktrace_want(j->t, expected, mag, err, errlen)) {
        free(expected);
        free(mag);
        return false;
    }
    CUresult r = api.cuMemcpyDtoH(j->outs, j->d_outs, j->out_words * 4 * j->runs);
    for (uint32_t k = 0; r == 0 && k < j->runs; k++)
        r = api.cuMemcpyDtoH(&j->hdr[k], j->d_slots + k * j->slot_bytes, sizeof(gpu_run_hdr));
    uint32_t wrong = 0;
    bool have = false;
    for (uint32_t k = 0; r == 0 && k < j->runs; k++) {
        const uint32_t *o = j->outs + k * j->out_words;
        bool w = false;
        for (uint32_t i = 0; i < j->n && !w; i++)
            w = o[i] == SV_GPU_POISON;
        if (!w) {
            /* The verdict of sv_ktrace_analyze, float32 tolerance included. */
            sv_value *vals = malloc((size_t)j->n * sizeof *vals);
            for (uint32_t i = 0; vals && i < j->n; i++)
                vals[i].bits = o[i];
            w = !vals || sv_ktrace_out_check(j->t, expected, mag, vals, NULL, NULL) >= 0;
            free(vals);
        }
        wrong += w;
        j->wrong[k] = w;
        if (w && !have) {
            *shown = k;
            have = true;
        }
    }
    free(expected);
    free(mag);
    CU(r, "copying the runs back");
    if (!have)
        *shown = 0;
    j->t->runs = j->runs;
    j->t->shown_run = *shown;
    j->t->wrong_runs = wrong;
    return true;
}

/* The arrays of run k: its registered shared arrays in the order they ran,
 * by their declared names, then out. index[a] gets each one's first word in
 * the snapshot; -1 on a layout the snapshot does not cover. */
static int job_arrays(gpu_job *j, const sv_source_scan *scan, uint32_t k, uint32_t *first,
                      char *err, size_t errlen)
{
    const gpu_run_hdr *h = &j->hdr[k];
    uint32_t nregs = h->nregs < SV_GPU_MAX_REGS ? h->nregs : SV_GPU_MAX_REGS;
    int na = 0;
    for (uint32_t o = 0; o < nregs && na < SV_KTRACE_MAX_ARRAYS - 1; o++) {
        const gpu_reg *g = &h->reg[o];
        const char *name = NULL;
        for (size_t d = 0; d < scan->nshared && !name; d++)
            if ((uint32_t)scan->shared[d].line == g->line && fnv32(scan->shared[d].name) == g->hash)
                name = scan->shared[d].name;
        if (!name || g->off < h->w0 || g->off - h->w0 + g->bytes > j->wwords * 4u ||
            (g->off - h->w0) % 4 || g->bytes / 4 == 0)
            continue; /* not one of the file's, or outside the window: not traced */
        uint32_t len = g->bytes / 4, rows = g->rows && len % g->rows == 0 ? g->rows : 1;
        if (len > SV_KTRACE_MAX_CELLS)
            continue;
        if (sv_ktrace_add_array(j->t, name, SV_KARRAY_SHARED, len, rows, err, errlen) < 0)
            return -1;
        first[na++] = (g->off - h->w0) / 4;
    }
    if (sv_ktrace_add_array(j->t, "out", SV_KARRAY_OUT, j->n, 1, err, errlen) < 0)
        return -1;
    first[na++] = j->wwords;
    return na;
}

/* Whether any byte of m[0 .. len) is set. */
static bool any_set(const unsigned char *m, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (m[i])
            return true;
    return false;
}

/* Steps of run k: each barrier's snapshot gives the values, the step's
 * row of marks (gpu_ptx.h) which cells were stored to; a cell whose value
 * changed without a mark (a write the rewrite does not see, such as an
 * atomic) counts as written too. As on the CPU runtime, every barrier is
 * a step, and the end is one when the kernel accessed a traced array, in[]
 * or out[] after its last barrier (or it is the only one). Fills
 * j->out_marked for job_output. */
static bool job_steps(gpu_job *j, const sv_source_scan *scan, uint32_t k, char *err,
                      size_t errlen)
{
    const gpu_run_hdr *h = &j->hdr[k];
    uint32_t first[SV_KTRACE_MAX_ARRAYS];
    int na = job_arrays(j, scan, k, first, err, errlen);
    if (na < 0)
        return false;
    uint32_t nsteps = h->nsteps < j->maxs ? h->nsteps : j->maxs;
    size_t sw = (size_t)j->wwords + j->n, mr = j->mrow;
    /* the marks: the steps' rows, and the overflow row when there is one */
    size_t mrows = (size_t)nsteps + (h->overflow ? 1 : 0);
    uint32_t *snap = malloc((nsteps ? nsteps : 1) * sw * 4);
    unsigned char *marks = malloc((mrows ? mrows : 1) * mr);
    if (!snap || !marks) {
        free(snap);
        free(marks);
        sv_errorf(err, errlen, "out of memory for %u steps", (unsigned)nsteps);
        return false;
    }
    CUdeviceptr dm = j->d_marks + k * j->mark_bytes;
    CUresult r = nsteps ? api.cuMemcpyDtoH(snap, j->d_slots + k * j->slot_bytes + j->hdr_bytes,
                                           nsteps * sw * 4)
                        : 0;
    if (r == 0 && nsteps)
        r = api.cuMemcpyDtoH(marks, dm, nsteps * mr);
    if (r == 0 && h->overflow)
        r = api.cuMemcpyDtoH(marks + nsteps * mr, dm + (size_t)j->maxs * mr, mr);
    bool ok = r == 0;
    if (!ok)
        sv_errorf(err, errlen, "copying the snapshots back: %s", cu_words(r));
    memset(j->out_marked, 0, j->n * sizeof *j->out_marked);
    for (size_t row = 0; ok && row < mrows; row++)
        for (uint32_t i = 0; i < j->n; i++)
            j->out_marked[i] = j->out_marked[i] || marks[row * mr + j->wwords + i];
    size_t rd = (size_t)j->wwords + j->n + 4; /* a row's read marks */
    for (uint32_t s = 0; ok && s < nsteps; s++) {
        const uint32_t *now = snap + s * sw, *before = s ? now - sw : NULL;
        const unsigned char *m = marks + s * mr;
        bool last = s + 1 == nsteps && h->lines[s] == 0, any = m[2 * rd] != 0;
        for (int a = 0; a < na && !any; a++)
            any = any_set(m + first[a], j->t->arrays[a].len) ||
                  any_set(m + rd + first[a], j->t->arrays[a].len);
        if (last && !any && j->t->nsteps > 0)
            break;
        sv_kstep *st = sv_ktrace_add_step(j->t, h->lines[s], err, errlen);
        ok = st != NULL;
        for (int a = 0; ok && a < na; a++)
            for (uint32_t c = 0; c < j->t->arrays[a].len; c++) {
                uint32_t v = now[first[a] + c];
                if (m[first[a] + c] || v != (before ? before[first[a] + c] : SV_GPU_POISON))
                    sv_kstep_set_cell(j->t, st, (uint32_t)a, c, (sv_value){.bits = v});
            }
    }
    free(snap);
    free(marks);
    return ok;
}

/* out[] of run k into t (a cell stored to, or not the poison, is
 * written); a write past its end, in run k or with every_run in any run,
 * is a failure. */
static bool job_output(gpu_job *j, uint32_t k, bool every_run, char *err, size_t errlen)
{
    const uint32_t *o = j->outs + k * j->out_words;
    for (uint32_t i = 0; i < j->n; i++)
        if (o[i] != SV_GPU_POISON || j->out_marked[i])
            sv_ktrace_set_output(j->t, i, (sv_value){.bits = o[i]});
    for (uint32_t q = every_run ? 0 : k; q < (every_run ? j->runs : k + 1); q++)
        for (uint32_t g = 0; g < OUT_GUARD; g++)
            if (j->outs[q * j->out_words + j->n + g] != SV_GPU_POISON) {
                char msg[256];
                snprintf(msg, sizeof msg, "a thread wrote out[%u] in run %u, past the end of "
                         "out[] (n = %u cells); the CPU runtime names the thread and the line",
                         (unsigned)(j->n + g), (unsigned)q, (unsigned)j->n);
                if (!sv_ktrace_fail(j->t, SV_KFAIL_OUT_OF_RANGE, msg, 0, -1, err, errlen))
                    return false;
                j->t->failure.array = (int32_t)j->t->narrays - 1;
                j->t->failure.index = (int64_t)(j->n + g);
                return true;
            }
    return true;
}

/* Forgets t's last run (each_run): its arrays, steps, output and failure,
 * for the next run's. */
static void trace_clear_run(sv_ktrace *t)
{
    for (size_t s = 0; s < t->nsteps; s++)
        sv_kstep_clear(&t->steps[s], t->narrays);
    free(t->steps);
    t->steps = NULL;
    t->nsteps = 0;
    for (size_t a = 0; a < t->narrays; a++)
        free(t->arrays[a].name);
    free(t->arrays);
    t->arrays = NULL;
    t->narrays = 0;
    memset(t->output, 0, t->n * sizeof *t->output);
    memset(t->output_written, 0, t->n * sizeof *t->output_written);
    free(t->failure.message);
    free(t->failure.waits);
    memset(&t->failure, 0, sizeof t->failure);
    t->failure.kind = SV_KFAIL_NONE;
    t->failure.thread = -1;
    t->failure.step = -1;
    t->failure.array = -1;
}

/* each_run (sv_runtime_run_each): every run's trace, built and sent in
 * order as its own (runs 1), over the child's stream; t is left as the
 * last (sent again by the child's end, and ignored). The runs go in
 * batches of j->runs (the buffers hold that many runs of SV_KTRACE_MAX_STEPS
 * steps: the lab asks for up to SV_LAB_MAX_RUNS), each batch launched,
 * then its traces built and sent. A run that wrote past out[] is sent with
 * its failure and the runs after it follow (they ran); a batch that does
 * not finish leaves t with its failure (*done false), for the child's end
 * to send as the next run's. */
static bool job_each(gpu_job *j, CUfunction fn, const sv_source_scan *scan, uint32_t total,
                     bool *done, char *err, size_t errlen)
{
    sv_ktrace *t = j->t;
    uint32_t batch = j->runs, shown;
    *done = true;
    for (uint32_t base = 0; base < total; base += batch) {
        j->run_base = base;
        j->runs = total - base < batch ? total - base : batch;
        if (base > 0) {
            trace_clear_run(t);
            free(j->hdr);
            free(j->outs);
            free(j->wrong);
            j->hdr = NULL, j->outs = NULL, j->wrong = NULL;
            if (!job_reset(j, err, errlen))
                return false;
        }
        if (!job_run(j, fn, done, err, errlen))
            return false;
        if (!*done)
            return true; /* t's failure says why */
        if (!job_collect(j, &shown, err, errlen))
            return false;
        for (uint32_t k = 0; k < j->runs; k++) {
            if (base + k > 0)
                trace_clear_run(t);
            if (!job_steps(j, scan, k, err, errlen) || !job_output(j, k, false, err, errlen))
                return false;
            t->runs = 1;
            t->shown_run = 0;
            t->wrong_runs = j->wrong[k];
            if (!sv_rt_child_send(t)) {
                sv_errorf(err, errlen, "cannot send run %u's trace", (unsigned)(base + k));
                return false;
            }
            sv_rt_progress(base + k + 1, total);
        }
    }
    return true;
}

/* ---- --racecheck ------------------------------------------------------------ *
 * compute-sanitizer instruments a whole process, so the child writes its
 * request to a file and runs this program again under the sanitizer, with
 * SV_RT_GPU_RC_FLAG and the file: a constructor below (before main, in any
 * program that links the runtime) runs one launch, prints where each shared
 * array lies and exits. The child parses the report (core/racecheck.c) and
 * puts each hazard on its array and cell, and on the first step in which
 * that cell took the incoming value (else step 1). */

#define SV_RT_GPU_RC_FLAG "--sv-rt-gpu-racecheck"
#define RC_OUTPUT_LIMIT ((size_t)64 << 20)
#define RC_TIMEOUT_MS (300 * 1000)

/* The request as the sanitized run reads it back. */
static bool rc_write_request(const sv_runtime_request *req, char *file, size_t len)
{
    snprintf(file, len, "/tmp/sv-rt-gpu-rc-XXXXXX");
    int fd = mkstemp(file);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return false;
    fprintf(f, "%s\n%s\n%d %d %d %zu %u %d %llu %u %u %d\n", req->path ? req->path : "kernel.cu",
            req->entry ? req->entry : "-", (int)req->op, (int)req->type, (int)req->scan, req->n,
            (unsigned)(req->runs ? req->runs : 1), (int)req->shake,
            (unsigned long long)req->shake_seed, (unsigned)req->time_limit_ms,
            (unsigned)req->memory_mb, (int)req->racecheck);
    for (size_t i = 0; i < req->n; i++)
        fprintf(f, "%08x%c", (unsigned)req->input[i].bits, i + 1 < req->n ? ' ' : '\n');
    fprintf(f, "%zu\n", strlen(req->source));
    fputs(req->source, f);
    return fclose(f) == 0;
}

/* Puts one parsed hazard on t: its array by the layout lines, the step by
 * the incoming value. */
static bool rc_place(sv_ktrace *t, const sv_hazard *h, const gpu_reg *regs, size_t nregs,
                     const sv_source_scan *scan, char *err, size_t errlen)
{
    for (size_t r = 0; r < nregs; r++) {
        const gpu_reg *g = &regs[r];
        if (h->address < g->off || h->address >= g->off + g->bytes)
            continue;
        const char *name = NULL;
        for (size_t d = 0; d < scan->nshared && !name; d++)
            if ((uint32_t)scan->shared[d].line == g->line && fnv32(scan->shared[d].name) == g->hash)
                name = scan->shared[d].name;
        int a = -1;
        for (size_t k = 0; name && k < t->narrays && a < 0; k++)
            if (!strcmp(t->arrays[k].name, name))
                a = (int)k;
        if (a < 0)
            return true;
        sv_khazard z;
        memset(&z, 0, sizeof z);
        z.kind = !strcmp(h->kind, "RAW") ? SV_KHAZARD_RAW
                 : !strcmp(h->kind, "WAR") ? SV_KHAZARD_WAR : SV_KHAZARD_WAW;
        z.array = (uint16_t)a;
        z.cell = (h->address - g->off) / 4;
        /* first: the earlier access (RAW: the write; WAR: the read) */
        int f = (z.kind == SV_KHAZARD_RAW && h->access[1] == 'W') ||
                (z.kind == SV_KHAZARD_WAR && h->access[1] == 'R');
        sv_kaccess *acc[2] = {&z.first, &z.second};
        for (int q = 0; q < 2; q++) {
            int from = q == 0 ? f : 1 - f;
            acc[q]->thread = h->thread[from] < 0 ? 0 : (uint32_t)h->thread[from];
            acc[q]->array = z.array;
            acc[q]->cell = z.cell;
            acc[q]->line = h->line[from];
            acc[q]->value.bits = (uint32_t)(h->access[from] == 'W' ? h->incoming : h->current);
        }
        for (size_t s = 0; s < t->nsteps && h->has_values; s++)
            if (t->steps[s].wrote[a][z.cell] &&
                t->steps[s].cells[a][z.cell].bits == (uint32_t)h->incoming) {
                z.step = (uint32_t)s;
                break;
            }
        return sv_ktrace_add_hazard(t, &z, err, errlen);
    }
    return true;
}

/* The sanitized run of req, its hazards into t. A missing sanitizer or a
 * failed run is said in the failure-free trace's ... error text: it cannot
 * be a hazard count, so the call fails with err. */
static bool gpu_racecheck(const sv_runtime_request *req, const sv_source_scan *scan,
                          sv_ktrace *t, char *err, size_t errlen)
{
    char cs[600], exe[4096], file[64];
    static const char *const fixed[] = {"/usr/local/cuda/bin/compute-sanitizer", NULL};
    if (!sv_spawn_find("compute-sanitizer", fixed, cs, sizeof cs))
        return sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, "--racecheck needs compute-sanitizer "
                              "(not on PATH, nor in /usr/local/cuda/bin)", 0, -1, err, errlen);
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (el <= 0 || !rc_write_request(req, file, sizeof file)) {
        sv_errorf(err, errlen, "--racecheck: cannot prepare the sanitized run");
        return false;
    }
    exe[el] = '\0';
    char *argv[] = {cs, "--tool", "racecheck", "--racecheck-report", "hazard", "--print-limit",
                    "10000", exe, SV_RT_GPU_RC_FLAG, file, NULL};
    size_t len = 0;
    int status = 0;
    bool timed_out = false;
    char why[256];
    char *text = sv_spawn_output(argv, RC_OUTPUT_LIMIT, RC_TIMEOUT_MS, &len, &status, &timed_out,
                                 why, sizeof why);
    unlink(file);
#ifdef SV_GPU_RC_DUMP /* a debugging aid: the report's first 60 KB, into the console */
    if (text)
        fwrite(text, 1, len < 60000 ? len : 60000, stderr);
#endif
    if (!text) {
        sv_errorf(err, errlen, "--racecheck: compute-sanitizer did not run: %s", why);
        return false;
    }
    if (timed_out) {
        free(text);
        return sv_ktrace_fail(t, SV_KFAIL_TIME, "--racecheck: compute-sanitizer ran past its "
                              "time limit of 300 s", 0, -1, err, errlen);
    }
    gpu_reg regs[SV_GPU_MAX_REGS];
    size_t nregs = 0;
    for (const char *p = strstr(text, "sv-rt-gpu-reg "); p && nregs < SV_GPU_MAX_REGS;
         p = strstr(p + 1, "sv-rt-gpu-reg ")) {
        gpu_reg *g = &regs[nregs];
        if (sscanf(p, "sv-rt-gpu-reg %u %u %u %u %u", &g->line, &g->hash, &g->off, &g->bytes,
                   &g->rows) == 5)
            nregs++;
    }
    const char *failed = strstr(text, "sv-rt-gpu-failed ");
    if (failed && nregs == 0) { /* the sanitized run itself failed: say how */
        char kind[200];
        size_t k = 0;
        for (const char *c = failed + 17; *c && *c != '\n' && k + 1 < sizeof kind; c++)
            kind[k++] = (*c >= 0x20 && *c < 0x7f) ? *c : '?';
        kind[k] = '\0';
        sv_errorf(err, errlen, "--racecheck: the kernel's run under compute-sanitizer failed "
                  "(%s)", kind);
        free(text);
        return false;
    }
    sv_racecheck *rc = sv_racecheck_parse(text, len, err, errlen);
    bool ok = rc != NULL;
    if (ok && nregs == 0) {
        const char *tail = len > 300 ? text + len - 300 : text;
        sv_errorf(err, errlen, "--racecheck: the sanitized run gave no layout: %s", tail);
        ok = false;
    }
    for (size_t h = 0; ok && h < rc->nhazards; h++)
        ok = rc_place(t, &rc->hazards[h], regs, nregs, scan, err, errlen);
    if (ok && rc->errors + rc->warnings > t->hazards_total)
        t->hazards_total = rc->errors + rc->warnings;
    sv_racecheck_destroy(rc);
    free(text);
    return ok;
}

/* ---- The backend's call ---------------------------------------------------- */

/* With SV_RT_GPU_TIMES=FILE set, one line of this call's times is appended
 * to FILE (docs/performance.md's measurement; nothing is printed). */
static void note_times(const gpu_bin *b, double ctx_ms, const gpu_job *j, double trace_ms)
{
    const char *path = getenv("SV_RT_GPU_TIMES");
    FILE *f = path && *path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    fprintf(f, "compile %.2f ms (%s), context+module %.2f ms, %u runs %.2f ms, trace %.2f ms\n",
            b->compile_ms, b->cached ? "cached" : "nvrtc", ctx_ms, (unsigned)j->runs, j->run_ms,
            trace_ms);
    fclose(f);
}

/* The GPU child's walls (issue 27, layer 4), before NVRTC and the driver:
 * Landlock lets it read the system's folders, /proc, /sys and /run, use the
 * devices and write nowhere else but /dev/shm and its own /proc entry
 * (which cuInit needs: CUDA error 304 without); seccomp refuses new
 * processes, other processes' signals, sockets but AF_UNIX, execve and the
 * like. Not with --racecheck (below). The kernel's own code runs on the
 * GPU, not here: this process runs NVRTC, the driver and the runtime. */
static bool gpu_walls(const sv_runtime_request *req, char *err, size_t errlen)
{
    /* --racecheck: compute-sanitizer, which this child starts, and the
     * sanitized run inherit the walls, and neither ran within them on the
     * H200 machine (its report came back empty): that run keeps only the
     * child's process walls (process.c) and wall 1 before it */
    if (req->racecheck || rc_mode)
        return true;
    /* The driver opens and maps the NVIDIA devices (and, by driver
     * version, /dev/shm, the capabilities under /dev/nvidia-caps and the
     * persistence daemon's socket under /run): the devices whole, the
     * system's folders to read, nothing else to write but /dev/shm and
     * this process's own /proc entry (cuInit fails with CUDA error 304
     * without it; the rule is made here, in the child, so /proc/self is
     * this process's) */
    const char *ro[] = {"/usr", "/lib", "/lib64", "/bin", "/etc", "/opt", "/proc", "/sys", "/run",
                        NULL};
    const char *rw[] = {"/dev/shm", "/proc/self", NULL};
    const char *dev[] = {"/dev", NULL};
    char lerr[256];
    int rs = sv_sandbox_ruleset_paths(ro, rw, dev, lerr, sizeof lerr);
    return sv_sandbox_landlock(rs, lerr, err, errlen) &&
           sv_sandbox_seccomp(SV_SECCOMP_GPU, NULL, 0, err, errlen);
}

/* The scan and its checks; false with t's failure set. */
static bool gpu_scan(const sv_runtime_request *req, const char *path, sv_source_scan *scan,
                     sv_ktrace *t, bool *refused, char *err, size_t errlen)
{
    char msg[2048];
    sv_kfail_kind kind;
    int line = 0;
    *refused = true;
    if (!sv_source_scan_text(req->source, path, scan, &kind, &line, msg, sizeof msg))
        return sv_ktrace_fail(t, kind, msg, line, -1, err, errlen);
    if (!sv_source_check_entry(scan, req->entry, req->type, &line, msg, sizeof msg))
        return sv_ktrace_fail(t, SV_KFAIL_SIGNATURE, msg, line, -1, err, errlen);
    *refused = false;
    if (scan->entry == SV_SCAN_ENTRY_HOST && (!req->plan || req->racecheck))
        return sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, req->plan
                              ? "--racecheck of a file with a host function scan: not yet"
                              : "a kernel file with a host function scan runs on the GPU after "
                                "the CPU runtime has run it (sv_runtime_run)",
                              scan->host.line, -1, err, errlen);
    return sv_ktrace_set_text(&t->entry, sv_source_entry(scan)->name, err, errlen);
}

/* ---- Many blocks: the CPU runtime's launches replayed (issue 31) ----------
 *
 * A file with a host function runs on the CPU runtime first (process.c),
 * whose run writes its launches as a plan (cpu_exec.cc's Grid::plan): the
 * device memory it allocated and set, each launch's kernel (by line),
 * grid, block, shared memory and arguments (pointers as device memory and
 * an offset). Here NVRTC compiles the file's kernels as they are (the host
 * function's body blanked), each launched one by its name expression, and
 * the plan runs on the GPU: after each launch out[] and the device memory
 * are read back as the launch's step. A cell is written where it differs
 * from the poison the memory starts with (a write of the poison itself is
 * not seen). No hazards: the GPU's runs record none of their own. */

#define PLAN_MAX_ARRAYS SV_KTRACE_MAX_ARRAYS
#define PLAN_MAX_ARGS 16

/* Each launch's blocks over time on the GPU (issue 31): the file's text is
 * stamped (sv_source_gpu_stamped): each __global__ body opens with a guard
 * whose constructor and destructor take %globaltimer (the block's first
 * thread in, its last thread out), and each statement that may write
 * device memory is followed by sv_stamp, which keeps the range of out[] a
 * block wrote and, for other device memory, the time, block, thread, line,
 * word and value of the write (a publish). What runs is the stamped text:
 * it stores the same values (the test files stay bit-identical). */
#define TILES_MAX 65536u
#define PUBS_MAX 65536u
static const char tile_prelude[] =
    "#line 1 \"<scanviz tile timestamps>\"\n"
    "struct sv_tile_rec { unsigned long long start, end; unsigned int out_lo, out_hi; };\n"
    "struct sv_pub_rec { unsigned long long time, addr; unsigned int block, thread, line, "
    "value; };\n"
    "__device__ sv_tile_rec sv_tiles[65536];\n"
    "__device__ sv_pub_rec sv_pubs[65536];\n"
    "__device__ unsigned int sv_npubs;\n"
    "__device__ unsigned long long sv_out_at, sv_out_bytes;\n"
    "__device__ __forceinline__ unsigned long long sv_clock() { unsigned long long t; "
    "asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t)); return t; }\n"
    "__device__ __forceinline__ unsigned sv_bid() { return blockIdx.x + gridDim.x * "
    "(blockIdx.y + gridDim.y * blockIdx.z); }\n"
    "struct sv_tile_guard {\n"
    "  __device__ sv_tile_guard() { if (sv_bid() < 65536u) "
    "atomicMin(&sv_tiles[sv_bid()].start, sv_clock()); }\n"
    "  __device__ ~sv_tile_guard() { if (sv_bid() < 65536u) "
    "atomicMax(&sv_tiles[sv_bid()].end, sv_clock()); }\n"
    "};\n"
    "template <typename P> __device__ void sv_stamp(int line, P *p) {\n"
    "  const unsigned long long t = sv_clock(), a = (unsigned long long)p;\n"
    "  if (sv_bid() >= 65536u) return;\n"
    "  if (a - sv_out_at < sv_out_bytes) { unsigned c = (unsigned)((a - sv_out_at) / 4); "
    "atomicMin(&sv_tiles[sv_bid()].out_lo, c); atomicMax(&sv_tiles[sv_bid()].out_hi, c); "
    "return; }\n"
    "  if (!__isGlobal((const void *)a)) return;\n"
    "  unsigned k = atomicAdd(&sv_npubs, 1u);\n"
    "  if (k >= 65536u) return;\n"
    "  sv_pubs[k].time = t; sv_pubs[k].addr = a; sv_pubs[k].block = sv_bid();\n"
    "  sv_pubs[k].thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);"
    " sv_pubs[k].line = (unsigned)line;\n"
    "  sv_pubs[k].value = *(const volatile unsigned *)a;\n"
    "}\n";

typedef struct tile_rec {
    uint64_t start, end;
    uint32_t out_lo, out_hi;
} tile_rec;
typedef struct pub_rec {
    uint64_t time, addr;
    uint32_t block, thread, line, value;
} pub_rec;

/* The stamps' device globals of the module. */
typedef struct tile_dev {
    CUdeviceptr tiles, pubs, npubs, out_at, out_bytes;
    bool ok;
} tile_dev;

typedef struct plan_arr {
    char name[64];
    size_t bytes;
    CUdeviceptr d;
    uint32_t *host;   /* its cells after the last launch */
    bool *written;
} plan_arr;

/* A whole number of the plan at *p (then past it), at most max. */
static bool plan_num(const char **p, unsigned long long max, unsigned long long *v)
{
    const char *s = *p;
    while (*s == ' ')
        s++;
    if (*s < '0' || *s > '9')
        return false;
    unsigned long long x = 0;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (x > max / 10)
            return false;
        x = x * 10 + (unsigned long long)(*s - '0');
    }
    if (x > max)
        return false;
    *p = s;
    *v = x;
    return true;
}

/* A plan line's three dims (D X Y Z, B X Y Z), each from 1 to most[k]. */
static bool plan_dims(const char **p, const unsigned most[3], unsigned out[3])
{
    unsigned long long v[3];
    for (int k = 0; k < 3; k++)
        if (!plan_num(p, most[k], &v[k]) || v[k] == 0)
            return false;
    for (int k = 0; k < 3; k++)
        out[k] = (unsigned)v[k];
    return true;
}

static bool plan_word(const char **p, char *buf, size_t len)
{
    const char *s = *p;
    while (*s == ' ')
        s++;
    size_t k = 0;
    for (; *s && *s != ' ' && *s != '\n'; s++) {
        bool ok = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
                  *s == '_' || *s == '@' || *s == '-' || *s == '.';
        if (!ok || k + 1 >= len)
            return false;
        buf[k++] = *s;
    }
    buf[k] = '\0';
    *p = s;
    return k > 0;
}

/* NVRTC with the launched kernels' name expressions: the PTX, and each
 * launch line's lowered name into names[] (lines[] the launch lines). A
 * compile error is t's failure (true, *ptx NULL); with t NULL, only *ptx
 * NULL. */
static bool plan_compile(const char *text, const char *path, int arch, const sv_source_scan *s,
                         const char *src, sv_type type, char **ptx, char (*names)[256],
                         sv_ktrace *t, char **log_out, char *err, size_t errlen)
{
    char archopt[32];
    snprintf(archopt, sizeof archopt, "-arch=compute_%d", arch);
    /* -default-device: the host function, its body blanked, as a device function */
    const char *opts[] = {archopt, "-std=c++17", "-lineinfo", "--fmad=false", "-default-device"};
    const int nopts = (int)(sizeof opts / sizeof *opts);
    char expr[SV_SCAN_MAX_LAUNCHES][256];
    for (size_t i = 0; i < s->nlaunches; i++)
        if (!sv_source_launch_callee(s, src, s->launches[i].line, sv_source_ctype(type), expr[i],
                                     sizeof expr[i]))
            expr[i][0] = '\0';
    char *log = NULL;
    if (!nvrtc_build(text, path, opts, nopts, expr, s->nlaunches, names, ptx, &log, err, errlen))
        return false;
    if (!t) { /* a try (the stamped text): its errors are not the file's */
        if (log_out)
            *log_out = log;
        else
            free(log);
        return true;
    }
    bool ok = !log || sv_ktrace_fail(t, SV_KFAIL_COMPILE, log, first_error_line(log, path), -1,
                                     err, errlen);
    free(log);
    return ok;
}

/* The device memory after a launch (at line) as a step of t (arrays 0 ..
 * na - 1, t's arrays in that order). */
static bool plan_step(plan_arr *arrs, size_t na, sv_ktrace *t, int line, char *err, size_t errlen)
{
    if (t->nsteps >= SV_KTRACE_MAX_STEPS)
        return true;
    sv_kstep *s = sv_ktrace_add_step(t, line, err, errlen);
    if (!s)
        return false;
    for (size_t a = 0; a < na; a++) {
        size_t len = arrs[a].bytes / 4;
        uint32_t *now = malloc(len * 4 + 4);
        if (!now) {
            sv_errorf(err, errlen, "out of memory reading the launches back");
            return false;
        }
        CUresult r = api.cuMemcpyDtoH(now, arrs[a].d, len * 4);
        if (r != 0) {
            free(now);
            sv_errorf(err, errlen, "reading device memory back: %s (CUDA error %d)", cu_words(r),
                      r);
            return false;
        }
        for (size_t c = 0; c < len; c++) {
            bool changed = now[c] != arrs[a].host[c];
            arrs[a].written[c] = arrs[a].written[c] || changed || now[c] != SV_GPU_POISON;
            s->cells[a][c].bits = now[c];
            s->written[a][c] = arrs[a].written[c];
            s->wrote[a][c] = changed;
        }
        memcpy(arrs[a].host, now, len * 4);
        free(now);
    }
    return true;
}

/* The stamps' globals of mod (ok false: not found, no tiles recorded). */
static tile_dev tiles_find(CUmodule mod)
{
    tile_dev d;
    memset(&d, 0, sizeof d);
    size_t b;
    d.ok = api.cuModuleGetGlobal(&d.tiles, &b, mod, "sv_tiles") == 0 &&
           b == TILES_MAX * sizeof(tile_rec) &&
           api.cuModuleGetGlobal(&d.pubs, &b, mod, "sv_pubs") == 0 &&
           b == PUBS_MAX * sizeof(pub_rec) &&
           api.cuModuleGetGlobal(&d.npubs, &b, mod, "sv_npubs") == 0 && b == 4 &&
           api.cuModuleGetGlobal(&d.out_at, &b, mod, "sv_out_at") == 0 && b == 8 &&
           api.cuModuleGetGlobal(&d.out_bytes, &b, mod, "sv_out_bytes") == 0 && b == 8;
    return d;
}

/* Before a launch of grid blocks: no tile started, no publish. */
static bool tiles_before(tile_dev *d, uint32_t grid)
{
    const uint32_t nb = grid < TILES_MAX ? grid : TILES_MAX;
    tile_rec *init = malloc((size_t)nb * sizeof *init);
    uint32_t zero = 0;
    if (!init)
        return d->ok = false;
    for (uint32_t b = 0; b < nb; b++)
        init[b] = (tile_rec){ UINT64_MAX, 0, UINT32_MAX, 0 };
    d->ok = api.cuMemcpyHtoD(d->tiles, init, (size_t)nb * sizeof *init) == 0 &&
            api.cuMemcpyHtoD(d->npubs, &zero, 4) == 0;
    free(init);
    return d->ok;
}

static int by_tile_time(const void *a, const void *b)
{
    const sv_kevent *x = a, *y = b;
    if (x->tile != y->tile)
        return x->tile < y->tile ? -1 : 1;
    return x->time < y->time ? -1 : x->time > y->time;
}

/* After launch li of grid blocks threads each: its tiles and publishes
 * into t (times after its first block's start); arrs[k] is t's array
 * tidx[k]. Past the trace's limits the events are counted as dropped; a
 * launch whose tiles do not fit keeps none. False: out of memory. */
static bool tiles_after(tile_dev *d, uint32_t grid, uint32_t block, uint32_t li,
                        const plan_arr *arrs, const int *tidx, size_t na, sv_ktrace *t)
{
    if (!d->ok || grid > TILES_MAX || t->ntiles + grid > SV_KTRACE_MAX_TILES ||
        li >= SV_KTRACE_MAX_LAUNCHES)
        return true;
    tile_rec *rec = malloc((size_t)grid * sizeof *rec);
    uint32_t np = 0;
    if (!rec)
        return false;
    if (api.cuMemcpyDtoH(rec, d->tiles, (size_t)grid * sizeof *rec) != 0 ||
        api.cuMemcpyDtoH(&np, d->npubs, 4) != 0) {
        free(rec);
        return true; /* no tiles for this launch */
    }
    const uint32_t kept = np < PUBS_MAX ? np : PUBS_MAX;
    pub_rec *pubs = kept ? malloc((size_t)kept * sizeof *pubs) : NULL;
    if (kept && (!pubs || api.cuMemcpyDtoH(pubs, d->pubs, (size_t)kept * sizeof *pubs) != 0)) {
        free(rec);
        free(pubs);
        return pubs != NULL || !kept;
    }
    uint64_t t0 = UINT64_MAX;
    for (uint32_t b = 0; b < grid; b++)
        if (rec[b].start < t0)
            t0 = rec[b].start;
    bool all = t0 != UINT64_MAX;
    for (uint32_t b = 0; b < grid && all; b++)
        all = rec[b].start != UINT64_MAX && rec[b].end >= rec[b].start;
    sv_ktile *tiles = all ? realloc(t->tiles, (t->ntiles + grid) * sizeof *tiles) : t->tiles;
    if (!tiles) {
        free(rec);
        free(pubs);
        return false;
    }
    t->tiles = tiles;
    if (!all) { /* a block the stamps missed: none of this launch */
        free(rec);
        free(pubs);
        return true;
    }
    const uint32_t base = (uint32_t)t->ntiles;
    for (uint32_t b = 0; b < grid; b++) {
        sv_ktile *x = &t->tiles[t->ntiles++];
        x->launch = li;
        x->block = b;
        x->start = rec[b].start - t0;
        x->end = rec[b].end - t0;
        const bool wrote = rec[b].out_lo <= rec[b].out_hi && rec[b].out_hi < t->n;
        x->out_lo = wrote ? (int64_t)rec[b].out_lo : -1;
        x->out_hi = wrote ? (int64_t)rec[b].out_hi : -1;
    }
    size_t room = SV_KTRACE_MAX_EVENTS - t->nevents, first = t->nevents;
    sv_kevent *ev = kept ? realloc(t->events, (t->nevents + (kept < room ? kept : room) + 1) *
                                                  sizeof *ev)
                         : t->events;
    if (kept && !ev) {
        free(rec);
        free(pubs);
        return false;
    }
    t->events = ev;
    for (uint32_t k = 0; k < kept; k++) {
        const pub_rec *p = &pubs[k];
        int arr = -1;
        uint32_t cell = 0;
        for (size_t a = 1; a < na && arr < 0; a++)
            if (p->addr >= arrs[a].d && p->addr - arrs[a].d < arrs[a].bytes) {
                arr = tidx[a];
                cell = (uint32_t)((p->addr - arrs[a].d) / 4);
            }
        if (arr < 0 || p->block >= grid || p->thread >= block || p->time < rec[p->block].start ||
            p->time > rec[p->block].end)
            continue; /* in[] or memory the plan did not allocate; out of its block's time */
        if (t->nevents - first >= room) {
            t->events_dropped++;
            continue;
        }
        sv_kevent *e = &t->events[t->nevents++];
        memset(e, 0, sizeof *e);
        e->kind = SV_KEVENT_PUBLISH;
        e->tile = base + p->block;
        e->time = p->time - t0;
        e->thread = p->thread;
        e->array = (uint16_t)arr;
        e->cell = cell;
        e->value.bits = p->value;
        e->line = (int32_t)(p->line <= INT32_MAX ? p->line : 0);
        e->other = SV_KTRACE_NO_TILE;
    }
    t->events_dropped += np - kept;
    qsort(t->events + first, t->nevents - first, sizeof *t->events, by_tile_time);
    free(rec);
    free(pubs);
    return true;
}

/* The text NVRTC compiles for a host function's kernels: the prelude,
 * scan_ops.h, with stamped the tile timestamps' prelude, and the kernels
 * (stamped or as written). NULL: out of memory. */
static char *plan_text(const sv_source_scan *s, const char *src, const char *path, sv_op op,
                       sv_scan scan, bool stamped)
{
    char *body = stamped ? sv_source_gpu_stamped(s, src) : sv_source_gpu_kernels(s, src);
    size_t cap = body ? strlen(body) + sv_rt_scan_ops_h_size + sizeof tile_prelude + 4096 : 0;
    char *text = cap ? malloc(cap) : NULL;
    if (!text) {
        free(body);
        return NULL;
    }
    char qp[1024];
    sv_source_line_name(path, qp, sizeof qp);
    size_t u = (size_t)snprintf(text, cap, "#line 1 \"<scanviz GPU prelude>\"\n#define SV_SCAN_OP "
                                "%d\n#define SV_SCAN_EXCLUSIVE %d\n#line 1 \"<scanviz scan_ops.h>\"\n",
                                (int)op, scan == SV_SCAN_EXCLUSIVE ? 1 : 0);
    memcpy(text + u, sv_rt_scan_ops_h, sv_rt_scan_ops_h_size);
    u += sv_rt_scan_ops_h_size;
    snprintf(text + u, cap - u, "\n%s%s#line 1 \"%s\"\n%s", stamped ? tile_prelude : "",
             s->own_op ? "" : "using sv_scan::Op;\n", qp, body);
    free(body);
    return text;
}

bool sv_rt_gpu_plan_stamped(const sv_source_scan *s, const char *src, const char *path,
                            sv_op op, sv_scan scan, sv_type type, int arch, char **log,
                            char *err, size_t errlen)
{
    *log = NULL;
    if (!nv_load(&api, false, err, errlen))
        return false;
    char *text = plan_text(s, src, path, op, scan, true), *ptx = NULL;
    char (*names)[256] = calloc(SV_SCAN_MAX_LAUNCHES, sizeof *names);
    bool ok = text && names &&
              plan_compile(text, path, arch, s, src, type, &ptx, names, NULL, log, err, errlen);
    if (!text || !names)
        sv_errorf(err, errlen, "out of memory");
    if (ok && ptx && !strstr(ptx, "globaltimer")) {
        sv_errorf(err, errlen, "the stamped PTX reads no %%globaltimer");
        ok = false;
    }
    free(text);
    free(names);
    free(ptx);
    return ok;
}

/* Replays req->plan on the GPU into t (the device is current, arch its). */
static bool gpu_run_plan(const sv_runtime_request *req, const sv_source_scan *s, const char *path,
                         int arch, sv_ktrace *t, char *err, size_t errlen)
{
    char why[512];
    const char *p = req->plan;
    if (strncmp(p, "x ", 2) == 0 || strstr(p, "\nx ")) {
        const char *x = strncmp(p, "x ", 2) == 0 ? p + 2 : strstr(p, "\nx ") + 3;
        const char *e = strchr(x, '\n');
        snprintf(why, sizeof why, "the GPU cannot replay these launches: %.*s",
                 (int)(e ? e - x : (long)strlen(x)), x);
        return sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, why, 0, -1, err, errlen);
    }
    char *text = plan_text(s, req->source, path, req->op, req->scan, true);
    char *ptx = NULL;
    char (*names)[256] = calloc(SV_SCAN_MAX_LAUNCHES, sizeof *names);
    plan_arr arrs[PLAN_MAX_ARRAYS];
    size_t na = 0;
    memset(arrs, 0, sizeof arrs);
    bool ok = true;
    if (!text || !names) {
        sv_errorf(err, errlen, "out of memory");
        ok = false;
        goto out;
    }
    /* the stamped text first; where it does not compile (a statement the
     * stamps misread), the file as written, without tiles */
    if (!plan_compile(text, path, arch, s, req->source, req->type, &ptx, names, NULL, NULL, err,
                      errlen)) {
        ok = false;
        goto out;
    }
    if (!ptx) {
        free(text);
        text = plan_text(s, req->source, path, req->op, req->scan, false);
        if (!text) {
            sv_errorf(err, errlen, "out of memory");
            ok = false;
            goto out;
        }
        if (!plan_compile(text, path, arch, s, req->source, req->type, &ptx, names, t, NULL, err,
                          errlen)) {
            ok = false;
            goto out;
        }
    }
    if (!ptx)
        goto out; /* a compile error is t's failure */
    CUmodule mod;
    char jlog[4096] = "";
    /* CU_JIT_ERROR_LOG_BUFFER(_SIZE_BYTES), and for the stamped text
     * CU_JIT_MAX_REGISTERS 64: the stamps never keep a launch of 1024
     * threads from starting */
    int jopt[3] = {5, 6, 0};
    void *jval[3] = {jlog, (void *)(uintptr_t)sizeof jlog, (void *)(uintptr_t)64};
    const bool stamped = strstr(text, "sv_tile_guard sv_tile_guard_;") != NULL;
    CUresult r = api.cuModuleLoadDataEx(&mod, ptx, stamped ? 3 : 2, jopt, jval);
    if (r != 0) {
        jlog[sizeof jlog - 1] = '\0';
        sv_errorf(err, errlen, "loading the compiled kernels: %s (CUDA error %d): %.900s",
                  cu_words(r), r, jlog);
        ok = false;
        goto out;
    }
    tile_dev td = tiles_find(mod);
    int tidx[PLAN_MAX_ARRAYS];
    /* in[] and out[]: the plan's device memory -1 and 0 */
    CUdeviceptr d_in = 0;
    size_t nbytes = req->n * 4;
    if (api.cuMemAlloc(&d_in, nbytes) != 0 || api.cuMemcpyHtoD(d_in, req->input, nbytes) != 0) {
        sv_errorf(err, errlen, "no device memory for in[]");
        ok = false;
        goto out;
    }
    snprintf(arrs[0].name, sizeof arrs[0].name, "out");
    arrs[0].bytes = nbytes;
    na = 1;
    /* the device memory first (the plan's A lines, in order): each array of t */
    for (const char *line = p; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1
                                                                   : line + strlen(line)) {
        const char *q = line + 1;
        unsigned long long k, a;
        if (*line != 'A')
            continue;
        if (na >= PLAN_MAX_ARRAYS || !plan_num(&q, PLAN_MAX_ARRAYS * 4, &k) ||
            !plan_num(&q, (unsigned long long)SV_KTRACE_MAX_DEVICE_CELLS * 4, &a) || a < 4 ||
            !plan_word(&q, arrs[na].name, sizeof arrs[na].name)) {
            ok = sv_ktrace_fail(t, SV_KFAIL_INTERNAL, "the launches' plan names device memory "
                                "it cannot hold", 0, -1, err, errlen);
            goto out;
        }
        arrs[na++].bytes = (size_t)a;
    }
    for (size_t i = 0; i < na; i++) {
        if (api.cuMemAlloc(&arrs[i].d, arrs[i].bytes + 256) != 0 ||
            api.cuMemsetD32(arrs[i].d, SV_GPU_POISON, arrs[i].bytes / 4 + 64) != 0 ||
            !(arrs[i].host = malloc(arrs[i].bytes + 4)) ||
            !(arrs[i].written = calloc(arrs[i].bytes / 4 + 1, sizeof *arrs[i].written))) {
            sv_errorf(err, errlen, "no device memory for %s", arrs[i].name);
            ok = false;
            goto out;
        }
        for (size_t cc = 0; cc < arrs[i].bytes / 4; cc++)
            arrs[i].host[cc] = SV_GPU_POISON;
        int ai = sv_ktrace_add_array(t, arrs[i].name, i == 0 ? SV_KARRAY_OUT : SV_KARRAY_GLOBAL,
                                     (uint32_t)(arrs[i].bytes / 4), 1, err, errlen);
        if (ai < 0) {
            ok = false;
            goto out;
        }
        t->arrays[ai].touched = true;
        tidx[i] = ai;
    }
    if (td.ok) {
        uint64_t at = arrs[0].d, bytes = arrs[0].bytes;
        td.ok = api.cuMemcpyHtoD(td.out_at, &at, 8) == 0 &&
                api.cuMemcpyHtoD(td.out_bytes, &bytes, 8) == 0;
    }
    if (!sv_ktrace_set_text(&t->entry, "scan", err, errlen)) {
        ok = false;
        goto out;
    }
    t->launches = calloc(SV_KTRACE_MAX_LAUNCHES, sizeof *t->launches);
    if (!t->launches) {
        sv_errorf(err, errlen, "out of memory");
        ok = false;
        goto out;
    }
    unsigned gdims[3] = {1, 1, 1}; /* the next launch's grid (a D line) */
    unsigned bdims[3] = {1, 1, 1}; /* and its block (a B line) */
    bool copied = false; /* a cudaMemcpy since the last launch's step */
    for (const char *line = p; ok && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1
                                                                       : line + strlen(line)) {
        const char *q = line + 1;
        unsigned long long k, a, b, c, d;
        if (*line == '\n' || *line == 'A')
            continue;
        if (*line == 'S' && plan_num(&q, PLAN_MAX_ARRAYS, &k) && k < na &&
            plan_num(&q, arrs[k].bytes, &a) && plan_num(&q, 255, &b) &&
            plan_num(&q, arrs[k].bytes - a, &c)) {
            r = api.cuMemsetD8(arrs[k].d + a, (unsigned char)b, (size_t)c);
            if (r != 0) {
                sv_errorf(err, errlen, "cudaMemset on the GPU: %s (CUDA error %d)", cu_words(r), r);
                ok = false;
            }
            continue;
        }
        if (*line == 'D' || *line == 'B') { /* the next launch's grid / block past 1-D */
            const bool grid = *line == 'D';
            if (!plan_dims(&q, grid ? (const unsigned[3]){1u << 26, 65535, 65535}
                                    : (const unsigned[3]){1024, 1024, 64},
                           grid ? gdims : bdims)) {
                snprintf(why, sizeof why, "the launches' plan is not readable at \"%.40s\"",
                         line);
                ok = sv_ktrace_fail(t, SV_KFAIL_INTERNAL, why, 0, -1, err, errlen);
                goto out;
            }
            continue;
        }
        if (*line == 'C') { /* cudaMemcpy between device arrays: C DST OFF SRC OFF BYTES */
            bool from_in = false, good = plan_num(&q, PLAN_MAX_ARRAYS, &k) && k < na &&
                                         plan_num(&q, arrs[k].bytes, &a);
            if (good) {
                while (*q == ' ')
                    q++;
                from_in = strncmp(q, "-1", 2) == 0;
                if (from_in)
                    q += 2;
                good = from_in || (plan_num(&q, PLAN_MAX_ARRAYS, &b) && b < na);
            }
            const size_t sbytes = !good ? 0 : from_in ? nbytes : arrs[b].bytes;
            good = good && plan_num(&q, sbytes, &c) && plan_num(&q, sbytes - c, &d) &&
                   d <= arrs[k].bytes - a;
            if (!good) {
                snprintf(why, sizeof why, "the launches' plan is not readable at \"%.40s\"",
                         line);
                ok = sv_ktrace_fail(t, SV_KFAIL_INTERNAL, why, 0, -1, err, errlen);
                goto out;
            }
            copied = true;
            r = api.cuMemcpyDtoD(arrs[k].d + a, (from_in ? d_in : arrs[b].d) + c, (size_t)d);
            if (r != 0) {
                sv_errorf(err, errlen, "cudaMemcpy on the GPU: %s (CUDA error %d)", cu_words(r), r);
                ok = false;
            }
            continue;
        }
        if (*line != 'L' || !plan_num(&q, INT32_MAX, &k) || !plan_num(&q, 1u << 26, &a) ||
            !plan_num(&q, 1024, &b) || !plan_num(&q, 49152, &c) ||
            !plan_num(&q, PLAN_MAX_ARGS, &d) || a == 0 || b == 0) {
            snprintf(why, sizeof why, "the launches' plan is not readable at \"%.40s\"", line);
            ok = sv_ktrace_fail(t, SV_KFAIL_INTERNAL, why, 0, -1, err, errlen);
            goto out;
        }
        const int lno = (int)k;
        const char *fname = NULL, *kname = NULL;
        for (size_t i = 0; i < s->nlaunches; i++)
            if (s->launches[i].line == lno && names[i][0]) {
                fname = names[i];
                kname = s->launches[i].kernel;
                break;
            }
        unsigned char slot[PLAN_MAX_ARGS][16];
        void *params[PLAN_MAX_ARGS + 1];
        bool args_ok = fname != NULL;
        for (unsigned long long i = 0; args_ok && i < d; i++) {
            char kind[4];
            unsigned long long ai, off, size;
            memset(slot[i], 0, sizeof slot[i]);
            params[i] = slot[i];
            if (!plan_word(&q, kind, sizeof kind)) {
                args_ok = false;
            } else if (strcmp(kind, "p") == 0) {
                while (*q == ' ')
                    q++;
                bool in = strncmp(q, "-1", 2) == 0;
                if (in)
                    q += 2;
                if ((!in && (!plan_num(&q, PLAN_MAX_ARRAYS, &ai) || ai >= na)) ||
                    !plan_num(&q, in ? nbytes : (ai < na ? arrs[ai].bytes : 0), &off)) {
                    args_ok = false;
                    break;
                }
                CUdeviceptr v = (in ? d_in : arrs[ai].d) + off;
                memcpy(slot[i], &v, sizeof v);
            } else if (strcmp(kind, "v") == 0 && plan_num(&q, 16, &size) && size > 0) {
                while (*q == ' ')
                    q++;
                for (unsigned long long bb = 0; bb < size; bb++) {
                    unsigned x;
                    if (sscanf(q + 2 * bb, "%2x", &x) != 1) {
                        args_ok = false;
                        break;
                    }
                    slot[i][bb] = (unsigned char)x;
                }
                q += 2 * size;
            } else {
                args_ok = false;
            }
        }
        CUfunction fn;
        if (!args_ok || api.cuModuleGetFunction(&fn, mod, fname) != 0) {
            snprintf(why, sizeof why, "the launch at line %d: its kernel or its arguments could "
                     "not be set up on the GPU", lno);
            ok = sv_ktrace_fail(t, SV_KFAIL_INTERNAL, why, lno, -1, err, errlen);
            goto out;
        }
        params[d] = NULL;
        /* a grid past 1-D: its dims (the D line before), whose blocks are a
         * (the stamps number them x, then y, then z: sv_bid) */
        const bool multi = gdims[1] > 1 || gdims[2] > 1;
        if (multi && (unsigned long long)gdims[0] * gdims[1] * gdims[2] != a) {
            snprintf(why, sizeof why, "the launch at line %d: its grid's dimensions are not its "
                     "blocks", lno);
            ok = sv_ktrace_fail(t, SV_KFAIL_INTERNAL, why, lno, -1, err, errlen);
            goto out;
        }
        if (!multi)
            gdims[0] = (unsigned)a;
        /* a block past 1-D: its dims (the B line before), whose threads are b */
        const bool bmulti = bdims[1] > 1 || bdims[2] > 1;
        if (bmulti && (unsigned long long)bdims[0] * bdims[1] * bdims[2] != b) {
            snprintf(why, sizeof why, "the launch at line %d: its block's dimensions are not its "
                     "threads", lno);
            ok = sv_ktrace_fail(t, SV_KFAIL_INTERNAL, why, lno, -1, err, errlen);
            goto out;
        }
        if (!bmulti)
            bdims[0] = (unsigned)b;
        if (td.ok)
            tiles_before(&td, (uint32_t)a);
        r = api.cuLaunchKernel(fn, gdims[0], gdims[1], gdims[2], bdims[0], bdims[1], bdims[2],
                               (unsigned)c, NULL, params, NULL);
        if (r == 0)
            r = api.cuCtxSynchronize();
        if (r != 0) {
            snprintf(why, sizeof why, "the launch of %s at line %d failed on the GPU: %s (CUDA "
                     "error %d)", kname, lno, cu_words(r), r);
            ok = sv_ktrace_fail(t, r == 700 || r == 716 || r == 719 ? SV_KFAIL_CRASH
                                                                    : SV_KFAIL_INTERNAL,
                                why, lno, -1, err, errlen);
            goto out;
        }
        if (!plan_step(arrs, na, t, lno, err, errlen)) {
            ok = false;
            goto out;
        }
        if (!tiles_after(&td, (uint32_t)a, (uint32_t)b, (uint32_t)t->nlaunches, arrs, tidx, na,
                         t)) {
            sv_errorf(err, errlen, "out of memory reading the tiles back");
            ok = false;
            goto out;
        }
        if (t->nlaunches < SV_KTRACE_MAX_LAUNCHES) {
            sv_klaunch *l = &t->launches[t->nlaunches++];
            l->kernel = strdup(kname);
            l->grid = (uint32_t)a;
            if (multi)
                for (int g = 0; g < 3; g++)
                    l->dims[g] = gdims[g];
            if (bmulti)
                for (int g = 0; g < 3; g++)
                    l->block_dims[g] = bdims[g];
            l->block = (uint32_t)b;
            l->shared = (uint32_t)c;
            l->line = lno;
            l->step = (uint32_t)(t->nsteps - 1);
            if (!l->kernel) {
                sv_errorf(err, errlen, "out of memory");
                ok = false;
                goto out;
            }
        }
        gdims[0] = gdims[1] = gdims[2] = 1; /* a D line is the next launch's only */
        bdims[0] = bdims[1] = bdims[2] = 1; /* and a B line */
        copied = false;
    }
    /* out[] after a cudaMemcpy past the last launch (no step: not a launch) */
    if (ok && copied && arrs[0].host) {
        uint32_t *now = malloc(arrs[0].bytes + 4);
        r = now ? api.cuMemcpyDtoH(now, arrs[0].d, arrs[0].bytes) : 0;
        if (!now || r != 0) {
            sv_errorf(err, errlen, "reading out[] back: %s", now ? cu_words(r) : "out of memory");
            free(now);
            ok = false;
            goto out;
        }
        for (size_t c = 0; c < arrs[0].bytes / 4; c++) {
            arrs[0].written[c] = arrs[0].written[c] || now[c] != arrs[0].host[c] ||
                                 now[c] != SV_GPU_POISON;
            arrs[0].host[c] = now[c];
        }
        free(now);
    }
    if (ok && arrs[0].host) {
        for (size_t i = 0; i < req->n; i++) {
            t->output[i].bits = arrs[0].host[i];
            t->output_written[i] = arrs[0].written[i];
        }
    }
out:
    for (size_t i = 0; i < na; i++) {
        free(arrs[i].host);
        free(arrs[i].written);
    }
    free(names);
    free(ptx);
    free(text);
    return ok;
}

bool sv_rt_gpu_run(const sv_runtime_request *rq, sv_ktrace *t, char *err, size_t errlen)
{
    /* A shipped kernel (the chapter's, the mistakes, Blelloch) compiles
     * from its embedded text like any kernel file, under its own name, with
     * the entry it has (as the CPU runtime's run_shipped) */
    sv_runtime_request q = *rq;
    const sv_runtime_request *req = &q;
    if (rq->builtin) {
        const sv_rt_shipped *k = sv_rt_shipped_find(rq->builtin);
        if (!k)
            return sv_ktrace_fail(t, SV_KFAIL_INTERNAL, "not a shipped kernel of this build", 0,
                                  -1, err, errlen);
        q.source = k->source;
        q.entry = NULL;
        if (!q.path)
            q.path = rq->builtin;
    }
    const char *path = req->path ? req->path : "kernel.cu";
    char why[512];
    bool refused = false, ok = true, done = false;
    sv_source_scan *scan = calloc(1, sizeof *scan);
    gpu_bin bin = {NULL, 0, false, 0.0};
    gpu_job job;
    memset(&job, 0, sizeof job);
    char *text = NULL;
    if (!scan) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    if (!gpu_scan(req, path, scan, t, &refused, err, errlen)) {
        ok = false;
        goto out;
    }
    if (refused)
        goto out; /* t's failure says why */
    if (!fresh_mode && !sv_rt_in_child) {
        sv_errorf(err, errlen, "the GPU runtime runs only in the runtime's child");
        ok = false;
        goto out;
    }
    if (!gpu_walls(req, err, errlen)) {
        ok = false;
        goto out;
    }
    if (!sv_rt_gpu_available(why, sizeof why)) {
        ok = sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, why, 0, -1, err, errlen);
        goto out;
    }
    CUresult r = api.cuInit(0);
    if (r != 0) {
        snprintf(why, sizeof why, "no usable CUDA device: %s (CUDA error %d)", cu_words(r), r);
        ok = sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, why, 0, -1, err, errlen);
        goto out;
    }
    int arch = 0;
    uint32_t max_threads = 0;
    CUfunction fn = NULL;
    if (!gpu_open(NULL, &fn, &arch, &max_threads, t, why, sizeof why)) {
        ok = sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, why, 0, -1, err, errlen);
        goto out;
    }
    if (scan->entry == SV_SCAN_ENTRY_HOST) { /* many blocks: the CPU run's launches */
        CUdevice dev;
        CUcontext ctx;
        sv_runtime_gpu_device dd;
        memset(&dd, 0, sizeof dd);
        if (device_query(&dev, &dd) != 0 || api.cuDevicePrimaryCtxRetain(&ctx, dev) != 0 ||
            api.cuCtxSetCurrent(ctx) != 0) {
            ok = sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, "no CUDA context", 0, -1, err, errlen);
            goto out;
        }
        ok = sv_rt_limits_apply_time(req, err, errlen) &&
             gpu_run_plan(req, scan, path, arch, t, err, errlen);
        done = ok;
        goto out;
    }
    if (req->n > max_threads) {
        snprintf(why, sizeof why, "n = %zu: one block of this GPU holds at most %u threads",
                 req->n, (unsigned)max_threads);
        ok = sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, why, 0, -1, err, errlen);
        goto out;
    }
    text = sv_rt_gpu_text(scan, req->source, path, req->type, req->op, req->scan);
    if (!text) {
        sv_errorf(err, errlen, "out of memory");
        ok = false;
        goto out;
    }
    ok = gpu_compile(text, path, arch, &bin, t, err, errlen);
    if (!ok || !bin.data)
        goto out; /* a compile error is t's failure */
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ok = gpu_open(&bin, &fn, &arch, &max_threads, t, err, errlen) &&
         (rc_mode || sv_rt_limits_apply_time(req, err, errlen));
    double ctx_ms = ms_since(&t0);
    job.req = req;
    job.t = t;
    job.n = (uint32_t)req->n;
    job.runs = req->runs ? req->runs : 1;
    if (req->each_run && !rc_mode) {
        /* in batches that keep every step of every run (job_each); the
         * batches' watchdog (job_run, within the time limit each) stands
         * for the time limit, whose signal would cut the traces' building
         * and sending, the runtime's work (the parent's backstop stays) */
        uint32_t total = job.runs;
        size_t step = ((size_t)(job.n + 2 * job.n + 64) * 4) * 2;
        size_t fit = SNAP_BUDGET / (step * SV_KTRACE_MAX_STEPS);
        job.runs = fit < 1 ? 1 : fit < total ? (uint32_t)fit : total;
        struct itimerval off;
        memset(&off, 0, sizeof off);
        setitimer(ITIMER_REAL, &off, NULL);
        ok = ok && job_alloc(&job, fn, err, errlen);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        ok = ok && job_each(&job, fn, scan, total, &done, err, errlen);
        job.runs = total;
        if (ok && done)
            note_times(&bin, ctx_ms, &job, ms_since(&t0));
        goto out;
    }
    ok = ok && job_alloc(&job, fn, err, errlen) && job_run(&job, fn, &done, err, errlen);
    if (!ok || !done)
        goto out;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint32_t shown = 0;
    ok = job_collect(&job, &shown, err, errlen) && job_steps(&job, scan, shown, err, errlen) &&
         job_output(&job, shown, true, err, errlen);
    note_times(&bin, ctx_ms, &job, ms_since(&t0));
    for (uint32_t r = 0; ok && rc_mode && r < job.hdr[0].nregs && r < SV_GPU_MAX_REGS; r++) {
        const gpu_reg *g = &job.hdr[0].reg[r];
        printf("sv-rt-gpu-reg %u %u %u %u %u\n", g->line, g->hash, g->off, g->bytes, g->rows);
    }
    if (ok && req->racecheck) {
        /* the sanitized run has its own limit (RC_TIMEOUT_MS): the kernel's
         * time limit, for the runs above, ends here */
        struct itimerval off;
        memset(&off, 0, sizeof off);
        setitimer(ITIMER_REAL, &off, NULL);
        ok = gpu_racecheck(req, scan, t, err, errlen);
    }
out:
    /* the kernel's printf records, which the driver writes to stdout (the
     * console pipe) at a synchronizing call: out before the child's exit,
     * which flushes no stdio (only after a launch that finished: a block
     * past the time limit still runs, and the sync would wait for it) */
    if (done && !rc_mode && api.cuCtxSynchronize)
        api.cuCtxSynchronize();
    fflush(stdout);
    free(job.hdr);
    free(job.outs);
    free(job.wrong);
    free(job.out_marked);
    free(bin.data);
    free(text);
    free(scan);
    return ok;
}

/* The sanitized run (--racecheck): before main, when this process was
 * started as `PROGRAM --sv-rt-gpu-racecheck FILE`. */
static char *rc_read_request(const char *file, sv_runtime_request *req, sv_value **in)
{
    FILE *f = fopen(file, "r");
    static char path[4096], entry[256];
    int op = 0, type = 0, scan = 0, shake = 0, racecheck = 0;
    unsigned runs = 1, limit = 0, mem = 0;
    unsigned long long seed = 0;
    size_t n = 0, len = 0;
    char *src = NULL;
    if (!f)
        return NULL;
    bool ok = fgets(path, sizeof path, f) && fgets(entry, sizeof entry, f) &&
              fscanf(f, "%d %d %d %zu %u %d %llu %u %u %d", &op, &type, &scan, &n, &runs, &shake,
                     &seed, &limit, &mem, &racecheck) == 10 &&
              n >= 1 && n <= SV_MAX_N && runs >= 1;
    path[strcspn(path, "\n")] = '\0';
    entry[strcspn(entry, "\n")] = '\0';
    *in = ok ? calloc(n, sizeof **in) : NULL;
    for (size_t i = 0; ok && *in && i < n; i++)
        ok = fscanf(f, "%x", &(*in)[i].bits) == 1;
    ok = ok && *in && fscanf(f, "%zu", &len) == 1 && fgetc(f) == '\n' &&
         len <= SV_KTRACE_MAX_SOURCE && (src = malloc(len + 1)) && fread(src, 1, len, f) == len;
    fclose(f);
    if (!ok) {
        free(src);
        return NULL;
    }
    src[len] = '\0';
    memset(req, 0, sizeof *req);
    req->path = path;
    req->entry = strcmp(entry, "-") ? entry : NULL;
    req->source = src;
    req->op = (sv_op)op;
    req->type = (sv_type)type;
    req->scan = (sv_scan)scan;
    req->input = *in;
    req->n = n;
    req->backend = SV_RUNTIME_GPU;
    req->runs = runs;
    req->shake = shake != 0;
    req->shake_seed = seed;
    req->time_limit_ms = limit;
    req->memory_mb = mem;
    req->racecheck = racecheck != 0;
    return src;
}

/* Before main: `PROGRAM --sv-rt-gpu-racecheck FILE` is the sanitized run
 * (prints the shared layout). Any other start returns. */
__attribute__((constructor)) static void rc_main(void)
{
    char args[8192];
    size_t len;
    const char *a1 = sv_rt_start_args(args, sizeof args, &len);
    bool rc = a1 && !strcmp(a1, SV_RT_GPU_RC_FLAG);
    if (!rc)
        return;
    const char *file = a1 + strlen(a1) + 1;
    if (file >= args + len)
        _exit(2);
    rc_mode = rc;
    fresh_mode = true;
    sv_runtime_request req;
    sv_value *in = NULL;
    char *src = rc_read_request(file, &req, &in);
    req.runs = 1, req.shake = false, req.racecheck = false;
    /* under the sanitizer a kernel runs many times slower: its time limit
     * is the sanitized run's own (the parent's RC_TIMEOUT_MS backstops it) */
    req.time_limit_ms = RC_TIMEOUT_MS / 2;
    char err[1024] = "";
    sv_ktrace *t = src ? sv_ktrace_create("kernel", req.op, req.type, req.scan, in, req.n, err,
                                          sizeof err)
                       : NULL;
    bool ok = t && sv_rt_gpu_run(&req, t, err, sizeof err);
    if (ok && t->failure.kind != SV_KFAIL_NONE)
        printf("sv-rt-gpu-failed %s\n", sv_kfail_kind_name(t->failure.kind));
    else if (!ok)
        printf("sv-rt-gpu-failed %s\n", src ? err : "cannot read the request");
    fflush(stdout);
    _exit(ok ? 0 : 1);
}
