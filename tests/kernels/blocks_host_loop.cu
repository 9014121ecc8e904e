/* blocks_host_loop.cu: a host function that never ends (issue 31): the time
 * limit stops it, at its line. */
__global__ void copy(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

void scan(const int *in, int *out, int n)
{
    volatile int spins = 0;
    for (;;)
        spins = spins + 1; /* MARK: loop */
    copy<<<1, n>>>(in, out, n);
}
