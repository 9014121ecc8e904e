/* warp_race.cu: a warp-synchronous scan in shared memory without
 * __syncwarp (issue 30): lane l reads s[l - d] while lane l - d writes it,
 * with nothing between them. Under independent thread scheduling that is a
 * race, on the GPU too. One warp (n <= 32).
 *
 * Must give: exit 4 with hazards under every schedule, n >= 2 (the clean
 * version, warp_syncwarp.cu, has none). */
__global__ void warp_race(const int *in, int *out, int n)
{
    __shared__ int s[32];
    int i = threadIdx.x;
    s[i] = in[i];
    __syncwarp();
    for (int d = 1; d < 32; d *= 2) {
        int v = i >= d ? s[i - d] : 0; /* MARK: read */
        s[i] += v;
    }
    out[i] = s[i];
}
