/* hs-naive: the chapter's Hillis-Steele block kernel, kept as the chapter
 * writes it (shared-memory double buffer, guard, one barrier per round,
 * pin/pout swap), scaled to any n the simplest way: scan each block of 1024,
 * scan the block totals the same way (recursively), add them back. It is the
 * chapter's algorithm at benchmark scale, not the kernel scanviz shows
 * (kernels/hillis_steele.cu); its figure is part of the lesson, so it is not
 * tuned. */
#include "bench_scans.cuh"

#include <cstdint>

namespace {

constexpr unsigned kBlock = 1024;

/* Block b scans in[b*1024 .. b*1024 + len), len = min(1024, n - b*1024), as
 * the chapter does for an array of len elements, and writes its total (the
 * last inclusive value) to sums[b] when sums is not NULL. Threads at or past
 * len do no work but still reach every barrier. */
template <typename T>
__global__ void __launch_bounds__(kBlock)
hs_naive_block(const T *in, T *out, size_t n, T *sums)
{
    __shared__ T buf[2 * kBlock]; /* buf[0] = [0, 1024), buf[1] = [1024, 2048) */
    const int i = threadIdx.x;
    const size_t g = (size_t)blockIdx.x * kBlock + i;
    const int len = (int)min((size_t)kBlock, n - (size_t)blockIdx.x * kBlock);

    /* Round 0: stage the input into buf[0]. */
    int pout = 0, pin = 1;
    if (i < len)
        buf[i] = in[g];
    __syncthreads();

    for (int stride = 1; stride < len; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        /* The guard: cells left of stride are copied through. */
        if (i < len) {
            if (i >= stride)
                buf[pout * kBlock + i] = sv::add(buf[pin * kBlock + i - stride], buf[pin * kBlock + i]);
            else
                buf[pout * kBlock + i] = buf[pin * kBlock + i];
        }
        /* Invariant: pout[i] = sum of in[max(0, i - 2*stride + 1) .. i].
         * The barrier ends the round: the next round writes this round's pin. */
        __syncthreads();
    }

    if (i < len)
        out[g] = buf[pout * kBlock + i];
    if (sums && i == len - 1)
        sums[blockIdx.x] = buf[pout * kBlock + i];
}

/* Sum over strides s < len of (len - s): the chapter's count for one block. */
double block_ops(size_t len)
{
    double ops = 0.0;
    for (size_t s = 1; s < len; s *= 2)
        ops += (double)(len - s);
    return ops;
}

} // namespace

/* Run through scan_by_blocks (bench_blocks.cu), which also counts its
 * operations: per level, the chapter's count in each block (block_ops). */
const sv::BlockScan sv::hs_naive_scan =
    sv::block_scan(kBlock, kBlock, hs_naive_block<int32_t>, hs_naive_block<float>, block_ops);
