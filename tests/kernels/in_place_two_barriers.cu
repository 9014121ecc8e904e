/* in_place_two_barriers.cu: one buffer, made safe with two barriers per
 * round: every thread reads its operands into a register, barrier, then
 * writes, barrier. No thread writes a cell in the interval in which another
 * reads it.
 *
 * Must give: exit 0 under every schedule; the inclusive sum scan; 0 hazards;
 * two steps per round: the read step writes no shared cell, the write step
 * is the chapter's round r in s (cells i < stride write back the value
 * they hold, which is already round r's). */
__global__ void scan_in_place(const int *in, int *out, int n)
{
    __shared__ int s[1024];
    int i = threadIdx.x;
    s[i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        int v = s[i];
        if (i >= stride)
            v = s[i - stride] + v;
        __syncthreads(); /* everybody has read */
        s[i] = v;
        __syncthreads(); /* everybody has written */
    }
    out[i] = s[i];
}
