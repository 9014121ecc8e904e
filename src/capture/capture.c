/* The one place that decides GPU or emulator, and says why: probes CUDA once
 * per process, runs the chosen backend, and checks every trace against the
 * chapter's invariant before handing it out (a broken kernel fails here). */
#include "capture.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "sv_config.h"
#include "../core/emulate.h"
#include "../core/error.h"
#if SV_HAVE_CUDA
#include "../../kernels/scan_cuda.h"
#endif

bool sv_backend_choice_from_name(const char *name, sv_backend_choice *out)
{
    static const struct { const char *name; sv_backend_choice c; } names[] = {
        { "auto", SV_CHOOSE_AUTO }, { "cuda", SV_CHOOSE_CUDA }, { "cpu", SV_CHOOSE_CPU },
    };
    if (!name)
        return false;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (strcmp(name, names[k].name) == 0) {
            if (out)
                *out = names[k].c;
            return true;
        }
    }
    return false;
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

static void probe_run(void)
{
#if SV_HAVE_CUDA
    sv_cuda_device dev;
    probe.ok = sv_cuda_probe(&dev, probe.why, sizeof probe.why);
    if (probe.ok) {
        snprintf(probe.device, sizeof probe.device, "%s", dev.name);
        probe.max_n = dev.max_threads_per_block < SV_MAX_N
                          ? (size_t)(dev.max_threads_per_block > 0 ? dev.max_threads_per_block : 0)
                          : SV_MAX_N;
        if (probe.max_n == 0) {
            probe.ok = false;
            snprintf(probe.why, sizeof probe.why, "%.200s reports no threads per block", dev.name);
        }
    } else if (probe.why[0] == '\0') {
        snprintf(probe.why, sizeof probe.why, "CUDA unavailable");
    }
#else
    probe.ok = false;
    snprintf(probe.why, sizeof probe.why, "built without CUDA");
#endif
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

/* Runs the emulator into a new trace; *out set on success. */
static sv_capture_status capture_cpu(sv_op op, sv_type type, sv_scan scan,
                                     const sv_value *input, size_t n, sv_trace **out,
                                     char *err, size_t errlen)
{
    sv_trace *t = sv_trace_create(op, type, scan, input, n, SV_BACKEND_CPU, NULL, err, errlen);
    if (!t)
        return SV_CAPTURE_BAD_INPUT;
    if (!sv_emulate(t, err, errlen))
        goto fail_run;
    *out = t;
    return SV_CAPTURE_OK;

fail_run:
    sv_trace_destroy(t);
    return SV_CAPTURE_FAILED;
}

#if SV_HAVE_CUDA
static sv_capture_status capture_cuda(sv_op op, sv_type type, sv_scan scan,
                                      const sv_value *input, size_t n, sv_trace **out,
                                      char *err, size_t errlen)
{
    char msg[512];
    sv_trace *t = sv_trace_create(op, type, scan, input, n, SV_BACKEND_CUDA, probe.device,
                                  err, errlen);
    if (!t)
        return SV_CAPTURE_BAD_INPUT;
    if (!sv_cuda_trace(t, msg, sizeof msg)) {
        snprintf(err, errlen, "CUDA kernel failed: %s", msg);
        goto fail_run;
    }
    if (!sv_trace_finish(t, err, errlen))
        goto fail_run;
    *out = t;
    return SV_CAPTURE_OK;

fail_run:
    sv_trace_destroy(t);
    return SV_CAPTURE_FAILED;
}
#endif

sv_capture_status sv_capture(sv_op op, sv_type type, sv_scan scan,
                             const sv_value *input, size_t n,
                             sv_backend_choice choice, sv_trace **out,
                             char *note, size_t notelen,
                             char *err, size_t errlen)
{
    char why[256];
    size_t max_n = 0;
    sv_capture_status st;

    sv_errorf(note, notelen, "%s", "");
    *out = NULL;
    if (!sv_op_valid(op, type, err, errlen))
        return SV_CAPTURE_BAD_INPUT;
    if (n == 0 || n > SV_MAX_N) {
        snprintf(err, errlen,
                 "n = %zu: a single-block Hillis-Steele scan takes 1 to %d elements", n,
                 SV_MAX_N);
        return SV_CAPTURE_BAD_INPUT;
    }

    bool gpu = false;
    if (choice != SV_CHOOSE_CPU) {
        gpu = sv_capture_cuda_available(NULL, 0, &max_n, why, sizeof why);
        if (!gpu && choice == SV_CHOOSE_CUDA) {
            snprintf(err, errlen, "CUDA backend unavailable: %s", why);
            return SV_CAPTURE_UNAVAILABLE;
        }
        if (gpu && n > max_n) {
            /* Only on GPUs whose block limit is below SV_MAX_N: the limit
             * is the device's, so auto refuses too rather than emulate a
             * block this GPU cannot run. */
            snprintf(err, errlen,
                     "n = %zu is above this GPU's block limit (%zu threads): the kernel scans "
                     "one block (--backend cpu emulates blocks of up to %d)", n, max_n,
                     SV_MAX_N);
            return SV_CAPTURE_BAD_INPUT;
        }
        if (!gpu)
            sv_errorf(note, notelen, "CPU emulator: %s", why);
    }

#if SV_HAVE_CUDA
    if (gpu)
        st = capture_cuda(op, type, scan, input, n, out, err, errlen);
    else
#endif
        st = capture_cpu(op, type, scan, input, n, out, err, errlen);
    if (st != SV_CAPTURE_OK)
        return st;

    /* Every trace, from either backend, must hold the chapter's invariant. */
    char msg[512];
    if (!sv_trace_check(*out, msg, sizeof msg)) {
        snprintf(err, errlen, "the %s trace breaks the invariant: %s",
                 (*out)->backend == SV_BACKEND_CUDA ? "CUDA" : "emulator", msg);
        sv_trace_destroy(*out);
        *out = NULL;
        return SV_CAPTURE_FAILED;
    }
    return SV_CAPTURE_OK;
}
