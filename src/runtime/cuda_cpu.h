/* cuda_cpu.h: the CUDA keywords a kernel file may use, for the CPU runtime.
 *
 * The CPU runtime (src/runtime/) compiles a kernel file with the system C++
 * compiler, this header forced in first (-include), with -fsanitize=thread:
 * the compiler then calls a __tsan_readN/__tsan_writeN hook before every
 * access to memory that is not a plain local. The hooks are defined here,
 * uninstrumented, and pass every access to the runtime through one table
 * (sv_rt_hooks_ptr, set after dlopen), so the kernel's .so is self-contained
 * and needs neither libtsan nor symbols of the program that loads it.
 * Each CUDA thread runs as a fiber; the runtime sets threadIdx before it
 * resumes one, and __syncthreads() is a real barrier between them.
 *
 * A kernel file is untrusted code (issue 27), and this header is what keeps
 * its .so to a kernel's means: it imports nothing from the C library (the
 * memcpy, memmove and memset the compiler calls are this header's, which
 * pass their ranges to the runtime too; malloc and free are the runtime's),
 * runs no code when it is loaded (a file-scope __shared__ array is a static
 * object whose place is listed in a section, sv_rt_fdecls, not a dynamic
 * initializer), and the file is compiled with -undef -nostdinc: it sees no
 * macro of the compiler's or the machine's, only the standard ones and
 * those below, as NVRTC's file sees NVRTC's.
 *
 * The subset (docs/user-guide.md, "Your own kernel"):
 *   threadIdx, blockIdx, blockDim, gridDim (.x .y .z), warpSize, dim3, uint3
 *   __global__, __device__, __host__, __forceinline__, __noinline__,
 *   __launch_bounds__(...), __restrict__, __align__(N)
 *   __shared__ (static, 1-D or 2-D, at file or function scope) and
 *   extern __shared__ T name[] (2 * n * sizeof(T) bytes; inside a function)
 *   __syncthreads(), __syncthreads_count/_and/_or(pred) (a barrier, a step)
 *   warps of 32 consecutive threadIdx.x: __shfl_sync, __shfl_up_sync,
 *   __shfl_down_sync, __shfl_xor_sync (4- and 8-byte values, width 1..32),
 *   __ballot_sync, __any_sync, __all_sync, __activemask, __syncwarp(mask)
 *   (a lane waits until every lane of its mask has come to a collective)
 *   __popc, __popcll, __clz, __clzll, __ffs, __ffsll, __brev, __brevll
 *   __threadfence, __threadfence_block (order nothing more here), __ldg
 *   atomicAdd, atomicSub, atomicMin, atomicMax, atomicExch, atomicCAS,
 *   atomicAnd, atomicOr, atomicXor, atomicInc, atomicDec (shared and global)
 *   assert(expr) (the run stops: thread, line, the expression's text)
 *   min, max (int, unsigned, float; std::min, std::max too, and std:: of the
 *   float math below), fminf, fmaxf, fabsf, sqrtf, expf, logf,
 *   exp2f, log2f, log10f, powf, sinf, cosf, tanf, tanhf, fmaf, floorf,
 *   ceilf, roundf, truncf, abs, __int_as_float, __float_as_int,
 *   __uint_as_float, __float_as_uint, INFINITY, NAN, INT_MAX, INT_MIN,
 *   FLT_MAX, int32_t, uint32_t, int64_t, uint64_t, size_t
 *   __CUDACC__, __CUDACC_RTC__, __CUDA_ARCH__ (900), as NVRTC defines them
 *   malloc, free (device-side; past the memory limit the run stops)
 *   printf (a literal format of numbers and characters, print_format.h:
 *   each call kept with its thread, step and line)
 *   templates, structs, __device__ helper functions: plain C++17
 * __constant__ (at file scope, read-only; no access of it is traced).
 * Anything else (warp matches and reductions, scoped atomics,
 * clocks, #include of other headers) is refused by the source scan
 * (source_scan.h) in words. */
#ifndef SV_CUDA_CPU_H
#define SV_CUDA_CPU_H

/* ---- The table the runtime fills -------------------------------------- */
extern "C" {
typedef struct sv_rt_hooks {
    /* write: bit 0 a write, bit 1 a volatile access */
    void (*access)(void *addr, unsigned long size, int write, void *pc);
    void (*sync)(int line);
    void (*shared)(void *addr, unsigned long bytes, unsigned long rows, const char *name,
                   int line);
    /* a device-side malloc(): the memory, NULL when it goes past the memory
     * limit (the run stops); free() gives it back */
    void *(*alloc)(unsigned long bytes, int line);
    void (*release)(void *p);
    /* a copy's range (memcpy, memset): checked to be the kernel's own memory,
     * not recorded (the compiler reports a copy's accesses, if at all, itself) */
    void (*span)(void *addr, unsigned long size, int write, void *pc);
    /* a warp collective (SV_RT_W_*) of the current lane at line: it waits
     * until every lane of mask has come to one, then returns its result
     * (the shuffled value's bits, the ballot, the vote); __activemask waits
     * until no lane of its warp can run and returns the lanes of its warp
     * waiting at its line then. A bad mask or lane stops the run (never returns). */
    unsigned long long (*warp)(int kind, unsigned mask, unsigned long long value, unsigned arg,
                               int width, int line);
    /* __syncthreads_count/_and/_or: the barrier of line, pred this thread's;
     * returns how many of the block's threads had a non-zero pred */
    int (*sync_count)(int pred, int line);
    /* an atomic read-modify-write of size bytes at addr (pc: the caller's),
     * before it is made: checked and recorded like a read and a write, and
     * no race with another atomic */
    void (*atomic)(void *addr, unsigned long size, void *pc);
    /* assert(expr) failed at line: the run stops (never returns) */
    void (*assert_fail)(const char *expr, int line);
    /* a printf of the kernel's at a line: its format (a literal, checked by
     * the source scan) and arguments, formatted by the runtime */
    int (*print)(int line, const char *fmt, __builtin_va_list ap);
    /* Many blocks (issue 31), from the host function scan: a launch of
     * kernel at line, grid x block threads with shared bytes of dynamic
     * shared memory, each thread calling thunk(closure) on the runtime's
     * copy of the closure's bytes; returns when every block has ended (a
     * failure stops the run: never returns) */
    void (*launch)(int line, const char *kernel, const unsigned grid[3], const unsigned block[3],
                   unsigned long shared, void (*thunk)(const void *), const void *closure,
                   unsigned long bytes, const struct sv_rt_arg *args, unsigned nargs);
    /* cudaMalloc and cudaFree of the host function: device memory of bytes
     * named by the pointer's expression ("&sums"); NULL stops the run */
    void *(*dalloc)(unsigned long bytes, const char *name, int line);
    void (*dfree)(void *p, int line);
    /* __threadfence() of the current thread at line (many blocks: what it
     * orders, the memory-order check of cpu_exec.cc) */
    void (*fence)(int line);
    /* cudaMemset(p, value, bytes) of the host function at line */
    void (*dset)(void *p, int value, unsigned long bytes, int line);
    /* cudaMemcpy(dst, src, bytes, kind) of the host function at line */
    void (*dcopy)(void *dst, const void *src, unsigned long bytes, int kind, int line);
} sv_rt_hooks;

/* A launch's argument, converted to its parameter's type: where its bytes
 * are, how many, and whether it is a pointer (the GPU's replay of the
 * launches maps a pointer to device memory there). */
typedef struct sv_rt_arg {
    const void *p;
    unsigned long size;
    int pointer;
} sv_rt_arg;

/* The warp collectives' kinds (sv_rt_hooks.warp). */
enum {
    SV_RT_W_IDX, SV_RT_W_UP, SV_RT_W_DOWN, SV_RT_W_XOR, /* the shuffles */
    SV_RT_W_BALLOT, SV_RT_W_ANY, SV_RT_W_ALL,          /* the votes */
    SV_RT_W_SYNC,                                       /* __syncwarp */
    SV_RT_W_ACTIVE,                                     /* __activemask */
    SV_RT_W_RED /* __reduce_*_sync: arg the operation (SV_RT_RED_*), | 8 signed */
};
enum { SV_RT_RED_ADD, SV_RT_RED_MIN, SV_RT_RED_MAX, SV_RT_RED_AND, SV_RT_RED_OR, SV_RT_RED_XOR };

/* A file-scope __shared__ array's place (SV_RT_FSTATIC), in section
 * sv_rt_fdecls: the runtime reads them after loading, before the kernel. */
typedef struct sv_rt_fdecl {
    void *addr;
    unsigned long bytes, rows;
    const char *name;
    int line;
} sv_rt_fdecl;
}
#ifndef SV_RT_HOOKS_ONLY /* the runtime (cpu_exec.cc) takes the table alone */
extern "C" {

typedef struct uint3 {
    unsigned int x, y, z;
} uint3;

__attribute__((visibility("default"))) sv_rt_hooks *sv_rt_hooks_ptr;
__attribute__((visibility("default"))) uint3 sv_rt_threadIdx;
__attribute__((visibility("default"))) uint3 sv_rt_blockDim;
/* One block unless the host function launches more (issue 31) */
__attribute__((visibility("default"))) uint3 sv_rt_blockIdx;
__attribute__((visibility("default"))) uint3 sv_rt_gridDim = {1, 1, 1};
/* Shared memory: one pool, laid out by the runtime's rules (cpu_exec.cc):
 * a margin, the dynamic shared memory (extern __shared__, 48 KiB, the CUDA
 * limit; the runtime checks accesses against 2 * n * sizeof(T)), a margin,
 * then each static __shared__ array in its turn with a gap after it. An
 * access inside the pool but outside every array is out of range. */
#define SV_RT_MARGIN 4096ul
#define SV_RT_DYN 49152ul
#define SV_RT_STATIC_MAX 49152ul
#define SV_RT_GAP 256ul
#define SV_RT_MAX_DECLS 32
#define SV_RT_POOL (3 * SV_RT_MARGIN + SV_RT_DYN + SV_RT_STATIC_MAX + SV_RT_MAX_DECLS * SV_RT_GAP)
__attribute__((visibility("default"), aligned(64))) unsigned char sv_rt_pool[SV_RT_POOL];
typedef struct sv_rt_decl {
    void *addr;
    unsigned long bytes, rows;
    const char *name;
    int line;
} sv_rt_decl;
__attribute__((visibility("default"))) sv_rt_decl sv_rt_decls[SV_RT_MAX_DECLS];
__attribute__((visibility("default"))) unsigned sv_rt_ndecls;
static unsigned long sv_rt_pool_next = 2 * SV_RT_MARGIN + SV_RT_DYN;

/* A static __shared__ array's memory, the first time its declaration runs
 * (at load for one at file scope): NULL past 48 KiB in all. */
__attribute__((no_sanitize("thread"))) static void *sv_rt_shared_alloc(unsigned long bytes,
    unsigned long align, unsigned long rows, const char *name, int line)
{
    unsigned long at = (sv_rt_pool_next + align - 1) / align * align;
    void *p = nullptr;
    if (at + bytes <= 2 * SV_RT_MARGIN + SV_RT_DYN + SV_RT_STATIC_MAX + SV_RT_MAX_DECLS * SV_RT_GAP &&
        sv_rt_ndecls < SV_RT_MAX_DECLS) {
        p = sv_rt_pool + at;
        sv_rt_pool_next = at + bytes + SV_RT_GAP;
        sv_rt_decls[sv_rt_ndecls++] = {p, bytes, rows, name, line};
    }
    if (sv_rt_hooks_ptr)
        sv_rt_hooks_ptr->shared(p, bytes, rows, name, line);
    return p ? p : sv_rt_pool; /* (the runtime has stopped the run) */
}

/* ---- The access hooks (ABI of gcc >= 12 and clang >= 14) --------------- */
#define SV_RT_HOOK extern "C" __attribute__((no_sanitize("thread"), visibility("default"), noinline))
/* Before the runtime has set the table (the .so's own constructors, at
 * load) an access is nobody's business. */
#define SV_RT_ACC(a, n, w)                                                            \
    do {                                                                              \
        if (sv_rt_hooks_ptr)                                                          \
            sv_rt_hooks_ptr->access(a, n, w, __builtin_return_address(0));            \
    } while (0)
#define SV_RT_RD(N)                                                                   \
    SV_RT_HOOK void __tsan_read##N(void *a)                                           \
    { SV_RT_ACC(a, N, 0); }                \
    SV_RT_HOOK void __tsan_write##N(void *a)                                          \
    { SV_RT_ACC(a, N, 1); }                \
    SV_RT_HOOK void __tsan_unaligned_read##N(void *a)                                 \
    { SV_RT_ACC(a, N, 0); }                \
    SV_RT_HOOK void __tsan_unaligned_write##N(void *a)                                \
    { SV_RT_ACC(a, N, 1); }                \
    SV_RT_HOOK void __tsan_volatile_read##N(void *a)                                  \
    { SV_RT_ACC(a, N, 2); }                \
    SV_RT_HOOK void __tsan_volatile_write##N(void *a)                                 \
    { SV_RT_ACC(a, N, 3); }
SV_RT_RD(1)
SV_RT_RD(2)
SV_RT_RD(4)
SV_RT_RD(8)
SV_RT_RD(16)
SV_RT_HOOK void __tsan_read_range(void *a, unsigned long size)
{ SV_RT_ACC(a, size, 0); }
SV_RT_HOOK void __tsan_write_range(void *a, unsigned long size)
{ SV_RT_ACC(a, size, 1); }
SV_RT_HOOK void __tsan_vptr_update(void **, void *) {}
SV_RT_HOOK void __tsan_vptr_read(void **) {}
SV_RT_HOOK void __tsan_func_entry(void *) {}
/* (clang calls it without an argument, gcc with one: the callee ignores it) */
SV_RT_HOOK void __tsan_func_exit(void *) {}
SV_RT_HOOK void __tsan_init(void) {}

/* The copies the compiler calls (struct copies, zeroed arrays) and the
 * hooks' own: this .so's, not the C library's, so that it imports nothing
 * and a copy through any pointer is checked by the runtime. Bytes one by
 * one through volatile, so that no compiler turns the loop back into a
 * call of memcpy. */
#define SV_RT_SPAN(a, n, w)                                                           \
    do {                                                                              \
        if (sv_rt_hooks_ptr)                                                          \
            sv_rt_hooks_ptr->span(a, n, w, __builtin_return_address(0));              \
    } while (0)
#ifndef SV_RT_HOSTED
#define SV_RT_COPY extern "C" __attribute__((no_sanitize("thread"), visibility("hidden"), noinline, used))
SV_RT_COPY void *memcpy(void *d, const void *s, unsigned long n)
{
    SV_RT_SPAN((void *)s, n, 0);
    SV_RT_SPAN(d, n, 1);
    volatile unsigned char *o = (volatile unsigned char *)d;
    const volatile unsigned char *i = (const volatile unsigned char *)s;
    for (unsigned long k = 0; k < n; k++)
        o[k] = i[k];
    return d;
}
SV_RT_COPY void *memmove(void *d, const void *s, unsigned long n)
{
    SV_RT_SPAN((void *)s, n, 0);
    SV_RT_SPAN(d, n, 1);
    volatile unsigned char *o = (volatile unsigned char *)d;
    const volatile unsigned char *i = (const volatile unsigned char *)s;
    if ((unsigned long)o < (unsigned long)i)
        for (unsigned long k = 0; k < n; k++)
            o[k] = i[k];
    else
        for (unsigned long k = n; k > 0; k--)
            o[k - 1] = i[k - 1];
    return d;
}
SV_RT_COPY void *memset(void *d, int c, unsigned long n)
{
    SV_RT_SPAN(d, n, 1);
    volatile unsigned char *o = (volatile unsigned char *)d;
    for (unsigned long k = 0; k < n; k++)
        o[k] = (unsigned char)c;
    return d;
}
#define SV_RT_MEMCPY memcpy
#define SV_RT_MEMMOVE memmove
#define SV_RT_MEMSET memset
#else /* the shipped kernels (trusted, built with the C library's headers,
       * which may define these inline): the compiler's */
#define SV_RT_MEMCPY __builtin_memcpy
#define SV_RT_MEMMOVE __builtin_memmove
#define SV_RT_MEMSET __builtin_memset
#endif
SV_RT_HOOK void *__tsan_memcpy(void *d, const void *s, unsigned long n)
{
    SV_RT_ACC((void *)s, n, 0);
    SV_RT_ACC(d, n, 1);
    return SV_RT_MEMCPY(d, s, n);
}
SV_RT_HOOK void *__tsan_memmove(void *d, const void *s, unsigned long n)
{
    SV_RT_ACC((void *)s, n, 0);
    SV_RT_ACC(d, n, 1);
    return SV_RT_MEMMOVE(d, s, n);
}
SV_RT_HOOK void *__tsan_memset(void *d, int c, unsigned long n)
{
    SV_RT_ACC(d, n, 1);
    return SV_RT_MEMSET(d, c, n);
}
SV_RT_HOOK void sv_rt_syncthreads(int line) { sv_rt_hooks_ptr->sync(line); }
/* Device-side malloc/free, as CUDA has them, from the runtime: a refusal
 * (the memory limit) stops the run, failure memory, at the line of the call. */
SV_RT_HOOK void *sv_rt_malloc(unsigned long bytes, int line)
{
    return sv_rt_hooks_ptr->alloc(bytes, line);
}
SV_RT_HOOK void sv_rt_free(void *p) { sv_rt_hooks_ptr->release(p); }
SV_RT_HOOK unsigned long long sv_rt_warp(int kind, unsigned mask, unsigned long long value,
                                         unsigned arg, int width, int line)
{
    return sv_rt_hooks_ptr->warp(kind, mask, value, arg, width, line);
}
SV_RT_HOOK int sv_rt_sync_count(int pred, int line)
{
    return sv_rt_hooks_ptr->sync_count(pred != 0, line);
}
SV_RT_HOOK void sv_rt_assert_fail(const char *expr, int line)
{
    sv_rt_hooks_ptr->assert_fail(expr, line);
}
/* printf in device code: the runtime formats it (print_format.h says what a
 * format may hold) and keeps it with its thread, step and line. */
SV_RT_HOOK int sv_rt_printf(int line, const char *fmt, ...)
{
    __builtin_va_list ap;
    __builtin_va_start(ap, fmt);
    int r = sv_rt_hooks_ptr->print(line, fmt, ap);
    __builtin_va_end(ap);
    return r;
}

/* The file-scope __shared__ arrays' places: the linker's bounds of the
 * section, 0 when there is none. */
extern const sv_rt_fdecl __start_sv_rt_fdecls[] __attribute__((weak, visibility("hidden")));
extern const sv_rt_fdecl __stop_sv_rt_fdecls[] __attribute__((weak, visibility("hidden")));
__attribute__((visibility("default"))) const sv_rt_fdecl *const sv_rt_fdecls_begin =
    __start_sv_rt_fdecls;
__attribute__((visibility("default"))) const sv_rt_fdecl *const sv_rt_fdecls_end =
    __stop_sv_rt_fdecls;
} /* extern "C" */

template <typename A>
struct sv_rt_rows_of { static constexpr unsigned long v = 1; };
template <typename E, unsigned long N, unsigned long M>
struct sv_rt_rows_of<E[N][M]> { static constexpr unsigned long v = N; };

/* The declarations source_scan.c writes in place of the kernel's:
 *   extern __shared__ T name[];   -> SV_RT_EXTERN(T, name);   (in a function)
 *   __shared__ T name[A][B];      -> SV_RT_STATIC(T, name, [A][B], "name", line);
 *                                    in a function: placed in the pool the first
 *                                    time it runs;
 *                                 -> SV_RT_FSTATIC(...) at file scope: a static
 *                                    object with a gap on each side, listed in
 *                                    sv_rt_fdecls, constant-initialized (no code
 *                                    runs at load). */
#define SV_RT_EXTERN(T, name) T *const name = reinterpret_cast<T *>(sv_rt_pool + SV_RT_MARGIN)
#define SV_RT_STATIC(T, name, dims, text, line)                                        \
    static T(&name) dims = *reinterpret_cast<T(*) dims>(sv_rt_shared_alloc(             \
        sizeof(T dims), alignof(T), sv_rt_rows_of<T dims>::v, text, line))
#define SV_RT_FSTATIC(T, name, dims, text, line)                                       \
    static struct {                                                                    \
        unsigned char pre[SV_RT_GAP];                                                  \
        T a dims;                                                                      \
        unsigned char post[SV_RT_GAP];                                                 \
    } sv_rt_box_##name __attribute__((aligned(64)));                                   \
    static T(&name) dims = sv_rt_box_##name.a;                                         \
    static const sv_rt_fdecl sv_rt_fdecl_##name                                        \
        __attribute__((used, section("sv_rt_fdecls"), aligned(8))) = {                 \
            &sv_rt_box_##name.a, sizeof(T dims), sv_rt_rows_of<T dims>::v, text, line}


/* ---- The keywords ------------------------------------------------------- */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
/* What the scan rewrites does not reach here; a __shared__ it did not see
 * (one a macro makes) is a plain static, not observed. */
#define __shared__ static
/* __constant__ memory: a static const object of the .so (source_scan.c blanks
 * the declaration's own const beside it); reading it is no access the trace
 * records, as on the GPU, where it is not in the shared window either. */
#define __constant__ static const
#define __syncthreads() sv_rt_syncthreads(__LINE__)
/* A barrier that also counts (a step of the trace, as __syncthreads). */
#define __syncthreads_count(p) sv_rt_sync_count((p) ? 1 : 0, __LINE__)
#define __syncthreads_and(p) (sv_rt_sync_count((p) ? 1 : 0, __LINE__) == (int)sv_rt_blockDim.x)
#define __syncthreads_or(p) (sv_rt_sync_count((p) ? 1 : 0, __LINE__) != 0)
#ifndef SV_RT_HOSTED
#define assert(e) ((e) ? (void)0 : sv_rt_assert_fail(#e, __LINE__))
#define malloc(n) sv_rt_malloc((n), __LINE__)
#define free(p) sv_rt_free(p)
#define printf(...) sv_rt_printf(__LINE__, __VA_ARGS__)
#endif
#define threadIdx sv_rt_threadIdx
#define blockDim sv_rt_blockDim
#define warpSize 32

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int a = 1, unsigned int b = 1, unsigned int c = 1) : x(a), y(b), z(c) {}
};
#define blockIdx sv_rt_blockIdx
#define gridDim sv_rt_gridDim

/* ---- The host side (issue 31) --------------------------------------------- *
 * A file may define void scan(const T *in, T *out, int n), which launches
 * its kernels as a CUDA program's host side does. source_scan.c writes each
 * launch NAME<<<c>>>(args) as sv_rt_launcher(LINE, "NAME", NAME)(sv_rt_cfg(c))(args),
 * on the same lines. The arguments are copied once (a closure of values),
 * as a launch copies a kernel's parameters. */
typedef int cudaError_t;
enum { cudaSuccess = 0, sv_rt_cuda_error = 2 };
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};
struct sv_rt_cfg_t {
    unsigned grid[3], block[3];
    unsigned long shared;
};
static inline sv_rt_cfg_t sv_rt_cfg(dim3 g, dim3 b, unsigned long shared = 0, int stream = 0)
{
    (void)stream;
    return {{g.x, g.y, g.z}, {b.x, b.y, b.z}, shared};
}
extern "C" {
/* (uninstrumented: the table is the runtime's memory, not the kernel's) */
SV_RT_HOOK void sv_rt_launch_go(int line, const char *name, const unsigned *grid,
                                const unsigned *block, unsigned long shared,
                                void (*thunk)(const void *), const void *closure,
                                unsigned long bytes, const sv_rt_arg *args, unsigned nargs)
{
    sv_rt_hooks_ptr->launch(line, name, grid, block, shared, thunk, closure, bytes, args, nargs);
}
}
template <typename F>
static void sv_rt_thunk(const void *f)
{
    (*static_cast<const F *>(f))();
}
template <typename T>
struct sv_rt_isptr { enum { v = 0 }; };
template <typename T>
struct sv_rt_isptr<T *> { enum { v = 1 }; };
template <typename K>
struct sv_rt_launch_k;
/* Each argument converted to its parameter's type, as a launch does. */
template <typename... P>
struct sv_rt_launch_k<void(P...)> {
    int line;
    const char *name;
    void (*k)(P...);
    sv_rt_cfg_t c;
    template <typename... A>
    void operator()(A... a) const
    {
        static_assert(sizeof...(A) == sizeof...(P), "a launch passes one argument a parameter");
        go(static_cast<P>(a)...);
    }
    void go(P... p) const
    {
        void (*fn)(P...) = k;
        auto f = [=]() { fn(p...); };
        static_assert(__is_trivially_copyable(decltype(f)),
                      "a kernel's arguments are plain values and pointers");
        const sv_rt_arg args[sizeof...(P) + 1] = {{&p, sizeof(P), sv_rt_isptr<P>::v}...,
                                                  {nullptr, 0, 0}};
        sv_rt_launch_go(line, name, c.grid, c.block, c.shared, &sv_rt_thunk<decltype(f)>, &f,
                        sizeof f, args, (unsigned)sizeof...(P));
    }
};
template <typename K>
struct sv_rt_launch_f {
    int line;
    const char *name;
    K *k;
    sv_rt_launch_k<K> operator()(sv_rt_cfg_t c) const { return {line, name, k, c}; }
};
template <typename K>
static sv_rt_launch_f<K> sv_rt_launcher(int line, const char *name, K *k)
{
    return {line, name, k};
}
extern "C" {
SV_RT_HOOK cudaError_t sv_rt_cuda_malloc(void **p, unsigned long bytes, const char *name, int line)
{
    void *m = sv_rt_hooks_ptr->dalloc(bytes, name, line);
    *p = m;
    return m ? cudaSuccess : sv_rt_cuda_error;
}
SV_RT_HOOK cudaError_t sv_rt_cuda_free(void *p, int line)
{
    sv_rt_hooks_ptr->dfree(p, line);
    return cudaSuccess;
}
}
#define cudaMalloc(p, bytes) sv_rt_cuda_malloc((void **)(p), (bytes), #p, __LINE__)
#define cudaFree(p) sv_rt_cuda_free((void *)(p), __LINE__)
extern "C" {
SV_RT_HOOK cudaError_t sv_rt_cuda_memset(void *p, int v, unsigned long bytes, int line)
{
    sv_rt_hooks_ptr->dset(p, v, bytes, line);
    return cudaSuccess;
}
}
#define cudaMemset(p, v, bytes) sv_rt_cuda_memset((void *)(p), (v), (bytes), __LINE__)
extern "C" {
SV_RT_HOOK cudaError_t sv_rt_cuda_memcpy(void *dst, const void *src, unsigned long bytes,
                                         int kind, int line)
{
    sv_rt_hooks_ptr->dcopy(dst, src, bytes, kind, line);
    return cudaSuccess;
}
}
#define cudaMemcpy(d, s, bytes, kind) \
    sv_rt_cuda_memcpy((void *)(d), (const void *)(s), (bytes), (int)(kind), __LINE__)
static inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
static inline cudaError_t cudaGetLastError() { return cudaSuccess; }
static inline cudaError_t cudaPeekAtLastError() { return cudaSuccess; }

/* ---- Warp-level CUDA ----------------------------------------------------- *
 * A warp is 32 consecutive threadIdx.x; each collective is the runtime's
 * (sv_rt_hooks.warp), at the line of the call: the macros make an
 * sv_rt_at{__LINE__} and call its member, whose defaults are CUDA's
 * (width warpSize, __syncwarp's full mask). */
struct sv_rt_at {
    int line;
    template <typename T>
    T shfl(int kind, unsigned mask, T v, unsigned arg, int width) const
    {
        static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a shuffle moves 4 or 8 bytes");
        unsigned long long bits = 0;
        __builtin_memcpy(&bits, &v, sizeof(T));
        bits = sv_rt_warp(kind, mask, bits, arg, width, line);
        T r;
        __builtin_memcpy(&r, &bits, sizeof(T));
        return r;
    }
    template <typename T>
    T idx(unsigned mask, T v, int lane, int width = 32) const
    { return shfl(SV_RT_W_IDX, mask, v, (unsigned)lane, width); }
    template <typename T>
    T up(unsigned mask, T v, unsigned delta, int width = 32) const
    { return shfl(SV_RT_W_UP, mask, v, delta, width); }
    template <typename T>
    T down(unsigned mask, T v, unsigned delta, int width = 32) const
    { return shfl(SV_RT_W_DOWN, mask, v, delta, width); }
    template <typename T>
    T bfly(unsigned mask, T v, int lane_mask, int width = 32) const
    { return shfl(SV_RT_W_XOR, mask, v, (unsigned)lane_mask, width); }
    unsigned ballot(unsigned mask, int pred) const
    { return (unsigned)sv_rt_warp(SV_RT_W_BALLOT, mask, pred != 0, 0, 32, line); }
    int any(unsigned mask, int pred) const
    { return (int)sv_rt_warp(SV_RT_W_ANY, mask, pred != 0, 0, 32, line); }
    int all(unsigned mask, int pred) const
    { return (int)sv_rt_warp(SV_RT_W_ALL, mask, pred != 0, 0, 32, line); }
    void syncwarp(unsigned mask = 0xffffffffu) const
    { sv_rt_warp(SV_RT_W_SYNC, mask, 0, 0, 32, line); }
    unsigned active() const
    { return (unsigned)sv_rt_warp(SV_RT_W_ACTIVE, 0, 0, 0, 32, line); }
    /* __reduce_*_sync (sm_80): int and unsigned for add, min and max, unsigned
     * for and, or and xor, as CUDA declares them */
    unsigned red(int op, unsigned mask, unsigned v) const
    { return (unsigned)sv_rt_warp(SV_RT_W_RED, mask, v, (unsigned)op, 32, line); }
    int red(int op, unsigned mask, int v) const
    { return (int)(unsigned)sv_rt_warp(SV_RT_W_RED, mask, (unsigned)v, (unsigned)op | 8u, 32, line); }
    unsigned redu(int op, unsigned mask, unsigned v) const { return red(op, mask, v); }
};
#define __shfl_sync sv_rt_at{__LINE__}.idx
#define __shfl_up_sync sv_rt_at{__LINE__}.up
#define __shfl_down_sync sv_rt_at{__LINE__}.down
#define __shfl_xor_sync sv_rt_at{__LINE__}.bfly
#define __ballot_sync sv_rt_at{__LINE__}.ballot
#define __any_sync sv_rt_at{__LINE__}.any
#define __all_sync sv_rt_at{__LINE__}.all
#define __syncwarp sv_rt_at{__LINE__}.syncwarp
#define __reduce_add_sync(m, v) sv_rt_at{__LINE__}.red(SV_RT_RED_ADD, (m), (v))
#define __reduce_min_sync(m, v) sv_rt_at{__LINE__}.red(SV_RT_RED_MIN, (m), (v))
#define __reduce_max_sync(m, v) sv_rt_at{__LINE__}.red(SV_RT_RED_MAX, (m), (v))
#define __reduce_and_sync(m, v) sv_rt_at{__LINE__}.redu(SV_RT_RED_AND, (m), (unsigned)(v))
#define __reduce_or_sync(m, v) sv_rt_at{__LINE__}.redu(SV_RT_RED_OR, (m), (unsigned)(v))
#define __reduce_xor_sync(m, v) sv_rt_at{__LINE__}.redu(SV_RT_RED_XOR, (m), (unsigned)(v))
#define __activemask sv_rt_at{__LINE__}.active

/* Fences order nothing more on cooperative fibers: every access is seen by
 * the next fiber that runs; __threadfence() tells the runtime, whose check
 * of many blocks names a flag a block publishes before its data with no
 * fence between. __ldg is a plain read at the caller's line. */
static inline void __threadfence_block() {}
extern "C" {
SV_RT_HOOK void sv_rt_fence(int line) { sv_rt_hooks_ptr->fence(line); }
}
#define __threadfence() sv_rt_fence(__LINE__)
#define __ldg(p) (*(p))

/* The bit intrinsics, with CUDA's results at 0 (__clz(0) 32, __ffs(0) 0). */
/* (counted by hand: __builtin_popcount may be a call of libgcc's, which the
 * kernel's .so may not import) */
static inline int __popc(unsigned x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}
static inline int __popcll(unsigned long long x) { return __popc((unsigned)x) + __popc((unsigned)(x >> 32)); }
static inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}

/* The integer intrinsics, exact (CUDA's math API): high halves of products,
 * 24-bit products, sums of absolute differences, halving adds, byte
 * permutes and funnel shifts; and __saturatef ([0, 1], NaN and -0 to +0). */
static inline unsigned __umulhi(unsigned x, unsigned y)
{ return (unsigned)(((unsigned long long)x * y) >> 32); }
static inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{ return (unsigned long long)(((unsigned __int128)x * y) >> 64); }
static inline long long __mul64hi(long long x, long long y)
{ return (long long)(((__int128)x * y) >> 64); }
static inline int __mul24(int x, int y)
{
    long long a = (long long)(int)((unsigned)x << 8) >> 8, b = (long long)(int)((unsigned)y << 8) >> 8;
    return (int)(unsigned)(a * b);
}
static inline unsigned __umul24(unsigned x, unsigned y)
{ return (unsigned)((unsigned long long)(x & 0xffffffu) * (y & 0xffffffu)); }
static inline unsigned __sad(int x, int y, unsigned z)
{ return (unsigned)(x > y ? (long long)x - y : (long long)y - x) + z; }
static inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
static inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
static inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
static inline unsigned __uhadd(unsigned x, unsigned y)
{ return (unsigned)(((unsigned long long)x + y) >> 1); }
static inline unsigned __urhadd(unsigned x, unsigned y)
{ return (unsigned)(((unsigned long long)x + y + 1) >> 1); }
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long b = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int k = 0; k < 4; k++)
        r |= (unsigned)((b >> (8 * ((s >> (4 * k)) & 7u))) & 0xffu) << (8 * k);
    return r;
}
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned sh)
{ return (unsigned)(((((unsigned long long)hi << 32) | lo) << (sh & 31u)) >> 32); }
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned sh)
{ return sh >= 32 ? lo : __funnelshift_l(lo, hi, sh); }
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned sh)
{ return (unsigned)((((unsigned long long)hi << 32) | lo) >> (sh & 31u)); }
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned sh)
{ return sh >= 32 ? hi : __funnelshift_r(lo, hi, sh); }
static inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }

/* ---- Atomics -------------------------------------------------------------- *
 * Each tells the runtime its word first (sv_rt_hooks.atomic: checked,
 * recorded as a read and a write, a scheduling point), then reads, changes
 * and writes it with no other fiber between: atomic, as CUDA's. They return
 * the old value. Not instrumented and never inlined, so that the hook's
 * caller is the kernel's line. */
#define SV_RT_ATOMIC static inline __attribute__((no_sanitize("thread"), noinline))
#define SV_RT_AT(p) sv_rt_hooks_ptr->atomic((void *)(p), sizeof *(p), __builtin_return_address(0))
#define SV_RT_ATOMIC_OP(name, T, expr)                                                 \
    SV_RT_ATOMIC T name(T *p, T v)                                                     \
    {                                                                                  \
        SV_RT_AT(p);                                                                   \
        T o = *p;                                                                      \
        *p = (expr);                                                                   \
        return o;                                                                      \
    }
/* integer arithmetic wraps, as the hardware's (done unsigned) */
#define SV_RT_WRAP(T, U, op) (T)((U)o op (U)v)
SV_RT_ATOMIC_OP(atomicAdd, int, SV_RT_WRAP(int, unsigned, +))
SV_RT_ATOMIC_OP(atomicAdd, unsigned, o + v)
SV_RT_ATOMIC_OP(atomicAdd, unsigned long long, o + v)
SV_RT_ATOMIC_OP(atomicAdd, float, o + v)
SV_RT_ATOMIC_OP(atomicSub, int, SV_RT_WRAP(int, unsigned, -))
SV_RT_ATOMIC_OP(atomicSub, unsigned, o - v)
SV_RT_ATOMIC_OP(atomicExch, int, v)
SV_RT_ATOMIC_OP(atomicExch, unsigned, v)
SV_RT_ATOMIC_OP(atomicExch, unsigned long long, v)
SV_RT_ATOMIC_OP(atomicExch, float, v)
SV_RT_ATOMIC_OP(atomicMin, int, o < v ? o : v)
SV_RT_ATOMIC_OP(atomicMin, unsigned, o < v ? o : v)
SV_RT_ATOMIC_OP(atomicMin, long long, o < v ? o : v)
SV_RT_ATOMIC_OP(atomicMin, unsigned long long, o < v ? o : v)
SV_RT_ATOMIC_OP(atomicMax, int, o > v ? o : v)
SV_RT_ATOMIC_OP(atomicMax, unsigned, o > v ? o : v)
SV_RT_ATOMIC_OP(atomicMax, long long, o > v ? o : v)
SV_RT_ATOMIC_OP(atomicMax, unsigned long long, o > v ? o : v)
SV_RT_ATOMIC_OP(atomicAnd, int, o & v)
SV_RT_ATOMIC_OP(atomicAnd, unsigned, o & v)
SV_RT_ATOMIC_OP(atomicAnd, unsigned long long, o & v)
SV_RT_ATOMIC_OP(atomicOr, int, o | v)
SV_RT_ATOMIC_OP(atomicOr, unsigned, o | v)
SV_RT_ATOMIC_OP(atomicOr, unsigned long long, o | v)
SV_RT_ATOMIC_OP(atomicXor, int, o ^ v)
SV_RT_ATOMIC_OP(atomicXor, unsigned, o ^ v)
SV_RT_ATOMIC_OP(atomicXor, unsigned long long, o ^ v)
/* atomicInc: 0 once old >= v, else old + 1; atomicDec: v once old is 0 or
 * past v, else old - 1 (CUDA's wrap-arounds) */
SV_RT_ATOMIC_OP(atomicInc, unsigned, o >= v ? 0u : o + 1u)
SV_RT_ATOMIC_OP(atomicDec, unsigned, (o == 0u || o > v) ? v : o - 1u)
#define SV_RT_ATOMIC_CAS(T)                                                            \
    SV_RT_ATOMIC T atomicCAS(T *p, T compare, T v)                                     \
    {                                                                                  \
        SV_RT_AT(p);                                                                   \
        T o = *p;                                                                      \
        *p = o == compare ? v : o;                                                     \
        return o;                                                                      \
    }
SV_RT_ATOMIC_CAS(int)
SV_RT_ATOMIC_CAS(unsigned)
SV_RT_ATOMIC_CAS(unsigned long long)
#undef SV_RT_ATOMIC_CAS
#undef SV_RT_ATOMIC_OP
#undef SV_RT_WRAP

/* ---- Types and math ----------------------------------------------------- *
 * A kernel file gets these from here (it may include nothing; it is
 * compiled with -undef, so the compiler's own __INT32_TYPE__ and the like
 * are not there: these are LP64's). The shipped kernels, built ahead of
 * time with -DSV_RT_HOSTED, include the C++ library headers they need
 * themselves (src/runtime/scan_ops.h), so these stay out. */
#ifndef SV_RT_HOSTED
#define __CUDACC__ 1
#define __CUDACC_RTC__ 1
#define __CUDA_ARCH__ 900
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;
typedef unsigned long size_t;
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#define INT_MAX 2147483647
#define INT_MIN (-2147483647 - 1)
#define FLT_MAX 3.40282346638528859811704183484516925e+38F

static inline int min(int a, int b) { return a < b ? a : b; }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static inline float min(float a, float b) { return __builtin_fminf(a, b); }
static inline float max(float a, float b) { return __builtin_fmaxf(a, b); }
static inline int abs(int a) { return a < 0 ? -a : a; }
static inline float fminf(float a, float b) { return __builtin_fminf(a, b); }
static inline float fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static inline float fabsf(float a) { return __builtin_fabsf(a); }
static inline float sqrtf(float a) { return __builtin_sqrtf(a); }
static inline float expf(float a) { return __builtin_expf(a); }
static inline float logf(float a) { return __builtin_logf(a); }
static inline float floorf(float a) { return __builtin_floorf(a); }
static inline float ceilf(float a) { return __builtin_ceilf(a); }
static inline float roundf(float a) { return __builtin_roundf(a); }
static inline float truncf(float a) { return __builtin_truncf(a); }
static inline float exp2f(float a) { return __builtin_exp2f(a); }
static inline float log2f(float a) { return __builtin_log2f(a); }
static inline float log10f(float a) { return __builtin_log10f(a); }
static inline float powf(float a, float b) { return __builtin_powf(a, b); }
static inline float sinf(float a) { return __builtin_sinf(a); }
static inline float cosf(float a) { return __builtin_cosf(a); }
static inline float tanf(float a) { return __builtin_tanf(a); }
static inline float tanhf(float a) { return __builtin_tanhf(a); }
static inline float fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static inline float __int_as_float(int v) { float f; __builtin_memcpy(&f, &v, 4); return f; }
static inline int __float_as_int(float f) { int v; __builtin_memcpy(&v, &f, 4); return v; }
static inline float __uint_as_float(unsigned v) { float f; __builtin_memcpy(&f, &v, 4); return f; }
static inline unsigned __float_as_uint(float f) { unsigned v; __builtin_memcpy(&v, &f, 4); return v; }
/* std::min, std::max and the float math, as both runtimes have them (the
 * source scan refuses any other std:: name) */
namespace std {
using ::min;
using ::max;
using ::abs;
static inline float abs(float a) { return __builtin_fabsf(a); }
static inline float fabs(float a) { return __builtin_fabsf(a); }
static inline float sqrt(float a) { return __builtin_sqrtf(a); }
static inline float exp(float a) { return __builtin_expf(a); }
static inline float exp2(float a) { return __builtin_exp2f(a); }
static inline float log(float a) { return __builtin_logf(a); }
static inline float log2(float a) { return __builtin_log2f(a); }
static inline float log10(float a) { return __builtin_log10f(a); }
static inline float pow(float a, float b) { return __builtin_powf(a, b); }
static inline float sin(float a) { return __builtin_sinf(a); }
static inline float cos(float a) { return __builtin_cosf(a); }
static inline float tan(float a) { return __builtin_tanf(a); }
static inline float tanh(float a) { return __builtin_tanhf(a); }
static inline float floor(float a) { return __builtin_floorf(a); }
static inline float ceil(float a) { return __builtin_ceilf(a); }
static inline float round(float a) { return __builtin_roundf(a); }
static inline float trunc(float a) { return __builtin_truncf(a); }
static inline float fmin(float a, float b) { return __builtin_fminf(a, b); }
static inline float fmax(float a, float b) { return __builtin_fmaxf(a, b); }
static inline float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
} // namespace std
#endif /* SV_RT_HOSTED */

/* ---- The scan the run asks for (scan_ops.h: Op::apply, Op::identity,
 * scan_exclusive) ---------------------------------------------------------
 * One build serves every operator: the runtime writes the run's operator
 * and kind into sv_rt_scan after loading, before the kernel runs. Read
 * through uninstrumented calls, so they are no accesses of the kernel's. */
extern "C" {
__attribute__((visibility("default"))) int sv_rt_scan[3]; /* sv_op, exclusive, sv_type */
}
__attribute__((no_sanitize("thread"), noinline)) static int sv_rt_scan_op() { return sv_rt_scan[0]; }
__attribute__((no_sanitize("thread"), noinline)) static int sv_rt_scan_excl() { return sv_rt_scan[1]; }
#define SV_SCAN_OP sv_rt_scan_op()
#define SV_SCAN_EXCLUSIVE sv_rt_scan_excl()
#include "scan_ops.h"

#endif /* SV_RT_HOOKS_ONLY */

#endif
