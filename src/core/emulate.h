/* The CPU emulator of the chapter's kernel and the sequential reference scan. */
#ifndef SV_EMULATE_H
#define SV_EMULATE_H

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the kernel's rounds in lockstep on t->input, filling every round's
 * buffers and written flags exactly as the GPU does (the cells of buf[1] that
 * no round has written stay unwritten), then calls sv_trace_finish(). */
bool sv_emulate(sv_trace *t, char *err, size_t errlen);

/* The sequential scan, one element after another (n-1 operations), into
 * out[0..n). Independent of the trace code: the tests' reference. */
void sv_reference_scan(sv_op op, sv_type type, sv_scan scan,
                       const sv_value *in, sv_value *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
