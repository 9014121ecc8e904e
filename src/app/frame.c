/* Where the frame of the scan view sits: the header, the bottom band
 * (caption, legend, counters, timeline), the input box, the [?] and the
 * source panel, computed once per frame from the view and the framebuffer
 * size; the pane that draws the trace (pane.h) places its cells in what is
 * left. The renderers draw from this and event handling hit-tests against
 * it, so a click lands on exactly what was drawn. Every size derives from
 * `unit` (the framebuffer's size times ui_scale). */
#include <math.h>
#include <string.h>

#include "../core/ktrace_reading.h"
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
/* The text's floor grows with the UI scale at least this far (times 2.1 %
 * of the height), whatever it costs the cells: 24 px at 1024x768 at 1.5. */
#define SV_TEXT_GROW_SURE 1.5f

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

/* ui is the view's UI scale. Up to 1 every size follows it. Above 1 the
 * geometry (cells, gaps) follows ui and the text grows by grow (>= 1, at
 * most the text's growth at ui; sv_layout_compute picks it), the frame's
 * spacing staying at scale 1's:
 *  - legible_px, the floor every text that must be read keeps, is 2.1 % of
 *    the height times grow (at 1024x768: 16 px at 1, 24 px at 1.5); the
 *    texts sized from the small text (legend, counters, key hints,
 *    timeline, index numbers, the row labels' second lines, the tags) never
 *    go below it;
 *  - the small text grows half as fast as grow (19 px at 1024x768 at 1, 24
 *    at 1.5), the larger ones (row names, header, caption) keep above it
 *    in about the proportions they have at 1; so every text grows with the
 *    scale, and smoothly (issue 28). */
static float frame_units(float W, float H, float ui, float grow, sv_layout *l)
{
    float u = geometry_unit(W, H, ui);
    l->unit = u;
    if (ui <= 1.0f) {
        float tu = text_unit(W, H, ui);
        l->text_u = tu;
        l->legible_px = roundf(0.021f * H);
        l->margin = 2.2f * u;
        l->small_px = 2.5f * tu;
        l->label_px = 2.9f * tu;
        l->title_px = 3.3f * tu;
        l->caption_px = 3.6f * tu;
        return u;
    }
    float tu = text_unit(W, H, 1.0f), fu = fminf(u, geometry_unit(W, H, 1.0f));
    float g = grow > 1.0f ? grow : 1.0f;
    l->legible_px = roundf(0.021f * H * g);
    l->margin = 2.2f * fu;
    l->small_px = fmaxf(2.5f * tu * (1.0f + 0.5f * (g - 1.0f)), l->legible_px);
    l->label_px = fmaxf(2.9f * tu, l->small_px);
    l->title_px = fmaxf(3.3f * tu, 1.15f * l->small_px);
    l->caption_px = fmaxf(3.6f * tu, 1.2f * l->small_px);
    l->text_u = l->small_px / 2.5f; /* the unit paddings around text follow */
    return fu;
}

/* The legend's lines (render_overlay.c's legend_entries): 2 where its
 * entries in their terse words would not fit width on one line at the
 * legible size px, estimated from their lengths; else 1. The entries that
 * come and go with the pointer (the input window) are left out, so that
 * the layout does not move with it. */
static int legend_lines(const sv_app_view *s, float width, float px)
{
    if (!s || (!s->trace && !s->ktrace))
        return 1;
    const sv_reading *rd = sv_reading_of(s->ktrace);
    sv_rlegend own[SV_READING_LEGEND_MAX];
    if (rd->legend && rd->legend(s->ktrace, own))
        return 1; /* a reading's own legend (render_overlay.c shrinks it to one line) */
    /* "full window", "partial window", "copy-through", "uninitialized" and,
     * with a lab, "wrong in some run (D: correct)": characters, and per
     * entry its swatch and gaps (7.3 legend units of px / 2.5) */
    float chars = 11 + 14 + 12 + 13, entries = 4;
    if (s->lab && !s->ktrace) {
        chars += 30;
        entries += 1;
    }
    float need = (chars * SV_EM_SANS_AVG + entries * 7.3f / 2.5f) * px;
    return need > width ? 2 : 1;
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

/* The input box's rows in l->input_rows for a box h tall (hint: with the
 * hint line; bad: with the error line): the texts at their sizes, the gaps
 * between them closed up as far as needed to fit h. Returns the height the
 * rows take (more than h when even closed up they do not fit). */
static float input_rows(sv_layout *l, bool bad, bool hint, float h)
{
    float lp = l->label_px, sp = l->small_px, epx = 1.1f * sp;
    /* the texts' own heights, and the gaps: above, under the title, under
     * the field, between the error and the hint, below */
    float field_h = 1.6f * 1.05f * lp;
    float text = lp + field_h + (bad ? 1.1f * epx : 0.0f) + (hint ? 1.1f * sp : 0.0f);
    float gaps[5] = { 0.55f * lp, 0.5f * sp, 0.45f * sp, bad && hint ? 0.3f * sp : 0.0f,
                      0.45f * sp };
    float gap_sum = gaps[0] + gaps[1] + gaps[2] + gaps[3] + gaps[4];
    float k = text + gap_sum <= h ? 1.0f : fmaxf((h - text) / gap_sum, 0.15f);
    float y = gaps[0] * k;
    l->input_rows.title_y = y + 0.5f * lp;
    y += lp + gaps[1] * k;
    l->input_rows.field_y = y;
    l->input_rows.field_h = field_h;
    y += field_h + gaps[2] * k;
    l->input_rows.error_y = y + 0.55f * epx;
    if (bad)
        y += 1.1f * epx + gaps[3] * k;
    l->input_rows.hint_y = y + 0.55f * sp;
    l->input_rows.hint = hint;
    if (hint)
        y += 1.1f * sp;
    return y + gaps[4] * k;
}

/* The whole layout at UI scale ui with the text's growth grow
 * (frame_units). */
static void layout_at(const sv_app_view *s, int fb_w, int fb_h, float ui, float grow,
                      sv_layout *out)
{
    sv_layout l;
    memset(&l, 0, sizeof l);
    float W = (float)fb_w, H = (float)fb_h;
    float u = frame_units(W, H, ui, grow, &l);
    l.fb_w = fb_w;
    l.fb_h = fb_h;
    l.pane = sv_pane_of(s);
    float m = l.margin;

    /* The header as tall as its title needs (5 text units at its size). */
    l.header = (sv_box){ m, m, W - 2 * m, l.title_px * (5.0f / 3.3f) };
    /* The bottom band, from the bottom up: timeline (dots and their
     * labels), counters, legend, caption (up to two lines of the bold
     * caption_px line and the pane's small lines). Heights follow the text. */
    float sp = l.small_px;
    sv_caption_room room = l.pane->caption_room(s, W - 2 * m, l.caption_px, sp * 1.05f);
    /* The overview shows a script's caption alone (no round's second line):
     * no room kept for one, the overview takes it. */
    if (s && s->overview && s->caption && s->caption[0] && s->trace && !s->ktrace &&
        s->trace->n <= SV_WARP)
        room.small = 0;
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
    l.legend_lines = legend_lines(s, W - 2 * m, l.legible_px);
    float leg_h = 1.65f * sp * (float)l.legend_lines;
    l.legend = (sv_box){ m, l.verdict.y - leg_h - 0.1f * sp, W - 2 * m, leg_h };
    l.caption_bold = room.bold;
    float cap_h = (float)room.bold * 1.22f * l.caption_px +
                  1.45f * sp * 1.05f * (float)room.small;
    l.caption = (sv_box){ m, l.legend.y - cap_h - 0.3f * sp, W - 2 * m, cap_h };
    /* The input box covers the bottom band from the legend down, taller
     * where its title, field, error line and hint need it, but never over
     * the caption (issue 28: it covered the caption's last line at
     * 1024x768); there its gaps close up, and past that the hint goes. */
    bool bad = s && s->editing && s->edit_error && s->edit_error[0];
    float need = input_rows(&l, bad, true, 1e9f);
    float cap_end = l.caption.y + l.caption.h + 0.15f * sp;
    float box_y = fmaxf(fminf(l.legend.y - 0.4f * u, H - m - need), cap_end);
    if (box_y > l.legend.y - 0.4f * u) box_y = l.legend.y - 0.4f * u;
    if (box_y < m) box_y = m;
    l.input_box = (sv_box){ m, box_y, W - 2 * m, H - m - box_y };
    if (input_rows(&l, bad, true, l.input_box.h) > l.input_box.h)
        input_rows(&l, bad, false, l.input_box.h);
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
    float q = l.title_px * (3.9f / 3.3f);
    l.help_hint = (sv_box){ W - m - q, l.header.y + (l.header.h - q) / 2.0f, q, q };
    l.source_box = (sv_box){ l.header.x + l.header.w / 2.0f, l.header.y,
                             l.help_hint.x - 1.6f * u - (l.header.x + l.header.w / 2.0f),
                             l.header.h };
    *out = l;
}

void sv_layout_compute(const sv_app_view *s, int fb_w, int fb_h, sv_layout *out)
{
    if (fb_w < 1) fb_w = 1;
    if (fb_h < 1) fb_h = 1;
    float ui = (s && s->ui_scale > 0.0f) ? s->ui_scale : 1.0f;
    float W = (float)fb_w, H = (float)fb_h;
    /* How far the text can grow at ui: text_unit's caps (the height, the
     * width) included. */
    float full = ui <= 1.0f ? 1.0f : text_unit(W, H, ui) / text_unit(W, H, 1.0f);
    if (ui <= 1.0f || !s || (!s->trace && !s->ktrace) || s->view != SV_VIEW_SCAN) {
        layout_at(s, fb_w, fb_h, ui, full, out);
        return;
    }
    /* Above 1 the scale enlarges the cells (on a projector they are the
     * content: the rows pack tighter, the numbers take more of each cell)
     * and the text (issue 28: nothing the class reads may stay small):
     * with the scale up to 1.5, and past that as far as the cells keep
     * 90 % of their height at scale 1: the largest growth, in sixteenths,
     * whose layout (at that scale) leaves them so. It depends on ui only
     * through full, so a larger scale never draws smaller text. */
    sv_layout one, tmp;
    layout_at(s, fb_w, fb_h, 1.0f, 1.0f, &one);
    float grow = fminf(full, SV_TEXT_GROW_SURE);
    for (int k = 1; k <= 16 * 3; k++) {
        float gk = 1.0f + (float)k / 16.0f;
        if (gk <= grow)
            continue;
        if (gk > full + 1e-4f)
            break;
        layout_at(s, fb_w, fb_h, gk, gk, &tmp);
        if (tmp.cell_h < 0.9f * one.cell_h)
            break;
        grow = gk;
    }
    if (full - grow < 1.0f / 16.0f && full > grow) {
        layout_at(s, fb_w, fb_h, full, full, &tmp);
        if (tmp.cell_h >= 0.9f * one.cell_h)
            grow = full;
    }
    layout_at(s, fb_w, fb_h, ui, grow, out);
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
