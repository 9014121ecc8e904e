/* The GPU runtime (src/runtime/gpu_run.c) on the project's test kernels
 * (tests/kernels/), against the CPU runtime: the correct kernels give the
 * same output bit for bit, the same steps at the same barrier lines, the same
 * arrays, and every cell the GPU saw written holds the CPU's value and
 * every cell the CPU saw written the GPU saw too (the GPU records its
 * stores, a write of an unchanged value included); a syntax error is a
 * compile failure at the file's line; a write past out[] is out of range; an
 * endless loop stops at the time limit, a barrier inside an if is a
 * deadlock with threads waiting at its line, an illegal address fails only its
 * child (a run after it works); the in-place race is wrong in shaken runs,
 * and with --racecheck its hazards are found and placed on cells of s.
 * The chapter's kernel as a shipped kernel (builtin "hillis_steele", NVRTC
 * on its embedded text) equals the CPU runtime's trace step by step, every
 * value and every written flag (the GPU records its stores, so a write of
 * an unchanged value counts), for every operator, both types, both scans
 * and a sample of n; sv_runtime_run_each on the GPU gives every run's
 * trace in order, 100 shaken runs of a mistake in well under a second of
 * GPU time.
 * Usage: test_runtime_gpu KERNELS_DIR STARTER.cu. Exits 77 without a GPU. */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../src/runtime/runtime.h"
#include "../expect.h"

static const char *dir;

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 18];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *s = malloc(n + 1);
    if (s)
        memcpy(s, buf, n + 1);
    return s;
}

/* The line of "MARK: name" in text, 0 when absent. */
static int mark_line(const char *text, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "MARK: %s", name);
    const char *p = strstr(text, key);
    int line = 1;
    for (const char *q = text; p && q < p; q++)
        line += *q == '\n';
    return p ? line : 0;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct kcase {
    const char *file;
    sv_op op;
    sv_type type;
    sv_scan scan;
    size_t n;
} kcase;

static sv_ktrace *run(const kcase *c, const char *source, sv_runtime_backend b, uint32_t runs,
                      bool shake, bool racecheck, uint32_t limit_ms, const sv_value *in)
{
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.path = c->file;
    req.source = source;
    req.op = c->op;
    req.type = c->type;
    req.scan = c->scan;
    req.input = in;
    req.n = c->n;
    req.backend = b;
    req.schedule.kind = SV_SCHEDULE_SEQUENTIAL;
    req.runs = runs;
    req.shake = shake;
    req.shake_seed = 7;
    req.racecheck = racecheck;
    req.time_limit_ms = limit_ms;
    char err[1024];
    sv_ktrace *t = sv_runtime_run(&req, err, sizeof err);
    CHECK_MSG(t, "%s: %s", c->file, err);
    if (t && !sv_ktrace_analyze(t, err, sizeof err))
        CHECK_MSG(0, "%s: analyze: %s", c->file, err);
    return t;
}

static void fill(sv_value *in, size_t n, sv_type type, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        if (type == SV_TYPE_FLOAT32) {
            float f = (float)((x >> 8) % 1000 + 1) / 1000.0f;
            memcpy(&in[i].bits, &f, 4);
        } else {
            in[i].bits = (uint32_t)((int32_t)((x >> 8) % 2001) - 1000);
        }
    }
}

/* GPU against CPU on one correct kernel. */
static void check_correct(const kcase *c, const char *path)
{
    char *src = slurp(path);
    CHECK_MSG(src, "cannot read %s", path);
    if (!src)
        return;
    sv_value in[1024];
    fill(in, c->n, c->type, (unsigned)c->n);
    sv_ktrace *g = run(c, src, SV_RUNTIME_GPU, 1, false, false, 0, in);
    sv_ktrace *p = run(c, src, SV_RUNTIME_CPU, 1, false, false, 0, in);
    if (g && p) {
        char w[512];
        CHECK_MSG(g->failure.kind == SV_KFAIL_NONE, "%s n=%zu on the GPU: %s", c->file, c->n,
                  sv_ktrace_failure_words(g, w, sizeof w));
        CHECK_MSG(sv_ktrace_verdict(g) == sv_ktrace_verdict(p) &&
                      (c->type == SV_TYPE_FLOAT32 || sv_ktrace_verdict(g) == SV_KVERDICT_OK),
                  "%s n=%zu: verdict %d on the GPU, %d on the CPU", c->file, c->n,
                  (int)sv_ktrace_verdict(g), (int)sv_ktrace_verdict(p));
        size_t diff = 0;
        for (size_t i = 0; i < c->n; i++)
            diff += g->output[i].bits != p->output[i].bits || !g->output_written[i];
        CHECK_MSG(diff == 0, "%s n=%zu: %zu output cells differ from the CPU runtime's", c->file,
                  c->n, diff);
        CHECK_MSG(g->nsteps == p->nsteps && g->narrays == p->narrays,
                  "%s n=%zu: GPU %zu steps %zu arrays, CPU %zu steps %zu arrays", c->file, c->n,
                  g->nsteps, g->narrays, p->nsteps, p->narrays);
        size_t bad = 0, seen = 0, missed = 0;
        for (size_t a = 0; a < g->narrays && a < p->narrays; a++) {
            CHECK_MSG(!strcmp(g->arrays[a].name, p->arrays[a].name) &&
                          g->arrays[a].len == p->arrays[a].len &&
                          g->arrays[a].rows == p->arrays[a].rows,
                      "%s: array %zu: GPU %s[%u] rows %u, CPU %s[%u] rows %u", c->file, a,
                      g->arrays[a].name, g->arrays[a].len, g->arrays[a].rows, p->arrays[a].name,
                      p->arrays[a].len, p->arrays[a].rows);
            for (size_t s = 0; s < g->nsteps && s < p->nsteps; s++)
                for (uint32_t k = 0; k < g->arrays[a].len && k < p->arrays[a].len; k++) {
                    bool gw = g->steps[s].written[a][k], pw = p->steps[s].written[a][k];
                    seen += gw;
                    missed += pw && !gw;
                    bad += gw && (!pw || g->steps[s].cells[a][k].bits != p->steps[s].cells[a][k].bits);
                }
        }
        for (size_t s = 0; s < g->nsteps && s < p->nsteps; s++)
            CHECK_MSG(g->steps[s].barrier_line == p->steps[s].barrier_line,
                      "%s: step %zu ends at line %d on the GPU, %d on the CPU", c->file, s + 1,
                      g->steps[s].barrier_line, p->steps[s].barrier_line);
        CHECK_MSG(bad == 0, "%s n=%zu: %zu written cells differ from the CPU's", c->file, c->n,
                  bad);
        CHECK_MSG(missed == 0, "%s n=%zu: %zu cells the CPU saw written, the GPU not", c->file,
                  c->n, missed);
        printf("%-26s n = %4zu: GPU = CPU (%zu steps, %zu written cells agree)\n", c->file, c->n,
               g->nsteps, seen);
    }
    sv_ktrace_destroy(g);
    sv_ktrace_destroy(p);
    free(src);
}

/* One kernel file that must fail on the GPU with kind; returns the trace. */
static sv_ktrace *check_fails(const char *file, size_t n, sv_kfail_kind kind, uint32_t limit_ms,
                              double *ms)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char *src = slurp(path);
    CHECK_MSG(src, "cannot read %s", path);
    if (!src)
        return NULL;
    sv_value in[1024];
    kcase c = {file, SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, n};
    fill(in, n, SV_TYPE_INT32, 3);
    double t0 = now_ms();
    sv_ktrace *t = run(&c, src, SV_RUNTIME_GPU, 1, false, false, limit_ms, in);
    *ms = now_ms() - t0;
    char w[1024] = "";
    if (t)
        sv_ktrace_failure_words(t, w, sizeof w);
    CHECK_MSG(t && t->failure.kind == kind, "%s: failure %s, not %s: %s", file,
              t ? sv_kfail_kind_name(t->failure.kind) : "none", sv_kfail_kind_name(kind), w);
    printf("%-26s n = %4zu: %s in %.0f ms: %.300s\n", file, n,
           t ? sv_kfail_kind_name(t->failure.kind) : "-", *ms, w);
    free(src);
    return t;
}

static void check_failures(void)
{
    double ms;
    char path[4096];
    sv_ktrace *t = check_fails("syntax_error.cu", 8, SV_KFAIL_COMPILE, 0, &ms);
    snprintf(path, sizeof path, "%s/syntax_error.cu", dir);
    char *src = slurp(path);
    int mark = src ? mark_line(src, "syntax") : 0;
    CHECK_MSG(t && (t->failure.line == mark || t->failure.line == mark + 1),
              "syntax error at line %d, marked %d", t ? t->failure.line : -1, mark);
    CHECK_MSG(t && t->failure.message && strstr(t->failure.message, "syntax_error.cu("),
              "the compiler's message names the file's line");
    free(src);
    sv_ktrace_destroy(t);

    t = check_fails("out_of_range_write.cu", 64, SV_KFAIL_OUT_OF_RANGE, 0, &ms);
    CHECK_MSG(t && t->failure.index == 64 && t->failure.array >= 0 &&
                  !strcmp(t->arrays[t->failure.array].name, "out"),
              "out of range: index %lld", t ? (long long)t->failure.index : -1ll);
    sv_ktrace_destroy(t);

    t = check_fails("endless_loop.cu", 64, SV_KFAIL_TIME, 1500, &ms);
    CHECK_MSG(ms < 15000, "the endless loop took %.0f ms to stop", ms);
    sv_ktrace_destroy(t);

    t = check_fails("barrier_in_if.cu", 64, SV_KFAIL_DEADLOCK, 1500, &ms);
    snprintf(path, sizeof path, "%s/barrier_in_if.cu", dir);
    src = slurp(path);
    mark = src ? mark_line(src, "barrier") : 0;
    /* the GPU counts arrivals by warp: which threads wait is its own
     * (the CPU runtime: threads 1 .. 63); that some wait at the marked line
     * is what both say */
    bool found = false;
    for (size_t w = 0; t && w < t->failure.nwaits; w++) {
        printf("  waits: line %d, %u threads from %u\n", t->failure.waits[w].line,
               t->failure.waits[w].count, t->failure.waits[w].first_thread);
        found = found || (t->failure.waits[w].line == mark && t->failure.waits[w].count > 0);
    }
    CHECK_MSG(found, "deadlock: threads wait at line %d", mark);
    free(src);
    sv_ktrace_destroy(t);
}

/* An illegal address fails its child alone: the next run works. */
static void check_illegal(void)
{
    static const char src[] =
        "__global__ void wild(const int *in, int *out, int n)\n"
        "{\n"
        "    out[threadIdx.x + (1 << 29)] = in[threadIdx.x];\n"
        "}\n";
    sv_value in[32];
    fill(in, 32, SV_TYPE_INT32, 5);
    kcase c = {"wild.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 32};
    sv_ktrace *t = run(&c, src, SV_RUNTIME_GPU, 1, false, false, 0, in);
    char w[512] = "";
    if (t)
        sv_ktrace_failure_words(t, w, sizeof w);
    CHECK_MSG(t && (t->failure.kind == SV_KFAIL_OUT_OF_RANGE || t->failure.kind == SV_KFAIL_CRASH),
              "an illegal address: %s", w);
    printf("%-26s n = %4d: %s: %.200s\n", "wild.cu", 32, t ? sv_kfail_kind_name(t->failure.kind) : "-",
           w);
    sv_ktrace_destroy(t);
    char path[4096];
    snprintf(path, sizeof path, "%s/double_buffer.cu", dir);
    kcase ok = {"double_buffer.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 256};
    check_correct(&ok, path);
}

/* The race: shaken runs wrong; the timing of 100 runs; racecheck. */
static void check_race(const char *times)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/in_place_race.cu", dir);
    char *src = slurp(path);
    if (!src)
        return;
    sv_value in[1024];
    fill(in, 1024, SV_TYPE_INT32, 11);
    kcase c = {"in_place_race.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 1024};
    for (int k = 0; k < 2; k++) {
        double t0 = now_ms();
        sv_ktrace *t = run(&c, src, SV_RUNTIME_GPU, 100, true, false, 0, in);
        double ms = now_ms() - t0;
        CHECK_MSG(t && t->runs == 100 && t->wrong_runs > 0, "shaken in-place: %u of %u wrong",
                  t ? t->wrong_runs : 0, t ? t->runs : 0);
        printf("in_place_race.cu n = 1024: 100 shaken runs, %u wrong, shown run %u; whole call "
               "%.1f ms\n", t ? t->wrong_runs : 0, t ? t->shown_run : 0, ms);
        sv_ktrace_destroy(t);
    }
    FILE *f = fopen(times, "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        printf("  child: %s", line);
    if (f)
        fclose(f);
    double t0 = now_ms();
    c.n = 64;
    sv_ktrace *t = run(&c, src, SV_RUNTIME_GPU, 1, false, true, 0, in);
    double ms = now_ms() - t0;
    size_t on_s = 0;
    for (size_t h = 0; t && h < t->nhazards; h++)
        on_s += t->hazards[h].array < t->narrays &&
                !strcmp(t->arrays[t->hazards[h].array].name, "s");
    char w[512] = "";
    if (t && t->nhazards)
        sv_ktrace_hazard_words(t, &t->hazards[0], w, sizeof w);
    CHECK_MSG(t && t->hazards_total > 0 && on_s > 0, "racecheck: %llu hazards, %zu on s",
              t ? (unsigned long long)t->hazards_total : 0ull, on_s);
    printf("in_place_race.cu n =   64: --racecheck %llu hazards (%zu kept, %zu on s) in %.0f ms; "
           "first: %s\n", t ? (unsigned long long)t->hazards_total : 0ull, t ? t->nhazards : 0,
           on_s, ms, w);
    sv_ktrace_destroy(t);
    free(src);
}

/* Differences between two traces of one run, step by step: steps, lines,
 * arrays, every cell's value, written and wrote flag, the output; the
 * first few printed under what. */
static size_t trace_diff(const sv_ktrace *g, const sv_ktrace *p, const char *what)
{
    size_t bad = 0;
    if (g->nsteps != p->nsteps || g->narrays != p->narrays) {
        printf("  %s: GPU %zu steps %zu arrays, CPU %zu steps %zu arrays\n", what, g->nsteps,
               g->narrays, p->nsteps, p->narrays);
        return 1;
    }
    for (size_t a = 0; a < g->narrays; a++)
        if (strcmp(g->arrays[a].name, p->arrays[a].name) || g->arrays[a].len != p->arrays[a].len ||
            g->arrays[a].rows != p->arrays[a].rows) {
            printf("  %s: array %zu: GPU %s[%u], CPU %s[%u]\n", what, a, g->arrays[a].name,
                   g->arrays[a].len, p->arrays[a].name, p->arrays[a].len);
            return 1;
        }
    for (size_t s = 0; s < g->nsteps; s++) {
        bad += g->steps[s].barrier_line != p->steps[s].barrier_line;
        for (size_t a = 0; a < g->narrays; a++)
            for (uint32_t k = 0; k < g->arrays[a].len; k++) {
                bool d = g->steps[s].cells[a][k].bits != p->steps[s].cells[a][k].bits ||
                         g->steps[s].written[a][k] != p->steps[s].written[a][k] ||
                         g->steps[s].wrote[a][k] != p->steps[s].wrote[a][k];
                if (d && bad < 3)
                    printf("  %s: step %zu %s[%u]: GPU %08x w%d/%d, CPU %08x w%d/%d\n", what, s,
                           g->arrays[a].name, k, g->steps[s].cells[a][k].bits,
                           g->steps[s].written[a][k], g->steps[s].wrote[a][k],
                           p->steps[s].cells[a][k].bits, p->steps[s].written[a][k],
                           p->steps[s].wrote[a][k]);
                bad += d;
            }
    }
    for (size_t i = 0; i < g->n; i++)
        bad += g->output[i].bits != p->output[i].bits ||
               g->output_written[i] != p->output_written[i];
    return bad;
}

static sv_runtime_request builtin_req(const char *file, sv_op op, sv_type type, sv_scan scan,
                                      const sv_value *in, size_t n, sv_runtime_backend b)
{
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.builtin = file;
    req.op = op;
    req.type = type;
    req.scan = scan;
    req.input = in;
    req.n = n;
    req.backend = b;
    req.schedule.kind = SV_SCHEDULE_SEQUENTIAL;
    req.runs = 1;
    return req;
}

/* builtin hillis_steele: GPU = CPU, step by step, values and written flags. */
static void check_builtin(void)
{
    static const size_t ns[] = {1, 2, 5, 32, 33, 100, 256, 777, 1000, 1024};
    unsigned cases = 0, same = 0;
    for (int op = 0; op < SV_OP_COUNT; op++)
        for (int ty = 0; ty < 2; ty++)
            for (int sc = 0; sc < 2; sc++)
                for (size_t q = 0; q < sizeof ns / sizeof *ns; q++) {
                    sv_type type = ty ? SV_TYPE_FLOAT32 : SV_TYPE_INT32;
                    if (op == SV_OP_XOR && type == SV_TYPE_FLOAT32)
                        continue;
                    size_t n = ns[q];
                    sv_value in[1024];
                    fill(in, n, type, (unsigned)(n * 7 + (size_t)op));
                    sv_scan scan = sc ? SV_SCAN_EXCLUSIVE : SV_SCAN_INCLUSIVE;
                    char what[128], err[1024];
                    snprintf(what, sizeof what, "builtin hillis_steele %s %s %s n=%zu",
                             sv_op_name((sv_op)op), sv_type_name(type),
                             sc ? "exclusive" : "inclusive", n);
                    sv_runtime_request rg = builtin_req("kernels/hillis_steele.cu", (sv_op)op,
                                                        type, scan, in, n, SV_RUNTIME_GPU);
                    sv_runtime_request rp = rg;
                    rp.backend = SV_RUNTIME_CPU;
                    sv_ktrace *g = sv_runtime_run(&rg, err, sizeof err);
                    CHECK_MSG(g, "%s on the GPU: %s", what, err);
                    sv_ktrace *p = sv_runtime_run(&rp, err, sizeof err);
                    CHECK_MSG(p, "%s on the CPU: %s", what, err);
                    cases++;
                    if (g && p) {
                        char w[512];
                        CHECK_MSG(g->failure.kind == SV_KFAIL_NONE, "%s on the GPU: %s", what,
                                  sv_ktrace_failure_words(g, w, sizeof w));
                        CHECK_MSG(p->failure.kind == SV_KFAIL_NONE, "%s on the CPU: %s", what,
                                  sv_ktrace_failure_words(p, w, sizeof w));
                        CHECK_MSG(g->file && p->file && !strcmp(g->file, p->file) && g->source &&
                                      p->source && !strcmp(g->source, p->source),
                                  "%s: the trace's file and source are the shipped kernel's", what);
                        size_t d = trace_diff(g, p, what);
                        CHECK_MSG(d == 0, "%s: %zu differences from the CPU runtime's trace", what,
                                  d);
                        same += d == 0;
                    }
                    sv_ktrace_destroy(g);
                    sv_ktrace_destroy(p);
                }
    printf("builtin hillis_steele: %u of %u (op, type, scan, n) traces on the GPU equal the "
           "CPU runtime's, values and written flags\n", same, cases);
}

typedef struct each_ctx {
    uint32_t next, wrong, failed;
    size_t steps;
    const sv_ktrace *ref; /* a single run's trace each must equal (unshaken), or NULL */
    size_t diff;
} each_ctx;

static bool take_each(void *ctx, uint32_t run, sv_ktrace *t)
{
    each_ctx *c = ctx;
    CHECK_MSG(run == c->next, "run_each: run %u came after %u", run, c->next);
    c->next = run + 1;
    c->wrong += t->wrong_runs != 0;
    c->failed += t->failure.kind != SV_KFAIL_NONE;
    c->steps += t->nsteps;
    CHECK_MSG(t->runs == 1 && t->backend == SV_BACKEND_CUDA, "run_each: run %u: runs %u", run,
              t->runs);
    if (c->ref)
        c->diff += trace_diff(t, c->ref, "run_each against one run");
    sv_ktrace_destroy(t);
    return true;
}

/* sv_runtime_run_each on the GPU: R traces in order. */
static void check_each(void)
{
    sv_value in[1024];
    fill(in, 1024, SV_TYPE_INT32, 13);
    char err[1024];
    /* unshaken runs of the chapter's kernel: each the one run's trace */
    sv_runtime_request one = builtin_req("kernels/hillis_steele.cu", SV_OP_SUM, SV_TYPE_INT32,
                                         SV_SCAN_INCLUSIVE, in, 300, SV_RUNTIME_GPU);
    sv_ktrace *ref = sv_runtime_run(&one, err, sizeof err);
    CHECK_MSG(ref && ref->failure.kind == SV_KFAIL_NONE, "one GPU run: %s", ref ? "failed" : err);
    each_ctx c = {0, 0, 0, 0, ref, 0};
    sv_runtime_request r = one;
    r.runs = 37; /* (more than one of the child's batches at n = 300) */
    bool ok = sv_runtime_run_each(&r, take_each, &c, err, sizeof err);
    CHECK_MSG(ok, "run_each on the GPU: %s", err);
    CHECK_MSG(c.next == 37 && c.failed == 0 && c.diff == 0,
              "run_each on the GPU: %u traces (37 asked), %u failed, %zu differences from one run",
              c.next, c.failed, c.diff);
    sv_ktrace_destroy(ref);
    /* the lab's case: 100 shaken runs of in-place at n = 1024 */
    each_ctx e = {0, 0, 0, 0, NULL, 0};
    r = builtin_req("kernels/mistakes/in_place.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE,
                    in, 1024, SV_RUNTIME_GPU);
    r.runs = 100;
    r.shake = true;
    r.shake_seed = 5;
    double t0 = now_ms();
    ok = sv_runtime_run_each(&r, take_each, &e, err, sizeof err);
    double ms = now_ms() - t0;
    CHECK_MSG(ok && e.next == 100 && e.failed == 0, "run_each, 100 shaken in-place runs: %u "
              "traces, %u failed: %s", e.next, e.failed, ok ? "" : err);
    CHECK_MSG(e.wrong > 0, "run_each, 100 shaken in-place runs: none wrong");
    /* (the child cannot write SV_RT_GPU_TIMES behind its walls: the whole
     * call, its NVRTC compile, context and 100 traces of 1024 cells built and
     * sent included, bounds the GPU's time) */
    CHECK_MSG(ms < 5000.0, "100 shaken runs took %.0f ms, the whole call", ms);
    printf("run_each on the GPU: 37 runs equal one run; 100 shaken in-place runs at n = 1024: "
           "%u wrong, %zu steps, %.0f ms the whole call\n", e.wrong, e.steps, ms);
}

/* This process takes a CUDA context first (as the window does for its own
 * captures): the runtime's GPU runs must still work, from their fresh
 * process. */
static void check_after_cuda(void)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW);
    int (*init)(unsigned) = NULL, (*get)(int *, int) = NULL, (*retain)(void **, int) = NULL,
        (*set)(void *) = NULL;
    if (cuda) { /* the POSIX way to take a function from dlsym */
        *(void **)&init = dlsym(cuda, "cuInit");
        *(void **)&get = dlsym(cuda, "cuDeviceGet");
        *(void **)&retain = dlsym(cuda, "cuDevicePrimaryCtxRetain");
        *(void **)&set = dlsym(cuda, "cuCtxSetCurrent");
    }
    int dev = 0;
    void *ctx = NULL;
    bool have = init && get && retain && set && init(0) == 0 && get(&dev, 0) == 0 &&
                retain(&ctx, dev) == 0 && set(ctx) == 0;
    CHECK_MSG(have, "this process could not take a CUDA context");
    char path[4096];
    snprintf(path, sizeof path, "%s/double_buffer.cu", dir);
    kcase c = {"double_buffer.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 128};
    printf("after this process took a CUDA context:\n");
    check_correct(&c, path);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_runtime_gpu KERNELS_DIR STARTER.cu\n");
        return 2;
    }
    dir = argv[1];
    char why[512];
    if (!sv_runtime_available(SV_RUNTIME_GPU, why, sizeof why)) {
        printf("skip: %s\n", why);
        return 77;
    }
    /* a fresh compile cache, so the first compile is NVRTC's */
    char cache[] = "/tmp/sv-rt-gpu-XXXXXX", times[600];
    if (!mkdtemp(cache)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("XDG_CACHE_HOME", cache, 1);
    snprintf(times, sizeof times, "%s/times.txt", cache);
    setenv("SV_RT_GPU_TIMES", times, 1);
    const kcase cases[] = {
        {"double_buffer.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 1024},
        {"double_buffer.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 33},
        {"double_buffer.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 1},
        {"temp_2d.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 1024},
        {"in_place_two_barriers.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 1000},
        {"float_sum.cu", SV_OP_SUM, SV_TYPE_FLOAT32, SV_SCAN_INCLUSIVE, 1024},
        {"max_scan.cu", SV_OP_MAX, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 512},
        {"blelloch.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, 1024},
    };
    char path[4096];
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, cases[k].file);
        check_correct(&cases[k], path);
    }
    kcase starter = {"starter.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, 256};
    check_correct(&starter, argv[2]);
    check_failures();
    check_illegal();
    check_race(times);
    check_builtin();
    check_each();
    check_after_cuda();
    return check_report("the GPU runtime: all checks passed");
}
