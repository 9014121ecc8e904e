/* A kernel's run for the app and the CLI (issue 29: one path to a trace).
 * Every run of a kernel file, of a shipped kernel beyond the chapter
 * (Blelloch) and of an exercise's check comes here: one policy picks the
 * backend, the runtime runs it in its child, and the trace comes back read
 * (sv_ktrace_analyze). The chapter's kernel and the mistakes lab are
 * capture.h's, which read their traces as the chapter's rounds. */
#ifndef SV_KERNEL_RUN_H
#define SV_KERNEL_RUN_H

#include "capture.h"
#include "../runtime/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_krun_request {
    sv_runtime_request run;   /* what runs, on what, how: all but .backend */
    /* The backend: SV_CHOOSE_CPU the CPU runtime; SV_CHOOSE_CUDA the GPU
     * runtime or SV_KRUN_UNAVAILABLE; SV_CHOOSE_AUTO the GPU where the
     * runtime can use one, but a shipped kernel (run.builtin) stays on the
     * CPU runtime, whose trace has the reads and hazards the GPU cannot see. */
    sv_backend_choice choice;
    /* > 0: the trace is cut to about this many bytes of trace file before it
     * is read (sv_ktrace_trim). */
    size_t trim;
} sv_krun_request;

typedef enum sv_krun_status {
    SV_KRUN_OK,          /* the trace, read; a kernel's own failure (it does not
                            compile, crashes, hangs) is in it */
    SV_KRUN_UNAVAILABLE, /* SV_CHOOSE_CUDA and no GPU runtime: err says why */
    SV_KRUN_NOT_RUN,     /* the runtime could not run it: err */
    SV_KRUN_NOT_READ     /* it ran, and its trace could not be read: err */
} sv_krun_status;

/* Runs req. Returns the read trace (SV_KRUN_OK) or NULL with err and
 * *status saying why. With req->trim, *dropped steps were left out after
 * the *kept. status, dropped and kept may each be NULL. */
sv_ktrace *sv_capture_kernel(const sv_krun_request *req, sv_krun_status *status,
                             size_t *dropped, size_t *kept, char *err, size_t errlen);

/* The most values an input may have for the kernel file that args name
 * with --kernel-file FILE (or --kernel-file=FILE), read before the options
 * so that --random's bound is known: SV_MAX_N_BLOCKS for a regular file
 * whose host function launches the kernels (issue 31), else SV_MAX_N (no
 * such option, a single block's file, a pipe: read once, by the run). */
size_t sv_krun_args_max_n(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
