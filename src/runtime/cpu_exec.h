/* The CPU runtime's run of a compiled kernel (cpu_exec.cc): the .so loaded,
 * one Boost.Context fiber per CUDA thread, every access seen through the
 * hooks of cuda_cpu.h, the schedules, the steps, the reads behind each
 * write and the hazards. Called in the child process. */
#ifndef SV_RUNTIME_CPU_EXEC_H
#define SV_RUNTIME_CPU_EXEC_H

#include "cpu_compile.h"
#include "runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the kernel in so_path (entry sv_rt_entry, sv_source_cpu_text's
 * launcher), starts the limits (sv_rt_limits_apply), runs it req->runs
 * times and fills t as backend.h says. dyn_name names
 * the extern __shared__ array (NULL: none declared). A kernel failure is a
 * filled t->failure and a true return. */
bool sv_rt_cpu_exec(const char *so_path, const sv_rt_lines *lines, const char *dyn_name,
                    const sv_runtime_request *req, sv_ktrace *t, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
