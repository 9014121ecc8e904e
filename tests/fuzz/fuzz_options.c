/* libFuzzer harness: the option table's parser (sv_options_parse), as all
 * three programs run it, on an argv made of the fuzzer's bytes (split at
 * NUL bytes; argv[0] is the program). The callback takes what both viewers
 * take alike (sv_args_take_common: the input and the lab's run options).
 * Properties: a refusal has a message that names an argument's index
 * within argv; an accepted value of a ranged row is within its range; the
 * indexes handed over are within argv.
 * Build and run: tests/fuzz/run.sh options SECONDS (docs/reliability.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "args.h"
#include "options.h"

typedef struct ctx {
    int argc;
    sv_input input;
    sv_lab_options lab;
} ctx;

static bool take(void *p, const sv_opt_arg *a, char *err, size_t errlen)
{
    ctx *c = p;
    if (a->argi < 1 || a->argi >= c->argc || a->flag_argi < 1 || a->flag_argi > a->argi)
        abort();
    if (a->opt) {
        const sv_option *o = a->opt;
        if (o->kind == SV_OPT_UINT && (a->u < o->lo || a->u > o->hi))
            abort();
        if (o->kind == SV_OPT_FLOAT && !(a->f >= o->flo && a->f <= o->fhi))
            abort();
        if (o->kind == SV_OPT_ENUM && !o->check && !o->values((unsigned)a->e))
            abort();
    }
    int common = sv_args_take_common(&c->input, &c->lab, a, err, errlen);
    if (common == 0)
        return false;
    if (common < 0 && a->id == SV_OPTION_NONE && strcmp(a->text, "keep") != 0)
        return sv_options_bad(a, err, errlen, "unexpected argument");
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    if (!text)
        return 0;
    char *argv[65] = { "prog" };
    int argc = 1;
    for (size_t at = 0; at <= size && argc < 64; at += strlen(text + at) + 1)
        argv[argc++] = text + at;
    argv[argc] = NULL;
    static const sv_program progs[] = { SV_FOR_VIEW, SV_FOR_TRACE, SV_FOR_BENCH };
    for (size_t k = 0; k < sizeof progs / sizeof progs[0]; k++) {
        ctx c = { .argc = argc };
        sv_input_init(&c.input);
        char err[2048];
        err[0] = '\0';
        if (!sv_options_parse(progs[k], argc, argv, take, &c, err, sizeof err)) {
            fuzz_refused(err);
            if (!strstr(err, "(argument "))
                abort(); /* every refusal names where */
        }
    }
    free(text);
    return 0;
}
