/* Where the Measure view's numbers come from: the table embedded from
 * assets/bench/h200.csv, or a quick run of scanviz-bench --progress-csv as a
 * child process. Its stdout is the CSV itself ("# rows: N", the header, then
 * each row as it is measured), its stderr the messages; both are read
 * through non-blocking pipes, a frame at a time. Progress is rows seen over
 * rows planned; at exit the collected CSV is parsed as the table. */
#include "bench_live.h"
#include "../core/algo.h"
#include "../core/buf.h"
#include "../core/error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* src/embed.py output for assets/bench/h200.csv (NUL-terminated). */
extern const unsigned char sv_bench_shipped_csv[];
extern const size_t sv_bench_shipped_csv_size;

/* The largest CSV a live run may print (it prints about 8 KiB). */
#define LIVE_CSV_MAX (1u << 20)

enum { OUT, ERR }; /* the child's two streams */

struct sv_bench_live {
    pid_t pid;
    int fd[2];               /* read ends of the child's stdout and stderr; -1 at EOF */
    sv_buf csv;              /* stdout so far: the CSV */
    bool csv_overflow;       /* more than LIVE_CSV_MAX: the run fails */
    size_t scanned;          /* csv[0..scanned) has been counted */
    char pending[512];       /* stderr: an incomplete line carried between reads */
    size_t npending;
    char message[256];       /* the last non-empty line of either stream */
    int rows, planned;       /* data rows seen; "# rows: N" (0 until read) */
    bool header_seen;
    sv_bench_live_status status;
    char reason[384];        /* FAILED: why */
};

sv_bench_table *sv_bench_shipped(char *err, size_t errlen)
{
    char inner[320];
    sv_bench_table *t = sv_bench_table_parse((const char *)sv_bench_shipped_csv, inner,
                                             sizeof inner);
    if (!t)
        sv_errorf(err, errlen, "the shipped benchmark table (assets/bench/h200.csv): %s", inner);
    return t;
}

static bool executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Next to this program, then the build tree's src/cli beside src/app, then
 * PATH. Fills out and returns true when found. */
static bool find_bench(char *out, size_t outlen)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            const char *rel[] = { "/scanviz-bench", "/../cli/scanviz-bench" };
            for (size_t i = 0; i < sizeof rel / sizeof *rel; i++) {
                if ((size_t)snprintf(out, outlen, "%s%s", self, rel[i]) < outlen &&
                    executable_file(out))
                    return true;
            }
        }
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t len = colon ? (size_t)(colon - path) : strlen(path);
        if (len > 0 && (size_t)snprintf(out, outlen, "%.*s/scanviz-bench", (int)len, path) <
                           outlen && executable_file(out))
            return true;
        path = colon ? colon + 1 : NULL;
    }
    return false;
}

sv_bench_live *sv_bench_live_start(const char *exe, char *err, size_t errlen)
{
    char found[4096];
    if (!exe) {
        if (!find_bench(found, sizeof found)) {
            sv_errorf(err, errlen,
                    "scanviz-bench not found next to scanviz or on PATH "
                    "(it is built only with CUDA)");
            return NULL;
        }
        exe = found;
    } else if (!executable_file(exe)) {
        sv_errorf(err, errlen, "%s: not an executable file", exe);
        return NULL;
    }

    sv_bench_live *b = calloc(1, sizeof *b);
    int out[2] = { -1, -1 }, errp[2] = { -1, -1 };
    if (!b) {
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    b->fd[OUT] = b->fd[ERR] = -1;
    if (pipe(out) != 0 || pipe(errp) != 0) {
        sv_errorf(err, errlen, "pipe: %s", strerror(errno));
        goto fail_pipe;
    }
    pid_t pid = fork();
    if (pid < 0) {
        sv_errorf(err, errlen, "fork: %s", strerror(errno));
        goto fail_pipe;
    }
    if (pid == 0) {
        /* The child: stdout (the CSV) and stderr into their pipes, then the
         * benchmark. */
        dup2(out[1], STDOUT_FILENO);
        dup2(errp[1], STDERR_FILENO);
        close(out[0]);
        close(out[1]);
        close(errp[0]);
        close(errp[1]);
        execl(exe, exe, "--progress-csv", "--sizes", SV_BENCH_LIVE_SIZES, "--reps",
              SV_BENCH_LIVE_REPS, (char *)NULL);
        /* Only async-signal-safe calls here: the parent may have threads. */
        const char *why = strerror(errno);
        if (write(STDERR_FILENO, "cannot run scanviz-bench: ", 26) > 0 &&
            write(STDERR_FILENO, why, strlen(why)) > 0)
            (void)!write(STDERR_FILENO, "\n", 1);
        _exit(127);
    }
    close(out[1]);
    close(errp[1]);
    b->fd[OUT] = out[0];
    b->fd[ERR] = errp[0];
    for (int k = 0; k < 2; k++) {
        fcntl(b->fd[k], F_SETFL, fcntl(b->fd[k], F_GETFL) | O_NONBLOCK);
        fcntl(b->fd[k], F_SETFD, FD_CLOEXEC);
    }
    b->pid = pid;
    b->status = SV_BENCH_LIVE_RUNNING;
    return b;

fail_pipe:
    for (int k = 0; k < 2; k++) {
        if (out[k] >= 0)
            close(out[k]);
        if (errp[k] >= 0)
            close(errp[k]);
    }
    free(b);
    return NULL;
}

static void set_message(sv_bench_live *b, const char *line, size_t len)
{
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
        len--;
    if (len > 0)
        snprintf(b->message, sizeof b->message, "%.*s", (int)len, line);
}

/* Counts the complete CSV lines not yet counted: "# rows: N" gives the rows
 * planned, the header starts the data, every later non-comment line is a
 * row. */
static void scan_csv(sv_bench_live *b)
{
    for (;;) {
        const char *line = b->csv.p + b->scanned;
        const char *nl = memchr(line, '\n', b->csv.n - b->scanned);
        if (!nl)
            return;
        size_t len = (size_t)(nl - line);
        b->scanned += len + 1;
        set_message(b, line, len);
        int planned;
        if (line[0] == '#') {
            if (sscanf(line, "# rows: %d", &planned) == 1 && planned > 0)
                b->planned = planned;
        } else if (!b->header_seen) {
            b->header_seen = strncmp(line, "algo,", 5) == 0;
        } else if (len > 0 && line[0] != '\r') {
            b->rows++;
        }
    }
}

/* Appends what the child wrote on stdout. */
static void take_csv(sv_bench_live *b, const char *data, size_t n)
{
    if (b->csv_overflow)
        return;
    if (b->csv.n + n + 1 > LIVE_CSV_MAX || !sv_buf_append(&b->csv, data, n)) {
        b->csv_overflow = true;
        return;
    }
    scan_csv(b);
}

/* What the child wrote on stderr: only its last line is kept. */
static void take_messages(sv_bench_live *b, const char *data, size_t n, bool eof)
{
    for (size_t i = 0; i < n; i++) {
        if (data[i] == '\n') {
            set_message(b, b->pending, b->npending);
            b->npending = 0;
        } else if (b->npending + 1 < sizeof b->pending) {
            b->pending[b->npending++] = data[i];
        }
    }
    if (eof && b->npending) {
        set_message(b, b->pending, b->npending);
        b->npending = 0;
    }
}

static void read_output(sv_bench_live *b)
{
    for (int k = 0; k < 2; k++) {
        while (b->fd[k] >= 0) {
            char buf[4096];
            ssize_t n = read(b->fd[k], buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0)
                break; /* EAGAIN: nothing more now */
            if (n == 0) {
                close(b->fd[k]);
                b->fd[k] = -1;
                if (k == ERR)
                    take_messages(b, buf, 0, true);
                else if (b->csv.n > b->scanned) /* a last line with no newline */
                    take_csv(b, "\n", 1);
                break;
            }
            if (k == OUT)
                take_csv(b, buf, (size_t)n);
            else
                take_messages(b, buf, (size_t)n, false);
        }
    }
}

/* The child exited 0: its CSV is the table. */
static void finish_table(sv_bench_live *b, sv_bench_table **table)
{
    char inner[320];
    sv_bench_table *t = NULL;
    if (b->csv_overflow)
        snprintf(inner, sizeof inner, "more than %u bytes of CSV", LIVE_CSV_MAX);
    else
        t = sv_bench_table_parse(b->csv.p ? b->csv.p : "", inner, sizeof inner);
    if (t && t->nrows > 0) {
        b->status = SV_BENCH_LIVE_DONE;
        if (table)
            *table = t;
        else
            sv_bench_table_destroy(t);
        return;
    }
    b->status = SV_BENCH_LIVE_FAILED;
    snprintf(b->reason, sizeof b->reason, "scanviz-bench wrote %s", t ? "no rows" : inner);
    sv_bench_table_destroy(t);
}

sv_bench_live_status sv_bench_live_poll(sv_bench_live *b, float *progress,
                                        sv_bench_table **table, char *err, size_t errlen)
{
    if (table)
        *table = NULL;
    if (!b) {
        sv_errorf(err, errlen, "no live benchmark");
        return SV_BENCH_LIVE_FAILED;
    }
    if (b->status == SV_BENCH_LIVE_RUNNING) {
        read_output(b);
        int wstatus = 0;
        /* Output closed is not yet an exit: reap without blocking. */
        pid_t r = b->fd[OUT] < 0 && b->fd[ERR] < 0 ? waitpid(b->pid, &wstatus, WNOHANG) : 0;
        if (r == b->pid) {
            b->pid = 0;
            if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
                finish_table(b, table);
            } else {
                b->status = SV_BENCH_LIVE_FAILED;
                char how[64];
                if (WIFEXITED(wstatus))
                    snprintf(how, sizeof how, "exit status %d", WEXITSTATUS(wstatus));
                else
                    snprintf(how, sizeof how, "signal %d", WTERMSIG(wstatus));
                bool named = strncmp(b->message, "scanviz-bench", 13) == 0;
                if (b->message[0])
                    snprintf(b->reason, sizeof b->reason, "%s%s (%s)",
                             named ? "" : "scanviz-bench: ", b->message, how);
                else
                    snprintf(b->reason, sizeof b->reason, "scanviz-bench ended with %s", how);
            }
        } else if (r < 0 && errno != EINTR) {
            b->status = SV_BENCH_LIVE_FAILED;
            snprintf(b->reason, sizeof b->reason, "waitpid: %s", strerror(errno));
            b->pid = 0;
        }
    }
    if (progress) {
        /* Without "# rows: N", every algorithm at every live size. */
        int planned = b->planned > 0 ? b->planned : SV_ALGO_COUNT * SV_BENCH_LIVE_NSIZES;
        float f = (float)b->rows / (float)planned;
        if (b->status == SV_BENCH_LIVE_DONE)
            f = 1;
        *progress = f < 0 ? 0 : f > 1 ? 1 : f;
    }
    if (b->status == SV_BENCH_LIVE_FAILED)
        sv_errorf(err, errlen, "%s", b->reason);
    return b->status;
}

const char *sv_bench_live_message(const sv_bench_live *b)
{
    return b ? b->message : "";
}

void sv_bench_live_destroy(sv_bench_live *b)
{
    if (!b)
        return;
    for (int k = 0; k < 2; k++)
        if (b->fd[k] >= 0)
            close(b->fd[k]);
    if (b->pid > 0) {
        kill(b->pid, SIGTERM);
        while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    sv_buf_free(&b->csv);
    free(b);
}
