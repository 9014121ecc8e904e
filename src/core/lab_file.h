/* The "lab" object of trace files, version 2 (docs/trace-format.md): the
 * mistakes lab's record of a trace, written and read next to the rounds. */
#ifndef SV_LAB_FILE_H
#define SV_LAB_FILE_H

#include <jansson.h>
#include <stdio.h>

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes t->lab as a JSON object (no trailing newline). */
void sv_lab_write_json(const sv_trace *t, FILE *f);

/* The kernel named by root's "lab.kernel", for the rounds' reader (one-buffer
 * kernels have pin == pout == 0): SV_KERNEL_CORRECT without a lab object.
 * False with path and err filled when the name is not a kernel. */
bool sv_lab_peek_kernel(const json_t *root, sv_kernel *out, char *path, size_t pathlen,
                        char *err, size_t errlen);

/* Reads the lab object j into a new record on t (whose buffers are read and
 * finished). False with path (e.g. "lab.divergent[3].values") and err
 * filled on the first field that is missing, mistyped or out of range. */
bool sv_lab_read_json(const json_t *j, sv_trace *t, char *path, size_t pathlen, char *err,
                      size_t errlen);

/* json_loads(text, flags, jerr), except that an unsigned integer above
 * INT64_MAX, which jansson cannot hold, comes back as the string of its
 * digits: the lab reader takes such a shake_seed (0 .. 2^64-1), and any
 * other field refuses it naming its path. */
json_t *sv_lab_json_loads(const char *text, size_t flags, json_error_t *jerr);

#ifdef __cplusplus
}
#endif

#endif
