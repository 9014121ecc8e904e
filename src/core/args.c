/* The command-line mains' shared plumbing: see args.h. */
#include "args.h"

#include <errno.h>
#include <inttypes.h>
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

bool sv_parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* A whole decimal number lo <= v <= hi of digits alone. */
static bool parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v = 0;
    if (!s || !*s)
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

bool sv_lab_set_option(sv_lab_options *o, const char *name, const char *arg, int argi,
                       char *err, size_t errlen)
{
    uint64_t v;
    if (strcmp(name, "shake") == 0) {
        o->shake = true;
        return true;
    }
    bool runs = strcmp(name, "runs") == 0;
    uint64_t hi = runs ? 100000 : UINT64_MAX;
    if (!parse_u64(arg, 1, hi, &v)) {
        sv_errorf(err, errlen, "--%s \"%s\" (argument %d): expected a whole number from 1 to "
                  "%" PRIu64, name, arg ? arg : "", argi, hi);
        return false;
    }
    if (runs) {
        o->runs = (uint32_t)v;
    } else {
        o->shake_seed = v;
        o->shake = true;
    }
    return true;
}

int sv_stdout_status(const char *prog, int rc, int fail_status)
{
    char err[256];
    if (sv_stdout_check(err, sizeof err))
        return rc;
    sv_report(prog, fail_status, NULL, "%s", err);
    return rc ? rc : fail_status;
}
