/* warp_syncwarp.cu: warp_race.cu made right with __syncwarp (issue 30):
 * every lane reads s[l - d] before any writes, and writes before any reads
 * the next round; __syncwarp orders a warp's shared accesses as
 * __syncthreads orders the block's. One warp (n <= 32).
 *
 * Must give: the inclusive prefix sums, exit 0, no hazard, under every
 * schedule. */
__global__ void warp_syncwarp(const int *in, int *out, int n)
{
    __shared__ int s[32];
    int i = threadIdx.x;
    s[i] = in[i];
    __syncwarp();
    for (int d = 1; d < 32; d *= 2) {
        int v = i >= d ? s[i - d] : 0;
        __syncwarp();
        s[i] += v;
        __syncwarp();
    }
    out[i] = s[i];
}
