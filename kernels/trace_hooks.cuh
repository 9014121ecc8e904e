/* The hooks that turn the teaching kernel (hillis_steele.cu) into the
 * instrumented one. The kernel is a template over a Trace: it builds one per
 * thread (`Trace trace(tb, i)`), calls trace.round() after staging and after
 * every round's barrier, and trace.end() after the loop. NoTrace makes each
 * call empty, so the plain kernel compiles to the chapter's code and nothing
 * more; DumpTrace records what the trace needs. One source, two kernels:
 * what is shown is what runs.
 *
 * Under the hood, why the dump is so small: after each round a thread stores
 * only its own pout cell (just written, behind the barrier, so a value and no
 * race), into a device buffer; which of its two cells hold a value it keeps
 * in a register and stores once at the end. At n = 1024 the block is 32 warps
 * on one SM, so every instruction added per thread and round costs about
 * 11 rounds x 32 warps / 4 schedulers = 88 cycles: dumping both buffers made
 * the kernel 18-24% slower on the H200, against a target of 15%
 * (docs/gpu-runs.md). pin is unchanged by a round (the double buffer;
 * racecheck finds no hazard), so the host rebuilds it from the round before,
 * and sv_trace_check() still catches a kernel whose pout breaks the window
 * invariant. */
#ifndef SV_TRACE_HOOKS_CUH
#define SV_TRACE_HOOKS_CUH

#include <cstdint>

namespace sv {

/* Where the instrumented kernel writes, in device memory. */
template <typename T>
struct TraceBuffers {
    T *pout;           /* [round * n + i]: pout[i] after the round (round 0: buf[0][i]) */
    uint32_t *written; /* [i]: after round r of R, buf[b][i] written is bit
                          2 * (R - 1 - r) + b (the last round in the low bits) */
};

/* The plain kernel: every hook is empty. */
template <typename T>
struct NoTrace {
    using Buffers = TraceBuffers<T>;
    __device__ NoTrace(Buffers, int) {}
    __device__ void round(const T *, int, int) {}
    __device__ void end() {}
};

/* The instrumented kernel. A cell not yet written (all of buf[1] after
 * staging) is never read: uninitialized shared memory is not a value, and
 * the written flags say so. */
template <typename T>
struct DumpTrace {
    using Buffers = TraceBuffers<T>;
    T *dump;              /* where this thread's next pout cell goes */
    uint32_t *written_at; /* this thread's written history */
    unsigned written = 0; /* bit b set once buf[b][i] holds a value */
    uint32_t history = 0; /* every round's written bits, two per round */

    __device__ DumpTrace(Buffers b, int i) : dump(b.pout + i), written_at(b.written + i) {}

    /* After staging and after each round's barrier: cell is this thread's
     * cell of buffer pout, which it has just written. */
    __device__ void round(const T *cell, int pout, int n)
    {
        written |= 1u << pout;
        history = (history << 2) | written;
        *dump = *cell;
        dump += n;
    }

    __device__ void end() { *written_at = history; }
};

} // namespace sv

#endif
