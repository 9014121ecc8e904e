/* Everything of the scan view around the cells: the caption in plain words,
 * the legend, the counters, the timeline and key hints, the tooltip, the
 * input box, the transient status line and the help overlay. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "help.h"
#include "scene.h"

float sv_scene_fit_px(sv_gfx *g, sv_font font, float px, float max_w, const char *utf8)
{
    float w = sv_gfx_text_width(g, font, px, utf8);
    if (w <= max_w || w <= 0.0f)
        return px;
    /* Text is rasterised at whole pixel sizes: step down until it fits. */
    float fit = floorf(px * max_w / w);
    while (fit > 4.0f && sv_gfx_text_width(g, font, fit, utf8) > max_w)
        fit -= 1.0f;
    return fit;
}

static const char *op_noun(sv_op op)
{
    switch (op) {
    case SV_OP_SUM: return "sum";
    case SV_OP_MAX: return "maximum";
    case SV_OP_MIN: return "minimum";
    case SV_OP_PRODUCT: return "product";
    case SV_OP_XOR: return "xor";
    default: return "combination";
    }
}

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

static const char *row_name(int row);

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
            at += (size_t)snprintf(l2 + at, n2 - at, "%s%s[%zu] is wrong in %u of %u runs "
                                   "(you: %s)", shown ? " \u00b7 " : "", row_name(row), i,
                                   (unsigned)lc->wrong_runs, (unsigned)s->lab->runs,
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
    case SV_PHASE_GUARD:
        if (st >= n)
            st = n;
        snprintf(l1, n1, "Round %d, the guard if (i >= %lu): threads %lu–%lu take the "
                 "%s branch, threads 0–%lu the else (a copy).", v->round, st, st, n - 1,
                 t->op == SV_OP_SUM ? "add" : "combine", st - 1);
        snprintf(l2, n2, "Nothing is read or written yet: buf[%d] (pout) still holds what it "
                 "held before this round.", pout);
        break;
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
    if (v->last)
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

/* Splits utf8 at spaces into at most two lines that each fit max_w at px
 * (line 2 is cut with an ellipsis if even that is not enough). Returns the
 * number of lines. */
static int wrap2(sv_gfx *g, sv_font font, float px, float max_w, const char *utf8,
                 char out[2][512])
{
    out[0][0] = out[1][0] = '\0';
    if (sv_gfx_text_width(g, font, px, utf8) <= max_w) {
        snprintf(out[0], 512, "%s", utf8);
        return 1;
    }
    /* The longest head (cut at a space) that fits. */
    size_t len = strlen(utf8), cut = 0;
    char tmp[512];
    for (size_t i = 1; i < len && i < sizeof tmp; i++) {
        if (utf8[i] != ' ')
            continue;
        memcpy(tmp, utf8, i);
        tmp[i] = '\0';
        if (sv_gfx_text_width(g, font, px, tmp) > max_w)
            break;
        cut = i;
    }
    if (cut == 0) {
        sv_gfx_text_ellipsize(g, font, px, max_w, utf8, out[0], 512);
        return 1;
    }
    memcpy(out[0], utf8, cut);
    out[0][cut] = '\0';
    sv_gfx_text_ellipsize(g, font, px, max_w, utf8 + cut + 1, out[1], 512);
    return 2;
}

/* The mistakes lab: what happened in cell (row, i) as step v shows it, in
 * words: the emulator's record of the read that went wrong, or, for GPU
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
        sv_lab_cell_describe(s->lab_reads, t, (size_t)w, (size_t)cell, what, sizeof what);
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

static void draw_caption(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                         const sv_theme *t, const sv_step_view *v)
{
    char l1[512], l2[512];
    if (!quiz_caption(s, v, l1, sizeof l1, l2, sizeof l2)) {
        caption_text(s, v, l1, sizeof l1, l2, sizeof l2);
        if (s->caption && s->caption[0]) {
            /* A presenter script's caption replaces the round's own. */
            snprintf(l1, sizeof l1, "%s", s->caption);
            l2[0] = '\0';
        }
    }
    const sv_box *b = &l->caption;
    /* A mistake's hovered cell: the second line says what happened there. */
    int hr, hc;
    sv_rgba l2_col = t->text_dim;
    if (s->lab && sv_scene_tooltip_target(s, &hr, &hc) && lab_words(s, v, hr, hc, l2, sizeof l2))
        l2_col = t->error;
    /* The bold line wraps onto two lines at the full size before it
     * shrinks (never below 80%); the second line shrinks to fit. */
    char lines[2][512];
    float px = l->caption_px;
    int n = wrap2(g, SV_FONT_SANS_BOLD, px, b->w, l1, lines);
    while (n == 2 && px > 0.8f * l->caption_px &&
           sv_gfx_text_width(g, SV_FONT_SANS_BOLD, px, lines[1]) > b->w * 0.999f &&
           strstr(lines[1], "\u2026")) {
        px = floorf(px - 1.0f);
        n = wrap2(g, SV_FONT_SANS_BOLD, px, b->w, l1, lines);
    }
    float lh = l->caption_px * 1.22f, y = b->y + lh * 0.5f;
    for (int k = 0; k < n; k++, y += lh)
        sv_gfx_text(g, SV_FONT_SANS_BOLD, px, b->x, y, SV_ALIGN_LEFT, t->text, lines[k]);
    float y2 = y - lh * 0.5f + l->small_px * 0.75f;
    if (l2[0]) {
        float spx = sv_scene_fit_px(g, SV_FONT_SANS, l->small_px * 1.05f, b->w, l2);
        sv_gfx_text(g, SV_FONT_SANS, spx, b->x, y2, SV_ALIGN_LEFT, l2_col, l2);
        y2 += l->small_px * 1.5f;
    }
    /* n > 32: what runs in lockstep (the layout made room for the line). */
    size_t nt = s->trace->n;
    if (nt > SV_WARP) {
        char l3[300];
        size_t nw = (nt + SV_WARP - 1) / SV_WARP;
        snprintf(l3, sizeof l3, "Warps: the 32 threads of a warp (lanes 32k \u2026 32k+31) run "
                 "each statement in lockstep; the %zu warps run independently and meet only "
                 "at __syncthreads().", nw);
        float spx = sv_scene_fit_px(g, SV_FONT_SANS, l->small_px * 1.05f, b->w, l3);
        sv_gfx_text(g, SV_FONT_SANS, spx, b->x, y2, SV_ALIGN_LEFT, t->text_dim, l3);
    }
}

/* ---- legend and counters ---------------------------------------------- */

/* One legend entry at x (a swatch with the case's border style, then its
 * words), at unit u; only measured when draw is false. Returns the next x. */
static float legend_item(sv_gfx *g, const sv_layout *l, const sv_theme *t, float x, float cy,
                         sv_rgba fill, sv_rgba border, sv_border style, const char *glyph,
                         const char *words, float u, bool draw)
{
    sv_box sw = { x, cy - 1.3f * u, 3.8f * u, 2.6f * u };
    float px = floorf(l->small_px * u / l->text_u);
    if (draw) {
        sv_gfx_rect(g, sw, 0.5f * u, fill, border, fmaxf(1.0f, 0.36f * u), style);
        if (glyph)
            sv_gfx_text(g, SV_FONT_MONO, 1.8f * u, sw.x + sw.w / 2.0f, cy, SV_ALIGN_CENTER,
                        t->uninit, glyph);
    }
    x += sw.w + 0.9f * u;
    x += draw ? sv_gfx_text(g, SV_FONT_SANS, px, x, cy, SV_ALIGN_LEFT, t->text, words)
              : sv_gfx_text_width(g, SV_FONT_SANS, px, words);
    return x + 2.6f * u;
}

static float legend_items(sv_gfx *g, const sv_layout *l, const sv_theme *t, float cy,
                          bool show_window, bool lab, bool show_correct, float u, bool draw)
{
    float x = l->legend.x;
    x = legend_item(g, l, t, x, cy, sv_rgba_mix(t->cell_fill, t->full, t->tint), t->full,
                    SV_BORDER_SOLID, NULL, "full window (solid)", u, draw);
    x = legend_item(g, l, t, x, cy, sv_rgba_mix(t->cell_fill, t->partial, t->tint), t->partial,
                    SV_BORDER_DASHED, NULL, "partial window (dashed)", u, draw);
    x = legend_item(g, l, t, x, cy, sv_rgba_mix(t->cell_fill, t->copy, t->tint), t->copy,
                    SV_BORDER_DOTTED, NULL, "copy-through (dotted)", u, draw);
    x = legend_item(g, l, t, x, cy, sv_rgba_mix(t->cell_fill, t->bg, 0.55f),
                    sv_rgba_alpha(t->uninit, 0.7f), SV_BORDER_SOLID, "?", "uninitialized", u,
                    draw);
    if (show_window)
        x = legend_item(g, l, t, x, cy, sv_rgba_mix(t->cell_fill, t->window, 0.42f), t->window,
                        SV_BORDER_SOLID, NULL, "window on the input", u, draw);
    if (lab) {
        if (draw)
            sv_scene_hatch(g, (sv_box){ x, cy - 1.3f * u, 3.8f * u, 2.6f * u }, 0.9f * u,
                           fmaxf(1.0f, 0.2f * u), t->error);
        x = legend_item(g, l, t, x, cy, sv_rgba_alpha(t->error, 0.0f), t->error,
                        SV_BORDER_SOLID, NULL, show_correct ? "wrong in some run (\u2713 correct)"
                                                            : "wrong in some run (D: correct)",
                        u, draw);
    }
    return x - 2.6f * u - l->legend.x;
}

static void draw_legend(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                        bool show_window)
{
    /* u: the legend's unit, the small text's size / 2.5, shrunk to fit. */
    float cy = l->legend.y + l->legend.h / 2.0f, u = l->small_px / 2.5f;
    bool lab = s->lab != NULL;
    float w = legend_items(g, l, t, cy, show_window, lab, s->show_correct, u, false);
    if (w > l->legend.w)
        u *= l->legend.w / w;
    w = legend_items(g, l, t, cy, show_window, lab, s->show_correct, u, true);
    /* Too many cells for numbers: say how to get them, right of the legend. */
    if (l->num_px <= 0.0f) {
        const char *hint = "values: hover a cell, or zoom in (])";
        float avail = l->legend.w - w - 2.0f * u;
        float px = sv_scene_fit_px(g, SV_FONT_SANS, l->small_px, avail, hint);
        if (px >= 0.6f * l->small_px)
            sv_gfx_text(g, SV_FONT_SANS, px, l->legend.x + l->legend.w, cy, SV_ALIGN_RIGHT,
                        t->text_dim, hint);
    }
}

static void draw_counters(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                          const sv_theme *t, const sv_step_view *v)
{
    const sv_trace *tr = s->trace;
    size_t total = 0;
    for (int r = 1; r <= v->round; r++)
        total += tr->rounds[r].ops;
    size_t now = (v->round > 0 && !v->shift) ? v->rd->ops : 0;
    int depth_max = (int)tr->nrounds - 1;
    char line[256];
    snprintf(line, sizeof line,
             "ops this round %zu \u00b7 total %zu \u00b7 sequential n\u22121 = %zu \u00b7 "
             "depth %d of %d", now, total, tr->n - 1, v->round, depth_max);
    /* Overflow (int32 sum/product wrapped) or float32 rounding notes. */
    char note[256] = "";
    if (tr->type == SV_TYPE_INT32 && tr->overflow_count > 0) {
        size_t here = (v->round > 0 && !v->shift) ? v->rd->overflow_count : 0;
        snprintf(note, sizeof note, "\u25cf int32 overflow: %zu cell%s wrapped this round, "
                 "%zu in all", here, here == 1 ? "" : "s", tr->overflow_count);
    } else if (tr->type == SV_TYPE_FLOAT32 && tr->max_abs_diff > 0.0) {
        snprintf(note, sizeof note, "float32: differs from the sequential scan by up to %.3g "
                 "(at i = %zu): a different rounding order", tr->max_abs_diff, tr->max_diff_index);
    }
    if (s->lab && s->quiz && s->quiz_asking) {
        /* the outcome would answer the question */
        snprintf(note, sizeof note, "%s: the outcome shows after Reveal", s->lab_note);
    } else if (s->lab) {
        const sv_lab_summary *lab = s->lab;
        if (lab->wrong_runs == 0)
            snprintf(note, sizeof note, "%s: right in all %u run%s (by luck or by design)",
                     s->lab_note, (unsigned)lab->runs, lab->runs == 1 ? "" : "s");
        else
            snprintf(note, sizeof note, "%s: output wrong in %u of %u run%s \u00b7 %u distinct "
                     "\u00b7 first wrong round %d", s->lab_note, (unsigned)lab->wrong_runs,
                     (unsigned)lab->runs, lab->runs == 1 ? "" : "s",
                     (unsigned)lab->distinct_outputs, lab->first_wrong_round);
        /* racecheck, when the trace recorded it: a race is the code's, not a run's */
        const sv_racecheck *rc = tr->lab ? tr->lab->racecheck : NULL;
        size_t at = strlen(note);
        if (rc && rc->ran)
            snprintf(note + at, sizeof note - at, " \u00b7 racecheck %llu errors, %llu warnings",
                     (unsigned long long)rc->errors, (unsigned long long)rc->warnings);
        else if (rc)
            snprintf(note + at, sizeof note - at, " \u00b7 no racecheck");
    }
    float cy = l->counters.y + l->counters.h / 2.0f;
    float cpx = sv_scene_fit_px(g, SV_FONT_SANS, l->small_px,
                                note[0] ? l->counters.w * 0.55f : l->counters.w, line);
    float w = sv_gfx_text(g, SV_FONT_SANS, cpx, l->counters.x, cy, SV_ALIGN_LEFT, t->text_dim,
                          line);
    if (note[0]) {
        float avail = l->counters.w - w - 1.2f * l->small_px;
        float px = sv_scene_fit_px(g, SV_FONT_SANS, l->small_px, fmaxf(avail, 1.0f), note);
        sv_gfx_text(g, SV_FONT_SANS, px, l->counters.x + l->counters.w, cy, SV_ALIGN_RIGHT,
                    t->error, note);
    }
}

/* ---- timeline and key hints ------------------------------------------- */

static void draw_timeline(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                          const sv_theme *t)
{
    float u = l->small_px / 2.5f, y = l->timeline_y, r = l->timeline_r;
    int steps = l->steps, cur = s->step;
    sv_gfx_text(g, SV_FONT_SANS, l->small_px, l->timeline.x, y, SV_ALIGN_LEFT, t->text_dim,
                "round");
    if (steps > 1)
        sv_gfx_line(g, l->timeline_x[0], y, l->timeline_x[steps - 1], y,
                    fmaxf(1.0f, 0.25f * u), t->grid);
    bool excl = s->trace && s->trace->scan == SV_SCAN_EXCLUSIVE;
    for (int k = 0; k < steps; k++) {
        float x = l->timeline_x[k];
        if (k == cur) {
            sv_gfx_circle(g, x, y, r * 1.7f, t->bg, t->accent,
                          fmaxf(1.5f, 0.3f * u));
            sv_gfx_circle(g, x, y, r, t->text, t->text, 0.0f);
        } else if (k < cur) {
            sv_gfx_circle(g, x, y, r, t->text_dim, t->text_dim, 0.0f);
        } else {
            sv_gfx_circle(g, x, y, r, t->bg, t->text_dim, fmaxf(1.0f, 0.22f * u));
        }
        /* The mistakes lab: the first round in which any cell diverged. */
        if (s->lab && s->lab->first_wrong_round == k) {
            sv_gfx_circle(g, x, y, r * 2.4f, sv_rgba_alpha(t->error, 0.0f), t->error,
                          fmaxf(1.5f, 0.3f * u));
            sv_gfx_text(g, SV_FONT_SANS_BOLD, l->small_px * 0.85f, x, y - 2.6f * u,
                        SV_ALIGN_CENTER, t->error, "first wrong");
        }
        char lab[16];
        if (excl && k == steps - 1)
            snprintf(lab, sizeof lab, "shift");
        else
            snprintf(lab, sizeof lab, "%d", k);
        sv_gfx_text(g, k == cur ? SV_FONT_SANS_BOLD : SV_FONT_SANS, l->small_px * 0.85f, x,
                    y + 1.3f * l->small_px, SV_ALIGN_CENTER, k == cur ? t->text : t->text_dim,
                    lab);
    }
    const char *hint = s->playing
        ? "\u25c4 \u25ba step \u00b7 Space pause \u00b7 E edit \u00b7 H help"
        : "\u25c4 \u25ba step \u00b7 Space play \u00b7 E edit \u00b7 H help";
    if (s->clean) /* a slide: no key hints */
        return;
    char qhint[200];
    if (s->quiz) {
        /* The running score where the key hints were. */
        snprintf(qhint, sizeof qhint, "Predict (%s) \u00b7 score %d / %d \u00b7 %s \u00b7 "
                 "Q question \u00b7 P off", s->quiz_kind == SV_QUIZ_CASES ? "cases"
                 : s->quiz_kind == SV_QUIZ_OUTCOME ? "right or wrong" : "values",
                 s->quiz_right, s->quiz_total, s->quiz_asking ? "\u25ba reveal" : "\u25ba ask");
        hint = qhint;
    }
    float avail = l->timeline.w * 0.45f;
    float px = sv_scene_fit_px(g, SV_FONT_SANS, l->small_px, avail, hint);
    sv_gfx_text(g, SV_FONT_SANS, px, l->timeline.x + l->timeline.w, y, SV_ALIGN_RIGHT,
                t->text_dim, hint);
}

/* ---- tooltip ---------------------------------------------------------- */

#define TIP_LINES 5

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

/* GPU runs checked by racecheck: the hazards the sanitizer named on cell i
 * of buffer bi, and one of them in words (e.g. "WAR: thread 33 read, thread
 * 32 wrote, in_place.cu:39"). Appends to lines from n; returns the count. */
static int racecheck_lines(const sv_trace *t, int round, int bi, int i,
                           char lines[TIP_LINES][256], int n)
{
    const sv_racecheck *rc = t->lab ? t->lab->racecheck : NULL;
    if (!rc || !rc->ran || n > TIP_LINES - 2)
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

/* Fills up to TIP_LINES lines about cell (row, i) in step v; line 1 (the
 * formula) is mono. Returns the number of lines; *accent is the case colour
 * of line 2 when it names a case. */
static int tooltip_lines(const sv_app_view *s, const sv_theme *th, const sv_step_view *v,
                         int row, int i, char lines[TIP_LINES][256], sv_rgba *accent)
{
    const sv_trace *t = s->trace;
    char a[32], b[32], c[32], rng[64];
    int n = 0;
    *accent = th->text;
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
         * (a cell may have changed under the reader); the emulator's
         * record does. GPU runs record no reads. */
        if (!s->lab_reads) {
            snprintf(lines[n++], 256, "the reads of GPU runs are not recorded");
            return racecheck_lines(t, v->round, bi, i, lines, n);
        }
        for (int slot = 0; slot < SV_READ_SLOTS && n < TIP_LINES - 1; slot++) {
            if (sv_lab_read_describe(s->lab_reads, t->type, (size_t)v->round, (size_t)i,
                                     (sv_read_slot)slot, lines[n], 256))
                n++;
        }
        return n;
    }
    long st = (long)rd->stride;
    sv_case cs = rd->cases[i];
    *accent = cs == SV_CASE_FULL ? th->full : cs == SV_CASE_PARTIAL ? th->partial : th->copy;
    if (cs == SV_CASE_COPY) {
        fmt(t, rd->buf[rd->pin][i], b, sizeof b);
        snprintf(lines[n++], 256, "copied from pin[%d] = %s", i, b);
        snprintf(lines[n++], 256, "copy-through: i = %d < stride %ld, no left neighbour "
                 "at this stride", i, st);
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
            snprintf(lines[n++], 256, "partial: its window [%d, %d] reaches position 0",
                     lo, i);
        else
            snprintf(lines[n++], 256, "full: a whole window of 2^%d = %ld elements, [%d, %d]",
                     v->round, 2 * st, lo, i);
    }
    snprintf(lines[n++], 256, "holds the %s of %s", op_noun(t->op), rng);
    if (rd->overflow && rd->overflow[i])
        snprintf(lines[n++], 256, "int32 overflow: the %s wrapped around", op_noun(t->op));
    return n;
}

static void draw_tooltip(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                         const sv_theme *t, const sv_step_view *v, int fb_w, int fb_h)
{
    int row, i;
    if (!sv_scene_tooltip_target(s, &row, &i) || i < l->first_cell || i > l->last_cell)
        return;
    char lines[TIP_LINES][256];
    sv_rgba accent;
    int n = tooltip_lines(s, t, v, row, i, lines, &accent);
    /* A mistake: how often this cell was wrong, and the correct value. */
    const sv_lab_cell *lc = sv_scene_lab_cell(s, v, row, i, NULL);
    if (lc) {
        char cv[48];
        sv_value_format(s->trace->type, lc->correct, cv, sizeof cv);
        int k = n < TIP_LINES ? n++ : TIP_LINES - 1;
        if (lc->wrong_runs)
            snprintf(lines[k], 256, "wrong in %u of %u runs; the correct kernel has %s",
                     (unsigned)lc->wrong_runs, (unsigned)s->lab->runs, cv);
        else
            snprintf(lines[k], 256, "right in all %u runs (correct: %s)",
                     (unsigned)s->lab->runs, cv);
        accent = lc->wrong_runs ? t->error : accent;
    }
    float u = l->text_u, px = l->small_px, lh = px * 1.5f, pad = 1.4f * u;
    float w = 0.0f;
    for (int k = 0; k < n; k++) {
        sv_font f = k == 0 ? SV_FONT_SANS_BOLD : (k == 1 ? SV_FONT_MONO : SV_FONT_SANS);
        float tw = sv_gfx_text_width(g, f, px, lines[k]);
        if (tw > w) w = tw;
    }
    float bw = w + 2 * pad, bh = (float)n * lh + 2 * pad - (lh - px) ;
    bw = fminf(bw, (float)fb_w - 2 * l->margin);
    /* Off the row it explains, so that none of the row's cells is covered:
     * above the upper rows (input, buf[0]), below the lower ones (buf[1],
     * output), which keeps a pout cell's pin row in view either way; the
     * other side when that one has no room. Centred on the cell. */
    sv_box c = sv_layout_cell(l, row, i);
    float gap = 0.9f * u;
    float above = c.y - gap - bh, below = c.y + c.h + gap;
    bool up = row <= 1;
    if (up && above < l->margin)
        up = false;
    else if (!up && below + bh > (float)fb_h - l->margin && above >= l->margin)
        up = true;
    float y = up ? above : below;
    float x = c.x + c.w / 2.0f - bw / 2.0f;
    x = sv_clampf(x, l->margin, (float)fb_w - l->margin - bw);
    y = sv_clampf(y, l->margin, (float)fb_h - l->margin - bh);
    sv_gfx_rect(g, (sv_box){ x + 0.3f * u, y + 0.4f * u, bw, bh }, 1.2f * u,
                sv_rgba_alpha(t->bg, 0.5f), sv_rgba_alpha(t->bg, 0.0f), 0.0f, SV_BORDER_NONE);
    sv_gfx_rect(g, (sv_box){ x, y, bw, bh }, 1.2f * u, t->panel, accent,
                fmaxf(1.0f, 0.25f * u), SV_BORDER_SOLID);
    float ty = y + pad + px / 2.0f;
    for (int k = 0; k < n; k++) {
        sv_font f = k == 0 ? SV_FONT_SANS_BOLD : (k == 1 ? SV_FONT_MONO : SV_FONT_SANS);
        sv_rgba col = k == 0 ? t->text : (k == 2 ? sv_rgba_mix(t->text, accent, 0.6f) : t->text_dim);
        if (k == 1) col = t->text;
        float fpx = sv_scene_fit_px(g, f, px, bw - 2 * pad, lines[k]);
        sv_gfx_text(g, f, fpx, x + pad, ty, SV_ALIGN_LEFT, col, lines[k]);
        ty += lh;
    }
}

/* ---- input box -------------------------------------------------------- */

static size_t utf8_back(const char *s, size_t i)
{
    while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
        i--;
    return i;
}

static void draw_input_box(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                           const sv_theme *t)
{
    float u = l->unit;
    sv_box b = l->input_box;
    sv_gfx_rect(g, b, 1.4f * u, t->panel, t->pin_tag,
                fmaxf(1.0f, 0.3f * u), SV_BORDER_SOLID);
    float x = b.x + 1.8f * u, y = b.y + 2.2f * u;
    float w = sv_gfx_text(g, SV_FONT_SANS_BOLD, l->label_px, x, y, SV_ALIGN_LEFT, t->text,
                          "Input array");
    const char *how = "numbers separated by spaces or commas, as scanviz-trace takes them";
    float avail = b.w - 3.6f * u - w - 2.0f * u;
    sv_gfx_text(g, SV_FONT_SANS, sv_scene_fit_px(g, SV_FONT_SANS, l->small_px, avail, how),
                x + w + 2.0f * u, y, SV_ALIGN_LEFT, t->text_dim, how);

    /* The field: one line, scrolled so the cursor stays in view. */
    sv_box f = { x, y + 2.0f * u, b.w - 3.6f * u, 4.4f * u };
    bool bad = s->edit_error[0] != '\0';
    sv_gfx_rect(g, f, 0.8f * u, t->cell_fill, bad ? t->error : t->cell_border,
                fmaxf(1.0f, 0.25f * u), SV_BORDER_SOLID);
    float px = l->label_px * 1.05f, inner = f.w - 2.0f * u;
    const char *text = s->edit_text;
    size_t len = strnlen(text, SV_VIEW_TEXT_MAX - 1);
    size_t cur = s->edit_cursor > len ? len : s->edit_cursor;
    size_t start = 0;
    char tmp[SV_VIEW_TEXT_MAX];
    /* Move start right (by ~8 bytes at a time, then bytewise) until the text
     * before the cursor fits. */
    for (;;) {
        size_t k = cur - start;
        memcpy(tmp, text + start, k);
        tmp[k] = '\0';
        if (sv_gfx_text_width(g, SV_FONT_MONO, px, tmp) <= inner * 0.92f || start >= cur)
            break;
        size_t step = (cur - start) > 64 ? (cur - start) / 4 : 1;
        start = start + step;
        while (start < cur && ((unsigned char)text[start] & 0xC0) == 0x80)
            start++;
    }
    start = utf8_back(text, start);
    size_t shown = len - start;
    memcpy(tmp, text + start, shown);
    tmp[shown] = '\0';
    sv_box clip = { f.x + 0.5f * u, f.y, f.w - 1.0f * u, f.h };
    sv_gfx_clip(g, &clip);
    float tx = f.x + 1.0f * u, ty = f.y + f.h / 2.0f;
    if (s->edit_all && shown > 0) {
        /* The box opens with its text selected: typing replaces it. */
        float sw = sv_gfx_text_width(g, SV_FONT_MONO, px, tmp);
        sv_gfx_rect(g, (sv_box){ tx - 0.2f * u, f.y + 0.7f * u, sw + 0.4f * u, f.h - 1.4f * u },
                    0.3f * u, sv_rgba_alpha(t->pin_tag, 0.45f), t->pin_tag, 0.0f, SV_BORDER_NONE);
    }
    sv_gfx_text(g, SV_FONT_MONO, px, tx, ty, SV_ALIGN_LEFT, t->text, tmp);
    tmp[cur - start] = '\0';
    float cx = tx + sv_gfx_text_width(g, SV_FONT_MONO, px, tmp);
    sv_gfx_line(g, cx, f.y + 0.8f * u, cx, f.y + f.h - 0.8f * u, fmaxf(1.5f, 0.25f * u),
                t->accent);
    sv_gfx_clip(g, NULL);

    float ly = f.y + f.h + 1.9f * u;
    if (bad) {
        float epx = sv_scene_fit_px(g, SV_FONT_SANS_BOLD, l->small_px * 1.1f, f.w, s->edit_error);
        sv_gfx_text(g, SV_FONT_SANS_BOLD, epx, x, ly, SV_ALIGN_LEFT, t->error, s->edit_error);
        ly += 2.6f * u;
    }
    if (ly < b.y + b.h - 1.0f * u)
        sv_gfx_text(g, SV_FONT_SANS, sv_scene_fit_px(g, SV_FONT_SANS, l->small_px, f.w,
                                                     SV_EDIT_HINT),
                    x, ly, SV_ALIGN_LEFT, t->text_dim, SV_EDIT_HINT);
}

/* ---- status and help ---------------------------------------------------- */

static void draw_status(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    if (!s->status[0])
        return;
    float a = (s->status_time > 0.0f && s->status_time < 0.4f) ? s->status_time / 0.4f : 1.0f;
    float u = l->text_u, px = l->small_px;
    float w = sv_gfx_text_width(g, SV_FONT_SANS, px, s->status) + 3.0f * u;
    float cx = l->header.x + l->header.w / 2.0f, y = l->header.y + l->header.h + 1.4f * u;
    sv_gfx_rect(g, (sv_box){ cx - w / 2.0f, y - 1.6f * u, w, 3.2f * u }, 1.6f * u,
                sv_rgba_alpha(t->panel, 0.95f * a), sv_rgba_alpha(t->pin_tag, a),
                fmaxf(1.0f, 0.2f * u), SV_BORDER_SOLID);
    sv_gfx_text(g, SV_FONT_SANS, px, cx, y, SV_ALIGN_CENTER, sv_rgba_alpha(t->text, a), s->status);
}

static void draw_help(sv_gfx *g, const sv_layout *l, const sv_theme *t, int fb_w, int fb_h)
{
    float u = l->unit;
    /* The keys as the app binds them: keys.h's table, sv_help_keys[]. */
    size_t nk = 0;
    while (sv_help_keys[nk][0])
        nk++;
    sv_gfx_rect(g, (sv_box){ 0, 0, (float)fb_w, (float)fb_h }, 0.0f,
                sv_rgba_alpha(t->bg, 0.55f), sv_rgba_alpha(t->bg, 0.0f), 0.0f, SV_BORDER_NONE);
    float px = l->small_px * 1.1f, lh = px * 1.5f;
    float kw = 0.0f, dw = 0.0f;
    for (size_t i = 0; i < nk; i++) {
        float a = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, px, sv_help_keys[i][0]);
        float b = sv_gfx_text_width(g, SV_FONT_SANS, px, sv_help_what(i));
        if (a > kw) kw = a;
        if (b > dw) dw = b;
    }
    float pad = 3.0f * u;
    float bw = kw + dw + 3.0f * u + 2 * pad;
    float bh = 6.5f * u + (float)nk * lh + 4.0f * u + pad;
    /* Shrink everything when the window is small. */
    float k = fminf(1.0f, fminf(((float)fb_w - 2 * l->margin) / bw, ((float)fb_h - 2 * l->margin) / bh));
    px *= k; lh *= k; kw *= k; bw *= k; bh *= k; pad *= k;
    float x = ((float)fb_w - bw) / 2.0f, y = ((float)fb_h - bh) / 2.0f;
    sv_gfx_rect(g, (sv_box){ x, y, bw, bh }, 1.6f * u, sv_rgba_alpha(t->panel, t->overlay_alpha),
                t->grid, fmaxf(1.0f, 0.25f * u), SV_BORDER_SOLID);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, l->title_px * k, x + pad, y + pad + 1.2f * u * k,
                SV_ALIGN_LEFT, t->text, "Keys");
    float ty = y + pad + 5.0f * u * k;
    for (size_t i = 0; i < nk; i++) {
        sv_gfx_text(g, SV_FONT_SANS_BOLD, px, x + pad + kw, ty, SV_ALIGN_RIGHT, t->accent,
                    sv_help_keys[i][0]);
        sv_gfx_text(g, SV_FONT_SANS, px, x + pad + kw + 3.0f * u * k, ty, SV_ALIGN_LEFT, t->text,
                    sv_help_what(i));
        ty += lh;
    }
    sv_gfx_text(g, SV_FONT_SANS, px * 0.95f, x + bw / 2.0f, y + bh - pad * 0.9f, SV_ALIGN_CENTER,
                t->text_dim, "H, ? or Esc closes this help");
}

void sv_render_overlay(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    int fb_w = l->fb_w, fb_h = l->fb_h;
    sv_step_view v;
    bool have = sv_scene_step(s, s->step, &v);
    if (s->view == SV_VIEW_SCAN && have && s->overview) {
        /* The overview: the legend, the whole run's counters, a script's
         * caption if any; no timeline or tooltip (every round is shown). */
        if (s->caption && s->caption[0])
            draw_caption(g, s, l, t, &v);
        draw_legend(g, s, l, t, false);
        const sv_trace *tr = s->trace;
        size_t total = 0;
        for (size_t r = 1; r < tr->nrounds; r++)
            total += tr->rounds[r].ops;
        char line[160];
        snprintf(line, sizeof line, "%zu ops in %zu rounds (depth %zu) \u00b7 sequential "
                 "n\u22121 = %zu", total, tr->nrounds - 1, tr->nrounds - 1, tr->n - 1);
        sv_gfx_text(g, SV_FONT_SANS, sv_scene_fit_px(g, SV_FONT_SANS, l->small_px,
                                                     l->counters.w, line),
                    l->counters.x, l->counters.y + l->counters.h / 2.0f, SV_ALIGN_LEFT,
                    t->text_dim, line);
        if (!s->clean)
            sv_gfx_text(g, SV_FONT_SANS, l->small_px, l->timeline.x + l->timeline.w,
                        l->timeline_y, SV_ALIGN_RIGHT, t->text_dim,
                        "V back to the rounds \u00b7 H help");
    } else if (s->view == SV_VIEW_SCAN && have) {
        draw_caption(g, s, l, t, &v);
        int row, cell;
        draw_legend(g, s, l, t, sv_scene_tooltip_target(s, &row, &cell) &&
                                    !sv_scene_hidden(s, &v, row));
        draw_counters(g, s, l, t, &v);
        draw_timeline(g, s, l, t);
        if (!s->editing && !s->help)
            draw_tooltip(g, s, l, t, &v, fb_w, fb_h);
    }
    if (s->editing)
        draw_input_box(g, s, l, t);
    draw_status(g, s, l, t);
    if (s->help)
        draw_help(g, l, t, fb_w, fb_h);
}
