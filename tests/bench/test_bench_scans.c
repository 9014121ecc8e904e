/* Every device-wide scan of scanviz-bench (cub, hs in each tuning variant,
 * hs-lookback, hs-naive, blelloch; copy is checked to copy) against the CPU, on seeded
 * random inputs at sizes around every block and tile edge, n = 1, 2^27+5,
 * and the largest n scanviz-bench accepts, INT_MAX = 2^31 - 1 (8 GiB in and
 * 8 GiB out: it fits an H200's memory), in int32 and float32; each also
 * through the timing path (runs enqueued back to back with no host sync
 * between them, as scanviz-bench times them) with the last run's output
 * checked. Exits 77 without a GPU. Usage: test_bench_scans
 * [--max N] (a smaller largest size, for compute-sanitizer runs). */
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/scan_cuda.h"
#include "../../src/core/bench_check.h"

#include "../expect.h"

static const size_t sizes[] = {
    1, 2, 3, 5, 31, 32, 33, 127, 128, 129, 1000, 1023, 1024, 1025, 2047, 2048, 2049,
    3000, 4095, 4096, 4097, 6143, 6145, 8191, 8192, 8193, 12289, 16383, 16384, 16385,
    24575, 24577, 3 * 16384 + 1, 65536 + 4096 + 1,
    3 * 65536 + 7, 1u << 20, (1u << 20) + 1, 1000003, 3 * (1u << 21) + 5,
    (1u << 22) * 3 + 4095, (1u << 27) + 5,
    (size_t)INT_MAX, /* the largest size scanviz-bench takes (bench_main.c) */
};

static void compare(sv_type type, const char *label, sv_algo algo, size_t n, const void *in,
                    const void *out);

/* Runs algo at n (hs with the given variant) on the uploaded input and
 * checks it; the output is poisoned first so an unwritten cell is caught. */
static void check_one(sv_cuda_scanner *sc, sv_type type, const char *label, sv_algo algo,
                      size_t n, const void *in, void *out)
{
    char err[512];
    if (!sv_cuda_scanner_poison(sc, err, sizeof err) ||
        !sv_cuda_scanner_run(sc, algo, n, err, sizeof err) ||
        !sv_cuda_scanner_download(sc, out, n, err, sizeof err)) {
        CHECK_MSG(0, "%s %s n=%zu: %s", label, (type == SV_TYPE_FLOAT32 ? "float32" : "int32"), n, err);
        return;
    }
    compare(type, label, algo, n, in, out);
}

/* The same through sv_cuda_scanner_time: one warm-up and three timed runs
 * enqueued back to back, no host synchronization between them (the tile
 * status of one hs run is reset on the stream while the run before may
 * just have finished), then the last run's output is checked. */
static void check_timed(sv_cuda_scanner *sc, sv_type type, const char *label, sv_algo algo,
                        size_t n, const void *in, void *out)
{
    char err[512];
    double times[3] = { -1.0, -1.0, -1.0 };
    if (!sv_cuda_scanner_poison(sc, err, sizeof err) ||
        !sv_cuda_scanner_time(sc, algo, n, 1, 3, times, err, sizeof err) ||
        !sv_cuda_scanner_download(sc, out, n, err, sizeof err)) {
        CHECK_MSG(0, "%s (timed) %s n=%zu: %s", label,
               (type == SV_TYPE_FLOAT32 ? "float32" : "int32"), n, err);
        return;
    }
    for (int r = 0; r < 3; r++)
        CHECK_MSG(isfinite(times[r]) && times[r] >= 0.0, "%s (timed) n=%zu: time %d is %g us",
               label, n, r, times[r]);
    char timed[96];
    snprintf(timed, sizeof timed, "%s (timed)", label);
    compare(type, timed, algo, n, in, out);
}

static void compare(sv_type type, const char *label, sv_algo algo, size_t n, const void *in,
                    const void *out)
{
    if (algo == SV_ALGO_COPY) {
        CHECK_MSG(memcmp(in, out, n * 4) == 0, "%s n=%zu: output differs from input", label, n);
        return;
    }
    size_t bad = sv_bench_check_scan(type, in, out, n).bad_index;
    CHECK_MSG(bad == n, "%s %s n=%zu: wrong at index %zu", label, (type == SV_TYPE_FLOAT32 ? "float32" : "int32"), n, bad);
}

int main(int argc, char **argv)
{
    size_t max_n = (size_t)-1;
    bool usage_ok = argc == 1;
    if (argc == 3 && strcmp(argv[1], "--max") == 0) {
        char *end = NULL;
        max_n = strtoull(argv[2], &end, 10);
        usage_ok = end != argv[2] && !*end && max_n >= 1;
    }
    if (!usage_ok) {
        fprintf(stderr, "usage: test_bench_scans [--max N]\n");
        return 2;
    }

    sv_cuda_device dev;
    char why[512];
    if (!sv_cuda_probe(&dev, why, sizeof why)) {
        printf("skip: %s\n", why);
        return 77;
    }

    /* The shape of the test itself: the names round-trip and the CPU
     * checker rejects a wrong answer, so a pass means something. */
    for (int a = 0; a < SV_ALGO_GPU_COUNT; a++) {
        sv_algo back;
        CHECK_MSG(sv_algo_from_name(sv_algo_name((sv_algo)a), &back) && back == (sv_algo)a,
               "algo %d name does not round-trip", a);
    }
    sv_algo cpu;
    CHECK_MSG(sv_algo_from_name("cpu", &cpu) && !sv_algo_is_gpu(cpu), "cpu is not a GPU scan");
    {
        int32_t x[3] = { 1, 2, 3 }, y[3] = { 1, 3, 7 };
        CHECK_MSG(sv_bench_check_scan(SV_TYPE_INT32, x, y, 3).bad_index == 2,
              "checker missed a wrong sum");
    }

    size_t largest = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        if (sizes[k] <= max_n && sizes[k] > largest)
            largest = sizes[k];

    void *in = malloc(largest * 4), *out = malloc(largest * 4);
    if (!in || !out) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (int t = 0; t < 2; t++) {
        sv_type type = t ? SV_TYPE_FLOAT32 : SV_TYPE_INT32;
        char err[512];
        sv_cuda_scanner *sc = sv_cuda_scanner_create(type, largest, err, sizeof err);
        CHECK_MSG(sc, "scanner for %zu: %s", largest, err);
        if (!sc)
            break;
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            size_t n = sizes[k];
            if (n > largest)
                continue;
            sv_bench_fill(type, in, n, 77u + n);
            if (!sv_cuda_scanner_upload(sc, in, n, err, sizeof err)) {
                CHECK_MSG(0, "upload n=%zu: %s", n, err);
                continue;
            }
            for (int a = 0; a < SV_ALGO_GPU_COUNT; a++) {
                if (a == SV_ALGO_HS)
                    continue;
                check_one(sc, type, sv_algo_name((sv_algo)a), (sv_algo)a, n, in, out);
            }
            for (int v = 0; v < sv_cuda_hs_variant_count(); v++) {
                char label[96];
                snprintf(label, sizeof label, "hs [%s]", sv_cuda_hs_variant_name(v));
                CHECK_MSG(sv_cuda_scanner_set_hs_variant(sc, v, err, sizeof err), "%s", err);
                check_one(sc, type, label, SV_ALGO_HS, n, in, out);
            }
            CHECK_MSG(sv_cuda_scanner_set_hs_variant(sc, SV_CUDA_HS_AUTO, err, sizeof err),
                   "%s", err);
            /* Repeated runs reuse the tile status and the counter: a
             * missing reset shows up on the second run. */
            check_one(sc, type, "hs (again)", SV_ALGO_HS, n, in, out);
            for (int a = 0; a < SV_ALGO_GPU_COUNT; a++)
                check_timed(sc, type, sv_algo_name((sv_algo)a), (sv_algo)a, n, in, out);
        }
        /* Refusals: no timed runs, a negative warm-up, an unknown variant. */
        {
            double t1[1];
            CHECK_MSG(!sv_cuda_scanner_time(sc, SV_ALGO_HS, 1, 0, 0, t1, err, sizeof err),
                   "reps = 0 was accepted");
            CHECK_MSG(!sv_cuda_scanner_time(sc, SV_ALGO_HS, 1, -1, 1, t1, err, sizeof err),
                   "warmup = -1 was accepted");
            CHECK_MSG(!sv_cuda_scanner_set_hs_variant(sc, sv_cuda_hs_variant_count(), err,
                                                   sizeof err) &&
                       !sv_cuda_scanner_set_hs_variant(sc, -2, err, sizeof err),
                   "an hs variant out of range was accepted");
        }
        CHECK_MSG(!sv_cuda_scanner_run(sc, SV_ALGO_HS, largest + 1, err, sizeof err),
               "n above the scanner's size was accepted");
        sv_cuda_scanner_destroy(sc);
        printf("%s: %s, sizes up to %zu checked\n", dev.name, t ? "float32" : "int32", largest);
    }
    sv_cuda_scanner_destroy(NULL);
    free(in);
    free(out);
    return check_report("all scans match the CPU");
}
