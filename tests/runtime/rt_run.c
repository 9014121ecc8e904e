/* rt_run: runs one kernel file through the runtime (sv_runtime_run) and
 * prints what came back, one fact per line: the tests' and the benchmark's
 * driver (scanviz-trace --kernel-file is the users' one).
 *   rt_run FILE [--type int32|float32] [--op sum|max|...] [--exclusive]
 *          [--schedule S] [--runs R] [--n N | --input "3 1 7 ..."]
 *          [--entry NAME] [--time-limit MS] [--memory-mb MB] [--repeat K]
 *   rt_run FILE [--type T] [--entry NAME] --cpu-text: the text the CPU compiler gets */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/ktrace.h"
#include "core/lab.h"
#include "core/parse.h"
#include "runtime.h"
#include "source_scan.h"

static void progress(void *ctx, uint32_t done, uint32_t runs)
{
    (void)ctx;
    fprintf(stderr, "\rrun %u of %u", done, runs);
    if (done == runs)
        fputc('\n', stderr);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: rt_run FILE [options]\n");
        return 2;
    }
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.path = argv[1];
    req.op = SV_OP_SUM;
    req.type = SV_TYPE_INT32;
    req.runs = 1;
    req.schedule.kind = SV_SCHEDULE_SEQUENTIAL;
    req.schedule.seed = 1;
    const char *input = "3 1 7 0 4 1 6 3";
    size_t n_rand = 0;
    int repeat = 1;
    char err[1024];
    for (int i = 2; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--type"))
            sv_type_from_name(v, &req.type);
        else if (!strcmp(k, "--op"))
            sv_op_from_name(v, &req.op);
        else if (!strcmp(k, "--schedule")) {
            if (!sv_schedule_parse(v, &req.schedule, err, sizeof err)) {
                fprintf(stderr, "%s\n", err);
                return 2;
            }
        } else if (!strcmp(k, "--runs"))
            req.runs = (uint32_t)atoi(v);
        else if (!strcmp(k, "--n"))
            n_rand = (size_t)atoi(v);
        else if (!strcmp(k, "--input"))
            input = v;
        else if (!strcmp(k, "--entry"))
            req.entry = v;
        else if (!strcmp(k, "--time-limit"))
            req.time_limit_ms = (uint32_t)atoi(v);
        else if (!strcmp(k, "--memory-mb"))
            req.memory_mb = (uint32_t)atoi(v);
        else if (!strcmp(k, "--repeat"))
            repeat = atoi(v);
        else if (!strcmp(k, "--exclusive"))
            req.scan = atoi(v) ? SV_SCAN_EXCLUSIVE : SV_SCAN_INCLUSIVE;
    }
    size_t len;
    char *src = NULL;
    if (strncmp(argv[1], "builtin:", 8) == 0) {
        /* a shipped kernel's ahead-of-time build: builtin:kernels/mistakes/in_place.cu */
        req.builtin = argv[1] + 8;
        req.path = req.builtin;
        src = strdup("");
    } else {
        src = sv_read_bounded(argv[1], 1 << 20, "kernel file", &len, err, sizeof err);
    }
    if (!src) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    req.source = req.builtin ? NULL : src;
    if (argc > 2 && strcmp(argv[argc - 1], "--cpu-text") == 0) {
        /* the text the CPU compiler gets (source_scan.h) */
        static sv_source_scan scan;
        sv_kfail_kind kind;
        int line;
        if (!sv_source_scan_text(src, argv[1], &scan, &kind, &line, err, sizeof err) ||
            !sv_source_check_entry(&scan, req.entry, req.type, &line, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        char *text = sv_source_cpu_text(&scan, src, argv[1], req.type);
        fputs(text ? text : "", stdout);
        free(text);
        free(src);
        return text ? 0 : 1;
    }
    sv_value vals[SV_MAX_N];
    size_t n = 0;
    if (n_rand) {
        for (n = 0; n < n_rand && n < SV_MAX_N; n++) {
            if (req.type == SV_TYPE_FLOAT32)
                vals[n].f = (float)((n * 7) % 10);
            else
                vals[n].i = (int32_t)((n * 7) % 10);
        }
    } else {
        char *s = strdup(input), *save = NULL;
        for (char *tk = strtok_r(s, " ,", &save); tk && n < SV_MAX_N; tk = strtok_r(NULL, " ,", &save)) {
            if (req.type == SV_TYPE_FLOAT32)
                vals[n++].f = strtof(tk, NULL);
            else
                vals[n++].i = (int32_t)strtol(tk, NULL, 10);
        }
        free(s);
    }
    req.input = vals;
    req.n = n;
    if (isatty(2) && req.runs > 1)
        req.progress = progress;
    sv_ktrace *t = NULL;
    double t0 = now_ms(), best = 1e30;
    for (int r = 0; r < repeat; r++) {
        sv_ktrace_destroy(t);
        double a = now_ms();
        t = sv_runtime_run(&req, err, sizeof err);
        double b = now_ms() - a;
        if (b < best)
            best = b;
        if (!t) {
            fprintf(stderr, "rt_run: %s\n", err);
            return 1;
        }
    }
    double wall = now_ms() - t0;
    printf("failure %s\n", sv_kfail_kind_name(t->failure.kind));
    if (t->failure.kind != SV_KFAIL_NONE) {
        printf("failure.line %d\nfailure.thread %d\nfailure.array %d\nfailure.index %lld\n",
               t->failure.line, t->failure.thread, t->failure.array,
               (long long)t->failure.index);
        printf("failure.message %s\n", t->failure.message ? t->failure.message : "");
        for (size_t k = 0; k < t->failure.nwaits; k++)
            printf("wait line %d count %u first %u\n", t->failure.waits[k].line,
                   t->failure.waits[k].count, t->failure.waits[k].first_thread);
    }
    printf("entry %s\nsteps %zu\narrays", t->entry ? t->entry : "-", t->nsteps);
    for (size_t a = 0; a < t->narrays; a++)
        printf(" %s:%u/%u", t->arrays[a].name, t->arrays[a].len, t->arrays[a].rows);
    printf("\nhazards %llu\nswitches %llu\nruns %u\nwrong_runs %u\nshown_run %u\noutput",
           (unsigned long long)t->hazards_total, (unsigned long long)t->switches, t->runs,
           t->wrong_runs, t->shown_run);
    for (size_t i = 0; i < t->n && i < 16; i++) {
        char b[32];
        if (t->output_written[i])
            printf(" %s", sv_value_format(t->type, t->output[i], b, sizeof b));
        else
            printf(" ?");
    }
    printf("\n");
    for (size_t h = 0; h < t->nhazards && h < 3; h++) {
        const sv_khazard *z = &t->hazards[h];
        printf("hazard %s step %u %s[%u] threads %u,%u lines %d,%d\n",
               sv_khazard_kind_name(z->kind), z->step, t->arrays[z->array].name, z->cell,
               z->first.thread, z->second.thread, z->first.line, z->second.line);
    }
    printf("ms_best %.1f\nms_all %.1f\n", best, wall);
    sv_ktrace_destroy(t);
    free(src);
    return 0;
}
