/* lab_time: the host side of the mistakes lab, timed in-process.
 * - summary: sv_lab_summarize alone on R synthetic runs at n = 1024 (the
 *   correct kernel's rounds, each cell of a run wrong with probability
 *   1/8, wrong values from a few), no GPU needed;
 * - capture: where a GPU is usable, after one capture, whole lab captures
 *   (sv_capture: R shaken runs of in-place at n = 1024 in one child of the
 *   GPU runtime, their summary, the shown run's trace), R = 100 and 1000.
 * Prints medians of 7 (wall clock, ms). Usage: lab_time. Exits 1 on a
 * failure. docs/performance.md records the runs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sv_config.h"
#include "../timing.h"
#include "../../src/capture/capture.h"
#include "../../src/core/bench_check.h"
#include "../../src/core/lab.h"

#define N 1024
#define REPS 7

static double median(double *t, int k)
{
    qsort(t, (size_t)k, sizeof *t, cmp_double);
    return t[k / 2];
}

/* The inclusive int32 sum scan of the N values in, on the backend chosen. */
static sv_capture_request sum_request(const sv_value *in, sv_backend_choice choice)
{
    return (sv_capture_request){
        .op = SV_OP_SUM, .type = SV_TYPE_INT32, .scan = SV_SCAN_INCLUSIVE, .input = in, .n = N,
        .choice = choice,
    };
}

static sv_trace *correct_trace(const sv_value *in)
{
    sv_capture_request req = sum_request(in, SV_CHOOSE_CPU);
    sv_trace *t = NULL;
    char err[512];
    if (sv_capture(&req, &t, NULL, err, sizeof err) != SV_CAPTURE_OK) {
        fprintf(stderr, "lab_time: correct trace: %s\n", err);
        return NULL;
    }
    return t;
}

/* many: each cell wrong in half the runs, with a value of its own each
 * time (a race's worst case); else in 1/8 of them, from 3 values. */
static bool time_summary(const sv_trace *t, uint32_t runs, bool many)
{
    const size_t cells = (size_t)N * t->nrounds;
    uint32_t *bits = malloc(runs * cells * sizeof *bits);
    if (!bits)
        return false;
    uint64_t rng = 12345;
    for (uint32_t k = 0; k < runs; k++) {
        sv_lab_raw_from_trace(t, k, bits, NULL);
        for (size_t j = 0; j < cells; j++) {
            rng = rng * 6364136223846793005ull + 1442695040888963407ull;
            if (many ? (rng >> 63) == 0 : (rng >> 61) == 0)
                bits[k * cells + j] += 1 + (uint32_t)(many ? rng >> 40 : (rng >> 33) % 3);
        }
    }
    double ms[REPS];
    char err[256];
    for (int r = 0; r < REPS; r++) {
        double t0 = now_ms();
        sv_lab_summary *s = sv_lab_summarize(t, runs, bits, NULL, err, sizeof err);
        ms[r] = now_ms() - t0;
        if (!s) {
            fprintf(stderr, "lab_time: %s\n", err);
            free(bits);
            return false;
        }
        if (r == 0)
            printf("summary  runs %5u: %u wrong runs, %u distinct outputs, cell 5000 holds %u "
                   "values\n", (unsigned)runs, (unsigned)s->wrong_runs,
                   (unsigned)s->distinct_outputs, (unsigned)s->cells[5000].nvalues);
        sv_lab_summary_destroy(s);
    }
    printf("summary  runs %5u: %8.2f ms (median of %d, n = %d, %s)\n", (unsigned)runs,
           median(ms, REPS), REPS, N,
           many ? "half the cells wrong, distinct values" : "1/8 of cells wrong, 3 values");
    free(bits);
    return true;
}

static bool time_capture(const sv_value *in, uint32_t runs)
{
    sv_capture_request req = sum_request(in, SV_CHOOSE_CUDA);
    req.kernel = SV_KERNEL_IN_PLACE;
    req.runs = runs;
    req.shake = true;
    double ms[REPS];
    char err[512];
    for (int r = -1; r < REPS; r++) {
        sv_trace *t = NULL;
        double t0 = now_ms();
        sv_capture_status st = sv_capture(&req, &t, NULL, err, sizeof err);
        double dt = now_ms() - t0;
        if (st != SV_CAPTURE_OK || !t || !t->lab) {
            fprintf(stderr, "lab_time: capture: %s\n", err);
            sv_trace_destroy(t);
            return false;
        }
        if (r == 0)
            printf("capture  runs %5u: %u wrong runs (the GPU runtime's call %.2f ms)\n", (unsigned)runs,
                   (unsigned)t->lab->summary->wrong_runs, t->lab->wall_us / 1e3);
        if (r >= 0)
            ms[r] = dt;
        sv_trace_destroy(t);
    }
    printf("capture  runs %5u: %8.2f ms (median of %d after a warm-up, in-place, shaken, "
           "n = %d)\n", (unsigned)runs, median(ms, REPS), REPS, N);
    return true;
}


int main(void)
{
    sv_value in[N];
    for (int i = 0; i < N; i++)
        in[i].bits = (uint32_t)(i % 7 + 1);
    sv_trace *t = correct_trace(in);
    if (!t)
        return 1;
    bool ok = time_summary(t, 100, false) && time_summary(t, 1000, false) &&
              time_summary(t, 100, true) && time_summary(t, 1000, true);
    char dev[256], why[256];
    size_t max_n = 0;
    double t0 = now_ms();
    if (!sv_capture_cuda_available(dev, sizeof dev, &max_n, why, sizeof why)) {
        printf("capture: skipped (%s)\n", why);
        sv_trace_destroy(t);
        return ok ? 0 : 1;
    }
    printf("capture: %s, probe and context %.1f ms\n", dev, now_ms() - t0);
    ok = ok && time_capture(in, 100) && time_capture(in, 1000);
    sv_trace_destroy(t);
    return ok ? 0 : 1;
}
