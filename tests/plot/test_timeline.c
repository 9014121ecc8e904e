/* The look-back timeline (scanviz-bench --timeline, issue 32): the file's
 * reader and writer (round trip, and every kind of bad field refused by
 * name), then the Measure view's drawing of it, rendered headless and read
 * back twice: the recorded scene (each shown tile's two bars at its times,
 * its aggregate's tick, one arrow per look-back to the tile it stopped at)
 * and the pixels (a bar's colour in its row).
 * Then the timeline the project ships (assets/bench/h200-timeline.json, a
 * real H200 run): what it says it recorded, its round trip and its drawing.
 * usage: test_timeline FIXTURE.json [OUT_DIR [SHIPPED.json]]   (PNGs land in OUT_DIR) */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "gfx.h"
#include "platform.h"
#include "render_timeline.h"
#include "theme.h"
#include "../../src/core/fileio.h"
#include "../../src/core/timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"
#include "../render_util.h"

static const char *out_dir;

/* ---- The file ------------------------------------------------------------ */

static char *text_of(const sv_timeline *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    char why[256] = "";
    bool ok = f && sv_timeline_write(t, f, why, sizeof why);
    if (f)
        fclose(f);
    CHECK_MSG(ok, "write: %s", why);
    return buf;
}

/* text with the first `from` replaced by `to` (the caller frees it). */
static char *replaced(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    CHECK_MSG(at != NULL, "the fixture's text has no %s", from);
    if (!at)
        return strdup(text);
    size_t a = (size_t)(at - text), fl = strlen(from), tl = strlen(to), n = strlen(text);
    char *out = malloc(n - fl + tl + 1);
    memcpy(out, text, a);
    memcpy(out + a, to, tl);
    memcpy(out + a + tl, at + fl, n - a - fl + 1);
    return out;
}

static void test_file(const sv_timeline *t)
{
    CHECK_STR(t->algo, "hs");
    CHECK_INT(t->ntiles, 96);
    CHECK_INT(t->blocks, 12);
    CHECK(t->n == (uint64_t)96 * 16384 - 1000);
    CHECK_INT(t->tiles[0].lo, 0);
    CHECK(sv_timeline_span(t) > 0);

    /* Written and read back: the same timeline, field for field. */
    char *text = text_of(t);
    char err[512] = "";
    sv_timeline *back = text ? sv_timeline_parse(text, err, sizeof err) : NULL;
    CHECK_MSG(back != NULL, "%s", err);
    if (back) {
        CHECK_INT(back->ntiles, t->ntiles);
        CHECK(memcmp(back->tiles, t->tiles, t->ntiles * sizeof *t->tiles) == 0);
        CHECK_STR(back->gpu, t->gpu);
        CHECK_STR(back->variant, t->variant);
        CHECK(fabs(back->plain_us - t->plain_us) < 1e-3);
        char *again = text_of(back);
        CHECK(again && strcmp(again, text) == 0); /* the writer is deterministic */
        free(again);
    }
    sv_timeline_destroy(back);

    /* Each bad field is refused, and the message names it. */
    const struct {
        const char *from, *to, *named;
    } bad[] = {
        { "\"scanviz-timeline\"", "\"scanviz-trace\"", "format" },
        { "\"version\": 1", "\"version\": 2", "version" },
        { "\"algo\": \"hs\"", "\"algo\": \"cub\"", "algo" },
        { "\"type\": \"int32\"", "\"type\": \"int64\"", "type" },
        { "\"tile\": 16384", "\"tile\": 8192", "tiles" },      /* count no longer matches */
        { "\"blocks\": 12", "\"blocks\": 0", "blocks" },
        { "\"blocks\": 12", "\"blocks\": 3", "tiles.block" }, /* a block past them */
        { "\"count\": 96", "\"count\": 95", "tiles." },       /* arrays of 96 */
        { "\"reps\": 60", "\"reps\": 0", "overhead.reps" },
        { "\"plain_us\": 46.5", "\"plain_us\": -1", "overhead.plain_us" },
        { "\"lookback_from\": [0", "\"lookback_from\": [3", "tiles[0]" },
        { "\"windows\": [0", "\"windows\": [1", "tiles[0]" },
        { "\"early\": [0", "\"early\": [1", "tiles[0]" },
        { "\"start\": [", "\"start\": [-5, ", "tiles.start" }, /* and one too many */
        { "\"clock\": \"globaltimer\"", "\"clock\": \"clock64\"", "clock" },
        { "\"gpu\": ", "\"gpu\": 7, \"x\": ", "gpu" },
    };
    for (size_t i = 0; text && i < sizeof bad / sizeof bad[0]; i++) {
        char *b = replaced(text, bad[i].from, bad[i].to);
        err[0] = '\0';
        sv_timeline *x = sv_timeline_parse(b, err, sizeof err);
        CHECK_MSG(x == NULL, "accepted with %s -> %s", bad[i].from, bad[i].to);
        CHECK_MSG(strstr(err, bad[i].named) != NULL, "%s -> %s: \"%s\" does not name %s",
                  bad[i].from, bad[i].to, err, bad[i].named);
        sv_timeline_destroy(x);
        free(b);
    }
    /* A tile stored before its inclusive prefix was published. */
    sv_timeline *w = sv_timeline_parse(text, err, sizeof err);
    if (w) {
        w->tiles[5].end = w->tiles[5].inclusive - 1;
        CHECK(!sv_timeline_check(w, err, sizeof err));
        CHECK_CONTAINS(err, "tiles.end[5]");
        w->tiles[5].end = w->tiles[5].inclusive + 1;
        w->tiles[9].lo = 9; /* a look-back that stopped at itself */
        CHECK(!sv_timeline_check(w, err, sizeof err));
        CHECK_CONTAINS(err, "tiles.lookback_from[9]");
    }
    sv_timeline_destroy(w);
    /* Not JSON, and a file past the limit. */
    CHECK(sv_timeline_parse("{\"format\": ", err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "not JSON");
    CHECK(sv_timeline_load("/dev/zero", err, sizeof err) == NULL);
    CHECK_CONTAINS(err, "/dev/zero");
    free(text);
}

/* ---- The drawing ---------------------------------------------------------- */

static bool near(float a, float b) { return fabsf(a - b) <= 0.51f; }
/* The same colour, whatever its alpha (a hairline is drawn fainter). */
static bool same_rgb(sv_rgba a, sv_rgba b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

/* Draws t's tiles first .. first + rows - 1 in w x h, records the scene,
 * and checks it against the layout: each tile's bars and tick, and the
 * arrows. Returns the pixels (the caller frees them). */
static uint8_t *draw_and_check(sv_gfx *g, const sv_timeline *t, int w, int h, int first,
                               int rows, const char *name, sv_tl_layout *L)
{
    char err[256] = "";
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    const float unit = (float)h / 100.0f;
    sv_box box = { 0, 0, (float)w, (float)h };
    sv_gfx_target *target = sv_gfx_target_create(g, w, h, err, sizeof err);
    CHECK_MSG(target != NULL, "%s", err);
    if (!target)
        return NULL;
    sv_gfx_rec *rec = sv_gfx_rec_create();
    sv_gfx_target_bind(target);
    sv_gfx_record(g, rec);
    sv_gfx_begin(g, w, h, th->bg);
    sv_render_timeline(g, t, box, th, unit, first, rows);
    sv_gfx_end(g);
    sv_gfx_record(g, NULL);
    uint8_t *px = NULL;
    render_read_back(g, target, w, h, &px);
    sv_tl_layout_compute(t, box, unit, first, rows, L);
    if (out_dir && px) {
        char path[512];
        snprintf(path, sizeof path, "%s/timeline-%s.png", out_dir, name);
        if (!sv_png_write(path, px, w, h, err, sizeof err))
            fprintf(stderr, "note: %s\n", err);
    }

    /* Every shown tile: a waiting bar from its start to its inclusive
     * prefix, a storing bar from there to its end, its aggregate's tick. */
    for (int i = L->first; i < L->first + L->rows; i++) {
        const sv_timeline_tile *x = &t->tiles[i];
        const float y = sv_tl_y(L, (uint32_t)i);
        bool wait = false, store = false, tick = false;
        for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
            const sv_prim *q = sv_gfx_rec_prim(rec, k);
            if (q->kind == SV_PRIM_RECT && near(q->box.y + q->box.h / 2, y)) {
                if (near(q->box.x, sv_tl_x(L, x->start)) &&
                    near(q->box.x + q->box.w, fmaxf(sv_tl_x(L, x->inclusive),
                                                    sv_tl_x(L, x->start) + 0.5f)) &&
                    same_rgb(q->fill, th->partial))
                    wait = true;
                if (near(q->box.x, sv_tl_x(L, x->inclusive)) &&
                    near(q->box.x + q->box.w, fmaxf(sv_tl_x(L, x->end),
                                                    sv_tl_x(L, x->inclusive) + 0.5f)) &&
                    same_rgb(q->fill, th->full))
                    store = true;
            }
            if (q->kind == SV_PRIM_LINE && near(q->x0, sv_tl_x(L, x->aggregate)) &&
                near(q->x1, q->x0) && q->y0 < y && q->y1 > y &&
                same_rgb(q->fill, th->window))
                tick = true;
        }
        CHECK_MSG(wait && store && tick, "%s: tile %d: waiting bar %d, storing bar %d, tick %d",
                  name, i, wait, store, tick);
    }
    /* The arrows inside the area: one per shown tile past 0 when the rows
     * are tall enough, each from its inclusive prefix to the one it stopped
     * at; none otherwise. */
    int arrows = 0, want = 0;
    for (int i = L->first; i < L->first + L->rows; i++)
        want += i > 0;
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *q = sv_gfx_rec_prim(rec, k);
        if (q->kind != SV_PRIM_ARROW || q->y0 < L->area.y || q->y0 > L->area.y + L->area.h)
            continue;
        arrows++;
        bool matched = false;
        for (int i = L->first; i < L->first + L->rows && !matched; i++) {
            const sv_timeline_tile *x = &t->tiles[i];
            const float y1 = (int)x->lo >= L->first ? sv_tl_y(L, x->lo) : L->area.y;
            matched = i > 0 && near(q->x0, sv_tl_x(L, x->inclusive)) &&
                      near(q->y0, sv_tl_y(L, (uint32_t)i)) &&
                      near(q->x1, sv_tl_x(L, t->tiles[x->lo].inclusive)) && near(q->y1, y1);
        }
        CHECK_MSG(matched, "%s: an arrow (%.1f, %.1f) -> (%.1f, %.1f) is no tile's look-back",
                  name, (double)q->x0, (double)q->y0, (double)q->x1, (double)q->y1);
    }
    CHECK_MSG(arrows == (L->arrows ? want : 0), "%s: %d arrows, want %d", name, arrows,
              L->arrows ? want : 0);
    sv_gfx_rec_destroy(rec);
    return px;
}

static bool pixel_is(const uint8_t *px, int w, int x, int y, sv_rgba c)
{
    const uint8_t *p = px + ((size_t)y * w + x) * 4;
    return abs(p[0] - (int)lroundf(c.r * 255)) <= 10 && abs(p[1] - (int)lroundf(c.g * 255)) <= 10 &&
           abs(p[2] - (int)lroundf(c.b * 255)) <= 10;
}

static void test_drawing(sv_gfx *g, const sv_timeline *t)
{
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    sv_tl_layout L;
    /* A page of 16 tiles from tile 8: arrows, some to tiles above the page. */
    uint8_t *px = draw_and_check(g, t, 1280, 720, 8, 16, "page", &L);
    CHECK_INT(L.first, 8);
    CHECK_INT(L.rows, 16);
    CHECK(L.arrows);
    if (px) {
        /* Tile 10's waiting bar and storing bar, by their pixels. */
        const sv_timeline_tile *x = &t->tiles[10];
        const int y = (int)lroundf(sv_tl_y(&L, 10));
        const int xw = (int)lroundf((sv_tl_x(&L, x->start) + sv_tl_x(&L, x->inclusive)) / 2);
        const int xs = (int)lroundf((sv_tl_x(&L, x->inclusive) + sv_tl_x(&L, x->end)) / 2);
        CHECK_MSG(pixel_is(px, 1280, xw, y, th->partial), "tile 10's waiting bar at %d,%d", xw, y);
        CHECK_MSG(pixel_is(px, 1280, xs, y, th->full), "tile 10's storing bar at %d,%d", xs, y);
        /* Below the last shown row: no bar. */
        const int yb = (int)lroundf(sv_tl_y(&L, 23) + L.row_h);
        CHECK(!pixel_is(px, 1280, xw, yb, th->partial));
    }
    free(px);
    /* Past the end: clamped to the last 16 tiles. */
    px = draw_and_check(g, t, 1280, 720, 90, 16, "end", &L);
    CHECK_INT(L.first, 80);
    free(px);
    /* All 96: rows too thin for the arrows. */
    px = draw_and_check(g, t, 640, 360, 0, 0, "all-small", &L);
    CHECK_INT(L.rows, 96);
    CHECK(!L.arrows);
    free(px);
}

/* The shipped H200 timeline: the run docs/gpu-runs.md names (2^24 int32,
 * 1024 tiles of 16384 on 132 blocks), every tile's look-back stopping
 * before it, most tiles' aggregates out early (the eager sums), and the
 * writer giving back the same text it read. */
static void test_shipped(const sv_timeline *t, const char *path)
{
    CHECK_CONTAINS(t->gpu, "H200");
    CHECK_STR(t->algo, "hs");
    CHECK(t->n == (uint64_t)1 << 24);
    CHECK(t->type == SV_TYPE_INT32);
    CHECK_INT(t->tile, 16384);
    CHECK_INT(t->ntiles, 1024);
    CHECK_INT(t->blocks, 132);
    CHECK(t->recorded_us > t->plain_us * 0.9 && t->recorded_us < t->plain_us * 1.1);
    uint32_t early = 0, blocks_seen = 0;
    bool seen[132] = { false };
    for (uint32_t i = 0; i < t->ntiles; i++) {
        const sv_timeline_tile *x = &t->tiles[i];
        CHECK_MSG(i == 0 || x->lo < i, "tile %u stopped at %u", i, x->lo);
        early += x->early;
        if (x->block < 132 && !seen[x->block]) {
            seen[x->block] = true;
            blocks_seen++;
        }
    }
    CHECK_MSG(early > t->ntiles / 2, "%u of %u aggregates early", early, t->ntiles);
    CHECK_INT(blocks_seen, 132);
    /* The span: tens of microseconds, not a synthetic round number. */
    const uint64_t span = sv_timeline_span(t);
    CHECK_MSG(span > 10000 && span < 200000, "span %llu ns", (unsigned long long)span);

    char err[512] = "";
    size_t len = 0;
    char *file =
        sv_read_bounded(path, SV_LIMIT_TIMELINE, "the shipped timeline", &len, err, sizeof err);
    CHECK_MSG(file != NULL, "%s", err);
    char *text = text_of(t);
    CHECK_MSG(file && text && strcmp(file, text) == 0, "%s: not what the writer writes", path);
    free(text);
    free(file);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIXTURE.json [OUT_DIR [SHIPPED.json]]\n", argv[0]);
        return 2;
    }
    out_dir = argc > 2 ? argv[2] : NULL;
    char err[512] = "";
    sv_timeline *t = sv_timeline_load(argv[1], err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return check_status();
    test_file(t);
    sv_timeline *shipped = NULL;
    if (argc > 3) {
        shipped = sv_timeline_load(argv[3], err, sizeof err);
        CHECK_MSG(shipped != NULL, "%s: %s", argv[3], err);
        if (shipped)
            test_shipped(shipped, argv[3]);
    }

    sv_platform p = { 0 };
    if (!sv_platform_open(&p, "test_timeline", 320, 240, true, false, err, sizeof err)) {
        fprintf(stderr, "%s:%d: FAIL: no headless GL: %s\n", __FILE__, __LINE__, err);
        sv_timeline_destroy(t);
        return 1;
    }
    sv_gfx *g = sv_gfx_create(err, sizeof err);
    CHECK_MSG(g != NULL, "%s", err);
    if (g)
        test_drawing(g, t);
    if (g && shipped) {
        sv_tl_layout L;
        free(draw_and_check(g, shipped, 1280, 720, 0, SV_TL_ROWS_DEFAULT, "h200", &L));
        CHECK_INT(L.first, 0);
        CHECK_INT(L.rows, SV_TL_ROWS_DEFAULT);
        CHECK(L.arrows);
        free(draw_and_check(g, shipped, 1280, 720, 500, SV_TL_ROWS_DEFAULT, "h200-middle", &L));
        CHECK_INT(L.first, 500);
    }
    sv_gfx_destroy(g);
    render_pin_libraries();
    sv_platform_close(&p);
    sv_timeline_destroy(shipped);
    sv_timeline_destroy(t);
    return check_status();
}
