/* What the timing tests share (tests/bench/lab_time.c, tests/gfx/test_gfx.c's
 * bench): a monotonic clock in milliseconds and qsort's comparison of
 * doubles, for medians. */
#ifndef SV_TEST_TIMING_H
#define SV_TEST_TIMING_H

#include <time.h>

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
