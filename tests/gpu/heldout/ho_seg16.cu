/* ho_seg16.cu: inclusive scans of 16 lanes each: __shfl_up_sync with width 16 (not a scan of the whole: exit 4 beyond 16). */
__global__ void ho_seg16(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int v = in[i];
    for (int d = 1; d < 16; d *= 2) {
        int u = __shfl_up_sync(0xffffffff, v, d, 16);
        if ((i & 15) >= d) v += u;
    }
    out[i] = v;
}
