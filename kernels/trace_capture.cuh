/* Private to trace_capture.cu and capture_cost.cu: the capture context (the
 * buffers every capture of the process reuses), the layout of what one
 * launch brings back, and the chapter's kernel's two launches. */
#ifndef SV_TRACE_CAPTURE_CUH
#define SV_TRACE_CAPTURE_CUH

#include "scan_cuda.h"

#include <cuda_runtime.h>
#include <cstddef>
#include <mutex>

namespace sv {

/* Launches kernel k (plain, or instrumented when traced) for op on type;
 * false when the pair is not defined (xor on float32), in which case
 * nothing was launched. result: the result region (the instrumented
 * kernel's trace goes there); ignored by the plain kernel. */
typedef bool (*KernelLaunch)(sv_op op, sv_type type, const void *in, void *out, int n,
                             bool exclusive, unsigned char *result, cudaStream_t s);

/* The chapter's kernel (kernels/hillis_steele.cu), plain and instrumented:
 * the only kernel capture runs here (the mistakes lab has its own launches,
 * lab_runs.cu). */
struct KernelEntry {
    KernelLaunch plain, traced;
};
const KernelEntry &chapter_kernel();

int rounds_for(int n);

/* Byte offsets of the instrumented kernel's output in the result region,
 * for n cells and R rounds, copied back together:
 * [output: n words][written: n words][pout: R x n words]. */
struct Layout {
    size_t out, written, pout, bytes;
};
Layout layout_for(int n);

/* Buffers reused by every capture of the process, sized for SV_MAX_N; the
 * lock makes captures from several threads take turns. They live until the
 * process exits (a CUDA context is torn down with it). The result region is
 * packed for the n at hand (Layout) so that one copy brings everything back. */
struct Context {
    std::mutex lock;
    bool ready = false;
    int device = -1;
    int max_threads = 0;
    cudaStream_t stream = nullptr;
    void *d_in = nullptr;
    unsigned char *d_result = nullptr;
    unsigned char *h_in = nullptr;     /* pinned */
    unsigned char *h_result = nullptr; /* pinned */
};

Context &context();

/* With the lock held: allocates the context once, then checks that this
 * device's block takes n threads (the kernel scans one block). */
bool context_ready(Context &c, size_t n, char *err, size_t errlen);

/* With the lock held, n checked: uploads in[0..n), runs kernel k
 * instrumented, copies output, flags and pout trace back into h_result,
 * synchronizes. */
bool capture_raw(Context &c, const KernelEntry &k, sv_op op, sv_type type, bool exclusive,
                 const void *in, int n, char *err, size_t errlen);

} // namespace sv

#endif
