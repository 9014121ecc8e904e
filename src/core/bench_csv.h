/* Benchmark tables: the CSV that scanviz-bench --csv writes and the Measure
 * view reads. libc only.
 *
 * Format (docs/performance.md): '#' lines first carry metadata as
 * "# key: value" (gpu, cuda, date, command), then a header line
 *   algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps
 * then one row per algorithm and n. algo is copy|cub|hs|hs-naive|blelloch|cpu;
 * frac_of_copy and ratio_to_cub may be empty where copy or cub was not run. */
#ifndef SV_BENCH_CSV_H
#define SV_BENCH_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct sv_bench_row {
    char algo[16];
    char type[16];
    double n;
    double median_us;
    double gb_per_s;
    double frac_of_copy; /* NAN when absent */
    double ratio_to_cub; /* time / cub's time; NAN when absent */
    double ops;          /* operations performed */
    int reps;
} sv_bench_row;

typedef struct sv_bench_table {
    char gpu[128], cuda[32], date[32], command[256]; /* "" when absent */
    sv_bench_row *rows;
    size_t nrows;
} sv_bench_table;

/* Parses CSV text. Returns NULL with err naming the line, column and reason
 * on failure. The caller frees the result with sv_bench_table_destroy(). */
sv_bench_table *sv_bench_table_parse(const char *text, char *err, size_t errlen);
sv_bench_table *sv_bench_table_load(const char *path, char *err, size_t errlen);
void sv_bench_table_destroy(sv_bench_table *t); /* accepts NULL */

/* Writes the metadata lines, the header and the rows. */
bool sv_bench_table_write(const sv_bench_table *t, FILE *f, char *err, size_t errlen);

#endif
