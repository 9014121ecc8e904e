/* temp_2d.cu: the chapter's double buffer as a static 2-D array,
 * __shared__ int temp[2][1024], and a __device__ helper for the add.
 *
 * Must give: exit 0 under every schedule; the inclusive sum scan; 0 hazards;
 * the steps are the chapter's rounds in temp[0] and temp[1] (rows of 1024
 * cells of which the first n are used). */
__device__ int combine(int a, int b)
{
    return a + b;
}

__global__ void scan_2d(const int *in, int *out, int n)
{
    __shared__ int temp[2][1024];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    temp[pout][i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride)
            temp[pout][i] = combine(temp[pin][i - stride], temp[pin][i]);
        else
            temp[pout][i] = temp[pin][i];
        __syncthreads();
    }
    out[i] = temp[pout][i];
}
