/* The mistakes lab on the GPU: sv_cuda_lab_run() of scan_cuda.h runs one of
 * the lab's kernels (the teaching kernel, hillis_steele.cu, or a mistake)
 * R times and brings back every round of every run; with shake, each warp
 * sleeps a seeded random time before each round's reads (lab_hooks.cuh).
 * Each kernel file is included into a namespace of its own, as
 * trace_capture.cu does, so what runs is the file the source panel shows.
 * The mistakes' files, "mistakes/NAME.cu", are generated in the build tree
 * from kernels/mistakes/NAME.diff (kernels/mistakes/meson.build).
 *
 * Why one launch per run, not R blocks in one launch: a run is the chapter's
 * single block alone on the GPU, as a student's program would run it; R
 * blocks side by side would share SMs and schedule warps differently. The
 * launches are queued back to back on one stream, each into its own slot,
 * with one copy back and one synchronize at the end: 100 runs at n = 1024
 * take about a millisecond (docs/gpu-runs.md). */
#include "scan_cuda.h"
#include "../src/core/lab_registry.h"
#include "cuda_check.cuh"
#include "ops.cuh"
#include "trace_hooks.cuh"
#include "lab_hooks.cuh"

#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>

#define SV_LAB_LAUNCHER                                                                      \
    struct Kernel {                                                                          \
        template <typename Op, typename T>                                                   \
        static void launch(const T *in, T *out, int n, bool exclusive,                       \
                           sv::LabBuffers<T> tb, cudaStream_t s)                             \
        {                                                                                    \
            hillis_steele<Op, T, sv::LabTrace<T>><<<1, n, 2 * n * sizeof(T), s>>>(           \
                in, out, n, exclusive, tb);                                                  \
        }                                                                                    \
    };

namespace sv::lab_correct {
#include "hillis_steele.cu"
SV_LAB_LAUNCHER
}
namespace sv::lab_in_place {
#include "mistakes/in_place.cu"
SV_LAB_LAUNCHER
}
namespace sv::lab_no_barrier {
#include "mistakes/no_barrier.cu"
SV_LAB_LAUNCHER
}
namespace sv::lab_in_place_no_barrier {
#include "mistakes/in_place_no_barrier.cu"
SV_LAB_LAUNCHER
}
namespace sv::lab_no_else {
#include "mistakes/no_else.cu"
SV_LAB_LAUNCHER
}
namespace sv::lab_off_by_one {
#include "mistakes/off_by_one.cu"
SV_LAB_LAUNCHER
}
namespace sv::lab_pout_accumulate {
#include "mistakes/pout_accumulate.cu"
SV_LAB_LAUNCHER
}
/* no-guard reads buf[pin * n + i - stride] for i < stride: with pin = 1 a
 * cell of buf[0], with pin = 0 the words below buf. Those lie inside the
 * block's shared window where the driver reserves memory below the dynamic
 * buffer (1 KiB on sm_80 and newer: buf starts at 0x400, and the farthest
 * read, stride 256 at n = 1024, is 1 KiB below it); on older GPUs the read
 * may fault, and the launch fails with the CUDA error. */
namespace sv::lab_no_guard {
#include "mistakes/no_guard.cu"
SV_LAB_LAUNCHER
}

namespace {

/* Queues one run of kernel K with operator Op on element type T. */
template <typename K, typename Op, typename T>
void launch_typed(const void *in, void *out, int n, bool exclusive, void *dump,
                  unsigned long long seed, unsigned run, unsigned shake_ns, cudaStream_t s)
{
    sv::LabBuffers<T> tb = {static_cast<T *>(dump), seed, run, shake_ns};
    K::template launch<Op, T>(static_cast<const T *>(in), static_cast<T *>(out), n, exclusive,
                              tb, s);
}

/* The same for core's op and type; false when the pair is not defined (xor
 * on float32). */
template <typename K>
bool launch(sv_op op, sv_type type, const void *in, void *out, int n, bool exclusive,
            void *dump, unsigned long long seed, unsigned run, unsigned shake_ns,
            cudaStream_t s)
{
    return sv::dispatch_op(op, type, [&](auto o, auto t) {
        launch_typed<K, decltype(o), decltype(t)>(in, out, n, exclusive, dump, seed, run,
                                                  shake_ns, s);
    });
}

typedef bool (*LabLaunch)(sv_op, sv_type, const void *, void *, int, bool, void *,
                          unsigned long long, unsigned, unsigned, cudaStream_t);

/* The lab's kernels, one launch per row of core's registry (lab_registry.h,
 * generated from the same files): the build fails when a kernel file has a
 * row but no launch here, or the other way round. */
const struct {
    sv_kernel row;
    LabLaunch launch;
} kLab[] = {
    {SV_KERNEL_CORRECT, launch<sv::lab_correct::Kernel>},
    {SV_KERNEL_IN_PLACE, launch<sv::lab_in_place::Kernel>},
    {SV_KERNEL_NO_BARRIER, launch<sv::lab_no_barrier::Kernel>},
    {SV_KERNEL_IN_PLACE_NO_BARRIER, launch<sv::lab_in_place_no_barrier::Kernel>},
    {SV_KERNEL_NO_ELSE, launch<sv::lab_no_else::Kernel>},
    {SV_KERNEL_OFF_BY_ONE, launch<sv::lab_off_by_one::Kernel>},
    {SV_KERNEL_POUT_ACCUMULATE, launch<sv::lab_pout_accumulate::Kernel>},
    {SV_KERNEL_NO_GUARD, launch<sv::lab_no_guard::Kernel>},
};
static_assert(sizeof kLab / sizeof *kLab == SV_KERNEL_COUNT,
              "every kernel of the registry has its launch in kLab, in the registry's order");

/* The registry's names, by row (the kernels library links none of core's
 * functions, so it reads the generated rows itself). */
#define SV_LAB_ROW_NAME(id, name, ...) name,
const char *const kNames[SV_KERNEL_COUNT] = {SV_KERNEL_ROWS(SV_LAB_ROW_NAME)};
#undef SV_LAB_ROW_NAME

/* Device memory and a stream for one call, released on every return. */
struct LabGuard {
    void *in = nullptr, *dump = nullptr, *out = nullptr;
    unsigned *base = nullptr;
    cudaStream_t stream = nullptr;
    ~LabGuard()
    {
        if (in) cudaFree(in);
        if (dump) cudaFree(dump);
        if (out) cudaFree(out);
        if (base) cudaFree(base);
        if (stream) cudaStreamDestroy(stream);
    }
};

double now_us()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Where dynamic shared memory starts in the shared window, for every kernel
 * without static shared memory (all of the lab's). */
__global__ void shared_base_kernel(unsigned *base)
{
    extern __shared__ __align__(8) unsigned char smem[];
    *base = (unsigned)__cvta_generic_to_shared(smem);
}

} // namespace

extern "C" {

bool sv_cuda_lab_run(const sv_cuda_lab_request *req, uint32_t *bits, uint32_t *out,
                     double *wall_us, char *err, size_t errlen)
{
    if (!req || !req->input || !bits) {
        std::snprintf(err, errlen, "sv_cuda_lab_run: no request");
        return false;
    }
    LabLaunch fn = nullptr;
    for (const auto &k : kLab)
        if (req->kernel && std::strcmp(req->kernel, kNames[k.row]) == 0)
            fn = k.launch;
    if (!fn) {
        std::snprintf(err, errlen, "sv_cuda_lab_run: no kernel named \"%.64s\"",
                      req->kernel ? req->kernel : "(null)");
        return false;
    }
    int device = 0, max_threads = 0;
    SV_CUDA_CHECK(cudaGetDevice(&device));
    SV_CUDA_CHECK(cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerBlock, device));
    if (req->n == 0 || req->n > SV_MAX_N || req->n > (size_t)max_threads) {
        std::snprintf(err, errlen, "n = %zu is outside 1..%d (one block)", req->n,
                      max_threads < SV_MAX_N ? max_threads : SV_MAX_N);
        return false;
    }
    if (req->runs == 0 || req->runs > SV_CUDA_LAB_MAX_RUNS) {
        std::snprintf(err, errlen, "runs = %u is outside 1..%d", (unsigned)req->runs,
                      SV_CUDA_LAB_MAX_RUNS);
        return false;
    }
    const int n = (int)req->n;
    int rounds = 1;
    for (int s = 1; s < n; s *= 2)
        ++rounds;
    const size_t words = (size_t)n * 4, slot = (size_t)rounds * words;
    const double t0 = now_us();
    LabGuard g;
    SV_CUDA_CHECK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
    SV_CUDA_CHECK(cudaMalloc(&g.in, words));
    SV_CUDA_CHECK(cudaMalloc(&g.dump, slot * req->runs));
    SV_CUDA_CHECK(cudaMalloc(&g.out, words * req->runs));
    SV_CUDA_CHECK(cudaMemcpyAsync(g.in, req->input, words, cudaMemcpyHostToDevice, g.stream));
    const unsigned shake_ns = req->shake ? SV_CUDA_LAB_SHAKE_NS : 0u;
    for (uint32_t r = 0; r < req->runs; ++r) {
        if (!fn(req->op, req->type, g.in, static_cast<unsigned char *>(g.out) + r * words, n,
                req->exclusive, static_cast<unsigned char *>(g.dump) + r * slot,
                (unsigned long long)req->shake_seed, r, shake_ns, g.stream)) {
            std::snprintf(err, errlen, "operator %d is not defined on type %d (xor on float32?)",
                          (int)req->op, (int)req->type);
            return false;
        }
        SV_CUDA_CHECK_LAUNCH();
    }
    SV_CUDA_CHECK(cudaMemcpyAsync(bits, g.dump, slot * req->runs, cudaMemcpyDeviceToHost,
                                  g.stream));
    if (out)
        SV_CUDA_CHECK(cudaMemcpyAsync(out, g.out, words * req->runs, cudaMemcpyDeviceToHost,
                                      g.stream));
    SV_CUDA_CHECK(cudaStreamSynchronize(g.stream));
    if (wall_us)
        *wall_us = now_us() - t0;
    return true;
}

bool sv_cuda_lab_shared_base(uint32_t *base, char *err, size_t errlen)
{
    LabGuard g;
    SV_CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&g.base), sizeof(unsigned)));
    shared_base_kernel<<<1, 1, 8>>>(g.base);
    SV_CUDA_CHECK_LAUNCH();
    unsigned h = 0;
    SV_CUDA_CHECK(cudaMemcpy(&h, g.base, sizeof h, cudaMemcpyDeviceToHost));
    *base = h;
    return true;
}

} // extern "C"
