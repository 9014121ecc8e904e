/* The chapter's CPU capture against the emulator (issue 29): sv_capture with
 * --backend cpu is the CPU runtime's lockstep run of the shipped
 * kernels/hillis_steele.cu read as the chapter's rounds, and it must be bit
 * for bit the trace the emulator (tests/emulate, the tests' independent
 * reference) gives, every field sv_trace holds: each round's metadata,
 * both buffers' values and written flags, cases, windows, overflow and ops,
 * the output, the overflow count and the float difference. For every
 * operator, both types, both scans, n = 1 .. 64 and a sample up to 1024, on
 * seeded random inputs and on int32 and float32 edges; the lab's correct
 * trace (sv_lab_correct_trace, the chapter's reading's windows) too, and
 * both ways between rounds and their kernel trace (the capture's run read
 * again; sv_ktrace_of_rounds, a version 2 file's, read back). No GPU
 * needed. Usage: test_cpu_capture [MAX_EVERY_N] */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "core/ktrace.h"
#include "core/lab_ktrace.h"
#include "core/parse.h"
#include "core/trace.h"
#include "emulate.h"

#define CHECK_PRINT_LIMIT 30
#include "../expect.h"

/* The emulator's finished trace of the input; NULL on failure (checked). */
static sv_trace *emulated(sv_op op, sv_type type, sv_scan scan, const sv_value *in, size_t n)
{
    char err[512];
    sv_trace *t = sv_trace_create(op, type, scan, in, n, SV_BACKEND_CPU, NULL, err, sizeof err);
    if (!t || !sv_emulate(t, err, sizeof err) || !sv_trace_finish(t, err, sizeof err)) {
        CHECK_MSG(false, "emulator: %s", err);
        sv_trace_destroy(t);
        return NULL;
    }
    return t;
}

#define SAME(field)                                                                  \
    do {                                                                             \
        if ((a)->field != (b)->field) {                                              \
            snprintf(diff, difflen, "%s: %.17g vs %.17g", #field, (double)(a)->field, \
                     (double)(b)->field);                                            \
            return false;                                                            \
        }                                                                            \
    } while (0)

/* Whether n cells of x and y are the same bytes (both NULL counts as same). */
static bool same_cells(const void *x, const void *y, size_t bytes)
{
    if (!x || !y)
        return x == y;
    return memcmp(x, y, bytes) == 0;
}

/* Every field of two finished traces: sv_trace_equal (inputs, values where
 * written, written flags), then everything else sv_trace holds, the values
 * of unwritten cells included. */
static bool trace_same(const sv_trace *a, const sv_trace *b, char *diff, size_t difflen)
{
    if (!sv_trace_equal(a, b, diff, difflen))
        return false;
    SAME(backend);
    if ((a->device == NULL) != (b->device == NULL) ||
        (a->device && strcmp(a->device, b->device) != 0)) {
        snprintf(diff, difflen, "device: %s vs %s", a->device ? a->device : "(none)",
                 b->device ? b->device : "(none)");
        return false;
    }
    SAME(total_ops);
    SAME(overflow_count);
    SAME(max_diff_index);
    if (memcmp(&a->max_abs_diff, &b->max_abs_diff, sizeof a->max_abs_diff) != 0) {
        snprintf(diff, difflen, "max_abs_diff: %.17g vs %.17g", a->max_abs_diff, b->max_abs_diff);
        return false;
    }
    if ((a->lab == NULL) != (b->lab == NULL)) {
        snprintf(diff, difflen, "lab record: %s vs %s", a->lab ? "yes" : "none",
                 b->lab ? "yes" : "none");
        return false;
    }
    const size_t n = a->n;
    for (size_t i = 0; i < n; i++)
        if (a->inclusive[i].bits != b->inclusive[i].bits || a->output[i].bits != b->output[i].bits) {
            snprintf(diff, difflen, "inclusive/output[%zu]: %08x/%08x vs %08x/%08x", i,
                     (unsigned)a->inclusive[i].bits, (unsigned)a->output[i].bits,
                     (unsigned)b->inclusive[i].bits, (unsigned)b->output[i].bits);
            return false;
        }
    for (size_t r = 0; r < a->nrounds; r++) {
        const sv_round *p = &a->rounds[r], *q = &b->rounds[r];
        char at[32];
        snprintf(at, sizeof at, "round %zu", r);
        if (p->round != q->round || p->stride != q->stride || p->pin != q->pin ||
            p->pout != q->pout || p->ops != q->ops || p->overflow_count != q->overflow_count) {
            snprintf(diff, difflen, "%s: round/stride/pin/pout/ops/overflows %d/%u/%d/%d/%zu/%zu "
                     "vs %d/%u/%d/%d/%zu/%zu", at, p->round, (unsigned)p->stride, p->pin,
                     p->pout, p->ops, p->overflow_count, q->round, (unsigned)q->stride, q->pin,
                     q->pout, q->ops, q->overflow_count);
            return false;
        }
        for (int k = 0; k < 2; k++)
            if (!same_cells(p->buf[k], q->buf[k], n * sizeof *p->buf[k])) {
                snprintf(diff, difflen, "%s: buf[%d]'s unwritten cells' values", at, k);
                return false;
            }
        if (!same_cells(p->cases, q->cases, n * sizeof *p->cases) ||
            !same_cells(p->window_lo, q->window_lo, n * sizeof *p->window_lo) ||
            !same_cells(p->overflow, q->overflow, n * sizeof *p->overflow)) {
            snprintf(diff, difflen, "%s: cases, windows or overflow flags", at);
            return false;
        }
    }
    return true;
}

/* The CPU capture and the lab's correct trace of the input against the
 * emulator's; returns whether both are the same. */
static bool compare(sv_op op, sv_type type, sv_scan scan, const sv_value *in, size_t n)
{
    char err[512], diff[512];
    const sv_capture_request req = {
        .op = op, .type = type, .scan = scan, .input = in, .n = n, .choice = SV_CHOOSE_CPU,
    };
    sv_trace *cpu = NULL, *emu = emulated(op, type, scan, in, n), *correct = NULL;
    sv_capture_source src;
    sv_capture_status st = sv_capture(&req, &cpu, &src, err, sizeof err);
    CHECK_MSG(st == SV_CAPTURE_OK, "%s %s %s n=%zu: cpu capture: %s", sv_op_name(op),
              sv_type_name(type), sv_scan_name(scan), n, err);
    bool same = false;
    if (cpu && emu) {
        CHECK_MSG(src.backend == SV_BACKEND_CPU && strcmp(src.label, "CPU emulator") == 0 &&
                      strcmp(src.reason, "--backend cpu") == 0,
                  "source: %s: %s", src.label, src.reason);
        same = trace_same(cpu, emu, diff, sizeof diff);
        CHECK_MSG(same, "%s %s %s n=%zu: the CPU capture differs from the emulator's: %s",
                  sv_op_name(op), sv_type_name(type), sv_scan_name(scan), n, diff);
        correct = sv_lab_correct_trace(cpu, err, sizeof err);
        CHECK_MSG(correct, "sv_lab_correct_trace: %s", err);
        bool c = correct && trace_same(correct, emu, diff, sizeof diff);
        CHECK_MSG(!correct || c, "%s %s %s n=%zu: the lab's correct trace differs from the "
                  "emulator's: %s", sv_op_name(op), sv_type_name(type), sv_scan_name(scan), n,
                  diff);
        same = same && c;
        /* The rounds keep the run they read (sv_trace.run), and reading it
         * again gives them back; the rounds without their run (a version 2
         * file's) imply a kernel trace that reads back as the same rounds. */
        CHECK_MSG(cpu->run && cpu->run->readings && cpu->run->nsteps == cpu->nrounds + 1,
                  "n=%zu: the capture's run: %zu steps", n, cpu->run ? cpu->run->nsteps : 0);
        for (int way = 0; way < 2; way++) {
            sv_ktrace *implied = way ? sv_ktrace_of_rounds(emu, err, sizeof err) : NULL;
            const sv_ktrace *k = way ? implied : cpu->run;
            sv_trace *again = k ? sv_ktrace_chapter_trace(k, err, sizeof err) : NULL;
            bool ok = again && trace_same(again, emu, diff, sizeof diff);
            CHECK_MSG(ok, "%s %s %s n=%zu: %s read again: %s", sv_op_name(op),
                      sv_type_name(type), sv_scan_name(scan), n,
                      way ? "the rounds' implied kernel trace" : "the capture's run",
                      again ? diff : err);
            same = same && ok;
            sv_trace_destroy(again);
            sv_ktrace_destroy(implied);
        }
    }
    sv_trace_destroy(cpu);
    sv_trace_destroy(emu);
    sv_trace_destroy(correct);
    return same;
}

int main(int argc, char **argv)
{
    size_t every = argc > 1 ? strtoul(argv[1], NULL, 10) : 64;
    static const size_t sample[] = {65, 100, 127, 128, 129, 255, 256, 257, 511, 512, 513, 777,
                                    1000, 1023, 1024};

    /* The chapter's example. */
    {
        static const int32_t in_i[8] = {3, 1, 7, 0, 4, 1, 6, 3};
        sv_value in[8];
        for (int i = 0; i < 8; i++)
            in[i].i = in_i[i];
        for (int s = 0; s < 2; s++)
            CHECK_MSG(compare(SV_OP_SUM, SV_TYPE_INT32, (sv_scan)s, in, 8), "chapter example");
    }

    /* Wrapping int32 and float specials (signed zeros, overflow to inf, a
     * subnormal, NaN from inf - inf), bit for bit. */
    {
        sv_value in[7];
        in[0].i = 2147483647; in[1].i = 1; in[2].i = -2147483647 - 1;
        in[3].i = -1; in[4].i = 65536; in[5].i = 65536; in[6].i = -7;
        for (int op = 0; op < SV_OP_COUNT; op++)
            for (int s = 0; s < 2; s++)
                CHECK_MSG(compare((sv_op)op, SV_TYPE_INT32, (sv_scan)s, in, 7), "int32 edges");
        in[0].f = -0.0f; in[1].f = 0.0f; in[2].f = 1e30f; in[3].f = 1e30f;
        in[4].f = -3.4e38f; in[5].f = 1e-40f; in[6].f = -INFINITY;
        for (int op = 0; op < SV_OP_XOR; op++)
            for (int s = 0; s < 2; s++)
                CHECK_MSG(compare((sv_op)op, SV_TYPE_FLOAT32, (sv_scan)s, in, 7), "float edges");
    }

    /* Every op, type and scan; every n to 64, then the sample. */
    size_t cases = 0, equal = 0;
    for (int type = 0; type < SV_TYPE_COUNT; type++)
        for (int op = 0; op < SV_OP_COUNT; op++) {
            if (!sv_op_valid((sv_op)op, (sv_type)type, NULL, 0))
                continue;
            for (int scan = 0; scan < 2; scan++) {
                size_t before = equal;
                size_t nsample = sizeof sample / sizeof sample[0];
                for (size_t k = 0; k < every + nsample; k++) {
                    size_t n = k < every ? k + 1 : sample[k - every];
                    uint64_t seed = 0xc0de0000u + n * 131 + (uint64_t)op * 7 +
                                    (uint64_t)type * 3 + (uint64_t)scan;
                    sv_value *in = sv_random_values((sv_op)op, (sv_type)type, n, seed);
                    if (!in) {
                        fprintf(stderr, "out of memory\n");
                        return 1;
                    }
                    cases++;
                    equal += compare((sv_op)op, (sv_type)type, (sv_scan)scan, in, n);
                    free(in);
                }
                printf("%-7s %-7s %-9s n = 1..%zu and %zu more to 1024: %zu the emulator's\n",
                       sv_op_name((sv_op)op), sv_type_name((sv_type)type),
                       sv_scan_name((sv_scan)scan), every, nsample, equal - before);
            }
        }
    printf("%zu of %zu CPU captures bit for bit the emulator's trace\n", equal, cases);
    return check_status();
}
