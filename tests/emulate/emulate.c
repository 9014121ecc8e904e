/* The CPU emulator of the chapter's kernel, round by round in lockstep: the
 * tests' reference (emulate.h). It fills buffers and flags only; the test
 * finishes the trace. */
#include "emulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sv_emulate(sv_trace *t, char *err, size_t errlen)
{
    size_t n = t->n;
    /* The kernel's shared memory: two buffers of n cells, and whether each
     * cell has been written yet (buf[1] starts uninitialized). */
    sv_value *buf[2] = {calloc(n, sizeof(sv_value)), calloc(n, sizeof(sv_value))};
    bool *written[2] = {calloc(n, sizeof(bool)), calloc(n, sizeof(bool))};
    bool ok = false;
    if (!buf[0] || !buf[1] || !written[0] || !written[1]) {
        snprintf(err, errlen, "out of memory emulating a scan of %zu values", n);
        goto fail_free;
    }

    /* Round 0: thread i stages input[i] into buf[0][i]. */
    for (size_t i = 0; i < n; i++) {
        buf[0][i] = t->input[i];
        written[0][i] = true;
    }
    int pin = 0, pout = 1;
    for (size_t r = 0; r < t->nrounds; r++) {
        if (r > 0) {
            size_t s = t->rounds[r].stride;
            /* Every thread reads pin and writes its own pout cell; the barrier
             * at the end of the round is the end of this loop. pout and pin
             * are distinct buffers, so the order of i does not matter. */
            for (size_t i = 0; i < n; i++) {
                buf[pout][i] = i >= s ? sv_op_apply(t->op, t->type, buf[pin][i - s], buf[pin][i], NULL)
                                      : buf[pin][i];
                written[pout][i] = true;
            }
        }
        /* Snapshot both buffers after the round (the instrumentation). */
        for (int b = 0; b < 2; b++) {
            memcpy(t->rounds[r].buf[b], buf[b], n * sizeof(sv_value));
            memcpy(t->rounds[r].written[b], written[b], n * sizeof(bool));
        }
        if (r > 0) {
            int tmp = pin; /* the swap: two scalar assignments, no barrier */
            pin = pout;
            pout = tmp;
        }
    }
    ok = true;
fail_free:
    for (int b = 0; b < 2; b++) {
        free(buf[b]);
        free(written[b]);
    }
    return ok;
}
