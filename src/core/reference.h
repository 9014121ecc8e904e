/* The sequential scan, one element after another: the reference every
 * backend is compared with (the float32 difference in sv_trace_finish, the
 * tests, scanviz-trace --verify). Independent of the trace and its backends. */
#ifndef SV_REFERENCE_H
#define SV_REFERENCE_H

#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[0..n) = the scan of in[0..n) (n - 1 operations). */
void sv_reference_scan(sv_op op, sv_type type, sv_scan scan,
                       const sv_value *in, sv_value *out, size_t n);

#ifdef __cplusplus
}
#endif

#endif
