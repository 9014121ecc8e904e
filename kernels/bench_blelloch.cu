/* blelloch: the work-efficient scan the chapter points to (Blelloch 1990, as
 * in GPU Gems 3 ch. 39): an up-sweep that builds partial sums in a tree, a
 * down-sweep that pushes prefixes back down, in shared memory padded against
 * bank conflicts; scaled like hs-naive (blocks of 2048, the block totals
 * scanned the same way, added back: scan_by_blocks of bench_blocks.cu). */
#include "bench_scans.cuh"

#include <cstdint>

namespace {

constexpr unsigned kThreads = 1024;
constexpr unsigned kBlock = 2 * kThreads; /* two elements per thread */

/* One padding word after every 32: tree strides of 32 and more would put
 * every access of a warp in one bank. */
__device__ __forceinline__ int pad(int i) { return i + (i >> 5); }

/* Block b scans its 2048 elements (identity past n). The up-sweep leaves the
 * block total at the root; the root is replaced by the identity and the
 * down-sweep turns the tree into the exclusive scan. The inclusive result is
 * that shifted left by one, with the saved total last: no extra adds. */
template <typename T>
__global__ void __launch_bounds__(kThreads)
blelloch_block(const T *in, T *out, size_t n, T *sums)
{
    __shared__ T s[kBlock + kBlock / 32];
    __shared__ T total;
    const int t = threadIdx.x;
    const size_t base = (size_t)blockIdx.x * kBlock;

    /* Coalesced: thread t loads elements t and t + 1024. */
    s[pad(t)] = base + t < n ? in[base + t] : T(0);
    s[pad(t + kThreads)] = base + t + kThreads < n ? in[base + t + kThreads] : T(0);

    /* Up-sweep: after the level with distance `offset`, s[k*2*offset - 1]
     * holds the sum of its 2*offset-element subtree. */
    int offset = 1;
    for (int d = kBlock / 2; d > 0; d /= 2) {
        __syncthreads();
        if (t < d) {
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            s[pad(b)] = sv::add(s[pad(b)], s[pad(a)]);
        }
        offset *= 2;
    }
    __syncthreads();
    if (t == 0) {
        total = s[pad(kBlock - 1)];
        s[pad(kBlock - 1)] = T(0);
    }

    /* Down-sweep: each node hands its prefix to its left child and prefix +
     * left subtree's sum to its right child. */
    for (int d = 1; d < (int)kBlock; d *= 2) {
        offset /= 2;
        __syncthreads();
        if (t < d) {
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            T left = s[pad(a)];
            s[pad(a)] = s[pad(b)];
            s[pad(b)] = sv::add(s[pad(b)], left);
        }
    }
    __syncthreads();

    /* inclusive[j] = exclusive[j + 1]; inclusive[2047] = total. */
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const int j = t + h * (int)kThreads;
        if (base + j < n)
            out[base + j] = j + 1 < (int)kBlock ? s[pad(j + 1)] : total;
    }
    if (sums && t == 0)
        sums[blockIdx.x] = total;
}

/* Per block: 2 x (2048 - 1) adds (up-sweep and down-sweep), whatever its
 * length: the padding of the last block executes too. */
double block_ops(size_t len)
{
    return len ? 2.0 * (kBlock - 1) : 0.0;
}

} // namespace

/* Run through scan_by_blocks (bench_blocks.cu), which also counts its
 * operations (block_ops per block, the add-back, the levels above). */
const sv::BlockScan sv::blelloch_scan =
    sv::block_scan(kBlock, kThreads, blelloch_block<int32_t>, blelloch_block<float>, block_ops);
