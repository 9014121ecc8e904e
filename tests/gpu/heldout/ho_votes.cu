/* ho_votes.cu: __any_sync, __all_sync and __activemask (exit 4). */
__global__ void ho_votes(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int a = __any_sync(0xffffffff, in[i] > 90);
    int b = __all_sync(0xffffffff, in[i] >= 0);
    unsigned act = __activemask();
    out[i] = a * 100 + b * 10 + (act == 0xffffffffu);
}
