/* The kernel on screen and the mistakes lab in the app's logic, without a
 * window: synthetic key events into sv_app_event(), checked on the state and
 * on the view it hands out. Runs wherever the app builds (the Xvfb test of
 * the same keys, test_lab_keys.py, skips without xdotool):
 *  - Down/Up walk the phases in order across rounds, stop at both ends,
 *    never animate; Right/Left/Home/End and autoplay leave them;
 *  - C toggles the panel and the layout makes room for it;
 *  - K cycles the six kernels on the same input; in-place under sequential
 *    gives 3 4 14 15 32 35 65 71 with its outcome in the view; D toggles;
 *  - a new input, operator or scan keeps the kernel;
 *  - --schedule warps:S with n = 64 runs 100 seeds;
 *  - one default schedule and one runs rule with scanviz-trace's capture;
 *  - the window's lab capture runs in a worker, the frame loop meanwhile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_internal.h"
#include "app_test.h"
#include "bounds.h"
#include "help.h"
#include "source.h"

static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};

static void test_phases(void)
{
    sv_app_state s;
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    start_app(&s, &c);
    CHECK_MSG(s.phase == SV_PHASE_NONE && !s.code, "starts on the whole round, no panel");

    /* Every phase of every step, in order, by Down; the same back by Up. */
    typedef struct { int step; sv_phase p; } want_t;
    want_t want[32];
    int nw = 0;
    for (int k = 0; k < sv_state_steps(&s); k++) {
        sv_phase ph[SV_PHASE_COUNT];
        int n = sv_phases_of(s.trace, k, ph);
        for (int j = 0; j < n; j++)
            want[nw++] = (want_t){ k, ph[j] };
    }
    CHECK_MSG(nw == 3 + 4 + 4 + 4, "phases of the chapter's example: %d", nw);
    for (int j = 0; j < nw; j++) {
        key(&s, SDLK_DOWN, 0);
        CHECK_MSG(s.step == want[j].step && s.phase == want[j].p && s.anim == 1.0f,
              "Down %d: step %d phase %s (anim %.2f), expected step %d phase %s", j + 1, s.step,
              sv_phase_name(s.phase), (double)s.anim, want[j].step, sv_phase_name(want[j].p));
    }
    key(&s, SDLK_DOWN, 0);
    CHECK_MSG(s.step == 3 && s.phase == SV_PHASE_COPY_BACK, "Down stops at the last phase");
    for (int j = nw - 2; j >= 0; j--) {
        key(&s, SDLK_UP, 0);
        CHECK_MSG(s.step == want[j].step && s.phase == want[j].p, "Up to step %d phase %s: got %d %s",
              want[j].step, sv_phase_name(want[j].p), s.step, sv_phase_name(s.phase));
    }
    key(&s, SDLK_UP, 0);
    CHECK_MSG(s.step == 0 && s.phase == SV_PHASE_LOAD, "Up stops at round 0's load");

    /* From the whole round: Down starts at its first phase, Up at its last. */
    key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(s.step == 1 && s.phase == SV_PHASE_NONE, "Right: a whole round");
    key(&s, SDLK_UP, 0);
    CHECK_MSG(s.step == 1 && s.phase == SV_PHASE_SWAP, "Up from the whole round 1: its swap");
    key(&s, SDLK_END, 0);
    CHECK_MSG(s.phase == SV_PHASE_NONE, "End leaves the phases");
    key(&s, SDLK_DOWN, 0);
    CHECK_MSG(s.step == 3 && s.phase == SV_PHASE_GUARD, "Down from the whole last round: its guard");
    key(&s, SDLK_HOME, 0);
    CHECK_MSG(s.step == 0 && s.phase == SV_PHASE_NONE, "Home leaves the phases");
    key(&s, SDLK_DOWN, 0);
    key(&s, SDLK_SPACE, 0);
    CHECK_MSG(s.playing && s.phase == SV_PHASE_NONE, "autoplay shows whole rounds");
    key(&s, SDLK_SPACE, 0);

    /* C: the panel, in the view, and the cells make room. */
    sv_app_view v;
    sv_layout l0, l1;
    sv_app_view_of(&s, &v);
    sv_layout_compute(&v, 1280, 720, &l0);
    key(&s, SDLK_c, 0);
    sv_app_view_of(&s, &v);
    CHECK_MSG(s.code && v.code, "C shows the panel");
    sv_layout_compute(&v, 1280, 720, &l1);
    CHECK_MSG(l1.code_panel.w > 300.0f && l0.code_panel.w == 0.0f, "the panel's box: %.0f",
          (double)l1.code_panel.w);
    CHECK_MSG(l1.cells_clip.x + l1.cells_clip.w <= l1.code_panel.x, "the cells end left of it");
    key(&s, SDLK_c, 0);
    CHECK_MSG(!s.code, "C again hides it");

    /* The state line names the phase and its lines. */
    key(&s, SDLK_HOME, 0);
    key(&s, SDLK_DOWN, 0);
    char line[1 << 16];
    sv_app_state_line(&s, line, sizeof line);
    CHECK_MSG(strstr(line, " phase=load ") && strstr(line, " code=0 "), "state line: %.300s", line);
    sv_app_cleanup(&s);
}

static void test_kernels(void)
{
    sv_app_state s;
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    start_app(&s, &c);
    CHECK_MSG(s.kernel == SV_KERNEL_CORRECT && !s.lab, "the chapter's kernel, no lab");

    key(&s, SDLK_k, 0);
    CHECK_MSG(s.kernel == SV_KERNEL_IN_PLACE && s.lab && s.lab_reads, "K: in-place, with outcome");
    const int32_t want[8] = { 3, 4, 14, 15, 32, 35, 65, 71 };
    for (int i = 0; i < 8; i++)
        CHECK_MSG(s.trace->output[i].i == want[i], "in-place output[%d] = %d", i,
              s.trace->output[i].i);
    CHECK_MSG(s.lab->runs == 1 && s.lab->wrong_runs == 1 && s.lab->first_wrong_round == 1,
          "in-place, sequential: 1 of 1 wrong, from round 1 (%u %u %d)", (unsigned)s.lab->runs,
          (unsigned)s.lab->wrong_runs, s.lab->first_wrong_round);
    sv_app_view v;
    sv_app_view_of(&s, &v);
    CHECK_MSG(v.lab == s.lab && v.lab_reads == s.lab_reads && v.kernel == SV_KERNEL_IN_PLACE &&
          strstr(v.lab_note, "in-place") && strstr(v.kernel_file, "in_place.cu"),
          "the view carries the outcome: %s / %s", v.lab_note, v.kernel_file);
    key(&s, SDLK_d, 0);
    sv_app_view_of(&s, &v);
    CHECK_MSG(s.show_correct && v.show_correct, "D");
    key(&s, SDLK_d, 0);
    CHECK_MSG(!s.show_correct, "D again");

    /* O keeps the kernel (a new trace, the same mistake). */
    key(&s, SDLK_o, 0);
    CHECK_MSG(s.kernel == SV_KERNEL_IN_PLACE && s.op == SV_OP_MAX && s.lab, "O keeps in-place");
    key(&s, SDLK_i, 0);
    CHECK_MSG(s.kernel == SV_KERNEL_IN_PLACE && s.scan == SV_SCAN_EXCLUSIVE && s.lab,
          "I keeps in-place");

    /* The rest of the cycle, back to the chapter's kernel. */
    for (int k = 2; k < SV_KERNEL_COUNT; k++) {
        key(&s, SDLK_k, 0);
        CHECK_MSG(s.kernel == (sv_kernel)k && s.lab && s.trace->n == 8, "K: kernel %d", k);
    }
    /* no-else and off-by-one are wrong in every schedule */
    CHECK_MSG(s.lab && s.lab->wrong_runs == s.lab->runs, "off-by-one is wrong");
    key(&s, SDLK_k, 0);
    CHECK_MSG(s.kernel == SV_KERNEL_CORRECT && !s.lab && !s.lab_reads, "K wraps to correct");
    sv_app_cleanup(&s);

    /* A seeded schedule at n = 64: 100 runs summarized. */
    sv_value in[64];
    for (int i = 0; i < 64; i++)
        in[i].i = i % 7;
    c = config(in, 64, SV_TYPE_INT32);
    c.kernel = SV_KERNEL_NO_BARRIER;
    c.schedule = (sv_schedule){ SV_SCHEDULE_WARPS, 5 };
    c.schedule_given = true;
    start_app(&s, &c);
    CHECK_MSG(s.kernel == SV_KERNEL_NO_BARRIER && s.lab && s.lab->runs == 100,
          "warps:5 runs 100 seeds (%u)", s.lab ? (unsigned)s.lab->runs : 0u);
    char line[1 << 16];
    sv_app_state_line(&s, line, sizeof line);
    CHECK_MSG(strstr(line, " kernel=no-barrier schedule=warps:5 ") && strstr(line, " lab_runs=100 "),
          "state line: %.400s", strstr(line, "kernel=") ? strstr(line, "kernel=") : line);
    sv_app_cleanup(&s);
}

/* Issue 18: one --schedule, one number of runs, in scanviz and scanviz-trace.
 * The window's mistake and capture's (what scanviz-trace asks for: no
 * emulate_schedule) run under the same default schedule, the option table's,
 * and a given schedule gives the same runs in both. */
static void test_one_rule(void)
{
    static const char *const given[] = {NULL, "random:2", "lockstep"};
    for (size_t g = 0; g < sizeof given / sizeof *given; g++) {
        sv_app_state s;
        sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
        c.kernel = SV_KERNEL_IN_PLACE;
        char err[256];
        if (given[g]) {
            CHECK(sv_schedule_parse(given[g], &c.schedule, err, sizeof err));
            c.schedule_given = true;
        }
        start_app(&s, &c);
        sv_capture_request req = {.op = SV_OP_SUM, .type = SV_TYPE_INT32, .input = chapter,
                                  .n = 8, .choice = SV_CHOOSE_CPU,
                                  .kernel = SV_KERNEL_IN_PLACE, .has_schedule = given[g] != NULL,
                                  .schedule = c.schedule};
        sv_trace *t = NULL;
        CHECK(sv_capture(&req, &t, NULL, err, sizeof err) == SV_CAPTURE_OK && t && t->lab);
        const sv_lab_record *W = s.trace ? s.trace->lab : NULL;
        char ws[48] = "", cs[48] = "", want[64];
        if (W && t && t->lab) {
            sv_schedule_format(W->schedule, ws, sizeof ws);
            sv_schedule_format(t->lab->schedule, cs, sizeof cs);
            CHECK_MSG(strcmp(ws, cs) == 0 && W->runs == t->lab->runs,
                      "%s: the window runs %s x%u, scanviz-trace %s x%u",
                      given[g] ? given[g] : "no --schedule", ws, (unsigned)W->runs, cs,
                      (unsigned)t->lab->runs);
            CHECK_STR(ws, given[g] ? given[g] : SV_LAB_DEFAULT_SCHEDULE);
            CHECK_INT(W->runs, g == 1 ? SV_LAB_DEFAULT_RUNS : 1);
        }
        char line[1 << 16];
        sv_app_state_line(&s, line, sizeof line);
        snprintf(want, sizeof want, " schedule=%s ", given[g] ? given[g] : SV_LAB_DEFAULT_SCHEDULE);
        CHECK_MSG(strstr(line, want), "state line: %.300s", strstr(line, "kernel="));
        sv_trace_destroy(t);
        sv_app_cleanup(&s);
    }
}

/* Predict mode's third question, with a mistake shown: "will each cell be
 * right?", scored against every run of the lab's summary (right = right in
 * every run); Q offers it only with a mistake. */
static void test_quiz_outcome(void)
{
    sv_app_state s;
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = false;
    start_app(&s, &c);
    /* The chapter's kernel: Q toggles values and cases only. */
    key(&s, SDLK_p, 0);
    key(&s, SDLK_q, 0);
    CHECK_MSG(s.quiz_kind == SV_QUIZ_CASES, "Q: cases");
    key(&s, SDLK_q, 0);
    CHECK_MSG(s.quiz_kind == SV_QUIZ_VALUES, "no mistake: Q goes back to values");
    key(&s, SDLK_p, 0);
    /* in-place under sequential (runs 1): round 2 (stride 2) right at 0, 1 */
    key(&s, SDLK_k, 0);
    CHECK_MSG(s.kernel == SV_KERNEL_IN_PLACE && s.lab, "K: in-place");
    if (!s.lab) {
        sv_app_cleanup(&s);
        return;
    }
    key(&s, SDLK_p, 0);
    key(&s, SDLK_RIGHT, 0);
    key(&s, SDLK_RIGHT, 0); /* reveal round 1 (no answers) */
    key(&s, SDLK_RIGHT, 0); /* ask round 2 */
    CHECK_MSG(s.quiz_asking && s.step == 2, "asking round 2 (step %d)", s.step);
    key(&s, SDLK_q, 0);
    key(&s, SDLK_q, 0);
    CHECK_MSG(s.quiz_kind == SV_QUIZ_OUTCOME, "Q, Q with a mistake: right or wrong");
    sv_app_view v;
    sv_app_view_of(&s, &v);
    CHECK_MSG(v.quiz_kind == SV_QUIZ_OUTCOME, "the view asks it");
    size_t n = s.lab->n;
    int truth_right = 0;
    for (size_t i = 0; i < n; i++) { /* answer "right" everywhere */
        key(&s, SDLK_1, 0);
        key(&s, SDLK_TAB, 0);
        truth_right += s.lab->cells[2 * n + i].wrong_runs == 0;
    }
    CHECK_MSG(truth_right == 2, "in-place, sequential, round 2: 2 cells right (%d)", truth_right);
    key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(!s.quiz_asking && s.quiz_scored && s.quiz_right == truth_right &&
              s.quiz_total == (int)n, "score %d / %d", s.quiz_right, s.quiz_total);
    CHECK_MSG(s.quiz_result[0] == SV_QUIZ_RIGHT && s.quiz_result[7] == SV_QUIZ_WRONG,
              "cell 0 right in every run, cell 7 wrong");
    /* The chapter's kernel again: an outcome question becomes values. */
    key(&s, SDLK_RIGHT, 0);
    for (int k = 0; k < SV_KERNEL_COUNT - 1; k++)
        key(&s, SDLK_k, 0);
    CHECK_MSG(s.kernel == SV_KERNEL_CORRECT, "back to the chapter's kernel");
    sv_app_view_of(&s, &v);
    CHECK_MSG(v.quiz_kind == SV_QUIZ_VALUES, "no mistake, no outcome question");
    sv_app_cleanup(&s);
}

/* A presenter script's `kernel NAME` switches the kernel; walking back past
 * it restores the kernel before it. */
static void test_script_kernel(void)
{
    char err[512], path[] = "/tmp/sv-test-script-XXXXXX";
    int fd = mkstemp(path);
    CHECK_MSG(fd >= 0, "mkstemp");
    if (fd < 0)
        return;
    static const char text[] = "round 1 : one\nkernel in-place round 2 : two\nround 3 : three\n"
                               "kernel no-else round 3 : four\n";
    CHECK_MSG(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1), "write");
    close(fd);
    sv_app_state s;
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = false;
    c.script = path;
    start_app(&s, &c);
    unlink(path);
    sv_app_resize(&s, 1280, 720, 1280, 720);
    CHECK_MSG(s.script_at == 0 && s.kernel == SV_KERNEL_CORRECT && s.step == 1, "step 1: correct");
    static const struct { SDL_Keycode k; int at, step; sv_kernel kernel; } walk[] = {
        { SDLK_RIGHT, 1, 2, SV_KERNEL_IN_PLACE }, { SDLK_RIGHT, 2, 3, SV_KERNEL_IN_PLACE },
        { SDLK_RIGHT, 3, 3, SV_KERNEL_NO_ELSE },  { SDLK_LEFT, 2, 3, SV_KERNEL_IN_PLACE },
        { SDLK_LEFT, 1, 2, SV_KERNEL_IN_PLACE },  { SDLK_LEFT, 0, 1, SV_KERNEL_CORRECT },
    };
    for (size_t i = 0; i < sizeof walk / sizeof walk[0]; i++) {
        key(&s, walk[i].k, 0);
        CHECK_MSG(s.script_at == walk[i].at && s.step == walk[i].step &&
                  s.kernel == walk[i].kernel && (s.kernel == SV_KERNEL_CORRECT) == !s.lab,
                  "walk %zu: step %d of the script, round %d, kernel %s (want %d, %d, %s)", i,
                  s.script_at, s.step, sv_kernel_name(s.kernel), walk[i].at, walk[i].step,
                  sv_kernel_name(walk[i].kernel));
    }
    sv_app_cleanup(&s);
    /* An unknown kernel in a script is refused with its line. */
    fd = mkstemp(path);
    if (fd >= 0) {
        static const char bad[] = "round 1\nkernel sloppy : x\n";
        CHECK_MSG(write(fd, bad, sizeof bad - 1) == (ssize_t)(sizeof bad - 1), "write");
        close(fd);
        c.script = path;
        CHECK_MSG(sv_app_init(&s, &c, err, sizeof err) == SV_APP_BAD_INPUT &&
                  strstr(err, "line 2") && strstr(err, "sloppy"), "bad kernel: %s", err);
        sv_app_cleanup(&s);
        unlink(path);
    }
}

/* K and --kernel go through capture: without a GPU (auto) a mistake is
 * emulated under the window's schedule and the source line says why. */
static void test_kernel_no_gpu(void)
{
    char why[256];
    if (sv_capture_cuda_available(NULL, 0, NULL, why, sizeof why))
        return; /* the --gpu run checks this machine */
    sv_app_state s;
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.backend = SV_CHOOSE_AUTO;
    c.kernel = SV_KERNEL_IN_PLACE;
    start_app(&s, &c);
    CHECK_MSG(s.trace && s.trace->backend == SV_BACKEND_CPU && s.lab && s.lab->runs == 1 &&
              s.trace->lab && s.trace->lab->emulated &&
              s.trace->lab->schedule.kind == SV_SCHEDULE_SEQUENTIAL,
              "no GPU: in-place emulated once under sequential");
    CHECK_MSG(strstr(s.source, why) && strstr(s.source, "in-place \u00b7 sequential \u00b7 emulated"),
              "the source says why (%s): %s", why, s.source);
    sv_app_cleanup(&s);
}

/* On a GPU (--gpu; exits 77 without one): K and --kernel run the mistake
 * there, --runs times (100 by default), shaken as asked, and the window
 * shows the GPU's outcome. */
static int test_kernel_gpu(void)
{
    char why[256];
    if (!sv_capture_cuda_available(NULL, 0, NULL, why, sizeof why)) {
        printf("SKIP: no GPU: %s\n", why);
        return 77;
    }
    sv_value in[1024];
    for (int i = 0; i < 1024; i++)
        in[i].i = (i * 7) % 10;
    sv_app_state s;
    sv_app_config c = config(in, 1024, SV_TYPE_INT32);
    c.backend = SV_CHOOSE_CUDA;
    start_app(&s, &c);
    key(&s, SDLK_k, 0);
    CHECK_MSG(s.kernel == SV_KERNEL_IN_PLACE && s.trace->backend == SV_BACKEND_CUDA && s.lab &&
              s.lab->runs == 100 && s.trace->lab && !s.trace->lab->emulated && !s.lab_reads,
              "K on the GPU: in-place, 100 GPU runs (%s)", s.source);
    char line[1 << 16];
    sv_app_state_line(&s, line, sizeof line);
    CHECK_MSG(strstr(line, " kernel=in-place schedule=gpu ") && strstr(line, " lab_runs=100 ") &&
              strstr(s.source, "100 GPU runs (not shaken)"), "state line: %.300s / %s",
              strstr(line, "kernel="), s.source);
    printf("K on the GPU, n = 1024: in-place wrong in %u of %u runs, first wrong round %d\n",
           (unsigned)s.lab->wrong_runs, (unsigned)s.lab->runs, s.lab->first_wrong_round);
    sv_app_cleanup(&s);

    c.kernel = SV_KERNEL_IN_PLACE;
    c.runs = 20;
    c.shake = true;
    c.shake_seed = 3;
    start_app(&s, &c);
    CHECK_MSG(s.trace && s.trace->backend == SV_BACKEND_CUDA && s.lab && s.lab->runs == 20 &&
              strstr(s.source, "20 GPU runs (shaken, seed 3)"), "--kernel --runs 20 --shake-seed 3: %s",
              s.source);
    printf("--kernel in-place --runs 20 --shake-seed 3: wrong in %u of %u runs\n",
           s.lab ? (unsigned)s.lab->wrong_runs : 0u, s.lab ? (unsigned)s.lab->runs : 0u);
    sv_app_cleanup(&s);
    return check_status();
}

/* The help overlay's K row names every kernel of the registry. */
static void test_help_kernels(void)
{
    size_t i = 0;
    while (sv_help_keys[i][0] && strcmp(sv_help_keys[i][0], "K") != 0)
        i++;
    CHECK_MSG(sv_help_keys[i][0] != NULL, "the help lists K");
    if (!sv_help_keys[i][0])
        return;
    const char *what = sv_help_what(i);
    for (int k = 0; k < SV_KERNEL_COUNT; k++)
        CHECK_MSG(strstr(what, sv_kernel_name((sv_kernel)k)) != NULL, "K's help names %s: %s",
                  sv_kernel_name((sv_kernel)k), what);
}

/* The lab's capture in the window's worker (app_labjob.c): K with a seeded
 * schedule at n = 1024 (100 runs, seconds) runs off the frame loop, which
 * keeps answering (the state line says labjob=running:made/100, the status
 * how far, the chapter's picture stays) until the result lands; a newer
 * request supersedes a pending one (only the newest kernel is shown); a
 * script's step waits for it. */
static void test_background(void)
{
    enum { N = 1024 };
    static sv_value in[N];
    for (size_t i = 0; i < N; i++)
        in[i].i = (int32_t)(i * 7 % 5) + 1;
    sv_app_state s;
    sv_app_config c = config(in, N, SV_TYPE_INT32);
    c.background = true;
    char err[256];
    CHECK(sv_schedule_parse("warps:1", &c.schedule, err, sizeof err));
    c.schedule_given = true;
    if (!start_app(&s, &c))
        return;
    CHECK(s.kernel == SV_KERNEL_CORRECT && s.labjob == NULL);
    const sv_trace *before = s.trace;
    press(&s, "k");
    CHECK_MSG(s.labjob != NULL && s.kernel == SV_KERNEL_IN_PLACE, "K starts the worker");
    int frames = 0, running_lines = 0, progress_lines = 0;
    for (int waited = 0; s.labjob && waited < 120000; waited += 5) {
        sv_app_update(&s, 0.005f);
        frames++;
        char line[1 << 16];
        sv_app_state_line(&s, line, sizeof line);
        if (s.labjob && strstr(line, " labjob=running:")) {
            running_lines++;
            CHECK_MSG(s.trace == before && s.lab == NULL, "the last picture stays meanwhile");
        }
        if (strstr(s.status, "runs\u2026") && strstr(s.status, " / 100 runs"))
            progress_lines++;
        SDL_Delay(5);
    }
    CHECK_MSG(s.labjob == NULL, "the capture landed");
    CHECK_MSG(frames > 10 && running_lines > 10 && progress_lines > 0,
              "the frame loop ran meanwhile: %d frames, %d state lines while running, %d "
              "progress lines", frames, running_lines, progress_lines);
    CHECK_MSG(s.lab && s.lab->runs == SV_LAB_DEFAULT_RUNS && s.kernel == SV_KERNEL_IN_PLACE &&
                  s.trace && s.trace->n == N,
              "the result lands: %u runs", s.lab ? (unsigned)s.lab->runs : 0u);
    CHECK(line_has(&s, " labjob=idle "));
    CHECK_MSG(strstr(s.status, "Kernel: in-place") && !strstr(s.status, "running"),
              "status: %s", s.status);
    /* K twice at once: the first request gives way, the newest lands (10
     * runs from here, --runs 10, to keep the test short). */
    s.lab_runs = 10;
    press(&s, "kk");
    sv_kernel want = (sv_kernel)((SV_KERNEL_IN_PLACE + 2) % SV_KERNEL_COUNT);
    CHECK(s.labjob != NULL && s.labjob_old != NULL && s.kernel == want);
    for (int waited = 0; (s.labjob || s.labjob_old) && waited < 120000; waited += 5) {
        sv_app_update(&s, 0.005f);
        SDL_Delay(5);
    }
    const sv_lab_record *L = s.trace ? s.trace->lab : NULL;
    CHECK_MSG(L && L->kernel == want && s.kernel == want, "the newest kernel is shown: %s",
              L ? sv_kernel_name(L->kernel) : "none");
    /* Waiting (a script's step, an export): the result at once. */
    press(&s, "k");
    sv_app_labjob_wait(&s);
    L = s.trace ? s.trace->lab : NULL;
    CHECK(s.labjob == NULL && L && L->kernel == (sv_kernel)((want + 1) % SV_KERNEL_COUNT));
    sv_app_cleanup(&s);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--gpu") == 0)
        return test_kernel_gpu();
    test_kernel_no_gpu();
    test_phases();
    test_kernels();
    test_one_rule();
    test_help_kernels();
    test_quiz_outcome();
    test_script_kernel();
    test_background();
    return check_report("app lab: all checks passed");
}
