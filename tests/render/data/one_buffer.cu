/* one_buffer.cu: the in-place race in the 2n cells of dynamic shared memory,
 * used as one buffer of n: issue 28 has it named s and its cells s[1], as
 * the kernel names them, not s[0] and s[0][1]. */
__global__ void scan_race(const int *in, int *out, int n)
{
    extern __shared__ int s[];
    int i = threadIdx.x;
    s[i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        if (i >= stride)
            s[i] = s[i - stride] + s[i];
        __syncthreads();
    }
    out[i] = s[i];
}
