/* memory_hog.cu: each thread asks for 256 MiB of device memory (CUDA has
 * device-side malloc), far past the runtime's memory limit.
 * Must give: failure memory at the marked line, thread 0. */
__global__ void hog(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int *p = (int *)malloc(256u << 20); /* MARK: malloc */
    p[0] = in[i];
    out[i] = p[0];
    free(p);
}
