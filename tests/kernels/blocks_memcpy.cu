/* blocks_memcpy.cu: the chapter's rounds over the whole array, one launch a
 * round (issue 31): each launch reads one device buffer and writes the
 * other, the host function swaps them, and cudaMemcpy (device to device)
 * copies in[] into the first and the last round's buffer into out[]. Right
 * under every schedule. */
template <typename T>
__global__ void round_kernel(const T *src, T *dst, int n, int s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = i >= s ? Op::apply(src[i - s], src[i]) : src[i];
}

template <typename T>
void scan(const T *in, T *out, int n)
{
    T *a, *b;
    cudaMalloc(&a, n * sizeof(T));
    cudaMalloc(&b, n * sizeof(T));
    cudaMemcpy(a, in, n * sizeof(T), cudaMemcpyDeviceToDevice); /* MARK: copy in */
    for (int s = 1; s < n; s *= 2) {
        round_kernel<T><<<(n + 127) / 128, 128>>>(a, b, n, s);
        T *t = a;
        a = b;
        b = t;
    }
    cudaMemcpy(out, a, n * sizeof(T), cudaMemcpyDefault); /* MARK: copy out */
    cudaFree(a);
    cudaFree(b);
}
