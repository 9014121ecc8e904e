/* Where the frame of the scan view sits: the header, the bottom band
 * (caption, legend, counters, timeline), the input box, the [?] and the
 * source panel, computed once per frame from the view and the framebuffer
 * size; the pane that draws the trace (pane.h) places its cells in what is
 * left. The renderers draw from this and event handling hit-tests against
 * it, so a click lands on exactly what was drawn. Every size derives from
 * `unit` (the framebuffer's size times ui_scale). */
#include <math.h>
#include <string.h>

#include "pane.h"

/* The two units and the text sizes. Text (tu) follows the window's height,
 * so that a 720p projector gets the same share of the screen as a 4K one,
 * and the UI scale; past the point where header and bottom band would take
 * 70% of the height it stops. Geometry (u) is the same but also narrowed by
 * a tall window (width / 120), so cells and labels fit 4:3 and portrait
 * screens. At 1280x720, ui 1: caption 26 px (capitals 19 px), legend,
 * counters and timeline 18 px (capitals 13 px), numbers 31 px: the minimum
 * sizes docs/user-guide.md ("Slides and projectors") states. */
static void frame_units(const sv_app_view *s, float W, float H, sv_layout *l)
{
    float ui = (s && s->ui_scale > 0.0f) ? s->ui_scale : 1.0f;
    float tu = H / 100.0f * ui;
    tu = fminf(tu, 0.70f * H / 36.0f);
    tu = fminf(tu, W / 60.0f);
    if (tu < 0.5f) tu = 0.5f;
    float u = fminf(H / 100.0f, W / 120.0f) * ui;
    u = fminf(u, 0.70f * H / 36.0f);
    if (u < 0.5f) u = 0.5f;
    l->unit = u;
    l->text_u = tu;
    l->margin = 2.2f * u;
    l->title_px = 3.3f * tu;
    l->label_px = 2.9f * tu;
    l->small_px = 2.5f * tu;
    l->caption_px = 3.6f * tu;
}

/* Timeline: one dot per step, spaced to fit the left half. */
static void frame_timeline(const sv_app_view *s, sv_layout *l)
{
    float sp = l->small_px;
    l->steps = sv_view_steps(s->trace);
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

void sv_layout_compute(const sv_app_view *s, int fb_w, int fb_h, sv_layout *out)
{
    sv_layout l;
    memset(&l, 0, sizeof l);
    if (fb_w < 1) fb_w = 1;
    if (fb_h < 1) fb_h = 1;
    float W = (float)fb_w, H = (float)fb_h;
    frame_units(s, W, H, &l);
    l.fb_w = fb_w;
    l.fb_h = fb_h;
    l.pane = sv_pane_of(s);
    float m = l.margin, u = l.unit, tu = l.text_u;

    l.header = (sv_box){ m, m, W - 2 * m, 5.0f * tu };
    /* The bottom band, from the bottom up: timeline (dots and their
     * labels), counters, legend, caption (up to two lines of the bold
     * caption_px line and the pane's small lines). Heights follow the text. */
    float sp = l.small_px;
    float small_lines = (float)l.pane->caption_lines(s);
    /* The overview has no timeline, only its key hint (none when clean): the
     * band above moves down, so the overview fills the height. */
    bool overview = s && s->overview && s->view == SV_VIEW_SCAN;
    float tl_h = overview ? (s->clean ? 0.0f : 1.5f * sp) : 2.5f * sp;
    l.timeline = (sv_box){ m, H - m - tl_h, W - 2 * m, tl_h };
    l.counters = (sv_box){ m, l.timeline.y - 1.55f * sp, W - 2 * m, 1.45f * sp };
    l.legend = (sv_box){ m, l.counters.y - 1.75f * sp, W - 2 * m, 1.65f * sp };
    float cap_h = 2.0f * 1.22f * l.caption_px + 1.45f * sp * 1.05f * small_lines;
    l.caption = (sv_box){ m, l.legend.y - cap_h - 0.3f * sp, W - 2 * m, cap_h };
    l.input_box = (sv_box){ m, l.legend.y - 0.4f * u, W - 2 * m,
                            H - m - (l.legend.y - 0.4f * u) };
    float top = l.header.y + l.header.h + 1.2f * u;
    float bottom = l.caption.y - 0.6f * u;
    /* The source panel takes the right 45% between the header and the
     * caption; the pane keeps the rest. */
    float pane_w = W - 2 * m;
    if (s && s->code) {
        float split = m + (W - 2 * m) * 0.55f;
        l.code_panel = (sv_box){ split + 1.0f * u, top, W - m - split - 1.0f * u,
                                 fmaxf(bottom - top, 1.0f) };
        pane_w = split - m;
    }
    l.pane->layout(s, (sv_box){ m, top, pane_w, bottom - top }, &l);

    frame_timeline(s, &l);
    float q = 3.9f * tu;
    l.help_hint = (sv_box){ W - m - q, l.header.y + (l.header.h - q) / 2.0f, q, q };
    *out = l;
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
