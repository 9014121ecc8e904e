/* scanviz-trace: runs the chapter's Hillis-Steele scan on the GPU or on the
 * bit-exact CPU emulator and prints its trace (a table, or the JSON trace
 * file); --verify compares the backends, --open re-reads a trace file;
 * --kernel-file runs a student's kernel file (kernel_cmd.c). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sv_config.h"
#include "../capture/capture.h"
#include "../capture/kernel_run.h"
#include "../core/args.h"
#include "../core/escape.h"
#include "../core/fileio.h"
#include "../core/input.h"
#include "../core/ktrace_file.h"
#include "../core/lab.h"
#include "../core/options.h"
#include "../core/reference.h"
#include "../core/parse.h"
#include "../core/table.h"
#include "../core/trace.h"
#include "../core/trace_file.h"
#include "../runtime/runtime.h"
#include "kernel_cmd.h"
#include "exercise_cmd.h"

/* Exit statuses (also in --help). */
enum {
    EXIT_OK = 0,
    EXIT_FAILED = 1,      /* the backend failed while running, or output could not be written */
    EXIT_USAGE = 2,       /* bad input or usage: stderr names the token and its position */
    EXIT_UNAVAILABLE = 3, /* the backend asked for is unavailable: stderr says why */
    EXIT_DIFFERS = 4      /* --verify found a difference */
};

typedef enum { FORMAT_TABLE, FORMAT_JSON } out_format;

typedef struct options {
    sv_input input; /* --input, --file, -, --random, --seed (core/input.h) */

    sv_op op;
    sv_type type;
    sv_scan scan;
    bool scan_given;       /* --op, --type or --exclusive was given */
    sv_backend_choice backend;
    out_format format;
    const char *out_path;
    bool verify;
    const char *open_path;
    bool help, version;
    /* The mistakes lab (capture.h): any of these makes a lab capture. */
    const char *kernel;    /* --kernel NAME */
    const char *schedule;  /* --schedule NAME, as given (NULL: none) */
    sv_schedule sched;     /* ... parsed once, where it is taken */
    sv_lab_options lab;    /* --runs, --shake, --shake-seed (core/args.h) */
    bool racecheck;        /* --racecheck */
    int lab_arg;           /* argv index of the first lab option, 0 if none */
    /* Your own kernel (kernel_cmd.h) */
    const char *kernel_file; /* --kernel-file FILE.cu */
    const char *entry;       /* --entry NAME */
    double time_limit;       /* --time-limit SECONDS, 0: the runtime's default */
    int kernel_arg;          /* argv index of --kernel-file, 0 if none */
    int kernel_only_arg;     /* argv index of the first of --entry / --time-limit */
    int kernel_name_arg;     /* argv index of --kernel */
    /* Exercises (exercise_cmd.h) */
    const char *exercise;    /* --exercise NAME */
    const char *grade;       /* --grade DIR */
} options;

static const char *prog = "scanviz-trace";

static void usage(FILE *f)
{
    fputs(
"Usage: scanviz-trace [--input \"" SV_CHAPTER_EXAMPLE "\" | --file PATH | --random N [--seed S] | -]\n"
"                     [--op sum|max|min|product|xor] [--type int32|float32] [--exclusive]\n"
"                     [--backend auto|cuda|cpu] [--format table|json] [-o FILE] [--verify]\n"
"                     [--kernel NAME] [--schedule NAME] [--runs R] [--shake] [--racecheck]\n"
"       scanviz-trace --open FILE.json [--format table|json] [-o FILE] [--verify]\n"
"       scanviz-trace --kernel-file FILE.cu [--entry NAME] [input, scan and lab options]\n"
"                     [--time-limit SECONDS] [--format table|json] [-o FILE]\n"
"\n"
"Runs the Hillis-Steele scan of the chapter on the GPU (CUDA), or on a bit-exact CPU\n"
"emulator where there is none, and prints its trace: every round's double buffer and\n"
"the case of every cell (copy, partial or full window).\n", f);
    sv_options_help(SV_FOR_TRACE, f); /* the option table, core/options.def */
    fputs(
"\n"
"Exit status: 0 success; 1 the backend failed or the output (a file, or standard\n"
"output) could not be written; 2 bad input or usage, or input over its limit; 3 the\n"
"backend asked for is unavailable; 4 --verify found a difference.\n"
"With --kernel-file: 0 the output equals the scan and no hazard was found; 4 it ran,\n"
"but the output is wrong or hazards were found; 2 it does not compile or its signature\n"
"is wrong; 5 it failed while running (crash, out of range, deadlock, time or memory\n"
"limit).\n", f);
}

/* Prints "scanviz-trace: <msg>" to stderr, escaped (sv_escape: the message
 * may quote a file, an argument or a device name), and returns status. */
#define report(status, ...) sv_report(prog, (status), NULL, __VA_ARGS__)
#define usage_error(...) sv_report(prog, EXIT_USAGE, SV_USAGE_HINT("scanviz-trace"), __VA_ARGS__)

/* One option or operand, checked by the table (core/options.def). */
static bool take(void *ctx, const sv_opt_arg *a, char *err, size_t errlen)
{
    options *o = ctx;
    int common = sv_args_take_common(&o->input, &o->lab, a, err, errlen);
    if (common >= 0)
        return common == 1;
    switch (a->id) {
    case SV_OPTION_NONE: /* only "-" (standard input) is an operand */
        return sv_options_bad(a, err, errlen, "unexpected argument");
    case SV_OPTION_OP: o->op = (sv_op)a->e; break;
    case SV_OPTION_TYPE: o->type = (sv_type)a->e; break;
    case SV_OPTION_EXCLUSIVE: o->scan = SV_SCAN_EXCLUSIVE; break;
    case SV_OPTION_BACKEND:
        if (!sv_backend_choice_from_name(a->text, &o->backend))
            return sv_options_bad(a, err, errlen, "not a backend");
        break;
    case SV_OPTION_FORMAT: o->format = strcmp(a->text, "json") == 0 ? FORMAT_JSON : FORMAT_TABLE; break;
    case SV_OPTION_OUTPUT: o->out_path = a->text; break;
    case SV_OPTION_VERIFY: o->verify = true; break;
    case SV_OPTION_OPEN: o->open_path = a->text; break;
    case SV_OPTION_KERNEL: o->kernel = a->text; break;
    case SV_OPTION_SCHEDULE: {
        char why[256];
        if (!sv_schedule_parse(a->text, &o->sched, why, sizeof why))
            return sv_options_bad(a, err, errlen, "%s", why);
        o->schedule = a->text;
        break;
    }
    case SV_OPTION_RACECHECK: o->racecheck = true; break;
    case SV_OPTION_KERNEL_FILE: o->kernel_file = a->text; break;
    case SV_OPTION_ENTRY: o->entry = a->text; break;
    case SV_OPTION_TIME_LIMIT: o->time_limit = a->f; break;
    case SV_OPTION_EXERCISE: o->exercise = a->text; break;
    case SV_OPTION_GRADE: o->grade = a->text; break;
    case SV_OPTION_HELP: o->help = true; break;
    case SV_OPTION_VERSION: o->version = true; break;
    default:
        return sv_options_bad(a, err, errlen, "not an option of scanviz-trace");
    }
    return true;
}

/* Notes what the checks after parsing need: the first lab option's index,
 * whether the scan was given. */
static bool take_noting(void *ctx, const sv_opt_arg *a, char *err, size_t errlen)
{
    options *o = ctx;
    if (!take(ctx, a, err, errlen))
        return false;
    bool lab = a->id == SV_OPTION_KERNEL || a->id == SV_OPTION_SCHEDULE ||
               a->id == SV_OPTION_RUNS || a->id == SV_OPTION_SHAKE ||
               a->id == SV_OPTION_SHAKE_SEED || a->id == SV_OPTION_RACECHECK;
    if (lab && !o->lab_arg)
        o->lab_arg = a->flag_argi;
    if (a->id == SV_OPTION_KERNEL_FILE)
        o->kernel_arg = a->flag_argi;
    if (a->id == SV_OPTION_KERNEL)
        o->kernel_name_arg = a->flag_argi;
    if ((a->id == SV_OPTION_ENTRY || a->id == SV_OPTION_TIME_LIMIT) && !o->kernel_only_arg)
        o->kernel_only_arg = a->flag_argi;
    o->scan_given |= a->id == SV_OPTION_OP || a->id == SV_OPTION_TYPE ||
                     a->id == SV_OPTION_EXCLUSIVE;
    return true;
}

/* Parses argv into o. Returns -1 to go on, else an exit status. */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->op = SV_OP_SUM;
    o->type = SV_TYPE_INT32;
    o->scan = SV_SCAN_INCLUSIVE;
    o->backend = SV_CHOOSE_AUTO;
    o->format = FORMAT_TABLE;
    sv_input_init(&o->input);
    char err[1024];
    /* A kernel file whose host function launches many blocks takes --random
     * up to SV_MAX_N_BLOCKS (issue 31): known before --random is read. */
    if ((o->input.max_n = sv_krun_args_max_n(argc, argv)) > SV_MAX_N)
        sv_options_raise(SV_OPTION_RANDOM, o->input.max_n);
    if (!sv_options_parse(SV_FOR_TRACE, argc, argv, take_noting, o, err, sizeof err))
        return usage_error("%s", err);

    if (o->help || o->version)
        return -1;
    if (o->open_path && o->input.sources)
        return usage_error("--open reads its input from the trace file: %s (argument %d) "
                           "cannot be combined with it", o->input.first, o->input.first_arg);
    if (!sv_input_validate(&o->input, err, sizeof err))
        return usage_error("%s", err);
    if (o->open_path) {
        if (o->scan_given)
            return usage_error("--open: the trace file says which operator, type and scan; "
                               "--op, --type and --exclusive do not apply");
    }
    if (o->grade && !o->exercise)
        return usage_error("--grade goes with --exercise NAME");
    if (o->kernel_only_arg && !o->kernel_file && !o->exercise)
        return usage_error("\"%s\" (argument %d) goes with --kernel-file", argv[o->kernel_only_arg],
                           o->kernel_only_arg);
    if (o->kernel_file && strcmp(o->kernel_file, "-") == 0 &&
        (o->input.kind == SV_INPUT_STDIN ||
         (o->input.kind == SV_INPUT_FILE && strcmp(o->input.path, "-") == 0)))
        return usage_error("--kernel-file - (argument %d) reads the kernel from standard input: "
                           "the values cannot come from it too", o->kernel_arg + 1);
    if (o->kernel_file && (o->open_path || o->verify || o->kernel_name_arg))
        return usage_error("--kernel-file (argument %d) runs its own kernel: %s does not go with "
                           "it", o->kernel_arg, o->open_path ? "--open" : o->verify ? "--verify"
                                                                               : "--kernel");
    if (o->lab_arg && (o->open_path || o->verify))
        return usage_error("\"%s\" (argument %d): the lab's options make a new capture; "
                           "--open and --verify do not take them", argv[o->lab_arg],
                           o->lab_arg);
    return -1;
}

/* ---- Output ------------------------------------------------------------ */

static bool want_colour(void)
{
    return isatty(STDOUT_FILENO) && getenv("NO_COLOR") == NULL;
}

/* Writes t in the chosen format to -o FILE or stdout, all or nothing
 * (sv_file_begin/commit: a temporary file renamed over FILE; standard output
 * flushed and checked). The note (why the emulator ran) goes into the table,
 * or to stderr beside json. */
static int write_trace(const sv_trace *t, const options *o, const char *note)
{
    char err[1024], why[512];
    const char *path = o->out_path ? o->out_path : "-";
    bool to_stdout = strcmp(path, "-") == 0;
    if (o->format == FORMAT_JSON && note && note[0])
        report(0, "%s", note);
    sv_file *f = sv_file_begin(path, err, sizeof err);
    if (!f)
        return report(EXIT_FAILED, "%s", err);
    if (o->format == FORMAT_JSON) {
        if (!sv_trace_write(t, sv_file_stream(f), why, sizeof why)) {
            snprintf(err, sizeof err, "%s: %s", sv_file_name(f), why);
            sv_file_abort(f);
            return report(EXIT_FAILED, "%s", err);
        }
    } else {
        sv_trace_print_table(t, sv_file_stream(f), to_stdout && want_colour(), note);
    }
    if (!sv_file_commit(f, err, sizeof err))
        return report(EXIT_FAILED, "%s", err);
    return EXIT_OK;
}

/* ---- Input ------------------------------------------------------------- */

/* Fills values and n from the chosen source (core/input.h). Returns -1 on
 * success, else an exit status (the message printed). */
static int read_input(const options *o, sv_value **values, size_t *n)
{
    char err[1024];
    switch (sv_input_read(&o->input, o->op, o->type, values, n, err, sizeof err)) {
    case SV_INPUT_OK: return -1;
    case SV_INPUT_BAD: return report(EXIT_USAGE, "%s", err);
    case SV_INPUT_FAILED: break;
    }
    return report(EXIT_FAILED, "%s", err);
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
    char dev[256];
    if (t->backend == SV_BACKEND_CUDA) /* the name may come from a file: escaped */
        snprintf(buf, len, "cuda (%s)", t->device ? sv_escape(t->device, dev, sizeof dev) : "GPU");
    else
        snprintf(buf, len, "cpu emulator");
    return buf;
}

/* Compares t's output with the sequential scan of its input: int32 must be
 * equal; float32 reports the largest difference (Hillis-Steele adds in
 * another order), the one sv_trace_finish stored. Returns whether it passes. */
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
    double worst = t->max_abs_diff;
    size_t at = t->max_diff_index;
    size_t same = 0;
    for (size_t i = 0; i < t->n; i++)
        same += t->output[i].bits == ref[i].bits;
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
        report(0, "cpu emulator: %s", err);
        status = st == SV_CAPTURE_BAD_INPUT ? EXIT_USAGE : EXIT_DIFFERS;
        goto out;
    }
    printf("  cpu emulator: trace finished, invariant holds\n");

    if (o->backend != SV_CHOOSE_CPU) {
        char why[256];
        if (sv_capture_cuda_available(NULL, 0, NULL, why, sizeof why)) {
            st = capture(op, type, scan, input, n, SV_CHOOSE_CUDA, &gpu, NULL, err, sizeof err);
            if (st == SV_CAPTURE_BAD_INPUT) {
                status = report(EXIT_USAGE, "%s", err);
                goto out;
            }
            if (st != SV_CAPTURE_OK) {
                printf("  cuda: FAILED: %s\n", err);
                report(0, "cuda: %s", err);
                failures++;
            }
        } else if (o->backend == SV_CHOOSE_CUDA) {
            report(0, "--backend cuda: CUDA backend unavailable: %s", why);
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
        char path[256];
        snprintf(who, sizeof who, "%s (%s)",
                 sv_escape(sv_path_name(o->open_path), path, sizeof path), who2);
        if (sv_trace_equal(given, cpu, diff, sizeof diff)) {
            printf("  %s vs cpu emulator: bit-identical trace (%s)\n", who, sum);
        } else {
            printf("  %s vs cpu emulator: traces DIFFER: %s\n", who, diff);
            failures++;
        }
    }

    ref = calloc(n, sizeof *ref);
    if (!ref) {
        status = report(EXIT_FAILED, "out of memory");
        goto out;
    }
    sv_reference_scan(op, type, scan, input, ref, n);
    if (!check_reference(cpu, ref, "cpu emulator"))
        failures++;
    if (gpu && !check_reference(gpu, ref, describe(gpu, who, sizeof who)))
        failures++;

    if (failures) {
        printf("verify: FAILED (%d difference%s)\n", failures, failures == 1 ? "" : "s");
        report(0, "--verify: %d difference%s found", failures, failures == 1 ? "" : "s");
        status = EXIT_DIFFERS;
    } else {
        printf("verify: OK\n");
    }
    /* The report is the output: a full disk or a closed pipe is a failure,
     * said as such (not a silent exit 1). */
    if (!sv_stdout_check(err, sizeof err)) {
        report(0, "%s", err);
        if (status == EXIT_OK)
            status = EXIT_FAILED;
    }

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

/* What kernel_cmd.c needs of the options. */
static sv_kernel_cmd kernel_cmd_of(const options *o)
{
    return (sv_kernel_cmd){
        .prog = prog, .path = o->kernel_file, .entry = o->entry, .input = &o->input,
        .op = o->op, .type = o->type, .scan = o->scan, .backend = o->backend,
        .has_schedule = o->schedule != NULL, .schedule = o->sched, .runs = o->lab.runs,
        .shake = o->lab.shake,
        .shake_seed = o->lab.shake_seed, .racecheck = o->racecheck,
        .time_limit_ms = (uint32_t)(o->time_limit * 1000 + 0.5),
        .json = o->format == FORMAT_JSON, .out_path = o->out_path,
    };
}

/* Whether a kernel file's runs will be on the CPU runtime: asked for, a
 * schedule (the emulator's), or auto without a usable GPU. */
static bool shake_on_cpu(const options *o)
{
    return o->backend == SV_CHOOSE_CPU || o->schedule ||
           (o->backend == SV_CHOOSE_AUTO && !sv_capture_cuda_available(NULL, 0, NULL, NULL, 0));
}

static int run_open(const options *o)
{
    char err[512], why[512];
    char *text = NULL;
    sv_kernel_cmd k = kernel_cmd_of(o);
    if (!o->verify) { /* a kernel trace (version 3) prints as one */
        int st = sv_kernel_cmd_open(&k, o->open_path, &text);
        if (st >= 0)
            return st;
    } else if (!(text = sv_read_bounded(o->open_path, sv_trace_read_limit(o->open_path),
                                        "a trace file", NULL, err, sizeof err))) {
        return report(EXIT_USAGE, "%s", err);
    }
    sv_trace *t = sv_trace_parse(text, why, sizeof why);
    free(text);
    if (!t)
        return report(EXIT_USAGE, "%s: %s", sv_path_name(o->open_path), why);
    int status;
    /* A file carries no reads: an emulated lab run's are run again on the
     * CPU runtime for the table's words (without them, no words). */
    if (!o->verify && !sv_capture_lab_reads(t, why, sizeof why))
        fprintf(stderr, "scanviz-trace: the reads of the shown run: %s\n", why);
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

    sv_capture_request req = {
        .op = o->op, .type = o->type, .scan = o->scan, .input = values, .n = n,
        .choice = o->backend, .runs = o->lab.runs, .shake = o->lab.shake,
        .shake_seed = o->lab.shake_seed, .racecheck = o->racecheck,
        .has_schedule = o->schedule != NULL, .schedule = o->sched,
    };
    /* The user's names, parsed once (the schedule where its option is
     * taken): capture takes them typed. */
    if (o->kernel && !sv_kernel_parse(o->kernel, &req.kernel, err, sizeof err)) {
        free(values);
        return report(EXIT_USAGE, "%s", err);
    }
    sv_capture_status st = sv_capture(&req, &t, &src, err, sizeof err);
    free(values);
    switch (st) {
    case SV_CAPTURE_OK:
        break;
    case SV_CAPTURE_BAD_INPUT:
        return report(EXIT_USAGE, "%s", err);
    case SV_CAPTURE_UNAVAILABLE:
        return report(EXIT_UNAVAILABLE, "--backend cuda: %s", err);
    case SV_CAPTURE_FAILED:
    default:
        return report(EXIT_FAILED, "%s", err);
    }
    if (o->lab.shake && src.backend == SV_BACKEND_CPU) /* not silently (issue 28) */
        report(0, "%s%s", SV_CAPTURE_SHAKE_IGNORED, SV_CAPTURE_SHAKE_HINT);
    /* The emulator in place of the GPU auto preferred: say why (and for the
     * lab, always say what ran). */
    if (src.fallback != SV_FALLBACK_NONE || t->lab)
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
    if (o.help || o.version) {
        if (o.help)
            usage(stdout);
        else
            printf("scanviz-trace %s (GPU runs through NVRTC; nvcc's scans %s)\n", SV_VERSION,
                   SV_HAVE_CUDA ? "built in" : "not built");
        return sv_stdout_status(prog, EXIT_OK, EXIT_FAILED);
    }
    if (o.exercise)
        return sv_exercise_cmd_run(prog, o.exercise, o.kernel_file, o.grade,
                                   (uint32_t)(o.time_limit * 1000 + 0.5), o.out_path);
    if ((o.kernel_file || sv_option_runtime_kernel(o.kernel)) && o.lab.shake &&
        shake_on_cpu(&o)) /* the CPU runtime has no warps to delay: say so */
        report(0, "%s%s", SV_CAPTURE_SHAKE_IGNORED, SV_CAPTURE_SHAKE_HINT);
    if (o.kernel_file) {
        sv_kernel_cmd k = kernel_cmd_of(&o);
        return sv_kernel_cmd_run(&k);
    }
    if (sv_option_runtime_kernel(o.kernel)) { /* --kernel blelloch: the runtime's shipped build */
        sv_kernel_cmd k = kernel_cmd_of(&o);
        k.builtin = k.path = sv_option_runtime_kernel(o.kernel);
        return sv_kernel_cmd_run(&k);
    }
    return o.open_path ? run_open(&o) : run_capture(&o);
}
