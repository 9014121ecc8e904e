/* The visualizer's state from start to end (sokol-style): init, update,
 * cleanup, the setters main.c needs, and the Measure view's live benchmark.
 * The app's files (app_internal.h lists them, each one idea) are the only
 * writers of the state (state.h); main.c draws the view they hand out. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/timeline.h"
#include "../core/trace_file.h"
#include "../core/bounds.h"
#include "app_internal.h"
#include "bench_live.h"
#include "render_timeline.h"
#include "util.h"

/* SV_MOVE_S, SV_HOLD_S: view.h (the GIF export plays the same timing) */

/* ---- the Measure view's live benchmark ---------------------------------- */

void sv_app_bench_toggle(sv_app_state *s)
{
    if (s->bench_live) {
        sv_bench_live_destroy(s->bench_live);
        s->bench_live = NULL;
        s->bench_running = false;
        sv_app_set_status(s, "Benchmark stopped");
        return;
    }
    char err[256];
    s->bench_live = sv_bench_live_start(NULL, err, sizeof err);
    if (!s->bench_live) {
        char msg[300];
        snprintf(msg, sizeof msg, "Benchmark: %.280s", err);
        sv_app_set_status(s, msg);
        return;
    }
    s->bench_running = true;
    s->bench_progress = 0.0f;
    sv_app_set_status(s, "Benchmark running…");
}

static void poll_live_bench(sv_app_state *s)
{
    if (!s->bench_live)
        return;
    sv_bench_table *t = NULL;
    char err[256] = "", msg[300];
    sv_bench_live_status st = sv_bench_live_poll(s->bench_live, &s->bench_progress, &t,
                                                 err, sizeof err);
    if (st == SV_BENCH_LIVE_RUNNING)
        return;
    if (st == SV_BENCH_LIVE_DONE && t) {
        sv_bench_table_destroy(s->bench);
        s->bench = t;
        sv_bench_describe(t, "live", s->bench_source, sizeof s->bench_source);
        sv_app_set_status(s, "Benchmark done");
    } else {
        sv_bench_table_destroy(t);
        snprintf(msg, sizeof msg, "Benchmark failed: %.270s", err[0] ? err : "no table");
        sv_app_set_status(s, msg);
    }
    sv_bench_live_destroy(s->bench_live);
    s->bench_live = NULL;
    s->bench_running = false;
}

/* ---- init, update, cleanup ---------------------------------------------- */

static sv_app_status app_status_of(sv_capture_status st)
{
    return st == SV_CAPTURE_BAD_INPUT ? SV_APP_BAD_INPUT
         : st == SV_CAPTURE_UNAVAILABLE ? SV_APP_UNAVAILABLE : SV_APP_FAILED;
}

/* The first trace: a kernel trace file's (read only, the chapter's trace of
 * its input beside it), a chapter trace file's (with --kernel, that
 * mistake on its input), or the input captured. */
static sv_app_status first_trace(sv_app_state *s, const sv_app_config *c, char *err,
                                 size_t errlen)
{
    if (c->ktrace) { /* a kernel trace file: the kernel pane, read only */
        s->deck = c->deck;
        s->deck_n = c->deck && c->deck_n > 1 ? c->deck_n : 0;
        s->deck_at = 0;
        if (!sv_app_adopt_ktrace(s, c->ktrace, c->trace_path, err, errlen))
            return SV_APP_FAILED;
    } else if (c->trace) {
        sv_trace *t = c->trace;
        sv_app_adopt(s, t);
        s->from_file = true;
        sv_capture_source src;
        sv_capture_source_of_trace(t, &src);
        sv_app_set_source(s, &src, c->trace_path);
        s->deck = c->deck;
        s->deck_n = c->deck && c->deck_n > 1 ? c->deck_n : 0;
        s->deck_at = 0;
        if (c->background && c->backend != SV_CHOOSE_CPU)
            sv_app_bg_start(s, t->input, t->n, s->gen);
        /* --kernel with a file: that mistake on the file's input. */
        if (c->kernel != SV_KERNEL_CORRECT) {
            s->kernel = c->kernel;
            sv_capture_status st = sv_app_recapture_shown(s, s->op, s->scan, err, errlen);
            if (st != SV_CAPTURE_OK)
                return app_status_of(st);
        }
    } else {
        if (c->background && c->backend != SV_CHOOSE_CPU && c->n <= SV_MAX_N) {
            /* started before the first trace: the generation it will have */
            sv_app_bg_start(s, c->input, c->n, s->gen + 1);
        }
        /* With a background probe, the emulator until it is done. In the
         * window a mistake's runs go to the lab's worker: the chapter's
         * picture first, the mistake's when its runs are done. */
        sv_kernel want = s->kernel;
        if (c->background)
            s->kernel = SV_KERNEL_CORRECT;
        sv_capture_status st = sv_app_recapture(s, c->op, c->type, c->scan, c->input, c->n, err,
                                         errlen);
        if (st != SV_CAPTURE_OK)
            return app_status_of(st);
        if (want != s->kernel) {
            s->lab_background = true;
            sv_app_set_kernel(s, want);
        }
    }
    return SV_APP_OK;
}

sv_app_status sv_app_init(sv_app_state *s, const sv_app_config *c, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    s->backend = c->backend;
    s->op = c->op;
    s->type = c->type;
    s->scan = c->scan;
    s->speed = c->speed > 0.0f ? sv_clampf(c->speed, 0.25f, 4.0f) : 1.0f;
    s->animations = c->animations;
    s->theme = c->theme;
    s->fullscreen = c->fullscreen;
    s->code = c->code;
    if (!sv_kernel_get(c->kernel)) {
        snprintf(err, errlen, "kernel %d: unknown", (int)c->kernel);
        return SV_APP_BAD_INPUT;
    }
    s->kernel = c->kernel;
    /* One default with scanviz-trace (the option table's), so one runs rule. */
    if (c->schedule_given)
        s->schedule = c->schedule;
    else if (!sv_schedule_parse(SV_LAB_DEFAULT_SCHEDULE, &s->schedule, err, errlen))
        return SV_APP_BAD_INPUT;
    s->schedule_given = c->schedule_given;
    s->lab_runs = c->runs;
    s->lab_shake = c->shake;
    s->lab_shake_seed = c->shake_seed;
    s->ui_scale = 1.0f;
    s->zoom = 1.0f;
    s->anim = 1.0f;
    s->hover_row = s->hover_cell = -1;
    s->pinned_row = s->pinned_cell = -1;
    s->ktile_lo = s->ktile_hi = -1;
    s->view = SV_VIEW_SCAN;
    s->seed = c->seed;
    s->win_w = s->fb_w = 1280;
    s->win_h = s->fb_h = 720;
    s->pixel_ratio = 1.0f;
    if (SDL_WasInit(SDL_INIT_VIDEO))
        SDL_StopTextInput(); /* SDL2 starts it by default; only the input box wants it */

    sv_app_status first = first_trace(s, c, err, errlen);
    if (first != SV_APP_OK) {
        sv_app_cleanup(s);
        return first;
    }

    if (c->kernel_file) {
        s->kschedule = c->schedule_given ? c->schedule
                                         : (sv_schedule){SV_SCHEDULE_LOCKSTEP, 1};
        /* As scanviz-trace --kernel-file (kernel_cmd.c): lockstep once; a
         * given random:S or warps:S runs SV_LAB_DEFAULT_RUNS seeds. */
        bool seeded = s->kschedule.kind == SV_SCHEDULE_RANDOM ||
                      s->kschedule.kind == SV_SCHEDULE_WARPS;
        s->kruns = c->runs ? c->runs : seeded && c->schedule_given ? SV_LAB_DEFAULT_RUNS : 1;
        s->kruns_given = c->runs != 0;
        if (!sv_app_kfile_start(s, c->kernel_file, c->entry, c->time_limit_ms, c->background,
                                err, errlen)) {
            sv_app_cleanup(s);
            return SV_APP_BAD_INPUT;
        }
        sv_app_copy_text(s->kfile_start, sizeof s->kfile_start, c->kernel_file);
    } else if (c->builtin_kernel) { /* --kernel blelloch: as a kernel file, nothing watched */
        s->kschedule = c->schedule_given ? c->schedule
                                         : (sv_schedule){SV_SCHEDULE_LOCKSTEP, 1};
        s->kruns = c->runs ? c->runs : 1;
        s->ktime_limit_ms = c->time_limit_ms;
        if (!sv_app_kfile_start_builtin(s, c->builtin_kernel, c->background, err, errlen)) {
            sv_app_cleanup(s);
            return SV_APP_FAILED;
        }
        sv_app_copy_text(s->kfile_start, sizeof s->kfile_start, c->builtin_kernel);
        s->kfile_start_builtin = true;
    }
    /* --shake with the runs emulated for sure (--backend cpu, a schedule,
     * or no probe to wait for and a CPU trace): say it is ignored; with a
     * probe running, sv_app_bg_finish says it once no GPU is found. */
    if (c->shake && (c->backend == SV_CHOOSE_CPU || c->schedule_given ||
                     (!s->bg && s->trace && s->trace->backend == SV_BACKEND_CPU)))
        sv_app_shake_notice(s);
    s->kbackground = c->background; /* a script's kernel-file steps run as the window does */
    s->lab_background = c->background; /* the lab's captures in its worker (app_capture.c) */
    s->ktime_limit_ms = c->time_limit_ms;
    if (!sv_app_exercise_init(s, c, err, errlen)) {
        sv_app_cleanup(s);
        return SV_APP_BAD_INPUT;
    }
    if (c->bench_csv) {
        char berr[256];
        s->bench = sv_bench_table_load(c->bench_csv, berr, sizeof berr);
        if (!s->bench) {
            snprintf(err, errlen, "--bench-csv: %s", berr); /* berr names the file */
            sv_app_cleanup(s);
            return SV_APP_BAD_INPUT;
        }
        const char *base = strrchr(c->bench_csv, '/');
        sv_bench_describe(s->bench, base ? base + 1 : c->bench_csv, s->bench_source,
                          sizeof s->bench_source);
    } else {
        char berr[256];
        s->bench = sv_bench_shipped(berr, sizeof berr); /* NULL: the view says so */
        if (s->bench)
            sv_bench_describe(s->bench, "shipped", s->bench_source, sizeof s->bench_source);
    }

    if (c->timeline) {
        char terr[600];
        s->timeline = sv_timeline_load(c->timeline, terr, sizeof terr);
        if (!s->timeline) {
            snprintf(err, errlen, "--timeline: %s", terr); /* terr names the file */
            sv_app_cleanup(s);
            return SV_APP_BAD_INPUT;
        }
        s->timeline_on = true;
        s->tl_cursor = SV_TL_NO_CURSOR;
        s->tl_first = 0;
        s->tl_rows = SV_TL_ROWS_DEFAULT;
        sv_tl_clamp(s->timeline, &s->tl_first, &s->tl_rows);
        s->view = SV_VIEW_MEASURE;
    }

    if (c->round >= 0) {
        int steps = sv_app_steps_of(s);
        if (c->round >= steps) {
            snprintf(err, errlen, "--round %d: this trace has rounds 0..%d", c->round, steps - 1);
            sv_app_cleanup(s);
            return SV_APP_BAD_INPUT;
        }
        s->step = s->from_step = c->round;
    }
    if (c->quiz)
        sv_app_quiz_set(s, true);
    s->clean = c->clean;
    s->overview = c->overview;
    if (c->compare && !sv_app_compare_start(s, err, errlen)) {
        sv_app_cleanup(s);
        return SV_APP_FAILED;
    }
    if (c->ui_scale > 0.0f)
        s->ui_scale = sv_clampf(c->ui_scale, (float)SV_UI_SCALE_MIN, (float)SV_UI_SCALE_MAX);
    s->script_at = -1;
    s->script_kernel = s->kernel;
    s->script_code = s->code; /* the panel and D before the script's first say */
    if (c->script) {
        char why[300];
        if (!sv_script_load(c->script, &s->script, why, sizeof why) ||
            !sv_script_check(&s->script, (int)s->trace->nrounds,
                             s->trace->scan == SV_SCAN_EXCLUSIVE, why, sizeof why) ||
            !sv_script_check_phases(&s->script, s->trace, why, sizeof why)) {
            snprintf(err, errlen, "--script %s: %s", c->script, why);
            sv_app_cleanup(s);
            return SV_APP_BAD_INPUT;
        }
        sv_app_script_go(s, 0);
    }
    if (c->autoplay) {
        s->playing = true;
        s->loop = true;
        s->hold = SV_HOLD_S / s->speed;
    }
    return SV_APP_OK;
}

void sv_app_update(sv_app_state *s, float dt)
{
    if (!(dt > 0.0f))
        dt = 0.0f;
    if (dt > 0.25f)
        dt = 0.25f; /* after a stall (minimised, dragged window) don't jump */
    sv_app_bg_finish(s);
    sv_app_labjob_finish(s);
    sv_app_kfile_finish(s);
    sv_app_exercise_finish(s);
    poll_live_bench(s);
    if (s->quit_armed > 0.0f)
        s->quit_armed = fmaxf(0.0f, s->quit_armed - dt);
    if (s->status_time > 0.0f) {
        s->status_time -= dt;
        if (s->status_time <= 0.0f) {
            s->status_time = 0.0f;
            s->status[0] = '\0';
        }
    }
    if (s->anim < 1.0f) {
        s->anim = s->animations ? s->anim + dt * s->speed / SV_MOVE_S : 1.0f;
        if (s->anim >= 1.0f) {
            s->anim = 1.0f;
            s->from_step = s->step;
        }
        return;
    }
    if (!s->playing || s->view != SV_VIEW_SCAN)
        return;
    s->hold -= dt;
    if (s->hold > 0.0f)
        return;
    int last = sv_app_steps_of(s) - 1;
    if (s->step < last) {
        sv_app_go_step(s, s->step + 1);
    } else if (s->loop) {
        sv_app_go_step(s, 0);
    } else {
        s->playing = false;
    }
}

bool sv_app_busy(const sv_app_state *s)
{
    /* A background capture is not "busy": its user event wakes the loop; the
     * lab's worker is, for its progress line. */
    return s->anim < 1.0f || s->playing || s->status_time > 0.0f || s->bench_running ||
           s->labjob != NULL;
}

bool sv_app_running(const sv_app_state *s)
{
    sv_app_krun r;
    return sv_app_kfile_progress(s, &r);
}

void sv_app_set_minimised(sv_app_state *s, bool minimised)
{
    s->minimised = minimised;
    if (minimised) {
        s->dragging = false;
        s->press_on_canvas = false;
    }
}

void sv_app_set_fullscreen(sv_app_state *s, bool fullscreen)
{
    s->fullscreen = fullscreen;
}

void sv_app_request_state_line(sv_app_state *s)
{
    s->want_state_line = true;
}

bool sv_app_take_state_line(sv_app_state *s)
{
    bool want = s->want_state_line;
    s->want_state_line = false;
    return want;
}

void sv_app_resize(sv_app_state *s, int win_w, int win_h, int fb_w, int fb_h)
{
    s->win_w = win_w < 1 ? 1 : win_w;
    s->win_h = win_h < 1 ? 1 : win_h;
    s->fb_w = fb_w < 1 ? 1 : fb_w;
    s->fb_h = fb_h < 1 ? 1 : fb_h;
    s->pixel_ratio = (float)s->fb_w / (float)s->win_w;
    if (s->zoom > 1.0f)
        sv_app_clamp_view(s);
}

void sv_app_cleanup(sv_app_state *s)
{
    if (!s)
        return;
    sv_app_bg_destroy(s->bg);
    s->bg = NULL;
    sv_app_labjob_destroy(s);
    sv_app_exercise_destroy(s->ex);
    s->ex = NULL;
    s->koutput_round = 0;
    memset(&s->exv, 0, sizeof s->exv);
    sv_app_kfile_close(s);
    sv_ktrace_destroy(s->cmp_ktrace); /* the compare view's Blelloch */
    s->cmp_ktrace = NULL;
    s->compare = false;
    sv_bench_live_destroy(s->bench_live);
    s->bench_live = NULL;
    s->bench_running = false;
    sv_trace_destroy(s->trace);
    s->trace = NULL;
    sv_app_lab_clear(s);
    sv_bench_table_destroy(s->bench);
    s->bench = NULL;
    if (s->timeline != s->timeline_file)
        sv_timeline_destroy(s->timeline);
    sv_timeline_destroy(s->timeline_file);
    s->timeline = s->timeline_file = NULL;
    sv_script_finish(&s->script);
}
