/* two_entries.cu: two __global__ functions of the contract's signature;
 * --entry NAME picks one.
 *
 * Must give: without --entry, exit 2 (failure signature: several entries,
 * naming both); --entry copy_only: exit 4 (the output is the input, first
 * wrong cell 1 for 3 1 7 0 ...); --entry scan: exit 0; --entry nothing:
 * exit 2 naming the two entries there are. */
template <typename T>
__device__ T add(T a, T b)
{
    return a + b;
}

__global__ void copy_only(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        buf[pout * n + i] = i >= stride ? add(buf[pin * n + i - stride], buf[pin * n + i])
                                        : buf[pin * n + i];
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
