/* Slides (issue 10): what a frame draws, read from the recorded scene (the
 * same calls the GL back end rasterises, gfx.h "the second back end"):
 * text sizes against the window height at every aspect ratio, the index
 * line, the output row's band and its centred label, a clean slide, float32
 * values as the shortest round-trip decimal, thicker lines in the contrast
 * theme, the operands of a move, large n, the overview. */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "view_test.h"
#include "../../src/core/table.h"

static sv_gfx_rec *rec;

/* The emulator's trace of in[0..n) as type (int32 values are whole). */
static sv_trace *make_trace_t(const double *in, size_t n, sv_type type, sv_op op, sv_scan scan)
{
    sv_value *v = calloc(n, sizeof *v);
    CHECK(v != NULL);
    for (size_t i = 0; v && i < n; i++) {
        if (type == SV_TYPE_FLOAT32)
            v[i].f = (float)in[i];
        else
            v[i].i = (int32_t)in[i];
    }
    sv_trace *t = view_trace(v, n, type, op, scan);
    free(v);
    return t;
}

static void make_state(sv_app_view *s, sv_trace *t)
{
    view_of(s, t);
}

/* A view of the chapter's example settled at step (its trace, which the
 * caller destroys). */
static sv_trace *chapter_view(sv_app_view *s, int step)
{
    static const int32_t ch[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };
    sv_trace *t = view_trace_i32(ch, 8, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    view_of(s, t);
    s->step = s->from_step = step;
    return t;
}

/* Draws s at w x h into an offscreen target with the recorder attached;
 * with a name, also writes out_dir/slides-NAME.png for a look. */
static void draw_png(const sv_app_view *s, int w, int h, const char *name)
{
    view_draw(s, w, h, rec, "slides-", name);
}

static void draw(const sv_app_view *s, int w, int h)
{
    draw_png(s, w, h, NULL);
}

/* The first recorded text equal to (or, prefix: starting with) str. */
static const sv_prim *find_text(const char *str, bool prefix)
{
    return rec_find_text(rec, str, prefix);
}

static bool any_text_contains(const char *str)
{
    return rec_has_text(rec, str);
}

static float text_left(const sv_prim *p)
{
    return p->align == SV_ALIGN_CENTER ? p->x0 - p->advance / 2.0f
         : p->align == SV_ALIGN_RIGHT  ? p->x0 - p->advance : p->x0;
}

/* ---- 5: projector legibility, any aspect ratio ------------------------ */

static void test_legibility(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 2);
    static const int sizes[][2] = { { 1280, 720 }, { 1024, 768 }, { 1280, 800 }, { 1920, 1080 },
                                    { 1600, 1200 }, { 800, 600 }, { 3840, 2160 } };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        draw(&s, w, h);
        const sv_prim *cap = find_text("Round 2, stride 2", true);
        const sv_prim *ops = find_text("ops this round", true);
        const sv_prim *leg = find_text("full window (solid)", false);
        CHECK_MSG(cap && cap->px >= 0.034f * (float)h * 0.8f, "%dx%d: caption %.1f px", w, h,
              cap ? (double)cap->px : 0.0);
        /* 16:9 and wider: the caption keeps its full size (it wraps instead). */
        if ((float)w / (float)h > 1.7f)
            CHECK_MSG(cap && cap->px >= floorf(0.036f * (float)h) - 1.0f, "%dx%d: caption %.1f px "
                  "shrank", w, h, cap ? (double)cap->px : 0.0);
        CHECK_MSG(ops && ops->px >= 0.022f * (float)h, "%dx%d: ops line %.1f px", w, h,
              ops ? (double)ops->px : 0.0);
        CHECK_MSG(leg && leg->px >= 0.021f * (float)h, "%dx%d: legend %.1f px", w, h,
              leg ? (double)leg->px : 0.0);
        CHECK_MSG(lay.num_px >= 0.035f * (float)h, "%dx%d: numbers %.1f px", w, h,
              (double)lay.num_px);
        /* No empty bands: the cells span most of the width, the rows most of the height. */
        sv_box a = sv_layout_cell(&lay, 0, 0), z = sv_layout_cell(&lay, 3, 7);
        CHECK_MSG(z.x + z.w - a.x >= 0.68f * (float)w, "%dx%d: cells span %.0f px", w, h,
              (double)(z.x + z.w - a.x));
        CHECK_MSG(z.y + z.h - a.y >= 0.45f * (float)h, "%dx%d: rows span %.0f px", w, h,
              (double)(z.y + z.h - a.y));
        /* Nothing leaves the frame. */
        for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, i);
            if (p->kind != SV_PRIM_TEXT)
                continue;
            float l0 = text_left(p);
            CHECK_MSG(l0 >= -0.5f && l0 + p->advance <= (float)w + 0.5f, "%dx%d: \"%s\" spans "
                  "%.0f..%.0f", w, h, p->text, (double)l0, (double)(l0 + p->advance));
        }
    }
    /* The UI scale keeps making things bigger past 1.3 (it used to stop):
     * the cells (issue 21: on a projector they are the content) and the
     * text (issue 28: its floor grows with the scale, as far as the cells
     * keep 90 % of their height), both at every step. */
    float ops_px[3], num_px[3];
    const float scales[3] = { 1.0f, 1.3f, 1.8f };
    for (int k = 0; k < 3; k++) {
        s.ui_scale = scales[k];
        draw(&s, 1280, 720);
        const sv_prim *ops = find_text("ops this round", true);
        ops_px[k] = ops ? ops->px : 0.0f;
        num_px[k] = lay.num_px;
    }
    CHECK_MSG(num_px[1] > num_px[0] && num_px[2] > num_px[1] * 1.1f,
          "numbers at ui 1, 1.3, 1.8: %.0f %.0f %.0f", (double)num_px[0], (double)num_px[1],
          (double)num_px[2]);
    CHECK_MSG(ops_px[1] > ops_px[0] && ops_px[2] > ops_px[1],
          "ops line at ui 1, 1.3, 1.8: %.0f %.0f %.0f", (double)ops_px[0], (double)ops_px[1],
          (double)ops_px[2]);
    sv_trace_destroy(t);
}

/* ---- index numbers, the output row (8) ----------------------------------- */

static void test_indices_and_output(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 1);
    draw(&s, 1280, 720);
    for (int i = 0; i < 8; i++) {
        char num[8];
        snprintf(num, sizeof num, "%d", i);
        sv_box b = sv_layout_cell(&lay, 3, i);
        bool found = false;
        for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, k);
            if (p->kind == SV_PRIM_TEXT && strcmp(p->text, num) == 0 && p->font == SV_FONT_MONO &&
                fabsf(p->x0 - (b.x + b.w / 2.0f)) < 0.5f && p->y0 > b.y + b.h)
                found = true;
        }
        CHECK_MSG(found, "no index %d under output cell %d", i, i);
    }
    /* 8: the label is centred on the row, over one band, not two cells. */
    const sv_prim *m = find_text("written after the last round", false);
    sv_box a = sv_layout_cell(&lay, 3, 0), z = sv_layout_cell(&lay, 3, 7);
    CHECK_MSG(m && fabsf(m->x0 - (a.x + z.x + z.w) / 2.0f) < 1.0f && m->align == SV_ALIGN_CENTER,
          "label at %.1f, row centre %.1f", m ? (double)m->x0 : -1.0,
          (double)((a.x + z.x + z.w) / 2.0f));
    int bands = 0, out_cells = 0;
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        if (p->kind != SV_PRIM_RECT || fabsf(p->box.y - a.y) > 0.5f || fabsf(p->box.h - a.h) > 0.5f)
            continue;
        if (fabsf(p->box.x - a.x) < 0.5f && fabsf(p->box.x + p->box.w - (z.x + z.w)) < 0.5f)
            bands++;
        else if (fabsf(p->box.w - a.w) < 0.5f)
            out_cells++;
    }
    CHECK_MSG(bands == 1 && out_cells == 0, "output row: %d bands, %d cells", bands, out_cells);
    /* The last round writes the row: eight cells, no band, no label. */
    s.step = s.from_step = 3;
    draw(&s, 1280, 720);
    CHECK_MSG(!find_text("written after the last round", false), "label after the last round");
    sv_trace_destroy(t);

    /* n = 1024: indices thinned so that none touch. */
    double *in = malloc(1024 * sizeof *in);
    for (int i = 0; i < 1024; i++)
        in[i] = (i * 7) % 10;
    t = make_trace_t(in, 1024, SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    free(in);
    make_state(&s, t);
    draw(&s, 1920, 1080);
    float last_right = -1e9f;
    int shown = 0;
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        if (p->kind != SV_PRIM_TEXT || p->font != SV_FONT_MONO ||
            fabsf(p->y0 - lay.index_y) > lay.index_px)
            continue;
        float l0 = text_left(p);
        CHECK_MSG(l0 > last_right, "index \"%s\" touches the one before", p->text);
        last_right = l0 + p->advance;
        shown++;
    }
    CHECK_MSG(shown >= 5 && shown <= 60, "%d index labels at n = 1024", shown);
    sv_trace_destroy(t);
}

/* ---- --clean ------------------------------------------------------------- */

static void test_clean(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 0);
    s.source = "CUDA \u00b7 NVIDIA H200";
    draw(&s, 1280, 720);
    CHECK_MSG(find_text("?", false) && any_text_contains("Space play") &&
              find_text("CUDA \u00b7 NVIDIA H200", false), "the window's frame lacks a part");
    s.clean = true;
    draw(&s, 1280, 720);
    CHECK_MSG(!any_text_contains("Space play") && !any_text_contains("H help"), "key hints on a clean slide");
    CHECK_MSG(find_text("CUDA \u00b7 H200", false) != NULL, "short backend missing");
    /* no [?]: the only "?" texts would be uninitialized cells (round 0: buf[1]) */
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        if (p->kind == SV_PRIM_TEXT && strcmp(p->text, "?") == 0)
            CHECK_MSG(p->font == SV_FONT_MONO, "a [?] on a clean slide");
    }
    s.source = "CPU emulator: built without CUDA";
    draw(&s, 1280, 720);
    CHECK_MSG(find_text("CPU emulator", false) != NULL && !any_text_contains("without CUDA"),
          "short emulator line");
    sv_trace_destroy(t);
}

/* ---- float32 values ------------------------------------------------------ */

static void test_float_decimal(void)
{
    static const double in[4] = { 1e8, 8, 0.1, 3 };
    sv_trace *t = make_trace_t(in, 4, SV_TYPE_FLOAT32, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    sv_app_view s;
    make_state(&s, t);
    s.step = s.from_step = (int)t->nrounds - 1;
    draw(&s, 1280, 720);
    /* 1e8 + 8 = 100000008 as float32: its round-trip digits (1.0000001e+08
     * in the JSON), never the rounded 1e+08; the cells write every value of
     * the trace in one notation (issue 21 item 15d), here positional, so
     * 100000008. Every output cell shows exactly sv_value_format_as of its
     * value in the trace's style. */
    CHECK_MSG(find_text("100000008", false) != NULL && !any_text_contains("1e+08"),
              "1e8 + 8 not shown as 100000008");
    sv_float_style style = sv_trace_float_style(t);
    for (int i = 0; i < 4; i++) {
        char want[48];
        sv_value_format_as(SV_TYPE_FLOAT32, t->output[i], style, want, sizeof want);
        sv_box b = sv_layout_cell(&lay, 3, i);
        bool found = false;
        for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, k);
            if (p->kind == SV_PRIM_TEXT && p->font == SV_FONT_MONO &&
                fabsf(p->x0 - (b.x + b.w / 2.0f)) < 0.5f && p->y0 > b.y && p->y0 < b.y + b.h)
                found = strcmp(p->text, want) == 0;
        }
        CHECK_MSG(found, "output[%d] not shown as %s", i, want);
    }
    CHECK_MSG(find_text("0.1", false) != NULL, "0.1 not shown as 0.1");
    sv_trace_destroy(t);
}

/* ---- 4: thicker lines in the contrast theme ----------------------------- */

static float max_arrow_width(void)
{
    float w = 0.0f;
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        if (p->kind == SV_PRIM_ARROW && p->width > w)
            w = p->width;
    }
    return w;
}

static void test_contrast_lines(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 2);
    draw(&s, 1280, 720);
    float dark = max_arrow_width();
    s.theme = SV_THEME_CONTRAST;
    draw(&s, 1280, 720);
    float hc = max_arrow_width();
    CHECK_MSG(dark > 0.0f && hc >= dark * 1.5f, "arrow width dark %.2f, contrast %.2f", (double)dark,
          (double)hc);
    sv_trace_destroy(t);
}

/* ---- 6: operands move together into pout[i] --------------------------- */

static bool text_in(const char *str, sv_box b)
{
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        if (p->kind == SV_PRIM_TEXT && strcmp(p->text, str) == 0 && p->x0 >= b.x &&
            p->x0 <= b.x + b.w && p->y0 >= b.y && p->y0 <= b.y + b.h + p->px)
            return true;
    }
    return false;
}

static void test_operands(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 0);
    /* Round 1 -> 2: pin = buf[1] = 3 4 8 7 4 5 7 9, pout = buf[0] held the input. */
    s.step = 2;
    s.from_step = 1;
    s.anim = 0.25f;
    draw_png(&s, 1280, 720, "move-25");
    sv_box p3 = sv_layout_cell(&lay, 1, 3);
    CHECK_MSG(text_in("0", p3), "pout[3] does not show its old value 0 while the operands travel");
    /* Both operands of pout[3] (pin[1] = 4, pin[3] = 7) are on their way:
     * between the rows, left of and at cell 3. */
    sv_box gap = { sv_layout_cell(&lay, 2, 1).x, p3.y + p3.h, p3.x + p3.w -
                   sv_layout_cell(&lay, 2, 1).x, sv_layout_cell(&lay, 2, 3).y - p3.y - p3.h };
    CHECK_MSG(text_in("4", gap) && text_in("7", gap), "operands 4 and 7 not between the rows");
    s.anim = 0.7f;
    draw_png(&s, 1280, 720, "move-70");
    CHECK_MSG(find_text("4 + 7", false) != NULL, "the pair 4 + 7 does not meet at pout[3]");
    CHECK_MSG(find_text("3 + 8", false) != NULL && find_text("5 + 9", false) != NULL,
          "pairs of pout[2], pout[7] missing");
    CHECK_MSG(text_in("0", p3), "pout[3]'s old value gone before the pair arrives");
    CHECK_MSG(!find_text("3 3", false) && !find_text("1 1", false), "identical values side by side");
    /* max: the pair reads max(a, b). */
    sv_trace_destroy(t);
    static const double ch[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };
    t = make_trace_t(ch, 8, SV_TYPE_INT32, SV_OP_MAX, SV_SCAN_INCLUSIVE);
    make_state(&s, t);
    s.step = 1;
    s.from_step = 0;
    s.anim = 0.7f;
    draw(&s, 1280, 720);
    CHECK_MSG(find_text("max(3, 1)", false) != NULL, "max pair");
    s.anim = 1.0f;
    s.from_step = 1;
    draw(&s, 1280, 720);
    CHECK_MSG(!find_text("max(3, 1)", false), "a pair left after the move");
    sv_trace_destroy(t);
}

/* ---- 7: n >= 300 -------------------------------------------------------- */

static int count_kind(sv_prim_kind kind)
{
    int n = 0;
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++)
        n += sv_gfx_rec_prim(rec, k)->kind == kind;
    return n;
}

static void test_large_n(void)
{
    double *in = malloc(600 * sizeof *in);
    for (int i = 0; i < 600; i++)
        in[i] = (i * 7) % 10;
    sv_trace *t = make_trace_t(in, 600, SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    free(in);
    sv_app_view s;
    make_state(&s, t);
    s.step = s.from_step = 9; /* stride 256: copy 0-255, partial 256-510, full 511-599 */
    draw_png(&s, 1280, 720, "n600");
    CHECK_MSG(lay.num_px <= 0.0f, "n = 600 at 720p has numbers?");
    CHECK_MSG(find_text("copy-through 0\u2013255", false) && find_text("partial 256\u2013510", false) &&
              find_text("full 511\u2013599", false), "case bands are not labelled");
    /* A sample of arrows: the middle of each band (copy: 1 arrow, the others 2). */
    CHECK_MSG(count_kind(SV_PRIM_ARROW) == 5, "%d arrows, want 5 (a sample)", count_kind(SV_PRIM_ARROW));
    /* Hovering pout[400]: its two arrows, into it, and its value in the tooltip. */
    int pr = 1 + t->rounds[9].pout;
    s.hover_row = pr;
    s.hover_cell = 400;
    draw_png(&s, 1280, 720, "n600-hover");
    CHECK_MSG(count_kind(SV_PRIM_ARROW) == 2, "%d arrows while hovering, want 2",
          count_kind(SV_PRIM_ARROW));
    sv_box b = sv_layout_cell(&lay, pr, 400);
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        if (p->kind == SV_PRIM_ARROW)
            CHECK_MSG(fabsf(p->x1 - (b.x + b.w / 2.0f)) < 2.0f, "an arrow ends at %.1f, not cell 400",
                  (double)p->x1);
    }
    char want[64];
    snprintf(want, sizeof want, "buf[%d][400] = %d", t->rounds[9].pout,
             t->rounds[9].buf[t->rounds[9].pout][400].i);
    CHECK_MSG(find_text(want, true) != NULL, "no value on hover (%s)", want);
    sv_trace_destroy(t);
}

/* ---- the overview --------------------------------------------------------- */

static int count_text(const char *str)
{
    int n = 0;
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        n += p->kind == SV_PRIM_TEXT && strcmp(p->text, str) == 0;
    }
    return n;
}

static void test_overview(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 0);
    s.overview = true;
    static const int sizes[][2] = { { 1280, 720 }, { 1024, 768 }, { 1920, 1200 } };
    for (int k = 0; k < 3; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        char name[32];
        snprintf(name, sizeof name, "overview-%dx%d", w, h);
        draw_png(&s, w, h, name);
        /* One block per round, titled; pin and pout tags on rounds 1..3. */
        CHECK_MSG(find_text("round 0: stage the input into buf[0]", false) != NULL, "%s: round 0", name);
        CHECK_MSG(find_text("round 1 \u00b7 stride 1 \u00b7 7 ops", false) &&
                  find_text("round 2 \u00b7 stride 2 \u00b7 6 ops", false) &&
                  find_text("round 3 \u00b7 stride 4 \u00b7 4 ops", false), "%s: round titles", name);
        CHECK_MSG(count_text("pin") == 3 && count_text("pout") == 3, "%s: %d pin, %d pout tags", name,
              count_text("pin"), count_text("pout"));
        /* The chapter's figure, by border: 1 + 2 + 4 dotted, 0 + 1 + 3 dashed. */
        int dashed = 0, dotted = 0, arrows = 0;
        for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, i);
            dashed += p->kind == SV_PRIM_RECT && p->style == SV_BORDER_DASHED;
            dotted += p->kind == SV_PRIM_RECT && p->style == SV_BORDER_DOTTED;
            arrows += p->kind == SV_PRIM_ARROW;
        }
        /* legend swatches: one dashed, one dotted */
        CHECK_MSG(dashed == 4 + 1 && dotted == 7 + 1, "%s: %d dashed, %d dotted", name, dashed, dotted);
        /* round 0: 8; round r: 8 + (8 - stride) */
        CHECK_MSG(arrows == 8 + 15 + 14 + 12, "%s: %d arrows", name, arrows);
        /* the final row holds the chapter's result, 3 4 11 11 15 16 22 25 */
        CHECK_MSG(count_text("25") == 1 && count_text("22") == 1 && count_text("16") == 1,
              "%s: the result row", name);
        /* every cell inside the clip it is drawn under, above the legend */
        sv_box clip = { 0, 0, (float)w, (float)h };
        int cells = 0;
        for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, i);
            if (p->kind == SV_PRIM_CLIP)
                clip = p->clip_on ? p->box : (sv_box){ 0, 0, (float)w, (float)h };
            if (p->kind == SV_PRIM_RECT && p->box.x >= lay.cells_clip.x && p->box.y > lay.rows_area.y &&
                p->box.w < lay.cell_pitch && p->box.h > lay.cell_h * 0.3f) {
                cells++;
                CHECK_MSG(p->box.y >= clip.y - 0.5f && p->box.y + p->box.h <= clip.y + clip.h + 0.5f,
                      "%s: a cell at y %.0f..%.0f is clipped (clip %.0f..%.0f)", name,
                      (double)p->box.y, (double)(p->box.y + p->box.h), (double)clip.y,
                      (double)(clip.y + clip.h));
            }
            if (p->kind == SV_PRIM_RECT && p->box.w < w * 0.5f && p->box.y > lay.rows_area.y)
                CHECK_MSG(p->box.y + p->box.h <= lay.legend.y + 1.0f || p->box.y >= lay.legend.y,
                      "%s: a cell at y %.0f runs into the legend", name, (double)p->box.y);
        }
        CHECK_MSG(cells == 8 * 8, "%s: %d cells drawn, want 64", name, cells);
        CHECK_MSG(find_text("17 ops in 3 rounds (depth 3) \u00b7 sequential n\u22121 = 7", false),
              "%s: the run's counters", name);
    }
    /* Exclusive: one more block, the shift into output. */
    sv_trace_destroy(t);
    static const double ch[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };
    t = make_trace_t(ch, 8, SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_EXCLUSIVE);
    make_state(&s, t);
    s.overview = true;
    draw_png(&s, 1280, 720, "overview-exclusive");
    CHECK_MSG(find_text("exclusive shift", true) != NULL, "no shift block");
    sv_trace_destroy(t);
}

int main(int argc, char **argv)
{
    view_test_open(argc, argv, "test_slides");
    rec = sv_gfx_rec_create();
    if (!rec) {
        fprintf(stderr, "%s:%d: FAIL: sv_gfx_rec_create\n", __FILE__, __LINE__);
        return 1;
    }
    test_legibility();
    test_indices_and_output();
    test_clean();
    test_float_decimal();
    test_contrast_lines();
    test_operands();
    test_large_n();
    test_overview();
    sv_gfx_rec_destroy(rec);
    return view_test_close("all slide checks passed");
}
