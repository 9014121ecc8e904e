/* The CPU check shared by tests/bench programs: seeded random inputs (never
 * zero) and the comparison with the sequential scan, int32 exactly (wrapping
 * modulo 2^32), float32 within a relative 1e-5 of the prefix's sum of |x|. */
#ifndef SV_TEST_CHECK_SCAN_H
#define SV_TEST_CHECK_SCAN_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "../../src/core/op.h"

static uint64_t chk_rng(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static void chk_fill(sv_type type, void *buf, size_t n, uint64_t seed)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
    if (type == SV_TYPE_INT32) {
        int32_t *p = buf;
        for (size_t i = 0; i < n; i++) {
            int32_t v = (int32_t)(chk_rng(&s) % 2000) - 1000;
            p[i] = v >= 0 ? v + 1 : v;
        }
    } else {
        float *p = buf;
        for (size_t i = 0; i < n; i++) {
            float v = (float)(chk_rng(&s) >> 40) * (2.0f / 16777216.0f) - 1.0f;
            p[i] = v != 0.0f ? v : 0.5f;
        }
    }
}

/* Returns n when out is right, else the first wrong index. */
static size_t chk_first_wrong(sv_type type, const void *in, const void *out, size_t n,
                              double *max_rel)
{
    if (max_rel)
        *max_rel = 0.0;
    if (type == SV_TYPE_INT32) {
        const int32_t *x = in, *y = out;
        uint32_t acc = 0;
        for (size_t i = 0; i < n; i++) {
            acc += (uint32_t)x[i];
            if ((uint32_t)y[i] != acc)
                return i;
        }
        return n;
    }
    const float *x = in, *y = out;
    double acc = 0.0, scale = 0.0;
    for (size_t i = 0; i < n; i++) {
        acc += x[i];
        scale += fabs((double)x[i]);
        double rel = fabs((double)y[i] - acc) / scale;
        if (!(rel <= 1e-5))
            return i;
        if (max_rel && rel > *max_rel)
            *max_rel = rel;
    }
    return n;
}

#endif
