/* hillis_steele.cu: the chapter's Hillis-Steele scan, the kernel scanviz
 * runs and shows, and your own kernel to edit (scanviz --new-kernel FILE
 * writes this file). One block of n threads (n <= 1024) scans n values in
 * shared memory: stage the input, then one round for each stride 1, 2, 4,
 * ... below n, in which thread i combines its cell with the cell stride to
 * its left, reading one buffer and writing the other, and finally copy the
 * result out.
 *
 * It is written in the contract every kernel file runs in:
 *   - one __global__ function taking (const T *in, T *out, int n), T int
 *     (--type int32, the default) or float (--type float32), or a template
 *     on T as here;
 *   - launched as ONE block of n threads (n = the input's length, 1..1024);
 *   - with 2 * n * sizeof(T) bytes of dynamic shared memory, which an
 *     `extern __shared__` array names (static __shared__ arrays work too);
 *   - no #include: threadIdx, blockDim, __syncthreads(), __shared__,
 *     __device__ helpers, templates, min, max, fminf, fmaxf are built in, and
 *     so is the scan asked for: Op::apply(a, b) is a op b for --op (sum, max,
 *     min, product, xor), Op::identity(T()) its identity, scan_exclusive true
 *     for --exclusive. A kernel may write its own + instead.
 *
 * Run it (no GPU needed: the CPU runtime traces every barrier and finds
 * races), then change it and run it again:
 *   scanviz-trace --kernel-file hillis_steele.cu --input "3 1 7 0 4 1 6 3"
 *   scanviz-trace --kernel-file hillis_steele.cu --random 1024 --schedule random:1
 *   scanviz-trace --kernel-file hillis_steele.cu --backend cuda   (a GPU)
 * Exit status 0: the output is the scan and no race was found; 4: wrong
 * output or races; 2: it does not compile; 5: it failed while running.
 *
 * Things to try, each a mistake the chapter warns about (scanviz's mistakes
 * lab, K in the window, shows each one):
 *   - drop the double buffer (read and write one row): a race;
 *   - drop the __syncthreads() in the loop: a race;
 *   - drop the guard `if (i >= stride)`: thread 0 reads buf[-1];
 *   - drop the else: the cells left of the stride are never written. */
template <typename T>
__global__ void hillis_steele(const T *in, T *out, int n)
{
    /* Two buffers of n cells in shared memory: buf[b][i] is buf[b * n + i].
     * Thread i owns cell i of both. */
    extern __shared__ __align__(8) unsigned char smem[];
    T *buf = reinterpret_cast<T *>(smem);
    const int i = threadIdx.x;

    /* Round 0: stage the input into buffer 0. Buffer 1 stays uninitialized. */
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();

    for (int stride = 1; stride < n; stride *= 2) {
        /* The swap: read last round's output, write the other buffer. */
        pout = 1 - pout;
        pin = 1 - pout;

        /* The guard: cells left of stride have no neighbour at this
         * distance and are copied through. */
        if (i >= stride)
            buf[pout * n + i] = Op::apply(buf[pin * n + i - stride], buf[pin * n + i]);
        else
            buf[pout * n + i] = buf[pin * n + i];

        /* Invariant: now pout[i] = op over in[max(0, i - 2*stride + 1) .. i],
         * a window of up to 2 * stride elements ending at i.
         * The barrier ends the round: the next round writes into this
         * round's pin, which other threads may still be reading
         * (pin[i - stride]), and reads this round's pout, which other threads
         * may not have written yet. One barrier per round is enough only
         * because of the double buffer: within a round nobody writes what
         * anybody reads. */
        __syncthreads();
    }

    /* Copy the result back. The exclusive scan is the inclusive one shifted
     * right with the identity in front; reading the neighbour's cell is safe
     * after the last round's barrier. */
    if (scan_exclusive)
        out[i] = (i == 0) ? Op::identity(T()) : buf[pout * n + i - 1];
    else
        out[i] = buf[pout * n + i];
}
