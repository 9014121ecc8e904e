/* Private to the app's own files (app.c, app_*.c): how they call each
 * other. Together they are the one writer of sv_app_state (state.h); no
 * other file includes this header. Each file is one idea, and each calls
 * only the files listed below it (no circle):
 *
 *   app.c            init, update, cleanup, the setters main.c needs, the
 *                    Measure view's live benchmark
 *   app_events.c     SDL events: window, mouse (click, hover, drag, wheel)
 *   app_keys.c       the key bindings of keys.h and their actions
 *   app_stateline.c  the state line (F12)
 *   app_capture.c    the captures on a thread: the GPU probe, the lab's
 *   app_exercise.c   an exercise (--exercise NAME): its file, the panel's
 *                    text, the check on every save in a worker thread,
 *                    hints, the solution, the next exercise, progress
 *   app_kfile.c      a kernel file (--kernel-file): its watch and runs in a
 *                    worker thread, the editor key
 *   app_kfile_take.c a kernel file's result taken into the state (errors
 *                    keep the last good trace), the chapter's for comparison
 *   app_edit.c       the input box (E)
 *   app_step.c       stepping: rounds, phases, play, speed, the presenter script
 *   app_adopt.c      a new trace on screen: adopting it, the lab's outcome
 *                    it carries taken for the view
 *   app_lab.c        capturing again (the lab's kernels, operator, type,
 *                    scan, random input), the deck
 *   app_zoom.c       zoom and pan
 *   app_quiz.c       predict mode (P, --quiz)
 *   app_compare.c    the compare view (--compare blelloch, B): Blelloch's
 *                    trace on the shown input, each pane's step, Tab, M
 *   app_view.c       what the state shows: the view, its layout, the
 *                    question at a step, values as text, the status and
 *                    source lines (calls none of the others)
 *
 * Every function here runs on the main thread and may change s. */
#ifndef SV_APP_INTERNAL_H
#define SV_APP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <SDL.h>

#include "../core/bounds.h"
#include "app.h"
#include "render.h"

#define SV_STATUS_S 2.5f   /* a transient message stays this long */
#define SV_STATUS_LONG_S 8.0f /* ... and a long one up to this long */
#define SV_DRAG_PX 4.0f    /* a press that moves further is a drag, not a click */
#define SV_QUIT_ARM_S 3.0f /* a second Esc within this quits */

/* ---- app_view.c ---- */
/* The layout of what s shows in its window (hit tests, zoom, the state line). */
void sv_app_layout_of(const sv_app_state *s, sv_layout *l);
/* The timeline's steps, at least 1. */
int sv_app_steps_of(const sv_app_state *s);
/* Copies src into dst[len], cut short at a UTF-8 boundary when needed. */
void sv_app_copy_text(char *dst, size_t len, const char *src);
/* A transient message (SV_STATUS_S seconds, a long one longer), its paths
 * relative where they can be and escaped (sv_app_paths_shown). The whole
 * message is also in the state line (status=). */
void sv_app_set_status(sv_app_state *s, const char *msg);
/* text (a path, or a message naming paths) as the window shows it into
 * out[len]: every path under the current folder relative to it
 * ("build/assets/exercises/guard/hint-1.txt"), the others as given,
 * escaped. Returns out. */
char *sv_app_paths_shown(const char *text, char *out, size_t len);
/* The same, not escaped: a path for the runtime's messages (the compiler's
 * "guard.cu:3:42: error"), which are escaped where they are shown. */
void sv_app_paths_relative(const char *text, char *out, size_t len);
/* With --shake asked: says in the status that it is ignored, the runs
 * being emulated (SV_CAPTURE_SHAKE_IGNORED), beside a status already
 * showing; nothing without --shake. */
void sv_app_shake_notice(sv_app_state *s);
/* The source line from capture's source and the file it was read from (NULL). */
void sv_app_set_source(sv_app_state *s, const sv_capture_source *src, const char *file);
/* The values as text, sep between them, cut at a value that does not fit;
 * with output_of (v is its output), `?` for the cells it never wrote. */
void sv_app_format_values(sv_type type, const sv_value *v, size_t n, char sep,
                          const sv_trace *output_of, char *buf, size_t len);
/* The question predict mode asks at step k. */
sv_quiz_kind sv_app_quiz_kind_at(const sv_app_state *s, int k);
const char *sv_app_quiz_kind_name(sv_quiz_kind k);

/* ---- app_compare.c ---- */
/* The compare view on (Blelloch run on the shown trace's input; false with
 * err when it could not run, the view on all the same) or off. */
bool sv_app_compare_set(sv_app_state *s, bool on, char *err, size_t errlen);
/* --compare blelloch at start: on, Hillis-Steele from --round's step. */
bool sv_app_compare_start(sv_app_state *s, char *err, size_t errlen);
/* B: on or off, the status line says which (or why not). */
void sv_app_compare_toggle(sv_app_state *s);
/* Runs Blelloch again on the shown trace (a new trace was adopted). */
bool sv_app_compare_rerun(sv_app_state *s, char *err, size_t errlen);
/* Right/Left (delta +1/-1), Home/End (to_end): the panes that step. */
void sv_app_compare_go(sv_app_state *s, int delta, bool to_end);
/* Tab: both panes step, Hillis-Steele alone, Blelloch alone. */
void sv_app_compare_next_focus(sv_app_state *s);
/* M from the compare view: the Measure view with the measured cost. */
void sv_app_compare_measure(sv_app_state *s);
/* A click at (x, y) in the compare view: a timeline's dot steps its pane. */
void sv_app_compare_click(sv_app_state *s, float x, float y);

/* ---- app.c ---- */
/* B in the Measure view: starts or stops a live scanviz-bench run. */
void sv_app_bench_toggle(sv_app_state *s);

/* ---- app_events.c, app_keys.c ---- */
/* One key press: the input box's keys while it is open, else keys.h's table. */
void sv_app_key(sv_app_state *s, const SDL_KeyboardEvent *e);

/* ---- app_step.c ---- */
/* Goes to step k (clamped), animating a move to an adjacent step. */
void sv_app_go_step(sv_app_state *s, int k);
/* Shows step `at` of the presenter script (clamped). */
void sv_app_script_go(sv_app_state *s, int at);
/* Down (+1) / Up (-1): the next or previous phase. */
void sv_app_step_phase(sv_app_state *s, int dir);
void sv_app_toggle_play(sv_app_state *s);
/* The next (+1) or previous (-1) speed of the fixed list. */
void sv_app_change_speed(sv_app_state *s, int dir);

/* ---- app_zoom.c ---- */
/* Keeps zoom in range and pan inside the cells. */
void sv_app_clamp_view(sv_app_state *s);
/* Zooms by factor keeping the cell under x (framebuffer px) where it is. */
void sv_app_zoom_at(sv_app_state *s, float factor, float x);
void sv_app_zoom_centre(sv_app_state *s, float factor);
void sv_app_pan_by(sv_app_state *s, float cells);
/* Tab / Shift+Tab at a launch's step (dir 1 / -1): zooms in on the next /
 * previous tile of the launch, left to right (wrapping), and says which;
 * false: no kernel trace (the key is not this one's). */
bool sv_app_tile_step(sv_app_state *s, int dir);
/* How many cells the cells' area shows now (at least 1). */
float sv_app_visible_cells(const sv_app_state *s);

/* ---- app_quiz.c ---- */
/* The row a question at step k asks about. */
int sv_app_quiz_row(const sv_app_state *s, int k);
/* Forgets the current question (the running score stays). */
void sv_app_quiz_reset_question(sv_app_state *s);
/* P / --quiz: predict mode on or off (the score starts again). */
void sv_app_quiz_set(sv_app_state *s, bool on);
/* Q: the next kind of question (values, cases, right or wrong). */
void sv_app_quiz_next_kind(sv_app_state *s);
void sv_app_quiz_select(sv_app_state *s, int i);
/* The step on screen becomes a question (Right after a reveal, once stepped). */
void sv_app_quiz_ask(sv_app_state *s);
void sv_app_quiz_reveal(sv_app_state *s);
void sv_app_quiz_cycle_mark(sv_app_state *s, int i);
/* A key of an open question; true when it was used. */
bool sv_app_quiz_key(sv_app_state *s, const SDL_Keysym *k);

/* ---- app_edit.c ---- */
void sv_app_edit_open(sv_app_state *s);
/* Typed or pasted text at the cursor (refused whole when it does not fit). */
void sv_app_edit_insert(sv_app_state *s, const char *text);
/* After an edit: checks the text again (edit_error names a bad token). */
void sv_app_edit_revalidate(sv_app_state *s);
/* A fingerprint of the box's text: did an event change it? */
uint64_t sv_app_edit_hash(const sv_app_state *s);
/* Ctrl+1 .. Ctrl+4: preset `which` into the box, applied. */
void sv_app_apply_preset(sv_app_state *s, int which);
/* A key while the box is open. */
void sv_app_edit_key(sv_app_state *s, const SDL_Keysym *k);

/* ---- app_adopt.c ---- */
/* Makes t the shown trace (taking it), keeping the step and the view valid. */
void sv_app_adopt(sv_app_state *s, sv_trace *t);
/* Forgets / takes the shown trace's lab outcome (trace->lab). */
void sv_app_lab_clear(sv_app_state *s);
void sv_app_lab_take(sv_app_state *s);

/* ---- app_lab.c ---- */
/* Captures in[n] with s's kernel and backend choice and shows it; on
 * failure the shown trace stays and err says why. */
sv_capture_status sv_app_recapture(sv_app_state *s, sv_op op, sv_type type, sv_scan scan,
                                   const sv_value *in, size_t n, char *err, size_t errlen);
/* Takes the background probe's result once it is done (any time: it
 * checks): the GPU's trace shown, or why not said. */
void sv_app_bg_finish(sv_app_state *s);
/* sv_app_recapture of the shown trace's input with op and scan. */
sv_capture_status sv_app_recapture_shown(sv_app_state *s, sv_op op, sv_scan scan, char *err,
                                         size_t errlen);
/* Recaptures the shown input with op and scan; the status says what or why not. */
void sv_app_with_current_input(sv_app_state *s, sv_op op, sv_scan scan, const char *what);
void sv_app_next_op(sv_app_state *s);
void sv_app_next_type(sv_app_state *s);
/* Shows kernel k on the same input; false (the kernel stays) on failure. */
bool sv_app_set_kernel(sv_app_state *s, sv_kernel k);
void sv_app_next_kernel(sv_app_state *s);
/* Shows kernel trace k read from the trace file path (taking it) in the
 * kernel pane, read only, with the chapter's trace of its input captured
 * beside it; false with err (k freed, the shown traces kept) when that
 * capture fails. */
bool sv_app_adopt_ktrace(sv_app_state *s, sv_ktrace *k, const char *path, char *err,
                         size_t errlen);
/* The next (+1) or previous (-1) --trace file of the deck. */
void sv_app_deck_step(sv_app_state *s, int d);
void sv_app_random_input(sv_app_state *s);

/* ---- app_capture.c ---- */
/* The window's captures on a thread. The probe: starts the probe and
 * capture of in[n] in a thread, as generation gen. */
void sv_app_bg_start(sv_app_state *s, const sv_value *in, size_t n, unsigned gen);
/* The probe's result, taken once it is done (false while it runs and once
 * taken); out->trace is then the caller's. */
typedef struct sv_app_probe {
    bool cuda_ok;          /* the probe found a usable GPU */
    unsigned gen;          /* s->gen the capture is for */
    sv_capture_status st;
    sv_trace *trace;       /* the capture (owned by the caller), or NULL */
    sv_capture_source src; /* where it came from, and why */
    char err[256];
} sv_app_probe;
bool sv_app_bg_take(sv_app_state *s, sv_app_probe *out);
/* Waits for the thread and frees everything (NULL is fine). */
void sv_app_bg_destroy(struct sv_app_job *bg);

/* The lab's requests, in the same worker. start: runs req on a new
 * thread (superseding any pending one); false when no thread could start
 * (capture on the calling thread then). pending: the pending request's
 * input and type (a later request builds on it). finish (each frame): takes
 * a finished result, or says how far it got. wait: waits for the pending
 * one and takes it. supersede: the pending one gives way (its result is
 * dropped). words: the state line's labjob=. destroy: stops and joins all. */
bool sv_app_labjob_start(sv_app_state *s, const sv_capture_request *req);
bool sv_app_labjob_pending(const sv_app_state *s, const sv_value **in, size_t *n, sv_type *type);
void sv_app_labjob_finish(sv_app_state *s);
void sv_app_labjob_wait(sv_app_state *s);
/* Waits up to ms for the pending capture: a short one (one run at small n,
 * most of them) then lands at once, as it did before the worker; true and
 * *st (the capture's status, err its words on failure) when it landed. */
#define SV_LABJOB_SETTLE_MS 400u
bool sv_app_labjob_settle(sv_app_state *s, unsigned ms, sv_capture_status *st, char *err,
                          size_t errlen);
void sv_app_labjob_supersede(sv_app_state *s);
void sv_app_labjob_words(const sv_app_state *s, char *buf, size_t len);
void sv_app_labjob_destroy(sv_app_state *s);

/* ---- app_exercise.c ---- */
/* Opens exercise name: its starting file copied into the --into folder
 * (never over a file there), shown as a kernel file on the exercise's first
 * input, checked now and (background) on every save by a worker. false
 * with err: the exercise shown before, if any, stays. */
bool sv_app_exercise_open(sv_app_state *s, const char *name, bool background, char *err,
                          size_t errlen);
/* At start: --into, and --exercise NAME opened (true when none is asked). */
bool sv_app_exercise_init(sv_app_state *s, const sv_app_config *c, char *err, size_t errlen);
/* Takes the worker's check result once there is one (any time: it checks). */
void sv_app_exercise_finish(sv_app_state *s);
/* N: the next hint; A: the solution (after a pass, or asked twice); G: the
 * next exercise once this one passed. */
void sv_app_exercise_hint(sv_app_state *s);
void sv_app_exercise_reveal(sv_app_state *s);
void sv_app_exercise_next(sv_app_state *s);
/* The panel's body scrolled by lines (down > 0), or by a page (dir +1 / -1). */
void sv_app_exercise_scroll(sv_app_state *s, int lines);
void sv_app_exercise_scroll_page(sv_app_state *s, int dir);
/* A presenter script's `exercise NAME` step. */
void sv_app_exercise_switch(sv_app_state *s, const char *name);
void sv_app_exercise_destroy(struct sv_app_exercise *x); /* NULL is fine */

/* ---- app_kfile.c, app_kfile_take.c ---- */
/* Starts watching and running the kernel file at path on the shown input;
 * background false: runs it once now, without a watch (exports). */
bool sv_app_kfile_start(sv_app_state *s, const char *path, const char *entry,
                        uint32_t time_limit_ms, bool background, char *err, size_t errlen);
/* A script's kernel-file step: path's kernel instead ("" none). */
void sv_app_kfile_switch(sv_app_state *s, const char *path, bool builtin);
/* A shipped kernel beyond the chapter (--kernel blelloch): its file,
 * "kernels/blelloch.cu", run by the runtime's build on the shown input like
 * a kernel file, with nothing to watch or edit. */
bool sv_app_kfile_start_builtin(sv_app_state *s, const char *file, bool background, char *err,
                                size_t errlen);
/* The shown input (or schedule) changed: run the file again on it. */
void sv_app_kfile_rerun(sv_app_state *s);
/* Takes the worker's result once there is one (any time: it checks). */
void sv_app_kfile_finish(sv_app_state *s);
void sv_app_kfile_destroy(struct sv_app_kfile *k); /* NULL is fine */
/* Drops the kernel file: its watch and worker, its traces, source and error. */
void sv_app_kfile_close(sv_app_state *s);
/* Whether a run of the kernel file is going on, and how far (out). */
bool sv_app_kfile_progress(const sv_app_state *s, sv_app_krun *out);
/* "inotify" / "polling" ("" without a kernel file). */
const char *sv_app_kfile_method(const sv_app_state *s);
/* Ctrl+E: opens the file in $VISUAL, else $EDITOR in a terminal, else
 * xdg-open, without waiting for it. */
void sv_app_kfile_edit(sv_app_state *s);
/* S: the next schedule of the runs. */
void sv_app_kfile_next_schedule(sv_app_state *s);
/* A run's result (t and text taken; t NULL: err says why). */
void sv_app_kfile_take(sv_app_state *s, sv_ktrace *t, char *text, const char *err);
/* W / Shift+W (app_kfile.c): the next / previous run in which the hovered
 * (or pinned) cell was wrong, run again (sv_app_kfile_replay). The run is
 * picked by sv_app_kfile_wrong_target (app_kfile_take.c), which says why
 * not (-1) in the status otherwise. */
void sv_app_kfile_wrong_run(sv_app_state *s, bool back);
int64_t sv_app_kfile_wrong_target(sv_app_state *s, bool back);
void sv_app_kfile_replay(sv_app_state *s, uint32_t run);
/* A replayed run's trace t shown in place of the last runs' (their counts
 * moved over, shown_run = run); false when it cannot be (t freed, the
 * status says so: the caller runs all the runs again). */
bool sv_app_kfile_take_replay(sv_app_state *s, sv_ktrace *t, uint32_t run);
/* One run now on the calling thread (no worker: exports, tests). */
void sv_app_kfile_run_now(sv_app_state *s);
/* (app_view.c) The chapter kernel's run on the shown input, beside a kernel file's
 * (the shown trace's run), or NULL. */
const sv_ktrace *sv_app_kcompare(const sv_app_state *s);
void sv_app_kfile_toggle_compare(sv_app_state *s);

#endif
