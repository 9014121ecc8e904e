/* Blelloch on the GPU, built in with nvcc (issue 20): sv_cuda_blelloch_run()
 * of scan_cuda.h runs kernels/blelloch.cu, the very file the CPU runtime
 * builds ahead of time, as one block of n threads with 2 * n * sizeof(T)
 * bytes of dynamic shared memory (the shipped kernels' contract), and
 * copies its out[] back. No trace: the picture is the CPU runtime's (its
 * reads and writes); this is the kernel's output on the GPU, which
 * tests/gpu/test_blelloch_gpu.c holds bit for bit against the CPU runtime's.
 * One cudaMalloc, copy, launch, copy back and free per call: a test's path,
 * not a benchmark's (scanviz-bench's blelloch is the device-wide
 * bench_blelloch.cu). */
#include "scan_cuda.h"
#include "cuda_check.cuh"
#include "ops.cuh"
#include "trace_hooks.cuh"

#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

namespace sv::kernel_blelloch {
#include "blelloch.cu"
} // namespace sv::kernel_blelloch

namespace {

/* Frees the device buffer however the call ends. */
struct DeviceBuffer {
    void *p = nullptr;
    ~DeviceBuffer()
    {
        if (p)
            cudaFree(p);
    }
};

template <typename Op, typename T>
void launch(const T *in, T *out, int n, bool exclusive)
{
    typename sv::NoTrace<T>::Buffers tb{};
    sv::kernel_blelloch::blelloch<Op, T, sv::NoTrace<T>>
        <<<1, n, 2 * n * sizeof(T)>>>(in, out, n, exclusive, tb);
}

} // namespace

extern "C" bool sv_cuda_blelloch_run(sv_op op, sv_type type, sv_scan scan, const sv_value *in,
                                     size_t n, sv_value *out, char *err, size_t errlen)
{
    int dev = 0, max_threads = 0;
    SV_CUDA_CHECK(cudaGetDevice(&dev));
    SV_CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, dev));
    if (n == 0 || n > SV_MAX_N || n > (size_t)max_threads) {
        std::snprintf(err, errlen, "n = %zu: one block of this GPU holds 1 .. %d values", n,
                      max_threads < SV_MAX_N ? max_threads : SV_MAX_N);
        return false;
    }
    DeviceBuffer buf;
    const size_t bytes = n * sizeof(sv_value);
    SV_CUDA_CHECK(cudaMalloc(&buf.p, 2 * bytes));
    auto *d_in = static_cast<unsigned char *>(buf.p);
    SV_CUDA_CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    SV_CUDA_CHECK(cudaMemset(d_in + bytes, 0xA5, bytes)); /* out[]: never written shows */
    bool known = sv::dispatch_op(op, type, [&](auto o, auto t) {
        using T = decltype(t);
        launch<decltype(o), T>(reinterpret_cast<const T *>(d_in),
                               reinterpret_cast<T *>(d_in + bytes), (int)n,
                               scan == SV_SCAN_EXCLUSIVE);
    });
    if (!known) {
        std::snprintf(err, errlen, "%s is not defined on %s", sv_op_name(op), sv_type_name(type));
        return false;
    }
    SV_CUDA_CHECK_LAUNCH();
    SV_CUDA_CHECK(cudaDeviceSynchronize());
    SV_CUDA_CHECK(cudaMemcpy(out, d_in + bytes, bytes, cudaMemcpyDeviceToHost));
    return true;
}
