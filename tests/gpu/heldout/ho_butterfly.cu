/* ho_butterfly.cu: every lane gets its warp's total through a butterfly of __shfl_xor_sync (not a scan: exit 4); n a multiple of 32. */
__global__ void ho_butterfly(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int v = in[i];
    for (int m = 16; m >= 1; m >>= 1)
        v += __shfl_xor_sync(0xffffffff, v, m);
    out[i] = v;
}
