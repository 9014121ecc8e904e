/* The command-line mains' shared plumbing: see args.h. */
#include "args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "escape.h"
#include "fileio.h"

int sv_vreport(const char *prog, int status, const char *hint, const char *fmt, va_list ap)
{
    char msg[2048], esc[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "%s: %s\n", prog, sv_escape(msg, esc, sizeof esc));
    if (hint)
        fprintf(stderr, "%s\n", hint);
    return status;
}

int sv_report(const char *prog, int status, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sv_vreport(prog, status, hint, fmt, ap);
    va_end(ap);
    return status;
}

int sv_args_take_common(sv_input *in, sv_lab_options *lab, const sv_opt_arg *a, char *err,
                        size_t errlen)
{
    switch (a->id) {
    case SV_OPTION_INPUT: case SV_OPTION_FILE: case SV_OPTION_RANDOM: case SV_OPTION_SEED:
        return sv_input_set_option(in, a->opt->name, a->text, a->argi, err, errlen);
    case SV_OPTION_NONE:
        if (strcmp(a->text, "-") != 0)
            return -1;
        return sv_input_set_stdin(in, a->argi, err, errlen);
    case SV_OPTION_RUNS:
        lab->runs = (uint32_t)a->u; /* 1 .. SV_LAB_MAX_RUNS: the table checked it */
        return 1;
    case SV_OPTION_SHAKE_SEED:
        lab->shake_seed = a->u;
        lab->shake = true;
        return 1;
    case SV_OPTION_SHAKE:
        lab->shake = true;
        return 1;
    default:
        return -1;
    }
}

int sv_stdout_status(const char *prog, int rc, int fail_status)
{
    char err[256];
    if (sv_stdout_check(err, sizeof err))
        return rc;
    sv_report(prog, fail_status, NULL, "%s", err);
    return rc ? rc : fail_status;
}
