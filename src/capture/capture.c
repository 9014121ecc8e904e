/* The one place that decides GPU or CPU, and says why: probes CUDA once
 * per process, runs the chosen backend (the kernel runtime's run of the
 * kernel, every kernel alike: NVRTC on the GPU, fibers on the CPU), falls
 * back to the CPU where the request allows, finishes every trace and
 * checks it against the chapter's invariant before handing it out (a broken
 * kernel fails here), and says where it came from (sv_capture_source). */
#include "capture.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "sv_config.h"
#include "../core/lab.h"
#include "../core/names.h"
#include "lab_capture.h"
#include "../core/error.h"
#include "../core/ktrace.h"
#include "../runtime/runtime.h"

bool sv_backend_choice_from_name(const char *name, sv_backend_choice *out)
{
    static const struct { const char *name; sv_backend_choice c; } names[] = {
        { "auto", SV_CHOOSE_AUTO }, { "cuda", SV_CHOOSE_CUDA }, { "cpu", SV_CHOOSE_CPU },
    };
    int k = SV_NAME_INDEX(name, names, sizeof names / sizeof names[0]);
    if (k >= 0 && out)
        *out = names[k].c;
    return k >= 0;
}

/* ---- The probe, once per process -------------------------------------- */

/* Written once under pthread_once, read-only afterwards. */
static struct {
    bool ok;
    char device[256];
    size_t max_n;
    char why[256];
} probe;
static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static atomic_bool probe_done; /* set when probe_run has finished */

static void probe_run(void)
{
    /* The kernel runtime's probe (the driver and NVRTC, loaded at run time):
     * a build without nvcc captures on a GPU as well. */
    sv_runtime_gpu_device dev;
    probe.ok = sv_runtime_gpu_probe(&dev, probe.why, sizeof probe.why);
    if (probe.ok) {
        snprintf(probe.device, sizeof probe.device, "%s", dev.name);
        probe.max_n = dev.max_threads_per_block < SV_MAX_N ? dev.max_threads_per_block
                                                           : SV_MAX_N;
        if (probe.max_n == 0) {
            probe.ok = false;
            snprintf(probe.why, sizeof probe.why, "%.200s reports no threads per block", dev.name);
        }
    } else if (probe.why[0] == '\0') {
        snprintf(probe.why, sizeof probe.why, "CUDA unavailable");
    }
    atomic_store(&probe_done, true);
}

bool sv_capture_cuda_available(char *device, size_t devlen, size_t *max_n,
                               char *why, size_t whylen)
{
    pthread_once(&probe_once, probe_run);
    if (!probe.ok) {
        sv_errorf(why, whylen, "%s", probe.why);
        return false;
    }
    if (device && devlen)
        snprintf(device, devlen, "%s", probe.device);
    if (max_n)
        *max_n = probe.max_n;
    sv_errorf(why, whylen, "%s", "");
    return true;
}

/* ---- Capturing -------------------------------------------------------- */

bool sv_capture_reason_is_no_gpu(const char *reason)
{
    /* What the probe (sv_runtime_gpu_probe) says without a driver or a
     * device. */
    return reason && (strncmp(reason, "no CUDA driver", 14) == 0 ||
                      strncmp(reason, "no CUDA device", 14) == 0 ||
                      strncmp(reason, "no NVIDIA GPU", 13) == 0);
}

static void source_set(sv_capture_source *src, sv_backend backend, const char *device,
                       sv_capture_fallback fallback, const char *reason)
{
    memset(src, 0, sizeof *src);
    src->backend = backend;
    src->fallback = fallback;
    snprintf(src->device, sizeof src->device, "%s", device ? device : "");
    snprintf(src->reason, sizeof src->reason, "%s", reason ? reason : "");
    if (backend == SV_BACKEND_CUDA)
        snprintf(src->label, sizeof src->label, "CUDA · %.200s",
                 device && device[0] ? device : "GPU");
    else
        snprintf(src->label, sizeof src->label, "CPU emulator");
}

void sv_capture_source_of_trace(const sv_trace *t, sv_capture_source *src)
{
    source_set(src, t->backend, t->backend == SV_BACKEND_CUDA ? t->device : NULL,
               SV_FALLBACK_NONE, NULL);
}

void sv_capture_source_line(const sv_capture_source *src, char *buf, size_t len)
{
    if (!buf || len == 0)
        return;
    if (src->reason[0])
        snprintf(buf, len, "%s: %s", src->label, src->reason);
    else
        snprintf(buf, len, "%s", src->label);
}

/* The chapter's kernel on either backend: the kernel runtime's run of the
 * shipped kernels/hillis_steele.cu (the file students read, nothing
 * instrumented), on the GPU (NVRTC) or on the CPU (its build made ahead of
 * time, one fiber per thread under the lockstep schedule: no compiler
 * needed), its kernel trace read as the chapter's rounds. The same runtime
 * runs every mistake, Blelloch and the students' files. NULL with err filled
 * when the run fails or does not read as the chapter's rounds. */
static sv_trace *runtime_chapter(const sv_capture_request *req, sv_backend backend, char *err,
                                 size_t errlen)
{
    char msg[512], why[512];
    const bool gpu = backend == SV_BACKEND_CUDA;
    const char *failed = gpu ? "CUDA kernel failed" : "the CPU runtime failed";
    const sv_runtime_request rq = {
        .builtin = sv_kernel_get(SV_KERNEL_CORRECT)->file, .op = req->op, .type = req->type,
        .scan = req->scan, .input = req->input, .n = req->n,
        .backend = gpu ? SV_RUNTIME_GPU : SV_RUNTIME_CPU,
        .schedule = {SV_SCHEDULE_LOCKSTEP, 1}, .runs = 1};
    sv_trace *t = NULL;
    sv_ktrace *kt = sv_runtime_run(&rq, msg, sizeof msg);
    if (!kt) {
        snprintf(err, errlen, "%s: %s", failed, msg);
        return NULL;
    }
    if (kt->failure.kind != SV_KFAIL_NONE) {
        snprintf(err, errlen, "%s: %s", failed, sv_ktrace_failure_words(kt, why, sizeof why));
        goto done;
    }
    if (!sv_ktrace_analyze(kt, msg, sizeof msg) ||
        !(t = sv_ktrace_chapter_trace(kt, msg, sizeof msg))) {
        snprintf(err, errlen, "the %s trace is not the chapter's rounds: %s",
                 gpu ? "CUDA" : "CPU runtime's", msg);
        goto done;
    }
    /* The kernel's own write-back must agree with its last round: the
     * trace's output is derived from the buffers, so check it here. */
    for (size_t i = 0; i < t->n; i++)
        if (!kt->output_written[i] || kt->output[i].bits != t->output[i].bits) {
            snprintf(err, errlen, "kernel output[%zu] (bits 0x%08x%s) differs from its last "
                     "round (bits 0x%08x)", i, (unsigned)kt->output[i].bits,
                     kt->output_written[i] ? "" : ", never written", (unsigned)t->output[i].bits);
            sv_trace_destroy(t);
            t = NULL;
            break;
        }
    if (t) { /* the rounds keep the run they are a reading of */
        t->run = kt;
        kt = NULL;
    }
done:
    sv_ktrace_destroy(kt);
    return t;
}

/* Runs one backend into a new trace, which it fills; NULL with err filled
 * when the backend fails (*bad set when the request itself was wrong). */
static sv_trace *run_backend(const sv_capture_request *req, sv_backend backend, bool *bad,
                             char *err, size_t errlen)
{
    char msg[512];
    *bad = false;
    if (!sv_capture_is_lab(req))
        return runtime_chapter(req, backend, err, errlen);
    sv_trace *t = sv_trace_create(req->op, req->type, req->scan, req->input, req->n, backend,
                                  backend == SV_BACKEND_CUDA ? probe.device : NULL, err,
                                  errlen);
    if (!t) {
        *bad = true;
        return NULL;
    }
    /* The mistakes lab: runs, summary, record (lab_capture.c). */
    if (!sv_capture_lab_fill(t, req, backend, bad, msg, sizeof msg)) {
        snprintf(err, errlen, "%s", msg);
        sv_trace_destroy(t);
        return NULL;
    }
    return t;
}

/* Finishes and checks a trace from either backend: every trace of the
 * chapter's kernel must hold its invariant (a mistake of the lab is shown
 * breaking it). Destroys it and returns false on failure. */
static bool finish_checked(sv_trace *t, char *err, size_t errlen)
{
    char msg[512];
    if (!sv_trace_finish(t, err, errlen)) {
        sv_trace_destroy(t);
        return false;
    }
    if ((!t->lab || t->lab->kernel == SV_KERNEL_CORRECT) && !sv_trace_check(t, msg, sizeof msg)) {
        snprintf(err, errlen, "the %s trace breaks the invariant: %s",
                 t->backend == SV_BACKEND_CUDA ? "CUDA" : "emulator", msg);
        sv_trace_destroy(t);
        return false;
    }
    return true;
}

static bool probe_finished(void)
{
    return atomic_load(&probe_done);
}

sv_capture_status sv_capture(const sv_capture_request *req, sv_trace **out,
                             sv_capture_source *src, char *err, size_t errlen)
{
    char why[256] = "";
    size_t max_n = 0;
    sv_capture_source unused;
    if (!src)
        src = &unused;

    *out = NULL;
    if (!sv_op_valid(req->op, req->type, err, errlen))
        return SV_CAPTURE_BAD_INPUT;
    if (req->n == 0 || req->n > SV_MAX_N) {
        snprintf(err, errlen,
                 "n = %zu: a single-block Hillis-Steele scan takes 1 to %d elements", req->n,
                 SV_MAX_N);
        return SV_CAPTURE_BAD_INPUT;
    }
    if ((unsigned)req->kernel >= SV_KERNEL_COUNT) {
        snprintf(err, errlen, "kernel %d: not a shipped kernel of the lab", (int)req->kernel);
        return SV_CAPTURE_BAD_INPUT;
    }
    if (sv_capture_is_lab(req) && !sv_capture_lab_check(req, err, errlen))
        return SV_CAPTURE_BAD_INPUT;

    /* The decision: the GPU when asked for or preferred and usable, else the
     * emulator with the reason in words. */
    sv_backend backend = SV_BACKEND_CPU;
    sv_capture_fallback fallback = SV_FALLBACK_NONE;
    if (req->choice == SV_CHOOSE_CPU) {
        snprintf(why, sizeof why, "--backend cpu");
    } else if (req->has_schedule && req->choice == SV_CHOOSE_AUTO) {
        char name[48];
        snprintf(why, sizeof why, "--schedule %.100s (a schedule is the emulator's)",
                 sv_schedule_format(req->schedule, name, sizeof name));
    } else if (req->no_wait && !probe_finished()) {
        fallback = SV_FALLBACK_PROBING;
        snprintf(why, sizeof why, "looking for a CUDA device…");
    } else if (sv_capture_cuda_available(NULL, 0, &max_n, why, sizeof why)) {
        if (req->n > max_n) {
            /* Only on GPUs whose block limit is below SV_MAX_N: the limit
             * is the device's, so auto refuses too rather than emulate a
             * block this GPU cannot run. */
            snprintf(err, errlen,
                     "n = %zu is above this GPU's block limit (%zu threads): the kernel scans "
                     "one block (--backend cpu emulates blocks of up to %d)", req->n, max_n,
                     SV_MAX_N);
            return SV_CAPTURE_BAD_INPUT;
        }
        backend = SV_BACKEND_CUDA;
    } else if (req->choice == SV_CHOOSE_CUDA && !req->fallback) {
        snprintf(err, errlen, "CUDA backend unavailable: %s", why);
        return SV_CAPTURE_UNAVAILABLE;
    } else {
        fallback = SV_FALLBACK_NO_GPU;
    }

    bool bad;
    sv_trace *t = run_backend(req, backend, &bad, err, errlen);
    if (t && !finish_checked(t, err, errlen))
        t = NULL;
    if (!t && backend == SV_BACKEND_CUDA && !bad && req->fallback) {
        /* A window keeps working on the emulator when the GPU fails. */
        snprintf(why, sizeof why, "GPU capture failed: %.200s", err);
        backend = SV_BACKEND_CPU;
        fallback = SV_FALLBACK_GPU_FAILED;
        t = run_backend(req, backend, &bad, err, errlen);
        if (t && !finish_checked(t, err, errlen))
            t = NULL;
    }
    if (!t)
        return bad ? SV_CAPTURE_BAD_INPUT : SV_CAPTURE_FAILED;

    source_set(src, backend, backend == SV_BACKEND_CUDA ? probe.device : NULL, fallback,
               backend == SV_BACKEND_CPU ? why : NULL);
    *out = t;
    return SV_CAPTURE_OK;
}
