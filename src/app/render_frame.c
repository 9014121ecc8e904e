/* One whole frame: the background, the header (what is scanned, and where the
 * trace came from), then the scan view (cells and overlays) or the Measure
 * view. The window and the PNG export both draw through here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../capture/capture.h" /* sv_capture_reason_is_no_gpu: the probe's words for no GPU */
#include "kpane.h"
#include "pane.h"
#include "compare.h" /* the compare view's Measure sentence */
#include "pane_compare.h"
#include "render_timeline.h" /* the Measure view's look-back timeline */

void sv_render_krun_words(const sv_app_krun *r, char *buf, size_t len)
{
    char launch[80] = "";
    if (r->launched && r->grid > 1)
        snprintf(launch, sizeof launch, " \u00b7 launch %u: %u of %u blocks", (unsigned)r->launched,
                 (unsigned)r->ended, (unsigned)r->grid);
    else if (r->launched)
        snprintf(launch, sizeof launch, " \u00b7 launch %u", (unsigned)r->launched);
    snprintf(buf, len, "running\u2026%s \u00b7 %.1f s of at most %.0f s", launch, r->seconds,
             r->limit_s);
}

void sv_render_header(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    const sv_box *h = &l->header;
    float u = l->unit, cy = h->y + h->h / 2.0f;
    char rest[160];
    const char *title;
    sv_pane_of(s)->header(s, &title, rest, sizeof rest);
    if (s->compare && s->view == SV_VIEW_SCAN)
        title = "Hillis-Steele beside Blelloch"; /* the compare view (pane_compare.h) */
    float x = h->x;
    x += sv_gfx_text(g, SV_FONT_SANS_BOLD, l->title_px, x, cy, SV_ALIGN_LEFT, t->text, title);
    /* the rest at 82 % of the title, never below the legible size, cut
     * before the [?] where it would run into it */
    float rest_px = fmaxf(l->title_px * 0.82f, l->legible_px);
    x += sv_scene_text_fit(g, SV_FONT_SANS, rest_px, rest_px,
                           fmaxf(l->help_hint.x - 1.6f * u - x, 1.0f), x, cy, SV_ALIGN_LEFT,
                           t->text_dim, rest);

    /* [?] and, left of it, the trace's source. A clean slide (--clean) has
     * no [?] and says the source short: "CUDA · H200", "CPU emulator". */
    const sv_box *q = &l->help_hint;
    float right = q->x + q->w;
    if (!s->clean) {
        sv_gfx_rect(g, *q, 0.8f * u, t->panel, t->cell_border, fmaxf(1.0f, 0.22f * u),
                    SV_BORDER_SOLID);
        sv_gfx_text(g, SV_FONT_SANS_BOLD, l->label_px, q->x + q->w / 2.0f, q->y + q->h / 2.0f,
                    SV_ALIGN_CENTER, t->text, "?");
        right = q->x - 1.6f * u;
    }
    /* The Measure view names its table's source itself (render_plot.c). */
    const char *src = s->view == SV_VIEW_MEASURE ? NULL : s->source;
    char shortsrc[128];
    sv_rgba src_ink = t->text_dim;
    if (src && s->krunning && !s->clean) { /* a kernel file's run going on */
        sv_render_krun_words(&s->krun, shortsrc, sizeof shortsrc);
        src = shortsrc;
        src_ink = t->accent;
    } else if (src && s->ktrace) { /* a kernel trace: the runtime that ran it, not the emulator */
        sv_kwords_source(s->ktrace, s->clean, shortsrc, sizeof shortsrc);
        src = shortsrc;
    } else if (src && src[0] && s->clean) {
        sv_words_short_source(src, shortsrc, sizeof shortsrc);
        src = shortsrc;
    } else if (src && src[0]) {
        /* "CPU emulator: no CUDA driver (CUDA driver version is ...)": on a
         * machine without an NVIDIA GPU the header says so in words; the CUDA
         * runtime's reason stays in the state line and in scanviz-trace. */
        static const char emu[] = "CPU emulator: ";
        if (strncmp(src, emu, sizeof emu - 1) == 0 &&
            sv_capture_reason_is_no_gpu(src + sizeof emu - 1)) {
            const char *more = strstr(src, " \u00b7 "); /* a lab note after the reason */
            snprintf(shortsrc, sizeof shortsrc, "CPU emulator (no NVIDIA GPU found)%s",
                     more ? more : "");
            src = shortsrc;
        }
    }
    if (src && src[0]) {
        char buf[300];
        float avail = right - x - 3.0f * u;
        if (avail > 4.0f * u) {
            sv_gfx_text_ellipsize(g, SV_FONT_SANS, l->small_px, avail, src, buf, sizeof buf);
            sv_gfx_text(g, SV_FONT_SANS, l->small_px, right, cy, SV_ALIGN_RIGHT, src_ink, buf);
        }
    }
    sv_gfx_line(g, h->x, h->y + h->h + 0.6f * u, h->x + h->w, h->y + h->h + 0.6f * u,
                fmaxf(1.0f, 0.12f * u), t->grid);
}

static void render_measure(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                           const sv_theme *t)
{
    float u = l->unit;
    float top = l->header.y + l->header.h + 2.0f * u;
    if (s->cmp_measure) /* from the compare view: where the extra work costs time */
        top += sv_render_compare_cost(g, s->bench, l, top, t);
    sv_box box = { l->margin, top, (float)l->fb_w - 2 * l->margin,
                   l->timeline.y - top - 1.0f * u };
    /* from the compare view: its two algorithms' curves stand out */
    static const char *const pair[] = { "hs-naive", "blelloch", NULL };
    if (s->timeline_on)
        sv_render_timeline_at(g, s->timeline, box, t, u, s->tl_first, s->tl_rows, s->tl_cursor);
    else
        sv_render_plot_focus(g, s->bench, s->bench_source, box, t, u,
                             s->cmp_measure ? pair : NULL);
    const char *hint = s->bench_running ? "measuring\u2026 \u00b7 M back to the rounds \u00b7 H help"
                       : s->timeline_on ? "Down/Up scroll \u00b7 ] [ fewer/more tiles \u00b7 L the "
                                          "plots \u00b7 M back to the rounds \u00b7 H help"
                       : s->timeline ? "L the look-back timeline \u00b7 M back to the rounds \u00b7 H help"
                       : s->cmp_measure ? "M back to the compare view \u00b7 H help"
                                        : "M back to the rounds \u00b7 H help";
    if (s->clean)
        hint = "";
    sv_gfx_text(g, SV_FONT_SANS, l->small_px * 1.05f, l->timeline.x + l->timeline.w,
                l->timeline_y, SV_ALIGN_RIGHT, t->text_dim, hint);
    if (s->bench_running) {
        float w = l->timeline.w * 0.4f, h = 1.0f * u;
        sv_box bar = { l->timeline.x, l->timeline_y - h / 2.0f, w, h };
        sv_gfx_rect(g, bar, h / 2.0f, t->grid, t->grid, 0.0f, SV_BORDER_NONE);
        float p = s->bench_progress < 0.0f ? 0.0f : s->bench_progress > 1.0f ? 1.0f
                                                                             : s->bench_progress;
        bar.w = w * p;
        if (bar.w > h)
            sv_gfx_rect(g, bar, h / 2.0f, t->full, t->full, 0.0f, SV_BORDER_NONE);
    }
}

sv_box sv_scene_overview_area(const sv_app_view *s, const sv_layout *l)
{
    float top = l->rows_area.y;
    float bottom = (s->caption && s->caption[0]) ? l->caption.y : l->legend.y;
    return (sv_box){ l->rows_area.x, top, l->rows_area.w, fmaxf(bottom - top - 0.6f * l->unit, 1.0f) };
}

void sv_render_frame(sv_gfx *g, const sv_app_view *s, int fb_w, int fb_h)
{
    const sv_theme *t = sv_theme_get(s->theme);
    sv_layout l;
    sv_layout_compute(s, fb_w, fb_h, &l);
    sv_gfx_begin(g, fb_w, fb_h, t->bg);
    sv_render_header(g, s, &l, t);
    if (s->view == SV_VIEW_MEASURE) {
        render_measure(g, s, &l, t);
    } else if (s->compare && s->trace) {
        sv_render_compare(g, s, &l, t); /* two panes (issue 20) */
        sv_app_view c = *s;             /* the overlay's input box, status and help only */
        c.trace = NULL;
        c.ktrace = NULL;
        sv_render_overlay(g, &c, &l, t);
        sv_gfx_end(g);
        return;
    } else if (s->ktrace && s->overview) {
        sv_render_kernel_overview(g, s, &l, t, sv_scene_overview_area(s, &l));
    } else if (s->ktrace) {
        l.pane->draw(g, s, &l, t); /* the kernel pane */
        sv_render_kernel_source(g, s, &l, t);
    } else if (s->trace && s->trace->n > SV_MAX_N) {
        /* a kernel file's many blocks before its first trace: the input
         * alone, which the chapter's one block cannot scan */
        char msg[160];
        if (s->krunning)
            sv_render_krun_words(&s->krun, msg, sizeof msg);
        else
            snprintf(msg, sizeof msg, "no kernel trace yet");
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " \u00b7 n = %zu", s->trace->n);
        sv_gfx_text(g, SV_FONT_SANS, l.caption_px, (float)fb_w / 2.0f, (float)fb_h / 2.0f,
                    SV_ALIGN_CENTER, t->text_dim, msg);
    } else if (s->trace && s->overview) {
        sv_render_overview(g, s, &l, t, sv_scene_overview_area(s, &l));
    } else if (s->trace) {
        l.pane->draw(g, s, &l, t);
        sv_render_source(g, s, &l, t);
    } else {
        sv_gfx_text(g, SV_FONT_SANS, l.caption_px, (float)fb_w / 2.0f, (float)fb_h / 2.0f,
                    SV_ALIGN_CENTER, t->text_dim, "no trace yet");
    }
    if (s->view == SV_VIEW_SCAN)
        sv_render_exercise(g, s, &l, t);
    sv_render_overlay(g, s, &l, t);
    sv_gfx_end(g);
}
