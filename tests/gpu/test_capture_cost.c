/* What instrumenting and capturing cost on the GPU (sv_cuda_capture_cost):
 * medians of the plain kernel, the instrumented kernel and a whole capture for
 * a few n, printed against the targets (instrumented at most 15% slower than
 * plain; a whole capture under 25 us for n <= 1024). The figures are reported,
 * not asserted beyond sanity: timings on a shared machine vary.
 * Exits 77 (skipped) without a usable GPU. */
#include <stdio.h>

#include "sv_config.h"
#include "capture.h"
#if SV_HAVE_CUDA
#include "../../kernels/scan_cuda.h"
#endif

int main(void)
{
    char device[256], why[256];
    if (!sv_capture_cuda_available(device, sizeof device, NULL, why, sizeof why)) {
        printf("skipped: %s\n", why);
        return 77;
    }
#if SV_HAVE_CUDA
    static const size_t sizes[] = {8, 256, 1024};
    int failures = 0;
    printf("%s, int32 sum, medians of 200 runs\n", device);
    printf("%6s %10s %15s %8s %12s\n", "n", "plain us", "instrumented us", "ratio",
           "capture us");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        double plain = 0, instr = 0, whole = 0;
        char err[512];
        if (!sv_cuda_capture_cost(sizes[k], 200, &plain, &instr, &whole, err, sizeof err)) {
            fprintf(stderr, "%s:%d: n = %zu: %s\n", __FILE__, __LINE__, sizes[k], err);
            failures++;
            continue;
        }
        printf("%6zu %10.2f %15.2f %8.3f %12.2f  %s%s\n", sizes[k], plain, instr, instr / plain,
               whole, instr <= 1.15 * plain ? "" : "[instrumented > 1.15 x plain] ",
               whole < 25.0 ? "" : "[capture >= 25 us]");
        if (!(plain > 0 && instr > 0 && whole >= instr * 0.5)) {
            fprintf(stderr, "%s:%d: n = %zu: implausible figures\n", __FILE__, __LINE__,
                    sizes[k]);
            failures++;
        }
    }
    char err[512];
    double a, b, c;
    if (sv_cuda_capture_cost(0, 3, &a, &b, &c, err, sizeof err) ||
        sv_cuda_capture_cost(SV_MAX_N + 1, 3, &a, &b, &c, err, sizeof err) ||
        sv_cuda_capture_cost(8, 0, &a, &b, &c, err, sizeof err)) {
        fprintf(stderr, "%s:%d: bad arguments accepted\n", __FILE__, __LINE__);
        failures++;
    }
    return failures ? 1 : 0;
#else
    return 77;
#endif
}
