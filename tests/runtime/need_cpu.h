/* What a test of kernel files on the CPU runtime does first: the runtime
 * needs a C++ compiler; without one the test exits with code (77: meson
 * counts it skipped; 1 for a test that must run), naming why. */
#ifndef SV_TEST_NEED_CPU_H
#define SV_TEST_NEED_CPU_H

#include <stdio.h>
#include <stdlib.h>

#include "runtime.h"

static inline void need_cpu_runtime(int code)
{
    char why[256];
    if (sv_runtime_available(SV_RUNTIME_CPU, why, sizeof why))
        return;
    fprintf(stderr, "%s: no CPU runtime: %s\n", code == 77 ? "skip" : "FAIL", why);
    exit(code);
}

#endif
