/* What the command-line mains (scanviz, scanviz-trace, scanviz-bench) share:
 * one way to print an error, to parse a bounded number and to check standard
 * output at exit, so the three programs word and behave alike.
 *
 *     #define report(st, ...) sv_report("scanviz-trace", (st), NULL, __VA_ARGS__)
 *     return report(EXIT_USAGE, "--op \"%s\" (argument %d): ...", arg, argi);
 *
 * Messages are escaped (core/escape.h) before they reach the terminal: they
 * quote argv and file text. */
#ifndef SV_ARGS_H
#define SV_ARGS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Prints "PROG: MESSAGE" to stderr, escaped, then hint on a line of its own
 * when hint is not NULL. Returns status, so a main can `return sv_report(...)`. */
int sv_report(const char *prog, int status, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int sv_vreport(const char *prog, int status, const char *hint, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* A whole decimal number lo <= v <= hi, nothing before or after it.
 * Returns false (and leaves *out) otherwise. */
bool sv_parse_long(const char *s, long lo, long hi, long *out);

/* The mistakes lab's run options, read alike by scanviz and scanviz-trace:
 * --runs R (1 .. 100000), --shake, --shake-seed S (1 .. 2^64-1; implies
 * --shake). Numbers are digits alone (no sign, no hex, no spaces). Put
 * SV_LAB_RUN_OPTIONS(first) in the getopt_long table, with first, first + 1
 * and first + 2 free option codes, and hand each of them, by its long name,
 * to sv_lab_set_option. */
typedef struct sv_lab_options {
    uint32_t runs;       /* --runs (0: the default, 100 for a mistake) */
    bool shake;          /* --shake or --shake-seed */
    uint64_t shake_seed; /* --shake-seed (0: the default, 1) */
} sv_lab_options;

#define SV_LAB_RUN_OPTIONS(first)                                                  \
    { "runs", required_argument, NULL, (first) },                                  \
    { "shake", no_argument, NULL, (first) + 1 },                                   \
    { "shake-seed", required_argument, NULL, (first) + 2 }

/* Sets the option named name ("runs", "shake", "shake-seed") from arg, the
 * value at argv index argi. False (and o left) with err naming the flag, the
 * value and argi. */
bool sv_lab_set_option(sv_lab_options *o, const char *name, const char *arg, int argi,
                       char *err, size_t errlen);

/* Standard output is checked like a file at exit: a full disk or a closed
 * pipe prints "PROG: stdout: reason" and returns fail_status when rc is 0
 * (else rc), instead of losing what was printed. Otherwise returns rc. */
int sv_stdout_status(const char *prog, int rc, int fail_status);

#ifdef __cplusplus
}
#endif

#endif
