/* ho_bits.cu: __popc, __clz, __ffs and __brev of a hash of each value (exit 4). */
__global__ void ho_bits(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    unsigned x = (unsigned)in[i] * 2654435761u;
    out[i] = __popc(x) + 100 * __clz(x | 1) + 10000 * __ffs(x) + (int)(__brev(x) & 0xff) * 1000000;
}
