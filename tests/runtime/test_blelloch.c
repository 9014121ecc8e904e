/* test_blelloch: kernels/blelloch.cu (issue 20) through the CPU runtime, as a
 * shipped kernel built ahead of time: its output for every operator and both
 * types, inclusive and exclusive, at n = 1, 2, 3, 8, 13, 37, 1000, 1024,
 * against the sequential reference, bit for bit; no hazard; and its steps and
 * operations against the closed form of the padded tree (kernels/blelloch.cu's
 * comment, docs/user-guide.md): with m the next power of two >= n, staging,
 * log2 m up-sweep steps writing m / 2d cells each (one op per write), the root
 * cleared, log2 m down-sweep steps writing 2 * m / 2d cells (a swap and an
 * add: one op per pair), the copy out: 2 (m - 1) tree ops in 2 log2 m steps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"
#include "blelloch_request.h"
#include "core/ktrace.h"
#include "core/ktrace_blelloch.h"
#include "core/reference.h"
#include "runtime.h"
#include "need_cpu.h"

static const size_t ns[] = {1, 2, 3, 8, 13, 37, 1000, 1024};

/* Inputs whose scans are exact in every order the tree takes (float sums of
 * small integers, products of +-1), so that the tree's order and the
 * sequential one agree bit for bit; max/min get signed zeros and fractions. */
static void input_of(sv_op op, sv_type type, size_t n, sv_value *in)
{
    uint32_t x = 12345u + (uint32_t)n * 7u + (uint32_t)op * 131u;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        int r = (int)((x >> 16) % 201u) - 100;
        if (type == SV_TYPE_INT32)
            in[i].i = op == SV_OP_PRODUCT ? (r % 3 == 0 ? -1 : (r % 5 == 0 ? 3 : 1)) : r * 1000;
        else if (op == SV_OP_PRODUCT)
            in[i].f = r % 2 ? -1.0f : 1.0f;
        else if (op == SV_OP_MAX || op == SV_OP_MIN)
            in[i].f = r == 0 ? -0.0f : (float)r / 8.0f;
        else
            in[i].f = (float)r;
    }
}

static sv_ktrace *run(sv_op op, sv_type type, sv_scan scan, const sv_value *in, size_t n)
{
    char err[256];
    sv_ktrace *t = blelloch_cpu_run(op, type, scan, in, n, err, sizeof err);
    CHECK_MSG(t != NULL, "run: %s", err);
    return t;
}

static void check_outputs(void)
{
    static sv_value in[1024], want[1024];
    for (int op = 0; op < SV_OP_COUNT; op++)
        for (int ty = 0; ty < 2; ty++) {
            sv_type type = ty ? SV_TYPE_FLOAT32 : SV_TYPE_INT32;
            char why[128];
            if (!sv_op_valid((sv_op)op, type, why, sizeof why))
                continue;
            for (int sc = 0; sc < 2; sc++) {
                sv_scan scan = sc ? SV_SCAN_EXCLUSIVE : SV_SCAN_INCLUSIVE;
                for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
                    size_t n = ns[a];
                    input_of((sv_op)op, type, n, in);
                    sv_reference_scan((sv_op)op, type, scan, in, want, n);
                    sv_ktrace *t = run((sv_op)op, type, scan, in, n);
                    if (!t)
                        continue;
                    CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "op %d type %d n %zu: %s", op,
                              ty, n, t->failure.message ? t->failure.message : "");
                    CHECK_MSG(t->hazards_total == 0, "op %d n %zu: %llu hazards", op, n,
                              (unsigned long long)t->hazards_total);
                    for (size_t i = 0; i < n && t->failure.kind == SV_KFAIL_NONE; i++)
                        if (!t->output_written[i] || t->output[i].bits != want[i].bits) {
                            CHECK_MSG(false, "op %d type %d %s n %zu: out[%zu] bits %08x, want %08x",
                                      op, ty, sc ? "exclusive" : "inclusive", n, i,
                                      t->output[i].bits, want[i].bits);
                            break;
                        }
                    sv_ktrace_destroy(t);
                }
            }
        }
}

static size_t smem_writes(const sv_kstep *s)
{
    size_t w = 0;
    for (size_t k = 0; k < s->nwrites; k++)
        w += s->writes[k].at.array == 0;
    return w;
}

/* The steps and the tree's operations against the closed form. */
static void check_counts(void)
{
    static sv_value in[1024];
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
        size_t n = ns[a], m = 1, lg = 0;
        while (m < n) {
            m *= 2;
            lg++;
        }
        input_of(SV_OP_SUM, SV_TYPE_INT32, n, in);
        sv_ktrace *t = run(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, in, n);
        if (!t)
            continue;
        CHECK_MSG(t->nsteps == 2 * lg + 3, "n %zu: %zu steps, want %zu", n, t->nsteps, 2 * lg + 3);
        if (t->nsteps != 2 * lg + 3) {
            sv_ktrace_destroy(t);
            continue;
        }
        CHECK_INT(smem_writes(&t->steps[0]), m); /* n inputs and m - n identities */
        size_t ops = 0;
        for (size_t l = 0; l < lg; l++) { /* up-sweep, stride 2^l */
            size_t w = smem_writes(&t->steps[1 + l]);
            CHECK_MSG(w == m >> (l + 1), "n %zu up-sweep level %zu: %zu writes", n, l, w);
            ops += w;
        }
        CHECK_INT(smem_writes(&t->steps[1 + lg]), 1); /* the root cleared */
        CHECK_INT(t->steps[1 + lg].cells[0][m - 1].i, 0);
        for (size_t l = 0; l < lg; l++) { /* down-sweep, stride m / 2^(l+1) */
            size_t w = smem_writes(&t->steps[2 + lg + l]);
            CHECK_MSG(w == 2 * ((size_t)1 << l), "n %zu down-sweep level %zu: %zu writes", n, l, w);
            ops += w / 2;
        }
        CHECK_MSG(ops == 2 * (m - 1), "n %zu: %zu tree ops, want 2(m - 1) = %zu", n, ops,
                  2 * (m - 1));
        if (n == 8)
            CHECK_INT(ops, 14); /* 14 adds in 6 steps; Hillis-Steele 17 in 3, sequential 7 */
        sv_ktrace_destroy(t);
    }
}

/* The Blelloch reading (core/ktrace_blelloch.h) against the runs: after every
 * step, every cell of the tree the input reaches holds op over the input
 * range the reading names (the identity for an empty one), as the CPU
 * runtime ran it, for every n of ns and a few more; the plan's phases are
 * the trace's steps; the chapter's rounds are not claimed; the swaps found
 * are the down-sweep's pairs, one thread each; the words. */
static void check_reading(void)
{
    static sv_value in[1024];
    static const size_t more[] = {1, 2, 3, 5, 8, 13, 37, 64, 100, 1000, 1024};
    for (size_t a = 0; a < sizeof more / sizeof *more; a++) {
        size_t n = more[a];
        input_of(SV_OP_SUM, SV_TYPE_INT32, n, in);
        static const int32_t chapter[8] = {3, 1, 7, 0, 4, 1, 6, 3};
        for (size_t i = 0; n == 8 && i < 8; i++) /* n = 8: the chapter's example */
            in[i].i = chapter[i];
        sv_ktrace *t = run(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, in, n);
        char err[128];
        if (!t || !sv_ktrace_analyze(t, err, sizeof err)) {
            CHECK_MSG(false, "n %zu: no analyzed trace", n);
            sv_ktrace_destroy(t);
            continue;
        }
        CHECK(sv_blelloch_is(t));
        CHECK_INT(t->first_broken_step, -1);
        uint32_t m = sv_blelloch_leaves(n);
        int tree = sv_blelloch_tree_array(t);
        CHECK_INT(tree, 0);
        size_t bad = 0, swaps = 0;
        for (size_t k = 0; k < t->nsteps; k++) {
            sv_bstep st;
            CHECK_MSG(sv_blelloch_step(t, k, &st), "n %zu step %zu: no plan", n, k);
            CHECK(!t->readings[k].fits);
            for (uint32_t c = 0; c < m; c++) { /* the padding cells too */
                sv_brange r = sv_blelloch_range(t, k, c);
                int32_t want = 0;
                for (uint32_t i = r.lo; !r.empty && i <= r.hi; i++)
                    want = (int32_t)((uint32_t)want + (uint32_t)in[i].i);
                if (!r.known || !t->steps[k].written[0][c] || t->steps[k].cells[0][c].i != want) {
                    if (bad++ < 5)
                        CHECK_MSG(false, "n %zu step %zu t[%u]: holds %d, the reading [%u..%u]%s "
                                  "says %d", n, k, (unsigned)c, t->steps[k].cells[0][c].i,
                                  (unsigned)r.lo, (unsigned)r.hi, r.empty ? " (empty)" : "", want);
                }
                sv_bswap w;
                if (sv_blelloch_swap_at(t, k, c, &w) && w.right == c) {
                    swaps++;
                    CHECK_INT(w.right - w.left, st.stride);
                    CHECK_INT(w.thread, (w.right + 1) / (2 * st.stride) - 1);
                }
            }
        }
        CHECK_MSG(!sv_blelloch_step(t, t->nsteps, &(sv_bstep){0}), "n %zu: a plan past the end", n);
        if (n == m) /* every pair of the down-sweep is a swap: m - 1 of them */
            CHECK_MSG(swaps == m - 1, "n %zu: %zu swaps, want %u", n, swaps, (unsigned)(m - 1));
        if (n == 8) {
            char l1[512], l2[512], buf[128];
            CHECK(sv_blelloch_step_words(t, 2, l1, sizeof l1, l2, sizeof l2));
            CHECK_STR(l1, "up-sweep, stride 2: each right child takes the sum of its pair");
            CHECK_CONTAINS(l2, "t[3] [0..3] and t[7] [4..7]");
            CHECK(sv_blelloch_step_words(t, 4, l1, sizeof l1, l2, sizeof l2));
            CHECK_CONTAINS(l1, "the root cleared: t[7], the total [0..7] = 25");
            CHECK(sv_blelloch_step_words(t, 5, l1, sizeof l1, l2, sizeof l2));
            CHECK_CONTAINS(l1, "down-sweep, stride 4: each pair swaps and adds");
            CHECK_CONTAINS(l2, "t[3] [] and t[7] [0..3]");
            CHECK_STR(sv_blelloch_cell_words(t, 2, 3, buf, sizeof buf),
                      "t[3] holds the sum of in[0..3], its subtree");
            CHECK_STR(sv_blelloch_step_label(t, 6, buf, sizeof buf), "\u21932");
            sv_bswap w;
            CHECK(sv_blelloch_swap_at(t, 5, 3, &w));
            CHECK(w.left == 3 && w.right == 7 && w.parent.i == 0 && w.old_left.i == 11);
            CHECK(!sv_blelloch_swap_at(t, 2, 3, &w)); /* the up-sweep swaps nothing */
        }
        if (n == 5) {
            char l1[512], l2[512], buf[160];
            CHECK(sv_blelloch_step_words(t, 0, l1, sizeof l1, l2, sizeof l2));
            CHECK_CONTAINS(l2, "t[5..7] are padding holding the identity 0");
            /* the total lands in the padding slot t[7]: said, not hidden */
            CHECK(sv_blelloch_step_words(t, 3, l1, sizeof l1, l2, sizeof l2));
            CHECK_CONTAINS(l2, "t[7] [0..4]");
            CHECK(sv_blelloch_marked(t, 3, 7));
            CHECK_STR(sv_blelloch_cell_words(t, 3, 7, buf, sizeof buf),
                      "t[7] holds the sum of in[0..4], its subtree (a padding slot past the input)");
            CHECK_STR(sv_blelloch_cell_words(t, 0, 6, buf, sizeof buf),
                      "t[6] is padding: the identity 0");
        }
        sv_ktrace_destroy(t);
    }
    /* Not Blelloch: the chapter's kernel has no such reading. */
    input_of(SV_OP_SUM, SV_TYPE_INT32, 8, in);
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.builtin = "kernels/hillis_steele.cu";
    req.op = SV_OP_SUM;
    req.input = in;
    req.n = 8;
    req.runs = 1;
    char err[256];
    sv_ktrace *hs = sv_runtime_run(&req, err, sizeof err);
    CHECK(hs && !sv_blelloch_is(hs) && !sv_blelloch_step(hs, 0, &(sv_bstep){0}));
    sv_ktrace_destroy(hs);
}

int main(void)
{
    need_cpu_runtime(77);
    check_outputs();
    check_counts();
    check_reading();
    return check_status();
}
