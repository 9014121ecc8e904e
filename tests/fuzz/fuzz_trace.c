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

FUZZ_WRITER(to_json, sv_trace, sv_trace_write)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    sv_trace *t = sv_trace_parse(text, err, sizeof err);
    free(text);
    if (!t) {
        fuzz_refused(err);
        return 0;
    }
    size_t len1 = 0, len2 = 0;
    char *json1 = to_json(t, &len1);
    sv_trace *u = sv_trace_parse(json1, err, sizeof err);
    if (!u) {
        fprintf(stderr, "an accepted trace, written, is refused: %s\n%s\n", err, json1);
        abort();
    }
    char diff[512];
    if (!sv_trace_equal(t, u, diff, sizeof diff) || t->backend != u->backend ||
        (t->device == NULL) != (u->device == NULL) ||
        (t->device && strcmp(t->device, u->device) != 0)) {
        fprintf(stderr, "the trace read back differs: %s\n", diff);
        abort();
    }
    char *json2 = to_json(u, &len2);
    if (len1 != len2 || memcmp(json1, json2, len1) != 0) {
        fprintf(stderr, "writing the re-read trace gives other bytes\n");
        abort();
    }
    free(json1);
    free(json2);
    sv_trace_destroy(t);
    sv_trace_destroy(u);
    return 0;
}
