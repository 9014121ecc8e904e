/* blocks_many_arrays.cu: a host function that allocates device memory in a
 * loop (issue 31): every array of a run is one of the trace's, so past the
 * trace's room the run stops at the cudaMalloc, in words; the names before
 * it stay unique (d, d@LINE, d@LINE.2, ...). */
__global__ void copy(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

void scan(const int *in, int *out, int n)
{
    for (int j = 0; j < 40; j++) {
        int *d;
        cudaMalloc(&d, 64); /* MARK: alloc */
        cudaFree(d);
    }
    copy<<<1, n>>>(in, out, n);
}
