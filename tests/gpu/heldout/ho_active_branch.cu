/* ho_active_branch.cu: __activemask in the two sides of a branch: each side's lanes (exit 4). */
__global__ void ho_active_branch(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    unsigned m = 0;
    if (in[i] % 2 == 0)
        m = __activemask();
    else
        m = ~__activemask();
    out[i] = (int)m;
}
