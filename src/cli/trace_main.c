/* scanviz-trace: runs the chapter's Hillis-Steele scan on the GPU or on the
 * bit-exact CPU emulator and prints its trace (a table, or the JSON trace
 * file); --verify compares the backends, --open re-reads a trace file. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sv_config.h"
#include "../capture/capture.h"
#include "../core/reference.h"
#include "../core/parse.h"
#include "../core/table.h"
#include "../core/trace.h"
#include "../core/trace_file.h"

/* Exit statuses (also in --help). */
enum {
    EXIT_OK = 0,
    EXIT_FAILED = 1,      /* the backend failed while running, or output could not be written */
    EXIT_USAGE = 2,       /* bad input or usage: stderr names the token and its position */
    EXIT_UNAVAILABLE = 3, /* the backend asked for is unavailable: stderr says why */
    EXIT_DIFFERS = 4      /* --verify found a difference */
};

#define CHAPTER_EXAMPLE "3 1 7 0 4 1 6 3"

typedef enum { FORMAT_TABLE, FORMAT_JSON } out_format;

typedef struct options {
    /* Input: at most one source; source_arg is its argv index. */
    const char *input_text;
    const char *file;
    bool from_stdin;
    size_t random_n;
    bool have_random;
    uint64_t seed;
    bool have_seed;
    int sources;
    const char *source_name;
    int source_arg;

    sv_op op;
    sv_type type;
    sv_scan scan;
    bool have_op, have_type, have_exclusive, have_backend;
    sv_backend_choice backend;
    out_format format;
    const char *out_path;
    bool verify;
    const char *open_path;
    bool help, version;
} options;

static const char *prog = "scanviz-trace";

static void usage(FILE *f)
{
    fprintf(f,
"Usage: scanviz-trace [--input \"3 1 7 0 4 1 6 3\" | --file PATH | --random N [--seed S] | -]\n"
"                     [--op sum|max|min|product|xor] [--type int32|float32] [--exclusive]\n"
"                     [--backend auto|cuda|cpu] [--format table|json] [-o FILE] [--verify]\n"
"       scanviz-trace --open FILE.json [--format table|json] [-o FILE] [--verify]\n"
"\n"
"Runs the Hillis-Steele scan of the chapter on the GPU (CUDA), or on a bit-exact CPU\n"
"emulator where there is none, and prints its trace: every round's double buffer and\n"
"the case of every cell (copy, partial or full window).\n"
"\n"
"Input (one of them; without any, the chapter's example \"" CHAPTER_EXAMPLE "\"):\n"
"  --input TEXT        values separated by spaces, commas or newlines\n"
"  --file PATH         values from a file; '#' starts a comment\n"
"  --random N          N seeded random values, 1 <= N <= %d\n"
"  --seed S            the seed for --random (default 1)\n"
"  -                   values from standard input\n"
"\n"
"Scan:\n"
"  --op NAME           sum (default), max, min, product or xor (xor: int32 only)\n"
"  --type NAME         int32 (default) or float32\n"
"  --exclusive         exclusive scan (default inclusive)\n"
"  --backend NAME      auto (default: the GPU when usable, else the emulator, saying why),\n"
"                      cuda (the GPU or exit 3) or cpu (the emulator)\n"
"\n"
"Output:\n"
"  --format NAME       table (default; colour when standard output is a terminal and\n"
"                      NO_COLOR is unset) or json (the trace file of docs/trace-format.md)\n"
"  -o FILE             write to FILE instead of standard output\n"
"  --verify            run the emulator, and the GPU too when available; report whether\n"
"                      the traces are bit-identical and whether the output equals a\n"
"                      sequential scan (int32) or how far it is from one (float32).\n"
"                      Prints the report instead of the trace (-o still saves the trace).\n"
"  --open FILE.json    re-read and validate a trace file and print it (- reads stdin);\n"
"                      with --verify, re-run its input and compare\n"
"  -h, --help          this help\n"
"  -V, --version       the version\n"
"\n"
"Exit status: 0 success; 1 the backend failed or the output could not be written;\n"
"2 bad input or usage; 3 the backend asked for is unavailable; 4 --verify found a\n"
"difference.\n",
            SV_MAX_N);
}

/* Prints "scanviz-trace: <msg>" and returns EXIT_USAGE. */
static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return EXIT_USAGE;
}

/* A whole decimal number in [lo, hi]; false on anything else. */
static bool parse_count(const char *s, unsigned long long lo, unsigned long long hi,
                        unsigned long long *out)
{
    if (!s || *s == '\0' || *s == '-' || *s == '+')
        return false;
    for (const char *p = s; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    errno = 0;
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static void add_source(options *o, const char *name, int argi)
{
    o->sources++;
    if (o->sources == 1) {
        o->source_name = name;
        o->source_arg = argi;
    }
}

/* A non-option argument: only "-" (standard input) is one. Returns -1 to go
 * on, else an exit status. */
static int operand(options *o, const char *arg, int argi)
{
    if (strcmp(arg, "-") != 0)
        return usage_error("unexpected argument \"%s\" (argument %d); try --help", arg, argi);
    o->from_stdin = true;
    add_source(o, "-", argi);
    return -1;
}

/* Parses argv into o. Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, options *o)
{
    enum { OPT_INPUT = 256, OPT_FILE, OPT_RANDOM, OPT_SEED, OPT_OP, OPT_TYPE,
           OPT_EXCLUSIVE, OPT_BACKEND, OPT_FORMAT, OPT_VERIFY, OPT_OPEN };
    static const struct option longopts[] = {
        { "input", required_argument, NULL, OPT_INPUT },
        { "file", required_argument, NULL, OPT_FILE },
        { "random", required_argument, NULL, OPT_RANDOM },
        { "seed", required_argument, NULL, OPT_SEED },
        { "op", required_argument, NULL, OPT_OP },
        { "type", required_argument, NULL, OPT_TYPE },
        { "exclusive", no_argument, NULL, OPT_EXCLUSIVE },
        { "backend", required_argument, NULL, OPT_BACKEND },
        { "format", required_argument, NULL, OPT_FORMAT },
        { "output", required_argument, NULL, 'o' },
        { "verify", no_argument, NULL, OPT_VERIFY },
        { "open", required_argument, NULL, OPT_OPEN },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };

    memset(o, 0, sizeof *o);
    o->op = SV_OP_SUM;
    o->type = SV_TYPE_INT32;
    o->scan = SV_SCAN_INCLUSIVE;
    o->backend = SV_CHOOSE_AUTO;
    o->format = FORMAT_TABLE;
    o->seed = 1;

    /* "-" first: non-options come back in order as option 1, so every
     * token keeps its position; ":" next: a missing argument is ':'. */
    opterr = 0;
    int c, st;
    int at = optind; /* the token the next option is read from (optind stays
                        on a cluster like -hV until its last letter) */
    while ((c = getopt_long(argc, argv, "-:o:hV", longopts, NULL)) != -1) {
        int argi = optind - 1; /* the token just consumed (the value's, if separate) */
        unsigned long long v;
        switch (c) {
        case 1:
            if ((st = operand(o, optarg, argi)) >= 0)
                return st;
            break;
        case OPT_INPUT:
            o->input_text = optarg;
            add_source(o, "--input", argi);
            break;
        case OPT_FILE:
            o->file = optarg;
            add_source(o, "--file", argi);
            break;
        case OPT_RANDOM:
            if (!parse_count(optarg, 1, SV_MAX_N, &v)) {
                unsigned long long big;
                if (parse_count(optarg, SV_MAX_N + 1ull, ULLONG_MAX, &big))
                    return usage_error("--random \"%s\" (argument %d): n = %s is above the "
                                       "block limit: a single-block scan takes at most %d "
                                       "elements", optarg, argi, optarg, SV_MAX_N);
                return usage_error("--random \"%s\" (argument %d): expected a whole number "
                                   "from 1 to %d", optarg, argi, SV_MAX_N);
            }
            o->random_n = (size_t)v;
            o->have_random = true;
            add_source(o, "--random", argi);
            break;
        case OPT_SEED:
            if (!parse_count(optarg, 0, UINT64_MAX, &v))
                return usage_error("--seed \"%s\" (argument %d): expected a whole number "
                                   "from 0 to %" PRIu64, optarg, argi, UINT64_MAX);
            o->seed = (uint64_t)v;
            o->have_seed = true;
            break;
        case OPT_OP:
            if (!sv_op_from_name(optarg, &o->op))
                return usage_error("--op \"%s\" (argument %d): expected sum, max, min, "
                                   "product or xor", optarg, argi);
            o->have_op = true;
            break;
        case OPT_TYPE:
            if (!sv_type_from_name(optarg, &o->type))
                return usage_error("--type \"%s\" (argument %d): expected int32 or float32",
                                   optarg, argi);
            o->have_type = true;
            break;
        case OPT_EXCLUSIVE:
            o->scan = SV_SCAN_EXCLUSIVE;
            o->have_exclusive = true;
            break;
        case OPT_BACKEND:
            if (!sv_backend_choice_from_name(optarg, &o->backend))
                return usage_error("--backend \"%s\" (argument %d): expected auto, cuda or "
                                   "cpu", optarg, argi);
            o->have_backend = true;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "table") == 0)
                o->format = FORMAT_TABLE;
            else if (strcmp(optarg, "json") == 0)
                o->format = FORMAT_JSON;
            else
                return usage_error("--format \"%s\" (argument %d): expected table or json",
                                   optarg, argi);
            break;
        case 'o':
            o->out_path = optarg;
            break;
        case OPT_VERIFY:
            o->verify = true;
            break;
        case OPT_OPEN:
            o->open_path = optarg;
            break;
        case 'h':
            o->help = true;
            break;
        case 'V':
            o->version = true;
            break;
        case ':':
            return usage_error("\"%s\" (argument %d) needs a value; try --help",
                               argv[at], at);
        case '?':
        default:
            if (strncmp(argv[at], "--", 2) == 0) {
                /* getopt_long sets optopt for a known long option given a
                 * value it does not take, and 0 for an unknown one. */
                if (optopt)
                    return usage_error("\"%s\" (argument %d): %.*s takes no value; try --help",
                                       argv[at], at, (int)strcspn(argv[at], "="), argv[at]);
                return usage_error("unknown option \"%s\" (argument %d); try --help",
                                   argv[at], at);
            }
            return usage_error("unknown option \"-%c\" (argument %d); try --help", optopt,
                               at);
        }
        at = optind;
    }
    /* getopt stops at "--": what follows are operands too. */
    for (int k = optind; k < argc; k++)
        if ((st = operand(o, argv[k], k)) >= 0)
            return st;

    if (o->help || o->version)
        return -1;
    if (o->sources > 1)
        return usage_error("give one input: %s (argument %d) and another source were both "
                           "given", o->source_name, o->source_arg);
    if (o->have_seed && !o->have_random)
        return usage_error("--seed applies to --random only");
    if (o->open_path) {
        if (o->sources)
            return usage_error("--open reads its input from the trace file: %s (argument %d) "
                               "cannot be combined with it", o->source_name, o->source_arg);
        if (o->have_op || o->have_type || o->have_exclusive)
            return usage_error("--open: the trace file says which operator, type and scan; "
                               "--op, --type and --exclusive do not apply");
    }
    return -1;
}

/* ---- Output ------------------------------------------------------------ */

static bool want_colour(void)
{
    return isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
}

/* Writes t in the chosen format to -o FILE or stdout. The note (why the
 * emulator ran) goes into the table, or to stderr beside json. */
static int write_trace(const sv_trace *t, const options *o, const char *note)
{
    char err[512];
    if (o->format == FORMAT_JSON) {
        if (note && note[0])
            fprintf(stderr, "%s: %s\n", prog, note);
        bool ok = o->out_path ? sv_trace_save(t, o->out_path, err, sizeof err)
                              : sv_trace_write(t, stdout, err, sizeof err);
        if (!ok) {
            /* sv_trace_save names the path itself. */
            fprintf(stderr, "%s: %s%s\n", prog, o->out_path ? "" : "stdout: ", err);
            return EXIT_FAILED;
        }
        return EXIT_OK;
    }
    if (!o->out_path || strcmp(o->out_path, "-") == 0) { /* as sv_trace_save does for json */
        sv_trace_print_table(t, stdout, want_colour(), note);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "%s: stdout: write failed\n", prog);
            return EXIT_FAILED;
        }
        return EXIT_OK;
    }
    FILE *f = fopen(o->out_path, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot create %s: %s\n", prog, o->out_path, strerror(errno));
        return EXIT_FAILED;
    }
    sv_trace_print_table(t, f, false, note);
    bool bad = ferror(f) != 0;
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "%s: %s: write failed\n", prog, o->out_path);
        return EXIT_FAILED;
    }
    return EXIT_OK;
}

/* ---- Input ------------------------------------------------------------- */

/* Fills values and n from the chosen source. Returns -1 on success, else an
 * exit status (the message printed). */
static int read_input(const options *o, sv_value **values, size_t *n)
{
    char err[512];
    if (o->have_random) {
        *values = sv_random_values(o->op, o->type, o->random_n, o->seed);
        if (!*values) {
            fprintf(stderr, "%s: --random %zu: out of memory\n", prog, o->random_n);
            return EXIT_FAILED;
        }
        *n = o->random_n;
        return -1;
    }

    char *text = NULL;
    const char *where;
    if (o->file || o->from_stdin) {
        const char *path = o->file ? o->file : "-";
        where = o->file ? o->file : "stdin";
        text = sv_read_file(path, err, sizeof err);
        if (!text) {
            fprintf(stderr, "%s: %s\n", prog, err);
            return EXIT_USAGE;
        }
    } else {
        where = o->input_text ? "--input" : "the chapter's example";
        text = strdup(o->input_text ? o->input_text : CHAPTER_EXAMPLE);
        if (!text) {
            fprintf(stderr, "%s: out of memory\n", prog);
            return EXIT_FAILED;
        }
    }
    bool ok = sv_parse_values(text, o->type, SV_MAX_N, values, n, err, sizeof err);
    free(text);
    if (!ok) {
        fprintf(stderr, "%s: %s: %s\n", prog, where, err);
        return EXIT_USAGE;
    }
    return -1;
}

/* ---- Capture ----------------------------------------------------------- */

/* One capture of the chapter's kernel; src may be NULL. */
static sv_capture_status capture(sv_op op, sv_type type, sv_scan scan, const sv_value *input,
                                 size_t n, sv_backend_choice choice, sv_trace **t,
                                 sv_capture_source *src, char *err, size_t errlen)
{
    const sv_capture_request req = {
        .op = op, .type = type, .scan = scan, .input = input, .n = n, .choice = choice,
    };
    return sv_capture(&req, t, src, err, errlen);
}

/* ---- --verify ---------------------------------------------------------- */

static const char *describe(const sv_trace *t, char *buf, size_t len)
{
    if (t->backend == SV_BACKEND_CUDA)
        snprintf(buf, len, "cuda (%s)", t->device ? t->device : "GPU");
    else
        snprintf(buf, len, "cpu emulator");
    return buf;
}

/* Compares t's output with the sequential scan of its input: int32 must be
 * equal; float32 reports the largest difference (Hillis-Steele adds in
 * another order). Returns whether it passes. */
static bool check_reference(const sv_trace *t, const sv_value *ref, const char *who)
{
    char a[64], b[64];
    if (t->type == SV_TYPE_INT32) {
        for (size_t i = 0; i < t->n; i++) {
            if (t->output[i].bits != ref[i].bits) {
                printf("  %s: output differs from the sequential scan at cell %zu: %s, "
                       "sequential %s\n", who, i, sv_value_format(t->type, t->output[i], a, sizeof a),
                       sv_value_format(t->type, ref[i], b, sizeof b));
                return false;
            }
        }
        printf("  %s: output equals the sequential scan (%zu of %zu cells)\n", who, t->n, t->n);
        return true;
    }
    double worst = 0.0;
    size_t at = 0;
    size_t same = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (t->output[i].bits == ref[i].bits) {
            same++;
            continue;
        }
        double d = fabs((double)t->output[i].f - (double)ref[i].f);
        if (isnan(d))
            d = INFINITY;
        if (d > worst || (worst == 0.0 && d > 0.0)) {
            worst = d;
            at = i;
        }
    }
    if (same == t->n)
        printf("  %s: output bit-identical to the sequential scan (%zu of %zu cells)\n", who,
               t->n, t->n);
    else
        printf("  %s: largest difference from the sequential scan: %g at cell %zu (%s, "
               "sequential %s); %zu of %zu cells bit-identical (float32: Hillis-Steele "
               "combines in another order)\n", who, worst, at,
               sv_value_format(t->type, t->output[at], a, sizeof a),
               sv_value_format(t->type, ref[at], b, sizeof b), same, t->n);
    return true;
}

static void trace_summary(const sv_trace *t, char *buf, size_t len)
{
    snprintf(buf, len, "%zu rounds x 2 buffers x %zu cells, written flags included",
             t->nrounds, t->n);
}

/* Runs the emulator, and the GPU when available (or asked for), on input;
 * given, when not NULL, is a trace read with --open to compare as well.
 * Prints the report; saves the primary trace (given, else the GPU's, else the
 * emulator's) with -o. */
static int verify(const options *o, sv_op op, sv_type type, sv_scan scan,
                  const sv_value *input, size_t n, const sv_trace *given)
{
    char err[512], diff[512], who[600], who2[300], sum[128];
    sv_trace *cpu = NULL, *gpu = NULL;
    sv_value *ref = NULL;
    int status = EXIT_OK;
    int failures = 0;

    printf("verify: n = %zu, %s, %s, %s\n", n, sv_op_name(op), sv_type_name(type),
           sv_scan_name(scan));

    sv_capture_status st = capture(op, type, scan, input, n, SV_CHOOSE_CPU, &cpu, NULL, err,
                                   sizeof err);
    if (st != SV_CAPTURE_OK) {
        printf("  cpu emulator: FAILED: %s\n", err);
        fprintf(stderr, "%s: cpu emulator: %s\n", prog, err);
        status = st == SV_CAPTURE_BAD_INPUT ? EXIT_USAGE : EXIT_DIFFERS;
        goto out;
    }
    printf("  cpu emulator: trace finished, invariant holds\n");

    if (o->backend != SV_CHOOSE_CPU) {
        char why[256];
        if (sv_capture_cuda_available(NULL, 0, NULL, why, sizeof why)) {
            st = capture(op, type, scan, input, n, SV_CHOOSE_CUDA, &gpu, NULL, err, sizeof err);
            if (st == SV_CAPTURE_BAD_INPUT) {
                fprintf(stderr, "%s: %s\n", prog, err);
                status = EXIT_USAGE;
                goto out;
            }
            if (st != SV_CAPTURE_OK) {
                printf("  cuda: FAILED: %s\n", err);
                fprintf(stderr, "%s: cuda: %s\n", prog, err);
                failures++;
            }
        } else if (o->backend == SV_CHOOSE_CUDA) {
            fprintf(stderr, "%s: --backend cuda: CUDA backend unavailable: %s\n", prog, why);
            status = EXIT_UNAVAILABLE;
            goto out;
        } else {
            printf("  cuda: not run: %s\n", why);
        }
    }

    trace_summary(cpu, sum, sizeof sum);
    if (gpu) {
        describe(gpu, who, sizeof who);
        printf("  %s: invariant holds\n", who);
        if (sv_trace_equal(gpu, cpu, diff, sizeof diff)) {
            printf("  %s vs cpu emulator: bit-identical trace (%s)\n", who, sum);
        } else {
            printf("  %s vs cpu emulator: traces DIFFER: %s\n", who, diff);
            failures++;
        }
    }
    if (given) {
        describe(given, who2, sizeof who2);
        snprintf(who, sizeof who, "%.250s (%s)",
                 strcmp(o->open_path, "-") == 0 ? "stdin" : o->open_path, who2);
        if (sv_trace_equal(given, cpu, diff, sizeof diff)) {
            printf("  %s vs cpu emulator: bit-identical trace (%s)\n", who, sum);
        } else {
            printf("  %s vs cpu emulator: traces DIFFER: %s\n", who, diff);
            failures++;
        }
    }

    ref = calloc(n, sizeof *ref);
    if (!ref) {
        fprintf(stderr, "%s: out of memory\n", prog);
        status = EXIT_FAILED;
        goto out;
    }
    sv_reference_scan(op, type, scan, input, ref, n);
    if (!check_reference(cpu, ref, "cpu emulator"))
        failures++;
    if (gpu && !check_reference(gpu, ref, describe(gpu, who, sizeof who)))
        failures++;

    if (failures) {
        printf("verify: FAILED (%d difference%s)\n", failures, failures == 1 ? "" : "s");
        fprintf(stderr, "%s: --verify: %d difference%s found\n", prog, failures,
                failures == 1 ? "" : "s");
        status = EXIT_DIFFERS;
    } else {
        printf("verify: OK\n");
    }
    if (fflush(stdout) != 0 && status == EXIT_OK)
        status = EXIT_FAILED;

    if (o->out_path) {
        int w = write_trace(given ? given : gpu ? gpu : cpu, o, NULL);
        if (w != EXIT_OK && status == EXIT_OK)
            status = w;
    }

out:
    free(ref);
    sv_trace_destroy(cpu);
    sv_trace_destroy(gpu);
    return status;
}

/* ---- main -------------------------------------------------------------- */

static int run_open(const options *o)
{
    char err[512];
    sv_trace *t = sv_trace_load(o->open_path, err, sizeof err);
    if (!t) {
        fprintf(stderr, "%s: %s\n", prog, err); /* err names the file */
        return EXIT_USAGE;
    }
    int status;
    if (o->verify)
        status = verify(o, t->op, t->type, t->scan, t->input, t->n, t);
    else
        status = write_trace(t, o, NULL);
    sv_trace_destroy(t);
    return status;
}

static int run_capture(const options *o)
{
    char err[512], note[600] = "";
    sv_capture_source src;
    sv_value *values = NULL;
    size_t n = 0;
    sv_trace *t = NULL;

    if (!sv_op_valid(o->op, o->type, err, sizeof err))
        return usage_error("--op %s: %s", sv_op_name(o->op), err);
    int status = read_input(o, &values, &n);
    if (status >= 0)
        return status;

    if (o->verify) {
        status = verify(o, o->op, o->type, o->scan, values, n, NULL);
        free(values);
        return status;
    }

    sv_capture_status st = capture(o->op, o->type, o->scan, values, n, o->backend, &t, &src,
                                   err, sizeof err);
    free(values);
    switch (st) {
    case SV_CAPTURE_OK:
        break;
    case SV_CAPTURE_BAD_INPUT:
        fprintf(stderr, "%s: %s\n", prog, err);
        return EXIT_USAGE;
    case SV_CAPTURE_UNAVAILABLE:
        fprintf(stderr, "%s: --backend cuda: %s\n", prog, err);
        return EXIT_UNAVAILABLE;
    case SV_CAPTURE_FAILED:
    default:
        fprintf(stderr, "%s: %s\n", prog, err);
        return EXIT_FAILED;
    }
    /* The emulator in place of the GPU auto preferred: say why. */
    if (src.fallback != SV_FALLBACK_NONE)
        sv_capture_source_line(&src, note, sizeof note);
    status = write_trace(t, o, note);
    sv_trace_destroy(t);
    return status;
}

int main(int argc, char **argv)
{
    options o;
    int status = parse_options(argc, argv, &o);
    if (status >= 0)
        return status;
    if (o.help) {
        usage(stdout);
        return EXIT_OK;
    }
    if (o.version) {
        printf("scanviz-trace %s (CUDA backend %s)\n", SV_VERSION,
               SV_HAVE_CUDA ? "built in" : "not built");
        return EXIT_OK;
    }
    return o.open_path ? run_open(&o) : run_capture(&o);
}
