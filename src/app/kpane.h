/* The kernel pane (issue 18): any kernel's trace (core/ktrace.h) drawn as
 * what it did. Its rows are the kernel's own arrays under their own names
 * (an array of rows > 1, e.g. buf[2n] used as two halves or temp[2][N], is
 * drawn as that many rows), with the input above and out below; rows no
 * step touched are hidden. Its steps are the trace's barrier intervals.
 *
 * This header is the pane's model and words, pure functions of a view
 * (kpane.c, kpane_words.c: no drawing, tested without GL in
 * tests/render/test_kpane.c); pane_kernel.c places and draws it. Everything
 * here reads v->ktrace (analyzed) and never changes it. */
#ifndef SV_KPANE_H
#define SV_KPANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pane.h"

#define SV_KPANE_MAX_ROWS SV_LAYOUT_ROWS /* input + array rows + out */

typedef enum sv_krow_kind {
    SV_KROW_INPUT, /* in[] */
    SV_KROW_ARRAY, /* one row of a shared array */
    SV_KROW_OUT    /* out[] */
} sv_krow_kind;

/* One row of the pane: cells first .. first + count - 1 of array `array`
 * (SV_KARRAY_IN for the input), drawn as columns 0 .. count - 1. */
typedef struct sv_krow {
    sv_krow_kind kind;
    uint32_t array;   /* index into ktrace->arrays, SV_KARRAY_IN for in[] */
    uint32_t row;     /* the array's row (0 when rows == 1) */
    uint32_t first;   /* its first cell in the array */
    uint32_t count;   /* cells shown: min(len / rows, n) */
    char name[64];    /* "in", "buf[0]", "s", "temp[1]", "out" (escaped) */
} sv_krow;

typedef struct sv_krows {
    int n;                            /* rows, 2 .. SV_KPANE_MAX_ROWS */
    sv_krow row[SV_KPANE_MAX_ROWS];
    size_t cols;                      /* columns: the trace's n */
    int hidden;                       /* array rows hidden (untouched, or past the maximum) */
} sv_krows;

/* The rows of t; false for NULL. */
bool sv_kpane_rows(const sv_ktrace *t, sv_krows *out);
/* The timeline's steps: t->nsteps, at most SV_MAX_STEPS (the dots); 0 for NULL. */
int sv_kpane_steps(const sv_ktrace *t);
/* v->kstep clamped to the trace's steps (0 without steps). */
int sv_kpane_step(const sv_app_view *v);
/* The pane row of cell `cell` of array a (SV_KARRAY_IN: the input), its
 * column in *col; -1 when no shown row holds it. */
int sv_kpane_row_of(const sv_krows *r, uint32_t a, uint32_t cell, uint32_t *col);
/* The value column `col` of row r shows after step k (the input always;
 * false for a cell not written yet). */
bool sv_kpane_value(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col,
                    sv_value *out);
/* Whether column col of row r was written in step k. */
bool sv_kpane_wrote(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col);

/* What a cell is at step k, as the chapter's reading says where it applies. */
typedef enum sv_kmark {
    SV_KMARK_NONE,    /* no reading here: drawn without a case */
    SV_KMARK_CASE,    /* holds the round's invariant: *cs says which case */
    SV_KMARK_BROKEN,  /* the first cell breaking it: what it holds, what its window should */
    SV_KMARK_AFTER    /* after the first broken cell: drawn without a case */
} sv_kmark;
/* The mark of column col of row r at step k, and its case (SV_KMARK_CASE;
 * round 0, the staging, has none: NONE). */
sv_kmark sv_kpane_mark(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col,
                       sv_case *cs);

/* The last write of step k to cell (a, cell), NULL when none (or no reads
 * were recorded: the GPU). */
const sv_kwrite *sv_kpane_write_of(const sv_ktrace *t, size_t k, uint32_t a, uint32_t cell);
/* Whether the trace recorded reads (the CPU runtime): arrows are drawn
 * from them; false (the GPU) draws none. */
bool sv_kpane_has_reads(const sv_ktrace *t);
/* The i-th hazard of step k on cell (a, cell) (i from 0), NULL past the last. */
const sv_khazard *sv_kpane_hazard_at(const sv_ktrace *t, size_t k, uint32_t a, uint32_t cell,
                                     size_t i);
/* The first of step k's colliding cells in t->bankcells (sorted by step):
 * t->nbankcells when it has none. */
size_t sv_kpane_bank_first(const sv_ktrace *t, size_t k);
/* Cell (a, cell)'s bank conflict in step k, NULL none. */
const sv_kbankcell *sv_kpane_bank_at(const sv_ktrace *t, size_t k, uint32_t a, uint32_t cell);
/* Step k's colliding cells, and the one of most ways (the first of them)
 * in *most (NULL when none). */
size_t sv_kpane_bank_cells(const sv_ktrace *t, size_t k, const sv_kbankcell **most);
/* The warp whose divergence the view shows at step k, of the step's
 * divergent lines d[0 .. n) (sv_ktrace_divergence): the hovered cell's
 * (its writer's in this step, else its column's thread), else the first
 * warp that diverged; -1 when n is 0. */
struct sv_kdiverge;
int sv_kpane_diverged_warp(const sv_app_view *v, size_t k, const struct sv_kdiverge *d, size_t n);
/* Whether step k is where the run failed (the failure's step, or the last
 * step when that is unknown). */
bool sv_kpane_failed_here(const sv_ktrace *t, size_t k);
/* The chapter kernel's value (v->kcompare) that matches column col of row
 * r at step k: the compare trace's step of the same round for the step's
 * pout row, its output for out. false when there is none to compare. */
bool sv_kpane_compare(const sv_app_view *v, size_t k, const sv_krow *r, uint32_t col,
                      sv_value *out);

/* Whether column col of row r is right after step k in the shown run: out
 * against the scan, the step's reading row against its expected round's
 * windows (ktrace.h's cell_wrong); UNKNOWN where nothing says what it
 * should hold (the input, a row the step's reading does not read). */
typedef enum sv_kverdict_cell {
    SV_KCELL_UNKNOWN,
    SV_KCELL_RIGHT,
    SV_KCELL_WRONG
} sv_kverdict_cell;
sv_kverdict_cell sv_kpane_verdict(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col);
/* The many runs' count of column col of row r at step k (ktrace.h's
 * cellruns: the step's reading row, or out): *wrong runs, and *which the
 * first of them (up to SV_KTRACE_CELL_RUNS, SV_KTRACE_NO_RUN past the
 * last). false when the runs were not counted there. */
bool sv_kpane_cell_runs(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col,
                        uint32_t *wrong, const uint32_t **which);
/* The run to show next for the cell (col of row r at step k): the first
 * listed run after the shown one (before it, when back), wrapping; -1
 * when the cell was wrong in no listed run. */
int64_t sv_kpane_next_wrong_run(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col,
                                bool back);

/* ---- words (kpane_words.c) ----------------------------------------------- */

/* "thread 33 read s[32] while thread 32 wrote it, in the same step" (RAW),
 * "thread 5 wrote s[4] while thread 4 read it, in the same step" (WAR),
 * "threads 2 and 3 both wrote s[1] in the same step" (WAW). */
char *sv_kwords_hazard(const sv_ktrace *t, const sv_khazard *h, char *buf, size_t len);
/* An out-of-range access in words: "thread 0 read s[-1]: i - stride = -1, the
 * left edge" where the failing line has a stride, else the offset it took
 * ("i - 1 = -1"); "" when the failure is not one. */
char *sv_kwords_out_of_range(const sv_ktrace *t, char *buf, size_t len);
/* The many runs of column col of row r at step k in words: "wrong in 7 of
 * 20 runs: 0, 3, 5, … (run 0 shown, one of them)", "... (run 2 shown, right
 * here); W shows run 3 (random:4)", "right in all 20 runs"; "" when the
 * runs were not counted there. The schedule of run j is the trace's
 * (run 0's) with seed S + j. */
char *sv_kwords_runs(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col, char *buf,
                     size_t len);
/* Run j's schedule in words ("random:4"; "lockstep" for the unseeded ones). */
char *sv_kwords_run_schedule(const sv_ktrace *t, uint32_t run, char *buf, size_t len);
/* The pane's caption, tooltip, counters (the pane table's and words.h's
 * entry points dispatch here when v->ktrace is set). */
bool sv_kwords_caption(const sv_app_view *v, sv_caption_words *out);
bool sv_kwords_tooltip(const sv_app_view *v, int row, int col, sv_tip_words *out);
bool sv_kwords_counters(const sv_app_view *v, char *line, size_t n1, char *note, size_t n2);
/* The legend's case conditions of the step shown where the chapter's reading
 * reads it as round r >= 1 (the stride 2^(r-1)); in the overview the
 * conditions in r where some step is such a round; false elsewhere. */
bool sv_kwords_case_conditions(const sv_app_view *v, char out[3][48]);
/* The overview's counters, the whole run: "5 steps · 37 writes · 10
 * hazards · output right". */
void sv_kwords_overview_counters(const sv_ktrace *t, char *buf, size_t len);
/* Step k's timeline label: "r2" for the loop's second step read as a
 * chapter round (counted in order, whatever round its cells match), "out"
 * for the last step when it writes out[], else the step's number from 1;
 * a reading's own where it has them (Blelloch's "\u21912", "root", ...). */
void sv_kwords_step_label(const sv_ktrace *t, int k, char *buf, size_t len);
/* The header: "Your kernel: my_scan.cu" and "  ·  n = 8  ·  sum  ·  inclusive ...". */
void sv_kwords_header(const sv_app_view *v, const char **title, char *rest, size_t len);

/* Where a kernel trace came from, for the header: "CPU runtime · schedule
 * random:1" (a kernel file or a shipped kernel run by the CPU runtime),
 * "GPU runtime · NVIDIA H200" (escaped); clean: without the schedule. */
char *sv_kwords_source(const sv_ktrace *t, bool clean, char *buf, size_t len);

/* ---- phases (kphase.c) --------------------------------------------------- *
 * Down/Up inside a kernel trace's step: its writes by what they wrote, then
 * the barrier that ended it, each with the kernel file's own lines (the
 * runtime records every write's line and each step's __syncthreads()). */

#define SV_KPHASE_MAX_LINES 16 /* lines a phase lists */
/* The phases of step k in order into out[SV_PHASE_COUNT]: LOAD (shared
 * cells written from in[]), OP (other shared cells), COPY_BACK (out[]),
 * each where the step has such writes (a GPU trace, with no writes
 * recorded, from its cells' wrote flags), then BARRIER where a
 * __syncthreads() ended the step. Returns how many (0: none, or NULL). */
int sv_kphases_of(const sv_ktrace *t, size_t k, sv_phase *out);
/* The lines of phase p in step k, ascending and distinct, at most max into
 * lines: the lines of its writes, or the barrier's line. Returns the count
 * (0: none known, e.g. the GPU's writes). */
int sv_kphase_lines(const sv_ktrace *t, size_t k, sv_phase p, int *lines, int max);
/* Whether line is one of sv_kphase_lines(t, k, p). */
bool sv_kphase_marks(const sv_ktrace *t, size_t k, sv_phase p, int line);
/* The phase in words, for the caption's first line: "Step 3, the writes: 8
 * writes from line 21 (s[i] = v;)", "Step 3, barrier: __syncthreads() at
 * line 22: all 8 threads wait here; ...". "" for SV_PHASE_NONE. */
void sv_kwords_phase(const sv_ktrace *t, size_t k, sv_phase p, char *buf, size_t len);

/* ---- predict mode (kquiz.c) ---------------------------------------------- *
 * The question at step k of a kernel trace: what the cells it writes will
 * hold, in the row it writes most; the answers are checked against the
 * trace. A step that writes no cell asks nothing. */

/* The pane row asked at step k (of rows, sv_kpane_rows(t)): the one with
 * the most cells written in step k, the first of equals; -1 for none. */
int sv_kquiz_row_of(const sv_ktrace *t, const sv_krows *rows, size_t k);
int sv_kquiz_row(const sv_ktrace *t, size_t k);
/* The value column col of that row takes in step k; false when the step
 * does not write it (it is not asked). */
bool sv_kquiz_truth(const sv_ktrace *t, size_t k, uint32_t col, sv_value *out);
/* Whether the view hides cell (row, col): a question is open on it. */
bool sv_kquiz_hidden(const sv_app_view *v, int row, uint32_t col);
/* The caption of an open question or of a revealed one with its verdicts;
 * false when the pane's own caption applies. */
bool sv_kwords_quiz(const sv_app_view *v, sv_caption_words *out);

/* The pane table's row for kernel traces (pane_kernel.c). */
extern const sv_pane_fns sv_pane_kernel;

#endif
