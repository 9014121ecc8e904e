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
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.builtin = "kernels/blelloch.cu";
    req.op = op;
    req.type = type;
    req.scan = scan;
    req.input = in;
    req.n = n;
    req.backend = SV_RUNTIME_CPU;
    req.runs = 1;
    req.schedule.kind = SV_SCHEDULE_LOCKSTEP;
    return sv_runtime_run(&req, err, errlen);
}

#endif
