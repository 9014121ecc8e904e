/* The CPU emulator of the chapter's kernel: one of capture's two backends. */
#ifndef SV_EMULATE_H
#define SV_EMULATE_H

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the kernel's rounds in lockstep on t->input, filling every round's
 * buffers and written flags exactly as the GPU does (the cells of buf[1] that
 * no round has written stay unwritten). Like the CUDA backend it fills only
 * buffers: the caller (capture, or a test) then calls sv_trace_finish(). */
bool sv_emulate(sv_trace *t, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
