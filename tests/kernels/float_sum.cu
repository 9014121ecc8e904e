/* float_sum.cu: the chapter's kernel on float, run with --type float32.
 *
 * Must give: exit 0 with --type float32 (0.5 0.25 1 2 -> 0.5 0.75 1.75 3.75,
 * exact in binary32); 0 hazards; every step with shared writes a round. */
__global__ void scan_float(const float *in, float *out, int n)
{
    extern __shared__ float buf[];
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
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
