/* ho_ctable.cu: a __constant__ table at file scope (exit 4). */
__constant__ int weights[8] = {1, 2, 3, 5, 8, 13, 21, 34};
__global__ void ho_ctable(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    out[i] = in[i] * weights[i & 7] + weights[(i >> 3) & 7];
}
