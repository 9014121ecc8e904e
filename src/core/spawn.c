/* Running a helper program (spawn.h): its output captured with a time
 * limit, and where it is. */
#define _POSIX_C_SOURCE 200809L
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"

bool sv_spawn_find(const char *name, const char *const *fallback, char *out, size_t len)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t k = colon ? (size_t)(colon - path) : strlen(path);
        if (k > 0 && k < 512) {
            snprintf(out, len, "%.*s/%s", (int)k, path, name);
            if (access(out, X_OK) == 0)
                return true;
        }
        path = colon ? colon + 1 : NULL;
    }
    for (size_t i = 0; fallback && fallback[i]; i++) {
        if (access(fallback[i], X_OK) == 0) {
            snprintf(out, len, "%s", fallback[i]);
            return true;
        }
    }
    return false;
}

/* The child leads its own process group; past timeout_ms the whole group
 * (a sanitizer and the program it runs) is killed. */
char *sv_spawn_output(char *const argv[], size_t limit, int timeout_ms, size_t *len, int *status,
                      bool *timed_out, char *err, size_t errlen)
{
    return sv_spawn_run(argv, NULL, limit, timeout_ms, len, status, timed_out, err, errlen);
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

char *sv_spawn_run(char *const argv[], const sv_spawn_opts *opts, size_t limit, int timeout_ms,
                   size_t *len, int *status, bool *timed_out, char *err, size_t errlen)
{
    *timed_out = false;
    int fd[2];
    if (pipe(fd) != 0) {
        sv_errorf(err, errlen, "pipe: %s", strerror(errno));
        return NULL;
    }
    pid_t pid = fork();
    if (pid < 0) {
        sv_errorf(err, errlen, "fork: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return NULL;
    }
    if (pid == 0) {
        setpgid(0, 0);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        if (opts && opts->stdin_null) {
            int nul = open("/dev/null", O_RDONLY);
            if (nul < 0 || dup2(nul, 0) < 0)
                _exit(126);
            if (nul > 2)
                close(nul);
        }
        if (opts && opts->cwd && chdir(opts->cwd) != 0)
            _exit(126);
        if (opts && opts->pre_exec && !opts->pre_exec(opts->ctx))
            _exit(126);
        if (opts && opts->envp)
            execve(argv[0], argv, opts->envp);
        else
            execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: whichever runs first */
    close(fd[1]);
    long long deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
    bool reaped = false;
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap + 1);
    char scratch[4096];
    for (;;) {
        long long left = deadline < 0 ? -1 : deadline - now_ms();
        if (deadline >= 0 && left <= 0) {
            *timed_out = true;
            kill(-pid, SIGKILL);
            break;
        }
        struct pollfd pf = {.fd = fd[0], .events = POLLIN};
        int r = poll(&pf, 1, left < 0 || left > 100 ? 100 : (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            /* the child has ended but something it started holds the pipe */
            if (waitpid(pid, status, WNOHANG) == pid) {
                reaped = true;
                kill(-pid, SIGKILL);
                /* what it wrote before it ended is still in the pipe */
                fcntl(fd[0], F_SETFL, O_NONBLOCK);
                ssize_t got;
                while (buf && used < limit && (got = read(fd[0], buf + used, cap - used)) > 0)
                    used += (size_t)got;
                break;
            }
            continue;
        }
        ssize_t got;
        if (buf && used < limit) {
            if (used == cap) {
                size_t nc = cap * 2 > limit ? limit : cap * 2;
                char *nb = realloc(buf, nc + 1);
                if (!nb) {
                    free(buf);
                    buf = NULL;
                    continue;
                }
                buf = nb;
                cap = nc;
            }
            got = read(fd[0], buf + used, cap - used);
        } else {
            got = read(fd[0], scratch, sizeof scratch);
        }
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        if (buf && used < limit)
            used += (size_t)got;
    }
    close(fd[0]);
    while (!reaped && waitpid(pid, status, 0) < 0 && errno == EINTR) {
    }
    kill(-pid, SIGKILL); /* anything the child left behind */
    if (!buf) {
        sv_errorf(err, errlen, "out of memory reading %s's output", argv[0]);
        return NULL;
    }
    buf[used] = '\0';
    *len = used;
    return buf;
}
