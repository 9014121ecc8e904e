/* ho_block_scan.cu: the classic block scan, templated on T: warp scans by __shfl_up_sync, warp 0 scans the warps' totals, the add-back (any n, any op: exit 0). */
template <typename T>
__device__ T warp_incl(T v, int lane)
{
    for (int d = 1; d < 32; d <<= 1) {
        T u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v = Op::apply(u, v);
    }
    return v;
}
template <typename T>
__global__ void ho_block_scan(const T *in, T *out, int n)
{
    __shared__ T sums[32];
    int i = threadIdx.x, lane = i & 31, w = i >> 5;
    T v = warp_incl(in[i], lane);
    if (lane == 31) sums[w] = v;
    __syncthreads();
    if (w == 0) {
        int nw = (blockDim.x + 31) / 32;
        T s = lane < nw ? sums[lane] : Op::identity(T());
        s = warp_incl(s, lane);
        sums[lane] = s;
    }
    __syncthreads();
    if (w > 0) v = Op::apply(sums[w - 1], v);
    out[i] = v;
}
