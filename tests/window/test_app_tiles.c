/* A launch's tiles over time (issue 31) in the app's logic and in frames
 * drawn headless: a single pass with a decoupled look-back
 * (tests/kernels/blocks_lookback.cu, 4 tiles of 64) under random:3; L at
 * its launch opens the Measure view on what its blocks did (each tile's
 * start, aggregate, inclusive prefix and end, its waits and its reads of
 * other tiles), Right / Left step by time, the frame draws one bar per tile
 * and one arrow per read; L on a file run as one block says why not.
 *
 * usage: test_app_tiles OUT_DIR TEST_KERNELS_DIR */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_test.h"
#include "../../src/core/ktrace_tiles.h"
#include "../../src/core/timeline.h"
#include "kpane.h"
#include "state.h"
#include "app_internal.h"
#include "../../src/core/trace_file.h"

#include "../render/view_test.h"

static const char *kernels;
static sv_value in256[256];

static size_t count_prims(const sv_gfx_rec *rec, sv_prim_kind kind)
{
    size_t k = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++)
        k += sv_gfx_rec_prim(rec, i)->kind == kind;
    return k;
}

static bool drew_text(const sv_gfx_rec *rec, const char *part)
{
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_TEXT && p->text && strstr(p->text, part))
            return true;
    }
    return false;
}

static void draw_app(const sv_app_state *s, sv_gfx_rec *rec, const char *name)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    view_draw(&v, s->fb_w, s->fb_h, rec, "tiles-", name);
}

/* An app on tests/kernels' file under random:1, on in[0 .. n - 1] = i % mod +
 * add; whether it started. */
static bool kfile_app(sv_app_state *s, const char *file, sv_value *in, size_t n, uint32_t mod,
                      uint32_t add)
{
    static char path[1024];
    char err[128];
    snprintf(path, sizeof path, "%s/%s", kernels, file);
    for (size_t i = 0; i < n; i++)
        in[i].bits = (uint32_t)(i % mod + add);
    sv_app_config c = config(in, n, SV_TYPE_INT32);
    c.animations = false;
    c.kernel_file = path;
    CHECK(sv_schedule_parse("random:1", &c.schedule, err, sizeof err));
    c.schedule_given = true;
    return start_app(s, &c);
}

static void test_lookback_timeline(void)
{
    sv_app_state s;
    if (!kfile_app(&s, "blocks_lookback.cu", in256, 256, 7, 1))
        return;
    const sv_ktrace *t = s.ktrace;
    CHECK(t && t->nlaunches == 1 && t->ntiles == 4);
    if (!t || t->ntiles != 4)
        return;
    key(&s, SDLK_HOME, 0);
    /* the scan view's brackets: under the cells each block wrote (a ticket
     * decides which), "block b" in each */
    sv_gfx_rec *rec = sv_gfx_rec_create();
    draw_app(&s, rec, "launch");
    sv_layout l;
    layout(&s, &l);
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    uint32_t col = 0;
    const int out = sv_kpane_row_of(&rows, 0, 0, &col);
    int placed = 0;
    for (uint32_t b = 0; b < 4 && out >= 0; b++) {
        char label[16];
        snprintf(label, sizeof label, "block %u", b);
        const sv_box lo = sv_layout_cell(&l, out, (int)t->tiles[b].out_lo),
                     hi = sv_layout_cell(&l, out, (int)t->tiles[b].out_hi);
        for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, i);
            placed += p->kind == SV_PRIM_TEXT && p->text && strcmp(p->text, label) == 0 &&
                      p->x0 > lo.x && p->x0 < hi.x + hi.w && p->y0 > lo.y + lo.h;
        }
    }
    CHECK_MSG(placed == 4 && t->tiles[0].out_lo != 0, "%d of 4 blocks' labels under their cells "
              "(block 0 wrote out[%lld ..])", placed, (long long)t->tiles[0].out_lo);
    CHECK(drew_text(rec, "L tiles over time"));
    key(&s, SDLK_l, 0);
    CHECK_INT(s.view, SV_VIEW_MEASURE);
    const sv_timeline *tl = s.timeline;
    CHECK(tl && strcmp(tl->kernel, "single_pass") == 0 && tl->ntiles == 4);
    if (!tl || tl->ntiles != 4)
        return;
    /* each tile: its inclusive prefix published (recognised by value), the
     * later ones an aggregate first and reads of tiles before them */
    for (uint32_t i = 0; i < 4; i++) {
        const sv_timeline_tile *x = &tl->tiles[i];
        CHECK_MSG(!x->no_inclusive && x->start <= x->inclusive && x->inclusive <= x->end,
                  "tile %u: start %llu, inclusive %llu, end %llu", i,
                  (unsigned long long)x->start, (unsigned long long)x->inclusive,
                  (unsigned long long)x->end);
        if (i > 0)
            CHECK_MSG(!x->no_aggregate && x->aggregate <= x->inclusive && x->lo < i,
                      "tile %u: aggregate %d at %llu, looked back to %u", i, !x->no_aggregate,
                      (unsigned long long)x->aggregate, x->lo);
    }
    CHECK(tl->nlooks >= 3);
    for (size_t k = 0; k < tl->nlooks; k++)
        CHECK_MSG(tl->looks[k].other_time <= tl->looks[k].time &&
                      tl->looks[k].other != tl->looks[k].tile,
                  "look %zu: tile %u read tile %u's word", k, tl->looks[k].tile,
                  tl->looks[k].other);
    /* the tiles by the cells they wrote: the ticket, not blockIdx */
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t b = tl->tiles[i].block;
        CHECK_MSG(t->tiles[b].out_lo == 64 * (int64_t)i && t->tiles[b].out_hi == 64 * i + 63,
                  "row %u: block %u wrote out[%lld .. %lld]", i, b,
                  (long long)t->tiles[b].out_lo, (long long)t->tiles[b].out_hi);
    }
    draw_app(&s, rec, "lookback");
    CHECK(drew_text(rec, "single_pass's tiles on the CPU runtime"));
    char row3[32];
    snprintf(row3, sizeof row3, "block %u", tl->tiles[3].block);
    CHECK(drew_text(rec, row3) && drew_text(rec, "accesses of memory") &&
          !drew_text(rec, "tile 3"));
    CHECK_MSG(count_prims(rec, SV_PRIM_ARROW) >= tl->nlooks + 1, "%zu arrows for %zu reads",
              count_prims(rec, SV_PRIM_ARROW), tl->nlooks);
    /* step by time: each Right later, the words say the tiles' states */
    CHECK(s.tl_cursor == SV_TL_NO_CURSOR);
    uint64_t last = 0;
    int steps = 0;
    for (; steps < 200; steps++) {
        uint64_t before = s.tl_cursor;
        key(&s, SDLK_RIGHT, 0);
        if (s.tl_cursor == before)
            break;
        CHECK_MSG(steps == 0 || s.tl_cursor > last, "step %d: %llu after %llu", steps,
                  (unsigned long long)s.tl_cursor, (unsigned long long)last);
        last = s.tl_cursor;
    }
    CHECK_MSG(steps >= 12, "%d steps by time", steps);
    CHECK_INT((int)sv_timeline_state_at(tl, 0, last), SV_TILE_DONE);
    draw_app(&s, rec, "lookback-end");
    CHECK(drew_text(rec, "4 done"));
    key(&s, SDLK_HOME, 0); /* the first tile again; the cursor stays */
    while (s.tl_cursor != SV_TL_NO_CURSOR && steps-- > -5)
        key(&s, SDLK_LEFT, 0);
    CHECK(s.tl_cursor == SV_TL_NO_CURSOR);
    /* a time where tile 3 waits for another tile */
    bool waited = false;
    for (uint32_t i = 1; i < 4; i++) {
        const sv_timeline_tile *x = &tl->tiles[i];
        if (x->wait_to > x->wait_from) {
            waited = true;
            CHECK(x->polls >= 1 && x->wait_from >= x->start && x->wait_to <= x->inclusive);
            CHECK_INT((int)sv_timeline_state_at(tl, i, x->wait_from), SV_TILE_WAITING);
        }
    }
    CHECK_MSG(waited, "no tile waited for another: polls %u %u %u", tl->tiles[1].polls,
              tl->tiles[2].polls, tl->tiles[3].polls);
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);
}

/* The in-order trap (blocks_chained.cu: no ticket) under random:1: the run
 * stops in its launch; L draws the tiles that started, the stuck ones
 * waiting to the end. */
static void test_stuck_tiles(void)
{
    static sv_value in1024[1024];
    sv_app_state s;
    if (!kfile_app(&s, "blocks_chained.cu", in1024, 1024, 5, 0))
        return;
    const sv_ktrace *t = s.ktrace;
    CHECK(t && t->failure.kind == SV_KFAIL_DEADLOCK && t->nlaunches == 1 && t->ntiles >= 1);
    if (!t || t->ntiles < 1)
        return;
    key(&s, SDLK_HOME, 0);
    key(&s, SDLK_l, 0);
    const sv_timeline *tl = s.timeline;
    CHECK(s.view == SV_VIEW_MEASURE && tl && tl->ntiles == t->ntiles);
    if (!tl)
        return;
    uint32_t stuck = 0, waiting = 0;
    const uint64_t end = sv_timeline_span(tl);
    for (uint32_t i = 0; i < tl->ntiles; i++) {
        stuck += tl->tiles[i].no_end;
        waiting += sv_timeline_state_at(tl, i, end) == SV_TILE_WAITING;
    }
    CHECK_MSG(stuck >= 1 && waiting >= 1, "%u tiles stuck, %u waiting at the end", stuck,
              waiting);
    while (s.tl_cursor == SV_TL_NO_CURSOR || s.tl_cursor < end) {
        uint64_t before = s.tl_cursor;
        key(&s, SDLK_RIGHT, 0);
        if (s.tl_cursor == before)
            break;
    }
    sv_gfx_rec *rec = sv_gfx_rec_create();
    key(&s, SDLK_LEFT, 0);
    while (s.tl_cursor != SV_TL_NO_CURSOR)
        key(&s, SDLK_LEFT, 0);
    draw_app(&s, rec, "stuck-whole");
    CHECK(drew_text(rec, "running, rows by the out[] cells"));
    while (s.tl_cursor == SV_TL_NO_CURSOR || s.tl_cursor < end) {
        uint64_t before = s.tl_cursor;
        key(&s, SDLK_RIGHT, 0);
        if (s.tl_cursor == before)
            break;
    }
    draw_app(&s, rec, "stuck");
    CHECK(drew_text(rec, "waiting for another tile") && !drew_text(rec, " done"));
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);
}

/* A GPU's tiles (tests/data: blocks_lookback.cu, n = 1024, recorded on an
 * H100 with --backend cuda on 2026-12-07): the same timeline from
 * %globaltimer: the tiles by the cells each block wrote (a ticket decides),
 * each one's aggregate before its inclusive prefix, times in ns. */
static void test_gpu_tiles(void)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/tests/data/h100-lookback-1024.scanviz.json", SV_SOURCE_ROOT);
    sv_trace *tr = NULL;
    sv_ktrace *kt = NULL;
    CHECK_MSG(sv_trace_file_load_any(path, &tr, &kt, err, sizeof err) && kt && !tr, "%s", err);
    if (!kt)
        return;
    CHECK(kt->backend == SV_BACKEND_CUDA && kt->ntiles == 16 && kt->nlaunches == 1);
    sv_app_state s;
    static const sv_value none[1] = {{0}};
    sv_app_config c = config(none, 1, SV_TYPE_INT32);
    c.animations = false;
    c.ktrace = kt;
    c.trace_path = path;
    if (!start_app(&s, &c))
        return;
    key(&s, SDLK_HOME, 0);
    key(&s, SDLK_l, 0);
    const sv_timeline *tl = s.timeline;
    CHECK(s.view == SV_VIEW_MEASURE && tl && tl->ntiles == 16 && tl->per_unit == 1e3 &&
          strstr(tl->gpu, "NVIDIA") && strstr(tl->clock, "%globaltimer"));
    if (!tl || tl->ntiles != 16)
        return;
    uint32_t ahead = 0;
    for (uint32_t i = 0; i < 16; i++) {
        const sv_timeline_tile *x = &tl->tiles[i];
        CHECK_MSG(!x->no_inclusive && x->aggregate <= x->inclusive && x->inclusive <= x->end &&
                      (i == 0 || !x->no_aggregate) && x->wait_to == x->wait_from,
                  "GPU tile %u (block %u): aggregate %llu, inclusive %llu, end %llu", i, x->block,
                  (unsigned long long)x->aggregate, (unsigned long long)x->inclusive,
                  (unsigned long long)x->end);
        /* a tile's inclusive prefix comes after the tile before it published
         * something (its aggregate; tile 0 its prefix), not after its prefix:
         * the look-back is decoupled */
        if (i > 0) {
            const sv_timeline_tile *p = &tl->tiles[i - 1];
            const uint64_t need = i == 1 ? p->inclusive : p->aggregate;
            CHECK_MSG(x->inclusive >= need, "tile %u's prefix at %llu, before tile %u "
                      "published at %llu", i, (unsigned long long)x->inclusive, i - 1,
                      (unsigned long long)need);
            ahead += x->inclusive < p->inclusive;
        }
    }
    /* in this recording two tiles published their prefix before the tile
     * before them did (tiles 10 and 13) */
    CHECK_INT((int)ahead, 2);
    CHECK(tl->nlooks == 0); /* the GPU's reads are not stamped */
    sv_gfx_rec *rec = sv_gfx_rec_create();
    draw_app(&s, rec, "gpu");
    CHECK(drew_text(rec, "single_pass's tiles on NVIDIA H100") &&
          drew_text(rec, "\u00b5s after the first tile's start") &&
          drew_text(rec, "reads and waits are not stamped") &&
          !drew_text(rec, "waiting for another tile"));
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);
}

static void test_one_block_no_tiles(void)
{
    static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};
    char path[1024];
    snprintf(path, sizeof path, "%s/double_buffer.cu", kernels);
    sv_app_state s;
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = false;
    c.kernel_file = path;
    if (!start_app(&s, &c))
        return;
    key(&s, SDLK_l, 0);
    CHECK_INT(s.view, SV_VIEW_SCAN);
    CHECK_CONTAINS(s.status, "L shows a launch's tiles over time");
    CHECK(!s.timeline);
    sv_app_cleanup(&s);
}

/* n = 65,536 (issue 31: the window past one block): the hierarchical scan's
 * 1,024 tiles of 64 a launch. The input is the trace's alone; the frame
 * draws each row as merged runs (not a rectangle a cell) with a bracket a
 * tile under in[] and out[], a tile's "block b" once zoomed in; the state
 * line lists every value; what needs one block's n (predict mode, the input
 * box, D, K) says so in words and changes nothing. */
static void test_many_values(void)
{
    enum { N = 65536, BLOCKS = N / 64 };
    static sv_value big[N];
    sv_app_state s;
    if (!kfile_app(&s, "blocks_hier.cu", big, N, 7, 1))
        return;
    const sv_ktrace *t = s.ktrace;
    CHECK(s.trace && s.trace->n == N && s.trace->nrounds == 1 && !s.trace->run);
    CHECK(t && t->n == N && t->nlaunches == 3 && t->launches[0].grid == BLOCKS);
    if (!t || t->n != N || t->nlaunches != 3)
        goto done;
    int32_t acc = 0;
    bool right = true;
    for (size_t i = 0; i < N; i++) {
        acc += big[i].i;
        right = right && t->output_written[i] && t->output[i].i == acc &&
                s.trace->output[i].i == acc;
    }
    CHECK_MSG(right, "n = %d: the kernel's output and the input's reference scan", N);
    CHECK_INT(sv_app_steps_of(&s), 3);
    /* the state line: every value, none cut */
    size_t len = sv_app_state_values(&s) * 124 + SV_EDIT_MAX + 16384;
    char *line = malloc(len);
    CHECK(line != NULL);
    if (line) {
        sv_app_state_line(&s, line, len);
        char want[64];
        snprintf(want, sizeof want, " n=%d ", N);
        CHECK_CONTAINS(line, want);
        const char *kout = strstr(line, " kout=");
        size_t commas = 0;
        for (const char *c = kout ? kout + 6 : NULL; c && *c && *c != ' '; c++)
            commas += *c == ',';
        CHECK_MSG(kout && commas == N - 1, "kout lists %zu values", kout ? commas + 1 : 0);
        snprintf(want, sizeof want, ",%d ", (int)acc);
        CHECK_MSG(kout && strstr(kout, want) != NULL, "kout ends with the total %d", (int)acc);
        CHECK_CONTAINS(line, "krunning=0");
        free(line);
    }
    sv_gfx_rec *rec = sv_gfx_rec_create();
    draw_app(&s, rec, "65536 launch 1");
    CHECK(drew_text(rec, "Launch 1 of 3"));
    size_t rects = count_prims(rec, SV_PRIM_RECT), lines = count_prims(rec, SV_PRIM_LINE);
    CHECK_MSG(rects < 400, "%zu rectangles: the rows are not merged", rects);
    CHECK_MSG(lines >= 2 * 3 * BLOCKS, "%zu lines: a bracket a tile under in[] and out[]", lines);
    CHECK(!drew_text(rec, "block 0"));
    s.overview = true;
    draw_app(&s, rec, "65536 overview");
    rects = count_prims(rec, SV_PRIM_RECT);
    CHECK_MSG(rects < 400, "%zu rectangles in the overview: not merged", rects);
    s.overview = false;
    for (int i = 0; i < 40 && s.zoom < (float)N / 100.0f; i++)
        key(&s, SDLK_RIGHTBRACKET, 0);
    CHECK_MSG(sv_app_visible_cells(&s) < 400.0f, "zoomed in: %.0f cells", (double)sv_app_visible_cells(&s));
    draw_app(&s, rec, "65536 zoomed in");
    size_t labels = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        labels += p->kind == SV_PRIM_TEXT && p->text && strncmp(p->text, "block ", 6) == 0;
    }
    CHECK_MSG(labels >= 2 && labels < 40, "zoomed in: %zu tiles' labels", labels);
    sv_gfx_rec_destroy(rec);
    /* one block's features: words, nothing changed */
    key(&s, SDLK_p, 0);
    CHECK(!s.quiz);
    CHECK_CONTAINS(s.status, "Predict mode asks about at most 1024 cells; this input has 65536");
    key(&s, SDLK_e, 0);
    CHECK(!s.editing);
    CHECK_CONTAINS(s.status, "The input box holds at most 1024 values; this input has 65536");
    key(&s, SDLK_d, 0);
    CHECK(!s.kcompare_shown);
    CHECK_CONTAINS(s.status, "nothing to compare with at n = 65536");
    key(&s, SDLK_k, 0);
    CHECK_INT(s.kernel, SV_KERNEL_CORRECT);
    CHECK_CONTAINS(s.status, "the mistakes lab's kernels scan one block, at most 1024 values");
    CHECK(s.ktrace == t && s.trace->n == N);
    /* Tab / Shift+Tab: the launch's tiles, left to right, zoomed in on */
    key(&s, SDLK_HOME, 0);
    key(&s, SDLK_z, 0);
    key(&s, SDLK_TAB, 0);
    CHECK(s.ktile_lo == 0 && s.ktile_hi == 63);
    CHECK_CONTAINS(s.status, "Tile 1 of 1024 \u00b7 block 0 \u00b7 out[0 .. 63]");
    float seen = sv_app_visible_cells(&s);
    CHECK_MSG(seen > 64.0f && seen < 70.0f, "Tab: %.1f cells in view", (double)seen);
    key(&s, SDLK_TAB, 0);
    CHECK(s.ktile_lo == 64 && s.ktile_hi == 127 && s.ktile_block == 1);
    CHECK_CONTAINS(s.status, "Tile 2 of 1024");
    CHECK_MSG(s.pan > 62.0f && s.pan < 64.0f, "Tab: pan %.1f", (double)s.pan);
    key(&s, SDLK_TAB, KMOD_LSHIFT);
    key(&s, SDLK_TAB, KMOD_LSHIFT); /* from the first: the last */
    CHECK(s.ktile_lo == N - 64 && s.ktile_hi == N - 1);
    CHECK_CONTAINS(s.status, "Tile 1024 of 1024 \u00b7 block 1023");
    rec = sv_gfx_rec_create();
    draw_app(&s, rec, "65536 tile 1024");
    size_t accent = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        accent += p->kind == SV_PRIM_LINE && p->width > 2.5f;
    }
    CHECK_MSG(accent == 6, "%zu thick lines: the chosen tile's brackets under in[] and out[]",
              accent);
    CHECK(drew_text(rec, "block 1023"));
    sv_gfx_rec_destroy(rec);
    key(&s, SDLK_END, 0); /* the add-back: its tiles from block 1 (block 0 adds nothing) */
    key(&s, SDLK_z, 0);
    key(&s, SDLK_TAB, 0);
    CHECK_MSG(s.ktile_lo == 64 && s.ktile_launch == 2, "the add-back's first tile: %lld",
              (long long)s.ktile_lo);
    /* R: new values of the same size, run again */
    key(&s, SDLK_r, 0);
    t = s.ktrace;
    CHECK(s.trace->n == N && t && t->n == N && t->nlaunches == 3 &&
          memcmp(t->input, s.trace->input, N * sizeof *t->input) == 0 &&
          memcmp(t->output, s.trace->output, N * sizeof *t->output) == 0);
done:
    sv_app_cleanup(&s);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_app_tiles OUT_DIR TEST_KERNELS_DIR\n");
        return 2;
    }
    kernels = argv[2];
    static const view_test_fn tests[] = { test_lookback_timeline, test_stuck_tiles, test_gpu_tiles,
                                             test_one_block_no_tiles, test_many_values,
                                             NULL };
    return view_test_main(argc, argv, "test_app_tiles", tests,
                          "a launch's tiles over time in the window");
}
