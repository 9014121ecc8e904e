/* The compare view's model (issue 20: `scanviz --compare blelloch`): the
 * chapter's Hillis-Steele scan beside Blelloch's work-efficient scan
 * (kernels/blelloch.cu) on the same n, step by step. Pure functions, no GL:
 * what each step does in words, the counters under each pane (ops this step,
 * total ops, depth) and the line that states the chapter's trade-off with
 * this input's numbers. The counts are the kernels' own, as
 * tests/runtime/test_blelloch checks against the runtime's trace:
 *   Hillis-Steele: round r (stride s = 2^(r-1) < n) does n - s ops;
 *   Blelloch, m the next power of two >= n: the up-sweep at stride d does
 *   m / 2d ops, the root's clear none, the down-sweep at stride d m / 2d;
 *   2 (m - 1) in 2 log2 m steps, and for the inclusive scan the output's
 *   n more (out[i] = t[i] op in[i]) in one more step; sequential: n - 1 in
 *   n - 1. */
#ifndef SV_APP_COMPARE_H
#define SV_APP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

struct sv_bench_table;

typedef enum sv_compare_algo {
    SV_COMPARE_HILLIS_STEELE,
    SV_COMPARE_BLELLOCH,
    SV_COMPARE_SEQUENTIAL
} sv_compare_algo;

typedef enum sv_compare_phase {
    SV_COMPARE_STAGE,     /* the input staged: step 0 of each */
    SV_COMPARE_ROUND,     /* Hillis-Steele: a round */
    SV_COMPARE_UP,        /* Blelloch: an up-sweep level */
    SV_COMPARE_ROOT,      /* Blelloch: the root cleared */
    SV_COMPARE_DOWN,      /* Blelloch: a down-sweep level */
    SV_COMPARE_SEQ        /* sequential: one element */
} sv_compare_phase;

typedef struct sv_compare_step {
    sv_compare_phase phase;
    size_t stride;        /* ROUND / UP / DOWN */
    size_t ops;           /* this step's operations */
    size_t total;         /* operations up to and including this step */
    size_t depth;         /* steps that did operations, up to this one */
} sv_compare_step;

/* The padded tree's size: the next power of two >= n (n >= 1). */
size_t sv_compare_pow2(size_t n);
/* How many steps algo takes at n, the staging step 0 included. */
size_t sv_compare_nsteps(sv_compare_algo a, size_t n);
/* Step k (0 .. nsteps - 1) of algo at n. Returns 0 for k out of range (and
 * zeroes *out), else 1. */
int sv_compare_step_at(sv_compare_algo a, size_t n, size_t k, sv_compare_step *out);
/* The whole run: total ops and depth (ops-doing steps). */
void sv_compare_totals(sv_compare_algo a, size_t n, size_t *ops, size_t *depth);
/* Step k's caption in words, "up-sweep, stride 2: each right child takes
 * the sum of its pair" (op names the operator: "sum", "max", ...). */
void sv_compare_caption(sv_compare_algo a, size_t n, size_t k, const char *op, char *buf,
                        size_t len);
/* The counters line under a pane: "ops this step 4 · total 14 · depth 6". */
void sv_compare_counters(sv_compare_algo a, size_t n, size_t k, char *buf, size_t len);
/* The same line of step s as it stands. */
void sv_compare_counters_of(const sv_compare_step *s, char *buf, size_t len);
/* The whole run of the scan shown, total ops and depth (ops-doing steps):
 * the model's steps and, for Blelloch's inclusive scan, its output step,
 * out[i] = t[i] op in[i], n more ops in one more step (the exclusive scan's
 * output is a copy; Hillis-Steele's and the sequential scan's outputs do
 * no op either way). */
void sv_compare_run(sv_compare_algo a, size_t n, bool inclusive, size_t *ops, size_t *depth);
/* The whole run in a few words, the operations called noun (NULL: "ops"),
 * counted as sv_compare_run does: "17 adds in 3 rounds" (Hillis-Steele),
 * "22 adds in 7 steps" (Blelloch, inclusive), "7 adds in 7 steps"
 * (sequential). */
void sv_compare_run_words(sv_compare_algo a, size_t n, bool inclusive, const char *noun,
                          char *buf, size_t len);
/* What an operation of op is called in the counts: "adds" for sum,
 * "multiplies" for product, "ops" for the rest. */
const char *sv_compare_noun(const char *op_name);
/* The chapter's trade-off with this n's numbers, one line, each claim in
 * it made from the numbers it shows (sv_compare_run's, like with like: the
 * same scan, every op each kernel does for it): "n = 10, inclusive scan:
 * Hillis-Steele 25 ops in 4 rounds, Blelloch 40 in 9 steps (30 in its tree
 * of 16 leaves, 10 for the inclusive output), sequential 9 in 9:
 * Hillis-Steele takes the fewest steps with less work than Blelloch at this
 * n; ...". */
void sv_compare_tradeoff(size_t n, bool inclusive, char *buf, size_t len);
/* The same line with Hillis-Steele's ops and rounds as counted in the trace
 * that ran (hs in hsd rounds); Blelloch's and the sequential scan's from
 * their closed forms, which their runs follow. */
void sv_compare_tradeoff_counts(size_t n, bool inclusive, size_t hs, size_t hsd, char *buf,
                                size_t len);

/* Where the extra work costs time, from a measured table (the Measure
 * view's, core/bench_csv.h): the device-wide chapter kernel `hs-naive`
 * (O(n log n) adds) against `blelloch` (O(n) adds, twice the levels), at
 * every n both were measured (the first type that has both): up to which n
 * Hillis-Steele's extra adds cost less than Blelloch's extra steps, from
 * which n on they cost more, and the two at the largest n. The crossover
 * is the smallest measured n from which Blelloch is faster at every larger
 * measured n. The numbers, in the same order, in *cost (when not NULL).
 * False (buf says why) when the table lacks either algorithm. */
typedef struct sv_compare_cost {
    double crossover_n;   /* 0: Hillis-Steele never costs more at the top */
    double below_n;       /* the largest measured n under the crossover (0 none) */
    int hs_faster_below;  /* sizes under the crossover where hs-naive was faster */
    int sizes_below;      /* sizes under the crossover */
    double top_n, top_hs_us, top_bl_us, top_hs_ops, top_bl_ops;
} sv_compare_cost;
bool sv_compare_cost_words(const struct sv_bench_table *t, sv_compare_cost *cost, char *buf,
                           size_t len);

#endif
