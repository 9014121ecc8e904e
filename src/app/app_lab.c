/* Capturing again: every change of what is captured (the lab's kernels with
 * K, the operator, the element type, the scan, a random input) goes through
 * capture here and is adopted like any trace (app_adopt.c, which also takes
 * the lab's outcome a trace carries for the view); K walks a --trace deck. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/escape.h"
#include "../core/parse.h"
#include "../core/trace_file.h"
#include "app_internal.h"

/* Captures a new trace of s's kernel with the state's backend choice and
 * shows it. A window with a background probe always shows a trace: capture
 * runs the emulator while the probe runs, and when the GPU is missing or
 * fails, and says why. A mistake goes through capture like the chapter's
 * kernel: on the GPU lab_runs runs (shaken as asked), else emulated under
 * s->schedule (a given --schedule picks the emulator, as in scanviz-trace).
 * On failure the shown trace stays and err says why. */
sv_capture_status sv_app_recapture(sv_app_state *s, sv_op op, sv_type type, sv_scan scan,
                                   const sv_value *in, size_t n, char *err, size_t errlen)
{
    if (n > SV_MAX_N) { /* a kernel file's many blocks (issue 31): the input alone */
        if (s->kernel != SV_KERNEL_CORRECT) {
            snprintf(err, errlen, "n = %zu: the mistakes lab's kernels scan one block, at most "
                     "%d values", n, SV_MAX_N);
            return SV_CAPTURE_BAD_INPUT;
        }
        sv_trace *t = sv_trace_create_input(op, type, scan, in, n, err, errlen);
        if (!t)
            return SV_CAPTURE_FAILED;
        sv_app_adopt(s, t);
        return SV_CAPTURE_OK;
    }
    sv_capture_request req = {
        .op = op, .type = type, .scan = scan, .input = in, .n = n, .choice = s->backend,
        .fallback = s->bg != NULL, .no_wait = s->bg != NULL,
    };
    if (s->kernel != SV_KERNEL_CORRECT) {
        req.kernel = s->kernel;
        req.has_schedule = s->schedule_given;
        req.schedule = s->schedule;
        req.has_emulate_schedule = true;
        req.emulate_schedule = s->schedule;
        req.runs = s->lab_runs; /* 0: capture's rule, the same as scanviz-trace's */
        req.shake = s->lab_shake;
        req.shake_seed = s->lab_shake_seed;
    }
    /* Any pending lab capture gives way to this newer request; in the
     * window a mistake's capture runs in the worker (app_capture.c). */
    sv_app_labjob_supersede(s);
    if (req.kernel != SV_KERNEL_CORRECT && s->lab_background && sv_app_labjob_start(s, &req)) {
        /* a short capture lands at once (the window stays as before); a
         * long one goes on in the worker with the last picture shown */
        sv_capture_status st = SV_CAPTURE_OK;
        sv_app_labjob_settle(s, SV_LABJOB_SETTLE_MS, &st, err, errlen);
        return st;
    }
    sv_trace *t = NULL;
    sv_capture_source src;
    sv_capture_status st = sv_capture(&req, &t, &src, err, errlen);
    if (st != SV_CAPTURE_OK)
        return st;
    sv_app_adopt(s, t);
    sv_app_set_source(s, &src, NULL);
    return SV_CAPTURE_OK;
}

/* sv_app_recapture() of the shown trace's input with op and scan, or of the
 * pending lab capture's input (the newest one asked for); the input is
 * copied first: adopting the new trace frees the old. */
sv_capture_status sv_app_recapture_shown(sv_app_state *s, sv_op op, sv_scan scan, char *err,
                                         size_t errlen)
{
    const sv_value *from = s->trace ? s->trace->input : NULL;
    size_t n = s->trace ? s->trace->n : 0;
    sv_type type = s->type;
    sv_app_labjob_pending(s, &from, &n, &type);
    if (!from) {
        snprintf(err, errlen, "no trace shown");
        return SV_CAPTURE_FAILED;
    }
    sv_value *in = malloc(n * sizeof *in);
    if (!in) {
        snprintf(err, errlen, "out of memory");
        return SV_CAPTURE_FAILED;
    }
    memcpy(in, from, n * sizeof *in);
    sv_capture_status st = sv_app_recapture(s, op, type, scan, in, n, err, errlen);
    free(in);
    return st;
}

void sv_app_with_current_input(sv_app_state *s, sv_op op, sv_scan scan, const char *what)
{
    if (!s->trace)
        return;
    char err[256], msg[320];
    if (sv_app_recapture_shown(s, op, scan, err, sizeof err) == SV_CAPTURE_OK)
        sv_app_copy_text(msg, sizeof msg, what);
    else
        snprintf(msg, sizeof msg, "%.300s", err);
    sv_app_set_status(s, msg);
}

void sv_app_next_op(sv_app_state *s)
{
    sv_op op = s->op;
    for (int tries = 0; tries < SV_OP_COUNT; tries++) {
        op = (sv_op)((op + 1) % SV_OP_COUNT);
        if (sv_op_valid(op, s->type, NULL, 0))
            break;
    }
    char what[64];
    snprintf(what, sizeof what, "Operator: %s", sv_op_name(op));
    sv_app_with_current_input(s, op, s->scan, what);
}

/* Y: the other element type, converting the shown input (a float32 is
 * rounded to the nearest int32, clamped); an operator the new type lacks
 * (xor on float32) becomes sum. */
void sv_app_next_type(sv_app_state *s)
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
    if (sv_app_recapture(s, op, type, s->scan, in, n, err, sizeof err) == SV_CAPTURE_OK) {
        snprintf(msg, sizeof msg, "Type: %s%s%s%s", sv_type_name(type),
                 op != was ? " (" : "", op != was ? sv_op_name(was) : "",
                 op != was ? " is not defined on it: operator sum)" : "");
    } else {
        snprintf(msg, sizeof msg, "%.300s", err);
    }
    sv_app_set_status(s, msg);
    free(in);
}

/* Shows kernel k on the same input (K, a script's kernel step): captured
 * again, on the GPU where there is one. On failure the shown kernel stays
 * and the message says why. */
bool sv_app_set_kernel(sv_app_state *s, sv_kernel k)
{
    const sv_kernel_info *ki = sv_kernel_get(k);
    if (!s->trace || !ki)
        return false;
    sv_kernel old = s->kernel;
    s->kernel = k;
    char err[256], msg[320];
    if (sv_app_recapture_shown(s, s->op, s->scan, err, sizeof err) == SV_CAPTURE_OK) {
        snprintf(msg, sizeof msg, "Kernel: %s \u2014 %s", ki->name, ki->label);
        sv_app_set_status(s, msg);
        return true;
    }
    s->kernel = old;
    snprintf(msg, sizeof msg, "Kernel %s: %.250s", ki->name, err);
    sv_app_set_status(s, msg);
    return false;
}

/* K: the next kernel of the lab. */
void sv_app_next_kernel(sv_app_state *s)
{
    sv_app_set_kernel(s, (sv_kernel)((s->kernel + 1) % SV_KERNEL_COUNT));
}

bool sv_app_adopt_ktrace(sv_app_state *s, sv_ktrace *k, const char *path, char *err,
                         size_t errlen)
{
    /* The chapter's kernel on the same input: the window's input, op and
     * scan for everything else (the input box, the state line). */
    s->kernel = SV_KERNEL_CORRECT;
    if (sv_app_recapture(s, k->op, k->type, k->scan, k->input, k->n, err, errlen) !=
        SV_CAPTURE_OK) {
        sv_ktrace_destroy(k);
        return false;
    }
    sv_ktrace_destroy(s->ktrace);
    s->ktrace = k;
    s->kread_only = true;
    s->from_file = true;
    s->kerror[0] = '\0';
    s->kerror_line = 0;
    s->kstale = false;
    int last = sv_app_steps_of(s) - 1;
    s->step = s->from_step = sv_clampi(s->step, 0, last);
    s->anim = 1.0f;
    s->gen++;
    /* Where the kernel trace was made: the CPU runtime, or the GPU's. */
    sv_capture_source src;
    memset(&src, 0, sizeof src);
    src.backend = k->backend;
    if (k->backend == SV_BACKEND_CUDA)
        snprintf(src.label, sizeof src.label, "GPU runtime \u00b7 %.200s",
                 k->device ? k->device : "a GPU");
    else
        snprintf(src.label, sizeof src.label, "CPU runtime");
    sv_app_set_source(s, &src, path);
    return true;
}

/* K / Shift+K with a --trace deck: the next (d = 1) or previous
 * (d = -1) file of the deck, loaded now, with its own kernel and outcome;
 * a kernel trace (version 3) in the kernel pane, read only. The round is
 * kept where the file has it. A file that no longer loads leaves the shown
 * one and says why. */
void sv_app_deck_step(sv_app_state *s, int d)
{
    int at = ((s->deck_at + d) % s->deck_n + s->deck_n) % s->deck_n;
    const char *path = s->deck[at];
    char err[512], msg[700], name[256], why[600];
    sv_escape(path, name, sizeof name);
    sv_trace *t;
    sv_ktrace *k;
    if (!sv_trace_file_load_any(path, &t, &k, err, sizeof err)) {
        snprintf(msg, sizeof msg, "Trace %d of %d: %s", at + 1, s->deck_n,
                 sv_escape(err, why, sizeof why));
        sv_app_set_status(s, msg);
        return;
    }
    if (k) {
        char kname[200];
        sv_escape(k->file ? k->file : k->kernel ? k->kernel : "kernel", kname, sizeof kname);
        if (!sv_app_adopt_ktrace(s, k, path, err, sizeof err)) {
            snprintf(msg, sizeof msg, "Trace %d of %d: %s", at + 1, s->deck_n,
                     sv_escape(err, why, sizeof why));
            sv_app_set_status(s, msg);
            return;
        }
        s->deck_at = at;
        snprintf(msg, sizeof msg, "Trace %d of %d: %.200s \u2014 your kernel %.200s (read only)",
                 at + 1, s->deck_n, name, kname);
        sv_app_set_status(s, msg);
        return;
    }
    sv_app_adopt(s, t);
    s->from_file = true;
    s->deck_at = at;
    sv_capture_source src;
    sv_capture_source_of_trace(t, &src);
    sv_app_set_source(s, &src, path);
    const sv_kernel_info *ki = sv_kernel_get(s->kernel);
    snprintf(msg, sizeof msg, "Trace %d of %d: %.200s \u2014 %s%s%s", at + 1, s->deck_n, name,
             ki ? ki->name : "?", s->lab_note[0] ? ", " : "", s->lab_note);
    sv_app_set_status(s, msg);
}

void sv_app_random_input(sv_app_state *s)
{
    size_t n = s->trace ? s->trace->n : 8;
    sv_value *v = sv_random_values(s->op, s->type, n, s->seed++);
    if (!v)
        return;
    char err[256];
    if (sv_app_recapture(s, s->op, s->type, s->scan, v, n, err, sizeof err) == SV_CAPTURE_OK) {
        s->custom_input = true;
        sv_app_set_status(s, "Random input");
    } else {
        sv_app_set_status(s, err);
    }
    free(v);
}

/* ---- the GPU probe's result ---- */

static void probe_take(sv_app_state *s, sv_app_probe *bg)
{
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
    /* The probe's capture is of the chapter's kernel: a mistake shown
     * meanwhile is captured again below, on the GPU now that it is found. */
    if (bg->gen == s->gen && s->kernel == SV_KERNEL_CORRECT) {
        if (bg->src.backend == SV_BACKEND_CUDA) {
            sv_app_adopt(s, bg->trace);
            bg->trace = NULL;
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
        } else {
            snprintf(msg, sizeof msg, "GPU capture failed: %.200s", err);
        }
        sv_app_set_status(s, msg);
    }
}

/* The probe's result, once (app_capture.c runs it): the GPU's trace shown
 * when it came in time, else the reason said; its trace freed if not taken. */
void sv_app_bg_finish(sv_app_state *s)
{
    sv_app_probe r;
    if (!sv_app_bg_take(s, &r))
        return;
    probe_take(s, &r);
    sv_trace_destroy(r.trace);
}
