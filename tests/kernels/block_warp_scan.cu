/* block_warp_scan.cu: an inclusive sum scan of the block from warp scans
 * (issue 30): each warp scans its 32 values with __shfl_up_sync, its last
 * lane writes the warp's total into warp_sum[], a barrier, warp 0 scans the
 * totals with shuffles, a barrier, and each lane adds the totals of the
 * warps before its own. Any n from 1 to 1024 (the last warp may be partial).
 *
 * Must give: the inclusive prefix sums of in[], exit 0, no hazard, under
 * every schedule. */
__device__ int warp_inclusive(int v, int lane)
{
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += up;
    }
    return v;
}

__global__ void block_warp_scan(const int *in, int *out, int n)
{
    __shared__ int warp_sum[32];
    int i = threadIdx.x, lane = i % 32, warp = i / 32;
    int nwarps = (n + 31) / 32;
    int v = warp_inclusive(in[i], lane);
    if (lane == 31 || i == n - 1)
        warp_sum[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int s = lane < nwarps ? warp_sum[lane] : 0;
        s = warp_inclusive(s, lane);
        if (lane < nwarps)
            warp_sum[lane] = s;
    }
    __syncthreads();
    if (warp > 0)
        v += warp_sum[warp - 1];
    out[i] = v;
}
