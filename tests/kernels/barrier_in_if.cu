/* barrier_in_if.cu: the round's barrier moved inside the guard, so threads
 * i < stride never reach it and the others wait for them for ever.
 *
 * Must give: exit 5; failure deadlock: threads 1 .. n-1 wait at the line
 * marked below; thread 0 has ended (n >= 2). */
__global__ void scan_barrier_in_if(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride) {
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
            __syncthreads(); /* MARK: barrier */
        } else {
            buf[pout * n + i] = buf[pin * n + i];
        }
    }
    out[i] = buf[pout * n + i];
}
