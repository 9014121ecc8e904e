/* The command-line options of the three programs, declared once in
 * options.def, and what is made from that table: the parser, every usage
 * message, --help, and (src/cli/options_gen.c, at build time) the man
 * pages' OPTIONS and the bash completion.
 *
 *     static bool on_option(void *ctx, const sv_opt_arg *a, char *err, size_t errlen)
 *     {
 *         options *o = ctx;
 *         switch (a->id) {
 *         case SV_OPTION_RUNS: o->runs = (uint32_t)a->u; return true;   // range checked
 *         case SV_OPTION_NONE: ...an operand, a->text at argv[a->argi]...
 *         ...
 *     }
 *     if (!sv_options_parse(SV_FOR_TRACE, argc, argv, on_option, &o, err, sizeof err))
 *         return usage_error("%s", err);
 *
 * Every message names the option, the value as given and its argv index:
 *     --runs "0" (argument 2): expected a whole decimal number from 1 to 100000
 * Library code: nothing here prints or exits. */
#ifndef SV_OPTIONS_H
#define SV_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bounds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which programs take a row. */
typedef enum sv_program {
    SV_FOR_VIEW = 1,  /* scanviz */
    SV_FOR_TRACE = 2, /* scanviz-trace */
    SV_FOR_BENCH = 4, /* scanviz-bench */
    SV_FOR_ALL = 7
} sv_program;

typedef enum sv_opt_kind {
    SV_OPT_FLAG,   /* no value */
    SV_OPT_UINT,   /* a whole decimal number lo .. hi (digits alone) -> u */
    SV_OPT_FLOAT,  /* a number flo .. fhi in strtod's syntax -> f */
    SV_OPT_ENUM,   /* one of values(0), values(1), ... -> e, its index; or, with
                      check, what check accepts (e = -1; aliases) */
    SV_OPT_LIST,   /* a comma list of the values (each checked) */
    SV_OPT_STRING, /* any text, or what check accepts */
    SV_OPT_FILE,   /* a path (completion: files ending in .complete, "" any) */
    SV_OPT_DIR,    /* a folder */
    SV_OPT_STDIN   /* the operand "-": documented here, parsed as an operand */
} sv_opt_kind;

/* The groups of --help and of the man pages' OPTIONS, in their order. */
typedef enum sv_opt_group {
    SV_GROUP_INPUT, SV_GROUP_SCAN, SV_GROUP_LAB, SV_GROUP_KERNEL, SV_GROUP_VIEW, SV_GROUP_SLIDES,
    SV_GROUP_HEADLESS, SV_GROUP_OUTPUT, SV_GROUP_BENCH, SV_GROUP_OTHER, SV_GROUP_COUNT
} sv_opt_group;

/* The rows' ids: SV_OPTION_INPUT, SV_OPTION_RUNS, ... (SV_OPTION_NONE: an
 * operand). */
typedef enum sv_opt_id {
    SV_OPTION_NONE = -1,
#define SV_OPTION(id, ...) SV_OPTION_##id,
#include "options.def"
#undef SV_OPTION
    SV_OPTION_COUNT
} sv_opt_id;

typedef struct sv_option {
    sv_opt_id id;
    const char *name;         /* the long name without "--" ("" for the "-" operand) */
    char short_name;          /* 'o', 'h', 'V', or 0 */
    sv_opt_kind kind;
    unsigned progs;           /* sv_program bits */
    sv_opt_group group;
    const char *arg;          /* the value's name in --help and man ("N", "FILE") */
    uint64_t lo, hi;          /* SV_OPT_UINT */
    const char *expect;       /* SV_OPT_UINT, FLOAT: what "expected ..." says in place
                                 of the range (its words, "a round number") */
    const char *above;        /* SV_OPT_UINT: the message for digits above hi, when
                                 the range needs saying why ({value}: the value) */
    double flo, fhi;          /* SV_OPT_FLOAT */
    const char *(*values)(unsigned i); /* ENUM, LIST: the i-th name, NULL past the last */
    const char *(*value_doc)(unsigned i); /* optional: the i-th value in words, listed
                                             under the man page's paragraph */
    bool (*check)(const char *value, char *why, size_t whylen); /* STRING: optional */
    const char *def;          /* the default, in words, for {def}; NULL: none said */
    const char *complete;     /* FILE: the extension completion offers ("" any file) */
    const char *help;         /* --help's text ({lo} {hi} {def} {values} filled in) */
    const char *doc;          /* the man page's paragraph (scdoc); NULL: help */
} sv_option;

extern const sv_option sv_options[SV_OPTION_COUNT];

/* The group's heading ("Scan", "Mistakes lab", ...). */
const char *sv_opt_group_title(sv_opt_group g);

/* The program's row named name (a long name, or "-x" style short one given
 * as its letter through sv_options_find_short), NULL if it takes none. */
const sv_option *sv_options_find(sv_program prog, const char *name);
const sv_option *sv_options_find_short(sv_program prog, char letter);

/* One option (or operand) as the parser hands it to the program. */
typedef struct sv_opt_arg {
    sv_opt_id id;            /* SV_OPTION_NONE for an operand */
    const sv_option *opt;    /* NULL for an operand */
    const char *text;        /* the value as given (the operand; NULL for a flag) */
    int argi;                /* the value's argv index (the flag's, for a flag) */
    int flag_argi;           /* the option's own token (argi - 1 for "--runs 5", argi
                                for "--runs=5") */
    uint64_t u;              /* SV_OPT_UINT */
    double f;                /* SV_OPT_FLOAT */
    int e;                   /* SV_OPT_ENUM: the value's index in values() */
} sv_opt_arg;

/* Called once per option and operand, in argv order, after the table's own
 * check of the value. Returns false with err filled to stop with that
 * usage error (name the option, value and argi alike: sv_options_bad). */
typedef bool (*sv_opt_fn)(void *ctx, const sv_opt_arg *a, char *err, size_t errlen);

/* Parses argv for prog (getopt_long's syntax: --name VALUE, --name=VALUE,
 * clusters of short letters, "--" ends the options; operands keep their
 * place). Returns false with err filled on the first usage error. */
/* Raises option id's upper bound (a whole number's) to hi for the parses
 * after it, past the table's: scanviz-trace's --random for a kernel file
 * whose host function launches many blocks (SV_MAX_N_BLOCKS). 0: the
 * table's again. */
void sv_options_raise(sv_opt_id id, uint64_t hi);

bool sv_options_parse(sv_program prog, int argc, char **argv, sv_opt_fn fn, void *ctx,
                      char *err, size_t errlen);

/* Fills err as every option error reads: `--NAME "VALUE" (argument I): WHY`. */
bool sv_options_bad(const sv_opt_arg *a, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The row's help or doc text with {lo} {hi} {def} {values} filled in. */
void sv_option_text(const sv_option *o, const char *text, char *buf, size_t len);

/* The options block of prog's --help: each group's title, then a line per
 * row ("  --runs R            a mistake's runs, ..."), wrapped to 79 columns. */
void sv_options_help(sv_program prog, FILE *f);
/* prog's options group by group, each group's in the table's order: from
 * *at = 0, each call returns the next (NULL after the last) and says
 * whether it is the first of its group (the help's and man page's titles). */
const sv_option *sv_options_next(sv_program prog, int *at, bool *first_of_group);
/* Writes text to f from column col, wrapped at width; each line it wraps
 * onto starts at column indent, with spaces, or with a tab when tab (indent
 * 8: the man pages' paragraphs). A word starting with '-' stays on its
 * predecessor's line. Ends with a newline. */
void sv_options_wrap(FILE *f, const char *text, int col, int indent, int width, bool tab);

/* "WxH", each SV_VIEW_SIZE_MIN .. SV_VIEW_SIZE_MAX (--size). */
bool sv_options_parse_size(const char *s, int *w, int *h);

/* The registries the rows name (also for the generator and tests). */
const char *sv_option_op_names(unsigned i);
const char *sv_option_type_names(unsigned i);
const char *sv_option_backend_names(unsigned i);
const char *sv_option_kernel_names(unsigned i);
const char *sv_option_kernel_labels(unsigned i);
/* A --kernel name beyond the lab's registry ("blelloch"): its shipped file
 * for sv_runtime_request.builtin ("kernels/blelloch.cu"); NULL for others. */
const char *sv_option_runtime_kernel(const char *name);
const char *sv_option_theme_names(unsigned i);
const char *sv_option_compare_names(unsigned i);
const char *sv_option_format_names(unsigned i);
const char *sv_option_algo_names(unsigned i);
bool sv_option_check_kernel(const char *value, char *why, size_t whylen);
bool sv_option_check_schedule(const char *value, char *why, size_t whylen);
bool sv_option_check_size(const char *value, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
