/* ho_bl_nopad.cu: Blelloch's work-efficient scan as GPU Gems 3 (39.2.2) prints it, without padding: the up- and down-sweep's strides collide in the banks (exclusive, n a power of two: exit 0). */
__global__ void ho_bl_nopad(const int *in, int *out, int n)
{
    extern __shared__ int temp[];
    int thid = threadIdx.x;
    int offset = 1;
    if (thid < n / 2) {
        temp[2 * thid] = in[2 * thid];
        temp[2 * thid + 1] = in[2 * thid + 1];
    }
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (thid < n / 2) { out[2 * thid] = temp[2 * thid]; out[2 * thid + 1] = temp[2 * thid + 1]; }
}
