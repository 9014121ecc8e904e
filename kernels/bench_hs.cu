/* hs: Hillis-Steele as production scans do it, in one pass over memory.
 * Kogge-Stone (Hillis-Steele) steps with warp shuffles inside each warp and
 * again over the warp totals, 32 items per thread in 16-byte loads, and
 * decoupled look-back between tiles (Merrill & Garland 2016).
 *
 * Layout of a tile: Threads threads, Vecs rows of 16-byte vectors per warp.
 * Warp w owns the contiguous span [w * 128 * Vecs, (w + 1) * 128 * Vecs) of
 * the tile; row k of that span is 128 consecutive elements, lane l holding
 * elements 4l .. 4l+3 of it. Each row load is one fully coalesced 512-byte
 * warp access, and a row is scanned by a 4-element sequential scan in each
 * lane then a 32-lane Kogge-Stone scan of the lane totals.
 *
 * Look-back protocol. Tile t's status word packs (flag << 32 | value bits):
 * flag 0 = nothing yet, 1 = aggregate A (the tile's own total), 2 = inclusive
 * prefix P (everything up to and including tile t). The word is only ever
 * read and written as a device-scope atomic (cuda::atomic_ref), and flag and
 * value travel in that one word, so a reader sees both or neither and no
 * other memory is communicated through it: relaxed order is enough, as in
 * CUB, and the protocol has no data race by construction. Release/acquire
 * variants are built for comparison (tune_hs; a few % slower on the H200).
 * Tiles take their index from an atomic counter in the order they start, so
 * every tile a look-back waits on belongs to a block that is already running
 * and will publish its A without waiting on anyone: the look-back cannot
 * deadlock, whatever order the hardware schedules blocks in. The host zeroes
 * the status words and the counter before every run (one memset). */
#include "bench_scans.cuh"

#include <cuda/atomic>
#include <cstdint>

namespace {

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

/* Inclusive Kogge-Stone scan over the first `width` lanes (a power of two):
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

/* One tile's work, shared by the two kernels below: Threads threads, Vecs
 * rows of 16-byte vectors per warp; AcqRel picks the status words' memory
 * order and SleepNs the back-off of a look-back that finds a predecessor
 * not yet published (0: spin). */
template <typename T, int Threads, int Vecs, bool AcqRel, int SleepNs, bool Streaming>
struct Tile {
    using V = typename Vec4<T>::type;
    static constexpr int kWarps = Threads / 32;
    static constexpr int kWarpItems = 128 * Vecs;
    static constexpr int kItems = kWarps * kWarpItems;
    static_assert(Threads % 32 == 0 && kWarps <= 32, "the warp totals fit one warp");

    struct Shared {
        T warp_prefix[kWarps];
        T tile_prefix;
        unsigned ticket[2];
    };

    /* This thread's 4 * Vecs items of tile `tile`, the identity past n. */
    static __device__ __forceinline__ void load(T (&x)[Vecs][4], const T *__restrict__ in,
                                                size_t n, unsigned tile, int warp, int lane)
    {
        const size_t base = (size_t)tile * kItems + (size_t)warp * kWarpItems;
        if (base + kWarpItems <= n) {
            const V *p = reinterpret_cast<const V *>(in + base) + lane;
#pragma unroll
            for (int k = 0; k < Vecs; ++k) {
                V v = Streaming ? __ldcs(p + k * 32) : p[k * 32];
                x[k][0] = v.x; x[k][1] = v.y; x[k][2] = v.z; x[k][3] = v.w;
            }
        } else {
#pragma unroll
            for (int k = 0; k < Vecs; ++k)
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    size_t i = base + (size_t)k * 128 + (size_t)lane * 4 + j;
                    x[k][j] = i < n ? in[i] : T(0);
                }
        }
    }

    /* Each row: sequential scan of the lane's 4 items, Kogge-Stone over the
     * 32 lane totals (rows are independent, so their shuffles overlap). Leaves
     * x scanned within each lane, in pre[k] what comes before the lane's
     * items of row k within the warp (the earlier rows, then the earlier
     * lanes of row k), and the warp total in sh.warp_prefix. One array, not
     * two, keeps the registers low enough for 5 blocks of 256 per SM. */
    static __device__ __forceinline__ void scan_local(T (&x)[Vecs][4], T (&pre)[Vecs],
                                                      Shared &sh, int warp, int lane)
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
        if (lane == 0)
            sh.warp_prefix[warp] = rows;
    }

    /* Warp 0, after the barrier that follows scan_local: Kogge-Stone over the
     * warp totals (sh.warp_prefix becomes exclusive), then the tile's prefix
     * from the tiles before it, into sh.tile_prefix. */
    static __device__ __forceinline__ void look_back(Shared &sh, unsigned tile, bool single,
                                                     unsigned long long *__restrict__ status,
                                                     int lane)
    {
        T w = lane < kWarps ? sh.warp_prefix[lane] : T(0);
        T s = warp_inclusive<32>(w, lane);
        const T aggregate = __shfl_sync(kFull, s, kWarps - 1);
        T e = __shfl_up_sync(kFull, s, 1);
        if (lane < kWarps)
            sh.warp_prefix[lane] = lane == 0 ? T(0) : e;

        T prefix = T(0);
        if (tile == 0) {
            if (lane == 0 && !single)
                publish<AcqRel>(&status[0], kFlagP | to_bits(aggregate));
        } else {
            if (lane == 0)
                publish<AcqRel>(&status[tile], kFlagA | to_bits(aggregate));
            /* Window of 32 predecessors, lane l looking at tile pred - l.
             * Positions before tile 0 read as P with value 0; tile 0 always
             * ends as P, so a window reaching it always stops there. */
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
        }
        if (lane == 0)
            sh.tile_prefix = prefix;
    }

    /* After the barrier that follows look_back: add the carries and store. */
    static __device__ __forceinline__ void finish(T (&x)[Vecs][4], const T (&pre)[Vecs],
                                                  const Shared &sh,
                                                  T *__restrict__ out, size_t n, unsigned tile,
                                                  int warp, int lane)
    {
        const T carry = add(sh.tile_prefix, sh.warp_prefix[warp]);
#pragma unroll
        for (int k = 0; k < Vecs; ++k) {
            T p = add(carry, pre[k]);
#pragma unroll
            for (int j = 0; j < 4; ++j)
                x[k][j] = add(x[k][j], p);
        }
        const size_t base = (size_t)tile * kItems + (size_t)warp * kWarpItems;
        if (base + kWarpItems <= n) {
            V *q = reinterpret_cast<V *>(out + base) + lane;
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
#pragma unroll
            for (int k = 0; k < Vecs; ++k)
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    size_t i = base + (size_t)k * 128 + (size_t)lane * 4 + j;
                    if (i < n)
                        out[i] = x[k][j];
                }
        }
    }
};

/* One tile per block: the tile index comes from the counter (the order of
 * starting, not blockIdx), then load, scan, look back, store. */
template <typename T, int Threads, int Vecs, bool AcqRel, int SleepNs, bool Streaming,
          int MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks)
hs_scan(const T *__restrict__ in, T *__restrict__ out, size_t n, unsigned tiles,
        unsigned long long *__restrict__ status, unsigned *__restrict__ counter)
{
    using K = Tile<T, Threads, Vecs, AcqRel, SleepNs, Streaming>;
    __shared__ typename K::Shared sh;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const bool single = tiles == 1;

    unsigned tile = 0;
    if (!single) {
        if (threadIdx.x == 0)
            sh.ticket[0] = atomicAdd(counter, 1u);
        __syncthreads();
        tile = sh.ticket[0];
    }
    T x[Vecs][4], pre[Vecs];
    K::load(x, in, n, tile, warp, lane);
    K::scan_local(x, pre, sh, warp, lane);
    __syncthreads();
    if (warp == 0)
        K::look_back(sh, tile, single, status, lane);
    __syncthreads();
    K::finish(x, pre, sh, out, n, tile, warp, lane);
}

struct Variant {
    int threads, vecs;
    const char *name;
};

/* The tuning space, timed by tests/bench/tune_hs (docs/performance.md has
 * the run). Keep in step with launch_variant(). */
constexpr Variant kVariants[] = {
    {256, 8, "256x32 relaxed sleep200 5 blocks/SM"},
    {256, 8, "256x32 relaxed sleep200 6 blocks/SM"},
    {256, 8, "256x32 relaxed sleep200"},
    {256, 8, "256x32 acq/rel sleep200 5 blocks/SM"},
    {256, 8, "256x32 relaxed spin 5 blocks/SM"},
    {512, 8, "512x32 relaxed sleep200"},
    {512, 4, "512x16 relaxed sleep200 4 blocks/SM"},
    {256, 4, "256x16 acq/rel spin (first design)"},
    {256, 12, "256x48 relaxed sleep200 3 blocks/SM"},
};
constexpr int kVariantCount = sizeof kVariants / sizeof kVariants[0];
constexpr size_t kMinTile = 4096;

/* SV_ALGO_HS's choice by n. On the H200 one shape won at every n that
 * tune_hs timed (docs/performance.md), so the choice is constant for now. */
int pick(size_t n)
{
    (void)n;
    return 0;
}

template <typename T, int Threads, int Vecs, bool AcqRel, int SleepNs, bool Streaming,
          int MinBlocks>
cudaError_t launch_typed(const void *in, void *out, size_t n, unsigned long long *status,
                         cudaStream_t stream)
{
    constexpr size_t tile = (size_t)Threads * 4 * Vecs;
    const size_t tiles = sv::ceil_div(n, tile);
    unsigned *counter = reinterpret_cast<unsigned *>(status + tiles);
    if (tiles > 1) {
        cudaError_t e = cudaMemsetAsync(status, 0, (tiles + 1) * sizeof *status, stream);
        if (e != cudaSuccess)
            return e;
    }
    hs_scan<T, Threads, Vecs, AcqRel, SleepNs, Streaming, MinBlocks>
        <<<(unsigned)tiles, Threads, 0, stream>>>(static_cast<const T *>(in),
                                                  static_cast<T *>(out), n, (unsigned)tiles,
                                                  status, counter);
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_variant(int v, const void *in, void *out, size_t n,
                           unsigned long long *status, cudaStream_t s)
{
    switch (v) {
    case 0: return launch_typed<T, 256, 8, false, 200, false, 5>(in, out, n, status, s);
    case 1: return launch_typed<T, 256, 8, false, 200, false, 6>(in, out, n, status, s);
    case 2: return launch_typed<T, 256, 8, false, 200, false, 1>(in, out, n, status, s);
    case 3: return launch_typed<T, 256, 8, true, 200, false, 5>(in, out, n, status, s);
    case 4: return launch_typed<T, 256, 8, false, 0, false, 5>(in, out, n, status, s);
    case 5: return launch_typed<T, 512, 8, false, 200, false, 1>(in, out, n, status, s);
    case 6: return launch_typed<T, 512, 4, false, 200, false, 4>(in, out, n, status, s);
    case 7: return launch_typed<T, 256, 4, true, 0, false, 1>(in, out, n, status, s);
    case 8: return launch_typed<T, 256, 12, false, 200, false, 3>(in, out, n, status, s);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace

namespace sv {

size_t hs_tile(int variant)
{
    if (variant < 0 || variant >= kVariantCount)
        return 0;
    return (size_t)kVariants[variant].threads * 4 * kVariants[variant].vecs;
}

size_t hs_status_words(size_t max_n)
{
    return ceil_div(max_n, kMinTile) + 1;
}

cudaError_t hs_launch(sv_type type, int variant, const void *in, void *out, size_t n,
                      unsigned long long *status, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    if (variant == SV_CUDA_HS_AUTO)
        variant = pick(n);
    if (type == SV_TYPE_INT32)
        return launch_variant<int32_t>(variant, in, out, n, status, stream);
    if (type == SV_TYPE_FLOAT32)
        return launch_variant<float>(variant, in, out, n, status, stream);
    return cudaErrorInvalidValue;
}

/* Combining operations the kernel executes, counted per thread as the chapter
 * counts them (the last tile counted whole: it runs on identity padding).
 * Per warp: Vecs rows of (32 lanes x 3 sequential adds + 129 Kogge-Stone adds,
 * sum over d = 1..16 of (32 - d)); the row prefixes, 32 x (Vecs - 1), and the
 * warp total, 1; the carry, 32; per row 32 x 2 prefix adds and 32 x 4 item
 * adds. Per tile: the Kogge-Stone over the warp totals in one warp, sum over
 * d < W of (32 - d), and one look-back window (a 5-step shuffle reduction of
 * 32 lanes, 160, plus 32 + 1). Further windows, rare, are not counted. */
double hs_ops(int variant, size_t n)
{
    if (variant == SV_CUDA_HS_AUTO)
        variant = pick(n);
    if (variant < 0 || variant >= kVariantCount || n == 0)
        return 0.0;
    const Variant v = kVariants[variant];
    const double vecs = v.vecs;
    const int warps = v.threads / 32;
    const double per_warp = vecs * (32.0 * 3 + 129.0) + 32.0 * (vecs - 1) + 1.0 + 32.0 +
                            vecs * (64.0 + 128.0);
    double per_tile = warps * per_warp + 160.0 + 33.0;
    for (int d = 1; d < warps; d *= 2)
        per_tile += 32 - d;
    const double tiles = (double)ceil_div(n, hs_tile(variant));
    return tiles * per_tile;
}

} // namespace sv

extern "C" {

int sv_cuda_hs_variant_count(void)
{
    return kVariantCount;
}

const char *sv_cuda_hs_variant_name(int v)
{
    if (v < 0 || v >= kVariantCount)
        return nullptr;
    return kVariants[v].name;
}

} // extern "C"
