/* warp_barrier_deadlock.cu: a warp collective that waits for a lane at a
 * barrier (issue 30): lane 5 goes to __syncthreads while the others wait
 * at __syncwarp for it. n = 32 or more.
 *
 * Must give: a deadlock, naming lane 0 waiting at the __syncwarp of the
 * MARK's line for lane 5, which waits at the __syncthreads(), exit 5. */
__global__ void warp_barrier_deadlock(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    if (i % 32 != 5)
        __syncwarp(); /* MARK: syncwarp */
    __syncthreads();
    out[i] = in[i];
}
