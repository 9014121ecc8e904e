/* unwritten_read.cu: the double buffer's second row read before anything
 * wrote its cell 0: thread 0 copies b[1][0] into out[0], which no thread
 * wrote (thread 0 skips the round's write). The runtime's shared memory
 * holds 0 there; issue 28 has it named, not silently 0. */
__global__ void scan_unwritten(const int *in, int *out, int n)
{
    __shared__ int b[2][1024];
    int i = threadIdx.x;
    b[0][i] = in[i];
    __syncthreads();
    if (i >= 1)
        b[1][i] = b[0][i - 1] + b[0][i];
    __syncthreads();
    out[i] = b[1][i];
}
