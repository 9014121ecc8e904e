/* The plain sequential scan the trace and the tests compare everything with. */
#include "reference.h"

void sv_reference_scan(sv_op op, sv_type type, sv_scan scan,
                       const sv_value *in, sv_value *out, size_t n)
{
    if (n == 0)
        return;
    if (scan == SV_SCAN_EXCLUSIVE) {
        /* out[i] = in[0] op ... op in[i-1]; the identity only stands in
         * front, it is never combined (0 + -0.0f would lose the sign). */
        out[0] = sv_op_identity(op, type);
        if (n > 1)
            out[1] = in[0];
        for (size_t i = 2; i < n; i++)
            out[i] = sv_op_apply(op, type, out[i - 1], in[i - 1], NULL);
        return;
    }
    out[0] = in[0];
    for (size_t i = 1; i < n; i++)
        out[i] = sv_op_apply(op, type, out[i - 1], in[i], NULL);
}
