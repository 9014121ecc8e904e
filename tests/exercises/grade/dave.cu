/* endless_loop.cu: a typo in the loop's step (stride * 2, not stride *= 2):
 * the stride never grows and the loop never ends.
 *
 * Must give: exit 5; failure time (past --time-limit; the test passes a
 * short one), with the steps recorded until then. */
__global__ void scan_endless(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; (void)(stride * 2)) { /* MARK: loop */
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
