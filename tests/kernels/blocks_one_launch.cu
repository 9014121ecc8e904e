/* blocks_one_launch.cu: the block sums added in the same launch that
 * writes them (issue 31): block b reads sums[0 .. b-1], which other
 * blocks write in that launch. Right when blocks run in order; under
 * reverse the reads come first: wrong, and each read a hazard (WAR). */
#define B 16

__global__ void one_pass(const int *in, int *out, int *sums, int n)
{
    __shared__ int buf[2][B];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout][t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = 1; s < B; s *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        buf[pout][t] = t >= s ? buf[pin][t - s] + buf[pin][t] : buf[pin][t];
        __syncthreads();
    }
    if (t == B - 1)
        sums[blockIdx.x] = buf[pout][t]; /* MARK: write */
    int add = 0;
    for (int k = 0; k < (int)blockIdx.x; k++)
        add += sums[k]; /* MARK: read */
    if (i < n)
        out[i] = buf[pout][t] + add;
}

void scan(const int *in, int *out, int n)
{
    int blocks = (n + B - 1) / B;
    int *sums;
    cudaMalloc(&sums, blocks * sizeof(int));
    one_pass<<<blocks, B>>>(in, out, sums, n);
    cudaFree(sums);
}
