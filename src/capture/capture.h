/* The one place that decides GPU or emulator, and says why. scanviz-trace
 * and the visualizer call this and never probe CUDA themselves (scanviz-bench,
 * which needs a GPU and has no emulator, calls sv_cuda_probe directly). */
#ifndef SV_CAPTURE_H
#define SV_CAPTURE_H

#include "../core/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_backend_choice {
    SV_CHOOSE_AUTO, /* the GPU when one is usable, else the emulator */
    SV_CHOOSE_CUDA, /* the GPU or fail */
    SV_CHOOSE_CPU   /* the emulator */
} sv_backend_choice;

bool sv_backend_choice_from_name(const char *name, sv_backend_choice *out);

/* Whether this build has the CUDA backend and a usable device. On true,
 * device (if not NULL) gets the GPU's name and *max_n the largest n it
 * takes (min(SV_MAX_N, maxThreadsPerBlock)). On false, why says why there is
 * none: "built without CUDA", "no CUDA driver: ...", "no CUDA device", or the
 * CUDA error string. Probes once and caches the answer; thread-safe. */
bool sv_capture_cuda_available(char *device, size_t devlen, size_t *max_n,
                               char *why, size_t whylen);

typedef enum sv_capture_status {
    SV_CAPTURE_OK,
    SV_CAPTURE_BAD_INPUT,   /* n out of range, op not defined on type */
    SV_CAPTURE_UNAVAILABLE, /* SV_CHOOSE_CUDA and no usable GPU: err says why */
    SV_CAPTURE_FAILED       /* the backend failed while running */
} sv_capture_status;

/* Captures the finished trace of a scan of input[0..n). With SV_CHOOSE_AUTO
 * and no GPU, falls back to the emulator and puts the reason in note (e.g.
 * "CPU emulator: no CUDA device"); note is "" when nothing needs saying.
 * On success *out is the trace (the caller destroys it). */
sv_capture_status sv_capture(sv_op op, sv_type type, sv_scan scan,
                             const sv_value *input, size_t n,
                             sv_backend_choice choice, sv_trace **out,
                             char *note, size_t notelen,
                             char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
