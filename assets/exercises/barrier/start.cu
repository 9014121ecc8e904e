/* Exercise barrier: where the barrier goes, and why one per round is enough
 * (scanviz --exercise barrier).
 * Check it: scanviz-trace --exercise barrier --kernel-file barrier.cu */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[]; /* buf[b * n + i]: cell i of buffer b */
    int i = threadIdx.x;

    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();

    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride)
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];
        /* ---- YOUR PART: the round must end here for every thread ---- */
        /* ---- end of your part ---- */
    }

    out[i] = buf[pout * n + i];
}
