/* int32 overflow: sums and products wrap exactly as uint32 arithmetic does,
 * and the trace flags the round and cell where an operation wrapped. */
#include <stdlib.h>

#include "../expect.h"
#include "emulate.h"
#include "trace.h"

static sv_trace *run(sv_op op, const int32_t *vals, size_t n)
{
    char err[256];
    sv_value in[16];
    for (size_t i = 0; i < n; i++)
        in[i].i = vals[i];
    sv_trace *t = sv_trace_create(op, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, n, SV_BACKEND_CPU, NULL, err, sizeof err);
    CHECK_MSG(t && sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err), "%s", err);
    CHECK_MSG(t && sv_trace_check(t, err, sizeof err), "a wrapping trace is still a valid trace: %s", err);
    return t;
}

int main(void)
{
    /* [INT32_MAX, 1, 7, 0, 4, 1, 6, 3]: which ops wrap, round by round:
     * round 1 (stride 1): cell 1 = MAX + 1 wraps.
     * round 2 (stride 2): cell 2 = pin[0] + pin[2] = MAX + 8 wraps; cell 3 =
     *   pin[1] + pin[3] = INT32_MIN + 7 does not.
     * round 3 (stride 4): cell 4 = pin[0] + pin[4] = MAX + 12 wraps; cells
     *   5..7 add small values to wrapped (negative) ones: no wrap. */
    static const int32_t in1[8] = {INT32_MAX, 1, 7, 0, 4, 1, 6, 3};
    sv_trace *t = run(SV_OP_SUM, in1, 8);
    if (!t)
        return check_status();
    static const bool want_wrap[4][8] = {
        {0},
        {0, 1, 0, 0, 0, 0, 0, 0},
        {0, 0, 1, 0, 0, 0, 0, 0},
        {0, 0, 0, 0, 1, 0, 0, 0},
    };
    for (int r = 1; r < 4; r++) {
        for (int i = 0; i < 8; i++)
            CHECK_MSG(t->rounds[r].overflow[i] == want_wrap[r][i], "round %d cell %d overflow=%d", r, i,
                      t->rounds[r].overflow[i]);
        CHECK_INT(t->rounds[r].overflow_count, 1);
    }
    CHECK_INT(t->overflow_count, 3);
    CHECK(t->rounds[0].overflow == NULL);
    /* The output is the sequential scan in uint32 arithmetic, reinterpreted. */
    uint32_t acc = 0;
    for (int i = 0; i < 8; i++) {
        acc += (uint32_t)in1[i];
        CHECK_INT(t->output[i].bits, acc);
    }
    CHECK_INT(t->output[1].i, INT32_MIN);
    CHECK_INT(t->rounds[1].buf[1][1].i, INT32_MIN);
    sv_trace_destroy(t);

    /* Negative overflow: INT32_MIN + -1 wraps to INT32_MAX. */
    static const int32_t in2[2] = {INT32_MIN, -1};
    t = run(SV_OP_SUM, in2, 2);
    CHECK(t && t->rounds[1].overflow[1] && t->overflow_count == 1);
    CHECK(t && t->output[1].i == INT32_MAX);
    sv_trace_destroy(t);

    /* No false alarms: large sums that stay in range. */
    static const int32_t in3[4] = {INT32_MAX, INT32_MIN, INT32_MAX, -1};
    t = run(SV_OP_SUM, in3, 4);
    CHECK(t && t->overflow_count == 0);
    sv_trace_destroy(t);

    /* Products: 65536 * 65536 = 2^32 wraps to 0 (round 1 cell 1); round 2
     * cell 2 = 65536 * (65536 * 3) = 3 * 2^32 wraps too; cell 3 = 0 * 15 does
     * not: 0 times anything stays 0 without wrapping. */
    static const int32_t in4[4] = {65536, 65536, 3, 5};
    t = run(SV_OP_PRODUCT, in4, 4);
    if (t) {
        CHECK(t->rounds[1].overflow[1]);
        CHECK(!t->rounds[1].overflow[2]);
        CHECK_INT(t->rounds[1].buf[1][1].i, 0);
        CHECK(t->rounds[2].overflow[2]);
        CHECK(!t->rounds[2].overflow[3]);
        CHECK_INT(t->overflow_count, 2);
        CHECK_INT(t->output[3].i, 0);
    }
    sv_trace_destroy(t);

    /* INT32_MIN * -1 wraps to INT32_MIN; 46341^2 = 2147488281 wraps negative. */
    static const int32_t in5[3] = {INT32_MIN, -1, 1};
    t = run(SV_OP_PRODUCT, in5, 3);
    CHECK(t && t->rounds[1].overflow[1] && t->output[1].i == INT32_MIN);
    sv_trace_destroy(t);
    static const int32_t in6[2] = {46341, 46341};
    t = run(SV_OP_PRODUCT, in6, 2);
    CHECK(t && t->rounds[1].overflow[1]);
    CHECK(t && t->output[1].bits == (uint32_t)46341u * 46341u);
    sv_trace_destroy(t);

    /* max, min and xor never wrap. */
    static const int32_t in7[4] = {INT32_MAX, INT32_MIN, -1, 1};
    for (int op = SV_OP_MAX; op <= SV_OP_XOR; op++) {
        if (op == SV_OP_PRODUCT)
            continue;
        t = run((sv_op)op, in7, 4);
        CHECK(t && t->overflow_count == 0);
        sv_trace_destroy(t);
    }
    return check_status();
}
