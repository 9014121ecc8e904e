/* What the command-line mains (scanviz, scanviz-trace, scanviz-bench) share
 * beside the option table (options.h): one way to print an error, the rows
 * both viewers take alike, and the check of standard output at exit, so the
 * three programs word and behave alike.
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

#include "input.h"
#include "options.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The line every usage error ends with. */
#define SV_USAGE_HINT(prog) "(" prog " --help lists the options)"

/* Prints "PROG: MESSAGE" to stderr, escaped, then hint on a line of its own
 * when hint is not NULL. Returns status, so a main can `return sv_report(...)`. */
int sv_report(const char *prog, int status, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int sv_vreport(const char *prog, int status, const char *hint, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* The mistakes lab's run options, taken alike by scanviz and scanviz-trace:
 * --runs R, --shake, --shake-seed S (implies --shake); their ranges are the
 * option table's (options.def). */
typedef struct sv_lab_options {
    uint32_t runs;       /* --runs (0: the default, SV_LAB_DEFAULT_RUNS for a mistake) */
    bool shake;          /* --shake or --shake-seed */
    uint64_t shake_seed; /* --shake-seed (0: the default, 1) */
} sv_lab_options;

/* The rows both viewers handle alike, for their sv_options_parse callback:
 * the input (--input, --file, --random, --seed and the operand "-", into
 * in) and the lab's run options (into lab). Returns 1 when a was one of
 * them and taken, 0 when it was one and refused (err filled), -1 when it is
 * not one of them (the caller's own). */
int sv_args_take_common(sv_input *in, sv_lab_options *lab, const sv_opt_arg *a, char *err,
                        size_t errlen);

/* Standard output is checked like a file at exit: a full disk or a closed
 * pipe prints "PROG: stdout: reason" and returns fail_status when rc is 0
 * (else rc), instead of losing what was printed. Otherwise returns rc. */
int sv_stdout_status(const char *prog, int rc, int fail_status);

#ifdef __cplusplus
}
#endif

#endif
