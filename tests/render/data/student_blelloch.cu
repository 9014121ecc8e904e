/* student_blelloch.cu: a student's own work-efficient (Blelloch) scan, right
 * in every cell, written as a student would: one shared array `tree`, the
 * up-sweep with an offset doubling, the last cell cleared, the down-sweep,
 * and the inclusive result made from the exclusive one. Its steps are a
 * tree's, not the chapter's rounds: issue 28 has scanviz read it as "not
 * the chapter's rounds", never as broken. */
__global__ void student_scan(const int *in, int *out, int n)
{
    __shared__ int tree[1024];
    int i = threadIdx.x;
    int size = 1;
    while (size < n)
        size = size * 2;
    tree[i] = in[i];
    if (i + n < size)
        tree[i + n] = 0;
    __syncthreads();
    for (int offset = 1; offset < size; offset = offset * 2) {
        int right = (i + 1) * offset * 2 - 1;
        if (right < size)
            tree[right] = tree[right - offset] + tree[right];
        __syncthreads();
    }
    if (i == 0)
        tree[size - 1] = 0;
    __syncthreads();
    for (int offset = size / 2; offset >= 1; offset = offset / 2) {
        int right = (i + 1) * offset * 2 - 1;
        if (right < size) {
            int left = tree[right - offset];
            tree[right - offset] = tree[right];
            tree[right] = tree[right] + left;
        }
        __syncthreads();
    }
    out[i] = tree[i] + in[i];
}
