/* Operators and types: names, identities, sv_op_apply() (uint32 wrapping,
 * the float rules for signed zeros and NaN) and the shortest float text. */
#include <math.h>
#include <stdlib.h>

#include "../expect.h"
#include "op.h"

static sv_value I(int32_t v) { sv_value x; x.i = v; return x; }
static sv_value F(float v) { sv_value x; x.f = v; return x; }

int main(void)
{
    char err[256], buf[48];
    /* Names round-trip. */
    for (int op = 0; op < SV_OP_COUNT; op++) {
        sv_op back;
        CHECK(sv_op_from_name(sv_op_name((sv_op)op), &back) && back == (sv_op)op);
    }
    for (int ty = 0; ty < SV_TYPE_COUNT; ty++) {
        sv_type back;
        CHECK(sv_type_from_name(sv_type_name((sv_type)ty), &back) && back == (sv_type)ty);
    }
    sv_op op;
    CHECK(!sv_op_from_name("div", &op));
    CHECK(sv_op_name(SV_OP_COUNT) == NULL);
    CHECK_STR(sv_scan_name(SV_SCAN_EXCLUSIVE), "exclusive");
    CHECK_STR(sv_op_symbol(SV_OP_SUM), "+");

    /* xor is int32 only. */
    CHECK(sv_op_valid(SV_OP_XOR, SV_TYPE_INT32, err, sizeof err));
    CHECK(!sv_op_valid(SV_OP_XOR, SV_TYPE_FLOAT32, err, sizeof err));
    CHECK_STR(err, "xor is defined on int32 only, not on float32");

    /* Identities. */
    CHECK_INT(sv_op_identity(SV_OP_SUM, SV_TYPE_INT32).i, 0);
    CHECK_INT(sv_op_identity(SV_OP_MAX, SV_TYPE_INT32).i, INT32_MIN);
    CHECK_INT(sv_op_identity(SV_OP_MIN, SV_TYPE_INT32).i, INT32_MAX);
    CHECK_INT(sv_op_identity(SV_OP_PRODUCT, SV_TYPE_INT32).i, 1);
    CHECK_INT(sv_op_identity(SV_OP_XOR, SV_TYPE_INT32).i, 0);
    CHECK(sv_op_identity(SV_OP_MAX, SV_TYPE_FLOAT32).f == -INFINITY);
    CHECK(sv_op_identity(SV_OP_MIN, SV_TYPE_FLOAT32).f == INFINITY);
    CHECK(sv_op_identity(SV_OP_PRODUCT, SV_TYPE_FLOAT32).f == 1.0f);
    CHECK_INT(sv_op_identity(SV_OP_SUM, SV_TYPE_FLOAT32).bits, 0); /* +0 */

    /* int32 arithmetic wraps like uint32, and says so. */
    bool wrapped = false;
    CHECK_INT(sv_op_apply(SV_OP_SUM, SV_TYPE_INT32, I(INT32_MAX), I(1), &wrapped).i, INT32_MIN);
    CHECK(wrapped);
    CHECK_INT(sv_op_apply(SV_OP_SUM, SV_TYPE_INT32, I(-5), I(3), &wrapped).i, -2);
    CHECK(!wrapped);
    CHECK_INT(sv_op_apply(SV_OP_PRODUCT, SV_TYPE_INT32, I(INT32_MIN), I(-1), &wrapped).i, INT32_MIN);
    CHECK(wrapped);
    CHECK_INT(sv_op_apply(SV_OP_PRODUCT, SV_TYPE_INT32, I(-46340), I(46340), &wrapped).i, -2147395600);
    CHECK(!wrapped);
    CHECK_INT(sv_op_apply(SV_OP_XOR, SV_TYPE_INT32, I(12), I(10), NULL).i, 6);
    CHECK_INT(sv_op_apply(SV_OP_MAX, SV_TYPE_INT32, I(-3), I(2), NULL).i, 2);
    CHECK_INT(sv_op_apply(SV_OP_MIN, SV_TYPE_INT32, I(-3), I(2), NULL).i, -3);

    /* float32: max/min order signed zeros whatever the operand order, treat
     * NaN as missing, and every NaN result has the canonical bits. */
    CHECK_INT(sv_op_apply(SV_OP_MAX, SV_TYPE_FLOAT32, F(-0.0f), F(0.0f), NULL).bits, 0x00000000);
    CHECK_INT(sv_op_apply(SV_OP_MAX, SV_TYPE_FLOAT32, F(0.0f), F(-0.0f), NULL).bits, 0x00000000);
    CHECK_INT(sv_op_apply(SV_OP_MIN, SV_TYPE_FLOAT32, F(-0.0f), F(0.0f), NULL).bits, 0x80000000);
    CHECK_INT(sv_op_apply(SV_OP_MIN, SV_TYPE_FLOAT32, F(0.0f), F(-0.0f), NULL).bits, 0x80000000);
    CHECK(sv_op_apply(SV_OP_MAX, SV_TYPE_FLOAT32, F(NAN), F(2.5f), NULL).f == 2.5f);
    CHECK(sv_op_apply(SV_OP_MIN, SV_TYPE_FLOAT32, F(-1.0f), F(NAN), NULL).f == -1.0f);
    CHECK_INT(sv_op_apply(SV_OP_SUM, SV_TYPE_FLOAT32, F(INFINITY), F(-INFINITY), NULL).bits, SV_CANONICAL_NAN_BITS);
    CHECK_INT(sv_op_apply(SV_OP_PRODUCT, SV_TYPE_FLOAT32, F(0.0f), F(INFINITY), NULL).bits, SV_CANONICAL_NAN_BITS);
    sv_value qnan = {.bits = 0xffc00001u};
    CHECK_INT(sv_op_apply(SV_OP_SUM, SV_TYPE_FLOAT32, qnan, F(1.0f), NULL).bits, SV_CANONICAL_NAN_BITS);
    CHECK(sv_op_apply(SV_OP_SUM, SV_TYPE_FLOAT32, F(0.1f), F(0.2f), &wrapped).f == 0.1f + 0.2f);
    CHECK(!wrapped);
    CHECK(sv_op_apply(SV_OP_SUM, SV_TYPE_FLOAT32, F(3e38f), F(3e38f), NULL).f == INFINITY);

    /* Text: ints as %d, floats with the fewest digits that read back. */
    CHECK_STR(sv_value_format(SV_TYPE_INT32, I(-12), buf, sizeof buf), "-12");
    CHECK_STR(sv_value_format(SV_TYPE_INT32, I(INT32_MIN), buf, sizeof buf), "-2147483648");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(0.5f), buf, sizeof buf), "0.5");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(0.1f), buf, sizeof buf), "0.1");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(1e-30f), buf, sizeof buf), "1e-30");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(-0.0f), buf, sizeof buf), "-0");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(16777216.0f), buf, sizeof buf), "16777216");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(3.4028235e38f), buf, sizeof buf), "3.4028235e+38");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(0.1f + 0.2f), buf, sizeof buf), "0.3");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(INFINITY), buf, sizeof buf), "inf");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(-INFINITY), buf, sizeof buf), "-inf");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(NAN), buf, sizeof buf), "nan");
    /* One significant digit, positional as the chapter's tables write it,
     * not %g's "1e+01" (issue 28); exponent form past 1e9 and below 1e-4. */
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(10.0f), buf, sizeof buf), "10");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(40.0f), buf, sizeof buf), "40");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(100.0f), buf, sizeof buf), "100");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(-300.0f), buf, sizeof buf), "-300");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(16777220.0f), buf, sizeof buf), "16777220");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(3e9f), buf, sizeof buf), "3e+09");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(1e-5f), buf, sizeof buf), "1e-05");
    CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, F(0.0001f), buf, sizeof buf), "0.0001");
    /* Every one of many floats reads back bit-exactly, directly and via double. */
    uint32_t bits = 0x12345678u;
    int bad = 0;
    for (int k = 0; k < 200000; k++) {
        bits = bits * 1664525u + 1013904223u;
        sv_value v = {.bits = bits};
        if (isnan(v.f) || isinf(v.f))
            continue;
        sv_value_format(SV_TYPE_FLOAT32, v, buf, sizeof buf);
        sv_value a = F(strtof(buf, NULL)), b = F((float)strtod(buf, NULL));
        if (a.bits != v.bits || b.bits != v.bits)
            bad++;
    }
    CHECK_INT(bad, 0);
    return check_status();
}
