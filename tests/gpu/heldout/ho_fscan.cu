/* ho_fscan.cu: a float warp scan between fmaf, exp2f, powf and sqrtf (exit 4): the math library bit for bit against the GPU's. */
__global__ void ho_fscan(const float *in, float *out, int n)
{
    int i = threadIdx.x, lane = i & 31;
    float v = fmaf(in[i], 0.5f, 1.0f);
    for (int d = 1; d < 32; d *= 2) {
        float u = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += u;
    }
    out[i] = v + exp2f((float)(lane & 3)) + powf(2.0f, 0.5f) + sqrtf((float)lane);
}
