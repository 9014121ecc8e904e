/* The compare view's model (compare.h): steps, counters and words of the
 * chapter's Hillis-Steele scan and Blelloch's, from their closed forms. */
#include "compare.h"

#include <math.h>

#include <stdio.h>
#include <string.h>

#include "../core/bench_csv.h"
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

void sv_compare_counters_of(const sv_compare_step *s, char *buf, size_t len)
{
    snprintf(buf, len, "ops this step %zu \xc2\xb7 total %zu \xc2\xb7 depth %zu", s->ops,
             s->total, s->depth);
}

void sv_compare_counters(sv_compare_algo a, size_t n, size_t k, char *buf, size_t len)
{
    sv_compare_step s;
    sv_compare_step_at(a, n, k, &s);
    sv_compare_counters_of(&s, buf, len);
}

const char *sv_compare_noun(const char *op_name)
{
    if (op_name && strcmp(op_name, "sum") == 0)
        return "adds";
    if (op_name && strcmp(op_name, "product") == 0)
        return "multiplies";
    return "ops";
}

void sv_compare_run(sv_compare_algo a, size_t n, bool inclusive, size_t *ops, size_t *depth)
{
    sv_compare_totals(a, n, ops, depth);
    if (a == SV_COMPARE_BLELLOCH && inclusive && n > 0) { /* out[i] = t[i] op in[i] */
        *ops += n;
        *depth += 1;
    }
}

void sv_compare_run_words(sv_compare_algo a, size_t n, bool inclusive, const char *noun,
                          char *buf, size_t len)
{
    size_t ops, depth;
    sv_compare_run(a, n, inclusive, &ops, &depth);
    snprintf(buf, len, "%zu %s in %zu %s", ops, noun ? noun : "ops", depth,
             a == SV_COMPARE_HILLIS_STEELE ? (depth == 1 ? "round" : "rounds")
                                           : (depth == 1 ? "step" : "steps"));
}

void sv_compare_tradeoff(size_t n, bool inclusive, char *buf, size_t len)
{
    size_t hs, hsd;
    sv_compare_run(SV_COMPARE_HILLIS_STEELE, n, inclusive, &hs, &hsd);
    sv_compare_tradeoff_counts(n, inclusive, hs, hsd, buf, len);
}

/* Each claim of the line below is a comparison of two of its numbers, made
 * here, so that no n (a small one, a padded tree, the inclusive output's
 * extra ops) gets the chapter's asymptotic sentence against its own counts. */
void sv_compare_tradeoff_counts(size_t n, bool inclusive, size_t hs, size_t hsd, char *buf,
                                size_t len)
{
    size_t bl, bld, sq, sqd, tree, treed, m = sv_compare_pow2(n);
    sv_compare_run(SV_COMPARE_BLELLOCH, n, inclusive, &bl, &bld);
    sv_compare_totals(SV_COMPARE_BLELLOCH, n, &tree, &treed);
    sv_compare_run(SV_COMPARE_SEQUENTIAL, n, inclusive, &sq, &sqd);
    char parts[128] = "";
    if (inclusive && m > n)
        snprintf(parts, sizeof parts, " (%zu in a tree of %zu leaves, %zu in the output)", tree, m,
                 bl - tree);
    else if (inclusive)
        snprintf(parts, sizeof parts, " (%zu in the tree, %zu in the output)", tree, bl - tree);
    else if (m > n)
        snprintf(parts, sizeof parts, " (a tree of %zu leaves)", m);
    int o = snprintf(buf, len, "n = %zu, %s scan: Hillis-Steele %zu %s in %zu %s, Blelloch %zu "
                     "in %zu %s%s, sequential %zu in %zu: ", n,
                     inclusive ? "inclusive" : "exclusive", hs, hs == 1 ? "op" : "ops", hsd,
                     hsd == 1 ? "round" : "rounds", bl, bld, bld == 1 ? "step" : "steps", parts,
                     sq, sqd);
    if (o < 0 || (size_t)o >= len)
        return;
    char *rest = buf + o;
    size_t left = len - (size_t)o;
    if (n <= 1) {
        snprintf(rest, left, "one value is its own scan: there is nothing to trade");
        return;
    }
    const char *steps = hsd >= bld   ? "no fewer steps than Blelloch"
                        : hsd < sqd  ? "the fewest steps"
                        : hsd == sqd ? "the fewest steps (tied with the sequential scan)"
                                     : "fewer steps than Blelloch";
    if (hs > bl && hsd < bld) {
        char times[32];
        if (bld == 2 * hsd)
            snprintf(times, sizeof times, "twice");
        else
            snprintf(times, sizeof times, "%.1f times", (double)bld / (double)hsd);
        snprintf(rest, left, "Hillis-Steele takes %s with more work than Blelloch, whose O(n) "
                 "work costs %s the depth", steps, times);
    } else {
        snprintf(rest, left, "Hillis-Steele takes %s with %s work %s Blelloch at this n; at "
                 "larger n Blelloch's O(n) work is the less", steps,
                 hs > bl ? "more" : hs < bl ? "less" : "as much", hs == bl ? "as" : "than");
    }
}

/* The row of algo at n and type (NULL when not measured). */
static const sv_bench_row *row_of(const sv_bench_table *t, const char *algo, const char *type,
                                  double n)
{
    for (size_t i = 0; i < t->nrows; i++)
        if (t->rows[i].n == n && strcmp(t->rows[i].algo, algo) == 0 &&
            strcmp(t->rows[i].type, type) == 0)
            return &t->rows[i];
    return NULL;
}

/* The sizes (ascending, at most max) where both hs-naive and blelloch of
 * type were measured. */
static size_t both_sizes(const sv_bench_table *t, const char *type, double *ns, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; i < t->nrows; i++) {
        const sv_bench_row *r = &t->rows[i];
        if (strcmp(r->algo, "hs-naive") != 0 || strcmp(r->type, type) != 0 ||
            !row_of(t, "blelloch", type, r->n))
            continue;
        size_t j = k;
        bool dup = false;
        for (size_t q = 0; q < k; q++)
            dup = dup || ns[q] == r->n;
        if (dup || k == max)
            continue;
        while (j > 0 && ns[j - 1] > r->n) { /* insertion: ascending */
            ns[j] = ns[j - 1];
            j--;
        }
        ns[j] = r->n;
        k++;
    }
    return k;
}

/* "268,435,456": n with thousands separated. */
static void fmt_n(double n, char *buf, size_t len)
{
    char d[32];
    snprintf(d, sizeof d, "%.0f", n);
    size_t nd = strlen(d), o = 0;
    for (size_t i = 0; i < nd && o + 2 < len; i++) {
        if (i > 0 && (nd - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = d[i];
    }
    buf[o < len ? o : len - 1] = '\0';
}

bool sv_compare_cost_words(const sv_bench_table *t, sv_compare_cost *cost, char *buf,
                           size_t len)
{
    sv_compare_cost c;
    memset(&c, 0, sizeof c);
    if (cost)
        *cost = c;
    enum { MAXN = 256 };
    double ns[MAXN];
    size_t k = 0;
    const char *type = "";
    for (size_t i = 0; t && i < t->nrows && k == 0; i++) {
        type = t->rows[i].type;
        k = both_sizes(t, type, ns, MAXN);
    }
    if (k == 0) {
        snprintf(buf, len, "this table has no hs-naive and blelloch rows of one type to compare");
        return false;
    }
    size_t from = k; /* the first index from which blelloch is faster at every size */
    while (from > 0 && row_of(t, "hs-naive", type, ns[from - 1])->median_us >
                           row_of(t, "blelloch", type, ns[from - 1])->median_us)
        from--;
    c.crossover_n = from < k ? ns[from] : 0.0;
    c.below_n = from > 0 ? ns[from - 1] : 0.0;
    c.sizes_below = (int)from;
    for (size_t i = 0; i < from; i++)
        c.hs_faster_below += row_of(t, "hs-naive", type, ns[i])->median_us <
                             row_of(t, "blelloch", type, ns[i])->median_us;
    const sv_bench_row *hs = row_of(t, "hs-naive", type, ns[k - 1]);
    const sv_bench_row *bl = row_of(t, "blelloch", type, ns[k - 1]);
    c.top_n = ns[k - 1];
    c.top_hs_us = hs->median_us;
    c.top_bl_us = bl->median_us;
    c.top_hs_ops = hs->ops;
    c.top_bl_ops = bl->ops;
    if (cost)
        *cost = c;
    char gpu[160], a[32], b[32], top[32];
    snprintf(gpu, sizeof gpu, "%s", t->gpu[0] ? t->gpu : "the GPU of this table");
    fmt_n(c.top_n, top, sizeof top);
    char ops[96] = "";
    if (isfinite(c.top_hs_ops) && isfinite(c.top_bl_ops) && c.top_bl_ops > 0)
        snprintf(ops, sizeof ops, ", for %.1fx the adds", c.top_hs_ops / c.top_bl_ops);
    if (c.crossover_n == 0.0) {
        snprintf(buf, len, "Measured on %s (%s, device-wide): the chapter's Hillis-Steele "
                 "(hs-naive) is not slower than Blelloch at the largest n, %s (%.1f \u00b5s "
                 "against %.1f \u00b5s): its extra adds do not cost more than Blelloch's extra "
                 "steps on this table.", gpu, type, top, c.top_hs_us, c.top_bl_us);
    } else if (from == 0) {
        fmt_n(c.crossover_n, a, sizeof a);
        snprintf(buf, len, "Measured on %s (%s, device-wide): Blelloch is faster than the "
                 "chapter's Hillis-Steele (hs-naive) at every n from %s up; at n = %s "
                 "Hillis-Steele takes %.1f \u00b5s against %.1f \u00b5s (%.2fx%s).", gpu, type,
                 a, top, c.top_hs_us, c.top_bl_us, c.top_hs_us / c.top_bl_us, ops);
    } else {
        fmt_n(c.below_n, a, sizeof a);
        fmt_n(c.crossover_n, b, sizeof b);
        snprintf(buf, len, "Measured on %s (%s, device-wide): up to n = %s the chapter's "
                 "Hillis-Steele (hs-naive) is faster at %d of %d sizes, its extra adds "
                 "cheaper than Blelloch's extra steps; from n = %s on they cost more: "
                 "Blelloch is faster at every larger n, %.2fx at n = %s (%.1f \u00b5s against "
                 "%.1f \u00b5s%s).", gpu, type, a, c.hs_faster_below, c.sizes_below, b,
                 c.top_hs_us / c.top_bl_us, top, c.top_hs_us, c.top_bl_us, ops);
    }
    return true;
}
