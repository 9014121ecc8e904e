/* Your own kernel in the window (issue 18, --kernel-file): a worker thread
 * watches the file's folder (watch.h) and runs the file through the runtime
 * (src/runtime/runtime.h, a child process) on the shown input, at start, on
 * every save and whenever the input changes; the main thread takes each
 * result (sv_app_kfile_finish) into the state.
 *
 * Errors keep the last good picture: a file that does not compile, crashes,
 * deadlocks or runs out of time leaves the last good trace on screen, marked
 * as from the previous version (kstale), with the failure's words and line
 * (kerror, kerror_line) and the file's new text for the source panel
 * (ksource); a later good save clears them. The chapter kernel's run on the
 * same input, which the shown trace (s->trace) carries, is its comparison
 * (sv_app_kcompare, the D key). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/fileio.h"
#include "../core/free_all.h"
#include "../capture/kernel_run.h"
#include "app_internal.h"
#include "wake.h"
#include "watch.h"
#include "worker.h"

#define SV_KFILE_WAIT_MS 100 /* the worker looks for quit and new input this often */

/* The worker. Fields under lock: the request's parameters (main writes,
 * worker copies) and the result (worker writes, main takes). */
struct sv_app_kfile {
    sv_worker w;            /* worker.h; w.watch NULL for a shipped kernel (nothing to watch) */
    char *path, *entry;
    bool builtin;           /* path is a shipped kernel's file (--kernel blelloch): the
                             * runtime's build of it runs, no file is read */
    uint32_t time_limit_ms;
    /* parameters */
    sv_op op;
    sv_type type;
    sv_scan scan;
    sv_value *input;
    size_t n;
    sv_schedule schedule;
    uint32_t runs;
    bool runs_given;        /* (state.h's kruns_given) */
    int output_round;       /* an exercise's output round (round-one's 1), else 0: the scan */
    int64_t replay;         /* >= 0: run this one run of the last runs again (W), else -1 */
    unsigned want;          /* bumped for each change; the worker runs when it moves */
    /* the result */
    bool ready;
    sv_ktrace *result;      /* NULL: err says why */
    int64_t result_replay;  /* the run it replays, -1: a whole run of p.runs */
    char *result_source;    /* the text that ran */
    char err[512];
    uint64_t saved_ns;      /* when the save that led to it was seen (for the timing line) */
    /* the run going on (the progress line) */
    bool running;
    uint64_t started_ns;
    uint32_t launched;      /* a host function's launches started so far */
    uint32_t ended, grid;   /* the blocks of that launch ended, of its grid */
    uint32_t limit_ms;      /* its time limit */
};

static uint64_t now_ns(void)
{
    return (uint64_t)((double)SDL_GetPerformanceCounter() * 1e9 /
                      (double)SDL_GetPerformanceFrequency());
}

/* The runtime's word of launch k's blocks (the worker's thread). */
static void on_launched(void *ctx, uint32_t k, uint32_t ended, uint32_t grid)
{
    struct sv_app_kfile *kf = ctx;
    SDL_LockMutex(kf->w.lock);
    kf->launched = k;
    kf->ended = ended;
    kf->grid = grid;
    SDL_UnlockMutex(kf->w.lock);
}

/* One run of the file as it is now on the parameters p (a copy of k's),
 * its progress in k. */
static sv_ktrace *run_once(struct sv_app_kfile *k, const struct sv_app_kfile *p, char **text,
                           char *err, size_t errlen)
{
    size_t len = 0;
    *text = NULL;
    if (!p->builtin &&
        !(*text = sv_read_bounded(p->path, SV_KTRACE_MAX_SOURCE, "a kernel file", &len, err,
                                  errlen)))
        return NULL;
    sv_krun_request kr = { .choice = SV_CHOOSE_CPU }; /* the window's runs: the CPU runtime */
    sv_runtime_request *req = &kr.run;
    char shown[4096]; /* the file as its messages name it: relative where it can be */
    sv_app_paths_relative(p->path, shown, sizeof shown);
    req->path = p->builtin ? p->path : shown;
    req->source = *text;
    req->builtin = p->builtin ? p->path : NULL;
    req->entry = p->entry;
    req->op = p->op;
    req->type = p->type;
    req->scan = p->scan;
    req->input = p->input;
    req->n = p->n;
    req->schedule = p->schedule;
    req->runs = p->runs ? p->runs : 1;
    if (!p->runs_given && req->source && sv_runtime_file_launches(req->source))
        req->runs = 1; /* (as scanviz-trace: --runs asks for more of such a file) */
    if (p->replay >= 0) { /* run j of random:S / warps:S is seed S + j, alone */
        if (req->schedule.kind == SV_SCHEDULE_RANDOM || req->schedule.kind == SV_SCHEDULE_WARPS)
            req->schedule.seed += (uint64_t)p->replay;
        req->runs = 1;
    }
    req->time_limit_ms = p->time_limit_ms;
    req->output_round = p->output_round;
    req->launched = on_launched;
    req->progress_ctx = k;
    SDL_LockMutex(k->w.lock);
    k->running = true;
    k->started_ns = now_ns();
    k->launched = k->ended = k->grid = 0;
    k->limit_ms = sv_runtime_time_limit_ms(req);
    SDL_UnlockMutex(k->w.lock);
    sv_ktrace *t = sv_capture_kernel(&kr, NULL, NULL, NULL, err, errlen);
    SDL_LockMutex(k->w.lock);
    k->running = false;
    SDL_UnlockMutex(k->w.lock);
    return t;
}

bool sv_app_kfile_progress(const sv_app_state *s, sv_app_krun *out)
{
    struct sv_app_kfile *k = s->kf;
    if (!k)
        return false;
    SDL_LockMutex(k->w.lock);
    bool running = k->running;
    out->seconds = running ? (double)(now_ns() - k->started_ns) / 1e9 : 0.0;
    out->launched = k->launched;
    out->ended = k->ended;
    out->grid = k->grid;
    out->limit_s = (double)k->limit_ms / 1e3;
    SDL_UnlockMutex(k->w.lock);
    return running;
}

/* Copies the parameters under the lock (the input too); a replay is taken
 * once. */
static bool take_params(struct sv_app_kfile *k, struct sv_app_kfile *p)
{
    SDL_LockMutex(k->w.lock);
    *p = *k;
    k->replay = -1;
    p->input = malloc(k->n * sizeof *k->input);
    if (p->input)
        memcpy(p->input, k->input, k->n * sizeof *k->input);
    SDL_UnlockMutex(k->w.lock);
    return p->input != NULL;
}

static int kfile_main(void *arg)
{
    struct sv_app_kfile *k = arg;
    unsigned ran = 0;
    uint64_t saved = now_ns();
    while (!SDL_AtomicGet(&k->w.quit)) {
        bool changed = k->w.watch && sv_watch_wait(k->w.watch, SV_KFILE_WAIT_MS);
        if (!k->w.watch)
            SDL_Delay(SV_KFILE_WAIT_MS / 4); /* a shipped kernel: new input only */
        SDL_LockMutex(k->w.lock);
        if (changed) {
            k->want++;
            saved = now_ns();
        }
        unsigned want = k->want;
        SDL_UnlockMutex(k->w.lock);
        if (want == ran)
            continue;
        struct sv_app_kfile p;
        char err[512] = "";
        char *text = NULL;
        sv_ktrace *t = NULL;
        if (take_params(k, &p)) {
            t = run_once(k, &p, &text, err, sizeof err);
            free(p.input);
        } else {
            snprintf(err, sizeof err, "out of memory");
        }
        ran = want;
        SDL_LockMutex(k->w.lock);
        sv_ktrace_destroy(k->result); /* a result the main thread never took */
        free(k->result_source);
        k->result_replay = p.replay;
        k->result = t;
        k->result_source = text;
        sv_app_copy_text(k->err, sizeof k->err, err);
        k->saved_ns = saved;
        k->ready = true;
        SDL_UnlockMutex(k->w.lock);
        sv_wake_post(); /* the main loop takes the result */
    }
    return 0;
}

void sv_app_kfile_destroy(struct sv_app_kfile *k)
{
    if (!k)
        return;
    sv_worker_stop(&k->w);
    sv_ktrace_destroy(k->result);
    SV_FREE_ALL(k->result_source, k->input, k->path, k->entry, k);
}

/* The parameters from the state's shown input (s->trace); bumps want.
 * Without a worker (exports, tests) the run is made at once, so that the
 * kernel trace shown is always of the input shown. */
void sv_app_kfile_rerun(sv_app_state *s)
{
    struct sv_app_kfile *k = s->kf;
    const sv_trace *t = s->trace;
    if (!k || !t)
        return;
    sv_value *in = malloc(t->n * sizeof *in);
    if (!in)
        return;
    memcpy(in, t->input, t->n * sizeof *in);
    SDL_LockMutex(k->w.lock);
    free(k->input);
    k->input = in;
    k->n = t->n;
    k->op = t->op;
    k->type = t->type;
    k->scan = t->scan;
    k->schedule = s->kschedule;
    k->runs = s->kruns;
    k->runs_given = s->kruns_given;
    k->output_round = s->koutput_round;
    k->replay = -1;
    k->want++;
    SDL_UnlockMutex(k->w.lock);
    if (!s->kbackground)
        sv_app_kfile_run_now(s);
}

/* W: run `run` of the last runs again, alone, for its trace (the CPU's
 * schedules are deterministic); the result takes the runs' counts over
 * (sv_app_kfile_take_replay). */
void sv_app_kfile_replay(sv_app_state *s, uint32_t run)
{
    struct sv_app_kfile *k = s->kf;
    if (!k)
        return;
    SDL_LockMutex(k->w.lock);
    k->replay = run;
    k->want++;
    SDL_UnlockMutex(k->w.lock);
    if (!k->w.thread)
        sv_app_kfile_run_now(s);
}

/* Takes the worker's result once there is one. */
void sv_app_kfile_finish(sv_app_state *s)
{
    struct sv_app_kfile *k = s->kf;
    if (!k)
        return;
    SDL_LockMutex(k->w.lock);
    bool ready = k->ready;
    sv_ktrace *t = k->result;
    char *text = k->result_source;
    char err[sizeof k->err];
    memcpy(err, k->err, sizeof err);
    uint64_t saved = k->saved_ns;
    int64_t replay = k->result_replay;
    k->ready = false;
    k->result = NULL;
    k->result_source = NULL;
    SDL_UnlockMutex(k->w.lock);
    if (!ready)
        return;
    if (replay >= 0) { /* W's run, or (it went differently) all the runs again */
        free(text);
        if (!sv_app_kfile_take_replay(s, t, (uint32_t)replay))
            sv_app_kfile_rerun(s);
        return;
    }
    sv_app_kfile_take(s, t, text, err);
    s->kfile_ms = (double)(now_ns() - saved) / 1e6;
}

/* Without a window (exports, tests): one run now, on the calling thread. */
void sv_app_kfile_run_now(sv_app_state *s)
{
    struct sv_app_kfile p;
    char err[512] = "";
    char *text = NULL;
    sv_ktrace *t = NULL;
    p.replay = -1;
    if (take_params(s->kf, &p)) {
        t = run_once(s->kf, &p, &text, err, sizeof err);
        free(p.input);
    }
    if (p.replay >= 0) {
        free(text);
        if (!sv_app_kfile_take_replay(s, t, (uint32_t)p.replay))
            sv_app_kfile_rerun(s); /* (which runs at once without a worker) */
        return;
    }
    sv_app_kfile_take(s, t, text, err);
}

/* W / Shift+W: the next / previous run in which the hovered cell was
 * wrong (app_kfile_take.c picks it and says so), run again. */
void sv_app_kfile_wrong_run(sv_app_state *s, bool back)
{
    int64_t run = sv_app_kfile_wrong_target(s, back);
    if (run >= 0)
        sv_app_kfile_replay(s, (uint32_t)run);
}

/* A kernel file (builtin false: watched) or a shipped kernel's file
 * (--kernel blelloch, a script's kernel blelloch: nothing to watch). */
static bool kfile_start(sv_app_state *s, const char *path, bool builtin, const char *entry,
                        uint32_t time_limit_ms, bool background, char *err, size_t errlen)
{
    struct sv_app_kfile *k = calloc(1, sizeof *k);
    if (!k || !(k->path = strdup(path)) || (entry && !(k->entry = strdup(entry))) ||
        !(k->w.lock = SDL_CreateMutex())) {
        sv_app_kfile_destroy(k);
        snprintf(err, errlen, "--kernel-file: out of memory");
        return false;
    }
    char why[512];
    k->builtin = builtin;
    s->kbuiltin = builtin;
    k->w.watch = background && !builtin
                   ? sv_watch_open(path, getenv("SCANVIZ_WATCH_POLL") != NULL, why, sizeof why)
                   : NULL;
    if (background && !builtin && !k->w.watch) {
        sv_app_kfile_destroy(k);
        snprintf(err, errlen, "--kernel-file %s: %s", path, why);
        return false;
    }
    k->time_limit_ms = time_limit_ms;
    k->replay = -1;
    k->output_round = s->koutput_round;
    s->kf = k;
    sv_app_copy_text(s->kentry, sizeof s->kentry, entry ? entry : "");
    s->ktime_limit_ms = time_limit_ms;
    s->kbackground = background;
    sv_app_copy_text(s->kfile, sizeof s->kfile, path);
    sv_app_kfile_rerun(s); /* (without a worker: the run, now) */
    if (!background)
        return true;
    if (!sv_worker_start(&k->w, kfile_main, "sv-kfile", k, "--kernel-file", err, errlen)) {
        s->kf = NULL;
        sv_app_kfile_destroy(k);
        return false;
    }
    return true;
}

bool sv_app_kfile_start(sv_app_state *s, const char *path, const char *entry,
                        uint32_t time_limit_ms, bool background, char *err, size_t errlen)
{
    return kfile_start(s, path, false, entry, time_limit_ms, background, err, errlen);
}

bool sv_app_kfile_start_builtin(sv_app_state *s, const char *file, bool background, char *err,
                                size_t errlen)
{
    return kfile_start(s, file, true, NULL, s->ktime_limit_ms, background, err, errlen);
}

const char *sv_app_kfile_method(const sv_app_state *s)
{
    return s->kf && s->kf->w.watch ? sv_watch_method(s->kf->w.watch) : "";
}

/* Runs sh -c cmd in a new session, detached: the first child starts the
 * second and ends at once, so nothing is left to wait for. */
static bool spawn_detached(const char *cmd)
{
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        setsid();
        pid_t g = fork();
        if (g == 0) {
            int fd = open("/dev/null", O_RDWR);
            if (fd >= 0) {
                dup2(fd, STDIN_FILENO);
                if (fd > STDERR_FILENO)
                    close(fd);
            }
            execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
            _exit(127);
        }
        _exit(g < 0 ? 1 : 0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Ctrl+E: the file in the user's editor, not waited for: $VISUAL, else
 * $EDITOR in a terminal (x-terminal-emulator -e), else xdg-open. The child
 * is its own session, so closing the window leaves the editor open. */
void sv_app_kfile_edit(sv_app_state *s)
{
    if (!s->kf) {
        sv_app_set_status(s, "Ctrl+E edits a kernel file: start with --kernel-file FILE.cu");
        return;
    }
    if (s->kbuiltin) {
        sv_app_set_status(s, "Ctrl+E edits your own kernel file: this is a shipped kernel "
                             "(--new-kernel FILE.cu starts one)");
        return;
    }
    const char *visual = getenv("VISUAL"), *editor = getenv("EDITOR");
    char cmd[2300], q[2100], msg[300];
    size_t j = 0;
    q[j++] = '\'';
    for (const char *c = s->kfile; *c && j + 5 < sizeof q; c++) {
        if (*c == '\'') {
            memcpy(q + j, "'\\''", 4);
            j += 4;
        } else {
            q[j++] = *c;
        }
    }
    q[j++] = '\'';
    q[j] = '\0';
    if (visual && *visual)
        snprintf(cmd, sizeof cmd, "$VISUAL %s", q);
    else if (editor && *editor)
        snprintf(cmd, sizeof cmd, "x-terminal-emulator -e sh -c '$EDITOR \"$0\"' %s", q);
    else
        snprintf(cmd, sizeof cmd, "xdg-open %s", q);
    if (spawn_detached(cmd))
        snprintf(msg, sizeof msg, "opened %.200s in %s", s->kfile,
                 visual && *visual ? "$VISUAL" : editor && *editor ? "$EDITOR" : "xdg-open");
    else
        snprintf(msg, sizeof msg, "could not start an editor for %.200s", s->kfile);
    sv_app_set_status(s, msg);
}

/* S: the next schedule (lockstep, sequential, reverse, random, warps). */
void sv_app_kfile_next_schedule(sv_app_state *s)
{
    if (!s->kf) {
        sv_app_set_status(s, "S cycles the schedules of a kernel file (--kernel-file)");
        return;
    }
    static const sv_schedule_kind order[] = {SV_SCHEDULE_LOCKSTEP, SV_SCHEDULE_SEQUENTIAL,
                                             SV_SCHEDULE_REVERSE, SV_SCHEDULE_RANDOM,
                                             SV_SCHEDULE_WARPS};
    size_t n = sizeof order / sizeof order[0], i = 0;
    while (i < n && order[i] != s->kschedule.kind)
        i++;
    s->kschedule.kind = order[(i + 1) % n];
    if (!s->kschedule.seed)
        s->kschedule.seed = 1;
    char name[64], msg[128];
    sv_schedule_format(s->kschedule, name, sizeof name);
    snprintf(msg, sizeof msg, "schedule %s: running again", name);
    sv_app_set_status(s, msg);
    sv_app_kfile_rerun(s);
}

extern const unsigned char sv_kernel_starter[];
extern const size_t sv_kernel_starter_size;

/* --new-kernel: the starting file, all or nothing, never over a file
 * (core/fileio.h sv_write_new: a temporary file linked to the name). */
bool sv_app_new_kernel(const char *path, char *err, size_t errlen)
{
    bool existed = false;
    char why[1200];
    if (sv_write_new(path, sv_kernel_starter, sv_kernel_starter_size, &existed, why, sizeof why))
        return true;
    if (existed)
        snprintf(err, errlen, "%s: the file exists (--new-kernel never overwrites a file)", path);
    else
        snprintf(err, errlen, "%s", why);
    return false;
}

/* The kernel file (or shipped kernel) shown, its watch and traces dropped. */
void sv_app_kfile_close(sv_app_state *s)
{
    sv_app_kfile_destroy(s->kf);
    s->kf = NULL;
    sv_ktrace_destroy(s->ktrace);
    s->ktrace = NULL;
    s->kerror[0] = '\0';
    s->kerror_line = 0;
    s->kstale = false;
    free(s->ksource);
    s->ksource = NULL;
}

/* A presenter script's kernel-file step (builtin false) or its kernel step
 * naming a shipped kernel beyond the chapter (builtin: path is its file):
 * shows path's kernel instead ("" none: back to the chapter's), the old
 * watch and traces dropped. */
void sv_app_kfile_switch(sv_app_state *s, const char *path, bool builtin)
{
    if (strcmp(path, s->kfile) == 0 && (s->kf != NULL) == (path[0] != '\0') &&
        (!s->kf || s->kbuiltin == builtin))
        return;
    sv_app_kfile_close(s);
    s->kfile[0] = '\0';
    s->kbuiltin = false;
    s->step = s->from_step = 0;
    if (!path[0])
        return;
    char err[600];
    if (!kfile_start(s, path, builtin, builtin || !s->kentry[0] ? NULL : s->kentry,
                     s->ktime_limit_ms, s->kbackground, err, sizeof err))
        sv_app_set_status(s, err);
}
