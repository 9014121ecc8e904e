/* The visualizer's behaviour, sokol-style: init, event, update, cleanup on
 * the one state struct (state.h), plus the view the renderers draw (view.h).
 *
 * Contract:
 *  - The functions here are the only writers of sv_app_state; main.c and
 *    the tests call them and may read the state's fields, never write them.
 *  - main.c owns the window and the GL context. Each frame it takes a view
 *    with sv_app_view_of() and draws it with sv_render_frame() (render.h);
 *    the export draws views the same way.
 *  - None of these functions draw, print or exit; errors go to the caller's
 *    buffer. All run on the main thread (the background capture's thread
 *    touches only its own copy of the input and its results).
 *  - What the keys do is one table, keys.h: sv_app_event dispatches from
 *    it, the help overlay (help.h, sv_help_keys) lists it, and
 *    docs/user-guide.md's key list is checked against it (test_keys). */
#ifndef SV_APP_H
#define SV_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <SDL.h>

#include "state.h"

enum { SV_DECK_MAX = 16 }; /* trace files one window takes (--trace, repeated) */

/* What the command line asks for. */
typedef struct sv_app_config {
    sv_op op;
    sv_type type;
    sv_scan scan;
    sv_backend_choice backend;
    const sv_value *input;  /* borrowed, n values; ignored when trace is set */
    size_t n;
    sv_trace *trace;        /* --trace: ownership passes to the state (also on failure) */
    /* --trace of a kernel trace (version 3, e.g. made on a GPU machine):
     * shown in the kernel pane with its own source, read only (nothing runs
     * it again); the chapter's trace of its input is captured beside it.
     * Ownership passes to the state (also on failure); trace is NULL. */
    sv_ktrace *ktrace;
    const char *trace_path; /* for the source line */
    /* Several --trace files (a deck, e.g. the H200's correct, in-place and
     * in-place --shake runs): K and Shift+K walk them in this order instead
     * of the kernels, loading each when it is shown. deck[0] is trace_path;
     * the strings are borrowed for the app's life (argv). deck_n <= 1: none. */
    const char *const *deck;
    int deck_n;
    int round;              /* -1: start at round 0 */
    sv_theme_id theme;
    bool fullscreen;
    float speed;            /* 0.25 .. 4 */
    bool autoplay;          /* play and loop */
    bool animations;
    bool quiz;              /* --quiz: start in predict mode (key P) */
    uint64_t seed;          /* first seed for R */
    const char *bench_csv;  /* the Measure view's data; NULL: the shipped table */
    const char *timeline;   /* --timeline FILE: the Measure view opens on it; NULL: none */
    /* true: capture with the emulator now and run CUDA in the background
     * (the window); false: capture with backend now, synchronously (export). */
    bool background;
    /* Slides (issue 10). */
    bool clean;             /* --clean: no key hints, no [?], the source short */
    float ui_scale;         /* --scale: 0.5 .. 3; 0 = 1 */
    bool overview;          /* --overview: start on the overview */
    const char *script;     /* --script FILE: a presenter script (script.h); NULL none */
    bool code;              /* --code: the source panel starts shown */
    sv_kernel kernel;       /* the first kernel (0: the chapter's; with trace, a
                               mistake recaptures the file's input) */
    sv_schedule schedule;   /* the emulator's schedule for mistakes (zero: lockstep) */
    bool schedule_given;    /* false: the window's default, sequential, used only
                               when the emulator runs; true: the emulator (as
                               scanviz-trace --schedule) */
    uint32_t runs;          /* --runs: a mistake's runs (0: 100 on the GPU, 1 emulated) */
    bool shake;             /* --shake: GPU runs with a seeded per-warp delay */
    uint64_t shake_seed;    /* --shake-seed (0: 1) */
    /* Your own kernel (issue 18): the file shown on the input, run again on
     * every save (with background; else once, for exports). */
    const char *kernel_file; /* --kernel-file FILE.cu; NULL none */
    const char *entry;       /* --entry NAME; NULL: the only __global__ */
    const char *exercise;    /* --exercise NAME (not "list"); NULL none */
    const char *into;        /* --into DIR; NULL: ~/scanviz/exercises */
    uint32_t time_limit_ms;  /* --time-limit; 0: the runtime's default */
    /* A shipped kernel beyond the chapter (--kernel blelloch, issue 20): its
     * file ("kernels/blelloch.cu"), run by the kernel runtime's build on the
     * input and drawn by the kernel pane; NULL none. */
    const char *builtin_kernel;
    /* --compare blelloch (issue 20): start on the compare view, Hillis-Steele
     * beside Blelloch on the same input (key B). */
    bool compare;
} sv_app_config;

/* --new-kernel FILE.cu: writes the starting kernel file (the installed
 * kernels/hillis_steele.cu, embedded), all or nothing; false with err
 * naming the file when it exists (never overwritten) or cannot be written. */
bool sv_app_new_kernel(const char *path, char *err, size_t errlen);

/* Status of sv_app_init, mirroring scanviz-trace's exit codes. */
typedef enum sv_app_status {
    SV_APP_OK = 0,
    SV_APP_BAD_INPUT = 2,   /* --round out of range, n out of range, op not on type,
                               a bad --bench-csv or --script file */
    SV_APP_UNAVAILABLE = 3, /* --backend cuda without a usable GPU (synchronous mode) */
    SV_APP_FAILED = 1
} sv_app_status;

/* Fills s (zeroed first) from c and captures the first trace. On failure
 * the state holds nothing (sv_app_cleanup is still safe). */
sv_app_status sv_app_init(sv_app_state *s, const sv_app_config *c, char *err, size_t errlen);

/* Handles one SDL event; may set s->quit, s->fullscreen (main.c applies it
 * to the window and reports back with sv_app_set_fullscreen) and
 * s->want_state_line (main.c prints the line, see sv_app_take_state_line). */
void sv_app_event(sv_app_state *s, const SDL_Event *e);

/* Advances animation, autoplay and transient messages by dt seconds, and
 * adopts the background GPU trace when it is ready. */
void sv_app_update(sv_app_state *s, float dt);

/* Whether something is moving (animation, autoplay, a message fading, a
 * live benchmark): the main loop keeps drawing. A background capture wakes
 * the loop with its own event instead. */
bool sv_app_busy(const sv_app_state *s);

/* Whether a kernel file's run is going on: not busy (the loop waits, the
 * run has the CPU), but its progress line is drawn again now and then. */
bool sv_app_running(const sv_app_state *s);

/* Records the window size (points) and drawable size (pixels); clamps both
 * to at least 1 and keeps zoom and pan valid for the new layout. */
void sv_app_resize(sv_app_state *s, int win_w, int win_h, int fb_w, int fb_h);

/* Frees the trace, the bench table and the background thread (waiting for
 * it). Safe on a zeroed or already cleaned-up state. */
void sv_app_cleanup(sv_app_state *s);

/* The one-line state report for tests and scripts (docs/user-guide.md):
 * `state step=3 steps=4 n=8 op=sum type=int32 scan=inclusive input=3,1,...
 * output=3,4,... editing=0 error="" theme=dark ...`, no newline. */
void sv_app_state_line(const sv_app_state *s, char *buf, size_t len);

/* The values the state line lists: SV_MAX_N, or the shown input's or kernel
 * trace's n past it (a kernel file's many blocks); its input, output and
 * kout take up to 124 bytes a value in all. */
size_t sv_app_state_values(const sv_app_state *s);

/* Fills v with what s shows, for the renderers (view.h: borrowed pointers,
 * valid until the next call here that changes s). */
void sv_app_view_of(const sv_app_state *s, sv_app_view *v);

/* Shows a screen (SV_VIEW_SCAN or SV_VIEW_MEASURE), as key M does. */
void sv_app_show(sv_app_state *s, sv_view view);

/* Records whether the window is minimised (then nothing is drawn). */
void sv_app_set_minimised(sv_app_state *s, bool minimised);

/* Records whether the window really is fullscreen, after main.c tried to
 * apply s->fullscreen (it may have failed). */
void sv_app_set_fullscreen(sv_app_state *s, bool fullscreen);

/* What the exercise's panel needs, from the frame just drawn
 * (sv_render_exercise_scroll_max): the most lines its body scrolls and the
 * lines it shows at once; the scroll keys stop there. */
void sv_app_exercise_scroll_room(sv_app_state *s, int max, int page);

/* Asks for a state line (SIGUSR1 does, as F12 does). */
void sv_app_request_state_line(sv_app_state *s);

/* Whether a state line was asked for since the last call; clears it. */
bool sv_app_take_state_line(sv_app_state *s);

#endif
