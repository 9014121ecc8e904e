/* kernels/blelloch.cu on the CPU runtime (its shipped build), one lockstep
 * run, for the tests that hold something against it (tests/runtime,
 * tests/gpu, tests/render). Header-only. */
#ifndef SV_TEST_BLELLOCH_REQUEST_H
#define SV_TEST_BLELLOCH_REQUEST_H

#include <string.h>

#include "../../src/runtime/runtime.h"

/* The trace of one run on in[0..n), NULL with err filled. */
static inline sv_ktrace *blelloch_cpu_run(sv_op op, sv_type type, sv_scan scan,
                                          const sv_value *in, size_t n, char *err, size_t errlen)
{
    const sv_runtime_request req = {
        .builtin = "kernels/blelloch.cu", .op = op, .type = type, .scan = scan, .input = in,
        .n = n, .backend = SV_RUNTIME_CPU, .runs = 1, .schedule = {.kind = SV_SCHEDULE_LOCKSTEP},
    };
    return sv_runtime_run(&req, err, errlen);
}

#endif
