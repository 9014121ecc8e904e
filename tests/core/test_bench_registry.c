/* The benchmark's registry of algorithms (algo.h) and its one input
 * generator and answer check (bench_check.h), which scanviz-bench and the
 * GPU tests both use: names round-trip, every row is complete and distinct,
 * the inputs are seeded and never zero, and the check catches wrong answers. */
#include <math.h>
#include <string.h>

#include "algo.h"
#include "bench_check.h"
#include "../expect.h"

int main(void)
{
    /* Registry: every row named, labelled, marked; names and colours distinct. */
    for (int a = 0; a < SV_ALGO_COUNT; a++) {
        const sv_algo_info *ai = sv_algo_get((sv_algo)a);
        CHECK(ai && ai->name && ai->name[0] && ai->label && ai->label[0]);
        sv_algo back;
        CHECK(sv_algo_from_name(sv_algo_name((sv_algo)a), &back) && back == (sv_algo)a);
        for (int b = 0; b < a; b++) {
            CHECK(strcmp(ai->name, sv_algo_name((sv_algo)b)) != 0);
            CHECK(ai->rgb != sv_algo_get((sv_algo)b)->rgb);
        }
        CHECK(sv_algo_is_gpu((sv_algo)a) == (a != SV_ALGO_CPU));
    }
    CHECK(sv_algo_get(SV_ALGO_COUNT) == NULL && sv_algo_name(SV_ALGO_COUNT) == NULL);
    CHECK(!sv_algo_from_name("gpu", NULL) && !sv_algo_from_name(NULL, NULL));
    CHECK(sv_algo_get(SV_ALGO_COPY)->rgb == 0); /* the bound: the theme's text colour */
    char list[128];
    sv_algo_list(list, sizeof list, " or ");
    CHECK_STR(list, "copy, cub, hs, hs-lookback, hs-naive, blelloch or cpu");

    /* Inputs: seeded, never zero, in range. */
    int32_t a[4096], b[4096], y[4096];
    sv_bench_fill(SV_TYPE_INT32, a, 4096, 7);
    sv_bench_fill(SV_TYPE_INT32, b, 4096, 7);
    CHECK(memcmp(a, b, sizeof a) == 0);
    sv_bench_fill(SV_TYPE_INT32, b, 4096, 8);
    CHECK(memcmp(a, b, sizeof a) != 0);
    for (int i = 0; i < 4096; i++)
        CHECK(a[i] != 0 && a[i] >= -1000 && a[i] <= 1000);
    float f[4096], g[4096];
    sv_bench_fill(SV_TYPE_FLOAT32, f, 4096, 7);
    for (int i = 0; i < 4096; i++)
        CHECK(f[i] != 0.0f && f[i] > -1.0f && f[i] < 1.0f);

    /* The check: the CPU scan passes, one wrong element is found where it is. */
    sv_bench_cpu_scan(SV_TYPE_INT32, a, y, 4096);
    sv_bench_check c = sv_bench_check_scan(SV_TYPE_INT32, a, y, 4096);
    CHECK(c.ok && c.bad_index == 4096);
    y[1000] += 1;
    c = sv_bench_check_scan(SV_TYPE_INT32, a, y, 4096);
    CHECK(!c.ok && c.bad_index == 1000 && c.got == c.want + 1);
    int32_t x3[3] = { 1, 2, 3 }, y3[3] = { 1, 3, 7 };
    CHECK(sv_bench_check_scan(SV_TYPE_INT32, x3, y3, 3).bad_index == 2);
    /* int32 sums wrap modulo 2^32. */
    int32_t big[2] = { INT32_MAX, 1 }, wrapped[2] = { INT32_MAX, INT32_MIN };
    CHECK(sv_bench_check_scan(SV_TYPE_INT32, big, wrapped, 2).ok);

    sv_bench_cpu_scan(SV_TYPE_FLOAT32, f, g, 4096);
    c = sv_bench_check_scan(SV_TYPE_FLOAT32, f, g, 4096);
    CHECK(c.ok && c.max_rel <= SV_BENCH_FLOAT_REL_TOL);
    g[2000] += 1.0f;
    c = sv_bench_check_scan(SV_TYPE_FLOAT32, f, g, 4096);
    CHECK(!c.ok && c.bad_index == 2000);
    g[2000] = NAN;
    CHECK(!sv_bench_check_scan(SV_TYPE_FLOAT32, f, g, 4096).ok);

    CHECK(sv_bench_check_copy(a, a, 4096).ok);
    memcpy(b, a, sizeof a);
    b[17] ^= 1;
    CHECK(sv_bench_check_copy(a, b, 4096).bad_index == 17);
    double odd[5] = { 5, 1, 4, 2, 3 }, even[4] = { 4, 1, 3, 2 };
    CHECK(sv_bench_median(odd, 5) == 3.0 && sv_bench_median(even, 4) == 2.5);
    return check_status();
}
