/* blocks_host_reads.cu: a host function that reads device memory (issue
 * 31): in[] is the kernels' to read; the run stops at the line. */
__global__ void copy(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

void scan(const int *in, int *out, int n)
{
    if (in[0] == 12345) /* MARK: host read */
        return;
    copy<<<(n + 31) / 32, 32>>>(in, out, n);
}
