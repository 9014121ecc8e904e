/* Operators and element types: names, identities, and sv_op_apply(), the one
 * definition of "a op b" shared by the emulator, the reference scan and the
 * checks (src/runtime/scan_ops.h mirrors it in every kernel file's run). */
#include "op.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "names.h"
static const char *const op_names[SV_OP_COUNT] = {"sum", "max", "min", "product", "xor"};
static const char *const op_symbols[SV_OP_COUNT] = {"+", "max", "min", "\xc3\x97", "^"};
static const char *const op_nouns[SV_OP_COUNT] = {"sum", "maximum", "minimum", "product", "xor"};
static const char *const type_names[SV_TYPE_COUNT] = {"int32", "float32"};
static const char *const scan_names[] = {"inclusive", "exclusive"};

/* The word of row i of a table of count words; fallback outside it. */
static const char *word(const char *const *words, unsigned count, int i, const char *fallback)
{
    return (unsigned)i < count ? words[i] : fallback;
}

const char *sv_op_name(sv_op op)
{
    return word(op_names, SV_OP_COUNT, (int)op, NULL);
}

const char *sv_op_symbol(sv_op op)
{
    return word(op_symbols, SV_OP_COUNT, (int)op, NULL);
}

const char *sv_op_noun(sv_op op)
{
    return word(op_nouns, SV_OP_COUNT, (int)op, "combination");
}

const char *sv_type_name(sv_type type)
{
    return word(type_names, SV_TYPE_COUNT, (int)type, NULL);
}

const char *sv_scan_name(sv_scan scan)
{
    return word(scan_names, 2, (int)scan, NULL);
}

bool sv_op_from_name(const char *name, sv_op *out)
{
    int i = SV_STRING_INDEX(name, op_names, SV_OP_COUNT);
    if (i >= 0 && out)
        *out = (sv_op)i;
    return i >= 0;
}

bool sv_type_from_name(const char *name, sv_type *out)
{
    int i = SV_STRING_INDEX(name, type_names, SV_TYPE_COUNT);
    if (i >= 0 && out)
        *out = (sv_type)i;
    return i >= 0;
}

bool sv_op_valid(sv_op op, sv_type type, char *err, size_t errlen)
{
    if ((unsigned)op >= SV_OP_COUNT) {
        snprintf(err, errlen, "unknown operator %d", (int)op);
        return false;
    }
    if ((unsigned)type >= SV_TYPE_COUNT) {
        snprintf(err, errlen, "unknown type %d", (int)type);
        return false;
    }
    if (op == SV_OP_XOR && type == SV_TYPE_FLOAT32) {
        snprintf(err, errlen, "xor is defined on int32 only, not on float32");
        return false;
    }
    return true;
}

bool sv_count_valid(size_t n, size_t max_n, char *err, size_t errlen)
{
    if (n == 0) {
        snprintf(err, errlen, "no values");
        return false;
    }
    if (n > max_n) {
        snprintf(err, errlen, "%zu values: more than the block limit of %zu", n, max_n);
        return false;
    }
    return true;
}

sv_value sv_op_identity(sv_op op, sv_type type)
{
    sv_value v;
    v.bits = 0;
    if (type == SV_TYPE_FLOAT32) {
        switch (op) {
        case SV_OP_SUM: v.f = 0.0f; break;
        case SV_OP_MAX: v.f = -INFINITY; break;
        case SV_OP_MIN: v.f = INFINITY; break;
        case SV_OP_PRODUCT: v.f = 1.0f; break;
        default: break;
        }
        return v;
    }
    switch (op) {
    case SV_OP_SUM: v.i = 0; break;
    case SV_OP_MAX: v.i = INT32_MIN; break;
    case SV_OP_MIN: v.i = INT32_MAX; break;
    case SV_OP_PRODUCT: v.i = 1; break;
    case SV_OP_XOR: v.i = 0; break;
    default: break;
    }
    return v;
}

/* Two's-complement reinterpretation without implementation-defined casts. */
static int32_t to_i32(uint32_t u)
{
    int32_t r;
    memcpy(&r, &u, sizeof r);
    return r;
}

/* float max/min: fmaxf/fminf (a NaN operand counts as missing: the other one
 * is returned), plus a fixed rule for zeros of opposite sign, which C leaves
 * open: max(-0, +0) = +0 and min(-0, +0) = -0 in either order. */
static float fmax_sv(float a, float b)
{
    if (a == 0.0f && b == 0.0f)
        return signbit(a) ? b : a;
    return fmaxf(a, b);
}

static float fmin_sv(float a, float b)
{
    if (a == 0.0f && b == 0.0f)
        return signbit(a) ? a : b;
    return fminf(a, b);
}

sv_value sv_op_apply(sv_op op, sv_type type, sv_value a, sv_value b, bool *overflow)
{
    sv_value r;
    bool wrapped = false;
    r.bits = 0;
    if (type == SV_TYPE_FLOAT32) {
        switch (op) {
        case SV_OP_SUM: r.f = a.f + b.f; break;
        case SV_OP_PRODUCT: r.f = a.f * b.f; break;
        case SV_OP_MAX: r.f = fmax_sv(a.f, b.f); break;
        case SV_OP_MIN: r.f = fmin_sv(a.f, b.f); break;
        default: r.bits = SV_CANONICAL_NAN_BITS; break;
        }
        /* x86 gives 0xffc00000 for inf - inf, the GPU 0x7fffffff. */
        if (isnan(r.f))
            r.bits = SV_CANONICAL_NAN_BITS;
    } else {
        switch (op) {
        case SV_OP_SUM: {
            /* Unsigned addition wraps by definition; a signed overflow
             * happened when both operands share a sign the result lacks. */
            uint32_t s = a.bits + b.bits;
            wrapped = ((a.bits ^ s) & (b.bits ^ s)) >> 31;
            r.bits = s;
            break;
        }
        case SV_OP_PRODUCT: {
            int64_t exact = (int64_t)a.i * (int64_t)b.i; /* |exact| <= 2^62 */
            r.bits = (uint32_t)((uint64_t)a.bits * (uint64_t)b.bits);
            wrapped = exact != (int64_t)to_i32(r.bits);
            break;
        }
        case SV_OP_MAX: r.i = a.i > b.i ? a.i : b.i; break;
        case SV_OP_MIN: r.i = a.i < b.i ? a.i : b.i; break;
        case SV_OP_XOR: r.bits = a.bits ^ b.bits; break;
        default: break;
        }
    }
    if (overflow)
        *overflow = wrapped;
    return r;
}

/* The fewest significant digits (1..9) that read v back to the same bits. */
static int shortest_digits(sv_value v)
{
    char tmp[48];
    for (int prec = 1; prec < 9; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, (double)v.f);
        sv_value a, b;
        a.f = strtof(tmp, NULL);
        b.f = (float)strtod(tmp, NULL);
        if (a.bits == v.bits && b.bits == v.bits)
            return prec;
    }
    return 9;
}

static bool positional_ok(float f)
{
    float a = fabsf(f);
    return a == 0.0f || (a >= 1e-4f && a < 1e9f);
}

sv_float_style sv_float_style_of(sv_type type, const sv_value *vals, size_t n)
{
    if (type != SV_TYPE_FLOAT32)
        return SV_FLOAT_SHORTEST;
    for (size_t i = 0; i < n; i++)
        if (isfinite(vals[i].f) && !positional_ok(vals[i].f))
            return SV_FLOAT_EXPONENT;
    return SV_FLOAT_POSITIONAL;
}

char *sv_value_format_as(sv_type type, sv_value v, sv_float_style style, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    if (type != SV_TYPE_FLOAT32 || style == SV_FLOAT_SHORTEST || !isfinite(v.f))
        return sv_value_format(type, v, buf, len);
    if (style == SV_FLOAT_POSITIONAL && !positional_ok(v.f))
        style = SV_FLOAT_EXPONENT;
    int p = shortest_digits(v);
    if (style == SV_FLOAT_EXPONENT) {
        snprintf(buf, len, "%.*e", p - 1, (double)v.f);
        return buf;
    }
    /* Positional: as many decimals as the digits after the leading one need. */
    char e[48];
    snprintf(e, sizeof e, "%.*e", p - 1, (double)v.f);
    const char *x = strchr(e, 'e');
    int exp10 = x ? atoi(x + 1) : 0;
    int decimals = p - 1 - exp10;
    snprintf(buf, len, "%.*f", decimals > 0 ? decimals : 0, (double)v.f);
    return buf;
}

char *sv_value_format(sv_type type, sv_value v, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    if (type != SV_TYPE_FLOAT32) {
        snprintf(buf, len, "%" PRId32, v.i);
        return buf;
    }
    if (isnan(v.f)) {
        snprintf(buf, len, "nan");
        return buf;
    }
    if (isinf(v.f)) {
        snprintf(buf, len, v.f < 0 ? "-inf" : "inf");
        return buf;
    }
    /* The fewest significant digits that read back to the same bits both
     * directly (strtof) and through a double (strtod, then a cast), as a JSON
     * reader does (9 always suffice for a float32), written positionally
     * where that reads naturally (1e-4 <= |v| < 1e9: "10", "100", "0.25"),
     * as the chapter's tables do, else in exponent form ("3e+09"). %g alone
     * wrote 10 as "1e+01" (its one digit). */
    return sv_value_format_as(type, v, positional_ok(v.f) ? SV_FLOAT_POSITIONAL
                                                          : SV_FLOAT_EXPONENT, buf, len);
}
