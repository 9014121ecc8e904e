/* max_scan.cu: a running maximum with the chapter's rounds and CUDA's max(),
 * run with --op max.
 *
 * Must give: exit 0 with --op max (3 1 7 0 4 1 6 3 -> 3 3 7 7 7 7 7 7);
 * 0 hazards; every step with shared writes a round. With --op sum the output
 * is wrong: exit 4, first wrong cell 1. */
__global__ void scan_max(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride)
            buf[pout * n + i] = max(buf[pin * n + i - stride], buf[pin * n + i]);
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
