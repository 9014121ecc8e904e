/* float_scan.cu: the chapter's double-buffered scan on float (--type
 * float32). On 10 30 60 it makes 10 40 100: issue 28 has them drawn as the
 * chapter draws them, never "1e+01", "4e+01", "1e+02". */
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
