/* test_compare: the compare view's model (src/app/compare.h, issue 20), no
 * GL: steps, counters, captions and the trade-off line, for n = 8 (the
 * chapter's example: Hillis-Steele 17 ops in 3 rounds, Blelloch 14 in 6
 * steps, sequential 7 in 7) and against the closed forms for other n. */
#include <stdio.h>
#include <string.h>

#include "../expect.h"
#include "app/compare.h"
#include "core/bench_csv.h"

static void check_n8(void)
{
    size_t ops, depth;
    sv_compare_totals(SV_COMPARE_HILLIS_STEELE, 8, &ops, &depth);
    CHECK_INT(ops, 17);
    CHECK_INT(depth, 3);
    sv_compare_totals(SV_COMPARE_BLELLOCH, 8, &ops, &depth);
    CHECK_INT(ops, 14);
    CHECK_INT(depth, 6);
    sv_compare_totals(SV_COMPARE_SEQUENTIAL, 8, &ops, &depth);
    CHECK_INT(ops, 7);
    CHECK_INT(depth, 7);
    char b[512];
    sv_compare_caption(SV_COMPARE_BLELLOCH, 8, 2, "sum", b, sizeof b);
    CHECK_STR(b, "up-sweep, stride 2: each right child takes the sum of its pair");
    sv_compare_caption(SV_COMPARE_BLELLOCH, 8, 4, "sum", b, sizeof b);
    CHECK_STR(b, "the root cleared: cell 7 takes the identity");
    sv_compare_caption(SV_COMPARE_BLELLOCH, 8, 5, "sum", b, sizeof b);
    CHECK_STR(b, "down-sweep, stride 4: each pair swaps, and the right child adds the old left "
                 "child");
    sv_compare_counters(SV_COMPARE_BLELLOCH, 8, 5, b, sizeof b);
    CHECK_STR(b, "ops this step 1 \xc2\xb7 total 8 \xc2\xb7 depth 4");
    sv_compare_counters(SV_COMPARE_HILLIS_STEELE, 8, 2, b, sizeof b);
    CHECK_STR(b, "ops this step 6 \xc2\xb7 total 13 \xc2\xb7 depth 2");
    sv_compare_tradeoff(8, b, sizeof b);
    CHECK_CONTAINS(b, "n = 8: Hillis-Steele 17 ops in 3 rounds, Blelloch 14 in 6 steps, "
                      "sequential 7 in 7");
    sv_compare_step s;
    CHECK_INT(sv_compare_step_at(SV_COMPARE_BLELLOCH, 8, 8, &s), 0);
    sv_compare_caption(SV_COMPARE_BLELLOCH, 13, 0, "max", b, sizeof b);
    CHECK_STR(b, "the input staged, cells 13..15 padded with the identity");
}

/* Closed forms: HS sum over strides s < n of (n - s); Blelloch 2 (m - 1) in
 * 2 log2 m; sequential n - 1 in n - 1. */
static void check_closed_forms(void)
{
    for (size_t n = 1; n <= 1024; n++) {
        size_t hs = 0, rounds = 0, m = 1, lg = 0;
        for (size_t s = 1; s < n; s *= 2, rounds++)
            hs += n - s;
        while (m < n) {
            m *= 2;
            lg++;
        }
        size_t ops, depth;
        sv_compare_totals(SV_COMPARE_HILLIS_STEELE, n, &ops, &depth);
        CHECK_MSG(ops == hs && depth == rounds, "HS n=%zu: %zu in %zu", n, ops, depth);
        sv_compare_totals(SV_COMPARE_BLELLOCH, n, &ops, &depth);
        CHECK_MSG(ops == 2 * (m - 1) && depth == 2 * lg, "Blelloch n=%zu: %zu in %zu", n, ops,
                  depth);
        sv_compare_totals(SV_COMPARE_SEQUENTIAL, n, &ops, &depth);
        CHECK_MSG(ops == n - 1 && depth == n - 1, "seq n=%zu: %zu in %zu", n, ops, depth);
    }
}

/* A table of hs-naive and blelloch times (us) at n = 1024 * 2^i. */
static sv_bench_table *table_of(const double *hs, const double *bl, int k)
{
    static char csv[4096];
    int o = snprintf(csv, sizeof csv, "# gpu: Test GPU\n"
                     "algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\n");
    for (int i = 0; i < k; i++) {
        long n = 1024L << i;
        o += snprintf(csv + o, sizeof csv - (size_t)o,
                      "hs-naive,int32,%ld,%.3f,1,,,%ld,5\nblelloch,int32,%ld,%.3f,1,,,%ld,5\n",
                      n, hs[i], 10 * n, n, bl[i], 2 * n);
    }
    char err[256];
    sv_bench_table *t = sv_bench_table_parse(csv, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    return t;
}

/* Where the extra work costs time: computed from the table, not assumed. */
static void check_cost(void)
{
    char b[768];
    sv_compare_cost c;
    /* mixed below, Blelloch faster from the 4th size (8192) on */
    static const double hs1[] = { 5, 9, 6, 12, 20, 40 }, bl1[] = { 6, 8, 7, 10, 15, 25 };
    sv_bench_table *t = table_of(hs1, bl1, 6);
    CHECK(sv_compare_cost_words(t, &c, b, sizeof b));
    CHECK(c.crossover_n == 8192 && c.below_n == 4096 && c.sizes_below == 3 &&
          c.hs_faster_below == 2);
    CHECK(c.top_n == 32768 && c.top_hs_us == 40 && c.top_bl_us == 25);
    CHECK_CONTAINS(b, "Measured on Test GPU (int32, device-wide): up to n = 4,096");
    CHECK_CONTAINS(b, "faster at 2 of 3 sizes");
    CHECK_CONTAINS(b, "from n = 8,192 on they cost more");
    CHECK_CONTAINS(b, "1.60x at n = 32,768");
    CHECK_CONTAINS(b, "for 5.0x the adds");
    sv_bench_table_destroy(t);
    /* Hillis-Steele faster at the top: no crossover */
    static const double hs2[] = { 5, 9, 30 }, bl2[] = { 6, 8, 31 };
    t = table_of(hs2, bl2, 3);
    CHECK(sv_compare_cost_words(t, &c, b, sizeof b));
    CHECK(c.crossover_n == 0 && c.top_n == 4096);
    CHECK_CONTAINS(b, "is not slower than Blelloch at the largest n, 4,096");
    sv_bench_table_destroy(t);
    /* Blelloch faster everywhere */
    static const double hs3[] = { 7, 9 }, bl3[] = { 6, 8 };
    t = table_of(hs3, bl3, 2);
    CHECK(sv_compare_cost_words(t, &c, b, sizeof b));
    CHECK(c.crossover_n == 1024 && c.sizes_below == 0);
    CHECK_CONTAINS(b, "Blelloch is faster than the chapter's Hillis-Steele (hs-naive) at every "
                      "n from 1,024 up");
    sv_bench_table_destroy(t);
    /* no blelloch rows: says so */
    t = sv_bench_table_parse("algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\n"
                             "hs-naive,int32,1024,5,1,,,10,5\n", b, sizeof b);
    CHECK(t != NULL);
    CHECK(!sv_compare_cost_words(t, &c, b, sizeof b));
    CHECK_CONTAINS(b, "no hs-naive and blelloch rows");
    sv_bench_table_destroy(t);
    CHECK(!sv_compare_cost_words(NULL, NULL, b, sizeof b));
    sv_compare_run_words(SV_COMPARE_HILLIS_STEELE, 8, "adds", b, sizeof b);
    CHECK_STR(b, "17 adds in 3 rounds");
    sv_compare_run_words(SV_COMPARE_BLELLOCH, 8, sv_compare_noun("max"), b, sizeof b);
    CHECK_STR(b, "14 ops in 6 steps");
    sv_compare_run_words(SV_COMPARE_SEQUENTIAL, 8, sv_compare_noun("sum"), b, sizeof b);
    CHECK_STR(b, "7 adds in 7 steps");
    sv_compare_run_words(SV_COMPARE_BLELLOCH, 1, NULL, b, sizeof b);
    CHECK_STR(b, "0 ops in 0 steps");
    CHECK_STR(sv_compare_noun("product"), "multiplies");
}

int main(void)
{
    check_n8();
    check_closed_forms();
    check_cost();
    return check_status();
}
