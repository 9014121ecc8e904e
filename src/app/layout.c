/* Where everything of the scan view sits, computed once per frame from the
 * view and the framebuffer size. The renderers draw from this and event
 * handling hit-tests against it, so a click lands on exactly what was drawn.
 * Every size derives from `unit` (the framebuffer's size times ui_scale). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene.h"

/* The step model is steps.c's, shared with the app. */
bool sv_scene_step(const sv_app_view *s, int k, sv_step_view *out)
{
    return s && sv_steps_at(s->trace, k, out);
}

int sv_scene_quiz_row(const sv_app_view *s, const sv_step_view *v)
{
    if (!s || !s->quiz || !s->quiz_asking)
        return -1;
    return sv_steps_asked_row(v);
}

bool sv_scene_hidden(const sv_app_view *s, const sv_step_view *v, int row)
{
    int q = sv_scene_quiz_row(s, v);
    return q >= 0 && (row == q || (row == 3 && v->last));
}

float sv_scene_ease(float t)
{
    t = sv_clampf(t, 0.0f, 1.0f);
    return t < 0.5f ? 4.0f * t * t * t : 1.0f - powf(-2.0f * t + 2.0f, 3.0f) / 2.0f;
}

bool sv_scene_moving(const sv_app_view *s)
{
    return s && s->trace && s->anim < 1.0f && s->step == s->from_step + 1;
}

int sv_scene_output_source(const sv_trace *t, const sv_step_view *v, int i)
{
    if (!v->last)
        return -1;
    return t->scan == SV_SCAN_EXCLUSIVE ? i - 1 : i;
}

bool sv_scene_value(const sv_app_view *s, const sv_step_view *v, int row, int i,
                    sv_value *out)
{
    const sv_trace *t = s->trace;
    if (!t || i < 0 || (size_t)i >= t->n)
        return false;
    switch (row) {
    case 0:
        *out = t->input[i];
        return true;
    case 1:
    case 2: {
        /* The guard phase comes before the round's writes: pout still holds
         * what it held after the round before. */
        const sv_round *rd = v->rd;
        if (s->phase == SV_PHASE_GUARD && v->round > 0 && !v->shift && row - 1 == rd->pout)
            rd = &t->rounds[v->round - 1];
        if (!rd->written[row - 1][i])
            return false;
        *out = rd->buf[row - 1][i];
        return true;
    }
    case 3:
        /* Written by the copy back: in a phase, only from that phase on. */
        if (!v->last || !t->output ||
            (s->phase != SV_PHASE_NONE && s->phase != SV_PHASE_COPY_BACK))
            return false;
        /* A mistake may leave the cell it copies back unwritten: `?`. */
        if (s->lab) {
            const sv_round *lr = &t->rounds[t->nrounds - 1];
            int b = t->nrounds == 1 ? 0 : lr->pout;
            int src = sv_scene_output_source(t, v, i);
            if (src >= 0 && !lr->written[b][src])
                return false;
        }
        *out = t->output[i];
        return true;
    default:
        return false;
    }
}

const sv_lab_cell *sv_scene_lab_cell(const sv_app_view *s, const sv_step_view *v, int row,
                                     int i, int *round)
{
    const sv_trace *t = s->trace;
    const sv_lab_summary *lab = s->lab;
    if (!lab || !t || i < 0 || (size_t)i >= t->n || lab->n != t->n ||
        lab->nrounds != t->nrounds)
        return NULL;
    if (sv_scene_hidden(s, v, row)) /* a question's row gives nothing away */
        return NULL;
    int w;
    if (row == 3) {
        i = sv_scene_output_source(t, v, i);
        if (i < 0)
            return NULL;
        w = (int)t->nrounds - 1;
    } else if (row == 1 || row == 2) {
        int b = row - 1;
        const sv_round *rd = v->rd;
        if (v->round == 0) {
            if (b != 0)
                return NULL;
            w = 0;
        } else if (b == rd->pout) {
            w = s->phase == SV_PHASE_GUARD ? v->round - 1 : v->round;
        } else {
            /* pin: last round's pout, in a double buffer only */
            if (rd->pin == rd->pout)
                return NULL;
            w = v->round - 1;
        }
        /* the buffer must be the one round w wrote */
        int wb = w == 0 ? 0 : t->rounds[w].pout;
        if (wb != b)
            return NULL;
    } else {
        return NULL;
    }
    if (round)
        *round = w;
    return &lab->cells[(size_t)w * t->n + (size_t)i];
}

const char *sv_scene_op_verb(sv_op op)
{
    switch (op) {
    case SV_OP_SUM: return "adds";
    case SV_OP_MAX: return "takes the max with";
    case SV_OP_MIN: return "takes the min with";
    case SV_OP_PRODUCT: return "multiplies by";
    case SV_OP_XOR: return "XORs in";
    default: return "combines with";
    }
}

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

void sv_layout_compute(const sv_app_view *s, int fb_w, int fb_h, sv_layout *out)
{
    sv_layout l;
    memset(&l, 0, sizeof l);
    if (fb_w < 1) fb_w = 1;
    if (fb_h < 1) fb_h = 1;
    float ui = (s && s->ui_scale > 0.0f) ? s->ui_scale : 1.0f;
    float W = (float)fb_w, H = (float)fb_h;
    /* Two units. Text (tu) follows the window's height, so that a 720p
     * projector gets the same share of the screen as a 4K one, and the UI
     * scale; past the point where header and bottom band would take 70% of
     * the height it stops. Geometry (u) is the same but also narrowed by a
     * tall window (width / 120), so cells and labels fit 4:3 and portrait
     * screens. At 1280x720, ui 1: caption 26 px (capitals 19 px), legend,
     * counters and timeline 18 px (capitals 13 px), numbers 31 px: the
     * minimum sizes docs/user-guide.md ("Slides and projectors") states. */
    float tu = H / 100.0f * ui;
    tu = fminf(tu, 0.70f * H / 36.0f);
    tu = fminf(tu, W / 60.0f);
    if (tu < 0.5f) tu = 0.5f;
    float u = fminf(H / 100.0f, W / 120.0f) * ui;
    u = fminf(u, 0.70f * H / 36.0f);
    if (u < 0.5f) u = 0.5f;
    l.unit = u;
    l.text_u = tu;
    l.fb_w = fb_w;
    l.fb_h = fb_h;
    l.margin = 2.2f * u;
    l.title_px = 3.3f * tu;
    l.label_px = 2.9f * tu;
    l.small_px = 2.5f * tu;
    l.caption_px = 3.6f * tu;
    float m = l.margin;

    l.header = (sv_box){ m, m, W - 2 * m, 5.0f * tu };
    /* The bottom band, from the bottom up: timeline (dots and their
     * labels), counters, legend, caption (up to two lines of the bold
     * caption_px line and one of the small line). Heights follow the text.
     * n > 32: a third caption line says what runs in lockstep (warps). */
    float sp = l.small_px;
    bool warps = s && s->trace && s->trace->n > 32;
    l.timeline = (sv_box){ m, H - m - 2.5f * sp, W - 2 * m, 2.5f * sp };
    l.counters = (sv_box){ m, l.timeline.y - 1.55f * sp, W - 2 * m, 1.45f * sp };
    l.legend = (sv_box){ m, l.counters.y - 1.75f * sp, W - 2 * m, 1.65f * sp };
    float cap_h = 2.0f * 1.22f * l.caption_px + 1.45f * sp * 1.05f * (warps ? 2.0f : 1.0f);
    l.caption = (sv_box){ m, l.legend.y - cap_h - 0.3f * sp, W - 2 * m, cap_h };
    l.input_box = (sv_box){ m, l.legend.y - 0.4f * u, W - 2 * m,
                            H - m - (l.legend.y - 0.4f * u) };
    float top = l.header.y + l.header.h + 1.2f * u;
    float bottom = l.caption.y - 0.6f * u;
    /* The source panel takes the right 45% between the header and the
     * caption; the cells keep the rest. */
    float rows_w = W - 2 * m;
    if (s && s->code) {
        float split = m + (W - 2 * m) * 0.55f;
        l.code_panel = (sv_box){ split + 1.0f * u, top, W - m - split - 1.0f * u,
                                 fmaxf(bottom - top, 1.0f) };
        rows_w = split - m;
    }
    if (warps)
        top += 2.6f * u; /* room for the "warp k" labels */
    l.rows_area = (sv_box){ m, top, rows_w, fmaxf(bottom - top, 1.0f) };

    /* Rows: cell height 9u, gaps 6u (input to buf[0], room for the window
     * bracket), 9u (buf[0] to buf[1], the round's arrows), 5u (to output). */
    const float nominal = 4 * 9.0f + 6.0f + 9.0f + 5.0f + 3.0f; /* + the index line */
    float k = sv_clampf(l.rows_area.h / (nominal * u), 0.2f, 1.25f);
    l.cell_h = 9.0f * u * k;
    float gaps[3] = { 6.0f * u * k, 9.0f * u * k, 5.0f * u * k };
    float used = nominal * u * k;
    float y = l.rows_area.y + (l.rows_area.h - used) / 2.0f + l.cell_h / 2.0f;
    l.index_y = 0.0f;
    for (int r = 0; r < 4; r++) {
        l.row_y[r] = y;
        if (r < 3)
            y += l.cell_h + gaps[r];
    }

    /* Row labels: the name above the row's centre line, the memory below;
     * both shrink with squeezed rows. The tag sits right of the name
     * ("buf[0]" is 3.47 em of DejaVu Sans Bold). */
    l.row_label_px = fminf(l.label_px, l.cell_h * 0.36f);
    l.row_sub_px = fminf(l.small_px * 0.85f, l.cell_h * 0.25f);
    float tag_h = l.row_label_px * 1.3f;
    float tag_x = m + l.row_label_px * 3.47f + 0.5f * l.row_label_px;
    for (int r = 1; r <= 2; r++)
        l.tag[r] = (sv_box){ tag_x, l.row_y[r] - l.cell_h * 0.17f - tag_h / 2.0f,
                             tag_h * 1.95f, tag_h };
    /* As wide as the tag's end or "global memory" (6.9 em of DejaVu Sans). */
    float label_w = fmaxf(tag_x + tag_h * 1.95f - m, l.row_sub_px * 6.9f) + 1.0f * u;
    l.label_col = (sv_box){ m, l.rows_area.y, label_w, l.rows_area.h };
    l.cells_clip = (sv_box){ m + label_w + 0.5f * u, l.rows_area.y - 0.5f * u,
                             l.rows_area.x + l.rows_area.w - (m + label_w + 0.5f * u),
                             l.rows_area.h + 1.0f * u };
    if (warps)
        l.warp_label_y = l.row_y[0] - l.cell_h / 2.0f - 1.5f * u;
    if (l.cells_clip.w < 1.0f) l.cells_clip.w = 1.0f;

    /* The index line under the output row. */
    l.index_y = l.row_y[3] + l.cell_h / 2.0f + 1.5f * u * k;
    l.index_px = fminf(l.small_px * 0.9f, 2.2f * u * k);

    /* Cells: as wide as fit (at most 22u), times zoom; pan in cells. */
    l.n = (s && s->trace) ? (int)s->trace->n : 0;
    float area = l.cells_clip.w;
    float zoom = (s && s->zoom >= 1.0f) ? s->zoom : 1.0f;
    if (l.n > 0) {
        float base = fminf(area / (float)l.n, 22.0f * u);
        l.cell_pitch = base * zoom;
        float gap = fminf(l.cell_pitch * 0.13f, 1.4f * u);
        if (l.cell_pitch < 3.0f) gap = l.cell_pitch * 0.25f;
        l.cell_w = l.cell_pitch - gap;
        float total = l.cell_pitch * (float)l.n;
        if (total <= area) {
            l.cell_x0 = l.cells_clip.x + (area - total) / 2.0f + gap / 2.0f;
        } else {
            float max_pan = (float)l.n - area / l.cell_pitch;
            float pan = sv_clampf(s->pan, 0.0f, max_pan);
            l.cell_x0 = l.cells_clip.x - pan * l.cell_pitch + gap / 2.0f;
        }
        int first = (int)floorf((l.cells_clip.x - l.cell_x0) / l.cell_pitch);
        int last = (int)floorf((l.cells_clip.x + l.cells_clip.w - l.cell_x0) / l.cell_pitch);
        l.first_cell = first < 0 ? 0 : first;
        l.last_cell = last >= l.n ? l.n - 1 : last;
        l.radius = fminf(fminf(l.cell_w, l.cell_h) * 0.16f, 1.3f * u);
        l.border_w = sv_clampf(l.cell_w * 0.06f, 1.0f, 0.5f * u);
        if (l.border_w < 1.0f) l.border_w = 1.0f;
        /* Numbers: large (about 4% of the height at 720p), shrunk to fit the
         * widest in view (DejaVu Sans Mono advances 0.602 em), hidden below
         * legibility. */
        float px = fminf(l.cell_h * 0.46f, 4.6f * u);
        float fit1 = l.cell_w * 0.9f / 0.602f;
        if (fit1 >= 7.0f && l.last_cell >= l.first_cell) {
            /* Up to 4 characters set the common size; a longer number
             * (an identity like -2147483648) shrinks alone (render_cells.c). */
            int chars = widest_in_view(s, &l);
            if (chars > 4) chars = 4;
            px = fminf(px, fit1 / (float)chars);
            l.num_px = px >= fmaxf(7.0f, 0.9f * u / ui) ? px : 0.0f;
        }
    } else {
        l.first_cell = 0;
        l.last_cell = -1;
    }

    /* Timeline: one dot per step, spaced to fit the left half. */
    l.steps = sv_view_steps(s->trace);
    l.timeline_r = 0.42f * sp;
    l.timeline_y = l.timeline.y + 0.75f * sp;
    float tx0 = l.timeline.x + 4.1f * sp; /* after "round" (2.93 em) */
    float spacing = 2.9f * sp;
    if (l.steps > 1) {
        float avail = l.timeline.w * 0.5f - 4.1f * sp;
        spacing = fminf(spacing, avail / (float)(l.steps - 1));
        if (spacing < 2.4f * l.timeline_r) spacing = 2.4f * l.timeline_r;
    }
    for (int k2 = 0; k2 < l.steps; k2++)
        l.timeline_x[k2] = tx0 + (float)k2 * spacing;

    float q = 3.9f * tu;
    l.help_hint = (sv_box){ W - m - q, l.header.y + (l.header.h - q) / 2.0f, q, q };
    *out = l;
}

sv_box sv_layout_cell(const sv_layout *l, int row, int i)
{
    int r = row < 0 ? 0 : row > 3 ? 3 : row;
    sv_box b = { l->cell_x0 + (float)i * l->cell_pitch, l->row_y[r] - l->cell_h / 2.0f,
                 l->cell_w, l->cell_h };
    return b;
}

bool sv_layout_hit_cell(const sv_layout *l, float x, float y, int *row, int *cell)
{
    if (l->n <= 0 || l->cell_pitch <= 0.0f)
        return false;
    const sv_box *c = &l->cells_clip;
    if (x < c->x || x >= c->x + c->w)
        return false;
    for (int r = 0; r < 4; r++) {
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

int sv_layout_hit_step(const sv_layout *l, float x, float y)
{
    if (l->steps <= 0)
        return -1;
    float half = l->steps > 1 ? (l->timeline_x[1] - l->timeline_x[0]) / 2.0f
                              : 2.0f * l->timeline_r;
    if (half > 2.5f * l->timeline_r) half = 2.5f * l->timeline_r;
    if (y < l->timeline.y || y > l->timeline.y + l->timeline.h)
        return -1;
    for (int k = 0; k < l->steps; k++)
        if (fabsf(x - l->timeline_x[k]) <= half)
            return k;
    return -1;
}
