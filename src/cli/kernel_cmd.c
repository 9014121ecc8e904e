/* scanviz-trace --kernel-file (kernel_cmd.h): read the kernel file bounded,
 * run it through the runtime (a child process, on the CPU or the GPU), read
 * its trace against the chapter, print the table or the JSON trace file and
 * say in the exit status how it went. Also --open of a kernel trace file. */
#include "kernel_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/args.h"
#include "../core/error.h"
#include "../core/fileio.h"
#include "../core/ktrace_file.h"
#include "../core/ktrace_table.h"
#include "../capture/kernel_run.h"

#ifndef SV_LAB_DEFAULT_RUNS
#define SV_LAB_DEFAULT_RUNS 100
#endif

static int exit_of(sv_kverdict v)
{
    switch (v) {
    case SV_KVERDICT_OK: return SV_KEXIT_OK;
    case SV_KVERDICT_WRONG: return SV_KEXIT_WRONG;
    case SV_KVERDICT_REFUSED: return SV_KEXIT_REFUSED;
    case SV_KVERDICT_FAILED: return SV_KEXIT_RUN;
    case SV_KVERDICT_UNAVAILABLE: return SV_KEXIT_UNAVAILABLE;
    case SV_KVERDICT_INTERNAL: break;
    }
    return SV_KEXIT_FAILED;
}

/* One line on stderr saying how it went (the table says it at length;
 * beside JSON it is the only words). */
static void summary(const sv_kernel_cmd *k, const sv_ktrace *t, int status)
{
    char words[1024];
    const char *name = sv_path_name(t->file ? t->file : k->path ? k->path : "kernel");
    if (t->failure.kind != SV_KFAIL_NONE)
        sv_report(k->prog, 0, NULL, "%s: %s", name, sv_ktrace_failure_words(t, words, sizeof words));
    else if (status == SV_KEXIT_WRONG && t->first_wrong >= 0)
        sv_report(k->prog, 0, NULL, "%s: the output is wrong from cell %d; %llu hazard%s", name,
                  (int)t->first_wrong, (unsigned long long)t->hazards_total,
                  t->hazards_total == 1 ? "" : "s");
    else if (status == SV_KEXIT_WRONG)
        sv_report(k->prog, 0, NULL, "%s: %llu hazard%s (%s)", name,
                  (unsigned long long)t->hazards_total, t->hazards_total == 1 ? "" : "s",
                  t->nhazards ? sv_ktrace_hazard_words(t, &t->hazards[0], words, sizeof words)
                              : "in other runs");
}

/* Prints t (table or JSON) to -o or stdout, all or nothing. */
static int write_ktrace(const sv_kernel_cmd *k, const sv_ktrace *t, const char *note)
{
    char err[1024], why[512];
    const char *path = k->out_path ? k->out_path : "-";
    sv_file *f = sv_file_begin(path, err, sizeof err);
    if (!f)
        return sv_report(k->prog, SV_KEXIT_FAILED, NULL, "%s", err);
    if (k->json) {
        if (!sv_ktrace_write(t, sv_file_stream(f), why, sizeof why)) {
            snprintf(err, sizeof err, "%s: %s", sv_file_name(f), why);
            sv_file_abort(f);
            return sv_report(k->prog, SV_KEXIT_FAILED, NULL, "%s", err);
        }
    } else {
        bool colour = strcmp(path, "-") == 0 && isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
        sv_ktrace_print_table(t, sv_file_stream(f), colour, note);
    }
    if (!sv_file_commit(f, err, sizeof err))
        return sv_report(k->prog, SV_KEXIT_FAILED, NULL, "%s", err);
    return SV_KEXIT_OK;
}

/* The kernel run k asks for; source and values are k's file and input. The
 * backend is capture's choice (kernel_run.h: auto takes the GPU where the
 * runtime can use one, but a shipped kernel such as --kernel blelloch stays
 * on the CPU runtime unless --backend cuda asks). */
static void make_request(const sv_kernel_cmd *k, const char *source, const sv_value *values,
                         size_t n, sv_krun_request *kr)
{
    *kr = (sv_krun_request){
        .run = { .path = k->path, .builtin = k->builtin, .source = source, .entry = k->entry,
                 .op = k->op, .type = k->type, .scan = k->scan, .input = values, .n = n },
        .choice = k->backend,
        .trim = k->json ? sv_ktrace_file_budget(n) : 0,
    };
    sv_runtime_request *req = &kr->run;
    req->schedule = k->has_schedule ? k->schedule
                                    : (sv_schedule){.kind = SV_SCHEDULE_LOCKSTEP, .seed = 1};
    bool seeded = req->schedule.kind == SV_SCHEDULE_RANDOM ||
                  req->schedule.kind == SV_SCHEDULE_WARPS;
    req->runs = k->runs ? k->runs : seeded && k->has_schedule ? SV_LAB_DEFAULT_RUNS : 1;
    req->shake = k->shake;
    req->shake_seed = k->shake_seed ? k->shake_seed : 1;
    req->racecheck = k->racecheck;
    req->time_limit_ms = k->time_limit_ms;
}

int sv_kernel_cmd_run(const sv_kernel_cmd *k)
{
    char err[1024];
    size_t len = 0, n = 0;
    sv_value *values = NULL;
    if (!sv_op_valid(k->op, k->type, err, sizeof err))
        return sv_report(k->prog, SV_KEXIT_REFUSED, NULL, "--op %s: %s", sv_op_name(k->op), err);
    char *source = k->builtin ? NULL
                              : sv_read_bounded(k->path, SV_KTRACE_MAX_SOURCE, "a kernel file",
                                                &len, err, sizeof err);
    if (!source && !k->builtin)
        return sv_report(k->prog, SV_KEXIT_REFUSED, NULL, "--kernel-file: %s", err);
    switch (sv_input_read(k->input, k->op, k->type, &values, &n, err, sizeof err)) {
    case SV_INPUT_OK: break;
    case SV_INPUT_BAD:
        free(source);
        return sv_report(k->prog, SV_KEXIT_REFUSED, NULL, "%s", err);
    case SV_INPUT_FAILED:
    default:
        free(source);
        return sv_report(k->prog, SV_KEXIT_FAILED, NULL, "%s", err);
    }
    const bool host = source && sv_runtime_file_launches(source);
    if (host && k->runs > 1 && k->backend == SV_CHOOSE_CUDA) {
        free(values);
        free(source);
        return sv_report(k->prog, SV_KEXIT_REFUSED, NULL, "--runs %u with --backend cuda: a "
                         "kernel file with a host function scan runs once on the GPU (its "
                         "launches replayed); the CPU runtime runs it %u times", k->runs,
                         k->runs);
    }
    sv_krun_request req;
    make_request(k, source, values, n, &req);
    if (host && !k->runs)
        req.run.runs = 1; /* (a seeded schedule's 100 runs are one block's: --runs asks) */
    else if (host && k->runs > 1)
        req.choice = SV_CHOOSE_CPU; /* (each run a child of the CPU runtime's) */
    sv_krun_status st;
    size_t dropped = 0, kept = 0;
    sv_ktrace *t = sv_capture_kernel(&req, &st, &dropped, &kept, err, sizeof err);
    free(values);
    free(source);
    if (dropped)
        sv_report(k->prog, 0, NULL, "%s: %zu steps after step %zu left out of the trace file "
                  "(its limit of %zu MiB)", sv_path_name(k->path), dropped, kept,
                  sv_ktrace_file_limit(n) >> 20);
    switch (st) {
    case SV_KRUN_OK: break;
    case SV_KRUN_UNAVAILABLE:
        return sv_report(k->prog, SV_KEXIT_UNAVAILABLE, NULL, "--backend cuda: %s", err);
    case SV_KRUN_NOT_RUN:
        return sv_report(k->prog, SV_KEXIT_FAILED, NULL, "%s: %s", sv_path_name(k->path), err);
    case SV_KRUN_NOT_READ:
    default:
        return sv_report(k->prog, SV_KEXIT_FAILED, NULL, "%s", err);
    }
    int status = exit_of(sv_ktrace_verdict(t));
    int w = write_ktrace(k, t, NULL);
    summary(k, t, status);
    sv_ktrace_destroy(t);
    return w != SV_KEXIT_OK ? w : status;
}

/* Whether text has a key "version" with the value 3 (not inside a string:
 * a quote there is escaped). A cheap look before parsing; the parse decides. */
static bool looks_like_kernel_trace(const char *text)
{
    for (const char *p = text; (p = strstr(p, "\"version\"")) != NULL; p++) {
        if (p > text && p[-1] == '\\')
            continue;
        const char *q = p + strlen("\"version\"");
        q += strspn(q, " \t\r\n");
        if (*q != ':')
            continue;
        q += 1 + strspn(q + 1, " \t\r\n");
        if (q[0] == '3' && !strchr("0123456789.eE", q[1] ? q[1] : 'x'))
            return true;
    }
    return false;
}

int sv_kernel_cmd_open(const sv_kernel_cmd *k, const char *path, char **text)
{
    char err[1024], why[768];
    *text = sv_read_bounded(path, sv_trace_read_limit(path), "a trace file", NULL, err,
                            sizeof err);
    if (!*text)
        return sv_report(k->prog, SV_KEXIT_REFUSED, NULL, "%s", err);
    /* Only what looks like a kernel trace, within its limits, is parsed
     * here: anything else goes to the chapter's reader unparsed, which
     * counts it against its own limits first. */
    json_t *root = !looks_like_kernel_trace(*text) || sv_ktrace_too_large(*text, why, sizeof why)
                       ? NULL : json_loads(*text, JSON_REJECT_DUPLICATES, NULL);
    bool kernel = root && sv_trace_file_is_kernel(root);
    if (!kernel) {
        json_decref(root);
        return -1; /* the chapter's reader says what is wrong with it */
    }
    sv_ktrace *t = sv_ktrace_from_json(root, why, sizeof why);
    json_decref(root);
    free(*text);
    *text = NULL;
    if (!t)
        return sv_report(k->prog, SV_KEXIT_REFUSED, NULL, "%s: %s", sv_path_name(path), why);
    int w = write_ktrace(k, t, NULL);
    sv_ktrace_destroy(t);
    return w;
}
