/* off_by_one.cu: the chapter's kernel with the guard off by one
 * (i > stride for i >= stride), as the lab's off-by-one mistake: thread
 * i = stride copies where it should add. For tests/render/test_kpane.c. */
__global__ void scan_off_by_one(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i > stride)
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
