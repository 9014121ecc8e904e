/* The mistakes lab in capture: a lab capture runs a kernel R times through
 * the kernel runtime (sv_runtime_run_each), on the GPU (shaken or not) or
 * on the CPU under a schedule (run k of random:S and warps:S with seed
 * S + k), summarizes every round and cell against the chapter's kernel,
 * shows the first wrong run (else run 0) in the trace's buffers, and with
 * racecheck runs the kernel once more under compute-sanitizer, which the
 * GPU runtime starts (its `racecheck` request): its hazards, on the kernel
 * trace's arrays and steps, become the record's racecheck. */
#include "lab_capture.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/bounds.h"
#include "../core/error.h"
#include "../core/lab.h"
#include "../core/racecheck.h"
#include "../core/lab_ktrace.h"
#include "../runtime/runtime.h"

#define LAB_MAX_WORDS ((size_t)1 << 26)    /* runs x rounds x n kept in memory: 256 MiB */

bool sv_capture_is_lab(const sv_capture_request *req)
{
    return req->kernel != SV_KERNEL_CORRECT || req->has_schedule || req->runs || req->shake ||
           req->racecheck;
}

bool sv_capture_lab_check(const sv_capture_request *req, char *err, size_t errlen)
{
    if (req->has_schedule && req->choice == SV_CHOOSE_CUDA) {
        sv_errorf(err, errlen, "--schedule names an emulator schedule, and --backend cuda asks "
                  "for the GPU (drop one of them)");
        return false;
    }
    if (req->runs > SV_LAB_MAX_RUNS) {
        sv_errorf(err, errlen, "runs = %u: at most %d", (unsigned)req->runs, SV_LAB_MAX_RUNS);
        return false;
    }
    uint32_t runs = req->runs ? req->runs : SV_LAB_DEFAULT_RUNS;
    size_t words = (size_t)runs * sv_round_count(req->n) * req->n;
    if (words > LAB_MAX_WORDS) {
        sv_errorf(err, errlen, "runs = %u at n = %zu keeps %zu cells, more than %zu: use fewer runs",
                  (unsigned)runs, req->n, words, LAB_MAX_WORDS);
        return false;
    }
    return true;
}

/* ---- racecheck ------------------------------------------------------------ */

/* The racecheck record of kt, a GPU runtime run under compute-sanitizer:
 * each hazard the runtime kept (on an array cell and a step) in the lab's
 * terms, buffer and cell (the buffers' array is 2n cells, buffer b from
 * b * n), the round where the kernel has a barrier a round (step r is round
 * r), the two threads in one warp a warning ("Warp Level Programming") and
 * across warps an error, as the sanitizer files them. The runtime counts
 * errors and warnings together; past the hazards kept the rest is counted
 * as errors and the note says so. NULL on allocation failure. */
static sv_racecheck *racecheck_of(const sv_ktrace *kt, sv_kernel k, size_t nrounds)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    sv_racecheck *rc = calloc(1, sizeof *rc);
    if (!rc || (kt->nhazards && !(rc->hazards = calloc(kt->nhazards, sizeof *rc->hazards)))) {
        free(rc);
        return NULL;
    }
    const size_t n = kt->n;
    for (size_t j = 0; j < kt->nhazards; j++) {
        const sv_khazard *h = &kt->hazards[j];
        sv_hazard *z = &rc->hazards[rc->nhazards++];
        const sv_kaccess *w = h->kind == SV_KHAZARD_RAW ? &h->first : &h->second;
        const sv_kaccess *r = h->kind == SV_KHAZARD_RAW ? &h->second : &h->first;
        snprintf(z->kind, sizeof z->kind, "%s", sv_khazard_kind_name(h->kind));
        z->warp_level = h->first.thread / 32 == h->second.thread / 32;
        z->error = !z->warp_level;
        z->address = h->cell * 4; /* from the array's start */
        z->buf = h->cell < 2 * n ? (int)(h->cell / n) : -1;
        z->cell = h->cell < 2 * n ? (int)(h->cell % n) : -1;
        z->round = info && info->barrier && h->step >= 1 && h->step < nrounds ? (int)h->step : -1;
        const sv_kaccess *acc[2] = {&h->first, &h->second};
        for (int q = 0; q < 2; q++) {
            z->thread[q] = (int)acc[q]->thread;
            z->access[q] = h->kind == SV_KHAZARD_WAW || acc[q] == w ? 'W' : 'R';
            z->line[q] = acc[q]->line > 0 ? acc[q]->line : -1;
        }
        snprintf(z->file, sizeof z->file, "%s", kt->file ? kt->file : "");
        z->has_values = true;
        bool i32 = kt->type == SV_TYPE_INT32;
        const sv_kaccess *cur = h->kind == SV_KHAZARD_WAW ? &h->first : r;
        z->current = i32 ? cur->value.i : (int64_t)cur->value.bits;
        z->incoming = i32 ? w->value.i : (int64_t)w->value.bits;
        if (z->error)
            rc->errors++;
        else
            rc->warnings++;
    }
    uint64_t more = kt->hazards_total > kt->nhazards ? kt->hazards_total - kt->nhazards : 0;
    rc->errors += more;
    rc->ran = true;
    snprintf(rc->note, sizeof rc->note, "compute-sanitizer --tool racecheck, one launch of %s "
             "at n = %zu: %" PRIu64 " errors, %" PRIu64 " warnings%s", sv_kernel_name(k), n,
             rc->errors, rc->warnings,
             more ? " (past the hazards kept, counted as errors)" : "");
    return rc;
}

/* Runs kernel k once more on the GPU runtime under racecheck, its hazards
 * into L->racecheck; a run that could not be made says why in its note. */
static void racecheck(sv_kernel k, const sv_trace *t, sv_lab_record *L)
{
    char why[512], words[512];
    sv_racecheck *rc = NULL;
    if (t->backend != SV_BACKEND_CUDA) {
        snprintf(why, sizeof why, "racecheck runs on the GPU; this trace is emulated");
        goto note;
    }
    const sv_runtime_request rq = {
        .builtin = sv_kernel_get(k)->file, .op = t->op, .type = t->type, .scan = t->scan,
        .input = t->input, .n = t->n, .backend = SV_RUNTIME_GPU,
        .schedule = {SV_SCHEDULE_LOCKSTEP, 1}, .runs = 1, .racecheck = true};
    sv_ktrace *kt = sv_runtime_run(&rq, why, sizeof why);
    if (!kt) {
        char e[400];
        snprintf(e, sizeof e, "%.399s", why);
        snprintf(why, sizeof why, "compute-sanitizer did not run: %.300s", e);
        goto note;
    }
    if (kt->failure.kind != SV_KFAIL_NONE && kt->failure.kind != SV_KFAIL_OUT_OF_RANGE) {
        snprintf(why, sizeof why, "the racecheck run failed: %.400s",
                 sv_ktrace_failure_words(kt, words, sizeof words));
        sv_ktrace_destroy(kt);
        goto note;
    }
    rc = racecheck_of(kt, k, t->nrounds);
    sv_ktrace_destroy(kt);
    if (rc) {
        L->racecheck = rc;
        return;
    }
    snprintf(why, sizeof why, "out of memory");
note:
    if ((rc = calloc(1, sizeof *rc)))
        snprintf(rc->note, sizeof rc->note, "%.255s", why);
    L->racecheck = rc;
}

/* ---- Runs ------------------------------------------------------------------ */

/* Kernel k's run under s on t's input through the CPU runtime (its build
 * made ahead of time). NULL with err filled when it could not run. */
static sv_ktrace *runtime_run(const sv_trace *t, sv_kernel k, sv_schedule s, char *err,
                              size_t errlen)
{
    const sv_runtime_request req = {.builtin = sv_kernel_get(k)->file, .op = t->op,
                                    .type = t->type, .scan = t->scan, .input = t->input,
                                    .n = t->n, .backend = SV_RUNTIME_CPU, .schedule = s,
                                    .runs = 1};
    sv_ktrace *kt = sv_runtime_run(&req, err, errlen);
    if (kt && kt->failure.kind != SV_KFAIL_NONE && kt->failure.kind != SV_KFAIL_OUT_OF_RANGE) {
        char why[512];
        sv_errorf(err, errlen, "the CPU runtime could not run %s: %s", sv_kernel_name(k),
                  sv_ktrace_failure_words(kt, why, sizeof why));
        sv_ktrace_destroy(kt);
        return NULL;
    }
    return kt;
}

/* What every read of run kt saw, against a lockstep run (run here unless
 * kt is one) and the chapter's kernel; fills t's rounds too. */
static bool reads_of(sv_trace *t, sv_kernel k, const sv_ktrace *kt, const sv_trace *correct,
                     sv_lab_reads **reads, sv_value *out, bool *known, char *err, size_t errlen)
{
    sv_ktrace *lock = NULL;
    if (reads && (!kt->schedule || strcmp(kt->schedule, "lockstep") != 0) &&
        !(lock = runtime_run(t, k, (sv_schedule){SV_SCHEDULE_LOCKSTEP, 1}, err, errlen)))
        return false;
    bool ok = sv_lab_from_ktrace(t, k, kt, lock, correct, reads, out, known, err, errlen);
    sv_ktrace_destroy(lock);
    return ok;
}

bool sv_capture_lab_run(sv_trace *t, sv_kernel k, sv_schedule s, sv_lab_reads **reads,
                        sv_value *kernel_out, bool *out_known, char *err, size_t errlen)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    if (!t || !info || k >= SV_KERNEL_COUNT) {
        sv_errorf(err, errlen, "sv_capture_lab_run: %s", t ? "not a shipped kernel" : "no trace");
        return false;
    }
    sv_trace *correct = reads ? sv_lab_correct_trace(t, err, errlen) : NULL;
    if (reads && !correct)
        return false;
    sv_ktrace *kt = runtime_run(t, k, s, err, errlen);
    bool ok = kt && reads_of(t, k, kt, correct, reads, kernel_out, out_known, err, errlen);
    sv_ktrace_destroy(kt);
    sv_trace_destroy(correct);
    return ok;
}

bool sv_capture_lab_reads(sv_trace *t, char *err, size_t errlen)
{
    sv_lab_record *L = t ? t->lab : NULL;
    if (!L || !L->emulated || L->reads)
        return true;
    sv_trace *one = sv_trace_create(t->op, t->type, t->scan, t->input, t->n, SV_BACKEND_CPU,
                                    NULL, err, errlen);
    bool ok = one && sv_capture_lab_run(one, L->kernel, sv_lab_run_schedule(L, L->shown_run),
                                        &L->reads, NULL, NULL, err, errlen);
    sv_trace_destroy(one);
    return ok;
}

/* Whether one raw run's output (its last round) differs from the correct one. */
static bool run_wrong(const sv_trace *correct, const uint32_t *bits, const bool *known)
{
    size_t n = correct->n, last = correct->nrounds - 1;
    const sv_round *L = &correct->rounds[last];
    int pout = last == 0 ? 0 : L->pout;
    for (size_t i = 0; i < n; i++)
        if ((known && !known[last * n + i]) || bits[last * n + i] != L->buf[pout][i].bits)
            return true;
    return false;
}

/* The runs, all in one child of the runtime (sv_runtime_run_each), on the
 * CPU or the GPU, each taken here as it comes: its rounds into bits/known,
 * the shown run (the first wrong one, else run 0) kept. */
typedef struct lab_runs {
    const sv_capture_request *req;
    const sv_trace *t, *correct;
    sv_lab_record *L;
    uint32_t *bits;
    bool *known;
    sv_ktrace *shown;
    bool have_wrong, ok;
    uint32_t taken;
    char *err;
    size_t errlen;
} lab_runs;

static bool take_run(void *ctx, uint32_t run, sv_ktrace *kt)
{
    lab_runs *c = ctx;
    const sv_trace *t = c->t;
    const size_t n = t->n, nr = t->nrounds;
    c->ok = false;
    if (kt->failure.kind != SV_KFAIL_NONE && kt->failure.kind != SV_KFAIL_OUT_OF_RANGE) {
        char why[512];
        sv_errorf(c->err, c->errlen, "the %s runtime could not run %s: %s",
                  c->L->emulated ? "CPU" : "GPU", sv_kernel_name(c->L->kernel),
                  sv_ktrace_failure_words(kt, why, sizeof why));
        sv_ktrace_destroy(kt);
        return false;
    }
    sv_trace *one = sv_trace_create(t->op, t->type, t->scan, t->input, n, SV_BACKEND_CPU, NULL,
                                    c->err, c->errlen);
    bool fine = one && sv_lab_from_ktrace(one, c->L->kernel, kt, NULL, NULL, NULL, NULL, NULL,
                                          c->err, c->errlen);
    if (fine)
        sv_lab_raw_from_trace(one, run, c->bits, c->known);
    sv_trace_destroy(one);
    bool wrong = fine && run_wrong(c->correct, c->bits + (size_t)run * nr * n,
                                   c->known + (size_t)run * nr * n);
    if (fine && (run == 0 || (wrong && !c->have_wrong))) {
        c->have_wrong = wrong;
        sv_ktrace_destroy(c->shown);
        c->shown = kt;
        c->L->shown_run = run;
        kt = NULL;
    }
    sv_ktrace_destroy(kt);
    if (!fine)
        return false;
    c->taken = run + 1;
    c->ok = true;
    const sv_capture_request *req = c->req;
    if (req->progress && !req->progress(req->progress_ctx, run + 1, c->L->runs)) {
        sv_errorf(c->err, c->errlen, "stopped after %u of %u runs", (unsigned)(run + 1),
                  (unsigned)c->L->runs);
        c->ok = false;
        return false;
    }
    return true;
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The runs through the runtime, into bits/known: emulated under their
 * schedules on the CPU, else on the GPU (shaken when L says so, the whole
 * call timed into L->wall_us). The shown run fills t, emulated with its
 * reads, and when it stopped early L says why in words. */
static bool lab_runs_run(const sv_capture_request *req, sv_trace *t, sv_lab_record *L,
                         const sv_trace *correct, uint32_t *bits, bool *known, char *err,
                         size_t errlen)
{
    lab_runs c = {.req = req, .t = t, .correct = correct, .L = L, .bits = bits, .known = known,
                  .err = err, .errlen = errlen};
    /* the time limit is the child's, for all the runs */
    const sv_runtime_request rq = {
        .builtin = sv_kernel_get(L->kernel)->file, .op = t->op, .type = t->type, .scan = t->scan,
        .input = t->input, .n = t->n,
        .backend = L->emulated ? SV_RUNTIME_CPU : SV_RUNTIME_GPU, .schedule = L->schedule,
        .runs = L->runs, .shake = L->shake, .shake_seed = L->shake_seed,
        .time_limit_ms = SV_RUNTIME_DEFAULT_TIME_LIMIT_MS + 1000 * L->runs};
    double t0 = now_us();
    bool ok = sv_runtime_run_each(&rq, take_run, &c, err, errlen) && c.ok;
    if (!L->emulated)
        L->wall_us = now_us() - t0;
    if (ok && c.taken < L->runs) {
        sv_errorf(err, errlen, "the %s runtime's child sent %u of %u runs",
                  L->emulated ? "CPU" : "GPU", (unsigned)c.taken, (unsigned)L->runs);
        ok = false;
    }
    if (ok && c.shown->failure.kind != SV_KFAIL_NONE)
        sv_ktrace_failure_words(c.shown, L->stopped, sizeof L->stopped);
    if (ok && !L->emulated) /* the GPU records no reads: its rounds only */
        ok = sv_lab_from_ktrace(t, L->kernel, c.shown, NULL, NULL, NULL, NULL, NULL, err, errlen);
    else if (ok) { /* the code's races, whatever this run's output (a kernel file's are said too) */
        L->hazards = c.shown->hazards_total;
        if (c.shown->nhazards)
            sv_lab_hazard_words(c.shown, L->kernel, &c.shown->hazards[0], L->hazard,
                                sizeof L->hazard);
        ok = reads_of(t, L->kernel, c.shown, correct, &L->reads, NULL, NULL, err, errlen);
    }
    char why[256];
    if (ok && sv_ktrace_analyze(c.shown, why, sizeof why)) { /* the rounds keep their run */
        sv_ktrace_destroy(t->run);
        t->run = c.shown;
        c.shown = NULL;
    }
    sv_ktrace_destroy(c.shown);
    return ok;
}

/* The schedule and runs of an emulated lab capture: the given --schedule,
 * else the window's emulate_schedule, else the options table's default; a
 * seeded schedule (random:S, warps:S) runs SV_LAB_DEFAULT_RUNS seeds, any
 * other once, unless --runs says otherwise. One rule for scanviz and
 * scanviz-trace, given or default. */
static bool emulated_plan(const sv_capture_request *req, sv_lab_record *L, char *err,
                          size_t errlen)
{
    if (req->has_schedule)
        L->schedule = req->schedule;
    else if (req->has_emulate_schedule)
        L->schedule = req->emulate_schedule;
    else if (!sv_schedule_parse(SV_LAB_DEFAULT_SCHEDULE, &L->schedule, err, errlen))
        return false;
    bool seeded = L->schedule.kind == SV_SCHEDULE_RANDOM || L->schedule.kind == SV_SCHEDULE_WARPS;
    L->runs = req->runs ? req->runs : seeded ? SV_LAB_DEFAULT_RUNS : 1;
    return true;
}

bool sv_capture_lab_fill(sv_trace *t, const sv_capture_request *req, sv_backend backend,
                         bool *bad, char *err, size_t errlen)
{
    char why[512];
    const sv_kernel k = req->kernel;
    sv_lab_record *L = calloc(1, sizeof *L);
    sv_trace *correct = sv_lab_correct_trace(t, why, sizeof why);
    uint32_t *bits = NULL;
    bool *known = NULL, ok = false;
    if (!L || !correct) {
        sv_errorf(err, errlen, "lab: %s", correct ? "out of memory" : why);
        goto done;
    }
    L->kernel = k;
    const size_t n = t->n, nr = t->nrounds;
    L->emulated = backend == SV_BACKEND_CPU;
    if (L->emulated && !emulated_plan(req, L, err, errlen)) {
        *bad = true;
        goto done;
    }
    if (!L->emulated) {
        L->schedule = (sv_schedule){SV_SCHEDULE_LOCKSTEP, 1}; /* unused on the GPU */
        L->runs = req->runs ? req->runs : SV_LAB_DEFAULT_RUNS;
        L->shake = req->shake;
        L->shake_seed = req->shake_seed ? req->shake_seed : 1;
    }
    bits = malloc((size_t)L->runs * nr * n * sizeof *bits);
    known = malloc((size_t)L->runs * nr * n * sizeof *known);
    if (!bits || !known) {
        sv_errorf(err, errlen, "lab: out of memory for %u runs", (unsigned)L->runs);
        goto done;
    }
    if (!lab_runs_run(req, t, L, correct, bits, known, why, sizeof why)) {
        sv_errorf(err, errlen, "%s failed: %s", L->emulated ? "emulated run" : "CUDA kernel", why);
        goto done;
    }
    if (!(L->summary = sv_lab_summarize(correct, L->runs, bits, known, err, errlen)))
        goto done;
    if (req->racecheck)
        racecheck(k, t, L);
    sv_lab_record_destroy(t->lab);
    t->lab = L;
    L = NULL;
    ok = true;
done:
    sv_lab_record_destroy(L);
    sv_trace_destroy(correct);
    free(bits);
    free(known);
    return ok;
}
