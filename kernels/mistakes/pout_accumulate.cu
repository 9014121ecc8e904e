/* mistakes/pout-accumulate: the chapter's kernel (kernels/hillis_steele.cu)
 * with one change, for the mistakes lab: the add reads the thread's own cell
 * of pout instead of pin, pout[i] = pin[i - stride] op pout[i]. This is the
 * published naive scan of GPU Gems 3, chapter 39, listing 39.1 (Harris,
 * Sengupta, Owens, 2007), "temp[pout*n+thid] += temp[pin*n+thid - offset]",
 * a known erratum. Deterministic: pout holds what the round before last left
 * there, or nothing (uninitialized shared memory in round 1, shown as ?).
 * The changed line carries a MISTAKE comment. Like the teaching kernel, this
 * file is built inside trace_capture.cu (plain, traced, and with the lab's
 * hooks), so what the source panel shows is what ran. Run it:
 *   build/src/cli/scanviz-trace --kernel pout-accumulate --runs 100
 * (without a GPU: --schedule lockstep|sequential|reverse|random:S|warps:S). */
#include "../ops.cuh"
#include "../trace_hooks.cuh"

template <typename Op, typename T, typename Trace>
__global__ void hillis_steele(const T *in, T *out, int n, bool exclusive,
                              typename Trace::Buffers tb)
{
    /* Two buffers of n cells in shared memory: buf[b][i] is buf[b * n + i].
     * Thread i owns cell i of both. */
    extern __shared__ __align__(8) unsigned char smem[];
    T *buf = reinterpret_cast<T *>(smem);
    const int i = threadIdx.x;
    Trace trace(tb, i);

    /* Round 0: stage the input into buf[0]. buf[1] stays uninitialized. */
    int pout = 0, pin = 1;
    buf[pout * n + i] = in[i];
    __syncthreads();
    trace.round(&buf[pout * n + i], pout, n);

    for (int stride = 1; stride < n; stride *= 2) {
        /* The swap: read last round's output, write the other buffer. */
        pout = 1 - pout;
        pin = 1 - pout;

        /* The guard: cells left of stride have no neighbour at this
         * distance and are copied through. */
        if (i >= stride)
            buf[pout * n + i] = Op::apply(buf[pin * n + i - stride], buf[pout * n + i]); // MISTAKE: pout[i], not pin[i]
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
        trace.round(&buf[pout * n + i], pout, n);
    }
    trace.end();

    /* Copy the result back. The exclusive scan is the inclusive one shifted
     * right with the identity in front; reading the neighbour's cell is safe
     * after the last round's barrier. */
    if (exclusive)
        out[i] = (i == 0) ? Op::identity(T(0)) : buf[pout * n + i - 1];
    else
        out[i] = buf[pout * n + i];
}
