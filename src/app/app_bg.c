/* The background probe and GPU capture: the window shows the emulator's
 * trace at once while a thread asks for a GPU (which may take seconds) and
 * captures the same input there; its result replaces the shown trace when
 * it is ready (sv_app_bg_finish), or the source line says why not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "wake.h"

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
    sv_wake_post(); /* only a wake-up: the result stays in bg */
    return 0;
}

void sv_app_bg_destroy(struct sv_app_bg *bg)
{
    if (!bg)
        return;
    if (bg->thread)
        SDL_WaitThread(bg->thread, NULL);
    sv_trace_destroy(bg->trace);
    free(bg->input);
    free(bg);
}

void sv_app_bg_start(sv_app_state *s, const sv_value *in, size_t n, unsigned gen)
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
    bg->gen = gen;
    sv_wake_register();
    s->bg = bg;
    bg->thread = SDL_CreateThread(bg_main, "sv-cuda", bg);
    if (!bg->thread) { /* no thread: probe here (slower start, same result) */
        bg_main(bg);
    }
}

/* Takes the background result once it is done. */
void sv_app_bg_finish(sv_app_state *s)
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
        sv_app_set_status(s, msg);
        return;
    }
    if (!bg->cuda_ok) {
        /* With auto the source line says why quietly; an explicit
         * --backend cuda deserves a message. */
        if (s->backend == SV_CHOOSE_CUDA) {
            snprintf(msg, sizeof msg, "--backend cuda: no usable GPU (%.200s); showing the emulator",
                     bg->src.reason);
            sv_app_set_status(s, msg);
        }
        if (!s->from_file && s->trace && s->trace->backend == SV_BACKEND_CPU)
            sv_app_set_source(s, &bg->src, NULL);
        sv_app_shake_notice(s); /* no GPU: --shake has nothing to delay */
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
            sv_app_adopt(s, t);
            sv_app_set_source(s, &bg->src, NULL);
            snprintf(msg, sizeof msg, "GPU trace ready: %.200s", s->source);
        } else {
            /* The GPU failed on this very input: the emulator's trace is
             * already shown; say why. */
            sv_app_set_source(s, &bg->src, NULL);
            snprintf(msg, sizeof msg, "%.250s", bg->src.reason);
        }
        sv_app_set_status(s, msg);
        return;
    }
    /* The input changed while CUDA started, or a mistake is shown: capture
     * the current one now (a given --schedule stays emulated). */
    if (s->trace && !(s->kernel != SV_KERNEL_CORRECT && s->schedule_given)) {
        char err[256];
        if (sv_app_recapture_shown(s, s->op, s->scan, err, sizeof err) == SV_CAPTURE_OK) {
            /* recapture falls back to the emulator, and its source says why */
            if (s->trace->backend == SV_BACKEND_CUDA)
                snprintf(msg, sizeof msg, "GPU trace ready: %.200s", s->source);
            else
                sv_app_copy_text(msg, sizeof msg, s->source);
            sv_app_set_status(s, msg);
        } else {
            snprintf(msg, sizeof msg, "GPU capture failed: %.200s", err);
            sv_app_set_status(s, msg);
        }
    }
}
