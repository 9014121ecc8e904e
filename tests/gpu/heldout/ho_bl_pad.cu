/* ho_bl_pad.cu: the same with CONFLICT_FREE_OFFSET(n) as it should be, (n) >> LOG_NUM_BANKS: far fewer conflicts. */
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)
__global__ void ho_bl_pad(const int *in, int *out, int n)
{
    extern __shared__ int temp[];
    int thid = threadIdx.x;
    int offset = 1;
    int a0 = 2 * thid, b0 = 2 * thid + 1;
    if (thid < n / 2) {
        temp[a0 + CONFLICT_FREE_OFFSET(a0)] = in[a0];
        temp[b0 + CONFLICT_FREE_OFFSET(b0)] = in[b0];
    }
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            ai += CONFLICT_FREE_OFFSET(ai); bi += CONFLICT_FREE_OFFSET(bi);
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1 + CONFLICT_FREE_OFFSET(n - 1)] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            ai += CONFLICT_FREE_OFFSET(ai); bi += CONFLICT_FREE_OFFSET(bi);
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (thid < n / 2) { out[2 * thid] = temp[2 * thid + CONFLICT_FREE_OFFSET(2 * thid)]; out[2 * thid + 1] = temp[2 * thid + 1 + CONFLICT_FREE_OFFSET(2 * thid + 1)]; }
}
