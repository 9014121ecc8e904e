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

/* The re-read table has the rows of the first (values may round). */
static void same_rows(const sv_bench_table *t, const sv_bench_table *u)
{
    if (u->nrows != t->nrows)
        abort();
}

FUZZ_ROUND_TRIP(sv_bench_table, sv_bench_table_parse, sv_bench_table_write,
                sv_bench_table_destroy, "table", same_rows, false)
