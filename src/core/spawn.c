/* Running a helper program (spawn.h): its output captured with a time
 * limit, and where it is. */
#define _POSIX_C_SOURCE 200809L
#include "spawn.h"

#include <errno.h>
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
        execv(argv[0], argv);
        _exit(127);
    }
    setpgid(pid, pid); /* also here: whichever runs first */
    close(fd[1]);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t cap = 1 << 16, used = 0;
    char *buf = malloc(cap + 1);
    char scratch[4096];
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long spent = (now.tv_sec - t0.tv_sec) * 1000LL + (now.tv_nsec - t0.tv_nsec) / 1000000;
        struct pollfd pf = {.fd = fd[0], .events = POLLIN};
        int r = timeout_ms < 0 ? poll(&pf, 1, -1)
                : spent >= timeout_ms ? 0 : poll(&pf, 1, (int)(timeout_ms - spent));
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0) {
            *timed_out = true;
            kill(-pid, SIGKILL);
            break;
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
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {
    }
    if (!*timed_out)
        kill(-pid, SIGKILL); /* anything the child left behind */
    if (!buf) {
        sv_errorf(err, errlen, "out of memory reading %s's output", argv[0]);
        return NULL;
    }
    buf[used] = '\0';
    *len = used;
    return buf;
}
