/* libFuzzer harness: the value parser (sv_parse_values through
 * sv_input_parse_text, as --input, --file, stdin and the input box use it),
 * int32 and float32, and the escaper (sv_escape).
 * Properties: accepted values, formatted (sv_value_format) and parsed
 * again, give the same bits; a refusal has a message; an escaped string is
 * valid UTF-8 without control characters (sv_text_is_safe).
 * Build and run: tests/fuzz/run.sh values SECONDS (docs/reliability.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "escape.h"
#include "input.h"
#include "op.h"

static void round_trip(const uint8_t *data, size_t size, sv_type type)
{
    char err[512];
    sv_value *v = NULL, *w = NULL;
    size_t n = 0, m = 0;
    err[0] = '\0';
    if (sv_input_parse_text((const char *)data, size, type, &v, &n, err, sizeof err) !=
        SV_INPUT_OK) {
        fuzz_refused(err);
        return;
    }
    if (n == 0 || n > SV_MAX_N)
        abort();
    char *text = malloc(n * 48 + 1);
    if (!text)
        abort();
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        char buf[48];
        sv_value_format(type, v[i], buf, sizeof buf);
        at += (size_t)sprintf(text + at, "%s%s", i ? " " : "", buf);
    }
    if (sv_input_parse_text(text, at, type, &w, &m, err, sizeof err) != SV_INPUT_OK) {
        fprintf(stderr, "formatted values are refused: %s\n%s\n", err, text);
        abort();
    }
    if (m != n)
        abort();
    for (size_t i = 0; i < n; i++)
        if (v[i].bits != w[i].bits) {
            fprintf(stderr, "value %zu: bits %08x read back as %08x\n", i, (unsigned)v[i].bits,
                    (unsigned)w[i].bits);
            abort();
        }
    free(text);
    free(v);
    free(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    round_trip(data, size, SV_TYPE_INT32);
    round_trip(data, size, SV_TYPE_FLOAT32);

    char out[4096];
    sv_escape_n((const char *)data, size, out, sizeof out);
    if (strlen(out) >= sizeof out || !sv_text_is_safe(out)) {
        fprintf(stderr, "escaped text is not safe: %s\n", out);
        abort();
    }
    return 0;
}
