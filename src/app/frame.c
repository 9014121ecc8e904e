/* Where the frame of the scan view sits: the header, the bottom band
 * (caption, legend, counters, timeline), the input box, the [?] and the
 * source panel, computed once per frame from the view and the framebuffer
 * size; the pane that draws the trace (pane.h) places its cells in what is
 * left. The renderers draw from this and event handling hit-tests against
 * it, so a click lands on exactly what was drawn. Every size derives from
 * `unit` (the framebuffer's size times ui_scale). */
#include <math.h>
#include <string.h>

#include "font_metrics.h"
#include "kpane.h"

/* The two units and the text sizes. Text (tu) follows the window's height,
 * so that a 720p projector gets the same share of the screen as a 4K one,
 * and the UI scale; past the point where header and bottom band would take
 * 70% of the height it stops. Geometry (u) is the same but also narrowed by
 * a tall window (width / 120), so cells and labels fit 4:3 and portrait
 * screens. At 1280x720, ui 1: caption 26 px (capitals 19 px), legend,
 * counters and timeline 18 px (capitals 13 px), numbers 31 px: the minimum
 * sizes docs/user-guide.md ("Slides and projectors") states. */
static float text_unit(float W, float H, float scale)
{
    float tu = H / 100.0f * scale;
    tu = fminf(tu, 0.70f * H / 36.0f);
    tu = fminf(tu, W / 60.0f);
    return tu < 0.5f ? 0.5f : tu;
}

static float geometry_unit(float W, float H, float scale)
{
    float u = fminf(H / 100.0f, W / 120.0f) * scale;
    u = fminf(u, 0.70f * H / 36.0f);
    return u < 0.5f ? 0.5f : u;
}

/* ui is the view's UI scale; ts the share of it the text takes (ui itself
 * up to 1; above 1 the search in sv_layout_compute picks it). Above 1 the
 * frame's spacing follows the text, not the cells' geometry. */
static float frame_units(float W, float H, float ui, float ts, sv_layout *l)
{
    float tu = text_unit(W, H, ui <= 1.0f ? ui : ts);
    float u = geometry_unit(W, H, ui);
    l->unit = u;
    l->text_u = tu;
    float fu = ui <= 1.0f ? u : fminf(u, geometry_unit(W, H, ts));
    l->margin = 2.2f * fu;
    l->title_px = 3.3f * tu;
    l->label_px = 2.9f * tu;
    l->small_px = 2.5f * tu;
    l->caption_px = 3.6f * tu;
    return fu;
}

/* Timeline: one dot per step, spaced to fit the left half. */
static void frame_timeline(const sv_app_view *s, sv_layout *l)
{
    float sp = l->small_px;
    l->steps = s && s->ktrace ? sv_kpane_steps(s->ktrace) : sv_view_steps(s ? s->trace : NULL);
    l->timeline_r = 0.42f * sp;
    l->timeline_y = l->timeline.y + 0.75f * sp;
    float tx0 = l->timeline.x + 4.1f * sp; /* after "round" (2.93 em) */
    float spacing = 2.9f * sp;
    if (l->steps > 1) {
        float avail = l->timeline.w * 0.5f - 4.1f * sp;
        spacing = fminf(spacing, avail / (float)(l->steps - 1));
        if (spacing < 2.4f * l->timeline_r) spacing = 2.4f * l->timeline_r;
    }
    for (int k = 0; k < l->steps; k++)
        l->timeline_x[k] = tx0 + (float)k * spacing;
}

/* The whole layout at UI scale ui with text scale ts. */
static void layout_at(const sv_app_view *s, int fb_w, int fb_h, float ui, float ts,
                      sv_layout *out)
{
    sv_layout l;
    memset(&l, 0, sizeof l);
    float W = (float)fb_w, H = (float)fb_h;
    float u = frame_units(W, H, ui, ts, &l);
    l.fb_w = fb_w;
    l.fb_h = fb_h;
    l.legible_px = roundf(0.021f * H);
    l.pane = sv_pane_of(s);
    float m = l.margin, tu = l.text_u;

    l.header = (sv_box){ m, m, W - 2 * m, 5.0f * tu };
    /* The bottom band, from the bottom up: timeline (dots and their
     * labels), counters, legend, caption (up to two lines of the bold
     * caption_px line and the pane's small lines). Heights follow the text. */
    float sp = l.small_px;
    sv_caption_room room = l.pane->caption_room(s, W - 2 * m, l.caption_px, sp * 1.05f);
    /* The overview has no timeline, only its key hint (none when clean): the
     * band above moves down, so the overview fills the height. */
    bool overview = s && s->overview && s->view == SV_VIEW_SCAN;
    float tl_h = overview ? (s->clean ? 0.0f : 1.5f * sp) : 2.5f * sp;
    l.timeline = (sv_box){ m, H - m - tl_h, W - 2 * m, tl_h };
    /* The mistakes lab: room for the "first wrong" label over the timeline,
     * and the verdict on lines of its own (wrapped, never shrunk). */
    float first_wrong = 0.0f, verdict_h = 0.0f;
    if (s && s->ktrace && s->ktrace->first_broken_step >= 0) {
        first_wrong = 0.7f * sp; /* room for "first broken" over the timeline */
    } else if (s && s->lab && s->trace) {
        char line[256], note[512];
        sv_pane_of(s)->counters(s, line, sizeof line, note, sizeof note);
        int k = sv_text_lines_estimate(note, SV_EM_SANS_AVG, sp, W - 2 * m);
        verdict_h = 1.5f * sp * (float)(k < 1 ? 1 : k > 3 ? 3 : k);
        first_wrong = 0.7f * sp;
    }
    l.counters = (sv_box){ m, l.timeline.y - 1.55f * sp - first_wrong, W - 2 * m, 1.45f * sp };
    l.verdict = (sv_box){ m, l.counters.y - verdict_h, W - 2 * m, verdict_h };
    l.legend = (sv_box){ m, l.verdict.y - 1.75f * sp, W - 2 * m, 1.65f * sp };
    l.caption_bold = room.bold;
    float cap_h = (float)room.bold * 1.22f * l.caption_px +
                  1.45f * sp * 1.05f * (float)room.small;
    l.caption = (sv_box){ m, l.legend.y - cap_h - 0.3f * sp, W - 2 * m, cap_h };
    /* The input box covers the bottom band from the legend down, and is at
     * least as tall as its title, field, error line and hint need
     * (render_overlay.c's draw_input_box). */
    float box_y = fminf(l.legend.y - 0.4f * u, H - m - (12.8f * u + 1.7f * sp));
    if (box_y < m) box_y = m;
    l.input_box = (sv_box){ m, box_y, W - 2 * m, H - m - box_y };
    float top = l.header.y + l.header.h + 1.2f * u;
    float bottom = l.caption.y - 0.6f * u;
    /* The source panel takes the right 45% between the header and the
     * caption; the pane keeps the rest. */
    float pane_w = W - 2 * m;
    if (s && (s->code || s->exercise)) {
        float split = m + (W - 2 * m) * 0.55f;
        sv_box col = { split + 1.0f * u, top, W - m - split - 1.0f * u,
                       fmaxf(bottom - top, 1.0f) };
        /* An exercise's panel (statement, check, hint) above the source panel. */
        float ex_h = !s->exercise ? 0.0f : s->code ? 0.5f * col.h : col.h;
        if (s->exercise)
            l.exercise_panel = (sv_box){ col.x, col.y, col.w, ex_h };
        if (s->code)
            l.code_panel = (sv_box){ col.x, col.y + (ex_h > 0.0f ? ex_h + 0.8f * u : 0.0f),
                                     col.w, fmaxf(col.h - (ex_h > 0.0f ? ex_h + 0.8f * u : 0.0f),
                                                  1.0f) };
        pane_w = split - m;
    }
    l.ui_scale = ui;
    l.pane->layout(s, (sv_box){ m, top, pane_w, bottom - top }, &l);

    frame_timeline(s, &l);
    float q = 3.9f * tu;
    l.help_hint = (sv_box){ W - m - q, l.header.y + (l.header.h - q) / 2.0f, q, q };
    l.source_box = (sv_box){ l.header.x + l.header.w / 2.0f, l.header.y,
                             l.help_hint.x - 1.6f * u - (l.header.x + l.header.w / 2.0f),
                             l.header.h };
    *out = l;
}

/* What the cells show of a trace at a layout, to compare scales by: the
 * numbers' size, or the cells' height where numbers do not fit. */
static float cell_size(const sv_layout *l)
{
    return l->num_px > 0.0f ? l->num_px : fminf(l->cell_h, 2.0f * l->cell_w);
}

void sv_layout_compute(const sv_app_view *s, int fb_w, int fb_h, sv_layout *out)
{
    if (fb_w < 1) fb_w = 1;
    if (fb_h < 1) fb_h = 1;
    float ui = (s && s->ui_scale > 0.0f) ? s->ui_scale : 1.0f;
    if (ui <= 1.0f || !s || (!s->trace && !s->ktrace) || s->view != SV_VIEW_SCAN) {
        layout_at(s, fb_w, fb_h, ui, ui, out);
        return;
    }
    /* Above 1 the scale enlarges the cells first (on a projector they are
     * the content), up to ui times their size at scale 1 where they fit,
     * and the text takes what is left: the largest text scale in [1, ui]
     * whose cells are as large as the best any text scale allows, up to
     * that target. So where cells cannot grow (n large, or no room) the
     * text grows instead, and every scale draws differently. */
    sv_layout one;
    layout_at(s, fb_w, fb_h, 1.0f, 1.0f, &one);
    enum { STEPS = 8 };
    sv_layout tmp;
    float best = 0.0f, size[STEPS + 1], height[STEPS + 1];
    for (int k = 0; k <= STEPS; k++) {
        float ts = 1.0f + (ui - 1.0f) * (float)k / STEPS;
        layout_at(s, fb_w, fb_h, ui, ts, &tmp);
        size[k] = cell_size(&tmp);
        height[k] = tmp.cell_h;
        if (size[k] > best) best = size[k];
    }
    /* ... and never shorter than at scale 1 (where the cells' width is
     * what limits them, the text still may not squeeze the rows) */
    float want = fminf(best, ui * cell_size(&one)) * 0.99f;
    int pick = 0;
    for (int k = STEPS; k >= 0; k--)
        if (size[k] >= want && height[k] >= 0.99f * one.cell_h) {
            pick = k;
            break;
        }
    layout_at(s, fb_w, fb_h, ui, 1.0f + (ui - 1.0f) * (float)pick / STEPS, out);
}

bool sv_layout_hit_cell(const sv_layout *l, float x, float y, int *row, int *cell)
{
    return l->pane && l->pane->hit(l, x, y, row, cell);
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
