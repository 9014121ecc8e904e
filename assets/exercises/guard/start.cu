/* Exercise guard: the left edge (scanviz --exercise guard).
 * Check it: scanviz-trace --exercise guard --kernel-file guard.cu */
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
        /* ---- YOUR PART: pin[i - stride] exists only for some threads ---- */
        buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        /* ---- end of your part ---- */
        __syncthreads();
    }

    out[i] = buf[pout * n + i];
}
