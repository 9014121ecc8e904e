/* blocks_grid_2d.cu: the hierarchical scan on a 2-D grid (issue 31), as a
 * course writes it for an n past a grid's old x limit: block b is
 * blockIdx.y * gridDim.x + blockIdx.x, the grid 16 blocks wide, each block
 * 64 threads; the blocks past n's write only their sum. Right under every
 * schedule. */
#define B 64
#define X 16

__device__ int block_id()
{
    return blockIdx.y * gridDim.x + blockIdx.x;
}

template <typename T>
__global__ void block_scan(const T *in, T *out, T *sums, int n)
{
    __shared__ T buf[2][B];
    int b = block_id(), t = threadIdx.x, i = b * B + t;
    int pout = 0, pin = 1;
    buf[pout][t] = i < n ? in[i] : Op::identity(T());
    __syncthreads();
    for (int s = 1; s < B; s *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        buf[pout][t] = t >= s ? Op::apply(buf[pin][t - s], buf[pin][t]) : buf[pin][t];
        __syncthreads();
    }
    if (i < n)
        out[i] = buf[pout][t];
    if (t == B - 1)
        sums[b] = buf[pout][t];
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
    int b = block_id(), i = b * B + threadIdx.x;
    if (b > 0 && i < n)
        out[i] = Op::apply(sums[b - 1], out[i]);
}

template <typename T>
void scan(const T *in, T *out, int n)
{
    int blocks = (n + B - 1) / B;
    dim3 grid(X, (blocks + X - 1) / X);
    T *sums;
    cudaMalloc(&sums, grid.x * grid.y * sizeof(T));
    block_scan<T><<<grid, B>>>(in, out, sums, n); /* MARK: launch */
    scan_sums<T><<<1, 1>>>(sums, blocks);
    add_back<T><<<grid, B>>>(out, sums, n);
    cudaFree(sums);
}
