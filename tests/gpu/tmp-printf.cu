template <typename T>
__global__ void hillis_steele(const T *in, T *out, int n)
{
    extern __shared__ __align__(8) unsigned char smem[];
    T *buf = reinterpret_cast<T *>(smem);
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    if (i < 2)
        printf("thread %d starts with %d\n", i, (int)in[i]);
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= offset)
            buf[pout * n + i] = Op::apply(buf[pin * n + i - offset], buf[pin * n + i]);
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }
    if (i == n - 1)
        printf("last: %d, %5.2f %c %x\n", (int)buf[pout * n + i], 1.5f, 'z', 255u);
    out[i] = buf[pout * n + i];
}
