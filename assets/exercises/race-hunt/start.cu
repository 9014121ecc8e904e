/* Exercise race-hunt: this kernel has a hidden race; lockstep at n = 8 gets
 * the right output anyway (scanviz --exercise race-hunt).
 * Check it: scanviz-trace --exercise race-hunt --kernel-file race-hunt.cu */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[]; /* buf[b * n + i]: cell i of buffer b */
    int i = threadIdx.x;

    /* ---- YOUR PART: somewhere in this kernel is a race ---- */
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];

    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride)
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }

    out[i] = buf[pout * n + i];
    /* ---- end of your part ---- */
}
