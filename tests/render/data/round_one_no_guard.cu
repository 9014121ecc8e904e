/* round_one_no_guard.cu: round-one's kernel (a round without a stride) with its
 * guard dropped: thread 0 reads buf[-1]. Issue 28: its words say i - 1 = -1, not
 * "i - stride", which this kernel does not have. */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[]; /* buf[b * n + i]: cell i of buffer b */
    int i = threadIdx.x;

    buf[0 * n + i] = in[i];
    __syncthreads();

    if (1)
        buf[1 * n + i] = buf[0 * n + i - 1] + buf[0 * n + i];
    else
        buf[1 * n + i] = buf[0 * n + i];
    __syncthreads();

    out[i] = buf[1 * n + i];
}
