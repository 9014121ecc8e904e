/* out_of_range_write.cu: a correct scan whose copy back is shifted by one:
 * thread n-1 writes out[n], one past the end of the output.
 *
 * Must give: exit 5; failure out-of-range, thread n-1, array out, index n,
 * at the line marked below; every round before it is the chapter's. */
__global__ void scan_oob_write(const int *in, int *out, int n)
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
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }
    out[i + 1] = buf[pout * n + i]; /* MARK: oob */
}
