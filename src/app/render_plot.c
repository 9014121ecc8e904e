/* The Measure view: throughput against n with the copy bound as the ceiling,
 * and operations performed against n, from a benchmark table. Draws only
 * through sv_gfx; every size comes from the layout unit so it scales. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/algo.h"
#include "render.h"
#include "render_plot.h"

/* Each algorithm's name, label, colour, marker and dash: the registry
 * (src/core/algo.h), in legend order. */
static const sv_algo_info *style(int i)
{
    return sv_algo_get((sv_algo)i);
}

#define MAX_POINTS 64

typedef struct series {
    int algo;              /* index into styles */
    int n;                 /* points, sorted by x */
    double x[MAX_POINTS];  /* log2 n */
    double gbps[MAX_POINTS];
    double ops[MAX_POINTS]; /* NAN when absent */
    double frac[MAX_POINTS];
    bool faded;            /* not among the focus (sv_render_plot_focus): drawn pale */
} series;

const char *sv_plot_algo_name(int i)
{
    return i >= 0 && i < SV_ALGO_COUNT ? style(i)->name : NULL;
}

static int algo_index(const char *algo)
{
    for (int i = 0; i < SV_ALGO_COUNT; i++)
        if (strcmp(style(i)->name, algo) == 0)
            return i;
    return -1;
}

static bool light_theme(const sv_theme *t)
{
    return 0.299f * t->bg.r + 0.587f * t->bg.g + 0.114f * t->bg.b > 0.5f;
}

static sv_rgba algo_color(int i, const sv_theme *theme)
{
    if (i < 0)
        return theme->text_dim;
    if (i == 0)
        return theme->text;
    return sv_rgb_hex(light_theme(theme) ? style(i)->rgb_light : style(i)->rgb);
}

sv_rgba sv_plot_algo_color(const char *algo, const sv_theme *theme)
{
    return algo_color(algo ? algo_index(algo) : -1, theme);
}

/* ---- layout ------------------------------------------------------------ */

/* One legend entry's width: sample line, gap, label, space after. Measured
 * when g is there, estimated from the character count when not. */
static float legend_entry_w(sv_gfx *g, int i, float u)
{
    float tw = g ? sv_gfx_text_width(g, SV_FONT_SANS, u, style(i)->label)
                 : (float)strlen(style(i)->label) * 0.56f * u;
    return 3.2f * u + tw + 1.6f * u;
}

void sv_plot_layout_compute(sv_gfx *g, sv_box box, float unit, sv_plot_layout *out)
{
    memset(out, 0, sizeof *out);
    float u = fmaxf(unit * SV_PLOT_TEXT_UNITS, 1.0f);
    float pad = 0.9f * u;
    float x = box.x + pad, w = box.w - 2 * pad;
    float y = box.y + pad;
    out->header = (sv_box){ x, y, w, 2.0f * u };
    y += out->header.h;
    /* Rows as legend() flows the entries. */
    int rows = 1;
    float lx = 0;
    for (int i = 0; i < SV_ALGO_COUNT; i++) {
        float ew = legend_entry_w(g, i, u);
        if (lx > 0 && lx + ew - 1.6f * u > w) {
            rows++;
            lx = 0;
        }
        lx += ew;
    }
    out->legend = (sv_box){ x, y, w, 1.9f * u * (float)rows };
    y += out->legend.h + 0.6f * u;
    sv_box r = { x, y, w, box.y + box.h - pad - y };
    float gap = 2.0f * u;
    out->side_by_side = r.w >= 1.5f * r.h;
    if (out->side_by_side) {
        float w0 = (r.w - gap) * 0.56f;
        out->panel[0] = (sv_box){ r.x, r.y, w0, r.h };
        out->panel[1] = (sv_box){ r.x + w0 + gap, r.y, r.w - w0 - gap, r.h };
    } else {
        float h0 = (r.h - gap) * 0.55f;
        out->panel[0] = (sv_box){ r.x, r.y, r.w, h0 };
        out->panel[1] = (sv_box){ r.x, r.y + h0 + gap, r.w, r.h - h0 - gap };
    }
    for (int p = 0; p < 2; p++) {
        sv_box b = out->panel[p];
        float left = 4.6f * u, top = 2.6f * u, bottom = 3.3f * u;
        float right = p == 1 ? 7.0f * u : 1.0f * u;
        out->area[p] = (sv_box){ b.x + left, b.y + top, b.w - left - right, b.h - top - bottom };
        if (out->area[p].w < 1)
            out->area[p].w = 1;
        if (out->area[p].h < 1)
            out->area[p].h = 1;
    }
}

/* ---- data ---------------------------------------------------------------- */

/* Which element type to show: int32 when the table has it (the targets are
 * int32), else the first row's. */
static const char *shown_type(const sv_bench_table *t)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (strcmp(t->rows[i].type, "int32") == 0)
            return "int32";
    return t->nrows ? t->rows[0].type : "int32";
}

/* Gathers the rows of each algorithm and the shown type, sorted by n; a
 * repeated n keeps the last row. Returns the number of series with points. */
static int gather(const sv_bench_table *t, const char *type, series *out)
{
    int count = 0;
    for (int a = 0; a < SV_ALGO_COUNT; a++) {
        series *s = &out[count];
        s->algo = a;
        s->n = 0;
        for (size_t i = 0; i < t->nrows; i++) {
            const sv_bench_row *r = &t->rows[i];
            if (strcmp(r->algo, style(a)->name) != 0 || strcmp(r->type, type) != 0 || r->n < 1)
                continue;
            double x = log2(r->n);
            int k = 0;
            while (k < s->n && s->x[k] < x)
                k++;
            if (k < s->n && s->x[k] == x) {
                /* same n again: keep the last */
            } else {
                if (s->n == MAX_POINTS)
                    continue;
                memmove(&s->x[k + 1], &s->x[k], (size_t)(s->n - k) * sizeof s->x[0]);
                memmove(&s->gbps[k + 1], &s->gbps[k], (size_t)(s->n - k) * sizeof s->x[0]);
                memmove(&s->ops[k + 1], &s->ops[k], (size_t)(s->n - k) * sizeof s->x[0]);
                memmove(&s->frac[k + 1], &s->frac[k], (size_t)(s->n - k) * sizeof s->x[0]);
                s->n++;
            }
            s->x[k] = x;
            s->gbps[k] = r->gb_per_s;
            s->ops[k] = r->ops;
            s->frac[k] = r->frac_of_copy;
        }
        if (s->n > 0)
            count++;
    }
    return count;
}

/* ---- primitives ---------------------------------------------------------- */

/* A convex polygon: filled by one-pixel scanlines, then its edges stroked
 * with antialiased lines so the outline is smooth. */
static void polygon(sv_gfx *g, const float *px, const float *py, int n, sv_rgba c)
{
    float ymin = py[0], ymax = py[0];
    for (int i = 1; i < n; i++) {
        ymin = fminf(ymin, py[i]);
        ymax = fmaxf(ymax, py[i]);
    }
    for (float y = floorf(ymin) + 0.5f; y < ymax; y += 1.0f) {
        float lo = 1e30f, hi = -1e30f;
        for (int i = 0; i < n; i++) {
            int j = (i + 1) % n;
            float y0 = py[i], y1 = py[j];
            if ((y < y0) == (y < y1))
                continue;
            float t = (y - y0) / (y1 - y0);
            float x = px[i] + t * (px[j] - px[i]);
            lo = fminf(lo, x);
            hi = fmaxf(hi, x);
        }
        if (hi > lo)
            sv_gfx_rect(g, (sv_box){ lo, y - 0.5f, hi - lo, 1.0f }, 0, c, c, 0, SV_BORDER_NONE);
    }
    for (int i = 0; i < n; i++) {
        int j = (i + 1) % n;
        sv_gfx_line(g, px[i], py[i], px[j], py[j], 1.3f, c);
    }
}

static void draw_marker(sv_gfx *g, sv_algo_marker m, float cx, float cy, float r, sv_rgba c)
{
    switch (m) {
    case SV_MARKER_CIRCLE:
        sv_gfx_circle(g, cx, cy, r * 0.9f, c, c, 0);
        break;
    case SV_MARKER_SQUARE: {
        float s = r * 0.8f;
        sv_gfx_rect(g, (sv_box){ cx - s, cy - s, 2 * s, 2 * s }, s * 0.18f, c, c, 0,
                    SV_BORDER_NONE);
        break;
    }
    case SV_MARKER_DIAMOND: {
        float px[4] = { cx, cx + r, cx, cx - r }, py[4] = { cy - r * 1.1f, cy, cy + r * 1.1f, cy };
        polygon(g, px, py, 4, c);
        break;
    }
    case SV_MARKER_TRIANGLE: {
        float px[3] = { cx, cx + r, cx - r }, py[3] = { cy - r, cy + r * 0.75f, cy + r * 0.75f };
        polygon(g, px, py, 3, c);
        break;
    }
    case SV_MARKER_TRIANGLE_DOWN: {
        float px[3] = { cx - r, cx + r, cx }, py[3] = { cy - r * 0.75f, cy - r * 0.75f, cy + r };
        polygon(g, px, py, 3, c);
        break;
    }
    case SV_MARKER_CROSS: {
        float s = r * 0.8f, w = r * 0.6f;
        sv_gfx_line(g, cx - s, cy - s, cx + s, cy + s, w, c);
        sv_gfx_line(g, cx - s, cy + s, cx + s, cy - s, w, c);
        break;
    }
    }
}

/* A marker on a halo of the background, so crossing lines do not hide it. */
static void marker_halo(sv_gfx *g, sv_algo_marker m, float cx, float cy, float r, sv_rgba c,
                        sv_rgba bg)
{
    draw_marker(g, m, cx, cy, r * 1.45f, bg);
    draw_marker(g, m, cx, cy, r, c);
}

/* A polyline in a dash pattern that runs on across the vertices. Pattern
 * elements: length in units of w, and what fills it (gap, dash or dot). */
typedef struct dash {
    float len;
    int kind; /* 0 gap, 1 dash, 2 dot */
} dash;

static void polyline(sv_gfx *g, const float *xs, const float *ys, int n, float w, sv_rgba c,
                     sv_algo_dash ls)
{
    static const dash dashed[] = { { 4.0f, 1 }, { 2.2f, 0 } };
    static const dash dotted[] = { { 1.0f, 2 }, { 1.5f, 0 } };
    static const dash dashdot[] = { { 4.0f, 1 }, { 1.5f, 0 }, { 1.0f, 2 }, { 1.5f, 0 } };
    const dash *pat = NULL;
    int npat = 0;
    if (ls == SV_DASH_DASHED) {
        pat = dashed;
        npat = 2;
    } else if (ls == SV_DASH_DOTTED) {
        pat = dotted;
        npat = 2;
    } else if (ls == SV_DASH_DASHDOT) {
        pat = dashdot;
        npat = 4;
    }
    if (!pat) {
        for (int i = 0; i + 1 < n; i++)
            sv_gfx_line(g, xs[i], ys[i], xs[i + 1], ys[i + 1], w, c);
        for (int i = 0; i < n; i++) /* round joins */
            sv_gfx_circle(g, xs[i], ys[i], w * 0.5f, c, c, 0);
        return;
    }
    int e = 0;
    float left = pat[0].len * w; /* what remains of element e */
    for (int i = 0; i + 1 < n; i++) {
        float dx = xs[i + 1] - xs[i], dy = ys[i + 1] - ys[i];
        float len = sqrtf(dx * dx + dy * dy);
        if (len <= 0)
            continue;
        float ux = dx / len, uy = dy / len;
        float t = 0;
        while (t < len) {
            float step = fminf(left, len - t);
            float ax = xs[i] + ux * t, ay = ys[i] + uy * t;
            float bx = ax + ux * step, by = ay + uy * step;
            if (pat[e].kind == 1)
                sv_gfx_line(g, ax, ay, bx, by, w, c);
            else if (pat[e].kind == 2 && step >= left * 0.999f)
                sv_gfx_circle(g, (ax + bx) * 0.5f, (ay + by) * 0.5f, w * 0.62f, c, c, 0);
            t += step;
            left -= step;
            if (left <= 1e-3f) {
                e = (e + 1) % npat;
                left = pat[e].len * w;
            }
        }
    }
}

/* "1K", "256M", "4G" for 2^k. */
static void pow2_label(int k, char *out, size_t len)
{
    static const char suffix[] = { 0, 'K', 'M', 'G', 'T' };
    /* Below 1 (ops 0.5 in a CSV) and above 1023T (n = 1e40) there is no
     * short name: 2^k, never a shift by a negative or too large count. */
    if (k < 0 || k >= 50) {
        snprintf(out, len, "2^%d", k);
        return;
    }
    int s = k / 10, v = 1 << (k % 10); /* s <= 4, v <= 512 */
    if (s == 0)
        snprintf(out, len, "%d", v);
    else
        snprintf(out, len, "%d%c", v, suffix[s]);
}

static double nice_step(double range, int max_ticks)
{
    if (max_ticks < 1)
        max_ticks = 1;
    double raw = range / max_ticks;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double s = norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10;
    return s * mag;
}

/* ---- the panels ----------------------------------------------------------- */

typedef struct axes {
    sv_box a;          /* plotting area */
    double x0, x1;     /* log2 n */
    double y0, y1;     /* GB/s, or log2 ops */
} axes;

static float map_x(const axes *ax, double x)
{
    return ax->a.x + (float)((x - ax->x0) / (ax->x1 - ax->x0)) * ax->a.w;
}

static float map_y(const axes *ax, double y)
{
    return ax->a.y + ax->a.h - (float)((y - ax->y0) / (ax->y1 - ax->y0)) * ax->a.h;
}

/* Grid, ticks and labels on x (powers of two of n), shared by both panels. */
static void x_axis(sv_gfx *g, const axes *ax, const sv_theme *th, float u, const char *title)
{
    float tick_px = 0.9f * u;
    int k0 = (int)ceil(ax->x0), k1 = (int)floor(ax->x1);
    /* Label every 2nd power, or fewer when the panel is narrow. */
    float per = ax->a.w / (float)(ax->x1 - ax->x0);
    /* Label every 2nd power from 2^10 (1K, 4K, ..., 256M), or every 3rd,
     * 6th, 9th when the panel is narrow: both ends stay labelled. */
    static const int steps[] = { 2, 3, 6, 9, 18 };
    int step = 18;
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
        if (per * (float)steps[i] >= 3.2f * tick_px) {
            step = steps[i];
            break;
        }
    float gw = fmaxf(1.0f, 0.07f * u);
    for (int k = k0; k <= k1; k++) {
        float x = map_x(ax, k);
        bool labelled = ((k - 10) % step + step) % step == 0;
        sv_gfx_line(g, x, ax->a.y, x, ax->a.y + ax->a.h, labelled ? gw : gw * 0.5f,
                    labelled ? th->grid : sv_rgba_alpha(th->grid, 0.5f));
        if (labelled) {
            char buf[16];
            pow2_label(k, buf, sizeof buf);
            sv_gfx_text(g, SV_FONT_MONO, tick_px, x, ax->a.y + ax->a.h + 0.95f * u,
                        SV_ALIGN_CENTER, th->text_dim, buf);
        }
    }
    sv_gfx_text(g, SV_FONT_SANS, u, ax->a.x + ax->a.w * 0.5f, ax->a.y + ax->a.h + 2.45f * u,
                SV_ALIGN_CENTER, th->text_dim, title);
}

static void panel_title(sv_gfx *g, sv_box panel, const sv_theme *th, float u, const char *title,
                        const char *sub)
{
    float w = sv_gfx_text(g, SV_FONT_SANS_BOLD, 1.15f * u, panel.x, panel.y + 0.75f * u,
                          SV_ALIGN_LEFT, th->text, title);
    if (sub)
        sv_gfx_text(g, SV_FONT_SANS, 0.95f * u, panel.x + w + 0.6f * u, panel.y + 0.75f * u,
                    SV_ALIGN_LEFT, th->text_dim, sub);
}

/* The copy series' GB/s at x, by straight lines between its points; NAN
 * outside its range. */
static double copy_at(const series *copy, double x)
{
    if (!copy || copy->n == 0 || x < copy->x[0] || x > copy->x[copy->n - 1])
        return NAN;
    for (int i = 0; i + 1 < copy->n; i++)
        if (x <= copy->x[i + 1]) {
            double t = (x - copy->x[i]) / (copy->x[i + 1] - copy->x[i]);
            return copy->gbps[i] + t * (copy->gbps[i + 1] - copy->gbps[i]);
        }
    return copy->gbps[copy->n - 1];
}

static void draw_series(sv_gfx *g, const axes *ax, const series *s, bool ops, const sv_theme *th,
                        float u)
{
    float xs[MAX_POINTS], ys[MAX_POINTS];
    int n = 0;
    for (int i = 0; i < s->n; i++) {
        double v = ops ? s->ops[i] : s->gbps[i];
        if (!isfinite(v) || (ops && v <= 0))
            continue;
        xs[n] = map_x(ax, s->x[i]);
        ys[n] = map_y(ax, ops ? log2(v) : v);
        n++;
    }
    if (n == 0)
        return;
    sv_rgba c = algo_color(s->algo, th);
    if (s->faded) /* the focus's curves stand out (the compare view's M) */
        c = sv_rgba_mix(c, th->bg, 0.7f);
    float w = (s->algo == 0 ? 0.36f : 0.24f) * u;
    polyline(g, xs, ys, n, w, c, style(s->algo)->dash);
    /* Markers shrink where points crowd (every power of two on a narrow
     * panel), so they stay apart. */
    float gap = 1e9f;
    for (int i = 0; i + 1 < n; i++)
        gap = fminf(gap, xs[i + 1] - xs[i]);
    float r = fminf(0.42f * u, fmaxf(0.22f * u, 0.3f * gap));
    for (int i = 0; i < n; i++)
        marker_halo(g, style(s->algo)->marker, xs[i], ys[i], r, c, th->bg);
}

static const series *find_series(const series *all, int count, const char *algo)
{
    int a = algo_index(algo);
    for (int i = 0; i < count; i++)
        if (all[i].algo == a)
            return &all[i];
    return NULL;
}

static void throughput_panel(sv_gfx *g, const sv_plot_layout *L, const series *all, int count,
                             const sv_theme *th, float u)
{
    axes ax = { .a = L->area[0], .x0 = 9.5, .x1 = 28.5, .y0 = 0, .y1 = 1 };
    double ymax = 0;
    for (int i = 0; i < count; i++)
        for (int k = 0; k < all[i].n; k++) {
            ax.x0 = fmin(ax.x0, all[i].x[k] - 0.5);
            ax.x1 = fmax(ax.x1, all[i].x[k] + 0.5);
            if (isfinite(all[i].gbps[k]))
                ymax = fmax(ymax, all[i].gbps[k]);
        }
    if (ymax <= 0)
        ymax = 1;
    int max_ticks = (int)(ax.a.h / (2.8f * u));
    /* Headroom over the ceiling for its label and the note above it. */
    double step = nice_step(ymax / 0.75, max_ticks < 2 ? 2 : max_ticks);
    ax.y1 = ceil(ymax / 0.75 / step) * step;

    panel_title(g, L->panel[0], th, u, "Throughput", "GB/s (read n + write n), higher is better");
    float gw = fmaxf(1.0f, 0.07f * u);
    char buf[32];
    for (double v = 0; v <= ax.y1 + step * 0.01; v += step) {
        float y = map_y(&ax, v);
        sv_gfx_line(g, ax.a.x, y, ax.a.x + ax.a.w, y, gw, th->grid);
        snprintf(buf, sizeof buf, step >= 1 ? "%.0f" : "%g", v);
        sv_gfx_text(g, SV_FONT_MONO, 0.9f * u, ax.a.x - 0.5f * u, y, SV_ALIGN_RIGHT,
                    th->text_dim, buf);
    }
    x_axis(g, &ax, th, u, "array size n (elements, log scale)");

    sv_gfx_clip(g, &ax.a);
    /* Above the copy line no scan can go: shade it, so the line reads as a
     * ceiling. One thin column at a time, following the line. */
    const series *copy = find_series(all, count, "copy");
    if (copy && copy->n > 1) {
        sv_rgba shade = sv_rgba_mix(th->bg, th->text, 0.07f);
        float x0 = map_x(&ax, copy->x[0]), x1 = map_x(&ax, copy->x[copy->n - 1]);
        for (float x = x0; x < x1; x += 2.0f) {
            double lx = ax.x0 + (double)((x + 1.0f - ax.a.x) / ax.a.w) * (ax.x1 - ax.x0);
            double v = copy_at(copy, lx);
            if (!isfinite(v))
                continue;
            float y = map_y(&ax, v);
            sv_gfx_rect(g, (sv_box){ x, ax.a.y, 2.0f, y - ax.a.y }, 0, shade, shade, 0,
                        SV_BORDER_NONE);
        }
    }
    /* The others first, the ceiling on top. */
    for (int i = count - 1; i >= 0; i--)
        if (all[i].algo != 0)
            draw_series(g, &ax, &all[i], false, th, u);
    if (copy)
        draw_series(g, &ax, copy, false, th, u);
    sv_gfx_clip(g, NULL);

    if (copy && copy->n > 0) {
        int last = copy->n - 1;
        float lx = map_x(&ax, copy->x[last]), ly = map_y(&ax, copy->gbps[last]);
        /* Above the line's end, unless that would meet the note at the top. */
        float y = ly - 1.1f * u < ax.a.y + 3.5f * u ? ly + 1.2f * u : ly - 1.1f * u;
        /* The claim only where the numbers make it: a scan measured faster
         * than copy at some n (timer noise at tiny n) drops it. */
        bool beaten = false;
        for (int i = 0; i < count; i++)
            for (int k = 0; all[i].algo != 0 && k < all[i].n; k++) {
                double c = copy_at(copy, all[i].x[k]);
                if (isfinite(c) && all[i].gbps[k] > c * 1.02)
                    beaten = true;
            }
        sv_gfx_text(g, SV_FONT_SANS_BOLD, 0.95f * u, lx - 0.8f * u, y, SV_ALIGN_RIGHT, th->text,
                    beaten ? "copy bound" : "copy bound: no scan beats it");
    }

    /* The lesson in one line: where hs and CUB stand against copy at the
     * largest n all three were measured. */
    const series *hs = find_series(all, count, "hs"), *cub = find_series(all, count, "cub");
    if (copy && hs) {
        double best = -1;
        double fh = NAN, fc = NAN;
        for (int i = 0; i < hs->n; i++) {
            double c = copy_at(copy, hs->x[i]);
            if (isfinite(c) && c > 0 && hs->x[i] > best) {
                best = hs->x[i];
                fh = isfinite(hs->frac[i]) ? hs->frac[i] : hs->gbps[i] / c;
                fc = NAN;
                for (int k = 0; cub && k < cub->n; k++)
                    if (cub->x[k] == hs->x[i])
                        fc = isfinite(cub->frac[k]) ? cub->frac[k] : cub->gbps[k] / c;
            }
        }
        if (best >= 0) {
            char nl[16], line[160];
            pow2_label((int)lround(best), nl, sizeof nl);
            if (isfinite(fc))
                snprintf(line, sizeof line, "n = %s:  hs %.2f of copy · CUB %.2f", nl, fh, fc);
            else
                snprintf(line, sizeof line, "n = %s:  hs %.2f of copy", nl, fh);
            sv_gfx_text(g, SV_FONT_SANS, 0.95f * u, ax.a.x + 0.8f * u, ax.a.y + 1.0f * u,
                        SV_ALIGN_LEFT, th->text_dim, line);
        }
    }
    /* And the other end, which a linear axis flattens: at the smallest n
     * the GPU scans wait on launch latency, and one CPU core may win. */
    const series *cpu = find_series(all, count, "cpu");
    if (cpu && hs) {
        for (int i = 0; i < hs->n; i++) {
            int k = 0;
            while (k < cpu->n && cpu->x[k] != hs->x[i])
                k++;
            if (k == cpu->n)
                continue;
            char nl[16], line[160];
            pow2_label((int)lround(hs->x[i]), nl, sizeof nl);
            bool cpu_wins = cpu->gbps[k] > hs->gbps[i];
            snprintf(line, sizeof line, "n = %s:  CPU %.3g GB/s \u00b7 hs %.3g GB/s%s", nl,
                     cpu->gbps[k], hs->gbps[i], cpu_wins ? "  (launch latency)" : "");
            sv_gfx_text(g, SV_FONT_SANS, 0.95f * u, ax.a.x + 0.8f * u, ax.a.y + 2.3f * u,
                        SV_ALIGN_LEFT, th->text_dim, line);
            break;
        }
    }
}

/* What the operation count grows like, from ops / n at the largest n:
 * "n log2 n" (the chapter's kernel), "n - 1" (sequential), else "~ k n". */
static void work_class(double n, double ops, char *out, size_t len)
{
    double r = ops / n, lg = log2(n);
    if (r > 0.55 * lg && r < 1.6 * lg && lg >= 8)
        snprintf(out, len, "n log\u2082 n");
    else if (r > 0.7 && r <= 1.4)
        snprintf(out, len, "n \u2212 1");
    else
        snprintf(out, len, "\u2248 %.*fn", r < 9.5 ? 1 : 0, r);
}

static void ops_panel(sv_gfx *g, const sv_plot_layout *L, const series *all, int count,
                      const sv_theme *th, float u)
{
    axes ax = { .a = L->area[1], .x0 = 9.5, .x1 = 28.5, .y0 = 0, .y1 = 1 };
    double lo = INFINITY, hi = -INFINITY;
    /* copy performs no operation of the scan: it is left out here. */
    for (int i = 0; i < count; i++)
        for (int k = 0; k < all[i].n && all[i].algo != 0; k++) {
            ax.x0 = fmin(ax.x0, all[i].x[k] - 0.5);
            ax.x1 = fmax(ax.x1, all[i].x[k] + 0.5);
            double v = all[i].ops[k];
            if (isfinite(v) && v > 0) {
                lo = fmin(lo, log2(v));
                hi = fmax(hi, log2(v));
            }
        }
    panel_title(g, L->panel[1], th, u, "Work", "operations performed (log scale)");
    if (!isfinite(lo)) {
        sv_gfx_text(g, SV_FONT_SANS, u, ax.a.x + ax.a.w * 0.5f, ax.a.y + ax.a.h * 0.5f,
                    SV_ALIGN_CENTER, th->text_dim, "no operation counts in this table");
        return;
    }
    ax.y0 = floor(lo) - 0.6;
    ax.y1 = ceil(hi) + 0.6;
    int max_ticks = (int)(ax.a.h / (2.2f * u));
    int step = 1;
    while ((ax.y1 - ax.y0) / step > max_ticks && step < 64)
        step = step < 2 ? 2 : step < 4 ? 4 : step < 5 ? 5 : step < 10 ? 10 : step * 2;
    float gw = fmaxf(1.0f, 0.07f * u);
    for (int k = (int)ceil(ax.y0); k <= (int)floor(ax.y1); k++) {
        if (k % step != 0)
            continue;
        float y = map_y(&ax, k);
        char buf[16];
        pow2_label(k, buf, sizeof buf);
        sv_gfx_line(g, ax.a.x, y, ax.a.x + ax.a.w, y, gw, th->grid);
        sv_gfx_text(g, SV_FONT_MONO, 0.9f * u, ax.a.x - 0.5f * u, y, SV_ALIGN_RIGHT,
                    th->text_dim, buf);
    }
    x_axis(g, &ax, th, u, "array size n (elements, log scale)");

    sv_gfx_clip(g, &ax.a);
    for (int i = count - 1; i >= 0; i--)
        if (all[i].algo != 0)
            draw_series(g, &ax, &all[i], true, th, u);
    sv_gfx_clip(g, NULL);

    /* Name the growth of each family once, beside its top line's end, with
     * the algorithms that grow so underneath. */
    struct work_label {
        char cls[32];
        float y;
        char who[64];
    } labels[SV_ALGO_COUNT];
    int nl = 0;
    for (int i = 0; i < count; i++) {
        const series *s = &all[i];
        if (s->algo == 0)
            continue;
        int k = s->n - 1;
        while (k >= 0 && !(isfinite(s->ops[k]) && s->ops[k] > 0))
            k--;
        if (k < 0)
            continue;
        char cls[32];
        work_class(exp2(s->x[k]), s->ops[k], cls, sizeof cls);
        /* "~ 2.0n" reads better as "~ 2n" */
        size_t cl = strlen(cls);
        if (cl > 3 && strcmp(cls + cl - 3, ".0n") == 0)
            memmove(cls + cl - 3, "n", 2);
        float y = map_y(&ax, log2(s->ops[k]));
        int j = 0;
        while (j < nl && strcmp(labels[j].cls, cls) != 0)
            j++;
        if (j == nl) {
            snprintf(labels[nl].cls, sizeof labels[nl].cls, "%s", cls);
            labels[nl].y = y;
            snprintf(labels[nl].who, sizeof labels[nl].who, "%s", style(s->algo)->name);
            nl++;
        } else {
            labels[j].y = fminf(labels[j].y, y);
            size_t len = strlen(labels[j].who);
            snprintf(labels[j].who + len, sizeof labels[j].who - len, ", %s",
                     style(s->algo)->name);
        }
    }
    /* Top to bottom, two lines apart at least. */
    for (int i = 1; i < nl; i++)
        for (int j = i; j > 0 && labels[j].y < labels[j - 1].y; j--) {
            struct work_label tmp = labels[j];
            labels[j] = labels[j - 1];
            labels[j - 1] = tmp;
        }
    for (int i = 1; i < nl; i++)
        if (labels[i].y < labels[i - 1].y + 2.3f * u)
            labels[i].y = labels[i - 1].y + 2.3f * u;
    for (int i = 0; i < nl; i++) {
        float lx = ax.a.x + ax.a.w + 0.6f * u;
        sv_gfx_text(g, SV_FONT_SANS_BOLD, 1.0f * u, lx, labels[i].y, SV_ALIGN_LEFT, th->text,
                    labels[i].cls);
        sv_gfx_text(g, SV_FONT_SANS, 0.8f * u, lx, labels[i].y + 1.05f * u, SV_ALIGN_LEFT,
                    th->text_dim, labels[i].who);
    }

    /* How much more work the parallel scans do than the sequential one, at
     * the largest n measured for the CPU and them. */
    const series *cpu = find_series(all, count, "cpu");
    static const char *const parallel[] = { "hs-naive", "hs", "blelloch" };
    double best = -1;
    for (size_t p = 0; cpu && p < sizeof parallel / sizeof *parallel; p++) {
        const series *s = find_series(all, count, parallel[p]);
        for (int i = 0; s && i < s->n; i++)
            for (int k = 0; k < cpu->n; k++)
                if (s->x[i] == cpu->x[k] && cpu->ops[k] > 0 && isfinite(s->ops[i]))
                    best = fmax(best, s->x[i]);
    }
    if (best >= 0) {
        /* Top left: the empty corner of a log-log plot of growth. One line
         * per parallel scan, in its colour. */
        char nlab[16], line[96];
        pow2_label((int)lround(best), nlab, sizeof nlab);
        float tx = ax.a.x + 0.8f * u, ty = ax.a.y + 1.0f * u;
        sv_gfx_text(g, SV_FONT_SANS, 0.9f * u, tx, ty, SV_ALIGN_LEFT, th->text_dim,
                    "operations \u00f7 the CPU's");
        snprintf(line, sizeof line, "at n = %s:", nlab);
        ty += 1.15f * u;
        sv_gfx_text(g, SV_FONT_SANS, 0.9f * u, tx, ty, SV_ALIGN_LEFT, th->text_dim, line);
        double cpu_ops = NAN;
        for (int k = 0; k < cpu->n; k++)
            if (cpu->x[k] == best)
                cpu_ops = cpu->ops[k];
        for (size_t p = 0; p < sizeof parallel / sizeof *parallel; p++) {
            const series *s = find_series(all, count, parallel[p]);
            for (int i = 0; s && i < s->n; i++)
                if (s->x[i] == best && isfinite(s->ops[i])) {
                    double f = s->ops[i] / cpu_ops;
                    snprintf(line, sizeof line, "%s  %.*f\u00d7", parallel[p], f < 9.5 ? 1 : 0, f);
                    ty += 1.25f * u;
                    sv_gfx_text(g, SV_FONT_SANS_BOLD, 0.9f * u, tx, ty, SV_ALIGN_LEFT,
                                algo_color(s->algo, th), line);
                }
        }
    }
}

static void legend(sv_gfx *g, sv_box box, const series *all, int count, const sv_theme *th,
                   float u)
{
    float x = box.x, y = box.y + 0.95f * u;
    for (int i = 0; i < count; i++) {
        const sv_algo_info *st = style(all[i].algo);
        float ew = legend_entry_w(g, all[i].algo, u) - 1.6f * u;
        if (x > box.x && x + ew > box.x + box.w) {
            x = box.x;
            y += 1.9f * u;
        }
        sv_rgba c = algo_color(all[i].algo, th);
        float xs[2] = { x, x + 2.6f * u }, ys[2] = { y, y };
        polyline(g, xs, ys, 2, (all[i].algo == 0 ? 0.36f : 0.24f) * u, c, st->dash);
        marker_halo(g, st->marker, x + 1.3f * u, y, 0.42f * u, c, th->bg);
        sv_gfx_text(g, SV_FONT_SANS, u, x + 3.2f * u, y, SV_ALIGN_LEFT, th->text, st->label);
        x += ew + 1.6f * u;
    }
}

static void empty_message(sv_gfx *g, sv_box r, const sv_theme *th, float u, bool loaded)
{
    float cx = r.x + r.w * 0.5f, cy = r.y + r.h * 0.42f;
    sv_gfx_rect(g, (sv_box){ r.x + r.w * 0.12f, cy - 3.4f * u, r.w * 0.76f, 7.6f * u }, 0.6f * u,
                th->panel, th->grid, fmaxf(1.0f, 0.08f * u), SV_BORDER_DASHED);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 1.8f * u, cx, cy - 1.3f * u, SV_ALIGN_CENTER, th->text,
                loaded ? "No measurements" : "No benchmark table loaded");
    sv_gfx_text(g, SV_FONT_SANS, u, cx, cy + 0.8f * u, SV_ALIGN_CENTER, th->text_dim,
                loaded ? "this table has no rows yet"
                       : "scanviz --bench-csv FILE opens one");
    sv_gfx_text(g, SV_FONT_SANS, u, cx, cy + 2.5f * u, SV_ALIGN_CENTER, th->text_dim,
                "measure on a GPU: scanviz-bench --csv FILE, or B here");
}

void sv_render_plot(sv_gfx *g, const sv_bench_table *table, const char *source, sv_box box,
                    const sv_theme *theme, float unit)
{
    sv_render_plot_focus(g, table, source, box, theme, unit, NULL);
}

/* Whether algorithm a is one of the NULL-ended names (true without any). */
static bool in_focus(int a, const char *const *focus)
{
    if (!focus)
        return true;
    for (int i = 0; focus[i]; i++)
        if (algo_index(focus[i]) == a)
            return true;
    return false;
}

void sv_render_plot_focus(sv_gfx *g, const sv_bench_table *table, const char *source,
                          sv_box box, const sv_theme *theme, float unit,
                          const char *const *focus)
{
    const sv_theme *th = theme;
    float u = fmaxf(unit * SV_PLOT_TEXT_UNITS, 1.0f);
    sv_plot_layout L;
    sv_plot_layout_compute(g, box, unit, &L);

    series all[SV_ALGO_COUNT]; /* about 12 KiB */
    const char *type = table ? shown_type(table) : "int32";
    int count = table ? gather(table, type, all) : 0;
    for (int i = 0; i < count; i++)
        all[i].faded = !in_focus(all[i].algo, focus);

    /* Header: which GPU, toolkit and date the numbers are from, then what
     * they are. */
    char desc[320], rest[160] = "";
    if (source && source[0])
        snprintf(desc, sizeof desc, "%s", source);
    else
        sv_bench_describe(table, NULL, desc, sizeof desc);
    if (!desc[0])
        snprintf(desc, sizeof desc, "%s", table ? "unknown GPU" : "no benchmark table");
    if (count > 0) {
        int rmin = 0, rmax = 0;
        for (size_t i = 0; i < table->nrows; i++) {
            int r = table->rows[i].reps;
            if (strcmp(table->rows[i].type, type) != 0)
                continue;
            rmin = rmin == 0 || r < rmin ? r : rmin;
            rmax = r > rmax ? r : rmax;
        }
        if (rmin == rmax)
            snprintf(rest, sizeof rest, "  \u00b7  %s  \u00b7  median of %d runs", type, rmin);
        else
            snprintf(rest, sizeof rest, "  \u00b7  %s  \u00b7  median of %d\u2013%d runs", type,
                     rmin, rmax);
    }
    float hy = L.header.y + 0.8f * u;
    char fit[320];
    float rest_w = sv_gfx_text_width(g, SV_FONT_SANS, 1.05f * u, rest);
    sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, 1.25f * u, L.header.w - rest_w, desc, fit,
                          sizeof fit);
    float w = sv_gfx_text(g, SV_FONT_SANS_BOLD, 1.25f * u, L.header.x, hy, SV_ALIGN_LEFT,
                          th->text, fit);
    sv_gfx_text(g, SV_FONT_SANS, 1.05f * u, L.header.x + w, hy, SV_ALIGN_LEFT, th->text_dim,
                rest);

    if (count == 0) {
        sv_box r = { L.panel[0].x, L.legend.y, L.panel[1].x + L.panel[1].w - L.panel[0].x,
                     L.panel[1].y + L.panel[1].h - L.legend.y };
        if (!L.side_by_side)
            r.w = L.panel[0].w;
        empty_message(g, r, th, u, table != NULL);
        return;
    }
    legend(g, L.legend, all, count, th, u);
    throughput_panel(g, &L, all, count, th, u);
    ops_panel(g, &L, all, count, th, u);
}

void sv_render_plot_progress(sv_gfx *g, sv_box box, const sv_theme *theme, float unit,
                             float progress, const char *label)
{
    float u = fmaxf(unit * SV_PLOT_TEXT_UNITS, 1.0f);
    float p = progress < 0 ? 0 : progress > 1 ? 1 : progress;
    sv_box bar = { box.x + 2 * u, box.y + box.h - 3.6f * u, box.w - 4 * u, 2.6f * u };
    sv_gfx_rect(g, bar, 0.5f * u, sv_rgba_alpha(theme->panel, 0.96f), theme->cell_border,
                fmaxf(1.0f, 0.08f * u), SV_BORDER_SOLID);
    sv_box fill = { bar.x + 0.3f * u, bar.y + 0.3f * u, (bar.w - 0.6f * u) * p, bar.h - 0.6f * u };
    if (fill.w > 0)
        sv_gfx_rect(g, fill, 0.35f * u, sv_rgba_alpha(theme->full, 0.55f), theme->full, 0,
                    SV_BORDER_NONE);
    char text[320];
    snprintf(text, sizeof text, "measuring: %3.0f%%   %s", (double)(p * 100), label ? label : "");
    sv_gfx_text(g, SV_FONT_SANS, 0.95f * u, bar.x + 0.9f * u, bar.y + bar.h * 0.5f,
                SV_ALIGN_LEFT, theme->text, text);
}
