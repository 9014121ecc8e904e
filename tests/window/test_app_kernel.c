/* Everything else keeps working for a kernel file (issue 18, section 5), in
 * the app's logic and in frames drawn headless (SDL's offscreen driver):
 *  - Down/Up walk a kernel file's own phases: each step's writes by what
 *    they wrote, then its __syncthreads(), and the source panel marks that
 *    file's lines (the recorded scene);
 *  - predict mode asks about a kernel file's next step: the values its
 *    written cells will hold, checked against the trace;
 *  - a --trace deck of kernel traces (version 3) shows them through the
 *    kernel pane with their own source, read only.
 *
 * usage: test_app_kernel OUT_DIR TEST_KERNELS_DIR SCANVIZ_TRACE */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_test.h"
#include "../spawn.h"
#include "../../src/core/trace_file.h"
#include "kpane.h"
#include "pane.h"
#include "source.h"
#include "theme.h"

#include "../render/view_test.h"

static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};
static const char *kernels_dir = ".";
static const char *trace_exe = "scanviz-trace";

static void kernel_path(const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", kernels_dir, name);
}

/* Line `line` (1-based) of file path into buf ("" past the end). */
static void file_line(const char *path, int line, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    for (int l = 1; l <= line && fgets(buf, (int)len, f); l++)
        if (l == line)
            break;
    if (feof(f))
        buf[0] = '\0';
    fclose(f);
}

/* An app on the chapter's example running kernel file `name` once (no
 * watch, as the export does). */
static bool kernel_app(sv_app_state *s, const char *name, char *path, size_t len)
{
    kernel_path(name, path, len);
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = false;
    c.code = true;
    c.kernel_file = path;
    if (!start_app(s, &c))
        return false;
    CHECK_MSG(s->ktrace && s->ktrace->failure.kind == SV_KFAIL_NONE, "%s ran", name);
    return s->ktrace != NULL;
}

static bool close_rgb(sv_rgba a, sv_rgba b)
{
    return fabsf(a.r - b.r) < 0.01f && fabsf(a.g - b.g) < 0.01f && fabsf(a.b - b.b) < 0.01f;
}

/* Whether the recorded source panel marks the code row that shows text:
 * a band of the mark's colour across the panel at that row. */
static bool panel_marks(const sv_gfx_rec *rec, const sv_layout *l, const char *text,
                        sv_rgba band)
{
    const sv_prim *row = NULL;
    for (size_t i = 0; i < sv_gfx_rec_count(rec) && !row; i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_TEXT && p->font == SV_FONT_MONO && p->text &&
            p->x0 >= l->code_panel.x && strstr(p->text, text))
            row = p;
    }
    if (!row)
        return false;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind == SV_PRIM_RECT && p->box.x >= l->code_panel.x &&
            p->box.w > l->code_panel.w * 0.5f && p->box.y <= row->y0 &&
            p->box.y + p->box.h >= row->y0 && close_rgb(p->fill, band))
            return true;
    }
    return false;
}

/* The caption's first line as the frame shows it. */
static void caption_of(const sv_app_state *s, char *buf, size_t len)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    sv_caption_words cw;
    buf[0] = '\0';
    if (sv_pane_of(&v)->caption(&v, &cw)) /* the pane's words, as the frame draws them */
        snprintf(buf, len, "%s", cw.line1);
}

/* One phase: where Down went, its lines in the state line and the panel. */
typedef struct want_phase {
    int step;          /* 0-based kstep */
    sv_phase phase;
    int line;          /* the file's line it marks */
    const char *code;  /* what that line of the file holds */
} want_phase;

/* 1. Down walks the two-barrier in-place kernel's phases: the load, its
 * barrier, the read step's barrier, the write step's write and barrier,
 * ... to the copy to out[]; the marked lines are that file's lines (the
 * state line's code_lines, the caption, the panel's band), and Up walks
 * back. */
static void test_phases(void)
{
    sv_app_state s;
    char path[600];
    if (!kernel_app(&s, "in_place_two_barriers.cu", path, sizeof path))
        return;
    CHECK_INT((long)s.ktrace->nsteps, 8); /* load, 3 x (read, write), out */
    const want_phase walk[] = {
        { 0, SV_PHASE_LOAD, 14, "s[i] = in[i];" },
        { 0, SV_PHASE_BARRIER, 15, "__syncthreads();" },
        { 1, SV_PHASE_BARRIER, 20, "everybody has read" },
        { 2, SV_PHASE_OP, 21, "s[i] = v;" },
        { 2, SV_PHASE_BARRIER, 22, "everybody has written" },
        { 3, SV_PHASE_BARRIER, 20, "everybody has read" },
        { 4, SV_PHASE_OP, 21, "s[i] = v;" },
    };
    const sv_theme *th = sv_theme_get(s.theme);
    sv_rgba band = sv_rgba_mix(th->panel, th->accent, 0.24f);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    for (size_t w = 0; w < sizeof walk / sizeof walk[0]; w++) {
        key(&s, SDLK_DOWN, 0);
        const want_phase *p = &walk[w];
        CHECK_MSG(s.step == p->step && s.phase == p->phase, "Down %zu: step %d phase %s, "
                  "want step %d phase %s", w + 1, s.step, sv_phase_name(s.phase), p->step,
                  sv_phase_name(p->phase));
        char lines[64], text[256], cap[SV_WORDS_MAX];
        snprintf(lines, sizeof lines, "code_lines=%d-%d ", p->line, p->line);
        CHECK_MSG(line_has(&s, lines), "Down %zu marks line %d", w + 1, p->line);
        file_line(path, p->line, text, sizeof text);
        CHECK_MSG(strstr(text, p->code) != NULL, "line %d of the file is \"%s\": %s", p->line,
                  p->code, text);
        caption_of(&s, cap, sizeof cap);
        char at[32];
        snprintf(at, sizeof at, "line %d", p->line);
        CHECK_MSG(strstr(cap, at) != NULL, "Down %zu: the caption names %s: %s", w + 1, at, cap);
        sv_app_view v;
        sv_app_view_of(&s, &v);
        view_draw(&v, s.fb_w, s.fb_h, rec, "kernel-phase-", NULL);
        CHECK_MSG(panel_marks(rec, &lay, p->code, band), "Down %zu: the panel marks line %d (%s)",
                  w + 1, p->line, p->code);
        if (p->phase == SV_PHASE_OP)
            CHECK_MSG(!panel_marks(rec, &lay, "everybody has written", band),
                      "the write phase does not mark the barrier");
    }
    sv_gfx_rec_destroy(rec);
    /* Down to the end: the copy to out[] is the last step's one phase. */
    for (int i = 0; i < 20; i++)
        key(&s, SDLK_DOWN, 0);
    CHECK_MSG(s.step == 7 && s.phase == SV_PHASE_COPY_BACK && line_has(&s, "code_lines=24-24 "),
              "the last phase: step %d %s", s.step, sv_phase_name(s.phase));
    key(&s, SDLK_UP, 0);
    CHECK_MSG(s.step == 6 && s.phase == SV_PHASE_BARRIER && line_has(&s, "code_lines=22-22 "),
              "Up from the copy: step %d %s", s.step, sv_phase_name(s.phase));
    key(&s, SDLK_RIGHT, 0); /* a step resets the phase */
    CHECK(s.step == 7 && s.phase == SV_PHASE_NONE);
    /* V: the overview of every step, the read steps as their barriers. */
    key(&s, SDLK_v, 0);
    CHECK_MSG(s.overview && strstr(s.status, "every step"), "V: %s", s.status);
    rec = sv_gfx_rec_create();
    sv_app_view v;
    sv_app_view_of(&s, &v);
    view_draw(&v, s.fb_w, s.fb_h, rec, "kernel-", "overview");
    CHECK_MSG(rec_has_text(rec, "no cell written \u00b7 the threads wait at the barrier of line 20")
              && rec_has_text(rec, "line 21") && rec_has_text(rec, "8 steps"),
              "the kernel's overview: every step");
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);
}

/* Recorded texts equal to text in colour col. */
static int texts_in(const sv_gfx_rec *rec, const char *text, sv_rgba col)
{
    int n = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        n += p->kind == SV_PRIM_TEXT && p->text && strcmp(p->text, text) == 0 &&
             close_rgb(p->fill, col);
    }
    return n;
}

/* 2. Predict mode on an exercise's starting file (round-one's, which only
 * copies buffer 0 into buffer 1): Right asks about step 2, the 8 cells of
 * buf[1] it writes are `?`, their tooltips say nothing; the answers are
 * checked against the trace (cell 1 holds 1, not the chapter's 4). A step
 * that writes nothing (the two-barrier kernel's read step) asks nothing. */
static void test_predict(void)
{
    sv_app_state s;
    char path[600];
    snprintf(path, sizeof path, "%s/round-one/start.cu", SV_EXERCISES_DIR);
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = false;
    c.kernel_file = path;
    c.quiz = true;
    if (!start_app(&s, &c))
        return;
    CHECK_MSG(s.ktrace && s.ktrace->nsteps == 3, "round-one's start has 3 steps");
    key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(s.quiz_asking && s.step == 1, "Right asks about step 2: asking %d step %d",
              s.quiz_asking, s.step);
    char cap[SV_WORDS_MAX];
    caption_of(&s, cap, sizeof cap);
    CHECK_MSG(strstr(cap, "Predict step 2") && strstr(cap, "buf[1]"), "the question: %s", cap);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    sv_app_view v;
    sv_app_view_of(&s, &v);
    view_draw(&v, s.fb_w, s.fb_h, rec, "kernel-quiz-", "asking");
    const sv_theme *th = sv_theme_get(s.theme);
    CHECK_INT(texts_in(rec, "?", th->accent), 8);
    sv_tip_words tip;
    int row = sv_kquiz_row(s.ktrace, 1);
    CHECK_MSG(row >= 1 && !sv_kwords_tooltip(&v, row, 3, &tip), "an asked cell's tooltip "
              "tells nothing (row %d)", row);
    press(&s, "3\r4\r");
    CHECK_MSG(line_has(&s, "quiz_answers=0:3,1:4 "), "the answers typed");
    key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(!s.quiz_asking && s.quiz_scored && s.quiz_right == 1 && s.quiz_total == 2,
              "revealed against the trace: %d of %d", s.quiz_right, s.quiz_total);
    CHECK(line_has(&s, "quiz_results=0:right,1:wrong "));
    caption_of(&s, cap, sizeof cap);
    CHECK_MSG(strstr(cap, "1 of 2 right"), "the verdict: %s", cap);
    sv_app_view_of(&s, &v);
    view_draw(&v, s.fb_w, s.fb_h, rec, "kernel-quiz-", "revealed");
    CHECK_MSG(texts_in(rec, "?", th->accent) == 0, "revealed: no `?` left");
    sv_gfx_rec_destroy(rec);
    sv_app_cleanup(&s);

    kernel_path("in_place_two_barriers.cu", path, sizeof path);
    c.kernel_file = path;
    if (!start_app(&s, &c))
        return;
    key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(s.step == 1 && !s.quiz_asking && strstr(s.status, "nothing to predict"),
              "the read step asks nothing: step %d asking %d (%s)", s.step, s.quiz_asking,
              s.status);
    key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(s.step == 2 && s.quiz_asking, "the write step asks");
    sv_app_cleanup(&s);
}

/* scanviz-trace --kernel-file DIR/name on the chapter's example, its
 * trace file (version 3) written to out; the exit status it gave. */
static int write_ktrace(const char *dir, const char *name, const char *out)
{
    char path[600];
    kernel_path(name, path, sizeof path);
    const char *args[] = { "--kernel-file", path, "--input", "3 1 7 0 4 1 6 3", "--format",
                           "json", "-o", out, NULL };
    spawn_result r = spawn_exe(dir, trace_exe, args, NULL);
    int st = r.status;
    if (st != 0 && st != 4)
        fprintf(stderr, "scanviz-trace %s: exit %d: %s\n", name, st, r.err);
    spawn_result_free(&r);
    return st;
}

/* The source panel's text as drawn: whether a code row holds text. */
static bool panel_shows(const sv_app_state *s, const char *text)
{
    sv_gfx_rec *rec = sv_gfx_rec_create();
    sv_app_view v;
    sv_app_view_of(s, &v);
    view_draw(&v, s->fb_w, s->fb_h, rec, "kernel-deck-", NULL);
    bool found = false;
    for (size_t i = 0; i < sv_gfx_rec_count(rec) && !found; i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        found = p->kind == SV_PRIM_TEXT && p->font == SV_FONT_MONO && p->text &&
                p->x0 >= lay.code_panel.x && lay.code_panel.w > 0 && strstr(p->text, text);
    }
    sv_gfx_rec_destroy(rec);
    return found;
}

/* 3. A --trace deck of kernel traces (version 3, written by scanviz-trace
 * --kernel-file on the CPU) and a chapter trace (the H200's): K and Shift+K
 * walk them; a kernel trace is drawn by the kernel pane with its own source
 * in the panel, read only (no file to run again, the header says so), a
 * chapter trace by the chapter's pane. `--trace k.json` alone too. */
static void test_deck(void)
{
    char dir[400];
    check_tmpdir(dir, sizeof dir, "sv-kdeck");
    char two[700], race[700], chap[700];
    snprintf(two, sizeof two, "%s/two.scanviz.json", dir);
    snprintf(race, sizeof race, "%s/race.scanviz.json", dir);
    snprintf(chap, sizeof chap, "%s/tests/data/correct-64-h200.scanviz.json", SV_SOURCE_ROOT);
    CHECK_INT(write_ktrace(dir, "in_place_two_barriers.cu", two), 0);
    CHECK_INT(write_ktrace(dir, "in_place_race.cu", race), 4);
    const char *deck[] = { two, chap, race };
    sv_app_config c = config(NULL, 0, SV_TYPE_INT32);
    c.animations = false;
    c.code = true;
    char err[600] = "";
    CHECK_MSG(sv_trace_file_load_any(two, &c.trace, &c.ktrace, err, sizeof err) && c.ktrace &&
              !c.trace, "a kernel trace loads as one: %s", err);
    c.trace_path = two;
    c.deck = deck;
    c.deck_n = 3;
    sv_app_state s;
    if (!start_app(&s, &c))
        return;
    CHECK_MSG(s.ktrace && s.kread_only && s.ktrace->nsteps == 8 && s.trace && s.trace->n == 8,
              "the first file in the kernel pane, read only");
    CHECK(line_has(&s, "kread_only=1 ksteps=8 ") && line_has(&s, "deck=1/3 "));
    sv_app_view v;
    sv_app_view_of(&s, &v);
    const char *title;
    char rest[400];
    sv_kwords_header(&v, &title, rest, sizeof rest);
    CHECK_MSG(strstr(rest, "in_place_two_barriers.cu") && strstr(rest, "read only"),
              "the header: %s", rest);
    CHECK_MSG(strstr(s.source, "two.scanviz.json") && strstr(s.source, "CPU runtime"),
              "the source line: %s", s.source);
    CHECK_MSG(panel_shows(&s, "everybody has read"), "its own source in the panel");
    key(&s, SDLK_DOWN, 0); /* its phases work too */
    CHECK(s.phase == SV_PHASE_LOAD && line_has(&s, "code_lines=14-14 "));

    key(&s, SDLK_k, 0); /* the H200's chapter trace */
    CHECK_MSG(!s.ktrace && !s.kread_only && s.trace && s.trace->n == 64 && s.trace->backend ==
              SV_BACKEND_CUDA, "K: the chapter trace in its own pane (%s)", s.status);
    CHECK(line_has(&s, "deck=2/3 ") && line_has(&s, "kfile=- "));
    key(&s, SDLK_k, 0); /* the race */
    CHECK_MSG(s.ktrace && s.kread_only && s.ktrace->hazards_total == 10 &&
              strstr(s.status, "in_place_race.cu"), "K: the racy kernel trace (%s)", s.status);
    CHECK_MSG(panel_shows(&s, "MARK: race"), "the race's own source in the panel");
    key(&s, SDLK_k, KMOD_LSHIFT);
    key(&s, SDLK_k, KMOD_LSHIFT); /* back to the first */
    CHECK(s.ktrace && s.ktrace->nsteps == 8 && line_has(&s, "deck=1/3 "));
    /* A new input is a new trace: the file's kernel trace gives way. */
    key(&s, SDLK_r, 0);
    CHECK_MSG(!s.ktrace && !s.kread_only, "R: a new input drops the file's kernel trace");
    sv_app_cleanup(&s);

    /* --trace race.json alone. */
    c = config(NULL, 0, SV_TYPE_INT32);
    CHECK(sv_trace_file_load_any(race, &c.trace, &c.ktrace, err, sizeof err) && c.ktrace);
    c.trace_path = race;
    if (start_app(&s, &c)) {
        CHECK_MSG(s.ktrace && s.kread_only && s.deck_n == 0 && line_has(&s, "khazards=10 "),
                  "one kernel trace file alone");
        sv_app_cleanup(&s);
    }
    static const char *const made[] = { "two.scanviz.json", "race.scanviz.json", "stdin",
                                        "stdout", "stderr", NULL };
    for (const char *const *m = made; *m; m++) {
        char f[700];
        snprintf(f, sizeof f, "%s/%s", dir, *m);
        unlink(f);
    }
    rmdir(dir);
}

/* 4. A GPU's kernel trace records no writes: its phases come from the cells
 * it wrote (shared: the op, out[]: the copy back), then the barrier, and
 * say that their lines are not recorded; its overview and question still
 * find the row each step wrote. */
static void test_gpu_phases(void)
{
    char err[256];
    sv_ktrace *t = sv_ktrace_create("gpu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, chapter,
                                    8, err, sizeof err);
    CHECK_MSG(t && sv_ktrace_add_array(t, "s", SV_KARRAY_SHARED, 8, 1, err, sizeof err) == 0 &&
              sv_ktrace_add_array(t, "out", SV_KARRAY_OUT, 8, 1, err, sizeof err) == 1, "%s", err);
    if (!t)
        return;
    t->backend = SV_BACKEND_CUDA;
    sv_kstep *a = sv_ktrace_add_step(t, 15, err, sizeof err);
    for (uint32_t i = 0; a && i < 8; i++)
        sv_kstep_set_cell(t, a, 0, i, chapter[i]);
    sv_kstep *b = sv_ktrace_add_step(t, 0, err, sizeof err);
    for (uint32_t i = 0; b && i < 8; i++) {
        sv_kstep_set_cell(t, b, 1, i, chapter[i]);
        sv_ktrace_set_output(t, i, chapter[i]);
    }
    CHECK(a && b && sv_ktrace_analyze(t, err, sizeof err));
    sv_phase ph[SV_PHASE_COUNT];
    CHECK_INT(sv_kphases_of(t, 0, ph), 2);
    CHECK(ph[0] == SV_PHASE_OP && ph[1] == SV_PHASE_BARRIER);
    int lines[4];
    CHECK_INT(sv_kphase_lines(t, 0, SV_PHASE_OP, lines, 4), 0);
    CHECK(sv_kphase_lines(t, 0, SV_PHASE_BARRIER, lines, 4) == 1 && lines[0] == 15);
    CHECK_INT(sv_kphases_of(t, 1, ph), 1);
    CHECK(ph[0] == SV_PHASE_COPY_BACK);
    char w[SV_WORDS_MAX];
    sv_kwords_phase(t, 0, SV_PHASE_OP, w, sizeof w);
    CHECK_MSG(strstr(w, "not recorded") != NULL, "a GPU phase's words: %s", w);
    CHECK_INT(sv_kquiz_row(t, 0), 1); /* s */
    CHECK_INT(sv_kquiz_row(t, 1), 2); /* out */
    sv_ktrace_destroy(t);
}

/* The out row's cells as the pane draws them at step k, "3,4,?,..." */
static void out_row(const sv_ktrace *t, size_t k, char *buf, size_t len)
{
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    size_t at = 0;
    buf[0] = '\0';
    for (int r = 0; r < rows.n; r++) {
        if (rows.row[r].kind != SV_KROW_OUT)
            continue;
        for (uint32_t c = 0; c < rows.row[r].count && at + 24 < len; c++) {
            sv_value v;
            char f[40] = "?";
            if (sv_kpane_value(t, k, &rows.row[r], c, &v))
                sv_value_format(t->type, v, f, sizeof f);
            at += (size_t)snprintf(buf + at, len - at, "%s%s", c ? "," : "", f);
        }
    }
}

/* 4. --runs R: everything shown is the one shown run's (issue 28: "shown:
 * run 0" printed the last run's output, and in the window the caption and
 * kout came from another run than the cells, D's first difference from a
 * third). The out row drawn, kout, the caption's wrong cell, D's first
 * difference and the table all agree, for each run W shows too. */
static void test_runs_one_run(void)
{
    char path[600], err[128];
    kernel_path("in_place_race.cu", path, sizeof path);
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = false;
    c.kernel_file = path;
    CHECK(sv_schedule_parse("random:1", &c.schedule, err, sizeof err));
    c.schedule_given = true;
    c.runs = 5;
    sv_app_state s;
    if (!start_app(&s, &c))
        return;
    const sv_ktrace *t = s.ktrace;
    CHECK(t && t->runs == 5 && t->wrong_runs >= 1);
    if (!t || t->nsteps == 0)
        goto done;
    size_t last = t->nsteps - 1;
    char drawn[400], want[440];
    out_row(t, last, drawn, sizeof drawn);
    snprintf(want, sizeof want, "kout=%s", drawn);
    CHECK_MSG(line_has(&s, want), "kout is not the drawn out row (%s)", drawn);
    key(&s, SDLK_END, 0);
    char cap[SV_WORDS_MAX];
    caption_of(&s, cap, sizeof cap);
    if (t->first_wrong >= 0) {
        /* the caption's wrong cell holds what its drawn cell shows */
        char v[40] = "?";
        const char *cells = drawn;
        for (int i = 0; i < t->first_wrong && cells; i++)
            cells = strchr(cells, ',') ? strchr(cells, ',') + 1 : NULL;
        if (cells)
            snprintf(v, sizeof v, "%.*s", (int)strcspn(cells, ","), cells);
        char holds[80];
        snprintf(holds, sizeof holds, "out[%d] holds %s ", (int)t->first_wrong, v);
        CHECK_MSG(strstr(cap, holds) != NULL, "the caption \"%s\" against the drawn %s", cap,
                  drawn);
    }
    /* D: the first difference names a drawn value */
    key(&s, SDLK_d, 0);
    CHECK(s.kcompare_shown);
    caption_of(&s, cap, sizeof cap);
    sv_app_view v;
    sv_app_view_of(&s, &v);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    view_draw(&v, s.fb_w, s.fb_h, rec, "kernel-", "runs-d");
    const sv_prim *diff = rec_text_containing(rec, "first difference from the chapter's kernel");
    CHECK_MSG(diff != NULL, "no first difference drawn");
    if (diff) {
        const char *p = strstr(diff->text, "out[");
        unsigned cell = 0;
        char holds[40] = "";
        if (p && sscanf(p, "out[%u] holds %39[^,]", &cell, holds) == 2) {
            const char *cells = drawn;
            for (unsigned i = 0; i < cell && cells; i++)
                cells = strchr(cells, ',') ? strchr(cells, ',') + 1 : NULL;
            char got[40] = "";
            if (cells)
                snprintf(got, sizeof got, "%.*s", (int)strcspn(cells, ","), cells);
            CHECK_MSG(strcmp(got, holds) == 0, "D: out[%u] holds %s, drawn %s (%s)", cell, holds,
                      got, diff->text);
        }
    }
    sv_gfx_rec_destroy(rec);
done:
    sv_app_cleanup(&s);
}

int main(int argc, char **argv)
{
    if (argc > 2)
        kernels_dir = argv[2];
    if (argc > 3)
        trace_exe = argv[3];
    static const view_test_fn tests[] = { test_phases, test_predict, test_deck, test_gpu_phases,
                                          test_runs_one_run, NULL };
    return view_test_main(argc, argv, "test_app_kernel", tests,
                          "a kernel file's phases, predict mode and deck");
}
