/* Inside the runtime: what the process wrapper (process.c, owned by the CPU
 * side) calls in the child, one function per backend, and what both share.
 * Not for callers outside src/runtime/: they use runtime.h. */
#ifndef SV_RUNTIME_BACKEND_H
#define SV_RUNTIME_BACKEND_H

#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called in the child process (process.c): runs req on one backend and fills t's arrays, steps, output, hazards,
 * switches, runs/wrong_runs/shown_run and failure (t's kernel, file, entry,
 * source, op, type, scan, n, input, backend are already set). A kernel that
 * fails (compile error, out of range, deadlock) is a filled t->failure and a
 * true return; false only when the runtime itself failed (err filled). */
bool sv_rt_cpu_run(const sv_runtime_request *req, sv_ktrace *t, char *err, size_t errlen);
bool sv_rt_gpu_run(const sv_runtime_request *req, sv_ktrace *t, char *err, size_t errlen);
/* Whether the GPU backend can run here (sv_runtime_available's answer);
 * called in the caller's process. A build without the GPU backend's file
 * links backend_none.c, which says so. */
bool sv_rt_gpu_available(char *why, size_t whylen);

/* Called by a backend in the child once it has compiled the kernel and is
 * about to run it: the time limit (req->time_limit_ms, from now; the child
 * then stops itself with SIGALRM and returns what it has, failure TIME) and
 * the memory limit (RLIMIT_AS at the child's current size plus
 * req->memory_mb; left out under AddressSanitizer, whose shadow memory
 * needs the address space, and by a backend, such as CUDA's, that maps
 * large areas it never uses: then only the parent's watch of the child's
 * resident size applies). The compile before it has its own, longer limit
 * (SV_RT_COMPILE_LIMIT_MS). False with err when a limit cannot be set. */
#define SV_RT_COMPILE_LIMIT_MS 60000
bool sv_rt_limits_apply(const sv_runtime_request *req, char *err, size_t errlen);
bool sv_rt_limits_apply_time(const sv_runtime_request *req, char *err, size_t errlen);

/* Where the kernel was when a signal stopped the child (a crash, or the
 * time limit): a backend registers a function that fills f's thread, line
 * and step. Called from a signal handler: async-signal-safe only. fault_pc
 * is the faulting instruction (NULL for the time limit). */
typedef void (*sv_rt_where_fn)(sv_kfailure *f, void *fault_pc);
void sv_rt_set_where(sv_rt_where_fn fn);

/* In the child, first (process.c): the trace the signal handler fills and
 * sends over fd when a signal stops the child, the progress pipe pfd, and
 * the handlers installed (child.c). */
void sv_rt_child_enter(sv_ktrace *t, int fd, int pfd);

/* In the child: sends t now (each_run: one run's trace, more to follow). */
bool sv_rt_child_send(const sv_ktrace *t);

/* In the child: done of runs runs have completed (the parent calls the
 * request's progress function). Cheap; never blocks. */
void sv_rt_progress(uint32_t done, uint32_t runs);

#ifdef __cplusplus
}
#endif

#endif
