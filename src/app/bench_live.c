/* Where the Measure view's numbers come from: the table embedded from
 * assets/bench/h200.csv, or a quick run of scanviz-bench as a child process
 * whose stdout is read through a non-blocking pipe, a frame at a time. */
#include "bench_live.h"
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

/* What a full quick run prints: every algorithm at every size 2^10..2^24. */
#define LIVE_ALGOS 6
#define LIVE_SIZES 15

struct sv_bench_live {
    pid_t pid;
    int fd;                  /* read end of the child's stdout+stderr; -1 at EOF */
    char csv_path[64];       /* the temporary CSV the child writes */
    char pending[512];       /* an incomplete line carried between reads */
    size_t npending;
    char message[256];       /* last non-empty line */
    int results;             /* result lines seen */
    float fraction;          /* from a "k/N" the child printed, or -1 */
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
    int pipefd[2] = { -1, -1 };
    if (!b) {
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    b->fd = -1;
    b->fraction = -1;
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !tmp[0] || strlen(tmp) > 40)
        tmp = "/tmp";
    snprintf(b->csv_path, sizeof b->csv_path, "%s/scanviz-bench-XXXXXX", tmp);
    int csv_fd = mkstemp(b->csv_path);
    if (csv_fd < 0) {
        sv_errorf(err, errlen, "cannot create a temporary file in %s: %s", tmp, strerror(errno));
        b->csv_path[0] = '\0';
        goto fail_tmp;
    }
    close(csv_fd);
    if (pipe(pipefd) != 0) {
        sv_errorf(err, errlen, "pipe: %s", strerror(errno));
        goto fail_pipe;
    }
    pid_t pid = fork();
    if (pid < 0) {
        sv_errorf(err, errlen, "fork: %s", strerror(errno));
        goto fail_fork;
    }
    if (pid == 0) {
        /* The child: stdout and stderr into the pipe, then the benchmark. */
        dup2(pipefd[1], STDOUT_FILENO);
        dup2(pipefd[1], STDERR_FILENO);
        close(pipefd[0]);
        close(pipefd[1]);
        execl(exe, exe, "--sizes", SV_BENCH_LIVE_SIZES, "--reps", SV_BENCH_LIVE_REPS,
              "--csv", b->csv_path, (char *)NULL);
        /* Only async-signal-safe calls here: the parent may have threads. */
        const char *why = strerror(errno);
        if (write(STDOUT_FILENO, "cannot run scanviz-bench: ", 26) > 0 &&
            write(STDOUT_FILENO, why, strlen(why)) > 0)
            (void)!write(STDOUT_FILENO, "\n", 1);
        _exit(127);
    }
    close(pipefd[1]);
    fcntl(pipefd[0], F_SETFL, fcntl(pipefd[0], F_GETFL) | O_NONBLOCK);
    fcntl(pipefd[0], F_SETFD, FD_CLOEXEC);
    b->pid = pid;
    b->fd = pipefd[0];
    b->status = SV_BENCH_LIVE_RUNNING;
    return b;

fail_fork:
    close(pipefd[0]);
    close(pipefd[1]);
fail_pipe:
    unlink(b->csv_path);
fail_tmp:
    free(b);
    return NULL;
}

static bool starts_with_algo(const char *s)
{
    static const char *const algos[] = { "copy", "cub", "hs-naive", "hs", "blelloch", "cpu" };
    while (*s == ' ' || *s == '\t')
        s++;
    for (size_t i = 0; i < sizeof algos / sizeof *algos; i++) {
        size_t n = strlen(algos[i]);
        if (strncmp(s, algos[i], n) == 0) {
            char c = s[n];
            if (c == ' ' || c == '\t' || c == ',' || c == '|' || c == ':')
                return true;
        }
    }
    return false;
}

/* One complete line of the child's output. */
static void take_line(sv_bench_live *b, char *line)
{
    size_t len = strlen(line);
    while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
        line[--len] = '\0';
    if (len == 0)
        return;
    snprintf(b->message, sizeof b->message, "%s", line);
    if (starts_with_algo(line))
        b->results++;
    /* "[12/90]" or "12/90": an explicit count wins over counting lines. */
    for (const char *p = line; *p; p++) {
        unsigned k, total;
        if (p[0] >= '0' && p[0] <= '9' && (p == line || p[-1] < '0' || p[-1] > '9') &&
            sscanf(p, "%u/%u", &k, &total) == 2 && total > 0 && k <= total) {
            b->fraction = (float)k / (float)total;
            break;
        }
    }
}

static void read_output(sv_bench_live *b)
{
    while (b->fd >= 0) {
        char buf[1024];
        ssize_t n = read(b->fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return; /* EAGAIN: nothing more now */
        if (n == 0) {
            close(b->fd);
            b->fd = -1;
            if (b->npending) {
                b->pending[b->npending] = '\0';
                take_line(b, b->pending);
                b->npending = 0;
            }
            return;
        }
        for (ssize_t i = 0; i < n; i++) {
            char c = buf[i];
            if (c == '\n') {
                b->pending[b->npending] = '\0';
                take_line(b, b->pending);
                b->npending = 0;
            } else if (b->npending + 1 < sizeof b->pending) {
                b->pending[b->npending++] = c;
            }
        }
    }
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
        pid_t r = b->fd < 0 ? waitpid(b->pid, &wstatus, WNOHANG) : 0;
        if (r == b->pid) {
            b->pid = 0;
            if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
                char inner[320];
                sv_bench_table *t = sv_bench_table_load(b->csv_path, inner, sizeof inner);
                if (t && t->nrows > 0) {
                    b->status = SV_BENCH_LIVE_DONE;
                    if (table)
                        *table = t;
                    else
                        sv_bench_table_destroy(t);
                } else {
                    b->status = SV_BENCH_LIVE_FAILED;
                    snprintf(b->reason, sizeof b->reason, "scanviz-bench wrote %s",
                             t ? "no rows" : inner);
                    sv_bench_table_destroy(t);
                }
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
        float f = b->fraction >= 0 ? b->fraction
                                   : (float)b->results / (float)(LIVE_ALGOS * LIVE_SIZES);
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
    if (b->fd >= 0)
        close(b->fd);
    if (b->pid > 0) {
        kill(b->pid, SIGTERM);
        while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    if (b->csv_path[0])
        unlink(b->csv_path);
    free(b);
}
