/* The GPU backend's calls in a build without its file (src/runtime/gpu_*.c):
 * it says so, as a failure of kind UNAVAILABLE. */
#include "backend.h"

#include <string.h>

#include "../core/error.h"

bool sv_rt_gpu_available(char *why, size_t whylen)
{
    sv_errorf(why, whylen, "this build of scanviz has no GPU runtime for kernel files");
    return false;
}

bool sv_rt_gpu_probe(sv_runtime_gpu_device *d, char *why, size_t whylen)
{
    memset(d, 0, sizeof *d);
    return sv_rt_gpu_available(why, whylen);
}

bool sv_rt_gpu_run(const sv_runtime_request *req, sv_ktrace *t, char *err, size_t errlen)
{
    (void)req;
    char why[256];
    sv_rt_gpu_available(why, sizeof why);
    return sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE, why, 0, -1, err, errlen);
}
