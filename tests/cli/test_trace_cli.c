/* scanviz-trace as a user runs it: spawns the built executable (argv[1]) with
 * real arguments, stdin and files, and checks exit statuses, stderr messages
 * and the trace it prints (read back with the core's trace-file loader). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sv_config.h"
#include "capture.h"
#include "trace.h"
#include "trace_file.h"

extern char **environ;

#include "../expect.h"
#include "../spawn.h"

static const char *exe;
static char tmpdir[256];

typedef spawn_result result;
#define result_free spawn_result_free
#define slurp spawn_slurp

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        exit(1);
    }
}

static const char *tmp(const char *name)
{
    static char paths[8][512];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, 512, "%s/%s", tmpdir, name);
    return p;
}

/* Runs exe with the arguments in args (NULL-terminated) and the options o
 * (tests/spawn.h). */
static result run_with(const spawn_opts *o, const char *const *args)
{
    return spawn_exe(tmpdir, exe, args, o);
}

/* Runs exe with the NULL-terminated arguments, stdin from stdin_text (or
 * /dev/null), stdout and stderr captured. */
static result run(const char *stdin_text, ...)
{
    spawn_opts o = {.stdin_text = stdin_text ? stdin_text : ""};
    va_list ap;
    va_start(ap, stdin_text);
    result r = spawn_exe_va(tmpdir, exe, ap, &o);
    va_end(ap);
    return r;
}

static bool has(const char *text, const char *needle)
{
    return text && strstr(text, needle) != NULL;
}

/* needle occurs in text exactly once (a message names its file once). */
static bool has_once(const char *text, const char *needle)
{
    const char *first = text ? strstr(text, needle) : NULL;
    return first && !strstr(first + 1, needle);
}

/* Runs exe with the arguments (no stdin): a failed check, naming the
 * caller's line, unless it exits with status and stderr contains want
 * ("" for anything). */
static void expect_exit_at(int line, int status, const char *want, const char *const *args)
{
    result r = run_with(NULL, args);
    CHECK_MSG(r.status == status && has(r.err, want),
              "(line %d) %s ...: exit %d, expected %d and \"%s\" on stderr: %s", line, args[0],
              r.status, status, want, r.err);
    result_free(&r);
}
#define EXPECT_EXIT(status, want, ...)                                                    \
    expect_exit_at(__LINE__, (status), (want), (const char *const[]){__VA_ARGS__, NULL})

/* ---- The chapter's example, exactly ------------------------------------ */

static const int32_t chapter_in[8] = {3, 1, 7, 0, 4, 1, 6, 3};
/* pout of rounds 1, 2, 3 (buf[1], buf[0], buf[1]) */
static const int32_t chapter_pout[3][8] = {
    {3, 4, 8, 7, 4, 5, 7, 9},
    {3, 4, 11, 11, 12, 12, 11, 14},
    {3, 4, 11, 11, 15, 16, 22, 25},
};
static const char *const chapter_cases[3] = {
    "cfffffff", /* round 1: 0 copies, 1..7 full */
    "ccpfffff", /* round 2: 0,1 copy, 2 partial, 3..7 full */
    "ccccpppf", /* round 3: 0..3 copy, 4..6 partial, 7 full */
};

static void check_chapter_trace(const sv_trace *t, int line)
{
    CHECK_MSG(t != NULL, "(line %d) no trace", line);
    if (!t)
        return;
    CHECK_MSG(t->n == 8 && t->nrounds == 4, "(line %d) n %zu, rounds %zu", line, t->n, t->nrounds);
    CHECK_MSG(t->op == SV_OP_SUM && t->type == SV_TYPE_INT32 && t->scan == SV_SCAN_INCLUSIVE,
          "(line %d) op/type/scan", line);
    if (t->n != 8 || t->nrounds != 4)
        return;
    for (size_t i = 0; i < 8; i++) {
        CHECK_MSG(t->input[i].i == chapter_in[i], "(line %d) input[%zu] = %d", line, i, t->input[i].i);
        /* Round 0: buf[0] = input, buf[1] uninitialized. */
        CHECK_MSG(t->rounds[0].written[0][i] && t->rounds[0].buf[0][i].i == chapter_in[i],
              "(line %d) round 0 buf[0][%zu]", line, i);
        CHECK_MSG(!t->rounds[0].written[1][i], "(line %d) round 0 buf[1][%zu] written", line, i);
    }
    for (int r = 1; r <= 3; r++) {
        const sv_round *R = &t->rounds[r];
        int pout = r % 2, pin = 1 - pout;
        CHECK_MSG(R->round == r && R->stride == (1u << (r - 1)) && R->pin == pin && R->pout == pout,
              "(line %d) round %d metadata: round %d stride %u pin %d pout %d", line, r,
              R->round, (unsigned)R->stride, R->pin, R->pout);
        for (size_t i = 0; i < 8; i++) {
            CHECK_MSG(R->written[pout][i] && R->buf[pout][i].i == chapter_pout[r - 1][i],
                  "(line %d) round %d pout buf[%d][%zu] = %d, chapter says %d", line, r, pout, i,
                  R->buf[pout][i].i, chapter_pout[r - 1][i]);
            /* pin: the previous round's pout (the input in round 1); in
             * round 1 buf[1] is pout, so pin buf[0] is the input. */
            int32_t want_pin = r == 1 ? chapter_in[i] : chapter_pout[r - 2][i];
            CHECK_MSG(R->written[pin][i] && R->buf[pin][i].i == want_pin,
                  "(line %d) round %d pin buf[%d][%zu] = %d, want %d", line, r, pin, i,
                  R->buf[pin][i].i, want_pin);
            char c = chapter_cases[r - 1][i];
            sv_case want = c == 'c' ? SV_CASE_COPY : c == 'p' ? SV_CASE_PARTIAL : SV_CASE_FULL;
            CHECK_MSG(R->cases && R->cases[i] == want, "(line %d) round %d cell %zu: case %s, want %s",
                  line, r, i, R->cases ? sv_case_name(R->cases[i]) : "(none)", sv_case_name(want));
        }
    }
    for (size_t i = 0; i < 8; i++)
        CHECK_MSG(t->output[i].i == chapter_pout[2][i], "(line %d) output[%zu] = %d", line, i,
              t->output[i].i);
}

static sv_trace *parse_out(const result *r, int line)
{
    char err[512];
    sv_trace *t = sv_trace_parse(r->out, err, sizeof err);
    CHECK_MSG(t != NULL, "(line %d) stdout is not a valid trace: %s\n--- stdout:\n%.400s", line, err,
          r->out);
    return t;
}

/* r must exit 0 with a trace on stdout equal to want (what names the case);
 * frees r. */
static void expect_trace_out(result *r, const sv_trace *want, const char *what, int line)
{
    char diff[512] = "";
    CHECK_MSG(r->status == 0, "(line %d) %s: status %d, stderr: %s", line, what, r->status, r->err);
    sv_trace *t = parse_out(r, line);
    CHECK_MSG(t && want && sv_trace_equal(t, want, diff, sizeof diff), "(line %d) %s: %s", line,
              what, t && want ? diff : "no trace");
    sv_trace_destroy(t);
    result_free(r);
}

/* ---- Faults (issue 7): full disk, full stdout, endless input, hostile
 * strings. docs/reliability.md lists what each promises. ------------------ */

/* Files in dir whose name contains part (temporary files left behind). */
static int count_named(const char *dir, const char *part)
{
    int n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strstr(e->d_name, part) != NULL;
    if (d)
        closedir(d);
    return n;
}

static bool has_control(const char *s)
{
    for (; *s; s++)
        if (((unsigned char)*s < 0x20 && *s != '\n') || *s == 0x7f)
            return true;
    return false;
}

static void fault_tests(void)
{
    char dir[600];
    snprintf(dir, sizeof dir, "%s/faults", tmpdir);
    mkdir(dir, 0700);
    char good[700], table[700], big[700], hostile[700];
    snprintf(good, sizeof good, "%s/good.json", dir);
    snprintf(table, sizeof table, "%s/table.txt", dir);
    snprintf(big, sizeof big, "%s/big.txt", dir);
    snprintf(hostile, sizeof hostile, "%s/hostile.json", dir);
    result r;

    /* Defect 2: a full disk (RLIMIT_FSIZE: writes past 64 KiB fail with
     * EFBIG) leaves the good file whole, names the path and the reason,
     * exit 1, and no temporary file behind. */
    {
        const char *a1[] = {"--random", "100", "--backend", "cpu", "--format", "json", "-o", good, NULL};
        r = run_with(NULL, a1);
        CHECK_MSG(r.status == 0, "-o good.json: %d %s", r.status, r.err);
        result_free(&r);
        char *before = slurp(good);
        spawn_opts full = {.fsize_limit = 64 * 1024};
        const char *a2[] = {"--random", "1024", "--backend", "cpu", "--format", "json", "-o", good, NULL};
        r = run_with(&full, a2);
        char *after = slurp(good);
        CHECK_MSG(r.status == 1 && has_once(r.err, good) && has(r.err, strerror(EFBIG)),
                  "full disk, json: exit %d, stderr: %s", r.status, r.err);
        CHECK_MSG(strcmp(before, after) == 0 && strlen(before) > 1000,
                  "full disk: good.json changed (%zu -> %zu bytes)", strlen(before), strlen(after));
        CHECK_MSG(count_named(dir, ".tmp-") == 0, "full disk: a temporary file was left in %s", dir);
        free(before);
        free(after);
        result_free(&r);
        char lerr[512];
        sv_trace *t = sv_trace_load(good, lerr, sizeof lerr);
        CHECK_MSG(t && t->n == 100, "good.json no longer opens: %s", t ? "" : lerr);
        sv_trace_destroy(t);

        /* The table: the same (it used to leave a 0-byte file). */
        write_text(table, "an old table\n");
        const char *a3[] = {"--random", "1024", "--backend", "cpu", "-o", table, NULL};
        r = run_with(&full, a3);
        after = slurp(table);
        CHECK_MSG(r.status == 1 && has_once(r.err, table) && strcmp(after, "an old table\n") == 0,
                  "full disk, table: exit %d, file \"%.40s\", stderr: %s", r.status, after, r.err);
        CHECK_MSG(count_named(dir, ".tmp-") == 0, "full disk: a temporary file was left");
        free(after);
        result_free(&r);
        /* ... and a table that fits replaces the old one whole. */
        const char *a4[] = {"--backend", "cpu", "-o", table, NULL};
        r = run_with(NULL, a4);
        after = slurp(table);
        CHECK_MSG(r.status == 0 && has(after, "Round 3") && !has(after, "an old table"),
                  "-o table: exit %d: %s", r.status, r.err);
        free(after);
        result_free(&r);
    }

    /* Defects 3, 4, 5: a full standard output exits 1 naming stdout and
     * the reason, for json, json with -o -, --open, the table and --verify. */
    {
        const char *cases[][8] = {
            {"--format", "json", "--backend", "cpu", NULL},
            {"--format", "json", "-o", "-", "--backend", "cpu", NULL},
            {"--open", good, "--format", "json", NULL},
            {"--open", good, NULL},
            {"--backend", "cpu", NULL},
            {"--verify", "--backend", "cpu", NULL},
        };
        spawn_opts full = {.stdout_path = "/dev/full"};
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            r = run_with(&full, cases[k]);
            CHECK_MSG(r.status == 1 && has(r.err, "stdout: write failed: ") &&
                      has(r.err, strerror(ENOSPC)) && !has_control(r.err),
                      "case %zu to /dev/full: exit %d, stderr: %s", k, r.status, r.err);
            result_free(&r);
        }
    }

    /* A device as -o is written in place and never removed; a folder is
     * refused. */
    {
        EXPECT_EXIT(1, "/dev/full: write failed", "--backend", "cpu", "-o", "/dev/full");
        struct stat st;
        CHECK_MSG(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode), "/dev/full is gone");
        EXPECT_EXIT(0, "", "--backend", "cpu", "--format", "json", "-o", "/dev/null");
        EXPECT_EXIT(1, "not a regular file", "--backend", "cpu", "-o", dir);
    }

    /* Defect 7: endless or oversized input is refused at once with exit 2,
     * naming the limit (and the path once: defect 12). */
    {
        const char *a1[] = {"--file", "/dev/zero", NULL};
        r = run_with(NULL, a1);
        CHECK_MSG(r.status == 2 && has_once(r.err, "/dev/zero") && has(r.err, "limit of 1 MiB"),
                  "--file /dev/zero: exit %d: %s", r.status, r.err);
        result_free(&r);
        const char *a2[] = {"--open", "/dev/zero", NULL};
        r = run_with(NULL, a2);
        CHECK_MSG(r.status == 2 && has_once(r.err, "/dev/zero") && has(r.err, "limit of 16 MiB"),
                  "--open /dev/zero: exit %d: %s", r.status, r.err);
        result_free(&r);
        const char *a3[] = {"-", NULL};
        spawn_opts endless = {.stdin_path = "/dev/zero"};
        r = run_with(&endless, a3);
        CHECK_MSG(r.status == 2 && has(r.err, "stdin: longer than the limit of 1 MiB"),
                  "endless stdin: exit %d: %s", r.status, r.err);
        result_free(&r);
        /* 2 MiB of valid-looking text: the limit, not the parser, speaks. */
        FILE *f = fopen(big, "wb");
        for (int i = 0; f && i < (1 << 20); i++)
            fputs("1 ", f);
        if (f)
            fclose(f);
        const char *a4[] = {"--file", big, NULL};
        r = run_with(NULL, a4);
        CHECK_MSG(r.status == 2 && has_once(r.err, big) && has(r.err, "limit of 1 MiB for values"),
                  "--file big: exit %d: %s", r.status, r.err);
        result_free(&r);
    }

    /* Defect 10: a device name with terminal sequences and a newline is
     * printed escaped: no ESC, no BEL, no extra line. */
    {
        const char *a1[] = {"--backend", "cpu", "--format", "json", NULL};
        r = run_with(NULL, a1);
        const char *at = strstr(r.out, "\"backend\": \"cpu\",\n  \"device\": null");
        CHECK_MSG(at != NULL, "json layout changed: %.200s", r.out);
        if (at) {
            size_t head = (size_t)(at - r.out);
            const char *rest = at + strlen("\"backend\": \"cpu\",\n  \"device\": null");
            FILE *f = fopen(hostile, "wb");
            if (f) {
                fprintf(f, "%.*s\"backend\": \"cuda\",\n  \"device\": "
                        "\"\\u001b[2J\\u001b]0;pwned\\u0007\\nRound 9 \\u00ff\"%s",
                        (int)head, r.out, rest);
                fclose(f);
            }
            result_free(&r);
            const char *a2[] = {"--open", hostile, NULL};
            r = run_with(NULL, a2);
            CHECK_MSG(r.status == 0 && !has_control(r.out) && has(r.out, "\\e[2J\\e]0;pwned\\x07\\nRound 9") &&
                      !has(r.out, "\nRound 9"), "--open hostile: exit %d, stdout:\n%s", r.status, r.out);
            result_free(&r);
            const char *a3[] = {"--open", hostile, "--verify", "--backend", "cpu", NULL};
            r = run_with(NULL, a3);
            CHECK_MSG(!has_control(r.out) && !has_control(r.err) && has(r.out, "\\e[2J"),
                      "--open hostile --verify: exit %d, stdout:\n%s", r.status, r.out);
        }
        result_free(&r);
        /* A hostile path or token in a message is escaped too. */
        const char *a4[] = {"--file", "/nonexistent/\x1b[2J\x07", NULL};
        r = run_with(NULL, a4);
        CHECK_MSG(r.status == 2 && !has_control(r.err) && has(r.err, "\\e[2J\\x07"),
                  "hostile path: exit %d: %s", r.status, r.err);
        result_free(&r);
        const char *a5[] = {"--input", "1 \x1b]0;x\x07 \xff", NULL};
        r = run_with(NULL, a5);
        CHECK_MSG(r.status == 2 && !has_control(r.err), "hostile token: exit %d: %s", r.status, r.err);
        result_free(&r);
    }

    /* One input layer (issue 8): --seed only with --random, decimal only,
     * in scanviz-trace as in scanviz (tests/window/test_cli.py). */
    {
        EXPECT_EXIT(2, "--seed (argument 2) applies to --random only", "--seed", "5");
        EXPECT_EXIT(2, "--seed \"0x10\" (argument 4): expected a whole decimal", "--random", "3",
                    "--seed", "0x10");
    }

    const char *names[] = {"good.json", "table.txt", "big.txt", "hostile.json", "stdin",
                           "stdout", "stderr"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char p[800];
        snprintf(p, sizeof p, "%s/%s", dir, names[k]);
        unlink(p);
    }
    rmdir(dir);
}

/* The mistakes lab's flags, on the emulator (the GPU's runs are the gpu
 * suite's): the chapter's in-place result under sequential, the record in
 * the JSON and back through --open, the words in the table, and refusals
 * that name the token. */
static bool have_gpu;

/* The values of the table's row that starts with label, after the first
 * line that starts with header, as "3 4 14 ..." ("" when not found). */
static void table_row(const char *out, const char *header, const char *label, char *buf,
                      size_t len)
{
    buf[0] = '\0';
    const char *h = out ? strstr(out, header) : NULL;
    const char *r = h ? strstr(h, label) : NULL;
    if (!r)
        return;
    r += strlen(label);
    while (*r == ' ')
        r++;
    size_t n = strcspn(r, "\n");
    snprintf(buf, len, "%.*s", (int)n, r);
}

/* --runs R of a kernel file: the table is the one shown run's (issue 28:
 * "shown: run 0" printed the output of the last run made). */
static void runs_one_run(void)
{
    static const char race[] =
        "__global__ void scan_race(const int *in, int *out, int n)\n{\n"
        "    __shared__ int s[1024];\n    int i = threadIdx.x;\n    s[i] = in[i];\n"
        "    __syncthreads();\n    for (int stride = 1; stride < n; stride *= 2) {\n"
        "        if (i >= stride)\n            s[i] = s[i - stride] + s[i];\n"
        "        __syncthreads();\n    }\n    out[i] = s[i];\n}\n";
    write_text(tmp("race.cu"), race);
    for (int runs = 2; runs <= 9; runs += 7) {
        char r_arg[8];
        snprintf(r_arg, sizeof r_arg, "%d", runs);
        result r = run(NULL, "--kernel-file", tmp("race.cu"), "--schedule", "random:1", "--runs",
                       r_arg, NULL);
        char last[200], output[200];
        table_row(r.out, "up to the kernel's end", "  out ", last, sizeof last);
        table_row(r.out, "Output · out[] after the kernel", "  output ", output, sizeof output);
        CHECK_MSG(has(r.out, "shown: run ") && last[0] && strcmp(last, output) == 0,
                  "--runs %d: the last step's out \"%s\", the output row \"%s\": %s", runs,
                  last, output, r.out);
        result_free(&r);
    }
    unlink(tmp("race.cu"));
}

/* float32 of a kernel file: 10, 40, 100 as the chapter's traces print them,
 * in the table and the JSON text (issue 28: 1e+01, 4e+01, 1e+02). */
static void kernel_floats(void)
{
    static const char scan[] =
        "__global__ void scan_float(const float *in, float *out, int n)\n{\n"
        "    extern __shared__ float buf[];\n    int i = threadIdx.x;\n"
        "    int pout = 0, pin = 1;\n    buf[pout * n + i] = in[i];\n    __syncthreads();\n"
        "    for (int stride = 1; stride < n; stride *= 2) {\n"
        "        pout = 1 - pout;\n        pin = 1 - pout;\n        if (i >= stride)\n"
        "            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];\n"
        "        else\n            buf[pout * n + i] = buf[pin * n + i];\n"
        "        __syncthreads();\n    }\n    out[i] = buf[pout * n + i];\n}\n";
    write_text(tmp("float.cu"), scan);
    result r = run(NULL, "--kernel-file", tmp("float.cu"), "--type", "float32", "--input",
                   "10 30 60", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "  output          10  40 100\n") &&
                  has(r.out, "  expected        10  40 100\n") && !has(r.out, "e+0"),
              "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    r = run(NULL, "--kernel-file", tmp("float.cu"), "--type", "float32", "--input", "10 30 60",
            "--format", "json", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "\"output\": [10.0, 40.0, 100.0]") &&
                  has(r.out, "\"input\": [10.0, 30.0, 60.0]") && !has(r.out, "e+0"),
              "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    /* the chapter's own trace says the same */
    r = run(NULL, "--type", "float32", "--input", "10 30 60", "--format", "json", "--backend",
            "cpu", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "\"output\": [10.0, 40.0, 100.0]"), "status %d: %s",
              r.status, r.out);
    result_free(&r);
    unlink(tmp("float.cu"));
}

static void lab_flags(void)
{
    result r = run(NULL, "--kernel", "in-place", "--schedule", "sequential", "--format", "json",
                   NULL);
    CHECK_MSG(r.status == 0, "status %d: %s", r.status, r.err);
    CHECK_MSG(has(r.out, "\"version\": 3") && has(r.out, "\"reading\": \"hillis-steele\"") &&
          has(r.out, "\"kernel\": \"in-place\"") && has(r.out, "\"run\": {") &&
          has(r.out, "\"schedule\": \"sequential\"") &&
          has(r.out, "\"output\": [3, 4, 14, 15, 32, 35, 65, 71]"), "%s", r.out);
    write_text(tmp("lab.json"), r.out ? r.out : "");
    result_free(&r);
    r = run(NULL, "--open", tmp("lab.json"), NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "Mistakes lab · kernel in-place") &&
          has(r.out, "round 1: thread 2 read buf[1] = 4 after thread 1 had overwritten it; it "
                     "should have read 1"), "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    r = run(NULL, "--kernel", "no-else", "--backend", "cpu", NULL);
    /* No --schedule: the option table's default, once, as in the window (issue 18). */
    CHECK_MSG(r.status == 0 && has(r.out, "schedule sequential, 1 run\n") &&
          has(r.out, "round 1: thread 0 wrote nothing"), "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    /* no-guard stops in round 1 before any add (issue 28): its rounds count
     * what the run did, none, and round 2's pout buf[0] is the staged
     * input the memory still holds, not ? */
    r = run(NULL, "--kernel", "no-guard", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "pout buf[1] · 0 ops\n") &&
                  has(r.out, "pout buf[0] · 0 ops\n") &&
                  has(r.out, "Work: 0 ops in 0 rounds (") &&
                  has(r.out, "  buf[0] pout     3  1  7  0  4  1  6  3\n") &&
                  has(r.out, "with no write of thread 1's kept (?: the round never finished)"),
              "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    /* off-by-one's rounds count its own adds: thread 1 copies in round 1 */
    r = run(NULL, "--kernel", "off-by-one", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "pout buf[1] · 6 ops\n") &&
                  has(r.out, "Work: 14 ops in 3 rounds (") &&
                  has(r.out, "written by thread 1 in round 2, a value already wrong"),
              "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    /* in-place under lockstep is right and racy: the table says its hazards
     * (the kernel-file path's count of the same code), in the lab's names,
     * and a trace file keeps them (issue 28) */
    r = run(NULL, "--kernel", "in-place", "--schedule", "lockstep", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "wrong output in 0 of 1 runs") &&
                  has(r.out, "  hazards: 10 in run 0 (the same cell in one barrier interval, two "
                             "threads, one writing), e.g. thread 2 read buf[1] while thread 1 "
                             "wrote it, in round 1 (lines ") &&
                  has(r.out, "right in every run, but not by design"),
              "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    r = run(NULL, "--kernel", "in-place", "--schedule", "lockstep", "--format", "json", "-o",
            tmp("lockstep.json"), NULL);
    CHECK_MSG(r.status == 0, "status %d: %s", r.status, r.err);
    result_free(&r);
    r = run(NULL, "--open", tmp("lockstep.json"), NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "  hazards: 10 in run 0") &&
                  has(r.out, "thread 2 read buf[1] while thread 1 wrote it"),
              "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    unlink(tmp("lockstep.json"));
    r = run(NULL, "--kernel", "correct", "--schedule", "lockstep", NULL);
    CHECK_MSG(r.status == 0 && !has(r.out, "hazards:"), "status %d: %s%s", r.status, r.out,
              r.err);
    result_free(&r);
    /* --shake on the CPU is said, not silently dropped (issue 28): the lab,
     * the runtime's shipped kernels (and kernel files) alike; not without it */
    static const char shake_note[] = "scanviz-trace: --shake ignored: it delays the GPU's warps, "
                                     "and these runs are emulated on the CPU (a seeded --schedule";
    r = run(NULL, "--kernel", "in-place", "--shake", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0 && has_once(r.err, shake_note), "status %d: %s", r.status, r.err);
    result_free(&r);
    r = run(NULL, "--kernel", "blelloch", "--shake", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0 && has_once(r.err, shake_note), "status %d: %s", r.status, r.err);
    result_free(&r);
    r = run(NULL, "--kernel", "in-place", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0 && !has(r.err, "--shake"), "status %d: %s", r.status, r.err);
    result_free(&r);
    if (!have_gpu) { /* auto without a GPU: emulated, and said */
        r = run(NULL, "--shake", NULL);
        CHECK_MSG(r.status == 0 && has_once(r.err, shake_note), "status %d: %s", r.status, r.err);
        result_free(&r);
    }
    r = run(NULL, "--kernel", "off-by-one", "--random", "100", "--schedule", "random:5", "--runs",
            "3", "--format", "json", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "\"runs\": 3") && has(r.out, "\"schedule\": \"random:5\""),
          "status %d: %s", r.status, r.err);
    result_free(&r);
    /* A given seeded schedule runs 100 seeds, as in the window (issue 18:
     * one rule in capture; it was 1 here and 100 there). */
    r = run(NULL, "--kernel", "in-place", "--schedule", "random:1", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "schedule random:1, 100 runs"), "status %d: %s%s",
              r.status, r.out, r.err);
    result_free(&r);
    r = run(NULL, "--kernel", "in-place", "--racecheck", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "racecheck: racecheck runs on the GPU; this trace is emulated"),
          "status %d: %s%s", r.status, r.out, r.err);
    result_free(&r);
    r = run(NULL, "--kernel", "inplace", NULL);
    CHECK_MSG(r.status == 2 && has(r.err, "--kernel \"inplace\" (argument 2): expected correct, in-place"),
          "status %d: %s", r.status, r.err);
    result_free(&r);
    r = run(NULL, "--schedule", "sequential:2", NULL);
    CHECK_MSG(r.status == 2 && has(r.err, "sequential takes no seed"), "status %d: %s", r.status, r.err);
    result_free(&r);
    r = run(NULL, "--runs", "0", NULL);
    CHECK_MSG(r.status == 2 && has(r.err, "--runs \"0\" (argument 2)"), "status %d: %s", r.status, r.err);
    result_free(&r);
    r = run(NULL, "--verify", "--shake", NULL);
    CHECK_MSG(r.status == 2 && has(r.err, "\"--shake\" (argument 2): the lab's options"), "status %d: %s",
          r.status, r.err);
    result_free(&r);
    r = run(NULL, "--kernel", "in-place", "--schedule", "lockstep", "--backend", "cuda", NULL);
    CHECK_MSG(r.status == 2 && has(r.err, "--schedule names an emulator schedule"), "status %d: %s",
          r.status, r.err);
    result_free(&r);
    unlink(tmp("lab.json"));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PATH/TO/scanviz-trace\n", argv[0]);
        return 1;
    }
    exe = argv[1];
    check_tmpdir(tmpdir, sizeof tmpdir, "sv-cli");
    char why[256], device[256];
    size_t max_n = 0;
    have_gpu = sv_capture_cuda_available(device, sizeof device, &max_n, why, sizeof why);
    result r;
    sv_trace *chapter = NULL, *t = NULL;
    char diff[512];

    /* The chapter's example in json gives the chapter's buffers and cases. */
    r = run(NULL, "--input", "3 1 7 0 4 1 6 3", "--format", "json", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    CHECK_MSG(has(r.out, "\"scanviz-trace\"") && has(r.out, "\"hillis-steele\"") &&
          has(r.out, "\"cpu\"") && has(r.out, "null"),
          "json lacks format/algorithm/backend/null cells:\n%.400s", r.out);
    chapter = parse_out(&r, __LINE__);
    check_chapter_trace(chapter, __LINE__);
    result_free(&r);

    /* No input at all: the chapter's example. */
    r = run(NULL, "--format", "json", "--backend", "cpu", NULL);
    expect_trace_out(&r, chapter, "default input", __LINE__);

    /* auto: the GPU when there is one, else the emulator with the reason. */
    r = run(NULL, "--format", "json", NULL);
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    t = parse_out(&r, __LINE__);
    check_chapter_trace(t, __LINE__);
    if (t)
        CHECK_MSG(t->backend == (have_gpu ? SV_BACKEND_CUDA : SV_BACKEND_CPU), "auto chose %s",
              sv_backend_name(t->backend));
    if (!have_gpu)
        CHECK_MSG(has(r.err, "CPU emulator: ") && has(r.err, why),
              "auto without a GPU should say why (\"%s\"), stderr: %s", why, r.err);
    sv_trace_destroy(t);
    result_free(&r);

    /* The exclusive scan: shifted right, identity in front. */
    r = run(NULL, "--exclusive", "--format", "json", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    t = parse_out(&r, __LINE__);
    if (t) {
        static const int32_t excl[8] = {0, 3, 4, 11, 11, 15, 16, 22};
        CHECK_MSG(t->scan == SV_SCAN_EXCLUSIVE, "scan %d", (int)t->scan);
        for (size_t i = 0; i < 8 && t->n == 8; i++)
            CHECK_MSG(t->output[i].i == excl[i], "exclusive output[%zu] = %d, want %d", i,
                  t->output[i].i, excl[i]);
        CHECK_MSG(has(r.out, "\"exclusive\""), "json says no \"exclusive\"");
    }
    sv_trace_destroy(t);
    result_free(&r);

    /* The table: rounds and cases visible without colour. */
    r = run(NULL, "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    CHECK_MSG(!has(r.out, "\x1b["), "colour escapes in a table written to a file");
    CHECK_MSG(has(r.out, "25") && has(r.out, "22") && has(r.out, "?"),
          "table lacks the final values or the ? of uninitialized cells:\n%s", r.out ? r.out : "(none)");
    CHECK_MSG(has(r.out, "copy") && has(r.out, "partial") && has(r.out, "full"),
          "table lacks the case legend:\n%s", r.out);
    result_free(&r);

    /* Bad token: exit 2, the token and its position named. */
    r = run(NULL, "--input", "3 1 x7 0", NULL);
    CHECK_MSG(r.status == 2, "status %d", r.status);
    CHECK_MSG(has(r.err, "\"x7\"") && has(r.err, "token 3"), "stderr: %s", r.err);
    CHECK_MSG(r.out[0] == '\0', "stdout not empty: %s", r.out);
    result_free(&r);
    r = run(NULL, "--type", "float32", "--input", "1.5, 2, abc", NULL);
    CHECK_MSG(r.status == 2 && has(r.err, "\"abc\""), "status %d, stderr: %s", r.status, r.err);
    result_free(&r);

    /* --backend cuda: exit 3 with the reason when there is no GPU. */
    r = run(NULL, "--backend", "cuda", NULL);
    if (have_gpu) {
        CHECK_MSG(r.status == 0, "status %d with a GPU, stderr: %s", r.status, r.err);
    } else {
        CHECK_MSG(r.status == 3, "status %d without a GPU, stderr: %s", r.status, r.err);
        CHECK_MSG(why[0] != '\0' && has(r.err, why), "reason \"%s\" not in stderr: %s", why, r.err);
        CHECK_MSG(r.out[0] == '\0', "stdout not empty: %s", r.out);
    }
    result_free(&r);

    /* Usage errors: exit 2 naming the token. */
    struct { const char *args[6]; const char *needle; } bad[] = {
        { { "--bogus", NULL }, "\"--bogus\" (argument 1)" },
        { { "--random", "0", NULL }, "\"0\"" },
        { { "--random", "2000", NULL }, "1024" },
        { { "--random", "12x", NULL }, "\"12x\"" },
        { { "--op", "plus", NULL }, "\"plus\"" },
        { { "--type", "int64", NULL }, "\"int64\"" },
        { { "--type", "float32", "--op", "xor", NULL }, "xor" },
        { { "--backend", "gpu", NULL }, "\"gpu\"" },
        { { "--format", "xml", NULL }, "\"xml\"" },
        { { "--input", "1 2", "--random", "4", NULL }, "--input" },
        { { "--seed", "3", NULL }, "--seed" },
        { { "--open", "x.json", "--input", "1", NULL }, "--open" },
        { { "stray", NULL }, "\"stray\"" },
        { { "--input", NULL }, "--input" },
        /* after "--", operands are still checked (they were ignored) */
        { { "--backend", "cpu", "--", "stray", NULL }, "\"stray\" (argument 4)" },
        /* the token of an unknown letter inside a cluster (was argument 0) */
        { { "-xh", NULL }, "\"-x\" (argument 1)" },
        /* a value given to a flag (was "unknown option" and a control byte) */
        { { "--verify=1", NULL }, "--verify takes no value" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        const char *const *a = bad[k].args;
        r = run(NULL, a[0], a[1], a[2], a[3], a[4], a[5]);
        CHECK_MSG(r.status == 2, "%s %s: status %d, stderr: %s", a[0], a[1] ? a[1] : "", r.status,
              r.err);
        CHECK_MSG(has(r.err, bad[k].needle), "%s: stderr lacks '%s': %s", a[0], bad[k].needle, r.err);
        result_free(&r);
    }
    {
        char big[8000] = "";
        for (int i = 0; i < 1025; i++)
            strcat(big, "1 ");
        r = run(NULL, "--input", big, NULL);
        CHECK_MSG(r.status == 2 && has(r.err, "1024"), "1025 values: status %d, stderr: %s",
              r.status, r.err);
        result_free(&r);
    }

    /* "-" after "--" reads stdin too. */
    r = run("5 6\n", "--backend", "cpu", "--", "-", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "n = 2"), "-- -: status %d, stdout: %s, stderr: %s", r.status,
          r.out, r.err);
    result_free(&r);

    /* "-" reads stdin. */
    r = run("5, 6\n7 # a comment\n", "-", "--format", "json", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    t = parse_out(&r, __LINE__);
    if (t) {
        CHECK_MSG(t->n == 3 && t->output[0].i == 5 && t->output[1].i == 11 && t->output[2].i == 18,
              "stdin scan: n %zu", t->n);
    }
    sv_trace_destroy(t);
    result_free(&r);

    /* --file with # comments. */
    const char *in_file = tmp("values.txt");
    write_text(in_file, "# the chapter's example\n3 1 7 0   # first half\n\n4, 1, 6, 3\n# end\n");
    r = run(NULL, "--file", in_file, "--format", "json", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
    t = parse_out(&r, __LINE__);
    check_chapter_trace(t, __LINE__);
    sv_trace_destroy(t);
    result_free(&r);
    r = run(NULL, "--file", tmp("missing.txt"), NULL);
    CHECK_MSG(r.status == 2 && has(r.err, "missing.txt"), "status %d, stderr: %s", r.status, r.err);
    result_free(&r);

    /* -o writes a file that --open reads back, as a table and as json. */
    const char *saved = tmp("chapter.json");
    r = run(NULL, "--format", "json", "--backend", "cpu", "-o", saved, NULL);
    CHECK_MSG(r.status == 0 && r.out[0] == '\0', "status %d, stdout: %s, stderr: %s", r.status,
          r.out, r.err);
    result_free(&r);
    r = run(NULL, "--open", saved, NULL);
    CHECK_MSG(r.status == 0, "--open status %d, stderr: %s", r.status, r.err);
    CHECK_MSG(has(r.out, "25") && has(r.out, "full"), "--open table:\n%s", r.out);
    result_free(&r);
    r = run(NULL, "--open", saved, "--format", "json", NULL);
    expect_trace_out(&r, chapter, "--open json, round trip", __LINE__);
    r = run(NULL, "--open", saved, "--verify", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "bit-identical") && has(r.out, "verify: OK"),
          "--open --verify status %d:\n%s%s", r.status, r.out, r.err);
    result_free(&r);
    {
        /* --open - --verify calls the trace it compares "stdin" (was "-"). */
        char *json = slurp(saved);
        r = run(json, "--open", "-", "--verify", "--backend", "cpu", NULL);
        CHECK_MSG(r.status == 0 && has(r.out, "  stdin (cpu emulator) vs cpu emulator: bit-identical"),
              "--open - --verify status %d:\n%s%s", r.status, r.out, r.err);
        result_free(&r);
        free(json);
    }
    {
        /* --open --verify -o saves the trace it opened (-o was ignored). */
        char resaved[512];
        snprintf(resaved, sizeof resaved, "%s", tmp("reverified.json"));
        r = run(NULL, "--open", saved, "--verify", "--backend", "cpu", "--format", "json", "-o",
                resaved, NULL);
        CHECK_MSG(r.status == 0, "--open --verify -o status %d:\n%s%s", r.status, r.out, r.err);
        result_free(&r);
        char err[512];
        t = sv_trace_load(resaved, err, sizeof err);
        CHECK_MSG(t && chapter && sv_trace_equal(t, chapter, diff, sizeof diff),
              "--open --verify -o: %s", t ? diff : err);
        sv_trace_destroy(t);
    }
    {
        /* A table saved with -o. */
        const char *table = tmp("chapter.txt");
        r = run(NULL, "--backend", "cpu", "-o", table, NULL);
        CHECK_MSG(r.status == 0, "status %d, stderr: %s", r.status, r.err);
        char *text = slurp(table);
        CHECK_MSG(has(text, "25") && !has(text, "\x1b["), "table file:\n%s", text);
        free(text);
        result_free(&r);
        r = run(NULL, "--backend", "cpu", "-o", "/nonexistent-dir/x.txt", NULL);
        CHECK_MSG(r.status == 1 && has(r.err, "/nonexistent-dir/x.txt"), "status %d, stderr: %s",
              r.status, r.err);
        result_free(&r);
        /* "-o -" is standard output for the table too, not a file named "-". */
        r = run(NULL, "--backend", "cpu", "-o", "-", NULL);
        CHECK_MSG(r.status == 0 && has(r.out, "Round 3") && has(r.out, "25"),
              "-o -: status %d, stdout:\n%s", r.status, r.out);
        result_free(&r);
        r = run(NULL, "--backend", "cpu", "--format", "json", "-o", "/nonexistent-dir/x.json",
                NULL);
        CHECK_MSG(r.status == 1 && has_once(r.err, "/nonexistent-dir/x.json") &&
              has(r.err, "cannot create"), "status %d, stderr: %s", r.status, r.err);
        result_free(&r);
    }

    /* --open of bad files: exit 2, the field and reason named. */
    {
        char *good = slurp(saved);
        size_t len = strlen(good);
        const char *trunc = tmp("truncated.json");
        good[len / 2] = '\0';
        write_text(trunc, good);
        r = run(NULL, "--open", trunc, NULL);
        CHECK_MSG(r.status == 2 && has(r.err, "truncated.json"), "truncated: status %d, stderr: %s",
              r.status, r.err);
        result_free(&r);
        free(good);

        const char *wrong = tmp("wrong.json");
        write_text(wrong, "{\"format\": \"something-else\", \"version\": 1}\n");
        r = run(NULL, "--open", wrong, NULL);
        CHECK_MSG(r.status == 2 && has(r.err, "format"), "wrong format: status %d, stderr: %s",
              r.status, r.err);
        result_free(&r);

        /* Consistent syntax, inconsistent numbers: the last round says 26. */
        good = slurp(saved);
        char *p = strstr(good, "25");
        CHECK_MSG(p != NULL, "no 25 in the saved trace");
        if (p) {
            p[1] = '6';
            const char *bent = tmp("bent.json");
            write_text(bent, good);
            r = run(NULL, "--open", bent, NULL);
            CHECK_MSG(r.status == 2 && has_once(r.err, "bent.json") && has(r.err, "26"),
                  "inconsistent: status %d, stderr: %s", r.status, r.err);
            result_free(&r);
        }
        free(good);

        r = run(NULL, "--open", tmp("absent.json"), NULL);
        CHECK_MSG(r.status == 2 && has_once(r.err, "absent.json"), "absent: status %d, stderr: %s",
              r.status, r.err);
        result_free(&r);
        r = run(NULL, "--open", tmpdir, NULL);
        CHECK_MSG(r.status == 2 && has_once(r.err, tmpdir), "directory: status %d, stderr: %s",
              r.status, r.err);
        result_free(&r);
    }

    /* --verify: the emulator (and the GPU when there is one) against a
     * sequential scan. */
    r = run(NULL, "--random", "1000", "--seed", "7", "--verify", "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0, "status %d:\n%s%s", r.status, r.out, r.err);
    CHECK_MSG(has(r.out, "equals the sequential scan (1000 of 1000 cells)") &&
          has(r.out, "verify: OK"), "verify output:\n%s", r.out);
    result_free(&r);
    r = run(NULL, "--random", "1000", "--seed", "7", "--verify", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "verify: OK"), "status %d:\n%s%s", r.status, r.out, r.err);
    if (have_gpu)
        CHECK_MSG(has(r.out, "bit-identical trace"), "verify with a GPU:\n%s", r.out);
    else
        CHECK_MSG(has(r.out, "cuda: not run: ") && has(r.out, why), "verify without a GPU:\n%s",
              r.out);
    result_free(&r);
    r = run(NULL, "--random", "1000", "--seed", "7", "--type", "float32", "--verify",
            "--backend", "cpu", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "sequential scan") && has(r.out, "verify: OK"),
          "float32 verify status %d:\n%s%s", r.status, r.out, r.err);
    result_free(&r);
    {
        /* --verify -o saves the trace it verified. */
        const char *vsaved = tmp("verified.json");
        r = run(NULL, "--random", "100", "--seed", "3", "--op", "max", "--verify", "--backend",
                "cpu", "--format", "json", "-o", vsaved, NULL);
        CHECK_MSG(r.status == 0, "status %d:\n%s%s", r.status, r.out, r.err);
        result_free(&r);
        char err[512];
        t = sv_trace_load(vsaved, err, sizeof err);
        CHECK_MSG(t && t->n == 100 && t->op == SV_OP_MAX, "verified trace: %s", t ? "wrong" : err);
        sv_trace_destroy(t);
    }

    /* --help and --version. */
    r = run(NULL, "--help", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "3 1 7 0 4 1 6 3") && has(r.out, "Exit status") &&
          has(r.out, "--backend"), "status %d, help:\n%s", r.status, r.out);
    result_free(&r);
    r = run(NULL, "--version", NULL);
    CHECK_MSG(r.status == 0 && has(r.out, "scanviz-trace " SV_VERSION), "status %d: %s", r.status,
          r.out);
    result_free(&r);

    fault_tests();
    lab_flags();
    runs_one_run();
    kernel_floats();

    sv_trace_destroy(chapter);
    /* Leave the directory on failure, to look at. */
    if (!failures) {
        const char *names[] = {"stdin", "stdout", "stderr", "values.txt", "chapter.json",
                               "chapter.txt", "truncated.json", "wrong.json", "bent.json",
                               "verified.json", "reverified.json"};
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            unlink(tmp(names[k]));
        rmdir(tmpdir);
        printf("scanviz-trace: all checks passed (%s)\n", have_gpu ? device : why);
        return 0;
    }
    fprintf(stderr, "%d check(s) failed; files in %s\n", failures, tmpdir);
    return 1;
}
