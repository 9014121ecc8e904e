/* The benchmark's device-wide scans behind scan_cuda.h: the scanner (device
 * buffers sized once), dispatch over the techniques, the two references
 * (a device-to-device copy and cub::DeviceScan::InclusiveSum) and timing with
 * CUDA events. The scans themselves live in bench_hs*.cu and bench_blelloch.cu. */
#include "scan_cuda.h"
#include "bench_scans.cuh"
#include "cuda_check.cuh"

#include <cub/device/device_scan.cuh>
#include <cuda_runtime.h>

#include <climits>
#include <new>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

struct sv_cuda_scanner {
    sv_type type;
    size_t max_n;
    cudaStream_t stream;
    void *d_in, *d_out;
    void *d_cub_temp;
    size_t cub_temp_bytes;
    sv::HsStatus hs_status; /* hs's and hs-lookback's tile status */
    void *d_naive_scratch, *d_blelloch_scratch;
    int hs_variant;
    sv_cuda_tile_record *d_rec; /* hs's tile records; NULL: none yet */
    size_t rec_tiles;           /* records d_rec holds */
    bool rec_on;                /* hs writes d_rec */
};

namespace {

bool check_n(const sv_cuda_scanner *s, size_t n, char *err, size_t errlen)
{
    if (n == 0 || n > s->max_n) {
        std::snprintf(err, errlen, "n = %zu is outside 1..%zu, the scanner's size", n, s->max_n);
        return false;
    }
    return true;
}

template <typename T>
cudaError_t cub_scan(sv_cuda_scanner *s, size_t n)
{
    size_t bytes = s->cub_temp_bytes;
    return cub::DeviceScan::InclusiveSum(s->d_cub_temp, bytes, static_cast<const T *>(s->d_in),
                                         static_cast<T *>(s->d_out), (int)n, s->stream);
}

/* The kernels library uses core's types but none of its functions. */
bool is_gpu(sv_algo a) { return (int)a >= 0 && a < SV_ALGO_GPU_COUNT; }

cudaError_t enqueue_copy(sv_cuda_scanner *s, size_t n)
{
    return cudaMemcpyAsync(s->d_out, s->d_in, n * 4, cudaMemcpyDeviceToDevice, s->stream);
}

cudaError_t enqueue_cub(sv_cuda_scanner *s, size_t n)
{
    return s->type == SV_TYPE_INT32 ? cub_scan<int32_t>(s, n) : cub_scan<float>(s, n);
}

cudaError_t enqueue_hs(sv_cuda_scanner *s, size_t n)
{
    return sv::hs_launch(s->type, s->hs_variant, s->d_in, s->d_out, n, s->hs_status, s->stream,
                         s->rec_on ? s->d_rec : nullptr);
}

cudaError_t enqueue_hs_lookback(sv_cuda_scanner *s, size_t n)
{
    return sv::hs_lookback_launch(s->type, s->d_in, s->d_out, n, s->hs_status, s->stream);
}

cudaError_t enqueue_hs_naive(sv_cuda_scanner *s, size_t n)
{
    return sv::scan_by_blocks(s->type, s->d_in, s->d_out, n, s->d_naive_scratch,
                              sv::hs_naive_scan, s->stream);
}

cudaError_t enqueue_blelloch(sv_cuda_scanner *s, size_t n)
{
    return sv::scan_by_blocks(s->type, s->d_in, s->d_out, n, s->d_blelloch_scratch,
                              sv::blelloch_scan, s->stream);
}

double ops_copy(size_t) { return 0.0; }
double ops_cub(size_t n) { return 2.0 * (double)n; } /* an estimate: CUB's code is not counted */
double ops_hs(size_t n) { return sv::hs_ops(SV_CUDA_HS_AUTO, n); }
double ops_hs_naive(size_t n) { return sv::by_blocks_ops(n, sv::hs_naive_scan); }
double ops_blelloch(size_t n) { return sv::by_blocks_ops(n, sv::blelloch_scan); }

/* The GPU scans' entry points, indexed by sv_algo: their names, labels and
 * colours are src/core/algo.c's rows of the same index. */
struct ScanEntry {
    cudaError_t (*enqueue)(sv_cuda_scanner *s, size_t n); /* one scan of d_in[0..n) into d_out */
    double (*ops)(size_t n);
};

const ScanEntry kScans[] = {
    /* SV_ALGO_COPY */ { enqueue_copy, ops_copy },
    /* SV_ALGO_CUB */ { enqueue_cub, ops_cub },
    /* SV_ALGO_HS */ { enqueue_hs, ops_hs },
    /* SV_ALGO_HS_LOOKBACK */ { enqueue_hs_lookback, sv::hs_lookback_ops },
    /* SV_ALGO_HS_NAIVE */ { enqueue_hs_naive, ops_hs_naive },
    /* SV_ALGO_BLELLOCH */ { enqueue_blelloch, ops_blelloch },
};
static_assert(sizeof kScans / sizeof kScans[0] == SV_ALGO_GPU_COUNT,
              "one entry point per GPU algorithm of src/core/algo.h");

/* Enqueues one scan of d_in[0..n) into d_out on the scanner's stream. */
cudaError_t enqueue(sv_cuda_scanner *s, sv_algo algo, size_t n)
{
    return is_gpu(algo) ? kScans[algo].enqueue(s, n) : cudaErrorInvalidValue;
}

bool check_algo(sv_algo algo, char *err, size_t errlen)
{
    if (!is_gpu(algo)) {
        std::snprintf(err, errlen, "no GPU scan numbered %d", (int)algo);
        return false;
    }
    return true;
}

/* Events for a timing call, destroyed with the guard. */
struct Events {
    std::vector<cudaEvent_t> ev;
    ~Events()
    {
        for (cudaEvent_t e : ev)
            if (e)
                cudaEventDestroy(e);
    }
};

} // namespace

extern "C" {

double sv_algo_ops(sv_algo a, size_t n)
{
    return is_gpu(a) ? kScans[a].ops(n) : 0.0;
}

void sv_cuda_version(char *buf, size_t len)
{
    int rt = 0, drv = 0;
    if (cudaRuntimeGetVersion(&rt) != cudaSuccess)
        rt = 0;
    if (cudaDriverGetVersion(&drv) != cudaSuccess)
        drv = 0;
    std::snprintf(buf, len, "%d.%d (driver %d.%d)", rt / 1000, rt % 1000 / 10, drv / 1000,
                  drv % 1000 / 10);
}

void sv_cuda_scanner_destroy(sv_cuda_scanner *s)
{
    if (!s)
        return;
    /* Every device buffer it owns (cudaFree(NULL) is a no-op, as free's). */
    for (void *d : {s->d_in, s->d_out, s->d_cub_temp, static_cast<void *>(s->hs_status.words),
                    s->d_naive_scratch, s->d_blelloch_scratch, static_cast<void *>(s->d_rec)})
        cudaFree(d);
    if (s->stream)
        cudaStreamDestroy(s->stream);
    delete s;
}

/* Builds the scanner in *s (zeroed); false leaves what was allocated for
 * sv_cuda_scanner_destroy. */
static bool scanner_init(sv_cuda_scanner *s, char *err, size_t errlen)
{
    const size_t bytes = s->max_n * 4;
    SV_CUDA_CHECK(cudaStreamCreateWithFlags(&s->stream, cudaStreamNonBlocking));
    SV_CUDA_CHECK(cudaMalloc(&s->d_in, bytes));
    SV_CUDA_CHECK(cudaMalloc(&s->d_out, bytes));
    /* CUB's temp storage grows with n (its tile status): size it for max_n
     * once, so timed runs allocate nothing. */
    size_t cub_bytes = 0;
    if (s->type == SV_TYPE_INT32)
        SV_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, (const int32_t *)nullptr,
                                                    (int32_t *)nullptr, (int)s->max_n));
    else
        SV_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, cub_bytes, (const float *)nullptr,
                                                    (float *)nullptr, (int)s->max_n));
    s->cub_temp_bytes = cub_bytes ? cub_bytes : 1;
    SV_CUDA_CHECK(cudaMalloc(&s->d_cub_temp, s->cub_temp_bytes));
    /* hs and hs-lookback share the tile status (never run at once), zeroed
     * once: its words carry each launch's epoch (bench_hs_common.cuh). */
    s->hs_status.count = sv::hs_status_words(s->max_n);
    SV_CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&s->hs_status.words),
                             s->hs_status.count * sizeof(unsigned long long)));
    SV_CUDA_CHECK(sv::hs_status_init(s->hs_status, s->stream));
    SV_CUDA_CHECK(cudaMalloc(&s->d_naive_scratch, sv::block_scratch(s->max_n, sv::hs_naive_scan.block) * 4));
    SV_CUDA_CHECK(cudaMalloc(&s->d_blelloch_scratch, sv::block_scratch(s->max_n, sv::blelloch_scan.block) * 4));
    return true;
}

sv_cuda_scanner *sv_cuda_scanner_create(sv_type type, size_t max_n, char *err, size_t errlen)
{
    if (type != SV_TYPE_INT32 && type != SV_TYPE_FLOAT32) {
        std::snprintf(err, errlen, "scanner type %d is neither int32 nor float32", (int)type);
        return nullptr;
    }
    if (max_n == 0 || max_n > (size_t)INT_MAX) {
        std::snprintf(err, errlen, "scanner size %zu is outside 1..%d", max_n, INT_MAX);
        return nullptr;
    }
    sv_cuda_scanner *s = new (std::nothrow) sv_cuda_scanner();
    if (!s) {
        std::snprintf(err, errlen, "out of host memory");
        return nullptr;
    }
    s->type = type;
    s->max_n = max_n;
    s->hs_variant = SV_CUDA_HS_AUTO;
    if (!scanner_init(s, err, errlen)) {
        sv_cuda_scanner_destroy(s);
        return nullptr;
    }
    return s;
}

bool sv_cuda_scanner_set_hs_variant(sv_cuda_scanner *s, int variant, char *err, size_t errlen)
{
    if (variant != SV_CUDA_HS_AUTO && (variant < 0 || variant >= sv_cuda_hs_variant_count())) {
        std::snprintf(err, errlen, "hs variant %d is outside 0..%d", variant,
                      sv_cuda_hs_variant_count() - 1);
        return false;
    }
    s->hs_variant = variant;
    return true;
}

bool sv_cuda_scanner_upload(sv_cuda_scanner *s, const void *in, size_t n, char *err, size_t errlen)
{
    if (!check_n(s, n, err, errlen))
        return false;
    SV_CUDA_CHECK(cudaMemcpyAsync(s->d_in, in, n * 4, cudaMemcpyHostToDevice, s->stream));
    SV_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    return true;
}

bool sv_cuda_scanner_poison(sv_cuda_scanner *s, char *err, size_t errlen)
{
    /* 0xA5A5A5A5: a large negative int32, a tiny negative float32; never
     * what a scan of the benchmark's inputs writes at every index. */
    SV_CUDA_CHECK(cudaMemsetAsync(s->d_out, 0xA5, s->max_n * 4, s->stream));
    SV_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    return true;
}

bool sv_cuda_scanner_run(sv_cuda_scanner *s, sv_algo algo, size_t n, char *err, size_t errlen)
{
    if (!check_algo(algo, err, errlen) || !check_n(s, n, err, errlen))
        return false;
    SV_CUDA_CHECK(enqueue(s, algo, n));
    SV_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    return true;
}

bool sv_cuda_scanner_download(sv_cuda_scanner *s, void *out, size_t n, char *err, size_t errlen)
{
    if (!check_n(s, n, err, errlen))
        return false;
    SV_CUDA_CHECK(cudaMemcpyAsync(out, s->d_out, n * 4, cudaMemcpyDeviceToHost, s->stream));
    SV_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    return true;
}

bool sv_cuda_scanner_time(sv_cuda_scanner *s, sv_algo algo, size_t n, int warmup, int reps,
                          double *times_us, char *err, size_t errlen)
{
    if (!check_algo(algo, err, errlen) || !check_n(s, n, err, errlen))
        return false;
    if (reps < 1 || warmup < 0) {
        std::snprintf(err, errlen, "reps = %d, warmup = %d: need reps >= 1, warmup >= 0", reps,
                      warmup);
        return false;
    }
    for (int w = 0; w < warmup; ++w)
        SV_CUDA_CHECK(enqueue(s, algo, n));
    SV_CUDA_CHECK(cudaStreamSynchronize(s->stream));

    /* Every rep enqueued back to back between its own pair of events, then
     * one synchronize: the times are the GPU's, launch gaps included, with
     * no host round trip inside them. */
    Events e;
    e.ev.assign(2 * (size_t)reps, nullptr);
    for (auto &ev : e.ev)
        SV_CUDA_CHECK(cudaEventCreate(&ev));
    for (int r = 0; r < reps; ++r) {
        SV_CUDA_CHECK(cudaEventRecord(e.ev[2 * r], s->stream));
        SV_CUDA_CHECK(enqueue(s, algo, n));
        SV_CUDA_CHECK(cudaEventRecord(e.ev[2 * r + 1], s->stream));
    }
    SV_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    for (int r = 0; r < reps; ++r) {
        float ms = 0.0f;
        SV_CUDA_CHECK(cudaEventElapsedTime(&ms, e.ev[2 * r], e.ev[2 * r + 1]));
        times_us[r] = 1e3 * (double)ms;
    }
    return true;
}

bool sv_cuda_hs_shape(const sv_cuda_scanner *s, size_t n, const char **name, size_t *tile,
                      bool *can_record)
{
    const int v = sv::hs_variant_at(s->hs_variant, n, s->type);
    *name = sv_cuda_hs_variant_name(v);
    *tile = sv::hs_tile(v, n);
    *can_record = sv::hs_can_record(v);
    return *name != nullptr && *tile > 0;
}

bool sv_cuda_scanner_record(sv_cuda_scanner *s, size_t n, bool on, char *err, size_t errlen)
{
    s->rec_on = false;
    if (!on)
        return true; /* the records stay, for sv_cuda_scanner_records */
    if (!check_n(s, n, err, errlen))
        return false;
    const char *name = nullptr;
    size_t tile = 0;
    bool can = false;
    if (!sv_cuda_hs_shape(s, n, &name, &tile, &can) || !can) {
        std::snprintf(err, errlen, "hs at n = %zu runs \"%s\", which cannot record its tiles", n,
                      name ? name : "?");
        return false;
    }
    const size_t tiles = sv::ceil_div(n, tile);
    if (tiles != s->rec_tiles) {
        cudaFree(s->d_rec);
        s->d_rec = nullptr;
        s->rec_tiles = 0;
        SV_CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&s->d_rec), tiles * sizeof *s->d_rec));
        /* Once: a run overwrites every field but end, which only grows. */
        SV_CUDA_CHECK(cudaMemsetAsync(s->d_rec, 0, tiles * sizeof *s->d_rec, s->stream));
        SV_CUDA_CHECK(cudaStreamSynchronize(s->stream));
        s->rec_tiles = tiles;
    }
    s->rec_on = true;
    return true;
}

bool sv_cuda_scanner_records(sv_cuda_scanner *s, size_t n, sv_cuda_tile_record *out,
                             size_t tiles, char *err, size_t errlen)
{
    if (!check_n(s, n, err, errlen))
        return false;
    if (!s->d_rec || tiles != s->rec_tiles) {
        std::snprintf(err, errlen, "no records of %zu tiles (recording %s, %zu tiles)", tiles,
                      s->d_rec ? "on" : "off", s->rec_tiles);
        return false;
    }
    SV_CUDA_CHECK(cudaMemcpyAsync(out, s->d_rec, tiles * sizeof *out, cudaMemcpyDeviceToHost,
                                  s->stream));
    SV_CUDA_CHECK(cudaStreamSynchronize(s->stream));
    return true;
}

} // extern "C"
