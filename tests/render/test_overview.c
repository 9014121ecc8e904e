/* The overview (key V, --overview) from the recorded scene (issue 21 items
 * 4 and 17):
 *  - it fills the height: nothing but the frame's margin below the last
 *    thing drawn, at 1280x720, 1024x768, 1920x1080 and 1600x1200, with and
 *    without --clean (it used to keep an empty band of about 9%);
 *  - it has index numbers: 0..7 under the last block, below every cell;
 *  - each round's title carries its case conditions with its numbers (the
 *    legend has the general ones, i >= 2^r - 1, 2^(r-1) <= i < 2^r - 1,
 *    i < 2^(r-1));
 *  - one float32 notation for the whole trace (10 beside 16777222, not 1e+01).
 * PNGs land in the build directory (overview-*.png). */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "view_test.h"

#include "scene.h"

static sv_gfx_rec *rec;

static bool has_text(const char *needle)
{
    return rec_has_text(rec, needle);
}

static void test_overview(void)
{
    rec = sv_gfx_rec_create();
    sv_app_view s;
    sv_trace *t = view_example(&s);
    s.overview = true;
    s.step = s.from_step = (int)t->nrounds - 1;
    static const int sizes[4][2] = {{1280, 720}, {1024, 768}, {1920, 1080}, {1600, 1200}};
    for (int k = 0; k < 4; k++) {
        for (int clean = 0; clean < 2; clean++) {
            int w = sizes[k][0], h = sizes[k][1];
            s.clean = clean;
            char name[48];
            snprintf(name, sizeof name, "%dx%d%s", w, h, clean ? "-clean" : "");
            view_draw(&s, w, h, rec, "overview-", name);
            /* The lowest ink: rect bottoms, text baselines (plus descenders). */
            float low = 0.0f, cells_low = 0.0f;
            for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
                const sv_prim *q = sv_gfx_rec_prim(rec, i);
                float b = q->kind == SV_PRIM_RECT ? q->box.y + q->box.h
                        : q->kind == SV_PRIM_TEXT ? q->y0 + 0.25f * q->px : 0.0f;
                if (b > low)
                    low = b;
                if (q->kind == SV_PRIM_RECT && q->box.x >= lay.cells_clip.x &&
                    q->box.y + q->box.h < lay.legend.y && q->box.y + q->box.h > cells_low)
                    cells_low = q->box.y + q->box.h;
            }
            float margin = lay.margin;
            CHECK_MSG((float)h - low <= margin + 0.02f * (float)h,
                      "%s: %.0f px empty at the bottom (%.1f%% of the height; margin %.0f)", name,
                      (double)((float)h - low), 100.0 * (h - low) / h, (double)margin);
            /* The index numbers, under the last block's cells. */
            int found = 0;
            float y = -1.0f;
            for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
                const sv_prim *q = sv_gfx_rec_prim(rec, i);
                if (q->kind != SV_PRIM_TEXT || q->font != SV_FONT_MONO || q->y0 <= cells_low)
                    continue;
                char want[16];
                snprintf(want, sizeof want, "%d", found);
                if (strcmp(q->text, want) == 0 && (y < 0.0f || fabsf(q->y0 - y) < 0.5f)) {
                    y = q->y0;
                    found++;
                }
            }
            CHECK_MSG(found == 8, "%s: index numbers 0..%d under the cells (want 0..7)", name,
                      found - 1);
            CHECK_MSG(has_text(" \u00b7 copy-through i < 2 \u00b7 partial 2 \u2264 i < 3 \u00b7 full i "
                               "\u2265 3"), "%s: round 2's conditions", name);
            CHECK_MSG(has_text(" \u00b7 copy-through i < 1 \u00b7 full i \u2265 1"),
                      "%s: round 1's conditions (no partial cell)", name);
            CHECK_MSG(has_text(" \u00b7 copy-through i < 4 \u00b7 partial 4 \u2264 i < 7 \u00b7 full i "
                               "\u2265 7"), "%s: round 3's conditions", name);
        }
    }
    sv_trace_destroy(t);

    /* One float32 notation for the whole trace: 10 beside 16777222 is
     * "10", not "1e+01" (issue 21 item 15d). */
    sv_value fv[4] = {{.f = 16777216.0f}, {.f = 6.0f}, {.f = 4.0f}, {.f = 0.0f}};
    t = view_trace(fv, 4, SV_TYPE_FLOAT32, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    view_of(&s, t);
    s.overview = true;
    view_draw(&s, 1280, 720, rec, "overview-", "float32");
    CHECK_MSG(has_text("16777222") && has_text("10") && !has_text("e+"),
              "float32: one notation (16777222 and 10, no exponent)");
    /* The window's cells too: the last round (pout 16777216 16777222 10 4)
     * beside its pin, in one notation. */
    s.overview = false;
    s.step = (int)t->nrounds - 1;
    view_draw(&s, 1280, 720, rec, "cells-", "float32");
    CHECK_MSG(has_text("16777222") && has_text("10") && !has_text("e+"),
              "float32 cells: one notation (16777222 and 10, no exponent)");
    sv_trace_destroy(t);
    sv_gfx_rec_destroy(rec);
}

int main(int argc, char **argv)
{
    static const view_test_fn tests[] = {test_overview, NULL};
    return view_test_main(argc, argv, "test_overview", tests, "all overview checks passed");
}
