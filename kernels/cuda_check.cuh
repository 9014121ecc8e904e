/* The one CUDA error check of kernels/: every runtime call and every launch
 * goes through SV_CUDA_CHECK, which turns a failure into a false return with
 * "file:line: call: CUDA error string" in the caller's err (never prints). */
#ifndef SV_CUDA_CHECK_CUH
#define SV_CUDA_CHECK_CUH

#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

namespace sv {

/* Fills err with where and why a CUDA call failed; returns e == cudaSuccess. */
inline bool cuda_ok(cudaError_t e, const char *what, const char *file, int line,
                    char *err, size_t errlen)
{
    if (e == cudaSuccess)
        return true;
    const char *base = std::strrchr(file, '/');
    if (err && errlen)
        std::snprintf(err, errlen, "%s:%d: %s: %s", base ? base + 1 : file, line, what,
                      cudaGetErrorString(e));
    return false;
}

} // namespace sv

/* Needs `err` and `errlen` in scope; returns false from the enclosing
 * function on failure. Resources are held by RAII guards (or are the cached
 * context's), so an early return leaks nothing. */
#define SV_CUDA_CHECK(call)                                                          \
    do {                                                                             \
        if (!sv::cuda_ok((call), #call, __FILE__, __LINE__, err, errlen))            \
            return false;                                                            \
    } while (0)

/* After every launch: launch errors (bad configuration, no kernel image for
 * this GPU) are reported here, not by the launch itself. */
#define SV_CUDA_CHECK_LAUNCH() SV_CUDA_CHECK(cudaGetLastError())

#endif
