/* The host side of the trace: sv_cuda_trace() of scan_cuda.h runs the
 * chapter's kernel (hillis_steele.cu, built here from its own file with the
 * DumpTrace hooks of trace_hooks.cuh) once and unpacks what it dumped into
 * the trace's buffers and written flags.
 *
 * Where the trace goes, and why: each thread stores its pout cell into a
 * device buffer after every round (trace_hooks.cuh says why only pout); the
 * host copies output, flags and trace back with one copy. The alternative,
 * mapped pinned host memory, would send every store across PCIe while the
 * kernel runs. Device and pinned buffers are allocated once per process
 * (sized for SV_MAX_N) and reused: a capture is one upload, one launch, one
 * copy back and one synchronize (target: under 25 us for n <= 1024). */
#include "scan_cuda.h"
#include "cuda_check.cuh"
#include "ops.cuh"
#include "trace_capture.cuh"
#include "trace_hooks.cuh"

#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

static_assert(sizeof(sv_value) == 4, "a trace cell is one 32-bit word");

/* The written history keeps 2 bits per round in 32 bits: at most 16 rounds,
 * n <= 2^15. */
static_assert(SV_MAX_N <= (1 << 15), "the written history holds 16 rounds");

/* ---- The kernels, each from its own file -------------------------------- */

/* The kernel file defines the template hillis_steele<Op, T, Trace>; it is
 * included into a namespace of its own (as lab_runs.cu includes it and the
 * mistakes' files, each into its own), and SV_KERNEL_LAUNCHER, after the
 * #include, gives the namespace the launch that the dispatch below calls. */
#define SV_KERNEL_LAUNCHER                                                                   \
    struct Kernel {                                                                          \
        template <typename Op, typename T, typename Trace>                                   \
        static void launch(const T *in, T *out, int n, bool exclusive,                       \
                           typename Trace::Buffers tb, cudaStream_t s)                       \
        {                                                                                    \
            hillis_steele<Op, T, Trace><<<1, n, 2 * n * sizeof(T), s>>>(in, out, n,          \
                                                                        exclusive, tb);      \
        }                                                                                    \
    };

namespace sv::kernel_hillis_steele {
#include "hillis_steele.cu"
SV_KERNEL_LAUNCHER
} // namespace sv::kernel_hillis_steele

/* ---- Dispatch over op and type ------------------------------------------ */

namespace {

using sv::Layout;

template <typename K, typename Op, typename T, template <typename> class Trace>
void launch_typed(const void *in, void *out, int n, bool exclusive, unsigned char *result,
                  cudaStream_t stream)
{
    sv::TraceBuffers<T> tb = {nullptr, nullptr};
    if (result) {
        const Layout l = sv::layout_for(n);
        tb.pout = reinterpret_cast<T *>(result + l.pout);
        tb.written = reinterpret_cast<uint32_t *>(result + l.written);
    }
    K::template launch<Op, T, Trace<T>>(static_cast<const T *>(in), static_cast<T *>(out), n,
                                        exclusive, tb, stream);
}

template <typename K, template <typename> class Trace>
bool launch(sv_op op, sv_type type, const void *in, void *out, int n, bool exclusive,
            unsigned char *result, cudaStream_t s)
{
    return sv::dispatch_op(op, type, [&](auto o, auto t) {
        launch_typed<K, decltype(o), decltype(t), Trace>(in, out, n, exclusive, result, s);
    });
}

/* Plain launches get no result region: the plain kernel has no trace. */
template <typename K>
bool launch_plain(sv_op op, sv_type type, const void *in, void *out, int n, bool exclusive,
                  unsigned char *, cudaStream_t s)
{
    return launch<K, sv::NoTrace>(op, type, in, out, n, exclusive, nullptr, s);
}

/* The chapter's kernel's two launches. */
const sv::KernelEntry kChapter = {
    launch_plain<sv::kernel_hillis_steele::Kernel>,
    launch<sv::kernel_hillis_steele::Kernel, sv::DumpTrace>,
};

/* The identity's bits, for checking the kernel's exclusive output. */
uint32_t identity_bits(sv_op op, sv_type type)
{
    uint32_t bits = 0;
    sv::dispatch_op(op, type, [&](auto o, auto t) {
        bits = sv::bit_cast<uint32_t>(decltype(o)::identity(t));
    });
    return bits;
}

sv::Context g_ctx;

void context_release(sv::Context &c)
{
    if (c.d_in) cudaFree(c.d_in);
    if (c.d_result) cudaFree(c.d_result);
    if (c.h_in) cudaFreeHost(c.h_in);
    if (c.h_result) cudaFreeHost(c.h_result);
    if (c.stream) cudaStreamDestroy(c.stream);
    c.d_in = nullptr;
    c.d_result = nullptr;
    c.h_in = nullptr;
    c.h_result = nullptr;
    c.stream = nullptr;
}

bool context_alloc(sv::Context &c, char *err, size_t errlen)
{
    SV_CUDA_CHECK(cudaGetDevice(&c.device));
    SV_CUDA_CHECK(cudaDeviceGetAttribute(&c.max_threads, cudaDevAttrMaxThreadsPerBlock, c.device));
    SV_CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
    const size_t max_bytes = sv::layout_for(SV_MAX_N).bytes;
    SV_CUDA_CHECK(cudaMalloc(&c.d_in, (size_t)SV_MAX_N * 4));
    SV_CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&c.d_result), max_bytes));
    SV_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void **>(&c.h_in), (size_t)SV_MAX_N * 4));
    SV_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void **>(&c.h_result), max_bytes));
    return true;
}

} // namespace

/* ---- The context, shared with capture_cost.cu --------------------------- */

namespace sv {

const KernelEntry &chapter_kernel() { return kChapter; }

int rounds_for(int n)
{
    int r = 1;
    for (int s = 1; s < n; s *= 2)
        ++r;
    return r;
}

Layout layout_for(int n)
{
    const size_t words = (size_t)n * 4, rounds = (size_t)rounds_for(n);
    Layout l;
    l.out = 0;
    l.written = words;
    l.pout = 2 * words;
    l.bytes = l.pout + rounds * words;
    return l;
}

Context &context() { return g_ctx; }

bool context_ready(Context &c, size_t n, char *err, size_t errlen)
{
    if (!c.ready) {
        if (!context_alloc(c, err, errlen)) {
            context_release(c);
            return false;
        }
        c.ready = true;
    }
    if (n == 0 || n > SV_MAX_N || n > (size_t)c.max_threads) {
        const int most = SV_MAX_N < c.max_threads ? SV_MAX_N : c.max_threads;
        std::snprintf(err, errlen,
                      "n = %zu is outside 1..%d: the kernel scans one block, and this GPU "
                      "runs at most %d threads per block",
                      n, most, c.max_threads);
        return false;
    }
    return true;
}

bool capture_raw(Context &c, const KernelEntry &k, sv_op op, sv_type type, bool exclusive,
                 const void *in, int n, char *err, size_t errlen)
{
    const size_t words = (size_t)n * 4;
    const Layout l = layout_for(n);

    std::memcpy(c.h_in, in, words);
    SV_CUDA_CHECK(cudaMemcpyAsync(c.d_in, c.h_in, words, cudaMemcpyHostToDevice, c.stream));
    if (!k.traced(op, type, c.d_in, c.d_result + l.out, n, exclusive, c.d_result, c.stream)) {
        std::snprintf(err, errlen, "operator %d is not defined on type %d (xor on float32?)",
                      (int)op, (int)type);
        return false;
    }
    SV_CUDA_CHECK_LAUNCH();
    SV_CUDA_CHECK(cudaMemcpyAsync(c.h_result, c.d_result, l.bytes,
                                  cudaMemcpyDeviceToHost, c.stream));
    SV_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    return true;
}

} // namespace sv

/* ---- sv_cuda_trace ------------------------------------------------------ */

/* The kernels library uses core's types but none of its functions, so it
 * links on its own (capture validates op and type before calling in). */
extern "C" bool sv_cuda_trace(sv_trace *t, char *err, size_t errlen)
{
    if (!t || !t->input || !t->rounds) {
        std::snprintf(err, errlen, "sv_cuda_trace: no trace");
        return false;
    }
    sv::Context &c = sv::context();
    std::lock_guard<std::mutex> guard(c.lock);
    if (!sv::context_ready(c, t->n, err, errlen))
        return false;
    const int n = (int)t->n;
    const int rounds = sv::rounds_for(n);
    if (t->nrounds != (size_t)rounds) {
        std::snprintf(err, errlen, "sv_cuda_trace: trace has %zu rounds, n = %d needs %d",
                      t->nrounds, n, rounds);
        return false;
    }

    const bool exclusive = t->scan == SV_SCAN_EXCLUSIVE;
    if (!sv::capture_raw(c, kChapter, t->op, t->type, exclusive, t->input, n, err, errlen))
        return false;

    /* Unpack: every round's pout as dumped; pin, unchanged by the round,
     * from the round before (the input staged in buf[0] for round 1). */
    const Layout l = sv::layout_for(n);
    const unsigned char *h = c.h_result;
    const unsigned char *h_out = h + l.out;
    const uint32_t *h_written = reinterpret_cast<const uint32_t *>(h + l.written);
    const uint32_t *h_pout = reinterpret_cast<const uint32_t *>(h + l.pout);
    for (int r = 0; r < rounds; ++r) {
        sv_round *R = &t->rounds[r];
        /* The kernel stages into buf[0] and then alternates, as the trace's
         * metadata says: round r >= 1 writes pout = r % 2. */
        const int pout = r == 0 ? 0 : R->pout;
        const int pin = 1 - pout;
        for (int i = 0; i < n; ++i) {
            const uint32_t bits = h_written[i] >> (2 * (rounds - 1 - r));
            R->written[0][i] = bits & 1u;
            R->written[1][i] = (bits >> 1) & 1u;
            R->buf[pout][i].bits = R->written[pout][i] ? h_pout[(size_t)r * n + i] : 0;
            R->buf[pin][i].bits = (r > 0 && R->written[pin][i])
                                      ? h_pout[(size_t)(r - 1) * n + i] : 0;
        }
    }

    /* The kernel's own write-back must agree with its last round: the
     * trace's output is derived from the buffers, so check it here. */
    const sv_round *last = &t->rounds[rounds - 1];
    const int pout = rounds == 1 ? 0 : last->pout;
    const uint32_t id = identity_bits(t->op, t->type);
    for (int i = 0; i < n; ++i) {
        uint32_t got;
        std::memcpy(&got, h_out + (size_t)i * 4, 4);
        uint32_t want = exclusive ? (i == 0 ? id : last->buf[pout][i - 1].bits)
                                  : last->buf[pout][i].bits;
        if (got != want) {
            std::snprintf(err, errlen,
                          "kernel output[%d] (bits 0x%08x) differs from its last round "
                          "(bits 0x%08x)", i, (unsigned)got, (unsigned)want);
            return false;
        }
    }
    return true;
}
