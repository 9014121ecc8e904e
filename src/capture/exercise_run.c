/* The check of an exercise (exercise_run.h). */
#include "exercise_run.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../core/error.h"
#include "kernel_run.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One run: input i under schedule j. Returns false on the runtime's own
 * failure (err); else *v is the verdict, res->words its words. */
static bool check_one(const sv_exercise_spec *spec, const char *path, const char *source,
                      uint32_t limit, size_t i, size_t j, sv_exercise_result *res,
                      sv_exercise_verdict *v, char *err, size_t errlen)
{
    sv_schedule sch = spec->schedules[j];
    bool seeded = sch.kind == SV_SCHEDULE_RANDOM || sch.kind == SV_SCHEDULE_WARPS;
    const sv_krun_request req = {
        .run = { .path = path, .source = source, .entry = NULL, .op = spec->op,
                 .type = spec->type, .scan = spec->scan, .input = spec->inputs[i].values,
                 .n = spec->inputs[i].n, .schedule = sch, .runs = seeded ? spec->runs : 1,
                 .time_limit_ms = limit, .output_round = spec->output_round },
        .choice = SV_CHOOSE_CPU, /* where hazards are seen */
    };
    sv_ktrace *t = sv_capture_kernel(&req, NULL, NULL, NULL, err, errlen);
    if (!t)
        return false;
    res->checks++;
    res->hazards += t->hazards_total;
    *v = sv_exercise_judge(spec, i, t, res->words, sizeof res->words);
    sv_ktrace_destroy(t);
    return true;
}

bool sv_exercise_check(const sv_exercise_spec *spec, const char *path, const char *source,
                       uint32_t time_limit_ms, sv_exercise_result *res, char *err, size_t errlen)
{
    memset(res, 0, sizeof *res);
    double t0 = now_s();
    uint32_t limit = time_limit_ms ? time_limit_ms : spec->time_limit_ms;
    res->ninputs = spec->ninputs;
    res->nschedules = spec->nschedules;
    res->verdict = SV_EXERCISE_PASSED;
    snprintf(res->words, sizeof res->words, "passed");
    for (size_t i = 0; i < spec->ninputs; i++) {
        for (size_t j = 0; j < spec->nschedules; j++) {
            sv_exercise_verdict v;
            if (!check_one(spec, path, source, limit, i, j, res, &v, err, errlen)) {
                res->seconds = now_s() - t0;
                return false;
            }
            if (v != SV_EXERCISE_PASSED) {
                res->verdict = v;
                res->input = i;
                res->schedule = j;
                res->seconds = now_s() - t0;
                return true;
            }
        }
    }
    size_t maxn = 0;
    for (size_t i = 0; i < spec->ninputs; i++)
        maxn = spec->inputs[i].n > maxn ? spec->inputs[i].n : maxn;
    size_t at = (size_t)snprintf(res->words, sizeof res->words,
                                 "passed: %zu inputs (n up to %zu) under %zu schedules, every "
                                 "round right, no hazard", spec->ninputs, maxn, spec->nschedules);
    if (spec->banks && at < sizeof res->words)
        snprintf(res->words + at, sizeof res->words - at, ", at most %llu bank conflicts a run",
                 (unsigned long long)spec->max_banks);
    res->seconds = now_s() - t0;
    return true;
}
