/* tune_hs: times every hs variant (block shape, items per thread, pipeline
 * stages, blocks per SM, look-back window, or hs-lookback's kernel in other
 * shapes) against copy, cub and hs-lookback, so that hs's size-dependent
 * choice can be made on the GPU (docs/performance.md records the run). Each
 * variant is checked against the CPU before it is timed.
 * Usage: tune_hs [reps [int32|float32 [N,N,...]]] (defaults 30, int32 and
 * 2^12, 2^16, 2^20, ..., 2^28). Exits 1 on a CUDA failure or a WRONG cell,
 * 2 on bad arguments, 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/scan_cuda.h"
#include "../../src/core/bench_check.h"

enum { kMaxSizes = 32 };

static int usage(void)
{
    fprintf(stderr, "usage: tune_hs [reps 1..100000 [int32|float32 [N,N,... (1..2^30)]]]\n");
    return 2;
}

/* Parses "N,N,..." into ns; false on a bad list. */
static bool parse_sizes(const char *arg, size_t *ns, size_t *count)
{
    *count = 0;
    const char *p = arg;
    while (*p) {
        char *end = NULL;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || v < 1 || v > (1ull << 30) || *count == kMaxSizes ||
            (*end && *end != ','))
            return false;
        ns[(*count)++] = (size_t)v;
        p = *end ? end + 1 : end;
    }
    return *count > 0;
}

/* One row's algorithm and label: -3 copy, -2 cub, -1 hs-lookback, else hs
 * variant row. */
static sv_algo row_algo(int row, char *label, size_t len)
{
    sv_algo algo = row == -3   ? SV_ALGO_COPY
                   : row == -2 ? SV_ALGO_CUB
                   : row == -1 ? SV_ALGO_HS_LOOKBACK
                               : SV_ALGO_HS;
    if (row >= 0)
        snprintf(label, len, "hs %d: %s", row, sv_cuda_hs_variant_name(row));
    else
        snprintf(label, len, "%s", sv_algo_name(algo));
    return algo;
}

int main(int argc, char **argv)
{
    int reps = 30;
    sv_type type = SV_TYPE_INT32;
    size_t ns[kMaxSizes] = { 1u << 12, 1u << 16, 1u << 20, 1u << 22, 1u << 24, 1u << 26,
                             1u << 28 };
    size_t nsizes = 7;
    if (argc > 4)
        return usage();
    if (argc >= 2) {
        char *end = NULL;
        long r = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end || r < 1 || r > 100000)
            return usage();
        reps = (int)r;
    }
    if (argc >= 3) {
        if (strcmp(argv[2], "int32") == 0)
            type = SV_TYPE_INT32;
        else if (strcmp(argv[2], "float32") == 0)
            type = SV_TYPE_FLOAT32;
        else
            return usage();
    }
    if (argc >= 4 && !parse_sizes(argv[3], ns, &nsizes))
        return usage();
    sv_cuda_device dev;
    char err[512];
    if (!sv_cuda_probe(&dev, err, sizeof err)) {
        printf("skip: %s\n", err);
        return 77;
    }
    size_t max_n = 0;
    for (size_t k = 0; k < nsizes; k++)
        max_n = ns[k] > max_n ? ns[k] : max_n;
    const int nvar = sv_cuda_hs_variant_count(), rows = nvar + 3;
    int status = 0;
    void *in = malloc(max_n * 4), *out = malloc(max_n * 4);
    double *t = malloc((size_t)reps * sizeof *t);
    double *us = calloc((size_t)rows * nsizes, sizeof *us); /* < 0: WRONG */
    sv_cuda_scanner *sc = sv_cuda_scanner_create(type, max_n, err, sizeof err);
    if (!in || !out || !t || !us || !sc) {
        fprintf(stderr, "tune_hs: %s\n", sc ? "out of host memory" : err);
        status = 1;
        goto done;
    }
    /* Sizes outside, rows inside: one fill and upload per size. */
    for (size_t k = 0; k < nsizes; k++) {
        size_t n = ns[k];
        sv_bench_fill(type, in, n, 5u + n);
        if (!sv_cuda_scanner_upload(sc, in, n, err, sizeof err)) {
            fprintf(stderr, "tune_hs: %s\n", err);
            status = 1;
            goto done;
        }
        for (int row = -3; row < nvar; row++) {
            char label[96];
            sv_algo algo = row_algo(row, label, sizeof label);
            if (row >= 0 && !sv_cuda_scanner_set_hs_variant(sc, row, err, sizeof err)) {
                fprintf(stderr, "tune_hs: %s\n", err);
                status = 1;
                goto done;
            }
            if (!sv_cuda_scanner_poison(sc, err, sizeof err) ||
                !sv_cuda_scanner_run(sc, algo, n, err, sizeof err) ||
                !sv_cuda_scanner_download(sc, out, n, err, sizeof err)) {
                fprintf(stderr, "tune_hs: %s: n %zu: %s\n", label, n, err);
                status = 1;
                goto done;
            }
            double *cell = &us[(size_t)(row + 3) * nsizes + k];
            if (algo != SV_ALGO_COPY && !sv_bench_check_scan(type, in, out, n).ok) {
                *cell = -1.0;
                status = 1;
                continue;
            }
            if (!sv_cuda_scanner_time(sc, algo, n, 3, reps, t, err, sizeof err)) {
                fprintf(stderr, "tune_hs: %s: n %zu: %s\n", label, n, err);
                status = 1;
                goto done;
            }
            *cell = sv_bench_median(t, reps);
        }
    }
    printf("%s, %s, medians of %d (us; GB/s counts read n + write n)\n", dev.name,
           type == SV_TYPE_INT32 ? "int32" : "float32", reps);
    printf("%-52s", "n");
    for (size_t k = 0; k < nsizes; k++)
        printf(" %14zu", ns[k]);
    printf("\n");
    for (int row = -3; row < nvar; row++) {
        char label[96];
        row_algo(row, label, sizeof label);
        printf("%-52s", label);
        for (size_t k = 0; k < nsizes; k++) {
            double u = us[(size_t)(row + 3) * nsizes + k];
            if (u < 0)
                printf(" %14s", "WRONG");
            else
                printf(" %7.2f/%6.0f", u, 8.0 * (double)ns[k] / (u * 1e3));
        }
        printf("\n");
    }
done:
    sv_cuda_scanner_destroy(sc);
    free(us);
    free(t);
    free(in);
    free(out);
    return status;
}
