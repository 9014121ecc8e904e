/* own_op.cu: a kernel with an operator struct of its own called Op, the
 * name the runtime gives the run's operator (Op::apply, scan_ops.h): the
 * file's own is used, and the runtime's is not brought in.
 *
 * Must give: exit 0; the inclusive sum scan of the input (its own Op adds,
 * whatever --op says, so --op max gives a wrong output, exit 4). */
struct Op {
    __device__ static int apply(int a, int b) { return a + b; }
};

__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x, pout = 0, pin = 1;
    buf[i] = in[i];
    __syncthreads();
    for (int s = 1; s < n; s *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= s)
            buf[pout * n + i] = Op::apply(buf[pin * n + i - s], buf[pin * n + i]);
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
