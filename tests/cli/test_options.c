/* The option table (src/core/options.def) and what it promises:
 *   - the table itself: every row named, helped, in a known group, a value
 *     name for every flag that takes one, no two rows of one program alike;
 *   - the parser: each kind's check, and one message style naming the
 *     option, the value and its argv index, for every program;
 *   - the registries the table names agree with the parsers the programs
 *     map them through;
 *   - every number a file can carry round-trips: the largest --shake-seed
 *     the table takes, and huge racecheck counts from a report, written in a
 *     lab trace and read back (lab_file.c, racecheck.c).
 * usage: test_options DATA_DIR (tests/data). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/capture/capture.h"
#include "../../src/core/args.h"
#include "../../src/core/lab.h"
#include "../../src/core/options.h"
#include "../../src/core/racecheck.h"
#include "../../src/core/trace.h"
#include "../../src/core/trace_file.h"
#include "../expect.h"

/* ---- The table --------------------------------------------------------------- */

static void test_table(void)
{
    for (int i = 0; i < SV_OPTION_COUNT; i++) {
        const sv_option *o = &sv_options[i];
        CHECK_MSG(o->id == (sv_opt_id)i, "row %d has id %d", i, o->id);
        CHECK_MSG(o->name && (o->kind == SV_OPT_STDIN) == (o->name[0] == '\0'),
                  "row %d: a name (empty only for the \"-\" operand)", i);
        CHECK_MSG(o->help && o->help[0], "--%s: no help", o->name);
        CHECK_MSG(o->progs && !(o->progs & ~(unsigned)SV_FOR_ALL), "--%s: programs %u", o->name,
                  o->progs);
        CHECK_MSG((unsigned)o->group < SV_GROUP_COUNT, "--%s: group %d", o->name, o->group);
        bool value = o->kind != SV_OPT_FLAG && o->kind != SV_OPT_STDIN;
        CHECK_MSG(!value || (o->arg && o->arg[0] && !strchr(o->arg, ' ')),
                  "--%s takes a value but names none", o->name);
        CHECK_MSG((o->kind != SV_OPT_ENUM && o->kind != SV_OPT_LIST) || (o->values && o->values(0)),
                  "--%s: an enum without values", o->name);
        CHECK_MSG(o->kind != SV_OPT_UINT || o->lo <= o->hi, "--%s: range %llu..%llu", o->name,
                  (unsigned long long)o->lo, (unsigned long long)o->hi);
        CHECK_MSG(o->kind != SV_OPT_FLOAT || o->flo <= o->fhi, "--%s: range", o->name);
        /* {placeholders} all filled */
        char text[4096];
        sv_option_text(o, o->help, text, sizeof text);
        CHECK_MSG(!strchr(text, '{') && !strchr(text, '}'), "--%s: help \"%s\"", o->name, text);
        if (o->doc) {
            sv_option_text(o, o->doc, text, sizeof text);
            CHECK_MSG(!strchr(text, '{') && !strchr(text, '}'), "--%s: doc \"%s\"", o->name, text);
        }
        for (int k = 0; k < i; k++) {
            const sv_option *p = &sv_options[k];
            if (!(p->progs & o->progs))
                continue;
            CHECK_MSG(strcmp(p->name, o->name) != 0, "--%s twice for one program", o->name);
            CHECK_MSG(!o->short_name || p->short_name != o->short_name, "-%c twice", o->short_name);
        }
    }
    /* The limits the issue names: one name each, the table's range. */
    CHECK(sv_options[SV_OPTION_RUNS].hi == SV_LAB_MAX_RUNS);
    CHECK(sv_options[SV_OPTION_SHAKE_SEED].hi == SV_SEED_MAX);
    CHECK(sv_options[SV_OPTION_SEED].hi == SV_SEED_MAX);
    CHECK(sv_options[SV_OPTION_SCALE].flo == SV_UI_SCALE_MIN &&
          sv_options[SV_OPTION_SCALE].fhi == SV_UI_SCALE_MAX);
    CHECK(sv_options[SV_OPTION_RANDOM].hi == SV_MAX_N);
    CHECK(sv_options[SV_OPTION_REPS].hi == SV_BENCH_MAX_REPS);
}

/* The registries the rows name agree with what the programs map them by. */
static void test_registries(void)
{
    for (unsigned i = 0; sv_option_backend_names(i); i++) {
        sv_backend_choice c;
        CHECK_MSG(sv_backend_choice_from_name(sv_option_backend_names(i), &c),
                  "--backend %s: capture does not know it", sv_option_backend_names(i));
    }
    for (unsigned i = 0; sv_option_op_names(i); i++) {
        sv_op op;
        CHECK(sv_op_from_name(sv_option_op_names(i), &op) && (unsigned)op == i);
    }
    for (unsigned i = 0; sv_option_kernel_names(i); i++) {
        char why[256];
        sv_kernel k;
        /* the lab's registry, then the runtime's shipped kernels beyond it (blelloch) */
        if (i < SV_KERNEL_COUNT)
            CHECK(sv_kernel_parse(sv_option_kernel_names(i), &k, why, sizeof why));
        else
            CHECK(sv_option_runtime_kernel(sv_option_kernel_names(i)) != NULL &&
                  sv_option_check_kernel(sv_option_kernel_names(i), why, sizeof why));
    }
    CHECK_STR(sv_option_kernel_names(SV_KERNEL_COUNT), "blelloch");
    CHECK_MSG(sv_option_kernel_names(SV_KERNEL_COUNT + 1) == NULL &&
              sv_option_op_names(SV_OP_COUNT) == NULL, "the registries end");
}

/* ---- The parser ---------------------------------------------------------------- */

typedef struct seen {
    int n;
    sv_opt_arg args[16];
    const char *refuse; /* an operand refused by the callback */
} seen;

static bool collect(void *ctx, const sv_opt_arg *a, char *err, size_t errlen)
{
    seen *s = ctx;
    if (a->id == SV_OPTION_NONE && s->refuse && strcmp(a->text, s->refuse) == 0)
        return sv_options_bad(a, err, errlen, "unexpected argument");
    if (s->n < 16)
        s->args[s->n++] = *a;
    return true;
}

/* Parses the NULL-terminated arguments for prog; returns whether it
 * passed, with err and s filled. */
static bool parse(sv_program prog, seen *s, char *err, size_t errlen, ...)
{
    char *argv[32] = { "prog" };
    int argc = 1;
    va_list ap;
    va_start(ap, errlen);
    for (const char *a; argc < 31 && (a = va_arg(ap, const char *));)
        argv[argc++] = (char *)a;
    va_end(ap);
    memset(s, 0, sizeof *s);
    s->refuse = "stray";
    err[0] = '\0';
    return sv_options_parse(prog, argc, argv, collect, s, err, errlen);
}

#define REFUSED(prog, want, ...)                                                             \
    do {                                                                                     \
        seen s_;                                                                             \
        char e_[1024];                                                                       \
        bool ok_ = parse(prog, &s_, e_, sizeof e_, __VA_ARGS__, (const char *)NULL);         \
        CHECK_MSG(!ok_ && strstr(e_, want), "%s: want \"%s\", got %s \"%s\"", #__VA_ARGS__,  \
                  want, ok_ ? "success" : "error", e_);                                      \
    } while (0)

static void test_parser(void)
{
    seen s;
    char err[1024];

    /* Values, their kinds and indexes. */
    CHECK_MSG(parse(SV_FOR_TRACE, &s, err, sizeof err, "--runs", "7", "--shake-seed=18446744073709551615",
                    "-", "--op", "max", "-o", "out.json", "--exclusive", (const char *)NULL),
              "%s", err);
    CHECK(s.n == 6);
    CHECK(s.args[0].id == SV_OPTION_RUNS && s.args[0].u == 7 && s.args[0].argi == 2 &&
          s.args[0].flag_argi == 1);
    CHECK(s.args[1].id == SV_OPTION_SHAKE_SEED && s.args[1].u == UINT64_MAX &&
          s.args[1].argi == 3 && s.args[1].flag_argi == 3);
    CHECK(s.args[2].id == SV_OPTION_NONE && strcmp(s.args[2].text, "-") == 0 &&
          s.args[2].argi == 4);
    CHECK(s.args[3].id == SV_OPTION_OP && s.args[3].e == SV_OP_MAX && s.args[3].argi == 6);
    CHECK(s.args[4].id == SV_OPTION_OUTPUT && strcmp(s.args[4].text, "out.json") == 0);
    CHECK(s.args[5].id == SV_OPTION_EXCLUSIVE && s.args[5].argi == 9);
    CHECK(parse(SV_FOR_VIEW, &s, err, sizeof err, "--scale", "0.5", "--speed", "4", "--size",
                "16x8192", "--round", "0", (const char *)NULL) && s.n == 4 &&
          s.args[0].f == 0.5 && s.args[1].f == 4.0);
    /* The kernel's alias (the trace's own name) is taken. */
    CHECK(parse(SV_FOR_TRACE, &s, err, sizeof err, "--kernel", SV_KERNEL_TEACHING,
                (const char *)NULL) && s.n == 1);
    /* "--" ends the options; a cluster of letters. */
    CHECK(parse(SV_FOR_TRACE, &s, err, sizeof err, "-hV", "--", "--op", (const char *)NULL) &&
          s.n == 3 && s.args[0].id == SV_OPTION_HELP && s.args[1].id == SV_OPTION_VERSION &&
          s.args[2].id == SV_OPTION_NONE && s.args[2].argi == 3);

    /* One style: the option, the value as given, its index; the why. */
    REFUSED(SV_FOR_TRACE, "--runs \"0\" (argument 2): expected a whole decimal number from 1 to "
            "100000", "--runs", "0");
    REFUSED(SV_FOR_VIEW, "--runs \"100001\" (argument 2)", "--runs", "100001");
    REFUSED(SV_FOR_TRACE, "--shake-seed \"0\" (argument 2): expected a whole decimal number from "
            "1 to 18446744073709551615", "--shake-seed", "0");
    REFUSED(SV_FOR_TRACE, "--shake-seed \"18446744073709551616\" (argument 2)", "--shake-seed",
            "18446744073709551616");
    REFUSED(SV_FOR_TRACE, "--seed \"0x10\" (argument 4): expected a whole decimal number",
            "--random", "3", "--seed", "0x10");
    REFUSED(SV_FOR_VIEW, "--seed \"-1\" (argument 2)", "--seed", "-1");
    REFUSED(SV_FOR_TRACE, "--random \"2000\" (argument 2): n = 2000 is above the block limit: "
            "a single-block scan takes at most 1024 elements", "--random", "2000");
    REFUSED(SV_FOR_TRACE, "--random \"0\" (argument 2): expected a whole decimal number from 1 "
            "to 1024", "--random", "0");
    REFUSED(SV_FOR_VIEW, "--round \"-1\" (argument 2): expected a round number (0, 1, 2, ...)",
            "--round", "-1");
    REFUSED(SV_FOR_VIEW, "--bench-frames \"0\" (argument 2): expected a frame count from 1 to "
            "1000000", "--bench-frames", "0");
    REFUSED(SV_FOR_VIEW, "--scale \"3.5\" (argument 2): expected a number from 0.5 to 3",
            "--scale", "3.5");
    REFUSED(SV_FOR_VIEW, "--scale \"nan\" (argument 2)", "--scale", "nan");
    REFUSED(SV_FOR_VIEW, "--speed \"1x\" (argument 3)", "--clean", "--speed", "1x");
    REFUSED(SV_FOR_VIEW, "--size \"10x10\" (argument 2): expected WxH, each 16 .. 8192",
            "--size", "10x10");
    REFUSED(SV_FOR_VIEW, "--size \"1280x\" (argument 2)", "--size", "1280x");
    REFUSED(SV_FOR_VIEW, "--theme \"pink\" (argument 2): expected dark, light or contrast",
            "--theme", "pink");
    REFUSED(SV_FOR_TRACE, "--op \"plus\" (argument 2): expected sum, max, min, product or xor",
            "--op", "plus");
    REFUSED(SV_FOR_TRACE, "--kernel \"inplace\" (argument 2): expected correct, in-place",
            "--kernel", "inplace");
    REFUSED(SV_FOR_VIEW, "--schedule \"bogus\" (argument 2)", "--schedule", "bogus");
    REFUSED(SV_FOR_TRACE, "--format \"xml\" (argument 1): expected table or json", "--format=xml");
    REFUSED(SV_FOR_BENCH, "--algo \"hs,foo\" (argument 2): item 2 \"foo\"", "--algo", "hs,foo");
    /* Usage itself. */
    REFUSED(SV_FOR_TRACE, "unknown option \"--bogus\" (argument 1)", "--bogus");
    REFUSED(SV_FOR_VIEW, "unknown option \"--racecheck\" (argument 1)", "--racecheck");
    REFUSED(SV_FOR_TRACE, "unknown option \"--quiz\" (argument 1)", "--quiz");
    REFUSED(SV_FOR_TRACE, "unknown option \"-x\" (argument 1)", "-xh");
    REFUSED(SV_FOR_TRACE, "\"--input\" (argument 1) needs a value", "--input");
    REFUSED(SV_FOR_VIEW, "\"--quiz=1\" (argument 1): --quiz takes no value", "--quiz=1");
    REFUSED(SV_FOR_TRACE, "\"--verify=1\" (argument 1): --verify takes no value", "--verify=1");
    REFUSED(SV_FOR_TRACE, "\"stray\" (argument 4): unexpected argument", "--backend", "cpu", "--",
            "stray");

    /* A huge token is quoted cut (its first 96 bytes, escaped, and "...")
     * so its position still fits the message (the fuzzer's find: a 3,000
     * byte --algo pushed "(argument 2)" out of a 2,048-byte buffer). */
    static char huge[3001];
    for (int i = 0; i < 3000; i++)
        huge[i] = i % 3 == 2 ? ',' : (i % 3 ? 's' : 'h');
    huge[3000] = '\0';
    huge[95] = (char)0x86; /* a C1 byte as the last one shown */
    CHECK(!parse(SV_FOR_BENCH, &s, err, sizeof err, "--algo", huge, (const char *)NULL));
    CHECK_MSG(strstr(err, "(argument 2): item 32 ") && strstr(err, "...\" (argument 2)") &&
                  strlen(err) < 1024 && !strchr(err, (char)0x86),
              "%s", err);
    huge[95] = 's';
    memcpy(huge, "--x", 3);
    CHECK(!parse(SV_FOR_TRACE, &s, err, sizeof err, huge, (const char *)NULL));
    CHECK_MSG(strstr(err, "...\" (argument 1)"), "%s", err);
    /* A short option that is a byte of UTF-8 is named by its token. */
    REFUSED(SV_FOR_TRACE, "unknown option in \"-\u00e9\" (argument 1)", "-\u00e9");
    static char digits[3001];
    memset(digits, '9', 3000);
    CHECK(!parse(SV_FOR_TRACE, &s, err, sizeof err, "--random", digits, (const char *)NULL));
    CHECK_MSG(strstr(err, "...\" (argument 2): n = 999"), "%s", err);
}

/* The help of each program lists its rows and no other program's. */
static void test_help(void)
{
    static const sv_program progs[] = { SV_FOR_VIEW, SV_FOR_TRACE, SV_FOR_BENCH };
    for (size_t k = 0; k < sizeof progs / sizeof progs[0]; k++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        CHECK(f != NULL);
        if (!f)
            continue;
        sv_options_help(progs[k], f);
        fclose(f);
        for (int i = 0; i < SV_OPTION_COUNT; i++) {
            const sv_option *o = &sv_options[i];
            if (o->kind == SV_OPT_STDIN)
                continue;
            char head[64];
            snprintf(head, sizeof head, "--%s%s", o->name,
                     o->kind == SV_OPT_FLAG ? "" : " ");
            bool listed = strstr(text, head) != NULL;
            if (o->progs & progs[k])
                CHECK_MSG(listed, "program %d: --help lacks %s", progs[k], head);
        }
        /* no line over 79 columns, none of the text's lines starts with '-'
         * unless it is a row's head */
        for (char *line = text; line && *line;) {
            char *nl = strchr(line, '\n');
            size_t l = nl ? (size_t)(nl - line) : strlen(line);
            CHECK_MSG(l <= 79, "program %d: a --help line of %zu columns: %.*s", progs[k], l,
                      (int)l, line);
            line = nl ? nl + 1 : NULL;
        }
        free(text);
    }
    CHECK(!sv_options_find(SV_FOR_VIEW, "racecheck") && sv_options_find(SV_FOR_TRACE, "racecheck"));
    CHECK(sv_options_find(SV_FOR_BENCH, "type") == &sv_options[SV_OPTION_BENCH_TYPE]);
    CHECK(sv_options_find(SV_FOR_TRACE, "type") == &sv_options[SV_OPTION_TYPE]);
}

/* ---- Numbers that round-trip ---------------------------------------------------- */

/* t as a trace file's text, its length in *len (NULL on failure, reported);
 * the caller frees it. */
static char *written(const sv_trace *t, size_t *len, const char *what)
{
    char *text = NULL, err[512];
    FILE *f = open_memstream(&text, len);
    CHECK_MSG(f != NULL, "%s: open_memstream", what);
    if (!f)
        return NULL;
    bool ok = sv_trace_write(t, f, err, sizeof err);
    fclose(f);
    CHECK_MSG(ok, "%s: write: %s", what, err);
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

/* Writes t and reads it back (NULL on failure, reported). */
static sv_trace *reopen(const sv_trace *t, const char *what)
{
    char err[512];
    size_t len = 0;
    char *text = written(t, &len, what);
    sv_trace *back = text ? sv_trace_parse(text, err, sizeof err) : NULL;
    CHECK_MSG(back != NULL, "%s: the trace written does not reopen: %s", what, err);
    free(text);
    return back;
}

static void test_round_trip(const char *data)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/in-place-64-h200-shaken.scanviz.json", data);
    sv_trace *t = sv_trace_load(path, err, sizeof err);
    CHECK_MSG(t && t->lab && !t->lab->emulated && t->lab->racecheck, "%s: %s", path,
              t ? "not a GPU lab trace with racecheck" : err);
    if (!t || !t->lab || t->lab->emulated || !t->lab->racecheck) {
        sv_trace_destroy(t);
        return;
    }
    /* Every seed the table takes for --shake-seed, its ends and INT64_MAX's
     * neighbours (where a JSON integer ends). */
    const uint64_t seeds[] = { sv_options[SV_OPTION_SHAKE_SEED].lo, (uint64_t)INT64_MAX,
                               (uint64_t)INT64_MAX + 1, sv_options[SV_OPTION_SHAKE_SEED].hi };
    for (size_t k = 0; k < sizeof seeds / sizeof seeds[0]; k++) {
        t->lab->shake_seed = seeds[k];
        t->lab->runs = t->lab->runs; /* unchanged: the summary's counts hold */
        sv_trace *back = reopen(t, "largest seed");
        if (seeds[k] == UINT64_MAX) { /* written as the JSON integer it is */
            size_t len = 0;
            char *text = written(t, &len, "largest seed");
            if (text) {
                CHECK_MSG(strstr(text, "\"shake_seed\": 18446744073709551615,") != NULL,
                          "the largest seed is not written as an integer");
                /* a huge integer elsewhere is refused by its field's name */
                char *at = strstr(text, "\"runs\": ");
                if (at) {
                    char *hostile = malloc(len + 64);
                    if (hostile) {
                        snprintf(hostile, len + 64, "%.*s\"runs\": 18446744073709551615%s",
                                 (int)(at - text), text, at + strcspn(at, ","));
                        sv_trace *h = sv_trace_parse(hostile, err, sizeof err);
                        CHECK_MSG(!h && strstr(err, "lab.runs"), "a huge runs: %s",
                                  h ? "accepted" : err);
                        sv_trace_destroy(h);
                        free(hostile);
                    }
                }
                free(text);
            }
        }
        CHECK_MSG(back && back->lab && back->lab->shake_seed == seeds[k],
                  "shake_seed %llu came back as %llu", (unsigned long long)seeds[k],
                  back && back->lab ? (unsigned long long)back->lab->shake_seed : 0ull);
        sv_trace_destroy(back);
    }

    /* Huge counts from a report: kept within what the file carries. */
    static const char report[] =
        "========= Error: Potential RAW hazard detected at __shared__ 0x8 in block (0,0,0) :\n"
        "=========     Write Thread (1048576,0,0) at 0x1 in scan.cu:999999\n"
        "=========     Read Thread (1048577,0,0) at 0x2 in scan.cu:1000000\n"
        "========= RACECHECK SUMMARY: 99999999999999999999 hazards displayed "
        "(18446744073709551615 errors, 9223372036854775808 warnings)\n";
    sv_racecheck *rc = sv_racecheck_parse(report, sizeof report - 1, err, sizeof err);
    CHECK_MSG(rc != NULL, "racecheck report: %s", err);
    if (rc) {
        CHECK_MSG(rc->errors == (uint64_t)SV_RACECHECK_MAX_COUNT &&
                  rc->warnings == (uint64_t)SV_RACECHECK_MAX_COUNT,
                  "counts %llu, %llu: not kept within %lld", (unsigned long long)rc->errors,
                  (unsigned long long)rc->warnings, (long long)SV_RACECHECK_MAX_COUNT);
        CHECK(rc->nhazards == 1 && rc->hazards[0].thread[0] == SV_RACECHECK_MAX_THREAD &&
              rc->hazards[0].line[0] == SV_RACECHECK_MAX_LINE);
        sv_racecheck_destroy(t->lab->racecheck);
        t->lab->racecheck = rc;
        t->lab->shake_seed = UINT64_MAX;
        sv_trace *back = reopen(t, "huge racecheck counts");
        const sv_racecheck *b = back && back->lab ? back->lab->racecheck : NULL;
        CHECK_MSG(b && b->errors == rc->errors && b->warnings == rc->warnings &&
                  b->nhazards == 1 && b->hazards[0].thread[0] == rc->hazards[0].thread[0] &&
                  b->hazards[0].line[0] == rc->hazards[0].line[0],
                  "the racecheck counts and hazard did not come back as written");
        /* and the re-saved file reopens once more, the same */
        sv_trace *again = back ? reopen(back, "re-saved") : NULL;
        CHECK(again && again->lab && again->lab->shake_seed == UINT64_MAX);
        sv_trace_destroy(again);
        sv_trace_destroy(back);
        /* A count a hand-made file puts above the limit is refused, naming it. */
        rc->errors = UINT64_MAX;
        size_t len = 0;
        char *text = written(t, &len, "huge counts");
        if (text) {
            char *at = strstr(text, "\"errors\": ");
            CHECK_MSG(at && strncmp(at + 10, "9223372036854775807", 19) == 0,
                      "the writer kept the count within the reader's range");
            free(text);
        }
    }
    /* A seed in a file: digits only, at most 2^64-1. */
    t->lab->racecheck->errors = 0;
    static const char *const bad_seeds[] = { "18446744073709551616", "99999999999999999999999",
                                             "\"18446744073709551616\"", "\"-1\"", "\"\"",
                                             "\"0x10\"", "-1", "-18446744073709551615", "1.5" };
    t->lab->shake_seed = 7;
    size_t len = 0;
    char *text = written(t, &len, "seed 7");
    if (text) {
        char *at = strstr(text, "\"shake_seed\": 7");
        CHECK(at != NULL);
        for (size_t k = 0; at && k < sizeof bad_seeds / sizeof bad_seeds[0]; k++) {
            size_t head = (size_t)(at - text) + strlen("\"shake_seed\": ");
            char *hostile = malloc(len + 64);
            if (!hostile)
                break;
            snprintf(hostile, len + 64, "%.*s%s%s", (int)head, text, bad_seeds[k], at + 15);
            sv_trace *h = sv_trace_parse(hostile, err, sizeof err);
            CHECK_MSG(!h && (strstr(err, "shake_seed") || strstr(err, "negative")),
                      "shake_seed %s: %s", bad_seeds[k], h ? "accepted" : err);
            sv_trace_destroy(h);
            free(hostile);
        }
    }
    free(text);
    sv_trace_destroy(t);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_options DATA_DIR\n");
        return 2;
    }
    test_table();
    test_registries();
    test_parser();
    test_help();
    test_round_trip(argv[1]);
    return check_report("options: all checks passed");
}
