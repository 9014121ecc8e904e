/* blelloch.cu: a work-efficient (Blelloch) exclusive scan, run with
 * --exclusive: an up-sweep of partial sums in a tree, the root cleared, a
 * down-sweep. n is padded to the next power of two m <= 2n with zeros (the
 * 2n cells of dynamic shared memory hold it). About 2n additions instead of
 * n log n.
 *
 * Must give: exit 0 with --exclusive (3 1 7 0 4 1 6 3 -> 0 3 4 11 11 15 16
 * 22); 0 hazards; the up-sweep's cells hold tree sums, not the chapter's
 * windows, and the output is right: "the chapter's rounds do not apply",
 * no step read as a round, none broken (issue 28). */
__global__ void scan_blelloch(const int *in, int *out, int n)
{
    extern __shared__ int t[];
    int i = threadIdx.x;
    int m = 1;
    while (m < n)
        m *= 2;
    t[i] = in[i];
    if (i + n < m)
        t[i + n] = 0;
    __syncthreads();
    for (int d = 1; d < m; d *= 2) { /* up-sweep */
        int k = (i + 1) * 2 * d - 1;
        if (k < m)
            t[k] += t[k - d];
        __syncthreads();
    }
    if (i == 0)
        t[m - 1] = 0;
    __syncthreads();
    for (int d = m / 2; d >= 1; d /= 2) { /* down-sweep */
        int k = (i + 1) * 2 * d - 1;
        if (k < m) {
            int left = t[k - d];
            t[k - d] = t[k];
            t[k] += left;
        }
        __syncthreads();
    }
    out[i] = t[i];
}
