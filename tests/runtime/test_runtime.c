/* The CPU runtime on the test kernels (tests/kernels/, tests/runtime/kernels/):
 * each run is a child process, as for a user. Checked exactly: the correct
 * kernels' outputs against the chapter's emulator (or the sequential scan),
 * hazard counts against counts derived here from the kernels' access
 * patterns, and each failure's kind, thread, array, index and line (the line
 * of the file's "MARK:" comment).
 *   test_runtime TESTS_KERNELS_DIR RUNTIME_KERNELS_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../expect.h"

#include "emulate.h"
#include "core/fileio.h"
#include "core/ktrace.h"
#include "core/lab.h"
#include "core/reference.h"
#include "runtime.h"
#include "need_cpu.h"

static const char *kdir, *rdir;

typedef struct run_opts {
    sv_type type;
    sv_op op;
    sv_scan scan;
    const char *schedule;
    const char *entry;
    uint32_t runs;
    uint32_t time_limit_ms, memory_mb;
} run_opts;

static char *load(const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    char err[256];
    size_t n;
    char *s = sv_read_bounded(path, 1 << 20, "kernel", &n, err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    return s;
}

/* The line holding "MARK: tag" in src, 0 if none. */
static int mark_line(const char *src, const char *tag)
{
    char want[64];
    snprintf(want, sizeof want, "MARK: %s", tag);
    const char *p = strstr(src, want);
    if (!p)
        return 0;
    int line = 1;
    for (const char *c = src; c < p; c++)
        line += *c == '\n';
    return line;
}

static void input_of(sv_type type, size_t n, sv_value *v)
{
    for (size_t i = 0; i < n; i++) {
        if (type == SV_TYPE_FLOAT32)
            v[i].f = (float)((i * 37 + 11) % 17) * 0.25f; /* exact in binary32 sums */
        else
            v[i].i = (int32_t)((i * 37 + 11) % 23) - 5;
    }
}

static sv_ktrace *run(const char *dir, const char *file, const sv_value *in, size_t n,
                      run_opts o, char **src_out)
{
    char path[1024], err[1024];
    char *src = load(dir, file, path, sizeof path);
    if (!src)
        return NULL;
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.path = path;
    req.source = src;
    req.entry = o.entry;
    req.op = o.op;
    req.type = o.type;
    req.scan = o.scan;
    req.input = in;
    req.n = n;
    req.backend = SV_RUNTIME_CPU;
    req.runs = o.runs ? o.runs : 1;
    req.time_limit_ms = o.time_limit_ms;
    req.memory_mb = o.memory_mb;
    if (!sv_schedule_parse(o.schedule ? o.schedule : "sequential", &req.schedule, err,
                           sizeof err)) {
        CHECK_MSG(false, "%s", err);
        free(src);
        return NULL;
    }
    sv_ktrace *t = sv_runtime_run(&req, err, sizeof err);
    CHECK_MSG(t != NULL, "%s: %s", file, err);
    if (src_out)
        *src_out = src;
    else
        free(src);
    return t;
}

/* The chapter's kernel's output on in (the bit-exact emulator). */
static void emulated(run_opts o, const sv_value *in, size_t n, sv_value *out)
{
    char err[256];
    sv_trace *t = sv_trace_create(o.op, o.type, o.scan, in, n, SV_BACKEND_CPU, NULL, err,
                                  sizeof err);
    CHECK(t != NULL);
    CHECK(sv_emulate(t, err, sizeof err));
    CHECK(sv_trace_finish(t, err, sizeof err));
    memcpy(out, t->output, n * sizeof *out);
    sv_trace_destroy(t);
}

static const char *const schedules[] = {"sequential", "reverse", "lockstep", "random:7", "warps:3"};
#define NSCHED (sizeof schedules / sizeof *schedules)

static void check_output(const sv_ktrace *t, const sv_value *want, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        if (!t->output_written[i] || t->output[i].bits != want[i].bits) {
            CHECK_MSG(false, "%s: out[%zu] = %d (written %d), want %d", what, i, t->output[i].i,
                      t->output_written[i], want[i].i);
            return;
        }
    }
}

/* Correct kernels in several styles: the emulator's output and no hazard,
 * under every schedule, at several n. */
static void test_correct(void)
{
    static const struct {
        const char *file;
        sv_type type;
        sv_op op;
        sv_scan scan;
        bool chapter; /* output from the emulator, else the sequential scan */
    } k[] = {
        {"double_buffer.cu", SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, true},
        {"temp_2d.cu", SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, true},
        {"in_place_two_barriers.cu", SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, true},
        {"float_sum.cu", SV_TYPE_FLOAT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, true},
        {"max_scan.cu", SV_TYPE_INT32, SV_OP_MAX, SV_SCAN_INCLUSIVE, true},
        {"blelloch.cu", SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_EXCLUSIVE, false},
    };
    const size_t ns[] = {1, 8, 37, 1024};
    static sv_value in[SV_MAX_N], want[SV_MAX_N];
    for (size_t f = 0; f < sizeof k / sizeof *k; f++) {
        for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
            size_t n = ns[a];
            if (!k[f].chapter && (n & (n - 1)) != 0)
                continue; /* the Blelloch kernel is written for powers of two */
            run_opts o = {k[f].type, k[f].op, k[f].scan, NULL, NULL, 1, 0, 0};
            input_of(o.type, n, in);
            if (k[f].chapter)
                emulated(o, in, n, want);
            else
                sv_reference_scan(o.op, o.type, o.scan, in, want, n);
            for (size_t s = 0; s < NSCHED; s++) {
                if (n == 1024 && s > 2 && f > 0)
                    continue; /* keep the suite quick: all schedules at 1024 once */
                o.schedule = schedules[s];
                sv_ktrace *t = run(kdir, k[f].file, in, n, o, NULL);
                if (!t)
                    continue;
                char what[128];
                snprintf(what, sizeof what, "%s n=%zu %s", k[f].file, n, schedules[s]);
                CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "%s: %s", what,
                          t->failure.message ? t->failure.message : "");
                check_output(t, want, n, what);
                CHECK_MSG(t->hazards_total == 0, "%s: %llu hazards", what,
                          (unsigned long long)t->hazards_total);
                CHECK_MSG(t->nsteps >= 1, "%s: no steps", what);
                sv_ktrace_destroy(t);
            }
        }
    }
}

/* The in-place race: in the round of stride t, cell c (t <= c < n - t) is
 * written by thread c and read by thread c + t: one hazard per such cell,
 * whatever the order. */
static uint64_t in_place_count(size_t n)
{
    uint64_t c = 0;
    for (size_t t = 1; t < n; t *= 2)
        c += n > 2 * t ? n - 2 * t : 0;
    return c;
}

/* No barrier in the loop: all rounds in one interval. Thread c + s reads
 * pin[c] written by thread c in a round of the other buffer: one hazard per
 * (round, c) with c + s < n, when both buffers are written (two rounds). */
static uint64_t no_barrier_count(size_t n)
{
    uint64_t c = 0, rounds = 0;
    for (size_t s = 1; s < n; s *= 2) {
        c += n - s;
        rounds++;
    }
    return rounds >= 2 ? c : 0;
}

static void test_races(void)
{
    static sv_value in[SV_MAX_N];
    const size_t ns[] = {2, 8, 64, 1024};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
        size_t n = ns[a];
        input_of(SV_TYPE_INT32, n, in);
        for (size_t s = 0; s < NSCHED; s++) {
            run_opts o = {SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, schedules[s], NULL, 1, 0, 0};
            sv_ktrace *t = run(kdir, "in_place_race.cu", in, n, o, NULL);
            if (t) {
                CHECK_MSG(t->hazards_total == in_place_count(n), "in place n=%zu %s: %llu, want %llu",
                          n, schedules[s], (unsigned long long)t->hazards_total,
                          (unsigned long long)in_place_count(n));
                CHECK(t->failure.kind == SV_KFAIL_NONE);
                for (size_t h = 0; h < t->nhazards; h++) {
                    const sv_khazard *z = &t->hazards[h];
                    CHECK(z->first.thread != z->second.thread);
                    CHECK(z->first.line > 0 && z->first.line == z->second.line);
                    CHECK_INT(z->second.thread > z->first.thread
                                  ? z->second.thread - z->first.thread
                                  : z->first.thread - z->second.thread,
                              1u << (z->step - 1));
                }
                sv_ktrace_destroy(t);
            }
            t = run(kdir, "no_barrier.cu", in, n, o, NULL);
            if (t) {
                CHECK_MSG(t->hazards_total == no_barrier_count(n), "no barrier n=%zu %s: %llu, want %llu",
                          n, schedules[s], (unsigned long long)t->hazards_total,
                          (unsigned long long)no_barrier_count(n));
                sv_ktrace_destroy(t);
            }
        }
    }
    /* The user guide's example: in place under sequential reads the new values. */
    const int32_t ex[8] = {3, 1, 7, 0, 4, 1, 6, 3}, seq[8] = {3, 4, 14, 15, 32, 35, 65, 71};
    for (int i = 0; i < 8; i++)
        in[i].i = ex[i];
    run_opts o = {SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, "sequential", NULL, 1, 0, 0};
    sv_ktrace *t = run(kdir, "in_place_race.cu", in, 8, o, NULL);
    if (t) {
        for (int i = 0; i < 8; i++)
            CHECK_INT(t->output[i].i, seq[i]);
        CHECK_INT(t->wrong_runs, 1);
        CHECK(t->nhazards > 0 && t->hazards[0].kind == SV_KHAZARD_RAW);
        sv_ktrace_destroy(t);
    }
    /* lockstep makes every read before every write: right output, same hazards */
    o.schedule = "lockstep";
    t = run(kdir, "in_place_race.cu", in, 8, o, NULL);
    if (t) {
        CHECK_INT(t->output[7].i, 25);
        CHECK_INT(t->wrong_runs, 0);
        CHECK_INT(t->hazards_total, 10);
        CHECK(t->nhazards > 0 && t->hazards[0].kind == SV_KHAZARD_WAR);
        sv_ktrace_destroy(t);
    }
    /* --runs over seeded schedules: every random run of the race at 1024 is wrong */
    static sv_value big[SV_MAX_N];
    input_of(SV_TYPE_INT32, 1024, big);
    o.schedule = "random:5";
    o.runs = 20;
    t = run(kdir, "in_place_race.cu", big, 1024, o, NULL);
    if (t) {
        CHECK_INT(t->runs, 20);
        CHECK_INT(t->wrong_runs, 20);
        CHECK_INT(t->shown_run, 0);
        CHECK(t->switches > 1024 * 11);
        sv_ktrace_destroy(t);
    }
}

static void check_fail(const sv_ktrace *t, sv_kfail_kind kind, int line, int thread,
                       const char *what)
{
    CHECK_MSG(t->failure.kind == kind, "%s: failure %s, want %s (%s)", what,
              sv_kfail_kind_name(t->failure.kind), sv_kfail_kind_name(kind),
              t->failure.message ? t->failure.message : "");
    if (line >= 0)
        CHECK_MSG(t->failure.line == line, "%s: line %d, want %d", what, t->failure.line, line);
    if (thread >= -1)
        CHECK_MSG(t->failure.thread == thread, "%s: thread %d, want %d", what, t->failure.thread,
                  thread);
}

static int array_named(const sv_ktrace *t, const char *name)
{
    for (size_t a = 0; a < t->narrays; a++)
        if (strcmp(t->arrays[a].name, name) == 0)
            return (int)a;
    return -2;
}

static void test_failures(void)
{
    static sv_value in[SV_MAX_N];
    input_of(SV_TYPE_INT32, 64, in);
    run_opts o = {SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, "sequential", NULL, 1, 0, 0};
    char *src = NULL;
    sv_ktrace *t;

    t = run(kdir, "no_guard.cu", in, 64, o, &src);
    if (t) {
        check_fail(t, SV_KFAIL_OUT_OF_RANGE, mark_line(src, "oob"), 0, "no_guard");
        CHECK_INT(t->failure.index, -1);
        CHECK_INT(t->failure.array, array_named(t, "buf"));
        CHECK_INT(t->nsteps, 1); /* the staging completed */
        sv_ktrace_destroy(t);
    }
    free(src);
    t = run(kdir, "out_of_range_write.cu", in, 64, o, &src);
    if (t) {
        check_fail(t, SV_KFAIL_OUT_OF_RANGE, mark_line(src, "oob"), 63, "out_of_range_write");
        CHECK_INT(t->failure.index, 64);
        CHECK_INT(t->failure.array, array_named(t, "out"));
        CHECK_INT(t->nsteps, 7); /* staging + 6 rounds */
        sv_ktrace_destroy(t);
    }
    free(src);
    t = run(kdir, "barrier_in_if.cu", in, 64, o, &src);
    if (t) {
        int line = mark_line(src, "barrier");
        check_fail(t, SV_KFAIL_DEADLOCK, line, 1, "barrier_in_if");
        CHECK_INT(t->failure.nwaits, 2);
        for (size_t k = 0; k < t->failure.nwaits; k++) {
            const sv_kwait *w = &t->failure.waits[k];
            if (w->line == line) {
                CHECK_INT(w->count, 63);
                CHECK_INT(w->first_thread, 1);
            } else {
                CHECK_INT(w->line, 0); /* ended */
                CHECK_INT(w->count, 1);
                CHECK_INT(w->first_thread, 0);
            }
        }
        sv_ktrace_destroy(t);
    }
    free(src);
    o.time_limit_ms = 300;
    t = run(kdir, "endless_loop.cu", in, 64, o, NULL);
    if (t) {
        check_fail(t, SV_KFAIL_TIME, -1, -2, "endless_loop");
        CHECK(t->failure.line > 0);
        sv_ktrace_destroy(t);
    }
    o.time_limit_ms = 0;
    /* Refused before they run: the kind, the line of its MARK (NULL: none)
     * and what the message names. */
    static const struct {
        const char *file, *mark;
        sv_kfail_kind kind;
        size_t n;
        const char *says[2];
    } refused[] = {
        {"syntax_error.cu", "syntax", SV_KFAIL_COMPILE, 64, {"syntax_error.cu:", NULL}},
        {"wrong_signature.cu", NULL, SV_KFAIL_SIGNATURE, 64,
         {"(const int *in, int *out, int n)", "(int *, int)"}},
        {"forbidden_include.cu", "include", SV_KFAIL_INCLUDE, 64, {"stdio.h", NULL}},
        {"two_entries.cu", NULL, SV_KFAIL_SIGNATURE, 8, {"copy_only", "scan"}},
    };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        src = NULL;
        t = run(kdir, refused[k].file, in, refused[k].n, o, &src);
        if (t) {
            check_fail(t, refused[k].kind, refused[k].mark ? mark_line(src, refused[k].mark) : -1,
                       -2, refused[k].file);
            for (int w = 0; w < 2 && refused[k].says[w]; w++)
                CHECK_CONTAINS(t->failure.message, refused[k].says[w]);
            sv_ktrace_destroy(t);
        }
        free(src);
    }
    o.entry = "scan";
    t = run(kdir, "two_entries.cu", in, 8, o, NULL);
    if (t) {
        check_fail(t, SV_KFAIL_NONE, -1, -2, "two_entries --entry scan");
        CHECK_STR(t->entry, "scan");
        sv_ktrace_destroy(t);
    }
    o.entry = "nothing";
    t = run(kdir, "two_entries.cu", in, 8, o, NULL);
    if (t) {
        check_fail(t, SV_KFAIL_SIGNATURE, -1, -2, "two_entries --entry nothing");
        CHECK_CONTAINS(t->failure.message, "copy_only");
        sv_ktrace_destroy(t);
    }
    o.entry = NULL;
    /* Stopped while they run (tests/runtime/kernels): the kind, at the line
     * of the MARK, in the thread. */
    static const struct {
        const char *file, *mark;
        sv_kfail_kind kind;
        int thread;
        uint32_t memory_mb;
    } stopped[] = {
        {"memory_hog.cu", "malloc", SV_KFAIL_MEMORY, 0, 64},
        {"divide_by_zero.cu", "divide", SV_KFAIL_CRASH, 3, 0},
    };
    for (size_t k = 0; k < sizeof stopped / sizeof stopped[0]; k++) {
        o.memory_mb = stopped[k].memory_mb;
        src = NULL;
        t = run(rdir, stopped[k].file, in, 8, o, &src);
        if (t) {
            check_fail(t, stopped[k].kind, mark_line(src, stopped[k].mark), stopped[k].thread,
                       stopped[k].file);
            sv_ktrace_destroy(t);
        }
        free(src);
    }
}

/* What the steps and reads say of the chapter's kernel at n = 8. */
static void test_steps(void)
{
    const int32_t ex[8] = {3, 1, 7, 0, 4, 1, 6, 3};
    sv_value in[8];
    for (int i = 0; i < 8; i++)
        in[i].i = ex[i];
    run_opts o = {SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, "lockstep", NULL, 1, 0, 0};
    sv_ktrace *t = run(kdir, "double_buffer.cu", in, 8, o, NULL);
    if (!t)
        return;
    CHECK_INT(t->nsteps, 5); /* staging, 3 rounds, copy back */
    int buf = array_named(t, "buf");
    CHECK(buf >= 0);
    if (buf >= 0) {
        CHECK_INT(t->arrays[buf].len, 16);
        CHECK_INT(t->arrays[buf].rows, 2);
        CHECK_INT(t->arrays[buf].kind, SV_KARRAY_SHARED);
    }
    CHECK_INT(t->arrays[t->narrays - 1].kind, SV_KARRAY_OUT);
    /* round 1 (step 1): thread i >= 1 writes buf[8 + i] from buf[i - 1] and buf[i] */
    const sv_kstep *s = &t->steps[1];
    CHECK_INT(s->nwrites, 8);
    for (size_t w = 0; w < s->nwrites && buf >= 0; w++) {
        const sv_kwrite *x = &s->writes[w];
        uint32_t i = x->at.thread;
        CHECK_INT(x->at.array, buf);
        CHECK_INT(x->at.cell, 8 + i);
        CHECK_INT(x->nreads, i >= 1 ? 2 : 1);
        int32_t sum = 0;
        for (uint32_t r = 0; r < x->nreads; r++) {
            const sv_kaccess *a = &s->reads[x->first_read + r];
            CHECK_INT(a->thread, i);
            sum += a->value.i;
            CHECK(a->line > 0);
        }
        CHECK_INT(x->at.value.i, sum);
        CHECK_INT(s->cells[buf][8 + i].i, sum);
        CHECK(s->wrote[buf][8 + i] && !s->wrote[buf][i]);
    }
    /* lockstep: one access of every thread at a time: 8 x (1 + 3 x 3 + 1) + starts */
    CHECK(t->switches > 0);
    sv_ktrace_destroy(t);
}

/* The shipped kernels (the chapter's and every mistake), their builds made
 * ahead of time: the chapter's gives the emulator's output under every
 * schedule; a mistake without a race one output under every deterministic
 * schedule (tests/core/test_lab.c holds every round against a reference). */
static void test_shipped(void)
{
    static sv_value in[SV_MAX_N], want[SV_MAX_N], first_out[SV_MAX_N];
    const size_t ns[] = {8, 64, 1000};
    for (int k = 0; k < SV_KERNEL_COUNT; k++) {
        const sv_kernel_info *info = sv_kernel_get((sv_kernel)k);
        for (size_t a = 0; a < sizeof ns / sizeof *ns; a++) {
            size_t n = ns[a];
            input_of(SV_TYPE_INT32, n, in);
            bool have_first = false;
            for (size_t s = 0; s < NSCHED; s++) {
                char err[256], what[160];
                sv_schedule sch;
                CHECK(sv_schedule_parse(schedules[s], &sch, err, sizeof err));
                bool seeded = sch.kind == SV_SCHEDULE_RANDOM || sch.kind == SV_SCHEDULE_WARPS;
                if (seeded && k != SV_KERNEL_CORRECT)
                    continue; /* the lab interleaves statements, the runtime accesses */
                snprintf(what, sizeof what, "%s n=%zu %s", info->name, n, schedules[s]);
                const sv_runtime_request req = {
                    .builtin = info->file, .op = SV_OP_SUM, .type = SV_TYPE_INT32, .input = in,
                    .n = n, .runs = 1, .schedule = sch,
                };
                sv_ktrace *t = sv_runtime_run(&req, err, sizeof err);
                CHECK_MSG(t != NULL, "%s: %s", what, err);
                if (!t)
                    continue;
                if (!info->guard) {
                    /* no-guard: thread 0 reads pin[-1] in round 1, and the run stops there */
                    CHECK_MSG(t->failure.kind == SV_KFAIL_OUT_OF_RANGE, "%s: failure %s", what,
                              sv_kfail_kind_name(t->failure.kind));
                    CHECK_INT(t->failure.index, -1);
                    CHECK_INT(t->failure.thread, 0);
                    CHECK(t->failure.line > 0 && t->nsteps == 1);
                    sv_ktrace_destroy(t);
                    continue;
                }
                CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "%s: %s", what,
                          t->failure.message ? t->failure.message : "");
                run_opts o = {SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, NULL, NULL, 1, 0, 0};
                if (k == SV_KERNEL_CORRECT) {
                    emulated(o, in, n, want);
                    check_output(t, want, n, what);
                    CHECK_MSG(t->hazards_total == 0, "%s: %llu hazards", what,
                              (unsigned long long)t->hazards_total);
                } else {
                    /* A mistake without a race gives one output under every
                     * schedule (test_lab compares every round with a reference). */
                    if (!have_first) {
                        memcpy(first_out, t->output, n * sizeof *first_out);
                        have_first = true;
                    } else if (!info->racy) {
                        for (size_t i = 0; i < n; i++)
                            if (t->output[i].bits != first_out[i].bits) {
                                CHECK_MSG(false, "%s: out[%zu] = %d, %d under %s", what, i,
                                          t->output[i].i, first_out[i].i, schedules[0]);
                                break;
                            }
                    }
                    if (info->racy)
                        CHECK_MSG(t->hazards_total > 0, "%s: no hazard", what);
                    else
                        CHECK_MSG(t->hazards_total == 0, "%s: %llu hazards", what,
                                  (unsigned long long)t->hazards_total);
                }
                sv_ktrace_destroy(t);
            }
        }
    }
}

/* Sets name to value; returns the old value (NULL: unset) for env_restore. */
static char *env_set(const char *name, const char *value)
{
    const char *old = getenv(name);
    char *keep = old ? strdup(old) : NULL;
    setenv(name, value, 1);
    return keep;
}

static void env_restore(const char *name, char *keep)
{
    if (keep)
        setenv(name, keep, 1);
    else
        unsetenv(name);
    free(keep);
}

/* No compiler: said plainly, kind unavailable. A cache folder that is a
 * link: refused, nothing written through it. */
static void test_environment(void)
{
    static sv_value in[8];
    input_of(SV_TYPE_INT32, 8, in);
    run_opts o = {SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, "sequential", NULL, 1, 0, 0};
    char *keep = env_set("CXX", "/nonexistent/c++");
    char why[256];
    CHECK(!sv_runtime_available(SV_RUNTIME_CPU, why, sizeof why));
    CHECK_CONTAINS(why, "no C++ compiler found");
    sv_ktrace *t = run(kdir, "double_buffer.cu", in, 8, o, NULL);
    if (t) {
        CHECK_INT(t->failure.kind, SV_KFAIL_UNAVAILABLE);
        CHECK_CONTAINS(t->failure.message, "/nonexistent/c++");
        sv_ktrace_destroy(t);
    }
    env_restore("CXX", keep);

    char dir[] = "/tmp/sv-rt-cache-XXXXXX", link[64], other[64];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(other, sizeof other, "%s/elsewhere", dir);
    snprintf(link, sizeof link, "%s/scanviz", dir);
    CHECK(mkdir(other, 0700) == 0);
    CHECK(symlink(other, link) == 0);
    keep = env_set("XDG_CACHE_HOME", dir);
    t = run(kdir, "double_buffer.cu", in, 8, o, NULL);
    if (t) {
        CHECK_INT(t->failure.kind, SV_KFAIL_INTERNAL);
        CHECK_CONTAINS(t->failure.message, "symbolic link");
        sv_ktrace_destroy(t);
    }
    DIR *d = opendir(other);
    int entries = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        entries += e->d_name[0] != '.';
    if (d)
        closedir(d);
    CHECK_INT(entries, 0);
    unlink(link);
    rmdir(other);
    rmdir(dir);
    env_restore("XDG_CACHE_HOME", keep);
}

/* --runs cell by cell: each out cell's and each chapter row's wrong runs,
 * checked against every run made again alone (run k of random:S is
 * random:S+k, runs 1), and the shown run is one of them. */
static void test_cell_runs(void)
{
    static const int32_t chapter[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };
    sv_value in[8], want[8];
    for (int i = 0; i < 8; i++)
        in[i].i = chapter[i];
    run_opts o = { .type = SV_TYPE_INT32, .op = SV_OP_SUM, .scan = SV_SCAN_INCLUSIVE,
                   .schedule = "random:1", .runs = 16 };
    sv_reference_scan(o.op, o.type, o.scan, in, want, 8);
    sv_ktrace *t = run(kdir, "in_place_race.cu", in, 8, o, NULL);
    if (!t)
        return;
    CHECK_INT(t->runs, 16);
    CHECK(t->ncellruns >= 2);
    uint32_t oi = 0;
    int out_array = -1;
    for (size_t a = 0; a < t->narrays; a++)
        if (t->arrays[a].kind == SV_KARRAY_OUT)
            out_array = (int)a;
    const sv_kcellruns *oc = sv_ktrace_cellruns_at(t, -1, (uint32_t)out_array, 0, &oi);
    CHECK(oc != NULL);
    uint32_t count[8] = {0}, total = 0;
    const sv_kcellruns *last = NULL; /* the last step's row */
    for (size_t k = 0; k < t->ncellruns; k++)
        if (t->cellruns[k].step >= 0 && (!last || t->cellruns[k].step > last->step))
            last = &t->cellruns[k];
    CHECK(last != NULL);
    uint32_t last_count[8] = {0};
    for (uint32_t run_k = 0; run_k < 16 && oc && last; run_k++) {
        char sched[32];
        snprintf(sched, sizeof sched, "random:%u", 1 + run_k);
        run_opts one = o;
        one.schedule = sched;
        one.runs = 1;
        sv_ktrace *u = run(kdir, "in_place_race.cu", in, 8, one, NULL);
        if (!u)
            continue;
        bool any = false;
        for (int i = 0; i < 8; i++) {
            bool wrong = u->output[i].i != want[i].i;
            count[i] += wrong;
            any |= wrong;
            bool listed = false;
            for (int j = 0; j < SV_KTRACE_CELL_RUNS; j++)
                listed |= oc->which[i * SV_KTRACE_CELL_RUNS + j] == run_k;
            if (oc->wrong[i] <= SV_KTRACE_CELL_RUNS)
                CHECK_MSG(listed == wrong, "out[%d] in run %u: wrong %d, listed %d", i, run_k,
                          wrong, listed);
            /* the last round's row holds the output's values */
            const sv_value *row = u->steps[last->step].cells[last->array] + last->first;
            last_count[i] += row[i].i != want[i].i;
        }
        total += any;
        sv_ktrace_destroy(u);
    }
    for (int i = 0; i < 8 && oc && last; i++) {
        CHECK_MSG(oc->wrong[i] == count[i], "out[%d]: wrong in %u runs, counted %u again", i,
                  oc->wrong[i], count[i]);
        CHECK_MSG(last->wrong[i] == last_count[i], "step %d cell %d: %u, counted %u again",
                  (int)last->step, i, last->wrong[i], last_count[i]);
    }
    CHECK_INT(t->wrong_runs, total);
    /* the shown run is wrong where the first wrong cell is */
    if (oc && t->wrong_runs > 0) {
        int i = 0;
        while (i < 8 && oc->wrong[i] == 0)
            i++;
        CHECK(i < 8);
        bool shown_listed = false;
        for (int j = 0; i < 8 && j < SV_KTRACE_CELL_RUNS; j++)
            shown_listed |= oc->which[i * SV_KTRACE_CELL_RUNS + j] == t->shown_run;
        CHECK(t->output[i].i != want[i].i || !shown_listed);
    }
    sv_ktrace_destroy(t);
    /* one run counts nothing */
    o.runs = 1;
    t = run(kdir, "in_place_race.cu", in, 8, o, NULL);
    if (t)
        CHECK_INT(t->ncellruns, 0);
    sv_ktrace_destroy(t);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_runtime TESTS_KERNELS_DIR RUNTIME_KERNELS_DIR\n");
        return 2;
    }
    kdir = argv[1];
    rdir = argv[2];
    need_cpu_runtime(77);
    test_steps();
    test_environment();
    test_shipped();
    test_failures();
    test_races();
    test_cell_runs();
    test_correct();
    return check_report("all runtime checks passed");
}
