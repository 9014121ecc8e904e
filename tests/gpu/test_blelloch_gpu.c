/* test_blelloch_gpu: kernels/blelloch.cu on the GPU runtime (NVRTC,
 * sv_runtime_run with builtin and SV_RUNTIME_GPU: the one GPU path) against
 * the same file on the CPU runtime (its shipped build), bit for bit: every operator
 * on both types (xor on int32 only), inclusive and exclusive, at n = 1, 2,
 * 3, 8, 13, 37, 1000, 1024, on inputs chosen to make float32 rounding show:
 * values of mixed magnitudes (so that the tree's order of additions
 * differs from the sequential one, and any other order on the GPU would
 * show), subnormals, signed zeros, and infinities for max and min. Also the
 * chapter's example against its known exclusive scan. Exits 77 without a
 * usable GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/runtime/runtime.h"
#include "../expect.h"
#include "../runtime/blelloch_request.h"

static const size_t ns[] = {1, 2, 3, 8, 13, 37, 1000, 1024};

static uint32_t next(uint32_t *x)
{
    *x = *x * 1103515245u + 12345u;
    return *x >> 8;
}

static void input_of(sv_op op, sv_type type, size_t n, sv_value *in)
{
    uint32_t x = 2026u + (uint32_t)n * 31u + (uint32_t)op * 7u + (uint32_t)type;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = next(&x);
        int s = (int)(r % 2001u) - 1000;
        if (type == SV_TYPE_INT32) {
            in[i].i = op == SV_OP_PRODUCT ? (int32_t)(r % 7u) - 3 : (int32_t)(r * 2654435761u);
            continue;
        }
        float f = (float)s / 7.0f * ldexpf(1.0f, (int)(r % 40u) - 20); /* mixed magnitudes */
        if (op == SV_OP_PRODUCT)
            f = 1.0f + (float)s / 4096.0f; /* near 1: the products stay finite */
        if (i % 97 == 5)
            f = -0.0f;
        if (i % 89 == 7)
            f = ldexpf((float)(s | 1), -140); /* subnormal */
        if ((op == SV_OP_MAX || op == SV_OP_MIN) && i % 131 == 11)
            f = i % 2 ? INFINITY : -INFINITY;
        in[i].f = f;
    }
}

/* out[0..n) of one GPU runtime run; false with err filled when it failed or
 * left a cell unwritten. */
static bool gpu_run(sv_op op, sv_type type, sv_scan scan, const sv_value *in, size_t n,
                    sv_value *out, char *err, size_t errlen)
{
    const sv_runtime_request req = {
        .builtin = "kernels/blelloch.cu", .op = op, .type = type, .scan = scan, .input = in,
        .n = n, .backend = SV_RUNTIME_GPU, .runs = 1,
        .schedule = {.kind = SV_SCHEDULE_LOCKSTEP},
    };
    char why[512];
    sv_ktrace *t = sv_runtime_run(&req, err, errlen);
    bool ok = t && t->failure.kind == SV_KFAIL_NONE;
    if (t && !ok)
        snprintf(err, errlen, "%s", sv_ktrace_failure_words(t, why, sizeof why));
    for (size_t i = 0; ok && i < n; i++) {
        ok = t->output_written[i];
        out[i] = t->output[i];
        if (!ok)
            snprintf(err, errlen, "out[%zu] never written", i);
    }
    sv_ktrace_destroy(t);
    return ok;
}

static sv_ktrace *cpu_run(sv_op op, sv_type type, sv_scan scan, const sv_value *in, size_t n)
{
    char err[256];
    sv_ktrace *t = blelloch_cpu_run(op, type, scan, in, n, err, sizeof err);
    CHECK_MSG(t != NULL, "CPU runtime: %s", err);
    return t;
}

/* One case; returns whether GPU and CPU agree on every cell. */
static bool one(sv_op op, sv_type type, sv_scan scan, size_t n, size_t *cases)
{
    sv_value in[SV_MAX_N], gpu[SV_MAX_N];
    char err[512];
    input_of(op, type, n, in);
    if (!gpu_run(op, type, scan, in, n, gpu, err, sizeof err)) {
        CHECK_MSG(false, "GPU %s %s %s n=%zu: %s", sv_op_name(op), sv_type_name(type),
                  sv_scan_name(scan), n, err);
        return false;
    }
    sv_ktrace *t = cpu_run(op, type, scan, in, n);
    if (!t)
        return false;
    CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "CPU run failed: %s",
              t->failure.message ? t->failure.message : "?");
    bool same = t->failure.kind == SV_KFAIL_NONE;
    for (size_t i = 0; same && i < n; i++) {
        if (!t->output_written[i] || t->output[i].bits != gpu[i].bits) {
            CHECK_MSG(false, "%s %s %s n=%zu: out[%zu] GPU 0x%08x, CPU runtime 0x%08x%s",
                      sv_op_name(op), sv_type_name(type), sv_scan_name(scan), n, i,
                      (unsigned)gpu[i].bits, (unsigned)t->output[i].bits,
                      t->output_written[i] ? "" : " (unwritten)");
            same = false;
        }
    }
    sv_ktrace_destroy(t);
    (*cases)++;
    return same;
}

int main(void)
{
    char why[256];
    if (!sv_runtime_available(SV_RUNTIME_GPU, why, sizeof why)) {
        printf("skipped: %s\n", why);
        return 77;
    }
    char cpu_why[256];
    if (!sv_runtime_available(SV_RUNTIME_CPU, cpu_why, sizeof cpu_why)) {
        printf("skipped: the CPU runtime cannot run here: %s\n", cpu_why);
        return 77;
    }
    /* The chapter's example, exclusive: 0 3 4 11 11 15 16 22. */
    sv_value ex[8], out[8];
    const int32_t vals[8] = {3, 1, 7, 0, 4, 1, 6, 3}, want[8] = {0, 3, 4, 11, 11, 15, 16, 22};
    for (int i = 0; i < 8; i++)
        ex[i].i = vals[i];
    char err[512];
    CHECK_MSG(gpu_run(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, ex, 8, out, err, sizeof err),
              "%s", err);
    for (int i = 0; i < 8; i++)
        CHECK_INT(out[i].i, want[i]);
    size_t cases = 0, agree = 0;
    for (int type = 0; type < SV_TYPE_COUNT; type++)
        for (int op = 0; op < SV_OP_COUNT; op++) {
            if (op == SV_OP_XOR && type == SV_TYPE_FLOAT32)
                continue;
            for (int scan = 0; scan < 2; scan++)
                for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
                    agree += one((sv_op)op, (sv_type)type, (sv_scan)scan, ns[k], &cases);
        }
    printf("blelloch GPU vs CPU runtime: %zu of %zu cases bit-identical\n", agree, cases);
    CHECK_INT((long)cases, 9L * 2 * 8);
    return check_report("blelloch on the GPU: bit-identical to the CPU runtime");
}
