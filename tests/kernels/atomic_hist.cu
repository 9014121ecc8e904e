/* atomic_hist.cu: atomics on shared and global memory (issue 30). Every
 * thread adds 1 to the shared bin in[i] & 7 with atomicAdd and takes a
 * ticket from a shared counter (atomicAdd's old value), which it puts into
 * a shared maximum with atomicMax: all in one barrier interval, and no
 * race, since atomics are not races with each other. After the barrier
 * thread i < 8 writes bin i, thread 8 the largest ticket (n - 1), thread 9
 * the counter (n), the others in[i]; after one more barrier every thread
 * adds 1 to out[10] with a global atomicAdd.
 *
 * Must give: exactly that (the test's own computation), exit 0, no hazard,
 * under every schedule. */
__global__ void atomic_hist(const int *in, int *out, int n)
{
    __shared__ int bins[8];
    __shared__ unsigned ticket, top;
    int i = threadIdx.x;
    if (i < 8)
        bins[i] = 0;
    if (i == 0) {
        ticket = 0;
        top = 0;
    }
    __syncthreads();
    atomicAdd(&bins[in[i] & 7], 1);
    unsigned mine = atomicAdd(&ticket, 1u);
    atomicMax(&top, mine);
    __syncthreads();
    if (i < 8)
        out[i] = bins[i];
    else if (i == 8)
        out[i] = (int)top;
    else if (i == 9)
        out[i] = (int)ticket;
    else
        out[i] = in[i];
    __syncthreads();
    if (n > 10)
        atomicAdd(&out[10], 1);
}
