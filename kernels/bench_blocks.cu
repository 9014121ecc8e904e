/* The block-recursive driver hs-naive and blelloch share (bench_scans.cuh):
 * scan blocks, scan their totals one level up the same way, add back. */
#include "bench_scans.cuh"

namespace {

/* out[i] += sums[i / block - 1] for i >= block: each block gets the scanned
 * total of the blocks before it. One thread per element. */
template <typename T>
__global__ void add_prefix(T *out, size_t n, const T *sums, unsigned block)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x + block;
    if (i < n)
        out[i] = sv::add(out[i], sums[i / block - 1]);
}

cudaError_t add_block_prefix(sv_type type, void *out, size_t n, const void *sums,
                             unsigned block, cudaStream_t stream)
{
    if (n <= block)
        return cudaSuccess;
    const unsigned threads = 256;
    const size_t grid = sv::ceil_div(n - block, threads);
    if (type == SV_TYPE_INT32)
        add_prefix<int32_t><<<(unsigned)grid, threads, 0, stream>>>(
            static_cast<int32_t *>(out), n, static_cast<const int32_t *>(sums), block);
    else
        add_prefix<float><<<(unsigned)grid, threads, 0, stream>>>(
            static_cast<float *>(out), n, static_cast<const float *>(sums), block);
    return cudaGetLastError();
}

} // namespace

namespace sv {

cudaError_t scan_by_blocks(sv_type type, const void *in, void *out, size_t n, void *scratch,
                           const BlockScan &bs, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    if (type != SV_TYPE_INT32 && type != SV_TYPE_FLOAT32)
        return cudaErrorInvalidValue;
    const size_t blocks = ceil_div(n, bs.block);
    void *sums = blocks > 1 ? scratch : nullptr;
    void *args[] = { &in, &out, &n, &sums };
    cudaError_t e = cudaLaunchKernel(type == SV_TYPE_INT32 ? bs.int32_kernel : bs.float_kernel,
                                     dim3((unsigned)blocks), dim3(bs.threads), args, 0, stream);
    if (e != cudaSuccess || blocks == 1)
        return e;
    /* The block totals are scanned in place, one level up; the level's
     * own totals go after them in scratch (4-byte elements). */
    e = scan_by_blocks(type, sums, sums, blocks, static_cast<unsigned char *>(scratch) + blocks * 4,
                       bs, stream);
    if (e != cudaSuccess)
        return e;
    return add_block_prefix(type, out, n, sums, bs.block, stream);
}

double by_blocks_ops(size_t n, const BlockScan &bs)
{
    double ops = 0.0;
    while (n > 0) {
        ops += (double)(n / bs.block) * bs.block_ops(bs.block) + bs.block_ops(n % bs.block);
        if (n <= bs.block)
            break;
        ops += (double)(n - bs.block);
        n = ceil_div(n, bs.block);
    }
    return ops;
}

size_t block_scratch(size_t max_n, unsigned block)
{
    size_t total = 0;
    for (size_t m = ceil_div(max_n, block); m > 1; m = ceil_div(m, block))
        total += m;
    return total + 1;
}

} // namespace sv
