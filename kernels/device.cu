/* Whether a CUDA device is usable, and what it is: sv_cuda_probe() of
 * scan_cuda.h. "No GPU" is an ordinary answer with a reason, not an error:
 * without a driver the runtime's first call returns cudaErrorInsufficientDriver. */
#include "scan_cuda.h"
#include "cuda_check.cuh"

#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

extern "C" bool sv_cuda_probe(sv_cuda_device *dev, char *why, size_t whylen)
{
    char *err = why;        /* SV_CUDA_CHECK reports into err/errlen */
    size_t errlen = whylen;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e == cudaErrorInsufficientDriver) {
        std::snprintf(why, whylen, "no CUDA driver (%s)", cudaGetErrorString(e));
        return false;
    }
    if (e == cudaErrorNoDevice || (e == cudaSuccess && count == 0)) {
        std::snprintf(why, whylen, "no CUDA device");
        return false;
    }
    if (e != cudaSuccess) {
        std::snprintf(why, whylen, "%s", cudaGetErrorString(e));
        return false;
    }

    /* The current device: 0 unless the program chose another
     * (CUDA_VISIBLE_DEVICES picks which GPU that is). */
    int d = 0;
    SV_CUDA_CHECK(cudaGetDevice(&d));
    cudaDeviceProp p;
    SV_CUDA_CHECK(cudaGetDeviceProperties(&p, d));
    if (dev) {
        std::memset(dev, 0, sizeof *dev);
        std::snprintf(dev->name, sizeof dev->name, "%s", p.name);
        dev->max_threads_per_block = p.maxThreadsPerBlock;
        dev->cc_major = p.major;
        dev->cc_minor = p.minor;
        dev->sm_count = p.multiProcessorCount;
    }
    if (why && whylen)
        why[0] = '\0';
    return true;
}
