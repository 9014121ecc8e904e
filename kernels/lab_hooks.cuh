/* The mistakes lab's hooks for the kernels of hillis_steele.cu and
 * mistakes/ (the same Trace interface as trace_hooks.cuh): LabTrace records
 * each thread's pout cell after staging and after every round, like
 * DumpTrace, into the slot of one run, and with shake on it then sleeps a
 * seeded random time per warp. trace.round() is the last thing a thread does
 * in a round, so the sleep falls before the next round's reads: the place
 * where a warp that runs ahead, or lags, exposes a race the lockstep of a
 * warp's SV_WARP_SIZE lanes hides. Written flags are not dumped: which cells
 * a thread writes depends only on the kernel's guard and else
 * (sv_kernel_writes() in core), so the host derives them. */
#ifndef SV_LAB_HOOKS_CUH
#define SV_LAB_HOOKS_CUH

#include <cstdint>

#include "../src/core/lab_schedule.h" /* SV_WARP_SIZE */

namespace sv {

template <typename T>
struct LabBuffers {
    T *pout;             /* this run's slot: [round * n + i] */
    unsigned long long seed; /* shake seed */
    unsigned run;        /* run index, mixed into the shake */
    unsigned shake_ns;   /* 0: no shake; else the largest sleep, in ns */
};

__device__ inline unsigned lab_mix(unsigned long long x)
{
    /* splitmix64's finalizer: every input bit reaches every output bit. */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27; x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (unsigned)x;
}

template <typename T>
struct LabTrace {
    using Buffers = LabBuffers<T>;
    T *dump;
    Buffers b;
    unsigned warp;
    unsigned round_no = 0;

    __device__ LabTrace(Buffers bb, int i) : dump(bb.pout + i), b(bb), warp((unsigned)i / SV_WARP_SIZE) {}

    __device__ void round(const T *cell, int, int n)
    {
        *dump = *cell;
        dump += n;
        if (b.shake_ns) {
            /* The same delay for every lane of a warp (the warp stays
             * converged), a different one per warp, round and run. */
            unsigned long long key = b.seed * 0x9e3779b97f4a7c15ull + ((unsigned long long)b.run << 32) +
                                     ((unsigned long long)warp << 16) + round_no;
            __nanosleep(lab_mix(key) % b.shake_ns);
        }
        ++round_no;
    }

    __device__ void end() {}
};

} // namespace sv

#endif
