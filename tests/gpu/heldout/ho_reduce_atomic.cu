/* ho_reduce_atomic.cu: a __shfl_down_sync reduction per warp, one atomicAdd per warp into a shared total, every cell the total (exit 4); n a multiple of 32. */
__global__ void ho_reduce_atomic(const int *in, int *out, int n)
{
    __shared__ int total;
    int i = threadIdx.x;
    if (i == 0) total = 0;
    __syncthreads();
    int v = in[i];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
    if ((i & 31) == 0) atomicAdd(&total, v);
    __syncthreads();
    out[i] = total;
}
