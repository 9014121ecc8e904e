/* The chapter's Hillis-Steele scan (one block, shared-memory double buffer),
 * instrumented to dump every round's buffers for the trace: sv_cuda_trace()
 * and sv_cuda_capture_cost() of scan_cuda.h.
 *
 * Where the trace goes, and why: after staging and after every round, each
 * thread reads its pout cell back from shared memory and stores it into a
 * device trace buffer; its "written" flags live in a register and are stored
 * once at the end. The host copies output, flags and trace back with one
 * copy. The alternative, mapped pinned host memory, would send every store
 * across PCIe while the kernel runs, against the target of an instrumented
 * kernel at most 15% slower than the plain one. Device and pinned buffers are
 * allocated once per process (sized for SV_MAX_N) and reused: a capture is
 * one upload, one launch, one copy back and one synchronize (target: under
 * 25 us for n <= 1024).
 *
 * Why only pout, and so little code per round: at n = 1024 the block is 32
 * warps on one SM, so every instruction added per thread and round costs
 * about 11 rounds x 32 warps / 4 schedulers = 88 cycles. On the H200, dumping
 * both buffers made the kernel 18-24% slower, whatever the bytes (three
 * stores, or one 8-byte store), and so did a pin-unchanged check on the
 * device (docs/gpu-runs.md). pin is unchanged by a round (the double buffer;
 * compute-sanitizer racecheck finds no hazard), so the host rebuilds it from
 * the round before, and sv_trace_check() still catches a kernel whose pout
 * breaks the window invariant. */
#include "scan_cuda.h"
#include "cuda_check.cuh"
#include "ops.cuh"

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <vector>

static_assert(sizeof(sv_value) == 4, "a trace cell is one 32-bit word");

/* ---- The kernel --------------------------------------------------------- */

/* Where the instrumented kernel writes, in device memory. Unused (null) in
 * the plain kernel. */
template <typename T>
struct TraceBuffers {
    T *pout;           /* [round * n + i]: pout[i] after the round (round 0: buf[0][i]) */
    uint32_t *written; /* [i]: after round r of R, buf[b][i] written is bit
                          2 * (R - 1 - r) + b (the last round in the low bits) */
};

/* One block of n threads; thread i owns cell i of both buffers. The shared
 * memory holds buf[0] in [0, n) and buf[1] in [n, 2n): buf[b][i] is
 * buf[b * n + i].
 *
 * With Trace, after staging (round 0) and after each round, each thread reads
 * its pout cell back from shared memory (just written, so a value) and stores
 * it into tr.pout; which of its cells hold a value ("written") it tracks in a
 * register and stores once at the end. A cell not yet written (all of buf[1]
 * in round 0) is never read: uninitialized shared memory is not a value, and
 * the flags say so. A thread reads only its own cell for the dump, so the
 * dump needs no barrier of its own. Without Trace the same code compiles to
 * the plain kernel, with no instrumentation at all. */
template <typename Op, typename T, bool Trace>
__global__ void hillis_steele(const T *in, T *out, int n, bool exclusive, TraceBuffers<T> tr)
{
    extern __shared__ __align__(8) unsigned char smem[];
    T *buf = reinterpret_cast<T *>(smem);
    const int i = threadIdx.x;
    unsigned written = 0;  /* Trace: bit b set once buf[b][i] holds a value */
    uint32_t history = 0;  /* Trace: every round's written bits, two per round */
    T *dump = nullptr;     /* Trace: where this thread's next pout cell goes */
    if constexpr (Trace)
        dump = tr.pout + i;

    /* Round 0: stage the input into buf[0]. buf[1] stays uninitialized. */
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    if constexpr (Trace) {
        written |= 1u << pout;
        history = written;
        *dump = buf[pout * n + i];
        dump += n;
    }

    for (int stride = 1; stride < n; stride *= 2) {
        /* Swap roles: read last round's output, write the other buffer. */
        pout = 1 - pout;
        pin = 1 - pout;

        /* The guard: cells left of stride have no neighbour at this
         * distance and are copied through. */
        if (i >= stride)
            buf[pout * n + i] = Op::apply(buf[pin * n + i - stride], buf[pin * n + i]);
        else
            buf[pout * n + i] = buf[pin * n + i];

        /* Invariant: now pout[i] = op over in[max(0, i - 2*stride + 1) .. i],
         * a window of up to 2 * stride elements ending at i.
         * The barrier is at the end of the round because the next round
         * writes into this round's pin, which other threads may still be
         * reading (pin[i - stride]), and reads this round's pout, which other
         * threads may not have written yet. One barrier per round is enough
         * only because of the double buffer: within a round nobody writes
         * what anybody reads. */
        __syncthreads();

        if constexpr (Trace) {
            written |= 1u << pout;
            history = (history << 2) | written;
            *dump = buf[pout * n + i];
            dump += n;
        }
    }
    if constexpr (Trace)
        tr.written[i] = history;

    /* Write the result back. The exclusive scan is the inclusive one shifted
     * right with the identity in front; reading the neighbour's cell is safe
     * after the last round's barrier. */
    if (exclusive)
        out[i] = (i == 0) ? Op::identity(T(0)) : buf[pout * n + i - 1];
    else
        out[i] = buf[pout * n + i];
}

/* ---- Host side: dispatch over op and type ------------------------------ */

namespace {

int rounds_for(int n)
{
    int r = 1;
    for (int s = 1; s < n; s *= 2)
        ++r;
    return r;
}

/* Byte offsets of the instrumented kernel's output in the result region,
 * for n cells and R rounds, copied back together:
 * [output: n words][written: n words][pout: R x n words]. */
struct Layout {
    size_t out, written, pout, bytes;
};

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

/* result: the result region (the instrumented kernel's trace goes there);
 * ignored by the plain kernel. */
template <typename Op, typename T, bool Trace>
void launch_typed(const void *in, void *out, int n, bool exclusive, unsigned char *result,
                  cudaStream_t stream)
{
    TraceBuffers<T> tr = {nullptr, nullptr};
    if (Trace) {
        const Layout l = layout_for(n);
        tr.pout = reinterpret_cast<T *>(result + l.pout);
        tr.written = reinterpret_cast<uint32_t *>(result + l.written);
    }
    hillis_steele<Op, T, Trace><<<1, n, 2 * n * sizeof(T), stream>>>(
        static_cast<const T *>(in), static_cast<T *>(out), n, exclusive, tr);
}

/* Launches the kernel for op on type; false when the pair is not defined
 * (xor on float32), in which case nothing was launched. */
template <bool Trace>
bool launch(sv_op op, sv_type type, const void *in, void *out, int n, bool exclusive,
            unsigned char *result, cudaStream_t s)
{
    if (type == SV_TYPE_INT32) {
        switch (op) {
        case SV_OP_SUM: launch_typed<sv::OpSum, int32_t, Trace>(in, out, n, exclusive, result, s); return true;
        case SV_OP_MAX: launch_typed<sv::OpMax, int32_t, Trace>(in, out, n, exclusive, result, s); return true;
        case SV_OP_MIN: launch_typed<sv::OpMin, int32_t, Trace>(in, out, n, exclusive, result, s); return true;
        case SV_OP_PRODUCT: launch_typed<sv::OpProduct, int32_t, Trace>(in, out, n, exclusive, result, s); return true;
        case SV_OP_XOR: launch_typed<sv::OpXor, int32_t, Trace>(in, out, n, exclusive, result, s); return true;
        default: return false;
        }
    }
    if (type == SV_TYPE_FLOAT32) {
        switch (op) {
        case SV_OP_SUM: launch_typed<sv::OpSum, float, Trace>(in, out, n, exclusive, result, s); return true;
        case SV_OP_MAX: launch_typed<sv::OpMax, float, Trace>(in, out, n, exclusive, result, s); return true;
        case SV_OP_MIN: launch_typed<sv::OpMin, float, Trace>(in, out, n, exclusive, result, s); return true;
        case SV_OP_PRODUCT: launch_typed<sv::OpProduct, float, Trace>(in, out, n, exclusive, result, s); return true;
        default: return false;
        }
    }
    return false;
}

/* The identity's bits, for checking the kernel's exclusive output. */
uint32_t identity_bits(sv_op op, sv_type type)
{
    sv_value v;
    v.bits = 0;
    if (type == SV_TYPE_INT32) {
        switch (op) {
        case SV_OP_SUM: v.i = sv::OpSum::identity(int32_t(0)); break;
        case SV_OP_MAX: v.i = sv::OpMax::identity(int32_t(0)); break;
        case SV_OP_MIN: v.i = sv::OpMin::identity(int32_t(0)); break;
        case SV_OP_PRODUCT: v.i = sv::OpProduct::identity(int32_t(0)); break;
        case SV_OP_XOR: v.i = sv::OpXor::identity(int32_t(0)); break;
        default: break;
        }
    } else {
        switch (op) {
        case SV_OP_SUM: v.f = sv::OpSum::identity(0.0f); break;
        case SV_OP_MAX: v.f = sv::OpMax::identity(0.0f); break;
        case SV_OP_MIN: v.f = sv::OpMin::identity(0.0f); break;
        case SV_OP_PRODUCT: v.f = sv::OpProduct::identity(0.0f); break;
        default: break;
        }
    }
    return v.bits;
}

/* Buffers reused by every capture of the process, sized for SV_MAX_N; the
 * lock makes captures from several threads take turns. They live until the
 * process exits (a CUDA context is torn down with it). The result region is
 * packed for the n at hand (Layout) so that one copy brings everything back. */
struct Context {
    std::mutex lock;
    bool ready = false;
    int device = -1;
    int max_threads = 0;
    cudaStream_t stream = nullptr;
    void *d_in = nullptr;
    unsigned char *d_result = nullptr;
    unsigned char *h_in = nullptr;     /* pinned */
    unsigned char *h_result = nullptr; /* pinned */
};

Context g_ctx;

/* The written history keeps 2 bits per round in 32 bits: at most 16 rounds,
 * n <= 2^15. */
static_assert(SV_MAX_N <= (1 << 15), "the written history holds 16 rounds");

void context_release(Context &c)
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

bool context_alloc(Context &c, char *err, size_t errlen)
{
    SV_CUDA_CHECK(cudaGetDevice(&c.device));
    SV_CUDA_CHECK(cudaDeviceGetAttribute(&c.max_threads, cudaDevAttrMaxThreadsPerBlock, c.device));
    SV_CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
    const size_t max_bytes = layout_for(SV_MAX_N).bytes;
    SV_CUDA_CHECK(cudaMalloc(&c.d_in, (size_t)SV_MAX_N * 4));
    SV_CUDA_CHECK(cudaMalloc(reinterpret_cast<void **>(&c.d_result), max_bytes));
    SV_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void **>(&c.h_in), (size_t)SV_MAX_N * 4));
    SV_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void **>(&c.h_result), max_bytes));
    return true;
}

/* Called with the lock held. */
bool context_ready(Context &c, char *err, size_t errlen)
{
    if (c.ready)
        return true;
    if (!context_alloc(c, err, errlen)) {
        context_release(c);
        return false;
    }
    c.ready = true;
    return true;
}

/* Called with the lock held: n checked. Uploads in[0..n), runs the
 * instrumented kernel, copies output, flags and pout trace back into
 * h_result. */
bool capture_raw(Context &c, sv_op op, sv_type type, bool exclusive, const void *in, int n,
                 char *err, size_t errlen)
{
    const size_t words = (size_t)n * 4;
    const Layout l = layout_for(n);

    std::memcpy(c.h_in, in, words);
    SV_CUDA_CHECK(cudaMemcpyAsync(c.d_in, c.h_in, words, cudaMemcpyHostToDevice, c.stream));
    if (!launch<true>(op, type, c.d_in, c.d_result + l.out, n, exclusive, c.d_result,
                      c.stream)) {
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

bool check_n(const Context &c, size_t n, char *err, size_t errlen)
{
    if (n == 0 || n > SV_MAX_N || n > (size_t)c.max_threads) {
        std::snprintf(err, errlen,
                      "n = %zu is outside 1..%d: the kernel scans one block, and this GPU "
                      "runs at most %d threads per block",
                      n, std::min(SV_MAX_N, c.max_threads), c.max_threads);
        return false;
    }
    return true;
}

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

/* The kernels library uses core's types but none of its functions, so it
 * links on its own (capture validates op and type before calling in). */
extern "C" {

bool sv_cuda_trace(sv_trace *t, char *err, size_t errlen)
{
    if (!t || !t->input || !t->rounds) {
        std::snprintf(err, errlen, "sv_cuda_trace: no trace");
        return false;
    }
    std::lock_guard<std::mutex> guard(g_ctx.lock);
    if (!context_ready(g_ctx, err, errlen))
        return false;
    if (!check_n(g_ctx, t->n, err, errlen))
        return false;
    const int n = (int)t->n;
    const int rounds = rounds_for(n);
    if (t->nrounds != (size_t)rounds) {
        std::snprintf(err, errlen, "sv_cuda_trace: trace has %zu rounds, n = %d needs %d",
                      t->nrounds, n, rounds);
        return false;
    }

    const bool exclusive = t->scan == SV_SCAN_EXCLUSIVE;
    if (!capture_raw(g_ctx, t->op, t->type, exclusive, t->input, n, err, errlen))
        return false;

    /* Unpack: every round's pout as dumped; pin, unchanged by the round,
     * from the round before (the input staged in buf[0] for round 1). */
    const Layout l = layout_for(n);
    const unsigned char *h = g_ctx.h_result;
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

bool sv_cuda_capture_cost(size_t n, int reps, double *plain_us, double *instrumented_us,
                          double *capture_us, char *err, size_t errlen)
{
    if (reps < 1) {
        std::snprintf(err, errlen, "reps = %d: need at least 1", reps);
        return false;
    }
    std::lock_guard<std::mutex> guard(g_ctx.lock);
    if (!context_ready(g_ctx, err, errlen))
        return false;
    if (!check_n(g_ctx, n, err, errlen))
        return false;
    const int ni = (int)n;
    std::vector<int32_t> in(n);
    for (size_t i = 0; i < n; ++i)
        in[i] = (int32_t)(i % 10);

    Context &c = g_ctx;
    const Layout l = layout_for(ni);
    unsigned char *d_out = c.d_result + l.out;
    std::memcpy(c.h_in, in.data(), n * 4);
    SV_CUDA_CHECK(cudaMemcpyAsync(c.d_in, c.h_in, n * 4, cudaMemcpyHostToDevice, c.stream));

    EventPair ev;
    SV_CUDA_CHECK(cudaEventCreate(&ev.start));
    SV_CUDA_CHECK(cudaEventCreate(&ev.stop));

    /* Kernel times: plain and instrumented, alternating, after one warm-up
     * launch of each (module load, first-touch). */
    std::vector<double> plain, instr, whole;
    for (int k = -1; k < reps; ++k) {
        for (int traced = 0; traced < 2; ++traced) {
            SV_CUDA_CHECK(cudaEventRecord(ev.start, c.stream));
            if (traced)
                launch<true>(SV_OP_SUM, SV_TYPE_INT32, c.d_in, d_out, ni, false, c.d_result,
                             c.stream);
            else
                launch<false>(SV_OP_SUM, SV_TYPE_INT32, c.d_in, d_out, ni, false, nullptr,
                              c.stream);
            SV_CUDA_CHECK_LAUNCH();
            SV_CUDA_CHECK(cudaEventRecord(ev.stop, c.stream));
            SV_CUDA_CHECK(cudaEventSynchronize(ev.stop));
            float ms = 0.0f;
            SV_CUDA_CHECK(cudaEventElapsedTime(&ms, ev.start, ev.stop));
            if (k >= 0)
                (traced ? instr : plain).push_back(1e3 * ms);
        }
    }

    /* A whole capture, as sv_cuda_trace does it: upload, instrumented
     * launch, one copy back, synchronize (host clock). */
    for (int k = -1; k < reps; ++k) {
        double t0 = now_us();
        if (!capture_raw(c, SV_OP_SUM, SV_TYPE_INT32, false, in.data(), ni, err, errlen))
            return false;
        double t1 = now_us();
        if (k >= 0)
            whole.push_back(t1 - t0);
    }

    if (plain_us) *plain_us = median(plain);
    if (instrumented_us) *instrumented_us = median(instr);
    if (capture_us) *capture_us = median(whole);
    return true;
}

} // extern "C"
