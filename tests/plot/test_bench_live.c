/* The live benchmark runner (src/app/bench_live.c) against stand-in
 * scanviz-bench scripts: progress read from its output, the table loaded
 * when it ends, the reason shown when it fails (no GPU: exit 3), and a run
 * stopped midway. No GPU or GL needed. */
#include "bench_live.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../expect.h"

static char dir[128];

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Writes an executable shell script dir/name; returns its path (static). */
static const char *script(const char *name, const char *body)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fprintf(f, "#!/bin/sh\n%s", body);
    fclose(f);
    chmod(path, 0755);
    return path;
}

/* Polls until the run is not RUNNING or timeout seconds pass. *half is
 * set when a progress of one half was seen while running (the stand-in
 * pauses there), *monotonic when progress never went back. */
static sv_bench_live_status wait_for(sv_bench_live *b, double timeout, sv_bench_table **t,
                                     bool *half, bool *monotonic, float *last, char *err,
                                     size_t errlen)
{
    double t0 = now();
    sv_bench_live_status st;
    float prev = 0;
    *half = false;
    *monotonic = true;
    for (;;) {
        float p = 0;
        st = sv_bench_live_poll(b, &p, t, err, errlen);
        if (st == SV_BENCH_LIVE_RUNNING && p > 0.49f && p < 0.51f)
            *half = true;
        if (p < prev)
            *monotonic = false;
        prev = p;
        *last = p;
        if (st != SV_BENCH_LIVE_RUNNING || now() - t0 > timeout)
            return st;
        sleep_ms(5);
    }
}

static void test_success(void)
{
    /* Checks its arguments, then streams the CSV as scanviz-bench
     * --progress-csv does: metadata, "# rows: 90", the header, 90 rows in two
     * bursts (so some progress is seen midway); a message on stderr last. */
    const char *exe = script("bench-ok",
        "[ \"$*\" = '--progress-csv --sizes 2^10..2^24 --reps 10' ] || "
        "{ echo \"bad args: $*\" >&2; exit 2; }\n"
        "echo '# gpu: NVIDIA Test GPU'\n"
        "echo '# date: 2026-11-29'\n"
        "echo '# rows: 90'\n"
        "echo 'algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps'\n"
        "i=0; for a in copy cub hs hs-naive blelloch cpu; do for k in $(seq 10 24); do\n"
        "  i=$((i+1)); echo \"$a,int32,$((1 << k)),1.000,8.19,,,,10\"\n"
        "  [ $i = 45 ] && sleep 0.3\n"
        "done; done\n"
        "echo done >&2\n");
    char err[512] = "";
    sv_bench_live *b = sv_bench_live_start(exe, err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    if (!b)
        return;
    sv_bench_table *t = NULL;
    bool half = false, mono = false;
    float last = 0;
    sv_bench_live_status st = wait_for(b, 20, &t, &half, &mono, &last, err, sizeof err);
    CHECK_MSG(st == SV_BENCH_LIVE_DONE, "status %d: %s", (int)st, err);
    CHECK_MSG(half, "progress 0.5 never seen during the pause after 45 of 90 rows");
    CHECK(mono);
    CHECK(last == 1.0f);
    CHECK_MSG(t && t->nrows == 90, "table %p with %zu rows", (void *)t, t ? t->nrows : 0);
    if (t && t->nrows == 90) {
        CHECK_STR(t->gpu, "NVIDIA Test GPU");
        CHECK_STR(t->rows[89].algo, "cpu");
        CHECK(t->rows[89].n == 16777216.0);
    }
    CHECK_STR(sv_bench_live_message(b), "done");
    /* The table is handed over once. */
    sv_bench_table *again = (sv_bench_table *)1;
    CHECK(sv_bench_live_poll(b, NULL, &again, NULL, 0) == SV_BENCH_LIVE_DONE);
    CHECK(again == NULL);
    sv_bench_table_destroy(t);
    sv_bench_live_destroy(b);
}

/* Runs the stand-in script name (body) to its end, which must be a failure
 * whose message is want (exact) or contains it. */
static void expect_failure(const char *name, const char *body, bool exact, const char *want)
{
    char err[512] = "";
    sv_bench_live *b = sv_bench_live_start(script(name, body), err, sizeof err);
    CHECK_MSG(b != NULL, "%s: %s", name, err);
    if (!b)
        return;
    sv_bench_table *t = NULL;
    bool half, mono;
    float last;
    sv_bench_live_status st = wait_for(b, 10, &t, &half, &mono, &last, err, sizeof err);
    CHECK_MSG(st == SV_BENCH_LIVE_FAILED && t == NULL, "%s: status %d", name, (int)st);
    CHECK_MSG(exact ? strcmp(err, want) == 0 : strstr(err, want) != NULL,
              "%s: \"%s\", want \"%s\"", name, err, want);
    sv_bench_table_destroy(t);
    sv_bench_live_destroy(b);
}

static void test_no_gpu(void)
{
    /* No GPU: its stderr line and exit status, word for word. */
    expect_failure("bench-nogpu",
        "echo 'scanviz-bench: no CUDA device: CUDA driver version is insufficient' >&2\n"
        "exit 3\n", true,
        "scanviz-bench: no CUDA device: CUDA driver version is insufficient (exit status 3)");
    /* Exits 0 but writes no rows: a failure, not an empty view. */
    expect_failure("bench-empty",
        "echo 'algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps'\n", true,
        "scanviz-bench wrote no rows");
    /* Writes a broken CSV: the reader's message comes through. */
    expect_failure("bench-bad",
        "printf 'algo,type,n,median_us,gb_per_s,frac_of_copy,"
        "ratio_to_cub,ops,reps\\nhs,int32,1024,x,1,,,1,1\\n'\n", false,
        "line 2, column 4 (median_us): \"x\" is not a number");
}

static void test_missing_and_cancel(void)
{
    char err[512] = "";
    char path[300];
    snprintf(path, sizeof path, "%s/nothing-here", dir);
    sv_bench_live *b = sv_bench_live_start(path, err, sizeof err);
    CHECK(b == NULL);
    CHECK_CONTAINS(err, "nothing-here: not an executable file");

    /* Not next to this test, not in ../cli, not on an empty PATH. */
    char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", dir, 1);
    b = sv_bench_live_start(NULL, err, sizeof err);
    CHECK(b == NULL);
    CHECK_CONTAINS(err, "scanviz-bench not found");
    /* On PATH it is found. */
    script("scanviz-bench", "echo 'from PATH'; exit 3\n");
    b = sv_bench_live_start(NULL, err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    if (b) {
        bool half, mono;
    float last;
        sv_bench_table *t = NULL;
        CHECK(wait_for(b, 10, &t, &half, &mono, &last, err, sizeof err) == SV_BENCH_LIVE_FAILED);
        CHECK_STR(err, "scanviz-bench: from PATH (exit status 3)");
        sv_bench_live_destroy(b);
    }
    if (old) {
        setenv("PATH", old, 1);
        free(old);
    }

    /* A long run stopped midway: destroy returns at once, the child is gone. */
    const char *exe = script("bench-slow", "echo started; exec sleep 30\n");
    b = sv_bench_live_start(exe, err, sizeof err);
    CHECK_MSG(b != NULL, "%s", err);
    if (b) {
        sleep_ms(100);
        sv_bench_table *t = NULL;
        CHECK(sv_bench_live_poll(b, NULL, &t, err, sizeof err) == SV_BENCH_LIVE_RUNNING);
        double t0 = now();
        sv_bench_live_destroy(b);
        CHECK_MSG(now() - t0 < 2.0, "destroy took %.1f s", now() - t0);
    }
    sv_bench_live_destroy(NULL);
    CHECK(sv_bench_live_poll(NULL, NULL, NULL, err, sizeof err) == SV_BENCH_LIVE_FAILED);
    CHECK_STR(sv_bench_live_message(NULL), "");
}

int main(void)
{
    check_tmpdir(dir, sizeof dir, "test_bench_live");
    test_success();
    test_no_gpu();
    test_missing_and_cancel();
    const char *names[] = { "bench-ok", "bench-nogpu", "bench-empty", "bench-bad",
                            "scanviz-bench", "bench-slow" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char p[300];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
    return check_status();
}
