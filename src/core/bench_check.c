/* The benchmark's inputs and answer check (bench_check.h). */
#include "bench_check.h"

#include <math.h>
#include <stdlib.h>

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64* */
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

void sv_bench_fill(sv_type type, void *buf, size_t n, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
    if (type == SV_TYPE_INT32) {
        int32_t *p = buf;
        for (size_t i = 0; i < n; i++) {
            int32_t v = (int32_t)(rng_next(&s) % 2000) - 1000;
            p[i] = v >= 0 ? v + 1 : v;
        }
    } else {
        float *p = buf;
        for (size_t i = 0; i < n; i++) {
            float v = (float)(rng_next(&s) >> 40) * (2.0f / 16777216.0f) - 1.0f;
            p[i] = v != 0.0f ? v : 0.5f;
        }
    }
}

void sv_bench_cpu_scan(sv_type type, const void *in, void *out, size_t n)
{
    if (type == SV_TYPE_INT32) {
        const uint32_t *x = in;
        uint32_t *y = out, acc = 0;
        for (size_t i = 0; i < n; i++)
            y[i] = acc += x[i];
    } else {
        const float *x = in;
        float *y = out, acc = 0.0f;
        for (size_t i = 0; i < n; i++)
            y[i] = acc += x[i];
    }
}

static sv_bench_check wrong(size_t i, double got, double want)
{
    sv_bench_check c = { .ok = false, .bad_index = i, .got = got, .want = want };
    return c;
}

sv_bench_check sv_bench_check_scan(sv_type type, const void *in, const void *out, size_t n)
{
    sv_bench_check c = { .ok = true, .bad_index = n };
    if (type == SV_TYPE_INT32) {
        const int32_t *x = in, *y = out;
        uint32_t acc = 0;
        for (size_t i = 0; i < n; i++) {
            acc += (uint32_t)x[i];
            if ((uint32_t)y[i] != acc)
                return wrong(i, y[i], (int32_t)acc);
        }
        return c;
    }
    const float *x = in, *y = out;
    double acc = 0.0, scale = 0.0;
    for (size_t i = 0; i < n; i++) {
        acc += x[i];
        scale += fabs((double)x[i]);
        double d = fabs((double)y[i] - acc);
        double rel = d / scale;
        if (!(rel <= SV_BENCH_FLOAT_REL_TOL)) /* NaN fails too */
            return wrong(i, y[i], acc);
        if (d > c.max_abs)
            c.max_abs = d;
        if (rel > c.max_rel)
            c.max_rel = rel;
    }
    return c;
}

sv_bench_check sv_bench_check_copy(const void *in, const void *out, size_t n)
{
    const uint32_t *x = in, *y = out;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return wrong(i, (double)y[i], (double)x[i]);
    sv_bench_check c = { .ok = true, .bad_index = n };
    return c;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sv_bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
