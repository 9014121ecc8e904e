/* ho_stride.cu: shared accesses with known bank conflicts, for ncu, each
 * array written whole before it is read: stride 2 (2-way: a[2 i]), 32 (32-way:
 * lane l at c[32 l + warp]), 3 (none: b[3 i]), a broadcast and a word read
 * by eight lanes (none: a[0], a[2 (i / 8)]) (exit 4). */
__global__ void ho_stride(const int *in, int *out, int n)
{
    __shared__ int a[2048];
    __shared__ int b[3072];
    __shared__ int c[1024];
    int i = threadIdx.x;
    a[2 * i] = in[i];
    c[32 * (i & 31) + (i >> 5)] = in[i];
    b[3 * i] = in[i];
    __syncthreads();
    int v = a[0] + a[2 * (i / 8)] + a[2 * i] + c[32 * (i & 31) + (i >> 5)] + b[3 * i];
    out[i] = v;
}
