/* The trace of any single-block kernel file: what a kernel actually did, step
 * by step, as the runtime (src/runtime/) observed it. A step is one barrier
 * interval: everything the block did between two __syncthreads() (or from
 * the start to the first, or from the last to the end). This is the model
 * the window draws and scanviz-trace prints for a kernel file, the chapter's
 * kernel and the canned mistakes included; the chapter's own round-shaped
 * trace (trace.h) is its reading where it fits (sv_ktrace_read_chapter()).
 *
 * Producers: the CPU runtime (fibers; it sees every shared access, so it
 * records reads, per-write operands and hazards) and the GPU runtime (NVRTC;
 * it sees snapshots of shared memory at each barrier, so written flags come
 * from comparing snapshots and there are no reads or hazards of its own;
 * compute-sanitizer's racecheck adds hazards where asked).
 *
 * Everything here is plain data owned by the sv_ktrace; sv_ktrace_destroy()
 * frees it. Cells never written are `written == false` everywhere, the output
 * included: they print as `?` and are `null` in the trace file. */
#ifndef SV_KTRACE_H
#define SV_KTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits of a kernel trace (the reader refuses more; the runtime stops
 * recording past them and says so in the trace's notes). */
#define SV_KTRACE_MAX_ARRAYS 16       /* shared arrays + out */
#define SV_KTRACE_MAX_STEPS 4096      /* barrier intervals */
#define SV_KTRACE_MAX_CELLS 65536     /* cells of one array (48 KiB / 4 bytes fits) */
#define SV_KTRACE_MAX_HAZARDS 10000   /* hazards kept; hazards_total counts all */
#define SV_KTRACE_MAX_SOURCE (256 * 1024) /* bytes of kernel source carried */

typedef enum sv_karray_kind {
    SV_KARRAY_SHARED, /* a __shared__ array (static or extern) */
    SV_KARRAY_OUT     /* the global out[] argument (in[] is the trace's input) */
} sv_karray_kind;

/* One array the kernel used, under its own name ("buf", "temp", "s", "out").
 * A static 2-D array `temp[2][N]` is one array of 2*N cells with rows = 2;
 * an array of 2n cells used as two halves of n (the chapter's buf[pout*n+i])
 * has rows = 2 too: the picture draws `rows` rows of len/rows cells. */
typedef struct sv_karray {
    char *name;
    sv_karray_kind kind;
    uint32_t len;        /* cells (elements of the trace's type) */
    uint32_t rows;       /* >= 1; len % rows == 0 */
    bool touched;        /* false: never read or written (the picture hides it) */
} sv_karray;

/* One access by one thread: an array cell, the value read or written, the
 * source line (the kernel file's own numbering; 0 unknown). */
typedef struct sv_kaccess {
    uint32_t thread;
    uint16_t array;      /* index into sv_ktrace.arrays; SV_KARRAY_IN for in[] */
    uint32_t cell;
    sv_value value;
    int32_t line;
} sv_kaccess;

/* in[] as an access's array (it is not in sv_ktrace.arrays). */
#define SV_KARRAY_IN 0xffffu

/* One write of a step, with the reads behind it: the cells that thread read
 * in the same step before this write and after its previous write of that
 * step (CPU runtime only; the arrows of the picture). */
typedef struct sv_kwrite {
    sv_kaccess at;        /* where, what value, which line */
    uint32_t first_read;  /* into the step's reads[] */
    uint32_t nreads;
} sv_kwrite;

/* The state after one barrier interval. cells[a] and written[a] are the
 * whole array a after the step (len cells); wrote[a] the cells written in
 * this step. */
typedef struct sv_kstep {
    int32_t barrier_line; /* the __syncthreads() that ended it; 0: the kernel's end */
    sv_value **cells;     /* [array][cell] */
    bool **written;       /* [array][cell]: written in this step or before */
    bool **wrote;         /* [array][cell]: written in this step */
    /* CPU runtime only (NULL / 0 from the GPU): */
    size_t nwrites;
    sv_kwrite *writes;    /* in the order they happened under the schedule */
    size_t nreads;
    sv_kaccess *reads;
} sv_kstep;

typedef enum sv_khazard_kind {
    SV_KHAZARD_RAW, /* a read of a cell another thread wrote in the same step */
    SV_KHAZARD_WAR, /* a write of a cell another thread read in the same step */
    SV_KHAZARD_WAW  /* two threads wrote the same cell in the same step */
} sv_khazard_kind;

/* A hazard as racecheck reports one: the same cell in the same barrier
 * interval touched by two threads, at least one writing. first is the
 * earlier access under the schedule, second the later one. */
typedef struct sv_khazard {
    sv_khazard_kind kind;
    uint32_t step;
    uint16_t array;
    uint32_t cell;
    sv_kaccess first, second;
} sv_khazard;

typedef enum sv_kfail_kind {
    SV_KFAIL_NONE,
    SV_KFAIL_COMPILE,      /* the compiler refused the file */
    SV_KFAIL_SIGNATURE,    /* no __global__ (const T *, T *, int), or --entry not found */
    SV_KFAIL_INCLUDE,      /* an #include other than the built-ins */
    SV_KFAIL_CRASH,        /* a signal in the kernel */
    SV_KFAIL_OUT_OF_RANGE, /* an access outside a shared array or in[]/out[] */
    SV_KFAIL_DEADLOCK,     /* threads wait at a barrier others never reach */
    SV_KFAIL_TIME,         /* past --time-limit */
    SV_KFAIL_MEMORY,       /* past the memory limit */
    SV_KFAIL_UNAVAILABLE,  /* no C++ compiler / no NVRTC / no GPU: message says which */
    SV_KFAIL_INTERNAL,     /* the runtime itself failed */
    SV_KFAIL_COUNT
} sv_kfail_kind;

/* Threads waiting at one barrier line when a deadlock was found. */
typedef struct sv_kwait {
    int32_t line;          /* the __syncthreads() line; 0: the kernel's end (exited) */
    uint32_t count;
    uint32_t first_thread;
} sv_kwait;

/* What stopped a run. A trace with a failure still holds the steps that
 * completed before it (the picture keeps them). */
typedef struct sv_kfailure {
    sv_kfail_kind kind;
    char *message;         /* words; for COMPILE the compiler's messages,
                              with the kernel file's own line numbers */
    int32_t line;          /* the kernel file's line, 0 unknown */
    int32_t thread;        /* -1 unknown */
    int32_t step;          /* the step it happened in, -1 unknown */
    int32_t array;         /* index into arrays, SV_KARRAY_IN, or -1 */
    int64_t index;         /* the index tried (out of range), else 0 */
    size_t nwaits;         /* DEADLOCK: where threads wait */
    sv_kwait *waits;
} sv_kfailure;

/* The chapter's reading of one step (sv_ktrace_read_chapter()). */
typedef struct sv_kreading {
    bool fits;             /* the step wrote n cells of one row that hold round
                              `round`'s invariant up to first_broken (or all) */
    int round;             /* 0: the staging; r >= 1 the round of stride 2^(r-1) */
    int32_t pout_array, pout_row; /* where the round's n cells are */
    int32_t pin_array, pin_row;   /* the row holding round-1's cells, -1 unknown */
    bool broken;           /* a cell breaks the invariant: */
    uint32_t first_broken; /* its index */
    sv_value holds;        /* what it holds */
    bool holds_known;
    uint32_t window_lo, window_hi; /* the window it should hold: op over input[lo..hi] */
    sv_value window_value;
} sv_kreading;

typedef struct sv_ktrace {
    /* The kernel */
    char *kernel;          /* registry name ("in-place") or the file's base name */
    char *file;            /* as given ("my_scan.cu"), NULL for none */
    char *entry;           /* the __global__ function run */
    char *source;          /* the file's text (at most SV_KTRACE_MAX_SOURCE bytes) */
    /* The run */
    sv_op op;
    sv_type type;
    sv_scan scan;
    size_t n;
    sv_value *input;       /* n */
    sv_backend backend;    /* CPU runtime or GPU runtime */
    char *device;          /* GPU name; NULL on the CPU */
    char *schedule;        /* CPU: "lockstep", "random:7" (sv_schedule_format); NULL on the GPU */
    uint32_t runs;         /* >= 1: this trace is run 0 (or the shown run) */
    uint32_t shown_run;
    uint32_t wrong_runs;   /* runs whose output differs from the scan */
    uint64_t switches;     /* CPU: fiber switches in the shown run */
    /* What happened */
    size_t narrays;
    sv_karray *arrays;
    size_t nsteps;
    sv_kstep *steps;
    sv_value *output;      /* n: out[] after the kernel */
    bool *output_written;  /* n */
    size_t nhazards;
    sv_khazard *hazards;   /* at most SV_KTRACE_MAX_HAZARDS, in the order found */
    uint64_t hazards_total;
    sv_kfailure failure;   /* kind NONE: it ran to the end */
    /* Filled by sv_ktrace_analyze() (derived, never read from a file): */
    sv_kreading *readings; /* [nsteps] */
    sv_value *expected;    /* n: the sequential scan of op (inclusive or exclusive) */
    int32_t first_wrong;   /* first output cell != expected (or unwritten), -1 none */
    int32_t first_broken_step; /* first step whose reading is broken, -1 none */
} sv_ktrace;

void sv_ktrace_destroy(sv_ktrace *t); /* accepts NULL */

#ifdef __cplusplus
}
#endif

#endif
