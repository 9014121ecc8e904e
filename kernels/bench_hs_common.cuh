/* Private to bench_hs.cu and bench_hs_lookback.cu: what both one-pass
 * Hillis-Steele scans share. The element type's 16-byte vector, the
 * operator (int32 wraps modulo 2^32 like the CPU reference), the 32-lane
 * Kogge-Stone step (warp shuffles), and the decoupled look-back of Merrill &
 * Garland (2016) over 64-bit tile status words.
 *
 * Status word of tile t: (flag << 32 | value bits); flag 0 = nothing yet,
 * 1 = aggregate A (the tile's own total), 2 = inclusive prefix P (everything
 * up to and including tile t). Only ever read and written as a device-scope
 * atomic (cuda::atomic_ref); flag and value travel in one word, so a reader
 * sees both or neither and nothing else is communicated through it: relaxed
 * order is enough, as in CUB, and there is no data race by construction. */
#ifndef SV_BENCH_HS_COMMON_CUH
#define SV_BENCH_HS_COMMON_CUH

#include <cuda/atomic>
#include <cstdint>

namespace sv {
namespace hsc {

constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned long long kFlagA = 1ull << 32;
constexpr unsigned long long kFlagP = 2ull << 32;

template <typename T> struct Vec4;
template <> struct Vec4<int32_t> { using type = int4; };
template <> struct Vec4<float> { using type = float4; };

__device__ __forceinline__ uint32_t to_bits(int32_t v) { return (uint32_t)v; }
__device__ __forceinline__ uint32_t to_bits(float v) { return __float_as_uint(v); }
template <typename T> __device__ __forceinline__ T from_bits(uint32_t b);
template <> __device__ __forceinline__ int32_t from_bits<int32_t>(uint32_t b) { return (int32_t)b; }
template <> __device__ __forceinline__ float from_bits<float>(uint32_t b) { return __uint_as_float(b); }

/* int32 sums wrap modulo 2^32 like the CPU reference (no signed overflow UB). */
__device__ __forceinline__ int32_t add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
__device__ __forceinline__ float add(float a, float b) { return a + b; }

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

/* One whole warp: tile `tile` (> 0) publishes its aggregate, sums the
 * aggregates of its predecessors back to the nearest inclusive prefix, in
 * windows of 32 (lane l looks at tile pred - l), publishes its own inclusive
 * prefix and returns the exclusive one (in every lane); publish_aggregate
 * false: the aggregate was published already. Positions before
 * tile 0 read as P with value 0; tile 0 always ends as P, so a window
 * reaching it always stops there. SleepNs: back-off while a predecessor has
 * published nothing (0: spin). Termination: every tile a look-back waits on
 * was claimed by a running block that publishes its A without waiting on
 * anyone (the callers' tile counters guarantee it). */
template <typename T, bool AcqRel, int SleepNs>
__device__ __forceinline__ T look_back(unsigned long long *__restrict__ status, unsigned tile,
                                       T aggregate, int lane, bool publish_aggregate = true)
{
    if (lane == 0 && publish_aggregate)
        publish<AcqRel>(&status[tile], kFlagA | to_bits(aggregate));
    T prefix = T(0);
    long pred = (long)tile - 1;
    for (;;) {
        const long idx = pred - lane;
        unsigned long long word = kFlagP;
        if (idx >= 0) {
            word = peek<AcqRel>(&status[idx]);
            while ((word >> 32) == 0) {
                if (SleepNs > 0)
                    __nanosleep(SleepNs);
                word = peek<AcqRel>(&status[idx]);
            }
        }
        const unsigned pmask = __ballot_sync(kFull, (word >> 32) == 2);
        T v = from_bits<T>((uint32_t)word);
        /* Sum the A's up to and including the nearest P. */
        if (pmask && lane > __ffs(pmask) - 1)
            v = T(0);
#pragma unroll
        for (int d = 16; d > 0; d /= 2)
            v = add(v, __shfl_xor_sync(kFull, v, d));
        prefix = add(prefix, v);
        if (pmask)
            break;
        pred -= 32;
    }
    if (lane == 0)
        publish<AcqRel>(&status[tile], kFlagP | to_bits(add(prefix, aggregate)));
    return prefix;
}

} // namespace hsc
} // namespace sv

#endif
