/* warp_scan.cu: an inclusive sum scan of one warp with __shfl_up_sync
 * (issue 30), no shared memory at all: after the round of delta d, lane l
 * holds the sum of lanes l - 2d + 1 .. l. For n <= 32 only (one warp).
 *
 * Must give: the inclusive prefix sums of in[], exit 0, no hazard, under
 * every schedule. */
__global__ void warp_scan(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int v = in[i];
    for (int d = 1; d < 32; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if ((i & 31) >= d)
            v += up;
    }
    out[i] = v;
}
