/* The limits and defaults that more than one file needs, each named once:
 * the option table (options.def) states them in --help, the man pages and
 * the range checks of every flag; the readers of trace files accept the
 * same ranges, so whatever a writer can write, its reader reads back. */
#ifndef SV_BOUNDS_H
#define SV_BOUNDS_H

#include <stdint.h>

/* The mistakes lab: --runs, and a lab trace's "runs". */
#define SV_LAB_MAX_RUNS 100000
#define SV_LAB_DEFAULT_RUNS 100      /* a mistake's runs on the GPU, or a seeded schedule's */
/* The schedule a mistake runs under on the CPU without --schedule, in
 * scanviz and scanviz-trace alike: one thread at a time, which shows every
 * race of the chapter's example in one run. */
#define SV_LAB_DEFAULT_SCHEDULE "sequential"

/* Seeds (--seed, --shake-seed, a schedule's :S): every 64-bit value. A lab
 * trace's reader takes a shake_seed above INT64_MAX too (lab_file.h). */
#define SV_SEED_MAX UINT64_MAX

/* Counts read from a compute-sanitizer report (errors, warnings) are kept
 * at most this (a JSON integer's largest value), so that a trace file
 * written from one reopens. */
#define SV_RACECHECK_MAX_COUNT INT64_MAX
/* A hazard's thread index and source line, as read from a report and from
 * a trace file (larger ones are kept as -1, unknown). */
#define SV_RACECHECK_MAX_THREAD (1 << 20)
#define SV_RACECHECK_MAX_LINE 999999

/* The window (scanviz): --scale and Ctrl +/-, --speed, --size. */
#define SV_UI_SCALE_MIN 0.5
#define SV_UI_SCALE_MAX 3.0
#define SV_SPEED_MIN 0.25
#define SV_SPEED_MAX 4.0
#define SV_VIEW_SIZE_MIN 16
#define SV_VIEW_SIZE_MAX 8192
#define SV_VIEW_DEFAULT_W 1280
#define SV_VIEW_DEFAULT_H 720
#define SV_BENCH_FRAMES_MAX 1000000

/* scanviz-trace --kernel-file's --time-limit, in seconds (the default is
 * the runtime's, SV_RUNTIME_DEFAULT_TIME_LIMIT_MS). */
#define SV_KERNEL_TIME_LIMIT_MIN 0.1
#define SV_KERNEL_TIME_LIMIT_MAX 600.0

/* scanviz-bench --reps. */
#define SV_BENCH_MAX_REPS 100000
#define SV_BENCH_DEFAULT_REPS 50

/* "100000" from SV_LAB_MAX_RUNS, for text built at compile time. */
#define SV_STR_(x) #x
#define SV_STR(x) SV_STR_(x)

#endif
