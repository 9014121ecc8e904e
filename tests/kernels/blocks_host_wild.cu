/* blocks_host_wild.cu: a host function that reads memory it made up (issue
 * 31, the sandbox): the run stops at the line, as a kernel's would. */
__global__ void copy(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

void scan(const int *in, int *out, int n)
{
    const int *p = (const int *)0x12345678;
    if (*p == 7) /* MARK: wild */
        return;
    copy<<<1, n>>>(in, out, n);
}
