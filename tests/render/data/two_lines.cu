/* two_lines.cu: the chapter's double-buffered scan, whose rounds write from two
 * lines, the add (15) and the else's copy (17): issue 28 has the overview and
 * predict mode name the same one, the first in the file. */
__global__ void scan_int(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride)
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
