/* The visualizer's one state struct, owned by the app's files (app.c and
 * app_*.c, listed in app_internal.h).
 *
 * Contract:
 *  - Only the app's files write any field, in sv_app_init, sv_app_event,
 *    sv_app_update, sv_app_resize, sv_app_cleanup and the small setters of
 *    app.h that main.c calls (sv_app_show, sv_app_set_minimised, ...).
 *  - main.c and the tests may read fields (the trace, quit, fullscreen, the
 *    source line); nobody else includes this header.
 *  - The renderers and the export never see this struct: they draw a
 *    read-only sv_app_view (view.h) that sv_app_view_of() fills from it.
 *  - Owned pointers (trace, bench, bg, bench_live) are freed only by the app's files;
 *    sv_app_cleanup frees them all. The struct is never copied: bg and
 *    bench_live hold a thread and a child process.
 * Fields are grouped by who sets them from what. */
#ifndef SV_STATE_H
#define SV_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/trace.h"
#include "../core/bench_csv.h"
#include "../core/ktrace.h"
#include "../core/lab.h"
#include "../capture/capture.h"
#include "script.h"
#include "theme.h"
#include "view.h"

/* The input box's bytes, NUL included: room for the largest valid array,
 * SV_MAX_N = 1024 values of up to 31 characters each with a separator (an
 * int32 needs 11, a float32 written the shortest way 15, "0.100000001490116"
 * 17). A longer paste is refused whole with a message (app_edit.c sv_app_edit_insert). */
#define SV_EDIT_MAX (SV_MAX_N * 32)

struct sv_app_job;    /* app_capture.c: a capture on a thread (the probe, the lab) */
struct sv_bench_live; /* bench_live.h: a live scanviz-bench run */
struct sv_app_kfile;  /* app_kfile.c: a kernel file's watch and runs */
struct sv_app_exercise; /* app_exercise.c: an exercise's spec and its check's worker */

typedef struct sv_app_state {
    /* What is shown. trace is owned; steps = trace->nrounds, plus one for the
     * exclusive shift when trace->scan is exclusive. */
    sv_trace *trace;
    char source[256];       /* "CUDA · NVIDIA H200" or "CPU emulator: no CUDA device (reason)" */
    sv_op op;
    sv_type type;
    sv_scan scan;
    sv_backend_choice backend;

    /* Where we are. step is 0 .. steps-1; anim runs 0 -> 1 as values move
     * along their arrows into step's pout (1 = settled, also with
     * animations off). from_step is the step the animation started from. */
    int step;
    int from_step;
    float anim;
    bool playing;           /* Space: autoplay */
    bool loop;              /* --autoplay: loop back to round 0 */
    float speed;            /* 0.25 .. 4, 1 = 350 ms per move */
    bool animations;        /* false with --no-animation */
    float hold;             /* seconds left to hold a settled round while playing */

    /* View. Layout scales with the framebuffer and ui_scale, never fixed px. */
    sv_view view;
    sv_theme_id theme;
    float ui_scale;         /* Ctrl +/-, Ctrl 0 */
    float zoom;             /* 1 = all cells fit; wheel / keys zoom in */
    float pan;              /* horizontal pan, in cells from the left */
    bool fullscreen;
    int win_w, win_h;       /* window size (points) */
    int fb_w, fb_h;         /* drawable size (pixels); pixel_ratio = fb_w / win_w */
    float pixel_ratio;

    /* Pointer, in framebuffer pixels. hover_* and pinned_* name a cell as
     * (row, index): row 0 input, 1 buf[0], 2 buf[1], 3 output; -1 = none. */
    float mouse_x, mouse_y;
    int hover_row, hover_cell;
    bool hover_source;         /* the pointer is on the header's source line (its tooltip) */
    int pinned_row, pinned_cell; /* click pins the tooltip */
    bool dragging;

    /* Overlays */
    bool help;              /* H, ? or a click on the [?] button */

    /* Predict mode (P, --quiz; view.h says what is shown). Answers are per
     * cell of the asked row, cleared when a new question starts. */
    bool quiz;
    bool quiz_asking;
    sv_quiz_kind quiz_kind; /* as chosen with Q */
    int quiz_step;
    int quiz_sel;
    char quiz_text[32];     /* digits, '-', '.' typed into quiz_sel */
    bool quiz_has[SV_MAX_N];
    sv_value quiz_value[SV_MAX_N];
    unsigned char quiz_mark[SV_MAX_N];
    unsigned char quiz_result[SV_MAX_N];
    bool quiz_scored;
    int quiz_right, quiz_total;

    /* Slides (issue 10). */
    bool clean;             /* --clean: no key hints, no [?], the backend short */
    bool overview;          /* V / --overview: every round stacked in one picture */
    char caption_override[256]; /* the presenter script's caption; "" none */
    sv_script script;       /* --script: owned; n == 0 without one */
    int script_at;          /* the script step shown; -1 before the first */
    sv_kernel script_kernel; /* the kernel before the script's first `kernel` step */
    bool script_code;        /* the source panel before the script's first `code` step;
                                D's values start hidden (show_correct false) */
    /* The kernel on screen: the source panel (C, --code) and the phase
     * inside the current step (Down/Up; SV_PHASE_NONE = the whole round;
     * any round step resets it). */
    bool code;
    sv_phase phase;
    int source_kernel;      /* sv_source_get(): 0 = the chapter's kernel */

    /* The mistakes lab. kernel is what K cycles; every kernel is captured
     * through capture (app_lab.c sv_app_recapture): a mistake runs lab_runs times on
     * the GPU (shaken when lab_shake), or emulated under schedule when there
     * is no GPU, --backend cpu or --schedule; the trace's record (trace->lab)
     * holds the per-cell outcome, which lab points into. */
    sv_kernel kernel;
    sv_schedule schedule;   /* the emulator's (--schedule; else sequential) */
    bool schedule_given;    /* --schedule: it picks the emulator, as in scanviz-trace */
    uint32_t lab_runs;      /* --runs; 0: capture's default (100 on the GPU, 1
                               emulated, 100 seeds for a given random:S or warps:S) */
    bool lab_shake;         /* --shake: per-warp delays on the GPU */
    uint64_t lab_shake_seed; /* --shake-seed; 0: 1 */
    bool show_correct;      /* D */
    const sv_lab_summary *lab; /* trace->lab's summary (borrowed); NULL without a record */
    const sv_lab_reads *lab_reads; /* the shown trace's record's (borrowed); emulated runs:
                                      what the shown run's reads saw */
    char lab_note[160];     /* "in-place · sequential · emulated", "in-place · 100 GPU runs
                               (shaken, seed 1)"; "" without a record */

    /* The input box (E). edit_error is shown inline and names the bad token;
     * the trace on screen stays until a valid array is applied. */
    bool editing;
    char edit_text[SV_EDIT_MAX];
    size_t edit_cursor;     /* byte offset into edit_text */
    bool edit_all;          /* the whole text is selected (on opening, Ctrl+A):
                               typing replaces it, Backspace/Delete clear it */
    char edit_error[256];
    char status[1024];      /* a transient message line (e.g. "GPU trace ready"): paths
                               relative where they can be, escaped (sv_app_set_status) */
    float status_time;

    /* The Measure view's data (M). */
    sv_bench_table *bench;  /* owned; NULL until loaded */
    char bench_source[256]; /* "NVIDIA H200 · 2026-11-29 (shipped)" */
    bool bench_running;
    float bench_progress;   /* 0 .. 1 while a live run is going */
    /* The look-back timeline (--timeline FILE; L in the Measure view). */
    struct sv_timeline *timeline; /* owned; NULL: none loaded */
    bool timeline_on;       /* the Measure view shows it, not the plots */
    int tl_first, tl_rows;  /* the tiles shown (render_timeline.h clamps them) */
    uint64_t tl_cursor;     /* step by time (Left / Right): SV_TL_NO_CURSOR none */
    struct sv_timeline *timeline_file; /* owned: --timeline FILE's, kept while L shows
                               a launch's tiles (timeline->kernel set) instead */

    /* The app's own bookkeeping; the renderers need none of it. */
    bool quit;              /* Ctrl+Q, Esc with nothing open (twice after an edit),
                               or the window closed */
    float quit_armed;       /* seconds in which a second Esc quits */
    bool custom_input;      /* the input was changed in the window (Esc asks) */
    bool minimised;         /* don't render, don't spin */
    bool want_state_line;   /* F12: main prints sv_app_state_line() */
    bool press_on_canvas;   /* a left button press not yet released */
    float press_x, press_y; /* where it went down (framebuffer pixels) */
    uint64_t seed;          /* next seed for R and the random preset */
    unsigned gen;           /* bumped on every new trace */
    bool from_file;         /* the trace came from --trace */
    const char *const *deck; /* the --trace files K walks (config's, borrowed); */
    int deck_n, deck_at;    /* how many (<= 1: K walks kernels), the one shown */
    struct sv_app_job *bg;   /* owned; NULL when no background capture runs */
    /* The lab's capture in a worker (app_capture.c): with lab_background (the
     * window) a mistake's capture runs there; labjob is the newest request
     * (NULL: none pending), labjob_old the superseded ones still running. */
    bool lab_background;
    struct sv_app_job *labjob;
    struct sv_app_job *labjob_old;

    /* Your own kernel (--kernel-file, app_kfile.c). kf watches the file and
     * runs it on the shown input (s->trace's) in a worker thread; ktrace is
     * the shown kernel trace (owned, analyzed; with it the timeline is its
     * steps and s->step names one). An error (does not compile, crash,
     * deadlock, time) keeps the last good ktrace: kerror and kerror_line say
     * what and where, kstale that the picture is the previous version's,
     * ksource (owned) the file's text that failed. The chapter kernel's run
     * on the same input beside it (D) is the shown trace's (sv_app_kcompare). */
    struct sv_app_kfile *kf;
    char kfile[1024];       /* the file as given; "" none */
    bool kbuiltin;          /* kfile is a shipped kernel's ("kernels/blelloch.cu",
                             * --kernel blelloch): run from the runtime's build */
    sv_ktrace *ktrace;
    bool kcompare_shown;
    char kerror[1024];
    int kerror_line;
    bool kstale;
    char *ksource;
    unsigned kfile_taken;   /* runs taken (the state line's kruns=) */
    double kfile_ms;        /* the last save (or input) to its result taken, ms */
    sv_schedule kschedule;  /* the schedule of the runs (S cycles) */
    uint32_t kruns;         /* --runs (0: 1) */
    bool kruns_given;       /* --runs was given: a file with a host function runs kruns
                               times too (else once: a seeded schedule's default runs
                               are a single block's, as scanviz-trace's) */
    int koutput_round;      /* the open exercise's output round (round-one: out[] is round
                               1's buffer), 0 without an exercise or for one whose out[] is
                               the scan: what the kernel file's runs are judged against, so
                               that the picture and the panel agree. app_exercise.c sets it
                               when it opens one (app.c clears it), app_kfile.c reads it */
    char kentry[128];       /* --entry ("" none) */
    uint32_t ktime_limit_ms; /* --time-limit (0: the runtime's) */
    bool kbackground;       /* runs in the worker (the window); false: at once (exports) */
    bool kread_only;        /* ktrace came from a --trace file (version 3): nothing runs it
                               again; any other trace taken drops it (app_lab.c) */
    /* Tab / Shift+Tab at a launch (app_zoom.c): the tile zoomed in on, by the
     * cells of out[] it wrote and its block; ktile_lo -1: none yet */
    int64_t ktile_lo, ktile_hi;
    uint32_t ktile_block, ktile_launch;
    char kfile_start[1024]; /* the --kernel-file the window started with ("" none): the
                               kernel file before a script's first kernel-file step */
    bool kfile_start_builtin; /* kfile_start is a shipped kernel's (--kernel blelloch) */
    struct sv_bench_live *bench_live; /* owned; the live run while bench_running */

    /* An exercise (--exercise NAME, app_exercise.c): ex holds the spec and
     * the worker that checks the file on every save; exv is what the panel
     * shows, its strings owned by ex (exv.name NULL: no exercise). The
     * reveal rule: the solution shows after a pass, or once asked twice
     * (ex_reveal_asks counts the asks). */
    struct sv_app_exercise *ex;
    sv_exercise_view exv;
    unsigned ex_reveal_asks;
    unsigned ex_checks;      /* check results taken (the state line's exchecks=) */
    int ex_scroll_max;       /* the most lines the panel's body scrolls (exv.scroll's
                                bound), from the last frame; -1: not drawn yet */
    int ex_scroll_page;      /* the body's lines on screen, from the last frame */
    char ex_into[1024];      /* --into (""): the folder of the student's files */
    /* The compare view (--compare blelloch, B; app_compare.c; view.h says
     * what is shown). cmp_ktrace (owned, analyzed) is Blelloch on the shown
     * trace's input, operator, type and scan, run on the CPU runtime when
     * the view opens and again for every new trace (cmp_gen is the trace
     * generation, s->gen, it was run for). */
    bool compare;
    sv_ktrace *cmp_ktrace;
    char cmp_error[256];
    unsigned cmp_gen;
    int cmp_step[2];
    int cmp_focus;
    bool cmp_measure;
} sv_app_state;

/* Number of steps the timeline shows for the current trace: 0 without one
 * (sv_view_steps of s->trace). */
int sv_state_steps(const sv_app_state *s);

#endif
