/* blocks_no_fence.cu: blocks_chained.cu without the __threadfence()
 * between a block's prefix and its flag (issue 31): right on the CPU
 * runtime when blocks start in order, but a GPU may show the flag before the
 * data. The runtime names it: a RAW hazard of prefix[b - 1], its write and
 * the read after the flag. */
#define B 32

__global__ void chained(const int *in, int *out, int *flags, int *prefix, int n)
{
    __shared__ int buf[2][B];
    __shared__ int before;
    int b = blockIdx.x;
    int t = threadIdx.x;
    int i = b * B + t;
    int pout = 0, pin = 1;
    buf[pout][t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int s = 1; s < B; s *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        buf[pout][t] = t >= s ? buf[pin][t - s] + buf[pin][t] : buf[pin][t];
        __syncthreads();
    }
    if (t == 0) {
        before = 0;
        if (b > 0) {
            while (((volatile int *)flags)[b - 1] == 0) { /* MARK: wait */
            }
            before = ((volatile int *)prefix)[b - 1]; /* MARK: read data */
        }
        ((volatile int *)prefix)[b] = before + buf[pout][B - 1]; /* MARK: data */
        ((volatile int *)flags)[b] = 1;
    }
    __syncthreads();
    if (i < n)
        out[i] = before + buf[pout][t];
}

void scan(const int *in, int *out, int n)
{
    int blocks = (n + B - 1) / B;
    int *flags, *prefix;
    cudaMalloc(&flags, blocks * sizeof(int));
    cudaMalloc(&prefix, blocks * sizeof(int));
    cudaMemset(flags, 0, blocks * sizeof(int));
    chained<<<blocks, B>>>(in, out, flags, prefix, n);
    cudaFree(flags);
    cudaFree(prefix);
}
