/* The option table (options.def), its parser and its --help: see options.h. */
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "algo.h"
#include "error.h"
#include "escape.h"
#include "input.h"
#include "lab.h"
#include "op.h"

/* ---- The registries the rows name ---------------------------------------- */

const char *sv_option_op_names(unsigned i)
{
    return i < SV_OP_COUNT ? sv_op_name((sv_op)i) : NULL;
}

const char *sv_option_type_names(unsigned i)
{
    return i < SV_TYPE_COUNT ? sv_type_name((sv_type)i) : NULL;
}

/* The shipped kernels beyond the chapter (the registry's second table,
 * lab_registry.h: Blelloch), after the lab's rows: run only through the
 * kernel runtime (src/runtime/runtime.h, as a shipped build). */
const char *sv_option_runtime_kernel(const char *name)
{
    const sv_kernel_beyond *b = sv_kernel_beyond_find(name);
    return b ? b->file : NULL;
}

const char *sv_option_kernel_names(unsigned i)
{
    if (i < SV_KERNEL_COUNT)
        return sv_kernel_name((sv_kernel)i);
    const sv_kernel_beyond *b = sv_kernel_beyond_get(i - SV_KERNEL_COUNT);
    return b ? b->name : NULL;
}

const char *sv_option_kernel_labels(unsigned i)
{
    if (i >= SV_KERNEL_COUNT) {
        const sv_kernel_beyond *b = sv_kernel_beyond_get(i - SV_KERNEL_COUNT);
        return b ? b->label : NULL;
    }
    const sv_kernel_info *k = sv_kernel_get((sv_kernel)i);
    return k ? k->label : NULL;
}

const char *sv_option_algo_names(unsigned i)
{
    return i < SV_ALGO_COUNT ? sv_algo_name((sv_algo)i) : NULL;
}

/* The lists owned by layers above core (capture's backend choice, the
 * app's themes) or by one main (--format): their parsers take the same
 * names, which tests/cli/test_options.c checks. */
#define NAMES(fn, ...)                                                         \
    const char *fn(unsigned i)                                                 \
    {                                                                          \
        static const char *const names[] = { __VA_ARGS__ };                    \
        return i < sizeof names / sizeof names[0] ? names[i] : NULL;           \
    }
NAMES(sv_option_backend_names, "auto", "cuda", "cpu")
NAMES(sv_option_theme_names, "dark", "light", "contrast")
NAMES(sv_option_format_names, "table", "json")
NAMES(sv_option_compare_names, "blelloch") /* --compare: the app's compare view (issue 20) */

bool sv_option_check_kernel(const char *value, char *why, size_t whylen)
{
    sv_kernel k;
    if (sv_option_runtime_kernel(value))
        return true;
    return sv_kernel_parse(value, &k, why, whylen);
}

bool sv_option_check_schedule(const char *value, char *why, size_t whylen)
{
    sv_schedule s;
    return sv_schedule_parse(value, &s, why, whylen);
}

bool sv_options_parse_size(const char *s, int *w, int *h)
{
    const char *x = strpbrk(s, "xX");
    if (!x || x == s || !x[1])
        return false;
    long v[2];
    for (int k = 0; k < 2; k++) {
        const char *p = k ? x + 1 : s, *end = k ? s + strlen(s) : x;
        if (end - p > 5)
            return false;
        v[k] = 0;
        for (; p < end; p++) {
            if (*p < '0' || *p > '9')
                return false;
            v[k] = v[k] * 10 + (*p - '0');
        }
        if (v[k] < SV_VIEW_SIZE_MIN || v[k] > SV_VIEW_SIZE_MAX)
            return false;
    }
    *w = (int)v[0];
    *h = (int)v[1];
    return true;
}

bool sv_option_check_size(const char *value, char *why, size_t whylen)
{
    int w, h;
    if (sv_options_parse_size(value, &w, &h))
        return true;
    sv_errorf(why, whylen, "expected WxH, each %d .. %d (e.g. %dx%d)", SV_VIEW_SIZE_MIN,
              SV_VIEW_SIZE_MAX, SV_VIEW_DEFAULT_W, SV_VIEW_DEFAULT_H);
    return false;
}

/* ---- The table ------------------------------------------------------------ */

const sv_option sv_options[SV_OPTION_COUNT] = {
#define SV_OPTION(id_, ...) [SV_OPTION_##id_] = { .id = SV_OPTION_##id_, __VA_ARGS__ },
#include "options.def"
#undef SV_OPTION
};

const char *sv_opt_group_title(sv_opt_group g)
{
    static const char *const titles[SV_GROUP_COUNT] = {
        [SV_GROUP_INPUT] = "Input (one of them; without any, the chapter's example, "
                           SV_CHAPTER_EXAMPLE ")",
        [SV_GROUP_SCAN] = "Scan",
        [SV_GROUP_LAB] = "Mistakes lab (docs/user-guide.md)",
        [SV_GROUP_KERNEL] = "Your own kernel (docs/user-guide.md, \"Your own kernel\")",
        [SV_GROUP_VIEW] = "View",
        [SV_GROUP_SLIDES] = "Slides",
        [SV_GROUP_HEADLESS] = "Without a window",
        [SV_GROUP_OUTPUT] = "Output",
        [SV_GROUP_BENCH] = "Benchmark",
        [SV_GROUP_OTHER] = "Other",
    };
    return (unsigned)g < SV_GROUP_COUNT ? titles[g] : "";
}

const sv_option *sv_options_find(sv_program prog, const char *name)
{
    for (int i = 0; i < SV_OPTION_COUNT; i++)
        if ((sv_options[i].progs & prog) && sv_options[i].kind != SV_OPT_STDIN &&
            strcmp(sv_options[i].name, name) == 0)
            return &sv_options[i];
    return NULL;
}

const sv_option *sv_options_find_short(sv_program prog, char letter)
{
    for (int i = 0; i < SV_OPTION_COUNT; i++)
        if ((sv_options[i].progs & prog) && letter && sv_options[i].short_name == letter)
            return &sv_options[i];
    return NULL;
}

static bool takes_value(const sv_option *o)
{
    return o->kind != SV_OPT_FLAG && o->kind != SV_OPT_STDIN;
}

/* ---- Words ---------------------------------------------------------------- */

/* "sum, max, min, product or xor". */
static void join_values(const sv_option *o, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    unsigned count = 0;
    while (o->values && o->values(count))
        count++;
    for (unsigned i = 0; i < count && used < len; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        int w = snprintf(buf + used, len - used, "%s%s", sep, o->values(i));
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

static void format_u64(uint64_t v, char *buf, size_t len, bool words)
{
    if (words && v == UINT64_MAX)
        snprintf(buf, len, "2^64-1");
    else if (words && v == INT64_MAX)
        snprintf(buf, len, "2^63-1");
    else
        snprintf(buf, len, "%" PRIu64, v);
}

void sv_option_text(const sv_option *o, const char *text, char *buf, size_t len)
{
    size_t used = 0;
    if (!len)
        return;
    buf[0] = '\0';
    for (const char *p = text ? text : ""; *p && used + 1 < len;) {
        char word[1024];
        const char *put = NULL;
        if (*p == '{') {
            if (strncmp(p, "{lo}", 4) == 0 || strncmp(p, "{hi}", 4) == 0) {
                bool lo = p[1] == 'l';
                if (o->kind == SV_OPT_FLOAT)
                    snprintf(word, sizeof word, "%g", lo ? o->flo : o->fhi);
                else
                    format_u64(lo ? o->lo : o->hi, word, sizeof word, true);
                put = word;
                p += 4;
            } else if (strncmp(p, "{def}", 5) == 0) {
                put = o->def ? o->def : "";
                p += 5;
            } else if (strncmp(p, "{values}", 8) == 0) {
                join_values(o, word, sizeof word);
                put = word;
                p += 8;
            }
        }
        if (put) {
            int w = snprintf(buf + used, len - used, "%s", put);
            used = w < 0 ? used : used + (size_t)w < len ? used + (size_t)w : len - 1;
        } else {
            buf[used++] = *p++;
            buf[used] = '\0';
        }
    }
}

void sv_options_wrap(FILE *f, const char *text, int col, int indent, int width, bool tab)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (!n)
            break;
        /* A word starting with '-' stays on its predecessor's line: a line
         * of --help that starts with '-' is a flag's (tests/install reads
         * them so). */
        while (p[n] == ' ' && p[n + 1] == '-')
            n += 1 + strcspn(p + n + 1, " ");
        if (col > indent && col + 1 + (int)n > width) {
            fputc('\n', f);
            col = 0;
        }
        if (col < indent) {
            if (tab)
                fputc('\t', f);
            else
                fprintf(f, "%*s", indent - col, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fwrite(p, 1, n, f);
        col += (int)n;
        p += n;
    }
    fputc('\n', f);
}

/* "  -o, --output FILE", "  --runs R", "  -". */
static void head_of(const sv_option *o, char *buf, size_t len)
{
    if (o->kind == SV_OPT_STDIN) {
        snprintf(buf, len, "  -");
        return;
    }
    char shortname[8] = "";
    if (o->short_name)
        snprintf(shortname, sizeof shortname, "-%c, ", o->short_name);
    snprintf(buf, len, "  %s--%s%s%s", shortname, o->name, takes_value(o) ? " " : "",
             takes_value(o) ? o->arg : "");
}

void sv_options_help(sv_program prog, FILE *f)
{
    enum { COL = 22, WIDTH = 79 };
    int at = 0;
    bool first;
    for (const sv_option *o; (o = sv_options_next(prog, &at, &first));) {
        if (first)
            fprintf(f, "\n%s:\n", sv_opt_group_title(o->group));
        char head[128], text[2048];
        head_of(o, head, sizeof head);
        sv_option_text(o, o->help, text, sizeof text);
        int len = (int)strlen(head);
        if (len + 2 > COL) {
            fprintf(f, "%s\n%*s", head, COL, "");
            len = COL;
        } else {
            fprintf(f, "%-*s", COL, head);
            len = COL;
        }
        sv_options_wrap(f, text, len, COL, WIDTH, false);
    }
}

const sv_option *sv_options_next(sv_program prog, int *at, bool *first_of_group)
{
    /* *at = group * SV_OPTION_COUNT + row: the next place to look. */
    for (; *at < SV_GROUP_COUNT * SV_OPTION_COUNT; ++*at) {
        int g = *at / SV_OPTION_COUNT, i = *at % SV_OPTION_COUNT;
        const sv_option *o = &sv_options[i];
        if (o->group != (sv_opt_group)g || !(o->progs & prog))
            continue;
        *first_of_group = true;
        for (int k = 0; k < i && *first_of_group; k++)
            if (sv_options[k].group == o->group && (sv_options[k].progs & prog))
                *first_of_group = false;
        ++*at;
        return o;
    }
    return NULL;
}

/* ---- Parsing -------------------------------------------------------------- */

bool sv_options_bad(const sv_opt_arg *a, char *err, size_t errlen, const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    char tok[SV_SHOWN_TOKEN];
    sv_escape_clip(a->text ? a->text : "", SV_SHOWN_MAX, tok, sizeof tok);
    if (a->opt && a->opt->kind != SV_OPT_STDIN)
        sv_errorf(err, errlen, "--%s \"%s\" (argument %d): %s", a->opt->name, tok, a->argi, why);
    else
        sv_errorf(err, errlen, "\"%s\" (argument %d): %s", tok, a->argi, why);
    return false;
}

static bool parse_uint(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* Whether s is digits alone whose number is above hi (or above 2^64-1). */
static bool above(const char *s, uint64_t hi)
{
    uint64_t v;
    if (!*s || strspn(s, "0123456789") != strlen(s))
        return false;
    return !parse_uint(s, &v) || v > hi;
}

static uint64_t raised[SV_OPTION_COUNT]; /* sv_options_raise's bounds, 0: the table's */

void sv_options_raise(sv_opt_id id, uint64_t hi)
{
    if ((unsigned)id < SV_OPTION_COUNT)
        raised[id] = hi;
}

/* The table's own check of a value: its kind and range. */
static bool check_value(sv_opt_arg *a, char *err, size_t errlen)
{
    const sv_option *o = a->opt;
    char lo[32], hi[32], list[1024], why[512];
    const size_t id = (size_t)(o - sv_options);
    const uint64_t top = id < SV_OPTION_COUNT && raised[id] > o->hi ? raised[id] : o->hi;
    switch (o->kind) {
    case SV_OPT_UINT:
        if (o->above && top == o->hi && above(a->text, o->hi)) {
            char text[512], *at;
            sv_option_text(o, o->above, text, sizeof text);
            if ((at = strstr(text, "{value}")) != NULL)
                return sv_options_bad(a, err, errlen, "%.*s%.40s%s", (int)(at - text), text,
                                      a->text, at + 7);
            return sv_options_bad(a, err, errlen, "%s", text);
        }
        if (!parse_uint(a->text, &a->u) || a->u < o->lo || a->u > top) {
            if (o->expect)
                return sv_options_bad(a, err, errlen, "expected %s", o->expect);
            format_u64(o->lo, lo, sizeof lo, false);
            format_u64(top, hi, sizeof hi, false);
            return sv_options_bad(a, err, errlen, "expected a whole decimal number from %s "
                                  "to %s", lo, hi);
        }
        return true;
    case SV_OPT_FLOAT: {
        char *end;
        errno = 0;
        a->f = strtod(a->text, &end);
        if (errno || end == a->text || *end || !(a->f >= o->flo && a->f <= o->fhi)) {
            if (o->expect)
                return sv_options_bad(a, err, errlen, "expected %s", o->expect);
            return sv_options_bad(a, err, errlen, "expected a number from %g to %g", o->flo,
                                  o->fhi);
        }
        return true;
    }
    case SV_OPT_ENUM:
        if (o->check) { /* a registry that takes more than its names */
            a->e = -1;
            if (o->check(a->text, why, sizeof why))
                return true;
            join_values(o, list, sizeof list);
            return sv_options_bad(a, err, errlen, "expected %s", list);
        }
        for (unsigned i = 0; o->values(i); i++) {
            if (strcmp(o->values(i), a->text) == 0) {
                a->e = (int)i;
                return true;
            }
        }
        join_values(o, list, sizeof list);
        return sv_options_bad(a, err, errlen, "expected %s", list);
    case SV_OPT_LIST: {
        const char *p = a->text;
        for (int pos = 1;; pos++) {
            size_t n = strcspn(p, ",");
            bool found = false;
            for (unsigned i = 0; !found && o->values(i); i++)
                found = strlen(o->values(i)) == n && strncmp(o->values(i), p, n) == 0;
            if (!found) {
                join_values(o, list, sizeof list);
                if (strchr(a->text, ',')) {
                    char item[SV_SHOWN_TOKEN];
                    sv_escape_n(p, n > SV_SHOWN_MAX ? SV_SHOWN_MAX : n, item, sizeof item);
                    return sv_options_bad(a, err, errlen, "item %d \"%s%s\": expected %s", pos,
                                          item, n > SV_SHOWN_MAX ? "..." : "", list);
                }
                return sv_options_bad(a, err, errlen, "expected %s", list);
            }
            if (!p[n])
                return true;
            p += n + 1;
        }
    }
    case SV_OPT_STRING:
        if (o->check && !o->check(a->text, why, sizeof why))
            return sv_options_bad(a, err, errlen, "%s", why);
        return true;
    case SV_OPT_FILE: /* the program opens it, and says what went wrong there */
    case SV_OPT_DIR:
    case SV_OPT_FLAG:
    case SV_OPT_STDIN:
        break;
    }
    return true;
}

static bool operand(sv_opt_fn fn, void *ctx, const char *text, int argi, char *err,
                    size_t errlen)
{
    sv_opt_arg a = { .id = SV_OPTION_NONE, .text = text, .argi = argi, .flag_argi = argi };
    return fn(ctx, &a, err, errlen);
}

/* A token getopt_long refused ('?'): an unknown option, or a value given to
 * a flag that takes none. */
static bool refused(char **argv, int at, char *err, size_t errlen)
{
    char tok[SV_SHOWN_TOKEN];
    sv_escape_clip(argv[at], SV_SHOWN_MAX, tok, sizeof tok);
    if (strncmp(argv[at], "--", 2) == 0) {
        /* getopt_long sets optopt for a known long option given a value it
         * does not take, and 0 for an unknown one. */
        if (optopt)
            sv_errorf(err, errlen, "\"%s\" (argument %d): %.*s takes no value", tok, at,
                      (int)strcspn(tok, "="), tok);
        else
            sv_errorf(err, errlen, "unknown option \"%s\" (argument %d)", tok, at);
    } else if (optopt > ' ' && optopt < 0x7f) {
        sv_errorf(err, errlen, "unknown option \"-%c\" (argument %d)", optopt, at);
    } else { /* a letter that is no character of its own (a byte of UTF-8) */
        sv_errorf(err, errlen, "unknown option in \"%s\" (argument %d)", tok, at);
    }
    return false;
}

bool sv_options_parse(sv_program prog, int argc, char **argv, sv_opt_fn fn, void *ctx,
                      char *err, size_t errlen)
{
    struct option longopts[SV_OPTION_COUNT + 1];
    char shorts[3 + 2 * SV_OPTION_COUNT] = "-:"; /* "-": operands in order; ":": a
                                                    missing value is ':' */
    int nl = 0;
    size_t ns = 2;
    for (int i = 0; i < SV_OPTION_COUNT; i++) {
        const sv_option *o = &sv_options[i];
        if (!(o->progs & prog) || o->kind == SV_OPT_STDIN)
            continue;
        longopts[nl++] = (struct option){ o->name, takes_value(o) ? required_argument
                                                                  : no_argument, NULL, 256 + i };
        if (o->short_name) {
            shorts[ns++] = o->short_name;
            if (takes_value(o))
                shorts[ns++] = ':';
        }
    }
    longopts[nl] = (struct option){ NULL, 0, NULL, 0 };
    shorts[ns] = '\0';

    opterr = 0;
    optind = 0; /* glibc: start again from argv[1] (a program may parse twice) */
    int c, li = 0;
    int at = 1; /* the token the next option is read from (optind stays on a
                   cluster like -hV until its last letter) */
    while ((c = getopt_long(argc, argv, shorts, longopts, &li)) != -1) {
        int argi = optind - 1; /* the token just consumed (the value's, if separate) */
        const sv_option *o = NULL;
        if (c == 1) {
            if (!operand(fn, ctx, optarg, argi, err, errlen))
                return false;
            at = optind;
            continue;
        }
        if (c == ':') {
            char tok[SV_SHOWN_TOKEN];
            sv_escape_clip(argv[at], SV_SHOWN_MAX, tok, sizeof tok);
            sv_errorf(err, errlen, "\"%s\" (argument %d) needs a value", tok, at);
            return false;
        }
        if (c >= 256 && c < 256 + SV_OPTION_COUNT)
            o = &sv_options[c - 256];
        else if (c != '?')
            o = sv_options_find_short(prog, (char)c);
        if (!o)
            return refused(argv, at, err, errlen);
        sv_opt_arg a = { .id = o->id, .opt = o, .text = takes_value(o) ? optarg : NULL,
                         .argi = takes_value(o) ? argi : at, .flag_argi = at };
        if (takes_value(o) && !check_value(&a, err, errlen))
            return false;
        if (!fn(ctx, &a, err, errlen))
            return false;
        at = optind;
    }
    /* getopt stops at "--": what follows are operands too. */
    for (int k = optind; k < argc; k++)
        if (!operand(fn, ctx, argv[k], k, err, errlen))
            return false;
    return true;
}
