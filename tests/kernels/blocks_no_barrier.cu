/* blocks_no_barrier.cu: blocks_hier.cu without the barrier that ends each
 * round of a block's scan (issue 31): a race between the threads of a
 * block, a hazard of each block's shared buf in launch 1, whatever the
 * output. */
#define B 64

template <typename T>
__global__ void block_scan(const T *in, T *out, T *sums, int n)
{
    __shared__ T buf[2][B];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int t = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout][t] = i < n ? in[i] : Op::identity(T());
    __syncthreads();
    for (int s = 1; s < B; s *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        buf[pout][t] = t >= s ? Op::apply(buf[pin][t - s], buf[pin][t]) : buf[pin][t]; /* MARK: round */
    }
    if (i < n)
        out[i] = buf[pout][t];
    if (t == B - 1)
        sums[blockIdx.x] = buf[pout][t];
}

template <typename T>
__global__ void scan_sums(T *sums, int m)
{
    if (threadIdx.x == 0)
        for (int k = 1; k < m; k++)
            sums[k] = Op::apply(sums[k - 1], sums[k]);
}

template <typename T>
__global__ void add_back(T *out, const T *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (blockIdx.x > 0 && i < n)
        out[i] = Op::apply(sums[blockIdx.x - 1], out[i]);
}

template <typename T>
void scan(const T *in, T *out, int n)
{
    int blocks = (n + B - 1) / B;
    T *sums;
    cudaMalloc(&sums, blocks * sizeof(T));
    block_scan<T><<<blocks, B>>>(in, out, sums, n);
    scan_sums<T><<<1, 1>>>(sums, blocks);
    add_back<T><<<blocks, B>>>(out, sums, n);
    cudaFree(sums);
}
