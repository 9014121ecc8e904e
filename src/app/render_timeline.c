/* The look-back timeline of the Measure view (render_timeline.h). */
#include "render_timeline.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_plot.h" /* SV_PLOT_TEXT_UNITS: the same text size as the plots */

void sv_tl_clamp(const sv_timeline *t, int *first, int *rows)
{
    const int n = t ? (int)t->ntiles : 1;
    if (*rows < 1 || *rows > n)
        *rows = n;
    if (*first > n - *rows)
        *first = n - *rows;
    if (*first < 0)
        *first = 0;
}

/* 16,777,216 */
static char *grouped(uint64_t v, char *buf, size_t len)
{
    char raw[32];
    snprintf(raw, sizeof raw, "%" PRIu64, v);
    size_t digits = strlen(raw), o = 0;
    for (size_t i = 0; i < digits && o + 2 < len; i++) {
        if (i && (digits - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = raw[i];
    }
    buf[o] = '\0';
    return buf;
}

void sv_tl_layout_compute(const sv_timeline *t, sv_box box, float unit, int first, int rows,
                          sv_tl_layout *out)
{
    const float u = fmaxf(unit * SV_PLOT_TEXT_UNITS, 1.0f);
    memset(out, 0, sizeof *out);
    sv_tl_clamp(t, &first, &rows);
    out->first = first;
    out->rows = rows;
    out->header = (sv_box){ box.x, box.y, box.w, 3.4f * u };
    out->legend = (sv_box){ box.x, box.y + box.h - 1.8f * u, box.w, 1.8f * u };
    const float label_w = 7.5f * u; /* "tile 16383" */
    const float top = out->header.y + out->header.h + 0.6f * u;
    const float bottom = out->legend.y - 2.6f * u; /* the time axis' ticks and label */
    out->area = (sv_box){ box.x + label_w, top, fmaxf(box.w - label_w - 1.0f * u, 1.0f),
                          fmaxf(bottom - top, 1.0f) };
    out->row_h = out->area.h / (float)rows;
    out->arrows = out->row_h >= 0.45f * u;
    /* The shown tiles' time range, so a page of tiles fills the width. */
    double lo = INFINITY, hi = 0;
    for (int i = first; t && i < first + rows; i++) {
        const sv_timeline_tile *x = &t->tiles[i];
        double a = (double)(x->aggregate < x->start ? x->aggregate : x->start);
        if (a < lo)
            lo = a;
        if ((double)x->end > hi)
            hi = (double)x->end;
    }
    if (!(lo < hi)) {
        lo = 0;
        hi = lo + 1000.0;
    }
    const double pad = 0.02 * (hi - lo);
    out->t0 = lo - pad > 0 ? lo - pad : 0;
    out->t1 = hi + pad;
}

float sv_tl_x(const sv_tl_layout *L, uint64_t ns)
{
    return L->area.x + (float)(((double)ns - L->t0) / (L->t1 - L->t0)) * L->area.w;
}

float sv_tl_y(const sv_tl_layout *L, uint32_t tile)
{
    return L->area.y + ((float)((int)tile - L->first) + 0.5f) * L->row_h;
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) for about `want` ticks. */
static double tick_step(double span, int want)
{
    double raw = span / (want > 0 ? want : 1), p = pow(10.0, floor(log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1.0 : m < 3.5 ? 2.0 : m < 7.5 ? 5.0 : 10.0) * p;
}

static void header(sv_gfx *g, const sv_timeline *t, const sv_tl_layout *L, const sv_theme *th,
                   float u, uint64_t cursor)
{
    char n[32], tile[32], tiles[32], title[400], line[700], buf[700];
    if (t->kernel[0]) { /* a kernel trace's launch */
        char blocks[32];
        snprintf(title, sizeof title, "%s's tiles on %s \u00b7 n = %s %s \u00b7 %s%s%s blocks of %s "
                 "threads", t->kernel, t->gpu, grouped(t->n, n, sizeof n), sv_type_name(t->type),
                 grouped(t->ntiles, tiles, sizeof tiles), t->ntiles < t->blocks ? " of " : "",
                 t->ntiles < t->blocks ? grouped(t->blocks, blocks, sizeof blocks) : "",
                 grouped(t->tile, tile, sizeof tile));
        if (cursor != SV_TL_NO_CURSOR)
            sv_timeline_state_words(t, cursor, line, sizeof line);
        else
            snprintf(line, sizeof line, "tiles %d-%d \u00b7 %s \u00b7 Left / Right: step by time",
                     L->first, L->first + L->rows - 1, t->command);
    } else {
        snprintf(title, sizeof title, "hs's look-back on %s \u00b7 n = %s %s \u00b7 %s tiles of %s "
                 "(%" PRIu32 " blocks)", t->gpu[0] ? t->gpu : "a GPU", grouped(t->n, n, sizeof n),
                 sv_type_name(t->type), grouped(t->ntiles, tiles, sizeof tiles),
                 grouped(t->tile, tile, sizeof tile), t->blocks);
        snprintf(line, sizeof line, "tiles %d-%d \u00b7 %s \u00b7 CUDA %s \u00b7 %s \u00b7 "
                 "recording cost %+.1f %% (%.2f against %.2f \u00b5s, medians of %d)", L->first,
                 L->first + L->rows - 1, t->variant, t->cuda, t->date,
                 100.0 * (t->recorded_us / t->plain_us - 1.0), t->recorded_us, t->plain_us,
                 t->reps);
    }
    sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, 1.05f * u, L->header.w, title, buf, sizeof buf);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 1.05f * u, L->header.x, L->header.y + 0.8f * u,
                SV_ALIGN_LEFT, th->text, buf);
    sv_gfx_text_ellipsize(g, SV_FONT_SANS, 0.9f * u, L->header.w, line, buf, sizeof buf);
    sv_gfx_text(g, SV_FONT_SANS, 0.9f * u, L->header.x, L->header.y + 2.4f * u, SV_ALIGN_LEFT,
                th->text_dim, buf);
}

static void legend(sv_gfx *g, const sv_timeline *t, const sv_tl_layout *L, const sv_theme *th,
                   float u)
{
    float x = L->legend.x, y = L->legend.y + 0.9f * u, px = 0.85f * u;
    const struct {
        sv_rgba c;
        int kind; /* 0 bar, 1 tick, 2 arrow, 3 lead-in */
        const char *label;
    } hs[] = {
        { th->partial, 0, "scan, look-back" },
        { th->full, 0, "add prefix, store" },
        { th->window, 1, "aggregate out" },
        { th->text_dim, 3, "early aggregate" },
        { th->arrow, 2, "the prefix its look-back stopped at" },
    }, kernel[] = {
        { th->partial, 0, "running" },
        { th->full, 0, "its inclusive prefix out" },
        { th->window, 1, "aggregate out" },
        { th->text_dim, 3, "waiting for another tile" },
        { th->arrow, 2, "a read of what another tile wrote" },
    }, *items = t->kernel[0] ? kernel : hs;
    /* a GPU's launch: its reads and waits are not stamped (no strokes, no arrows) */
    const bool gpu_kernel = t->kernel[0] && t->per_unit == 1e3;
    const size_t count = gpu_kernel ? 3 : sizeof hs / sizeof hs[0];
    for (size_t i = 0; i < count; i++) {
        const float w = 1.8f * u;
        if (items[i].kind == 0)
            sv_gfx_rect(g, (sv_box){ x, y - 0.35f * u, w, 0.7f * u }, 0.15f * u, items[i].c,
                        items[i].c, 0.0f, SV_BORDER_NONE);
        else if (items[i].kind == 1)
            sv_gfx_line(g, x + w / 2, y - 0.5f * u, x + w / 2, y + 0.5f * u, 0.22f * u,
                        items[i].c);
        else if (items[i].kind == 3)
            sv_gfx_line(g, x, y, x + w, y, 0.12f * u, items[i].c);
        else
            sv_gfx_arrow(g, x + w, y + 0.3f * u, x, y - 0.3f * u, 0.12f * u, 0.5f * u,
                         items[i].c);
        x += w + 0.5f * u;
        x += sv_gfx_text(g, SV_FONT_SANS, px, x, y, SV_ALIGN_LEFT, th->text_dim, items[i].label);
        x += 1.4f * u;
    }
    if (gpu_kernel)
        sv_gfx_text(g, SV_FONT_SANS, px, x, y, SV_ALIGN_LEFT, th->text_dim,
                    "(the GPU's reads and waits are not stamped)");
}

static void time_axis(sv_gfx *g, const sv_timeline *t, const sv_tl_layout *L,
                      const sv_theme *th, float u)
{
    const sv_box a = L->area;
    const double per = t->per_unit > 0 ? t->per_unit : 1e3;
    const double step = tick_step((L->t1 - L->t0) / per, (int)(a.w / (7.0f * u)));
    const float px = 0.85f * u, y = a.y + a.h + 0.9f * u;
    for (double v = ceil(L->t0 / per / step) * step; v * per <= L->t1; v += step) {
        const float x = sv_tl_x(L, (uint64_t)llround(v * per));
        sv_gfx_line(g, x, a.y, x, a.y + a.h, fmaxf(1.0f, 0.06f * u), th->grid);
        char lab[32];
        snprintf(lab, sizeof lab, step < 1.0 ? "%.2f" : step < 10.0 ? "%.1f" : "%.0f", v);
        sv_gfx_text(g, SV_FONT_SANS, px, x, y, SV_ALIGN_CENTER, th->text_dim, lab);
    }
    sv_gfx_text(g, SV_FONT_SANS, px, a.x + a.w, y + 1.2f * u, SV_ALIGN_RIGHT, th->text_dim,
                t->kernel[0] ? t->clock
                             : "\u00b5s after the first tile's start (the GPU's %globaltimer)");
}

/* The bars of the shown tiles (alpha: all of their colours'). */
static void bars(sv_gfx *g, const sv_timeline *t, const sv_tl_layout *L, const sv_theme *th,
                 float u, float alpha)
{
    const float bar_h = fmaxf(L->row_h * 0.62f, 0.5f);
    const float radius = fminf(0.15f * u, bar_h / 3.0f);
    const sv_rgba partial = sv_rgba_alpha(th->partial, alpha), full = sv_rgba_alpha(th->full, alpha),
                  dim = sv_rgba_alpha(th->text_dim, alpha), tick = sv_rgba_alpha(th->window, alpha);
    for (int i = L->first; i < L->first + L->rows; i++) {
        const sv_timeline_tile *x = &t->tiles[i];
        const float y = sv_tl_y(L, (uint32_t)i);
        const float xs = sv_tl_x(L, x->start), xi = sv_tl_x(L, x->inclusive),
                    xe = sv_tl_x(L, x->end), xa = sv_tl_x(L, x->aggregate);
        if (x->early && xa < xs) /* the A went out while the tile waited in its stage */
            sv_gfx_line(g, xa, y, xs, y, fmaxf(0.5f, fminf(0.12f * u, bar_h / 4)), dim);
        sv_gfx_rect(g, (sv_box){ xs, y - bar_h / 2, fmaxf(xi - xs, 0.5f), bar_h }, radius,
                    partial, partial, 0.0f, SV_BORDER_NONE);
        if (!x->no_inclusive)
            sv_gfx_rect(g, (sv_box){ xi, y - bar_h / 2, fmaxf(xe - xi, 0.5f), bar_h }, radius,
                        full, full, 0.0f, SV_BORDER_NONE);
        if (x->wait_to > x->wait_from) /* it spun on another tile's word */
            sv_gfx_line(g, sv_tl_x(L, x->wait_from), y, sv_tl_x(L, x->wait_to), y,
                        fmaxf(0.5f, bar_h * 0.3f), dim);
        if (!x->no_aggregate)
            sv_gfx_line(g, xa, y - L->row_h * 0.45f, xa, y + L->row_h * 0.45f,
                        fmaxf(0.5f, fminf(0.2f * u, L->row_h / 5)), tick);
    }
}

void sv_render_timeline(sv_gfx *g, const sv_timeline *t, sv_box box, const sv_theme *theme,
                        float unit, int first, int rows)
{
    sv_render_timeline_at(g, t, box, theme, unit, first, rows, SV_TL_NO_CURSOR);
}

void sv_render_timeline_at(sv_gfx *g, const sv_timeline *t, sv_box box, const sv_theme *theme,
                           float unit, int first, int rows, uint64_t cursor)
{
    const sv_theme *th = theme;
    const float u = fmaxf(unit * SV_PLOT_TEXT_UNITS, 1.0f);
    sv_tl_layout L;
    sv_tl_layout_compute(t, box, unit, first, rows, &L);
    header(g, t, &L, th, u, cursor);
    legend(g, t, &L, th, u);
    time_axis(g, t, &L, th, u);

    const sv_box a = L.area;
    /* Tile labels: every row when they fit, else every k-th. */
    const float px = fminf(0.85f * u, fmaxf(L.row_h * 0.8f, 1.0f));
    const int every = L.row_h >= 0.9f * u ? 1 : (int)ceilf(0.9f * u / L.row_h);
    for (int i = L.first; i < L.first + L.rows; i++) {
        if ((i - L.first) % every)
            continue;
        char lab[32];
        if (t->kernel[0]) /* a kernel's launch: its rows by the cells each block wrote */
            snprintf(lab, sizeof lab, "block %" PRIu32, t->tiles[i].block);
        else
            snprintf(lab, sizeof lab, "tile %d", i);
        sv_gfx_text(g, SV_FONT_SANS, px, a.x - 0.5f * u, sv_tl_y(&L, (uint32_t)i), SV_ALIGN_RIGHT,
                    th->text_dim, lab);
    }

    sv_gfx_clip(g, &a);
    if (cursor == SV_TL_NO_CURSOR) {
        bars(g, t, &L, th, u, 1.0f);
    } else { /* step by time: what happened after the cursor faint */
        const float xc = fminf(fmaxf(sv_tl_x(&L, cursor), a.x), a.x + a.w);
        bars(g, t, &L, th, u, 0.25f);
        const sv_box before = { a.x, a.y, xc - a.x, a.h };
        sv_gfx_clip(g, &before);
        bars(g, t, &L, th, u, 1.0f);
        sv_gfx_clip(g, &a);
        sv_gfx_line(g, xc, a.y, xc, a.y + a.h, fmaxf(1.0f, 0.1f * u), th->text);
    }
    /* The look-back of each tile, over the bars: from its inclusive prefix
     * to the one it stopped at (drawn where both rows are shown; a tile
     * above the first row gets an arrow to the area's top edge). */
    if (L.arrows && t->kernel[0]) { /* each read of another tile's word */
        for (size_t k = 0; k < t->nlooks; k++) {
            const sv_timeline_look *x = &t->looks[k];
            if ((int)x->tile < L.first || (int)x->tile >= L.first + L.rows ||
                (cursor != SV_TL_NO_CURSOR && x->time > cursor))
                continue;
            const float y1 = (int)x->other < L.first ? a.y
                             : (int)x->other >= L.first + L.rows ? a.y + a.h
                                                                 : sv_tl_y(&L, x->other);
            sv_gfx_arrow(g, sv_tl_x(&L, x->time), sv_tl_y(&L, x->tile), sv_tl_x(&L, x->other_time),
                         y1, fmaxf(0.6f, 0.08f * u), fminf(0.5f * u, L.row_h),
                         sv_rgba_alpha(th->arrow, 0.8f));
        }
    } else if (L.arrows) {
        for (int i = L.first > 0 ? L.first : 1; i < L.first + L.rows; i++) {
            const sv_timeline_tile *x = &t->tiles[i];
            const sv_timeline_tile *p = &t->tiles[x->lo];
            const float x0 = sv_tl_x(&L, x->inclusive), y0 = sv_tl_y(&L, (uint32_t)i);
            const float x1 = sv_tl_x(&L, p->inclusive);
            const float y1 = (int)x->lo >= L.first ? sv_tl_y(&L, x->lo) : a.y;
            sv_gfx_arrow(g, x0, y0, x1, y1, fmaxf(0.6f, 0.08f * u), fminf(0.5f * u, L.row_h),
                         sv_rgba_alpha(th->arrow, 0.8f));
        }
    }
    sv_gfx_clip(g, NULL);
    if (!L.arrows) {
        char note[96];
        snprintf(note, sizeof note, "%d tiles at once: ] shows fewer, with the look-back's arrows",
                 L.rows);
        sv_gfx_text(g, SV_FONT_SANS, 0.85f * u, a.x, a.y + a.h + 2.1f * u, SV_ALIGN_LEFT,
                    th->text_dim, note);
    }
}
