/* tune_hs: times every hs variant (block shape, items per thread, pipeline
 * stages, blocks per SM) against copy, cub and hs-lookback, int32, so that the default
 * can be chosen on the GPU (docs/performance.md records the run). Each
 * variant is checked against the CPU before it is timed.
 * Usage: tune_hs [reps] (default 30). Exits 1 on a CUDA failure or a
 * WRONG cell, 2 on bad arguments, 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>

#include "../../kernels/scan_cuda.h"
#include "../../src/core/bench_check.h"

int main(int argc, char **argv)
{
    int reps = 30;
    if (argc >= 2) {
        char *end = NULL;
        long r = argc == 2 ? strtol(argv[1], &end, 10) : 0;
        if (argc > 2 || end == argv[1] || *end || r < 1 || r > 100000) {
            fprintf(stderr, "usage: tune_hs [reps 1..100000] (default 30)\n");
            return 2;
        }
        reps = (int)r;
    }
    sv_cuda_device dev;
    char err[512];
    if (!sv_cuda_probe(&dev, err, sizeof err)) {
        printf("skip: %s\n", err);
        return 77;
    }
    static const size_t ns[] = { 1u << 12, 1u << 16, 1u << 20, 1u << 22, 1u << 24, 1u << 26,
                                 1u << 28 };
    const size_t max_n = 1u << 28;
    int status = 0;
    void *in = malloc(max_n * 4), *out = malloc(max_n * 4);
    double *t = malloc((size_t)reps * sizeof *t);
    sv_cuda_scanner *sc = sv_cuda_scanner_create(SV_TYPE_INT32, max_n, err, sizeof err);
    if (!in || !out || !t || !sc) {
        fprintf(stderr, "tune_hs: %s\n", sc ? "out of host memory" : err);
        status = 1;
        goto done;
    }
    printf("%s, int32, medians of %d (us; GB/s counts read n + write n)\n", dev.name, reps);
    printf("%-46s", "n");
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        printf(" %14zu", ns[k]);
    printf("\n");
    const int nvar = sv_cuda_hs_variant_count();
    for (int row = -3; row < nvar; row++) {
        sv_algo algo = row == -3   ? SV_ALGO_COPY
                       : row == -2 ? SV_ALGO_CUB
                       : row == -1 ? SV_ALGO_HS_LOOKBACK
                                   : SV_ALGO_HS;
        char label[96];
        if (row >= 0) {
            if (!sv_cuda_scanner_set_hs_variant(sc, row, err, sizeof err)) {
                fprintf(stderr, "tune_hs: %s\n", err);
                status = 1;
                goto done;
            }
            snprintf(label, sizeof label, "hs %d: %s", row, sv_cuda_hs_variant_name(row));
        } else {
            snprintf(label, sizeof label, "%s", sv_algo_name(algo));
        }
        printf("%-46s", label);
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            size_t n = ns[k];
            sv_bench_fill(SV_TYPE_INT32, in, n, 5u + n);
            if (!sv_cuda_scanner_upload(sc, in, n, err, sizeof err) ||
                !sv_cuda_scanner_poison(sc, err, sizeof err) ||
                !sv_cuda_scanner_run(sc, algo, n, err, sizeof err) ||
                !sv_cuda_scanner_download(sc, out, n, err, sizeof err)) {
                fprintf(stderr, "\ntune_hs: %s\n", err);
                status = 1;
                goto done;
            }
            if (algo != SV_ALGO_COPY && !sv_bench_check_scan(SV_TYPE_INT32, in, out, n).ok) {
                printf(" %14s", "WRONG");
                status = 1;
                continue;
            }
            if (!sv_cuda_scanner_time(sc, algo, n, 3, reps, t, err, sizeof err)) {
                fprintf(stderr, "\ntune_hs: %s\n", err);
                status = 1;
                goto done;
            }
            double us = sv_bench_median(t, reps);
            printf(" %7.1f/%6.0f", us, 8.0 * (double)n / (us * 1e3));
        }
        printf("\n");
        fflush(stdout);
    }
done:
    sv_cuda_scanner_destroy(sc);
    free(t);
    free(in);
    free(out);
    return status;
}
