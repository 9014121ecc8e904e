/* double_buffer.cu: the chapter's kernel as a student writes it: one
 * extern __shared__ array of 2n cells used as two buffers, buf[pout * n + i],
 * the guard, the else copy, one barrier per round.
 *
 * Must give: exit 0 under every schedule; the inclusive sum scan
 * (3 1 7 0 4 1 6 3 -> 3 4 11 11 15 16 22 25); 0 hazards; every step with
 * shared writes is a chapter round (round 0 in buf row 0, round 1 in row 1,
 * round 2 in row 0, ...). */
__global__ void scan(const int *in, int *out, int n)
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
    out[i] = buf[pout * n + i];
}
