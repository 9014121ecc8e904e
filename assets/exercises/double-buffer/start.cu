/* Exercise double-buffer: the doubling loop with pin/pout and the swap
 * (scanviz --exercise double-buffer).
 * Check it: scanviz-trace --exercise double-buffer --kernel-file double-buffer.cu */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[]; /* 2 * n cells: buf[b * n + i] is cell i of buffer b */
    int i = threadIdx.x;

    buf[i] = in[i];
    __syncthreads();

    for (int stride = 1; stride < n; stride *= 2) {
        /* ---- YOUR PART: read last round's buffer (pin), write the other (pout) ---- */
        if (i >= stride)
            buf[i] = buf[i - stride] + buf[i]; /* reads and writes one buffer */
        /* ---- end of your part ---- */
        __syncthreads();
    }

    out[i] = buf[i];
}
