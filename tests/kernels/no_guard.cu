/* no_guard.cu: the chapter's kernel without its guard: thread i < stride
 * reads pin[i - stride], left of the row. In round 1 pin is row 0, so thread
 * 0 reads buf[-1], outside the shared array: the chapter's reason for the
 * guard.
 *
 * Must give: exit 5; failure out-of-range, thread 0, array buf, index -1, at
 * the line marked below; the staging step completed before it. */
__global__ void scan_no_guard(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i]; /* MARK: oob */
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
