/* The trace of any single-block kernel file: what a kernel actually did, step
 * by step, as the runtime (src/runtime/) observed it. A step is one barrier
 * interval: everything the block did between two __syncthreads() (or from
 * the start to the first, or from the last to the end). This is the model
 * the window draws and scanviz-trace prints for a kernel file, the chapter's
 * kernel and the canned mistakes included; the chapter's own round-shaped
 * trace (trace.h) is its reading where it fits (sv_ktrace_analyze() reads
 * each step, sv_ktrace_chapter_trace() builds the round-shaped trace).
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
#define SV_KTRACE_MAX_CELLS 65536     /* of a shared or register array (48 KiB / 4 bytes fits) */
#define SV_KTRACE_MAX_DEVICE_CELLS (1u << 21) /* of out[] or device memory (a host function's
                                                 n = 2^20 and scratch as large again) */
#define SV_KTRACE_MAX_HAZARDS 10000   /* hazards kept; hazards_total counts all */
#define SV_KTRACE_MAX_SOURCE (256 * 1024) /* bytes of kernel source carried */
#define SV_KTRACE_MAX_CONSOLE (64 * 1024) /* bytes of the kernel process's output kept */
#define SV_KTRACE_MAX_PRINTS 4096     /* printf calls kept; prints_dropped counts the rest */
#define SV_KTRACE_MAX_PRINT 256       /* bytes of one printf's text kept (before escaping) */
#define SV_KTRACE_MAX_BANK_LINES 4096 /* (step, line) entries of the bank conflicts kept */
#define SV_KTRACE_MAX_BANK_CELLS 65536 /* (step, cell) entries of the colliding cells kept */
/* Cells of all steps together (steps x the arrays' cells): 2^25, about 200
 * MB of steps. The reader refuses more; a runtime stops recording steps
 * before it. */
#define SV_KTRACE_MAX_TOTAL_CELLS (1u << 25)

typedef enum sv_karray_kind {
    SV_KARRAY_SHARED, /* a __shared__ array (static or extern) */
    SV_KARRAY_OUT,    /* the global out[] argument (in[] is the trace's input) */
    SV_KARRAY_REG,    /* registers that moved by shuffle (CPU runtime, issue 30): the
                         values the lanes sent at one __shfl*_sync line, row k the k-th
                         time each lane ran it, cell k * n + i thread i's (named
                         "shfl@LINE"); written where sent, read where received */
    SV_KARRAY_GLOBAL  /* device memory the host function scan allocated (cudaMalloc,
                         issue 31), under the name of the pointer it was given */
} sv_karray_kind;

/* Whether a launch's grid dims have more than one dimension (y or z past
 * 1). */
static inline bool sv_klaunch_multi(const uint32_t dims[3])
{
    return dims[1] > 1 || dims[2] > 1;
}

/* Whether the dims of a 2-D or 3-D block are a block of `block` threads
 * (CUDA's limits: x and y up to 1024, z up to 64). */
static inline bool sv_klaunch_block_dims_ok(const uint32_t d[3], uint32_t block)
{
    return d[0] >= 1 && d[1] >= 1 && d[2] >= 1 && d[0] <= 1024 && d[1] <= 1024 && d[2] <= 64 &&
           (uint64_t)d[0] * d[1] * d[2] == block;
}

/* The most cells an array of that kind holds: SV_KTRACE_MAX_DEVICE_CELLS for
 * out[] and device memory, SV_KTRACE_MAX_CELLS for the rest. */
static inline uint32_t sv_karray_max_len(sv_karray_kind kind)
{
    return kind == SV_KARRAY_OUT || kind == SV_KARRAY_GLOBAL ? SV_KTRACE_MAX_DEVICE_CELLS
                                                             : SV_KTRACE_MAX_CELLS;
}

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
 * source line (the kernel file's own numbering; 0 unknown), and when it
 * happened. */
typedef struct sv_kaccess {
    uint32_t thread;
    uint16_t array;      /* index into sv_ktrace.arrays; SV_KARRAY_IN for in[] */
    uint32_t cell;
    sv_value value;
    int32_t line;
    /* CPU runtime: the access's place in the run, counted over all threads
     * from 1 (a read with a smaller order than a write of its cell happened
     * before it: the lab's "which write did this read see"); 0 unknown (the
     * GPU, trace files, which do not carry it). */
    uint32_t order;
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
    SV_KFAIL_REFUSED,      /* the file uses what a kernel file may not (asm, a
                              pragma, a reserved name, ...) or what the runtimes
                              lack (shuffles, atomics, printf): refused unrun */
    SV_KFAIL_SYSCALL,      /* the kernel made a system call the sandbox refuses;
                              index: the call's number */
    SV_KFAIL_COUNT
} sv_kfail_kind;

/* One printf of the kernel's: which thread, in which step (barrier
 * interval), at which line, and its text (escaped: sv_escape_n, no control
 * character; one trailing newline dropped; at most SV_KTRACE_MAX_PRINT bytes
 * before escaping). */
typedef struct sv_kprint {
    uint32_t thread;
    uint32_t step;
    int32_t line;
    char *text;
} sv_kprint;

/* Shared-memory bank conflicts at one line in one step (the CPU runtime's
 * count, cpu_exec.cc: ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared
 * op_ld / op_st). */
typedef struct sv_kbank {
    uint32_t step;
    int32_t line;
    uint64_t loads, stores;
} sv_kbank;

/* A cell whose word collided in a bank with other words of one warp-wide
 * shared access of a step (the lanes that collide, drawn on the cells):
 * ways is how many distinct words that bank served in that request (2: one
 * conflict, 32: a stride of 32); where the cell collided in several
 * requests of the step, the one of most ways (then the first). */
typedef struct sv_kbankcell {
    uint32_t step;
    uint16_t array;        /* a shared array */
    uint8_t ways;          /* 2 .. 32 */
    bool store;            /* the request was a store (else a load) */
    uint32_t cell;
    int32_t line;          /* the access's line, 0 unknown */
    uint32_t warp;
} sv_kbankcell;

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

/* The chapter's reading of one step (sv_ktrace_analyze()). */
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
    int expected_round;    /* the round after the last step read (0 first): `round`
                              differs when the row already holds a later round's
                              windows (an in-place race run in order) */
} sv_kreading;

/* Many runs, cell by cell (the CPU runtime with runs > 1): in how many of
 * the runs each cell of one row was wrong, and the first of those runs by
 * index (run k of random:S / warps:S has seed S + k, so each can be run
 * again). A row is a step's chapter row (the reading's pout row of run 0:
 * wrong where it does not hold its round's windows, or is unwritten) or
 * out[] after the kernel (step -1: wrong where it is not the scan). */
#define SV_KTRACE_CELL_RUNS 8          /* run indices kept per cell */
#define SV_KTRACE_MAX_CELLRUNS (SV_KTRACE_MAX_STEPS + 1)
#define SV_KTRACE_NO_RUN UINT32_MAX    /* an unused slot of which[] */
typedef struct sv_kcellruns {
    int32_t step;          /* steps[step]'s cells; -1: out[] after the kernel */
    uint32_t array;        /* index into arrays (out's array for step -1) */
    uint32_t first;        /* the row's first cell: cells first .. first + n - 1 */
    int32_t round;         /* the round its windows were checked against (-1: out) */
    uint32_t *wrong;       /* [n]: runs in which cell first + i was wrong */
    uint32_t *which;       /* [n * SV_KTRACE_CELL_RUNS]: the first of those runs,
                              SV_KTRACE_NO_RUN past the last */
} sv_kcellruns;

/* One launch of a kernel file's host function scan (issue 31): which
 * kernel, its grid (its blocks in all; dims its x, y and z, 0 or 1 past x for
 * a 1-D grid) and block (its threads in all; block_dims its x, y and z, 0 or
 * 1 past x for a 1-D block: threads are numbered x, then y, then z), its
 * dynamic shared memory, the line of the launch, and the step that holds
 * the device memory after it. */
#define SV_KTRACE_MAX_LAUNCHES 1024
typedef struct sv_klaunch {
    char *kernel;
    uint32_t grid, block;
    uint32_t dims[3];
    uint32_t block_dims[3];
    uint32_t shared;
    int32_t line;
    uint32_t step;
} sv_klaunch;

/* One block of a launch over time (issue 31): "each launch's steps per
 * block". Times are a clock of the run: on the CPU runtime, the accesses of
 * device and shared memory the schedule made so far in the run (from 1), on
 * the GPU, nanoseconds of %globaltimer after the launch's first block's
 * start. A tile is what the block wrote of out[] (out_lo .. out_hi; the
 * drawn tiles), whatever its blockIdx. */
#define SV_KTRACE_MAX_TILES 65536
#define SV_KTRACE_MAX_EVENTS 65536
#define SV_KTRACE_NO_TIME UINT64_MAX
typedef struct sv_ktile {
    uint32_t launch;       /* index into launches */
    uint32_t block;        /* blockIdx.x */
    uint64_t start, end;   /* its first thread's start, its last thread's end
                              (SV_KTRACE_NO_TIME: it did not end: the run stopped) */
    int64_t out_lo, out_hi; /* the cells of out[] it wrote, -1 -1: none */
} sv_ktile;

typedef enum sv_kevent_kind {
    SV_KEVENT_STEP,    /* its threads met at the __syncthreads() of line: a step of
                          the block ends (its barrier intervals) */
    SV_KEVENT_PUBLISH, /* a thread wrote a cell of device memory other than out[]
                          (array, cell, value, line): a flag, an aggregate, a prefix */
    SV_KEVENT_LOOK,    /* a thread read a cell that another block of this launch
                          wrote (other: that block's tile; other_time: the write's) */
    SV_KEVENT_WAIT,    /* a thread began to spin on one cell (array, cell, line;
                          other: the tile that last wrote it, SV_KTRACE_NO_TILE none) */
    SV_KEVENT_COUNT
} sv_kevent_kind;
#define SV_KTRACE_NO_TILE UINT32_MAX

/* One event of a tile. The GPU records publishes only (each with its cell,
 * value and line from the stamps, gpu_run.c): no steps, looks or waits. */
typedef struct sv_kevent {
    sv_kevent_kind kind;
    uint32_t tile;         /* index into tiles */
    uint64_t time;
    uint32_t thread;       /* threadIdx.x */
    uint16_t array;        /* index into arrays (SV_KARRAY_IN for in[]); STEP: 0 */
    uint32_t cell;
    sv_value value;
    int32_t line;
    uint32_t other;        /* LOOK, WAIT: the tile, or SV_KTRACE_NO_TILE */
    uint64_t other_time;   /* LOOK: when that tile wrote what was read */
} sv_kevent;

const char *sv_kevent_kind_name(sv_kevent_kind k); /* "step", "publish", "look", "wait" */
bool sv_kevent_kind_from_name(const char *name, sv_kevent_kind *out);

struct sv_reading; /* ktrace_reading.h */

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
    size_t ncellruns;      /* CPU, runs > 1: each chapter row's and out's wrong runs */
    sv_kcellruns *cellruns; /* NULL: not counted (one run, or the GPU) */
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
    uint32_t steps_dropped; /* steps recorded after the last one kept, left out to
                               keep the trace file within its limit (sv_ktrace_trim) */
    int32_t output_round;  /* what out[] must hold: 0 the scan; R >= 1 round R's
                              windows (an exercise that asks for round R's buffer,
                              round-one): the verdict, the wrong runs, the
                              diagnosis and the window all judge it so */
    char *sandbox;         /* the walls this run lacked on its machine, in words
                              ("no Landlock (...)"); NULL: all were up */
    char *console;         /* what the kernel's process wrote on stdout and stderr
                              besides its printf calls, at most SV_KTRACE_MAX_CONSOLE
                              bytes, escaped; NULL: nothing */
    size_t nprints;        /* the shown run's printf calls, by step, then thread, */
    sv_kprint *prints;     /* then in the order each thread made them */
    uint32_t prints_dropped; /* printf calls past SV_KTRACE_MAX_PRINTS */
    bool banks_counted;    /* CPU runtime: the bank conflicts below were counted */
    uint64_t bank_loads, bank_stores; /* the shown run's, in all */
    size_t nbanks;         /* by step, then line; only entries with a conflict */
    sv_kbank *banks;
    size_t nbankcells;     /* by step, then array, then cell: one entry each */
    sv_kbankcell *bankcells;
    uint32_t bankcells_dropped; /* colliding cells past SV_KTRACE_MAX_BANK_CELLS */
    char *plan;            /* the CPU runtime's launches as the GPU replays them (cpu_exec.cc's
                              Grid::plan; over the wire, never in a file); NULL: none */
    size_t nlaunches;      /* a host function's launches, in order (issue 31); 0: the */
    sv_klaunch *launches;  /* file's one kernel ran as one block, each step a barrier
                              interval. Else each step is one launch's end. */
    size_t ntiles;         /* the launches' blocks, by launch then blockIdx (issue 31); */
    sv_ktile *tiles;       /* 0: none recorded */
    size_t nevents;        /* the tiles' events, by tile then time */
    sv_kevent *events;
    uint32_t events_dropped; /* events past SV_KTRACE_MAX_EVENTS */
    /* Filled by sv_ktrace_analyze() (derived, never read from a file): */
    sv_kreading *readings; /* [nsteps] */
    sv_value *expected;    /* n: the sequential scan of op (inclusive or exclusive) */
    int32_t first_wrong;   /* first output cell != expected (or unwritten), -1 none */
    int32_t first_broken_step; /* first step whose reading is broken, -1 none */
    bool *cell_wrong;      /* [nsteps * n]: cell i of step k's reading row is not its
                              expected round's window (or unwritten); false where the
                              step has no reading (the same verdict as cellruns) */
    bool *output_wrong;    /* n: out[i] is not the scan (or unwritten) */
    bool *one_buffer;      /* [narrays]: a dynamic array of 2n cells (two rows of n by
                              the runtime's convention) of which no step touched any
                              row but the first: one buffer, named s, s[1] as the
                              kernel names it (sv_ktrace_rows_named) */
    size_t one_buffer_n;   /* the arrays one_buffer covers (narrays when analyzed) */
    struct sv_kregrounds *regrounds; /* [one_buffer_n]: each register array's reading as
                              the chapter's rounds (ktrace_shuffle.h), fits false else */
    sv_float_style float_style; /* one notation for every float32 of the trace, as the
                              chapter's tables have (sv_float_style_of over the input,
                              every cell and out): the table and the pane write with it */
    const struct sv_reading *reading; /* the algorithm's reading its steps fit (a static
                              entry of ktrace_reading.h's table); NULL: not analyzed */
} sv_ktrace;

void sv_ktrace_destroy(sv_ktrace *t); /* accepts NULL */
/* The launch whose end step k holds; NULL for none (a file run as one block). */
const sv_klaunch *sv_ktrace_launch_of(const sv_ktrace *t, size_t k);
/* A launch's grid as its <<<...>>> writes it: "4", "(2, 2)" or "(2, 2, 3)".
 * Returns buf. */
char *sv_klaunch_grid_words(const sv_klaunch *l, char *buf, size_t len);
/* Its block the same way: "256", "(16, 16)" or "(8, 8, 4)". Returns buf. */
char *sv_klaunch_block_words(const sv_klaunch *l, char *buf, size_t len);
/* "thread 5", or in a launch's step "block 1 thread 0" (thread: the
 * launch's global index, blockIdx.x * blockDim.x + threadIdx.x). Returns buf. */
char *sv_ktrace_thread_name(const sv_ktrace *t, size_t k, uint32_t thread, char *buf, size_t len);
/* Frees what step s owns (the rows of its first narrays arrays, its writes
 * and reads) and zeroes it. */
void sv_kstep_clear(sv_kstep *s, size_t narrays);

/* ---- Names ---------------------------------------------------------------- */

/* "compile", "signature", "include", "crash", "out-of-range", "deadlock",
 * "time", "memory", "unavailable", "internal", "refused", "syscall" ("none" for
 * SV_KFAIL_NONE);
 * NULL out of range. The trace file's failure.kind. */
const char *sv_kfail_kind_name(sv_kfail_kind k);
bool sv_kfail_kind_from_name(const char *name, sv_kfail_kind *out);
const char *sv_khazard_kind_name(sv_khazard_kind k); /* "RAW", "WAR", "WAW" */
bool sv_khazard_kind_from_name(const char *name, sv_khazard_kind *out);
const char *sv_karray_kind_name(sv_karray_kind k);   /* "shared", "out" */
bool sv_karray_kind_from_name(const char *name, sv_karray_kind *out);

/* ---- Building a trace (the runtimes, the file reader, tests) -------------- *
 * Add the arrays first, then the steps in order; each new step starts as the
 * state after the one before (nothing written in it yet). Every function
 * returns false (or NULL, or -1) with err filled on allocation failure or a
 * broken limit (SV_KTRACE_MAX_*), and leaves the trace valid to destroy. */

/* A trace of kernel `kernel` (a name; copied) on input[0..n) with every
 * output cell unwritten, no arrays, no steps, no failure, runs = 1,
 * first_wrong = first_broken_step = -1. NULL with err filled when n is 0 or
 * above SV_MAX_N, op is not defined on type, or allocation failed. */
sv_ktrace *sv_ktrace_create(const char *kernel, sv_op op, sv_type type, sv_scan scan,
                            const sv_value *input, size_t n, char *err, size_t errlen);
/* Replaces *field (kernel, file, entry, source, device, schedule, or the
 * failure's message) with a copy of s (NULL: none). */
bool sv_ktrace_set_text(char **field, const char *s, char *err, size_t errlen);
/* Adds an array (before any step): its index, or -1. rows >= 1 divides len;
 * the name is copied. */
int sv_ktrace_add_array(sv_ktrace *t, const char *name, sv_karray_kind kind, uint32_t len,
                        uint32_t rows, char *err, size_t errlen);
/* Adds a step ending at barrier_line (0: the kernel's end): the cells and
 * written flags of the previous step, wrote all false. */
sv_kstep *sv_ktrace_add_step(sv_ktrace *t, int32_t barrier_line, char *err, size_t errlen);
/* Cell `cell` of array a takes v in step s: written and wrote set, the
 * array touched. Out-of-range a or cell is ignored (the caller checks). */
void sv_kstep_set_cell(sv_ktrace *t, sv_kstep *s, uint32_t a, uint32_t cell, sv_value v);
/* Appends a read to s->reads (CPU); touches its array. */
bool sv_kstep_add_read(sv_ktrace *t, sv_kstep *s, const sv_kaccess *read, char *err,
                       size_t errlen);
/* Appends a write with its reads s->reads[first_read .. +nreads) and sets
 * the cell (sv_kstep_set_cell) unless the array is SV_KARRAY_IN. */
bool sv_kstep_add_write(sv_ktrace *t, sv_kstep *s, const sv_kaccess *write, uint32_t first_read,
                        uint32_t nreads, char *err, size_t errlen);
/* Counts a hazard in hazards_total and keeps it while fewer than
 * SV_KTRACE_MAX_HAZARDS are kept. */
bool sv_ktrace_add_hazard(sv_ktrace *t, const sv_khazard *h, char *err, size_t errlen);
/* Sets the failure: kind and message (copied), line, thread, step, array,
 * index as given (-1 / 0 where unknown). */
bool sv_ktrace_fail(sv_ktrace *t, sv_kfail_kind kind, const char *message, int32_t line,
                    int32_t thread, char *err, size_t errlen);
/* Appends where some threads wait (a deadlock). */
bool sv_ktrace_add_wait(sv_ktrace *t, int32_t line, uint32_t count, uint32_t first_thread,
                        char *err, size_t errlen);
/* Appends a printf (text copied as given: the caller escapes it) while
 * fewer than SV_KTRACE_MAX_PRINTS are kept, else counts it in
 * prints_dropped. */
bool sv_ktrace_add_print(sv_ktrace *t, uint32_t thread, uint32_t step, int32_t line,
                         const char *text, char *err, size_t errlen);
/* Orders the prints by step, then thread, keeping each thread's order. */
void sv_ktrace_sort_prints(sv_ktrace *t);
/* out[i] = v (written). */
void sv_ktrace_set_output(sv_ktrace *t, size_t i, sv_value v);

/* Drops steps from the end (and the hazards in them) until the trace file
 * would take at most about max_bytes, counting them in steps_dropped; an
 * endless loop at n = 1024 records about 64 MiB of steps (the CPU runtime's
 * budget, 669 steps), far more than a file's limit as JSON.
 * Returns the steps dropped. Call before sv_ktrace_analyze(). */
size_t sv_ktrace_trim(sv_ktrace *t, size_t max_bytes);
/* What scanviz-trace keeps a kernel trace file of n values within: 12 MiB,
 * and 100 bytes more a value past 1024 (a host function's n up to 2^20:
 * 112 MiB of the reader's 128 MiB limit, SV_LIMIT_TRACE). */
#define SV_KTRACE_FILE_BUDGET ((size_t)12 << 20)
static inline size_t sv_ktrace_file_budget(size_t n)
{
    return SV_KTRACE_FILE_BUDGET + (n > 1024 ? (n - 1024) * 100 : 0);
}

/* Whether t holds together as a runtime makes a trace: every array, step,
 * access, hazard, failure and cell-runs row within the trace's limits and
 * pointing at what exists (a thread below n, an array of t's or in[], a
 * cell of that array, a line >= 0, a step that exists), strings of at most
 * 64 KiB, runs at least 1 with the shown and wrong runs among them, array
 * names unique and at most one out[] of n cells. The parent of the
 * runtime's child calls it on every trace the child sends (it trusts
 * nothing the child sends). False with err naming the first field that is
 * not. */
bool sv_ktrace_validate(const sv_ktrace *t, char *err, size_t errlen);
/* Its tiles and their events alone (the file's reader holds them to it). */
bool sv_ktrace_validate_tiles(const sv_ktrace *t, char *err, size_t errlen);

/* ---- Reading a trace ------------------------------------------------------ */

/* Fills the derived fields: expected (the sequential scan of op, inclusive
 * or exclusive: sv_reference_scan), first_wrong (the first output cell
 * unwritten or not the expected value; float32 sum and product within the
 * rounding any order of operations may give, |got - want| <= k * 2^-23 *
 * sum |x| over the k values combined; everything else bit for bit), and
 * each step's chapter reading:
 *   - a step whose shared writes all fall in the first n cells of one row
 *     of one array is read against round r, the round after the last step
 *     read (0 first): it fits when that row's n cells hold op over
 *     input[max(0, i - 2^r + 1) .. i] (the same tolerance), or another
 *     round's windows exactly; otherwise it is that round, broken at its
 *     first cell (unwritten cells break it: holds_known false);
 *   - a step with no shared write, or writes in several rows, has no
 *     reading (fits false).
 * pin is the row the step read before (the last read step's row).
 * cell_wrong and output_wrong say which cells of the reading rows and of
 * out are wrong in this run (a reading row against its expected_round).
 * Then reading: the first of ktrace_reading.h's readings that fits; one
 * without the chapter's rounds (Blelloch's tree) has no step read as one.
 * Idempotent. false with err filled on allocation failure. */
bool sv_ktrace_analyze(sv_ktrace *t, char *err, size_t errlen);
/* Frees what sv_ktrace_analyze derived (readings, expected, cell_wrong,
 * output_wrong), for a trace whose steps change after it. */
void sv_ktrace_unanalyze(sv_ktrace *t);

/* Whether value got is the scan value want at a cell combining k inputs
 * whose magnitudes add up to mag (the tolerance above; exact for int32 and
 * for max, min, xor). */
bool sv_kvalue_matches(sv_op op, sv_type type, sv_value got, sv_value want, size_t k, double mag);

/* What t's out[] must hold (t->output_round: the scan, or round R's
 * windows): want[n] and the magnitudes mag[n] of the float32 tolerance,
 * the caller's. false with err on allocation failure. */
bool sv_ktrace_want(const sv_ktrace *t, sv_value *want, double *mag, char *err, size_t errlen);
/* out[0..n) (written[i] false: never written, NULL: all written) against
 * want/mag of sv_ktrace_want with its tolerance: the first wrong cell or
 * -1; wrong[i] set for each wrong cell when wrong is not NULL. The one
 * verdict on a kernel's output (the runtime's wrong runs and
 * sv_ktrace_analyze's first_wrong). */
int32_t sv_ktrace_out_check(const sv_ktrace *t, const sv_value *want, const double *mag,
                            const sv_value *out, const bool *written, bool *wrong);

/* Round r's windows of t's input, the values a row holds after round r
 * (op over input[max(0, i - 2^r + 1) .. i], in the chapter's order), and
 * their magnitudes for the float32 tolerance: want[n], mag[n] the caller's.
 * sv_kround_cell_right says whether cell i's value got matches it. */
bool sv_kround_windows(const sv_ktrace *t, int round, sv_value *want, double *mag, char *err,
                       size_t errlen);
bool sv_kround_cell_right(const sv_ktrace *t, int round, size_t i, sv_value got, sv_value want,
                          double mag);

/* The cell runs of row (step, array, cell): the entry holding it, *i its
 * index there; NULL when none (step -1: out). */
const sv_kcellruns *sv_ktrace_cellruns_at(const sv_ktrace *t, int32_t step, uint32_t array,
                                          uint32_t cell, uint32_t *i);
/* Adds an entry for row (step, array, first), counts zero, slots empty;
 * NULL with err past SV_KTRACE_MAX_CELLRUNS or on allocation failure. */
sv_kcellruns *sv_ktrace_add_cellruns(sv_ktrace *t, int32_t step, uint32_t array, uint32_t first,
                                     int32_t round, char *err, size_t errlen);
/* Counts run `run` as wrong at cell i of c (keeps its index while a slot is free). */
void sv_kcellruns_count(sv_kcellruns *c, uint32_t i, uint32_t run);
/* Frees every entry (ncellruns 0). */
void sv_ktrace_cellruns_clear(sv_ktrace *t);

/* How a run ended, for a caller's exit status:
 *   OK       the output equals the scan and no hazard was found;
 *   WRONG    it ran, but the output is wrong or hazards were found;
 *   REFUSED  it did not compile, its signature is wrong, or an #include;
 *   FAILED   it failed while running (crash, out of range, deadlock, time,
 *            memory);
 *   UNAVAILABLE / INTERNAL  no compiler or GPU / the runtime itself failed.
 * Needs sv_ktrace_analyze() first. */
typedef enum sv_kverdict {
    SV_KVERDICT_OK,
    SV_KVERDICT_WRONG,
    SV_KVERDICT_REFUSED,
    SV_KVERDICT_FAILED,
    SV_KVERDICT_UNAVAILABLE,
    SV_KVERDICT_INTERNAL
} sv_kverdict;
sv_kverdict sv_ktrace_verdict(const sv_ktrace *t);

/* The chapter-shaped trace (trace.h) of an analyzed ktrace whose reading is
 * the chapter's: steps with shared writes read as rounds 0, 1, ..,
 * 1 + ceil(log2 n) - 1 in order, none broken, in two rows taking turns
 * (the double buffer: buf[0] is round 0's row) or in one row (pin == pout
 * == 0, as the lab's one-buffer kernels); its output derived from the last
 * round, as for every chapter trace. The trace is finished (sv_trace_finish), backend and device from t. NULL with
 * err saying which step does not fit, in words, otherwise. */
sv_trace *sv_ktrace_chapter_trace(const sv_ktrace *t, char *err, size_t errlen);
/* Its inverse for rounds that came without their run (a version 2 file):
 * the kernel trace they imply, analyzed: an array buf of two rows of n, one
 * step per round writing its pout row, then out[] written from the output;
 * no reads, no lines. NULL with err filled on allocation failure. */
sv_ktrace *sv_ktrace_of_rounds(const sv_trace *c, char *err, size_t errlen);

/* The rows names give array a: its rows, or 1 for an array used as one
 * buffer (sv_ktrace.one_buffer; its rows stay the geometry). */
uint32_t sv_ktrace_rows_named(const sv_ktrace *t, uint32_t a);

/* ---- Reads of cells nothing wrote ------------------------------------------ */

/* A read of a shared cell that nothing had written before it (shared memory
 * holds whatever was there: 0 on the CPU runtime, garbage on a GPU): read
 * `read` of steps[step].reads. Derived from the trace alone, each step's
 * reads against the written flags of the step before and the order of the
 * step's own writes (a trace without that order, the GPU's or a file's,
 * names only cells no step before had written and this one did not write). */
typedef struct sv_kunwritten {
    size_t step;
    size_t read;
} sv_kunwritten;
/* Whether read i of step k is such a read. */
bool sv_ktrace_read_unwritten(const sv_ktrace *t, size_t k, size_t i);
/* How many such reads step k made (SIZE_MAX: every step); the first in
 * *first (may be NULL). */
size_t sv_ktrace_unwritten_reads(const sv_ktrace *t, size_t k, sv_kunwritten *first);

/* ---- Words (escaped: names and messages come from files) ------------------ */

/* The hazards counted (hazards_total) but not in hazards[], in words: past
 * the SV_KTRACE_MAX_HAZARDS kept, or found in the step a failure left
 * unfinished, whose accesses the runtime keeps none of ("1 hazard in step
 * 2, which the deadlock left unfinished: counted, but the runtime keeps no
 * access of that step, so it cannot be named"); "" when every one is kept.
 * Returns buf. */
char *sv_ktrace_unkept_hazards_words(const sv_ktrace *t, char *buf, size_t len);
/* "thread 0 read b[1][0], never written, at line 10 (it held 0)": read u in
 * words. Returns buf. */
char *sv_ktrace_unwritten_words(const sv_ktrace *t, sv_kunwritten u, char *buf, size_t len);

/* "s[4]", "buf[1][5]" (rows > 1: row and cell), "in[3]", "out[8]": cell of
 * array a (SV_KARRAY_IN for in[]). Returns buf. */
char *sv_ktrace_cell_name(const sv_ktrace *t, uint32_t a, int64_t cell, char *buf, size_t len);
/* "step 2: thread 5 read s[4], thread 4 wrote it, lines 12 and 12 (WAR)":
 * the reader first (the later line is the second access's). */
char *sv_ktrace_hazard_words(const sv_ktrace *t, const sv_khazard *h, char *buf, size_t len);
/* The failure in words: "thread 0 read buf[-1] (line 14): out of range
 * (buf has 16 cells)", "deadlock: threads 1 .. 7 (7) wait at the barrier
 * of line 15; thread 0 has ended", the compiler's first message, ... */
char *sv_ktrace_failure_words(const sv_ktrace *t, char *buf, size_t len);
/* Steps are counted from 1 in words (step k is steps[k - 1]):
 * "step 3 (round 2): cell 5 holds 12; the window [2, 5] sums to 16 (in buf[0])",
 * or "step 3 (round 2): buf[0] holds the round's windows"; "" without a
 * reading. */
char *sv_ktrace_reading_words(const sv_ktrace *t, size_t step, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
