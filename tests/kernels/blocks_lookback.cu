/* blocks_lookback.cu: a single pass with a decoupled look-back (issue 31): each
 * tile takes a ticket, publishes its aggregate (flag A) at once, looks back
 * over the tiles before it (spinning on a status not yet published) until
 * one with its inclusive prefix (flag P), then publishes its own prefix.
 * 64-bit statuses (flag and value in one word, volatile). Right under every
 * schedule. */
#define B 64
#define FLAG_A 1u
#define FLAG_P 2u
__device__ int block_sum(int v, int *s)
{
    int t = threadIdx.x;
    s[t] = v;
    __syncthreads();
    for (int d = 1; d < B; d *= 2) {
        int u = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += u;
        __syncthreads();
    }
    return s[t];
}
__global__ void single_pass(const int *in, int *out, unsigned long long *status, int *next, int n)
{
    __shared__ int s[B];
    __shared__ int tile, exclusive;
    if (threadIdx.x == 0)
        tile = atomicAdd(next, 1);
    __syncthreads();
    int i = tile * B + threadIdx.x;
    int v = block_sum(i < n ? in[i] : 0, s);
    int agg = s[B - 1];
    if (threadIdx.x == 0) {
        volatile unsigned long long *st = status;
        if (tile == 0) {
            st[0] = ((unsigned long long)FLAG_P << 32) | (unsigned)agg;
            exclusive = 0;
        } else {
            st[tile] = ((unsigned long long)FLAG_A << 32) | (unsigned)agg;
            int sum = 0;
            for (int j = tile - 1; j >= 0; j--) {
                unsigned long long w;
                while (((w = st[j]) >> 32) == 0) {
                }
                sum += (int)(unsigned)w;
                if ((w >> 32) == FLAG_P)
                    break;
            }
            exclusive = sum;
            __threadfence();
            st[tile] = ((unsigned long long)FLAG_P << 32) | (unsigned)(sum + agg);
        }
    }
    __syncthreads();
    if (i < n)
        out[i] = exclusive + v;
}
void scan(const int *in, int *out, int n)
{
    int tiles = (n + B - 1) / B;
    unsigned long long *status;
    int *next;
    cudaMalloc(&status, tiles * sizeof(unsigned long long));
    cudaMalloc(&next, sizeof(int));
    cudaMemset(status, 0, tiles * sizeof(unsigned long long));
    cudaMemset(next, 0, sizeof(int));
    single_pass<<<tiles, B>>>(in, out, status, next, n);
    cudaFree(status);
    cudaFree(next);
}
