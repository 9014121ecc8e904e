/* sv_input (input.h): the options layer both programs share. */
#include "input.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "error.h"
#include "escape.h"
#include "fileio.h"
#include "names.h"
#include "parse.h"

const char *const sv_input_presets[SV_INPUT_PRESETS] = {
    SV_CHAPTER_EXAMPLE,
    "1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1",
    "2 7 1 8 2 8 1 8 2 8 4 5 9",
};

void sv_input_init(sv_input *in)
{
    memset(in, 0, sizeof *in);
    in->kind = SV_INPUT_EXAMPLE;
    in->seed = 1;
    in->max_n = SV_MAX_N;
}

/* A whole decimal number in [lo, hi]: digits only (no sign, no hex, no
 * spaces). *above says whether it was a number above hi. */
static bool parse_count(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, bool *above)
{
    *above = false;
    if (!s || *s == '\0')
        return false;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE || *end != '\0') {
        *above = errno == ERANGE;
        return false;
    }
    if (v < lo || v > hi) {
        *above = v > hi;
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

/* Counts a source; the first one given is the input (sv_input_validate
 * refuses a second). Returns whether this one is the first. */
static bool add_source(sv_input *in, sv_input_kind kind, const char *flag, int argi)
{
    if (in->sources++ > 0)
        return false;
    in->kind = kind;
    in->first = flag;
    in->first_arg = argi;
    return true;
}

/* --input, --file and - take any value (the read checks it): no error. */
bool sv_input_set_text(sv_input *in, const char *value, int argi, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    if (add_source(in, SV_INPUT_TEXT, "--input", argi))
        in->text = value;
    return true;
}

bool sv_input_set_file(sv_input *in, const char *value, int argi, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    if (add_source(in, SV_INPUT_FILE, "--file", argi))
        in->path = value;
    return true;
}

bool sv_input_set_stdin(sv_input *in, int argi, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    add_source(in, SV_INPUT_STDIN, "-", argi);
    return true;
}

bool sv_input_set_random(sv_input *in, const char *value, int argi, char *err, size_t errlen)
{
    uint64_t v;
    bool above;
    const size_t max = in->max_n > SV_MAX_N ? in->max_n : SV_MAX_N;
    if (!parse_count(value, 1, max, &v, &above)) {
        char tok[SV_SHOWN_TOKEN];
        sv_escape_clip(value, SV_SHOWN_MAX, tok, sizeof tok);
        if (above && max > SV_MAX_N)
            sv_errorf(err, errlen, "--random \"%s\" (argument %d): n = %s is above the limit "
                      "of a kernel file's launches on the CPU runtime: at most %zu elements",
                      tok, argi, tok, max);
        else if (above)
            sv_errorf(err, errlen, "--random \"%s\" (argument %d): n = %s is above the block "
                      "limit: a single-block scan takes at most %d elements", tok, argi, tok,
                      SV_MAX_N);
        else
            sv_errorf(err, errlen, "--random \"%s\" (argument %d): expected a whole number "
                      "from 1 to %zu", tok, argi, max);
        return false;
    }
    if (add_source(in, SV_INPUT_RANDOM, "--random", argi))
        in->random_n = (size_t)v;
    return true;
}

bool sv_input_set_seed(sv_input *in, const char *value, int argi, char *err, size_t errlen)
{
    uint64_t v;
    bool above;
    if (!parse_count(value, 0, SV_SEED_MAX, &v, &above)) {
        char tok[SV_SHOWN_TOKEN];
        sv_escape_clip(value, SV_SHOWN_MAX, tok, sizeof tok);
        sv_errorf(err, errlen, "--seed \"%s\" (argument %d): expected a whole decimal number "
                  "from 0 to %" PRIu64, tok, argi, (uint64_t)SV_SEED_MAX);
        return false;
    }
    in->seed = v;
    in->have_seed = true;
    in->seed_arg = argi;
    return true;
}

bool sv_input_set_option(sv_input *in, const char *name, const char *value, int argi,
                         char *err, size_t errlen)
{
    static const struct {
        const char *name;
        bool (*set)(sv_input *, const char *, int, char *, size_t);
    } flags[] = {
        { "input", sv_input_set_text },
        { "file", sv_input_set_file },
        { "random", sv_input_set_random },
        { "seed", sv_input_set_seed },
    };
    int i = SV_NAME_INDEX(name, flags, sizeof flags / sizeof flags[0]);
    if (i >= 0)
        return flags[i].set(in, value, argi, err, errlen);
    sv_errorf(err, errlen, "--%s: not an input flag", name);
    return false;
}

bool sv_input_validate(const sv_input *in, char *err, size_t errlen)
{
    if (in->sources > 1) {
        sv_errorf(err, errlen, "give one input: %s (argument %d) and another source were both "
                  "given (one of --input, --file, -, --random)", in->first, in->first_arg);
        return false;
    }
    if (in->have_seed && in->kind != SV_INPUT_RANDOM) {
        sv_errorf(err, errlen, "--seed (argument %d) applies to --random only", in->seed_arg);
        return false;
    }
    return true;
}

const char *sv_input_name(const sv_input *in)
{
    switch (in->kind) {
    case SV_INPUT_TEXT: return "--input";
    case SV_INPUT_FILE: return in->path;
    case SV_INPUT_STDIN: return "stdin";
    case SV_INPUT_RANDOM: return "--random";
    case SV_INPUT_EXAMPLE: break;
    }
    return "the chapter's example";
}

/* Up to max_n values in at most limit bytes. */
static sv_input_status parse_text(const char *text, size_t len, sv_type type, size_t max_n,
                                  size_t limit, sv_value **vals, size_t *n, char *err,
                                  size_t errlen)
{
    *vals = NULL;
    *n = 0;
    if (len > limit) {
        sv_errorf(err, errlen, "%zu bytes: longer than the limit of %zu MiB for values", len,
                  limit >> 20);
        return SV_INPUT_BAD;
    }
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        sv_errorf(err, errlen, "a NUL byte at byte %zu: values are text", (size_t)(nul - text) + 1);
        return SV_INPUT_BAD;
    }
    /* text[0..len) need not be NUL-terminated (a paste, a fuzzer's bytes). */
    char *copy = malloc(len + 1);
    if (!copy) {
        sv_errorf(err, errlen, "out of memory reading %zu bytes of values", len);
        return SV_INPUT_FAILED;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    bool ok = sv_parse_values(copy, type, max_n, vals, n, err, errlen);
    free(copy);
    return ok ? SV_INPUT_OK : SV_INPUT_BAD;
}

sv_input_status sv_input_parse_text(const char *text, size_t len, sv_type type,
                                    sv_value **vals, size_t *n, char *err, size_t errlen)
{
    return parse_text(text, len, type, SV_MAX_N, SV_LIMIT_VALUES, vals, n, err, errlen);
}

sv_input_status sv_input_read(const sv_input *in, sv_op op, sv_type type, sv_value **vals,
                              size_t *n, char *err, size_t errlen)
{
    char why[512];
    *vals = NULL;
    *n = 0;
    if (in->kind == SV_INPUT_RANDOM) {
        if (!(*vals = sv_random_values(op, type, in->random_n, in->seed))) {
            sv_errorf(err, errlen, "--random %zu: out of memory", in->random_n);
            return SV_INPUT_FAILED;
        }
        *n = in->random_n;
        return SV_INPUT_OK;
    }
    const char *text = in->kind == SV_INPUT_TEXT ? in->text : SV_CHAPTER_EXAMPLE;
    /* a host function's file takes up to SV_MAX_N_BLOCKS values, in a
     * larger file */
    size_t max_n = in->max_n > SV_MAX_N ? in->max_n : SV_MAX_N;
    size_t limit = max_n > SV_MAX_N ? SV_LIMIT_VALUES_BLOCKS : SV_LIMIT_VALUES;
    char *owned = NULL;
    size_t len;
    if (in->kind == SV_INPUT_FILE || in->kind == SV_INPUT_STDIN) {
        /* The reader's message names the file (or stdin) itself. */
        owned = sv_read_bounded(in->kind == SV_INPUT_FILE ? in->path : "-", limit,
                                "values", &len, err, errlen);
        if (!owned)
            return SV_INPUT_BAD;
        text = owned;
    } else {
        len = strlen(text);
    }
    sv_input_status st = parse_text(text, len, type, max_n, limit, vals, n, why, sizeof why);
    free(owned);
    if (st != SV_INPUT_OK)
        sv_errorf(err, errlen, "%s: %s", sv_input_name(in), why);
    return st;
}
