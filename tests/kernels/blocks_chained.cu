/* blocks_chained.cu: a single-pass chained scan without a ticket (issue
 * 31): block b waits for block b - 1's inclusive prefix. Right when blocks
 * start in order; under reverse or random:S block order the block it
 * waits for has not started, which the runtime names (exit 5). */
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
            before = ((volatile int *)prefix)[b - 1];
        }
        ((volatile int *)prefix)[b] = before + buf[pout][B - 1];
        __threadfence();
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
