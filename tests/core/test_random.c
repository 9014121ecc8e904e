/* Seeded random arrays for every n from 1 to SV_MAX_N, every op and type, both
 * scans: the emulator's output against the sequential reference (int32 and
 * float32 max/min bit-exact, float32 sum/product within a rounding bound),
 * and sv_trace_check() passing. Argument: int32 or float32 (one run each, so
 * Meson runs the two in parallel). */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../expect.h"
#include "emulate.h"
#include "reference.h"
#include "parse.h"
#include "trace.h"

/* |got - want| within a bound for an order-changed float sum/product over
 * input[0..i]. Hillis-Steele is within (rounds + 1) * eps * sum|x| of the
 * exact sum and the sequential scan within (i + 1) * eps * sum|x|, so they
 * differ by at most the sum of both; a product is off by at most (i + 1)
 * roundings of eps/2 in each. */
static bool close_enough(sv_op op, const double *mag, size_t i, size_t rounds, float got, float want)
{
    if (got == want)
        return true;
    double bound;
    if (op == SV_OP_SUM)
        bound = (double)(rounds + i + 2) * FLT_EPSILON * mag[i];
    else
        bound = (double)(i + 2) * FLT_EPSILON * fabs((double)want);
    return fabs((double)got - (double)want) <= bound;
}

static void run_one(sv_op op, sv_type type, sv_scan scan, size_t n, int *failures_shown)
{
    char err[512];
    uint64_t seed = 0x5ca77e5ull * n + (uint64_t)op * 131 + (uint64_t)type * 7 + (uint64_t)scan;
    sv_value *in = sv_random_values(op, type, n, seed);
    sv_value *ref = malloc(n * sizeof *ref);
    sv_trace *t = sv_trace_create(op, type, scan, in, n, SV_BACKEND_CPU, NULL, err, sizeof err);
    int before = failures;
    CHECK_MSG(t != NULL, "%s", err);
    if (!t || !in || !ref)
        goto done;
    CHECK_MSG(sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err), "%s", err);
    CHECK_INT(t->nrounds, sv_round_count(n));
    sv_reference_scan(op, type, scan, in, ref, n);
    double *mag = malloc(n * sizeof *mag); /* mag[i] = sum |input[0..i]| */
    for (size_t i = 0; mag && type == SV_TYPE_FLOAT32 && i < n; i++)
        mag[i] = (i ? mag[i - 1] : 0.0) + fabs((double)in[i].f);
    bool exact = type == SV_TYPE_INT32 || op == SV_OP_MAX || op == SV_OP_MIN;
    for (size_t i = 0; i < n; i++) {
        if (exact) {
            CHECK_MSG(t->output[i].bits == ref[i].bits, "%s %s %s n=%zu output[%zu]: %08x vs reference %08x",
                      sv_op_name(op), sv_type_name(type), sv_scan_name(scan), n, i,
                      (unsigned)t->output[i].bits, (unsigned)ref[i].bits);
        } else {
            /* exclusive output[i] covers input[0..i-1] */
            size_t last = scan == SV_SCAN_EXCLUSIVE ? (i ? i - 1 : 0) : i;
            CHECK_MSG(mag && close_enough(op, mag, last, t->nrounds, t->output[i].f, ref[i].f),
                      "%s float32 %s n=%zu output[%zu]: %.9g vs reference %.9g", sv_op_name(op),
                      sv_scan_name(scan), n, i, (double)t->output[i].f, (double)ref[i].f);
        }
        if (failures > before)
            break;
    }
    free(mag);
    if (exact)
        CHECK(t->max_abs_diff == 0.0);
    CHECK_MSG(sv_trace_check(t, err, sizeof err), "%s %s %s n=%zu: %s", sv_op_name(op),
              sv_type_name(type), sv_scan_name(scan), n, err);
    /* Ops: round r does n - 2^(r-1); total is the sum. */
    size_t total = 0;
    for (size_t r = 1; r < t->nrounds; r++)
        total += n - ((size_t)1 << (r - 1));
    CHECK_INT(t->total_ops, total);
done:
    if (failures > before)
        (*failures_shown)++;
    sv_trace_destroy(t);
    free(in);
    free(ref);
}

int main(int argc, char **argv)
{
    sv_type type = SV_TYPE_INT32;
    if (argc > 1 && !sv_type_from_name(argv[1], &type)) {
        fprintf(stderr, "usage: %s int32|float32\n", argv[0]);
        return 2;
    }
    char err[256];
    int shown = 0;
    for (int op = 0; op < SV_OP_COUNT; op++) {
        if (!sv_op_valid((sv_op)op, type, err, sizeof err)) {
            /* xor on float32: refused everywhere, with a clear reason */
            CHECK_STR(err, "xor is defined on int32 only, not on float32");
            sv_value one = {.f = 1.0f};
            CHECK(sv_trace_create((sv_op)op, type, SV_SCAN_INCLUSIVE, &one, 1, SV_BACKEND_CPU, NULL,
                                  err, sizeof err) == NULL);
            CHECK_STR(err, "xor is defined on int32 only, not on float32");
            continue;
        }
        for (size_t n = 1; n <= SV_MAX_N && shown < 20; n++) {
            run_one((sv_op)op, type, SV_SCAN_INCLUSIVE, n, &shown);
            run_one((sv_op)op, type, SV_SCAN_EXCLUSIVE, n, &shown);
        }
    }
    /* Sizes outside 1..SV_MAX_N are refused, saying why. */
    sv_value v[SV_MAX_N + 1] = {{0}};
    CHECK(sv_trace_create(SV_OP_SUM, type, SV_SCAN_INCLUSIVE, v, 0, SV_BACKEND_CPU, NULL, err, sizeof err) == NULL);
    CHECK_STR(err, "no values");
    CHECK(sv_trace_create(SV_OP_SUM, type, SV_SCAN_INCLUSIVE, v, SV_MAX_N + 1, SV_BACKEND_CPU, NULL, err,
                          sizeof err) == NULL);
    CHECK_STR(err, "1025 values: more than the block limit of 1024");
    return check_status();
}
