/* An exercise in the window (issue 19, --exercise NAME): the exercise's
 * starting file copied into the student's folder (--into; never over their
 * work), opened as a watched kernel file (app_kfile.c) on the exercise's
 * first input, the statement in a panel; a worker thread runs the
 * exercise's check (capture/exercise_run.h) at opening and on every save,
 * and the main thread takes each result (sv_app_exercise_finish): passed,
 * or the first failure in words, its input then shown so that the kernel
 * pane marks the failing cell. N shows the next hint, A the solution (after
 * a pass or once asked twice), G opens the next exercise once this one
 * passed. Every check of a save and every hint is kept in the progress
 * file (core/exercise_progress.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/exercise_progress.h"
#include "../core/fileio.h"
#include "../capture/exercise_run.h"
#include "app_internal.h"
#include "wake.h"
#include "watch.h"
#include "worker.h"

#define SV_EX_WAIT_MS 100 /* the worker looks for quit this often */

struct sv_app_exercise {
    char root[4096];
    sv_exercise_spec spec;
    char names[SV_EXERCISE_MAX_LIST][SV_EXERCISE_MAX_NAME];
    size_t count;
    int index;                   /* 0-based, in names */
    char *statement, *hint, *solution;
    char hint_file[1200], solution_file[1200]; /* their files as shown (sv_app_paths_shown) */
    char file[sizeof ((sv_app_state *)0)->ex_into + SV_EXERCISE_MAX_NAME + 8];
    char result[2048];
    char next[SV_EXERCISE_MAX_NAME];
    char note[1400];
    bool background;
    /* the worker (worker.h); the fields below are shared with it, under w.lock */
    sv_worker w;
    unsigned want, ran;          /* saves seen / checks done */
    bool running, ready, counted;
    bool res_ok;
    sv_exercise_result res;
    char res_err[512];
};

/* ---- The check ------------------------------------------------------------ */

/* One check of the file as it is now. false: the check itself failed (err). */
static bool check_now(const struct sv_app_exercise *x, sv_exercise_result *res, char *err,
                      size_t errlen)
{
    char *text = sv_read_bounded(x->file, SV_KTRACE_MAX_SOURCE, "a kernel file", NULL, err,
                                 errlen);
    if (!text)
        return false;
    char shown[sizeof x->file]; /* as its messages name it: relative where it can be */
    sv_app_paths_relative(x->file, shown, sizeof shown);
    bool ok = sv_exercise_check(&x->spec, shown, text, 0, res, err, errlen);
    free(text);
    return ok;
}

static int worker_main(void *arg)
{
    struct sv_app_exercise *x = arg;
    while (!SDL_AtomicGet(&x->w.quit)) {
        bool changed = sv_watch_wait(x->w.watch, SV_EX_WAIT_MS);
        SDL_LockMutex(x->w.lock);
        if (changed)
            x->want++;
        unsigned want = x->want;
        bool run = want != x->ran;
        x->running = run;
        SDL_UnlockMutex(x->w.lock);
        if (!run)
            continue;
        sv_exercise_result res;
        char err[512] = "";
        bool ok = check_now(x, &res, err, sizeof err);
        /* A save while it ran: this result is of a file that is gone, and
         * says so at once (running: the main thread lets it move nothing). */
        bool saved_meanwhile = sv_watch_wait(x->w.watch, 0);
        SDL_LockMutex(x->w.lock);
        if (saved_meanwhile)
            x->want++;
        x->counted = want > 0; /* 0: the check at opening, not an attempt */
        x->ran = want;
        x->res = res;
        x->res_ok = ok;
        sv_app_copy_text(x->res_err, sizeof x->res_err, err);
        x->ready = true;
        x->running = x->want != x->ran;
        SDL_UnlockMutex(x->w.lock);
        sv_wake_post(); /* the main loop takes the result */
    }
    return 0;
}

/* ---- The panel's strings ---------------------------------------------------- */

static void refresh_view(sv_app_state *s)
{
    struct sv_app_exercise *x = s->ex;
    sv_exercise_view *v = &s->exv;
    if (!x) {
        memset(v, 0, sizeof *v);
        return;
    }
    v->name = x->spec.name;
    v->title = x->spec.title;
    v->statement = x->statement ? x->statement : "";
    v->file = x->file;
    v->index = x->index + 1;
    v->count = (int)x->count;
    v->result = x->result;
    v->hint = x->hint ? x->hint : "";
    v->hint_file = x->hint ? x->hint_file : "";
    v->solution = x->solution ? x->solution : "";
    v->solution_file = x->solution ? x->solution_file : "";
    v->next = x->next;
    v->note = x->note;
}

/* A note about the progress file (a failure to save it, a bad file set aside). */
static void progress(sv_app_state *s, sv_progress_event ev, bool passed, unsigned hint)
{
    char note[1400], err[1024];
    if (!sv_progress_record(s->ex->spec.name, ev, passed, hint, (int64_t)time(NULL), note,
                            sizeof note, err, sizeof err))
        snprintf(s->ex->note, sizeof s->ex->note, "progress not saved: %s", err);
    else if (note[0])
        sv_app_copy_text(s->ex->note, sizeof s->ex->note, note);
    char shown[sizeof s->ex->note];
    sv_app_paths_shown(s->ex->note, shown, sizeof shown);
    memcpy(s->ex->note, shown, sizeof shown);
}

static bool same_schedule(sv_schedule a, sv_schedule b)
{
    bool seeded = a.kind == SV_SCHEDULE_RANDOM || a.kind == SV_SCHEDULE_WARPS;
    return a.kind == b.kind && (!seeded || a.seed == b.seed);
}

/* The failing input on screen, under the failing schedule, so that the
 * kernel pane shows the failure on its cells. The kernel file runs again
 * only where that changes what it ran: on the same input, schedule and
 * runs, the picture already is this run (the CPU runtime's schedules are
 * deterministic), and running it again (an endless loop: up to its time
 * limit) would keep the worker from the next save. */
static void show_failing_input(sv_app_state *s, const sv_exercise_result *r)
{
    const sv_exercise_spec *sp = &s->ex->spec;
    if (r->input >= sp->ninputs || r->schedule >= sp->nschedules)
        return;
    const sv_exercise_input *in = &sp->inputs[r->input];
    sv_schedule sched = sp->schedules[r->schedule];
    bool seeded = sched.kind == SV_SCHEDULE_RANDOM || sched.kind == SV_SCHEDULE_WARPS;
    uint32_t runs = seeded ? sp->runs : 1;
    bool same_run = same_schedule(sched, s->kschedule) && runs == s->kruns;
    s->kschedule = sched;
    s->kruns = runs;
    const sv_trace *t = s->trace;
    if (t && t->n == in->n && memcmp(t->input, in->values, in->n * sizeof *in->values) == 0) {
        if (!same_run)
            sv_app_kfile_rerun(s);
        return;
    }
    char err[512];
    if (sv_app_recapture(s, sp->op, sp->type, sp->scan, in->values, in->n, err, sizeof err) !=
        SV_CAPTURE_OK)
        sv_app_set_status(s, err);
}

/* A check's result into the panel. newer: a later save is being checked
 * already, so a failure here no longer moves the picture (its input and
 * schedule are of a file that is gone). */
static void take_result(sv_app_state *s, const sv_exercise_result *r, bool ok, const char *err,
                        bool counted, bool newer)
{
    struct sv_app_exercise *x = s->ex;
    s->ex_checks++;
    s->exv.scroll = 0; /* the new result is the body's first line */
    if (!ok) {
        char why[sizeof x->result];
        snprintf(why, sizeof why, "the check could not run: %s", err);
        sv_app_paths_shown(why, x->result, sizeof x->result);
        s->exv.check = SV_EXCHECK_FAILED;
        return;
    }
    bool passed = r->verdict == SV_EXERCISE_PASSED;
    sv_app_paths_shown(r->words, x->result, sizeof x->result); /* "guard.cu:3: ..." */
    s->exv.check = passed ? SV_EXCHECK_PASSED : SV_EXCHECK_FAILED;
    if (counted)
        progress(s, SV_PROGRESS_CHECKED, passed, 0);
    if (passed) {
        if (x->index + 1 < (int)x->count)
            snprintf(x->next, sizeof x->next, "%s", x->names[x->index + 1]);
        sv_app_set_status(s, x->next[0] ? "passed: G opens the next exercise"
                                        : "passed: that was the last exercise");
    } else {
        x->next[0] = '\0';
        if (!newer)
            show_failing_input(s, r);
    }
}

void sv_app_exercise_finish(sv_app_state *s)
{
    struct sv_app_exercise *x = s->ex;
    if (!x || !x->w.lock)
        return;
    SDL_LockMutex(x->w.lock);
    bool ready = x->ready, running = x->running, counted = x->counted, ok = x->res_ok;
    sv_exercise_result r = x->res;
    char err[sizeof x->res_err];
    memcpy(err, x->res_err, sizeof err);
    x->ready = false;
    SDL_UnlockMutex(x->w.lock);
    s->exv.stale = running;
    if (ready) {
        take_result(s, &r, ok, err, counted, running);
        s->exv.stale = running;
    } else if (running && s->exv.check == SV_EXCHECK_NONE) {
        s->exv.check = SV_EXCHECK_RUNNING;
    }
    refresh_view(s);
}

/* ---- Opening ---------------------------------------------------------------- */

void sv_app_exercise_destroy(struct sv_app_exercise *x)
{
    if (!x)
        return;
    sv_worker_stop(&x->w);
    sv_exercise_spec_free(&x->spec);
    free(x->statement);
    free(x->hint);
    free(x->solution);
    free(x);
}

/* The student's folder: --into, else ~/scanviz/exercises. */
static bool into_dir(const sv_app_state *s, char *dir, size_t len, char *err, size_t errlen)
{
    if (s->ex_into[0]) {
        sv_app_copy_text(dir, len, s->ex_into);
    } else {
        const char *home = getenv("HOME");
        if (!home || home[0] != '/') {
            snprintf(err, errlen, "no folder for your exercise files: $HOME is not set (give "
                     "--into DIR)");
            return false;
        }
        if ((size_t)snprintf(dir, len, "%s/scanviz/exercises", home) >= len) {
            snprintf(err, errlen, "$HOME is too long (give --into DIR)");
            return false;
        }
    }
    return sv_mkdir_parents(dir, 0777, err, errlen);
}

/* DIR/NAME.cu: the starting file copied all or nothing, or the student's
 * file as it is. *copied says which. */
static bool student_file(sv_app_state *s, struct sv_app_exercise *x, bool *copied, char *err,
                         size_t errlen)
{
    char dir[sizeof s->ex_into], why[1200];
    if (!into_dir(s, dir, sizeof dir, err, errlen))
        return false;
    if (strlen(dir) + strlen(x->spec.name) + 5 > sizeof s->kfile) {
        snprintf(err, errlen, "--into: the folder's path is too long");
        return false;
    }
    snprintf(x->file, sizeof x->file, "%s/%.*s.cu", dir, SV_EXERCISE_MAX_NAME, x->spec.name);
    char *start = sv_exercise_read(x->root, x->spec.name, "start.cu", SV_KTRACE_MAX_SOURCE, err,
                                   errlen);
    if (!start)
        return false;
    bool existed = false;
    *copied = sv_write_new(x->file, start, strlen(start), &existed, why, sizeof why);
    free(start);
    if (*copied)
        return true;
    if (!existed) {
        snprintf(err, errlen, "%s", why);
        return false;
    }
    /* Their work: opened as it is, unless it is not theirs to open. */
    struct stat st;
    if (lstat(x->file, &st) != 0 || (S_ISLNK(st.st_mode) && st.st_uid != geteuid()) ||
        (!S_ISLNK(st.st_mode) && !S_ISREG(st.st_mode))) {
        snprintf(err, errlen, "%s: refused: %s", x->file,
                 S_ISLNK(st.st_mode) ? "a symbolic link of another user's"
                                     : "not a regular file");
        return false;
    }
    return true;
}

/* Loads the spec, the statement and the sequence of name into x. */
static bool load(struct sv_app_exercise *x, const char *name, char *err, size_t errlen)
{
    char why[1024];
    if (!sv_exercise_find_root(x->root, sizeof x->root, err, errlen))
        return false;
    if (!sv_exercise_load(x->root, name, &x->spec, err, errlen))
        return false;
    x->statement = sv_exercise_read(x->root, name, "statement.txt", SV_EXERCISE_MAX_FILE, err,
                                    errlen);
    if (!x->statement)
        return false;
    x->count = sv_exercise_list(x->root, x->names, SV_EXERCISE_MAX_LIST, why, sizeof why);
    x->index = 0;
    for (size_t i = 0; i < x->count; i++)
        if (strcmp(x->names[i], name) == 0)
            x->index = (int)i;
    return true;
}

/* Starts the worker (background) on x->file. */
static bool start_worker(struct sv_app_exercise *x, char *err, size_t errlen)
{
    char why[512];
    if (!(x->w.lock = SDL_CreateMutex())) {
        snprintf(err, errlen, "--exercise: %s", SDL_GetError());
        return false;
    }
    x->w.watch = sv_watch_open(x->file, getenv("SCANVIZ_WATCH_POLL") != NULL, why, sizeof why);
    if (!x->w.watch) {
        snprintf(err, errlen, "--exercise %s: %s", x->file, why);
        return false;
    }
    x->ran = (unsigned)-1; /* the check at opening (want 0) */
    x->running = true;
    return sv_worker_start(&x->w, worker_main, "sv-exercise", x, "--exercise", err, errlen);
}

/* The exercise's first input, operator and scan on screen. */
static bool show_exercise_input(sv_app_state *s, const sv_exercise_spec *sp, char *err,
                                size_t errlen)
{
    const sv_exercise_input *in = &sp->inputs[0];
    s->kschedule = (sv_schedule){SV_SCHEDULE_LOCKSTEP, 1};
    s->kruns = 1;
    return sv_app_recapture(s, sp->op, sp->type, sp->scan, in->values, in->n, err, errlen) ==
           SV_CAPTURE_OK;
}

bool sv_app_exercise_open(sv_app_state *s, const char *name, bool background, char *err,
                          size_t errlen)
{
    struct sv_app_exercise *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(err, errlen, "--exercise: out of memory");
        return false;
    }
    x->background = background;
    bool copied = false;
    if (!load(x, name, err, errlen) || !student_file(s, x, &copied, err, errlen) ||
        (background && !start_worker(x, err, errlen))) {
        sv_app_exercise_destroy(x);
        return false;
    }
    sv_app_exercise_destroy(s->ex);
    s->ex = x;
    s->koutput_round = x->spec.output_round; /* before its file first runs, below */
    s->ex_reveal_asks = 0;
    memset(&s->exv, 0, sizeof s->exv);
    s->ex_scroll_max = -1; /* not drawn yet: the renderer clamps */
    s->exv.check = background ? SV_EXCHECK_RUNNING : SV_EXCHECK_NONE;
    s->exv.hint_count = sv_exercise_hint_count(x->root, name);
    sv_progress p; /* a bad progress file is said in the panel (and set aside on a save) */
    sv_progress_current(&p, x->note, sizeof x->note);
    char shown[sizeof x->note];
    memcpy(x->note, sv_app_paths_shown(x->note, shown, sizeof shown), sizeof shown);
    if (!show_exercise_input(s, &x->spec, err, errlen))
        return false;
    s->kbackground = background;
    if (s->kf)
        sv_app_kfile_switch(s, x->file, false);
    else if (!sv_app_kfile_start(s, x->file, NULL, 0, background, err, errlen))
        return false;
    sv_app_copy_text(s->kfile_start, sizeof s->kfile_start, x->file);
    char msg[sizeof x->file + 64]; /* the whole path (the status line wraps it) */
    snprintf(msg, sizeof msg, "%s %s", copied ? "exercise copied to" : "your file, as you left it:",
             x->file);
    sv_app_set_status(s, msg);
    if (!background) {
        sv_exercise_result r;
        char why[512] = "";
        bool ok = check_now(x, &r, why, sizeof why);
        take_result(s, &r, ok, why, false, false);
    }
    refresh_view(s);
    return true;
}

/* ---- Keys ----------------------------------------------------------------------- */

/* The exercise's file `file` as the panel names it (its whole text is
 * there): relative to the current folder where it can be, escaped. */
static void shown_path(const struct sv_app_exercise *x, const char *file, char *out, size_t len)
{
    char path[sizeof x->root + SV_EXERCISE_MAX_NAME + 40];
    snprintf(path, sizeof path, "%s/%s/%s", x->root, x->spec.name, file);
    sv_app_paths_shown(path, out, len);
}

/* Ctrl+Down / Ctrl+Up, Ctrl+Page Down / Up, the wheel over the panel: the
 * panel's body by lines; up to what the last frame said the text needs
 * (sv_app_exercise_scroll_room), never above its top. */
void sv_app_exercise_scroll(sv_app_state *s, int lines)
{
    if (!s->ex)
        return;
    long to = (long)s->exv.scroll + lines;
    if (s->ex_scroll_max >= 0 && to > s->ex_scroll_max)
        to = s->ex_scroll_max;
    s->exv.scroll = to < 0 ? 0 : to > 100000 ? 100000 : (int)to;
}

void sv_app_exercise_scroll_page(sv_app_state *s, int dir)
{
    sv_app_exercise_scroll(s, dir * (s->ex_scroll_page > 1 ? s->ex_scroll_page - 1 : 1));
}

void sv_app_exercise_scroll_room(sv_app_state *s, int max, int page)
{
    s->ex_scroll_max = max < 0 ? 0 : max;
    s->ex_scroll_page = page;
    if (s->exv.scroll > s->ex_scroll_max)
        s->exv.scroll = s->ex_scroll_max;
}

void sv_app_exercise_hint(sv_app_state *s)
{
    struct sv_app_exercise *x = s->ex;
    if (!x) /* the keys are bound only while an exercise is open */
        return;
    if (s->exv.hints_shown >= s->exv.hint_count) {
        sv_app_set_status(s, s->exv.hint_count ? "no more hints: A reveals the solution"
                                               : "this exercise has no hints");
        return;
    }
    char file[32], err[512];
    snprintf(file, sizeof file, "hint-%u.txt", s->exv.hints_shown + 1);
    char *h = sv_exercise_read(x->root, x->spec.name, file, SV_EXERCISE_MAX_FILE, err, sizeof err);
    if (!h) {
        sv_app_set_status(s, err);
        return;
    }
    free(x->hint);
    x->hint = h;
    shown_path(x, file, x->hint_file, sizeof x->hint_file);
    s->exv.hints_shown++;
    s->exv.scroll = 0; /* the hint is the body's first text after the result */
    progress(s, SV_PROGRESS_HINT, false, s->exv.hints_shown);
    refresh_view(s);
}

void sv_app_exercise_reveal(sv_app_state *s)
{
    struct sv_app_exercise *x = s->ex;
    if (!x) /* the keys are bound only while an exercise is open */
        return;
    if (x->solution)
        return;
    s->ex_reveal_asks++;
    bool passed = s->exv.check == SV_EXCHECK_PASSED;
    if (!passed && s->ex_reveal_asks < 2) {
        sv_app_set_status(s, "the solution shows after a pass, or if you ask again (A once "
                             "more): try a hint first (N)");
        return;
    }
    char err[512];
    x->solution = sv_exercise_read(x->root, x->spec.name, "solution.cu", SV_KTRACE_MAX_SOURCE,
                                   err, sizeof err);
    if (!x->solution) {
        sv_app_set_status(s, err);
        return;
    }
    shown_path(x, "solution.cu", x->solution_file, sizeof x->solution_file);
    s->exv.scroll = 0;
    progress(s, SV_PROGRESS_REVEALED, false, 0);
    sv_app_set_status(s, "the solution is in the panel; your file is unchanged");
    refresh_view(s);
}

void sv_app_exercise_next(sv_app_state *s)
{
    struct sv_app_exercise *x = s->ex;
    if (!x) /* the keys are bound only while an exercise is open */
        return;
    if (!x->next[0]) {
        sv_app_set_status(s, s->exv.check == SV_EXCHECK_PASSED
                                 ? "that was the last exercise"
                                 : "the next exercise opens once this one passes");
        return;
    }
    char name[SV_EXERCISE_MAX_NAME], err[1200];
    snprintf(name, sizeof name, "%s", x->next);
    if (!sv_app_exercise_open(s, name, x->background, err, sizeof err))
        sv_app_set_status(s, err);
}

bool sv_app_exercise_init(sv_app_state *s, const sv_app_config *c, char *err, size_t errlen)
{
    if (c->into)
        sv_app_copy_text(s->ex_into, sizeof s->ex_into, c->into);
    return !c->exercise || sv_app_exercise_open(s, c->exercise, c->background, err, errlen);
}

/* A presenter script's `exercise NAME` step: opens it unless it is open. */
void sv_app_exercise_switch(sv_app_state *s, const char *name)
{
    if (!name[0] || (s->ex && strcmp(s->ex->spec.name, name) == 0))
        return;
    char err[1200];
    if (!sv_app_exercise_open(s, name, s->kbackground, err, sizeof err))
        sv_app_set_status(s, err);
}
