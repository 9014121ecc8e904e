/* Exercise in-place: one buffer, with a read, a barrier, a write and a
 * barrier per round (scanviz --exercise in-place).
 * Check it: scanviz-trace --exercise in-place --kernel-file in-place.cu */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int s[]; /* use only s[0 .. n - 1]: one buffer */
    int i = threadIdx.x;

    s[i] = in[i];
    __syncthreads();

    for (int stride = 1; stride < n; stride *= 2) {
        /* ---- YOUR PART: one round, in place, without a race ---- */
        if (i >= stride)
            s[i] = s[i - stride] + s[i];
        /* ---- end of your part ---- */
        __syncthreads();
    }

    out[i] = s[i];
}
