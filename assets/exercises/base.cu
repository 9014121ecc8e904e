/* base.cu: the base of the exercises' and the tests' diffs: the chapter's scan
 * for int and +, in the contract scanviz runs (kernels/hillis_steele.cu: any op):
 *
 *   - one __global__ function taking (const T *in, T *out, int n), T int
 *     (--type int32, the default) or float (--type float32);
 *   - launched as ONE block of n threads (n = the input's length, 1..1024);
 *   - with 2 * n * sizeof(T) bytes of dynamic shared memory, which
 *     `extern __shared__ T buf[]` names (static __shared__ arrays work too);
 *   - no #include: threadIdx, blockDim, __syncthreads(), __shared__,
 *     __device__ helpers, templates, min, max, fminf, fmaxf are built in.
 *
 * Run it (no GPU needed: the CPU runtime traces every barrier and finds
 * races), then change it and run it again:
 *   scanviz-trace --kernel-file base.cu --input "3 1 7 0 4 1 6 3"
 *   scanviz-trace --kernel-file base.cu --random 1024 --schedule random:1
 * Exit status 0: the output is the scan and no race was found; 4: wrong
 * output or races; 2: it does not compile; 5: it failed while running.
 *
 * Things to try, each a mistake the chapter warns about:
 *   - drop the double buffer (read and write one row): a race;
 *   - drop the __syncthreads() in the loop: a race;
 *   - drop the guard `if (i >= stride)`: thread 0 reads buf[-1];
 *   - drop the else: the cells left of the stride are never written. */
__global__ void scan(const int *in, int *out, int n)
{
    /* Two buffers of n cells: buf[b * n + i] is cell i of buffer b.
     * Thread i owns cell i of both. */
    extern __shared__ int buf[];
    int i = threadIdx.x;

    /* Round 0: stage the input into buffer 0. */
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();

    for (int stride = 1; stride < n; stride *= 2) {
        /* Read last round's buffer (pin), write the other one (pout). */
        pout = 1 - pout;
        pin = 1 - pout;

        /* The guard: cells left of stride have no neighbour this far away
         * and are copied through. */
        if (i >= stride)
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];

        /* Invariant: pout[i] now holds the sum of in[max(0, i - 2*stride + 1) .. i].
         * The barrier ends the round: nobody may read this round's pout
         * before everyone has written it. */
        __syncthreads();
    }

    /* Copy the result back. */
    out[i] = buf[pout * n + i];
}
