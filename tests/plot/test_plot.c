/* The Measure view rendered headless (SDL offscreen, Mesa), checked by its
 * pixels: the copy ceiling is above every other line, a faster series is
 * drawn higher, Hillis-Steele's operations are above the CPU's, the legend
 * shows every algorithm, and an empty table says so.
 * usage: test_plot FIXTURE.csv [OUT_DIR]   (PNGs of each render land in OUT_DIR) */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "bench_live.h"
#include "gfx.h"
#include "platform.h"
#include "render.h"
#include "render_plot.h"
#include "theme.h"

#include <math.h>
#include <stdlib.h>

#include "../expect.h"
#include "../render_util.h"

static sv_gfx *g;
static const char *out_dir;
static uint8_t *px;
static int W, H;

/* Renders the view of table into a w x h target with theme and unit, and
 * reads it back into px; writes OUT_DIR/plot-NAME.png. */
static bool render(const sv_bench_table *table, const char *source, int w, int h,
                   sv_theme_id theme, float unit, const char *name, sv_plot_layout *layout)
{
    char err[256] = "";
    sv_gfx_target *t = sv_gfx_target_create(g, w, h, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return false;
    sv_gfx_target_bind(t);
    const sv_theme *th = sv_theme_get(theme);
    sv_box box = { 0, 0, (float)w, (float)h };
    sv_gfx_begin(g, w, h, th->bg);
    sv_render_plot(g, table, source, box, th, unit);
    sv_gfx_end(g);
    render_read_back(g, t, w, h, &px);
    W = w;
    H = h;
    sv_plot_layout_compute(g, box, unit, layout);
    if (out_dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/plot-%s.png", out_dir, name);
        if (!sv_png_write(path, px, w, h, err, sizeof err))
            fprintf(stderr, "note: %s\n", err);
    }
    return true;
}

static bool is_color(int x, int y, sv_rgba c, int tol)
{
    if (x < 0 || y < 0 || x >= W || y >= H)
        return false;
    const uint8_t *p = px + ((size_t)y * W + x) * 4;
    int r = (int)lroundf(c.r * 255), gg = (int)lroundf(c.g * 255), b = (int)lroundf(c.b * 255);
    return abs(p[0] - r) <= tol && abs(p[1] - gg) <= tol && abs(p[2] - b) <= tol;
}

/* The topmost pixel of colour c in column x within area, or -1. */
static int topmost(int x, sv_box area, sv_rgba c)
{
    for (int y = (int)ceilf(area.y); y < (int)(area.y + area.h); y++)
        if (is_color(x, y, c, 12))
            return y;
    return -1;
}

/* The topmost pixel of c over columns [x0, x1] (dashes leave gaps), or -1. */
static int topmost_near(int x0, int x1, sv_box area, sv_rgba c)
{
    int best = -1;
    for (int x = x0; x <= x1; x++) {
        int y = topmost(x, area, c);
        if (y >= 0 && (best < 0 || y < best))
            best = y;
    }
    return best;
}

/* Column of log2 n in a panel whose x axis runs 9.5 .. 28.5 (the fixture
 * spans 2^10 .. 2^28). */
static int column(sv_box area, double lg)
{
    return (int)lround(area.x + (lg - 9.5) / 19.0 * area.w);
}

static int count_color(sv_box b, sv_rgba c)
{
    int n = 0;
    for (int y = (int)b.y; y < (int)(b.y + b.h); y++)
        for (int x = (int)b.x; x < (int)(b.x + b.w); x++)
            n += is_color(x, y, c, 12);
    return n;
}

/* fixture: the x axis runs 9.5 .. 28.5 and copy rises from 1.5% of its
 * peak at 4K, so where the line must be is known too. */
static void check_ceiling(const sv_theme *th, const sv_plot_layout *L, const char *what,
                          bool fixture)
{
    sv_box a = L->area[0];
    sv_rgba copy = sv_plot_algo_color("copy", th);
    int columns = 0, violations = 0;
    for (int x = (int)a.x + 1; x < (int)(a.x + a.w) - 1; x++) {
        int yc = topmost(x, a, copy);
        if (yc < 0)
            continue;
        columns++;
        for (int i = 1; i < SV_PLOT_NALGOS; i++) {
            int yo = topmost(x, a, sv_plot_algo_color(sv_plot_algo_name(i), th));
            if (yo >= 0 && yo < yc) {
                if (violations++ < 5)
                    fprintf(stderr, "%s: column %d: %s at y %d above the copy ceiling at %d\n",
                            what, x, sv_plot_algo_name(i), yo, yc);
            }
        }
    }
    CHECK_MSG(violations == 0, "%s: %d columns with a line above the copy bound", what,
              violations);
    /* The copy line spans the data: from 2^10 to 2^28 is 18/19 of the width
     * (the wide table's 2^0 to 2^30, 30/31). */
    CHECK_MSG(columns > (int)(a.w * 0.85f), "%s: copy drawn in only %d of %d columns", what,
              columns, (int)a.w);
    if (!fixture)
        return;
    /* And what was found is the line, not the label: well below at small
     * n (the fixture's copy at 4K is 1.5% of its peak), near the top at the
     * largest n. */
    int xl = column(a, 12);
    int yl = topmost_near(xl - 3, xl + 3, a, copy);
    int xr = column(a, 27);
    int yr = topmost_near(xr - 3, xr + 3, a, copy);
    CHECK_MSG(yl > yr + a.h * 0.3f, "%s: copy at 4K (y %d) is not well below copy at 128M (y %d)",
              what, yl, yr);
    CHECK_MSG(yr >= 0 && yr < a.y + a.h * 0.35f, "%s: copy at 128M is at y %d, want near the top",
              what, yr);
}

/* At large n the fixture orders copy > hs > cub > hs-lookback > blelloch >
 * hs-naive > cpu. */
static void check_order(const sv_theme *th, const sv_plot_layout *L, const char *what)
{
    static const char *const order[] = { "hs", "cub", "hs-lookback", "blelloch", "hs-naive",
                                         "cpu" };
    sv_box a = L->area[0];
    const double at[] = { 22.5, 24.5, 26.5, 27.5 };
    for (size_t k = 0; k < sizeof at / sizeof *at; k++) {
        int x = column(a, at[k]);
        int prev = -1;
        for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
            int y = topmost_near(x - 6, x + 6, a, sv_plot_algo_color(order[i], th));
            CHECK_MSG(y >= 0, "%s: %s not found near 2^%.1f", what, order[i], at[k]);
            if (i > 0)
                CHECK_MSG(y > prev, "%s: at 2^%.1f %s (y %d) is not below %s (y %d)", what,
                          at[k], order[i], y, order[i - 1], prev);
            prev = y;
        }
    }
}

/* Operations: n log n (hs) above ~2n (cub) above n - 1 (cpu) at large n. */
static void check_ops(const sv_theme *th, const sv_plot_layout *L, const char *what)
{
    sv_box a = L->area[1];
    for (double lg = 24.5; lg <= 27.5; lg += 1.5) {
        int x = column(a, lg);
        int hs = topmost_near(x - 6, x + 6, a, sv_plot_algo_color("hs", th));
        int cub = topmost_near(x - 6, x + 6, a, sv_plot_algo_color("cub", th));
        int cpu = topmost_near(x - 6, x + 6, a, sv_plot_algo_color("cpu", th));
        CHECK_MSG(hs >= 0 && cpu >= 0 && cub >= 0, "%s: ops lines missing near 2^%.1f", what,
                  lg);
        CHECK_MSG(hs < cub && cub < cpu,
                  "%s: ops at 2^%.1f: hs y %d, cub y %d, cpu y %d (want hs highest, cpu lowest)",
                  what, lg, hs, cub, cpu);
        /* log-log: n log n over n - 1 is a factor of ~26 at 2^27, about 4.7 of
         * the 2^k grid lines apart; it must be visibly apart, not touching. */
        CHECK_MSG(cpu - hs > a.h * 0.08f, "%s: hs and cpu ops only %d px apart", what, cpu - hs);
    }
}

static void check_legend(const sv_theme *th, const sv_plot_layout *L, const char *what)
{
    for (int i = 0; i < SV_PLOT_NALGOS; i++) {
        int n = count_color(L->legend, sv_plot_algo_color(sv_plot_algo_name(i), th));
        CHECK_MSG(n > 30, "%s: legend shows %d px of %s", what, n, sv_plot_algo_name(i));
    }
}

static void test_fixture(const sv_bench_table *t)
{
    static const struct { sv_theme_id id; const char *name; } themes[] = {
        { SV_THEME_DARK, "dark" }, { SV_THEME_LIGHT, "light" }, { SV_THEME_CONTRAST, "contrast" },
    };
    for (size_t i = 0; i < sizeof themes / sizeof *themes; i++) {
        sv_plot_layout L;
        const sv_theme *th = sv_theme_get(themes[i].id);
        if (!render(t, NULL, 1600, 900, themes[i].id, 9, themes[i].name, &L))
            return;
        CHECK(L.side_by_side);
        check_ceiling(th, &L, themes[i].name, true);
        check_order(th, &L, themes[i].name);
        check_ops(th, &L, themes[i].name);
        check_legend(th, &L, themes[i].name);
    }
    /* Portrait: panels stacked; the same truths hold. */
    sv_plot_layout L;
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    if (render(t, "NVIDIA H200 · CUDA 13.0 · 2026-11-29 (test source)", 1000, 1300,
               SV_THEME_DARK, 7.5f, "portrait", &L)) {
        CHECK(!L.side_by_side);
        check_ceiling(th, &L, "portrait", true);
        check_order(th, &L, "portrait");
        check_ops(th, &L, "portrait");
    }
    /* Small and large units: everything scales, nothing checked breaks. */
    if (render(t, NULL, 1280, 720, SV_THEME_DARK, 6, "small", &L))
        check_ceiling(th, &L, "small", true);
    if (render(t, NULL, 3840, 2160, SV_THEME_DARK, 21.6f, "4k", &L)) {
        check_ceiling(th, &L, "4k", true);
        check_ops(th, &L, "4k");
    }
}

/* Non-background pixels in box, with some of them in the text colour. */
static void check_message(const sv_theme *th, sv_box box, const char *what)
{
    int other = 0;
    for (int y = (int)box.y; y < (int)(box.y + box.h); y++)
        for (int x = (int)box.x; x < (int)(box.x + box.w); x++)
            other += !is_color(x, y, th->bg, 2);
    int text = count_color(box, th->text);
    CHECK_MSG(other > 2000 && text > 300, "%s: message area has %d non-background px, %d in "
              "the text colour", what, other, text);
}

static void test_empty(void)
{
    char err[256] = "";
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    sv_bench_table *empty = sv_bench_table_parse(
        "# gpu: NVIDIA H200\n"
        "algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\n", err, sizeof err);
    CHECK_MSG(empty != NULL, "%s", err);
    sv_plot_layout L;
    for (int k = 0; k < 2; k++) {
        const char *name = k ? "null" : "empty";
        if (!render(k ? NULL : empty, NULL, 1600, 900, SV_THEME_DARK, 9, name, &L))
            continue;
        /* The message sits across the panels' middle. */
        sv_box mid = { L.panel[0].x + L.panel[0].w * 0.5f, L.panel[0].y + L.panel[0].h * 0.2f,
                       L.panel[1].x - L.panel[0].x, L.panel[0].h * 0.45f };
        check_message(th, mid, name);
        /* No series was drawn: none of the algorithm colours but copy's
         * (the theme's text) anywhere. */
        for (int i = 1; i < SV_PLOT_NALGOS; i++) {
            sv_box all = { 0, 0, (float)W, (float)H };
            CHECK_MSG(count_color(all, sv_plot_algo_color(sv_plot_algo_name(i), th)) == 0,
                      "%s: %s's colour drawn with no data", name, sv_plot_algo_name(i));
        }
    }
    sv_bench_table_destroy(empty);
}

/* Tables the fixture does not cover: one point, no operation counts, sizes
 * outside 2^10..2^28, float32 only. They render, and show what they have. */
static void test_odd_tables(void)
{
    char err[512] = "";
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    sv_plot_layout L;
    sv_bench_table *one = sv_bench_table_parse(
        "algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\n"
        "hs,float32,1048576,10,800,,,,5\n", err, sizeof err);
    CHECK_MSG(one != NULL, "%s", err);
    if (one && render(one, NULL, 1280, 720, SV_THEME_DARK, 7.2f, "one-point", &L)) {
        CHECK_MSG(count_color(L.area[0], sv_plot_algo_color("hs", th)) > 50,
                  "one point: no hs marker in the throughput panel");
        /* No ops: the work panel says so in the dim text colour. */
        CHECK_MSG(count_color(L.area[1], th->text_dim) > 100,
                  "one point: no message in the work panel");
        CHECK(count_color(L.area[1], sv_plot_algo_color("hs", th)) == 0);
    }
    sv_bench_table_destroy(one);

    sv_bench_table *wide = sv_bench_table_parse(
        "algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\n"
        "copy,int32,1,1,0.008,1,,,3\n"
        "copy,int32,1073741824,2000,4294.97,1,,,3\n"
        "cpu,int32,1,2,0.004,,,0,3\n"
        "cpu,int32,1073741824,500000,17.18,0.004,,1073741823,3\n", err, sizeof err);
    CHECK_MSG(wide != NULL, "%s", err);
    if (wide && render(wide, NULL, 1280, 720, SV_THEME_LIGHT, 7.2f, "wide", &L)) {
        check_ceiling(sv_theme_get(SV_THEME_LIGHT), &L, "wide", false);
    }
    sv_bench_table_destroy(wide);

    /* Issue 7, defect 9: ops 0.5 and n, ops 1e40 put the axes' ticks at
     * 2^-1 and 2^133: labelled "2^k", with no shift by a negative or too
     * large count (UBSan in the sanitizer build halts on one). */
    sv_bench_table *extreme = sv_bench_table_parse(
        "algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\n"
        "cpu,int32,1,2,0.004,,,0.5,3\n"
        "cpu,int32,1e40,5,17.18,,,1e40,3\n", err, sizeof err);
    CHECK_MSG(extreme != NULL, "%s", err);
    if (extreme && render(extreme, NULL, 1280, 720, SV_THEME_DARK, 7.2f, "extreme", &L))
        CHECK_MSG(count_color(L.area[0], sv_plot_algo_color("cpu", th)) > 0,
                  "extreme: no cpu marker");
    sv_bench_table_destroy(extreme);
}

/* The table shipped in the binary (measured on the H200): when it has rows,
 * copy is the ceiling over every GPU scan from 1M up (below that the CPU
 * may win: launch latency), in the first columns past the 1M marker too. */
static void test_shipped_render(void)
{
    char err[256] = "";
    sv_bench_table *t = sv_bench_shipped(err, sizeof err);
    if (!t || t->nrows == 0) {
        sv_bench_table_destroy(t);
        return;
    }
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    sv_plot_layout L;
    if (render(t, NULL, 1600, 900, SV_THEME_DARK, 9, "shipped", &L)) {
        sv_box a = L.area[0];
        sv_rgba copy = sv_plot_algo_color("copy", th);
        static const char *const gpu[] = { "cub", "hs", "hs-lookback", "hs-naive", "blelloch" };
        int bad = 0, seen = 0;
        for (int x = column(a, 20); x < column(a, 28); x++) {
            int yc = topmost(x, a, copy);
            if (yc < 0)
                continue;
            seen++;
            for (size_t i = 0; i < sizeof gpu / sizeof *gpu; i++) {
                int yo = topmost(x, a, sv_plot_algo_color(gpu[i], th));
                if (yo >= 0 && yo < yc && bad++ < 3)
                    fprintf(stderr, "shipped: column %d: %s at y %d above copy at %d\n", x,
                            gpu[i], yo, yc);
            }
        }
        CHECK_MSG(bad == 0, "shipped: %d column(s) with a GPU scan above the copy bound", bad);
        CHECK_MSG(seen > (column(a, 28) - column(a, 20)) * 8 / 10,
                  "shipped: copy found in only %d columns from 1M to 256M", seen);
    }
    sv_bench_table_destroy(t);
}

static void test_progress(void)
{
    char err[256] = "";
    int w = 800, h = 300;
    sv_gfx_target *t = sv_gfx_target_create(g, w, h, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return;
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    sv_gfx_target_bind(t);
    sv_gfx_begin(g, w, h, th->bg);
    /* A text size of 20 px: the bar is 2.6 of those tall, 1 above the bottom. */
    sv_render_plot_progress(g, (sv_box){ 0, 0, (float)w, (float)h }, th,
                            20 / SV_PLOT_TEXT_UNITS, 0.5f, "hs 2^20 int32");
    sv_gfx_end(g);
    render_read_back(g, t, w, h, &px);
    W = w;
    H = h;
    if (out_dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/plot-progress.png", out_dir);
        sv_png_write(path, px, w, h, err, sizeof err);
    }
    /* The bar's lower part (below the label) is filled up to the middle. */
    int y = h - (int)(3.6f * 20) + (int)(2.6f * 20) - 10;
    const uint8_t *left = px + ((size_t)y * w + w / 4) * 4;
    const uint8_t *right = px + ((size_t)y * w + w * 3 / 4) * 4;
    int diff = abs(left[0] - right[0]) + abs(left[1] - right[1]) + abs(left[2] - right[2]);
    CHECK_MSG(diff > 60, "progress: filled half and empty half look alike (%d,%d,%d vs %d,%d,%d)",
              left[0], left[1], left[2], right[0], right[1], right[2]);
}

static void test_shipped_and_describe(void)
{
    char err[256] = "";
    sv_bench_table *t = sv_bench_shipped(err, sizeof err);
    CHECK_MSG(t != NULL, "the shipped table does not parse: %s", err);
    char d[256];
    if (t) {
        sv_bench_describe(t, "shipped", d, sizeof d);
        CHECK_CONTAINS(d, "(shipped)");
        CHECK_CONTAINS(d, "H200");
    }
    sv_bench_table_destroy(t);
    sv_bench_table m = { .nrows = 0 };
    snprintf(m.gpu, sizeof m.gpu, "NVIDIA H200");
    snprintf(m.cuda, sizeof m.cuda, "13.0");
    snprintf(m.date, sizeof m.date, "2026-11-29");
    sv_bench_describe(&m, "live", d, sizeof d);
    CHECK_STR(d, "NVIDIA H200 · CUDA 13.0 · 2026-11-29 (live)");
    m.gpu[0] = '\0';
    sv_bench_describe(&m, NULL, d, sizeof d);
    CHECK_STR(d, "unknown GPU · CUDA 13.0 · 2026-11-29");
    char tiny[8];
    sv_bench_describe(&m, "x", tiny, sizeof tiny);
    CHECK_INT(strlen(tiny), 7);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIXTURE.csv [OUT_DIR]\n", argv[0]);
        return 2;
    }
    out_dir = argc > 2 ? argv[2] : NULL;
    test_shipped_and_describe();

    char err[512] = "";
    sv_bench_table *t = sv_bench_table_load(argv[1], err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    sv_platform p = { 0 };
    if (!sv_platform_open(&p, "test_plot", 320, 240, true, false, err, sizeof err)) {
        fprintf(stderr, "%s:%d: FAIL: no headless GL: %s\n", __FILE__, __LINE__, err);
        sv_bench_table_destroy(t);
        return 1;
    }
    g = sv_gfx_create(err, sizeof err);
    CHECK_MSG(g != NULL, "%s", err);
    if (g && t) {
        test_fixture(t);
        test_empty();
        test_odd_tables();
        test_shipped_render();
        test_progress();
    }
    free(px);
    sv_gfx_destroy(g);
    render_pin_libraries();
    sv_platform_close(&p);
    sv_bench_table_destroy(t);
    return check_status();
}
