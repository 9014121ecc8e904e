/* blocks_many_launches.cu: more launches than a trace holds (issue 31): at
 * n = 2^20 with 2^21 cells of scratch, each step is 3 * 2^20 cells, so the
 * steps' 2^25 cells hold 10 launches; the other 11 run, their steps and
 * tiles left out (steps_dropped). The output is a copy: wrong from cell 1. */
__global__ void copy(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void touch(int *scratch, int k)
{
    scratch[k] = k;
}

void scan(const int *in, int *out, int n)
{
    int *scratch;
    cudaMalloc(&scratch, 2 * n * sizeof(int));
    for (int k = 0; k < 20; k++)
        touch<<<1, 1>>>(scratch, k);
    copy<<<(n + 1023) / 1024, 1024>>>(in, out, n);
    cudaFree(scratch);
}
