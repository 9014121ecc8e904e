/* scanviz-bench's command line as a user runs it, without a GPU: spawns the
 * built executable (argv[1]) with CUDA_VISIBLE_DEVICES empty, so that it never
 * benchmarks even on a GPU machine, and checks that bad arguments exit 2
 * naming the token (and its position in a list), that good ones get past the
 * parser to the probe (exit 3 with the reason), and --help / --version. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sv_config.h"

extern char **environ;

#include "../expect.h"
#include "../spawn.h"

static const char *exe;
static char tmpdir[256];
static char **child_env;

typedef struct result {
    int status; /* exit status, or -1 when it did not exit normally */
    char out[8192];
    char err[8192];
} result;

/* The parent's environment with CUDA_VISIBLE_DEVICES set empty: no GPU is
 * visible, so a run that gets past the parser stops at the probe. */
static char **make_env(void)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 2, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "CUDA_VISIBLE_DEVICES=", 21) != 0)
            env[k++] = environ[i];
    env[k++] = "CUDA_VISIBLE_DEVICES=";
    env[k] = NULL;
    return env;
}

/* Runs exe with the given arguments (NULL-terminated) into *r (tests/spawn.h). */
static void run(result *r, ...)
{
    spawn_opts o = {.env = child_env};
    va_list ap;
    va_start(ap, r);
    spawn_result sr = spawn_exe_va(tmpdir, exe, ap, &o);
    va_end(ap);
    r->status = sr.status;
    snprintf(r->out, sizeof r->out, "%s", sr.out);
    snprintf(r->err, sizeof r->err, "%s", sr.err);
    spawn_result_free(&sr);
}

/* Bad arguments: exit 2, nothing on stdout, stderr names what (the token
 * in quotes, or the item's position) and points at --help. */
#define BAD(what, ...)                                                                 \
    do {                                                                               \
        result r_;                                                                     \
        run(&r_, __VA_ARGS__, (const char *)NULL);                                     \
        CHECK_MSG(r_.status == 2 && strstr(r_.err, what) &&                                \
                  strstr(r_.err, "try 'scanviz-bench --help'") && !r_.out[0],          \
              "%s: want exit 2 naming \"%s\"; got exit %d, stderr \"%s\", stdout \"%s\"", \
              #__VA_ARGS__, what, r_.status, r_.err, r_.out);                          \
    } while (0)

/* Bad arguments as a table: each row is what stderr must name, then one or
 * two arguments (the second NULL when there is one). */
typedef struct bad_arg {
    const char *what, *arg, *value;
} bad_arg;

#define BAD_TABLE(rows)                                                                \
    for (size_t k_ = 0; k_ < sizeof rows / sizeof rows[0]; k_++)                       \
        BAD(rows[k_].what, rows[k_].arg, rows[k_].value)

/* --sizes: every item checked, named, and placed in its list. Each row is
 * what stderr must name, then the value of --sizes (NULL: none follows). */
static const char *const bad_sizes[][2] = {
    { "'2^31'", "2^31" }, /* 2^31 > INT_MAX, the scanner's limit */
    { "'2^0..2^31'", "2^0..2^31" },
    { "'2^10..'", "2^10.." },
    { "'..'", ".." },
    { "'..2^4'", "..2^4" },
    { "'2^a'", "2^a" },
    { "'2^'", "2^" },
    { "'2^-1'", "2^-1" },
    { "'2^99999999999999999999'", "2^99999999999999999999" },
    { "'-5'", "-5" },
    { "'0'", "0" },
    { "'2147483648'", "2147483648" },
    { "'1e3'", "1e3" },
    { "'12abc'", "12abc" },
    { "'2^3..2^1'", "2^3..2^1" }, /* a range runs upwards */
    { "'8..16'", "8..16" },       /* ranges are of powers of two */
    { "'2^1..2^3..2^5'", "2^1..2^3..2^5" },
    { "item 2 of '1,,2' is empty", "1,,2" },
    { "item 2 of '1,' is empty", "1," },
    { "item 1 of ',1' is empty", ",1" },
    { "item 3 'x' of '1,2^4..2^6,x'", "1,2^4..2^6,x" },
    { "item 2 '2^10..2^5' of '1024,2^10..2^5'", "1024,2^10..2^5" },
    { "--sizes: not a list of sizes: ''", "" },
    { "missing value after: '--sizes'", NULL },
};

/* The other options. */
static const bad_arg bad_options[] = {
    { "--reps: not a count 1..100000: '0'", "--reps", "0" },
    { "'-1'", "--reps", "-1" },
    { "'100001'", "--reps", "100001" },
    { "'x'", "--reps", "x" },
    { "'5x'", "--reps", "5x" },
    { "--reps: not a count 1..100000: ''", "--reps=", NULL },
    { "--type: not int32 or float32: 'x'", "--type", "x" },
    { "'int64'", "--type", "int64" },
    { "'Float32'", "--type=Float32", NULL },
    { "--algo: 'foo': unknown algorithm", "--algo", "foo" },
    { "item 2 'foo' of 'hs,foo'", "--algo", "hs,foo" },
    { "item 2 of 'hs,,cub' is empty", "--algo", "hs,,cub" },
    { "'CUB'", "--algo", "CUB" },
    { "--algo: not a list of algorithms: ''", "--algo=", NULL },
    { "missing value after: '--csv'", "--csv", NULL },
    { "--csv: empty file name", "--csv=", NULL },
    { "unknown argument: '--bogus'", "--bogus", NULL },
    { "unknown argument: 'out.csv'", "out.csv", NULL },
    { "unknown argument: '-x'", "-x", NULL },
    { "--capture takes no value: '--capture=1'", "--capture=1", NULL },
    { "--progress-csv takes no value: '--progress-csv=1'", "--progress-csv=1", NULL },
    { "--help takes no value: '--help=1'", "--help=1", NULL },
    { "--version takes no value: '--version=x'", "--version=x", NULL },
};

/* Good arguments: past the parser, so the probe's refusal: exit 3 with
 * "scanviz-bench: no usable GPU: REASON" on one line, nothing on stdout. */
#define GOOD(...)                                                                      \
    do {                                                                               \
        result r_;                                                                     \
        run(&r_, __VA_ARGS__, (const char *)NULL);                                     \
        static const char p_[] = "scanviz-bench: no usable GPU: ";                     \
        size_t l_ = strlen(r_.err);                                                    \
        CHECK_MSG(r_.status == 3 && strncmp(r_.err, p_, sizeof p_ - 1) == 0 &&             \
                  l_ > sizeof p_ && r_.err[l_ - 1] == '\n' &&                          \
                  strchr(r_.err, '\n') == r_.err + l_ - 1 && !r_.out[0],               \
              "%s: want exit 3 with the reason; got exit %d, stderr \"%s\", stdout \"%s\"", \
              #__VA_ARGS__, r_.status, r_.err, r_.out);                                \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_bench_cli PATH/TO/scanviz-bench\n");
        return 2;
    }
    exe = argv[1];
    check_tmpdir(tmpdir, sizeof tmpdir, "sv-bench-cli");
    if (!(child_env = make_env())) {
        perror("test_bench_cli: setup");
        return 1;
    }

    /* --sizes: every item checked, named, and placed in its list. */
    for (size_t k = 0; k < sizeof bad_sizes / sizeof bad_sizes[0]; k++)
        BAD(bad_sizes[k][0], "--sizes", bad_sizes[k][1]);
    BAD("'2^31'", "--sizes=2^31");

    /* At most 256 distinct sizes; repeats do not count (they run once). */
    {
        char list[1100] = "", dup[1100] = "";
        size_t used = 0, dused = 0;
        for (int k = 1; k <= 257; k++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", k > 1 ? "," : "", k);
        for (int k = 0; k < 280; k++)
            dused += (size_t)snprintf(dup + dused, sizeof dup - dused, "%s%d", k ? "," : "",
                                      1 + k % 256);
        BAD("more than 256 sizes", "--sizes", list);
        GOOD("--sizes", dup);
        list[used - 4] = '\0'; /* drop ",257": 256 sizes */
        GOOD("--sizes", list);
        char longer[1100];
        memset(longer, '1', sizeof longer - 1);
        longer[sizeof longer - 1] = '\0';
        BAD("--sizes: not a list of sizes", "--sizes", longer);
    }

    /* The other options. */
    BAD_TABLE(bad_options);
    /* Arguments are read left to right: a bad one after good ones. */
    BAD("'x'", "--reps", "5", "--sizes", "2^4", "--type", "x");

    /* Good arguments reach the probe. */
    GOOD("--reps", "50");                      /* the defaults otherwise */
    GOOD("--sizes", "2^0");
    GOOD("--sizes", "1");
    GOOD("--sizes", "2^30");
    GOOD("--sizes", "2147483647");             /* INT_MAX: the largest n */
    GOOD("--sizes", "2^0..2^30");
    GOOD("--sizes", "2^10..2^10");
    GOOD("--sizes", "1,2^3..2^5,1000003");
    GOOD("--sizes", "2^10..2^12,2048,1024");   /* repeats run once */
    GOOD("--sizes=2^20");
    GOOD("--reps", "1");
    GOOD("--reps=100000");
    GOOD("--type", "float32");
    GOOD("--type=int32");
    GOOD("--algo", "cpu");
    GOOD("--algo", "copy,cub,hs,hs-lookback,hs-naive,blelloch,cpu,hs");
    GOOD("--capture");
    GOOD("--capture", "--sizes", "2^5", "--algo", "hs");
    GOOD("--sizes", "2^4", "--sizes", "2^5"); /* the last --sizes wins */
    GOOD("--progress-csv", "--sizes", "2^10..2^24", "--reps", "10"); /* the live run's */

    /* Without a GPU, --csv FILE leaves no file behind. */
    {
        char csv[300];
        snprintf(csv, sizeof csv, "%s/out.csv", tmpdir);
        GOOD("--csv", csv, "--sizes", "2^10");
        struct stat st;
        CHECK_MSG(stat(csv, &st) != 0, "%s exists after a run without a GPU", csv);
        unlink(csv);
    }

    /* --help and --version: stdout, exit 0, whatever the GPU. */
    {
        result r;
        run(&r, "--help", (const char *)NULL);
        CHECK_MSG(r.status == 0 && strncmp(r.out, "usage: scanviz-bench", 20) == 0 && !r.err[0],
              "--help: exit %d, stdout \"%.80s\", stderr \"%s\"", r.status, r.out, r.err);
        static const char *const opts[] = { "--algo", "--sizes", "--type", "--reps", "--csv",
                                            "--capture", "--progress-csv", "# rows: N",
                                            "Exit status" };
        for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++)
            CHECK_MSG(strstr(r.out, opts[k]), "--help does not mention %s", opts[k]);
        result h;
        run(&h, "-h", (const char *)NULL);
        CHECK_MSG(h.status == 0 && strcmp(h.out, r.out) == 0, "-h differs from --help");
        run(&r, "--version", (const char *)NULL);
        CHECK_MSG(r.status == 0 && strcmp(r.out, "scanviz-bench " SV_VERSION "\n") == 0 && !r.err[0],
              "--version: exit %d, stdout \"%s\"", r.status, r.out);
    }

    char path[300];
    snprintf(path, sizeof path, "%s/stdout", tmpdir);
    unlink(path);
    snprintf(path, sizeof path, "%s/stderr", tmpdir);
    unlink(path);
    rmdir(tmpdir);
    free(child_env);
    return check_report("scanviz-bench command line: all checks passed");
}
