/* scanviz-bench: races the device-wide scans of kernels/bench_*.cu and the
 * sequential CPU scan (the registry, src/core/algo.h), checks every answer
 * against the CPU (bench_check.h), and prints and writes the medians
 * (bench_csv.h); --progress-csv streams the rows as they are measured. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sv_config.h"
#include "../core/algo.h"
#include "../core/args.h"
#include "../core/bench_check.h"
#include "../core/bench_csv.h"
#include "../core/fileio.h"
#include "../core/options.h"
#include "../core/escape.h"
#include "../core/timeline.h"
#include "../capture/capture.h"
#include "../../kernels/scan_cuda.h"

enum { EXIT_WRONG = 1, EXIT_USAGE = 2, EXIT_NO_GPU = 3 };

#define MAX_SIZES 256
#define WARMUP 3
#define CPU_BUDGET_S 3.0   /* the cpu scan's timed reps stop near this */

typedef struct options {
    int algos[SV_ALGO_COUNT];
    int nalgos;
    size_t sizes[MAX_SIZES];
    int nsizes;
    sv_type type;
    int reps;
    const char *csv;
    const char *timeline; /* --timeline FILE: record hs at the one size */
    int capture;
    int progress_csv;   /* stdout is the CSV, a row flushed as each is measured */
    int explicit_scans; /* --algo or --sizes given */
    const char *sizes_arg; /* --sizes as given; NULL: the default */
} options;

static const char *type_label(sv_type t)
{
    return t == SV_TYPE_FLOAT32 ? "float32" : "int32";
}

static const char *algo_label(int a)
{
    return sv_algo_name((sv_algo)a);
}

static void usage(FILE *f)
{
    fputs("usage: scanviz-bench [--algo NAME,...] [--sizes 2^10..2^28]\n"
          "                     [--type int32|float32] [--reps " SV_STR(SV_BENCH_DEFAULT_REPS)
          "] [--csv FILE] [--capture]\n"
          "                     [--progress-csv] [--timeline FILE]\n"
          "\n"
          "Races device-wide inclusive sum scans on the GPU and checks each against the CPU.\n",
          f);
    sv_options_help(SV_FOR_BENCH, f); /* the option table, core/options.def */
    fputs("\n"
          "Exit status: 0 all correct, 1 a wrong answer or a CUDA failure, 2 bad arguments,\n"
          "3 no usable GPU.\n", f);
}

/* ---- Arguments ----------------------------------------------------------- */

static int bad(const char *what, const char *token)
{
    fprintf(stderr, "scanviz-bench: %s: '%s'\n", what, token);
    fprintf(stderr, "try 'scanviz-bench --help'\n");
    return EXIT_USAGE;
}

/* A bad item of a comma list: names the item and, in a list of several,
 * its position (an empty item, as in "1,,2", by its position alone). */
static int bad_item(const char *opt, const char *list, int pos, const char *item,
                    const char *why)
{
    if (!*item)
        fprintf(stderr, "scanviz-bench: %s: item %d of '%s' is empty\n", opt, pos, list);
    else if (strchr(list, ','))
        fprintf(stderr, "scanviz-bench: %s: item %d '%s' of '%s': %s\n", opt, pos, item, list,
                why);
    else
        fprintf(stderr, "scanviz-bench: %s: '%s': %s\n", opt, item, why);
    fprintf(stderr, "try 'scanviz-bench --help'\n");
    return EXIT_USAGE;
}

/* Parses a decimal number or 2^k into *out (1 .. INT_MAX). */
static int parse_size(const char *s, size_t *out)
{
    char *end = NULL;
    errno = 0;
    if (s[0] == '2' && s[1] == '^') {
        if (s[2] < '0' || s[2] > '9')
            return 0;
        long k = strtol(s + 2, &end, 10);
        if (errno || *end || k < 0 || k > 30)
            return 0;
        *out = (size_t)1 << k;
        return 1;
    }
    if (*s < '0' || *s > '9')
        return 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < 1 || v > (unsigned long long)INT_MAX)
        return 0;
    *out = (size_t)v;
    return 1;
}

/* Appends n unless the list has it already (a size given twice, or a
 * number inside a range also given, is run once, like a repeated --algo). */
static int add_size(options *o, size_t n)
{
    for (int k = 0; k < o->nsizes; k++)
        if (o->sizes[k] == n)
            return 1;
    if (o->nsizes == MAX_SIZES)
        return 0;
    o->sizes[o->nsizes++] = n;
    return 1;
}

/* Splits a copy of the comma list arg, in buf, into its items (empty ones
 * too). Returns how many, or 0 when arg is empty or longer than max_len
 * (below LIST_MAX). */
#define LIST_MAX 1024
static int split_list(const char *arg, size_t max_len, char buf[LIST_MAX],
                      char *items[LIST_MAX])
{
    if (strlen(arg) > max_len || !*arg)
        return 0;
    strcpy(buf, arg);
    int n = 0;
    for (char *tok = buf; tok; n++) {
        items[n] = tok;
        tok = strchr(tok, ',');
        if (tok)
            *tok++ = '\0';
    }
    return n;
}

/* Comma list of items: N, 2^k, or 2^a..2^b. */
static int parse_sizes(options *o, const char *arg)
{
    char buf[LIST_MAX], *items[LIST_MAX];
    int count = split_list(arg, LIST_MAX - 1, buf, items);
    if (!count)
        return bad("--sizes: not a list of sizes", arg);
    o->nsizes = 0;
    for (int pos = 1; pos <= count; pos++) {
        char *tok = items[pos - 1];
        char *dots = strstr(tok, "..");
        if (dots) {
            *dots = '\0';
            size_t lo, hi;
            const char *rhs = dots + 2;
            int ok = tok[0] == '2' && tok[1] == '^' && rhs[0] == '2' && rhs[1] == '^' &&
                     parse_size(tok, &lo) && parse_size(rhs, &hi) && lo <= hi;
            *dots = '.';
            if (!ok)
                return bad_item("--sizes", arg, pos, tok,
                                "a range is 2^a..2^b with 0 <= a <= b <= 30");
            for (size_t n = lo; n <= hi; n *= 2)
                if (!add_size(o, n))
                    return bad("--sizes: more than 256 sizes", arg);
        } else {
            size_t n;
            if (!parse_size(tok, &n))
                return bad_item("--sizes", arg, pos, tok,
                                "not a size (a number 1..2147483647, or 2^k with 0 <= k <= 30)");
            if (!add_size(o, n))
                return bad("--sizes: more than 256 sizes", arg);
        }
    }
    return 0;
}

static int parse_algos(options *o, const char *arg)
{
    char buf[LIST_MAX], *items[LIST_MAX];
    int count = split_list(arg, 255, buf, items);
    if (!count)
        return bad("--algo: not a list of algorithms", arg);
    int seen[SV_ALGO_COUNT] = {0};
    o->nalgos = 0;
    for (int pos = 1; pos <= count; pos++) {
        const char *tok = items[pos - 1];
        sv_algo a;
        if (!sv_algo_from_name(tok, &a)) {
            char names[160], why[200];
            sv_algo_list(names, sizeof names, ", ");
            snprintf(why, sizeof why, "unknown algorithm (%s)", names);
            return bad_item("--algo", arg, pos, tok, why);
        }
        int id = (int)a;
        if (!seen[id]) {
            seen[id] = 1;
            o->algos[o->nalgos++] = id;
        }
    }
    return 0;
}

/* --reps N: the row's range (core/options.def). */
static int parse_reps(options *o, const sv_option *row, const char *val)
{
    char *end = NULL;
    errno = 0;
    long long r = strtoll(val, &end, 10);
    if (errno || *end || end == val || r < (long long)row->lo || r > (long long)row->hi) {
        char what[64];
        snprintf(what, sizeof what, "--reps: not a count %llu..%llu",
                 (unsigned long long)row->lo, (unsigned long long)row->hi);
        return bad(what, val);
    }
    o->reps = (int)r;
    return 0;
}

/* The option of the table (core/options.def) that arg names: "--name",
 * "--name=value" (*val set) or "-x". NULL for anything else. */
static const sv_option *option_of(const char *arg, const char **val)
{
    *val = NULL;
    if (strncmp(arg, "--", 2) != 0)
        return arg[0] == '-' && arg[1] && !arg[2] ? sv_options_find_short(SV_FOR_BENCH, arg[1])
                                                  : NULL;
    char name[32];
    size_t len = strcspn(arg + 2, "=");
    if (len >= sizeof name)
        return NULL;
    memcpy(name, arg + 2, len);
    name[len] = '\0';
    if (arg[2 + len] == '=')
        *val = arg + 3 + len;
    return sv_options_find(SV_FOR_BENCH, name);
}

/* Returns -1 to go on, else the exit status. Arguments are read left to
 * right, each message naming the token ("try 'scanviz-bench --help'"). */
static int parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    for (int a = 0; a < SV_ALGO_COUNT; a++)
        o->algos[o->nalgos++] = a;
    o->type = SV_TYPE_INT32;
    o->reps = SV_BENCH_DEFAULT_REPS;
    for (size_t n = (size_t)1 << 10; n <= (size_t)1 << 28; n *= 2)
        o->sizes[o->nsizes++] = n;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val;
        const sv_option *row = option_of(arg, &val);
        if (!row)
            return bad("unknown argument", arg);
        char name[40];
        snprintf(name, sizeof name, "--%s", row->name);
        if (row->kind == SV_OPT_FLAG && val) {
            char what[64];
            snprintf(what, sizeof what, "%s takes no value", name);
            return bad(what, arg);
        }
        if (row->kind != SV_OPT_FLAG && !val) {
            if (i + 1 >= argc)
                return bad("missing value after", arg);
            val = argv[++i];
        }
        int rc = 0;
        switch (row->id) {
        case SV_OPTION_HELP:
            usage(stdout);
            return 0;
        case SV_OPTION_VERSION:
            printf("scanviz-bench %s\n", SV_VERSION);
            return 0;
        case SV_OPTION_CAPTURE: o->capture = 1; break;
        case SV_OPTION_PROGRESS_CSV: o->progress_csv = 1; break;
        case SV_OPTION_ALGO:
            rc = parse_algos(o, val);
            o->explicit_scans = 1;
            break;
        case SV_OPTION_SIZES:
            rc = parse_sizes(o, val);
            o->explicit_scans = 1;
            o->sizes_arg = val;
            break;
        case SV_OPTION_BENCH_TYPE:
            if (!sv_type_from_name(val, &o->type))
                rc = bad("--type: not int32 or float32", val);
            break;
        case SV_OPTION_REPS: rc = parse_reps(o, row, val); break;
        case SV_OPTION_CSV:
            if (!*val)
                rc = bad("--csv: empty file name", val);
            o->csv = val;
            break;
        case SV_OPTION_BENCH_TIMELINE:
            if (!*val)
                rc = bad("--timeline: empty file name", val);
            o->timeline = val;
            break;
        default:
            return bad("unknown argument", arg);
        }
        if (rc)
            return rc;
    }
    if (o->timeline) {
        int hs = 0;
        for (int j = 0; j < o->nalgos; j++)
            hs |= o->algos[j] == SV_ALGO_HS;
        if (o->nsizes != 1 || !o->sizes_arg)
            return bad("--timeline records one size: give --sizes N, not",
                       o->sizes_arg ? o->sizes_arg : "the default sizes 2^10..2^28");
        if (!hs)
            return bad("--timeline records hs: --algo must include hs, not", "the list given");
        if (o->capture)
            return bad("--timeline does not combine with", "--capture");
    }
    return -1;
}

/* ---- Timing ------------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- One size ----------------------------------------------------------------- */

typedef struct result {
    int run, ok, reps;
    double median_us;
    sv_bench_check chk;
} result;

/* Checks a GPU algorithm (poisoned output, one run), times it, and checks
 * the last timed run's output too. Returns 0 on a CUDA failure (err set). */
static int run_gpu(sv_cuda_scanner *sc, const options *o, sv_algo a, size_t n, const void *in,
                   void *out, double *times, result *r, char *err, size_t errlen)
{
    r->run = 1;
    if (!sv_cuda_scanner_poison(sc, err, errlen) || !sv_cuda_scanner_run(sc, a, n, err, errlen) ||
        !sv_cuda_scanner_download(sc, out, n, err, errlen))
        return 0;
    r->chk = a == SV_ALGO_COPY ? sv_bench_check_copy(in, out, n)
                               : sv_bench_check_scan(o->type, in, out, n);
    if (!r->chk.ok)
        return 1;
    if (!sv_cuda_scanner_time(sc, a, n, WARMUP, o->reps, times, err, errlen))
        return 0;
    r->reps = o->reps;
    r->median_us = sv_bench_median(times, o->reps);
    if (!sv_cuda_scanner_download(sc, out, n, err, errlen))
        return 0;
    sv_bench_check again = a == SV_ALGO_COPY ? sv_bench_check_copy(in, out, n)
                                             : sv_bench_check_scan(o->type, in, out, n);
    if (!again.ok)
        r->chk = again;
    r->ok = r->chk.ok;
    return 1;
}

static void run_cpu(const options *o, size_t n, const void *in, void *out, double *times,
                    result *r)
{
    r->run = 1;
    memset(out, 0xA5, n * 4);
    double t0 = now_s();
    sv_bench_cpu_scan(o->type, in, out, n);
    double first = now_s() - t0;
    r->chk = sv_bench_check_scan(o->type, in, out, n);
    if (!r->chk.ok)
        return;
    int reps = o->reps;
    if (first * reps > CPU_BUDGET_S)
        reps = (int)(CPU_BUDGET_S / (first > 0 ? first : 1e-9));
    if (reps < 3)
        reps = 3;
    if (reps > o->reps)
        reps = o->reps;
    for (int k = 0; k < reps; k++) {
        t0 = now_s();
        sv_bench_cpu_scan(o->type, in, out, n);
        times[k] = 1e6 * (now_s() - t0);
    }
    r->reps = reps;
    r->median_us = sv_bench_median(times, reps);
    r->ok = 1;
}

static double ops_of(int a, size_t n)
{
    return a == SV_ALGO_CPU ? (double)n - 1 : sv_algo_ops((sv_algo)a, n);
}

/* ---- Output ------------------------------------------------------------------- */

static void print_header(void)
{
    printf("%-11s %-7s %11s %12s %9s %8s %8s %14s  %s\n", "algo", "type", "n", "median us",
           "GB/s", "of copy", "vs cub", "ops", "check");
}

static void print_row(const options *o, int a, size_t n, const result *r, const result *copy,
                      const result *cub, sv_bench_row *row)
{
    const char *type = type_label(o->type);
    if (!r->ok) {
        /* With --progress-csv stdout is the CSV: the wrong answer goes to stderr. */
        fprintf(o->progress_csv ? stderr : stdout,
                "%-11s %-7s %11zu  WRONG at index %zu: got %.9g, want %.9g\n", algo_label(a),
                type, n, r->chk.bad_index, r->chk.got, r->chk.want);
        return;
    }
    double gbs = 8.0 * (double)n / (r->median_us * 1e3);
    double frac = copy && copy->ok ? copy->median_us / r->median_us : NAN;
    double ratio = cub && cub->ok ? r->median_us / cub->median_us : NAN;
    char fbuf[16] = "-", rbuf[16] = "-", cbuf[32] = "exact";
    /* int32 is compared bit for bit, float32 to a tolerance: say which, and
     * for float32 the largest relative difference found. */
    if (a == SV_ALGO_COPY)
        snprintf(cbuf, sizeof cbuf, "same bits");
    else if (o->type == SV_TYPE_FLOAT32)
        snprintf(cbuf, sizeof cbuf, "rel %.1e", r->chk.max_rel);
    if (!isnan(frac))
        snprintf(fbuf, sizeof fbuf, "%.3f", frac);
    if (!isnan(ratio))
        snprintf(rbuf, sizeof rbuf, "%.3f", ratio);
    if (!o->progress_csv)
        printf("%-11s %-7s %11zu %12.2f %9.1f %8s %8s %14.0f  %s\n", algo_label(a), type, n,
               r->median_us, gbs, fbuf, rbuf, ops_of(a, n), cbuf);

    memset(row, 0, sizeof *row);
    snprintf(row->algo, sizeof row->algo, "%s", algo_label(a));
    snprintf(row->type, sizeof row->type, "%s", type);
    row->n = (double)n;
    row->median_us = r->median_us;
    row->gb_per_s = gbs;
    row->frac_of_copy = frac;
    row->ratio_to_cub = ratio;
    row->ops = ops_of(a, n);
    row->reps = r->reps;
    if (o->progress_csv) /* the row, as soon as it is measured */
        sv_bench_row_write(row, stdout);
}

/* ---- --timeline --------------------------------------------------------------- */

/* Medians of hs at n with the recording off and on, timed in turns (off,
 * on, off, on: reps each) so that drift of the clocks falls on both. The
 * records kept are the last recorded run's. */
static int time_recorded(sv_cuda_scanner *sc, const options *o, size_t n, double *times,
                         double *plain_us, double *rec_us, char *err, size_t errlen)
{
    const int reps = o->reps;
    double *all[2] = {malloc(2 * (size_t)reps * sizeof(double)),
                      malloc(2 * (size_t)reps * sizeof(double))};
    int ok = all[0] && all[1];
    if (!ok)
        snprintf(err, errlen, "out of host memory");
    for (int turn = 0; ok && turn < 4; turn++) {
        const int on = turn & 1;
        ok = sv_cuda_scanner_record(sc, n, on, err, errlen) &&
             sv_cuda_scanner_time(sc, SV_ALGO_HS, n, WARMUP, reps, times, err, errlen);
        if (ok)
            memcpy(all[on] + (size_t)(turn / 2) * reps, times, (size_t)reps * sizeof *times);
    }
    if (ok) {
        *plain_us = sv_bench_median(all[0], 2 * reps);
        *rec_us = sv_bench_median(all[1], 2 * reps);
    }
    free(all[0]);
    free(all[1]);
    return ok;
}

/* The records of the last recorded run as a timeline (times after the
 * earliest). NULL with err set when a tile was never recorded. */
static sv_timeline *timeline_of(const sv_cuda_tile_record *rec, size_t tiles, char *err,
                                size_t errlen)
{
    sv_timeline *t = sv_timeline_new((uint32_t)tiles);
    if (!t) {
        snprintf(err, errlen, "out of host memory");
        return NULL;
    }
    unsigned long long origin = ~0ull;
    for (size_t i = 0; i < tiles; i++) {
        const sv_cuda_tile_record *r = &rec[i];
        if (!r->start || !r->aggregate || !r->inclusive || !r->end) {
            snprintf(err, errlen, "tile %zu of %zu has no record (a clock of 0)", i, tiles);
            sv_timeline_destroy(t);
            return NULL;
        }
        unsigned long long v[] = {r->start, r->aggregate, r->inclusive, r->end};
        for (int k = 0; k < 4; k++)
            if (v[k] < origin)
                origin = v[k];
    }
    for (size_t i = 0; i < tiles; i++) {
        const sv_cuda_tile_record *r = &rec[i];
        sv_timeline_tile *x = &t->tiles[i];
        x->start = r->start - origin;
        x->aggregate = r->aggregate - origin;
        x->inclusive = r->inclusive - origin;
        x->end = r->end - origin;
        x->block = r->block;
        x->sm = r->sm;
        x->lo = r->lo;
        x->windows = r->windows;
        x->polls = r->polls;
        x->early = r->early != 0;
        if (r->block + 1 > t->blocks)
            t->blocks = r->block + 1;
    }
    return t;
}

/* Records hs at n (its answer checked like every run's), measures the
 * recording's overhead and writes the timeline through tl (begun before the
 * run). Returns the exit status (0 fine). */
static int run_timeline(sv_cuda_scanner *sc, const options *o, const sv_bench_table *table,
                        size_t n, const void *in, void *out, double *times, sv_file *tl)
{
    char err[512];
    FILE *say = o->progress_csv ? stderr : stdout;
    const char *variant = NULL;
    size_t tile = 0;
    bool can = false;
    if (!sv_cuda_hs_shape(sc, n, &variant, &tile, &can) || !can) {
        fprintf(stderr, "scanviz-bench: --timeline: hs at n = %zu runs \"%s\", which does not "
                "record its tiles\n", n, variant ? variant : "?");
        return EXIT_WRONG;
    }
    const size_t tiles = (n + tile - 1) / tile;
    if (tiles > SV_TIMELINE_MAX_TILES) {
        fprintf(stderr, "scanviz-bench: --timeline: n = %zu makes %zu tiles, more than the %u "
                "a timeline holds\n", n, tiles, SV_TIMELINE_MAX_TILES);
        return EXIT_WRONG;
    }
    double plain = 0, recorded = 0;
    sv_cuda_tile_record *rec = calloc(tiles, sizeof *rec);
    sv_timeline *t = NULL;
    int status = EXIT_WRONG;
    if (!rec) {
        snprintf(err, sizeof err, "out of host memory");
        goto cuda_fail;
    }
    /* The recorded kernel's answer, checked as every run's is. */
    if (!sv_cuda_scanner_record(sc, n, true, err, sizeof err) ||
        !sv_cuda_scanner_poison(sc, err, sizeof err) ||
        !sv_cuda_scanner_run(sc, SV_ALGO_HS, n, err, sizeof err) ||
        !sv_cuda_scanner_download(sc, out, n, err, sizeof err))
        goto cuda_fail;
    sv_bench_check chk = sv_bench_check_scan(o->type, in, out, n);
    if (!chk.ok) {
        fprintf(stderr, "scanviz-bench: --timeline: hs recording its tiles was WRONG at index "
                "%zu: got %.9g, want %.9g; no timeline written\n", chk.bad_index, chk.got,
                chk.want);
        goto done;
    }
    if (!time_recorded(sc, o, n, times, &plain, &recorded, err, sizeof err) ||
        !sv_cuda_scanner_records(sc, n, rec, tiles, err, sizeof err))
        goto cuda_fail;
    if (!(t = timeline_of(rec, tiles, err, sizeof err))) {
        fprintf(stderr, "scanviz-bench: --timeline: %s; no timeline written\n", err);
        goto done;
    }
    snprintf(t->algo, sizeof t->algo, "hs");
    snprintf(t->variant, sizeof t->variant, "%s", variant);
    snprintf(t->gpu, sizeof t->gpu, "%s", table->gpu);
    snprintf(t->cuda, sizeof t->cuda, "%s", table->cuda);
    snprintf(t->date, sizeof t->date, "%s", table->date);
    snprintf(t->command, sizeof t->command, "%s", table->command);
    t->type = o->type;
    t->n = n;
    t->tile = (uint32_t)tile;
    t->reps = 2 * o->reps;
    t->plain_us = plain;
    t->recorded_us = recorded;
    if (!sv_timeline_write(t, sv_file_stream(tl), err, sizeof err)) {
        fprintf(stderr, "scanviz-bench: --timeline %s: %s\n", sv_file_name(tl), err);
        goto done;
    }
    if (!sv_file_commit(tl, err, sizeof err)) {
        tl = NULL;
        fprintf(stderr, "scanviz-bench: --timeline: %s\n", err);
        goto done;
    }
    tl = NULL;
    fprintf(say, "# timeline: %zu tiles of %zu (%s), %u blocks; recording overhead %+.1f %% "
            "(hs %.2f us, recorded %.2f us, medians of %d each)\n", tiles, tile, variant,
            t->blocks, 100.0 * (recorded / plain - 1.0), plain, recorded, 2 * o->reps);
    status = 0;
    goto done;
cuda_fail:
    fprintf(stderr, "scanviz-bench: --timeline at n = %zu: %s\n", n, err);
done:
    sv_file_abort(tl);
    sv_cuda_scanner_record(sc, n, false, err, sizeof err);
    sv_timeline_destroy(t);
    free(rec);
    return status;
}

/* ---- --capture ---------------------------------------------------------------- */

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The cost of a chapter capture as the window and scanviz-trace pay it:
 * sv_capture on the GPU, the one path (the kernel runtime's child, NVRTC's
 * compile, the launch, the kernel trace read as the chapter's rounds), int32
 * sum of random values, host clock around the whole call; after one
 * untimed capture, the median, least and most of reps per n. */
static int run_capture(const options *o)
{
    static const size_t ns[] = { 32, 64, 128, 256, 512, 1024 };
    char err[512];
    double *ms = malloc((size_t)o->reps * sizeof *ms);
    if (!ms) {
        fprintf(stderr, "scanviz-bench: out of memory\n");
        return EXIT_WRONG;
    }
    printf("capture cost (the chapter, int32 sum, through the GPU runtime: child, compile, "
           "launch, trace; host clock, %d reps after one untimed)\n", o->reps);
    printf("%6s %11s %11s %11s\n", "n", "median ms", "least ms", "most ms");
    int status = 0;
    for (size_t k = 0; k < sizeof ns / sizeof ns[0] && !status; k++) {
        sv_value in[1024];
        for (size_t i = 0; i < ns[k]; i++)
            in[i].i = (int32_t)((i * 2654435761u) >> 24) - 128;
        const sv_capture_request req = {.op = SV_OP_SUM, .type = SV_TYPE_INT32,
                                        .scan = SV_SCAN_INCLUSIVE, .input = in, .n = ns[k],
                                        .choice = SV_CHOOSE_CUDA};
        for (int r = -1; r < o->reps && !status; r++) {
            sv_trace *t = NULL;
            double t0 = now_us();
            sv_capture_status st = sv_capture(&req, &t, NULL, err, sizeof err);
            double dt = (now_us() - t0) / 1e3;
            sv_trace_destroy(t);
            if (st != SV_CAPTURE_OK) {
                fprintf(stderr, "scanviz-bench: capture at n = %zu: %s\n", ns[k], err);
                status = EXIT_WRONG;
            } else if (r >= 0) {
                ms[r] = dt;
            }
        }
        if (status)
            break;
        double lo = ms[0], hi = ms[0];
        for (int r = 1; r < o->reps; r++) {
            lo = ms[r] < lo ? ms[r] : lo;
            hi = ms[r] > hi ? ms[r] : hi;
        }
        printf("%6zu %11.2f %11.2f %11.2f\n", ns[k], sv_bench_median(ms, o->reps), lo, hi);
    }
    free(ms);
    return status;
}

/* ---- main --------------------------------------------------------------------- */

static void join_command(int argc, char **argv, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < argc && used + 1 < len; i++) {
        const char *a = i == 0 ? "scanviz-bench" : argv[i];
        int w = snprintf(buf + used, len - used, "%s%s", i ? " " : "", a);
        if (w < 0 || (size_t)w >= len - used) {
            buf[len - 1] = '\0';
            break;
        }
        used += (size_t)w;
    }
}

static int run_scans(const options *o, const sv_cuda_device *dev, int argc, char **argv)
{
    char err[512];
    size_t max_n = 0;
    for (int k = 0; k < o->nsizes; k++)
        if (o->sizes[k] > max_n)
            max_n = o->sizes[k];

    int status = 0, wrong = 0;
    sv_cuda_scanner *sc = NULL;
    /* Begun first, so an unwritable path fails before the run; written all
     * or nothing (core/fileio.h): a temporary file beside it, renamed over
     * it once the whole table is on disk. */
    sv_file *csv = NULL;
    sv_bench_table table;
    memset(&table, 0, sizeof table);
    if (o->csv && !(csv = sv_file_begin(o->csv, err, sizeof err))) {
        fprintf(stderr, "scanviz-bench: --csv: %s\n", err);
        return EXIT_WRONG;
    }
    sv_file *tl = NULL; /* --timeline, begun first for the same reason */
    if (o->timeline && !(tl = sv_file_begin(o->timeline, err, sizeof err))) {
        fprintf(stderr, "scanviz-bench: --timeline: %s\n", err);
        sv_file_abort(csv);
        return EXIT_WRONG;
    }
    void *in = malloc(max_n * 4), *out = malloc(max_n * 4);
    double *times = malloc((size_t)o->reps * sizeof *times);
    table.rows = calloc((size_t)o->nsizes * SV_ALGO_COUNT, sizeof *table.rows);
    if (!in || !out || !times || !table.rows) {
        fprintf(stderr, "scanviz-bench: out of host memory for n = %zu\n", max_n);
        status = EXIT_WRONG;
        goto done;
    }
    sc = sv_cuda_scanner_create(o->type, max_n, err, sizeof err);
    if (!sc) {
        fprintf(stderr, "scanviz-bench: %s\n", err);
        status = EXIT_WRONG;
        goto done;
    }

    char cuda[64];
    sv_cuda_version(cuda, sizeof cuda);
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    snprintf(table.gpu, sizeof table.gpu, "%.127s", dev->name);
    snprintf(table.cuda, sizeof table.cuda, "%.31s", cuda);
    strftime(table.date, sizeof table.date, "%Y-%m-%d", &tm);
    join_command(argc, argv, table.command, sizeof table.command);
    if (o->progress_csv) {
        /* The CSV of bench_csv.h, with the rows planned first: a reader
         * shows progress as rows seen / rows planned. */
        printf("# rows: %d\n", o->nsizes * o->nalgos);
        sv_bench_table_write_head(&table, stdout);
    } else {
        printf("# gpu: %s (%d SMs, compute capability %d.%d)\n# cuda: %s\n# date: %s\n"
               "# command: %s\n",
               dev->name, dev->sm_count, dev->cc_major, dev->cc_minor, cuda, table.date,
               table.command);
        print_header();
    }
    fflush(stdout);

    for (int k = 0; k < o->nsizes; k++) {
        const size_t n = o->sizes[k];
        result res[SV_ALGO_COUNT];
        memset(res, 0, sizeof res);
        sv_bench_fill(o->type, in, n, 20261129u + n);
        if (!sv_cuda_scanner_upload(sc, in, n, err, sizeof err)) {
            fprintf(stderr, "scanviz-bench: n = %zu: %s\n", n, err);
            status = EXIT_WRONG;
            goto done;
        }
        for (int j = 0; j < o->nalgos; j++) {
            int a = o->algos[j];
            if (a == SV_ALGO_CPU) {
                run_cpu(o, n, in, out, times, &res[a]);
            } else if (!run_gpu(sc, o, (sv_algo)a, n, in, out, times, &res[a], err, sizeof err)) {
                fprintf(stderr, "scanviz-bench: %s at n = %zu: %s\n", algo_label(a), n, err);
                status = EXIT_WRONG;
                goto done;
            }
        }
        if (tl) { /* the one size: hs's row first, then its recording */
            int rc = res[SV_ALGO_HS].ok ? run_timeline(sc, o, &table, n, in, out, times, tl)
                                        : EXIT_WRONG;
            tl = NULL; /* committed or dropped */
            if (rc)
                status = rc;
        }
        const result *copy = res[SV_ALGO_COPY].run ? &res[SV_ALGO_COPY] : NULL;
        const result *cub = res[SV_ALGO_CUB].run ? &res[SV_ALGO_CUB] : NULL;
        for (int j = 0; j < o->nalgos; j++) {
            int a = o->algos[j];
            print_row(o, a, n, &res[a], copy, cub, &table.rows[table.nrows]);
            if (res[a].ok) {
                table.nrows++;
            } else {
                wrong = 1;
                status = EXIT_WRONG;
            }
        }
        fflush(stdout);
    }

    if (csv) {
        bool ok = sv_bench_table_write(&table, sv_file_stream(csv), err, sizeof err);
        if (!ok) {
            sv_file_abort(csv);
            fprintf(stderr, "scanviz-bench: --csv %s: %s\n", o->csv, err);
        } else if (!(ok = sv_file_commit(csv, err, sizeof err))) {
            fprintf(stderr, "scanviz-bench: --csv: %s\n", err);
        }
        csv = NULL;
        if (!ok)
            status = EXIT_WRONG;
    }
    if (wrong)
        fprintf(stderr, "scanviz-bench: some answers were wrong; their figures are left out\n");

done:
    sv_file_abort(csv); /* a CUDA failure or no memory: no table, the old file kept */
    sv_file_abort(tl);
    sv_cuda_scanner_destroy(sc);
    free(table.rows);
    free(times);
    free(out);
    free(in);
    return status;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0)
        return rc;

    sv_cuda_device dev;
    char why[512];
    if (!sv_cuda_probe(&dev, why, sizeof why)) {
        fprintf(stderr, "scanviz-bench: no usable GPU: %s\n", why);
        return EXIT_NO_GPU;
    }
    if (o.capture) {
        rc = run_capture(&o);
        if (rc || !o.explicit_scans)
            return sv_stdout_status("scanviz-bench", rc, EXIT_WRONG);
    }
    return sv_stdout_status("scanviz-bench", run_scans(&o, &dev, argc, argv), EXIT_WRONG);
}
