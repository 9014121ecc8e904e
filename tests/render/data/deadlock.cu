/* deadlock.cu: the round's barrier inside the guard (tests/kernels/
 * barrier_in_if.diff): thread 0 ends, the others wait at line 17. The
 * unfinished step holds a hazard the runtime counts but keeps no access of:
 * issue 28 has the words say so instead of a bare "hazards: 1". */
__global__ void scan_barrier_in_if(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride) {
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
            __syncthreads(); /* MARK: barrier */
        } else {
            buf[pout * n + i] = buf[pin * n + i];
        }
    }
    out[i] = buf[pout * n + i];
}
