/* Private to bench_hs.cu and bench_hs_lookback.cu: what both one-pass
 * Hillis-Steele scans share. The element type's 16-byte vector, the
 * operator (int32 wraps modulo 2^32 like the CPU reference), the 32-lane
 * Kogge-Stone step (warp shuffles), a warp's rows of a tile (load, scan,
 * carry, store), the scan of the warp totals, and the decoupled look-back of
 * Merrill & Garland (2016) over 64-bit tile status words.
 *
 * Status word of tile t: (epoch << 34 | flag << 32 | value bits); flag 0 =
 * nothing yet, 1 = aggregate A (the tile's own total), 2 = inclusive prefix
 * P (everything up to and including tile t). Only ever read and written as a
 * device-scope atomic (cuda::atomic_ref); flag and value travel in one word,
 * so a reader sees both or neither and nothing else is communicated through
 * it: relaxed order is enough, as in CUB, and there is no data race by
 * construction.
 *
 * The epoch (1 .. 2^30 - 1) numbers the launches that use one status buffer
 * (HsStatus, bench_scans.cuh): a word written by an earlier launch carries an
 * older epoch and reads as "nothing yet", so the words need no reset between
 * runs (the memset before every launch cost a graph node, about 1.5 us, at
 * every size). The tile counter cannot carry an epoch, so there are two:
 * launch e claims from counter e & 1 and zeroes counter (e + 1) & 1 for the
 * next launch, which the stream orders after this one. */
#ifndef SV_BENCH_HS_COMMON_CUH
#define SV_BENCH_HS_COMMON_CUH

#include "bench_scans.cuh" /* sv::add */

#include <cuda/atomic>
#include <cstdint>

namespace sv {
namespace hsc {

constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned long long kFlagA = 1ull << 32;
constexpr unsigned long long kFlagP = 2ull << 32;

/* The tag of launch `epoch`'s status words, and a word's flag as that launch
 * reads it (0 for a word of another launch). */
__device__ __forceinline__ unsigned long long epoch_tag(unsigned epoch)
{
    return (unsigned long long)epoch << 34;
}
__device__ __forceinline__ unsigned flag_of(unsigned long long word, unsigned epoch)
{
    return (unsigned)(word >> 34) == epoch ? (unsigned)(word >> 32) & 3u : 0u;
}

/* Launch `epoch`'s tile counter (status[0] or status[1], as a 32-bit word);
 * the tile status words follow at status + kStatusHead. */
constexpr size_t kStatusHead = 2;
__device__ __forceinline__ unsigned *launch_counter(unsigned long long *status, unsigned epoch)
{
    return reinterpret_cast<unsigned *>(status + (epoch & 1u));
}
/* Thread 0 of block 0 of launch `epoch`: zeroes the next launch's counter. */
__device__ __forceinline__ void reset_next_counter(unsigned long long *status, unsigned epoch)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        status[(epoch + 1u) & 1u] = 0;
}

template <typename T> struct Vec4;
template <> struct Vec4<int32_t> { using type = int4; };
template <> struct Vec4<float> { using type = float4; };

__device__ __forceinline__ uint32_t to_bits(int32_t v) { return (uint32_t)v; }
__device__ __forceinline__ uint32_t to_bits(float v) { return __float_as_uint(v); }
template <typename T> __device__ __forceinline__ T from_bits(uint32_t b);
template <> __device__ __forceinline__ int32_t from_bits<int32_t>(uint32_t b) { return (int32_t)b; }
template <> __device__ __forceinline__ float from_bits<float>(uint32_t b) { return __uint_as_float(b); }

/* int32 sums wrap modulo 2^32 like the CPU reference (no signed overflow UB). */
using sv::add;

/* The GPU's global nanosecond clock (%globaltimer), the timeline's clock. */
__device__ __forceinline__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* What one look-back did, for the timeline (scanviz-bench --timeline):
 * when lane 0 published the aggregate and the inclusive prefix, the tile
 * whose P it stopped at (it summed the A's of lo + 1 .. tile - 1), the
 * windows it read and its slowest lane's re-reads of a predecessor that had
 * published nothing yet. */
struct LookStats {
    unsigned long long aggregate_ns, inclusive_ns;
    unsigned lo, windows, polls;
};

template <bool AcqRel>
__device__ __forceinline__ void publish(unsigned long long *word, unsigned long long v)
{
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> a(*word);
    a.store(v, AcqRel ? cuda::memory_order_release : cuda::memory_order_relaxed);
}

template <bool AcqRel>
__device__ __forceinline__ unsigned long long peek(unsigned long long *word)
{
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> a(*word);
    return a.load(AcqRel ? cuda::memory_order_acquire : cuda::memory_order_relaxed);
}

/* Inclusive Kogge-Stone scan over the first `Width` lanes (a power of two):
 * after the step with distance d, lane l holds the sum of lanes
 * max(0, l - 2d + 1) .. l; the other lanes' values pass through unused. */
template <int Width, typename T>
__device__ __forceinline__ T warp_inclusive(T x, int lane)
{
#pragma unroll
    for (int d = 1; d < Width; d *= 2) {
        T y = __shfl_up_sync(kFull, x, d);
        if (lane >= d)
            x = add(x, y);
    }
    return x;
}

/* One warp's span of a tile, as both scans lay it out: Vecs rows of 128
 * consecutive elements, lane l holding elements 4l .. 4l+3 of each row (one
 * 16-byte vector): x[k][j] is element k * 128 + 4 * lane + j of the span.
 * Each row load or store is one fully coalesced 512-byte warp access (or a
 * conflict-free 16-byte shared-memory access per lane). */
template <typename T, int Vecs>
struct Rows {
    using V = typename Vec4<T>::type;

    /* f(k, j, i) for each of the lane's items, i its index from span. */
    template <typename F>
    static __device__ __forceinline__ void each(size_t span, int lane, F f)
    {
#pragma unroll
        for (int k = 0; k < Vecs; ++k)
#pragma unroll
            for (int j = 0; j < 4; ++j)
                f(k, j, span + (size_t)k * 128 + (size_t)lane * 4 + j);
    }

    /* The lane's items of a span wholly in bounds at src (global or shared
     * memory), as 16-byte vectors (Streaming: __ldcs). */
    template <bool Streaming>
    static __device__ __forceinline__ void load(T (&x)[Vecs][4], const T *src, int lane)
    {
        const V *p = reinterpret_cast<const V *>(src) + lane;
#pragma unroll
        for (int k = 0; k < Vecs; ++k) {
            V v = Streaming ? __ldcs(p + k * 32) : p[k * 32];
            x[k][0] = v.x; x[k][1] = v.y; x[k][2] = v.z; x[k][3] = v.w;
        }
    }

    /* The lane's items of the span at in + span that n cuts: element by
     * element, the identity past n. */
    static __device__ __forceinline__ void load_guarded(T (&x)[Vecs][4], const T *__restrict__ in,
                                                        size_t span, size_t n, int lane)
    {
        each(span, lane, [&](int k, int j, size_t i) { x[k][j] = i < n ? in[i] : T(0); });
    }

    /* Each row: sequential scan of the lane's 4 items, Kogge-Stone over the
     * 32 lane totals (rows are independent, so their shuffles overlap).
     * Leaves x scanned within each lane and in pre[k] what comes before the
     * lane's items of row k within the warp (the earlier rows, then the
     * earlier lanes of row k); returns the warp's total (in every lane). */
    static __device__ __forceinline__ T scan(T (&x)[Vecs][4], T (&pre)[Vecs], int lane)
    {
        T rows = T(0); /* the warp's rows before row k */
#pragma unroll
        for (int k = 0; k < Vecs; ++k) {
            x[k][1] = add(x[k][1], x[k][0]);
            x[k][2] = add(x[k][2], x[k][1]);
            x[k][3] = add(x[k][3], x[k][2]);
            T s = warp_inclusive<32>(x[k][3], lane);
            T e = __shfl_up_sync(kFull, s, 1);
            pre[k] = lane == 0 ? rows : add(rows, e);
            rows = k == 0 ? __shfl_sync(kFull, s, 31) : add(rows, __shfl_sync(kFull, s, 31));
        }
        return rows;
    }

    /* Adds carry (what precedes the warp's span) and pre[k] to row k. */
    static __device__ __forceinline__ void add_carry(T (&x)[Vecs][4], const T (&pre)[Vecs],
                                                     T carry)
    {
#pragma unroll
        for (int k = 0; k < Vecs; ++k) {
            T p = add(carry, pre[k]);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                x[k][j] = add(x[k][j], p);
        }
    }

    /* Stores the lane's items at out + span: as vectors when full
     * (Streaming: __stcs), else element by element below n. */
    template <bool Streaming>
    static __device__ __forceinline__ void store(const T (&x)[Vecs][4], bool full,
                                                 T *__restrict__ out, size_t span, size_t n,
                                                 int lane)
    {
        if (full) {
            V *q = reinterpret_cast<V *>(out + span) + lane;
#pragma unroll
            for (int k = 0; k < Vecs; ++k) {
                V v;
                v.x = x[k][0]; v.y = x[k][1]; v.z = x[k][2]; v.w = x[k][3];
                if (Streaming)
                    __stcs(q + k * 32, v);
                else
                    q[k * 32] = v;
            }
        } else {
            each(span, lane, [&](int k, int j, size_t i) {
                if (i < n)
                    out[i] = x[k][j];
            });
        }
    }
};

/* Warp 0 of a block of Warps warps: Kogge-Stone over the warp totals
 * totals[0 .. Warps). Returns the tile's aggregate (in every lane) and in
 * `before`, for lanes 1 .. Warps-1, the total of the warps before lane's
 * warp (lane 0's is its own total: callers use the identity there). */
template <int Warps, typename T>
__device__ __forceinline__ T scan_warp_totals(const T *totals, int lane, T &before)
{
    T w = lane < Warps ? totals[lane] : T(0);
    T s = warp_inclusive<32>(w, lane);
    const T aggregate = __shfl_sync(kFull, s, Warps - 1);
    before = __shfl_up_sync(kFull, s, 1);
    return aggregate;
}

/* One whole warp: tile `tile` (> 0) publishes its aggregate, sums the
 * aggregates of its predecessors back to the nearest inclusive prefix, in
 * windows of 32 x Per (lane l looks at tiles pred - l - 32 j, j < Per: Per
 * loads in flight per lane, so a window costs one round trip to L2 whatever
 * Per is, and a chain of c tiles without a P costs c / (32 Per) of them),
 * publishes its own inclusive prefix and returns the exclusive one (in every
 * lane); publish_aggregate false: the aggregate was published already.
 * `tiles` points at the tile status words (status + kStatusHead), all
 * tagged with `epoch`. Positions before tile 0 read as P with value 0; tile
 * 0 always ends as P, so a window reaching it always stops there. SleepNs:
 * back-off while a predecessor has published nothing (0: spin).
 * Termination: every tile a look-back waits on was claimed by a running
 * block that publishes its A without waiting on anyone (the callers' tile
 * counters guarantee it). stats (nullptr in the timed kernels, where the
 * compiler drops every use of it): what the look-back did, for the
 * timeline. */
template <typename T, bool AcqRel, int SleepNs, int Per = 1>
__device__ __forceinline__ T look_back(unsigned long long *__restrict__ tiles, unsigned tile,
                                       T aggregate, int lane, unsigned epoch,
                                       bool publish_aggregate = true,
                                       LookStats *stats = nullptr)
{
    const unsigned long long tag = epoch_tag(epoch);
    if (lane == 0 && publish_aggregate) {
        publish<AcqRel>(&tiles[tile], tag | kFlagA | to_bits(aggregate));
        if (stats)
            stats->aggregate_ns = global_ns();
    }
    T prefix = T(0);
    long pred = (long)tile - 1;
    unsigned polls = 0, windows = 0;
    for (;;) {
        unsigned long long word[Per];
        unsigned f[Per];
#pragma unroll
        for (int j = 0; j < Per; ++j) {
            const long idx = pred - lane - 32 * j;
            word[j] = idx >= 0 ? peek<AcqRel>(&tiles[idx]) : 0ull;
            f[j] = idx >= 0 ? flag_of(word[j], epoch) : 2u;
        }
#pragma unroll
        for (int j = 0; j < Per; ++j) {
            const long idx = pred - lane - 32 * j;
            while (f[j] == 0) {
                if (SleepNs > 0)
                    __nanosleep(SleepNs);
                word[j] = peek<AcqRel>(&tiles[idx]);
                f[j] = flag_of(word[j], epoch);
                if (stats)
                    ++polls;
            }
        }
        /* The nearest P: the first window row j with one, its lowest lane. */
        int cut = 32 * Per; /* distance (lane + 32 j) of the nearest P */
#pragma unroll
        for (int j = Per - 1; j >= 0; --j) {
            const unsigned pmask = __ballot_sync(kFull, f[j] == 2);
            if (pmask)
                cut = 32 * j + __ffs(pmask) - 1;
        }
        /* Sum the A's up to and including the nearest P. */
        T v = T(0);
#pragma unroll
        for (int j = 0; j < Per; ++j)
            if (lane + 32 * j <= cut)
                v = add(v, from_bits<T>((uint32_t)word[j]));
#pragma unroll
        for (int d = 16; d > 0; d /= 2)
            v = add(v, __shfl_xor_sync(kFull, v, d));
        prefix = add(prefix, v);
        ++windows;
        if (cut < 32 * Per) {
            if (stats)
                stats->lo = (unsigned)(pred - cut);
            break;
        }
        pred -= 32 * Per;
    }
    if (lane == 0)
        publish<AcqRel>(&tiles[tile], tag | kFlagP | to_bits(add(prefix, aggregate)));
    if (stats) {
        stats->inclusive_ns = global_ns();
        stats->windows = windows;
#pragma unroll
        for (int d = 16; d > 0; d /= 2) /* the slowest lane's (sm_75 has no __reduce_max_sync) */
            polls = max(polls, __shfl_xor_sync(kFull, polls, d));
        stats->polls = polls;
    }
    return prefix;
}

} // namespace hsc
} // namespace sv

#endif
