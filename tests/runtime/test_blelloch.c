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
#include "core/ktrace.h"
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
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.builtin = "kernels/blelloch.cu";
    req.op = op;
    req.type = type;
    req.scan = scan;
    req.input = in;
    req.n = n;
    req.runs = 1;
    req.schedule.kind = SV_SCHEDULE_LOCKSTEP;
    char err[256];
    sv_ktrace *t = sv_runtime_run(&req, err, sizeof err);
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

int main(void)
{
    need_cpu_runtime(77);
    check_outputs();
    check_counts();
    return check_status();
}
