/* Operators and element types of a scan: names, identities and the one
 * definition of "a op b" that the emulator, the reference and the checks share.
 * The runtimes' Op::apply mirrors it bit for bit (src/runtime/scan_ops.h). */
#ifndef SV_OP_H
#define SV_OP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_op {
    SV_OP_SUM,
    SV_OP_MAX,
    SV_OP_MIN,
    SV_OP_PRODUCT,
    SV_OP_XOR,
    SV_OP_COUNT
} sv_op;

typedef enum sv_type {
    SV_TYPE_INT32,
    SV_TYPE_FLOAT32,
    SV_TYPE_COUNT
} sv_type;

typedef enum sv_scan {
    SV_SCAN_INCLUSIVE,
    SV_SCAN_EXCLUSIVE
} sv_scan;

/* One cell: an int32 or a float32, as the trace's type says. Compare cells
 * for bit-identity through .bits. */
typedef union sv_value {
    int32_t i;
    float f;
    uint32_t bits;
} sv_value;

/* CUDA's canonical quiet NaN: the bits of every NaN sv_op_apply() returns. */
#define SV_CANONICAL_NAN_BITS 0x7fffffffu

/* Largest n a single-block trace takes (the CUDA block limit). */
#define SV_MAX_N 1024
/* Largest n of a kernel file whose host function scan launches many blocks
 * (issue 31): scanviz-trace --random N on the CPU runtime; a kernel trace
 * with launches holds up to it (out[] and device memory at most
 * SV_KTRACE_MAX_DEVICE_CELLS each). */
#define SV_MAX_N_BLOCKS (1 << 20)

/* "sum", "max", ...; NULL for an out-of-range value. */
const char *sv_op_name(sv_op op);
const char *sv_type_name(sv_type type);
const char *sv_scan_name(sv_scan scan);
/* The operator's symbol for formulas: "+", "max", "min", "×", "^". */
const char *sv_op_symbol(sv_op op);

/* The operator as a noun for words: "sum", "maximum", "minimum", "product",
 * "xor" ("combination" out of range). */
const char *sv_op_noun(sv_op op);

/* Parse a name; false when it is not one of the names above. */
bool sv_op_from_name(const char *name, sv_op *out);
bool sv_type_from_name(const char *name, sv_type *out);

/* Whether op is defined on type (xor is not on float32); fills err when not. */
bool sv_op_valid(sv_op op, sv_type type, char *err, size_t errlen);

/* Whether n values fit one block: 1 <= n <= max_n (SV_MAX_N, or a device's
 * own limit); fills err ("no values", "N values: more than ...") when not. */
bool sv_count_valid(size_t n, size_t max_n, char *err, size_t errlen);

/* The identity of op on type: 0, INT32_MIN / -inf, INT32_MAX / +inf, 1, 0. */
sv_value sv_op_identity(sv_op op, sv_type type);

/* a op b, exactly as the GPU computes it: int32 sum and product wrap modulo
 * 2^32 (no undefined behaviour), float32 is IEEE single precision (round to
 * nearest, no fused operations, subnormals kept). When overflow is not NULL
 * it is set to whether an int32 sum/product wrapped (always false for float32).
 * Float details the GPU side must mirror for bit-identical traces:
 *  - max/min are fmaxf/fminf: a NaN operand is treated as missing (the other
 *    operand is returned); zeros of opposite sign are ordered, in either
 *    order: max(-0, +0) = +0, min(-0, +0) = -0 (C leaves this open).
 *  - every NaN result is CUDA's canonical NaN, bits 0x7fffffff (x86 would
 *    give 0xffc00000 for inf - inf). */
sv_value sv_op_apply(sv_op op, sv_type type, sv_value a, sv_value b, bool *overflow);

/* Writes v as text ("-12", "0.5", "10", "3e+09") into buf; returns buf.
 * Floats print with the fewest digits that read back to the same bits,
 * positionally where 1e-4 <= |v| < 1e9 (or v is 0), else in exponent form. */
char *sv_value_format(sv_type type, sv_value v, char *buf, size_t len);

/* One notation for every float32 of a row or a trace, so that 16777222 and
 * 16777220 do not print as "16777222" and "1.677722e+07" side by side. */
typedef enum sv_float_style {
    SV_FLOAT_SHORTEST,    /* sv_value_format: the notation of each value alone */
    SV_FLOAT_POSITIONAL,  /* "16777220", "0.5": every value 0 or 1e-4 <= |v| < 1e9 */
    SV_FLOAT_EXPONENT     /* "1.677722e+07", "5e-01": when one value is outside that */
} sv_float_style;

/* The style for vals[0..n) of type: SV_FLOAT_SHORTEST for int32, else
 * positional when every finite value allows it, else exponent. */
sv_float_style sv_float_style_of(sv_type type, const sv_value *vals, size_t n);

/* v in style: the same significant digits as sv_value_format (so the text
 * reads back to the same bits), only the notation chosen; int32, inf and
 * nan as sv_value_format. Returns buf. */
char *sv_value_format_as(sv_type type, sv_value v, sv_float_style style, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
