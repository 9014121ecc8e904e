/* ho_cas_fmax.cu: a float max by an atomicCAS loop, then each value less the max (exit 4; the loop's first plain read beside the others' atomics is a race by the CPU runtime's rule, the output is the same under every schedule). */
__device__ float atomic_fmax(float *a, float v)
{
    int *p = (int *)a;
    int old = *p, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v) break;
        old = atomicCAS(p, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}
__global__ void ho_cas_fmax(const float *in, float *out, int n)
{
    __shared__ float mx;
    int i = threadIdx.x;
    if (i == 0) mx = -1e30f;
    __syncthreads();
    atomic_fmax(&mx, in[i]);
    __syncthreads();
    out[i] = in[i] - mx;
}
