/* ho_active.cu: any n: the mask of the lanes that exist (__ballot_sync of __activemask), warp scans within it, the warps' totals added (exit 0). */
__global__ void ho_active(const int *in, int *out, int n)
{
    int i = threadIdx.x, lane = i & 31;
    unsigned mask = __ballot_sync(__activemask(), 1);
    int v = in[i];
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(mask, v, d);
        if (lane >= d) v += u;
    }
    __shared__ int tot[32];
    if (lane == 31 || i == n - 1) tot[i >> 5] = v;
    __syncthreads();
    int add = 0;
    for (int w = 0; w < (i >> 5); w++) add += tot[w];
    out[i] = v + add;
}
