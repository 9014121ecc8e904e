/* blocks_extern.cu: the hierarchical scan with dynamic shared memory (issue
 * 31): the block scan sized by the launch (extern __shared__, <<<grid, block,
 * threads * sizeof(int)>>>), dim3 configurations, cudaDeviceSynchronize
 * between launches, each block adding the sums before it in a second
 * launch. Right under every schedule. */
__global__ void block_scan(const int *in, int *out, int *sums, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {
        int v = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    if (i < n) out[i] = s[t];
    if (t == blockDim.x - 1) sums[blockIdx.x] = s[t];
}
__global__ void add(int *out, const int *sums, int n)
{
    __shared__ int before;
    if (threadIdx.x == 0) {
        before = 0;
        for (int b = 0; b < (int)blockIdx.x; b++) before += sums[b];
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] += before;
}
void scan(const int *in, int *out, int n)
{
    const int threads = 128;
    int blocks = (n + threads - 1) / threads;
    int *sums = 0;
    cudaMalloc((void **)&sums, blocks * sizeof(int));
    dim3 grid(blocks), block(threads);
    block_scan<<<grid, block, threads * sizeof(int)>>>(in, out, sums, n);
    cudaDeviceSynchronize();
    add<<<grid, block>>>(out, sums, n);
    cudaDeviceSynchronize();
    cudaFree(sums);
}
