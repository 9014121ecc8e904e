/* The compare view (issue 20: scanviz --compare blelloch, key B), in the
 * app's logic and in frames drawn headless (SDL's offscreen driver):
 *  - the recorded scene at n = 8 on the chapter's example: both panes (the
 *    Hillis-Steele rows and Blelloch's kernel pane, each with its cells'
 *    pixels), their counters (17 in 3; 22 in 7 inclusive, 14 in 6
 *    exclusive), the trade-off line with
 *    sequential 7 in 7, at every step;
 *  - stepping together, one pane at a time (Tab), Home/End, a timeline's
 *    dot, and B leaving and coming back; a new input runs Blelloch again;
 *  - M from the compare view: the Measure view with the sentence on where
 *    the extra work costs time, computed from the shipped H200 table; Esc
 *    goes back to the compare view;
 *  - the exports (PNG, SVG, GIF) of the compare view, written and not
 *    trivial: both panes' pixels, both counters in the SVG text, the GIF's
 *    frames; and other n and the projector's scales. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app_test.h"
#include "fileio.h"
#include "compare.h"
#include "kpane.h"
#include "export.h"
#include "pane_compare.h"
#include "render_plot.h"

#include "../render/view_test.h"

static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};

/* A compare app on in[n] at 1280x720 (--compare blelloch). */
static bool compare_app(sv_app_state *s, const sv_value *in, size_t n)
{
    sv_app_config c = config(in, n, SV_TYPE_INT32);
    c.compare = true;
    c.animations = false;
    return start_app(s, &c);
}

static void draw_state(const sv_app_state *s, sv_gfx_rec *rec, const char *name)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    view_draw(&v, s->fb_w, s->fb_h, rec, "compare-", name);
}

/* How many pixels of box differ clearly from the background. */
static int inked(sv_box b, sv_rgba bg)
{
    int n = 0;
    for (float y = b.y + 1; y < b.y + b.h - 1; y += 2)
        for (float x = b.x + 1; x < b.x + b.w - 1; x += 2)
            n += dist(at(x, y), bg) > 60;
    return n;
}

/* Whether a recorded text containing needle lies in column box b. */
static bool text_in(const sv_gfx_rec *r, const char *needle, sv_box b)
{
    for (size_t k = 0; k < sv_gfx_rec_count(r); k++) {
        const sv_prim *q = sv_gfx_rec_prim(r, k);
        if (q->kind == SV_PRIM_TEXT && q->text && strstr(q->text, needle) && q->x0 >= b.x &&
            q->x0 <= b.x + b.w && q->y0 >= b.y && q->y0 <= b.y + b.h)
            return true;
    }
    return false;
}

static void layout_of(const sv_app_state *s, sv_cmp_layout *c)
{
    sv_app_view v;
    sv_layout l;
    sv_app_view_of(s, &v);
    sv_layout_compute(&v, s->fb_w, s->fb_h, &l);
    sv_cmp_layout_compute(&v, &l, c);
}

/* The scene at n = 8: both panes, their counters, the trade-off line. */
static void test_scene(void)
{
    sv_app_state s;
    if (!compare_app(&s, chapter, 8))
        return;
    CHECK(s.compare && s.cmp_ktrace != NULL);
    CHECK_INT(sv_view_steps(s.trace), 4);           /* round 0 .. 3 */
    CHECK_INT(sv_kpane_steps(s.cmp_ktrace), 9);     /* staging, 3 up, root, 3 down, out */
    sv_gfx_rec *rec = sv_gfx_rec_create();
    draw_state(&s, rec, "n8-step0");
    sv_cmp_layout c;
    layout_of(&s, &c);
    const sv_rgba bg = sv_theme_get(s.theme)->bg;
    for (int k = 0; k < 2; k++) {
        /* the cells of both panes: the input's first cell, 3, drawn in each */
        sv_box cell = sv_layout_cell(&c.pane[k], 0, 0);
        CHECK_MSG(cell.w > 10 && cell.x >= c.col[k].x && cell.x + cell.w <= c.col[k].x + c.col[k].w,
                  "pane %d: cell 0 at %.0f (w %.0f)", k, cell.x, cell.w);
        CHECK_MSG(inked(cell, bg) > 20, "pane %d: the input's cell 0 has no pixels", k);
        CHECK_MSG(inked(c.pane[k].rows_area, bg) > 500, "pane %d: %d inked pixels", k,
                  inked(c.pane[k].rows_area, bg));
        CHECK(text_in(rec, "ops this step 0 \xc2\xb7 total 0 \xc2\xb7 depth 0", c.col[k]));
    }
    CHECK(rec_has_text(rec, "Hillis-Steele beside Blelloch")); /* the header */
    CHECK(text_in(rec, "Hillis-Steele (the chapter's kernel)", c.col[0]));
    CHECK(text_in(rec, "Blelloch (work-efficient", c.col[1]));
    CHECK(text_in(rec, "whole run: 17 adds in 3 rounds", c.col[0]));
    CHECK(text_in(rec, "whole run: 22 adds in 7 steps", c.col[1])); /* 14 + the output's 8 */
    CHECK(text_in(rec, "stepping (both)", c.col[0]) && text_in(rec, "stepping (both)", c.col[1]));
    CHECK(rec_has_text(rec, "n = 8, inclusive scan: Hillis-Steele 17 ops in 3 rounds, "
                            "Blelloch 22 in 7 steps"));
    /* Right twice: both panes at step 2, each counted */
    key(&s, SDLK_RIGHT, 0);
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.cmp_step[0] == 2 && s.cmp_step[1] == 2);
    CHECK(s.step == 0); /* the rounds' own step stays */
    draw_state(&s, rec, "n8-step2");
    CHECK(text_in(rec, "ops this step 6 \xc2\xb7 total 13 \xc2\xb7 depth 2", c.col[0]));
    CHECK(text_in(rec, "ops this step 2 \xc2\xb7 total 6 \xc2\xb7 depth 2", c.col[1]));
    CHECK(text_in(rec, "round 2, stride 2", c.col[0]));
    CHECK(text_in(rec, "up-sweep, stride 2: each right child takes the sum of its pair",
                  c.col[1]));
    /* End: Hillis-Steele's last round, Blelloch's copy out, the totals */
    key(&s, SDLK_END, 0);
    CHECK(s.cmp_step[0] == 3 && s.cmp_step[1] == 8);
    draw_state(&s, rec, "n8-end");
    CHECK(text_in(rec, "ops this step 4 \xc2\xb7 total 17 \xc2\xb7 depth 3", c.col[0]));
    /* the inclusive output's n adds counted in its step and the total (issue 28) */
    CHECK(text_in(rec, "ops this step 8 \xc2\xb7 total 22 \xc2\xb7 depth 7", c.col[1]));
    CHECK(text_in(rec, "the output: out[i] = t[i] + in[i]", c.col[1]));
    CHECK(text_in(rec, "whole run: 22 adds in 7 steps", c.col[1]));
    /* the exclusive scan: the output a copy, the tree's 14 in 6 */
    key(&s, SDLK_x, 0);
    CHECK(s.trace->scan == SV_SCAN_EXCLUSIVE);
    key(&s, SDLK_END, 0);
    draw_state(&s, rec, "n8-end-exclusive");
    CHECK(text_in(rec, "ops this step 0 \xc2\xb7 total 14 \xc2\xb7 depth 6", c.col[1]));
    CHECK(text_in(rec, "whole run: 14 adds in 6 steps", c.col[1]));
    CHECK(rec_has_text(rec, "n = 8, exclusive scan: Hillis-Steele 17 ops in 3 rounds, "
                            "Blelloch 14 in 6 steps"));
    /* Blelloch's output is the scan: the trace's own verdict */
    CHECK_INT(s.cmp_ktrace->first_wrong, -1);
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);
}

/* Together, one at a time (Tab), the timeline, B out and back, new input. */
static void test_stepping(void)
{
    sv_app_state s;
    if (!compare_app(&s, chapter, 8))
        return;
    key(&s, SDLK_TAB, 0); /* Hillis-Steele alone */
    CHECK_INT(s.cmp_focus, SV_CMP_HS);
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.cmp_step[0] == 1 && s.cmp_step[1] == 0);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    draw_state(&s, rec, NULL);
    sv_cmp_layout c;
    layout_of(&s, &c);
    CHECK(text_in(rec, "stepping", c.col[0]) && !text_in(rec, "stepping", c.col[1]));
    key(&s, SDLK_TAB, 0); /* Blelloch alone */
    CHECK_INT(s.cmp_focus, SV_CMP_BLELLOCH);
    key(&s, SDLK_RIGHT, 0);
    key(&s, SDLK_RIGHT, 0);
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.cmp_step[0] == 1 && s.cmp_step[1] == 3);
    CHECK(line_has(&s, " compare=1,3:blelloch "));
    draw_state(&s, rec, NULL);
    CHECK(!text_in(rec, "stepping", c.col[0]) && text_in(rec, "stepping", c.col[1]));
    key(&s, SDLK_LEFT, 0);
    CHECK(s.cmp_step[0] == 1 && s.cmp_step[1] == 2);
    key(&s, SDLK_TAB, 0); /* both again */
    CHECK_INT(s.cmp_focus, SV_CMP_BOTH);
    key(&s, SDLK_HOME, 0);
    CHECK(s.cmp_step[0] == 0 && s.cmp_step[1] == 0);
    for (int i = 0; i < 20; i++) /* each stops at its own last step */
        key(&s, SDLK_RIGHT, 0);
    CHECK(s.cmp_step[0] == 3 && s.cmp_step[1] == 8);
    /* a click on Blelloch's dot 4 (the root cleared) */
    layout_of(&s, &c);
    click_at(&s, c.dot_x[1][4], c.dot_y[1]);
    CHECK(s.cmp_step[0] == 3 && s.cmp_step[1] == 4);
    /* B leaves: Right steps the rounds again; B comes back at step 0 */
    key(&s, SDLK_b, 0);
    CHECK(!s.compare);
    CHECK(line_has(&s, " compare=off "));
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.step == 1);
    draw_state(&s, rec, NULL);
    CHECK(!rec_has_text(rec, "whole run:"));
    key(&s, SDLK_b, 0);
    CHECK(s.compare && s.cmp_step[0] == 0 && s.cmp_step[1] == 0);
    /* a new input (Ctrl+3: n = 13): Blelloch runs again on it */
    key(&s, SDLK_3, KMOD_CTRL);
    CHECK_INT(s.trace->n, 13);
    CHECK(s.cmp_ktrace && s.cmp_ktrace->n == 13);
    CHECK_INT(sv_kpane_steps(s.cmp_ktrace), 2 * 4 + 3); /* m = 16 */
    draw_state(&s, rec, NULL);
    CHECK(rec_has_text(rec, "whole run: 43 adds in 9 steps")); /* 2 (16 - 1) + 13 */
    /* Esc closes the compare view (after nothing else is open) */
    key(&s, SDLK_ESCAPE, 0);
    CHECK(!s.compare && !s.quit);
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);
}

/* Lines drawn in algo's own colour (its curves, its legend's sample). */
static int lines_of(const sv_gfx_rec *r, const char *algo, sv_theme_id theme)
{
    sv_rgba c = sv_plot_algo_color(algo, sv_theme_get(theme));
    int n = 0;
    for (size_t k = 0; k < sv_gfx_rec_count(r); k++) {
        const sv_prim *q = sv_gfx_rec_prim(r, k);
        n += q->kind == SV_PRIM_LINE && fabsf(q->fill.r - c.r) < 1e-3f &&
             fabsf(q->fill.g - c.g) < 1e-3f && fabsf(q->fill.b - c.b) < 1e-3f;
    }
    return n;
}

/* M from the compare view: the Measure view and where the work costs time. */
static void test_measure_key(void)
{
    sv_app_state s;
    if (!compare_app(&s, chapter, 8))
        return;
    CHECK(s.bench != NULL);
    key(&s, SDLK_m, 0);
    CHECK(s.view == SV_VIEW_MEASURE && s.cmp_measure);
    sv_compare_cost cost;
    char want[768];
    CHECK(sv_compare_cost_words(s.bench, &cost, want, sizeof want));
    /* the shipped H200 table: Blelloch is faster from 262,144 on, and at
     * the largest n, 2^28, the chapter's kernel takes longer */
    CHECK(cost.crossover_n == 262144.0 && cost.below_n == 131072.0);
    CHECK(cost.top_n == 268435456.0 && cost.top_hs_us > cost.top_bl_us);
    CHECK_CONTAINS(want, "from n = 262,144 on they cost more");
    sv_gfx_rec *rec = sv_gfx_rec_create();
    draw_state(&s, rec, "measure");
    CHECK(rec_has_text(rec, "Measured on NVIDIA H200 (int32, device-wide)"));
    CHECK(rec_has_text(rec, "262,144"));
    /* its two algorithms' curves in their colours, the others pale */
    int cub_focus = lines_of(rec, "cub", s.theme), bl_focus = lines_of(rec, "blelloch", s.theme);
    int hsn_focus = lines_of(rec, "hs-naive", s.theme);
    /* Esc: back to the compare view, which stays on */
    key(&s, SDLK_ESCAPE, 0);
    CHECK(s.view == SV_VIEW_SCAN && s.compare && !s.cmp_measure);
    /* M outside the compare view: the plain Measure view, no sentence */
    key(&s, SDLK_b, 0);
    key(&s, SDLK_m, 0);
    CHECK(s.view == SV_VIEW_MEASURE && !s.cmp_measure);
    draw_state(&s, rec, NULL);
    CHECK(!rec_has_text(rec, "Measured on NVIDIA H200 (int32"));
    CHECK_MSG(lines_of(rec, "cub", s.theme) > cub_focus + 5, "cub: %d lines, %d in focus",
              lines_of(rec, "cub", s.theme), cub_focus);
    CHECK_MSG(cub_focus <= 8 && bl_focus > 5 && hsn_focus > 5, /* the legend's only */
              "in focus: cub %d lines, blelloch %d, hs-naive %d", cub_focus, bl_focus, hsn_focus);
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);
}

static long file_size(const char *dir, const char *name)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* dir/name's text (the caller frees it), NULL with a failed check. */
static char *slurp(const char *dir, const char *name)
{
    char path[700], err[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len = 0;
    char *text = sv_read_bounded(path, 8u << 20, "an exported SVG", &len, err, sizeof err);
    CHECK_MSG(text != NULL, "%s", err);
    return text;
}

/* The exports of the compare view: PNG, SVG, GIF. */
static void test_exports(void)
{
    sv_app_state s;
    if (!compare_app(&s, chapter, 8))
        return;
    char dir[512];
    check_tmpdir(dir, sizeof dir, "compare-export");
    sv_app_view v;
    sv_app_view_of(&s, &v);
    char err[512];
    int count = 0;
    CHECK_MSG(sv_export_rounds(g, &v, dir, 1280, 720, &count, err, sizeof err), "%s", err);
    CHECK_INT(count, 9); /* the longer pane's steps: Blelloch's 9 */
    CHECK(file_size(dir, "round-00.png") > 20000 && file_size(dir, "round-08.png") > 20000);
    CHECK_MSG(sv_export_svg(g, &v, dir, 1280, 720, &count, err, sizeof err), "%s", err);
    CHECK_INT(count, 10);
    char *svg = slurp(dir, "round-02.svg");
    if (svg) {
        CHECK_CONTAINS(svg, "ops this step 6 \xc2\xb7 total 13 \xc2\xb7 depth 2");
        CHECK_CONTAINS(svg, "ops this step 2 \xc2\xb7 total 6 \xc2\xb7 depth 2");
        CHECK_CONTAINS(svg, "Hillis-Steele beside Blelloch");
    }
    free(svg);
    svg = slurp(dir, "round-08.svg"); /* Hillis-Steele held at its last round */
    if (svg) {
        CHECK_CONTAINS(svg, "ops this step 4 \xc2\xb7 total 17 \xc2\xb7 depth 3");
        CHECK_CONTAINS(svg, "ops this step 8 \xc2\xb7 total 22 \xc2\xb7 depth 7");
    }
    free(svg);
    char gif[600];
    snprintf(gif, sizeof gif, "%s/compare.gif", dir);
    sv_export_gif_info gi;
    CHECK_MSG(sv_export_gif(g, &v, gif, 640, 360, 4.0f, &gi, err, sizeof err), "%s", err);
    CHECK_MSG(gi.frames >= 9 && gi.bytes > 10000, "GIF: %d frames, %zu bytes", gi.frames,
              gi.bytes);
    /* the PNG's pixels: both panes drawn (the frame the export draws) */
    v.cmp_step[0] = v.cmp_step[1] = 2;
    view_draw(&v, 1280, 720, NULL, "compare-", "export-step2");
    sv_cmp_layout c;
    sv_layout l;
    sv_layout_compute(&v, 1280, 720, &l);
    sv_cmp_layout_compute(&v, &l, &c);
    for (int k = 0; k < 2; k++)
        CHECK_MSG(inked(c.pane[k].rows_area, sv_theme_get(v.theme)->bg) > 500,
                  "exported pane %d is empty", k);
    sv_app_cleanup(&s);
}

/* Other n and the projector's scales: the panes fit their columns, the
 * words are there, every n's counts are the closed form's. */
static void test_sizes_and_scales(void)
{
    static sv_value in[1024];
    static const size_t ns[] = { 1, 2, 13, 100, 1024 };
    static const float scales[] = { 1.0f, 1.5f, 2.0f, 3.0f };
    sv_gfx_rec *rec = sv_gfx_rec_create();
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
        for (size_t i = 0; i < ns[a]; i++)
            in[i].i = (int32_t)(i % 7);
        sv_app_state s;
        if (!compare_app(&s, in, ns[a]))
            continue;
        CHECK_MSG(s.cmp_ktrace != NULL, "n %zu: %s", ns[a], s.cmp_error);
        for (size_t k = 0; k < sizeof scales / sizeof *scales; k++) {
            s.ui_scale = scales[k];
            key(&s, SDLK_END, 0);
            draw_state(&s, rec, NULL);
            sv_cmp_layout c;
            layout_of(&s, &c);
            char run[80], want[96];
            sv_compare_run_words(SV_COMPARE_BLELLOCH, ns[a], true, "adds", run, sizeof run);
            snprintf(want, sizeof want, "whole run: %s", run);
            CHECK_MSG(rec_has_text(rec, want), "n %zu scale %.1f: no \"%s\"", ns[a],
                      (double)scales[k], want);
            for (int p = 0; p < 2; p++) {
                sv_box r = c.pane[p].rows_area, col = c.col[p];
                CHECK_MSG(r.x >= col.x && r.x + r.w <= col.x + col.w + 0.5f && r.h > 20,
                          "n %zu scale %.1f: pane %d outside its column", ns[a],
                          (double)scales[k], p);
                CHECK_MSG(c.steps[p] >= 1 && c.dot_x[p][c.steps[p] - 1] <= col.x + col.w,
                          "n %zu scale %.1f: timeline %d leaves its column", ns[a],
                          (double)scales[k], p);
            }
        }
        sv_app_cleanup(&s);
    }
    sv_gfx_rec_destroy(rec);
}

/* A mistake beside Blelloch: its pane counts what its run did (off-by-one's
 * guard skips one add a round: 6 + 5 + 3 = 14, not the chapter's 17), under
 * its own name, and the trade-off line says the same. */
static void test_mistake(void)
{
    char err[256] = "";
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.compare = true;
    c.animations = false;
    CHECK_MSG(sv_kernel_parse("off-by-one", &c.kernel, err, sizeof err), "%s", err);
    sv_app_state s;
    if (!start_app(&s, &c))
        return;
    sv_gfx_rec *rec = sv_gfx_rec_create();
    key(&s, SDLK_END, 0);
    draw_state(&s, rec, "mistake-end");
    CHECK(rec_has_text(rec, "Hillis-Steele: off-by-one (a mistake)"));
    CHECK(rec_has_text(rec, "whole run: 14 adds in 3 rounds"));
    CHECK(!rec_has_text(rec, "17 adds"));
    CHECK(rec_has_text(rec, "n = 8, inclusive scan: Hillis-Steele 14 ops in 3 rounds, Blelloch 22 "
                            "in 7 steps"));
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);
}

/* The texts drawn in box b, top to bottom, joined by spaces into out. */
static void texts_in(const sv_gfx_rec *r, sv_box b, char *out, size_t len)
{
    size_t u = 0;
    out[0] = '\0';
    float last = -1e9f;
    for (int pass = 0; pass < 8; pass++) { /* up to 8 lines, each the next y below the last */
        float y = 1e9f;
        for (size_t k = 0; k < sv_gfx_rec_count(r); k++) {
            const sv_prim *q = sv_gfx_rec_prim(r, k);
            if (q->kind == SV_PRIM_TEXT && q->y0 > last + 0.5f && q->y0 < y && q->y0 >= b.y &&
                q->y0 <= b.y + b.h && q->x0 >= b.x - 1 && q->x0 <= b.x + b.w)
                y = q->y0;
        }
        if (y == 1e9f)
            break;
        for (size_t k = 0; k < sv_gfx_rec_count(r); k++) {
            const sv_prim *q = sv_gfx_rec_prim(r, k);
            if (q->kind == SV_PRIM_TEXT && fabsf(q->y0 - y) < 0.5f && q->x0 >= b.x - 1 &&
                q->x0 <= b.x + b.w && u < len)
                u += (size_t)snprintf(out + u, len - u, "%s%s", u ? " " : "", q->text);
        }
        last = y;
    }
}

/* The trade-off line at 1024x768 (the lecturer's projector), drawn whole:
 * every claim it makes is read, none cut off (issue 28). */
static void test_tradeoff_drawn_whole(void)
{
    static sv_value in[128];
    static const size_t ns[] = { 3, 8, 10, 17, 100 };
    sv_gfx_rec *rec = sv_gfx_rec_create();
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
        for (size_t i = 0; i < ns[a]; i++)
            in[i].i = (int32_t)(i % 5);
        sv_app_state s;
        if (!compare_app(&s, in, ns[a]))
            continue;
        sv_app_resize(&s, 1024, 768, 1024, 768);
        draw_state(&s, rec, NULL);
        sv_cmp_layout c;
        layout_of(&s, &c);
        sv_app_view v;
        sv_app_view_of(&s, &v);
        char want[512], got[1024];
        sv_cmp_tradeoff_of(&v, want, sizeof want);
        texts_in(rec, c.tradeoff, got, sizeof got);
        CHECK_MSG(strcmp(got, want) == 0, "n %zu at 1024x768: drawn \"%s\", the line \"%s\"",
                  ns[a], got, want);
        sv_app_cleanup(&s);
    }
    sv_gfx_rec_destroy(rec);
}

int main(int argc, char **argv)
{
    static const view_test_fn tests[] = {
        test_scene, test_stepping, test_measure_key, test_exports, test_sizes_and_scales,
        test_mistake, test_tradeoff_drawn_whole, NULL,
    };
    return view_test_main(argc, argv, "test_app_compare", tests,
                          "the compare view: both panes, counters, stepping, Measure, exports");
}
