/* Inside the runtime: what the process wrapper (process.c, owned by the CPU
 * side) calls in the child, one function per backend, and what both share.
 * Not for callers outside src/runtime/: they use runtime.h. */
#ifndef SV_RUNTIME_BACKEND_H
#define SV_RUNTIME_BACKEND_H

#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called in the child process, after the time and memory limits are set:
 * runs req on one backend and fills t's arrays, steps, output, hazards,
 * switches, runs/wrong_runs/shown_run and failure (t's kernel, file, entry,
 * source, op, type, scan, n, input, backend are already set). A kernel that
 * fails (compile error, out of range, deadlock) is a filled t->failure and a
 * true return; false only when the runtime itself failed (err filled). */
bool sv_rt_cpu_run(const sv_runtime_request *req, sv_ktrace *t, char *err, size_t errlen);
bool sv_rt_gpu_run(const sv_runtime_request *req, sv_ktrace *t, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
