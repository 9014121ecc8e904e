/* test_compare: the compare view's model (src/app/compare.h, issue 20), no
 * GL: steps, counters, captions and the trade-off line, for n = 8 (the
 * chapter's example: Hillis-Steele 17 ops in 3 rounds, Blelloch 14 in 6
 * steps, sequential 7 in 7) and against the closed forms for other n. */
#include <stdio.h>
#include <string.h>

#include "../expect.h"
#include "app/compare.h"

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

int main(void)
{
    check_n8();
    check_closed_forms();
    return check_status();
}
