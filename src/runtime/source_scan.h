/* The source scan of a kernel file: what both runtimes need to know before
 * compiling it, and the first wall around it (issue 27, layer 1). It finds
 * the __global__ functions and their parameters, checks the contract
 * (const T *in, T *out, int n) against --type, finds the __shared__
 * declarations (static, 2-D, extern) and writes the text the CPU compiler
 * gets, with the file's own line numbers kept.
 *
 * It reads the file as the preprocessor does (line splices first, then
 * comments as spaces, then directives) and refuses, naming the line:
 *   - every directive but #define, #undef, #if, #ifdef, #ifndef, #elif,
 *     #else, #endif, #error, #warning, #pragma unroll (and once), and
 *     #include of the CUDA built-ins by a literal name: so #import,
 *     #include_next, #line, computed includes and other pragmas;
 *   - asm, _Pragma, thread_local, token pasting (##), digraphs, trigraphs,
 *     raw strings, backslashes and non-ASCII bytes outside strings;
 *   - names that begin with __ but the CUDA ones both runtimes provide
 *     (so __attribute__, __asm__, __has_include, __builtin_*), the
 *     runtime's own names (sv_rt_*, SV_RT_*, SV_CUDA*), attributes [[...]]
 *     but the standard's harmless ones, and a test, definition or
 *     undefinition of what the runtime defines (#ifdef __global__);
 *   - CUDA neither runtime provides yet (shuffles, atomics, printf, ...),
 *     in words instead of the compiler's.
 * Without token pasting no macro can make a name the file does not spell,
 * so these checks see every name the compiler will. No macro expansion:
 * a declaration made by a macro is not seen, and the compiler then has the
 * last word. */
#ifndef SV_RUNTIME_SOURCE_SCAN_H
#define SV_RUNTIME_SOURCE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/ktrace.h"
#include "../core/op.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SV_SCAN_NAME 64      /* identifiers longer than this are refused */
#define SV_SCAN_TYPE 128     /* a parameter's type as text */
#define SV_SCAN_MAX_KERNELS 32
#define SV_SCAN_MAX_PARAMS 16
#define SV_SCAN_MAX_SHARED 32
#define SV_SCAN_MAX_LAUNCHES 32
#define SV_SCAN_ENTRY_HOST SV_SCAN_MAX_KERNELS /* sv_source_scan.entry: the host scan */

typedef struct sv_scan_param {
    char type[SV_SCAN_TYPE]; /* normalized: "const int *", "int" */
    char name[SV_SCAN_NAME]; /* "" when unnamed */
} sv_scan_param;

typedef struct sv_scan_kernel {
    char name[SV_SCAN_NAME];
    int line;                /* the line of its name */
    size_t body_at;          /* just past its body's '{' (0: none seen) */
    size_t nparams;
    sv_scan_param params[SV_SCAN_MAX_PARAMS];
    /* template <typename X> before it: X's name ("" when not a template).
     * The launcher instantiates it with the trace's type. */
    char tparam[SV_SCAN_NAME];
} sv_scan_kernel;

typedef struct sv_scan_shared {
    char name[SV_SCAN_NAME];
    char elem[SV_SCAN_TYPE]; /* the element type as written ("int", "unsigned char") */
    bool is_extern;          /* extern __shared__ T name[] */
    int line;
    int ndims;               /* 1 or 2 (0: a scalar) */
    char dims[2][SV_SCAN_TYPE]; /* as written: "2", "1024", "2 * N" */
    size_t kw_at;            /* offset of its __shared__ keyword */
    size_t decl_at;          /* offset of the declaration (extern / static before it) */
    size_t end;              /* offset just past the declaration's ';' */
    size_t name_end;         /* offset just past the name's last ']' (extern: after "[]") */
    bool file_scope;         /* outside every function (its CPU text: SV_RT_FSTATIC) */
} sv_scan_shared;

/* A launch in the host function (issue 31): NAME<<<config>>>(args), its
 * offsets in the file, which the CPU text rewrites to the runtime's
 * launcher on the same lines. */
typedef struct sv_scan_launch {
    char kernel[SV_SCAN_NAME]; /* the __global__ function launched */
    int line;
    size_t callee_at;          /* the kernel's name */
    size_t open_at, close_at;  /* the "<<<" and the ">>>" (3 bytes each) */
} sv_scan_launch;

/* A statement the GPU's tile timestamps (issue 31) mark: an assignment
 * whose left side can be taken again and is more than a bare name
 * (subscripts, members, derefs, casts; no call, no ++ or =) or an atomic
 * call's first argument; its GPU text becomes
 * "{ STATEMENT sv_stamp(LINE, &(SPAN)); }" (for an atomic "(SPAN)"), which
 * records the time, the block and the word it wrote. */
#define SV_SCAN_MAX_STAMPS 256
typedef struct sv_scan_stamp {
    int line;
    size_t at, end;          /* the statement: its first byte, just past its ';' */
    size_t span_at, span_end; /* the left side, or the atomic's argument */
    bool pointer;            /* the span is a pointer (an atomic's argument) */
    bool braces;             /* wrap the statement (not a declaration, whose names
                                must stay in scope: its stamps follow it) */
} sv_scan_stamp;

typedef struct sv_source_scan {
    size_t nkernels;
    sv_scan_kernel kernels[SV_SCAN_MAX_KERNELS];
    int entry;               /* index of the kernel to run, -1 before the check,
                                SV_SCAN_ENTRY_HOST: the host function scan */
    size_t nshared;
    sv_scan_shared shared[SV_SCAN_MAX_SHARED];
    /* #include lines of the CUDA built-ins, blanked in the CPU text */
    size_t nblank;
    size_t blank_start[SV_SCAN_MAX_SHARED], blank_end[SV_SCAN_MAX_SHARED];
    /* the file declares its own Op at file scope (struct, class, union,
     * enum, using or a typedef's name): the runtime's (scan_ops.h) is then
     * not brought in, so the file's compiles as it did before there was one */
    bool own_op;
    /* a host function void scan(const T *in, T *out, int n) (issue 31): the
     * entry, which launches the file's kernels (<<<>>>) as a CUDA program's
     * host side does */
    bool has_host;
    sv_scan_kernel host;
    size_t host_body_at, host_body_end; /* the host function's body, between its braces */
    size_t nlaunches;
    sv_scan_launch launches[SV_SCAN_MAX_LAUNCHES];
    size_t nstamps;          /* by statement, in the file's order */
    sv_scan_stamp stamps[SV_SCAN_MAX_STAMPS];
} sv_source_scan;

/* The headers a kernel file may include: the CUDA built-ins, which both
 * runtimes provide themselves ("cuda_runtime.h, cuda.h, ..."). */
const char *sv_source_allowed_includes(void);

/* Scans src (path names it in messages). On a refusal returns false with
 * *kind SV_KFAIL_INCLUDE, SV_KFAIL_REFUSED, SV_KFAIL_SIGNATURE or
 * SV_KFAIL_COMPILE (a comment or string never closed), *line the file's
 * line (0 none) and err in words, "PATH:LINE: ...". Does not check the
 * contract. */
bool sv_source_scan_text(const char *src, const char *path, sv_source_scan *out,
                         sv_kfail_kind *kind, int *line, char *err, size_t errlen);
/* Picks the entry (entry NULL: the host function scan when the file has
 * one, else the only __global__ function) and checks its
 * parameters against (const T *in, T *out, int n) for type. False with
 * err naming both parameter lists (SV_KFAIL_SIGNATURE, *line the kernel's
 * line), or the entries there are. */
bool sv_source_check_entry(sv_source_scan *s, const char *entry, sv_type type, int *line,
                           char *err, size_t errlen);

/* The text NVRTC gets for a file with a host function (issue 31): the file
 * as it is, its built-in #includes and the host function's body blanked
 * (every byte but its newlines), so that the kernels keep their lines.
 * malloc'd; NULL on allocation failure. */
char *sv_source_gpu_kernels(const sv_source_scan *s, const char *src);
/* The same with the tile timestamps (issue 31): "sv_tile_guard sv_tile_guard_;"
 * at the start of each __global__ body, each stamp's statement wrapped
 * (line numbers kept). The prelude (gpu_run.c) defines both. */
char *sv_source_gpu_stamped(const sv_source_scan *s, const char *src);

/* The launch at line: its callee as written ("block_scan<T>"), with the
 * host function's template parameter as ctype ("block_scan<int>"), into
 * buf; false when no launch is at line. */
bool sv_source_launch_callee(const sv_source_scan *s, const char *src, int line, const char *ctype,
                             char *buf, size_t len);

/* The entry picked (sv_source_check_entry): a kernel, or the host function
 * scan; the first kernel before the check. */
const sv_scan_kernel *sv_source_entry(const sv_source_scan *s);

/* The name a compiler is given for the file (its #line and messages): path
 * with every byte that is not printable ASCII, a quote or a backslash
 * written '_' (a carriage return or a newline in a submission's name
 * cannot reach the compiler's command or its messages). Returns buf. */
char *sv_source_line_name(const char *path, char *buf, size_t len);

/* The C++ type of an element ("int", "float"). */
const char *sv_source_ctype(sv_type type);

/* The text the CPU compiler gets: src with the built-in #includes blanked,
 * each __shared__ declaration replaced by one that takes its memory from
 * the runtime's pool (the extern one: the dynamic shared memory; a static
 * one: its own place, registered under its name), every line where it was
 * (a #line directive first names the file), then a launcher calling the
 * entry: for type SV_TYPE_COUNT (the shipped kernels, built ahead of time) a
 * template entry for both types, the run's type picking (sv_rt_scan[2]).
 * malloc'd; NULL on allocation failure. */
char *sv_source_cpu_text(const sv_source_scan *s, const char *src, const char *path,
                         sv_type type);

#ifdef __cplusplus
}
#endif

#endif
