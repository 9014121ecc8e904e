/* The window's captures on a thread. A capture may take seconds (the GPU's
 * probe, or a mistake's 100 emulated runs at n = 1024), so the window runs
 * it beside the frame loop, keeps the last picture on screen, and takes the
 * result on the main thread when it is done. Two kinds of request share one
 * worker (struct sv_app_job):
 *  - the probe (s->bg, sv_app_bg_*): asks for a GPU, then captures the
 *    chapter's kernel on it; app_lab.c takes its result (sv_app_bg_finish):
 *    it replaces the shown trace, or the source line says why not;
 *  - the lab's (s->labjob, sv_app_labjob_*): any capture request, with its
 *    progress ("running 37 / 100 runs…"). A newer request supersedes an
 *    older one: the older is told to stop and its result, if it still comes,
 *    is dropped, so a stale result never replaces a newer input. A failure
 *    keeps the shown trace and says why. Without a window (exports, tests,
 *    scripts' steps) capture runs on the calling thread, or
 *    sv_app_labjob_wait() waits for the worker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "wake.h"

/* One request: inputs copied in, results written by the thread, read by
 * the main thread only after done is set. */
struct sv_app_job {
    SDL_Thread *thread;
    SDL_atomic_t done;
    SDL_atomic_t cancel;     /* superseded: stop at the next run */
    SDL_atomic_t made, runs; /* progress */
    struct sv_app_job *next; /* the superseded ones still running (s->labjob_old) */
    bool probe;              /* ask for a GPU first (s->bg) */
    bool taken;              /* joined and its result taken (main thread) */
    unsigned gen;            /* s->gen the result is for (the probe) */
    sv_capture_request req;
    sv_value *input;
    char what[320];          /* the status the request's caller set ("Kernel: …") */
    bool what_taken;
    /* results */
    bool cuda_ok;            /* the probe found a usable GPU */
    sv_trace *trace;
    sv_capture_source src;   /* where trace came from, and why */
    sv_capture_status st;
    char err[256];
};

static bool job_progress(void *ctx, uint32_t done, uint32_t runs)
{
    struct sv_app_job *j = ctx;
    SDL_AtomicSet(&j->made, (int)done);
    SDL_AtomicSet(&j->runs, (int)runs);
    return !SDL_AtomicGet(&j->cancel);
}

static int job_main(void *arg)
{
    struct sv_app_job *j = arg;
    /* The probe, which may take seconds, then the capture it allows
     * (capture falls back to the emulator and says why). */
    if (j->probe)
        j->cuda_ok = sv_capture_cuda_available(NULL, 0, NULL, NULL, 0);
    j->st = sv_capture(&j->req, &j->trace, &j->src, j->err, sizeof j->err);
    SDL_AtomicSet(&j->done, 1);
    sv_wake_post(); /* only a wake-up: the result stays in j */
    return 0;
}

static void job_free(struct sv_app_job *j)
{
    if (!j)
        return;
    if (j->thread)
        SDL_WaitThread(j->thread, NULL);
    sv_trace_destroy(j->trace);
    free(j->input);
    free(j);
}

/* A copy of req on a new thread called name; NULL when out of memory. With
 * no thread, j->thread is NULL and the caller decides. */
static struct sv_app_job *job_start(const sv_capture_request *req, bool probe, const char *name)
{
    struct sv_app_job *j = calloc(1, sizeof *j);
    if (!j || !(j->input = malloc(req->n * sizeof *req->input))) {
        free(j);
        return NULL;
    }
    memcpy(j->input, req->input, req->n * sizeof *req->input);
    j->req = *req;
    j->req.input = j->input;
    j->req.progress = job_progress;
    j->req.progress_ctx = j;
    j->probe = probe;
    sv_wake_register();
    j->thread = SDL_CreateThread(job_main, name, j);
    return j;
}

/* Joins j once its thread has set done; false while it runs. */
static bool job_join(struct sv_app_job *j)
{
    if (!SDL_AtomicGet(&j->done))
        return false;
    if (j->thread) {
        SDL_WaitThread(j->thread, NULL);
        j->thread = NULL;
    }
    return true;
}

/* ---- the probe ---- */

void sv_app_bg_destroy(struct sv_app_job *bg)
{
    job_free(bg);
}

void sv_app_bg_start(sv_app_state *s, const sv_value *in, size_t n, unsigned gen)
{
    const sv_capture_request req = {
        .op = s->op, .type = s->type, .scan = s->scan, .input = in, .n = n,
        .choice = s->backend, .fallback = true,
    };
    struct sv_app_job *bg = job_start(&req, true, "sv-cuda");
    if (!bg)
        return;
    bg->gen = gen;
    s->bg = bg;
    if (!bg->thread) /* no thread: probe here (slower start, same result) */
        job_main(bg);
}

bool sv_app_bg_take(sv_app_state *s, sv_app_probe *out)
{
    struct sv_app_job *bg = s->bg;
    if (!bg || bg->taken || !job_join(bg))
        return false;
    bg->taken = true;
    out->cuda_ok = bg->cuda_ok;
    out->gen = bg->gen;
    out->st = bg->st;
    out->trace = bg->trace;
    bg->trace = NULL;
    out->src = bg->src;
    memcpy(out->err, bg->err, sizeof out->err);
    return true;
}

/* ---- the lab's requests ---- */

void sv_app_labjob_supersede(sv_app_state *s)
{
    struct sv_app_job *j = s->labjob;
    if (!j)
        return;
    SDL_AtomicSet(&j->cancel, 1);
    j->next = s->labjob_old;
    s->labjob_old = j;
    s->labjob = NULL;
}

bool sv_app_labjob_start(sv_app_state *s, const sv_capture_request *req)
{
    sv_app_labjob_supersede(s);
    struct sv_app_job *j = job_start(req, false, "sv-lab");
    if (j && !j->thread) { /* no thread: the caller captures on its own */
        job_free(j);
        j = NULL;
    }
    s->labjob = j;
    return j != NULL;
}

bool sv_app_labjob_pending(const sv_app_state *s, const sv_value **in, size_t *n, sv_type *type)
{
    const struct sv_app_job *j = s->labjob;
    if (!j)
        return false;
    *in = j->input;
    *n = j->req.n;
    *type = j->req.type;
    return true;
}

/* Takes the result of j (done, joined) into s. */
static void take(sv_app_state *s, struct sv_app_job *j)
{
    char msg[640];
    if (j->st != SV_CAPTURE_OK) {
        /* the shown trace stays, and with it its kernel */
        const sv_lab_record *L = s->trace ? s->trace->lab : NULL;
        s->kernel = L ? L->kernel : SV_KERNEL_CORRECT;
        snprintf(msg, sizeof msg, "%.300s: failed: %.300s", j->what[0] ? j->what : "Lab capture",
                 j->err);
        sv_app_set_status(s, msg);
        return;
    }
    sv_trace *t = j->trace;
    j->trace = NULL;
    sv_app_adopt(s, t);
    sv_app_set_source(s, &j->src, NULL);
    if (j->what[0])
        sv_app_set_status(s, j->what);
}

void sv_app_labjob_finish(sv_app_state *s)
{
    for (struct sv_app_job **p = &s->labjob_old; *p;) {
        struct sv_app_job *o = *p;
        if (SDL_AtomicGet(&o->done)) {
            *p = o->next;
            job_free(o); /* superseded: its result is dropped */
        } else {
            p = &o->next;
        }
    }
    struct sv_app_job *j = s->labjob;
    if (!j)
        return;
    if (!j->what_taken) { /* the caller's words, set after the start */
        sv_app_copy_text(j->what, sizeof j->what, s->status);
        j->what_taken = true;
    }
    if (!job_join(j)) {
        int made = SDL_AtomicGet(&j->made), runs = SDL_AtomicGet(&j->runs);
        char msg[420];
        if (runs > 1)
            snprintf(msg, sizeof msg, "%.300s \u00b7 running %d / %d runs\u2026", j->what, made,
                     runs);
        else
            snprintf(msg, sizeof msg, "%.300s \u00b7 running\u2026", j->what);
        sv_app_set_status(s, msg);
        return;
    }
    s->labjob = NULL;
    take(s, j);
    job_free(j);
}

void sv_app_labjob_wait(sv_app_state *s)
{
    struct sv_app_job *j = s->labjob;
    if (!j)
        return;
    SDL_WaitThread(j->thread, NULL);
    j->thread = NULL;
    sv_app_labjob_finish(s);
}

bool sv_app_labjob_settle(sv_app_state *s, unsigned ms, sv_capture_status *st, char *err,
                          size_t errlen)
{
    struct sv_app_job *j = s->labjob;
    if (!j)
        return false;
    for (Uint32 t0 = SDL_GetTicks(); !job_join(j); SDL_Delay(2))
        if (SDL_GetTicks() - t0 >= ms)
            return false;
    s->labjob = NULL;
    *st = j->st;
    if (j->st == SV_CAPTURE_OK) {
        j->what[0] = '\0'; /* the caller sets its own status, as on the calling thread */
        take(s, j);
    } else {
        snprintf(err, errlen, "%s", j->err);
    }
    job_free(j);
    return true;
}

void sv_app_labjob_words(const sv_app_state *s, char *buf, size_t len)
{
    const struct sv_app_job *j = s->labjob;
    if (!j)
        snprintf(buf, len, "labjob=idle");
    else
        snprintf(buf, len, "labjob=running:%d/%d", SDL_AtomicGet((SDL_atomic_t *)&j->made),
                 SDL_AtomicGet((SDL_atomic_t *)&j->runs));
}

void sv_app_labjob_destroy(sv_app_state *s)
{
    sv_app_labjob_supersede(s);
    while (s->labjob_old) {
        struct sv_app_job *o = s->labjob_old;
        s->labjob_old = o->next;
        job_free(o);
    }
}
