/* The scan view's words: captions, phase words, tooltips, the lab's words,
 * counters and key hints, as pure functions from a view to strings. No
 * drawing here (no gfx or GL call), so tests read them without a window and
 * every front end can say the same. The renderers (render_overlay.c,
 * render_cells.c, render_frame.c) only place and colour what this returns. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "words.h"

#include "../core/ktrace_tiles.h"
#include "../core/timeline.h"

#define op_noun sv_op_noun /* core/op.h */

/* "a + b" or "max(a, b)": the op applied to two operands, as text. */
static void op_formula(sv_op op, const char *a, const char *b, char *out, size_t len)
{
    if (op == SV_OP_MAX || op == SV_OP_MIN)
        snprintf(out, len, "%s(%s, %s)", sv_op_symbol(op), a, b);
    else
        snprintf(out, len, "%s %s %s", a, sv_op_symbol(op), b);
}

static void fmt(const sv_trace *t, sv_value v, char *buf, size_t len)
{
    sv_value_format(t->type, v, buf, len);
}

/* ---- predict mode ----------------------------------------------------- */

static const char *row_name(int row)
{
    static const char *n[4] = { "input", "buf[0]", "buf[1]", "output" };
    return n[row < 0 ? 0 : row > 3 ? 3 : row];
}

static void range_text(int lo, int hi, char *buf, size_t len)
{
    if (lo == hi)
        snprintf(buf, len, "input[%d]", lo);
    else
        snprintf(buf, len, "input[%d..%d]", lo, hi);
}

/* How cell i of the row step v writes came to hold its value, e.g.
 * "buf[0][5] = pin[3] + pin[5] = 7 + 1 = 8, window [2, 5]". */
static void cell_formula(const sv_app_view *s, const sv_step_view *v, int i, char *out,
                         size_t len)
{
    const sv_trace *t = s->trace;
    char a[48], b[48], c[48];
    if (v->shift) {
        fmt(t, t->output[i], a, sizeof a);
        if (i == 0) {
            snprintf(out, len, "output[0] = %s, the identity of %s", a, sv_op_name(t->op));
        } else {
            int fb = v->rd->pout >= 0 ? v->rd->pout : 0;
            snprintf(out, len, "output[%d] = buf[%d][%d] = %s, window [0, %d]", i, fb, i - 1, a,
                     i - 1);
        }
        return;
    }
    const sv_round *rd = v->rd;
    if (v->round == 0) {
        fmt(t, rd->buf[0][i], a, sizeof a);
        snprintf(out, len, "buf[0][%d] = input[%d] = %s", i, i, a);
        return;
    }
    const char *name = row_name(1 + rd->pout);
    long st = (long)rd->stride;
    fmt(t, rd->buf[rd->pout][i], a, sizeof a);
    int lo = rd->window_lo ? (int)rd->window_lo[i] : i;
    if (rd->cases[i] == SV_CASE_COPY) {
        snprintf(out, len, "%s[%d] = pin[%d] = %s, copied (window [%d, %d])", name, i, i, a, lo,
                 i);
        return;
    }
    char pa[32], pb[32], left[96], right[160];
    snprintf(pa, sizeof pa, "pin[%ld]", (long)i - st);
    snprintf(pb, sizeof pb, "pin[%d]", i);
    fmt(t, rd->buf[rd->pin][i - st], b, sizeof b);
    fmt(t, rd->buf[rd->pin][i], c, sizeof c);
    op_formula(t->op, pa, pb, left, sizeof left);
    op_formula(t->op, b, c, right, sizeof right);
    snprintf(out, len, "%s[%d] = %s = %s = %s, window [%d, %d]", name, i, left, right, a, lo, i);
}

static const char *case_words(sv_case c)
{
    return c == SV_CASE_FULL ? "a full window" : c == SV_CASE_PARTIAL ? "partial" : "copy-through";
}

static bool lab_words(const sv_app_view *s, const sv_step_view *v, int row, int i,
                      char *buf, size_t len);

/* The caption of an open question, or of a revealed one with verdicts;
 * false when the normal caption applies. */
static bool quiz_caption(const sv_app_view *s, const sv_step_view *v, char *l1, size_t n1,
                         char *l2, size_t n2)
{
    if (!s->quiz)
        return false;
    const sv_trace *t = s->trace;
    bool cases = s->quiz_kind == SV_QUIZ_CASES;
    bool outcome = s->quiz_kind == SV_QUIZ_OUTCOME && s->lab;
    char what[96];
    if (v->shift)
        snprintf(what, sizeof what, "the exclusive shift");
    else if (v->round == 0)
        snprintf(what, sizeof what, "round 0 (staging)");
    else
        snprintf(what, sizeof what, "round %d (stride %lu)", v->round,
                 (unsigned long)v->rd->stride);
    int row = v->shift ? 3 : v->round == 0 ? 1 : 1 + v->rd->pout;
    if (s->quiz_asking && outcome) {
        snprintf(l1, n1, "Predict %s: will each cell of %s be right in every one of the %u "
                 "run%s?", what, row_name(row), (unsigned)s->lab->runs,
                 s->lab->runs == 1 ? "" : "s");
        snprintf(l2, n2, "Select a cell (click, or Tab / Shift+Tab); Return cycles right, wrong, "
                 "none (1 2 0). Right or Page Down reveals.");
        return true;
    }
    if (s->quiz_asking) {
        if (cases)
            snprintf(l1, n1, "Predict %s: which cells of %s are full windows, partial, or "
                     "copy-through?", what, row_name(row));
        else
            snprintf(l1, n1, "Predict %s: what value will each cell of %s hold?", what,
                     row_name(row));
        snprintf(l2, n2, "%s", cases
                 ? "Click a cell (or Tab, then Return) to cycle its mark: full, partial, "
                   "copy-through, none (1 2 3 0). Right or Page Down reveals."
                 : "Select a cell (click, or Tab / Shift+Tab), type a number, Return. "
                   "Right or Page Down reveals.");
        return true;
    }
    if (!s->quiz_scored || s->quiz_step != s->step || !s->quiz_result)
        return false;
    int right = 0, asked = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (s->quiz_result[i] != SV_QUIZ_UNASKED)
            asked++;
        if (s->quiz_result[i] == SV_QUIZ_RIGHT)
            right++;
    }
    if (asked == 0)
        return false;
    snprintf(l1, n1, "%c%s revealed: %d of %d right \u00b7 score %d of %d",
             what[0] == 'r' ? 'R' : 'T', what + 1, right, asked, s->quiz_right, s->quiz_total);
    size_t at = 0;
    l2[0] = '\0';
    int shown = 0, wrong = asked - right;
    for (size_t i = 0; i < t->n && at + 8 < n2; i++) {
        if (s->quiz_result[i] != SV_QUIZ_WRONG)
            continue;
        if (shown == 2) {
            at += (size_t)snprintf(l2 + at, n2 - at, " \u00b7 and %d more: hover a cell",
                                   wrong - shown);
            break;
        }
        char f[420], you[64];
        cell_formula(s, v, (int)i, f, sizeof f);
        if (outcome) {
            const sv_lab_cell *lc = &s->lab->cells[(size_t)v->round * s->lab->n + i];
            char why[420];
            /* the first wrong cell says why, in the lab's words */
            if (shown == 0 && lc->wrong_runs > 0 && lab_words(s, v, row, (int)i, why, sizeof why))
                at += (size_t)snprintf(l2 + at, n2 - at, "%s[%zu] (you: right): %s",
                                       row_name(row), i, why);
            else
                at += (size_t)snprintf(l2 + at, n2 - at, "%s%s[%zu] is %s in %u of %u runs "
                                       "(you: %s)", shown ? " \u00b7 " : "", row_name(row), i,
                                       lc->wrong_runs ? "wrong" : "right",
                                       (unsigned)(lc->wrong_runs ? lc->wrong_runs
                                                                 : s->lab->runs),
                                       (unsigned)s->lab->runs,
                                       s->quiz_mark[i] == SV_QUIZ_RIGHT ? "right" : "wrong");
        } else if (cases) {
            snprintf(you, sizeof you, "you: %s",
                     sv_case_name((sv_case)(s->quiz_mark[i] - 1)));
            char g[240];
            snprintf(g, sizeof g, "%s[%zu] is %s (%s)", row_name(row), i,
                     case_words(v->rd->cases[i]), you);
            at += (size_t)snprintf(l2 + at, n2 - at, "%s%s: %s", shown ? " \u00b7 " : "", g, f);
        } else {
            char y[48];
            fmt(t, s->quiz_value[i], y, sizeof y);
            at += (size_t)snprintf(l2 + at, n2 - at, "%s%s (you: %s)", shown ? " \u00b7 " : "",
                                   f, y);
        }
        if (at >= n2)
            at = n2 - 1;
        shown++;
    }
    if (wrong == 0)
        snprintf(l2, n2, "All right.");
    return true;
}

/* ---- caption --------------------------------------------------------- */

/* "thread 0", "threads 1–7", or "no thread" for an empty range. */
static void threads_text(unsigned long lo, unsigned long hi, char *buf, size_t len)
{
    if (hi == (unsigned long)-1 || lo > hi)
        snprintf(buf, len, "no thread");
    else if (lo == hi)
        snprintf(buf, len, "thread %lu", lo);
    else
        snprintf(buf, len, "threads %lu\u2013%lu", lo, hi);
}

/* The caption of a phase (Down/Up): what the threads do in it. */
static void phase_text(const sv_app_view *s, const sv_step_view *v, char *l1, size_t n1,
                       char *l2, size_t n2)
{
    const sv_trace *t = s->trace;
    unsigned long st = v->round > 0 ? (unsigned long)v->rd->stride : 0;
    unsigned long n = (unsigned long)t->n;
    int pout = v->round == 0 ? 0 : v->rd->pout, pin = 1 - pout;
    const char *verb = sv_scene_op_verb(t->op);
    switch (s->phase) {
    case SV_PHASE_LOAD:
        snprintf(l1, n1, "Load: each thread i reads in[i] from global memory and writes "
                 "buf[0][i] in shared memory.");
        snprintf(l2, n2, "All %lu threads at once; buf[1] is not written yet (?).", n);
        break;
    case SV_PHASE_GUARD: {
        if (st >= n)
            st = n;
        char add[48], other[48];
        threads_text(st, n - 1, add, sizeof add);
        threads_text(0, st - 1, other, sizeof other);
        snprintf(l1, n1, "Round %d, the guard if (i >= %lu): %s take%s the %s branch, %s the "
                 "else (a copy).", v->round, st, add, st + 1 == n ? "s" : "",
                 t->op == SV_OP_SUM ? "add" : "combine", other);
        snprintf(l2, n2, "Nothing is read or written yet: buf[%d] (pout) still holds what it "
                 "held before this round.", pout);
        break;
    }
    case SV_PHASE_OP:
        snprintf(l1, n1, "Round %d: thread i ≥ %lu reads pin[i−%lu] and pin[i], %s "
                 "them, and writes pout[i]; the others copy pin[i].", v->round, st, st,
                 t->op == SV_OP_SUM ? "adds" : verb);
        snprintf(l2, n2, "Reads from buf[%d] (pin), writes to buf[%d] (pout): within the "
                 "round nobody writes a cell anybody reads.", pin, pout);
        break;
    case SV_PHASE_BARRIER:
        snprintf(l1, n1, "__syncthreads(): every thread waits here until all %lu have "
                 "written buf[%d].", n, pout);
        snprintf(l2, n2, v->round == 0
                     ? "Only then may a thread read its neighbour's cell in round 1."
                     : "Without it a thread could read pout before it is written, or "
                       "overwrite pin while others still read it.");
        break;
    case SV_PHASE_SWAP:
        snprintf(l1, n1, "The swap: pout = 1 − pout; pin = 1 − pout. buf[%d] "
                 "becomes pin, buf[%d] pout.", pout, pin);
        snprintf(l2, n2, "The tags trade places: this round's output is the next round's "
                 "input; no data moves.");
        break;
    case SV_PHASE_COPY_BACK:
        if (t->scan == SV_SCAN_EXCLUSIVE)
            snprintf(l1, n1, "Copy back: thread i writes buf[%d][i−1] to out[i] "
                     "(out[0] gets the identity).", pout);
        else
            snprintf(l1, n1, "Copy back: thread i writes buf[%d][i] to out[i] in global "
                     "memory.", pout);
        snprintf(l2, n2, "Safe after the last barrier: every cell of buf[%d] is final.", pout);
        break;
    default:
        l1[0] = l2[0] = '\0';
        break;
    }
}

static void caption_text(const sv_app_view *s, const sv_step_view *v, char *l1, size_t n1,
                         char *l2, size_t n2)
{
    const sv_trace *t = s->trace;
    l2[0] = '\0';
    if (s->phase != SV_PHASE_NONE) {
        phase_text(s, v, l1, n1, l2, n2);
        return;
    }
    if (v->shift) {
        char id[48];
        fmt(t, sv_op_identity(t->op, t->type), id, sizeof id);
        int fb = v->rd->pout >= 0 ? v->rd->pout : 0;
        snprintf(l1, n1, "Exclusive shift: output[i] = buf[%d][i\u22121] for i \u2265 1, and "
                 "output[0] = %s, the identity of %s.", fb, id, sv_op_name(t->op));
        snprintf(l2, n2, "The exclusive scan is the inclusive one shifted right by one "
                 "position, with the identity in front.");
        return;
    }
    if (v->round == 0) {
        snprintf(l1, n1, "Round 0: stage the input into buf[0]; buf[1] is uninitialized (?).");
        snprintf(l2, n2, "Each thread copies input[i] from global memory into buf[0][i] in "
                 "shared memory; no %s happens yet.",
                 t->op == SV_OP_SUM ? "addition" : "operation");
        if (t->n == 1)
            snprintf(l2, n2, "With one element there are no rounds: buf[0] already holds the "
                     "scan, written to output.");
        return;
    }
    unsigned long st = (unsigned long)v->rd->stride;
    const char *verb = sv_scene_op_verb(t->op);
    if (st == 1)
        snprintf(l1, n1, "Round %d, stride 1: each position i \u2265 1 %s its left neighbour; "
                 "position 0 copies through.", v->round, verb);
    else
        snprintf(l1, n1, "Round %d, stride %lu: each position i \u2265 %lu %s the value %lu "
                 "positions to its left; positions 0\u2013%lu copy through.",
                 v->round, st, st, verb, st, st - 1);
    unsigned long span = 2 * st;
    int r = v->round;
    size_t n = t->n;
    bool last_round = r == (int)t->nrounds - 1;
    if (last_round && (n & (n - 1)) != 0)
        /* Correct for any n: the chapter's windows need not be full. */
        snprintf(l2, n2, "pin = buf[%d], pout = buf[%d]. Last round: n = %zu is not a power of "
                 "two, so there is no full window (one would need %lu inputs): every window "
                 "is cut at position 0, and one that reaches position 0 is the whole prefix, "
                 "so buf[%d] holds the inclusive scan.", v->rd->pin, v->rd->pout, n, span,
                 v->rd->pout);
    else if (v->last)
        snprintf(l2, n2, "pin = buf[%d], pout = buf[%d]. Last round: every window reaches "
                 "position 0, so buf[%d] holds the inclusive scan, written to output.",
                 v->rd->pin, v->rd->pout, v->rd->pout);
    else if (r == (int)s->trace->nrounds - 1)
        snprintf(l2, n2, "pin = buf[%d], pout = buf[%d]. Last round: buf[%d] now holds the "
                 "inclusive scan; the exclusive shift comes next.",
                 v->rd->pin, v->rd->pout, v->rd->pout);
    else
        snprintf(l2, n2, "pin = buf[%d], pout = buf[%d]. After this round each position "
                 "holds the %s of up to %lu inputs ending there.",
                 v->rd->pin, v->rd->pout, op_noun(t->op), span);
}


/* A mistake's round told from its shown run (issue 18): where the run
 * broke the invariant, the first broken cell, what its thread did (from
 * the reads, where known) and what it holds against what its window
 * should; the end does not claim a scan the output is not. Leaves the
 * chapter's text where the run held the invariant. */
static void lab_truth_caption(const sv_app_view *s, const sv_step_view *v, char *l1, size_t n1,
                              char *l2, size_t n2)
{
    const sv_trace *t = s->trace;
    int i = sv_scene_lab_first_broken(s, v);
    if (i < 0 || s->phase != SV_PHASE_NONE)
        return;
    int b = v->rd->pout;
    const sv_lab_cell *lc = &s->lab->cells[(size_t)v->round * s->lab->n + (size_t)i];
    char got[48] = "?", want[48], what[SV_WORDS_MAX] = "";
    if (v->rd->written[b][i])
        fmt(t, v->rd->buf[b][i], got, sizeof got);
    fmt(t, lc->correct, want, sizeof want);
    unsigned long st = (unsigned long)v->rd->stride;
    long lo = (long)i - 2 * (long)st + 1;
    if (s->lab_reads)
        sv_lab_cell_describe(s->lab_reads, t->type, (size_t)v->round, (size_t)i, what, sizeof what);
    snprintf(l1, n1, "Round %d, stride %lu (%s): %s", v->round, st,
             sv_kernel_name((sv_kernel)s->kernel),
             what[0] ? what : "the shown run breaks the chapter's invariant here");
    snprintf(l2, n2, "buf[%d][%d] holds %s; the window [%ld, %d] %s %s. The cells from it on "
             "are drawn without a case.%s", b, i, got, lo < 0 ? 0 : lo, i,
             t->op == SV_OP_SUM ? "sums to" : "combines to", want,
             v->last ? " The output is not the scan." : "");
}

/* The mistakes lab: what happened in cell (row, i) as step v shows it, in
 * words: the CPU runtime's record of the read that went wrong, or, for GPU
 * runs, the observed values against the correct one. false when the cell
 * has no outcome. */
static bool lab_words(const sv_app_view *s, const sv_step_view *v, int row, int i,
                      char *buf, size_t len)
{
    int w;
    const sv_lab_cell *lc = sv_scene_lab_cell(s, v, row, i, &w);
    if (!lc)
        return false;
    const sv_trace *t = s->trace;
    int cell = (row == 3 && t->scan == SV_SCAN_EXCLUSIVE) ? i - 1 : i;
    char what[400] = "";
    if (s->lab_reads)
        sv_lab_cell_describe(s->lab_reads, t->type, (size_t)w, (size_t)cell, what, sizeof what);
    char cv[48];
    sv_value_format(t->type, lc->correct, cv, sizeof cv);
    uint32_t runs = s->lab->runs;
    if (lc->wrong_runs == 0) {
        snprintf(buf, len, "%s%sright in all %u run%s (%s, as the chapter's kernel)",
                 what[0] ? what : "", what[0] ? " \u2014 " : "", (unsigned)runs,
                 runs == 1 ? "" : "s", cv);
        return true;
    }
    if (what[0]) {
        snprintf(buf, len, "wrong in %u of %u run%s: %s", (unsigned)lc->wrong_runs,
                 (unsigned)runs, runs == 1 ? "" : "s", what);
        return true;
    }
    /* GPU runs: the values seen, most runs first. */
    size_t at = (size_t)snprintf(buf, len, "round %d, cell %d: wrong in %u of %u runs; seen ", w,
                                 cell, (unsigned)lc->wrong_runs, (unsigned)runs);
    for (uint32_t k = 0; k < lc->nvalues && k < 3 && at < len; k++) {
        char vv[48];
        if (lc->values[k].known)
            sv_value_format(t->type, lc->values[k].value, vv, sizeof vv);
        else
            snprintf(vv, sizeof vv, "?");
        at += (size_t)snprintf(buf + at, len - at, "%s%s (%u)", k ? ", " : "", vv,
                               (unsigned)lc->values[k].runs);
    }
    if (at < len)
        snprintf(buf + at, len - at, "; the correct kernel has %s", cv);
    return true;
}



/* GPU runs checked by racecheck: the hazards the sanitizer named on cell i
 * of buffer bi, and one of them in words (e.g. "WAR: thread 33 read, thread
 * 32 wrote, in_place.cu:39"). Appends to lines from n; returns the count. */
static int racecheck_lines(const sv_trace *t, int round, int bi, int i,
                           char lines[SV_TIP_LINES][256], int n)
{
    const sv_racecheck *rc = t->lab ? t->lab->racecheck : NULL;
    if (!rc || !rc->ran || n > SV_TIP_LINES - 2)
        return n;
    size_t here = 0;
    const sv_hazard *h = NULL;
    size_t all = sv_racecheck_at(rc, bi, i, round, &here, &h);
    if (all == 0) {
        snprintf(lines[n++], 256, "racecheck: no hazard recorded on this cell");
        return n;
    }
    snprintf(lines[n++], 256, "racecheck: %zu hazard%s on this cell, %zu mapped to round %d",
             all, all == 1 ? "" : "s", here, round);
    char at[96] = "";
    if (h->file[0] && h->line[0] >= 0)
        snprintf(at, sizeof at, ", %.64s:%d", h->file, h->line[0]);
    snprintf(lines[n++], 256, "e.g. %s: thread %d %s, thread %d %s%s", h->kind, h->thread[0],
             h->access[0] == 'W' ? "wrote" : "read", h->thread[1],
             h->access[1] == 'W' ? "wrote" : "read", at);
    return n;
}

/* Whether a read is the race: it saw another write than the one it was
 * meant to see (or a cell nobody wrote). A read of the right write whose
 * value was already wrong is not: the fault is upstream. */
static bool read_faulty(const sv_lab_read *x)
{
    if (!x)
        return false;
    bool same_write = x->writer == x->want_writer && x->writer_round == x->want_round;
    return x->writer < 0 || !same_write;
}

/* Fills up to SV_TIP_LINES lines about cell (row, i) in step v; line 1 (the
 * formula) is mono. Returns the number of lines; *accent is the case colour
 * of line 2 when it names a case. */
static int tooltip_lines(const sv_app_view *s, const sv_step_view *v, int row, int i,
                         char lines[SV_TIP_LINES][256], sv_words_tone *accent, bool *emph)
{
    const sv_trace *t = s->trace;
    char a[32], b[32], c[32], rng[64];
    int n = 0;
    *accent = SV_TONE_TEXT;
    sv_value val;
    if (sv_scene_hidden(s, v, row)) {
        snprintf(lines[n++], 256, "%s[%d] = ?", row_name(row), i);
        snprintf(lines[n++], 256, "hidden: predict it, then Right reveals");
        return n;
    }
    bool has = sv_scene_value(s, v, row, i, &val);
    if (row == 0) {
        fmt(t, t->input[i], a, sizeof a);
        snprintf(lines[n++], 256, "input[%d] = %s", i, a);
        snprintf(lines[n++], 256, "global memory; round 0 stages it into buf[0][%d]", i);
        return n;
    }
    if (row == 3) {
        if (!has && sv_scene_unknown(s, v, row, i)) {
            int src = sv_scene_output_source(t, v, i);
            const sv_round *lr = &t->rounds[t->nrounds - 1];
            snprintf(lines[n++], 256, "output[%d] = ?", i);
            snprintf(lines[n++], 256, "copied from buf[%d][%d], which no thread wrote",
                     t->nrounds == 1 ? 0 : lr->pout, src);
            snprintf(lines[n++], 256, "shared memory there holds whatever was there before");
            return n;
        }
        if (!has) {
            snprintf(lines[n++], 256, "output[%d]: not written yet", i);
            snprintf(lines[n++], 256, "%s", t->scan == SV_SCAN_EXCLUSIVE
                         ? "the exclusive shift writes it after the last round"
                         : "written after the last round");
            return n;
        }
        fmt(t, val, a, sizeof a);
        snprintf(lines[n++], 256, "output[%d] = %s", i, a);
        if (t->scan == SV_SCAN_EXCLUSIVE) {
            if (i == 0) {
                snprintf(lines[n++], 256, "the identity of %s", sv_op_name(t->op));
            } else {
                int fb = v->rd->pout >= 0 ? v->rd->pout : 0;
                snprintf(lines[n++], 256, "= buf[%d][%d], shifted right by one", fb, i - 1);
                range_text(0, i - 1, rng, sizeof rng);
                snprintf(lines[n++], 256, "exclusive scan: the %s of %s", op_noun(t->op), rng);
            }
        } else {
            range_text(0, i, rng, sizeof rng);
            snprintf(lines[n++], 256, "inclusive scan: the %s of %s", op_noun(t->op), rng);
        }
        return n;
    }
    int bi = row - 1;
    if (!has) {
        snprintf(lines[n++], 256, "%s[%d] = ?", row_name(row), i);
        snprintf(lines[n++], 256, "uninitialized: shared memory holds whatever was there");
        snprintf(lines[n++], 256, "until round 1 writes it");
        return n;
    }
    fmt(t, val, a, sizeof a);
    bool pout = v->round > 0 && !v->shift && bi == v->rd->pout;
    bool pin = v->round > 0 && !v->shift && bi == v->rd->pin;
    snprintf(lines[n++], 256, "%s[%d] = %s%s", row_name(row), i, a,
             pout ? "  (pout)" : pin ? "  (pin)" : "");
    int lo = i;
    sv_scene_window(s, v, row, i, &lo);
    range_text(lo, i, rng, sizeof rng);
    if (!pout) {
        if (v->round == 0)
            snprintf(lines[n++], 256, "staged from input[%d]", i);
        else
            /* pout was written this round, pin the round before; at the
             * exclusive shift neither flag is set, so ask the buffer. */
            snprintf(lines[n++], 256, "written in round %d",
                     bi == v->rd->pout ? v->round : v->round - 1);
        snprintf(lines[n++], 256, "holds the %s of %s", op_noun(t->op), rng);
        return n;
    }
    const sv_round *rd = v->rd;
    if (s->lab) {
        /* A mistake: the buffers after the round do not say what was read
         * (a cell may have changed under the reader); the CPU runtime's
         * record does. GPU runs record no reads. */
        if (!s->lab_reads) {
            snprintf(lines[n++], 256, "the reads of GPU runs are not recorded");
            return racecheck_lines(t, v->round, bi, i, lines, n);
        }
        emph[2] = false;
        for (int slot = 0; slot < SV_READ_SLOTS && n < SV_TIP_LINES - 1; slot++) {
            if (sv_lab_read_describe(s->lab_reads, t->type, (size_t)v->round, (size_t)i,
                                     (sv_read_slot)slot, lines[n], 256))
                emph[n++] = read_faulty(sv_lab_reads_at(s->lab_reads, (size_t)v->round,
                                                        (size_t)i, (sv_read_slot)slot));
        }
        return n;
    }
    long st = (long)rd->stride;
    sv_case cs = rd->cases[i];
    *accent = cs == SV_CASE_FULL ? SV_TONE_FULL : cs == SV_CASE_PARTIAL ? SV_TONE_PARTIAL
                                                            : SV_TONE_COPY;
    if (cs == SV_CASE_COPY) {
        fmt(t, rd->buf[rd->pin][i], b, sizeof b);
        snprintf(lines[n++], 256, "copied from pin[%d] = %s", i, b);
        snprintf(lines[n++], 256, "copy-through (i < 2^(r\u22121) = %ld): i = %d has no left "
                 "neighbour at stride %ld", st, i, st);
    } else {
        char pa[32], pb[32];
        snprintf(pa, sizeof pa, "pin[%ld]", (long)i - st);
        snprintf(pb, sizeof pb, "pin[%d]", i);
        fmt(t, rd->buf[rd->pin][i - st], b, sizeof b);
        fmt(t, rd->buf[rd->pin][i], c, sizeof c);
        char left[64], right[80];
        op_formula(t->op, pa, pb, left, sizeof left);
        op_formula(t->op, b, c, right, sizeof right);
        snprintf(lines[n++], 256, "%s = %s = %s", left, right, a);
        if (cs == SV_CASE_PARTIAL)
            snprintf(lines[n++], 256, "partial (2^(r\u22121) \u2264 i < 2^r \u2212 1: %ld \u2264 i "
                     "< %ld): its window [%d, %d] reaches position 0", st, 2 * st - 1, lo, i);
        else
            snprintf(lines[n++], 256, "full (i \u2265 2^r \u2212 1 = %ld): a whole window of "
                     "2^%d = %ld elements, [%d, %d]", 2 * st - 1, v->round, 2 * st, lo, i);
        /* Why the invariant holds: two adjacent windows make the new one. */
        int llo, rlo;
        sv_scene_operand_windows(v, i, &llo, &rlo);
        char wl[48], wr[48];
        range_text(llo, (int)(i - st), wl, sizeof wl);
        range_text(rlo, i, wr, sizeof wr);
        snprintf(lines[n++], 256, "%s holds %s, %s holds %s: side by side, %s", pa, wl, pb, wr,
                 rng);
    }
    snprintf(lines[n++], 256, "holds the %s of %s", op_noun(t->op), rng);
    if (rd->overflow && rd->overflow[i])
        snprintf(lines[n++], 256, "int32 overflow: the %s wrapped around", op_noun(t->op));
    return n;
}

/* ---- what the renderers ask for ----------------------------------------- */

bool sv_words_caption(const sv_app_view *s, sv_caption_words *out)
{
    memset(out, 0, sizeof *out);
    sv_step_view v;
    if (!sv_scene_step(s, s->step, &v) || s->trace->n > SV_MAX_N) /* (the input alone) */
        return false;
    char *l1 = out->line1, *l2 = out->line2;
    size_t n1 = sizeof out->line1, n2 = sizeof out->line2;
    if (!quiz_caption(s, &v, l1, n1, l2, n2)) {
        caption_text(s, &v, l1, n1, l2, n2);
        if (s->lab && !v.shift && v.round > 0)
            lab_truth_caption(s, &v, l1, n1, l2, n2);
        if (s->caption && s->caption[0]) {
            /* A presenter script's caption replaces the round's own. */
            snprintf(l1, n1, "%s", s->caption);
            l2[0] = '\0';
        }
    }
    /* A mistake's hovered cell: the second line says what happened there. */
    int hr, hc;
    if (s->lab && sv_scene_tooltip_target(s, &hr, &hc) && lab_words(s, &v, hr, hc, l2, n2))
        out->line2_error = true;
    /* n > SV_WARP: what runs in lockstep. */
    size_t nt = s->trace->n;
    if (nt > SV_WARP) {
        size_t nw = (nt + SV_WARP - 1) / SV_WARP;
        snprintf(out->warps, sizeof out->warps, "Warps: the %d threads of a warp (lanes %dk "
                 "\u2026 %dk+%d) run each statement in lockstep; the %zu warps run "
                 "independently and meet only at __syncthreads().", SV_WARP, SV_WARP, SV_WARP,
                 SV_WARP - 1, nw);
    }
    return true;
}

bool sv_words_tooltip(const sv_app_view *s, int row, int i, sv_tip_words *out)
{
    memset(out, 0, sizeof *out);
    sv_step_view v;
    if (!sv_scene_step(s, s->step, &v) || row < 0 || row > 3 || i < 0 ||
        (size_t)i >= s->trace->n)
        return false;
    out->emph[2] = true; /* the case line, where there is one */
    int n = tooltip_lines(s, &v, row, i, out->line, &out->accent, out->emph);
    /* A mistake: how often this cell was wrong, and the correct value. */
    const sv_lab_cell *lc = sv_scene_lab_cell(s, &v, row, i, NULL);
    if (lc) {
        char cv[48];
        fmt(s->trace, lc->correct, cv, sizeof cv);
        int k = n < SV_TIP_LINES ? n++ : SV_TIP_LINES - 1;
        if (lc->wrong_runs)
            snprintf(out->line[k], 256, "wrong in %u of %u runs; the correct kernel has %s",
                     (unsigned)lc->wrong_runs, (unsigned)s->lab->runs, cv);
        else
            snprintf(out->line[k], 256, "right in all %u runs (correct: %s)",
                     (unsigned)s->lab->runs, cv);
        if (lc->wrong_runs)
            out->accent = SV_TONE_ERROR;
    }
    out->n = n;
    return true;
}

bool sv_words_ops_at(const sv_app_view *s, int step, size_t *now, size_t *total, int *round,
                     int *depth)
{
    sv_step_view v;
    if (!sv_scene_step(s, step, &v))
        return false;
    const sv_trace *tr = s->trace;
    *total = 0;
    *round = v.round;
    *depth = 0;
    if (s->lab && s->lab_reads) {
        /* A mistake: the operations its shown run did, not the chapter's. */
        sv_step_view w;
        for (int r = 1; r <= v.round; r++)
            if (sv_steps_at(tr, r, &w) && !w.shift) {
                size_t k = sv_scene_lab_ops(s, &w);
                *total += k;
                *depth += k > 0;
            }
        *now = (v.round > 0 && !v.shift) ? sv_scene_lab_ops(s, &v) : 0;
        return true;
    }
    for (int r = 1; r <= v.round; r++) {
        *total += tr->rounds[r].ops;
        *depth += tr->rounds[r].ops > 0;
    }
    *now = (v.round > 0 && !v.shift) ? v.rd->ops : 0;
    return true;
}

bool sv_words_counters(const sv_app_view *s, char *line, size_t n1, char *note, size_t n2)
{
    line[0] = note[0] = '\0';
    sv_step_view v;
    size_t now, total;
    int round, depth;
    if (!sv_scene_step(s, s->step, &v) ||
        !sv_words_ops_at(s, s->step, &now, &total, &round, &depth))
        return false;
    const sv_trace *tr = s->trace;
    int depth_max = (int)tr->nrounds - 1;
    /* An open question: this round's count of operations would tell how
     * many cells are full or partial (issue 28); it shows after Reveal.
     * depth: the rounds so far that did an operation (no-guard's stopped
     * run did none), of the scan's rounds */
    bool asking = s->quiz && s->quiz_asking;
    if (asking)
        snprintf(line, n1,
                 "ops this round ? (after Reveal) \u00b7 total before it %zu \u00b7 "
                 "sequential n\u22121 = %zu \u00b7 depth %d of %d", total - now, tr->n - 1,
                 depth, depth_max);
    else
        snprintf(line, n1,
                 "ops this round %zu \u00b7 total %zu \u00b7 sequential n\u22121 = %zu \u00b7 "
                 "depth %d of %d", now, total, tr->n - 1, depth, depth_max);
    /* Overflow (int32 sum/product wrapped) or float32 rounding notes. */
    if (tr->type == SV_TYPE_INT32 && tr->overflow_count > 0 && asking) {
        snprintf(note, n2, "\u25cf int32 overflow: %zu cell%s wrapped in all (this round's "
                 "after Reveal)", tr->overflow_count, tr->overflow_count == 1 ? "" : "s");
    } else if (tr->type == SV_TYPE_INT32 && tr->overflow_count > 0) {
        size_t here = (v.round > 0 && !v.shift) ? v.rd->overflow_count : 0;
        snprintf(note, n2, "\u25cf int32 overflow: %zu cell%s wrapped this round, "
                 "%zu in all", here, here == 1 ? "" : "s", tr->overflow_count);
    } else if (tr->type == SV_TYPE_FLOAT32 && tr->max_abs_diff > 0.0) {
        snprintf(note, n2, "float32: differs from the sequential scan by up to %.3g "
                 "(at i = %zu): a different rounding order", tr->max_abs_diff, tr->max_diff_index);
    }
    if (s->lab && s->quiz && s->quiz_asking) {
        /* the outcome would answer the question */
        snprintf(note, n2, "%s: the outcome shows after Reveal", s->lab_note);
    } else if (s->lab) {
        sv_words_lab_verdict(s, note, n2);
    }
    return true;
}

void sv_words_lab_verdict(const sv_app_view *s, char *note, size_t len)
{
    note[0] = '\0';
    const sv_lab_summary *lab = s->lab;
    if (!lab)
        return;
    const sv_lab_record *rec = s->trace ? s->trace->lab : NULL;
    uint64_t hz = rec && rec->emulated ? rec->hazards : 0;
    if (lab->wrong_runs == 0 && hz) /* right, and racy: the code's race, not this run's */
        snprintf(note, len, "%s: right in all %u run%s, yet %llu hazard%s: a race this "
                 "schedule did not expose (%s)", s->lab_note, (unsigned)lab->runs,
                 lab->runs == 1 ? "" : "s", (unsigned long long)hz, hz == 1 ? "" : "s",
                 rec->hazard);
    else if (lab->wrong_runs == 0)
        snprintf(note, len, "%s: right in all %u run%s (by luck or by design)",
                 s->lab_note, (unsigned)lab->runs, lab->runs == 1 ? "" : "s");
    else
        snprintf(note, len, "%s: output wrong in %u of %u run%s \u00b7 %u distinct "
                 "\u00b7 first wrong round %d", s->lab_note, (unsigned)lab->wrong_runs,
                 (unsigned)lab->runs, lab->runs == 1 ? "" : "s",
                 (unsigned)lab->distinct_outputs, lab->first_wrong_round);
    /* racecheck, when the trace recorded it: a race is the code's, not a run's */
    const sv_racecheck *rc = s->trace && s->trace->lab ? s->trace->lab->racecheck : NULL;
    size_t at = strlen(note);
    if (at >= len)
        return;
    if (lab->wrong_runs && hz) {
        snprintf(note + at, len - at, " \u00b7 %llu hazard%s", (unsigned long long)hz,
                 hz == 1 ? "" : "s");
        at = strlen(note);
    }
    if (rc && rc->ran)
        snprintf(note + at, len - at, " \u00b7 racecheck %llu errors, %llu warnings",
                 (unsigned long long)rc->errors, (unsigned long long)rc->warnings);
    else if (rc)
        snprintf(note + at, len - at, " \u00b7 no racecheck");
}

void sv_words_overview_counters(const sv_trace *tr, char *line, size_t len)
{
    size_t total = 0;
    for (size_t r = 1; r < tr->nrounds; r++)
        total += tr->rounds[r].ops;
    snprintf(line, len, "%zu ops in %zu rounds (depth %zu) \u00b7 sequential "
             "n\u22121 = %zu", total, tr->nrounds - 1, tr->nrounds - 1, tr->n - 1);
}

const char *sv_words_hint(const sv_app_view *s, char *buf, size_t len)
{
    if (s->clean) /* a slide: no key hints */
        return "";
    if (s->script_steps > 0) {
        /* A presenter script: where in it, in the corner. */
        snprintf(buf, len, "%d / %d \u00b7 \u25c4 \u25ba script \u00b7 \u25bc \u25b2 phase "
                 "\u00b7 H help", s->script_step, s->script_steps);
        return buf;
    }
    if (s->quiz) {
        /* The running score where the key hints were. */
        snprintf(buf, len, "Predict (%s) \u00b7 score %d / %d \u00b7 %s \u00b7 "
                 "Q question \u00b7 P off", s->quiz_kind == SV_QUIZ_CASES ? "cases"
                 : s->quiz_kind == SV_QUIZ_OUTCOME ? "right or wrong" : "values",
                 s->quiz_right, s->quiz_total, s->quiz_asking ? "\u25ba reveal" : "\u25ba ask");
        return buf;
    }
    if (s->ktrace && sv_ktrace_tiles_launch(s->ktrace, (size_t)(s->kstep < 0 ? 0 : s->kstep)) >= 0)
        return s->playing /* a launch with its tiles recorded: L draws them over time */
            ? "\u25c4 \u25ba step \u00b7 Space pause \u00b7 L tiles over time \u00b7 H help"
            : "\u25c4 \u25ba step \u00b7 Space play \u00b7 L tiles over time \u00b7 H help";
    return s->playing
        ? "\u25c4 \u25ba step \u00b7 Space pause \u00b7 E edit \u00b7 H help"
        : "\u25c4 \u25ba step \u00b7 Space play \u00b7 E edit \u00b7 H help";
}

void sv_words_step_label(const sv_trace *t, int k, char *buf, size_t len)
{
    if (t && t->scan == SV_SCAN_EXCLUSIVE && k == sv_view_steps(t) - 1)
        snprintf(buf, len, "shift");
    else
        snprintf(buf, len, "%d", k);
}

void sv_words_window(int lo, int hi, char *buf, size_t len)
{
    if (lo == hi)
        snprintf(buf, len, "window [%d]", lo);
    else
        snprintf(buf, len, "window [%d, %d]", lo, hi);
}

void sv_words_barrier(const sv_trace *t, char *buf, size_t len)
{
    snprintf(buf, len, "__syncthreads(): all %zu threads wait here", t->n);
}

const char *sv_words_output_pending(const sv_trace *t)
{
    return t->scan == SV_SCAN_EXCLUSIVE ? "written by the exclusive shift after the last round"
                                        : "written after the last round";
}

bool sv_words_case_conditions(const sv_app_view *s, char out[3][48])
{
    out[0][0] = out[1][0] = out[2][0] = '\0';
    sv_step_view v;
    if (s->overview && s->trace)
        return sv_words_conditions_of(0, out);
    if (!sv_scene_step(s, s->step, &v) || v.round == 0 || v.shift)
        return false;
    return sv_words_conditions_of((uint32_t)v.rd->stride, out);
}

bool sv_words_conditions_of(uint32_t st, char out[3][48])
{
    if (st == 0) { /* every round at once: the conditions in r */
        snprintf(out[0], 48, "i \u2265 2^r\u22121");
        snprintf(out[1], 48, "2^(r\u22121) \u2264 i < 2^r\u22121");
        snprintf(out[2], 48, "i < 2^(r\u22121)");
        return true;
    }
    unsigned long long full = 2ull * st - 1; /* at most 2^33 - 1: 10 digits */
    snprintf(out[0], 48, "i \u2265 %llu", full);
    if (st < full)
        snprintf(out[1], 48, "%" PRIu32 " \u2264 i < %llu", st, full);
    else
        snprintf(out[1], 48, "none");
    snprintf(out[2], 48, "i < %" PRIu32, st);
    return true;
}

void sv_words_case_band(sv_case cs, int lo, int hi, char *buf, size_t len)
{
    const char *name = cs == SV_CASE_FULL ? "full" : cs == SV_CASE_PARTIAL ? "partial"
                                                                         : "copy-through";
    if (hi > lo)
        snprintf(buf, len, "%s %d\u2013%d", name, lo, hi);
    else
        snprintf(buf, len, "%s %d", name, lo);
}

void sv_words_header(const sv_app_view *s, const char **title, char *rest, size_t len)
{
    const sv_trace *tr = s->trace;
    /* past SV_MAX_N: a kernel file's input before its first trace */
    *title = s->view == SV_VIEW_MEASURE ? "Measure"
           : tr && tr->n > SV_MAX_N ? "Your kernel" : "Hillis-Steele scan";
    rest[0] = '\0';
    if (s->view == SV_VIEW_MEASURE)
        snprintf(rest, len, !s->timeline_on ? "  \u00b7  throughput and work against n"
                            : s->timeline && s->timeline->kernel[0]
                                ? "  \u00b7  a launch's tiles over time, as its blocks ran"
                                : "  \u00b7  a GPU run's look-back, tile by tile");
    else if (tr)
        snprintf(rest, len, "  \u00b7  n = %zu  \u00b7  %s  \u00b7  %s%s%s", tr->n,
                 sv_op_name(tr->op), sv_scan_name(tr->scan),
                 tr->type == SV_TYPE_FLOAT32 ? "  \u00b7  " : "",
                 tr->type == SV_TYPE_FLOAT32 ? sv_type_name(tr->type) : "");
    if (s->view != SV_VIEW_MEASURE && tr && s->kernel != SV_KERNEL_CORRECT) {
        size_t at = strlen(rest);
        if (at < len)
            snprintf(rest + at, len - at, "  \u00b7  kernel: %s",
                     sv_kernel_name((sv_kernel)s->kernel));
    }
}

void sv_words_short_source(const char *source, char *out, size_t len)
{
    /* "CUDA · NVIDIA H200 NVL" -> "CUDA · H200 NVL"; "CPU emulator: why" -> "CPU emulator". */
    const char *colon = strstr(source, "CPU emulator");
    if (colon == source) {
        snprintf(out, len, "CPU emulator");
        return;
    }
    const char *nv = strstr(source, "NVIDIA ");
    if (nv) {
        snprintf(out, len, "%.*s%s", (int)(nv - source), source, nv + 7);
    } else {
        snprintf(out, len, "%s", source);
    }
    /* drop a trailing " (file NAME)" or similar note */
    char *paren = strstr(out, " (");
    if (paren)
        *paren = '\0';
}
