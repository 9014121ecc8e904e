/* hs-lookback: the first one-pass Hillis-Steele of scanviz-bench (shipped as
 * hs until the Hopper-native pipeline of bench_hs.cu replaced it; kept so the
 * Measure view shows the step). One tile per block, held in registers from
 * load to store.
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
 * CUB, and the protocol has no data race by construction (release/acquire
 * was measured a few % slower on the H200: docs/performance.md).
 * Tiles take their index from an atomic counter in the order they start, so
 * every tile a look-back waits on belongs to a block that is already running
 * and will publish its A without waiting on anyone: the look-back cannot
 * deadlock, whatever order the hardware schedules blocks in. The words carry
 * the launch's epoch and the counters alternate (bench_hs_common.cuh), so
 * nothing is reset between runs. */
#include "bench_scans.cuh"

#include "bench_hs_common.cuh"

#include <cstdint>

namespace {

using namespace sv::hsc;

/* One tile's work, shared by the two kernels below: Threads threads, Vecs
 * rows of 16-byte vectors per warp; AcqRel picks the status words' memory
 * order and SleepNs the back-off of a look-back that finds a predecessor
 * not yet published (0: spin). */
template <typename T, int Threads, int Vecs, bool AcqRel, int SleepNs, bool Streaming, int Per>
struct Tile {
    static constexpr int kWarps = Threads / 32;
    static constexpr int kWarpItems = 128 * Vecs;
    static constexpr int kItems = kWarps * kWarpItems;
    static_assert(Threads % 32 == 0 && kWarps <= 32, "the warp totals fit one warp");

    struct Shared {
        T warp_prefix[kWarps];
        T tile_prefix;
        unsigned ticket[2];
    };

    using R = Rows<T, Vecs>;

    /* Where warp w's span of tile `tile` starts. */
    static __device__ __forceinline__ size_t span(unsigned tile, int warp)
    {
        return (size_t)tile * kItems + (size_t)warp * kWarpItems;
    }

    /* This thread's 4 * Vecs items of tile `tile`, the identity past n. */
    static __device__ __forceinline__ void load(T (&x)[Vecs][4], const T *__restrict__ in,
                                                size_t n, unsigned tile, int warp, int lane)
    {
        const size_t base = span(tile, warp);
        if (base + kWarpItems <= n)
            R::template load<Streaming>(x, in + base, lane);
        else
            R::load_guarded(x, in, base, n, lane);
    }

    /* The rows' scans (Rows::scan; one array for pre, not two, keeps the
     * registers low enough for 5 blocks of 256 per SM), and the warp total
     * into sh.warp_prefix. */
    static __device__ __forceinline__ void scan_local(T (&x)[Vecs][4], T (&pre)[Vecs],
                                                      Shared &sh, int warp, int lane)
    {
        const T rows = R::scan(x, pre, lane);
        if (lane == 0)
            sh.warp_prefix[warp] = rows;
    }

    /* Warp 0, after the barrier that follows scan_local: Kogge-Stone over the
     * warp totals (sh.warp_prefix becomes exclusive), then the tile's prefix
     * from the tiles before it, into sh.tile_prefix. */
    static __device__ __forceinline__ void look_back(Shared &sh, unsigned tile, bool single,
                                                     unsigned long long *__restrict__ status,
                                                     unsigned epoch, int lane)
    {
        T e;
        const T aggregate = scan_warp_totals<kWarps>(sh.warp_prefix, lane, e);
        if (lane < kWarps)
            sh.warp_prefix[lane] = lane == 0 ? T(0) : e;

        T prefix = T(0);
        if (tile == 0) {
            if (lane == 0 && !single)
                publish<AcqRel>(&status[0], epoch_tag(epoch) | kFlagP | to_bits(aggregate));
        } else {
            prefix = sv::hsc::look_back<T, AcqRel, SleepNs, Per>(status, tile, aggregate, lane,
                                                                 epoch);
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
        R::add_carry(x, pre, add(sh.tile_prefix, sh.warp_prefix[warp]));
        const size_t base = span(tile, warp);
        R::template store<Streaming>(x, base + kWarpItems <= n, out, base, n, lane);
    }
};

/* One tile per block: the tile index comes from the counter (the order of
 * starting, not blockIdx), then load, scan, look back, store. status: the
 * counters, then the tile words (bench_hs_common.cuh), of launch epoch. */
template <typename T, int Threads, int Vecs, bool AcqRel, int SleepNs, bool Streaming,
          int MinBlocks, int Per>
__global__ void __launch_bounds__(Threads, MinBlocks)
hs_scan(const T *__restrict__ in, T *__restrict__ out, size_t n, unsigned tiles,
        unsigned long long *__restrict__ status, unsigned epoch)
{
    using K = Tile<T, Threads, Vecs, AcqRel, SleepNs, Streaming, Per>;
    __shared__ typename K::Shared sh;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const bool single = tiles == 1;

    unsigned tile = 0;
    if (!single) {
        if (threadIdx.x == 0) {
            sh.ticket[0] = atomicAdd(launch_counter(status, epoch), 1u);
            reset_next_counter(status, epoch);
        }
        __syncthreads();
        tile = sh.ticket[0];
    }
    T x[Vecs][4], pre[Vecs];
    K::load(x, in, n, tile, warp, lane);
    K::scan_local(x, pre, sh, warp, lane);
    __syncthreads();
    if (warp == 0)
        K::look_back(sh, tile, single, status + kStatusHead, epoch, lane);
    __syncthreads();
    K::finish(x, pre, sh, out, n, tile, warp, lane);
}

struct Config {
    int threads, vecs;
    const char *name;
};

/* Config 0 won hs-lookback's tuning (docs/performance.md): 256 threads x 32
 * items, relaxed status words, __nanosleep(200) back-off,
 * __launch_bounds__(256, 5). The others are hs's candidates for the sizes
 * where the data fit in L2 (bench_hs.cu). Keep in step with launch_config(). */
constexpr Config kConfigs[] = {
    {256, 8, "regs 256x32 5 blocks/SM"},
    {256, 8, "regs 256x32 4 blocks/SM window 128"},
    {128, 8, "regs 128x32 6 blocks/SM window 128"},
    {256, 4, "regs 256x16 5 blocks/SM window 128"},
    {512, 8, "regs 512x32 1 block/SM window 128"},
};
constexpr int kConfigCount = sizeof kConfigs / sizeof kConfigs[0];

template <typename T, int Threads, int Vecs, int MinBlocks, int Per>
cudaError_t launch_typed(const void *in, void *out, size_t n, sv::HsStatus &st,
                         cudaStream_t stream)
{
    constexpr size_t tile = (size_t)Threads * 4 * Vecs;
    const size_t tiles = sv::ceil_div(n, tile);
    unsigned epoch = 0;
    if (tiles > 1) {
        cudaError_t e = sv::hs_status_next(st, stream, &epoch);
        if (e != cudaSuccess)
            return e;
    }
    hs_scan<T, Threads, Vecs, false, 200, false, MinBlocks, Per>
        <<<(unsigned)tiles, Threads, 0, stream>>>(static_cast<const T *>(in),
                                                  static_cast<T *>(out), n, (unsigned)tiles,
                                                  st.words, epoch);
    return cudaGetLastError();
}

template <typename T>
cudaError_t launch_config(int c, const void *in, void *out, size_t n, sv::HsStatus &st,
                          cudaStream_t s)
{
    switch (c) {
    case 0: return launch_typed<T, 256, 8, 5, 1>(in, out, n, st, s);
    case 1: return launch_typed<T, 256, 8, 4, 4>(in, out, n, st, s);
    case 2: return launch_typed<T, 128, 8, 6, 4>(in, out, n, st, s);
    case 3: return launch_typed<T, 256, 4, 5, 4>(in, out, n, st, s);
    case 4: return launch_typed<T, 512, 8, 1, 4>(in, out, n, st, s);
    default: return cudaErrorInvalidValue;
    }
}

} // namespace

namespace sv {

int hs_regs_count()
{
    return kConfigCount;
}

size_t hs_regs_tile(int c)
{
    return c < 0 || c >= kConfigCount ? 0 : (size_t)kConfigs[c].threads * 4 * kConfigs[c].vecs;
}

const char *hs_regs_name(int c)
{
    return c < 0 || c >= kConfigCount ? nullptr : kConfigs[c].name;
}

cudaError_t hs_regs_launch(int c, sv_type type, const void *in, void *out, size_t n,
                           HsStatus &st, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    if (type == SV_TYPE_INT32)
        return launch_config<int32_t>(c, in, out, n, st, stream);
    if (type == SV_TYPE_FLOAT32)
        return launch_config<float>(c, in, out, n, st, stream);
    return cudaErrorInvalidValue;
}

cudaError_t hs_lookback_launch(sv_type type, const void *in, void *out, size_t n,
                               HsStatus &st, cudaStream_t stream)
{
    return hs_regs_launch(0, type, in, out, n, st, stream);
}

/* Combining operations the kernel executes, counted per thread as the chapter
 * counts them (the last tile counted whole: it runs on identity padding).
 * Per warp: Vecs rows of (32 lanes x 3 sequential adds + 129 Kogge-Stone adds,
 * sum over d = 1..16 of (32 - d)); the row prefixes, 32 x (Vecs - 1), and the
 * warp total, 1; the carry, 32; per row 32 x 2 prefix adds and 32 x 4 item
 * adds. Per tile: the Kogge-Stone over the warp totals in one warp, sum over
 * d < W of (32 - d), and one look-back window (a 5-step shuffle reduction of
 * 32 lanes, 160, plus 32 + 1; a window of 32 x Per words adds Per - 1 adds
 * per lane). Further windows, rare, are not counted. */
double hs_regs_ops(int c, size_t n)
{
    if (n == 0 || c < 0 || c >= kConfigCount)
        return 0.0;
    const double vecs = kConfigs[c].vecs;
    const int warps = kConfigs[c].threads / 32;
    const double per_warp = vecs * (32.0 * 3 + 129.0) + 32.0 * (vecs - 1) + 1.0 + 32.0 +
                            vecs * (64.0 + 128.0);
    double per_tile = warps * per_warp + 160.0 + 33.0 + (c == 0 ? 0.0 : 3.0 * 32);
    for (int d = 1; d < warps; d *= 2)
        per_tile += 32 - d;
    const double tiles = (double)ceil_div(n, hs_regs_tile(c));
    return tiles * per_tile;
}

double hs_lookback_ops(size_t n)
{
    return hs_regs_ops(0, n);
}

} // namespace sv
