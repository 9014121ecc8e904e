/* hs: Hillis-Steele as a Hopper-native single-pass scan.
 *
 * The scan inside a tile is Kogge-Stone (Hillis-Steele) steps with warp
 * shuffles, and tiles are chained by decoupled look-back (Merrill & Garland
 * 2016; bench_hs_common.cuh), as in hs-lookback (bench_hs_lookback.cu). What
 * is new is how the bytes move:
 *
 * - A persistent grid: as many blocks as fit on the GPU at once, each
 *   looping over tiles that it claims from an atomic tile counter. Tile
 *   order is claim order, so every predecessor a look-back waits on belongs
 *   to a running block that will publish it (below).
 * - Tiles arrive through the bulk copy engine (`cp.async.bulk`, global to
 *   shared memory, completing on an `mbarrier`), Stages tiles deep per
 *   block: while a block scans a tile and looks back, the copies of its
 *   next Stages - 1 tiles, and of the one it claims as soon as the current
 *   tile is out of shared memory, are in flight. Registers hold a tile only
 *   from shared memory to the store, not from the load, so the bytes in
 *   flight no longer cost registers (hs-lookback's limit: docs/performance.md).
 * - One thread (lane 0 of warp 1) claims and starts the next tile while
 *   warp 0 does the look-back of the current one, so the counter's L2 round
 *   trip and the look-back's overlap.
 * - Eager aggregates: meanwhile warps 1 .. Stages-1 sum the tiles already
 *   waiting in the other stages and publish their aggregates, so that no
 *   tile's aggregate waits for this block's look-backs (see the loop).
 *
 * Layout of a tile: Threads threads, Vecs rows of 16-byte vectors per warp.
 * Warp w owns the contiguous span [w * 128 * Vecs, (w + 1) * 128 * Vecs) of
 * the tile; row k of that span is 128 consecutive elements, lane l holding
 * elements 4l .. 4l+3 of it: one conflict-free 16-byte shared-memory read per
 * lane and row, then a 4-element sequential scan in each lane and a 32-lane
 * Kogge-Stone scan of the lane totals.
 *
 * Under the hood, the pipeline of one block. Stage s has a buffer, an
 * mbarrier (arrival count 1) and the number of the tile it holds. The
 * producer fills stage s: it writes the tile number, then arrives on the
 * barrier with the byte count expected (expect_tx) and starts the bulk copy,
 * which completes the transaction; a tile past the end, or the partial last
 * one (which the threads read from global memory with guards), gets a plain
 * arrive. Every thread waits on the stage's barrier with the phase parity of
 * its round, reads the tile number (the arrive releases it), and the
 * block stops at the first tile past the end: claims only grow, so no later
 * stage of this block has a copy in flight then. A stage is refilled only
 * after the barrier that follows every warp's reads of it. Deadlock-free:
 * tiles are claimed only by running blocks, each block works on its tiles in
 * claim order, and the lowest tile without an inclusive prefix belongs to a
 * block whose earlier tiles are all lower, hence done: that block is working
 * on it, and its predecessors have all published P. */
#include "bench_scans.cuh"
#include "bench_hs_common.cuh"

#include <cstdint>
#include <cstring>

namespace {

using namespace sv::hsc;

/* ---- Hopper's bulk copy and mbarriers (PTX ISA 8.0, sm_90) -------------- */

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(uint64_t *bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(bar)), "r"(count)
                 : "memory");
}

/* Makes the initialized barriers visible to the copy engine. */
__device__ __forceinline__ void mbar_init_fence()
{
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

__device__ __forceinline__ void mbar_arrive_expect(uint64_t *bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(bar)),
                 "r"(bytes)
                 : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(bar)) : "memory");
}

/* Whether the phase with this parity has completed (does not block). */
__device__ __forceinline__ bool mbar_test(uint64_t *bar, unsigned parity)
{
    uint32_t done;
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done)
                 : "r"(smem_u32(bar)), "r"(parity)
                 : "memory");
    return done != 0;
}

__device__ __forceinline__ void mbar_wait(uint64_t *bar, unsigned parity)
{
    asm volatile("{\n\t.reg .pred p;\n"
                 "SV_WAIT_%=:\n\t"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
                 "@!p bra SV_WAIT_%=;\n}" ::"r"(smem_u32(bar)),
                 "r"(parity)
                 : "memory");
}

/* bytes (a multiple of 16, both addresses 16-byte aligned) from global src
 * to shared dst, completing bytes of bar's transaction count. */
__device__ __forceinline__ void bulk_load(void *dst, const void *src, unsigned bytes,
                                          uint64_t *bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];" ::"r"(smem_u32(dst)),
                 "l"(src), "r"(bytes), "r"(smem_u32(bar))
                 : "memory");
}

/* The same, with an L2 policy that keeps the source lines (evict_last):
 * where input and output together just outgrow L2 (2^23 elements), a scan
 * run again and again on one input then reads it from L2 while its output,
 * stored evict-first (st.global.cs), streams out. */
__device__ __forceinline__ void bulk_load_keep(void *dst, const void *src, unsigned bytes,
                                               uint64_t *bar)
{
    uint64_t policy;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(policy));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
                 " [%0], [%1], %2, [%3], %4;" ::"r"(smem_u32(dst)),
                 "l"(src), "r"(bytes), "r"(smem_u32(bar)), "l"(policy)
                 : "memory");
}

/* One warp: the sum of a tile of Items elements in shared memory (every
 * lane gets it): one add per item, 16-byte reads, a 5-step shuffle
 * reduction. */
template <typename T, int Items>
__device__ __forceinline__ T tile_sum(const T *stage, int lane)
{
    using V = typename Vec4<T>::type;
    const V *p = reinterpret_cast<const V *>(stage) + lane;
    T acc = T(0);
#pragma unroll 8
    for (int k = 0; k < Items / 128; ++k) {
        V v = p[k * 32];
        acc = add(acc, add(add(v.x, v.y), add(v.z, v.w)));
    }
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
        acc = add(acc, __shfl_xor_sync(kFull, acc, d));
    return acc;
}

/* ---- The kernel ----------------------------------------------------------- */

template <typename T, int Threads, int Vecs, int Stages, int MinBlocks, int SleepNs,
          int Streaming, int Per>
struct Pipe {
    using V = typename Vec4<T>::type;
    static constexpr int kWarps = Threads / 32;
    static constexpr int kWarpItems = 128 * Vecs;
    static constexpr int kItems = kWarps * kWarpItems;
    static constexpr unsigned kBytes = kItems * sizeof(T);
    static constexpr int kProducer = 32; /* lane 0 of warp 1 */
    static constexpr size_t kSmem = (size_t)Stages * kBytes;
    static_assert(Threads % 32 == 0 && kWarps >= 2 && kWarps <= 32, "2..32 warps");
    static_assert(Stages >= 2 && Stages <= kWarps, "a watching warp for each stage ahead");
};

__device__ __forceinline__ unsigned sm_id()
{
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    return id;
}

/* Rec: also writes rec[tile] for every tile (scanviz-bench --timeline;
 * scan_cuda.h says what each field is). The timed kernels are Rec = false,
 * with every recording line compiled out. */
template <typename T, int Threads, int Vecs, int Stages, int MinBlocks, int SleepNs,
          int Streaming, int Per, bool Rec = false>
__global__ void __launch_bounds__(Threads, MinBlocks)
hs_pipe(const T *__restrict__ in, T *__restrict__ out, size_t n, unsigned tiles,
        unsigned long long *__restrict__ words, unsigned epoch,
        sv_cuda_tile_record *__restrict__ rec)
{
    using P = Pipe<T, Threads, Vecs, Stages, MinBlocks, SleepNs, Streaming, Per>;
    using R = Rows<T, Vecs>;
    constexpr int kWarps = P::kWarps, kWarpItems = P::kWarpItems, kItems = P::kItems;

    extern __shared__ __align__(128) unsigned char dyn[];
    T *const buf = reinterpret_cast<T *>(dyn);
    __shared__ __align__(8) uint64_t bar[Stages];
    __shared__ unsigned stage_tile[Stages];
    __shared__ int stage_published[Stages]; /* the stage's A is out (early) */
    __shared__ T warp_prefix[kWarps];

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const bool producer = threadIdx.x == P::kProducer;
    unsigned *const counter = launch_counter(words, epoch);
    unsigned long long *const status = words + kStatusHead;
    const unsigned long long tag = epoch_tag(epoch);
    if (tiles > 1)
        reset_next_counter(words, epoch);

    /* Producer only: stage s gets tile t (or learns there is none). */
    auto fill = [&](int s, unsigned t) {
        stage_tile[s] = t;
        if (t < tiles && (size_t)(t + 1) * kItems <= n) {
            mbar_arrive_expect(&bar[s], P::kBytes);
            if (Streaming == 2)
                bulk_load_keep(buf + (size_t)s * kItems, in + (size_t)t * kItems, P::kBytes,
                               &bar[s]);
            else
                bulk_load(buf + (size_t)s * kItems, in + (size_t)t * kItems, P::kBytes, &bar[s]);
        } else {
            mbar_arrive(&bar[s]);
        }
    };

    if (threadIdx.x == 0) {
#pragma unroll
        for (int s = 0; s < Stages; ++s) {
            mbar_init(&bar[s], 1);
            stage_published[s] = 0;
        }
        mbar_init_fence();
    }
    __syncthreads();
    if (producer) {
        /* One claim per stage, each copy started as soon as its tile is
         * known. A single tile needs no counter (the host skips its reset
         * then, and launches one block). */
        for (int s = 0; s < Stages; ++s)
            fill(s, tiles == 1 ? (s == 0 ? 0u : tiles) : atomicAdd(counter, 1u));
    }

    int s = 0;
    unsigned parity = 0;
    for (;;) {
        mbar_wait(&bar[s], parity);
        const unsigned tile = stage_tile[s];
        if (tile >= tiles)
            break;
        if (Rec && threadIdx.x == 0) {
            rec[tile].start = global_ns();
            rec[tile].block = blockIdx.x;
            rec[tile].sm = sm_id();
        }
        const size_t tile_base = (size_t)tile * kItems;
        const size_t base = tile_base + (size_t)warp * kWarpItems;
        const bool full = tile_base + kItems <= n;

        /* A full tile from its stage in shared memory; the partial last
         * one from global memory, guarded. Then per row: 4-item sequential
         * scan in the lane, Kogge-Stone over the 32 lane totals; pre[k] is
         * what precedes the lane's items of row k within the warp. */
        T x[Vecs][4], pre[Vecs];
        if (full)
            R::template load<false>(x, buf + (size_t)s * kItems + (size_t)warp * kWarpItems, lane);
        else
            R::load_guarded(x, in, base, n, lane);
        const T rows = R::scan(x, pre, lane);
        __syncwarp(); /* lane 0 overwrites what the whole warp read last round */
        if (lane == 0)
            warp_prefix[warp] = rows;
        int early = 0; /* thread 0: whether this tile's A is out already */
        if (threadIdx.x == 0) {
            early = stage_published[s];
            stage_published[s] = 0;
        }
        __syncthreads(); /* A: stage s read by every warp; the warp totals are in */

        if (producer) /* the next tile's copy starts before the look-back */
            fill(s, tiles == 1 ? tiles : atomicAdd(counter, 1u));

        /* Eager aggregates. While warp 0 looks back, warp w = 1 .. Stages-1
         * takes stage (s + w) % Stages (the tiles this block scans next, in
         * claim order) and, once its copy has landed, sums the tile from
         * shared memory and publishes its A. A tile's A must not wait for
         * this block's look-backs of earlier tiles: the tiles queued in a
         * block are predecessors of tiles in other blocks, and an A that
         * waits for the look-back of the block's previous tile chains the
         * blocks' look-backs one after another (the first version, without
         * this, ran 40x slower at 2^28). Warp 1 waits for its stage (the
         * next iteration waits for it anyway); the others only take a stage
         * that has landed. */
        if (warp >= 1 && warp < Stages && tiles > 1) {
            const int s2 = (s + warp) % Stages;
            const unsigned par = s2 > s ? parity : parity ^ 1u;
            if (!stage_published[s2]) {
                /* Every lane waits or tests: each has seen the copy complete. */
                bool landed;
                if (warp == 1) {
                    mbar_wait(&bar[s2], par);
                    landed = true;
                } else {
                    landed = __all_sync(kFull, mbar_test(&bar[s2], par));
                }
                const unsigned t = landed ? stage_tile[s2] : 0u;
                if (t > 0 && t < tiles && (size_t)(t + 1) * kItems <= n) {
                    const T acc = tile_sum<T, kItems>(buf + (size_t)s2 * kItems, lane);
                    __syncwarp(); /* every lane has read stage_published */
                    if (lane == 0) {
                        publish<false>(&status[t], tag | kFlagA | to_bits(acc));
                        stage_published[s2] = 1;
                        if (Rec)
                            rec[t].aggregate = global_ns();
                    }
                }
            }
        }

        if (warp == 0) {
            /* Kogge-Stone over the warp totals, then the look-back; the
             * tile's prefix is folded into each warp's exclusive prefix. */
            T e;
            const T aggregate = scan_warp_totals<kWarps>(warp_prefix, lane, e);
            T prefix = T(0);
            if (tile == 0) {
                if (lane == 0 && tiles > 1)
                    publish<false>(&status[0], tag | kFlagP | to_bits(aggregate));
                if (Rec && lane == 0) {
                    const unsigned long long now = global_ns();
                    rec[0].aggregate = now;
                    rec[0].inclusive = now;
                    rec[0].lo = 0;
                    rec[0].windows = 0;
                    rec[0].polls = 0;
                    rec[0].early = 0;
                }
            } else {
                const bool out = __shfl_sync(kFull, early, 0) != 0;
                LookStats st;
                prefix = look_back<T, false, SleepNs, Per>(status, tile, aggregate, lane, epoch,
                                                           !out, Rec ? &st : nullptr);
                if (Rec && lane == 0) {
                    if (!out)
                        rec[tile].aggregate = st.aggregate_ns;
                    rec[tile].inclusive = st.inclusive_ns;
                    rec[tile].lo = st.lo;
                    rec[tile].windows = st.windows;
                    rec[tile].polls = st.polls;
                    rec[tile].early = out ? 1u : 0u;
                }
            }
            if (lane < kWarps)
                warp_prefix[lane] = lane == 0 ? prefix : add(prefix, e);
        }
        __syncthreads(); /* B: the carries are in */

        R::add_carry(x, pre, warp_prefix[warp]);
        R::template store<Streaming != 0>(x, full, out, base, n, lane);
        if (Rec && lane == 0) /* the clock only grows: an earlier run's end is smaller */
            atomicMax(&rec[tile].end, global_ns());
        if (++s == Stages) {
            s = 0;
            parity ^= 1u;
        }
    }
}

/* A variant: the pipeline above in one shape (regs < 0), or hs-lookback's
 * one-tile-per-block kernel in config `regs` (bench_hs_lookback.cu), which
 * the size-dependent choice takes where the data fit in L2. */
struct Variant {
    int threads, vecs, stages, regs;
    const char *name;
};

/* The tuning space, timed by tests/bench/tune_hs (docs/performance.md has
 * the run). Keep in step with launch_variant(). "window 128": look-back
 * windows of 4 x 32 predecessors. */
constexpr Variant kVariants[] = {
    {512, 8, 3, -1, "512x32 3 stages 1 block/SM"},
    {256, 8, 2, -1, "256x32 2 stages 3 blocks/SM"},
    {256, 8, 6, -1, "256x32 6 stages 1 block/SM"},
    {128, 8, 3, -1, "128x32 3 stages 4 blocks/SM"},
    {256, 8, 3, -1, "256x32 3 stages 2 blocks/SM"},
    {512, 4, 6, -1, "512x16 6 stages 1 block/SM"},
    {256, 8, 3, -1, "256x32 3 stages 2 blocks/SM streaming stores"},
    {256, 4, 4, -1, "256x16 4 stages 3 blocks/SM"},
    {384, 8, 3, -1, "384x32 3 stages 1 block/SM"},
    {512, 8, 3, -1, "512x32 3 stages 1 block/SM window 128"},
    {128, 8, 3, -1, "128x32 3 stages 4 blocks/SM window 128"},
    {256, 4, 4, -1, "256x16 4 stages 3 blocks/SM window 128"},
    {512, 8, 3, -1, "512x32 3 stages 1 block/SM streaming stores"},
    {256, 8, 3, -1, "256x32 3 stages 2 blocks/SM window 128"},
    {512, 8, 3, -1, "512x32 3 stages 1 block/SM input kept in L2"},
    {256, 8, 3, -1, "256x32 3 stages 2 blocks/SM input kept in L2 window 128"},
    {0, 0, 0, 0, nullptr}, /* 16.. : hs_regs configs 0.. (names from there) */
    {0, 0, 0, 1, nullptr},
    {0, 0, 0, 2, nullptr},
    {0, 0, 0, 3, nullptr},
    {0, 0, 0, 4, nullptr},
    /* 21.. : more tiles in flight at large n (issue 32's sweep) */
    {512, 6, 4, -1, "512x24 4 stages 1 block/SM input kept in L2"},
    {1024, 4, 3, -1, "1024x16 3 stages 1 block/SM input kept in L2"},
    {384, 8, 4, -1, "384x32 4 stages 1 block/SM input kept in L2"},
    {256, 8, 3, -1, "256x32 3 stages 2 blocks/SM input kept in L2"},
};
constexpr int kVariantCount = sizeof kVariants / sizeof kVariants[0];
constexpr size_t kMinTile = 4096;

/* SV_ALGO_HS's choice by n, from tune_hs on the H200 (2026-12-01 and
 * 2026-12-03, int32 and float32 at 2^16 .. 2^28; docs/performance.md):
 * below 2^21 elements (8 MiB in and out, far inside L2) 256 x 32 with 2
 * stages and 3 blocks per SM, whose smaller tiles start more blocks at once;
 * from 2^21 on 512 x 32 with 3 stages, its input kept in L2 (evict_last)
 * and its output stored evict-first, the fastest or within 3 % of it from
 * 2^21 to 2^25; from 2^26 on 384 x 32 with 4 stages, kept in L2 alike,
 * 1.0 - 1.7 % faster there (a fourth tile in flight per SM; its tile of
 * 12288 is too big for the sizes in L2). The same choice for both types:
 * they timed alike. */
int pick(size_t n, sv_type type)
{
    (void)type;
    return n < ((size_t)1 << 21) ? 1 : n < ((size_t)1 << 26) ? 14 : 23;
}

/* Blocks of one instantiation that fit on the device at once, times the
 * multiprocessors; its shared-memory opt-in is done on first use. cache and
 * cache_dev belong to the caller's instantiation (kernels of one element
 * type share a function type, so they cannot live here). */
template <typename K>
cudaError_t resident_blocks(K kernel, int threads, size_t smem, unsigned &cache, int &cache_dev,
                            unsigned *out)
{
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess)
        return e;
    if (cache == 0 || cache_dev != dev) {
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (e != cudaSuccess)
            return e;
        int per_sm = 0, sms = 0;
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem);
        if (e != cudaSuccess)
            return e;
        e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (e != cudaSuccess)
            return e;
        if (per_sm < 1)
            return cudaErrorInvalidConfiguration;
        cache = (unsigned)(per_sm * sms);
        cache_dev = dev;
    }
    *out = cache;
    return cudaSuccess;
}

template <typename T, int Threads, int Vecs, int Stages, int MinBlocks, int Streaming, int Per,
          bool Rec = false>
cudaError_t launch_typed(const void *in, void *out, size_t n, sv::HsStatus &st,
                         cudaStream_t stream, sv_cuda_tile_record *rec = nullptr)
{
    using P = Pipe<T, Threads, Vecs, Stages, MinBlocks, 0, Streaming, Per>;
    auto kernel = hs_pipe<T, Threads, Vecs, Stages, MinBlocks, 0, Streaming, Per, Rec>;
    const size_t tiles = sv::ceil_div(n, (size_t)P::kItems);
    static unsigned cache = 0;
    static int cache_dev = -1;
    unsigned resident = 0;
    cudaError_t e = resident_blocks(kernel, Threads, P::kSmem, cache, cache_dev, &resident);
    if (e != cudaSuccess)
        return e;
    unsigned epoch = 0;
    if (tiles > 1) {
        e = sv::hs_status_next(st, stream, &epoch);
        if (e != cudaSuccess)
            return e;
    }
    /* One block per tile up to what fits at once (small n: every tile
     * starts at once, as in hs-lookback); blocks with nothing to claim
     * exit at their first wait. */
    const unsigned blocks = (unsigned)(tiles < resident ? tiles : resident);
    kernel<<<blocks, Threads, P::kSmem, stream>>>(static_cast<const T *>(in),
                                                  static_cast<T *>(out), n, (unsigned)tiles,
                                                  st.words, epoch, rec);
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_variant(int v, const void *in, void *out, size_t n, sv::HsStatus &st,
                           cudaStream_t s)
{
    switch (v) {
    case 0: return launch_typed<T, 512, 8, 3, 1, 0, 1>(in, out, n, st, s);
    case 1: return launch_typed<T, 256, 8, 2, 3, 0, 1>(in, out, n, st, s);
    case 2: return launch_typed<T, 256, 8, 6, 1, 0, 1>(in, out, n, st, s);
    case 3: return launch_typed<T, 128, 8, 3, 4, 0, 1>(in, out, n, st, s);
    case 4: return launch_typed<T, 256, 8, 3, 2, 0, 1>(in, out, n, st, s);
    case 5: return launch_typed<T, 512, 4, 6, 1, 0, 1>(in, out, n, st, s);
    case 6: return launch_typed<T, 256, 8, 3, 2, 1, 1>(in, out, n, st, s);
    case 7: return launch_typed<T, 256, 4, 4, 3, 0, 1>(in, out, n, st, s);
    case 8: return launch_typed<T, 384, 8, 3, 1, 0, 1>(in, out, n, st, s);
    case 9: return launch_typed<T, 512, 8, 3, 1, 0, 4>(in, out, n, st, s);
    case 10: return launch_typed<T, 128, 8, 3, 4, 0, 4>(in, out, n, st, s);
    case 11: return launch_typed<T, 256, 4, 4, 3, 0, 4>(in, out, n, st, s);
    case 12: return launch_typed<T, 512, 8, 3, 1, 1, 1>(in, out, n, st, s);
    case 13: return launch_typed<T, 256, 8, 3, 2, 0, 4>(in, out, n, st, s);
    case 14: return launch_typed<T, 512, 8, 3, 1, 2, 1>(in, out, n, st, s);
    case 15: return launch_typed<T, 256, 8, 3, 2, 2, 4>(in, out, n, st, s);
    case 21: return launch_typed<T, 512, 6, 4, 1, 2, 1>(in, out, n, st, s);
    case 22: return launch_typed<T, 1024, 4, 3, 1, 2, 1>(in, out, n, st, s);
    case 23: return launch_typed<T, 384, 8, 4, 1, 2, 1>(in, out, n, st, s);
    case 24: return launch_typed<T, 256, 8, 3, 2, 2, 1>(in, out, n, st, s);
    default: return cudaErrorInvalidValue;
    }
}

/* The variants that can record their tiles: the ones pick() takes. */
bool can_record(int v)
{
    return v == 1 || v == 14 || v == 23;
}

template <typename T>
cudaError_t launch_recorded(int v, const void *in, void *out, size_t n, sv::HsStatus &st,
                            cudaStream_t s, sv_cuda_tile_record *rec)
{
    switch (v) {
    case 1: return launch_typed<T, 256, 8, 2, 3, 0, 1, true>(in, out, n, st, s, rec);
    case 14: return launch_typed<T, 512, 8, 3, 1, 2, 1, true>(in, out, n, st, s, rec);
    case 23: return launch_typed<T, 384, 8, 4, 1, 2, 1, true>(in, out, n, st, s, rec);
    default: return cudaErrorNotSupported;
    }
}

} // namespace

namespace sv {

cudaError_t hs_status_init(HsStatus &st, cudaStream_t stream)
{
    st.epoch = 0;
    return cudaMemsetAsync(st.words, 0, st.count * sizeof *st.words, stream);
}

cudaError_t hs_status_next(HsStatus &st, cudaStream_t stream, unsigned *epoch)
{
    if (st.epoch >= (1u << 30) - 1) { /* the 30-bit tags are used up */
        cudaError_t e = hs_status_init(st, stream);
        if (e != cudaSuccess)
            return e;
    }
    *epoch = ++st.epoch;
    return cudaSuccess;
}

size_t hs_tile(int variant, size_t n)
{
    if (variant == SV_CUDA_HS_AUTO)
        variant = pick(n, SV_TYPE_INT32);
    if (variant < 0 || variant >= kVariantCount)
        return 0;
    const Variant &v = kVariants[variant];
    if (v.regs >= 0)
        return hs_regs_tile(v.regs);
    return (size_t)v.threads * 4 * v.vecs;
}

size_t hs_status_words(size_t max_n)
{
    return kStatusHead + ceil_div(max_n, kMinTile);
}

int hs_variant_at(int variant, size_t n, sv_type type)
{
    return variant == SV_CUDA_HS_AUTO ? pick(n, type) : variant;
}

bool hs_can_record(int variant)
{
    return variant >= 0 && variant < kVariantCount && can_record(variant);
}

cudaError_t hs_launch(sv_type type, int variant, const void *in, void *out, size_t n,
                      HsStatus &status, cudaStream_t stream, sv_cuda_tile_record *rec)
{
    if (n == 0)
        return cudaSuccess;
    if (variant == SV_CUDA_HS_AUTO)
        variant = pick(n, type);
    if (variant < 0 || variant >= kVariantCount)
        return cudaErrorInvalidValue;
    if (rec) {
        if (!can_record(variant))
            return cudaErrorNotSupported;
        return type == SV_TYPE_INT32
                   ? launch_recorded<int32_t>(variant, in, out, n, status, stream, rec)
                   : launch_recorded<float>(variant, in, out, n, status, stream, rec);
    }
    if (kVariants[variant].regs >= 0)
        return hs_regs_launch(kVariants[variant].regs, type, in, out, n, status, stream);
    if (type == SV_TYPE_INT32)
        return launch_variant<int32_t>(variant, in, out, n, status, stream);
    if (type == SV_TYPE_FLOAT32)
        return launch_variant<float>(variant, in, out, n, status, stream);
    return cudaErrorInvalidValue;
}

/* Combining operations the kernel executes, counted per thread as the chapter
 * counts them (the last tile counted whole: it runs on identity padding).
 * Per warp: Vecs rows of (32 lanes x 3 sequential adds + 129 Kogge-Stone
 * adds, sum over d = 1..16 of (32 - d)); the row prefixes, 32 x (Vecs - 1),
 * and the warp total, 1; per row 32 x 2 prefix adds (the lane's prefix
 * within the warp, then the carry onto it) and 32 x 4 item adds. Per tile:
 * the Kogge-Stone over the warp totals in one warp, sum over d < W of
 * (32 - d); the tile prefix folded into the W warp prefixes; and one
 * look-back window (a 5-step shuffle reduction of 32 lanes, 160, plus
 * 32 + 1; a window of 128 adds 3 per lane). Further windows, rare, are not
 * counted. The eager aggregate, per tile but the first: one add per item (3
 * inside each vector, 1 into the lane's sum) and a 5-step shuffle
 * reduction, 160; an upper bound, as each block's first tile and a partial
 * last tile are not summed early. The regs variants count as hs-lookback. */
double hs_ops(int variant, size_t n)
{
    if (variant == SV_CUDA_HS_AUTO)
        variant = pick(n, SV_TYPE_INT32);
    if (variant < 0 || variant >= kVariantCount || n == 0)
        return 0.0;
    const Variant v = kVariants[variant];
    if (v.regs >= 0)
        return hs_regs_ops(v.regs, n);
    const double vecs = v.vecs;
    const int warps = v.threads / 32;
    const double per_warp =
        vecs * (32.0 * 3 + 129.0) + 32.0 * (vecs - 1) + 1.0 + vecs * (64.0 + 128.0);
    const bool wide = std::strstr(v.name, "window 128") != nullptr;
    double per_tile = warps * per_warp + warps + 160.0 + 33.0 + (wide ? 3.0 * 32 : 0.0);
    for (int d = 1; d < warps; d *= 2)
        per_tile += 32 - d;
    const double tile = (double)hs_tile(variant, n);
    const double tiles = (double)ceil_div(n, hs_tile(variant, n));
    return tiles * per_tile + (tiles - 1.0) * (tile + 160.0);
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
    return kVariants[v].regs >= 0 ? sv::hs_regs_name(kVariants[v].regs) : kVariants[v].name;
}

} // extern "C"
