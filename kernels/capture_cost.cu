/* The capture-cost benchmark behind scanviz-bench --capture:
 * sv_cuda_capture_cost() of scan_cuda.h times the teaching kernel plain and
 * instrumented (the same source, trace_capture.cu) and a whole capture. */
#include "scan_cuda.h"
#include "cuda_check.cuh"
#include "trace_capture.cuh"

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

double now_us()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

double median(std::vector<double> &v)
{
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/* Two CUDA events, destroyed with the guard. */
struct EventPair {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~EventPair()
    {
        if (start) cudaEventDestroy(start);
        if (stop) cudaEventDestroy(stop);
    }
};

} // namespace

extern "C" bool sv_cuda_capture_cost(size_t n, int reps, double *plain_us,
                                     double *instrumented_us, double *capture_us, char *err,
                                     size_t errlen)
{
    if (reps < 1) {
        std::snprintf(err, errlen, "reps = %d: need at least 1", reps);
        return false;
    }
    sv::Context &c = sv::context();
    std::lock_guard<std::mutex> guard(c.lock);
    if (!sv::context_ready(c, n, err, errlen))
        return false;
    const sv::KernelEntry &k = sv::chapter_kernel();
    const int ni = (int)n;
    std::vector<int32_t> in(n);
    for (size_t i = 0; i < n; ++i)
        in[i] = (int32_t)(i % 10);

    const sv::Layout l = sv::layout_for(ni);
    unsigned char *d_out = c.d_result + l.out;
    std::memcpy(c.h_in, in.data(), n * 4);
    SV_CUDA_CHECK(cudaMemcpyAsync(c.d_in, c.h_in, n * 4, cudaMemcpyHostToDevice, c.stream));

    EventPair ev;
    SV_CUDA_CHECK(cudaEventCreate(&ev.start));
    SV_CUDA_CHECK(cudaEventCreate(&ev.stop));

    /* Kernel times: plain and instrumented, alternating, after one warm-up
     * launch of each (module load, first-touch). */
    std::vector<double> plain, instr, whole;
    for (int r = -1; r < reps; ++r) {
        for (int traced = 0; traced < 2; ++traced) {
            SV_CUDA_CHECK(cudaEventRecord(ev.start, c.stream));
            (traced ? k.traced : k.plain)(SV_OP_SUM, SV_TYPE_INT32, c.d_in, d_out, ni, false,
                                          c.d_result, c.stream);
            SV_CUDA_CHECK_LAUNCH();
            SV_CUDA_CHECK(cudaEventRecord(ev.stop, c.stream));
            SV_CUDA_CHECK(cudaEventSynchronize(ev.stop));
            float ms = 0.0f;
            SV_CUDA_CHECK(cudaEventElapsedTime(&ms, ev.start, ev.stop));
            if (r >= 0)
                (traced ? instr : plain).push_back(1e3 * ms);
        }
    }

    /* A whole capture, as sv_cuda_trace does it: upload, instrumented
     * launch, one copy back, synchronize (host clock). */
    for (int r = -1; r < reps; ++r) {
        double t0 = now_us();
        if (!sv::capture_raw(c, k, SV_OP_SUM, SV_TYPE_INT32, false, in.data(), ni, err, errlen))
            return false;
        double t1 = now_us();
        if (r >= 0)
            whole.push_back(t1 - t0);
    }

    if (plain_us) *plain_us = median(plain);
    if (instrumented_us) *instrumented_us = median(instr);
    if (capture_us) *capture_us = median(whole);
    return true;
}
