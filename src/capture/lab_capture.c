/* The mistakes lab in capture: a lab capture runs a kernel R times (on the
 * GPU, shaken or not, through sv_cuda_lab_run; or in the emulator under a
 * schedule, run k of random:S and warps:S with seed S + k), summarizes every
 * round and cell against the chapter's kernel, shows the first wrong run
 * (else run 0) in the trace's buffers, and with racecheck runs the kernel
 * once more under compute-sanitizer.
 *
 * UNDER THE HOOD, racecheck: compute-sanitizer instruments a whole process,
 * so capture re-runs this program (/proc/self/exe) under it with
 * SV_CAPTURE_CHILD_FLAG; the child (sv_capture_child_main) launches the
 * kernel once and prints the shared-memory base of buf and the rounds it
 * dumped; the parent reads the child's and the sanitizer's output (bounded),
 * parses the hazard blocks (core/racecheck.c) and maps each one to a buffer,
 * a cell and, from the written value, a round. */
#include "lab_capture.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sv_config.h"
#include "../core/bounds.h"
#include "../core/error.h"
#include "../core/lab.h"
#include "../core/racecheck.h"
#include "../core/spawn.h"
#include "../core/emulate.h"
#include "../core/lab_ktrace.h"
#include "../runtime/runtime.h"
#if SV_HAVE_CUDA
#include "../../kernels/scan_cuda.h"
#endif

#define LAB_MAX_WORDS ((size_t)1 << 26)    /* runs x rounds x n kept in memory: 256 MiB */
#define CHILD_OUTPUT_LIMIT ((size_t)64 << 20) /* the sanitizer's report, read at most */

bool sv_capture_is_lab(const sv_capture_request *req)
{
    sv_kernel k;
    char e[8];
    bool mistake = req->kernel && sv_kernel_parse(req->kernel, &k, e, sizeof e) &&
                   k != SV_KERNEL_CORRECT;
    return mistake || req->schedule || req->runs || req->shake || req->racecheck;
}

bool sv_capture_lab_check(const sv_capture_request *req, char *err, size_t errlen)
{
    sv_schedule s;
    if (req->schedule && !sv_schedule_parse(req->schedule, &s, err, errlen))
        return false;
    if (req->emulate_schedule && !sv_schedule_parse(req->emulate_schedule, &s, err, errlen))
        return false;
    if (req->schedule && req->choice == SV_CHOOSE_CUDA) {
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

/* The first GPU run whose output (last round) differs from the correct one. */
static uint32_t first_wrong_run(const sv_trace *correct, uint32_t runs, const uint32_t *bits,
                                const bool *known)
{
    size_t n = correct->n, nr = correct->nrounds, last = nr - 1;
    const sv_round *L = &correct->rounds[last];
    int pout = last == 0 ? 0 : L->pout;
    for (uint32_t k = 0; k < runs; k++) {
        size_t j = ((size_t)k * nr + last) * n;
        for (size_t i = 0; i < n; i++)
            if ((known && !known[j + i]) || bits[j + i] != L->buf[pout][i].bits)
                return k;
    }
    return 0;
}

/* ---- racecheck ------------------------------------------------------------ */

static bool find_sanitizer(char *out, size_t len)
{
    static const char *const fixed[] = {"/usr/local/cuda/bin/compute-sanitizer",
                                        "/usr/local/cuda/compute-sanitizer/compute-sanitizer",
                                        NULL};
    return sv_spawn_find("compute-sanitizer", fixed, out, len);
}

/* Runs argv with stdout and stderr into one buffer of at most limit bytes
 * (the rest is read and dropped); *status gets the wait status. The child
 * leads its own process group; past timeout_ms the whole group (the
 * sanitizer and the program it runs) is killed and *timed_out set. */
char *sv_capture_run_output(char *const argv[], size_t limit, int timeout_ms, size_t *len,
                            int *status, bool *timed_out, char *err, size_t errlen)
{
    return sv_spawn_output(argv, limit, timeout_ms, len, status, timed_out, err, errlen);
}

static void racecheck(sv_kernel k, const sv_trace *t, sv_lab_record *L)
{
    sv_racecheck *rc = calloc(1, sizeof *rc);
    if (!rc)
        return;
    L->racecheck = rc;
    char cs[600], exe[PATH_MAX], why[256];
    if (t->backend != SV_BACKEND_CUDA) {
        snprintf(rc->note, sizeof rc->note, "racecheck runs on the GPU; this trace is emulated");
        return;
    }
    if (!find_sanitizer(cs, sizeof cs)) {
        snprintf(rc->note, sizeof rc->note, "compute-sanitizer not found (PATH, "
                 "/usr/local/cuda/bin, /usr/local/cuda/compute-sanitizer): no racecheck");
        return;
    }
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (el <= 0) {
        snprintf(rc->note, sizeof rc->note, "cannot find this program (/proc/self/exe): %s",
                 strerror(errno));
        return;
    }
    exe[el] = '\0';
    const size_t n = t->n, nr = t->nrounds;
    char *hex = malloc(n * 9 + 1), nbuf[24];
    if (!hex) {
        snprintf(rc->note, sizeof rc->note, "out of memory");
        return;
    }
    for (size_t i = 0; i < n; i++)
        snprintf(hex + i * 9, 10, "%08" PRIx32 "%s", t->input[i].bits, i + 1 < n ? "," : "");
    snprintf(nbuf, sizeof nbuf, "%zu", n);
    char *argv[] = {cs, "--tool", "racecheck", "--racecheck-report", "hazard", "--print-limit",
                    "10000", exe, SV_CAPTURE_CHILD_FLAG, (char *)sv_kernel_name(k),
                    (char *)sv_op_name(t->op), (char *)sv_type_name(t->type),
                    (char *)sv_scan_name(t->scan), nbuf, hex, NULL};
    size_t len = 0;
    int status = 0;
    bool timed_out = false;
    char *text = sv_capture_run_output(argv, CHILD_OUTPUT_LIMIT, SV_RACECHECK_TIMEOUT_S * 1000,
                                       &len, &status, &timed_out, why, sizeof why);
    free(hex);
    if (!text) {
        snprintf(rc->note, sizeof rc->note, "compute-sanitizer did not run: %.200s", why);
        return;
    }
    if (timed_out) {
        snprintf(rc->note, sizeof rc->note, "compute-sanitizer did not finish in %d s: stopped "
                 "(no racecheck)", SV_RACECHECK_TIMEOUT_S);
        free(text);
        return;
    }
    sv_racecheck *parsed = sv_racecheck_parse(text, len, why, sizeof why);
    uint32_t base = 0;
    bool have_base = false;
    uint32_t *bits = calloc(nr * n, sizeof *bits);
    size_t got_bits = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        if (strncmp(p, "sv-racecheck-base 0x", 20) == 0)
            have_base = sscanf(p + 20, "%" SCNx32, &base) == 1;
        if (bits && strncmp(p, "sv-racecheck-bits ", 18) == 0) {
            const char *q = p + 18;
            while (got_bits < nr * n && q < (nl ? nl : q + strlen(q))) {
                char *end;
                unsigned long v = strtoul(q, &end, 16);
                if (end == q)
                    break;
                bits[got_bits++] = (uint32_t)v;
                q = *end == ',' ? end + 1 : end;
            }
        }
        p = nl ? nl + 1 : NULL;
    }
    bool child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && have_base;
    if (parsed) {
        sv_racecheck_map(parsed, base, n, 4, got_bits == nr * n ? bits : NULL, nr,
                         t->type == SV_TYPE_INT32);
        parsed->ran = child_ok;
        if (child_ok)
            snprintf(parsed->note, sizeof parsed->note,
                     "compute-sanitizer --tool racecheck, one launch of %s at n = %zu: "
                     "%" PRIu64 " errors, %" PRIu64 " warnings%s", sv_kernel_name(k), n,
                     parsed->errors, parsed->warnings,
                     parsed->has_summary ? "" : " (counted from the report: no summary line)");
        else {
            /* The last line of the output says why, escaped. */
            const char *last = text + len;
            while (last > text && (last[-1] == '\n' || last[-1] == '\r'))
                last--;
            const char *start = last;
            while (start > text && start[-1] != '\n')
                start--;
            char shown[160];
            size_t j = 0;
            for (const char *q = start; q < last && j < sizeof shown - 1; q++)
                shown[j++] = (*q >= 32 && *q < 127) ? *q : '?';
            shown[j] = '\0';
            snprintf(parsed->note, sizeof parsed->note, "the racecheck run failed (%s): %s",
                     WIFEXITED(status) ? "exit status" : "killed", shown);
        }
        sv_racecheck_destroy(rc);
        L->racecheck = parsed;
    } else {
        snprintf(rc->note, sizeof rc->note, "reading the racecheck report: %.200s", why);
    }
    free(bits);
    free(text);
}

int sv_capture_child_main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], SV_CAPTURE_CHILD_FLAG) != 0)
        return -1;
#if SV_HAVE_CUDA
    sv_kernel k;
    sv_op op;
    sv_type type;
    char err[512];
    if (argc != 8 || !sv_kernel_parse(argv[2], &k, err, sizeof err) ||
        !sv_op_from_name(argv[3], &op) || !sv_type_from_name(argv[4], &type)) {
        fprintf(stderr, "%s: bad arguments\n", SV_CAPTURE_CHILD_FLAG);
        return 2;
    }
    bool exclusive = strcmp(argv[5], "exclusive") == 0;
    char *end;
    unsigned long n = strtoul(argv[6], &end, 10);
    if (*end || n == 0 || n > SV_MAX_N) {
        fprintf(stderr, "%s: bad n\n", SV_CAPTURE_CHILD_FLAG);
        return 2;
    }
    sv_value in[SV_MAX_N];
    const char *q = argv[7];
    for (unsigned long i = 0; i < n; i++) {
        in[i].bits = (uint32_t)strtoul(q, &end, 16);
        if (end == q) {
            fprintf(stderr, "%s: bad input\n", SV_CAPTURE_CHILD_FLAG);
            return 2;
        }
        q = *end == ',' ? end + 1 : end;
    }
    size_t nr = sv_round_count(n);
    uint32_t *bits = malloc(nr * n * sizeof *bits);
    uint32_t base = 0;
    sv_cuda_lab_request r = {sv_kernel_name(k), op, type, exclusive, in, n, 1, false, 1};
    if (!bits || !sv_cuda_lab_run(&r, bits, NULL, NULL, err, sizeof err) ||
        !sv_cuda_lab_shared_base(&base, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", SV_CAPTURE_CHILD_FLAG, bits ? err : "out of memory");
        free(bits);
        return 1;
    }
    printf("sv-racecheck-base 0x%08" PRIx32 "\nsv-racecheck-bits ", base);
    for (size_t j = 0; j < nr * n; j++)
        printf("%08" PRIx32 "%s", bits[j], j + 1 < nr * n ? "," : "\n");
    free(bits);
    return fflush(stdout) == 0 ? 0 : 1;
#else
    (void)argc;
    fprintf(stderr, "%s: built without CUDA\n", SV_CAPTURE_CHILD_FLAG);
    return 2;
#endif
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

/* The emulated runs, all in one child of the CPU runtime
 * (sv_runtime_run_each), each taken here as it comes: its rounds into
 * bits/known, the shown run (the first wrong one, else run 0) kept. */
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
        sv_errorf(c->err, c->errlen, "the CPU runtime could not run %s: %s",
                  sv_kernel_name(c->L->kernel), sv_ktrace_failure_words(kt, why, sizeof why));
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

/* The emulated runs through the CPU runtime under their schedules, into
 * bits/known; the shown run fills t, with its reads and, when it stopped
 * early, why in words. */
static bool emulated_runs(const sv_capture_request *req, sv_trace *t, sv_lab_record *L,
                          const sv_trace *correct, uint32_t *bits, bool *known, char *err,
                          size_t errlen)
{
    lab_runs c = {.req = req, .t = t, .correct = correct, .L = L, .bits = bits, .known = known,
                  .err = err, .errlen = errlen};
    /* the time limit is the child's, for all the runs */
    const sv_runtime_request rq = {
        .builtin = sv_kernel_get(L->kernel)->file, .op = t->op, .type = t->type, .scan = t->scan,
        .input = t->input, .n = t->n, .backend = SV_RUNTIME_CPU, .schedule = L->schedule,
        .runs = L->runs,
        .time_limit_ms = SV_RUNTIME_DEFAULT_TIME_LIMIT_MS + 200 * L->runs};
    bool ok = sv_runtime_run_each(&rq, take_run, &c, err, errlen) && c.ok;
    if (ok && c.taken < L->runs) {
        sv_errorf(err, errlen, "the CPU runtime's child sent %u of %u runs", (unsigned)c.taken,
                  (unsigned)L->runs);
        ok = false;
    }
    if (ok && c.shown->failure.kind != SV_KFAIL_NONE)
        sv_ktrace_failure_words(c.shown, L->stopped, sizeof L->stopped);
    if (ok) { /* the code's races, whatever this run's output (a kernel file's are said too) */
        L->hazards = c.shown->hazards_total;
        if (c.shown->nhazards)
            sv_lab_hazard_words(c.shown, L->kernel, &c.shown->hazards[0], L->hazard,
                                sizeof L->hazard);
    }
    ok = ok && reads_of(t, L->kernel, c.shown, correct, &L->reads, NULL, NULL, err, errlen);
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
    const char *sched = req->schedule ? req->schedule
                      : req->emulate_schedule ? req->emulate_schedule : SV_LAB_DEFAULT_SCHEDULE;
    if (!sv_schedule_parse(sched, &L->schedule, err, errlen))
        return false;
    bool seeded = L->schedule.kind == SV_SCHEDULE_RANDOM || L->schedule.kind == SV_SCHEDULE_WARPS;
    L->runs = req->runs ? req->runs : seeded ? SV_LAB_DEFAULT_RUNS : 1;
    return true;
}

bool sv_capture_lab_fill(sv_trace *t, const sv_capture_request *req, sv_backend backend,
                         bool *bad, char *err, size_t errlen)
{
    char why[512];
    sv_kernel k = SV_KERNEL_CORRECT;
    if (req->kernel && !sv_kernel_parse(req->kernel, &k, err, errlen)) {
        *bad = true;
        return false;
    }
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
    if (backend == SV_BACKEND_CPU) {
        L->emulated = true;
        if (!emulated_plan(req, L, err, errlen)) {
            *bad = true;
            goto done;
        }
        bits = malloc((size_t)L->runs * nr * n * sizeof *bits);
        known = malloc((size_t)L->runs * nr * n * sizeof *known);
        if (!bits || !known) {
            sv_errorf(err, errlen, "lab: out of memory for %u runs", (unsigned)L->runs);
            goto done;
        }
        if (!emulated_runs(req, t, L, correct, bits, known, why, sizeof why)) {
            sv_errorf(err, errlen, "emulated run failed: %s", why);
            goto done;
        }
    } else {
#if SV_HAVE_CUDA
        L->runs = req->runs ? req->runs : SV_LAB_DEFAULT_RUNS;
        L->shake = req->shake;
        L->shake_seed = req->shake_seed ? req->shake_seed : 1;
        bits = malloc((size_t)L->runs * nr * n * sizeof *bits);
        if (!bits) {
            sv_errorf(err, errlen, "lab: out of memory for %u runs", (unsigned)L->runs);
            goto done;
        }
        sv_cuda_lab_request r = {sv_kernel_name(k), t->op, t->type,
                                 t->scan == SV_SCAN_EXCLUSIVE, t->input, n, L->runs, L->shake,
                                 L->shake_seed};
        if (!sv_cuda_lab_run(&r, bits, NULL, &L->wall_us, why, sizeof why)) {
            sv_errorf(err, errlen, "CUDA kernel failed: %s", why);
            goto done;
        }
#else
        sv_errorf(err, errlen, "built without CUDA");
        goto done;
#endif
    }
    if (!(L->summary = sv_lab_summarize(correct, L->runs, bits, known, err, errlen)))
        goto done;
    if (!L->emulated) {
        L->shown_run = first_wrong_run(correct, L->runs, bits, known);
        sv_lab_trace_from_raw(t, k, bits + (size_t)L->shown_run * nr * n, NULL);
    }
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
