/* The Hillis-Steele pane's drawing (pane.h): the four rows of cells, their
 * labels and pin/pout tags, the current round's arrows, the values moving
 * along them while a step animates, and the window of the cell under the
 * tooltip on the input row (two tones: its operands' two windows). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "font_metrics.h"
#include "scene.h"
#include "words.h"

static sv_rgba case_colour(const sv_theme *t, sv_case c)
{
    return c == SV_CASE_FULL ? t->full : c == SV_CASE_PARTIAL ? t->partial : t->copy;
}

static sv_border case_border(sv_case c)
{
    return c == SV_CASE_FULL ? SV_BORDER_SOLID
         : c == SV_CASE_PARTIAL ? SV_BORDER_DASHED : SV_BORDER_DOTTED;
}

static void draw_labels(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                        const sv_theme *t, const sv_step_view *v)
{
    static const char *names[4] = { "input", "buf[0]", "buf[1]", "output" };
    static const char *subs[4] = { "global memory", "shared memory", "shared memory",
                                   "global memory" };
    float x = l->label_col.x;
    for (int r = 0; r < 4; r++) {
        float y = l->row_y[r];
        sv_gfx_text(g, SV_FONT_SANS_BOLD, l->row_label_px, x, y - l->row_label_dy,
                    SV_ALIGN_LEFT, t->text, names[r]);
        sv_gfx_text(g, SV_FONT_SANS, l->row_sub_px, x, y + l->row_sub_dy,
                    SV_ALIGN_LEFT, t->text_dim, subs[r]);
    }
    /* The swap phase shows the next round's roles: the tags trade places. */
    bool swap = s->phase == SV_PHASE_SWAP;
    if (!v || (v->round == 0 && !swap) || v->shift)
        return;
    int pout = v->round == 0 ? 0 : v->rd->pout;
    if (v->round > 0 && v->rd->pin == v->rd->pout) {
        /* One buffer (an in-place mistake): pin and pout are the same. */
        sv_box tb = l->tag[1 + pout];
        float room = l->cells_clip.x - tb.x - 0.4f * l->unit;
        /* as wide as the word at the tag's size needs, where the column has it */
        float need = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, l->tag_px, "pin=pout") + tb.h * 0.5f;
        tb.w = fmaxf(tb.w, fminf(need, room));
        sv_gfx_rect(g, tb, tb.h / 2.0f, t->error, t->error, 0.0f, SV_BORDER_NONE);
        float px = sv_scene_fit_px(g, SV_FONT_SANS_BOLD, l->tag_px, tb.w - tb.h * 0.5f,
                                   "pin=pout");
        sv_gfx_text(g, SV_FONT_SANS_BOLD, px, tb.x + tb.w / 2.0f, tb.y + tb.h / 2.0f,
                    SV_ALIGN_CENTER, t->tag_text, "pin=pout");
        return;
    }
    if (swap)
        pout = 1 - pout;
    for (int b = 0; b < 2; b++) {
        bool is_pin = b != pout;
        const sv_box *tb = &l->tag[1 + b];
        sv_gfx_rect(g, *tb, tb->h / 2.0f, is_pin ? t->pin_tag : t->pout_tag,
                    is_pin ? t->pin_tag : t->pout_tag, 0.0f, SV_BORDER_NONE);
        sv_gfx_text(g, SV_FONT_SANS_BOLD, l->tag_px, tb->x + tb->w / 2.0f,
                    tb->y + tb->h / 2.0f, SV_ALIGN_CENTER, t->tag_text,
                    is_pin ? "pin" : "pout");
    }
}

/* How a cell is styled in a step. */
typedef struct cell_style {
    sv_rgba fill, border, text;
    sv_border style;
    float border_w;
    bool placeholder;   /* empty output slot */
} cell_style;

/* The input cells of the tooltip's window, [lo, hi]; hi < lo when none. */
static void window_range(const sv_app_view *s, const sv_step_view *v, int *lo, int *hi)
{
    int row, cell;
    *lo = 0;
    *hi = -1;
    if (!sv_scene_tooltip_target(s, &row, &cell) || sv_scene_hidden(s, v, row) ||
        !sv_scene_window(s, v, row, cell, lo))
        return;
    *hi = cell;
    if (row == 3 && s->trace->scan == SV_SCAN_EXCLUSIVE)
        *hi = cell - 1;
}

/* A pout cell that combines under the tooltip: the first input cell of its
 * right operand's window (pin[i] holds input[split .. i], pin[i-s] the
 * cells before), so the window shows in two tones; -1 otherwise. */
static int window_split(const sv_app_view *s, const sv_step_view *v)
{
    int row, cell;
    if (!sv_scene_tooltip_target(s, &row, &cell) || sv_scene_hidden(s, v, row) ||
        v->round == 0 || v->shift || row != 1 + v->rd->pout || !v->rd->cases ||
        v->rd->cases[cell] == SV_CASE_COPY)
        return -1;
    int left_lo, right_lo;
    sv_scene_operand_windows(v, cell, &left_lo, &right_lo);
    return right_lo;
}

/* The shown run's first broken cell (sv_scene_lab_first_broken), asked for
 * every cell: worked out once per frame for the frame's step. */
static struct {
    const sv_round *rd;
    const sv_lab_summary *lab;
    int round, value;
} frame_broken_;

static int lab_first_broken(const sv_app_view *s, const sv_step_view *v)
{
    if (frame_broken_.rd == v->rd && frame_broken_.lab == s->lab &&
        frame_broken_.round == v->round)
        return frame_broken_.value;
    return sv_scene_lab_first_broken(s, v);
}

static cell_style style_of(const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                           const sv_step_view *v, int row, int i, bool has_value)
{
    cell_style c;
    c.fill = t->cell_fill;
    c.border = t->cell_border;
    c.text = t->cell_text;
    c.style = SV_BORDER_SOLID;
    c.border_w = fmaxf(1.0f, l->border_w * 0.55f);
    c.placeholder = false;
    bool narrow = l->cell_w < 5.0f;
    /* The guard phase colours pout by branch even where it holds nothing
     * yet (round 1's pout was never written): the branch is the thread's. */
    bool guard_pout = s->phase == SV_PHASE_GUARD && v->round > 0 && !v->shift &&
                      row - 1 == v->rd->pout;
    if (sv_scene_hidden(s, v, row)) {
        /* A question: no case shows, except the one the class marked. */
        int mark = s->quiz_kind == SV_QUIZ_CASES && s->quiz_mark ? s->quiz_mark[i] : 0;
        if (mark) {
            sv_case cs = (sv_case)(mark - 1);
            c.fill = sv_rgba_mix(t->cell_fill, case_colour(t, cs), narrow ? 0.85f : t->tint);
            c.border = case_colour(t, cs);
            c.style = case_border(cs);
            c.border_w = l->border_w;
        }
    } else if (((row == 1 || row == 2) && !has_value && !guard_pout) ||
               (row == 3 && !has_value && sv_scene_unknown(s, v, row, i))) {
        c.fill = sv_rgba_mix(t->cell_fill, t->bg, 0.55f);
        c.border = sv_rgba_alpha(t->uninit, 0.7f);
        c.text = t->uninit;
    } else if (row == 3 && !has_value) {
        c.fill = sv_rgba_alpha(t->cell_fill, 0.0f);
        c.border = sv_rgba_alpha(t->cell_border, 0.45f);
        c.placeholder = true;
    } else if ((row == 1 || row == 2) && v->round > 0 && !v->shift &&
               row - 1 == v->rd->pout && v->rd->cases && s->lab &&
               lab_first_broken(s, v) >= 0 && i >= lab_first_broken(s, v)) {
        /* A mistake's shown run broke the invariant here: the first broken
         * cell in the error colour, the cells after it without a case (the
         * chapter's rules do not say what they hold). */
        if (i == lab_first_broken(s, v)) {
            c.border = t->error;
            c.fill = sv_rgba_mix(t->cell_fill, t->error, narrow ? 0.8f : 0.12f);
            c.border_w = fminf(l->border_w * 1.4f * t->line_scale,
                               0.2f * fminf(l->cell_w, l->cell_h));
        } else {
            c.border = t->text_dim;
        }
    } else if ((row == 1 || row == 2) && v->round > 0 && !v->shift &&
               row - 1 == v->rd->pout && v->rd->cases) {
        sv_case cs = v->rd->cases[i];
        sv_rgba cc = case_colour(t, cs);
        c.fill = sv_rgba_mix(t->cell_fill, cc, narrow ? 0.85f : t->tint);
        c.border = cc;
        c.style = case_border(cs);
        c.border_w = fminf(l->border_w * t->line_scale, 0.2f * fminf(l->cell_w, l->cell_h));
    } else if (row == 3) {
        c.border = t->text_dim;
    } else if (row == 0) {
        int lo, hi;
        window_range(s, v, &lo, &hi);
        if (i >= lo && i <= hi) {
            /* Two operands' windows: pin[i-s]'s deeper and solid, pin[i]'s
             * in the window's usual tone, dashed. */
            int split = window_split(s, v);
            bool right = split >= 0 && i >= split, left = split >= 0 && i < split;
            c.fill = sv_rgba_mix(t->cell_fill, t->window,
                                 narrow ? (right ? 0.6f : 0.8f) : (left ? 0.65f : 0.42f));
            c.border = t->window;
            c.style = right ? SV_BORDER_DASHED : SV_BORDER_SOLID;
            c.border_w = fmaxf(1.5f, l->border_w * 1.1f);
        }
    }
    /* The mistakes lab: a cell wrong in some run takes the error colour
     * (the hatch, drawn over the fill, carries it without colour). */
    const sv_lab_cell *lc = has_value || row == 1 || row == 2
                                ? sv_scene_lab_cell(s, v, row, i, NULL) : NULL;
    if (lc && lc->wrong_runs > 0) {
        /* a neutral fill (not the case's tint), so the hatch stands out */
        c.fill = sv_rgba_mix(t->cell_fill, t->error, narrow ? 0.8f : 0.12f);
        c.border = t->error;
    }
    /* The shown run's first broken cell and those after it carry no case's
     * style (a full window's solid border would claim its window). */
    if (s->lab && (row == 1 || row == 2) && v->round > 0 && !v->shift &&
        row - 1 == v->rd->pout && lab_first_broken(s, v) >= 0 &&
        i >= lab_first_broken(s, v))
        c.style = SV_BORDER_SOLID;
    if (narrow) {
        c.style = SV_BORDER_NONE;
        c.border_w = 0.0f;
    }
    return c;
}

/* A divergent cell: the hatch, "wrong/runs" in its corner, and with D the
 * correct kernel's value at its foot. */
static void draw_lab_cell(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                          const sv_theme *t, const sv_step_view *v, int row, int i, sv_box b)
{
    const sv_lab_cell *lc = sv_scene_lab_cell(s, v, row, i, NULL);
    if (!lc)
        return;
    float u = l->unit;
    if (lc->wrong_runs > 0 && b.w >= 6.0f) {
        sv_scene_hatch(g, b, fmaxf(4.0f, fminf(b.w, b.h) * 0.16f), fmaxf(1.0f, 0.2f * u),
                   sv_rgba_alpha(t->error, 0.7f));
        /* never below the legible size: shortened to the wrong runs alone
         * where "15/100" does not fit, left out where that does not either */
        float px = fmaxf(floorf(fminf(l->small_px * 0.85f, b.h * 0.2f)), l->legible_px);
        char cnt[32];
        snprintf(cnt, sizeof cnt, "%u/%u", (unsigned)lc->wrong_runs, (unsigned)s->lab->runs);
        /* a corner badge: at most half the cell's width and a third of its
         * height, so that the value stays readable beside it */
        if (sv_gfx_text_width(g, SV_FONT_MONO, px, cnt) >= b.w * 0.5f)
            snprintf(cnt, sizeof cnt, "%u", (unsigned)lc->wrong_runs);
        if (sv_gfx_text_width(g, SV_FONT_MONO, px, cnt) < b.w * 0.5f && px * 1.2f < b.h / 3.0f) {
            float tw = sv_gfx_text_width(g, SV_FONT_MONO, px, cnt);
            sv_box tag = { b.x + b.w - tw - 0.5f * px - l->border_w, b.y + l->border_w,
                           tw + 0.4f * px, px * 1.2f };
            sv_gfx_rect(g, tag, px * 0.3f, t->error, t->error, 0.0f, SV_BORDER_NONE);
            sv_gfx_text(g, SV_FONT_MONO, px, tag.x + tag.w / 2.0f, tag.y + tag.h / 2.0f,
                        SV_ALIGN_CENTER, t->tag_text, cnt);
        }
    }
    if (s->show_correct && l->num_px > 0.0f) {
        float px = fmaxf(floorf(fminf(l->num_px * 0.55f, b.h * 0.22f)), l->legible_px);
        char val[48], buf[64];
        sv_value_format(s->trace->type, lc->correct, val, sizeof val);
        snprintf(buf, sizeof buf, "\u2713%s", val);
        if (sv_gfx_text_width(g, SV_FONT_MONO, px, buf) < b.w * 0.95f)
            sv_gfx_text(g, SV_FONT_MONO, px, b.x + b.w / 2.0f, b.y + b.h - px * 0.8f,
                        SV_ALIGN_CENTER, lc->wrong_runs ? t->accent : t->text_dim, buf);
    }
}

static void draw_number(sv_gfx *g, const sv_layout *l, sv_type type, sv_box b,
                        sv_value val, sv_rgba col)
{
    if (l->num_px <= 0.0f || col.a <= 0.01f)
        return;
    char buf[48];
    /* A float32 shows the digits of the shortest decimal that reads back to
     * the same bits (never rounded further: 100000008 is not shown as 1e+08
     * while the caption says it differs by 8), in the trace's one notation
     * (l->num_style: positional unless some value needs an exponent). */
    sv_value_format_as(type, val, l->num_style, buf, sizeof buf);
    /* Longer than the common size allows: this number alone gets smaller
     * (a mono advance each, font_metrics.h), down to legibility; below that
     * the cell shows none and the tooltip gives it. */
    float px = l->num_px, chars = (float)strlen(buf);
    float fit = b.w * 0.92f / sv_mono_width(1.0f, chars);
    if (fit < px) {
        if (fit < 6.0f)
            return;
        px = floorf(fit);
    }
    sv_gfx_text(g, SV_FONT_MONO, px, b.x + b.w / 2.0f, b.y + b.h / 2.0f,
                SV_ALIGN_CENTER, col, buf);
}

/* Arrow geometry of the current step: from a source cell's facing edge to a
 * destination cell's facing edge, offset sideways by dx_src / dx_dst. */
typedef struct arrow_geo {
    float x0, y0, x1, y1;
} arrow_geo;

static arrow_geo arrow_between(const sv_layout *l, int src_row, int j, int dst_row, int i,
                               float dx_src, float dx_dst)
{
    arrow_geo a;
    float dir = dst_row > src_row ? 1.0f : -1.0f;
    float pad = l->cell_h * 0.06f;
    sv_box sb = sv_layout_cell(l, src_row, j), db = sv_layout_cell(l, dst_row, i);
    a.x0 = sb.x + sb.w / 2.0f + dx_src * sb.w;
    a.y0 = l->row_y[src_row] + dir * (l->cell_h / 2.0f + pad);
    a.x1 = db.x + db.w / 2.0f + dx_dst * db.w;
    a.y1 = l->row_y[dst_row] - dir * (l->cell_h / 2.0f + pad);
    return a;
}

/* One arrow of the step: its source cell (row, j), its destination (row, i),
 * and whether it is the diagonal one (from pin[i-s]). */
typedef struct step_arrow {
    int src_row, j, dst_row, i;
    bool diagonal;
    bool stub;  /* the source is out of view (left): drawn as a short arrow in */
} step_arrow;

/* Calls fn for each arrow of step v whose destination or source is near the
 * view. Round 0: input -> buf[0]. Round r: pin[i] -> pout[i] and
 * pin[i-s] -> pout[i]. Shift: final[i-1] -> output[i]. */
typedef void (*arrow_fn)(void *ctx, const step_arrow *a);
static int operands_of(const sv_app_view *s, const sv_step_view *v, int n, int i,
                       step_arrow out[2]);

static void each_arrow(const sv_app_view *s, const sv_layout *l, const sv_step_view *v,
                       arrow_fn fn, void *ctx)
{
    int n = l->n;
    if (n <= 0 || l->last_cell < l->first_cell)
        return;
    /* Phases that neither read nor write draw no arrows; the copy back of
     * an inclusive scan goes straight down from the last pout. */
    if (s->phase == SV_PHASE_GUARD || s->phase == SV_PHASE_BARRIER ||
        s->phase == SV_PHASE_SWAP)
        return;
    /* One buffer: reads and writes are the same row; the caption and the
     * hover say what each thread read. */
    if (v->round > 0 && !v->shift && v->rd->pin == v->rd->pout &&
        s->phase != SV_PHASE_COPY_BACK)
        return;
    if (s->phase == SV_PHASE_COPY_BACK && !v->shift) {
        int fr = 1 + (v->round == 0 ? 0 : v->rd->pout);
        for (int i = l->first_cell; i <= l->last_cell; i++) {
            step_arrow a = { fr, i, 3, i, false, false };
            fn(ctx, &a);
        }
        return;
    }
    if (v->shift) {
        int fr = 1 + (v->rd->pout >= 0 ? v->rd->pout : 0);
        int hi = l->last_cell + 1 < n - 1 ? l->last_cell + 1 : n - 1;
        for (int i = l->first_cell > 1 ? l->first_cell : 1; i <= hi; i++) {
            step_arrow a = { fr, i - 1, 3, i, true, false };
            fn(ctx, &a);
        }
        return;
    }
    if (v->round == 0) {
        for (int i = l->first_cell; i <= l->last_cell; i++) {
            step_arrow a = { 0, i, 1, i, false, false };
            fn(ctx, &a);
        }
        return;
    }
    /* Only arrows into cells in view; one whose source is out of view comes
     * in as a short stub, so long strides when zoomed in do not paint a band
     * of near-horizontal lines. */
    int pr = 1 + v->rd->pin, qr = 1 + v->rd->pout;
    long stride = (long)v->rd->stride;
    if (s->lab) {
        /* A mistake: the arrows of the reads its threads made (none known:
         * a GPU run, no operand arrows). */
        for (int i = l->first_cell; i <= l->last_cell; i++) {
            step_arrow ops[2];
            int k = operands_of(s, v, n, i, ops);
            for (int j = 0; j < k; j++)
                fn(ctx, &ops[j]);
        }
        return;
    }
    for (long i = l->first_cell; i <= l->last_cell; i++) {
        step_arrow a = { pr, (int)i, qr, (int)i, false, false };
        fn(ctx, &a);
        if (i >= stride) {
            step_arrow d = { pr, (int)(i - stride), qr, (int)i, true,
                             i - stride < l->first_cell };
            fn(ctx, &d);
        }
    }
}

typedef struct arrow_ctx {
    sv_gfx *g;
    const sv_app_view *s;
    const sv_layout *l;
    const sv_theme *t;
    const sv_step_view *v;
    float width, head, alpha, e;
    bool tokens;
    int focus;     /* the pout cell under the tooltip: its arrows stand out; -1 none */
    bool neutral;  /* a question is open: no case colours ... */
    bool no_diag;  /* ... and, when it asks for the cases, no diagonal arrows */
} arrow_ctx;

static float arrow_dx(const step_arrow *a, bool src, const sv_step_view *v)
{
    if ((v->round == 0 && !v->shift) || (a->dst_row == 3 && !v->shift))
        return 0.0f;
    if (v->shift)
        return src ? 0.12f : -0.12f;
    if (!a->diagonal && v->rd->cases && v->rd->cases[a->i] == SV_CASE_COPY)
        return 0.0f;
    return a->diagonal ? (src ? 0.16f : -0.16f) : 0.16f;
}

static sv_rgba arrow_colour(const arrow_ctx *c, const step_arrow *a)
{
    sv_rgba col = c->t->arrow;
    if (a->diagonal && !c->v->shift && c->v->rd->cases && !c->neutral)
        col = case_colour(c->t, c->v->rd->cases[a->i]);
    return sv_rgba_alpha(col, c->alpha);
}

static void draw_one_arrow(void *ctx, const step_arrow *a)
{
    arrow_ctx *c = ctx;
    if (c->no_diag && a->diagonal)
        return;
    arrow_geo geo = arrow_between(c->l, a->src_row, a->j, a->dst_row, a->i,
                                  arrow_dx(a, true, c->v), arrow_dx(a, false, c->v));
    sv_rgba col = arrow_colour(c, a);
    float w = c->width, head = c->head;
    if (a->stub) {
        geo.x0 = geo.x1 - 1.6f * c->l->cell_pitch;
        col.a *= 0.6f;
    }
    if (c->focus >= 0) {
        if (a->i == c->focus) {
            col.a = 1.0f;
            w *= 1.8f;
            head *= 1.4f;
        } else {
            col.a *= 0.3f;
        }
    }
    sv_gfx_arrow(c->g, geo.x0, geo.y0, geo.x1, geo.y1, w, head, col);
}

/* ---- the move: operands travel together into pout[i] -------------------
 * Under the hood: the move of step v is drawn per destination cell i, not
 * per arrow, so the two operands of one cell read as a pair:
 * (a is the move's linear progress, s->anim, so that each phase gets its
 * share of the time whatever the easing; travel is eased within its phase)
 *   a in [0, 0.45]     pin[i-s] and pin[i] (the shift: final[i-1]; round 0:
 *                      input[i]) travel along their arrows to pout[i]'s edge,
 *                      each in its arrow's colour; pin[i] leaves a little
 *                      after pin[i-s], so the two copies of one pin value
 *                      (to pout[i] and pout[i+s]) never sit side by side;
 *   a in [0.45, 0.52]  they meet there and fade into one pill that shows
 *                      the operation, "4 + 7" (copy-through: the value);
 *   a in [0.52, 0.92]  the pill sits on pout[i]'s edge while its old value,
 *                      still drawn (the render loop), is overwritten: the
 *                      new value fades in from 0.84. */
#define MOVE_TRAVEL 0.45f
#define MOVE_MEET 0.52f
#define MOVE_END 0.92f
#define MOVE_NEW 0.84f
#define MOVE_LAG 0.1f

static void token_pill(arrow_ctx *c, float x, float y, float px, const char *text,
                       sv_rgba edge, float alpha)
{
    if (alpha <= 0.01f)
        return;
    float w = sv_gfx_text_width(c->g, SV_FONT_MONO, px, text) + px * 0.8f;
    float h = px * 1.4f;
    edge.a = alpha;
    sv_gfx_rect(c->g, (sv_box){ x - w / 2.0f, y - h / 2.0f, w, h }, h / 2.0f,
                sv_rgba_alpha(c->t->panel, alpha), edge, fmaxf(1.0f, c->l->unit * 0.22f),
                SV_BORDER_SOLID);
    sv_gfx_text(c->g, SV_FONT_MONO, px, x, y, SV_ALIGN_CENTER,
                sv_rgba_alpha(c->t->cell_text, alpha), text);
}

/* The operands of destination i in step v: up to two arrows, the diagonal
 * (pin[i-s]: the left operand) first. */
static int operands_of(const sv_app_view *s, const sv_step_view *v, int n, int i,
                       step_arrow out[2])
{
    if (v->shift) {
        if (i < 1 || i >= n)
            return 0;
        int fr = 1 + (v->rd->pout >= 0 ? v->rd->pout : 0);
        out[0] = (step_arrow){ fr, i - 1, 3, i, true, false };
        return 1;
    }
    if (v->round == 0) {
        out[0] = (step_arrow){ 0, i, 1, i, false, false };
        return 1;
    }
    int pr = 1 + v->rd->pin, qr = 1 + v->rd->pout, k = 0;
    long stride = (long)v->rd->stride;
    if (s->lab) { /* a mistake: what the thread read, where it read it */
        const sv_lab_read *a = sv_scene_lab_read(s, v, i, SV_READ_LEFT);
        const sv_lab_read *b = sv_scene_lab_read(s, v, i, SV_READ_SELF);
        if (a && !a->out_of_range)
            out[k++] = (step_arrow){ 1 + a->buf, (int)a->cell, qr, i, true, false };
        if (b && !b->out_of_range)
            out[k++] = (step_arrow){ 1 + b->buf, (int)b->cell, qr, i, false, false };
        return k;
    }
    if ((long)i >= stride)
        out[k++] = (step_arrow){ pr, (int)(i - stride), qr, i, true, false };
    out[k++] = (step_arrow){ pr, i, qr, i, false, false };
    return k;
}

static void draw_operands(arrow_ctx *c)
{
    const sv_layout *l = c->l;
    const sv_app_view *s = c->s;
    sv_step_view pv;
    if (!sv_scene_step(s, s->from_step, &pv))
        return;
    float e = c->e;
    float px = fmaxf(9.0f, floorf(l->num_px * 0.62f));
    for (int i = l->first_cell; i <= l->last_cell; i++) {
        step_arrow ops[2];
        int k = operands_of(s, c->v, l->n, i, ops);
        if (k == 0)
            continue;
        char txt[2][48];
        sv_value val[2];
        bool ok = true;
        for (int j = 0; j < k; j++) {
            const sv_lab_read *rd = sv_scene_lab_read(s, c->v, i, ops[j].diagonal ? SV_READ_LEFT
                                                                                 : SV_READ_SELF);
            if (rd && rd->known)
                val[j] = rd->value; /* what the thread saw, not what the cell holds now */
            else
                ok = ok && sv_scene_value(s, &pv, ops[j].src_row, ops[j].j, &val[j]);
            if (ok)
                sv_value_format(s->trace->type, val[j], txt[j], sizeof txt[j]);
        }
        if (!ok)
            continue;
        arrow_geo geo[2];
        for (int j = 0; j < k; j++)
            geo[j] = arrow_between(l, ops[j].src_row, ops[j].j, ops[j].dst_row, ops[j].i,
                                   arrow_dx(&ops[j], true, c->v), arrow_dx(&ops[j], false, c->v));
        if (e < MOVE_MEET) {
            float fade = e > MOVE_TRAVEL ? 1.0f - (e - MOVE_TRAVEL) / (MOVE_MEET - MOVE_TRAVEL)
                                         : 1.0f;
            for (int j = 0; j < k; j++) {
                /* the straight-down operand of a pair leaves later */
                float lag = (k == 2 && j == 1) ? MOVE_LAG : 0.0f;
                if (e < lag)
                    continue;
                float f = sv_scene_ease(fminf((e - lag) / (MOVE_TRAVEL - lag), 1.0f));
                float x = geo[j].x0 + (geo[j].x1 - geo[j].x0) * f;
                float y = geo[j].y0 + (geo[j].y1 - geo[j].y0) * f;
                token_pill(c, x, y, px, txt[j], arrow_colour(c, &ops[j]), fade);
            }
        }
        if (e >= MOVE_TRAVEL && e < MOVE_END) {
            /* The pair, combined, at pout[i]'s edge. */
            char pair[112];
            if (k == 1)
                snprintf(pair, sizeof pair, "%s", txt[0]);
            else if (s->trace->op == SV_OP_MAX || s->trace->op == SV_OP_MIN)
                snprintf(pair, sizeof pair, "%s(%s, %s)", sv_op_symbol(s->trace->op), txt[0],
                         txt[1]);
            else
                snprintf(pair, sizeof pair, "%s %s %s", txt[0], sv_op_symbol(s->trace->op),
                         txt[1]);
            float in = sv_clampf((e - MOVE_TRAVEL) / (MOVE_MEET - MOVE_TRAVEL), 0.0f, 1.0f);
            float out = sv_clampf((MOVE_END - e) / (MOVE_END - MOVE_NEW), 0.0f, 1.0f);
            float ppx = sv_scene_fit_px(c->g, SV_FONT_MONO, px, l->cell_pitch * 0.96f - px * 0.8f,
                                        pair);
            if (ppx < 7.0f)
                continue;
            const step_arrow *main = &ops[k - 1];
            float x = geo[k - 1].x1 - arrow_dx(main, false, c->v) * l->cell_w;
            token_pill(c, x, geo[k - 1].y1, ppx, pair, arrow_colour(c, &ops[0]),
                       fminf(in, out));
        }
    }
}

/* The destination row of step v: where values arrive. -1 for none. */
static int dest_row(const sv_step_view *v)
{
    if (v->shift)
        return 3;
    if (v->round == 0)
        return 1;
    return 1 + v->rd->pout;
}

/* The window's cells are styled in style_of(); this draws the bracket and
 * its label under the input row. */
static void draw_window(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                        const sv_theme *t, const sv_step_view *v)
{
    int lo, hi;
    window_range(s, v, &lo, &hi);
    if (hi < lo)
        return;
    float u = l->unit;
    sv_box a = sv_layout_cell(l, 0, lo), b = sv_layout_cell(l, 0, hi);
    /* A bracket under the input row, from the window's first cell to its last. */
    float y = l->row_y[0] + l->cell_h / 2.0f + 1.1f * u * (l->cell_h / (9.0f * u));
    float x0 = a.x, x1 = b.x + b.w, lw = fmaxf(1.5f, 0.3f * u);
    sv_gfx_line(g, x0, y, x1, y, lw, t->window);
    sv_gfx_line(g, x0, y - 0.8f * u, x0, y, lw, t->window);
    sv_gfx_line(g, x1, y - 0.8f * u, x1, y, lw, t->window);
    char label[64];
    sv_words_window(lo, hi, label, sizeof label);
    float cx = (x0 + x1) / 2.0f;
    float tw = sv_gfx_text_width(g, SV_FONT_SANS, l->small_px, label);
    if (cx - tw / 2.0f < l->cells_clip.x) cx = l->cells_clip.x + tw / 2.0f;
    if (cx + tw / 2.0f > l->cells_clip.x + l->cells_clip.w)
        cx = l->cells_clip.x + l->cells_clip.w - tw / 2.0f;
    float ty = y + 1.4f * u;
    /* only where the gap to buf[0] holds it (rows squeezed by a large UI
     * scale leave none: the bracket and the cells' colour say it) */
    if (ty + 0.5f * l->small_px > l->row_y[1] - l->cell_h / 2.0f)
        return;
    sv_gfx_rect(g, (sv_box){ cx - tw / 2.0f - 0.6f * u, ty - 1.2f * u, tw + 1.2f * u, 2.4f * u },
                1.0f * u, t->bg, t->bg, 0.0f, SV_BORDER_NONE);
    sv_gfx_text(g, SV_FONT_SANS, l->small_px, cx, ty, SV_ALIGN_CENTER, t->window, label);
}

/* Cells narrower than a few px: no borders or numbers fit, so each run of
 * neighbours with the same fill is drawn as one rectangle. This keeps a
 * frame at n = 1024 as cheap as one at n = 8 (thin quads are what a
 * software rasteriser is slowest at). */
static void draw_row_merged(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                            const sv_theme *t, const sv_step_view *v, int r)
{
    int i = l->first_cell;
    while (i <= l->last_cell) {
        sv_value val;
        cell_style a = style_of(s, l, t, v, r, i, sv_scene_value(s, v, r, i, &val));
        int j = i + 1;
        while (j <= l->last_cell) {
            cell_style b = style_of(s, l, t, v, r, j, sv_scene_value(s, v, r, j, &val));
            if (memcmp(&a.fill, &b.fill, sizeof a.fill) != 0)
                break;
            j++;
        }
        sv_box b0 = sv_layout_cell(l, r, i), b1 = sv_layout_cell(l, r, j - 1);
        sv_box run = { b0.x, b0.y, b1.x + b1.w - b0.x, b0.h };
        /* The run's outline keeps the rows visible on a light background,
         * and on the pout row carries the case's border style. */
        sv_border style = SV_BORDER_SOLID;
        sv_rgba edge = a.border;
        const sv_lab_cell *lc = sv_scene_lab_cell(s, v, r, i, NULL);
        bool wrong = lc && lc->wrong_runs > 0;
        if (wrong) {
            edge = t->error; /* keeps style_of's error fill */
        } else if (r == 1 + v->rd->pout && v->round > 0 && !v->shift && v->rd->cases &&
                   !sv_scene_hidden(s, v, r)) {
            style = case_border(v->rd->cases[i]);
            edge = case_colour(t, v->rd->cases[i]);
            /* A case's cells are one contiguous range: a wide run, tinted
             * like a single cell so its patterned edge shows. */
            if (run.w > 6.0f * l->border_w)
                a.fill = sv_rgba_mix(t->cell_fill, edge, t->tint);
        }
        sv_gfx_rect(g, run, fmaxf(l->radius, 0.4f * l->unit), a.fill, edge,
                    fmaxf(1.0f, 0.3f * l->unit), style);
        /* n >= 300 or so: a case band says which case and which cells. */
        if (r == 1 + v->rd->pout && v->round > 0 && !v->shift && v->rd->cases) {
            sv_case cs = v->rd->cases[i];
            char lab[64];
            sv_words_case_band(cs, i, j - 1, lab, sizeof lab);
            float px = fminf(l->small_px, run.h * 0.36f);
            if (sv_gfx_text_width(g, SV_FONT_SANS, px, lab) < run.w - 1.0f * l->unit)
                sv_gfx_text(g, SV_FONT_SANS, px, run.x + run.w / 2.0f, run.y + run.h / 2.0f,
                            SV_ALIGN_CENTER, t->cell_text, lab);
        }
        /* a wrong run keeps its pattern even when its cells are too narrow */
        if (wrong && run.w >= 6.0f)
            sv_scene_hatch(g, run, fmaxf(4.0f, run.h * 0.16f), fmaxf(1.0f, 0.2f * l->unit),
                           sv_rgba_alpha(t->bg, 0.55f));
        i = j;
    }
}

/* A cell hidden by a question: `?`, or the answer given for it, or the
 * number being typed into it (with a cursor). */
static void draw_question_cell(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                               const sv_theme *t, const sv_step_view *v, int r, int i,
                               sv_box b)
{
    cell_style cs = style_of(s, l, t, v, r, i, true);
    sv_gfx_rect(g, b, l->radius, cs.fill, cs.border, cs.border_w, cs.style);
    if (l->num_px <= 0.0f)
        return;
    bool asked_row = r == sv_scene_quiz_row(s, v);
    bool sel = asked_row && i == s->quiz_sel;
    float cx = b.x + b.w / 2.0f, cy = b.y + b.h / 2.0f;
    if (sel && s->quiz_text[0]) {
        char buf[40];
        snprintf(buf, sizeof buf, "%s_", s->quiz_text);
        float px = sv_scene_fit_px(g, SV_FONT_MONO, l->num_px, b.w * 0.9f, buf);
        sv_gfx_text(g, SV_FONT_MONO, px, cx, cy, SV_ALIGN_CENTER, t->accent, buf);
    } else if (asked_row && s->quiz_kind == SV_QUIZ_VALUES && s->quiz_has && s->quiz_has[i]) {
        draw_number(g, l, s->trace->type, b, s->quiz_value[i], t->accent);
    } else if (asked_row && s->quiz_kind == SV_QUIZ_OUTCOME && s->quiz_mark && s->quiz_mark[i]) {
        /* the class's prediction: a tick (right in every run) or a cross */
        bool right = s->quiz_mark[i] == SV_QUIZ_RIGHT;
        sv_gfx_text(g, SV_FONT_SANS_BOLD, l->num_px, cx, cy, SV_ALIGN_CENTER,
                    right ? t->accent : t->error, right ? "\u2713" : "\u2717");
    } else {
        sv_gfx_text(g, SV_FONT_MONO, l->num_px, cx, cy, SV_ALIGN_CENTER,
                    sv_rgba_alpha(t->accent, asked_row ? 1.0f : 0.6f), "?");
    }
}

/* Predict mode's rings: the selected cell of an open question; after
 * Reveal, a tick or a cross on each answered cell. */
static void draw_quiz_marks(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                            const sv_theme *t, const sv_step_view *v)
{
    if (!s->quiz)
        return;
    float u = l->unit;
    int q = sv_scene_quiz_row(s, v);
    if (q >= 0 && s->quiz_sel >= l->first_cell && s->quiz_sel <= l->last_cell) {
        sv_box b = sv_layout_cell(l, q, s->quiz_sel);
        float d = fmaxf(2.0f, 1.6f * l->border_w);
        b.x -= d; b.y -= d; b.w += 2 * d; b.h += 2 * d;
        sv_gfx_rect(g, b, l->radius + d, sv_rgba_alpha(t->bg, 0.0f), t->accent,
                    fmaxf(2.0f, 0.45f * u), SV_BORDER_SOLID);
    }
    if (!s->quiz_scored || s->quiz_asking || s->quiz_step != s->step || !s->quiz_result)
        return;
    int row = v->shift ? 3 : v->round == 0 ? 1 : 1 + v->rd->pout;
    for (int i = l->first_cell; i <= l->last_cell; i++) {
        unsigned char res = s->quiz_result[i];
        if (res == SV_QUIZ_UNASKED)
            continue;
        bool ok = res == SV_QUIZ_RIGHT;
        sv_rgba col = ok ? t->accent : t->error;
        sv_box b = sv_layout_cell(l, row, i);
        float d = fmaxf(2.0f, 1.6f * l->border_w);
        sv_box ring = { b.x - d, b.y - d, b.w + 2 * d, b.h + 2 * d };
        sv_gfx_rect(g, ring, l->radius + d, sv_rgba_alpha(t->bg, 0.0f), col,
                    fmaxf(2.0f, 0.45f * u), ok ? SV_BORDER_SOLID : SV_BORDER_DASHED);
        if (l->cell_w >= 4.0f * u) {
            float px = fmaxf(8.0f, l->num_px * 0.5f);
            float bx = b.x + b.w - px * 0.45f, by = b.y + px * 0.2f;
            sv_gfx_circle(g, bx, by, px * 0.62f, t->bg, col, fmaxf(1.0f, 0.2f * u));
            sv_gfx_text(g, SV_FONT_SANS_BOLD, px * 0.9f, bx, by, SV_ALIGN_CENTER, col,
                        ok ? "\u2713" : "\u2717");
        }
    }
}

/* Index numbers under the output row: every cell's where they fit, else
 * every 2nd, 5th, 10th, 20th, 50th, ... so that labels never touch. */
static void draw_indices(sv_gfx *g, const sv_layout *l, const sv_theme *t)
{
    if (l->n <= 0 || l->last_cell < l->first_cell || l->index_px < 6.0f)
        return;
    int digits = 1;
    for (int v = l->n - 1; v >= 10; v /= 10)
        digits++;
    float need = ((float)digits + 1.2f) * 0.62f * l->index_px;
    static const int steps[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };
    int k = 0;
    while (k < 9 && l->cell_pitch * (float)steps[k] < need)
        k++;
    int every = steps[k];
    int first = (l->first_cell + every - 1) / every * every;
    float prev_right = -INFINITY;
    for (int i = first; i <= l->last_cell; i += every) {
        sv_box b = sv_layout_cell(l, 3, i);
        char num[16];
        snprintf(num, sizeof num, "%d", i);
        /* kept inside the cells' clip (cell 0 of a narrow row sits on its edge) */
        float half = 0.31f * l->index_px * (float)strlen(num);
        float x = sv_clampf(b.x + b.w / 2.0f, l->cells_clip.x + half,
                         l->cells_clip.x + l->cells_clip.w - half);
        /* pulled in at an edge, it may reach its neighbour: then it goes */
        if (x - half < prev_right + 0.3f * l->index_px)
            continue;
        sv_gfx_text(g, SV_FONT_MONO, l->index_px, x, l->index_y, SV_ALIGN_CENTER, t->text_dim,
                    num);
        prev_right = x + half;
    }
}

/* n > SV_WARP: a light line between warps (every SV_WARP cells) through all four
 * rows, and "warp k" above the input row where there is room for it. */
static void draw_warps(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    int n = l->n;
    if (n <= SV_WARP || l->cell_pitch <= 0.0f)
        return;
    float u = l->unit, gap = l->cell_pitch - l->cell_w;
    float y0 = l->row_y[0] - l->cell_h / 2.0f, y1 = l->row_y[3] + l->cell_h / 2.0f;
    sv_rgba col = sv_rgba_alpha(t->text_dim, 0.55f);
    float w = fmaxf(1.5f, 0.22f * u);
    /* The lines in view, one quad of stripes (the lines k = 1 .. last in
     * it, their neighbours a period away outside it). */
    float period = (float)SV_WARP * l->cell_pitch, x1st = l->cell_x0 + period - gap / 2.0f;
    int first = 0, last = -1;
    for (int k = 1; k * SV_WARP < n; k++) {
        float x = x1st + (float)(k - 1) * period;
        if (x < l->cells_clip.x || x > l->cells_clip.x + l->cells_clip.w)
            continue;
        if (last < first)
            first = k;
        last = k;
    }
    if (last >= first && period > 2.0f * w + 4.0f) {
        float xa = x1st + (float)(first - 1) * period, xb = x1st + (float)(last - 1) * period;
        sv_box band = { xa - w - 1.0f, y0 - 0.6f * u, xb - xa + 2.0f * w + 2.0f,
                        y1 - y0 + 1.2f * u };
        sv_gfx_stripes(g, band, 1.0f, 0.0f, period, x1st, w, col);
    } else {
        for (int k = first; k <= last; k++) {
            float x = x1st + (float)(k - 1) * period;
            sv_gfx_line(g, x, y0 - 0.6f * u, x, y1 + 0.6f * u, w, col);
        }
    }
    /* Labels: every warp when "warp 31" fits in a warp's width, else every
     * 2nd, 4th, ... */
    float px = l->small_px * 0.95f;
    float span = l->cell_pitch * (float)SV_WARP;
    float need = sv_gfx_text_width(g, SV_FONT_SANS, px, "warp 31") + 1.0f * u;
    int every = 1;
    while (span * (float)every < need && every < 64)
        every *= 2;
    sv_box clip = { l->cells_clip.x, l->warp_label_y - 2.0f * u, l->cells_clip.w, 4.0f * u };
    sv_gfx_clip(g, &clip);
    /* Only warps in view; a label pulled inside the clip at its edge is left
     * out where it would run into its neighbour's. */
    float prev_right = -INFINITY;
    for (int k = 0; k * SV_WARP < n; k += every) {
        int lo = k * SV_WARP, hi = lo + SV_WARP < n ? lo + SV_WARP : n;
        if (hi - 1 < l->first_cell || lo > l->last_cell)
            continue;
        float cx = l->cell_x0 + ((float)lo + (float)(hi - lo) / 2.0f) * l->cell_pitch - gap / 2.0f;
        char lab[24];
        snprintf(lab, sizeof lab, "warp %d", k);
        float tw = sv_gfx_text_width(g, SV_FONT_SANS, px, lab);
        cx = sv_clampf(cx, clip.x + tw / 2.0f, clip.x + clip.w - tw / 2.0f);
        if (cx - tw / 2.0f < prev_right + 0.5f * u)
            continue;
        sv_gfx_text(g, SV_FONT_SANS, px, cx, l->warp_label_y, SV_ALIGN_CENTER, t->text_dim, lab);
        prev_right = cx + tw / 2.0f;
    }
    sv_gfx_clip(g, &l->cells_clip);
    (void)s;
}

/* The barrier: a bar under the row just written, with every thread's cell
 * held at it, and what it waits for. */
static void draw_barrier(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                         const sv_theme *t, const sv_step_view *v)
{
    float u = l->unit;
    int row = v->round == 0 ? 1 : 1 + v->rd->pout;
    float y = l->row_y[row] + l->cell_h / 2.0f + 0.9f * u;
    float x0 = fmaxf(sv_layout_cell(l, row, l->first_cell).x, l->cells_clip.x);
    float x1 = fminf(sv_layout_cell(l, row, l->last_cell).x + l->cell_w,
                     l->cells_clip.x + l->cells_clip.w);
    float lw = fmaxf(2.0f, 0.5f * u);
    sv_gfx_line(g, x0, y, x1, y, lw, t->accent);
    /* A short tick from each thread's cell down to the bar: all of them wait. */
    if (l->cell_w >= 4.0f)
        for (int i = l->first_cell; i <= l->last_cell; i++) {
            float cx = l->cell_x0 + (float)i * l->cell_pitch + l->cell_w / 2.0f;
            sv_gfx_line(g, cx, y - 0.8f * u, cx, y, fmaxf(1.0f, 0.2f * u), t->accent);
        }
    char msg[96];
    sv_words_barrier(s->trace, msg, sizeof msg);
    float tw = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, l->small_px, msg);
    float cx = (x0 + x1) / 2.0f;
    sv_gfx_rect(g, (sv_box){ cx - tw / 2.0f - 0.8f * u, y + 0.3f * u, tw + 1.6f * u, 2.6f * u },
                1.0f * u, t->bg, t->accent, fmaxf(1.0f, 0.15f * u), SV_BORDER_SOLID);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, l->small_px, cx, y + 1.6f * u, SV_ALIGN_CENTER,
                t->accent, msg);
}

/* Cell i of row r at step v: its box, lab marks, the old value fading out
 * and the new one in while the step moves (a: the move's linear progress,
 * pv: the step it comes from; drow: the row values arrive in). */
static void draw_cell(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                      const sv_step_view *vp, const sv_step_view *pvp, int r, int i,
                      bool moving, float a, int drow)
{
    const sv_trace *tr = s->trace;
    const sv_step_view v = *vp, pv = *pvp;
    sv_box b = sv_layout_cell(l, r, i);
    sv_value val;
    if (sv_scene_hidden(s, &v, r)) {
        draw_question_cell(g, s, l, t, &v, r, i, b);
        return;
    }
    bool has = sv_scene_value(s, &v, r, i, &val);
    /* Arriving values appear at the end of the move; what the cell
     * held before fades out during the first half. */
    bool arriving = moving && (r == drow || (r == 3 && v.last));
    float new_a = arriving ? sv_clampf((a - MOVE_NEW) / (1.0f - MOVE_NEW), 0.0f, 1.0f) : 1.0f;
    sv_value old;
    bool had = arriving && sv_scene_value(s, &pv, r, i, &old);
    /* An output row not yet written is one band (below), not
     * eight empty cells. */
    if (r == 3 && !v.last)
        return;
    cell_style cs = style_of(s, l, t, &v, r, i, has || had);
    if (arriving && r == 3 && !had) {
        cs.fill = sv_rgba_mix(sv_rgba_alpha(t->cell_fill, 0.0f), cs.fill, new_a);
    }
    sv_gfx_rect(g, b, l->radius, cs.fill, cs.border, cs.border_w, cs.style);
    if (s->lab)
        draw_lab_cell(g, s, l, t, &v, r, i, b);
    /* The old value stays until the operands arrive, then is
     * overwritten (draw_operands says when). */
    float old_a = sv_clampf((MOVE_END - a) / (MOVE_END - MOVE_NEW), 0.0f, 1.0f);
    if (had)
        draw_number(g, l, tr->type, b, old, sv_rgba_alpha(t->text_dim, old_a));
    /* `?`: a buffer cell never written, or one about to be (fading). */
    bool unwritten_before = arriving && !had && (r == 1 || r == 2);
    bool unknown = r == 3 ? sv_scene_unknown(s, &v, r, i) : (r == 1 || r == 2);
    if (l->num_px > 0.0f && unknown && ((!has && !had) || unwritten_before))
        sv_gfx_text(g, SV_FONT_MONO, l->num_px, b.x + b.w / 2.0f, b.y + b.h / 2.0f,
                    SV_ALIGN_CENTER,
                    sv_rgba_alpha(t->uninit, unwritten_before ? old_a : 1.0f), "?");
    if (has)
        draw_number(g, l, tr->type, b, val, sv_rgba_alpha(cs.text, new_a));
    /* int32 wrapped here this round: a dot in the error colour. */
    if (r == drow && v.round > 0 && !v.shift && v.rd->overflow &&
        v.rd->overflow[i] && l->cell_w >= 10.0f) {
        float rr = fmaxf(2.0f, fminf(b.w, b.h) * 0.07f);
        sv_gfx_circle(g, b.x + b.w - 2.2f * rr - l->border_w, b.y + 2.2f * rr + l->border_w,
                      rr, sv_rgba_alpha(t->error, new_a), t->error, 0.0f);
    }
}

/* An empty output row is one band across the cells in view, saying when it
 * will be written, centred on the row (it used to straddle two placeholder
 * cells). */
static void draw_output_band(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                             const sv_theme *t)
{
    float u = l->unit;
    const char *msg = sv_words_output_pending(s->trace);
    sv_box fb = sv_layout_cell(l, 3, l->first_cell), lb = sv_layout_cell(l, 3, l->last_cell);
    float x0 = fmaxf(fb.x, l->cells_clip.x);
    float x1 = fminf(lb.x + lb.w, l->cells_clip.x + l->cells_clip.w);
    sv_box band = { x0, fb.y, fmaxf(x1 - x0, 1.0f), fb.h };
    sv_gfx_rect(g, band, l->radius, sv_rgba_alpha(t->cell_fill, 0.35f),
                sv_rgba_alpha(t->cell_border, 0.7f), fmaxf(1.0f, l->border_w * 0.5f),
                SV_BORDER_DASHED);
    /* at the band's height's 40 %, up to the legible size where it is short
     * (issue 28), fitted to the band's width, cut there */
    float px = fmaxf(fminf(l->small_px, band.h * 0.4f), fminf(l->legible_px, band.h * 0.62f));
    if (px >= 6.0f)
        sv_scene_text_fit(g, SV_FONT_SANS, px, fminf(px, l->legible_px), band.w - 2.0f * u,
                          band.x + band.w / 2.0f, l->row_y[3], SV_ALIGN_CENTER, t->text_dim,
                          msg);
}

/* Rings: the hovered or pinned cell, and a pout cell's operands in pin. */
static void draw_rings(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                       const sv_step_view *vp)
{
    const sv_step_view v = *vp;
    int hr, hc;
    /* Hovered and pinned cells get a ring. */
    if (sv_scene_tooltip_target(s, &hr, &hc) && hc >= l->first_cell && hc <= l->last_cell) {
        sv_box b = sv_layout_cell(l, hr, hc);
        float d = fmaxf(1.5f, l->border_w);
        b.x -= d; b.y -= d; b.w += 2 * d; b.h += 2 * d;
        sv_gfx_rect(g, b, l->radius + d, sv_rgba_alpha(t->text, 0.0f), t->text,
                    fmaxf(1.0f, d * 0.6f), SV_BORDER_SOLID);
    }

    /* A pout cell under the tooltip: its operands in pin get a ring too. */
    if (sv_scene_tooltip_target(s, &hr, &hc) && v.round > 0 && !v.shift &&
        hr == 1 + v.rd->pout && v.rd->cases && !sv_scene_hidden(s, &v, hr)) {
        sv_case cs = v.rd->cases[hc];
        int ops[2] = { hc, cs == SV_CASE_COPY ? -1 : hc - (int)v.rd->stride };
        int rows[2] = { 1 + v.rd->pin, 1 + v.rd->pin };
        sv_rgba ring = case_colour(t, cs);
        if (s->lab) {
            /* A mistake: the cells its thread read (none known: none). */
            ring = t->text_dim;
            for (int k = 0; k < 2; k++) {
                const sv_lab_read *r = sv_scene_lab_read(s, &v, hc, k ? SV_READ_LEFT
                                                                        : SV_READ_SELF);
                ops[k] = r && !r->out_of_range ? (int)r->cell : -1;
                rows[k] = r ? 1 + r->buf : rows[k];
            }
        }
        for (int k = 0; k < 2; k++) {
            if (ops[k] < l->first_cell || ops[k] > l->last_cell)
                continue;
            sv_box b = sv_layout_cell(l, rows[k], ops[k]);
            float d = fmaxf(1.5f, l->border_w);
            b.x -= d; b.y -= d; b.w += 2 * d; b.h += 2 * d;
            sv_gfx_rect(g, b, l->radius + d, sv_rgba_alpha(t->bg, 0.0f), ring,
                        fmaxf(1.0f, d * 0.6f), SV_BORDER_SOLID);
        }
    }
}

/* The step's arrows, and the values in flight while it moves. */
static void draw_arrows(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                        const sv_step_view *vp, bool moving, float a)
{
    sv_step_view v = *vp;
    float u = l->unit;
    int hr, hc;
    /* Cells narrower than a few px (n >= 300 or so at 1080p): no arrow
     * field, which would be one grey smear, but the arrows of the cell
     * under the tooltip, or else of a sample: the middle cell of each case
     * band (of every eighth of the row at round 0 and the shift). */
    if (l->cell_w < 4.0f && l->last_cell >= l->first_cell) {
        arrow_ctx c = { g, s, l, t, &v, fmaxf(1.5f, 0.28f * u) * t->line_scale, 0.0f, 0.9f, a,
                        false, -1, false, false };
        c.head = fmaxf(6.0f, c.width * 3.6f);
        int dests[8], nd = 0;
        if (sv_scene_tooltip_target(s, &hr, &hc) && hr == dest_row(&v)) {
            dests[nd++] = hc;
        } else if (v.round > 0 && !v.shift && v.rd->cases) {
            int lo = l->first_cell;
            while (lo <= l->last_cell && nd < 8) {
                int hi = lo;
                while (hi + 1 <= l->last_cell && v.rd->cases[hi + 1] == v.rd->cases[lo])
                    hi++;
                dests[nd++] = (lo + hi + 1) / 2;
                lo = hi + 1;
            }
        } else {
            for (int k = 0; k < 8; k++)
                dests[nd++] = l->first_cell + (l->last_cell - l->first_cell) * (2 * k + 1) / 16;
        }
        for (int k = 0; k < nd; k++) {
            step_arrow ops[2];
            int no = operands_of(s, &v, l->n, dests[k], ops);
            for (int j = 0; j < no; j++)
                draw_one_arrow(&c, &ops[j]);
        }
    }

    /* Arrows: skipped where cells are narrower than a few px; thinner and
     * fainter as cells get small. */
    if (l->cell_w >= 4.0f) {
        float f = sv_clampf(l->cell_w / (8.0f * u), 0.35f, 1.0f);
        arrow_ctx c = { g, s, l, t, &v, fmaxf(1.0f, 0.3f * u * f) * t->line_scale, 0.0f,
                        sv_clampf(0.25f + 0.6f * f, 0.3f, 0.85f), a, false, -1, false, false };
        c.head = fmaxf(3.0f, c.width * 3.6f);
        if (sv_scene_tooltip_target(s, &hr, &hc) && hr == dest_row(&v) &&
            !sv_scene_hidden(s, &v, hr))
            c.focus = hc;
        c.neutral = sv_scene_quiz_row(s, &v) >= 0;
        c.no_diag = c.neutral && s->quiz_kind == SV_QUIZ_CASES;
        if (moving)
            c.alpha *= 0.7f;
        each_arrow(s, l, &v, draw_one_arrow, &c);
        /* Values in flight: only while they can be read. */
        if (moving && l->num_px > 0.0f && a < 1.0f)
            draw_operands(&c);
    }
}

void sv_render_cells(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    frame_broken_.rd = NULL;
    sv_step_view fv;
    if (s->lab && sv_scene_step(s, s->step, &fv)) {
        frame_broken_.value = sv_scene_lab_first_broken(s, &fv);
        frame_broken_.rd = fv.rd;
        frame_broken_.lab = s->lab;
        frame_broken_.round = fv.round;
    }
    sv_step_view v;
    bool have = sv_scene_step(s, s->step, &v);
    draw_labels(g, s, l, t, have ? &v : NULL);
    if (!have)
        return;
    bool moving = sv_scene_moving(s);
    float a = moving ? fminf(fmaxf(s->anim, 0.0f), 1.0f) : 1.0f; /* linear: the move's phases */
    sv_step_view pv = v;
    if (moving)
        sv_scene_step(s, s->from_step, &pv);
    int drow = dest_row(&v);
    float u = l->unit;

    sv_gfx_clip(g, &l->cells_clip);
    bool merged = l->cell_pitch < 4.0f;
    for (int r = 0; r < 4; r++) {
        if (merged) {
            draw_row_merged(g, s, l, t, &v, r);
            continue;
        }
        for (int i = l->first_cell; i <= l->last_cell; i++)
            draw_cell(g, s, l, t, &v, &pv, r, i, moving, a, drow);
    }
    draw_warps(g, s, l, t);
    if (s->phase == SV_PHASE_BARRIER)
        draw_barrier(g, s, l, t, &v);

    if (!v.last)
        draw_output_band(g, s, l, t);
    draw_indices(g, l, t);

    draw_quiz_marks(g, s, l, t, &v);

    draw_rings(g, s, l, t, &v);

    draw_window(g, s, l, t, &v);

    /* The shift puts the identity into output[0]: say so where its arrow
     * would be. */
    if (v.shift && l->first_cell == 0 && l->cell_w >= 4.0f * u) {
        sv_box b = sv_layout_cell(l, 3, 0);
        sv_gfx_text(g, SV_FONT_SANS, l->small_px, b.x + b.w / 2.0f,
                    b.y - (l->row_y[3] - l->row_y[2] - l->cell_h) / 2.0f, SV_ALIGN_CENTER,
                    t->accent, "identity");
    }

    draw_arrows(g, s, l, t, &v, moving, a);
    sv_gfx_clip(g, NULL);
    frame_broken_.rd = NULL;
}
