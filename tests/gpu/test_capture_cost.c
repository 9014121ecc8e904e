/* What instrumenting and capturing cost on the GPU (sv_cuda_capture_cost),
 * asserted against the capture's targets (docs/performance.md, "Capture
 * cost"): for each n <= 1024, the instrumented kernel is at most 15% slower
 * than the plain one, and a whole capture (upload, instrumented launch, one
 * copy back, synchronize) takes under 25 us. Each figure is a median of 200
 * runs; a target missed is measured again, up to three times, before it
 * fails (another process on the GPU's host can slow one measurement).
 * Also: bad arguments are refused. Exits 77 (skipped) without a usable GPU. */
#include <stdio.h>

#include "sv_config.h"
#include "capture.h"
#if SV_HAVE_CUDA
#include "../../kernels/scan_cuda.h"
#endif

#define RATIO_TARGET 1.15   /* instrumented / plain */
#define CAPTURE_TARGET_US 25.0
#define ATTEMPTS 3

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
    printf("%6s %7s %10s %15s %8s %12s\n", "n", "attempt", "plain us", "instrumented us",
           "ratio", "capture us");
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        bool met = false;
        for (int a = 1; a <= ATTEMPTS && !met; a++) {
            double plain = 0, instr = 0, whole = 0;
            char err[512];
            if (!sv_cuda_capture_cost(sizes[k], 200, &plain, &instr, &whole, err, sizeof err)) {
                fprintf(stderr, "%s:%d: n = %zu: %s\n", __FILE__, __LINE__, sizes[k], err);
                break;
            }
            printf("%6zu %7d %10.2f %15.2f %8.3f %12.2f\n", sizes[k], a, plain, instr,
                   instr / plain, whole);
            if (!(plain > 0 && instr > 0 && whole >= instr * 0.5)) {
                fprintf(stderr, "%s:%d: n = %zu: implausible figures\n", __FILE__, __LINE__,
                        sizes[k]);
                break;
            }
            met = instr <= RATIO_TARGET * plain && whole < CAPTURE_TARGET_US;
            if (!met && a == ATTEMPTS)
                fprintf(stderr, "%s:%d: n = %zu: %s%s in all %d attempts\n", __FILE__, __LINE__,
                        sizes[k], instr <= RATIO_TARGET * plain ? "" :
                        "instrumented more than 1.15 x plain ",
                        whole < CAPTURE_TARGET_US ? "" : "whole capture >= 25 us", ATTEMPTS);
        }
        failures += !met;
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
