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

static sv_ktrace *run_file(const char *path)
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
    const sv_runtime_request req = {
        .path = path, .source = text, .op = SV_OP_SUM, .type = SV_TYPE_INT32,
        .scan = SV_SCAN_INCLUSIVE, .input = in, .n = 8, .backend = SV_RUNTIME_CPU,
        .schedule = {.kind = SV_SCHEDULE_SEQUENTIAL, .seed = 1}, .runs = 1,
    };
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

static void test_race(void)
{
    sv_ktrace *t = run_file(SV_TEST_KERNELS "/in_place_race.cu");
    CHECK(t->nhazards > 0);
    const sv_khazard *h = &t->hazards[0];
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
    for (int k = 0; k < tip.n; k++) {
        strcat(all, tip.line[k]);
        strcat(all, " | ");
    }
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

int main(int argc, char **argv)
{
    view_test_open(argc, argv, "test_kpane");
    rec = sv_gfx_rec_create();
    dark = sv_theme_get(SV_THEME_DARK);
    need_cpu_runtime(1);
    test_off_by_one();
    test_in_place_last_caption();
    test_race();
    test_two_barriers();
    test_own_names();
    test_compare();
    test_failures();
    test_lab_truth();
    sv_gfx_rec_destroy(rec);
    return view_test_close("all kernel pane checks passed");
}
