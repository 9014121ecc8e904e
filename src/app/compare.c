/* The compare view's model (compare.h): steps, counters and words of the
 * chapter's Hillis-Steele scan and Blelloch's, from their closed forms. */
#include "compare.h"

#include <stdio.h>
#include <string.h>

#include "../core/ktrace_blelloch.h"

size_t sv_compare_pow2(size_t n)
{
    return sv_blelloch_leaves(n); /* core/ktrace_blelloch.h: the tree's leaves */
}

/* ceil(log2 m): Hillis-Steele's rounds, either sweep's levels. */
static size_t log2_of(size_t m)
{
    return sv_blelloch_levels(m);
}

size_t sv_compare_nsteps(sv_compare_algo a, size_t n)
{
    if (n == 0)
        return 0;
    switch (a) {
    case SV_COMPARE_HILLIS_STEELE: return 1 + log2_of(n);
    case SV_COMPARE_BLELLOCH: return 2 + 2 * log2_of(sv_compare_pow2(n));
    case SV_COMPARE_SEQUENTIAL:
    default: return n;
    }
}

/* Step k's phase, stride and ops, without the running totals. */
static void step_shape(sv_compare_algo a, size_t n, size_t k, sv_compare_step *s)
{
    size_t m = sv_compare_pow2(n), lg = log2_of(m);
    memset(s, 0, sizeof *s);
    if (k == 0)
        return; /* SV_COMPARE_STAGE */
    if (a == SV_COMPARE_HILLIS_STEELE) {
        s->phase = SV_COMPARE_ROUND;
        s->stride = (size_t)1 << (k - 1);
        s->ops = n - s->stride;
    } else if (a == SV_COMPARE_SEQUENTIAL) {
        s->phase = SV_COMPARE_SEQ;
        s->ops = 1;
    } else if (k <= lg) {
        s->phase = SV_COMPARE_UP;
        s->stride = (size_t)1 << (k - 1);
        s->ops = m / (2 * s->stride);
    } else if (k == lg + 1) {
        s->phase = SV_COMPARE_ROOT;
    } else {
        s->phase = SV_COMPARE_DOWN;
        s->stride = m >> (k - lg - 1);
        s->ops = m / (2 * s->stride);
    }
}

int sv_compare_step_at(sv_compare_algo a, size_t n, size_t k, sv_compare_step *out)
{
    memset(out, 0, sizeof *out);
    if (k >= sv_compare_nsteps(a, n))
        return 0;
    size_t total = 0, depth = 0;
    for (size_t j = 0; j <= k; j++) {
        step_shape(a, n, j, out);
        total += out->ops;
        depth += out->ops > 0;
    }
    out->total = total;
    out->depth = depth;
    return 1;
}

void sv_compare_totals(sv_compare_algo a, size_t n, size_t *ops, size_t *depth)
{
    sv_compare_step s;
    size_t steps = sv_compare_nsteps(a, n);
    if (!steps || !sv_compare_step_at(a, n, steps - 1, &s))
        memset(&s, 0, sizeof s);
    *ops = s.total;
    *depth = s.depth;
}

void sv_compare_caption(sv_compare_algo a, size_t n, size_t k, const char *op, char *buf,
                        size_t len)
{
    sv_compare_step s;
    if (!len)
        return;
    if (!sv_compare_step_at(a, n, k, &s)) {
        snprintf(buf, len, "no step %zu", k);
        return;
    }
    switch (s.phase) {
    case SV_COMPARE_STAGE:
        snprintf(buf, len, a == SV_COMPARE_BLELLOCH && sv_compare_pow2(n) > n
                               ? "the input staged, cells %zu..%zu padded with the identity"
                               : "the input staged",
                 n, sv_compare_pow2(n) - 1);
        break;
    case SV_COMPARE_ROUND:
        snprintf(buf, len, "round %zu, stride %zu: each cell i >= %zu takes the %s of itself and "
                 "cell i - %zu", k, s.stride, s.stride, op, s.stride);
        break;
    case SV_COMPARE_UP:
        snprintf(buf, len, "up-sweep, stride %zu: each right child takes the %s of its pair",
                 s.stride, op);
        break;
    case SV_COMPARE_ROOT:
        snprintf(buf, len, "the root cleared: cell %zu takes the identity",
                 sv_compare_pow2(n) - 1);
        break;
    case SV_COMPARE_DOWN:
        snprintf(buf, len, "down-sweep, stride %zu: each pair swaps, and the right child adds "
                 "the old left child", s.stride);
        break;
    case SV_COMPARE_SEQ:
    default:
        snprintf(buf, len, "cell %zu takes the %s of cell %zu and in[%zu]", k, op, k - 1, k);
        break;
    }
}

void sv_compare_counters(sv_compare_algo a, size_t n, size_t k, char *buf, size_t len)
{
    sv_compare_step s;
    sv_compare_step_at(a, n, k, &s);
    snprintf(buf, len, "ops this step %zu \xc2\xb7 total %zu \xc2\xb7 depth %zu", s.ops, s.total,
             s.depth);
}

void sv_compare_tradeoff(size_t n, char *buf, size_t len)
{
    size_t hs, hsd, bl, bld, sq, sqd;
    sv_compare_totals(SV_COMPARE_HILLIS_STEELE, n, &hs, &hsd);
    sv_compare_totals(SV_COMPARE_BLELLOCH, n, &bl, &bld);
    sv_compare_totals(SV_COMPARE_SEQUENTIAL, n, &sq, &sqd);
    snprintf(buf, len, "n = %zu: Hillis-Steele %zu ops in %zu rounds, Blelloch %zu in %zu steps, "
             "sequential %zu in %zu: Hillis-Steele buys the fewest steps with the most work "
             "(O(n log n)); Blelloch keeps the work O(n) for about twice the depth",
             n, hs, hsd, bl, bld, sq, sqd);
}
