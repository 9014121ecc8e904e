/* blocks_ticket.cu: blocks_chained.cu with a ticket (issue 31): each block
 * takes its place in the chain with atomicAdd, so the block it waits for
 * has always started. Right under every schedule. */
#define B 32

__global__ void chained(const int *in, int *out, int *flags, int *prefix, int *counter, int n)
{
    __shared__ int buf[2][B];
    __shared__ int before;
    __shared__ int ticket;
    if (threadIdx.x == 0)
        ticket = atomicAdd(counter, 1);
    __syncthreads();
    int b = ticket;
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
    int *flags, *prefix, *counter;
    cudaMalloc(&flags, blocks * sizeof(int));
    cudaMalloc(&prefix, blocks * sizeof(int));
    cudaMalloc(&counter, sizeof(int));
    cudaMemset(flags, 0, blocks * sizeof(int));
    cudaMemset(counter, 0, sizeof(int));
    chained<<<blocks, B>>>(in, out, flags, prefix, counter, n);
    cudaFree(flags);
    cudaFree(prefix);
    cudaFree(counter);
}
