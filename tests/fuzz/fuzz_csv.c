/* libFuzzer harness: the benchmark CSV reader (sv_bench_table_parse).
 * Property: a table it accepts writes (sv_bench_table_write) to CSV that it
 * accepts again, and writing that gives the same bytes (the writer rounds
 * to fixed decimals once; after that the round trip is exact).
 * Build and run: tests/fuzz/run.sh csv SECONDS (docs/reliability.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "bench_csv.h"

FUZZ_WRITER(to_csv, sv_bench_table, sv_bench_table_write)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    err[0] = '\0';
    sv_bench_table *t = sv_bench_table_parse(text, err, sizeof err);
    free(text);
    if (!t) {
        fuzz_refused(err);
        return 0;
    }
    size_t l1, l2, l3;
    char *c1 = to_csv(t, &l1);
    sv_bench_table *u = sv_bench_table_parse(c1, err, sizeof err);
    if (!u) {
        fprintf(stderr, "an accepted table, written, is refused: %s\n%s\n", err, c1);
        abort();
    }
    if (u->nrows != t->nrows)
        abort();
    char *c2 = to_csv(u, &l2);
    sv_bench_table *v = sv_bench_table_parse(c2, err, sizeof err);
    if (!v)
        abort();
    char *c3 = to_csv(v, &l3);
    if (l2 != l3 || memcmp(c2, c3, l2) != 0) {
        fprintf(stderr, "writing the table again gives other bytes:\n%s\n---\n%s\n", c2, c3);
        abort();
    }
    free(c1);
    free(c2);
    free(c3);
    sv_bench_table_destroy(t);
    sv_bench_table_destroy(u);
    sv_bench_table_destroy(v);
    return 0;
}
