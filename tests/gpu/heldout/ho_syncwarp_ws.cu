/* ho_syncwarp_ws.cu: a warp-synchronous scan in shared memory made safe by __syncwarp (each warp its own scan: exit 0 at n <= 32, else 4). */
__global__ void ho_syncwarp_ws(const int *in, int *out, int n)
{
    __shared__ int s[1024];
    int i = threadIdx.x, lane = i & 31;
    s[i] = in[i];
    __syncwarp();
    for (int d = 1; d < 32; d *= 2) {
        int t = lane >= d ? s[i - d] : 0;
        __syncwarp();
        s[i] += t;
        __syncwarp();
    }
    out[i] = s[i];
}
