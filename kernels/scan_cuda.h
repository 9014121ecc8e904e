/* The whole boundary between C and CUDA: plain C functions, defined in the
 * .cu files of kernels/, that return a status and fill a message, and never
 * print or exit. Only built when Meson finds nvcc (HAVE_CUDA): the probe and
 * scanviz-bench's device-wide scans. Every kernel file (the chapter's, the
 * mistakes, Blelloch, a student's) runs through the kernel runtime instead
 * (src/runtime/runtime.h), on the CPU or the GPU. */
#ifndef SV_SCAN_CUDA_H
#define SV_SCAN_CUDA_H

#include "../src/core/algo.h"
#include "../src/core/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Device ------------------------------------------------------------ */

typedef struct sv_cuda_device {
    char name[256];            /* "NVIDIA H200" */
    int max_threads_per_block;
    int cc_major, cc_minor;
    int sm_count;
} sv_cuda_device;

/* Whether a CUDA device is usable. On false, why gives the reason: "no CUDA
 * driver (CUDA driver version is insufficient for CUDA runtime version)",
 * "no CUDA device", or the CUDA error string. */
bool sv_cuda_probe(sv_cuda_device *dev, char *why, size_t whylen);

/* ---- Device-wide scans for the benchmark (bench_*.cu) ----------------- */

/* The algorithms, their names, labels and colours: src/core/algo.h (the
 * registry). Here: the GPU ones' entry points, indexed by sv_algo. */

/* Operations one scan of n performs (the chapter's count of applications of
 * the operator, per thread): copy 0; cub about 2n (an estimate, CUB's code is
 * not counted); hs, hs-lookback, hs-naive and blelloch exactly as their kernels execute
 * them (docs/performance.md gives the formulas). */
double sv_algo_ops(sv_algo a, size_t n);

/* "13.0 (driver 13.0)": the CUDA runtime and driver versions. */
void sv_cuda_version(char *buf, size_t len);

/* Device buffers for inclusive sum scans of up to max_n (<= INT_MAX)
 * elements of type (int32 or float32), CUB's temp storage and every scan's
 * scratch included, allocated once. Returns NULL with err filled on failure. */
typedef struct sv_cuda_scanner sv_cuda_scanner;
sv_cuda_scanner *sv_cuda_scanner_create(sv_type type, size_t max_n, char *err, size_t errlen);
void sv_cuda_scanner_destroy(sv_cuda_scanner *s); /* accepts NULL */

/* Copies n host values in; runs algo once; copies n results out. */
bool sv_cuda_scanner_upload(sv_cuda_scanner *s, const void *in, size_t n, char *err, size_t errlen);
bool sv_cuda_scanner_run(sv_cuda_scanner *s, sv_algo algo, size_t n, char *err, size_t errlen);
bool sv_cuda_scanner_download(sv_cuda_scanner *s, void *out, size_t n, char *err, size_t errlen);

/* Fills the whole output buffer with the byte 0xA5, so that a check after
 * the next run catches any element the scan did not write. */
bool sv_cuda_scanner_poison(sv_cuda_scanner *s, char *err, size_t errlen);

/* warmup untimed runs, then reps runs each timed with CUDA events into
 * times_us[0..reps). */
bool sv_cuda_scanner_time(sv_cuda_scanner *s, sv_algo algo, size_t n, int warmup,
                          int reps, double *times_us, char *err, size_t errlen);

/* Tuning of hs (tests/bench/tune_hs): the block shapes, memory orders and
 * back-offs built, by number. SV_CUDA_HS_AUTO, what a new scanner and
 * sv_algo_ops use, picks the variant by n. */
#define SV_CUDA_HS_AUTO (-1)
int sv_cuda_hs_variant_count(void);
const char *sv_cuda_hs_variant_name(int variant); /* NULL when out of range */
/* variant: SV_CUDA_HS_AUTO or 0 .. sv_cuda_hs_variant_count() - 1. */
bool sv_cuda_scanner_set_hs_variant(sv_cuda_scanner *s, int variant, char *err, size_t errlen);

/* ---- hs's look-back, recorded (scanviz-bench --timeline) -------------- */

/* One tile of one recorded run of hs, its clock the GPU's %globaltimer
 * (nanoseconds; 0 = never recorded): when its block took it as the current
 * tile (start), when its aggregate A and its inclusive prefix P were
 * published, and when its last warp had stored it (end). An A published
 * early (by a warp of the block while it was busy with an earlier tile) can
 * come before start. lo: the look-back stopped at tile lo's P and summed the
 * A's of lo + 1 .. tile - 1 (tile 0: lo = 0, no look-back). */
typedef struct sv_cuda_tile_record {
    unsigned long long start, aggregate, inclusive, end;
    unsigned block, sm; /* blockIdx.x and %smid of the block that scanned it */
    unsigned lo;
    unsigned windows;   /* windows of 32 predecessors its look-back read */
    unsigned polls;     /* its slowest lane's re-reads of a predecessor with nothing yet */
    unsigned early;     /* 1: its A was published early, by an eager warp */
} sv_cuda_tile_record;

/* hs's shape at n for the scanner's type: the variant it runs (its name
 * and its elements per tile) and whether that variant can record. */
bool sv_cuda_hs_shape(const sv_cuda_scanner *s, size_t n, const char **name, size_t *tile,
                      bool *can_record);
/* Recording on (records for n elements, zeroed when their number changes)
 * or off. While on, every run of hs at n writes one record per tile; off
 * keeps the records of the last recorded run. */
bool sv_cuda_scanner_record(sv_cuda_scanner *s, size_t n, bool on, char *err, size_t errlen);
/* The records of the last recorded run of hs at n: tiles = ceil(n / tile)
 * of them. */
bool sv_cuda_scanner_records(sv_cuda_scanner *s, size_t n, sv_cuda_tile_record *out,
                             size_t tiles, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
