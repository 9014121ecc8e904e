/* Exercise any-n: a reference solution (the chapter's kernel). */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[]; /* buf[b * n + i]: cell i of buffer b */
    int i = threadIdx.x;

    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();

    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout; /* the swap: last round's pout is this round's pin */
        pin = 1 - pout;
        if (1)
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads(); /* one barrier per round */
    }

    out[i] = buf[pout * n + i];
}
