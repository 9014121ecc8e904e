/* The Hillis-Steele pane's geometry: the four rows (input, buf[0], buf[1],
 * output) of one trace, its cells, labels and tags, in the area the frame
 * gives it (frame.c), and the hit test of its cells. render_cells.c draws
 * it; panes.c puts the two in the pane table. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/table.h"
#include "font_metrics.h"
#include "pane.h"

static int int_chars(int32_t v)
{
    int c = v < 0 ? 2 : 1;
    uint32_t u = v < 0 ? (uint32_t)0 - (uint32_t)v : (uint32_t)v;
    while (u >= 10) {
        u /= 10;
        c++;
    }
    return c;
}

static int value_chars(sv_type type, sv_value v)
{
    if (type == SV_TYPE_INT32)
        return int_chars(v.i);
    char buf[48];
    return (int)strlen(sv_value_format(type, v, buf, sizeof buf));
}

/* The widest number among the cells in view, in characters, so that one text
 * size serves the whole frame. Covers the input, the current buffers and the
 * final output (the largest values of a sum), so the size rarely jumps. */
static int widest_in_view(const sv_app_view *s, const sv_layout *l)
{
    const sv_trace *t = s->trace;
    sv_step_view v;
    if (!sv_scene_step(s, s->step, &v))
        return 1;
    int w = 1;
    for (int i = l->first_cell; i <= l->last_cell; i++) {
        int c = value_chars(t->type, t->input[i]);
        if (c > w) w = c;
        if (t->output) {
            c = value_chars(t->type, t->output[i]);
            if (c > w) w = c;
            c = value_chars(t->type, t->inclusive[i]);
            if (c > w) w = c;
        }
        for (int b = 0; b < 2; b++) {
            if (v.rd->written[b][i]) {
                c = value_chars(t->type, v.rd->buf[b][i]);
                if (c > w) w = c;
            }
        }
    }
    return w;
}

sv_caption_room sv_caption_room_over(const sv_app_view *v, int steps,
                                     void (*at)(sv_app_view *c, int k),
                                     bool (*caption)(const sv_app_view *c, sv_caption_words *out),
                                     sv_caption_room room, float w, float bold_px, float small_px)
{
    sv_app_view c = *v;
    c.hover_row = c.hover_cell = c.pinned_row = c.pinned_cell = -1;
    for (int k = 0; k < steps; k++) {
        at(&c, k);
        sv_caption_words cw;
        if (!caption(&c, &cw))
            continue;
        int bold = sv_text_lines_estimate(cw.line1, SV_EM_SANS_BOLD_AVG, bold_px, w);
        int small = sv_text_lines_estimate(cw.line2, SV_EM_SANS_AVG, small_px, w) +
                    sv_text_lines_estimate(cw.warps, SV_EM_SANS_AVG, small_px, w);
        if (bold > room.bold) room.bold = bold;
        if (small > room.small) room.small = small;
    }
    if (room.bold > SV_CAPTION_BOLD_MAX) room.bold = SV_CAPTION_BOLD_MAX;
    if (room.small > SV_CAPTION_SMALL_MAX) room.small = SV_CAPTION_SMALL_MAX;
    return room;
}

static void rows_at(sv_app_view *c, int k)
{
    c->step = c->from_step = k;
}

sv_caption_room sv_rows_caption_room(const sv_app_view *s, float w, float bold_px,
                                     float small_px)
{
    const sv_caption_room least = { 2, 1 };
    if (!s || !s->trace)
        return least;
    return sv_caption_room_over(s, sv_view_steps(s->trace), rows_at, sv_words_caption, least, w,
                                bold_px, small_px);
}

/* Rows, their labels and tags, and the line under them, in area. */
static void rows_place(const sv_app_view *s, sv_box area, sv_layout *l)
{
    float u = l->unit, m = area.x;
    bool warps = s && s->trace && s->trace->n > SV_WARP;
    float top = area.y, bottom = area.y + area.h;
    if (warps)
        top += 2.6f * u; /* room for the "warp k" labels */
    l->rows_area = (sv_box){ m, top, area.w, fmaxf(bottom - top, 1.0f) };

    /* Rows: cell height 9u, gaps 6u (input to buf[0], room for the window
     * bracket), 9u (buf[0] to buf[1], the round's arrows), 5u (to output),
     * then the index line, 3u or as tall as its numbers need at the
     * legible size, whichever is more. Above UI scale 1 the gaps shrink,
     * so that the cells grow. */
    float ui = l->ui_scale > 1.0f ? l->ui_scale : 1.0f;
    float gf = 1.0f / (1.0f + 0.8f * (ui - 1.0f));
    const float rows_u = 4 * 9.0f + (6.0f + 9.0f + 5.0f) * gf;
    float index_min = 1.3f * l->legible_px; /* px the index line needs at least */
    float k = sv_clampf(l->rows_area.h / ((rows_u + 3.0f * gf) * u), 0.2f, 1.25f);
    if (3.0f * gf * u * k < index_min)
        k = sv_clampf((l->rows_area.h - index_min) / (rows_u * u), 0.2f, 1.25f);
    float index_h = fmaxf(3.0f * gf * u * k, index_min);
    l->cell_h = 9.0f * u * k;
    float gaps[3] = { 6.0f * u * k * gf, 9.0f * u * k * gf, 5.0f * u * k * gf };
    float used = rows_u * u * k + index_h;
    float y = l->rows_area.y + (l->rows_area.h - used) / 2.0f + l->cell_h / 2.0f;
    for (int r = 0; r < 4; r++) {
        l->row_y[r] = y;
        if (r < 3)
            y += l->cell_h + gaps[r];
    }

    /* Row labels: the name above the row's centre line, the memory below;
     * both shrink with squeezed rows, never below the legible size (issue
     * 28), and move apart where the row is too short for the two at their
     * sizes. The tag sits right of the name, its word at least legible. */
    sv_rows_place_labels(l, 0.36f);
    float tag_h = fmaxf(l->row_label_px * 1.3f, l->legible_px * 1.3f);
    l->tag_px = fmaxf(tag_h * 0.58f, l->legible_px);
    /* a kernel that reads and writes one buffer (in-place) says pin=pout */
    float em = SV_EM_POUT_BOLD;
    for (size_t r = 1; s && s->trace && r < s->trace->nrounds; r++)
        if (s->trace->rounds[r].pin == s->trace->rounds[r].pout)
            em = SV_EM_PIN_POUT_BOLD;
    float tag_w = fmaxf(tag_h * 1.95f, l->tag_px * em + 0.5f * tag_h);
    float tag_x = m + l->row_label_px * SV_EM_BUF0_BOLD + 0.5f * l->row_label_px;
    for (int r = 1; r <= 2; r++)
        l->tag[r] = (sv_box){ tag_x, l->row_y[r] - l->row_label_dy - tag_h / 2.0f, tag_w, tag_h };
    /* As wide as the tag's end or "global memory". */
    float label_w = fmaxf(tag_x + tag_w - m, l->row_sub_px * SV_EM_GLOBAL_MEMORY) + 1.0f * u;
    l->label_col = (sv_box){ m, l->rows_area.y, label_w, l->rows_area.h };
    l->cells_clip = (sv_box){ m + label_w + 0.5f * u, l->rows_area.y - 0.5f * u,
                              l->rows_area.x + l->rows_area.w - (m + label_w + 0.5f * u),
                              l->rows_area.h + 1.0f * u };
    if (warps)
        l->warp_label_y = l->row_y[0] - l->cell_h / 2.0f - 1.5f * u;
    if (l->cells_clip.w < 1.0f) l->cells_clip.w = 1.0f;

    /* The index line under the output row, its numbers centred in it. */
    l->index_px = fmaxf(fminf(l->small_px * 0.9f, 2.2f * u * k), l->legible_px);
    l->index_y = l->row_y[3] + l->cell_h / 2.0f + fmaxf(1.5f * u * k * gf, 0.5f * index_h);
}

void sv_rows_place_labels(sv_layout *l, float name_share)
{
    l->row_label_px = fmaxf(fminf(l->label_px, l->cell_h * name_share), l->legible_px);
    l->row_sub_px = fmaxf(fminf(l->small_px * 0.85f, l->cell_h * 0.25f), l->legible_px);
    /* the centres 0.39 of the cell apart, or as far as the two sizes need */
    float need = 0.5f * (l->row_label_px + l->row_sub_px) + 0.12f * l->row_sub_px;
    float extra = fmaxf(0.0f, need - 0.39f * l->cell_h) / 2.0f;
    l->row_label_dy = 0.17f * l->cell_h + extra;
    l->row_sub_dy = 0.22f * l->cell_h + extra;
}

void sv_rows_place_cells(sv_layout *l, float zoom, float pan)
{
    float u = l->unit, w = l->cells_clip.w;
    l->cell_pitch = fminf(w / (float)l->n, 22.0f * u) * zoom;
    float gap = l->cell_pitch < 3.0f ? l->cell_pitch * 0.25f : fminf(l->cell_pitch * 0.13f, 1.4f * u);
    l->cell_w = l->cell_pitch - gap;
    float total = l->cell_pitch * (float)l->n;
    if (total <= w) {
        l->cell_x0 = l->cells_clip.x + (w - total) / 2.0f + gap / 2.0f;
    } else {
        pan = sv_clampf(pan, 0.0f, (float)l->n - w / l->cell_pitch);
        l->cell_x0 = l->cells_clip.x - pan * l->cell_pitch + gap / 2.0f;
    }
    int first = (int)floorf((l->cells_clip.x - l->cell_x0) / l->cell_pitch);
    int last = (int)floorf((l->cells_clip.x + l->cells_clip.w - l->cell_x0) / l->cell_pitch);
    l->first_cell = first < 0 ? 0 : first;
    l->last_cell = last >= l->n ? l->n - 1 : last;
    l->radius = fminf(fminf(l->cell_w, l->cell_h) * 0.16f, 1.3f * u);
    l->border_w = sv_clampf(l->cell_w * 0.06f, 1.0f, 0.5f * u);
    if (l->border_w < 1.0f) l->border_w = 1.0f;
}

/* Cells: as wide as fit (at most 22u), times zoom; pan in cells; the
 * numbers' size. */
static void cells_place(const sv_app_view *s, sv_layout *l)
{
    float u = l->unit;
    float ui = (s && s->ui_scale > 0.0f) ? s->ui_scale : 1.0f;
    l->n = (s && s->trace) ? (int)s->trace->n : 0;
    float zoom = (s && s->zoom >= 1.0f) ? s->zoom : 1.0f;
    if (l->n <= 0) {
        l->first_cell = 0;
        l->last_cell = -1;
        return;
    }
    sv_rows_place_cells(l, zoom, s->pan);
    /* Numbers: large (about 4% of the height at 720p), shrunk to fit the
     * widest in view, hidden below legibility. */
    float share = 0.46f + 0.14f * fminf(fmaxf(ui - 1.0f, 0.0f), 1.0f); /* of the cell's height */
    float px = fminf(l->cell_h * share, 4.6f * u);
    /* up to the legible size where the cell's height has room for it
     * (issue 28: squeezed rows at a large UI scale kept numbers small) */
    px = fmaxf(px, fminf(l->legible_px, 0.7f * l->cell_h));
    float fit1 = l->cell_w * 0.9f / SV_MONO_ADVANCE;
    if (fit1 >= 7.0f && l->last_cell >= l->first_cell) {
        /* Up to 4 characters set the common size; a longer number
         * (an identity like -2147483648) shrinks alone (render_cells.c). */
        int chars = widest_in_view(s, l);
        if (chars > 4) chars = 4;
        px = fminf(px, fit1 / (float)chars);
        l->num_px = px >= fmaxf(7.0f, 0.9f * u / ui) ? px : 0.0f;
    }
}

void sv_rows_layout(const sv_app_view *s, sv_box area, sv_layout *l)
{
    /* float32: positional unless a value of the trace needs an exponent, as
     * the table and the overview write them (never 16777222 beside
     * 1.677722e+07 in one row). */
    l->num_style = s && s->trace ? sv_trace_float_style(s->trace) : SV_FLOAT_SHORTEST;
    rows_place(s, area, l);
    cells_place(s, l);
}

sv_box sv_layout_cell(const sv_layout *l, int row, int i)
{
    int last = (l->nrows > 0 ? l->nrows : 4) - 1;
    int r = row < 0 ? 0 : row > last ? last : row;
    sv_box b = { l->cell_x0 + (float)i * l->cell_pitch, l->row_y[r] - l->cell_h / 2.0f,
                 l->cell_w, l->cell_h };
    return b;
}

bool sv_rows_hit(const sv_layout *l, float x, float y, int *row, int *cell)
{
    if (l->n <= 0 || l->cell_pitch <= 0.0f)
        return false;
    const sv_box *c = &l->cells_clip;
    if (x < c->x || x >= c->x + c->w)
        return false;
    int nrows = l->nrows > 0 ? l->nrows : 4;
    for (int r = 0; r < nrows; r++) {
        if (fabsf(y - l->row_y[r]) > l->cell_h / 2.0f)
            continue;
        float fi = floorf((x - l->cell_x0) / l->cell_pitch);
        if (fi < 0.0f || fi >= (float)l->n)
            return false;
        int i = (int)fi;
        /* Narrow cells: the whole pitch counts, so they can still be hovered. */
        float dx = x - (l->cell_x0 + (float)i * l->cell_pitch);
        if (l->cell_w >= 6.0f && dx > l->cell_w)
            return false;
        if (row) *row = r;
        if (cell) *cell = i;
        return true;
    }
    return false;
}
