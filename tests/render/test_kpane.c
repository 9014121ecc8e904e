/* The kernel pane (issue 18), from the recorded scene and the words: kernel
 * traces made by the CPU runtime (sv_runtime_run) on kernel files, drawn
 * as what the kernel did.
 *   - off-by-one: buf[1][1] in round 1 has no full-window border and no
 *     arrow from buf[0][0] (thread 1 copied); it is marked broken; the
 *     counters count 6 ops, not 7;
 *   - in-place: the last caption does not claim the inclusive scan;
 *   - a race: the hazard's cell is hatched, its tooltip names both threads
 *     and both lines, and both lines are marked in the source panel;
 *   - a two-barrier kernel shows all its steps, its rounds labelled;
 *   - rows carry the kernel's own array names (temp[0], temp[1], s);
 *   - the chapter kernel's values as a ghost row, the first difference in
 *     the caption; out-of-range and deadlock on the cells. */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "view_test.h"

#include "capture.h"
#include "kpane.h"
#include "ktrace_diverge.h"
#include "runtime.h"
#include "words.h"
#include "view_model.h"
#include "../runtime/need_cpu.h"

static sv_gfx_rec *rec;
static const sv_theme *dark;
static const int32_t chapter[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };

static void draw(const sv_app_view *s, int w, int h, const char *name)
{
    view_draw(s, w, h, rec, "kpane-", name);
}

static sv_ktrace *run_file_runs(const char *path, const char *schedule, uint32_t runs);

static sv_ktrace *run_file(const char *path)
{
    return run_file_runs(path, "sequential", 1);
}

static sv_ktrace *run_file_runs(const char *path, const char *schedule, uint32_t runs)
{
    size_t len = 0;
    char err[512];
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "FAIL: cannot open %s\n", path);
        exit(1);
    }
    static char text[65536];
    len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    sv_value in[8];
    for (int i = 0; i < 8; i++)
        in[i].i = chapter[i];
    sv_runtime_request req = {
        .path = path, .source = text, .op = SV_OP_SUM, .type = SV_TYPE_INT32,
        .scan = SV_SCAN_INCLUSIVE, .input = in, .n = 8, .backend = SV_RUNTIME_CPU, .runs = runs,
    };
    if (!sv_schedule_parse(schedule, &req.schedule, err, sizeof err)) {
        fprintf(stderr, "FAIL: %s\n", err);
        exit(1);
    }
    sv_ktrace *t = sv_runtime_run(&req, err, sizeof err);
    if (!t || !sv_ktrace_analyze(t, err, sizeof err)) {
        fprintf(stderr, "FAIL: %s: %s\n", path, err);
        exit(1);
    }
    if (t->failure.kind == SV_KFAIL_UNAVAILABLE || t->failure.kind == SV_KFAIL_COMPILE) {
        fprintf(stderr, "FAIL: %s: %s\n", path, t->failure.message ? t->failure.message : "");
        exit(1);
    }
    return t;
}

static void kview(sv_app_view *v, const sv_ktrace *t, int step)
{
    view_of_ktrace(v, t, step);
}

static const sv_prim *rect_at(sv_box b)
{
    return rec_rect_at(rec, b);
}

static bool text_drawn(const char *str)
{
    return rec_find_text(rec, str, false) != NULL;
}

/* Arrows whose head ends at box dst (within its width, near its top or
 * bottom) and whose tail starts over box src's column. */
static int arrows_between(sv_box src, sv_box dst)
{
    int n = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind != SV_PRIM_ARROW)
            continue;
        bool at_dst = p->x1 >= dst.x && p->x1 <= dst.x + dst.w &&
                      fabsf(p->y1 - dst.y) < dst.h * 0.6f;
        bool from_src = p->x0 >= src.x && p->x0 <= src.x + src.w &&
                        fabsf(p->y0 - (src.y + src.h)) < src.h * 0.6f;
        n += at_dst && from_src;
    }
    return n;
}

static int row_named(const sv_ktrace *t, const char *name)
{
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    for (int r = 0; r < rows.n; r++)
        if (strcmp(rows.row[r].name, name) == 0)
            return r;
    return -1;
}

/* A tooltip's lines as one text, each followed by " | ". */
static void tip_text(const sv_tip_words *tip, char *all, size_t len)
{
    all[0] = '\0';
    for (int k = 0; k < tip->n; k++) {
        size_t at = strlen(all);
        snprintf(all + at, len - at, "%s | ", tip->line[k]);
    }
}

static void test_off_by_one(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/off_by_one.cu");
    CHECK_INT(t->nsteps, 5);
    sv_app_view v;
    kview(&v, t, 1); /* step 2: round 1 */
    CHECK_INT(t->readings[1].round, 1);
    CHECK(t->readings[1].broken);
    CHECK_INT(t->readings[1].first_broken, 1);
    int in = row_named(t, "in"), b0 = row_named(t, "buf[0]"), b1 = row_named(t, "buf[1]");
    CHECK(in == 0 && b0 > 0 && b1 > b0);
    v.hover_row = b1;
    v.hover_cell = 1;
    draw(&v, 1280, 720, "off-by-one");
    sv_box c1 = sv_layout_cell(&lay, b1, 1);
    const sv_prim *p = rect_at(c1);
    CHECK(p != NULL);
    if (p) {
        CHECK_MSG(!(same_rgb(p->border, dark->full) && p->style == SV_BORDER_SOLID),
                  "buf[1][1] has a full-window border");
        CHECK_MSG(same_rgb(p->border, dark->error), "buf[1][1] is not marked broken");
    }
    /* Thread 1 read buf[0][1] only: one arrow from there, none from buf[0][0]. */
    CHECK_INT(arrows_between(sv_layout_cell(&lay, b0, 0), c1), 0);
    CHECK_INT(arrows_between(sv_layout_cell(&lay, b0, 1), c1), 1);
    /* A cell before the broken one keeps its case: buf[1][0], copy-through */
    const sv_prim *q = rect_at(sv_layout_cell(&lay, b1, 0));
    CHECK(q && same_rgb(q->border, dark->copy) && q->style == SV_BORDER_DOTTED);
    /* and one after it has none */
    const sv_prim *r5 = rect_at(sv_layout_cell(&lay, b1, 5));
    CHECK(r5 && !same_rgb(r5->border, dark->full));
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line1, "thread 1 copied instead of adding: the guard skipped i = 1");
    CHECK_CONTAINS(cw.line2, "holds 1; the window [0, 1] sums to 4");
    char line[256], note[512];
    CHECK(sv_pane_of(&v)->counters(&v, line, sizeof line, note, sizeof note));
    CHECK_CONTAINS(line, "ops this step 6");
    sv_tip_words tip;
    CHECK(sv_pane_of(&v)->tooltip(&v, b1, 1, &tip));
    CHECK_CONTAINS(tip.line[1], "thread 1 wrote it");
    CHECK_CONTAINS(tip.line[1], "buf[0][1] = 1");
    CHECK(strstr(tip.line[1], "buf[0][0]") == NULL);
    sv_ktrace_destroy(t);
}

/* printf (issue 30): a cell's tooltip says its thread's printf calls of the
 * step, at their line, and the window draws it. */
static void test_printf_tooltip(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/printf_scan.cu");
    CHECK_INT((int)t->nprints, 4); /* staged, then offsets 1, 2, 4 */
    int b0 = row_named(t, "buf[0]");
    CHECK(b0 > 0);
    sv_app_view v;
    kview(&v, t, 0);
    v.hover_row = b0;
    v.hover_cell = 2;
    sv_tip_words tip;
    CHECK(sv_pane_of(&v)->tooltip(&v, b0, 2, &tip));
    char want[96];
    snprintf(want, sizeof want, "printf at line %d: thread 2 staged 7", (int)t->prints[0].line);
    bool said = false;
    for (int i = 0; i < tip.n; i++)
        said = said || strstr(tip.line[i], want) != NULL;
    CHECK_MSG(said, "the tooltip of buf[0][2] in step 0 does not say \"%s\"", want);
    draw(&v, 1280, 720, "printf tooltip");
    CHECK_MSG(text_drawn(want), "\"%s\" is not drawn", want);
    /* another thread's cell says none of it */
    CHECK(sv_pane_of(&v)->tooltip(&v, b0, 3, &tip));
    for (int i = 0; i < tip.n; i++)
        CHECK_MSG(!strstr(tip.line[i], "printf"), "buf[0][3]'s tooltip: %s", tip.line[i]);
    sv_ktrace_destroy(t);
}

static void test_in_place_last_caption(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/in_place_race.cu");
    sv_app_view v;
    kview(&v, t, (int)t->nsteps - 1);
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_MSG(!strstr(cw.line1, "holds the inclusive scan") &&
              !strstr(cw.line2, "holds the inclusive scan"),
              "in-place's last caption claims the inclusive scan: %s / %s", cw.line1, cw.line2);
    CHECK_CONTAINS(cw.line1, "out is not the inclusive scan");
    draw(&v, 1280, 720, "in-place-end");
    CHECK(text_drawn("s"));     /* the kernel's own array name */
    CHECK(!text_drawn("buf[0]"));
    sv_ktrace_destroy(t);
}

/* The error-coloured hatch lines drawn inside box b. */
static int hatch_lines(sv_box b, sv_rgba colour)
{
    int hatch = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_LINE && same_rgb(p->fill, colour) &&
            p->x0 >= b.x - 1 && p->x1 <= b.x + b.w + 1 && p->y0 >= b.y - 1 &&
            p->y0 <= b.y + b.h + 1)
            hatch++;
    }
    return hatch;
}

/* The first hazard whose cell's verdict at its step is `want`, NULL none. */
static const sv_khazard *hazard_with(const sv_ktrace *t, sv_kverdict_cell want)
{
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    for (size_t i = 0; i < t->nhazards; i++) {
        const sv_khazard *h = &t->hazards[i];
        uint32_t col;
        int r = sv_kpane_row_of(&rows, h->array, h->cell, &col);
        if (r > 0 && sv_kpane_verdict(t, h->step, &rows.row[r], col) == want)
            return h;
    }
    return NULL;
}

static void test_race(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/in_place_race.cu");
    CHECK(t->nhazards > 0);
    /* a hazard whose cell this run left wrong: hatched in the error colour */
    const sv_khazard *h = hazard_with(t, SV_KCELL_WRONG);
    CHECK(h != NULL);
    if (!h)
        h = &t->hazards[0];
    sv_app_view v;
    kview(&v, t, (int)h->step);
    uint32_t col;
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    int r = sv_kpane_row_of(&rows, h->array, h->cell, &col);
    CHECK(r > 0);
    v.hover_row = r;
    v.hover_cell = (int)col;
    v.code = true;
    draw(&v, 1280, 720, "race");
    /* the hatch: error-coloured lines inside the cell */
    sv_box b = sv_layout_cell(&lay, r, (int)col);
    int hatch = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_LINE && same_rgb(p->fill, dark->error) &&
            p->x0 >= b.x - 1 && p->x1 <= b.x + b.w + 1 && p->y0 >= b.y - 1 &&
            p->y0 <= b.y + b.h + 1)
            hatch++;
    }
    CHECK_MSG(hatch >= 2, "the race's cell is not hatched (%d lines)", hatch);
    /* a cell of the same row without a hazard is not */
    sv_tip_words tip;
    CHECK(sv_pane_of(&v)->tooltip(&v, r, (int)col, &tip));
    char a[32], c[32], all[2048] = "";
    snprintf(a, sizeof a, "thread %u", (unsigned)h->first.thread);
    snprintf(c, sizeof c, "thread %u", (unsigned)h->second.thread);
    tip_text(&tip, all, sizeof all);
    CHECK_CONTAINS(all, a);
    CHECK_CONTAINS(all, c);
    CHECK_CONTAINS(all, "in the same step");
    CHECK_CONTAINS(all, "lines 19 and 19");
    /* the tooltip is drawn, naming both threads */
    bool drawn = false;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_TEXT && strstr(p->text, a) && strstr(p->text, c))
            drawn = true;
    }
    CHECK_MSG(drawn, "no tooltip text names %s and %s", a, c);
    /* line 19 is marked in the source panel: an error band at its row */
    bool marked = false;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_TEXT && strcmp(p->text, "19") == 0 &&
            p->x0 >= lay.code_panel.x - 1) {
            for (size_t j = 0; j < i; j++) {
                const sv_prim *q = sv_gfx_rec_prim(rec, j);
                if (q->kind == SV_PRIM_RECT && same_rgb(q->fill, dark->error) &&
                    q->box.x >= lay.code_panel.x - 1 && p->y0 >= q->box.y &&
                    p->y0 <= q->box.y + q->box.h)
                    marked = true;
            }
        }
    }
    CHECK_MSG(marked, "the hazard's line 19 is not marked in the source panel");
    sv_ktrace_destroy(t);
}

/* Lockstep leaves the race's output right: its hazards are hatched dim,
 * never in the error colour, and the tooltip says the cell is still right. */
static void test_race_right_here(void)
{
    sv_ktrace *t = run_file_runs(SV_TEST_KERNELS "/in_place_race.cu", "lockstep", 1);
    CHECK(t->nhazards > 0 && t->first_wrong < 0);
    CHECK(hazard_with(t, SV_KCELL_WRONG) == NULL);
    const sv_khazard *h = hazard_with(t, SV_KCELL_RIGHT);
    CHECK(h != NULL);
    if (h) {
        sv_app_view v;
        kview(&v, t, (int)h->step);
        sv_krows rows;
        sv_kpane_rows(t, &rows);
        uint32_t col;
        int r = sv_kpane_row_of(&rows, h->array, h->cell, &col);
        draw(&v, 1280, 720, "race-right-here");
        sv_box b = sv_layout_cell(&lay, r, (int)col);
        CHECK_MSG(hatch_lines(b, dark->error) == 0, "a right cell is hatched in the error colour");
        CHECK_MSG(hatch_lines(b, sv_rgba_alpha(dark->text_dim, 0.55f)) >= 2,
                  "the race's cell is not hatched at all");
        sv_tip_words tip;
        CHECK(sv_pane_of(&v)->tooltip(&v, r, (int)col, &tip));
        char all[2048] = "";
        for (int k = 0; k < tip.n; k++)
            strcat(all, tip.line[k]);
        CHECK_CONTAINS(all, "in this run the cell is still right");
    }
    sv_ktrace_destroy(t);
}

/* --runs 16 over random:1: every cell hatched in the error colour shows a
 * wrong value (checked against the round's window, computed here); a cell
 * wrong in some runs says "wrong in k of 16 runs" and has its bar. */
static void test_many_runs(void)
{
    sv_ktrace *t = run_file_runs(SV_TEST_KERNELS "/in_place_race.cu", "random:1", 16);
    CHECK_INT(t->runs, 16);
    CHECK(t->ncellruns > 0);
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    sv_app_view v;
    int hatched = 0, counted = 0;
    char err[128];
    sv_value want[8];
    double mag[8];
    for (size_t k = 0; k < t->nsteps; k++) {
        kview(&v, t, (int)k);
        draw(&v, 1280, 720, k + 1 == t->nsteps ? "many-runs-end" : "many-runs");
        const sv_kreading *rd = &t->readings[k];
        for (int r = 1; r < rows.n; r++) {
            const sv_krow *row = &rows.row[r];
            for (uint32_t c = 0; c < row->count; c++) {
                sv_box b = sv_layout_cell(&lay, r, (int)c);
                sv_value val;
                bool have = sv_kpane_value(t, k, row, c, &val);
                if (row->kind == SV_KROW_ARRAY && hatch_lines(b, dark->error) >= 2) {
                    hatched++;
                    CHECK(rd->fits && (uint32_t)rd->pout_array == row->array);
                    CHECK(sv_kround_windows(t, rd->expected_round, want, mag, err, sizeof err));
                    CHECK_MSG(!have || val.i != want[c].i,
                              "step %zu: %s[%u] is hatched red but holds the right %d", k + 1,
                              row->name, c, (int)val.i);
                }
                uint32_t wrong = 0;
                const uint32_t *which = NULL;
                if (!sv_kpane_cell_runs(t, k, row, c, &wrong, &which) || wrong == 0)
                    continue;
                counted++;
                sv_tip_words tip;
                CHECK(sv_pane_of(&v)->tooltip(&v, r, (int)c, &tip));
                char all[2048] = "", w[64];
                for (int i = 0; i < tip.n; i++)
                    strcat(all, tip.line[i]);
                snprintf(w, sizeof w, "wrong in %u of 16 runs: %u", (unsigned)wrong,
                         (unsigned)which[0]);
                CHECK_CONTAINS(all, w);
                /* the bar along its foot, in the error colour */
                bool bar = false;
                for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
                    const sv_prim *p = sv_gfx_rec_prim(rec, i);
                    if (p->kind == SV_PRIM_RECT && same_rgb(p->fill, dark->error) &&
                        p->box.x >= b.x && p->box.x + p->box.w <= b.x + b.w + 0.5f &&
                        p->box.y > b.y + b.h * 0.7f && p->box.y < b.y + b.h)
                        bar = true;
                }
                CHECK_MSG(bar, "step %zu: %s[%u] has no wrong-runs bar", k + 1, row->name, c);
            }
        }
    }
    CHECK(hatched > 0);
    CHECK(counted > 0);
    /* the counters say how many runs and which is shown */
    char line[512], note[512], want_note[96];
    kview(&v, t, (int)t->nsteps - 1);
    CHECK(sv_kwords_counters(&v, line, sizeof line, note, sizeof note));
    snprintf(want_note, sizeof want_note, "wrong in %u of 16 runs \u00b7 run %u shown (random:%u)",
             (unsigned)t->wrong_runs, (unsigned)t->shown_run, (unsigned)(1 + t->shown_run));
    CHECK_CONTAINS(note, want_note);
    sv_ktrace_destroy(t);
}

/* The header names the CPU runtime for a kernel trace, never the emulator
 * that made the chapter's trace for the same input (s->source). */
/* Bank conflicts on the cells (issue 30): bank_pairs.cu's staging stores
 * t[0][0..3] and t[1][0..3] in one request, two words in each of banks
 * 0..3: the 8 cells are barred in the window colour along their top and
 * tagged "×2"; the cells past them are not; the tooltip and the caption
 * say it; the next step (no conflict) draws none. */
static void test_bank_cells(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/bank_pairs.cu");
    CHECK(t->banks_counted && t->bank_stores == 1 && t->bank_loads == 0);
    CHECK_INT((int)t->nbankcells, 8);
    for (size_t i = 0; i < t->nbankcells && i < 8; i++)
        CHECK(t->bankcells[i].step == 0 && t->bankcells[i].ways == 2 && t->bankcells[i].store &&
              t->bankcells[i].cell == (i < 4 ? (uint32_t)i : 32 + (uint32_t)i - 4));
    int r0 = row_named(t, "t[0]"), r1 = row_named(t, "t[1]");
    CHECK(r0 > 0 && r1 == r0 + 1);
    sv_app_view v;
    kview(&v, t, 0);
    v.hover_row = r1;
    v.hover_cell = 3;
    draw(&v, 1280, 720, "bank conflicts");
    int barred = 0, tags = 0, stray = 0;
    for (int r = r0; r <= r1; r++)
        for (int c = 0; c < 8; c++) {
            sv_box b = sv_layout_cell(&lay, r, c);
            bool bar = false;
            for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
                const sv_prim *p = sv_gfx_rec_prim(rec, i);
                if (p->kind == SV_PRIM_RECT && same_rgb(p->fill, dark->window) &&
                    p->box.x >= b.x && p->box.x + p->box.w <= b.x + b.w + 0.5f &&
                    p->box.y >= b.y && p->box.y + p->box.h <= b.y + b.h * 0.3f)
                    bar = true;
                if (p->kind == SV_PRIM_TEXT && strcmp(p->text, "\u00d72") == 0 &&
                    p->x0 >= b.x && p->x0 <= b.x + b.w && fabsf(p->y0 - b.y) < b.h * 0.5f)
                    tags += c < 4;
            }
            if (c < 4)
                barred += bar;
            else
                stray += bar;
        }
    CHECK_MSG(barred == 8 && stray == 0, "%d of the 8 colliding cells barred, %d others", barred,
              stray);
    CHECK_MSG(tags == 8, "%d of the 8 colliding cells tagged \u00d72", tags);
    sv_tip_words tip;
    CHECK(sv_pane_of(&v)->tooltip(&v, r1, 3, &tip));
    char all[2048] = "";
    tip_text(&tip, all, sizeof all);
    CHECK_CONTAINS(all, "bank conflict: a 2-way store at line 12 (warp 0)");
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line2, "8 cells in bank conflicts (barred), up to 2-way: t[0][0], a store "
                             "at line 12");
    CHECK(sv_pane_of(&v)->tooltip(&v, r0, 5, &tip));
    for (int k = 0; k < tip.n; k++)
        CHECK_MSG(!strstr(tip.line[k], "bank"), "t[0][5]'s tooltip: %s", tip.line[k]);
    kview(&v, t, 1);
    draw(&v, 1280, 720, "bank conflicts, step 1");
    CHECK_MSG(!text_drawn("\u00d72"), "step 1 has no conflict, yet a cell is tagged");
    sv_ktrace_destroy(t);
}

/* Divergence (issue 30): the double buffer's round of stride 2 at n = 8
 * splits warp 0 at the combining line (lanes 2-7) and the copy (lanes
 * 0-1): the counters count 2 divergent lines, the tooltip of a copying
 * thread's cell says who waited, and the source panel draws the warp's 8
 * lanes at each of the two lines, filled where they ran (6 + 2), hollow
 * where they waited (2 + 6); the staging step draws none. */
static void test_divergence(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/double_buffer.cu");
    CHECK(t->nsteps >= 3);
    sv_kdiverge d[4];
    CHECK_INT((int)sv_ktrace_divergence(t, 2, d, 4), 2);
    CHECK(d[0].warp == 0 && d[0].ran == 0xfcu && d[0].lanes == 0xffu);
    CHECK(d[1].warp == 0 && d[1].ran == 0x03u && d[1].lanes == 0xffu && d[1].line > d[0].line);
    CHECK_INT((int)sv_ktrace_divergence(t, 0, NULL, 0), 0);
    sv_app_view v;
    kview(&v, t, 2);
    int r = row_named(t, "buf[0]");
    CHECK(r > 0);
    v.hover_row = r;
    v.hover_cell = 1;
    v.code = true;
    draw(&v, 1280, 720, "divergence");
    char line[256], note[512];
    CHECK(sv_pane_of(&v)->counters(&v, line, sizeof line, note, sizeof note));
    CHECK_CONTAINS(line, "divergent lines 2");
    sv_tip_words tip;
    CHECK(sv_pane_of(&v)->tooltip(&v, r, 1, &tip));
    char all[2048] = "", want[128];
    tip_text(&tip, all, sizeof all);
    snprintf(want, sizeof want, "warp 0 diverged at line %d: lanes 0-1 ran it, lanes 2-7 waited",
             (int)d[1].line);
    CHECK_CONTAINS(all, want);
    int filled = 0, hollow = 0, tags = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_RECT && same_rgb(p->border, dark->partial) &&
            p->box.x >= lay.code_panel.x && p->box.w < 20.0f && fabsf(p->box.w - p->box.h) < 0.5f)
            *(same_rgb(p->fill, dark->partial) && p->fill.a > 0.5f ? &filled : &hollow) += 1;
        if (p->kind == SV_PRIM_TEXT && strcmp(p->text, "w0") == 0 && p->x0 >= lay.code_panel.x)
            tags++;
    }
    CHECK_MSG(filled == 8 && hollow == 8 && tags == 2,
              "the source panel's lanes: %d filled, %d hollow, %d warp tags (want 8, 8, 2)",
              filled, hollow, tags);
    kview(&v, t, 0);
    v.code = true;
    draw(&v, 1280, 720, "divergence, staging");
    CHECK_MSG(!text_drawn("w0"), "the staging step draws a warp's lanes");
    sv_ktrace_destroy(t);
}

/* The legend's case conditions (issue 29: one pane): a step the chapter's
 * reading reads as round r gives the chapter pane's "i \u2265 2^r - 1",
 * "2^(r-1) \u2264 i < 2^r - 1", "i < 2^(r-1)" for its stride, worked out from
 * the reading of that step; the staging step and the kernel's end none; the
 * overview the conditions in r. */
static void test_legend_conditions(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/double_buffer.cu");
    CHECK(t->nsteps >= 5 && t->readings && t->readings[2].fits && t->readings[2].round == 2);
    sv_app_view v;
    char c[3][48];
    kview(&v, t, 2);
    CHECK(sv_pane_of(&v)->conditions(&v, c));
    CHECK_STR(c[0], "i \u2265 3");
    CHECK_STR(c[1], "2 \u2264 i < 3");
    CHECK_STR(c[2], "i < 2");
    draw(&v, 1280, 720, "legend conditions, round 2");
    CHECK_MSG(text_drawn("i \u2265 3") && text_drawn("2 \u2264 i < 3") && text_drawn("i < 2"),
              "the kernel pane's legend lacks round 2's conditions");
    kview(&v, t, 1); /* round 1: no partial window */
    CHECK(sv_pane_of(&v)->conditions(&v, c));
    CHECK_STR(c[0], "i \u2265 1");
    CHECK_STR(c[1], "none");
    CHECK_STR(c[2], "i < 1");
    kview(&v, t, 3);
    CHECK(sv_pane_of(&v)->conditions(&v, c));
    CHECK_STR(c[0], "i \u2265 7");
    CHECK_STR(c[2], "i < 4");
    kview(&v, t, 0); /* the staging */
    CHECK(!sv_pane_of(&v)->conditions(&v, c) && c[0][0] == '\0');
    draw(&v, 1280, 720, "legend conditions, staging");
    CHECK_MSG(!text_drawn("i < 1") && !text_drawn("i \u2265 1"),
              "the staging step's legend gives a round's conditions");
    kview(&v, t, (int)t->nsteps - 1); /* the kernel's end: no round */
    CHECK(!t->readings[t->nsteps - 1].fits);
    CHECK(!sv_pane_of(&v)->conditions(&v, c));
    v.overview = true;
    CHECK(sv_pane_of(&v)->conditions(&v, c));
    CHECK_STR(c[0], "i \u2265 2^r\u22121");
    sv_ktrace_destroy(t);

    t = run_file(SV_TEST_KERNELS "/temp_2d.cu"); /* not the chapter's cases: none */
    kview(&v, t, 1);
    if (!t->readings || !t->readings[1].fits)
        CHECK(!sv_pane_of(&v)->conditions(&v, c));
    sv_ktrace_destroy(t);
}

/* Registers as rows (issue 30): warp_scan.cu's shuffle drawn as the rows
 * shfl@12[0..4] ("registers"), read as the chapter's rounds: row 1's cell
 * 1 has arrows from row 0's cells 0 and 1, its cell 0 is a copy, row 2's
 * cell 2 a partial window and cell 3 a full one, the caption says so;
 * warp_scan_skip.cu (round 1 skipped) is broken at row 1, lane 1. */
static void test_register_rows(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/warp_scan.cu");
    int r0 = row_named(t, "shfl@12[0]"), r4 = row_named(t, "shfl@12[4]");
    CHECK(r0 > 0 && r4 == r0 + 4);
    sv_app_view v;
    kview(&v, t, 0);
    draw(&v, 1280, 720, "register rows");
    CHECK(text_drawn("registers"));
    CHECK_INT(arrows_between(sv_layout_cell(&lay, r0, 0), sv_layout_cell(&lay, r0 + 1, 1)), 1);
    CHECK_INT(arrows_between(sv_layout_cell(&lay, r0, 1), sv_layout_cell(&lay, r0 + 1, 1)), 1);
    CHECK_INT(arrows_between(sv_layout_cell(&lay, r0, 2), sv_layout_cell(&lay, r0 + 1, 1)), 0);
    const sv_prim *c0 = rect_at(sv_layout_cell(&lay, r0 + 1, 0));
    const sv_prim *p2 = rect_at(sv_layout_cell(&lay, r0 + 2, 2));
    const sv_prim *f3 = rect_at(sv_layout_cell(&lay, r0 + 2, 3));
    CHECK(c0 && same_rgb(c0->border, dark->copy));
    CHECK(p2 && same_rgb(p2->border, dark->partial));
    CHECK(f3 && same_rgb(f3->border, dark->full));
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line2, "shfl@12[0] to shfl@12[4] are the chapter's rounds 0 to 4 in "
                             "registers");
    sv_tip_words tip;
    CHECK(sv_pane_of(&v)->tooltip(&v, r0 + 2, 3, &tip));
    char all[2048] = "";
    tip_text(&tip, all, sizeof all);
    CHECK_CONTAINS(all, "full window: holds the sum of in[0 .. 3] (round 2, in registers)");
    sv_ktrace_destroy(t);

    t = run_file(SV_TEST_KERNELS "/warp_scan_skip.cu"); /* its shuffle at line 13 */
    r0 = row_named(t, "shfl@13[0]");
    CHECK(r0 > 0);
    kview(&v, t, 0);
    draw(&v, 1280, 720, "register rows, a round skipped");
    const sv_prim *b = rect_at(sv_layout_cell(&lay, r0 + 1, 1));
    CHECK(b && same_rgb(b->border, dark->error));
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line2, "shfl@13[1][1] breaks round 1 in registers: it holds 1, the round "
                             "gives 4");
    CHECK(cw.line2_error);
    sv_ktrace_destroy(t);
}

static void test_header_runtime(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/in_place_race.cu");
    sv_app_view v;
    kview(&v, t, 0);
    v.source = "CPU emulator: built without CUDA";
    draw(&v, 1280, 720, "header");
    CHECK_STR(rec_header_source(rec), "CPU runtime \u00b7 schedule sequential");
    v.clean = true;
    draw(&v, 1280, 720, "header-clean");
    CHECK_STR(rec_header_source(rec), "CPU runtime");
    sv_ktrace_destroy(t);
}

static void test_two_barriers(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/in_place_two_barriers.cu");
    CHECK_INT(t->nsteps, 8);
    sv_app_view v;
    kview(&v, t, 2);
    draw(&v, 1280, 720, "two-barriers");
    CHECK_INT(lay.steps, 8);
    /* the timeline: rounds labelled, the read-only steps by their number */
    CHECK(text_drawn("r0"));
    CHECK(text_drawn("r1"));
    CHECK(text_drawn("2"));
    char lab[16];
    sv_kwords_step_label(t, 1, lab, sizeof lab);
    CHECK_STR(lab, "2");
    sv_kwords_step_label(t, 2, lab, sizeof lab);
    CHECK_STR(lab, "r1");
    /* every step has a caption of its own */
    char prev[SV_WORDS_MAX] = "";
    for (int k = 0; k < 8; k++) {
        v.kstep = k;
        sv_caption_words cw;
        CHECK(sv_pane_of(&v)->caption(&v, &cw));
        char head[32];
        snprintf(head, sizeof head, "Step %d of 8", k + 1);
        CHECK_CONTAINS(cw.line1, head);
        CHECK(strcmp(prev, cw.line1) != 0);
        snprintf(prev, sizeof prev, "%s", cw.line1);
    }
    sv_ktrace_destroy(t);
}

static void test_own_names(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/temp_2d.cu");
    sv_app_view v;
    kview(&v, t, 1);
    draw(&v, 1280, 720, "temp-2d");
    CHECK(text_drawn("temp[0]"));
    CHECK(text_drawn("temp[1]"));
    CHECK(text_drawn("in"));
    CHECK(text_drawn("out"));
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    CHECK_INT(rows.n, 4);
    CHECK_INT(rows.row[1].count, 8); /* temp[2][1024] at n = 8: 8 cells a row */
    sv_ktrace_destroy(t);
    /* The chapter's words for a kernel's rounds in rows of one array of its
     * own name (the presenter script's shuffle scan) name that array, as
     * the rows' labels do, not the chapter's buf */
    t = run_file(SV_SCRIPTS "/shuffle-scan.cu");
    sv_trace *ch = view_trace_i32(chapter, 8, SV_OP_SUM, SV_SCAN_INCLUSIVE); /* the app's */
    kview(&v, t, 2);
    v.trace = ch;
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line1, "Round 2, stride 2");
    CHECK_CONTAINS(cw.line2, "pin = row[1], pout = row[0]");
    CHECK_MSG(!strstr(cw.line1, "buf[") && !strstr(cw.line2, "buf["), "buf in %s / %s",
              cw.line1, cw.line2);
    kview(&v, t, 0);
    v.trace = ch;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line1, "stage the input into row[0]; row[1] is uninitialized");
    sv_trace_destroy(ch);
    sv_ktrace_destroy(t);
}

static void test_compare(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/off_by_one.cu");
    sv_ktrace *c = run_file(SV_TEST_KERNELS "/double_buffer.cu");
    sv_app_view v;
    kview(&v, t, 1);
    v.kcompare = c;
    v.kcompare_shown = true;
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line2, "first difference from the chapter's kernel: buf[1][1] holds 1, "
                             "the chapter's 4");
    draw(&v, 1280, 720, "compare");
    CHECK(text_drawn("4")); /* the ghost value */
    sv_ktrace_destroy(c);
    sv_ktrace_destroy(t);
}

static void test_failures(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/no_guard.cu");
    CHECK_INT(t->failure.kind, SV_KFAIL_OUT_OF_RANGE);
    char w[256];
    sv_kwords_out_of_range(t, w, sizeof w);
    CHECK_CONTAINS(w, "thread 0 read buf[-1]: i - stride = -1, the left edge");
    sv_app_view v;
    kview(&v, t, (int)t->nsteps - 1);
    draw(&v, 1280, 720, "no-guard");
    CHECK(text_drawn("read buf[-1]"));
    sv_ktrace_destroy(t);
    t = run_file(SV_TEST_KERNELS "/barrier_in_if.cu");
    CHECK_INT(t->failure.kind, SV_KFAIL_DEADLOCK);
    kview(&v, t, (int)t->nsteps - 1);
    draw(&v, 1280, 720, "deadlock");
    CHECK(text_drawn("7 wait at the barrier of line 18"));
    sv_ktrace_destroy(t);
}


/* The canned mistakes in the Hillis-Steele pane (the truth problem): a lab
 * trace emulated under `sequential`, with its reads, drawn from its run. */
typedef struct lab_view {
    sv_trace *t, *correct;
    sv_lab_reads *reads;
    sv_lab_summary *sum;
} lab_view;

static bool lab_make(const char *name, lab_view *lv, sv_app_view *s)
{
    char err[256];
    memset(lv, 0, sizeof *lv);
    sv_kernel k;
    CHECK(sv_kernel_from_name(name, &k));
    lv->correct = view_trace_i32(chapter, 8, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    sv_value v[8];
    for (int i = 0; i < 8; i++)
        v[i].i = chapter[i];
    lv->t = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, v, 8, SV_BACKEND_CPU,
                            NULL, err, sizeof err);
    bool ok = lv->t && sv_capture_lab_run(lv->t, k, (sv_schedule){ SV_SCHEDULE_SEQUENTIAL, 1 },
                                      &lv->reads, NULL, NULL, err, sizeof err) &&
              sv_trace_finish(lv->t, err, sizeof err);
    CHECK_MSG(ok, "%s emulated: %s", name, err);
    if (!ok)
        return false;
    uint32_t bits[4 * 8];
    bool known[4 * 8];
    sv_lab_raw_from_trace(lv->t, 0, bits, known);
    lv->sum = sv_lab_summarize(lv->correct, 1, bits, known, err, sizeof err);
    CHECK_MSG(lv->sum != NULL, "summary: %s", err);
    view_of(s, lv->t);
    s->kernel = (int)k;
    s->lab = lv->sum;
    s->lab_reads = lv->reads;
    s->lab_note = "emulated";
    return lv->sum != NULL;
}

static void lab_free(lab_view *lv)
{
    sv_lab_summary_destroy(lv->sum);
    sv_lab_reads_destroy(lv->reads);
    sv_trace_destroy(lv->t);
    sv_trace_destroy(lv->correct);
}

static void test_lab_truth(void)
{
    lab_view lv;
    sv_app_view s;
    if (lab_make("off-by-one", &lv, &s)) {
        s.step = s.from_step = 1; /* round 1: pin buf[0], pout buf[1] */
        s.hover_row = 2;
        s.hover_cell = 1;
        draw(&s, 1280, 720, "lab-off-by-one");
        sv_box c1 = sv_layout_cell(&lay, 2, 1);
        const sv_prim *p = rect_at(c1);
        CHECK(p != NULL);
        if (p)
            CHECK_MSG(!(same_rgb(p->border, dark->full) && p->style == SV_BORDER_SOLID),
                      "lab off-by-one: buf[1][1] has a full-window border");
        CHECK_INT(arrows_between(sv_layout_cell(&lay, 1, 0), c1), 0);
        CHECK_INT(arrows_between(sv_layout_cell(&lay, 1, 1), c1), 1);
        char line[256], note[512];
        CHECK(sv_pane_of(&s)->counters(&s, line, sizeof line, note, sizeof note));
        CHECK_CONTAINS(line, "ops this round 6");
        sv_caption_words cw;
        s.hover_row = s.hover_cell = -1;
        CHECK(sv_pane_of(&s)->caption(&s, &cw));
        CHECK_CONTAINS(cw.line2, "buf[1][1] holds 1; the window [0, 1] sums to 4");
    }
    lab_free(&lv);
    if (lab_make("in-place", &lv, &s)) {
        s.step = s.from_step = sv_view_steps(lv.t) - 1;
        sv_caption_words cw;
        CHECK(sv_pane_of(&s)->caption(&s, &cw));
        CHECK_MSG(!strstr(cw.line1, "holds the inclusive scan") &&
                  !strstr(cw.line2, "holds the inclusive scan"),
                  "lab in-place's last caption claims the inclusive scan: %s / %s", cw.line1,
                  cw.line2);
    }
    lab_free(&lv);
}

/* The overview (V) of a mistake reads as the mistake ran: its wrong cells
 * hatched in the error colour, each round's first broken cell bordered in
 * it; the chapter's correct run has neither. */
static int overview_marks(const sv_app_view *s, const char *name, int *broken)
{
    draw(s, 1280, 720, name);
    int hatch = 0;
    *broken = 0;
    sv_rgba h = sv_rgba_alpha(dark->error, 0.7f);
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_LINE && same_rgb(p->fill, h) && p->x0 >= lay.cells_clip.x - 1)
            hatch++;
        if (p->kind == SV_PRIM_RECT && same_rgb(p->border, dark->error) &&
            p->box.x >= lay.cells_clip.x - 1 && p->box.y > lay.header.y + lay.header.h &&
            p->box.y + p->box.h < lay.legend.y)
            ++*broken;
    }
    return hatch;
}

static void test_mistake_overview(void)
{
    lab_view lv;
    sv_app_view s;
    if (lab_make("in-place", &lv, &s)) {
        s.overview = true;
        int wrong = 0;
        for (size_t k = 0; k < lv.sum->nrounds * lv.sum->n; k++)
            wrong += lv.sum->cells[k].wrong_runs > 0;
        CHECK(wrong > 0);
        int broken = 0, hatch = overview_marks(&s, "overview-in-place", &broken);
        CHECK_MSG(hatch >= 2 * wrong, "the mistake's overview: %d hatch lines for %d wrong "
                  "cells", hatch, wrong);
        CHECK_MSG(broken >= wrong, "the mistake's overview: %d error-bordered cells for %d "
                  "wrong cells", broken, wrong);
        /* the same trace without its runs reads as it did before: no marks */
        s.lab = NULL;
        hatch = overview_marks(&s, "overview-in-place-no-lab", &broken);
        CHECK_INT(hatch, 0);
        CHECK_INT(broken, 0);
    }
    lab_free(&lv);
}

/* Many blocks (issue 31): a launch's step drawn as its tiles, a bracket
 * and "block b" under in[] and out[] per block of the launch the trace
 * holds, and its caption from that launch; none on a one-block trace. */
static void test_launch_tiles(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/blocks_tiles.cu");
    CHECK_INT((int)t->nlaunches, 3);
    CHECK_INT((int)t->nsteps, 3);
    sv_app_view v;
    kview(&v, t, 0);
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line1, "Launch 1 of 3 \u00b7 block_scan<<<2, 4>>> (line ");
    CHECK_CONTAINS(cw.line1, "its blocks wrote 8 cells of out, 2 cells of sums");
    draw(&v, 1280, 720, "launch 1 tiles");
    int in = row_named(t, "in"), out = row_named(t, "out"), sums = row_named(t, "sums");
    CHECK(in == 0 && sums > in && out > sums);
    CHECK_MSG(text_drawn("block 0") && text_drawn("block 1") && !text_drawn("block 2"),
              "launch 1 of 2 blocks: its tiles");
    /* the brackets: a line under out[0 .. 3] and one under out[4 .. 7] */
    int under = 0;
    for (int b = 0; b < 2; b++) {
        sv_box a = sv_layout_cell(&lay, out, 4 * b), z = sv_layout_cell(&lay, out, 4 * b + 3);
        for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, i);
            under += p->kind == SV_PRIM_LINE && fabsf(p->x0 - (a.x + 1.0f)) < 0.5f &&
                     fabsf(p->x1 - (z.x + z.w - 1.0f)) < 0.5f && p->y0 > a.y + a.h &&
                     p->y0 < a.y + 2.0f * a.h;
        }
    }
    CHECK_INT(under, 2);
    kview(&v, t, 1); /* scan_sums<<<1, 1>>>: one block, one thread */
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line1, "Launch 2 of 3 \u00b7 scan_sums<<<1, 1>>>");
    kview(&v, t, 2);
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line2, "out holds the inclusive scan of in[] (sum)");
    v.overview = true; /* the overview's rows named by launch */
    draw(&v, 1280, 720, "launches overview");
    CHECK_MSG(text_drawn("launch 1 \u00b7 out") && text_drawn("launch 2 \u00b7 sums") &&
                  text_drawn("launch 3 \u00b7 out") && !text_drawn("step out \u00b7 out"),
              "the overview of three launches");
    v.overview = false;
    sv_ktrace_destroy(t);
    t = run_file(SV_TEST_KERNELS "/double_buffer.cu");
    kview(&v, t, 1);
    draw(&v, 1280, 720, "one block: no tiles");
    CHECK(!text_drawn("block 0"));
    sv_ktrace_destroy(t);
}

int main(int argc, char **argv)
{
    view_test_open(argc, argv, "test_kpane");
    rec = sv_gfx_rec_create();
    dark = sv_theme_get(SV_THEME_DARK);
    need_cpu_runtime(1);
    test_off_by_one();
    test_printf_tooltip();
    test_in_place_last_caption();
    test_race();
    test_race_right_here();
    test_mistake_overview();
    test_header_runtime();
    test_many_runs();
    test_two_barriers();
    test_own_names();
    test_compare();
    test_failures();
    test_lab_truth();
    test_bank_cells();
    test_divergence();
    test_register_rows();
    test_legend_conditions();
    test_launch_tiles();
    sv_gfx_rec_destroy(rec);
    return view_test_close("all kernel pane checks passed");
}
