/* Private to capture.c: the mistakes lab's side of a capture (the runs on
 * the GPU or in the emulator, their summary, racecheck, the record). */
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

/* How long the racecheck run (compute-sanitizer and the kernel under it) may
 * take before it is killed; the trace then says so and has no hazards. */
#define SV_RACECHECK_TIMEOUT_S 300

/* Runs argv (argv[0] a path) with stdout and stderr into one NUL-terminated
 * buffer of at most limit bytes (*len; the rest is read and dropped);
 * *status gets the wait status. Past timeout_ms the child's whole process
 * group is killed and *timed_out set (the output so far is returned).
 * NULL with err filled when it cannot start; the caller frees the result. */
char *sv_capture_run_output(char *const argv[], size_t limit, int timeout_ms, size_t *len,
                            int *status, bool *timed_out, char *err, size_t errlen);

#endif
