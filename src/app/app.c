/* How the visualizer is driven: keys, mouse, the input box, animation and
 * autoplay, recapturing on a new input or operator, and the background CUDA
 * capture that replaces the emulator's trace when the GPU's is ready.
 * Only this file changes the state (state.h); main.c draws the view it
 * hands out (sv_app_view_of). */
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/emulate.h"
#include "../core/escape.h"
#include "../core/input.h"
#include "../core/parse.h"
#include "../core/trace_file.h"
#include "bench_live.h"
#include "render.h"
#include "source.h"
#include "util.h"

/* SV_MOVE_S, SV_HOLD_S: view.h (the GIF export plays the same timing) */
#define SV_STATUS_S 2.5f  /* a transient message stays this long */
#define SV_DRAG_PX 4.0f   /* a press that moves further is a drag, not a click */
#define SV_QUIT_ARM_S 3.0f /* a second Esc within this quits */

static const float speeds[] = {0.25f, 0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f};
#define NSPEEDS (sizeof speeds / sizeof speeds[0])

/* The background probe and capture: inputs are copied in, results written
 * by the thread, read by the main thread only after done is set. */
struct sv_app_bg {
    SDL_Thread *thread;
    SDL_atomic_t done;
    bool finished;          /* joined and its result taken (main thread) */
    unsigned gen;           /* s->gen when it started */
    sv_op op;
    sv_type type;
    sv_scan scan;
    sv_backend_choice choice;
    sv_value *input;
    size_t n;
    /* results */
    bool cuda_ok;           /* the probe found a usable GPU */
    sv_trace *trace;
    sv_capture_status st;
    sv_capture_source src;  /* where trace came from, and why */
    char err[256];
};

static uint32_t bg_event = (uint32_t)-1;

uint32_t sv_app_event_type(void)
{
    if (bg_event == (uint32_t)-1) {
        Uint32 t = SDL_RegisterEvents(1);
        if (t != (Uint32)-1)
            bg_event = t;
    }
    return bg_event;
}

static int bg_main(void *arg)
{
    struct sv_app_bg *bg = arg;
    /* The probe, which may take seconds, then the capture it allows
     * (capture falls back to the emulator and says why). */
    bg->cuda_ok = sv_capture_cuda_available(NULL, 0, NULL, NULL, 0);
    const sv_capture_request req = {
        .op = bg->op, .type = bg->type, .scan = bg->scan, .input = bg->input, .n = bg->n,
        .choice = bg->choice, .fallback = true,
    };
    bg->st = sv_capture(&req, &bg->trace, &bg->src, bg->err, sizeof bg->err);
    SDL_AtomicSet(&bg->done, 1);
    if (bg_event != (uint32_t)-1) {
        SDL_Event e;
        SDL_zero(e);
        e.type = bg_event;
        SDL_PushEvent(&e); /* only a wake-up: the result stays in bg */
    }
    return 0;
}

static void bg_destroy(struct sv_app_bg *bg)
{
    if (!bg)
        return;
    if (bg->thread)
        SDL_WaitThread(bg->thread, NULL);
    sv_trace_destroy(bg->trace);
    free(bg->input);
    free(bg);
}

/* The view's text holds the input box's whole text. */
_Static_assert(SV_EDIT_MAX <= SV_VIEW_TEXT_MAX, "the input box outgrows the view");

int sv_state_steps(const sv_app_state *s)
{
    return s ? sv_view_steps(s->trace) : 0;
}

/* What step k of s's trace is: the round whose buffers it shows, and
 * whether it is the exclusive shift (as layout.c's sv_scene_step). */
static int round_of_step(const sv_app_state *s, int k, bool *shift)
{
    int last = s->trace && s->trace->nrounds > 0 ? (int)s->trace->nrounds - 1 : 0;
    *shift = k > last;
    return k > last ? last : (k < 0 ? 0 : k);
}

/* The question predict mode asks at step k: cases, and a mistake's "will
 * it be right?", only where the step has them (rounds >= 1; not round 0's
 * staging, not the exclusive shift); values otherwise. */
static sv_quiz_kind quiz_kind_at(const sv_app_state *s, int k)
{
    bool shift;
    int r = round_of_step(s, k, &shift);
    if (r == 0 || shift)
        return SV_QUIZ_VALUES;
    if (s->quiz_kind == SV_QUIZ_OUTCOME) /* the summary covers every round and cell */
        return s->lab && s->lab->n == s->trace->n && s->lab->nrounds == s->trace->nrounds
                   ? SV_QUIZ_OUTCOME : SV_QUIZ_VALUES;
    return s->quiz_kind;
}

static const char *quiz_kind_name(sv_quiz_kind k)
{
    return k == SV_QUIZ_CASES ? "cases" : k == SV_QUIZ_OUTCOME ? "outcome" : "values";
}

void sv_app_view_of(const sv_app_state *s, sv_app_view *v)
{
    memset(v, 0, sizeof *v);
    v->trace = s->trace;
    v->source = s->source;
    v->view = s->view;
    v->step = s->step;
    v->from_step = s->from_step;
    v->anim = s->anim;
    v->playing = s->playing;
    v->theme = s->theme;
    v->ui_scale = s->ui_scale;
    v->zoom = s->zoom;
    v->pan = s->pan;
    v->fb_w = s->fb_w;
    v->fb_h = s->fb_h;
    v->hover_row = s->hover_row;
    v->hover_cell = s->hover_cell;
    v->pinned_row = s->pinned_row;
    v->pinned_cell = s->pinned_cell;
    v->help = s->help;
    v->editing = s->editing;
    v->edit_text = s->edit_text;
    v->edit_cursor = s->edit_cursor;
    v->edit_all = s->edit_all;
    v->edit_error = s->edit_error;
    v->status = s->status;
    v->status_time = s->status_time;
    v->bench = s->bench;
    v->bench_source = s->bench_source;
    v->bench_running = s->bench_running;
    v->bench_progress = s->bench_progress;
    if (s->quiz && s->trace) {
        v->quiz = true;
        v->quiz_asking = s->quiz_asking;
        v->quiz_kind = quiz_kind_at(s, s->step);
        v->quiz_step = s->quiz_step;
        v->quiz_sel = s->quiz_sel;
        v->quiz_text = s->quiz_text;
        v->quiz_has = s->quiz_has;
        v->quiz_value = s->quiz_value;
        v->quiz_mark = s->quiz_mark;
        v->quiz_result = s->quiz_result;
        v->quiz_scored = s->quiz_scored;
        v->quiz_right = s->quiz_right;
        v->quiz_total = s->quiz_total;
    } else {
        v->quiz_sel = -1;
        v->quiz_text = "";
    }
    v->clean = s->clean;
    v->overview = s->overview;
    v->caption = s->caption_override;
    v->code = s->code;
    v->phase = s->phase;
    v->source_kernel = s->source_kernel;
    const sv_kernel_info *ki = sv_kernel_get(s->kernel);
    v->kernel = (int)s->kernel;
    v->kernel_file = ki && s->kernel != SV_KERNEL_CORRECT ? ki->file : "";
    v->kernel_embedded = s->kernel == SV_KERNEL_CORRECT || s->source_kernel > 0;
    v->lab_note = s->lab_note;
    v->lab = s->lab;
    v->lab_reads = s->lab_reads;
    v->show_correct = s->show_correct;
}

/* The layout of what s shows in its window, for hit tests and zoom. */
static void layout_of(const sv_app_state *s, sv_layout *l)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    sv_layout_compute(&v, s->fb_w, s->fb_h, l);
}

static int steps_of(const sv_app_state *s)
{
    if (!s->trace)
        return 1;
    int n = sv_state_steps(s);
    return n < 1 ? 1 : n;
}

/* Copies src into dst[len], cutting it short (at a UTF-8 boundary) if needed. */
static void copy_text(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n >= len) {
        n = len - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memmove(dst, src, n);
    dst[n] = '\0';
}

static void set_status(sv_app_state *s, const char *msg)
{
    copy_text(s->status, sizeof s->status, msg);
    s->status_time = SV_STATUS_S;
}

/* The source line: where the shown trace came from (capture says), and the
 * file it was read from. */
static void set_source(sv_app_state *s, const sv_capture_source *src, const char *file)
{
    char what[sizeof s->source];
    sv_capture_source_line(src, what, sizeof what);
    if (s->lab_note[0]) { /* a mistake: how it ran ("... · in-place · 100 GPU runs ...") */
        size_t at = strlen(what);
        snprintf(what + at, sizeof what - at, " \u00b7 %s", s->lab_note);
    }
    /* The device name and the file name come from outside: escaped, so the
     * window, the state line and the terminal show them as text. */
    char raw[sizeof s->source];
    if (file) {
        const char *base = strrchr(file, '/');
        snprintf(raw, sizeof raw, "%.200s (file %s)", what, base ? base + 1 : file);
    } else {
        copy_text(raw, sizeof raw, what);
    }
    sv_escape(raw, s->source, sizeof s->source);
}

/* Makes t the shown trace (taking it), keeping the step and the view valid. */
static void quiz_reset_question(sv_app_state *s);
static void lab_clear(sv_app_state *s);
static void lab_take(sv_app_state *s);

static void adopt(sv_app_state *s, sv_trace *t)
{
    /* The GPU's trace of the same input replaces the emulator's without
     * disturbing a question; any other new trace ends it. */
    const sv_trace *o = s->trace;
    bool same = o && o->n == t->n && o->op == t->op && o->type == t->type &&
                o->scan == t->scan && memcmp(o->input, t->input, t->n * sizeof *t->input) == 0;
    if (!same)
        quiz_reset_question(s);
    /* A new trace: the old outcome no longer describes it. */
    lab_clear(s);
    sv_trace_destroy(s->trace);
    s->trace = t;
    lab_take(s);
    s->op = t->op;
    s->type = t->type;
    s->scan = t->scan;
    s->gen++;
    s->from_file = false;
    int last = steps_of(s) - 1;
    s->step = sv_clampi(s->step, 0, last);
    s->from_step = s->step;
    s->anim = 1.0f;
    if ((size_t)s->hover_cell >= t->n || s->hover_cell < 0)
        s->hover_row = s->hover_cell = -1;
    if ((size_t)s->pinned_cell >= t->n || s->pinned_cell < 0)
        s->pinned_row = s->pinned_cell = -1;
    if (s->zoom < 1.0f)
        s->zoom = 1.0f;
}

/* ---- the mistakes lab ---------------------------------------------------- */

/* Which embedded source shows kernel k: its own file when it was in the
 * tree at build time, else 0 (the chapter's; the panel says so). */
static int source_of(sv_kernel k)
{
    const sv_kernel_info *ki = sv_kernel_get(k);
    int f = (ki && k != SV_KERNEL_CORRECT) ? sv_source_find(ki->file) : 0;
    return f < 0 ? 0 : f;
}

/* Forgets the shown trace's outcome (adopt, cleanup). */
static void lab_clear(sv_app_state *s)
{
    s->lab = NULL;
    sv_lab_reads_destroy(s->lab_reads);
    s->lab_reads = NULL;
    s->lab_note[0] = '\0';
}

/* Shows the outcome the shown trace carries (trace->lab, from capture or a
 * file): its kernel and source panel, the per-cell summary, a note of how
 * it ran, and for emulated runs what each read of the shown run saw.
 * Under the hood: the emulator is deterministic, so the reads are those of
 * the record's shown run under its schedule, run once more here; a GPU's
 * runs have none (the captions compare with the correct values). */
static void lab_take(sv_app_state *s)
{
    const sv_trace *t = s->trace;
    const sv_lab_record *L = t ? t->lab : NULL;
    s->kernel = L ? L->kernel : SV_KERNEL_CORRECT;
    s->source_kernel = source_of(s->kernel);
    if (!L)
        return;
    s->lab = L->summary;
    const char *name = sv_kernel_name(L->kernel);
    if (!L->emulated) {
        if (L->shake)
            snprintf(s->lab_note, sizeof s->lab_note, "%s \u00b7 %u GPU runs (shaken, seed %llu)",
                     name, (unsigned)L->runs, (unsigned long long)L->shake_seed);
        else
            snprintf(s->lab_note, sizeof s->lab_note, "%s \u00b7 %u GPU run%s (not shaken)", name,
                     (unsigned)L->runs, L->runs == 1 ? "" : "s");
        return;
    }
    char sched[48], err[256];
    sv_schedule_format(L->schedule, sched, sizeof sched);
    bool seeded = L->schedule.kind == SV_SCHEDULE_RANDOM || L->schedule.kind == SV_SCHEDULE_WARPS;
    if (L->runs > 1)
        snprintf(s->lab_note, sizeof s->lab_note, "%s \u00b7 %s, %u %s \u00b7 emulated", name,
                 sched, (unsigned)L->runs, seeded ? "seeds" : "runs");
    else
        snprintf(s->lab_note, sizeof s->lab_note, "%s \u00b7 %s \u00b7 emulated", name, sched);
    sv_trace *one = sv_trace_create(t->op, t->type, t->scan, t->input, t->n, SV_BACKEND_CPU,
                                    NULL, err, sizeof err);
    if (one && !sv_lab_emulate(one, L->kernel, sv_lab_run_schedule(L, L->shown_run),
                               &s->lab_reads, NULL, NULL, err, sizeof err))
        s->lab_reads = NULL; /* the captions fall back to the correct values */
    sv_trace_destroy(one);
}

/* Captures a new trace of s's kernel with the state's backend choice and
 * shows it. A window with a background probe always shows a trace: capture
 * runs the emulator while the probe runs, and when the GPU is missing or
 * fails, and says why. A mistake goes through capture like the chapter's
 * kernel: on the GPU lab_runs runs (shaken as asked), else emulated under
 * s->schedule (a given --schedule picks the emulator, as in scanviz-trace).
 * On failure the shown trace stays and err says why. */
static sv_capture_status recapture(sv_app_state *s, sv_op op, sv_type type, sv_scan scan,
                                   const sv_value *in, size_t n, char *err, size_t errlen)
{
    sv_capture_request req = {
        .op = op, .type = type, .scan = scan, .input = in, .n = n, .choice = s->backend,
        .fallback = s->bg != NULL, .no_wait = s->bg != NULL,
    };
    char sched[48];
    if (s->kernel != SV_KERNEL_CORRECT) {
        bool seeded = s->schedule.kind == SV_SCHEDULE_RANDOM ||
                      s->schedule.kind == SV_SCHEDULE_WARPS;
        sv_schedule_format(s->schedule, sched, sizeof sched);
        req.kernel = sv_kernel_name(s->kernel);
        req.schedule = s->schedule_given ? sched : NULL;
        req.emulate_schedule = sched;
        req.runs = s->lab_runs ? s->lab_runs : (s->schedule_given && seeded ? 100 : 0);
        req.shake = s->lab_shake;
        req.shake_seed = s->lab_shake_seed;
    }
    sv_trace *t = NULL;
    sv_capture_source src;
    sv_capture_status st = sv_capture(&req, &t, &src, err, errlen);
    if (st != SV_CAPTURE_OK)
        return st;
    adopt(s, t);
    set_source(s, &src, NULL);
    return SV_CAPTURE_OK;
}

/* recapture() of the shown trace's input with op and scan (the input is
 * copied first: adopting the new trace frees the old). */
static sv_capture_status recapture_shown(sv_app_state *s, sv_op op, sv_scan scan, char *err,
                                         size_t errlen)
{
    if (!s->trace) {
        snprintf(err, errlen, "no trace shown");
        return SV_CAPTURE_FAILED;
    }
    size_t n = s->trace->n;
    sv_value *in = malloc(n * sizeof *in);
    if (!in) {
        snprintf(err, errlen, "out of memory");
        return SV_CAPTURE_FAILED;
    }
    memcpy(in, s->trace->input, n * sizeof *in);
    sv_capture_status st = recapture(s, op, s->type, scan, in, n, err, errlen);
    free(in);
    return st;
}

static void bg_start(sv_app_state *s, const sv_value *in, size_t n)
{
    struct sv_app_bg *bg = calloc(1, sizeof *bg);
    if (!bg)
        return;
    bg->input = malloc(n * sizeof *in);
    if (!bg->input) {
        free(bg);
        return;
    }
    memcpy(bg->input, in, n * sizeof *in);
    bg->n = n;
    bg->op = s->op;
    bg->type = s->type;
    bg->scan = s->scan;
    bg->choice = s->backend;
    bg->gen = s->gen;
    sv_app_event_type();
    s->bg = bg;
    bg->thread = SDL_CreateThread(bg_main, "sv-cuda", bg);
    if (!bg->thread) { /* no thread: probe here (slower start, same result) */
        bg_main(bg);
    }
}

/* Takes the background result once it is done. */
static void bg_finish(sv_app_state *s)
{
    struct sv_app_bg *bg = s->bg;
    if (!bg || bg->finished || !SDL_AtomicGet(&bg->done))
        return;
    if (bg->thread) {
        SDL_WaitThread(bg->thread, NULL);
        bg->thread = NULL;
    }
    bg->finished = true;
    char msg[300];
    if (bg->st != SV_CAPTURE_OK) { /* only an input this GPU cannot run */
        snprintf(msg, sizeof msg, "GPU capture failed: %.200s", bg->err);
        set_status(s, msg);
        return;
    }
    if (!bg->cuda_ok) {
        /* With auto the source line says why quietly; an explicit
         * --backend cuda deserves a message. */
        if (s->backend == SV_CHOOSE_CUDA) {
            snprintf(msg, sizeof msg, "--backend cuda: no usable GPU (%.200s); showing the emulator",
                     bg->src.reason);
            set_status(s, msg);
        }
        if (!s->from_file && s->trace && s->trace->backend == SV_BACKEND_CPU)
            set_source(s, &bg->src, NULL);
        return;
    }
    if (s->from_file)
        return; /* keep the opened file; later edits use the GPU */
    /* The background capture is of the chapter's kernel: a mistake shown
     * meanwhile is captured again below, on the GPU now that it is found. */
    if (bg->gen == s->gen && s->kernel == SV_KERNEL_CORRECT) {
        if (bg->src.backend == SV_BACKEND_CUDA) {
            sv_trace *t = bg->trace;
            bg->trace = NULL;
            adopt(s, t);
            set_source(s, &bg->src, NULL);
            snprintf(msg, sizeof msg, "GPU trace ready: %.200s", s->source);
        } else {
            /* The GPU failed on this very input: the emulator's trace is
             * already shown; say why. */
            set_source(s, &bg->src, NULL);
            snprintf(msg, sizeof msg, "%.250s", bg->src.reason);
        }
        set_status(s, msg);
        return;
    }
    /* The input changed while CUDA started, or a mistake is shown: capture
     * the current one now (a given --schedule stays emulated). */
    if (s->trace && !(s->kernel != SV_KERNEL_CORRECT && s->schedule_given)) {
        char err[256];
        if (recapture_shown(s, s->op, s->scan, err, sizeof err) == SV_CAPTURE_OK) {
            /* recapture falls back to the emulator, and its source says why */
            if (s->trace->backend == SV_BACKEND_CUDA)
                snprintf(msg, sizeof msg, "GPU trace ready: %.200s", s->source);
            else
                copy_text(msg, sizeof msg, s->source);
            set_status(s, msg);
        } else {
            snprintf(msg, sizeof msg, "GPU capture failed: %.200s", err);
            set_status(s, msg);
        }
    }
}

/* ---- stepping ----------------------------------------------------------- */

/* The buffer row (1 or 2) step k writes: buf[0] in round 0, pout in a
 * round; -1 at the exclusive shift (it writes the output). */
static int written_row(const sv_app_state *s, int k)
{
    bool shift;
    int r = round_of_step(s, k, &shift);
    if (shift || !s->trace || s->trace->nrounds == 0)
        return -1;
    return r == 0 ? 1 : 1 + s->trace->rounds[r].pout;
}

/* The row a question at step k asks about: the row the step writes, the
 * output at the exclusive shift. */
static int quiz_row(const sv_app_state *s, int k)
{
    int r = written_row(s, k);
    return r > 0 ? r : 3;
}

static void go_step(sv_app_state *s, int k)
{
    s->phase = SV_PHASE_NONE; /* a round step shows the whole round */
    k = sv_clampi(k, 0, steps_of(s) - 1);
    if (k == s->step)
        return;
    if (s->quiz_asking) /* leaving a question unrevealed drops it */
        quiz_reset_question(s);
    /* A pinned buffer cell keeps its position in the algorithm, not its
     * buffer: pout[i] stays pout[i] (the row being written), pin[i] stays
     * pin[i], although the two buffers swap roles every round. */
    if (s->pinned_row == 1 || s->pinned_row == 2) {
        int was = written_row(s, s->step), now = written_row(s, k);
        if (was > 0 && now > 0)
            s->pinned_row = s->pinned_row == was ? now : 3 - now;
    }
    bool adjacent = k == s->step + 1 || k == s->step - 1;
    s->from_step = s->step;
    s->step = k;
    s->anim = s->animations && adjacent ? 0.0f : 1.0f;
    if (s->anim >= 1.0f)
        s->from_step = k;
    s->hold = SV_HOLD_S / s->speed;
}

static bool set_kernel(sv_app_state *s, sv_kernel k);

/* The kernel script step `at` shows: the last one named at or before it,
 * else the one the window had before the script (sv_script_check has
 * checked the names). */
static sv_kernel script_kernel_at(const sv_app_state *s, int at)
{
    sv_kernel k = s->script_kernel;
    for (int i = 0; i <= at && i < s->script.n; i++)
        if (s->script.steps[i].kernel[0])
            sv_kernel_parse(s->script.steps[i].kernel, &k, NULL, 0);
    return k;
}

/* Shows step `at` of the presenter script (clamped): its kernel where the
 * script changes it (K in between stays until the next change), its view,
 * its round (moving into it from the round before when the step says
 * "move" and the script goes forward), its caption. */
static void script_go(sv_app_state *s, int at)
{
    if (s->script.n == 0)
        return;
    at = sv_clampi(at, 0, s->script.n - 1);
    bool forward = at == s->script_at + 1;
    sv_kernel want = script_kernel_at(s, at);
    if (want != script_kernel_at(s, s->script_at) || (s->script_at < 0 && want != s->kernel))
        set_kernel(s, want);
    s->script_at = at;
    const sv_script_step *st = &s->script.steps[at];
    s->playing = false;
    if (st->view == SV_SCRIPT_VIEW_MEASURE) {
        sv_app_show(s, SV_VIEW_MEASURE);
    } else {
        sv_app_show(s, SV_VIEW_SCAN);
        s->overview = st->view == SV_SCRIPT_VIEW_OVERVIEW;
    }
    int last = steps_of(s) - 1;
    int k = st->shift ? last : sv_clampi(st->round, 0, last);
    if (st->move && forward && k > 0 && s->animations && s->view == SV_VIEW_SCAN &&
        !s->overview) {
        s->from_step = k - 1;
        s->step = k;
        s->anim = 0.0f;
    } else {
        s->step = s->from_step = k;
        s->anim = 1.0f;
    }
    snprintf(s->caption_override, sizeof s->caption_override, "%s", st->caption);
}

/* Down (dir +1) / Up (-1): the next or previous phase of the round,
 * crossing into the next or previous step at either end. From the whole
 * round, Down starts at its first phase and Up at its last. No animation:
 * a phase is a still picture of what the threads do. */
static void step_phase(sv_app_state *s, int dir)
{
    if (!s->trace)
        return;
    sv_phase ph[SV_PHASE_COUNT];
    int n = sv_phases_of(s->trace, s->step, ph);
    if (n <= 0)
        return;
    int at = -1;
    for (int k = 0; k < n; k++)
        if (ph[k] == s->phase)
            at = k;
    int step = s->step;
    sv_phase next;
    if (at < 0) {
        next = dir > 0 ? ph[0] : ph[n - 1];
    } else if (at + dir >= 0 && at + dir < n) {
        next = ph[at + dir];
    } else {
        step += dir;
        if (step < 0 || step >= steps_of(s))
            return; /* the first phase of round 0, the last of the last step */
        n = sv_phases_of(s->trace, step, ph);
        if (n <= 0)
            return;
        next = dir > 0 ? ph[0] : ph[n - 1];
    }
    s->playing = false;
    s->step = s->from_step = step;
    s->anim = 1.0f;
    s->phase = next;
}

static void toggle_play(sv_app_state *s)
{
    if (s->playing) {
        s->playing = false;
        set_status(s, "Paused");
        return;
    }
    s->playing = true;
    if (s->step >= steps_of(s) - 1)
        go_step(s, 0);
    else
        go_step(s, s->step + 1);
    set_status(s, "Playing");
}

static void change_speed(sv_app_state *s, int dir)
{
    size_t i = 0;
    while (i + 1 < NSPEEDS && speeds[i] < s->speed - 1e-3f)
        i++;
    if (dir > 0 && i + 1 < NSPEEDS)
        i++;
    else if (dir < 0 && i > 0)
        i--;
    s->speed = speeds[i];
    char msg[64];
    snprintf(msg, sizeof msg, "Speed %g×", (double)s->speed);
    set_status(s, msg);
}

/* ---- predict mode (P, --quiz) ------------------------------------------- */

/* Forgets the current question: its answers, verdicts and the typed text
 * (the running score stays). */
static void quiz_reset_question(sv_app_state *s)
{
    s->quiz_asking = false;
    s->quiz_scored = false;
    s->quiz_sel = 0;
    s->quiz_text[0] = '\0';
    memset(s->quiz_has, 0, sizeof s->quiz_has);
    memset(s->quiz_value, 0, sizeof s->quiz_value);
    memset(s->quiz_mark, 0, sizeof s->quiz_mark);
    memset(s->quiz_result, 0, sizeof s->quiz_result);
}

/* The true value and case of cell i of the row step k writes. */
static void quiz_truth(const sv_app_state *s, int k, int i, sv_value *val, int *cs)
{
    const sv_trace *t = s->trace;
    bool shift;
    int r = round_of_step(s, k, &shift);
    const sv_round *rd = &t->rounds[r];
    *cs = -1;
    if (shift)
        *val = t->output[i];
    else if (r == 0)
        *val = rd->buf[0][i];
    else {
        *val = rd->buf[rd->pout][i];
        if (rd->cases)
            *cs = (int)rd->cases[i];
    }
}

static void quiz_set(sv_app_state *s, bool on)
{
    s->quiz = on && s->trace;
    quiz_reset_question(s);
    s->quiz_right = s->quiz_total = 0;
    s->quiz_step = s->step;
}

/* Commits the typed number to the selected cell; false (and a message) when
 * it is not a number of the trace's type. */
static bool quiz_commit(sv_app_state *s)
{
    if (!s->quiz_text[0] || !s->trace)
        return true;
    sv_value *v = NULL;
    size_t n = 0;
    char err[256], msg[300];
    if (!sv_parse_values(s->quiz_text, s->trace->type, 1, &v, &n, err, sizeof err)) {
        snprintf(msg, sizeof msg, "Answer: %.280s", err);
        set_status(s, msg);
        return false;
    }
    if (s->quiz_sel >= 0 && (size_t)s->quiz_sel < s->trace->n) {
        s->quiz_has[s->quiz_sel] = true;
        s->quiz_value[s->quiz_sel] = v[0];
    }
    free(v);
    s->quiz_text[0] = '\0';
    return true;
}

static void quiz_select(sv_app_state *s, int i)
{
    if (!s->trace || !quiz_commit(s))
        return;
    int n = (int)s->trace->n;
    s->quiz_sel = ((i % n) + n) % n;
}

/* Right / Page Down after a revealed step: the next step becomes a question. */
static void quiz_ask_next(sv_app_state *s)
{
    if (s->step >= steps_of(s) - 1)
        return;
    go_step(s, s->step + 1);
    s->anim = 1.0f; /* nothing moves into hidden cells; Reveal animates */
    s->from_step = s->step;
    quiz_reset_question(s);
    s->quiz_asking = true;
    s->quiz_step = s->step;
    s->quiz_sel = 0;
}

/* Right / Page Down on a question: mark each answer, add them to the score
 * and show the step, moving its values in as a step does. */
static void quiz_reveal(sv_app_state *s)
{
    if (!quiz_commit(s))
        return;
    sv_quiz_kind kind = quiz_kind_at(s, s->step);
    int right = 0, asked = 0;
    for (size_t i = 0; i < s->trace->n; i++) {
        sv_value want;
        int cs;
        quiz_truth(s, s->step, (int)i, &want, &cs);
        bool answered = kind == SV_QUIZ_VALUES ? s->quiz_has[i] : s->quiz_mark[i] != 0;
        if (!answered) {
            s->quiz_result[i] = SV_QUIZ_UNASKED;
            continue;
        }
        bool ok;
        if (kind == SV_QUIZ_OUTCOME) {
            /* right = right in every run: one wrong run is the race showing */
            bool shift;
            int r = round_of_step(s, s->step, &shift);
            bool right = s->lab->cells[(size_t)r * s->lab->n + i].wrong_runs == 0;
            ok = (s->quiz_mark[i] == SV_QUIZ_RIGHT) == right;
        } else if (kind == SV_QUIZ_CASES) {
            ok = (int)s->quiz_mark[i] - 1 == cs;
        } else if (s->trace->type == SV_TYPE_FLOAT32) {
            /* what was typed is read as a float32, as the cells hold it;
             * a shown value that was rounded to fit still counts */
            float a = s->quiz_value[i].f, b = want.f;
            ok = a == b || (isnan(a) && isnan(b)) ||
                 fabsf(a - b) <= 1e-6f * fmaxf(1.0f, fabsf(b));
        } else {
            ok = s->quiz_value[i].i == want.i;
        }
        s->quiz_result[i] = ok ? SV_QUIZ_RIGHT : SV_QUIZ_WRONG;
        right += ok;
        asked++;
    }
    s->quiz_right += right;
    s->quiz_total += asked;
    s->quiz_scored = true;
    s->quiz_asking = false;
    s->quiz_step = s->step;
    if (s->animations && s->step > 0) {
        s->from_step = s->step - 1;
        s->anim = 0.0f;
    }
    char msg[128];
    if (asked)
        snprintf(msg, sizeof msg, "%d of %d right · score %d / %d", right, asked,
                 s->quiz_right, s->quiz_total);
    else
        snprintf(msg, sizeof msg, "Revealed (no answers given)");
    set_status(s, msg);
}

/* Cycles a mark: cases none, full, partial, copy-through, none; outcome
 * none, right, wrong, none. */
static void quiz_cycle_mark(sv_app_state *s, int i)
{
    static const unsigned char next[4] = { 1 + SV_CASE_FULL, 0, 1 + SV_CASE_COPY,
                                           1 + SV_CASE_PARTIAL };
    /* next[mark]: 0 -> full, 1 + copy -> none, 1 + partial -> copy,
     * 1 + full -> partial (SV_CASE_COPY 0, PARTIAL 1, FULL 2) */
    static const unsigned char next_outcome[3] = { SV_QUIZ_RIGHT, SV_QUIZ_WRONG, 0 };
    if (i < 0 || (size_t)i >= s->trace->n)
        return;
    if (quiz_kind_at(s, s->step) == SV_QUIZ_OUTCOME)
        s->quiz_mark[i] = s->quiz_mark[i] < 3 ? next_outcome[s->quiz_mark[i]] : 0;
    else if (s->quiz_mark[i] < 4)
        s->quiz_mark[i] = next[s->quiz_mark[i]];
}

/* The keys of a question (values: digits, '-', '.', Backspace, Return;
 * cases: Return cycles, 1 / 2 / 3 mark full / partial / copy-through, 0 or
 * Backspace clears; outcome: Return cycles, 1 / 2 mark right / wrong, 0 or
 * Backspace clears; all: Tab / Shift+Tab move). True when k was used. */
static bool quiz_key(sv_app_state *s, const SDL_Keysym *k)
{
    if (!s->quiz || !s->quiz_asking || !s->trace)
        return false;
    bool shift = (k->mod & KMOD_SHIFT) != 0;
    sv_quiz_kind kind = quiz_kind_at(s, s->step);
    bool cases = kind != SV_QUIZ_VALUES; /* marks, not numbers */
    int sel = s->quiz_sel;
    char ch = 0;
    switch (k->sym) {
    case SDLK_TAB:
        quiz_select(s, sel + (shift ? -1 : 1));
        return true;
    case SDLK_RETURN: case SDLK_KP_ENTER:
        if (cases) {
            quiz_cycle_mark(s, sel);
        } else if (s->quiz_text[0] && quiz_commit(s)) {
            if ((size_t)sel + 1 < s->trace->n)
                s->quiz_sel = sel + 1; /* the next cell, for a row of answers */
        }
        return true;
    case SDLK_BACKSPACE: case SDLK_DELETE:
        if (cases) {
            s->quiz_mark[sel] = 0;
        } else {
            size_t len = strlen(s->quiz_text);
            if (len)
                s->quiz_text[len - 1] = '\0';
            else
                s->quiz_has[sel] = false;
        }
        return true;
    case SDLK_ESCAPE:
        if (s->quiz_text[0]) {
            s->quiz_text[0] = '\0';
            return true;
        }
        return false;
    case SDLK_MINUS: case SDLK_KP_MINUS: ch = '-'; break;
    case SDLK_PERIOD: case SDLK_KP_PERIOD: ch = '.'; break;
    case SDLK_KP_0: ch = '0'; break;
    default:
        if (k->sym >= SDLK_0 && k->sym <= SDLK_9)
            ch = (char)('0' + (k->sym - SDLK_0));
        else if (k->sym >= SDLK_KP_1 && k->sym <= SDLK_KP_9)
            ch = (char)('1' + (k->sym - SDLK_KP_1));
        break;
    }
    if (!ch)
        return false;
    if (kind == SV_QUIZ_OUTCOME) {
        if (ch >= '0' && ch <= '2')
            s->quiz_mark[sel] = (unsigned char)(ch - '0'); /* SV_QUIZ_RIGHT 1, _WRONG 2 */
        return true;
    }
    if (cases) {
        if (ch >= '0' && ch <= '3') {
            static const unsigned char mark[4] = { 0, 1 + SV_CASE_FULL, 1 + SV_CASE_PARTIAL,
                                                   1 + SV_CASE_COPY };
            s->quiz_mark[sel] = mark[ch - '0'];
        }
        return true;
    }
    size_t len = strlen(s->quiz_text);
    if (len + 1 < sizeof s->quiz_text) {
        s->quiz_text[len] = ch;
        s->quiz_text[len + 1] = '\0';
    }
    return true;
}

/* ---- zoom and pan ------------------------------------------------------- */

static float zoom_max(const sv_app_state *s)
{
    float n = s->trace ? (float)s->trace->n : 1.0f;
    return n / 4.0f > 2.0f ? n / 4.0f : 2.0f;
}

/* Keeps pan inside [0, n - visible cells]; zoom 1 shows every cell. */
static void clamp_view(sv_app_state *s)
{
    s->zoom = sv_clampf(s->zoom, 1.0f, zoom_max(s));
    if (!isfinite(s->pan) || s->zoom <= 1.0f || !s->trace) {
        s->pan = 0.0f;
        return;
    }
    sv_layout l;
    layout_of(s, &l);
    if (!(l.cell_pitch > 0.0f)) {
        s->pan = 0.0f;
        return;
    }
    /* the same bound layout.c applies when it places the cells */
    float maxpan = (float)s->trace->n - l.cells_clip.w / l.cell_pitch;
    if (maxpan < 0.0f)
        maxpan = 0.0f;
    s->pan = sv_clampf(s->pan, 0.0f, maxpan);
}

/* Zooms by factor keeping the cell under x (framebuffer px) where it is. */
static void zoom_at(sv_app_state *s, float factor, float x)
{
    if (!s->trace)
        return;
    sv_layout l;
    layout_of(s, &l);
    if (!(l.cell_pitch > 0.0f))
        return;
    float c = (x - l.cell_x0) / l.cell_pitch;
    float z = sv_clampf(s->zoom * factor, 1.0f, zoom_max(s));
    if (z == s->zoom)
        return;
    s->zoom = z;
    layout_of(s, &l);
    if (l.cell_pitch > 0.0f)
        s->pan += c - (x - l.cell_x0) / l.cell_pitch;
    clamp_view(s);
}

static void zoom_centre(sv_app_state *s, float factor)
{
    sv_layout l;
    layout_of(s, &l);
    zoom_at(s, factor, l.cells_clip.x + l.cells_clip.w * 0.5f);
}

static void pan_by(sv_app_state *s, float cells)
{
    s->pan += cells;
    clamp_view(s);
}

static float visible_cells(const sv_app_state *s)
{
    sv_layout l;
    layout_of(s, &l);
    if (!(l.cell_pitch > 0.0f))
        return 1.0f;
    return l.cells_clip.w / l.cell_pitch;
}

/* ---- the input box ------------------------------------------------------ */

static void format_values(sv_type type, const sv_value *v, size_t n, char sep,
                          char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && at + 1 < len; i++) {
        char one[48];
        sv_value_format(type, v[i], one, sizeof one);
        int w = snprintf(buf + at, len - at, "%s%s", i ? (char[]){sep, 0} : "", one);
        if (w < 0 || (size_t)w >= len - at) {
            buf[at] = '\0';
            break;
        }
        at += (size_t)w;
    }
}

static void edit_open(sv_app_state *s)
{
    s->editing = true;
    s->edit_error[0] = '\0';
    if (s->trace)
        format_values(s->trace->type, s->trace->input, s->trace->n, ' ', s->edit_text,
                      sizeof s->edit_text);
    else
        s->edit_text[0] = '\0';
    s->edit_cursor = strlen(s->edit_text);
    s->edit_all = s->edit_text[0] != '\0'; /* typing replaces the shown array */
    s->help = false;
    SDL_StartTextInput();
}

static void edit_close(sv_app_state *s)
{
    s->editing = false;
    s->edit_all = false;
    s->edit_error[0] = '\0';
    SDL_StopTextInput();
}

static void edit_clear(sv_app_state *s)
{
    s->edit_text[0] = '\0';
    s->edit_cursor = 0;
    s->edit_all = false;
}

/* Inserts typed or pasted text at the cursor. The box holds SV_EDIT_MAX - 1
 * bytes, room for the largest valid array (state.h); text that does not fit
 * whole is not inserted at all, and edit_error says so: nothing is cut. */
static void edit_insert(sv_app_state *s, const char *text)
{
    size_t add = strlen(text);
    size_t len = s->edit_all ? 0 : strlen(s->edit_text);
    if (len + add >= sizeof s->edit_text) {
        snprintf(s->edit_error, sizeof s->edit_error,
                 "%s of %zu bytes not inserted: the box holds %zu bytes (%d values of up to "
                 "%d characters); use --file for more", add > 1 ? "Text" : "Character", add,
                 sizeof s->edit_text - 1, SV_MAX_N, (int)(SV_EDIT_MAX / SV_MAX_N) - 1);
        return;
    }
    if (s->edit_all)
        edit_clear(s);
    if (add == 0)
        return;
    size_t c = s->edit_cursor > len ? len : s->edit_cursor;
    memmove(s->edit_text + c + add, s->edit_text + c, len - c + 1);
    for (size_t i = 0; i < add; i++) {
        char ch = text[i];
        s->edit_text[c + i] = (ch == '\n' || ch == '\r' || ch == '\t') ? ' ' : ch;
    }
    s->edit_cursor = c + add;
}

static size_t utf8_prev(const char *t, size_t i)
{
    if (i == 0)
        return 0;
    i--;
    while (i > 0 && ((unsigned char)t[i] & 0xC0) == 0x80)
        i--;
    return i;
}

static size_t utf8_next(const char *t, size_t i)
{
    size_t len = strlen(t);
    if (i >= len)
        return len;
    i++;
    while (i < len && ((unsigned char)t[i] & 0xC0) == 0x80)
        i++;
    return i;
}

/* Parses text and, when valid, captures its trace; on error the message
 * (naming the bad token) goes to edit_error and the shown trace stays. */
static bool apply_text(sv_app_state *s, const char *text)
{
    sv_value *vals = NULL;
    size_t n = 0;
    char err[256];
    /* The one parser of --input, --file and stdin (core/input.h). */
    if (sv_input_parse_text(text, strlen(text), s->type, &vals, &n, err, sizeof err) !=
        SV_INPUT_OK) {
        copy_text(s->edit_error, sizeof s->edit_error, err);
        return false;
    }
    bool ok = recapture(s, s->op, s->type, s->scan, vals, n, err, sizeof err) == SV_CAPTURE_OK;
    free(vals);
    if (!ok) {
        copy_text(s->edit_error, sizeof s->edit_error, err);
        return false;
    }
    s->custom_input = true;
    char msg[64];
    snprintf(msg, sizeof msg, "New input: n = %zu", n);
    set_status(s, msg);
    return true;
}

/* While the box shows an error, every edit checks the text again, so the
 * message follows what is typed and goes away once the text is valid
 * (nothing is applied until Return). */
static void edit_revalidate(sv_app_state *s)
{
    if (!s->edit_error[0])
        return;
    sv_value *vals = NULL;
    size_t n = 0;
    char err[256];
    /* the parser apply_text uses */
    if (sv_input_parse_text(s->edit_text, strlen(s->edit_text), s->type, &vals, &n, err,
                            sizeof err) == SV_INPUT_OK)
        s->edit_error[0] = '\0';
    else
        copy_text(s->edit_error, sizeof s->edit_error, err);
    free(vals);
}

/* A fingerprint of the box's text (FNV-1a): an event that leaves it as it
 * was (a refused paste, a cursor move) keeps the message it set. */
static uint64_t edit_hash(const sv_app_state *s)
{
    uint64_t h = 1469598103934665603u;
    for (const unsigned char *p = (const unsigned char *)s->edit_text; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return h;
}

static void apply_preset(sv_app_state *s, int which)
{
    char text[SV_EDIT_MAX];
    if (which >= 1 && which <= SV_INPUT_PRESETS) {
        copy_text(text, sizeof text, sv_input_presets[which - 1]);
    } else {
        size_t n = 5 + (size_t)(s->seed % 12);
        sv_value *v = sv_random_values(s->op, s->type, n, s->seed++);
        if (!v)
            return;
        format_values(s->type, v, n, ' ', text, sizeof text);
        free(v);
    }
    if (!s->editing)
        edit_open(s);
    copy_text(s->edit_text, sizeof s->edit_text, text);
    s->edit_cursor = strlen(s->edit_text);
    s->edit_all = false;
    if (apply_text(s, s->edit_text))
        edit_close(s);
}

static void edit_key(sv_app_state *s, const SDL_Keysym *k)
{
    bool ctrl = (k->mod & KMOD_CTRL) != 0;
    size_t len = strlen(s->edit_text);
    if (s->edit_cursor > len)
        s->edit_cursor = len;
    bool all = s->edit_all;
    switch (k->sym) {
    case SDLK_LEFT: case SDLK_RIGHT: case SDLK_HOME: case SDLK_END:
        s->edit_all = false;
        break;
    case SDLK_BACKSPACE: case SDLK_DELETE:
        if (all) {
            edit_clear(s);
            return;
        }
        break;
    default:
        break;
    }
    switch (k->sym) {
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        if (apply_text(s, s->edit_text))
            edit_close(s);
        break;
    case SDLK_ESCAPE:
        edit_close(s);
        break;
    case SDLK_LEFT:
        if (all) /* leaving a selection puts the cursor at its start */
            s->edit_cursor = 0;
        else
            s->edit_cursor = utf8_prev(s->edit_text, s->edit_cursor);
        break;
    case SDLK_RIGHT:
        if (all)
            s->edit_cursor = len;
        else
            s->edit_cursor = utf8_next(s->edit_text, s->edit_cursor);
        break;
    case SDLK_HOME:
        s->edit_cursor = 0;
        break;
    case SDLK_END:
        s->edit_cursor = len;
        break;
    case SDLK_BACKSPACE:
        if (s->edit_cursor > 0) {
            size_t p = utf8_prev(s->edit_text, s->edit_cursor);
            memmove(s->edit_text + p, s->edit_text + s->edit_cursor, len - s->edit_cursor + 1);
            s->edit_cursor = p;
        }
        break;
    case SDLK_DELETE:
        if (s->edit_cursor < len) {
            size_t q = utf8_next(s->edit_text, s->edit_cursor);
            memmove(s->edit_text + s->edit_cursor, s->edit_text + q, len - q + 1);
        }
        break;
    case SDLK_v:
        if (ctrl && SDL_HasClipboardText()) {
            char *clip = SDL_GetClipboardText();
            if (clip)
                edit_insert(s, clip);
            SDL_free(clip);
        }
        break;
    case SDLK_a:
        if (ctrl) {
            s->edit_all = len > 0;
            s->edit_cursor = len;
        }
        break;
    case SDLK_1: case SDLK_2: case SDLK_3: case SDLK_4:
        if (ctrl)
            apply_preset(s, (int)(k->sym - SDLK_0));
        break;
    case SDLK_F12:
        s->want_state_line = true;
        break;
    default:
        break; /* text arrives as SDL_TEXTINPUT */
    }
}

/* ---- recapture keys ----------------------------------------------------- */

static void with_current_input(sv_app_state *s, sv_op op, sv_scan scan, const char *what)
{
    if (!s->trace)
        return;
    char err[256], msg[320];
    if (recapture_shown(s, op, scan, err, sizeof err) == SV_CAPTURE_OK)
        copy_text(msg, sizeof msg, what);
    else
        snprintf(msg, sizeof msg, "%.300s", err);
    set_status(s, msg);
}

static void next_op(sv_app_state *s)
{
    sv_op op = s->op;
    for (int tries = 0; tries < SV_OP_COUNT; tries++) {
        op = (sv_op)((op + 1) % SV_OP_COUNT);
        if (sv_op_valid(op, s->type, NULL, 0))
            break;
    }
    char what[64];
    snprintf(what, sizeof what, "Operator: %s", sv_op_name(op));
    with_current_input(s, op, s->scan, what);
}

/* Y: the other element type, converting the shown input (a float32 is
 * rounded to the nearest int32, clamped); an operator the new type lacks
 * (xor on float32) becomes sum. */
static void next_type(sv_app_state *s)
{
    if (!s->trace)
        return;
    sv_type type = s->type == SV_TYPE_INT32 ? SV_TYPE_FLOAT32 : SV_TYPE_INT32;
    sv_op op = sv_op_valid(s->op, type, NULL, 0) ? s->op : SV_OP_SUM;
    size_t n = s->trace->n;
    sv_value *in = malloc(n * sizeof *in);
    if (!in)
        return;
    for (size_t i = 0; i < n; i++) {
        sv_value v = s->trace->input[i];
        if (type == SV_TYPE_FLOAT32) {
            in[i].f = (float)v.i;
        } else {
            double d = isnan(v.f) ? 0.0 : nearbyint((double)v.f);
            in[i].i = d >= 2147483647.0 ? INT32_MAX : d <= -2147483648.0 ? INT32_MIN : (int32_t)d;
        }
    }
    char err[256], msg[320];
    sv_op was = s->op;
    if (recapture(s, op, type, s->scan, in, n, err, sizeof err) == SV_CAPTURE_OK) {
        snprintf(msg, sizeof msg, "Type: %s%s%s%s", sv_type_name(type),
                 op != was ? " (" : "", op != was ? sv_op_name(was) : "",
                 op != was ? " is not defined on it: operator sum)" : "");
    } else {
        snprintf(msg, sizeof msg, "%.300s", err);
    }
    set_status(s, msg);
    free(in);
}

/* Shows kernel k on the same input (K, a script's kernel step): captured
 * again, on the GPU where there is one. On failure the shown kernel stays
 * and the message says why. */
static bool set_kernel(sv_app_state *s, sv_kernel k)
{
    const sv_kernel_info *ki = sv_kernel_get(k);
    if (!s->trace || !ki)
        return false;
    sv_kernel old = s->kernel;
    s->kernel = k;
    char err[256], msg[320];
    if (recapture_shown(s, s->op, s->scan, err, sizeof err) == SV_CAPTURE_OK) {
        snprintf(msg, sizeof msg, "Kernel: %s \u2014 %s", ki->name, ki->label);
        set_status(s, msg);
        return true;
    }
    s->kernel = old;
    snprintf(msg, sizeof msg, "Kernel %s: %.250s", ki->name, err);
    set_status(s, msg);
    return false;
}

/* K: the next kernel of the lab. */
static void next_kernel(sv_app_state *s)
{
    set_kernel(s, (sv_kernel)((s->kernel + 1) % SV_KERNEL_COUNT));
}

/* K / Shift+K with several --trace files: the next (d = 1) or previous
 * (d = -1) file of the deck, loaded now, with its own kernel and outcome;
 * the round is kept where the file has it. A file that no longer loads
 * leaves the shown one and says why. */
static void deck_step(sv_app_state *s, int d)
{
    int at = ((s->deck_at + d) % s->deck_n + s->deck_n) % s->deck_n;
    const char *path = s->deck[at];
    char err[512], msg[700], name[256];
    sv_escape(path, name, sizeof name);
    sv_trace *t = sv_trace_load(path, err, sizeof err);
    if (!t) {
        char why[600];
        snprintf(msg, sizeof msg, "Trace %d of %d: %s", at + 1, s->deck_n,
                 sv_escape(err, why, sizeof why));
        set_status(s, msg);
        return;
    }
    adopt(s, t);
    s->from_file = true;
    s->deck_at = at;
    sv_capture_source src;
    sv_capture_source_of_trace(t, &src);
    set_source(s, &src, path);
    const sv_kernel_info *ki = sv_kernel_get(s->kernel);
    snprintf(msg, sizeof msg, "Trace %d of %d: %.200s \u2014 %s%s%s", at + 1, s->deck_n, name,
             ki ? ki->name : "?", s->lab_note[0] ? ", " : "", s->lab_note);
    set_status(s, msg);
}

static void random_input(sv_app_state *s)
{
    size_t n = s->trace ? s->trace->n : 8;
    sv_value *v = sv_random_values(s->op, s->type, n, s->seed++);
    if (!v)
        return;
    char err[256];
    if (recapture(s, s->op, s->type, s->scan, v, n, err, sizeof err) == SV_CAPTURE_OK) {
        s->custom_input = true;
        set_status(s, "Random input");
    } else {
        set_status(s, err);
    }
    free(v);
}

/* ---- the Measure view's live benchmark ---------------------------------- */

static void toggle_live_bench(sv_app_state *s)
{
    if (s->bench_live) {
        sv_bench_live_destroy(s->bench_live);
        s->bench_live = NULL;
        s->bench_running = false;
        set_status(s, "Benchmark stopped");
        return;
    }
    char err[256];
    s->bench_live = sv_bench_live_start(NULL, err, sizeof err);
    if (!s->bench_live) {
        char msg[300];
        snprintf(msg, sizeof msg, "Benchmark: %.280s", err);
        set_status(s, msg);
        return;
    }
    s->bench_running = true;
    s->bench_progress = 0.0f;
    set_status(s, "Benchmark running…");
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
        set_status(s, "Benchmark done");
    } else {
        sv_bench_table_destroy(t);
        snprintf(msg, sizeof msg, "Benchmark failed: %.270s", err[0] ? err : "no table");
        set_status(s, msg);
    }
    sv_bench_live_destroy(s->bench_live);
    s->bench_live = NULL;
    s->bench_running = false;
}

/* ---- events ------------------------------------------------------------- */

static void to_fb(const sv_app_state *s, float wx, float wy, float *x, float *y)
{
    float rx = s->win_w > 0 ? (float)s->fb_w / (float)s->win_w : 1.0f;
    float ry = s->win_h > 0 ? (float)s->fb_h / (float)s->win_h : 1.0f;
    *x = wx * rx;
    *y = wy * ry;
}

static bool in_box(const sv_box *b, float x, float y)
{
    return x >= b->x && x < b->x + b->w && y >= b->y && y < b->y + b->h;
}

static void click(sv_app_state *s, float x, float y)
{
    sv_layout l;
    layout_of(s, &l);
    /* The [?] in the header opens the help; a click anywhere closes it. */
    if (s->help) {
        s->help = false;
        return;
    }
    if (!s->editing && in_box(&l.help_hint, x, y)) {
        s->help = true;
        return;
    }
    if (s->view != SV_VIEW_SCAN || !s->trace)
        return;
    int k = sv_layout_hit_step(&l, x, y);
    if (k >= 0) {
        go_step(s, k);
        return;
    }
    int row, cell;
    if (sv_layout_hit_cell(&l, x, y, &row, &cell)) {
        /* A question: a click on the asked row selects the cell (and
         * cycles its mark when the question is about cases). */
        if (s->quiz_asking && row == quiz_row(s, s->step)) {
            quiz_select(s, cell);
            if (quiz_kind_at(s, s->step) != SV_QUIZ_VALUES)
                quiz_cycle_mark(s, cell);
            return;
        }
        if (s->pinned_row == row && s->pinned_cell == cell)
            s->pinned_row = s->pinned_cell = -1;
        else {
            s->pinned_row = row;
            s->pinned_cell = cell;
        }
    } else {
        s->pinned_row = s->pinned_cell = -1;
    }
}

static void hover(sv_app_state *s)
{
    s->hover_row = s->hover_cell = -1;
    if (s->view != SV_VIEW_SCAN || !s->trace || s->dragging)
        return;
    sv_layout l;
    layout_of(s, &l);
    int row, cell;
    if (sv_layout_hit_cell(&l, s->mouse_x, s->mouse_y, &row, &cell)) {
        s->hover_row = row;
        s->hover_cell = cell;
    }
}

static void key(sv_app_state *s, const SDL_KeyboardEvent *e)
{
    const SDL_Keysym *k = &e->keysym;
    if (s->editing) {
        edit_key(s, k);
        return;
    }
    bool ctrl = (k->mod & KMOD_CTRL) != 0;
    bool shift = (k->mod & KMOD_SHIFT) != 0;
    bool rep = e->repeat != 0;
    bool scan_view = s->view == SV_VIEW_SCAN;

    if (ctrl) {
        switch (k->sym) {
        case SDLK_EQUALS: case SDLK_PLUS: case SDLK_KP_PLUS:
            s->ui_scale = sv_clampf(s->ui_scale * 1.1f, 0.5f, 3.0f);
            clamp_view(s);
            return;
        case SDLK_MINUS: case SDLK_KP_MINUS:
            s->ui_scale = sv_clampf(s->ui_scale / 1.1f, 0.5f, 3.0f);
            clamp_view(s);
            return;
        case SDLK_0: case SDLK_KP_0:
            s->ui_scale = 1.0f;
            clamp_view(s);
            return;
        case SDLK_1: case SDLK_2: case SDLK_3: case SDLK_4:
            if (scan_view && !rep)
                apply_preset(s, (int)(k->sym - SDLK_0));
            return;
        case SDLK_q:
            s->quit = true; /* no question asked */
            return;
        default:
            return; /* Ctrl+anything else: nothing */
        }
    }

    if (scan_view && !s->help && quiz_key(s, k))
        return;

    switch (k->sym) {
    case SDLK_ESCAPE:
        if (rep)
            break;
        /* One thing at a time: the help, the Measure view, fullscreen, and
         * only then the app, asking first when the array was made here. */
        if (s->help)
            s->help = false;
        else if (s->view == SV_VIEW_MEASURE)
            s->view = SV_VIEW_SCAN;
        else if (s->overview)
            s->overview = false;
        else if (s->fullscreen)
            s->fullscreen = false;
        else if (s->custom_input && !(s->quit_armed > 0.0f)) {
            s->quit_armed = SV_QUIT_ARM_S;
            set_status(s, "Esc again quits and loses this array · Ctrl+Q quits");
        } else
            s->quit = true;
        break;
    case SDLK_F12:
        s->want_state_line = true;
        break;
    case SDLK_h:
        if (!rep)
            s->help = !s->help;
        break;
    case SDLK_SLASH:
    case SDLK_QUESTION:
        if (!rep && (shift || k->sym == SDLK_QUESTION))
            s->help = !s->help;
        break;
    case SDLK_t:
        if (!rep) {
            s->theme = (sv_theme_id)((s->theme + 1) % SV_THEME_COUNT);
            char msg[64];
            snprintf(msg, sizeof msg, "Theme: %s", sv_theme_get(s->theme)->name);
            set_status(s, msg);
        }
        break;
    case SDLK_f:
    case SDLK_F11:
        if (!rep)
            s->fullscreen = !s->fullscreen;
        break;
    case SDLK_m:
        if (!rep)
            sv_app_show(s, scan_view ? SV_VIEW_MEASURE : SV_VIEW_SCAN);
        break;
    case SDLK_b:
        if (!rep && !scan_view)
            toggle_live_bench(s);
        break;
    default:
        break;
    }
    /* A presenter script: the arrow keys (and a clicker's Page Up/Down)
     * walk its steps, in any view; Shift+arrows still pan. */
    if (s->script.n > 0 && !shift && !s->quit) {
        switch (k->sym) {
        case SDLK_RIGHT: case SDLK_DOWN: case SDLK_PAGEDOWN:
            script_go(s, s->script_at + 1);
            return;
        case SDLK_LEFT: case SDLK_UP: case SDLK_PAGEUP:
            script_go(s, s->script_at - 1);
            return;
        case SDLK_HOME:
            script_go(s, 0);
            return;
        case SDLK_END:
            script_go(s, s->script.n - 1);
            return;
        default:
            break;
        }
    }
    if (!scan_view || s->quit)
        return;

    switch (k->sym) {
    case SDLK_v:
        if (!rep) {
            s->overview = !s->overview;
            set_status(s, s->overview ? "Overview: every round" : "The rounds");
        }
        break;
    case SDLK_RIGHT:
    case SDLK_PAGEDOWN: /* a presenter's clicker sends Page Down / Up */
        if (shift && k->sym == SDLK_RIGHT)
            pan_by(s, fmaxf(1.0f, visible_cells(s) / 4.0f));
        else if (s->quiz && s->quiz_asking)
            quiz_reveal(s);
        else if (s->quiz)
            quiz_ask_next(s);
        else
            go_step(s, s->step + 1);
        break;
    case SDLK_LEFT:
    case SDLK_PAGEUP:
        if (shift && k->sym == SDLK_LEFT)
            pan_by(s, -fmaxf(1.0f, visible_cells(s) / 4.0f));
        else
            go_step(s, s->step - 1); /* drops an unrevealed question */
        break;
    case SDLK_p:
        if (!rep) {
            quiz_set(s, !s->quiz);
            set_status(s, s->quiz ? "Predict mode: Right asks about the next round" :
                                    "Predict mode off");
        }
        break;
    case SDLK_q:
        if (!rep && s->quiz) {
            /* values -> cases -> (a mistake shown) right or wrong -> values */
            s->quiz_kind = s->quiz_kind == SV_QUIZ_VALUES ? SV_QUIZ_CASES
                         : s->quiz_kind == SV_QUIZ_CASES && s->lab ? SV_QUIZ_OUTCOME
                         : SV_QUIZ_VALUES;
            bool asking = s->quiz_asking;
            quiz_reset_question(s);
            s->quiz_asking = asking;
            set_status(s, s->quiz_kind == SV_QUIZ_CASES
                              ? "Question: which cells are full / partial / copy-through?"
                          : s->quiz_kind == SV_QUIZ_OUTCOME
                              ? "Question: will each cell be right in every run?"
                              : "Question: what value will each cell hold?");
        }
        break;
    case SDLK_y:
        if (!rep)
            next_type(s);
        break;
    case SDLK_DOWN:
        step_phase(s, +1);
        break;
    case SDLK_UP:
        step_phase(s, -1);
        break;
    case SDLK_c:
        if (!rep) {
            s->code = !s->code;
            clamp_view(s);
            set_status(s, s->code ? "Kernel source shown (C hides it)" : "Kernel source hidden");
        }
        break;
    case SDLK_k:
        if (!rep && s->deck_n > 1)
            deck_step(s, shift ? -1 : 1);
        else if (!rep)
            next_kernel(s);
        break;
    case SDLK_d:
        if (!rep) {
            s->show_correct = !s->show_correct;
            set_status(s, !s->show_correct ? "Correct values hidden"
                          : s->lab ? "Correct kernel's values shown beside (D hides them)"
                                   : "D: the correct values show beside a mistake's (K)");
        }
        break;
    case SDLK_HOME:
        go_step(s, 0);
        break;
    case SDLK_END:
        go_step(s, steps_of(s) - 1);
        break;
    case SDLK_SPACE:
        if (!rep)
            toggle_play(s);
        break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
        change_speed(s, +1);
        break;
    case SDLK_MINUS: case SDLK_KP_MINUS:
        change_speed(s, -1);
        break;
    case SDLK_e:
        if (!rep)
            edit_open(s);
        break;
    case SDLK_r:
        if (!rep)
            random_input(s);
        break;
    case SDLK_i:
    case SDLK_x: /* what users try first */
        if (!rep) {
            sv_scan sc = s->scan == SV_SCAN_INCLUSIVE ? SV_SCAN_EXCLUSIVE : SV_SCAN_INCLUSIVE;
            with_current_input(s, s->op, sc,
                               sc == SV_SCAN_EXCLUSIVE ? "Exclusive scan" : "Inclusive scan");
        }
        break;
    case SDLK_o:
        if (!rep)
            next_op(s);
        break;
    case SDLK_RIGHTBRACKET:
        zoom_centre(s, 1.25f);
        break;
    case SDLK_LEFTBRACKET:
        zoom_centre(s, 1.0f / 1.25f);
        break;
    case SDLK_z:
        s->zoom = 1.0f;
        s->pan = 0.0f;
        break;
    default:
        break;
    }
}

void sv_app_event(sv_app_state *s, const SDL_Event *e)
{
    if (bg_event != (uint32_t)-1 && e->type == bg_event) {
        bg_finish(s);
        return;
    }
    switch (e->type) {
    case SDL_QUIT:
        s->quit = true;
        break;
    case SDL_WINDOWEVENT:
        switch (e->window.event) {
        case SDL_WINDOWEVENT_MINIMIZED:
        case SDL_WINDOWEVENT_HIDDEN:
            sv_app_set_minimised(s, true);
            break;
        case SDL_WINDOWEVENT_RESTORED:
        case SDL_WINDOWEVENT_MAXIMIZED:
        case SDL_WINDOWEVENT_SHOWN:
        case SDL_WINDOWEVENT_EXPOSED:
            s->minimised = false;
            break;
        case SDL_WINDOWEVENT_LEAVE:
            s->hover_row = s->hover_cell = -1;
            break;
        case SDL_WINDOWEVENT_FOCUS_LOST:
            s->dragging = false;
            s->press_on_canvas = false;
            break;
        default:
            break;
        }
        break;
    case SDL_KEYDOWN: {
        uint64_t before = s->editing ? edit_hash(s) : 0;
        key(s, &e->key);
        if (s->editing && edit_hash(s) != before)
            edit_revalidate(s);
        break;
    }
    case SDL_TEXTINPUT:
        if (s->editing) {
            uint64_t before = edit_hash(s);
            edit_insert(s, e->text.text);
            if (edit_hash(s) != before)
                edit_revalidate(s);
        }
        break;
    case SDL_MOUSEMOTION: {
        float x, y;
        to_fb(s, (float)e->motion.x, (float)e->motion.y, &x, &y);
        float dx = x - s->mouse_x;
        s->mouse_x = x;
        s->mouse_y = y;
        if (s->press_on_canvas && s->view == SV_VIEW_SCAN) {
            if (!s->dragging && (fabsf(x - s->press_x) > SV_DRAG_PX ||
                                 fabsf(y - s->press_y) > SV_DRAG_PX))
                s->dragging = true;
            if (s->dragging) {
                sv_layout l;
                layout_of(s, &l);
                if (l.cell_pitch > 0.0f)
                    pan_by(s, -dx / l.cell_pitch);
            }
        }
        hover(s);
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT) {
            float x, y;
            to_fb(s, (float)e->button.x, (float)e->button.y, &x, &y);
            s->mouse_x = s->press_x = x;
            s->mouse_y = s->press_y = y;
            s->press_on_canvas = true;
            s->dragging = false;
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT) {
            float x, y;
            to_fb(s, (float)e->button.x, (float)e->button.y, &x, &y);
            if (s->press_on_canvas && !s->dragging)
                click(s, x, y);
            s->press_on_canvas = false;
            s->dragging = false;
            s->mouse_x = x;
            s->mouse_y = y;
            hover(s);
        }
        break;
    case SDL_MOUSEWHEEL:
        if (s->view == SV_VIEW_SCAN && !s->editing) {
            int dy = e->wheel.y, dx = e->wheel.x;
            if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) {
                dy = -dy;
                dx = -dx;
            }
            if (dy)
                zoom_at(s, powf(1.25f, (float)sv_clampi(dy, -4, 4)), s->mouse_x);
            if (dx)
                pan_by(s, (float)sv_clampi(dx, -4, 4));
        }
        break;
    default:
        break;
    }
}

/* ---- init, update, cleanup ---------------------------------------------- */

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
    s->schedule = c->schedule_given ? c->schedule
                                    : (sv_schedule){ SV_SCHEDULE_SEQUENTIAL, 1 };
    s->schedule_given = c->schedule_given;
    s->lab_runs = c->runs;
    s->lab_shake = c->shake;
    s->lab_shake_seed = c->shake_seed;
    s->ui_scale = 1.0f;
    s->zoom = 1.0f;
    s->anim = 1.0f;
    s->hover_row = s->hover_cell = -1;
    s->pinned_row = s->pinned_cell = -1;
    s->view = SV_VIEW_SCAN;
    s->seed = c->seed;
    s->win_w = s->fb_w = 1280;
    s->win_h = s->fb_h = 720;
    s->pixel_ratio = 1.0f;
    if (SDL_WasInit(SDL_INIT_VIDEO))
        SDL_StopTextInput(); /* SDL2 starts it by default; only the input box wants it */

    if (c->trace) {
        sv_trace *t = c->trace;
        adopt(s, t);
        s->from_file = true;
        sv_capture_source src;
        sv_capture_source_of_trace(t, &src);
        set_source(s, &src, c->trace_path);
        s->deck = c->deck;
        s->deck_n = c->deck && c->deck_n > 1 ? c->deck_n : 0;
        s->deck_at = 0;
        if (c->background && c->backend != SV_CHOOSE_CPU)
            bg_start(s, t->input, t->n);
        /* --kernel with a file: that mistake on the file's input. */
        if (c->kernel != SV_KERNEL_CORRECT) {
            s->kernel = c->kernel;
            sv_capture_status st = recapture_shown(s, s->op, s->scan, err, errlen);
            if (st != SV_CAPTURE_OK) {
                sv_app_cleanup(s);
                return st == SV_CAPTURE_BAD_INPUT ? SV_APP_BAD_INPUT
                     : st == SV_CAPTURE_UNAVAILABLE ? SV_APP_UNAVAILABLE : SV_APP_FAILED;
            }
        }
    } else {
        if (c->background && c->backend != SV_CHOOSE_CPU) {
            bg_start(s, c->input, c->n);
            if (s->bg) /* bg_start ran before the first trace: same generation */
                s->bg->gen = s->gen + 1;
        }
        /* With a background probe, the emulator until it is done. */
        sv_capture_status st = recapture(s, c->op, c->type, c->scan, c->input, c->n, err,
                                         errlen);
        if (st != SV_CAPTURE_OK) {
            sv_app_cleanup(s);
            return st == SV_CAPTURE_BAD_INPUT ? SV_APP_BAD_INPUT
                 : st == SV_CAPTURE_UNAVAILABLE ? SV_APP_UNAVAILABLE : SV_APP_FAILED;
        }
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

    if (c->round >= 0) {
        int steps = steps_of(s);
        if (c->round >= steps) {
            snprintf(err, errlen, "--round %d: this trace has rounds 0..%d", c->round, steps - 1);
            sv_app_cleanup(s);
            return SV_APP_BAD_INPUT;
        }
        s->step = s->from_step = c->round;
    }
    if (c->quiz)
        quiz_set(s, true);
    s->clean = c->clean;
    s->overview = c->overview;
    if (c->ui_scale > 0.0f)
        s->ui_scale = sv_clampf(c->ui_scale, 0.5f, 3.0f);
    s->script_at = -1;
    s->script_kernel = s->kernel;
    if (c->script) {
        char why[300];
        if (!sv_script_load(c->script, &s->script, why, sizeof why) ||
            !sv_script_check(&s->script, (int)s->trace->nrounds,
                             s->trace->scan == SV_SCAN_EXCLUSIVE, why, sizeof why)) {
            snprintf(err, errlen, "--script %s: %s", c->script, why);
            sv_app_cleanup(s);
            return SV_APP_BAD_INPUT;
        }
        script_go(s, 0);
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
    if (s->bg && !s->bg->finished)
        bg_finish(s);
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
    int last = steps_of(s) - 1;
    if (s->step < last) {
        go_step(s, s->step + 1);
    } else if (s->loop) {
        go_step(s, 0);
    } else {
        s->playing = false;
    }
}

bool sv_app_busy(const sv_app_state *s)
{
    /* A background capture is not "busy": its user event wakes the loop. */
    return s->anim < 1.0f || s->playing || s->status_time > 0.0f || s->bench_running;
}

void sv_app_show(sv_app_state *s, sv_view view)
{
    s->view = view == SV_VIEW_MEASURE ? SV_VIEW_MEASURE : SV_VIEW_SCAN;
    s->hover_row = s->hover_cell = -1;
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
        clamp_view(s);
}

void sv_app_cleanup(sv_app_state *s)
{
    if (!s)
        return;
    bg_destroy(s->bg);
    s->bg = NULL;
    sv_bench_live_destroy(s->bench_live);
    s->bench_live = NULL;
    s->bench_running = false;
    sv_trace_destroy(s->trace);
    s->trace = NULL;
    lab_clear(s);
    sv_bench_table_destroy(s->bench);
    s->bench = NULL;
    sv_script_finish(&s->script);
}

/* ---- the state line ----------------------------------------------------- */

static void quoted(char *dst, size_t len, const char *src)
{
    size_t j = 0;
    for (size_t i = 0; src[i] && j + 1 < len; i++)
        dst[j++] = src[i] == '"' ? '\'' : (src[i] == '\n' ? ' ' : src[i]);
    dst[j] = '\0';
}

void sv_app_state_line(const sv_app_state *s, char *buf, size_t len)
{
    if (len == 0)
        return;
    /* The arrays (up to 2 x 48 KB) on the heap, the rest on the stack:
     * reentrant, and nothing kept between calls. */
    enum { VALUES_MAX = SV_MAX_N * 48 };
    char *in = malloc(VALUES_MAX), *out = malloc(VALUES_MAX);
    char *text = malloc(SV_EDIT_MAX);
    char err[300], src[300];
    if (!in || !out || !text) {
        snprintf(buf, len, "state error=\"out of memory\"");
        free(in);
        free(out);
        free(text);
        return;
    }
    in[0] = out[0] = '\0';
    if (s->trace) {
        format_values(s->trace->type, s->trace->input, s->trace->n, ',', in, VALUES_MAX);
        format_values(s->trace->type, s->trace->output, s->trace->n, ',', out, VALUES_MAX);
    }
    /* Where the timeline dots and the cells are, in window points, so that
     * scripts can click what is drawn. */
    char geo[1024] = "";
    if (s->trace) {
        sv_layout l;
        layout_of(s, &l);
        float rx = s->fb_w > 0 ? (float)s->win_w / (float)s->fb_w : 1.0f;
        float ry = s->fb_h > 0 ? (float)s->win_h / (float)s->fb_h : 1.0f;
        size_t at = 0;
        at += (size_t)snprintf(geo + at, sizeof geo - at, "timeline=");
        for (int i = 0; i < l.steps && i < SV_MAX_STEPS && at < sizeof geo - 64; i++)
            at += (size_t)snprintf(geo + at, sizeof geo - at, "%s%.0f", i ? "," : "",
                                   (double)(l.timeline_x[i] * rx));
        if (at < sizeof geo - 200)
            snprintf(geo + at, sizeof geo - at, "@%.0f cells=%.1f+%.2f@%.0f,%.0f,%.0f,%.0f",
                     (double)(l.timeline_y * ry), (double)(l.cell_x0 * rx + l.cell_w * rx / 2),
                     (double)(l.cell_pitch * rx), (double)(l.row_y[0] * ry),
                     (double)(l.row_y[1] * ry), (double)(l.row_y[2] * ry),
                     (double)(l.row_y[3] * ry));
    }
    /* Predict mode: the question, its answers (cell:value or cell:case),
     * the verdicts after Reveal (cell:right or cell:wrong) and the score. */
    char quiz[2048] = "";
    if (s->trace) {
        sv_quiz_kind kind = quiz_kind_at(s, s->step);
        size_t at = (size_t)snprintf(quiz, sizeof quiz,
            "quiz=%d quiz_kind=%s quiz_phase=%s quiz_step=%d quiz_sel=%d quiz_text=\"%s\" "
            "quiz_score=%d/%d quiz_answers=", s->quiz ? 1 : 0,
            quiz_kind_name(kind),
            !s->quiz ? "off" : s->quiz_asking ? "ask" : "shown", s->quiz_step, s->quiz_sel,
            s->quiz_text, s->quiz_right, s->quiz_total);
        const char *sep = "";
        for (size_t i = 0; i < s->trace->n && at < sizeof quiz - 600; i++) {
            char one[48];
            if (kind == SV_QUIZ_CASES && s->quiz_mark[i])
                at += (size_t)snprintf(quiz + at, sizeof quiz - at, "%s%zu:%s", sep, i,
                                       sv_case_name((sv_case)(s->quiz_mark[i] - 1)));
            else if (kind == SV_QUIZ_OUTCOME && s->quiz_mark[i])
                at += (size_t)snprintf(quiz + at, sizeof quiz - at, "%s%zu:%s", sep, i,
                                       s->quiz_mark[i] == SV_QUIZ_RIGHT ? "right" : "wrong");
            else if (kind == SV_QUIZ_VALUES && s->quiz_has[i])
                at += (size_t)snprintf(quiz + at, sizeof quiz - at, "%s%zu:%s", sep, i,
                                       sv_value_format(s->trace->type, s->quiz_value[i], one,
                                                       sizeof one));
            else
                continue;
            sep = ",";
        }
        at += (size_t)snprintf(quiz + at, sizeof quiz - at, " quiz_results=");
        sep = "";
        for (size_t i = 0; s->quiz_scored && i < s->trace->n && at < sizeof quiz - 40; i++) {
            if (s->quiz_result[i] == SV_QUIZ_UNASKED)
                continue;
            at += (size_t)snprintf(quiz + at, sizeof quiz - at, "%s%zu:%s", sep, i,
                                   s->quiz_result[i] == SV_QUIZ_RIGHT ? "right" : "wrong");
            sep = ",";
        }
    }
    /* The [?] button, in window points. */
    char helpbtn[64];
    {
        sv_layout l;
        layout_of(s, &l);
        float rx = s->fb_w > 0 ? (float)s->win_w / (float)s->fb_w : 1.0f;
        float ry = s->fb_h > 0 ? (float)s->win_h / (float)s->fb_h : 1.0f;
        snprintf(helpbtn, sizeof helpbtn, "helpbtn=%.0f,%.0f",
                 (double)((l.help_hint.x + l.help_hint.w / 2.0f) * rx),
                 (double)((l.help_hint.y + l.help_hint.h / 2.0f) * ry));
    }
    /* The source lines the phase highlights (0-0: none). */
    int hl_lo = 0, hl_hi = 0;
    const sv_source_file *sf = sv_source_get(s->source_kernel);
    if (sf && s->phase != SV_PHASE_NONE)
        sv_source_phase_lines(sf, s->phase, s->step, &hl_lo, &hl_hi);
    /* The schedule the shown outcome ran under: "gpu" for GPU runs. */
    char sched[48];
    const sv_lab_record *rec = s->trace ? s->trace->lab : NULL;
    if (rec && !rec->emulated)
        snprintf(sched, sizeof sched, "gpu");
    else
        sv_schedule_format(rec ? rec->schedule : s->schedule, sched, sizeof sched);
    /* racecheck: errors/warnings, "not-run" when asked for but it could
     * not run, "-" when not asked for. */
    char race[48] = "-";
    if (rec && rec->racecheck && rec->racecheck->ran)
        snprintf(race, sizeof race, "%llu/%llu", (unsigned long long)rec->racecheck->errors,
                 (unsigned long long)rec->racecheck->warnings);
    else if (rec && rec->racecheck)
        snprintf(race, sizeof race, "not-run");
    /* Escaped first (control characters, invalid UTF-8 from a paste or a
     * file never reach the terminal raw), then quoted. */
    size_t esc_len = (size_t)SV_EDIT_MAX * 4;
    char *esc = malloc(esc_len);
    if (!esc) {
        snprintf(buf, len, "state error=\"out of memory\"");
        free(in);
        free(out);
        free(text);
        return;
    }
    quoted(err, sizeof err, sv_escape(s->edit_error, esc, esc_len));
    quoted(src, sizeof src, sv_escape(s->source, esc, esc_len));
    quoted(text, SV_EDIT_MAX, sv_escape(s->edit_text, esc, esc_len));
    free(esc);
    snprintf(buf, len,
             "state step=%d steps=%d n=%zu op=%s type=%s scan=%s input=%s output=%s "
             "editing=%d text=\"%s\" error=\"%s\" theme=%s view=%s playing=%d speed=%g "
             "anim=%.2f zoom=%.2f pan=%.2f ui_scale=%.2f fullscreen=%d help=%d "
             "hover=%d,%d pinned=%d,%d backend=%s win=%dx%d fb=%dx%d bench=%s code=%d "
             "phase=%s code_lines=%d-%d kernel=%s schedule=%s correct=%d lab_runs=%u "
             "lab_wrong=%u first_wrong_round=%d racecheck=%s %s %s %s overview=%d clean=%d script=%d/%d "
             "script_kernel=%s deck=%d/%d quit_armed=%d source=\"%s\"",
             s->step, steps_of(s), s->trace ? s->trace->n : (size_t)0,
             sv_op_name(s->op), sv_type_name(s->type), sv_scan_name(s->scan), in, out,
             s->editing ? 1 : 0, s->editing ? text : "", err, sv_theme_get(s->theme)->name,
             s->view == SV_VIEW_MEASURE ? "measure" : "scan", s->playing ? 1 : 0,
             (double)s->speed, (double)s->anim, (double)s->zoom, (double)s->pan,
             (double)s->ui_scale, s->fullscreen ? 1 : 0, s->help ? 1 : 0, s->hover_row,
             s->hover_cell, s->pinned_row, s->pinned_cell,
             s->trace ? sv_backend_name(s->trace->backend) : "none", s->win_w, s->win_h,
             s->fb_w, s->fb_h, s->bench_running ? "running" : (s->bench ? "table" : "none"),
             s->code ? 1 : 0, s->phase ? sv_phase_name(s->phase) : "none", hl_lo, hl_hi,
             sv_kernel_name(s->kernel), sched, s->show_correct ? 1 : 0,
             s->lab ? (unsigned)s->lab->runs : 0u, s->lab ? (unsigned)s->lab->wrong_runs : 0u,
             s->lab ? s->lab->first_wrong_round : -1, race, geo, helpbtn, quiz,
             s->overview ? 1 : 0, s->clean ? 1 : 0, s->script_at + 1, s->script.n,
             (s->script_at >= 0 && s->script.steps[s->script_at].kernel[0])
                 ? s->script.steps[s->script_at].kernel : "-",
             s->deck_n ? s->deck_at + 1 : 0, s->deck_n, s->quit_armed > 0.0f ? 1 : 0, src);
    free(in);
    free(out);
    free(text);
}
