/* What a lecturer, a student and an adversary found in the drawing (issue
 * 21), each checked on the recorded scene (gfx.h "the second back end") or
 * on the words: scale enlarges the cells, the lab's verdict and badges stay
 * legible, zoomed labels do not collide, `?` output cells, the guard phase's
 * branch colours, the "first wrong" label clear of the ops line, tooltips
 * off the window they explain, the race tooltip's emphasis, the invariant's
 * two windows, the case conditions, and a non-power-of-two last round. */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "view_test.h"

#include "app.h"
#include "capture.h"
#include "trace_file.h"
#include "words.h"

static sv_gfx_rec *rec;
static const sv_theme *dark;

static void draw(const sv_app_view *s, int w, int h, const char *name)
{
    view_draw(s, w, h, rec, "findings-", name);
}

static const int32_t chapter[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };

static sv_trace *chapter_view(sv_app_view *s, int step)
{
    sv_trace *t = view_trace_i32(chapter, 8, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    view_of(s, t);
    s->step = s->from_step = step;
    return t;
}

/* The last recorded rect with box b (within 0.5 px). */
static const sv_prim *rect_at(sv_box b)
{
    return rec_rect_at(rec, b);
}

/* The first recorded text equal to (prefix: starting with) str. */
static const sv_prim *find_text(const char *str, bool prefix)
{
    return rec_find_text(rec, str, prefix);
}

/* The first text containing str. */
static const sv_prim *text_containing(const char *str)
{
    return rec_text_containing(rec, str);
}

/* A text's box: from its anchor, advance and size; y0 is the baseline
 * (ascenders reach about 0.76 em above it, descenders 0.24 em below). */
static sv_box text_box(const sv_prim *p)
{
    float x = p->x0;
    if (p->align == SV_ALIGN_CENTER)
        x -= p->advance / 2.0f;
    else if (p->align == SV_ALIGN_RIGHT)
        x -= p->advance;
    return (sv_box){ x, p->y0 - 0.76f * p->px, p->advance, p->px };
}

static bool overlap(sv_box a, sv_box b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* A lab view through the app, as scanviz --kernel KERNEL opens it. */
static sv_app_state lab_state;
static bool lab_view(const char *kernel, const int32_t *in, size_t n, int round,
                     sv_app_view *v)
{
    char err[512];
    sv_value vals[1024];
    for (size_t i = 0; i < n; i++)
        vals[i].i = in[i];
    sv_capture_request req = {
        .op = SV_OP_SUM, .type = SV_TYPE_INT32, .scan = SV_SCAN_INCLUSIVE, .input = vals,
        .n = n, .choice = SV_CHOOSE_CPU, .has_schedule = true,
        .schedule = {SV_SCHEDULE_SEQUENTIAL, 1}, .runs = 3,
    };
    sv_trace *t = NULL;
    if (!sv_kernel_parse(kernel, &req.kernel, err, sizeof err) ||
        sv_capture(&req, &t, NULL, err, sizeof err) != SV_CAPTURE_OK || !t) {
        CHECK_MSG(false, "capture %s: %s", kernel, err);
        return false;
    }
    sv_app_config c = { .trace = t, .round = round, .theme = SV_THEME_DARK, .speed = 1.0f,
                        .backend = SV_CHOOSE_CPU };
    if (sv_app_init(&lab_state, &c, err, sizeof err) != SV_APP_OK) {
        CHECK_MSG(false, "sv_app_init: %s", err);
        return false;
    }
    sv_app_resize(&lab_state, 1280, 720, 1280, 720);
    sv_app_view_of(&lab_state, v);
    return true;
}

/* 9: the guard phase colours pout's cells by branch in round 1 as in
 * rounds 2 and 3; its caption says "thread 0", not "threads 0–0". */
static void test_guard_phase(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 1);
    s.phase = SV_PHASE_GUARD;
    for (int step = 1; step <= 3; step++) {
        s.step = s.from_step = step;
        draw(&s, 1280, 720, step == 1 ? "guard-1" : NULL);
        const sv_round *rd = &t->rounds[step];
        for (int i = 0; i < 8; i++) {
            const sv_prim *p = rect_at(sv_layout_cell(&lay, 1 + rd->pout, i));
            sv_rgba want = rd->cases[i] == SV_CASE_FULL ? dark->full
                         : rd->cases[i] == SV_CASE_PARTIAL ? dark->partial : dark->copy;
            CHECK_MSG(p && same_rgb(p->border, want), "round %d guard: pout[%d] is not in "
                      "its branch's colour", step, i);
        }
    }
    s.step = s.from_step = 1;
    sv_caption_words c;
    CHECK(sv_words_caption(&s, &c));
    CHECK_CONTAINS(c.line1, "threads 1\u20137 take the add branch, thread 0 the else");
    CHECK_MSG(!strstr(c.line1, "0\u20130"), "caption: %s", c.line1);
    sv_trace_destroy(t);
}

/* 18: n not a power of two: the last round's caption says it has no full
 * window and why that is fine; a power of two says nothing of it. */
static void test_last_round_any_n(void)
{
    sv_app_view s;
    sv_trace *t = view_trace_i32(chapter, 6, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    view_of(&s, t);
    s.step = s.from_step = (int)t->nrounds - 1;
    sv_caption_words c;
    CHECK(sv_words_caption(&s, &c));
    CHECK_CONTAINS(c.line2, "n = 6 is not a power of two");
    CHECK_CONTAINS(c.line2, "no full window");
    CHECK_CONTAINS(c.line2, "position 0");
    /* drawn whole at the small size: wrapped, not shrunk */
    draw(&s, 1280, 720, "n6-last");
    const sv_prim *p = text_containing("not a power of two");
    CHECK_MSG(p && p->px >= lay.small_px, "n = 6, last round: the second line at %.1f px, "
              "the small size is %.1f", p ? (double)p->px : 0.0, (double)lay.small_px);
    CHECK_MSG(text_containing("holds the inclusive scan") != NULL, "its end is not drawn");
    s.step = s.from_step = 1;
    CHECK(sv_words_caption(&s, &c));
    CHECK_MSG(!strstr(c.line2, "power of two"), "round 1 of n = 6: %s", c.line2);
    sv_trace_destroy(t);
    t = chapter_view(&s, 3);
    CHECK(sv_words_caption(&s, &c));
    CHECK_MSG(!strstr(c.line2, "power of two"), "n = 8: %s", c.line2);
    sv_trace_destroy(t);
}

/* 8: output cells that hold `?` (no-else leaves cells unwritten) show `?`. */
static void test_output_question(void)
{
    sv_app_view v;
    if (!lab_view("no-else", chapter, 8, 3, &v))
        return;
    draw(&v, 1280, 720, "no-else-output");
    sv_box b = sv_layout_cell(&lay, 3, 0);
    bool q = false;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_TEXT && strcmp(p->text, "?") == 0 && p->x0 > b.x &&
            p->x0 < b.x + b.w && p->y0 > b.y && p->y0 < b.y + b.h && p->px >= 0.5f * lay.num_px)
            q = true;
    }
    CHECK_MSG(q, "no-else: output[0] holds ? but none is drawn in it");
    sv_tip_words tip;
    CHECK(sv_words_tooltip(&v, 3, 0, &tip));
    CHECK_STR(tip.line[0], "output[0] = ?");
    sv_app_cleanup(&lab_state);
}

/* 10: the "first wrong" label clears the ops line above the timeline. */
static void test_first_wrong_label(void)
{
    sv_app_view v;
    if (!lab_view("in-place", chapter, 8, 0, &v))
        return;
    static const int sizes[][2] = { { 1280, 720 }, { 1920, 1080 }, { 1024, 768 } };
    for (size_t k = 0; k < 3; k++) {
        sv_app_resize(&lab_state, sizes[k][0], sizes[k][1], sizes[k][0], sizes[k][1]);
        sv_app_view_of(&lab_state, &v);
        draw(&v, sizes[k][0], sizes[k][1], k == 0 ? "first-wrong" : NULL);
        const sv_prim *fw = find_text("first wrong", false);
        const sv_prim *ops = find_text("ops this round", true);
        CHECK_MSG(fw && ops, "%dx%d: first wrong %p, ops %p", sizes[k][0], sizes[k][1],
                  (const void *)fw, (const void *)ops);
        if (fw && ops)
            CHECK_MSG(!overlap(text_box(fw), text_box(ops)), "%dx%d: \"first wrong\" at y "
                      "%.0f overprints the ops line at y %.0f", sizes[k][0], sizes[k][1],
                      (double)fw->y0, (double)ops->y0);
    }
    sv_app_cleanup(&lab_state);
}

/* 3: the lab's verdict, its count badges and D's correct values are at
 * least 2.1 % of the height (15 px at 720p): wrapped or shortened, never
 * shrunk below it. */
static void test_lab_legible(void)
{
    char err[512];
    const char *path = SV_TEST_DATA "/in-place-64-h200-shaken.scanviz.json";
    sv_trace *t = sv_trace_load(path, err, sizeof err);
    CHECK_MSG(t && t->lab, "load %s: %s", path, err);
    if (!t)
        return;
    sv_app_config c = { .trace = t, .trace_path = path, .round = 3, .theme = SV_THEME_DARK,
                        .speed = 1.0f, .backend = SV_CHOOSE_CPU };
    if (sv_app_init(&lab_state, &c, err, sizeof err) != SV_APP_OK) {
        CHECK_MSG(false, "sv_app_init: %s", err);
        return;
    }
    static const int sizes[][2] = { { 1280, 720 }, { 1024, 768 }, { 1920, 1080 } };
    for (size_t k = 0; k < 3; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        sv_app_resize(&lab_state, w, h, w, h);
        sv_app_view v;
        sv_app_view_of(&lab_state, &v);
        draw(&v, w, h, k == 0 ? "verdict" : NULL);
        char verdict[512], drawn[1024] = "";
        sv_words_lab_verdict(&v, verdict, sizeof verdict);
        CHECK_CONTAINS(verdict, "racecheck 124 errors");
        float least = 1e9f;
        for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, i);
            if (p->kind != SV_PRIM_TEXT || !same_rgb(p->fill, dark->error) ||
                p->y0 < lay.verdict.y || p->y0 > lay.verdict.y + lay.verdict.h)
                continue;
            size_t at = strlen(drawn);
            snprintf(drawn + at, sizeof drawn - at, "%s%s", at ? " " : "", p->text);
            least = fminf(least, p->px);
        }
        CHECK_MSG(strcmp(drawn, verdict) == 0, "%dx%d: the verdict drawn is \"%s\"", w, h,
                  drawn);
        CHECK_MSG(least >= 0.021f * (float)h - 0.5f, "%dx%d: verdict at %.1f px", w, h,
                  (double)least);
    }
    sv_app_cleanup(&lab_state);

    sv_app_view v;
    if (!lab_view("in-place", chapter, 8, 2, &v))
        return;
    v.show_correct = true;
    draw(&v, 1280, 720, "badges");
    int badges = 0, ticks = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind != SV_PRIM_TEXT || p->y0 > lay.row_y[3] + lay.cell_h)
            continue;
        bool badge = strstr(p->text, "/3") != NULL, tick = strncmp(p->text, "\u2713", 3) == 0;
        if (!badge && !tick)
            continue;
        badges += badge;
        ticks += tick;
        CHECK_MSG(p->px >= 0.021f * 720.0f - 0.5f, "\"%s\" at %.1f px", p->text, (double)p->px);
    }
    CHECK_MSG(badges > 0 && ticks > 0, "%d badges, %d correct values drawn", badges, ticks);
    sv_app_cleanup(&lab_state);
}

/* 15c: a race tooltip emphasises the faulty read (the accent: it saw the
 * wrong write) and leaves the correct one plain (it saw the write it was
 * meant to, even when that value was already wrong). */
static void test_race_emphasis(void)
{
    sv_app_view v;
    if (!lab_view("in-place", chapter, 8, 2, &v))
        return;
    int found = -1, fk = -1, ck = -1;
    sv_tip_words tip;
    int row = 1 + v.trace->rounds[2].pout;
    for (int i = 0; i < 8 && found < 0; i++) {
        if (!sv_words_tooltip(&v, row, i, &tip))
            continue;
        fk = ck = -1;
        for (int k = 0; k < tip.n; k++) {
            if (strstr(tip.line[k], "had overwritten it"))
                fk = k;
            if (strstr(tip.line[k], "a value already wrong") ||
                strstr(tip.line[k], "as the chapter's kernel does"))
                ck = k;
        }
        if (fk >= 0 && ck >= 0)
            found = i;
    }
    CHECK_MSG(found >= 0, "no cell of round 2 with one faulty and one correct read");
    if (found >= 0) {
        CHECK_MSG(tip.emph[fk] && !tip.emph[ck], "faulty read emphasised %d, correct %d",
                  tip.emph[fk], tip.emph[ck]);
        v.pinned_row = row;
        v.pinned_cell = found;
        draw(&v, 1280, 720, "race-tooltip");
        const sv_prim *pf = find_text(tip.line[fk], false), *pc = find_text(tip.line[ck], false);
        CHECK_MSG(pf && pc, "the two reads are not drawn");
        if (pf && pc) {
            sv_rgba want = sv_rgba_mix(dark->text, dark->error, 0.6f);
            CHECK_MSG(same_rgb(pf->fill, want), "the faulty read is not in the accent");
            CHECK_MSG(same_rgb(pc->fill, dark->text) || same_rgb(pc->fill, dark->text_dim),
                      "the correct read is not plain");
        }
    }
    sv_app_cleanup(&lab_state);
}

/* 16, 17: the tooltip of pout[5] in round 2 says why the invariant holds
 * (pin[3] holds input[2..3], pin[5] input[4..5]) and the input row shows
 * the two windows in two tones; the legend and the tooltip give the cases'
 * conditions. */
static void test_invariant_windows(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 2);
    int pout = t->rounds[2].pout;
    s.pinned_row = 1 + pout;
    s.pinned_cell = 5;
    draw(&s, 1280, 720, "invariant");
    CHECK_MSG(find_text("pin[3] holds input[2..3], pin[5] holds input[4..5]: side by side, "
                        "input[2..5]", false) != NULL, "the tooltip does not give the two windows");
    CHECK_MSG(text_containing("full (i \u2265 2^r \u2212 1 = 3)") != NULL,
              "the tooltip's case line has no condition");
    const sv_prim *a = rect_at(sv_layout_cell(&lay, 0, 2)), *b = rect_at(sv_layout_cell(&lay, 0, 3));
    const sv_prim *c = rect_at(sv_layout_cell(&lay, 0, 4)), *d = rect_at(sv_layout_cell(&lay, 0, 5));
    const sv_prim *e = rect_at(sv_layout_cell(&lay, 0, 1));
    CHECK(a && b && c && d && e);
    if (a && b && c && d && e) {
        CHECK_MSG(same_rgb(a->fill, b->fill) && same_rgb(c->fill, d->fill),
                  "each operand's window is not one tone");
        CHECK_MSG(!same_rgb(a->fill, c->fill) || a->style != c->style,
                  "pin[3]'s window [2, 3] and pin[5]'s [4, 5] are drawn alike");
        CHECK_MSG(!same_rgb(c->fill, e->fill) && !same_rgb(a->fill, e->fill),
                  "a window's cells look like cell 1, outside it");
    }
    /* the legend's conditions at round 2 */
    CHECK_MSG(find_text("i \u2265 3", false) && find_text("2 \u2264 i < 3", false) &&
              find_text("i < 2", false), "the legend lacks the cases' conditions");
    /* the overview shows every round: the conditions in r */
    s.pinned_row = s.pinned_cell = -1;
    s.overview = true;
    draw(&s, 1280, 720, "overview");
    CHECK_MSG(find_text("i \u2265 2^r\u22121", false) && find_text("i < 2^(r\u22121)", false),
              "the overview's legend lacks the cases' conditions");
    sv_trace_destroy(t);
}

/* The tooltip's panel: the rect behind the text t (the last one drawn
 * before it that holds its anchor). */
static sv_box tooltip_box(const char *t)
{
    sv_box none = { 0, 0, 0, 0 }, box = none;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_TEXT && strcmp(p->text, t) == 0)
            return box;
        if (p->kind == SV_PRIM_RECT && same_rgb(p->fill, dark->panel) && p->box.w > 100.0f)
            box = p->box;
    }
    return none;
}

/* 11: a tooltip covers neither the row it explains nor the input window it
 * highlights (pinned buf[0][5] in round 2, "window [2, 5]"), for every
 * pout cell of every round and size. */
static void test_tooltip_placement(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 2);
    static const int sizes[][2] = { { 1280, 720 }, { 1024, 768 }, { 1920, 1080 } };
    for (size_t z = 0; z < 3; z++) {
        for (int step = 1; step <= 3; step++) {
            for (int i = 0; i < 8; i++) {
                s.step = s.from_step = step;
                int row = 1 + t->rounds[step].pout;
                s.pinned_row = row;
                s.pinned_cell = i;
                draw(&s, sizes[z][0], sizes[z][1], z == 0 && step == 2 && i == 5 ? "tooltip" : NULL);
                sv_tip_words tip;
                CHECK(sv_words_tooltip(&s, row, i, &tip));
                sv_box box = tooltip_box(tip.line[0]);
                CHECK_MSG(box.w > 0.0f, "no tooltip panel for %s", tip.line[0]);
                int lo = i;
                sv_step_view v;
                CHECK(sv_scene_step(&s, step, &v) && sv_scene_window(&s, &v, row, i, &lo));
                for (int k = lo; k <= i; k++) {
                    sv_box in = sv_layout_cell(&lay, 0, k);
                    CHECK_MSG(!overlap(box, in), "%dx%d round %d, %s: the tooltip covers input "
                              "cell %d of window [%d, %d]", sizes[z][0], sizes[z][1], step,
                              tip.line[0], k, lo, i);
                }
                for (int k = 0; k < 8; k++)
                    CHECK_MSG(!overlap(box, sv_layout_cell(&lay, row, k)), "%dx%d round %d, %s: "
                              "the tooltip covers its own row's cell %d", sizes[z][0],
                              sizes[z][1], step, tip.line[0], k);
            }
        }
    }
    sv_trace_destroy(t);
}

/* 5: zoomed in at n = 1024, the warp labels and the index labels do not run
 * into each other at the clip's edges, at any pan. */
static void test_zoom_labels(void)
{
    int32_t in[1024];
    for (int i = 0; i < 1024; i++)
        in[i] = i % 7;
    sv_trace *t = view_trace_i32(in, 1024, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    sv_app_view s;
    view_of(&s, t);
    s.step = s.from_step = 3;
    static const float zooms[] = { 4.0f, 8.0f, 16.0f, 32.0f };
    int bad = 0;
    for (size_t z = 0; z < 4; z++) {
        for (float pan = 0.0f; pan < 1024.0f; pan += 37.3f) {
            s.zoom = zooms[z];
            s.pan = pan;
            draw(&s, 1280, 720, NULL);
            size_t nt = sv_gfx_rec_count(rec);
            for (size_t i = 0; i < nt; i++) {
                const sv_prim *p = sv_gfx_rec_prim(rec, i);
                bool warp = p->kind == SV_PRIM_TEXT && strncmp(p->text, "warp ", 5) == 0;
                bool index = p->kind == SV_PRIM_TEXT && fabsf(p->y0 - lay.index_y) < 0.5f;
                if (!warp && !index)
                    continue;
                for (size_t j = i + 1; j < nt; j++) {
                    const sv_prim *q = sv_gfx_rec_prim(rec, j);
                    if (q->kind != SV_PRIM_TEXT || fabsf(q->y0 - p->y0) > 0.5f)
                        continue;
                    if (overlap(text_box(p), text_box(q)) && bad++ < 5)
                        CHECK_MSG(false, "zoom %.0f pan %.1f: \"%s\" and \"%s\" collide at "
                                  "x %.0f and %.0f", (double)zooms[z], (double)pan, p->text,
                                  q->text, (double)p->x0, (double)q->x0);
                }
            }
        }
    }
    CHECK_MSG(bad == 0, "%d collisions of labels", bad);
    sv_trace_destroy(t);
}

/* The recorded text of a round-3 value in output cell i. */
static const sv_prim *value_text(int i)
{
    sv_box b = sv_layout_cell(&lay, 3, i);
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        if (p->kind == SV_PRIM_TEXT && fabsf(p->x0 - (b.x + b.w / 2.0f)) < 1.0f &&
            p->y0 > b.y && p->y0 < b.y + b.h) /* y0: the baseline */
            return p;
    }
    return NULL;
}

/* 1: --scale above 1 enlarges the cells first: round 3's values at scale 2
 * are at least 1.5 times their size at 1; 3 draws differently from 2; the
 * legend stays inside the frame and the caption is never cut with "…". */
static void test_scale(void)
{
    sv_app_view s;
    sv_trace *t = chapter_view(&s, 3);
    s.clean = true;
    static const float scales[] = { 1.0f, 1.25f, 1.5f, 2.0f, 2.5f, 3.0f };
    float value_px[6] = { 0 }, caption_px[6] = { 0 };
    for (int k = 0; k < 6; k++) {
        s.ui_scale = scales[k];
        char name[32];
        snprintf(name, sizeof name, "scale-%.2f", (double)scales[k]);
        draw(&s, 1280, 720, name);
        const sv_prim *v = value_text(7);
        CHECK_MSG(v && strcmp(v->text, "25") == 0, "scale %.2f: output[7]'s value not found",
                  (double)scales[k]);
        value_px[k] = v ? v->px : 0.0f;
        const sv_prim *cap = find_text("Round 3", true);
        caption_px[k] = cap ? cap->px : 0.0f;
        for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
            const sv_prim *p = sv_gfx_rec_prim(rec, i);
            if (p->kind != SV_PRIM_TEXT && p->kind != SV_PRIM_RECT)
                continue;
            sv_box b = p->kind == SV_PRIM_TEXT ? text_box(p) : p->box;
            if (p->kind == SV_PRIM_TEXT && strstr(p->text, "\u2026"))
                CHECK_MSG(false, "scale %.2f: \"%s\" is cut", (double)scales[k], p->text);
            if (b.y >= lay.legend.y && b.y + b.h <= lay.legend.y + lay.legend.h)
                CHECK_MSG(b.x + b.w <= 1280.0f - lay.margin + 1.0f, "scale %.2f: the legend "
                          "runs to x %.0f", (double)scales[k], (double)(b.x + b.w));
        }
    }
    /* nothing runs off the frame at any scale: a lab at n = 64, hints on */
    sv_trace_destroy(t);
    int32_t in[64];
    for (int i = 0; i < 64; i++)
        in[i] = i % 9;
    sv_app_view v;
    if (lab_view("in-place", in, 64, 2, &v)) {
        for (int k = 0; k < 6; k++) {
            v.ui_scale = scales[k];
            v.hover_row = 1;
            v.hover_cell = 40;
            draw(&v, 1280, 720, k == 2 ? "scale-lab-1.5" : NULL);
            for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
                const sv_prim *p = sv_gfx_rec_prim(rec, i);
                if (p->kind != SV_PRIM_TEXT)
                    continue;
                sv_box b = text_box(p);
                CHECK_MSG(b.x >= -0.5f && b.x + b.w <= 1280.5f, "scale %.2f: \"%s\" spans "
                          "x %.0f..%.0f", (double)scales[k], p->text, (double)b.x,
                          (double)(b.x + b.w));
            }
        }
        sv_app_cleanup(&lab_state);
    }
    t = chapter_view(&s, 3);
    /* (1.2, not 1.5 since issue 28: at 720p the text's floor takes some of
     * the room the cells had) */
    CHECK_MSG(value_px[3] >= 1.2f * value_px[0], "values at scale 2: %.1f px, at 1: %.1f px",
              (double)value_px[3], (double)value_px[0]);
    for (int k = 1; k < 6; k++)
        CHECK_MSG(value_px[k] >= value_px[k - 1], "values shrink from scale %.2f to %.2f",
                  (double)scales[k - 1], (double)scales[k]);
    CHECK_MSG(value_px[5] != value_px[3] || caption_px[5] != caption_px[3],
              "scale 3 draws as scale 2 (values %.1f px, caption %.1f px)", (double)value_px[5],
              (double)caption_px[5]);
    sv_trace_destroy(t);
}

int main(int argc, char **argv)
{
    view_test_open(argc, argv, "test_findings");
    rec = sv_gfx_rec_create();
    dark = sv_theme_get(SV_THEME_DARK);
    test_guard_phase();
    test_last_round_any_n();
    test_output_question();
    test_first_wrong_label();
    test_lab_legible();
    test_race_emphasis();
    test_invariant_windows();
    test_tooltip_placement();
    test_zoom_labels();
    test_scale();
    sv_gfx_rec_destroy(rec);
    return view_test_close("all findings checks passed");
}
