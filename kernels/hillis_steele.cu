/* hillis_steele.cu: the chapter's Hillis-Steele inclusive scan, and nothing
 * else. One block of n threads (n <= 1024) scans n values in shared memory:
 * stage the input, then one round for each stride 1, 2, 4, ... below n, in
 * which thread i combines its cell with the cell stride to its left, reading
 * one buffer and writing the other, and finally copy the result out.
 *
 * This is the kernel scanviz runs and shows. trace_capture.cu #includes this
 * file and builds it twice from this one source: plain, and with a Trace
 * that records every round (trace_hooks.cuh; in the plain kernel the three
 * trace lines compile to nothing). Op is the operator (ops.cuh: sum, max,
 * min, product, xor), T the element type (int32_t or float).
 *
 * Build and run it (needs nvcc and a GPU), from the repository root:
 *   meson setup build -Dgpu_archs=90 && ninja -C build
 *   build/src/cli/scanviz-trace --backend cuda --input "3 1 7 0 4 1 6 3"
 * prints every round's two buffers as this kernel left them;
 * build/src/app/scanviz --backend cuda draws them. */
#include "ops.cuh"
#include "trace_hooks.cuh"

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
