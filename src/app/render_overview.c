/* The overview (key V, --overview): every round of the trace stacked in one
 * picture, like the chapter's figure. Each round is a block of two rows, the
 * buffer it reads (pin, tagged) above the one it writes (pout, tagged, each
 * cell in its case's colour and border), with the round's arrows between;
 * round 0 stages input into buf[0], the exclusive shift writes output. The
 * cells keep the scan view's horizontal layout; the blocks are scaled to fit
 * the height. A mistake (the lab's runs, s->lab) is drawn as it ran: each
 * cell wrong in some run hatched in the error colour, the shown run's
 * first broken cell of each round marked, the cells after it without a
 * case (as the scan view draws them). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/table.h"
#include "font_metrics.h"
#include "scene.h"
#include "util.h"

static sv_rgba case_colour(const sv_theme *t, sv_case c)
{
    return c == SV_CASE_FULL ? t->full : c == SV_CASE_PARTIAL ? t->partial : t->copy;
}

static sv_border case_border(sv_case c)
{
    return c == SV_CASE_FULL ? SV_BORDER_SOLID
         : c == SV_CASE_PARTIAL ? SV_BORDER_DASHED : SV_BORDER_DOTTED;
}

/* One row of a block: which values, how labelled. */
typedef struct ov_row {
    const char *name;           /* "input", "buf[0]", "output" */
    const char *tag;            /* "pin", "pout" or NULL */
    const sv_value *vals;       /* NULL: every cell "?" */
    const bool *written;        /* NULL: all written */
    const sv_case *cases;       /* pout of a round: each cell's case; else NULL */
    const sv_lab_cell *lab;     /* a mistake's runs: this row's round's cells; else NULL */
    int lab_shift;              /* the output after the shift: cell i is lab[i - 1] */
    int broken;                 /* the shown run's first broken cell, -1 none */
} ov_row;

typedef struct ov_geom {
    float row_h, cell_h, num_px, label_px, tag_px;
    sv_box clip;              /* the cells' columns over the whole area */
    sv_float_style style;     /* one float32 notation for the whole trace */
} ov_geom;

static void draw_number(sv_gfx *g, sv_type type, sv_float_style style, sv_box b, float px,
                        sv_value v, sv_rgba c)
{
    char buf[48];
    sv_value_format_as(type, v, style, buf, sizeof buf);
    float fit = b.w * 0.92f / sv_mono_width(1.0f, (float)strlen(buf));
    if (fit < px)
        px = floorf(fit);
    if (px >= 6.0f)
        sv_gfx_text(g, SV_FONT_MONO, px, b.x + b.w / 2.0f, b.y + b.h / 2.0f, SV_ALIGN_CENTER, c,
                    buf);
}

static void draw_row(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                     const ov_geom *o, const ov_row *r, float cy)
{
    const sv_trace *tr = s->trace;
    /* The label and its tag. */
    float lx = l->label_col.x;
    float w = sv_gfx_text(g, SV_FONT_SANS_BOLD, o->label_px, lx, cy, SV_ALIGN_LEFT, t->text,
                          r->name);
    if (r->tag) {
        bool pin = strcmp(r->tag, "pin") == 0;
        /* the word at least legible where the row has room (as the label) */
        float tpx = fmaxf(o->tag_px * 1.35f * 0.58f, fminf(l->legible_px, o->row_h * 0.68f));
        float th = fmaxf(o->tag_px * 1.35f, fminf(1.3f * tpx, o->row_h * 0.95f));
        float tw = fmaxf(th * 1.95f, tpx * SV_EM_POUT_BOLD + 0.5f * th);
        sv_box tb = { lx + w + 0.4f * o->label_px, cy - th / 2.0f, tw, th };
        if (tb.x + tb.w < l->cells_clip.x) {
            sv_gfx_rect(g, tb, th / 2.0f, pin ? t->pin_tag : t->pout_tag,
                        pin ? t->pin_tag : t->pout_tag, 0.0f, SV_BORDER_NONE);
            sv_gfx_text(g, SV_FONT_SANS_BOLD, tpx, tb.x + tb.w / 2.0f, cy, SV_ALIGN_CENTER,
                        t->tag_text, r->tag);
        }
    }
    bool narrow = l->cell_w < 5.0f;
    sv_gfx_clip(g, &o->clip);
    for (int i = l->first_cell; i <= l->last_cell; i++) {
        sv_box b = sv_layout_cell(l, 0, i);
        b.y = cy - o->cell_h / 2.0f;
        b.h = o->cell_h;
        bool has = r->vals && (!r->written || r->written[i]);
        sv_rgba fill = t->cell_fill, border = t->cell_border;
        sv_border style = SV_BORDER_SOLID;
        float bw = fmaxf(1.0f, l->border_w * 0.55f);
        if (!has) {
            fill = sv_rgba_mix(t->cell_fill, t->bg, 0.55f);
            border = sv_rgba_alpha(t->uninit, 0.7f);
        } else if (r->cases) {
            sv_rgba cc = case_colour(t, r->cases[i]);
            fill = sv_rgba_mix(t->cell_fill, cc, narrow ? 0.85f : t->tint);
            border = cc;
            style = case_border(r->cases[i]);
            bw = fminf(l->border_w * t->line_scale, 0.2f * fminf(b.w, b.h));
        }
        const sv_lab_cell *lc = NULL;
        if (r->lab && i - r->lab_shift >= 0)
            lc = &r->lab[i - r->lab_shift];
        bool wrong = lc && lc->wrong_runs > 0;
        if (r->broken >= 0 && i >= r->broken) { /* no case where the shown run broke it */
            style = SV_BORDER_SOLID;
            border = i == r->broken ? t->error : t->text_dim;
            fill = i == r->broken ? sv_rgba_mix(t->cell_fill, t->error, narrow ? 0.8f : 0.12f)
                                  : t->cell_fill;
            if (i == r->broken)
                bw = fmaxf(bw, fminf(l->border_w * 1.4f * t->line_scale, 0.2f * fminf(b.w, b.h)));
        }
        if (wrong) {
            fill = sv_rgba_mix(t->cell_fill, t->error, narrow ? 0.8f : 0.12f);
            border = t->error;
        }
        if (narrow) {
            style = SV_BORDER_NONE;
            bw = 0.0f;
        }
        sv_gfx_rect(g, b, fminf(l->radius, o->cell_h * 0.2f), fill, border, bw, style);
        if (wrong && b.w >= 4.0f)
            sv_scene_hatch(g, b, fmaxf(3.0f, fminf(b.w, b.h) * 0.16f),
                           fmaxf(1.0f, 0.16f * l->unit), sv_rgba_alpha(t->error, 0.7f));
        if (o->num_px > 0.0f) {
            if (has)
                draw_number(g, tr->type, o->style, b, o->num_px, r->vals[i], t->cell_text);
            else
                sv_gfx_text(g, SV_FONT_MONO, o->num_px, b.x + b.w / 2.0f, cy, SV_ALIGN_CENTER,
                            t->uninit, "?");
        }
    }
    sv_gfx_clip(g, NULL);
}

/* Arrows of one block, from the upper row (centre y0) to the lower (y1):
 * straight down for pin[i], diagonal from pin[i - s] in the case colour;
 * for narrow cells only the middle of each case band. shift: i-1 -> i. */
static void draw_arrows(sv_gfx *g, const sv_layout *l, const sv_theme *t, const ov_geom *o,
                        float y0, float y1, long stride, const sv_case *cases, bool shift)
{
    float pad = o->cell_h * 0.08f;
    float top = y0 + o->cell_h / 2.0f + pad, bot = y1 - o->cell_h / 2.0f - pad;
    if (bot - top < 3.0f)
        return;
    float f = sv_clampf(l->cell_w / (8.0f * l->unit), 0.35f, 1.0f);
    float w = fmaxf(1.0f, 0.26f * l->unit * f) * t->line_scale;
    float head = fmaxf(3.0f, fminf(w * 3.6f, (bot - top) * 0.45f));
    float alpha = sv_clampf(0.3f + 0.6f * f, 0.4f, 0.9f);
    bool narrow = l->cell_w < 4.0f;
    sv_gfx_clip(g, &o->clip);
    for (int i = l->first_cell; i <= l->last_cell; i++) {
        if (narrow) {
            /* the middle of each run of one case */
            if (!cases)
                continue;
            int lo = i, hi = i;
            while (lo > l->first_cell && cases[lo - 1] == cases[i]) lo--;
            while (hi < l->last_cell && cases[hi + 1] == cases[i]) hi++;
            if (i != (lo + hi + 1) / 2)
                continue;
        }
        sv_box d = sv_layout_cell(l, 0, i);
        float dx = d.x + d.w / 2.0f;
        if (shift) {
            if (i == 0)
                continue;
            sv_box s0 = sv_layout_cell(l, 0, i - 1);
            sv_gfx_arrow(g, s0.x + s0.w * 0.62f, top, dx - d.w * 0.12f, bot, w, head,
                         sv_rgba_alpha(t->arrow, alpha));
            continue;
        }
        bool copy = cases && cases[i] == SV_CASE_COPY;
        float off = (stride > 0 && !copy) ? 0.16f * d.w : 0.0f;
        sv_gfx_arrow(g, dx + off, top, dx + off, bot, w, head, sv_rgba_alpha(t->arrow, alpha));
        if (stride > 0 && i >= stride && cases) {
            sv_box sb = sv_layout_cell(l, 0, (int)(i - stride));
            sv_gfx_arrow(g, sb.x + sb.w / 2.0f + 0.16f * sb.w, top, dx - 0.16f * d.w, bot, w,
                         head, sv_rgba_alpha(case_colour(t, cases[i]), alpha));
        }
    }
    sv_gfx_clip(g, NULL);
}

/* The index line under the last block takes this many row units. */
#define OV_INDEX_UNITS 0.95f

/* " · copy-through i < s · partial s ≤ i < 2s − 1 · full i ≥ 2s − 1" for a
 * round of stride s (2^(r−1)) at n cells: the chapter's case conditions with
 * this round's numbers; a case no cell has is left out. */
static void case_conditions(long stride, size_t n, char *out, size_t len)
{
    long nn = (long)n, full = 2 * stride - 1;
    int at = 0;
    out[0] = '\0';
    at += snprintf(out + at, len - (size_t)at, " \u00b7 copy-through i < %ld",
                   stride < nn ? stride : nn);
    if (stride < nn && stride < full && (size_t)at < len)
        at += snprintf(out + at, len - (size_t)at, " \u00b7 partial %ld \u2264 i < %ld", stride,
                       full < nn ? full : nn);
    if (full < nn && (size_t)at < len)
        snprintf(out + at, len - (size_t)at, " \u00b7 full i \u2265 %ld", full);
}

/* A block's title (bold) and its case conditions after it (regular),
 * both made smaller only if together they would pass the cells' width, but
 * not below the legible size: there the conditions go (the legend has
 * them), and the title alone is cut past that. */
static void draw_title(sv_gfx *g, const sv_layout *l, const sv_theme *t, float px, float y,
                       const char *title, const char *cond)
{
    float w = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, px, title) +
              sv_gfx_text_width(g, SV_FONT_SANS, px, cond);
    float least = fminf(l->legible_px, px);
    if (w > l->cells_clip.w && w > 0.0f)
        px = floorf(px * l->cells_clip.w / w);
    if (px < least) {
        px = least;
        cond = "";
        sv_scene_text_fit(g, SV_FONT_SANS_BOLD, px, least, l->cells_clip.w, l->cells_clip.x, y,
                          SV_ALIGN_LEFT, t->text_dim, title);
        return;
    }
    float x = l->cells_clip.x;
    x += sv_gfx_text(g, SV_FONT_SANS_BOLD, px, x, y, SV_ALIGN_LEFT, t->text_dim, title);
    if (cond[0])
        sv_gfx_text(g, SV_FONT_SANS, px, x, y, SV_ALIGN_LEFT, t->text_dim, cond);
}

/* The cells' index numbers on a line centred at cy: every cell's where
 * they fit, else every 2nd, 4th, ... (powers of two, as the strides). */
static void draw_index(sv_gfx *g, const sv_layout *l, const sv_theme *t, const ov_geom *o,
                       float cy)
{
    float px = fmaxf(fminf(l->index_px > 0.0f ? l->index_px : l->small_px * 0.9f, o->row_h * 0.6f),
                     fminf(l->legible_px, o->row_h * 0.8f));
    if (px < 6.0f)
        return;
    char num[16];
    snprintf(num, sizeof num, "%d", l->last_cell);
    float need = sv_mono_width(px, (float)strlen(num) + 1.0f);
    float pitch = l->first_cell < l->last_cell
                      ? sv_layout_cell(l, 0, l->first_cell + 1).x - sv_layout_cell(l, 0, l->first_cell).x
                      : l->cell_w;
    int every = 1;
    while (pitch * (float)every < need && every < (1 << 20))
        every *= 2;
    sv_gfx_clip(g, &o->clip);
    for (int i = l->first_cell; i <= l->last_cell; i++) {
        if (i % every != 0)
            continue;
        sv_box b = sv_layout_cell(l, 0, i);
        snprintf(num, sizeof num, "%d", i);
        sv_gfx_text(g, SV_FONT_MONO, px, b.x + b.w / 2.0f, cy, SV_ALIGN_CENTER, t->text_dim, num);
    }
    sv_gfx_clip(g, NULL);
}

/* A mistake's runs: round r's summary cells, NULL without a lab. */
static const sv_lab_cell *lab_round(const sv_app_view *s, int r)
{
    const sv_lab_summary *lab = s->lab;
    if (!lab || !s->trace || lab->n != s->trace->n || lab->nrounds != s->trace->nrounds ||
        r < 0 || (size_t)r >= lab->nrounds)
        return NULL;
    return &lab->cells[(size_t)r * lab->n];
}

/* The shown run's first broken cell of round r (sv_scene_lab_first_broken). */
static int lab_broken(const sv_app_view *s, int r)
{
    sv_step_view v;
    if (!s->lab || !sv_scene_step(s, r, &v) || v.round != r || v.shift)
        return -1;
    return sv_scene_lab_first_broken(s, &v);
}

void sv_render_overview(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                        sv_box area)
{
    const sv_trace *tr = s->trace;
    if (!tr || tr->nrounds == 0)
        return;
    bool excl = tr->scan == SV_SCAN_EXCLUSIVE;
    int blocks = (int)tr->nrounds + (excl ? 1 : 0);
    /* Heights in row units: each block two rows (1 each) and an arrow gap
     * (0.8), blocks 0.55 apart, a block label line above each (0.55). */
    float units = (float)blocks * (2.0f + 0.8f + 0.55f) + (float)(blocks - 1) * 0.35f +
                  OV_INDEX_UNITS;
    ov_geom o;
    o.clip = (sv_box){ l->cells_clip.x, area.y, l->cells_clip.w, area.h };
    o.style = sv_trace_float_style(tr);
    o.row_h = fminf(area.h / units, l->cell_h * 1.05f);
    o.cell_h = o.row_h * 0.86f;
    /* Each text at its share of a row, up to the legible size where the row
     * has room for it (issue 28: 14 to 17 px at 1024x768, at every scale). */
    float least = l->legible_px;
    o.label_px = fmaxf(fminf(l->row_label_px, o.row_h * 0.42f), fminf(least, o.row_h * 0.68f));
    o.tag_px = o.label_px * 0.82f;
    o.num_px = fminf(o.cell_h * 0.5f, l->num_px > 0.0f ? l->num_px : 0.0f);
    if (o.num_px > 0.0f)
        o.num_px = fmaxf(o.num_px, fminf(least, o.cell_h * 0.78f));
    if (o.num_px < 7.0f)
        o.num_px = 0.0f;
    float block_h = o.row_h * (2.0f + 0.8f + 0.55f), gap = o.row_h * 0.35f;
    float used = (float)blocks * block_h + (float)(blocks - 1) * gap + OV_INDEX_UNITS * o.row_h;
    float y = area.y + fmaxf(0.0f, (area.h - used) / 2.0f);
    float cap_px = fmaxf(fminf(l->small_px, o.row_h * 0.5f), fminf(least, o.row_h * 0.7f));
    for (int k = 0; k < blocks; k++) {
        bool shift = k >= (int)tr->nrounds;
        int r = shift ? (int)tr->nrounds - 1 : k;
        const sv_round *rd = &tr->rounds[r];
        char title[96], cond[200] = "";
        ov_row up, dn;
        long stride = 0;
        const sv_case *cases = NULL;
        if (shift) {
            int fb = rd->pout >= 0 ? rd->pout : 0;
            snprintf(title, sizeof title, "exclusive shift: output[i] = buf[%d][i\u22121], "
                     "output[0] = the identity", fb);
            static const char *bufname[2] = { "buf[0]", "buf[1]" };
            up = (ov_row){ bufname[fb], NULL, rd->buf[fb], rd->written[fb], NULL, NULL, 0, -1 };
            dn = (ov_row){ "output", NULL, tr->output, NULL, NULL, lab_round(s, r), 1, -1 };
            up.lab = lab_round(s, r);
        } else if (r == 0) {
            snprintf(title, sizeof title, "round 0: stage the input into buf[0]");
            up = (ov_row){ "input", NULL, tr->input, NULL, NULL, NULL, 0, -1 };
            dn = (ov_row){ "buf[0]", NULL, rd->buf[0], rd->written[0], NULL, lab_round(s, 0), 0,
                           -1 };
        } else {
            stride = (long)rd->stride;
            cases = rd->cases;
            snprintf(title, sizeof title, "round %d \u00b7 stride %ld \u00b7 %zu ops", r, stride,
                     rd->ops);
            case_conditions(stride, tr->n, cond, sizeof cond);
            static const char *bufname[2] = { "buf[0]", "buf[1]" };
            const sv_round *prev = &tr->rounds[r - 1];
            up = (ov_row){ bufname[rd->pin], "pin", prev->buf[rd->pin], prev->written[rd->pin],
                           NULL, lab_round(s, r - 1), 0, -1 };
            dn = (ov_row){ bufname[rd->pout], "pout", rd->buf[rd->pout], rd->written[rd->pout],
                           rd->cases, lab_round(s, r), 0, lab_broken(s, r) };
        }
        float ty = y + o.row_h * 0.3f;
        draw_title(g, l, t, cap_px, ty, title, cond);
        float y0 = y + o.row_h * 0.55f + o.row_h / 2.0f;
        float y1 = y0 + o.row_h * 1.8f;
        draw_arrows(g, l, t, &o, y0, y1, stride, cases, shift);
        draw_row(g, s, l, t, &o, &up, y0);
        draw_row(g, s, l, t, &o, &dn, y1);
        y += block_h + gap;
    }
    draw_index(g, l, t, &o, y - gap + o.row_h * 0.45f);
}
