/* divide_by_zero.cu: thread 3 divides by zero, which ends a CPU process
 * with SIGFPE (on the GPU it gives an unspecified value).
 * Must give: failure crash, thread 3, at the marked line. */
__global__ void divide(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    volatile int d = i - 3;
    out[i] = in[i] / d; /* MARK: divide */
}
