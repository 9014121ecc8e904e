/* Exercise round-one: round 1 alone (scanviz --exercise round-one).
 * Round 0 stages the input into buffer 0; you write round 1 into buffer 1.
 * Check it: scanviz-trace --exercise round-one --kernel-file round-one.cu */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[]; /* buf[b * n + i]: cell i of buffer b */
    int i = threadIdx.x;

    /* Round 0: stage the input into buffer 0. */
    buf[0 * n + i] = in[i];
    __syncthreads();

    /* ---- YOUR PART: round 1, from buffer 0 into buffer 1 ---- */
    buf[1 * n + i] = buf[0 * n + i]; /* copies: round 1 not written yet */
    /* ---- end of your part ---- */
    __syncthreads();

    out[i] = buf[1 * n + i];
}
