/* The lab's capture in a worker (the window): a mistake's capture (K, a new
 * input, op or type with a mistake shown) may run 100 emulated runs, which
 * takes seconds at n = 1024, so in the window it runs on a thread while the
 * last picture stays on screen and the status line says how far it got
 * ("running 37 / 100 runs…", from capture's progress callback). A newer
 * request supersedes an older one: the older is told to stop, and its
 * result, if it still comes, is dropped, so a stale result never replaces a
 * newer input. A failure keeps the shown trace and says why. Without a
 * window (exports, tests, scripts' steps) capture runs on the calling
 * thread, or sv_app_labjob_wait() waits for the worker. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "wake.h"

/* One request: inputs copied in, results written by the thread, read by
 * the main thread only after done is set. */
struct sv_app_labjob {
    SDL_Thread *thread;
    SDL_atomic_t done;
    SDL_atomic_t cancel;    /* superseded: stop at the next run */
    SDL_atomic_t made, runs; /* progress */
    struct sv_app_labjob *next; /* the superseded ones still running (s->labjob_old) */
    sv_capture_request req;
    sv_value *input;
    char what[320];         /* the status the request's caller set ("Kernel: …") */
    bool what_taken;
    /* results */
    sv_trace *trace;
    sv_capture_source src;
    sv_capture_status st;
    char err[256];
};

static bool job_progress(void *ctx, uint32_t done, uint32_t runs)
{
    struct sv_app_labjob *j = ctx;
    SDL_AtomicSet(&j->made, (int)done);
    SDL_AtomicSet(&j->runs, (int)runs);
    return !SDL_AtomicGet(&j->cancel);
}

static int job_main(void *arg)
{
    struct sv_app_labjob *j = arg;
    j->st = sv_capture(&j->req, &j->trace, &j->src, j->err, sizeof j->err);
    SDL_AtomicSet(&j->done, 1);
    sv_wake_post(); /* only a wake-up: the result stays in j */
    return 0;
}

static void job_free(struct sv_app_labjob *j)
{
    if (j->thread)
        SDL_WaitThread(j->thread, NULL);
    sv_trace_destroy(j->trace);
    free(j->input);
    free(j);
}

/* The pending request gives way to a newer one: told to stop, kept until
 * its thread ends (sv_app_labjob_finish reaps it). */
void sv_app_labjob_supersede(sv_app_state *s)
{
    struct sv_app_labjob *j = s->labjob;
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
    struct sv_app_labjob *j = calloc(1, sizeof *j);
    if (!j || !(j->input = malloc(req->n * sizeof *req->input))) {
        free(j);
        return false;
    }
    memcpy(j->input, req->input, req->n * sizeof *req->input);
    j->req = *req;
    j->req.input = j->input;
    j->req.progress = job_progress;
    j->req.progress_ctx = j;
    sv_wake_register();
    j->thread = SDL_CreateThread(job_main, "sv-lab", j);
    if (!j->thread) { /* no thread: the caller captures on its own */
        job_free(j);
        return false;
    }
    s->labjob = j;
    return true;
}

bool sv_app_labjob_pending(const sv_app_state *s, const sv_value **in, size_t *n, sv_type *type)
{
    const struct sv_app_labjob *j = s->labjob;
    if (!j)
        return false;
    *in = j->input;
    *n = j->req.n;
    *type = j->req.type;
    return true;
}

/* Takes the result of j (done, joined) into s. */
static void take(sv_app_state *s, struct sv_app_labjob *j)
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
    for (struct sv_app_labjob **p = &s->labjob_old; *p;) {
        struct sv_app_labjob *o = *p;
        if (SDL_AtomicGet(&o->done)) {
            *p = o->next;
            job_free(o); /* superseded: its result is dropped */
        } else {
            p = &o->next;
        }
    }
    struct sv_app_labjob *j = s->labjob;
    if (!j)
        return;
    if (!j->what_taken) { /* the caller's words, set after the start */
        sv_app_copy_text(j->what, sizeof j->what, s->status);
        j->what_taken = true;
    }
    if (!SDL_AtomicGet(&j->done)) {
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
    SDL_WaitThread(j->thread, NULL);
    j->thread = NULL;
    take(s, j);
    job_free(j);
}

void sv_app_labjob_wait(sv_app_state *s)
{
    struct sv_app_labjob *j = s->labjob;
    if (!j)
        return;
    SDL_WaitThread(j->thread, NULL);
    j->thread = NULL;
    sv_app_labjob_finish(s);
}

bool sv_app_labjob_settle(sv_app_state *s, unsigned ms, sv_capture_status *st, char *err,
                          size_t errlen)
{
    struct sv_app_labjob *j = s->labjob;
    if (!j)
        return false;
    Uint32 t0 = SDL_GetTicks();
    while (!SDL_AtomicGet(&j->done)) {
        if (SDL_GetTicks() - t0 >= ms)
            return false;
        SDL_Delay(2);
    }
    s->labjob = NULL;
    SDL_WaitThread(j->thread, NULL);
    j->thread = NULL;
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
    const struct sv_app_labjob *j = s->labjob;
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
        struct sv_app_labjob *o = s->labjob_old;
        s->labjob_old = o->next;
        job_free(o);
    }
}
