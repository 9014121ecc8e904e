/* scanviz-trace --exercise (exercise_cmd.h). */
#include "exercise_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/args.h"
#include "../core/escape.h"
#include "../core/exercise_progress.h"
#include "../core/fileio.h"
#include "../core/ktrace.h"
#include "../capture/exercise_run.h"
#include "grade.h"

static bool find_root(const char *prog, char *root, size_t len)
{
    char err[1024];
    if (sv_exercise_find_root(root, len, err, sizeof err))
        return true;
    sv_report(prog, 0, NULL, "%s", err);
    return false;
}

/* The list with the student's progress (a bad progress file is said and
 * ignored, never changed here). */
static int list(const char *prog, const char *root)
{
    char err[1024];
    sv_progress p;
    sv_progress_current(&p, err, sizeof err);
    if (err[0])
        sv_report(prog, 0, NULL, "%s", err);
    char *text = sv_exercise_list_text(root, &p, err, sizeof err);
    if (!text)
        return sv_report(prog, 1, NULL, "%s", err);
    fputs(text, stdout);
    free(text);
    return sv_stdout_status(prog, 0, 1);
}

static int check_file(const char *prog, const sv_exercise_spec *spec, const char *path,
                      uint32_t limit)
{
    char err[1024];
    sv_exercise_result res;
    char *source = sv_read_bounded(path, SV_KTRACE_MAX_SOURCE, "a kernel file", NULL, err,
                                   sizeof err);
    bool ok = source && sv_exercise_check(spec, path, source, limit, &res, err, sizeof err);
    free(source);
    if (!ok)
        return sv_report(prog, source ? 1 : 2, NULL, "%s", err);
    /* A check of a student's file is an attempt (exercise_progress.h). */
    char note[1400], perr[1024];
    if (!sv_progress_record(spec->name, SV_PROGRESS_CHECKED, res.verdict == SV_EXERCISE_PASSED,
                            0, (int64_t)time(NULL), note, sizeof note, perr, sizeof perr))
        sv_report(prog, 0, NULL, "progress not saved: %s", perr);
    else if (note[0])
        sv_report(prog, 0, NULL, "%s", note);
    char esc[4096], tesc[512];
    printf("exercise %s (%s): %s\n", spec->name, sv_escape(spec->title, tesc, sizeof tesc),
           res.verdict == SV_EXERCISE_PASSED ? "passed" : "failed");
    printf("  %s\n", sv_escape(res.words, esc, sizeof esc));
    printf("  %zu runs, %llu hazards, %.2f s\n", res.checks, (unsigned long long)res.hazards,
           res.seconds);
    int st = sv_exercise_exit_status(res.verdict);
    return sv_stdout_status(prog, st, 1);
}

int sv_exercise_cmd_run(const char *prog, const char *name, const char *kernel_file,
                        const char *grade_dir, uint32_t time_limit_ms, const char *out_path)
{
    char root[4096], err[1024];
    if (!find_root(prog, root, sizeof root))
        return 1;
    if (strcmp(name, "list") == 0)
        return list(prog, root);
    if (!kernel_file == !grade_dir)
        return sv_report(prog, 2, SV_USAGE_HINT("scanviz-trace"),
                         "--exercise %s: give --kernel-file FILE.cu or --grade DIR", name);
    sv_exercise_spec spec;
    if (!sv_exercise_load(root, name, &spec, err, sizeof err))
        return sv_report(prog, 2, NULL, "%s", err);
    int st = grade_dir ? sv_grade_run(prog, &spec, grade_dir, time_limit_ms, out_path)
                       : check_file(prog, &spec, kernel_file, time_limit_ms);
    sv_exercise_spec_free(&spec);
    return st;
}
