/* Benchmark tables: the CSV that scanviz-bench --csv writes and the Measure
 * view reads. libc only.
 *
 * Format (docs/performance.md): '#' lines first carry metadata as
 * "# key: value" (gpu, cuda, date, command), then a header line
 *   algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps
 * then one row per algorithm and n. algo is a name of the registry (algo.h:
 * copy|cub|hs|hs-lookback|hs-naive|blelloch|cpu);
 * frac_of_copy and ratio_to_cub may be empty where copy or cub was not run.
 *
 * The reader: '#' lines are comments anywhere; "# key: value" with key gpu,
 * cuda, date or command fills that field, other keys are ignored. Blank
 * lines, CR before LF and spaces around fields are allowed. The header names
 * every column once, in any order. type is int32|float32; n and reps are
 * whole numbers >= 1; the other fields are plain decimals >= 0 (no nan, inf
 * or hex); frac_of_copy, ratio_to_cub and ops may be empty (read as NAN).
 * A table with a header and no rows is valid. */
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

/* Writes the non-empty metadata lines, the header and the rows: n, ops and
 * reps as integers, median_us with 3 decimals, gb_per_s 2, frac_of_copy and
 * ratio_to_cub 4; NAN is written as an empty field. Newlines in metadata
 * become spaces. What it writes, sv_bench_table_parse reads back. */
bool sv_bench_table_write(const sv_bench_table *t, FILE *f, char *err, size_t errlen);

/* One line naming where t was measured: "NVIDIA H200 · CUDA 13.0 ·
 * 2026-11-29 (shipped)" from its metadata and a note (NULL for none);
 * "unknown GPU" when the table has no gpu line, the note alone when t is
 * NULL. Always NUL-terminates out (when outlen > 0). */
void sv_bench_describe(const sv_bench_table *t, const char *note, char *out, size_t outlen);

/* The two halves of sv_bench_table_write, for a table written a row at a
 * time (scanviz-bench --progress-csv): the metadata lines and the header,
 * then each row. They return false on a write error; the caller flushes. */
bool sv_bench_table_write_head(const sv_bench_table *t, FILE *f);
bool sv_bench_row_write(const sv_bench_row *r, FILE *f);

#endif
