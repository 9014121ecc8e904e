/* ho_shfl_idx.cu: float __shfl_sync: lane 0 broadcast, and a rotation within 8-lane groups (width 8) (exit 4); n a multiple of 32. */
__global__ void ho_shfl_idx(const float *in, float *out, int n)
{
    int i = threadIdx.x, lane = i & 31;
    float first = __shfl_sync(0xffffffff, in[i], 0);
    float rot = __shfl_sync(0xffffffff, in[i], (lane + 1) & 7, 8);
    out[i] = first * 1000.0f + rot;
}
