/* no_guard_stride.cu: the chapter's kernel without its guard: thread 0 reads
 * pin[0 - stride] in round 1, buf[-1]. Its words say i - stride = -1. */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
