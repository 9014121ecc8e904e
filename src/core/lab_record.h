/* The record a lab trace carries (sv_trace.lab) and the per-cell summary of
 * many runs it holds: plain data and their destroy functions only, so that
 * the trace can own a record without depending on how one is made
 * (lab_summary.h builds summaries, lab_ktrace.h reads the runtime's runs). */
#ifndef SV_LAB_RECORD_H
#define SV_LAB_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "lab_reads.h"
#include "lab_registry.h"
#include "lab_schedule.h"
#include "op.h"
#include "racecheck.h"

#ifdef __cplusplus
extern "C" {
#endif

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

void sv_lab_summary_destroy(sv_lab_summary *s); /* accepts NULL */

/* ---- The record a lab trace carries (sv_trace.lab) ------------------------ */

typedef struct sv_lab_record {
    sv_kernel kernel;
    bool emulated;          /* true: the CPU runtime under schedule (the kernel's own code
                               on fibers); false: GPU runs */
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
    /* Emulated runs, from capture (a trace file carries neither): */
    sv_lab_reads *reads;    /* owned; what every read of the shown run saw; NULL unknown */
    char stopped[256];      /* the shown run stopped early, in words (no-guard's read
                               out of range); "" when it ran to the end */
    /* Emulated: the hazards of the shown run as the CPU runtime counts them
     * (racecheck's way: the same cell in one barrier interval, two threads,
     * one writing), a property of the code whatever the output; a trace
     * file carries them ("hazards", "hazard"). */
    uint64_t hazards;
    char hazard[256];       /* the first one in words (sv_lab_hazard_words); "" none */
} sv_lab_record;

void sv_lab_record_destroy(sv_lab_record *r); /* accepts NULL */

/* The schedule of emulated run k: the record's, with seed S + k for
 * random:S and warps:S. */
sv_schedule sv_lab_run_schedule(const sv_lab_record *r, uint32_t run);

#ifdef __cplusplus
}
#endif

#endif
