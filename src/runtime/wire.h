/* The kernel trace between the runtime's child process and its parent: what
 * a backend filled (entry, arrays, steps, output, hazards, failure, runs,
 * switches) as one byte stream over a pipe. The writer is
 * async-signal-safe (write(2) and a static buffer), so the child's signal
 * handlers send what completed before a crash or the time limit.
 *
 * The parent trusts nothing the child sends (issue 27, layer 6): a stream
 * starts and ends with the run's key (request.h), which the parent drew and
 * the kernel's code cannot read (the runtime stops a kernel at any access
 * outside its own memory); every count is checked against the bytes that
 * are left before anything is allocated for it, so a short stream cannot
 * ask for much memory; and the trace read is validated whole
 * (sv_ktrace_validate) before it is used. Inside src/runtime/ only. */
#ifndef SV_RUNTIME_WIRE_H
#define SV_RUNTIME_WIRE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/ktrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The run's key the child's streams carry (set once, from the request). */
void sv_rt_wire_set_key(const unsigned char *key);

/* Writes t's backend part to fd; false when the pipe broke. */
bool sv_rt_wire_send(int fd, const sv_ktrace *t);

/* Reads a stream of len bytes into t (from sv_ktrace_create: n, input set),
 * replacing what the backend fills. False with err when it is cut short or
 * broken (t then holds what was read before, valid to destroy). */
bool sv_rt_wire_recv(const unsigned char *data, size_t len, const unsigned char *key,
                     sv_ktrace *t, char *err, size_t errlen);

/* sv_rt_wire_recv of the first trace in data, for a stream of several
 * (each_run); *used gets its length. */
bool sv_rt_wire_recv_first(const unsigned char *data, size_t len, const unsigned char *key,
                           size_t *used, sv_ktrace *t, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
