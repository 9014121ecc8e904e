/* Pixel tests of the kernel on screen and the mistakes lab, headless:
 *  - the source panel (view.code): the phase map finds the chapter's
 *    statements in the embedded kernel, and the highlighted band sits on the
 *    guard's line in the guard phase and moves to the add's lines in the
 *    next phase (pixels read where sv_code_geometry says the lines are);
 *  - the warp boundaries: at n = 64 a line between cells 31 and 32 through
 *    the gap between the rows and none between 15 and 16; none at n = 32;
 *    the "warp 1" label is drawn;
 *  - the hatch: in-place under the sequential schedule on the chapter's
 *    example (3 4 14 15 32 35 65 71, the figure), every cell from 2
 *    on is wrong and carries diagonal lines (many separate runs of the error
 *    colour along one scan line), the right cells carry none;
 *  - the first wrong round is ringed in the error colour on the timeline;
 *  - D draws the correct value at a cell's foot (ink appears there);
 *  - a lab trace file opened as scanviz --trace does (sv_trace_load, then
 *    sv_app_init): the kernel, the runs and wrong runs, the first wrong
 *    round in the state line, the mistake's source panel, the hatch drawn;
 *    once as the emulator wrote it, once as GPU runs (the record rewritten
 *    as a GPU's: 100 shaken runs on a named device).
 * PNGs land in the build directory (render-lab-*.png). */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "view_test.h"

#include "capture.h"
#include "lab.h"
#include "scene.h"
#include "source.h"
#include "app.h"
#include "trace_file.h"

static sv_trace *make_trace(const int32_t *in, size_t n)
{
    return view_trace_i32(in, n, SV_OP_SUM, SV_SCAN_INCLUSIVE);
}

/* A view as app.c hands it out (view_of), the chapter's kernel embedded. */
static void make_view(sv_app_view *s, const sv_trace *t)
{
    view_of(s, t);
    s->source = "CPU emulator (test)";
    s->kernel_embedded = true;
}

/* Renders s at w x h into px (and the layout into lay); writes render-lab-NAME.png. */
static void render(const sv_app_view *s, int w, int h, const char *name)
{
    view_draw(s, w, h, NULL, "render-lab-", name);
}

/* ---- the source panel ------------------------------------------------------ */

/* The line's text, NUL-terminated. */
static void line_text(const sv_source_file *f, int line, char *buf, size_t len)
{
    const sv_source_line *l = &f->lines[line - 1];
    size_t n = l->len < len - 1 ? l->len : len - 1;
    memcpy(buf, l->text, n);
    buf[n] = '\0';
}

/* Pixels of the highlight band's colour on line `line` of the panel, read
 * along a short run right of the code (past the longest line's end would
 * be off the panel; the band covers the whole width, the text only part). */
static int band_pixels(const sv_code_geo *cg, int line, sv_rgba band)
{
    float y = sv_code_line_y(cg, line);
    int n = 0;
    /* the band's left edge: between the panel's border and the numbers */
    for (float x = lay.code_panel.x + 2.0f; x < cg->gutter_x - 3.0f * cg->px * 0.602f; x += 1.0f)
        for (float dy = -cg->pitch * 0.4f; dy <= cg->pitch * 0.4f; dy += 1.0f)
            if (dist(at(x, y + dy), band) < 30)
                n++;
    return n;
}

static void test_source_panel(void)
{
    const sv_source_file *f = sv_source_get(0);
    CHECK_MSG(f && f->nlines > 20, "the chapter's kernel is embedded (%d lines)", f ? f->nlines : 0);
    if (!f || f->nlines <= 20)
        return;
    CHECK_MSG(strcmp(f->path, "kernels/hillis_steele.cu") == 0, "path %s", f->path);

    /* The phase map finds the chapter's statements. */
    char buf[512];
    int lo, hi;
    struct { sv_phase p; int round; const char *want; } m[] = {
        { SV_PHASE_LOAD, 0, "in[i]" },
        { SV_PHASE_GUARD, 1, "if (i >= stride)" },
        { SV_PHASE_OP, 1, "Op::apply" },
        { SV_PHASE_BARRIER, 0, "__syncthreads()" },
        { SV_PHASE_BARRIER, 2, "__syncthreads()" },
        { SV_PHASE_SWAP, 1, "pout = 1 - pout" },
        { SV_PHASE_COPY_BACK, 3, "scan_exclusive" },
    };
    int guard = 0, op_lo = 0, op_hi = 0, bar0 = 0, bar1 = 0, load = 0;
    for (size_t k = 0; k < sizeof m / sizeof m[0]; k++) {
        bool ok = sv_source_phase_lines(f, m[k].p, m[k].round, &lo, &hi);
        CHECK_MSG(ok && lo >= 1 && hi >= lo && hi <= f->nlines, "phase %s: lines %d-%d",
              sv_phase_name(m[k].p), lo, hi);
        if (!ok)
            continue;
        line_text(f, lo, buf, sizeof buf);
        CHECK_MSG(strstr(buf, m[k].want) != NULL, "phase %s: line %d is \"%s\", expected \"%s\"",
              sv_phase_name(m[k].p), lo, buf, m[k].want);
        if (m[k].p == SV_PHASE_GUARD) guard = lo;
        if (m[k].p == SV_PHASE_OP) { op_lo = lo; op_hi = hi; }
        if (m[k].p == SV_PHASE_LOAD) load = lo;
        if (m[k].p == SV_PHASE_BARRIER && m[k].round == 0) bar0 = lo;
        if (m[k].p == SV_PHASE_BARRIER && m[k].round == 2) bar1 = lo;
    }
    CHECK_MSG(load < bar0 && bar0 < guard && guard < op_lo && op_hi < bar1,
          "the phases in the file's order: load %d, barrier %d, guard %d, op %d-%d, "
          "barrier %d", load, bar0, guard, op_lo, op_hi, bar1);
    /* the op phase covers the add and the else copy */
    line_text(f, op_hi, buf, sizeof buf);
    CHECK_MSG(strstr(buf, "buf[pin * n + i]") != NULL, "op phase ends on the copy: \"%s\"", buf);

    /* Pixels: the band sits on the guard line, then moves to the add. */
    int32_t in[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };
    sv_trace *t = make_trace(in, 8);
    sv_app_view s;
    make_view(&s, t);
    s.code = true;
    s.step = s.from_step = 1;
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    sv_rgba band = sv_rgba_mix(th->panel, th->accent, 0.28f);
    sv_rgba bar = th->accent;

    s.phase = SV_PHASE_NONE;
    render(&s, 1280, 720, "code-none");
    CHECK_MSG(lay.code_panel.w > 100.0f, "the panel has room: %.0f px", (double)lay.code_panel.w);
    sv_code_geo cg;
    CHECK_MSG(sv_code_geometry(&s, &lay, &cg), "geometry");
    CHECK_MSG(cg.hl_lo == 0, "no phase, no highlight (%d)", cg.hl_lo);
    CHECK_MSG(band_pixels(&cg, guard, bar) == 0, "no band on the guard line without a phase");
    /* cells move left of the panel */
    sv_box last = sv_layout_cell(&lay, 1, 7);
    CHECK_MSG(last.x + last.w < lay.code_panel.x, "cells end (%.0f) left of the panel (%.0f)",
          (double)(last.x + last.w), (double)lay.code_panel.x);

    s.phase = SV_PHASE_GUARD;
    render(&s, 1280, 720, "code-guard");
    CHECK_MSG(sv_code_geometry(&s, &lay, &cg) && cg.hl_lo == guard, "guard highlighted: %d", cg.hl_lo);
    CHECK_MSG(guard >= cg.first && guard < cg.first + cg.count, "the guard line is in view");
    int on_guard = band_pixels(&cg, guard, bar), on_op = band_pixels(&cg, op_lo, bar);
    CHECK_MSG(on_guard > 10 && on_op == 0, "guard phase: band on line %d (%d px), not on %d (%d px)",
          guard, on_guard, op_lo, on_op);
    /* the band's tint across the line, right of the code */
    float y = sv_code_line_y(&cg, guard);
    const uint8_t *p = at(lay.code_panel.x + lay.code_panel.w - 6.0f, y);
    CHECK_MSG(dist(p, band) < 30, "band colour at the line's right end: %d,%d,%d", p[0], p[1], p[2]);
    if (bar1 >= cg.first && bar1 < cg.first + cg.count) {
        p = at(lay.code_panel.x + lay.code_panel.w - 6.0f, sv_code_line_y(&cg, bar1));
        CHECK_MSG(dist(p, th->panel) < 20, "no band on the barrier line: %d,%d,%d", p[0], p[1], p[2]);
    }

    s.phase = SV_PHASE_OP;
    render(&s, 1280, 720, "code-op");
    CHECK_MSG(sv_code_geometry(&s, &lay, &cg) && cg.hl_lo == op_lo, "op highlighted");
    on_guard = band_pixels(&cg, guard, bar);
    on_op = band_pixels(&cg, op_lo, bar);
    CHECK_MSG(on_guard == 0 && on_op > 10, "op phase: band moved off the guard (%d px) to line %d "
          "(%d px)", on_guard, op_lo, on_op);

    s.phase = SV_PHASE_BARRIER;
    render(&s, 1280, 720, "code-barrier");
    CHECK_MSG(sv_code_geometry(&s, &lay, &cg) && cg.hl_lo == bar1, "barrier highlighted");
    CHECK_MSG(band_pixels(&cg, bar1, bar) > 10, "barrier phase: band on line %d", bar1);
    /* the cells show the wait: the accent bar under the pout row */
    float by = lay.row_y[1 + t->rounds[1].pout] + lay.cell_h / 2.0f + 0.9f * lay.unit;
    sv_box c3 = sv_layout_cell(&lay, 1, 3);
    int hits = 0;
    for (float dy = -2.0f; dy <= 2.0f; dy += 1.0f)
        if (dist(at(c3.x + c3.w * 0.25f, by + dy), th->accent) < 60)
            hits++;
    CHECK_MSG(hits > 0, "the barrier's bar under the pout row");

    /* The guard phase shows pout before the writes: buf[1] (round 1's pout)
     * holds nothing yet, so `?`; the whole round shows its values. */
    s.phase = SV_PHASE_GUARD;
    sv_step_view v;
    sv_value val;
    sv_scene_step(&s, 1, &v);
    CHECK_MSG(!sv_scene_value(&s, &v, 2, 5, &val), "guard phase: buf[1][5] not written yet");
    s.phase = SV_PHASE_NONE;
    CHECK_MSG(sv_scene_value(&s, &v, 2, 5, &val) && val.i == 5, "round 1: buf[1][5] = 5");

    /* Phases per step. */
    sv_phase ph[SV_PHASE_COUNT];
    int n0 = sv_phases_of(t, 0, ph);
    CHECK_MSG(n0 == 3 && ph[0] == SV_PHASE_LOAD && ph[1] == SV_PHASE_BARRIER && ph[2] == SV_PHASE_SWAP,
          "round 0: load, barrier, swap (%d)", n0);
    int n3 = sv_phases_of(t, 3, ph);
    CHECK_MSG(n3 == 4 && ph[0] == SV_PHASE_GUARD && ph[3] == SV_PHASE_COPY_BACK,
          "last round: guard, op, barrier, copy back (%d)", n3);
    sv_trace_destroy(t);
}

/* Every mistake whose file was in the tree at build time: embedded under the
 * registry's path, its change marked, its guard found (where it has one; the
 * add found either way), its loop barrier found where it has one. */
static void test_mistake_sources(void)
{
    int found = 0;
    for (int k = 1; k < SV_KERNEL_COUNT; k++) {
        const sv_kernel_info *ki = sv_kernel_get((sv_kernel)k);
        int idx = sv_source_find(ki->file);
        if (idx < 0)
            continue;
        found++;
        const sv_source_file *f = sv_source_get(idx);
        int changed = 0;
        for (int l = 0; l < f->nlines; l++)
            changed += f->lines[l].changed;
        CHECK_MSG(changed >= 1 && changed <= 3, "%s: %d changed line(s) marked", ki->file, changed);
        int lo, hi;
        CHECK_MSG(sv_source_phase_lines(f, SV_PHASE_GUARD, 1, &lo, &hi) == ki->guard,
                  "%s: the guard %s", ki->file, ki->guard ? "found" : "absent");
        bool add = sv_source_phase_lines(f, SV_PHASE_OP, 1, &lo, &hi);
        const sv_source_line *L = add ? &f->lines[lo - 1] : NULL;
        CHECK_MSG(L && L->len >= 10 && memmem(L->text, L->len, "Op::apply(", 10),
                  "%s: the add found", ki->file);
        bool bar = sv_source_phase_lines(f, SV_PHASE_BARRIER, 1, &lo, &hi);
        CHECK_MSG(bar == ki->barrier, "%s: a loop barrier %s", ki->file,
              ki->barrier ? "found" : "absent");
    }
    printf("mistake sources embedded: %d of %d\n", found, SV_KERNEL_COUNT - 1);
    CHECK_MSG(sv_source_find("kernels/hillis_steele.cu") == 0, "the chapter's kernel is file 0");
    CHECK_MSG(sv_source_find("kernels/none.cu") < 0, "an unknown file is not found");
}

/* ---- warps ------------------------------------------------------------------ */

static void test_warps(void)
{
    int32_t in[64];
    for (int i = 0; i < 64; i++)
        in[i] = i % 10;
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    for (int n = 32; n <= 64; n += 32) {
        sv_trace *t = make_trace(in, (size_t)n);
        sv_app_view s;
        make_view(&s, t);
        render(&s, 1280, 720, n == 64 ? "warps-64" : "warps-32");
        /* the gap between the input row and buf[0], where round 0's arrows
         * are vertical at the cells' centres */
        float y = (lay.row_y[0] + lay.cell_h / 2.0f + lay.row_y[1] - lay.cell_h / 2.0f) / 2.0f;
        float gap = lay.cell_pitch - lay.cell_w;
        float xb = lay.cell_x0 + 32.0f * lay.cell_pitch - gap / 2.0f;
        float xn = lay.cell_x0 + 16.0f * lay.cell_pitch - gap / 2.0f;
        const uint8_t *pb = at(xb, y), *pn = at(xn, y);
        if (n == 64) {
            CHECK_MSG(lum(pb) > lum(at(xb, lay.header.y + lay.header.h + 2.0f)) + 25 &&
                      dist(pb, th->bg) > 60,
                  "n = 64: a warp boundary between cells 31 and 32: %d,%d,%d", pb[0], pb[1], pb[2]);
            CHECK_MSG(dist(pn, th->bg) < 25, "n = 64: no boundary between 15 and 16: %d,%d,%d",
                  pn[0], pn[1], pn[2]);
            CHECK_MSG(lay.warp_label_y > 0.0f && lay.warp_label_y < lay.row_y[0] - lay.cell_h / 2.0f,
                  "labels above the input row");
            /* "warp 1" centred over cells 32..63 */
            float cx = lay.cell_x0 + 48.0f * lay.cell_pitch;
            int ink = 0;
            for (float x = cx - 30.0f; x < cx + 30.0f; x += 1.0f)
                for (float dy = -6.0f; dy <= 6.0f; dy += 1.0f)
                    if (lum(at(x, lay.warp_label_y + dy)) > lum(at(cx, lay.warp_label_y - 14.0f)) + 50)
                        ink++;
            CHECK_MSG(ink > 20, "the \"warp 1\" label has ink (%d px)", ink);
        } else {
            CHECK_MSG(lay.warp_label_y == 0.0f, "n = 32: one warp, no labels");
            xb = lay.cell_x0 + 16.0f * lay.cell_pitch - gap / 2.0f;
            pb = at(xb, y);
            CHECK_MSG(dist(pb, th->bg) < 25, "n = 32: no boundary: %d,%d,%d", pb[0], pb[1], pb[2]);
        }
        sv_trace_destroy(t);
    }
}

/* ---- the mistakes lab -------------------------------------------------------- */

/* Separate runs of the error colour along the horizontal line y across b. */
static int error_runs(sv_box b, float y, sv_rgba err_col)
{
    int runs = 0;
    bool prev = false;
    for (float x = b.x + 3.0f; x < b.x + b.w - 3.0f; x += 1.0f) {
        bool is = dist(at(x, y), err_col) < 150 && at(x, y)[0] > at(x, y)[2] + 40;
        if (is && !prev)
            runs++;
        prev = is;
    }
    return runs;
}

static void test_hatch(void)
{
    char err[256];
    int32_t in[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };
    sv_trace *correct = make_trace(in, 8);
    sv_value v[8];
    for (int i = 0; i < 8; i++)
        v[i].i = in[i];
    sv_trace *t = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, v, 8,
                                  SV_BACKEND_CPU, NULL, err, sizeof err);
    sv_lab_reads *reads = NULL;
    bool ok = t && sv_capture_lab_run(t, SV_KERNEL_IN_PLACE, (sv_schedule){ SV_SCHEDULE_SEQUENTIAL, 1 },
                                  &reads, NULL, NULL, err, sizeof err) &&
              sv_trace_finish(t, err, sizeof err);
    CHECK_MSG(ok, "in-place emulated: %s", err);
    if (!ok)
        return;
    const int32_t want[8] = { 3, 4, 14, 15, 32, 35, 65, 71 };
    for (int i = 0; i < 8; i++)
        CHECK_MSG(t->output[i].i == want[i], "in-place, sequential: output[%d] = %d, expected %d", i,
              t->output[i].i, want[i]);
    uint32_t bits[4 * 8];
    bool known[4 * 8];
    sv_lab_raw_from_trace(t, 0, bits, known);
    sv_lab_summary *sum = sv_lab_summarize(correct, 1, bits, known, err, sizeof err);
    CHECK_MSG(sum != NULL, "summary: %s", err);
    if (!sum)
        return;

    sv_app_view s;
    make_view(&s, t);
    s.kernel = SV_KERNEL_IN_PLACE;
    s.lab = sum;
    s.lab_reads = reads;
    s.lab_note = "in-place \u00b7 sequential \u00b7 emulated";
    s.step = s.from_step = 3;
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    render(&s, 1280, 720, "hatch");
    /* buf[0] is the only buffer; the last round's cells 2..7 are wrong */
    for (int i = 0; i < 8; i++) {
        sv_box b = sv_layout_cell(&lay, 1, i);
        /* below the count tag and above the number's middle: hatch only */
        int runs = error_runs(b, b.y + b.h * 0.82f, th->error);
        if (i < 2)
            CHECK_MSG(runs == 0, "cell %d is right: no hatch (%d runs)", i, runs);
        else
            CHECK_MSG(runs >= 3, "cell %d is wrong: hatched (%d runs of the error colour)", i, runs);
    }
    /* the output row too */
    sv_box o5 = sv_layout_cell(&lay, 3, 5);
    CHECK_MSG(error_runs(o5, o5.y + o5.h * 0.82f, th->error) >= 3, "output[5] hatched");
    /* the timeline rings the first wrong round */
    int fw = sum->first_wrong_round;
    CHECK_MSG(fw >= 1 && fw <= 3, "first wrong round %d", fw);
    if (fw >= 1 && fw <= 3) {
        float x = lay.timeline_x[fw], r = lay.timeline_r * 2.4f;
        int hits = 0;
        for (float a = 0.0f; a < 6.28f; a += 0.2f) {
            const uint8_t *q = at(x + cosf(a) * (r - 1.5f), lay.timeline_y + sinf(a) * (r - 1.5f));
            if (dist(q, th->error) < 90)
                hits++;
        }
        CHECK_MSG(hits > 15, "a ring in the error colour around round %d (%d of 32 samples)", fw, hits);
        x = lay.timeline_x[0];
        hits = 0;
        for (float a = 0.0f; a < 6.28f; a += 0.2f)
            if (dist(at(x + cosf(a) * (r - 1.5f), lay.timeline_y + sinf(a) * (r - 1.5f)),
                     th->error) < 90)
                hits++;
        /* at most a stray sample of the "first wrong" label, which the projector
         * sizes (text from the frame height) may reach; a ring is > 15 */
        CHECK_MSG(hits <= 2, "no ring around round 0 (%d of 32 samples)", hits);
    }

    /* D: the correct value appears at the foot of cell 4 (32 -> 11). */
    sv_box b4 = sv_layout_cell(&lay, 1, 4);
    float foot = b4.y + b4.h - lay.num_px * 0.55f * 0.8f;
    int before = 0, after = 0;
    for (float x = b4.x + b4.w * 0.3f; x < b4.x + b4.w * 0.7f; x += 1.0f)
        if (dist(at(x, foot), th->accent) < 80)
            before++;
    s.show_correct = true;
    render(&s, 1280, 720, "hatch-correct");
    for (float x = b4.x + b4.w * 0.3f; x < b4.x + b4.w * 0.7f; x += 1.0f)
        for (float dy = -3.0f; dy <= 3.0f; dy += 1.0f)
            if (dist(at(x, foot + dy), th->accent) < 80)
                after++;
    CHECK_MSG(before == 0 && after > 5, "D draws the correct value in the accent colour (%d -> %d px)",
          before, after);

    /* The hover caption in words: the emulator's record of the read. */
    char words[512] = "";
    sv_lab_cell_describe(reads, t->type, 3, 5, words, sizeof words);
    CHECK_MSG(strstr(words, "thread") != NULL, "cell 5's story names a thread: \"%s\"", words);
    s.hover_row = 1;
    s.hover_cell = 5;
    render(&s, 1280, 720, "hatch-hover");

    sv_lab_summary_destroy(sum);
    sv_lab_reads_destroy(reads);
    sv_trace_destroy(t);
    sv_trace_destroy(correct);
}

/* Opens the lab trace file at path into st as scanviz --trace does, at
 * round, in a 1280x720 window; false (a failed check) when it cannot. */
static bool open_lab_file(sv_app_state *st, const char *path, int round)
{
    char err[512];
    sv_trace *t = sv_trace_load(path, err, sizeof err);
    CHECK_MSG(t && t->lab, "load %s: %s", path, err);
    if (!t || !t->lab) {
        sv_trace_destroy(t);
        return false;
    }
    sv_app_config c = { .trace = t, .trace_path = path, .round = round, .theme = SV_THEME_DARK,
                        .speed = 1.0f, .backend = SV_CHOOSE_CPU };
    if (sv_app_init(st, &c, err, sizeof err) != SV_APP_OK) {
        CHECK_MSG(false, "sv_app_init with %s: %s", path, err);
        return false;
    }
    sv_app_resize(st, 1280, 720, 1280, 720);
    return true;
}

/* A lab trace file, written by capture as scanviz-trace --kernel in-place
 * --schedule sequential --runs 3 writes it (gpu: then rewritten as a GPU's
 * record), opened as scanviz --trace opens it. */
static void test_lab_file(bool gpu)
{
    char err[512], path[700];
    const sv_value in[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};
    const sv_capture_request req = {
        .op = SV_OP_SUM, .type = SV_TYPE_INT32, .scan = SV_SCAN_INCLUSIVE, .input = in, .n = 8,
        .choice = SV_CHOOSE_CPU, .kernel = SV_KERNEL_IN_PLACE, .has_schedule = true,
        .schedule = {SV_SCHEDULE_SEQUENTIAL, 1}, .runs = 3,
    };
    sv_trace *t = NULL;
    CHECK_MSG(sv_capture(&req, &t, NULL, err, sizeof err) == SV_CAPTURE_OK && t && t->lab,
              "lab capture: %s", err);
    if (!t)
        return;
    if (gpu) { /* what the H200 writes: GPU runs, shaken, on a device */
        t->backend = SV_BACKEND_CUDA;
        free(t->device);
        t->device = strdup("NVIDIA H200");
        t->lab->emulated = false;
        t->lab->shake = true;
        t->lab->shake_seed = 7;
        /* racecheck's counts as the H200 reported them at n = 1024 */
        t->lab->racecheck = calloc(1, sizeof *t->lab->racecheck);
        if (t->lab->racecheck) {
            t->lab->racecheck->ran = t->lab->racecheck->has_summary = true;
            t->lab->racecheck->errors = 9716;
            t->lab->racecheck->warnings = 16388;
            snprintf(t->lab->racecheck->note, sizeof t->lab->racecheck->note, "synthetic");
        }
    }
    snprintf(path, sizeof path, "%s/render-lab-%s.json", out_dir, gpu ? "gpu" : "emulated");
    CHECK_MSG(sv_trace_save(t, path, err, sizeof err), "save: %s", err);
    sv_trace_destroy(t);
    sv_app_state st;
    if (!open_lab_file(&st, path, 3))
        return;
    char line[1 << 16];
    sv_app_state_line(&st, line, sizeof line);
    CHECK_MSG(strstr(line, " kernel=in-place ") && strstr(line, " lab_runs=3 ") &&
              strstr(line, " lab_wrong=3 ") && strstr(line, " first_wrong_round=1 ") &&
              strstr(line, gpu ? " schedule=gpu " : " schedule=sequential ") &&
              strstr(line, gpu ? " racecheck=9716/16388 " : " racecheck=- "),
              "state line of the lab file: %.2000s", line);
    if (gpu)
        CHECK_MSG(strstr(line, "CUDA \u00b7 NVIDIA H200 \u00b7 in-place \u00b7 3 GPU runs "
                               "(shaken, seed 7)") != NULL,
                  "the source says GPU runs: %s", strstr(line, "source="));
    else
        CHECK_MSG(strstr(line, "in-place \u00b7 sequential, 3 runs \u00b7 emulated") != NULL,
                  "the source says emulated: %s", strstr(line, "source="));
    sv_app_view v;
    sv_app_view_of(&st, &v);
    CHECK_MSG(v.lab && v.kernel == SV_KERNEL_IN_PLACE && v.kernel_embedded && v.source_kernel > 0 &&
              strstr(v.kernel_file, "in_place"), "the view has the mistake's source and outcome");
    CHECK_MSG(gpu ? v.lab_reads == NULL : v.lab_reads != NULL,
              "reads: the emulator's run replayed; none for GPU runs");
    render(&v, 1280, 720, gpu ? "file-gpu" : "file-emulated");
    const sv_theme *th = sv_theme_get(SV_THEME_DARK);
    sv_box b5 = sv_layout_cell(&lay, 1, 5), b1 = sv_layout_cell(&lay, 1, 1);
    CHECK_MSG(error_runs(b5, b5.y + b5.h * 0.82f, th->error) >= 3, "buf[0][5] hatched");
    CHECK_MSG(error_runs(b1, b1.y + b1.h * 0.82f, th->error) == 0, "buf[0][1] right: no hatch");
    if (!gpu) {
        /* Asking "will each cell be right?" (keys, as in the window: round
         * 2, P, Right asks round 3, Q Q, cell 5 marked wrong): the asked row
         * gives nothing away (no hatch, no count); the mark shows a cross. */
        static const SDL_Keycode keys[] = { SDLK_LEFT, SDLK_p, SDLK_RIGHT, SDLK_q, SDLK_q,
                                            SDLK_TAB, SDLK_TAB, SDLK_TAB, SDLK_TAB, SDLK_TAB,
                                            SDLK_2, SDLK_TAB };
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
            SDL_Event e = { .type = SDL_KEYDOWN };
            e.key.keysym.sym = keys[k];
            sv_app_event(&st, &e);
        }
        sv_app_view_of(&st, &v);
        CHECK_MSG(v.quiz_asking && v.quiz_kind == SV_QUIZ_OUTCOME && v.step == 3 &&
                  v.quiz_mark[5] == SV_QUIZ_WRONG, "asking right or wrong at round 3");
        render(&v, 1280, 720, "file-quiz");
        CHECK_MSG(error_runs(b5, b5.y + b5.h * 0.82f, th->error) == 0 &&
                  error_runs(b1, b1.y + b1.h * 0.82f, th->error) == 0,
                  "the asked row hides its hatches");
        int cross = 0;
        for (float x = b5.x + b5.w * 0.3f; x < b5.x + b5.w * 0.7f; x += 1.0f)
            for (float y = b5.y + b5.h * 0.3f; y < b5.y + b5.h * 0.7f; y += 1.0f)
                cross += dist(at(x, y), th->error) < 90;
        CHECK_MSG(cross > 10, "the cell marked wrong shows a cross (%d px)", cross);
    }
    sv_app_cleanup(&st);
}

/* The H200's own lab file (tests/data: in-place, n = 64, 100 shaken runs,
 * racecheck): hovering buf[0][32] in round 1, where the race shows, the
 * tooltip says what racecheck named on that cell, as drawn (the frame's
 * recorded text). */
static void test_racecheck_tooltip(void)
{
    sv_app_state st;
    if (!open_lab_file(&st, SV_TEST_DATA "/in-place-64-h200-shaken.scanviz.json", 1))
        return;
    CHECK_MSG(st.trace->lab->racecheck != NULL, "the H200's file has racecheck's record");
    st.hover_row = 1; /* buf[0], in-place's one buffer */
    st.hover_cell = 32;
    sv_app_view v;
    sv_app_view_of(&st, &v);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    view_draw(&v, 1280, 720, rec, "render-lab-", "racecheck-tooltip");
    bool count = false, example = false;
    for (size_t k = 0; rec && k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, k);
        if (p->kind != SV_PRIM_TEXT || !p->text)
            continue;
        count |= strstr(p->text, "racecheck: ") && strstr(p->text, "hazards on this cell") &&
                 strstr(p->text, "mapped to round 1");
        example |= strncmp(p->text, "e.g. W", 6) == 0 && strstr(p->text, "thread 3") &&
                   strstr(p->text, "in_place.cu:");
    }
    CHECK_MSG(count && example, "the tooltip of buf[0][32] names racecheck's hazards (%d, %d)",
              count, example);
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&st);
}

static void test_lab_file_emulated(void) { test_lab_file(false); }
static void test_lab_file_gpu(void) { test_lab_file(true); }

int main(int argc, char **argv)
{
    static const view_test_fn tests[] = {
        test_source_panel, test_mistake_sources, test_warps, test_hatch,
        test_lab_file_emulated, test_lab_file_gpu, test_racecheck_tooltip, NULL,
    };
    return view_test_main(argc, argv, "test_render_lab", tests, "all lab render checks passed");
}
