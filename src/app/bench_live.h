/* The Measure view's data: the table shipped inside the binary (measured on
 * the H200, assets/bench/h200.csv) and a live run of scanviz-bench.
 *
 * For the shell (app.c), suggested wiring:
 *   - At start: s->bench = sv_bench_shipped(err, len) (or sv_bench_table_load
 *     of --bench-csv FILE), and sv_bench_describe(s->bench, "shipped" or the
 *     file name, s->bench_source, sizeof s->bench_source) (core/bench_csv.h).
 *   - Key B in the Measure view: live = sv_bench_live_start(NULL, err, len);
 *     NULL means it could not start: show err (e.g. in s->status).
 *     Else s->bench_running = true.
 *   - Each frame while running: sv_bench_live_poll(live, &s->bench_progress,
 *     &table, err, len); on SV_BENCH_LIVE_DONE replace s->bench with table
 *     (describe it with "live"), on SV_BENCH_LIVE_FAILED show err (it says why:
 *     no GPU, no scanviz-bench, a wrong result); then sv_bench_live_destroy()
 *     and s->bench_running = false. sv_bench_live_message() is the line the
 *     benchmark printed last, for a label beside the progress bar.
 *   - Escape or leaving the view may cancel: sv_bench_live_destroy() stops
 *     the child. */
#ifndef SV_BENCH_LIVE_H
#define SV_BENCH_LIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/bench_csv.h"

/* The table embedded at build time from assets/bench/h200.csv. It may have
 * no rows (not measured yet): the view then says "no measurements". Returns
 * NULL with err filled only if the embedded text does not parse. */
sv_bench_table *sv_bench_shipped(char *err, size_t errlen);

/* The quick live run: scanviz-bench --progress-csv --sizes 2^10..2^24 --reps 10. */
#define SV_BENCH_LIVE_SIZES "2^10..2^24"
#define SV_BENCH_LIVE_NSIZES 15
#define SV_BENCH_LIVE_REPS "10"

typedef struct sv_bench_live sv_bench_live;

typedef enum sv_bench_live_status {
    SV_BENCH_LIVE_RUNNING,
    SV_BENCH_LIVE_DONE,   /* the table is handed over once */
    SV_BENCH_LIVE_FAILED  /* err says why */
} sv_bench_live_status;

/* Starts scanviz-bench as a child process with its output on a pipe. exe
 * NULL finds it: next to the running program (/proc/self/exe), then in the
 * build tree's ../cli/, then on PATH. Returns NULL with err filled when it
 * is not found or cannot start. Never blocks. */
sv_bench_live *sv_bench_live_start(const char *exe, char *err, size_t errlen);

/* Reads what the child printed so far, without blocking. progress (may be
 * NULL) gets 0 .. 1: the CSV rows seen over the rows planned (its "# rows: N"
 * line; without one, every algorithm of the registry at every live size).
 * On DONE *table is the run's table, owned by the caller (later polls give
 * DONE with *table NULL). On FAILED err holds the reason: the benchmark's
 * last line (it exits 3 without a GPU) or how it ended. */
sv_bench_live_status sv_bench_live_poll(sv_bench_live *b, float *progress,
                                        sv_bench_table **table, char *err, size_t errlen);

/* The last non-empty line the benchmark printed on either stream ("" before any). */
const char *sv_bench_live_message(const sv_bench_live *b);

/* Stops the child if it still runs (SIGTERM, then waits), removes the
 * temporary CSV and frees. Accepts NULL. */
void sv_bench_live_destroy(sv_bench_live *b);

#endif
