/* The one GPU path against the CPU emulator: the chapter's capture on the
 * GPU (the kernel runtime's NVRTC run of kernels/hillis_steele.cu, its
 * kernel trace read as the chapter's rounds, checked against the invariant
 * by sv_capture) is bit-identical to the emulator's trace, values and
 * written flags (sv_trace_equal), for every op and type, inclusive and
 * exclusive, on seeded random inputs; plus the chapter's example. Each
 * capture is a child process and a compile, so the sizes are every n up to
 * 33 and then the powers of two and their neighbours up to the device's
 * block limit (every n with --every-n). Exits 77 (skipped) without a
 * usable GPU.
 * Usage: test_gpu_trace [MAX_N [--every-n]] */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "emulate.h"
#include "parse.h"
#include "trace.h"

#define CHECK_PRINT_LIMIT 30
#include "../expect.h"

static sv_capture_status cap(sv_op op, sv_type type, sv_scan scan, const sv_value *in,
                             size_t n, sv_backend_choice choice, sv_trace **t, char *err,
                             size_t errlen)
{
    const sv_capture_request req = {
        .op = op, .type = type, .scan = scan, .input = in, .n = n, .choice = choice,
    };
    return sv_capture(&req, t, NULL, err, errlen);
}

/* Captures input on both backends and compares; returns whether equal. */
static bool compare(sv_op op, sv_type type, sv_scan scan, const sv_value *in, size_t n)
{
    char err[512], diff[512];
    sv_trace *gpu = NULL, *cpu = NULL;
    sv_capture_status a = cap(op, type, scan, in, n, SV_CHOOSE_CUDA, &gpu, err, sizeof err);
    CHECK_MSG(a == SV_CAPTURE_OK, "%s %s %s n=%zu: cuda capture: %s", sv_op_name(op),
          sv_type_name(type), sv_scan_name(scan), n, err);
    sv_capture_status b = cap(op, type, scan, in, n, SV_CHOOSE_CPU, &cpu, err, sizeof err);
    CHECK_MSG(b == SV_CAPTURE_OK, "%s %s %s n=%zu: cpu capture: %s", sv_op_name(op),
          sv_type_name(type), sv_scan_name(scan), n, err);
    bool same = false;
    if (gpu && cpu) {
        CHECK_MSG(gpu->backend == SV_BACKEND_CUDA && gpu->device && gpu->device[0],
              "cuda trace not marked as such");
        same = sv_trace_equal(gpu, cpu, diff, sizeof diff);
        CHECK_MSG(same, "%s %s %s n=%zu: CUDA trace differs from the emulator's: %s",
              sv_op_name(op), sv_type_name(type), sv_scan_name(scan), n, diff);
        for (size_t i = 0; same && i < n; i++) {
            if (gpu->output[i].bits != cpu->output[i].bits) {
                CHECK_MSG(false, "%s n=%zu: output[%zu] differs", sv_op_name(op), n, i);
                same = false;
            }
        }
    }
    sv_trace_destroy(gpu);
    sv_trace_destroy(cpu);
    return same;
}

/* The size after n: every n to 33, then 2^k - 1, 2^k, 2^k + 1 and 1000. */
static size_t next_n(size_t n, bool every_n)
{
    if (every_n || n < 33)
        return n + 1;
    size_t p = 64;
    while (p <= n + 1)
        p *= 2;
    if (n + 1 == p / 2) /* n = 2^k - 1: then 2^k and 2^k + 1 */
        return n + 1;
    if (n == p / 2)
        return n + 1;
    if (n < 1000 && p - 1 > 1000)
        return 1000;
    return p - 1;
}

int main(int argc, char **argv)
{
    char device[256], why[256];
    size_t max_n = 0;
    if (!sv_capture_cuda_available(device, sizeof device, &max_n, why, sizeof why)) {
        printf("skipped: %s\n", why);
        return 77;
    }
    if (argc > 1) {
        size_t want = strtoul(argv[1], NULL, 10);
        if (want >= 1 && want < max_n)
            max_n = want;
    }
    bool every_n = argc > 2 && strcmp(argv[2], "--every-n") == 0;
    printf("device: %s, n from 1 to %zu\n", device, max_n);

    /* The chapter's example, and its exact result. */
    {
        static const int32_t in_i[8] = {3, 1, 7, 0, 4, 1, 6, 3};
        static const int32_t out_i[8] = {3, 4, 11, 11, 15, 16, 22, 25};
        sv_value in[8];
        for (int i = 0; i < 8; i++)
            in[i].i = in_i[i];
        CHECK_MSG(compare(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, 8), "chapter example");
        char err[512];
        sv_trace *t = NULL;
        if (cap(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, 8, SV_CHOOSE_CUDA, &t, err,
                sizeof err) == SV_CAPTURE_OK) {
            for (int i = 0; i < 8; i++)
                CHECK_MSG(t->output[i].i == out_i[i], "chapter output[%d] = %d", i, t->output[i].i);
            /* Round 0: buf[1] uninitialized, reported through the flags. */
            for (int i = 0; i < 8; i++)
                CHECK_MSG(!t->rounds[0].written[1][i], "round 0 buf[1][%d] marked written", i);
        } else {
            CHECK_MSG(false, "chapter capture: %s", err);
        }
        sv_trace_destroy(t);
    }

    /* Wrapping int32 and float specials: the GPU must agree bit for bit. */
    {
        sv_value in[6];
        in[0].i = 2147483647; in[1].i = 1; in[2].i = -2147483647 - 1;
        in[3].i = -1; in[4].i = 65536; in[5].i = 65536;
        for (int op = 0; op < SV_OP_COUNT; op++)
            CHECK_MSG(compare((sv_op)op, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, 6), "int32 edges");
        in[0].f = -0.0f; in[1].f = 0.0f; in[2].f = 1e30f; in[3].f = 1e30f;
        in[4].f = -3.4e38f; in[5].f = 1e-40f; /* subnormal */
        for (int op = 0; op < SV_OP_XOR; op++)
            for (int s = 0; s < 2; s++)
                CHECK_MSG(compare((sv_op)op, SV_TYPE_FLOAT32, (sv_scan)s, in, 6), "float edges");
    }

    /* Every n, op, type and scan, on seeded random inputs. */
    size_t cases = 0, equal = 0;
    for (int type = 0; type < SV_TYPE_COUNT; type++) {
        for (int op = 0; op < SV_OP_COUNT; op++) {
            if (!sv_op_valid((sv_op)op, (sv_type)type, NULL, 0))
                continue;
            for (int scan = 0; scan < 2; scan++) {
                size_t before = equal;
                for (size_t n = 1; n <= max_n; n = next_n(n, every_n)) {
                    uint64_t seed = 0x5eed0000u + n * 131 + (uint64_t)op * 7 + (uint64_t)type * 3
                                    + (uint64_t)scan;
                    sv_value *in = sv_random_values((sv_op)op, (sv_type)type, n, seed);
                    if (!in) {
                        fprintf(stderr, "out of memory\n");
                        return 1;
                    }
                    cases++;
                    equal += compare((sv_op)op, (sv_type)type, (sv_scan)scan, in, n);
                    free(in);
                }
                printf("%-7s %-7s %-9s n = 1..%zu (%s): %zu bit-identical\n", sv_op_name((sv_op)op),
                       sv_type_name((sv_type)type), sv_scan_name((sv_scan)scan), max_n,
                       every_n ? "every n" : "sampled", equal - before);
            }
        }
    }
    printf("%zu of %zu random traces bit-identical to the emulator's\n", equal, cases);
    return check_status();
}
