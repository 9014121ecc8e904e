/* blelloch.cu: the work-efficient (Blelloch) exclusive scan beside the
 * chapter's Hillis-Steele kernel, and nothing else. One block of n threads
 * (n <= 1024) scans n values in one array of shared memory, in place, as a
 * balanced tree of partial sums:
 *
 *   - the up-sweep (reduce): at strides d = 1, 2, 4, ... each right child
 *     t[k] (k = (j + 1) * 2d - 1) takes the sum of its pair, t[k - d] op t[k];
 *     afterwards t[k] holds its subtree's sum, the root t[m - 1] the total;
 *   - the root is set to the identity;
 *   - the down-sweep: at d = m/2, ..., 2, 1 each pair swaps and adds back
 *     down: the left child takes its parent's value (the sum of everything
 *     left of the subtree), the right child that value op the old left child.
 *
 * Any n, not only powers of two: the tree is over m, the next power of two
 * >= n (m < 2n, so it fits in the 2 * n cells of dynamic shared memory every
 * shipped kernel gets), and the cells n .. m - 1 are padding holding the
 * identity, so they change no sum. The cost for this variant, counted over
 * the padded tree: m - 1 combines up, m - 1 down, 2 (m - 1) in all, in
 * 2 log2 m barrier-separated steps (plus the staging and the root's clear);
 * for n = 8: 14 adds in 6 steps, against Hillis-Steele's 17 in 3 rounds and
 * the sequential scan's 7 in 7. Threads j >= m / (2d) sit a level out.
 *
 * The scan is exclusive by nature; the inclusive one is out[i] = t[i] op
 * in[i] (one more op per cell, counted apart from the tree's). It is a
 * kernel file in the contract of the chapter's (hillis_steele.cu): Op is
 * the run's operator and scan_exclusive its kind, both the runtime's, T
 * the element type (int or float); the runtime runs it as a shipped kernel,
 * on the CPU built ahead of time (src/runtime/meson.build). The trace of
 * every step is the runtime's (every barrier): the chapter's rounds do not
 * describe this kernel. Like every kernel file it has no #include: the
 * keywords, the operator and the scan come from the runtime, on the CPU
 * (src/runtime/cuda_cpu.h, scan_ops.h) as on the GPU (NVRTC, the same
 * scan_ops.h after its prelude), so what runs on either is this text, and
 * its lines are the ones the window's source panel marks.
 *
 * Run it on the CPU (no GPU needed), from the repository root:
 *   meson setup build -Dcuda=disabled && ninja -C build
 *   build/src/cli/scanviz-trace --kernel blelloch --exclusive --input "3 1 7 0 4 1 6 3"
 * prints every step's array as this kernel left it. */
template <typename T>
__global__ void blelloch(const T *in, T *out, int n)
{
    /* One array of m <= 2n cells: the tree's leaves are t[0 .. m). */
    extern __shared__ __align__(8) unsigned char smem[];
    T *t = reinterpret_cast<T *>(smem);
    const int i = threadIdx.x;
    int m = 1;
    while (m < n)
        m *= 2;

    /* Stage the input; thread i also clears padding cell n + i if there is one. */
    t[i] = in[i];
    if (n + i < m)
        t[n + i] = Op::identity(T(0));
    __syncthreads();

    /* The up-sweep: thread i is the i-th pair's right child at stride d. */
    for (int d = 1; d < m; d *= 2) {
        const int k = (i + 1) * 2 * d - 1;
        if (k < m)
            t[k] = Op::apply(t[k - d], t[k]);
        /* Now t[k] = op over the leaves k - 2d + 1 .. k, its subtree. The
         * barrier: the next level reads what this one wrote. */
        __syncthreads();
    }

    /* The root cleared: it will hand the identity down to the first leaf. */
    if (i == 0)
        t[m - 1] = Op::identity(T(0));
    __syncthreads();

    /* The down-sweep: the same pairs from the top; each swaps and adds. */
    for (int d = m / 2; d >= 1; d /= 2) {
        const int k = (i + 1) * 2 * d - 1;
        if (k < m) {
            const T left = t[k - d];
            const T parent = t[k];
            t[k - d] = parent;                  /* the swap: the parent goes left */
            t[k] = Op::apply(parent, left);     /* and left of the right child */
        }
        /* Now each child holds op over every leaf left of its subtree. */
        __syncthreads();
    }

    /* t[i] is the exclusive scan at i. */
    if (scan_exclusive)
        out[i] = t[i];
    else
        out[i] = Op::apply(t[i], in[i]);
}
