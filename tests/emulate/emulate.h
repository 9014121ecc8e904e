/* The bit-exact CPU emulator of the chapter's kernel: the tests' independent
 * reference (issue 29). No program links it: every capture is a kernel
 * runtime's run of kernels/hillis_steele.cu; the tests hold those runs, and
 * what the model derives from them, against this file's own rounds. */
#ifndef SV_EMULATE_H
#define SV_EMULATE_H

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the kernel's rounds in lockstep on t->input, filling every round's
 * buffers and written flags exactly as the kernel does (the cells of buf[1]
 * that no round has written stay unwritten). It fills only buffers: the
 * test then calls sv_trace_finish(). */
bool sv_emulate(sv_trace *t, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
