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

#include "../core/escape.h"
#include "../core/input.h"
#include "../core/parse.h"
#include "bench_live.h"
#include "render.h"
#include "util.h"

/* SV_MOVE_S, SV_HOLD_S: view.h (the GIF export plays the same timing) */
#define SV_STATUS_S 2.5f  /* a transient message stays this long */
#define SV_DRAG_PX 4.0f   /* a press that moves further is a drag, not a click */

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
    v->clean = s->clean;
    v->overview = s->overview;
    v->caption = s->caption_override;
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
static void adopt(sv_app_state *s, sv_trace *t)
{
    sv_trace_destroy(s->trace);
    s->trace = t;
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

/* Captures a new trace with the state's backend choice and shows it. A
 * window with a background probe always shows a trace: capture runs the
 * emulator while the probe runs, and when the GPU is missing or fails, and
 * says why. On failure the shown trace stays and err says why. */
static sv_capture_status recapture(sv_app_state *s, sv_op op, sv_type type, sv_scan scan,
                                   const sv_value *in, size_t n, char *err, size_t errlen)
{
    const sv_capture_request req = {
        .op = op, .type = type, .scan = scan, .input = in, .n = n, .choice = s->backend,
        .fallback = s->bg != NULL, .no_wait = s->bg != NULL,
    };
    sv_trace *t = NULL;
    sv_capture_source src;
    sv_capture_status st = sv_capture(&req, &t, &src, err, errlen);
    if (st != SV_CAPTURE_OK)
        return st;
    adopt(s, t);
    set_source(s, &src, NULL);
    return SV_CAPTURE_OK;
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
    if (bg->gen == s->gen) {
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
    /* The input changed while CUDA started: capture the current one now. */
    if (s->trace) {
        char err[256];
        sv_value *in = malloc(s->trace->n * sizeof *in);
        if (!in)
            return;
        memcpy(in, s->trace->input, s->trace->n * sizeof *in);
        if (recapture(s, s->op, s->type, s->scan, in, s->trace->n, err, sizeof err) ==
            SV_CAPTURE_OK) {
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
        free(in);
    }
}

/* ---- stepping ----------------------------------------------------------- */

static void go_step(sv_app_state *s, int k)
{
    k = sv_clampi(k, 0, steps_of(s) - 1);
    if (k == s->step)
        return;
    bool adjacent = k == s->step + 1 || k == s->step - 1;
    s->from_step = s->step;
    s->step = k;
    s->anim = s->animations && adjacent ? 0.0f : 1.0f;
    if (s->anim >= 1.0f)
        s->from_step = k;
    s->hold = SV_HOLD_S / s->speed;
}

/* Shows step `at` of the presenter script (clamped): its view, its round
 * (moving into it from the round before when the step says "move" and the
 * script goes forward), its caption. */
static void script_go(sv_app_state *s, int at)
{
    if (s->script.n == 0)
        return;
    at = sv_clampi(at, 0, s->script.n - 1);
    bool forward = at == s->script_at + 1;
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
    char msg[64];
    snprintf(msg, sizeof msg, "New input: n = %zu", n);
    set_status(s, msg);
    return true;
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
    sv_value *in = malloc(s->trace->n * sizeof *in);
    if (!in)
        return;
    size_t n = s->trace->n;
    memcpy(in, s->trace->input, n * sizeof *in);
    if (recapture(s, op, s->type, scan, in, n, err, sizeof err) == SV_CAPTURE_OK)
        copy_text(msg, sizeof msg, what);
    else
        snprintf(msg, sizeof msg, "%.300s", err);
    set_status(s, msg);
    free(in);
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

static void random_input(sv_app_state *s)
{
    size_t n = s->trace ? s->trace->n : 8;
    sv_value *v = sv_random_values(s->op, s->type, n, s->seed++);
    if (!v)
        return;
    char err[256];
    if (recapture(s, s->op, s->type, s->scan, v, n, err, sizeof err) == SV_CAPTURE_OK)
        set_status(s, "Random input");
    else
        set_status(s, err);
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

static void click(sv_app_state *s, float x, float y)
{
    if (s->view != SV_VIEW_SCAN || !s->trace)
        return;
    sv_layout l;
    layout_of(s, &l);
    int k = sv_layout_hit_step(&l, x, y);
    if (k >= 0) {
        go_step(s, k);
        return;
    }
    int row, cell;
    if (sv_layout_hit_cell(&l, x, y, &row, &cell)) {
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
        default:
            return; /* Ctrl+anything else: nothing */
        }
    }

    switch (k->sym) {
    case SDLK_ESCAPE:
        if (rep)
            break;
        if (s->help)
            s->help = false;
        else if (s->view == SV_VIEW_MEASURE)
            s->view = SV_VIEW_SCAN;
        else if (s->overview)
            s->overview = false;
        else
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
        if (shift)
            pan_by(s, fmaxf(1.0f, visible_cells(s) / 4.0f));
        else
            go_step(s, s->step + 1);
        break;
    case SDLK_LEFT:
        if (shift)
            pan_by(s, -fmaxf(1.0f, visible_cells(s) / 4.0f));
        else
            go_step(s, s->step - 1);
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
    case SDL_KEYDOWN:
        key(s, &e->key);
        break;
    case SDL_TEXTINPUT:
        if (s->editing)
            edit_insert(s, e->text.text);
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
        if (c->background && c->backend != SV_CHOOSE_CPU)
            bg_start(s, t->input, t->n);
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
    s->clean = c->clean;
    s->overview = c->overview;
    if (c->ui_scale > 0.0f)
        s->ui_scale = sv_clampf(c->ui_scale, 0.5f, 3.0f);
    s->script_at = -1;
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
             "hover=%d,%d pinned=%d,%d backend=%s win=%dx%d fb=%dx%d bench=%s %s "
             "overview=%d clean=%d script=%d/%d kernel=%s source=\"%s\"",
             s->step, steps_of(s), s->trace ? s->trace->n : (size_t)0,
             sv_op_name(s->op), sv_type_name(s->type), sv_scan_name(s->scan), in, out,
             s->editing ? 1 : 0, s->editing ? text : "", err, sv_theme_get(s->theme)->name,
             s->view == SV_VIEW_MEASURE ? "measure" : "scan", s->playing ? 1 : 0,
             (double)s->speed, (double)s->anim, (double)s->zoom, (double)s->pan,
             (double)s->ui_scale, s->fullscreen ? 1 : 0, s->help ? 1 : 0, s->hover_row,
             s->hover_cell, s->pinned_row, s->pinned_cell,
             s->trace ? sv_backend_name(s->trace->backend) : "none", s->win_w, s->win_h,
             s->fb_w, s->fb_h, s->bench_running ? "running" : (s->bench ? "table" : "none"), geo,
             s->overview ? 1 : 0, s->clean ? 1 : 0, s->script_at + 1, s->script.n,
             (s->script_at >= 0 && s->script.steps[s->script_at].kernel[0])
                 ? s->script.steps[s->script_at].kernel : "-",
             src);
    free(in);
    free(out);
    free(text);
}
