/* The mistakes lab on the GPU, against the CPU (exits 77 without a
 * usable GPU):
 *  - the chapter's kernel is bit-identical to the emulator in every run,
 *    shaken or not, and its shown trace equals the emulator's trace;
 *  - the deterministic mistakes (no-else, off-by-one, pout-accumulate,
 *    no-guard) equal the emulator's output for them in every run, where the
 *    emulator knows a value (no-else: elsewhere the GPU read uninitialized
 *    shared memory; no-guard: elsewhere a value made from the out-of-range
 *    read pin[i - stride], what lay below buf or in the other buffer);
 *  - the racy mistakes are reported with their observed distribution;
 *  - racecheck reports 0 hazards for the chapter's kernel and more than 0 for
 *    in-place (skipped, saying so, where compute-sanitizer is missing);
 *  - the time of 100 runs at n = 1024 is printed (docs/gpu-runs.md).
 * Usage: test_lab_gpu [--table]  (--table: also print docs/gpu-runs.md's lab
 * table: every kernel at n = 8 .. 1024, 1000 runs with and without shake,
 * and racecheck's counts). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "lab.h"
#include "parse.h"
#include "trace.h"

#define CHECK_PRINT_LIMIT 30
#include "../expect.h"

static sv_trace *lab(const char *kernel, const sv_value *in, size_t n, uint32_t runs, bool shake,
                     bool racecheck)
{
    char err[512];
    sv_trace *t = NULL;
    sv_capture_request req = {
        .op = SV_OP_SUM, .type = SV_TYPE_INT32, .scan = SV_SCAN_INCLUSIVE, .input = in, .n = n,
        .choice = SV_CHOOSE_CUDA, .runs = runs, .shake = shake,
        .shake_seed = 7, .racecheck = racecheck,
    };
    sv_capture_status st = SV_CAPTURE_BAD_INPUT;
    if (sv_kernel_parse(kernel, &req.kernel, err, sizeof err))
        st = sv_capture(&req, &t, NULL, err, sizeof err);
    CHECK_MSG(st == SV_CAPTURE_OK && t && t->lab, "%s n=%zu: %s", kernel, n, err);
    return st == SV_CAPTURE_OK ? t : NULL;
}

/* The emulator's lockstep trace of kernel k (deterministic kernels: any
 * schedule); *stopped the round its run stopped in (no-guard's read out of
 * range), -1 when it ran to the end. */
static sv_trace *emulated(sv_kernel k, const sv_value *in, size_t n, int *stopped)
{
    char err[256];
    sv_lab_reads *rd = NULL;
    sv_trace *t = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, n,
                                  SV_BACKEND_CPU, NULL, err, sizeof err);
    CHECK_MSG(t && sv_capture_lab_run(t, k, (sv_schedule){SV_SCHEDULE_LOCKSTEP, 1}, &rd, NULL, NULL, err,
                              sizeof err) && sv_trace_finish(t, err, sizeof err), "%s", err);
    *stopped = rd ? rd->stopped_round : -1;
    sv_lab_reads_destroy(rd);
    return t;
}

/* Every run's pout cell of every round equals the emulator's, where the
 * emulator knows it, up to the round its run stopped in (stopped, -1 none):
 * the rounds after it never ran on the CPU, which shows there the memory
 * the run left, while the GPU runs on. */
static void every_run_equals(const sv_trace *g, const sv_trace *e, int stopped, const char *what)
{
    const sv_lab_summary *s = g->lab->summary;
    int shown = 0;
    for (size_t r = 0; r < s->nrounds && (stopped < 0 || r <= (size_t)stopped); r++) {
        const sv_round *R = &e->rounds[r];
        int pout = r == 0 ? 0 : R->pout;
        for (size_t i = 0; i < s->n; i++) {
            if (!R->written[pout][i])
                continue;
            const sv_lab_cell *c = &s->cells[r * s->n + i];
            bool same = c->nvalues == 1 && c->values[0].known &&
                        c->values[0].value.bits == R->buf[pout][i].bits;
            if (!same && shown++ < 3)
                CHECK_MSG(same, "%s: round %zu cell %zu: %u values on the GPU (first %d x%u), emulator %d",
                      what, r, i, (unsigned)c->nvalues, c->values[0].value.i,
                      (unsigned)c->values[0].runs, R->buf[pout][i].i);
            else if (!same)
                failures++;
        }
    }
}

static void print_distribution(const sv_trace *g, const char *what)
{
    const sv_lab_summary *s = g->lab->summary;
    printf("  %-28s n=%4zu: wrong %4u/%u runs, %4u distinct outputs, first wrong cell %d, "
           "first divergent round %d, %.0f us\n", what, s->n, (unsigned)s->wrong_runs,
           (unsigned)s->runs, (unsigned)s->distinct_outputs, s->first_wrong_cell,
           s->first_wrong_round, g->lab->wall_us);
}

static const size_t sizes[] = {8, 32, 64, 256, 1024};

static void table(void)
{
    printf("\n| kernel | n | runs | wrong | distinct outputs | shaken: wrong | shaken: distinct | "
           "first wrong cell (shaken) | racecheck errors | racecheck warnings |\n"
           "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < SV_KERNEL_COUNT; k++) {
        const char *name = sv_kernel_name((sv_kernel)k);
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
            size_t n = sizes[z];
            sv_value *in = sv_random_values(SV_OP_SUM, SV_TYPE_INT32, n, 1);
            sv_trace *a = lab(name, in, n, 1000, false, true);
            sv_trace *b = lab(name, in, n, 1000, true, false);
            if (a && b) {
                const sv_lab_summary *sa = a->lab->summary, *sb = b->lab->summary;
                const sv_racecheck *rc = a->lab->racecheck;
                char e[32] = "n/a", w[32] = "n/a";
                if (rc && rc->ran) {
                    snprintf(e, sizeof e, "%" PRIu64, rc->errors);
                    snprintf(w, sizeof w, "%" PRIu64, rc->warnings);
                }
                printf("| %s | %zu | 1000 | %u | %u | %u | %u | %d | %s | %s |\n", name, n,
                       (unsigned)sa->wrong_runs, (unsigned)sa->distinct_outputs,
                       (unsigned)sb->wrong_runs, (unsigned)sb->distinct_outputs,
                       sb->first_wrong_cell >= 0 ? sb->first_wrong_cell : sa->first_wrong_cell,
                       e, w);
                if (rc && !rc->ran && z == 0 && k == 0)
                    printf("(racecheck: %s)\n", rc->note);
            }
            fflush(stdout);
            sv_trace_destroy(a);
            sv_trace_destroy(b);
            free(in);
        }
    }
}

int main(int argc, char **argv)
{
    char why[256], device[256];
    if (!sv_capture_cuda_available(device, sizeof device, NULL, why, sizeof why)) {
        printf("skipped: %s\n", why);
        return 77;
    }
    printf("lab on %s\n", device);
    static const int32_t chapter[8] = {3, 1, 7, 0, 4, 1, 6, 3};
    sv_value ch[8];
    for (int i = 0; i < 8; i++)
        ch[i].i = chapter[i];

    for (size_t z = 0; z <= sizeof sizes / sizeof *sizes; z++) {
        size_t n = z == 0 ? 8 : sizes[z - 1];
        sv_value *in = z == 0 ? NULL : sv_random_values(SV_OP_SUM, SV_TYPE_INT32, n, 40 + z);
        const sv_value *input = z == 0 ? ch : in;
        char what[64];
        /* The chapter's kernel: every run, shaken or not. */
        int stopped = -1;
        sv_trace *e = emulated(SV_KERNEL_CORRECT, input, n, &stopped);
        for (int shake = 0; shake < 2; shake++) {
            sv_trace *g = lab("correct", input, n, 100, shake, false);
            snprintf(what, sizeof what, "correct%s", shake ? " (shaken)" : "");
            if (g && e) {
                char diff[256];
                CHECK_MSG(g->lab->summary->wrong_runs == 0 && g->lab->summary->distinct_outputs == 1,
                      "%s n=%zu: %u wrong runs", what, n, (unsigned)g->lab->summary->wrong_runs);
                every_run_equals(g, e, stopped, what);
                CHECK_MSG(sv_trace_equal(g, e, diff, sizeof diff), "%s n=%zu: %s", what, n, diff);
            }
            sv_trace_destroy(g);
        }
        sv_trace_destroy(e);
        /* The deterministic mistakes. */
        static const sv_kernel det[] = {SV_KERNEL_NO_ELSE, SV_KERNEL_OFF_BY_ONE,
                                        SV_KERNEL_POUT_ACCUMULATE, SV_KERNEL_NO_GUARD};
        for (size_t d = 0; d < sizeof det / sizeof *det; d++) {
            sv_trace *em = emulated(det[d], input, n, &stopped);
            sv_trace *g = lab(sv_kernel_name(det[d]), input, n, 100, false, false);
            snprintf(what, sizeof what, "%s n=%zu", sv_kernel_name(det[d]), n);
            if (g && em)
                every_run_equals(g, em, stopped, what);
            if (g && det[d] == SV_KERNEL_OFF_BY_ONE)
                CHECK_MSG(g->lab->summary->distinct_outputs == 1, "%s: %u distinct outputs", what,
                      (unsigned)g->lab->summary->distinct_outputs);
            sv_trace_destroy(g);
            sv_trace_destroy(em);
        }
        /* The racy mistakes: what the GPU did. */
        static const sv_kernel racy[] = {SV_KERNEL_IN_PLACE, SV_KERNEL_NO_BARRIER,
                                         SV_KERNEL_IN_PLACE_NO_BARRIER};
        for (size_t d = 0; d < 3; d++) {
            for (int shake = 0; shake < 2; shake++) {
                sv_trace *g = lab(sv_kernel_name(racy[d]), input, n, 100, shake, false);
                snprintf(what, sizeof what, "%s%s", sv_kernel_name(racy[d]),
                         shake ? " (shaken)" : "");
                if (g) {
                    CHECK_MSG(g->lab->runs == 100 && g->lab->summary->runs == 100, "%s", what);
                    print_distribution(g, what);
                }
                sv_trace_destroy(g);
            }
        }
        free(in);
    }

    /* 100 runs at n = 1024, captured and summarized: the figure printed
     * (docs/gpu-runs.md), not asserted (speed is measured, not assumed). */
    sv_value *in = sv_random_values(SV_OP_SUM, SV_TYPE_INT32, 1024, 3);
    sv_trace *g = lab("in-place", in, 1024, 100, true, false);
    if (g) {
        printf("100 shaken runs of in-place at n = 1024: %.0f us on the GPU (runs and copy back)\n",
               g->lab->wall_us);
    }
    sv_trace_destroy(g);

    /* racecheck. */
    sv_trace *c = lab("correct", in, 1024, 1, false, true);
    sv_trace *p = lab("in-place", in, 1024, 1, false, true);
    if (c && p && c->lab->racecheck && p->lab->racecheck) {
        const sv_racecheck *rc = c->lab->racecheck, *rp = p->lab->racecheck;
        printf("racecheck, correct: %s\nracecheck, in-place: %s\n", rc->note, rp->note);
        if (rc->ran || rp->ran) {
            CHECK_MSG(rc->ran && rc->errors == 0 && rc->warnings == 0 && rc->nhazards == 0,
                  "correct: %s", rc->note);
            CHECK_MSG(rp->ran && rp->errors + rp->warnings > 0 && rp->nhazards > 0, "in-place: %s",
                  rp->note);
            size_t mapped = 0, rounds = 0;
            for (size_t h = 0; h < rp->nhazards; h++) {
                mapped += rp->hazards[h].cell >= 0;
                rounds += rp->hazards[h].round >= 0;
            }
            printf("in-place hazards printed %zu: %zu mapped to a cell, %zu to a round\n",
                   rp->nhazards, mapped, rounds);
            CHECK_MSG(mapped == rp->nhazards, "%zu of %zu hazards mapped to a cell", mapped,
                  rp->nhazards);
        } else {
            printf("racecheck not checked: %s\n", rc->note);
        }
    }
    sv_trace_destroy(c);
    sv_trace_destroy(p);
    free(in);

    if (argc > 1 && strcmp(argv[1], "--table") == 0)
        table();
    return check_report("lab on the GPU: all checks passed");
}
