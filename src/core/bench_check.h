/* The benchmark's inputs and its answer check, one copy that scanviz-bench
 * and the tests (tests/bench) both use: seeded random inputs that are never
 * zero, the sequential CPU scan, and the comparison of a device-wide
 * inclusive sum scan with it: int32 exactly (sums wrap modulo 2^32), float32
 * against a scan in double, within SV_BENCH_FLOAT_REL_TOL of the sum of |x|
 * over each prefix; and the median the figures are. libc and libm only. */
#ifndef SV_BENCH_CHECK_H
#define SV_BENCH_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SV_BENCH_FLOAT_REL_TOL 1e-5

/* n values of type (int32 or float32) into buf, from seed: int32 in
 * -1000..-1 and 1..1000, float32 in (-1, 1), never zero (xorshift64*). */
void sv_bench_fill(sv_type type, void *buf, size_t n, uint64_t seed);

/* The sequential inclusive sum scan, in the type's own arithmetic. */
void sv_bench_cpu_scan(sv_type type, const void *in, void *out, size_t n);

typedef struct sv_bench_check {
    bool ok;
    size_t bad_index;        /* first wrong element when !ok (n when ok) */
    double got, want;        /* at bad_index */
    double max_abs, max_rel; /* float32: the largest differences found */
} sv_bench_check;

/* out against the sequential scan of in (see above). NaN fails. */
sv_bench_check sv_bench_check_scan(sv_type type, const void *in, const void *out, size_t n);

/* out against in, bit for bit (the copy). */
sv_bench_check sv_bench_check_copy(const void *in, const void *out, size_t n);

/* The median of v[0..n) (n >= 1), which it sorts. */
double sv_bench_median(double *v, int n);

#ifdef __cplusplus
}
#endif

#endif
