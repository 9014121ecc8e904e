/* A kernel trace's overview (key V, --overview, overview.png/.svg): every
 * step stacked in one picture under the input, each as the row it wrote
 * (the kernel pane's most written row, kquiz.c) after that step: its
 * values, the cells written in the step with a firm border, a case's
 * border where the chapter's reading holds, hazards hatched, the first
 * broken cell in red; a step that wrote no cell is a line naming its
 * barrier; a reading's marks on its cells written there (Blelloch's: the
 * range each now holds, ktrace_reading.h). The cells keep the kernel
 * pane's columns; the rows are scaled to fit the height, and past what
 * fits the last rows say how many are left. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/ktrace_reading.h"
#include "font_metrics.h"
#include "kpane.h"

#define OV_MIN_ROW_PX 14.0f /* a step's row below this is not drawn */

/* What the overview draws with: where (g, l, t), what (the trace and its
 * pane rows), and its rows' sizes. */
typedef struct kov {
    const sv_ktrace *kt;
    float row_h, cell_h, num_px, label_px;
    sv_gfx *g;
    const sv_layout *l;
    const sv_theme *t;
    sv_krows rows;
} kov;

static sv_rgba case_ink(const sv_theme *t, sv_case c)
{
    return c == SV_CASE_FULL ? t->full : c == SV_CASE_PARTIAL ? t->partial : t->copy;
}

/* How a cell of the overview looks: fill, border and its style and width. */
typedef struct kov_look {
    sv_box b;
    sv_value val;
    bool have, wrote, hatch;
    sv_rgba border, fill;
    sv_border style;
    float bw;
} kov_look;

static void cell_look(const kov *o, const sv_krow *row, long k, uint32_t c, float cy,
                      kov_look *a)
{
    const sv_layout *l = o->l;
    const sv_theme *t = o->t;
    size_t step = k < 0 ? 0 : (size_t)k;
    a->b = (sv_box){ l->cell_x0 + (float)c * l->cell_pitch, cy - o->cell_h / 2.0f, l->cell_w,
                     o->cell_h };
    a->have = sv_kpane_value(o->kt, step, row, c, &a->val);
    a->wrote = k >= 0 && sv_kpane_wrote(o->kt, step, row, c);
    sv_case cs = SV_CASE_COPY;
    sv_kmark mark = k >= 0 ? sv_kpane_mark(o->kt, step, row, c, &cs) : SV_KMARK_NONE;
    a->border = t->cell_border;
    a->fill = a->have ? t->cell_fill : t->bg;
    a->style = SV_BORDER_SOLID;
    a->bw = l->border_w;
    if (mark == SV_KMARK_CASE) {
        a->border = case_ink(t, cs);
        a->fill = sv_rgba_mix(t->cell_fill, a->border, t->tint);
        a->style = cs == SV_CASE_FULL ? SV_BORDER_SOLID : cs == SV_CASE_PARTIAL
                 ? SV_BORDER_DASHED : SV_BORDER_DOTTED;
        a->bw *= 1.6f;
    } else if (mark == SV_KMARK_BROKEN) {
        a->border = t->error;
        a->bw *= 2.2f;
    } else if (a->wrote) {
        a->border = t->text_dim;
        a->bw *= 1.4f;
    }
    a->hatch = k >= 0 && row->kind == SV_KROW_ARRAY &&
               sv_kpane_hazard_at(o->kt, step, row->array, row->first + c, 0);
}

/* Cells narrower than a few px (a kernel file's many blocks): each run of
 * neighbours that look alike is one rectangle, as the step view's rows
 * (pane_kernel.c): no number fits, and thin quads are slow to raster. */
static void draw_cells_merged(const kov *o, int r, long k, float cy)
{
    const sv_krow *row = &o->rows.row[r];
    const sv_layout *l = o->l;
    uint32_t c = (uint32_t)l->first_cell;
    while ((int)c <= l->last_cell && c < row->count) {
        kov_look a, b;
        cell_look(o, row, k, c, cy, &a);
        uint32_t j = c + 1;
        for (; (int)j <= l->last_cell && j < row->count; j++) {
            cell_look(o, row, k, j, cy, &b);
            if (memcmp(&a.fill, &b.fill, sizeof a.fill) != 0 ||
                memcmp(&a.border, &b.border, sizeof a.border) != 0 || a.style != b.style ||
                a.hatch != b.hatch)
                break;
        }
        sv_box run = { a.b.x, a.b.y, l->cell_x0 + (float)j * l->cell_pitch - a.b.x -
                       (l->cell_pitch - l->cell_w), a.b.h };
        sv_gfx_rect(o->g, run, fminf(l->radius, o->cell_h * 0.2f), a.fill, a.border,
                    fmaxf(1.0f, a.bw), a.style);
        if (a.hatch && run.w >= 6.0f)
            sv_scene_hatch(o->g, run, fmaxf(3.0f, 0.7f * l->unit), fmaxf(1.0f, 0.15f * l->unit),
                           o->t->error);
        c = j;
    }
}

/* The cells of pane row r after step k (k < 0: the input), centred on cy. */
static void draw_cells(const kov *o, int r, long k, float cy)
{
    const sv_krow *row = &o->rows.row[r];
    const sv_layout *l = o->l;
    const sv_theme *t = o->t;
    size_t step = k < 0 ? 0 : (size_t)k;
    if (l->cell_pitch < 4.0f) {
        draw_cells_merged(o, r, k, cy);
        return;
    }
    for (int c = l->first_cell; c <= l->last_cell && (uint32_t)c < row->count; c++) {
        kov_look a;
        cell_look(o, row, k, (uint32_t)c, cy, &a);
        sv_box b = a.b;
        sv_gfx_rect(o->g, b, fminf(l->radius, o->cell_h * 0.2f), a.fill, a.border, a.bw,
                    a.style);
        if (a.have && o->num_px >= 6.0f) {
            char s[48];
            sv_value_format_as(o->kt->type, a.val, o->kt->float_style, s, sizeof s);
            float px = sv_scene_fit_px(o->g, SV_FONT_MONO, o->num_px, b.w * 0.92f, s);
            sv_gfx_text(o->g, SV_FONT_MONO, px, b.x + b.w / 2.0f, cy, SV_ALIGN_CENTER,
                        a.wrote || k < 0 ? t->cell_text : t->text_dim, s);
        }
        /* the reading's mark of the cell written here (Blelloch's "[0..3]") */
        float rpx = o->num_px * 0.55f;
        const sv_reading *rd = sv_reading_of(o->kt);
        sv_rstep st;
        char rt[48];
        if (k >= 0 && a.wrote && row->kind == SV_KROW_ARRAY && rpx >= 6.0f &&
            b.w >= 9.0f * rpx && rd->marks && rd->marks(o->kt, step, &st) &&
            (int32_t)row->array == st.array &&
            rd->mark(o->kt, step, row->first + (uint32_t)c, rt, sizeof rt)) {
            sv_gfx_text(o->g, SV_FONT_MONO, rpx, b.x + b.w - 0.25f * rpx, cy, SV_ALIGN_RIGHT,
                        t->accent, rt);
        }
        if (a.hatch)
            sv_scene_hatch(o->g, b, fmaxf(3.0f, 0.7f * l->unit), fmaxf(1.0f, 0.15f * l->unit),
                           t->error);
    }
}

/* The label left of a step's row: "step 3 · s" and the lines that wrote it. */
static void draw_label(const kov *o, long k, int r, float cy)
{
    char name[96], sub[96] = "";
    const sv_layout *l = o->l;
    if (k < 0) {
        snprintf(name, sizeof name, "in");
    } else {
        char step[16];
        sv_kwords_step_label(o->kt, (int)k, step, sizeof step);
        snprintf(name, sizeof name, "%s%s%s%s",
                 o->kt->nlaunches ? "launch " : step[0] == 'r' ? "" : "step ", step,
                 r >= 0 ? " \u00b7 " : "", r >= 0 ? o->rows.row[r].name : "");
        sv_phase ph[SV_PHASE_COUNT];
        int n = sv_kphases_of(o->kt, (size_t)k, ph);
        for (int i = 0; i < n; i++) {
            int ln[2];
            if (ph[i] != SV_PHASE_BARRIER && sv_kphase_lines(o->kt, (size_t)k, ph[i], ln, 1)) {
                snprintf(sub, sizeof sub, "line %d", ln[0]);
                break;
            }
        }
    }
    float px = sv_scene_fit_px(o->g, SV_FONT_SANS_BOLD, o->label_px, l->label_col.w * 0.95f, name);
    sv_gfx_text(o->g, SV_FONT_SANS_BOLD, px, l->label_col.x, sub[0] ? cy - px * 0.35f : cy,
                SV_ALIGN_LEFT, o->t->text, name);
    if (sub[0])
        sv_gfx_text(o->g, SV_FONT_SANS, px * 0.8f, l->label_col.x, cy + px * 0.6f,
                    SV_ALIGN_LEFT, o->t->text_dim, sub);
}

void sv_render_kernel_overview(sv_gfx *g, const sv_app_view *v, const sv_layout *l,
                               const sv_theme *t, sv_box area)
{
    kov o = { .g = g, .l = l, .t = t, .kt = v->ktrace };
    if (!o.kt || !sv_kpane_rows(o.kt, &o.rows) || l->n <= 0)
        return;
    size_t steps = o.kt->nsteps;
    size_t fit = (size_t)fmaxf(1.0f, floorf(area.h / OV_MIN_ROW_PX));
    size_t shown = steps + 1 <= fit ? steps : fit > 2 ? fit - 2 : 0; /* + input (+ "more") */
    size_t rows = shown + 1 + (shown < steps);
    o.row_h = area.h / (float)rows;
    o.cell_h = fminf(o.row_h * 0.78f, l->cell_h);
    o.num_px = fminf(o.cell_h * 0.55f, l->num_px > 0.0f ? l->num_px : o.cell_h * 0.55f);
    o.label_px = fminf(l->row_label_px, fmaxf(o.row_h * 0.42f, 7.0f));
    sv_gfx_clip(g, &(sv_box){ area.x, area.y, area.w, area.h });
    float cy = area.y + o.row_h / 2.0f;
    draw_label(&o, -1, 0, cy);
    draw_cells(&o, 0, -1, cy);
    for (size_t k = 0; k < shown; k++) {
        cy += o.row_h;
        int r = sv_kquiz_row_of(o.kt, &o.rows, k);
        draw_label(&o, (long)k, r, cy);
        if (r >= 0) {
            draw_cells(&o, r, (long)k, cy);
            continue;
        }
        char s[128];
        if (o.kt->steps[k].barrier_line > 0)
            snprintf(s, sizeof s, "no cell written \u00b7 the threads wait at the barrier of "
                     "line %d", (int)o.kt->steps[k].barrier_line);
        else
            snprintf(s, sizeof s, "no cell written");
        sv_gfx_text(g, SV_FONT_SANS, o.label_px * 0.9f, l->cell_x0, cy, SV_ALIGN_LEFT,
                    t->text_dim, s);
    }
    if (shown < steps) {
        char s[96];
        snprintf(s, sizeof s, "\u2026 and %zu more steps (\u25c4 \u25ba in the step view)",
                 steps - shown);
        sv_gfx_text(g, SV_FONT_SANS, o.label_px, l->cell_x0, cy + o.row_h, SV_ALIGN_LEFT,
                    t->text_dim, s);
    }
    sv_gfx_clip(g, NULL);
}
