/* syncthreads_count.cu: the barriers that reduce (issue 30). out[i] is
 * __syncthreads_count(in[i] > 0) + 10000 * __syncthreads_and(in[i] > -5)
 * + 20000 * __syncthreads_or(in[i] > 15); each is a barrier, a step of the
 * trace (4 steps with the end). Any n.
 *
 * Must give: exactly that (the test's own computation), exit 0. */
__global__ void syncthreads_count(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int c = __syncthreads_count(in[i] > 0);
    int a = __syncthreads_and(in[i] > -5);
    int o = __syncthreads_or(in[i] > 15);
    out[i] = c + 10000 * a + 20000 * o;
}
