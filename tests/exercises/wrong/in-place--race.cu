/* Exercise in-place: a reference solution. */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int s[]; /* one buffer of n cells */
    int i = threadIdx.x;

    s[i] = in[i];
    __syncthreads();

    for (int stride = 1; stride < n; stride *= 2) {
        int v = s[i];
        if (i >= stride)
            v = s[i - stride] + v;

        s[i] = v;
        __syncthreads(); /* every write of this round is done */
    }

    out[i] = s[i];
}
