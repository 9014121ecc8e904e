/* What gpu_run.c shows the runtime's own tests (tests/runtime/test_gpu_ptx.c)
 * of the text it compiles, so that the text and its PTX rewrite (gpu_ptx.h)
 * can be checked where there is NVRTC but no GPU. Inside src/runtime/. */
#ifndef SV_RUNTIME_GPU_RUN_H
#define SV_RUNTIME_GPU_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "source_scan.h"

/* The text NVRTC compiles for a scanned kernel file (s, checked for its
 * entry): the prelude, the run's scan (op, scan) with scan_ops.h, the
 * file, the launcher for type. malloc'd; NULL on allocation failure. */
char *sv_rt_gpu_text(const sv_source_scan *s, const char *src, const char *path, sv_type type,
                     sv_op op, sv_scan scan);

/* NVRTC (loaded with dlopen; no driver needed) on text for compute_<arch>:
 * *ptx its PTX, or on a compile error *ptx NULL and *log its messages
 * (both malloc'd, the caller frees them). False with err when NVRTC cannot
 * be loaded or failed itself. */
/* A host function's kernels as the GPU's replay compiles them, with the
 * tile timestamps stamped in (issue 31), through NVRTC (no GPU needed):
 * false with err where NVRTC cannot run or the PTX takes no timestamps;
 * *log NVRTC's messages where the stamped text does not compile (the
 * replay then runs the file as written, without tiles). */
bool sv_rt_gpu_plan_stamped(const sv_source_scan *s, const char *src, const char *path,
                            sv_op op, sv_scan scan, sv_type type, int arch, char **log,
                            char *err, size_t errlen);
bool sv_rt_gpu_nvrtc(const char *text, const char *path, int arch, char **ptx, char **log,
                     char *err, size_t errlen);

#endif
