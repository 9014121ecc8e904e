/* Blelloch's picture on the kernel pane (issue 20), from the recorded scene
 * and the words: kernels/blelloch.cu run by the CPU runtime (its shipped
 * build) on the chapter's example, n = 8, exclusive.
 *   - the up-sweep at stride 2: its own words, arrows into t[3] from the
 *     cells it read (t[1] and t[3]), and the subtree ranges marked under
 *     the cells, [0..3] and [4..7] ([0..1] still marked from stride 1);
 *   - the root cleared: a step of its own, its caption, t[7] ringed and
 *     named "root cleared", 0 in it and the empty range marked;
 *   - the down-sweep's swap drawn as a swap: for the pair (t[3], t[7]) one
 *     arrow over the row into t[3] (the parent going left) and one under
 *     it into t[7] (the old left child coming right, added), named "swap",
 *     instead of the two read arrows the recorded writes alone would give;
 *     at stride 2 two swaps; the timeline's labels; the header says
 *     Blelloch; the counters count the tree's combines (2(m - 1) = 14 in 6
 *     steps); the legend explains the marks, not the chapter's cases. */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "view_test.h"

#include "kpane.h"
#include "runtime.h"
#include "words.h"
#include "view_model.h"
#include "../runtime/blelloch_request.h"
#include "../runtime/need_cpu.h"

static sv_gfx_rec *rec;
static const sv_theme *dark;
static const int32_t chapter[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };

static sv_ktrace *run_blelloch(void)
{
    sv_value in[8];
    for (int i = 0; i < 8; i++)
        in[i].i = chapter[i];
    char err[512];
    sv_ktrace *t = blelloch_cpu_run(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, in, 8, err,
                                    sizeof err);
    if (!t || !sv_ktrace_analyze(t, err, sizeof err) || t->failure.kind != SV_KFAIL_NONE) {
        fprintf(stderr, "FAIL: blelloch: %s\n", t && t->failure.message ? t->failure.message : err);
        exit(1);
    }
    return t;
}

static void kview(sv_app_view *v, const sv_ktrace *t, int step)
{
    view_of_ktrace(v, t, step);
}

static void draw(const sv_app_view *v, const char *name)
{
    view_draw(v, 1280, 720, rec, "blelloch-", name);
}

/* The recorded text primitive equal to str, NULL when none was drawn. */
static const sv_prim *text_prim(const char *str)
{
    return rec_find_text(rec, str, false);
}

/* Arrows whose head lands on box dst from above (over = true: near its top)
 * or from below (near its bottom). */
static int arrows_into(sv_box dst, bool over)
{
    int n = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind != SV_PRIM_ARROW || p->x1 < dst.x || p->x1 > dst.x + dst.w)
            continue;
        float edge = over ? dst.y : dst.y + dst.h;
        n += fabsf(p->y1 - edge) < dst.h * 0.3f && (over ? p->y0 < p->y1 : p->y0 > p->y1);
    }
    return n;
}

static int tree_row(const sv_ktrace *t)
{
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    for (int r = 0; r < rows.n; r++)
        if (strcmp(rows.row[r].name, "t") == 0)
            return r;
    return -1;
}

/* A text drawn under cell b (its centre within the cell, below it). */
static bool text_under(const char *str, sv_box b)
{
    const sv_prim *p = text_prim(str);
    return p && p->x0 >= b.x && p->x0 <= b.x + b.w && p->y0 > b.y + b.h;
}

static void test_up_sweep(const sv_ktrace *t, int r)
{
    sv_app_view v;
    kview(&v, t, 2); /* up-sweep, stride 2 */
    draw(&v, "up-2");
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_STR(cw.line1, "up-sweep, stride 2: each right child takes the sum of its pair");
    CHECK_CONTAINS(cw.line2, "its subtree's sum: t[3] [0..3] and t[7] [4..7]");
    sv_box c3 = sv_layout_cell(&lay, r, 3), c7 = sv_layout_cell(&lay, r, 7);
    CHECK_MSG(text_under("[0..3]", c3), "t[3] is not marked [0..3]");
    CHECK_MSG(text_under("[4..7]", c7), "t[7] is not marked [4..7]");
    CHECK_MSG(text_under("[0..1]", sv_layout_cell(&lay, r, 1)), "t[1] keeps its [0..1]");
    CHECK_MSG(text_prim("[0..7]") == NULL, "the total is not there yet");
    /* the reads: t[1] and t[3] into t[3], both hops over the row */
    CHECK_INT(arrows_into(c3, true), 2);
    CHECK_INT(arrows_into(sv_layout_cell(&lay, r, 2), true), 0);
    char lab[32];
    sv_kwords_step_label(t, 2, lab, sizeof lab);
    CHECK_STR(lab, "\u21912");
}

static void test_root(const sv_ktrace *t, int r)
{
    sv_app_view v;
    kview(&v, t, 4);
    draw(&v, "root");
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line1, "the root cleared: t[7], the total [0..7] = 25, takes the identity 0");
    sv_box c7 = sv_layout_cell(&lay, r, 7);
    const sv_prim *p = text_prim("root cleared");
    CHECK_MSG(p && p->y0 < c7.y && p->x0 >= c7.x, "t[7] is not named \"root cleared\" above it");
    CHECK_MSG(text_under("[]", c7), "the root's empty range is not marked");
    CHECK_INT(t->steps[4].cells[0][7].i, 0);
    /* the ring around it, in the accent colour */
    bool ring = false;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *q = sv_gfx_rec_prim(rec, i);
        ring |= q->kind == SV_PRIM_RECT && q->box.x < c7.x && q->box.x + q->box.w > c7.x + c7.w &&
                q->box.y < c7.y && fabsf(q->border.r - dark->accent.r) < 0.004f &&
                fabsf(q->border.g - dark->accent.g) < 0.004f;
    }
    CHECK_MSG(ring, "the root is not ringed");
    char lab[32];
    sv_kwords_step_label(t, 4, lab, sizeof lab);
    CHECK_STR(lab, "root");
}

static void test_swap(const sv_ktrace *t, int r)
{
    sv_app_view v;
    kview(&v, t, 5); /* down-sweep, stride 4: the pair (t[3], t[7]) */
    draw(&v, "down-4");
    sv_caption_words cw;
    CHECK(sv_pane_of(&v)->caption(&v, &cw));
    CHECK_CONTAINS(cw.line1, "down-sweep, stride 4: each pair swaps and adds");
    sv_box c3 = sv_layout_cell(&lay, r, 3), c7 = sv_layout_cell(&lay, r, 7);
    /* the parent's 0 goes left over the row, the old left 11 comes right under it */
    CHECK_INT(arrows_into(c3, true), 1);
    CHECK_INT(arrows_into(c7, false), 1);
    CHECK_INT(arrows_into(c7, true), 0);
    CHECK_MSG(text_prim("swap: 0 \u2190") != NULL, "the swap is not named");
    CHECK_MSG(text_prim("+ 11 \u2192") != NULL, "the add of the old left child is not named");
    CHECK_MSG(text_under("[0..3]", c7), "t[7] now holds everything left of its subtree");
    CHECK_INT(t->steps[5].cells[0][3].i, 0);
    CHECK_INT(t->steps[5].cells[0][7].i, 11);
    kview(&v, t, 6); /* stride 2: two swaps */
    draw(&v, "down-2");
    int swaps = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        swaps += p->kind == SV_PRIM_TEXT && strncmp(p->text, "swap: ", 6) == 0;
    }
    CHECK_INT(swaps, 2);
    CHECK_INT(arrows_into(sv_layout_cell(&lay, r, 1), true), 1);
    CHECK_INT(arrows_into(sv_layout_cell(&lay, r, 5), true), 1);
    /* the counters count the tree's combines by its plan: 7 up, then 1 + 2 */
    char line[256], note[256];
    CHECK(sv_pane_of(&v)->counters(&v, line, sizeof line, note, sizeof note));
    CHECK_CONTAINS(line, "ops this step 2 \u00b7 total 10 (the tree: 2(m \u2212 1) = 14 in 6 steps");
    /* the legend: the range marks and the swap, no chapter cases */
    CHECK_MSG(text_prim("swap:") != NULL, "the legend names the swap");
    CHECK_MSG(text_prim("full window (solid)") == NULL, "no chapter cases in Blelloch's legend");
    const char *title = NULL;
    char rest[256];
    sv_pane_of(&v)->header(&v, &title, rest, sizeof rest);
    CHECK_STR(title, "Blelloch");
}

int main(int argc, char **argv)
{
    view_test_open(argc, argv, "test_blelloch_pane");
    rec = sv_gfx_rec_create();
    dark = sv_theme_get(SV_THEME_DARK);
    need_cpu_runtime(1);
    sv_ktrace *t = run_blelloch();
    CHECK_INT(t->nsteps, 9);
    int r = tree_row(t);
    CHECK_MSG(r > 0, "no row named t");
    if (r > 0) {
        test_up_sweep(t, r);
        test_root(t, r);
        test_swap(t, r);
    }
    sv_ktrace_destroy(t);
    sv_gfx_rec_destroy(rec);
    return view_test_close("all Blelloch pane checks passed");
}
