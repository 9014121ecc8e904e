/* The chapter's double buffer with a printf (issue 30): thread 2 says what
 * it staged, before the first barrier (step 0), and the last thread says
 * what it holds after each round. Output: the scan; the printf calls are
 * the trace's, at their threads, steps and lines, on both runtimes. */
__global__ void printf_scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x, pout = 0, pin = 1;
    buf[i] = in[i];
    if (i == 2)
        printf("thread %d staged %d\n", i, buf[i]); // MARK: staged
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= offset)
            buf[pout * n + i] = Op::apply(buf[pin * n + i - offset], buf[pin * n + i]);
        else
            buf[pout * n + i] = buf[pin * n + i];
        if (i == n - 1)
            printf("offset %d: %d\n", offset, buf[pout * n + i]);
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
