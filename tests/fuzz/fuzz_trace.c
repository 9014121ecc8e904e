/* libFuzzer harness: the trace loader (sv_trace_parse).
 * Property: whatever it accepts writes back (sv_trace_write) and parses
 * again to the same trace, bit for bit, and writing that gives the same
 * bytes. Anything else it must refuse with a message, never crash.
 * Build and run: tests/fuzz/run.sh trace SECONDS (docs/reliability.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "trace.h"
#include "trace_file.h"

/* The re-read trace is the first, bit for bit, with its backend and device. */
static void same_trace(const sv_trace *t, const sv_trace *u)
{
    char diff[512] = "";
    if (!sv_trace_equal(t, u, diff, sizeof diff) || t->backend != u->backend ||
        (t->device == NULL) != (u->device == NULL) ||
        (t->device && strcmp(t->device, u->device) != 0)) {
        fprintf(stderr, "the trace read back differs: %s\n", diff);
        abort();
    }
}

FUZZ_ROUND_TRIP(sv_trace, sv_trace_parse, sv_trace_write, sv_trace_destroy, "trace", same_trace,
                true)
