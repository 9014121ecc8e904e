/* The whole boundary between C and CUDA: plain C functions, defined in the
 * .cu files of kernels/, that return a status and fill a message, and never
 * print or exit. Only built when Meson finds nvcc (HAVE_CUDA). */
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

/* ---- The chapter's kernel, instrumented (trace_capture.cu) ------------ */

/* Runs the chapter's kernel (kernels/hillis_steele.cu, the only kernel this
 * path builds; the mistakes run through sv_cuda_lab_run below) instrumented
 * on t->input (t created by sv_trace_create, n <= the device's block limit)
 * and fills every round's buffers and written flags from what the kernel
 * dumped; the caller then calls sv_trace_finish(). False with err filled for
 * an n the device cannot run, or a CUDA failure. */
bool sv_cuda_trace(sv_trace *t, char *err, size_t errlen);

/* Cost of capturing, for the benchmark (capture_cost.cu): medians over reps of the plain
 * kernel, the instrumented kernel (CUDA events, µs) and a whole capture
 * (upload, launch, copy back to host; host clock, µs), int32 sum on n. */
bool sv_cuda_capture_cost(size_t n, int reps, double *plain_us,
                          double *instrumented_us, double *capture_us,
                          char *err, size_t errlen);

/* ---- Blelloch, built in (blelloch_run.cu) ------------------------------ */

/* Runs kernels/blelloch.cu (issue 20) once on the GPU: one block of n
 * threads (1 <= n <= the device's block limit, at most SV_MAX_N) on in[0..n)
 * under op and type, inclusive or exclusive, and copies out[0..n) back. No
 * trace (the CPU runtime draws it). False with err filled for an n the
 * device cannot run, an operator not defined on the type, or a CUDA
 * failure. */
bool sv_cuda_blelloch_run(sv_op op, sv_type type, sv_scan scan, const sv_value *in, size_t n,
                          sv_value *out, char *err, size_t errlen);

/* ---- The mistakes lab (lab_runs.cu) ------------------------------------ */

#define SV_CUDA_LAB_MAX_RUNS 100000
/* The largest per-warp sleep of --shake, in ns (the delay is seeded and
 * uniform in 0 .. SV_CUDA_LAB_SHAKE_NS - 1, per warp, round and run). */
#define SV_CUDA_LAB_SHAKE_NS 2048

typedef struct sv_cuda_lab_request {
    const char *kernel;       /* core's kernel names (lab.h): "correct", "in-place", ... */
    sv_op op;
    sv_type type;
    bool exclusive;
    const sv_value *input;    /* n values */
    size_t n;
    uint32_t runs;            /* 1 .. SV_CUDA_LAB_MAX_RUNS launches */
    bool shake;
    uint64_t shake_seed;
} sv_cuda_lab_request;

/* Runs the kernel req->runs times, one single-block launch each, and copies
 * back every run's pout cell after every round: bits[(run * R + r) * n + i]
 * (R rounds, round 0 the staged buf[0]; the caller allocates runs * R * n
 * words), and when out is not NULL each run's output, out[run * n + i].
 * Cells a thread never wrote hold whatever shared memory held (core decides
 * which cells are known). wall_us (may be NULL) gets the whole call's time.
 * False with err filled on a bad request or a CUDA failure. */
bool sv_cuda_lab_run(const sv_cuda_lab_request *req, uint32_t *bits, uint32_t *out,
                     double *wall_us, char *err, size_t errlen);

/* The address in the shared window where the lab kernels' buf starts (what
 * compute-sanitizer prints as "__shared__ 0x..."), for mapping hazards to
 * cells. */
bool sv_cuda_lab_shared_base(uint32_t *base, char *err, size_t errlen);

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

#ifdef __cplusplus
}
#endif

#endif
