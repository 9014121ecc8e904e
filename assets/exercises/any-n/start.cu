/* Exercise any-n: right for every n, not only powers of two
 * (scanviz --exercise any-n).
 * Check it: scanviz-trace --exercise any-n --kernel-file any-n.cu */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[]; /* buf[b * n + i]: cell i of buffer b */
    int i = threadIdx.x;

    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();

    /* ---- YOUR PART: how many rounds does n need? ---- */
    for (int stride = 1; stride <= n / 2; stride *= 2) {
    /* ---- end of your part ---- */
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride)
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }

    out[i] = buf[pout * n + i];
}
