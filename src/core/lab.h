/* The mistakes lab: the registry of kernels (the chapter's kernel and its
 * broken variants in kernels/mistakes/), the named deterministic schedules,
 * the statement-level emulator that runs a kernel under a schedule and
 * records which write every read saw, and the per-cell summary of many runs
 * (emulated or from the GPU).
 *
 * The statement model (one thread i, as the files in kernels/mistakes write it):
 *   round 0:  LOAD buf[0][i] = in[i]; BARRIER; DUMP
 *   round r:  SWAP; GUARD; [taken] READ a = pin[i-s]; READ b = pin[i];
 *             OP v = a op b; WRITE pout[i] = v; [else] READ v = pin[i];
 *             WRITE pout[i] = v; BARRIER; DUMP
 *   end:      COPY BACK out[i] = buf[pout][i]
 * A mistake removes or changes statements (no BARRIER, no else, one buffer,
 * guard i > s). Statements a thread does not take are predicated off: the
 * thread still steps over them, as a warp does. DUMP is the instrumentation:
 * the thread records its own cells after the round (only thread i ever
 * writes cell i, in every kernel here, so this is exact). */
#ifndef SV_LAB_H
#define SV_LAB_H

#include <stdio.h>

#include "racecheck.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Kernels ----------------------------------------------------------- */

typedef enum sv_kernel {
    SV_KERNEL_CORRECT,             /* the chapter's kernel, kernels/hillis_steele.cu */
    SV_KERNEL_IN_PLACE,            /* one buffer, barrier kept */
    SV_KERNEL_NO_BARRIER,          /* double buffer, the loop's barrier removed */
    SV_KERNEL_IN_PLACE_NO_BARRIER, /* one buffer and no barrier */
    SV_KERNEL_NO_ELSE,             /* the else copy removed */
    SV_KERNEL_OFF_BY_ONE,          /* the guard written i > stride */
    SV_KERNEL_POUT_ACCUMULATE,     /* pout[i] = pin[i - stride] op pout[i]: GPU Gems 3's
                                      "temp[pout*n+thid] += temp[pin*n+thid - offset]" */
    SV_KERNEL_COUNT
} sv_kernel;

typedef struct sv_kernel_info {
    const char *name;    /* "in-place": the --kernel name */
    const char *file;    /* source file, relative to the project root (a mistake's
                          * kernels/mistakes/NAME.cu is generated into the build
                          * tree from kernels/mistakes/NAME.diff) */
    const char *label;   /* one line for captions: what was changed */
    bool double_buffer;  /* false: pin and pout are the same buffer (buf[0]) */
    bool barrier;        /* the barrier at the end of each round */
    bool has_else;       /* the else branch copies pin[i] into pout[i] */
    int guard_offset;    /* the guard is i >= stride + guard_offset (1: i > stride) */
    bool self_from_pout; /* the add reads the thread's own cell of pout, not pin */
    bool racy;           /* the outcome depends on the schedule */
} sv_kernel_info;

/* The registry entry of k; NULL when k is out of range. */
const sv_kernel_info *sv_kernel_get(sv_kernel k);
const char *sv_kernel_name(sv_kernel k); /* "correct", ...; NULL out of range */
bool sv_kernel_from_name(const char *name, sv_kernel *out);

/* ---- Schedules ----------------------------------------------------------- */

typedef enum sv_schedule_kind {
    SV_SCHEDULE_LOCKSTEP,   /* all threads run each statement together, reads before writes */
    SV_SCHEDULE_SEQUENTIAL, /* one thread at a time, increasing index, each to its next barrier */
    SV_SCHEDULE_REVERSE,    /* the same, decreasing index */
    SV_SCHEDULE_RANDOM,     /* a seeded random thread runs one statement at a time */
    SV_SCHEDULE_WARPS,      /* a seeded random warp of 32 runs one statement in lockstep */
    SV_SCHEDULE_COUNT
} sv_schedule_kind;

typedef struct sv_schedule {
    sv_schedule_kind kind;
    uint64_t seed;          /* random and warps; 1 by default, ignored otherwise */
} sv_schedule;

/* Parses "lockstep", "sequential", "reverse", "random", "random:S", "warps",
 * "warps:S" (S a decimal integer, 0 .. 2^64-1; the default seed is 1).
 * Returns false with err naming the text and the accepted names. */
bool sv_schedule_parse(const char *text, sv_schedule *out, char *err, size_t errlen);
/* "lockstep", "random:7": what sv_schedule_parse() reads back. Returns buf. */
char *sv_schedule_format(sv_schedule s, char *buf, size_t len);
const char *sv_schedule_kind_name(sv_schedule_kind k); /* NULL out of range */

/* ---- What each read saw -------------------------------------------------- */

typedef enum sv_read_slot {
    SV_READ_LEFT, /* a = pin[i - stride] (the guard taken) */
    SV_READ_SELF, /* b = pin[i], or the else branch's copy of pin[i] */
    SV_READ_SLOTS
} sv_read_slot;

/* One read of shared memory by one thread in one round. writer is the
 * thread whose write the read saw and writer_round the round of that write
 * (0: the load); writer -1: the cell was never written (value unknown, `?`).
 * want_* is what the same read sees under lockstep (the write it was meant
 * to see); correct is the value the chapter's kernel reads there. */
typedef struct sv_lab_read {
    bool done;            /* false: this thread made no such read this round */
    int buf;              /* 0 or 1 */
    uint32_t cell;
    sv_value value;
    bool known;           /* false: the value is `?` */
    int32_t writer;
    int writer_round;
    sv_value want;
    bool want_known;
    int32_t want_writer;
    int want_round;
    sv_value correct;
} sv_lab_read;

/* One emulated run: what every read saw. Owned by the caller of
 * sv_lab_emulate(); free with sv_lab_reads_destroy(). */
typedef struct sv_lab_reads {
    sv_kernel kernel;
    sv_schedule schedule;
    size_t n, nrounds;
    sv_lab_read *reads;  /* [(round * n + thread) * SV_READ_SLOTS + slot]; round 0 has none */
    bool *wrote;         /* [round * n + thread]: the thread wrote its pout cell this round */
} sv_lab_reads;

void sv_lab_reads_destroy(sv_lab_reads *r); /* accepts NULL */
const sv_lab_read *sv_lab_reads_at(const sv_lab_reads *r, size_t round, size_t thread,
                                   sv_read_slot slot);

/* Runs kernel k under schedule s on t->input (t from sv_trace_create: op,
 * type, n, rounds set) and fills every round's buffers and written flags the
 * way the instrumentation sees them (each thread's own cells after its round;
 * written false = `?`); for a one-buffer kernel pin == pout == 0 and buf[1]
 * stays unwritten. Does not call sv_trace_finish(). When reads is not NULL,
 * *reads gets what every read saw (the caller destroys it). kernel_out, when
 * not NULL, gets n values the kernel's copy back wrote, and out_known which
 * of them are known. Returns false with err filled on allocation failure. */
bool sv_lab_emulate(sv_trace *t, sv_kernel k, sv_schedule s, sv_lab_reads **reads,
                    sv_value *kernel_out, bool *out_known, char *err, size_t errlen);

/* Whether thread i writes its pout cell in round r >= 1 under kernel k (the
 * guard and the else branch; independent of the schedule). */
bool sv_kernel_writes(sv_kernel k, int round, size_t i);

/* Says in words what the read saw, e.g. "round 2: thread 5 read buf[3] = 15
 * after thread 3 had overwritten it in this round; it should have read 11".
 * Returns false (buf "") when the thread made no such read. */
bool sv_lab_read_describe(const sv_lab_reads *r, sv_type type, size_t round, size_t thread,
                          sv_read_slot slot, char *buf, size_t len);

/* Says in words why thread i's pout cell is what it is after round r: the
 * first read that saw the wrong write, a write that did not happen (no else,
 * off-by-one), or "as the chapter's kernel". */
void sv_lab_cell_describe(const sv_lab_reads *r, const sv_trace *t, size_t round, size_t i,
                          char *buf, size_t len);

/* ---- Many runs, summarized per round and cell ---------------------------- */

typedef struct sv_lab_count {
    sv_value value;
    bool known;
    uint32_t runs;       /* in how many runs the cell held this value */
} sv_lab_count;

typedef struct sv_lab_cell {
    sv_value correct;    /* the chapter's kernel's pout cell after this round */
    uint32_t wrong_runs; /* runs where the cell differs from correct (a `?` differs) */
    uint32_t nvalues;
    sv_lab_count *values; /* each observed value, most runs first, then by bits */
    /* Read from a file, which lists at most SV_LAB_FILE_VALUES values per
     * cell: how many more values there were, and in how many runs (0 in a
     * capture, which keeps them all). */
    uint32_t more_values, more_runs;
} sv_lab_cell;

/* Values per cell a trace file lists (the most frequent); the rest is
 * counted in "more", which keeps a file of 1000 runs at n = 1024 within the
 * reader's limit. */
#define SV_LAB_FILE_VALUES 16

/* The outcome of runs of one kernel: rounds 0 .. nrounds-1, the pout cell of
 * each (buf[0] for round 0). first_diverged[i] is the first round in which
 * cell i differed from the correct kernel in any run, -1 if never. */
typedef struct sv_lab_summary {
    size_t n, nrounds;
    uint32_t runs;
    sv_lab_cell *cells;     /* [round * n + i] */
    int *first_diverged;    /* [i] */
    uint32_t wrong_runs;    /* runs whose last round (the output) differs anywhere */
    uint32_t distinct_outputs; /* distinct last rounds over all runs */
    int first_wrong_cell;   /* smallest i wrong in the output in any run, -1 if none */
    int first_wrong_round;  /* smallest round with any divergent cell, -1 if none */
} sv_lab_summary;

/* Raw runs: pout bits after every round of every run, [(run * nrounds + r)
 * * n + i] (round 0: buf[0]), and known flags of the same shape (NULL: all
 * known). correct is a finished trace of the chapter's kernel on the same
 * input. Returns NULL with err filled on failure; free with
 * sv_lab_summary_destroy(). */
sv_lab_summary *sv_lab_summarize(const sv_trace *correct, uint32_t runs, const uint32_t *bits,
                                 const bool *known, char *err, size_t errlen);
void sv_lab_summary_destroy(sv_lab_summary *s); /* accepts NULL */

/* The raw form of one trace (its pout cells per round, as sv_lab_summarize
 * reads them) appended at run index run of bits/known (sized by the caller). */
void sv_lab_raw_from_trace(const sv_trace *t, uint32_t run, uint32_t *bits, bool *known);

/* ---- The record a lab trace carries (sv_trace.lab) ------------------------ */

typedef struct sv_lab_record {
    sv_kernel kernel;
    bool emulated;          /* true: the emulator under schedule; false: GPU runs */
    sv_schedule schedule;   /* emulated: the schedule of run 0 (run k of random:S and
                               warps:S uses seed S + k) */
    uint32_t runs;          /* >= 1 */
    bool shake;             /* GPU: a seeded per-warp sleep before each round's reads */
    uint64_t shake_seed;
    uint32_t shown_run;     /* the run whose buffers the trace holds: the first
                               wrong run, else run 0 */
    double wall_us;         /* GPU: time of the whole batch of runs; 0 unknown */
    sv_lab_summary *summary; /* owned; never NULL in a finished record */
    sv_racecheck *racecheck; /* owned; NULL when not asked for */
} sv_lab_record;

void sv_lab_record_destroy(sv_lab_record *r); /* accepts NULL */

/* The schedule of emulated run k: the record's, with seed S + k for
 * random:S and warps:S. */
sv_schedule sv_lab_run_schedule(const sv_lab_record *r, uint32_t run);

/* A summary of runs in which every cell held the correct kernel's value
 * (correct is its finished trace): the start the trace reader fills. */
sv_lab_summary *sv_lab_summary_all_correct(const sv_trace *correct, uint32_t runs, char *err,
                                           size_t errlen);

/* Fills trace t (from sv_trace_create) with one run's raw rounds as the lab
 * kernels dump them (bits[r * n + i]: thread i's pout cell after round r):
 * each thread's own cells, written where kernel k writes (sv_kernel_writes),
 * pin == pout == 0 for one-buffer kernels. Cells no round has written are
 * unwritten (`?`); known, when not NULL, clears further cells the emulator
 * knows to be `?`. */
void sv_lab_trace_from_raw(sv_trace *t, sv_kernel k, const uint32_t *bits, const bool *known);

/* The chapter's kernel's finished trace of t's input, op, type and scan
 * (emulated in lockstep): the correct values of a lab run. NULL with err
 * filled on failure. */
sv_trace *sv_lab_correct_trace(const sv_trace *t, char *err, size_t errlen);

/* Prints t->lab as text: the kernel, how it ran, wrong runs and distinct
 * outputs, every divergent cell with its values and counts (the first
 * SV_LAB_TABLE_CELLS), in words why (emulated) and the racecheck hazards. */
#define SV_LAB_TABLE_CELLS 64
void sv_lab_print_table(const sv_trace *t, FILE *f);

/* "correct, in-place, ..., off-by-one or pout-accumulate": every name, for
 * messages. */
const char *sv_kernel_list(void);

/* Parses a kernel name: the registry's names, and SV_KERNEL_TEACHING
 * ("hillis-steele") for correct. err names the accepted names on failure. */
bool sv_kernel_parse(const char *name, sv_kernel *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
