/* Private to capture.c: the mistakes lab's side of a capture (the runs
 * through the kernel runtime, on the GPU or the CPU, their summary,
 * racecheck, the record). */
#ifndef SV_LAB_CAPTURE_H
#define SV_LAB_CAPTURE_H

#include "capture.h"

/* Checks the lab fields of req (schedule, runs, their combination with the
 * backend choice). False with err filled. */
bool sv_capture_lab_check(const sv_capture_request *req, char *err, size_t errlen);

/* Runs req's kernel on backend, fills t's buffers with the shown run and
 * attaches the record (t->lab). False with err filled (*bad set when the
 * request itself was wrong). */
bool sv_capture_lab_fill(sv_trace *t, const sv_capture_request *req, sv_backend backend,
                         bool *bad, char *err, size_t errlen);

#endif
