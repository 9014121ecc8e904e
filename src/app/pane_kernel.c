/* The kernel pane (kpane.h): places a kernel trace's rows (its own arrays,
 * the input above, out below) in the area the frame gives it and draws a
 * step of it from the trace: values, written cells, arrows from the reads
 * each writing thread made (the CPU runtime; none from the GPU), case
 * borders only where the chapter's reading holds, the first broken cell
 * with what it holds and should hold, hazards hatched, bank conflicts barred
 * and tagged with their ways, an out-of-range read
 * or a deadlock on the threads' cells, and the chapter kernel's values as
 * a ghost line under the rows it matches. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/ktrace_reading.h"
#include "../core/ktrace_shuffle.h"
#include "font_metrics.h"
#include "kpane.h"

/* ---- geometry ------------------------------------------------------------ */

static void kernel_at(sv_app_view *c, int k)
{
    c->kstep = k;
    c->quiz = false; /* a question's two lines fit the least room, and its row search at
                        every step would make this quadratic in the steps */
}

static sv_caption_room kernel_caption_room(const sv_app_view *v, float w, float bold_px,
                                           float small_px)
{
    const sv_caption_room least = { 2, 2 };
    if (!v || !v->ktrace)
        return least;
    return sv_caption_room_over(v, sv_kpane_steps(v->ktrace), kernel_at, sv_kwords_caption, least,
                                w, bold_px, small_px);
}

/* The widest value in view, in characters (up to 4), over every row at the
 * shown step and the last one (so the size rarely jumps between steps); 1
 * when none is known. */
static int widest_in_view(const sv_app_view *v, const sv_krows *rows, const sv_layout *l)
{
    const sv_ktrace *t = v->ktrace;
    size_t steps[2] = { (size_t)sv_kpane_step(v), t->nsteps ? t->nsteps - 1 : 0 };
    int w = 1;
    for (int r = 0; r < rows->n && w < 4; r++)
        for (int c = l->first_cell; c <= l->last_cell && (uint32_t)c < rows->row[r].count; c++)
            for (int s = 0; s < 2; s++) {
                sv_value val;
                char buf[48];
                if (!sv_kpane_value(t, steps[s], &rows->row[r], (uint32_t)c, &val))
                    continue;
                int n = (int)strlen(sv_value_format(t->type, val, buf, sizeof buf));
                if (n > w) w = n;
            }
    return w > 4 ? 4 : w;
}

static void kernel_layout(const sv_app_view *v, sv_box area, sv_layout *l)
{
    sv_krows rows;
    sv_kpane_rows(v->ktrace, &rows);
    float u = l->unit;
    l->rows_area = area;
    l->nrows = rows.n;
    l->n = (int)rows.cols;
    /* Each row a slot: the cell, then room for arrows (and the ghost line). */
    float slot = area.h / (float)(rows.n > 0 ? rows.n : 1);
    l->cell_h = fminf(9.0f * u, slot * 0.55f);
    for (int r = 0; r < rows.n; r++)
        l->row_y[r] = area.y + slot * ((float)r + 0.42f);
    sv_rows_place_labels(l, 0.40f);
    float label_w = fmaxf(l->row_label_px * 5.2f, l->row_sub_px * SV_EM_GLOBAL_MEMORY) + 1.0f * u;
    l->label_col = (sv_box){ area.x, area.y, label_w, area.h };
    l->cells_clip = (sv_box){ area.x + label_w + 0.5f * u, area.y - 0.5f * u,
                              area.w - label_w - 0.5f * u, area.h + 1.0f * u };
    l->index_y = l->row_y[rows.n - 1] + l->cell_h;
    l->index_px = 0.0f;
    if (l->n <= 0) {
        l->first_cell = 0;
        l->last_cell = -1;
        return;
    }
    float zoom = v->zoom >= 1.0f ? v->zoom : 1.0f;
    sv_rows_place_cells(l, zoom, v->pan);
    /* the numbers: as the chapter's pane's (pane_rows.c), at most 46 % of
     * the cell's height or up to the legible size where it has room (issue
     * 28: 14 px at 1024x768 in the compare view), fitted to the widest value
     * in view rather than always to four characters */
    float px = fmaxf(fminf(l->cell_h * 0.46f, 4.6f * u), fminf(l->legible_px, 0.65f * l->cell_h));
    float fit1 = l->cell_w * 0.9f / SV_MONO_ADVANCE;
    if (fit1 >= 7.0f)
        px = fminf(px, fit1 / (float)widest_in_view(v, &rows, l));
    else
        px = 0.0f;
    l->num_px = px >= 7.0f ? px : 0.0f;
}

/* ---- drawing ------------------------------------------------------------- */

typedef struct kdraw {
    sv_gfx *g;
    const sv_app_view *v;
    const sv_layout *l;
    const sv_theme *t;
    const sv_ktrace *kt;
    sv_krows rows;
    size_t k;
    int hover_row, hover_col;
    int quiz_row;   /* predict mode's asked row (kquiz.c); -1 none */
    bool *hazard;   /* [row * cols + col]: a hazard of step k there (NULL: none at all) */
    uint8_t *bank;  /* [row * cols + col]: the ways of its bank conflict in step k, 0 none
                       (NULL: none at all) */
    const sv_reading *rd; /* the trace's reading (ktrace_reading.h) */
    sv_rstep mk;    /* what it draws over step k; array -1: nothing */
} kdraw;

/* The step's hazard cells by pane row and column, once per frame: a
 * lookup per cell would pass over every hazard (10000 kept at n = 1024). */
static bool *hazard_cells(const kdraw *d)
{
    const sv_ktrace *kt = d->kt;
    size_t cols = d->rows.cols;
    bool *hz = NULL;
    for (size_t h = 0; h < kt->nhazards; h++) {
        const sv_khazard *x = &kt->hazards[h];
        uint32_t col;
        int r = x->step == d->k ? sv_kpane_row_of(&d->rows, x->array, x->cell, &col) : -1;
        if (r < 0 || col >= cols)
            continue;
        if (!hz && !(hz = calloc((size_t)d->rows.n * cols, sizeof *hz)))
            return NULL;
        hz[(size_t)r * cols + col] = true;
    }
    return hz;
}

/* The step's colliding cells (bank conflicts) by pane row and column, with
 * their ways, once per frame. */
static uint8_t *bank_cells(const kdraw *d)
{
    const sv_ktrace *kt = d->kt;
    size_t cols = d->rows.cols;
    uint8_t *bk = NULL;
    size_t i = sv_kpane_bank_first(kt, d->k);
    for (; i < kt->nbankcells && kt->bankcells[i].step == d->k; i++) {
        const sv_kbankcell *x = &kt->bankcells[i];
        uint32_t col;
        int r = sv_kpane_row_of(&d->rows, x->array, x->cell, &col);
        if (r < 0 || col >= cols)
            continue;
        if (!bk && !(bk = calloc((size_t)d->rows.n * cols, 1)))
            return NULL;
        bk[(size_t)r * cols + col] = x->ways;
    }
    return bk;
}

static sv_rgba case_rgb(const sv_theme *t, sv_case c)
{
    return c == SV_CASE_FULL ? t->full : c == SV_CASE_PARTIAL ? t->partial : t->copy;
}

static void draw_row_labels(const kdraw *d)
{
    for (int r = 0; r < d->rows.n; r++) {
        const sv_krow *row = &d->rows.row[r];
        float y = d->l->row_y[r];
        sv_gfx_text(d->g, SV_FONT_SANS_BOLD, d->l->row_label_px, d->l->label_col.x,
                    y - d->l->row_label_dy, SV_ALIGN_LEFT, d->t->text, row->name);
        const sv_karray_kind kind = row->kind == SV_KROW_ARRAY ? d->kt->arrays[row->array].kind
                                                                : SV_KARRAY_OUT;
        const char *sub = kind == SV_KARRAY_REG      ? "registers"
                          : kind == SV_KARRAY_SHARED ? "shared memory"
                                                     : "global memory";
        sv_gfx_text(d->g, SV_FONT_SANS, d->l->row_sub_px, d->l->label_col.x,
                    y + d->l->row_sub_dy, SV_ALIGN_LEFT, d->t->text_dim, sub);
    }
}

/* The size of words on the cells (a read's value, a swap, a range, a
 * failure): share of the small text, never below the legible size (issue
 * 28: 11 to 13 px at 1024x768 in the compare view). */
static float words_px(const sv_layout *l, float share)
{
    return fmaxf(fmaxf(l->small_px * share, l->legible_px), 8.0f);
}

static void draw_value(const kdraw *d, sv_box b, sv_value val, sv_rgba col, float px)
{
    if (px <= 0.0f)
        return;
    char s[48];
    sv_value_format_as(d->kt->type, val, d->kt->float_style, s, sizeof s);
    float fpx = sv_scene_fit_px(d->g, SV_FONT_MONO, px, b.w * 0.92f, s);
    sv_gfx_text(d->g, SV_FONT_MONO, fpx, b.x + b.w / 2.0f, b.y + b.h / 2.0f, SV_ALIGN_CENTER,
                col, s);
}

/* Many runs: a bar along the cell's foot, as long as the share of runs in
 * which it was wrong (ktrace.h's cellruns), in the error colour. */
static void draw_runs_bar(const kdraw *d, sv_box b, uint32_t wrong)
{
    if (wrong == 0 || d->kt->runs == 0)
        return;
    float share = (float)wrong / (float)d->kt->runs;
    float h = fmaxf(1.5f, b.h * 0.1f), inset = fminf(b.w * 0.1f, d->l->radius);
    float w = (b.w - 2.0f * inset) * (share > 1.0f ? 1.0f : share);
    sv_gfx_rect(d->g, (sv_box){ b.x + inset, b.y + b.h - h - 0.5f, w, h }, 0.0f, d->t->error,
                d->t->error, 0.0f, SV_BORDER_SOLID);
}

/* A cell of an open question: what it will hold hidden (`?`), or the
 * answer typed so far, the selected one ringed. */
static void draw_asked_cell(const kdraw *d, uint32_t c, sv_box b)
{
    const sv_theme *t = d->t;
    const sv_layout *l = d->l;
    const sv_app_view *v = d->v;
    bool sel = (int)c == v->quiz_sel;
    sv_gfx_rect(d->g, b, l->radius, t->cell_fill, sel ? t->accent : t->cell_border,
                l->border_w * (sel ? 2.4f : 1.0f), SV_BORDER_SOLID);
    if (l->num_px <= 0.0f)
        return;
    if (sel && v->quiz_text && v->quiz_text[0]) {
        char buf[40];
        snprintf(buf, sizeof buf, "%s_", v->quiz_text);
        float px = sv_scene_fit_px(d->g, SV_FONT_MONO, l->num_px, b.w * 0.9f, buf);
        sv_gfx_text(d->g, SV_FONT_MONO, px, b.x + b.w / 2.0f, b.y + b.h / 2.0f,
                    SV_ALIGN_CENTER, t->accent, buf);
    } else if (v->quiz_has && v->quiz_has[c]) {
        draw_value(d, b, v->quiz_value[c], t->accent, l->num_px);
    } else {
        sv_gfx_text(d->g, SV_FONT_MONO, l->num_px, b.x + b.w / 2.0f, b.y + b.h / 2.0f,
                    SV_ALIGN_CENTER, t->accent, "?");
    }
}

/* After Reveal: a ring on each answered cell, solid when right, dashed
 * when wrong. */
static void draw_verdict(const kdraw *d, int r, uint32_t c)
{
    const sv_app_view *v = d->v;
    if (!v->quiz || v->quiz_asking || !v->quiz_scored || v->quiz_step != v->step ||
        !v->quiz_result || r != d->quiz_row || c >= d->kt->n ||
        v->quiz_result[c] == SV_QUIZ_UNASKED)
        return;
    bool ok = v->quiz_result[c] == SV_QUIZ_RIGHT;
    sv_rgba col = ok ? d->t->accent : d->t->error;
    sv_box b = sv_layout_cell(d->l, r, (int)c);
    float e = fmaxf(2.0f, 1.6f * d->l->border_w);
    sv_gfx_rect(d->g, (sv_box){ b.x - e, b.y - e, b.w + 2 * e, b.h + 2 * e }, d->l->radius + e,
                sv_rgba_alpha(d->t->bg, 0.0f), col, fmaxf(2.0f, 0.45f * d->l->unit),
                ok ? SV_BORDER_SOLID : SV_BORDER_DASHED);
}

/* What one cell looks like: its box, value, fill and border (the case where
 * the reading holds), the hazard hatch (0 none, 1 the error colour: wrong in
 * the shown run or nothing says, 2 dim: this run left it right), the runs
 * it was wrong in. */
typedef struct klook {
    sv_box b;
    bool have, wrote;
    sv_value val;
    sv_kmark mark;
    sv_rgba fill, border;
    sv_border style;
    float bw;
    int hatch;
    uint32_t wrong;
    uint8_t ways;   /* its bank conflict's ways, 0 none */
} klook;

static void cell_look(const kdraw *d, int r, uint32_t c, klook *k)
{
    const sv_theme *t = d->t;
    const sv_layout *l = d->l;
    const sv_krow *row = &d->rows.row[r];
    k->b = sv_layout_cell(l, r, (int)c);
    k->have = sv_kpane_value(d->kt, d->k, row, c, &k->val);
    k->wrote = sv_kpane_wrote(d->kt, d->k, row, c);
    sv_case cs = SV_CASE_COPY;
    k->mark = sv_kpane_mark(d->kt, d->k, row, c, &cs);
    k->fill = k->have ? t->cell_fill : sv_rgba_mix(t->cell_fill, t->bg, 0.55f);
    k->border = t->cell_border;
    k->style = SV_BORDER_SOLID;
    k->bw = l->border_w;
    if (k->mark == SV_KMARK_CASE) {
        k->border = case_rgb(t, cs);
        k->fill = sv_rgba_mix(t->cell_fill, k->border, t->tint);
        k->style = cs == SV_CASE_FULL ? SV_BORDER_SOLID
                   : cs == SV_CASE_PARTIAL ? SV_BORDER_DASHED : SV_BORDER_DOTTED;
        k->bw *= 1.8f * t->line_scale;
    } else if (k->mark == SV_KMARK_BROKEN) {
        k->border = t->error;
        k->bw *= 2.4f * t->line_scale;
    } else if (k->wrote) { /* written in this step, no case: a plain, firmer border */
        k->border = t->text_dim;
        k->bw *= 1.5f;
    }
    k->hatch = 0;
    if (row->kind == SV_KROW_ARRAY && d->hazard && d->hazard[(size_t)r * d->rows.cols + c])
        k->hatch = sv_kpane_verdict(d->kt, d->k, row, c) == SV_KCELL_RIGHT ? 2 : 1;
    const uint32_t *which;
    if (!sv_kpane_cell_runs(d->kt, d->k, row, c, &k->wrong, &which))
        k->wrong = 0;
    k->ways = row->kind == SV_KROW_ARRAY && d->bank ? d->bank[(size_t)r * d->rows.cols + c] : 0;
}

/* A bank conflict on its cell: a bar along the cell's top in the window
 * colour and, where it fits, a tag "×W" at its top right (W ways: the
 * distinct words its bank served in one request). */
static void draw_bank(const kdraw *d, sv_box b, uint8_t ways, bool tag)
{
    if (ways < 2)
        return;
    const sv_layout *l = d->l;
    sv_rgba ink = d->t->window;
    float h = fmaxf(1.5f, b.h * 0.12f), inset = fminf(b.w * 0.1f, l->radius);
    sv_gfx_rect(d->g, (sv_box){ b.x + inset, b.y + 0.5f, b.w - 2.0f * inset, h }, 0.0f, ink, ink,
                0.0f, SV_BORDER_SOLID);
    if (!tag || l->num_px <= 0.0f)
        return;
    char s[16];
    snprintf(s, sizeof s, "\u00d7%u", (unsigned)ways);
    float px = fmaxf(l->legible_px * 0.85f, l->num_px * 0.42f);
    float tw = sv_gfx_text_width(d->g, SV_FONT_SANS_BOLD, px, s) + 0.5f * px;
    if (tw > b.w * 0.75f)
        return;
    sv_box tb = { b.x + b.w - tw - 0.1f * px, b.y - 0.55f * px, tw, 1.1f * px };
    sv_gfx_rect(d->g, tb, 0.5f * px, ink, ink, 0.0f, SV_BORDER_SOLID);
    sv_gfx_text(d->g, SV_FONT_SANS_BOLD, px, tb.x + tb.w / 2.0f, tb.y + tb.h / 2.0f,
                SV_ALIGN_CENTER, d->t->tag_text, s);
}

static sv_rgba hatch_rgb(const sv_theme *t, int hatch)
{
    return hatch == 2 ? sv_rgba_alpha(t->text_dim, 0.55f) : t->error;
}

/* One cell: fill, border, value, the broken cell's "should be", the hazard
 * hatch, the wrong runs' bar, the ghost value. */
static void draw_cell(const kdraw *d, int r, uint32_t c)
{
    const sv_theme *t = d->t;
    const sv_layout *l = d->l;
    const sv_krow *row = &d->rows.row[r];
    klook k;
    cell_look(d, r, c, &k);
    sv_box b = k.b;
    if (k.wrote && r == d->quiz_row && d->v->quiz_asking) {
        draw_asked_cell(d, c, b);
        return;
    }
    sv_gfx_rect(d->g, b, l->radius, k.fill, k.border, k.bw, k.style);
    if (k.have)
        draw_value(d, b, k.val, t->cell_text, l->num_px);
    else if (row->kind != SV_KROW_INPUT && l->num_px > 0.0f)
        sv_gfx_text(d->g, SV_FONT_MONO, fmaxf(l->num_px * 0.8f, fminf(l->legible_px, l->num_px)),
                    b.x + b.w / 2.0f, b.y + b.h / 2.0f, SV_ALIGN_CENTER,
                    sv_rgba_alpha(t->uninit, 0.7f), "?");
    float u = l->unit;
    if (k.mark == SV_KMARK_BROKEN && d->kt->readings) {
        char want[48], s[64];
        const sv_kregrounds *g = sv_ktrace_reg_reading(d->kt, row->array);
        sv_value_format(d->kt->type, g ? g->want : d->kt->readings[d->k].window_value,
                        want, sizeof want);
        snprintf(s, sizeof s, "\u2260 %s", want);
        float px = words_px(l, 0.8f);
        sv_gfx_text(d->g, SV_FONT_SANS_BOLD, px, b.x + b.w / 2.0f, b.y + b.h + 0.9f * px,
                    SV_ALIGN_CENTER, t->error, s);
    }
    if (k.hatch)
        sv_scene_hatch(d->g, b, fmaxf(3.0f, 0.9f * u), fmaxf(1.0f, 0.2f * u),
                       hatch_rgb(t, k.hatch));
    draw_runs_bar(d, b, k.wrong);
    draw_bank(d, b, k.ways, true);
    sv_value want;
    if (sv_kpane_compare(d->v, d->k, row, c, &want)) {
        bool same = k.have && memcmp(&want, &k.val, sizeof k.val) == 0;
        sv_box gb = { b.x, b.y + b.h + 0.25f * u, b.w, fmaxf(l->cell_h * 0.34f, 6.0f) };
        sv_gfx_rect(d->g, gb, l->radius * 0.5f, sv_rgba_alpha(t->panel, 0.8f),
                    same ? t->grid : t->error, fmaxf(1.0f, same ? 0.1f * u : 0.25f * u),
                    same ? SV_BORDER_DOTTED : SV_BORDER_SOLID);
        draw_value(d, gb, want, same ? t->text_dim : t->error, l->num_px * 0.6f);
    }
    draw_verdict(d, r, c);
}

/* Cells narrower than a few px (n = 1024 at 1080p): no border, number or
 * ghost fits, so each run of neighbours that look alike (fill, border,
 * hatch, wrong in some run or not) is one rectangle, hatched and barred as
 * one: thin quads are what a software rasteriser is slowest at (as the
 * chapter's pane, render_cells.c). */
static void draw_row_merged(const kdraw *d, int r)
{
    const sv_layout *l = d->l;
    uint32_t hi = d->rows.row[r].count, c = (uint32_t)l->first_cell;
    while (c <= (uint32_t)l->last_cell && c < hi) {
        klook a, b;
        cell_look(d, r, c, &a);
        uint32_t j = c + 1, worst = a.wrong;
        uint8_t most = a.ways;
        for (; j <= (uint32_t)l->last_cell && j < hi; j++) {
            cell_look(d, r, j, &b);
            if (memcmp(&a.fill, &b.fill, sizeof a.fill) != 0 ||
                memcmp(&a.border, &b.border, sizeof a.border) != 0 || a.hatch != b.hatch ||
                (a.wrong > 0) != (b.wrong > 0) || (a.ways > 0) != (b.ways > 0))
                break;
            worst = b.wrong > worst ? b.wrong : worst;
            most = b.ways > most ? b.ways : most;
        }
        sv_box last = sv_layout_cell(l, r, (int)j - 1);
        sv_box run = { a.b.x, a.b.y, last.x + last.w - a.b.x, a.b.h };
        sv_gfx_rect(d->g, run, fmaxf(l->radius, 0.4f * l->unit), a.fill, a.border,
                    fmaxf(1.0f, 0.3f * l->unit), a.style);
        if (a.hatch && run.w >= 6.0f)
            sv_scene_hatch(d->g, run, fmaxf(4.0f, run.h * 0.16f), fmaxf(1.0f, 0.2f * l->unit),
                           hatch_rgb(d->t, a.hatch));
        draw_runs_bar(d, run, worst);
        draw_bank(d, run, most, false);
        c = j;
    }
}

/* An arrow from the read cell (a, cell) into the written box dst, with the
 * value the thread saw at its tail. One that passes over a row between the
 * two (out[i] = t[i] + in[i]) is drawn under the cells (pass 0, before
 * them), so the row it crosses keeps its values in sight, and its value
 * sits just past the cell it starts from (pass 1, after them: issue 28,
 * the values' circles sat on the row between); every other one in pass 1. */
static void read_arrow(const kdraw *d, const sv_kaccess *x, sv_box dst, int dst_row, bool hot,
                       int pass)
{
    uint32_t col;
    int sr = sv_kpane_row_of(&d->rows, x->array, x->cell, &col);
    if (sr < 0)
        return;
    bool over = sr - dst_row >= 2 || dst_row - sr >= 2;
    if (pass == 0 && !over)
        return;
    sv_box s = sv_layout_cell(d->l, sr, (int)col);
    float u = d->l->unit;
    float x0 = s.x + s.w / 2.0f, x1 = dst.x + dst.w / 2.0f;
    float y0, y1;
    if (sr < dst_row) {
        y0 = s.y + s.h + 0.2f * u;
        y1 = dst.y - 0.2f * u;
    } else if (sr > dst_row) {
        y0 = s.y - 0.2f * u;
        y1 = dst.y + dst.h + 0.2f * u;
    } else { /* the same row: a hop over it */
        y0 = s.y - 0.2f * u;
        y1 = dst.y - 0.2f * u;
        float mid = fminf(y0, y1) - 2.0f * u;
        float xm = (x0 + x1) / 2.0f;
        sv_rgba ink = hot ? d->t->accent : sv_rgba_alpha(d->t->arrow, 0.7f);
        float w = fmaxf(1.0f, (hot ? 0.3f : 0.18f) * u);
        sv_gfx_line(d->g, x0, y0, xm, mid, w, ink);
        sv_gfx_arrow(d->g, xm, mid, x1, y1, w, fmaxf(4.0f, 1.0f * u), ink);
        return;
    }
    sv_rgba ink = hot ? d->t->accent : sv_rgba_alpha(d->t->arrow, 0.7f);
    float w = fmaxf(1.0f, (hot ? 0.3f : 0.18f) * u);
    if (pass == 0 || !over)
        sv_gfx_arrow(d->g, x0, y0, x1, y1, w, fmaxf(4.0f, 1.0f * u), ink);
    if (pass == 0)
        return;
    if (hot || d->l->num_px > 0.0f) {
        /* the value the thread saw, at the arrow's tail */
        char vs[48];
        sv_value_format(d->kt->type, x->value, vs, sizeof vs);
        float px = words_px(d->l, 0.7f);
        float along = 0.22f;
        if (over) /* just past the cell it starts from */
            along = fminf(0.22f, (0.4f * u + 0.8f * px) / fmaxf(fabsf(y1 - y0), 1.0f));
        float tx = x0 + (x1 - x0) * along, ty = y0 + (y1 - y0) * along;
        float tw = sv_gfx_text_width(d->g, SV_FONT_MONO, px, vs) + 0.8f * u;
        sv_gfx_rect(d->g, (sv_box){ tx - tw / 2.0f, ty - 0.7f * px, tw, 1.4f * px }, 0.6f * px,
                    d->t->panel, ink, fmaxf(1.0f, 0.1f * u), SV_BORDER_SOLID);
        sv_gfx_text(d->g, SV_FONT_MONO, px, tx, ty, SV_ALIGN_CENTER, d->t->text, vs);
    }
}

/* ---- A reading's marks (ktrace_reading.h: Blelloch's ranges and swaps) ----- */

/* The pane row holding both cells of a swap, -1 when they are not in one
 * row (a pair reaching into the padding of the next row). */
static int swap_row(const kdraw *d, const sv_rexchange *w)
{
    uint32_t a = (uint32_t)d->mk.array, cl, cr;
    int rl = sv_kpane_row_of(&d->rows, a, w->left, &cl);
    int rr = sv_kpane_row_of(&d->rows, a, w->right, &cr);
    return rl >= 0 && rl == rr ? rl : -1;
}

/* The room between pane row r and the row above (up) or below it: from
 * the cells' edge to the next row's cells, or to the rows' area's edge. */
static float row_gap(const kdraw *d, int r, bool up)
{
    const sv_layout *l = d->l;
    float half = l->cell_h / 2.0f;
    if (up)
        return r > 0 ? (l->row_y[r] - half) - (l->row_y[r - 1] + half)
                     : (l->row_y[r] - half) - l->rows_area.y;
    return r + 1 < d->rows.n ? (l->row_y[r + 1] - half) - (l->row_y[r] + half)
                             : l->rows_area.y + l->rows_area.h - (l->row_y[r] + half);
}

/* A down-sweep swap's arrows' rise off the row, and whether their words
 * fit beside them, in row r's gaps (issue 28: at 1024x768 the words ran
 * into the next row's values): px the words' size. */
static float swap_rise(const kdraw *d, int r, float px, bool *words)
{
    const sv_layout *l = d->l;
    float u = l->unit, gap = fminf(row_gap(d, r, true), row_gap(d, r, false)) - 0.2f * u;
    float rise = fminf(fminf(2.2f * u, l->cell_h * 0.6f), fmaxf(gap - 1.3f * px, 0.35f * gap));
    *words = rise + 1.3f * px <= gap;
    return rise;
}

/* A swap as a swap: the parent's value goes left over the row, the old
 * left child's comes right under it (added to the parent), and the pair is
 * marked as one exchange. */
static void draw_swap(const kdraw *d, const sv_rexchange *w, int r)
{
    uint32_t a = (uint32_t)d->mk.array, cl, cr;
    sv_kpane_row_of(&d->rows, a, w->left, &cl);
    sv_kpane_row_of(&d->rows, a, w->right, &cr);
    sv_box L = sv_layout_cell(d->l, r, (int)cl), R = sv_layout_cell(d->l, r, (int)cr);
    float u = d->l->unit, xl = L.x + L.w / 2.0f, xr = R.x + R.w / 2.0f;
    float lw = fmaxf(1.0f, 0.25f * u), head = fmaxf(4.0f, 1.0f * u);
    float px = words_px(d->l, 0.7f);
    bool words;
    float top = L.y - 0.2f * u, bot = L.y + L.h + 0.2f * u, rise = swap_rise(d, r, px, &words);
    sv_rgba ink = d->t->accent, ink2 = d->t->full;
    float xm = (xl + xr) / 2.0f;
    /* over the row: the parent's value into the left child */
    sv_gfx_line(d->g, xr, top, xm, top - rise, lw, ink);
    sv_gfx_arrow(d->g, xm, top - rise, xl, top, lw, head, ink);
    /* under it: the old left child into the right one, added */
    sv_gfx_line(d->g, xl, bot, xm, bot + rise, lw, ink2);
    sv_gfx_arrow(d->g, xm, bot + rise, xr, bot, lw, head, ink2);
    if (!words || d->l->cell_pitch * (float)(cr - cl) < 4.0f * px)
        return; /* too narrow for words: the arrows say it */
    char a1[64], a2[64], v1[48], v2[48];
    sv_value_format(d->kt->type, w->parent, v1, sizeof v1);
    sv_value_format(d->kt->type, w->old_left, v2, sizeof v2);
    snprintf(a1, sizeof a1, "swap: %s ←", v1);
    snprintf(a2, sizeof a2, "%s %s →", sv_op_symbol(d->kt->op), v2);
    sv_gfx_text(d->g, SV_FONT_SANS_BOLD, px, xm, top - rise - 0.7f * px, SV_ALIGN_CENTER, ink, a1);
    sv_gfx_text(d->g, SV_FONT_SANS_BOLD, px, xm, bot + rise + 0.8f * px, SV_ALIGN_CENTER, ink2,
                a2);
}

/* A reading's picture over the cells (Blelloch's): each marked cell's
 * words under it ("[0..3]", the range its subtree's or prefix's cell
 * holds); a cell ringed and named ("root cleared"); the exchanges. */
static void draw_marks(const kdraw *d)
{
    const sv_rstep *st = &d->mk;
    if (st->array < 0)
        return;
    uint32_t a = (uint32_t)st->array;
    const sv_layout *l = d->l;
    float u = l->unit, px = words_px(l, 0.75f);
    /* The marks under their cells, at the legible size or more: on one
     * line where each fits its cell's pitch, else every other one a line
     * lower, else none; below the exchanges' words; and only where the
     * row's gap below holds them (issue 28: they ran into each other, the
     * swaps' words and the next row). */
    float widest = 0.0f;
    char rt[48];
    for (uint32_t c = 0; c < st->cells; c++)
        if (d->rd->mark(d->kt, d->k, c, rt, sizeof rt))
            widest = fmaxf(widest, sv_mono_width(px, (float)strlen(rt)));
    int lines = widest <= 0.92f * l->cell_pitch ? 1 : widest <= 1.84f * l->cell_pitch ? 2 : 0;
    bool swap_words = false;
    float below = 0.0f; /* where the marks' first line starts, under the cells */
    uint32_t col0;
    int mark_row = sv_kpane_row_of(&d->rows, a, 0, &col0);
    if (st->exchanges && mark_row >= 0) {
        float wpx = words_px(l, 0.7f);
        float rise = swap_rise(d, mark_row, wpx, &swap_words);
        below = 0.2f * u + rise + (swap_words ? 1.3f * wpx : 0.0f);
    }
    if (mark_row >= 0 && lines > 0 &&
        below + (0.9f + 1.2f * (float)(lines - 1)) * px + 0.45f * px > row_gap(d, mark_row, false))
        lines = 0;
    bool words = lines > 0;
    int nth = 0;
    for (uint32_t c = 0; c < st->cells; c++) {
        uint32_t col;
        int r = sv_kpane_row_of(&d->rows, a, c, &col);
        if (r < 0 || (int)col < l->first_cell || (int)col > l->last_cell)
            continue;
        sv_box b = sv_layout_cell(l, r, (int)col);
        if (st->ring == (int64_t)c) {
            sv_box ring = { b.x - 0.4f * u, b.y - 0.4f * u, b.w + 0.8f * u, b.h + 0.8f * u };
            sv_gfx_rect(d->g, ring, l->radius, sv_rgba_alpha(d->t->accent, 0.0f), d->t->accent,
                        fmaxf(2.0f, 0.4f * u), SV_BORDER_SOLID);
            sv_gfx_text(d->g, SV_FONT_SANS_BOLD, px, b.x + b.w, b.y - 0.4f * u - 0.8f * px,
                        SV_ALIGN_RIGHT, d->t->accent, st->ring_words);
        }
        if (words && d->rd->mark(d->kt, d->k, c, rt, sizeof rt)) {
            float y = b.y + b.h + below + 0.9f * px + (lines == 2 && (nth++ & 1) ? 1.2f * px : 0.0f);
            /* kept inside the cells' clip (the last cell's sits on its edge) */
            float half = 0.5f * sv_mono_width(px, (float)strlen(rt));
            float x = sv_clampf(b.x + b.w / 2.0f, l->cells_clip.x + half,
                                l->cells_clip.x + l->cells_clip.w - half);
            sv_gfx_text(d->g, SV_FONT_MONO, px, x, y, SV_ALIGN_CENTER,
                        st->second_tone ? d->t->full : d->t->accent, rt);
        }
    }
    if (!st->exchanges)
        return;
    /* Each exchange once, at its right cell, left to right. */
    for (uint32_t c = 0; c < st->cells; c++) {
        sv_rexchange w;
        uint32_t cl, cr;
        if (!d->rd->exchange_at(d->kt, d->k, c, &w) || w.right != c)
            continue;
        int r = sv_kpane_row_of(&d->rows, a, w.left, &cl);
        if (r < 0 || sv_kpane_row_of(&d->rows, a, w.right, &cr) != r ||
            (int)cr < l->first_cell || (int)cl > l->last_cell)
            continue; /* out of view, or across rows: the read arrows show it */
        draw_swap(d, &w, r);
    }
}

/* Arrows from the reads behind each write of the step, for cells in view;
 * past 64 cells in view only the hovered cell's; pass 0 the ones under the
 * cells, pass 1 the rest (read_arrow). */
static void draw_arrows(const kdraw *d, int pass)
{
    if (!sv_kpane_has_reads(d->kt) || d->k >= d->kt->nsteps)
        return;
    const sv_kstep *s = &d->kt->steps[d->k];
    bool all = d->l->last_cell - d->l->first_cell < 64;
    for (size_t w = 0; w < s->nwrites; w++) {
        const sv_kwrite *wr = &s->writes[w];
        uint32_t col;
        int r = sv_kpane_row_of(&d->rows, wr->at.array, wr->at.cell, &col);
        if (r < 0 || (int)col < d->l->first_cell || (int)col > d->l->last_cell)
            continue;
        bool hot = r == d->hover_row && (int)col == d->hover_col;
        if (!all && !hot)
            continue;
        /* the last write of the cell is what it shows */
        if (sv_kpane_write_of(d->kt, d->k, wr->at.array, wr->at.cell) != wr)
            continue;
        sv_rexchange sw; /* an exchange (Blelloch's down-sweep): drawn as one (draw_marks) */
        if (d->mk.exchanges && wr->at.array == (uint32_t)d->mk.array &&
            d->rd->exchange_at(d->kt, d->k, wr->at.cell, &sw) && swap_row(d, &sw) >= 0)
            continue;
        sv_box dst = sv_layout_cell(d->l, r, (int)col);
        for (uint32_t i = 0; i < wr->nreads; i++)
            read_arrow(d, &s->reads[wr->first_read + i], dst, r, hot, pass);
    }
}

/* The failure on its cells: an out-of-range reader's cell with the index
 * it tried; a deadlock's waiting threads, per barrier line. */
static void draw_failure(const kdraw *d)
{
    const sv_ktrace *kt = d->kt;
    if (!sv_kpane_failed_here(kt, d->k))
        return;
    const sv_theme *t = d->t;
    const sv_layout *l = d->l;
    float u = l->unit, px = words_px(l, 0.8f);
    int lastrow = d->rows.n >= 3 ? d->rows.n - 2 : 0; /* the last array row */
    if (kt->failure.kind == SV_KFAIL_OUT_OF_RANGE && kt->failure.thread >= 0 &&
        (size_t)kt->failure.thread < kt->n) {
        int r = 1 <= lastrow ? 1 : 0;
        if (kt->failure.array >= 0)
            for (int k = 0; k < d->rows.n; k++)
                if (d->rows.row[k].array == (uint32_t)kt->failure.array) {
                    r = k;
                    break;
                }
        sv_box b = sv_layout_cell(l, r, kt->failure.thread);
        sv_box ring = { b.x - 0.4f * u, b.y - 0.4f * u, b.w + 0.8f * u, b.h + 0.8f * u };
        sv_gfx_rect(d->g, ring, l->radius, sv_rgba_alpha(t->error, 0.0f), t->error,
                    fmaxf(2.0f, 0.4f * u), SV_BORDER_SOLID);
        char name[64] = "in", s[96];
        if (kt->failure.array >= 0 && (size_t)kt->failure.array < kt->narrays)
            snprintf(name, sizeof name, "%s", d->rows.row[r].kind == SV_KROW_ARRAY ?
                     kt->arrays[kt->failure.array].name : "in");
        snprintf(s, sizeof s, "read %.40s[%lld]", name, (long long)kt->failure.index);
        sv_gfx_text(d->g, SV_FONT_SANS_BOLD, px, b.x, b.y - 0.9f * px, SV_ALIGN_LEFT, t->error, s);
    }
    if (kt->failure.kind == SV_KFAIL_DEADLOCK) {
        for (size_t w = 0; w < kt->failure.nwaits; w++) {
            const sv_kwait *x = &kt->failure.waits[w];
            if (x->count == 0 || x->first_thread >= kt->n)
                continue;
            uint32_t hi = x->first_thread + x->count - 1;
            if (hi >= kt->n) hi = (uint32_t)kt->n - 1;
            sv_box a = sv_layout_cell(l, lastrow, (int)x->first_thread);
            sv_box b = sv_layout_cell(l, lastrow, (int)hi);
            float y = a.y + a.h + 0.8f * u + (float)w * 1.6f * px;
            sv_rgba col = x->line > 0 ? t->error : t->text_dim;
            sv_gfx_line(d->g, a.x, y, b.x + b.w, y, fmaxf(2.0f, 0.35f * u), col);
            char s[96];
            if (x->line > 0)
                snprintf(s, sizeof s, "%u wait at the barrier of line %d", (unsigned)x->count,
                         (int)x->line);
            else
                snprintf(s, sizeof s, "%u ended", (unsigned)x->count);
            sv_gfx_text(d->g, SV_FONT_SANS_BOLD, px, a.x, y + 0.8f * px, SV_ALIGN_LEFT, col, s);
        }
    }
}

/* A launch's tiles (issue 31): under the in[] and out[] rows, a bracket
 * under the cells of out[] each block wrote (the trace's tiles; where it
 * has none, blockDim.x cells from blockIdx.x * blockDim.x), "block b" in it
 * where it fits. */
static void draw_tile(const kdraw *d, int r, uint32_t b, uint32_t lo, uint32_t hi, float y,
                      float px)
{
    const sv_layout *l = d->l;
    if ((int)hi < l->first_cell || (int)lo > l->last_cell)
        return;
    const sv_klaunch *la = sv_ktrace_launch_of(d->kt, d->k);
    bool chosen = la && d->v->ktile_lo == (int64_t)lo && d->v->ktile_hi == (int64_t)hi &&
                  d->v->ktile_launch == (uint32_t)(la - d->kt->launches); /* Tab's */
    sv_rgba c = chosen ? d->t->accent : d->t->text_dim;
    sv_box a = sv_layout_cell(l, r, (int)lo), z = sv_layout_cell(l, r, (int)hi);
    float x0 = a.x + 1.0f, x1 = z.x + z.w - 1.0f;
    float w = chosen ? 3.0f : 1.5f;
    sv_gfx_line(d->g, x0, y, x1, y, w, c);
    sv_gfx_line(d->g, x0, y - 0.35f * px, x0, y, w, c);
    sv_gfx_line(d->g, x1, y - 0.35f * px, x1, y, w, c);
    char label[32];
    snprintf(label, sizeof label, "block %" PRIu32, b);
    if (sv_gfx_text_width(d->g, SV_FONT_SANS, px, label) < x1 - x0 - px)
        sv_gfx_text(d->g, SV_FONT_SANS, px, (x0 + x1) / 2.0f, y + 0.95f * px, SV_ALIGN_CENTER, c,
                    label);
}

static void draw_tiles(const kdraw *d)
{
    const sv_klaunch *la = sv_ktrace_launch_of(d->kt, d->k);
    const sv_layout *l = d->l;
    if (!la || la->block == 0 || l->cell_pitch <= 0.0f)
        return;
    const uint32_t li = (uint32_t)(la - d->kt->launches);
    bool recorded = false;
    for (size_t i = 0; i < d->kt->ntiles && !recorded; i++)
        recorded = d->kt->tiles[i].launch == li;
    float px = fmaxf(l->row_sub_px, l->legible_px);
    for (int r = 0; r < d->rows.n; r++) {
        const sv_krow *row = &d->rows.row[r];
        if (row->kind == SV_KROW_ARRAY || row->count < 2)
            continue;
        float y = l->row_y[r] + l->cell_h / 2.0f + 0.45f * px;
        for (size_t i = 0; recorded && i < d->kt->ntiles; i++) {
            const sv_ktile *x = &d->kt->tiles[i];
            if (x->launch == li && x->out_lo >= 0 && (uint64_t)x->out_hi < row->count)
                draw_tile(d, r, x->block, (uint32_t)x->out_lo, (uint32_t)x->out_hi, y, px);
        }
        for (uint32_t b = 0; !recorded && b < la->grid && (size_t)b * la->block < row->count;
             b++) {
            uint32_t lo = b * la->block, hi = lo + la->block;
            draw_tile(d, r, b, lo, (hi > row->count ? (uint32_t)row->count : hi) - 1, y, px);
        }
    }
}

void sv_render_kernel(sv_gfx *g, const sv_app_view *v, const sv_layout *l, const sv_theme *t)
{
    kdraw d = { .g = g, .v = v, .l = l, .t = t, .kt = v->ktrace, .hover_row = -1,
                .hover_col = -1 };
    if (!d.kt || !sv_kpane_rows(d.kt, &d.rows))
        return;
    d.k = (size_t)sv_kpane_step(v);
    d.quiz_row = v->quiz ? sv_kquiz_row_of(d.kt, &d.rows, d.k) : -1;
    d.rd = sv_reading_of(d.kt);
    if (!d.rd->marks || !d.rd->marks(d.kt, d.k, &d.mk))
        d.mk = (sv_rstep){ .array = -1, .ring = -1 };
    sv_scene_tooltip_target(v, &d.hover_row, &d.hover_col);
    draw_row_labels(&d);
    sv_gfx_clip(g, &l->cells_clip);
    if (d.kt->nsteps > 0) {
        d.hazard = hazard_cells(&d);
        d.bank = bank_cells(&d);
        draw_arrows(&d, 0);
        bool merged = l->cell_pitch < 4.0f;
        for (int r = 0; r < d.rows.n; r++) {
            uint32_t hi = d.rows.row[r].count;
            if (merged && !(r == d.quiz_row && v->quiz_asking)) {
                draw_row_merged(&d, r);
                continue;
            }
            for (int c = l->first_cell; c <= l->last_cell && (uint32_t)c < hi; c++)
                draw_cell(&d, r, (uint32_t)c);
        }
        free(d.hazard);
        free(d.bank);
        draw_arrows(&d, 1);
        draw_tiles(&d);
        draw_marks(&d);
        draw_failure(&d);
    }
    sv_gfx_clip(g, NULL);
}

static bool kernel_hit(const sv_layout *l, float x, float y, int *row, int *cell)
{
    return sv_rows_hit(l, x, y, row, cell);
}

const sv_pane_fns sv_pane_kernel = {
    .name = "kernel",
    .caption_room = kernel_caption_room,
    .layout = kernel_layout,
    .draw = sv_render_kernel,
    .hit = kernel_hit,
    .caption = sv_kwords_caption,
    .tooltip = sv_kwords_tooltip,
    .conditions = sv_kwords_case_conditions,
    .counters = sv_kwords_counters,
    .header = sv_kwords_header,
};
