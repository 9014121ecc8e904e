/* blocks_warp.cu: the hierarchical scan with each block's scan made of warp
 * scans (issue 31): in a block of B = 128 threads each warp scans its 32
 * values with __shfl_up_sync, warp 0 scans the warps' totals the same way,
 * every warp adds the totals before it; then the block sums' scan (one
 * block of 32 lanes, __shfl_up_sync again, up to 1024 / B = 8 sums) and the
 * add-back. Right under every schedule, at any n to 1024. */
#define B 128

__device__ int warp_scan(int v, int lane)
{
    for (int d = 1; d < 32; d *= 2) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += u;
    }
    return v;
}

__global__ void block_scan(const int *in, int *out, int *sums, int n)
{
    __shared__ int totals[B / 32];
    int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int i = blockIdx.x * B + t;
    int v = warp_scan(i < n ? in[i] : 0, lane);
    if (lane == 31)
        totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < B / 32 ? totals[lane] : 0;
        w = warp_scan(w, lane);
        if (lane < B / 32)
            totals[lane] = w;
    }
    __syncthreads();
    if (warp > 0)
        v += totals[warp - 1];
    if (i < n)
        out[i] = v;
    if (t == B - 1)
        sums[blockIdx.x] = v;
}

__global__ void scan_sums(int *sums, int m)
{
    int lane = threadIdx.x;
    int v = warp_scan(lane < m ? sums[lane] : 0, lane);
    if (lane < m)
        sums[lane] = v;
}

__global__ void add_back(int *out, const int *sums, int n)
{
    int i = blockIdx.x * B + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] += sums[blockIdx.x - 1];
}

void scan(const int *in, int *out, int n)
{
    int blocks = (n + B - 1) / B;
    int *sums;
    cudaMalloc(&sums, blocks * sizeof(int));
    block_scan<<<blocks, B>>>(in, out, sums, n);
    scan_sums<<<1, 32>>>(sums, blocks);
    add_back<<<blocks, B>>>(out, sums, n);
    cudaFree(sums);
}
