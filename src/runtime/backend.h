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
struct sv_rt_prep;
/* The CPU backend: a shipped kernel from its build made ahead of time, else
 * the kernel file the parent compiled and checked, mapped from so_fd (a
 * sealed memory file) with prep's line table, entry and extern array. */
bool sv_rt_cpu_run(const sv_runtime_request *req, const struct sv_rt_prep *prep, int so_fd,
                   sv_ktrace *t, char *err, size_t errlen);
bool sv_rt_gpu_run(const sv_runtime_request *req, sv_ktrace *t, char *err, size_t errlen);
/* Whether the GPU backend can run here (sv_runtime_available's answer);
 * called in the caller's process. A build without the GPU backend's file
 * links backend_none.c, which says so. */
bool sv_rt_gpu_available(char *why, size_t whylen);
/* sv_runtime_gpu_probe's answer (runtime.h), in the caller's process. */
bool sv_rt_gpu_probe(sv_runtime_gpu_device *d, char *why, size_t whylen);

/* Called by a backend in the child once the kernel is loaded and about to
 * run: the time limit (req->time_limit_ms, from now; the child then stops
 * itself with SIGALRM and returns what it has, failure TIME). The memory
 * and other limits are the backend's (cpu_exec.cc puts them up with the
 * rest of its walls, sandbox.h). False with err when it cannot be set. */
bool sv_rt_limits_apply_time(const sv_runtime_request *req, char *err, size_t errlen);

/* The parent's wait beyond the time limit for a GPU child: NVRTC's compile
 * and the context's creation come before the kernel runs. */
#define SV_RT_GPU_SETUP_MS 60000

/* Whether this process is the runtime's child (process.c sets it before
 * the backend runs). */
extern bool sv_rt_in_child;

/* For the runtime's own tests of its walls (tests/runtime/test_sandbox.c):
 * runs so (len bytes, a kernel object compiled from a kernel file, with its
 * line table lines, its entry's name and its extern array's, NULL none)
 * as req's kernel file on the CPU, behind every wall of a run, but without
 * the source scan and the object's check before it: what the child's walls
 * and the parent's reading do alone. As sv_runtime_run otherwise. */
sv_ktrace *sv_rt_run_object(const sv_runtime_request *req, const unsigned char *so, size_t len,
                            const char *lines, const char *entry, const char *dyn, char *err,
                            size_t errlen);

/* Where the kernel was when a signal stopped the child (a crash, a system
 * call refused, the time limit): a backend registers a function that fills
 * f's thread, line and step. Called from a signal handler:
 * async-signal-safe only. fault_pc is the interrupted instruction and sp
 * its stack pointer (NULL where unknown): a system call refused stops in
 * the C library, whose caller in the kernel is found on the stack. */
typedef void (*sv_rt_where_fn)(sv_kfailure *f, void *fault_pc, void *sp);
void sv_rt_set_where(sv_rt_where_fn fn);

/* In the child, first (process.c): the trace the signal handler fills and
 * sends over fd when a signal stops the child, the progress pipe pfd, and
 * the handlers installed (child.c). */
void sv_rt_child_enter(sv_ktrace *t, int fd, int pfd);

/* Ends the child at once with status (exit_group itself: not the C
 * library's or a sanitizer's _exit, which may run more, such as a leak
 * check that reads /proc behind the walls). */
__attribute__((noreturn)) void sv_rt_child_exit(int status);

/* In the child: sends t now (each_run: one run's trace, more to follow). */
bool sv_rt_child_send(const sv_ktrace *t);

/* In the child: done of runs runs have completed (the parent calls the
 * request's progress function). Cheap; never blocks. */
void sv_rt_progress(uint32_t done, uint32_t runs);
/* In the child: launch k (from 1) of a host function has ended blocks of its
 * grid (0 as it starts; the parent calls the request's launched function). */
void sv_rt_launch_progress(uint32_t k, uint32_t ended, uint32_t grid);

#ifdef __cplusplus
}
#endif

#endif
