/* shfl_bad_mask.cu: a shuffle that reads a lane outside its mask (issue
 * 30): the mask leaves lane 4 out, and lane 5 reads lane 4 (delta 1), which
 * CUDA leaves undefined. Warp 0 alone shuffles. n >= 6.
 *
 * Must give: a failure, "lane 5 (thread 5) reads lane 4, which is not in the
 * mask 0xffffffef, at line N" (the MARK's line), exit 5. */
__global__ void shfl_bad_mask(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int v = in[i];
    if (i < 32 && i != 4)
        v += __shfl_up_sync(0xffffffefu, v, 1); /* MARK: shfl */
    out[i] = v;
}
