/* The one way the C tests run a program as a user would: argv, stdin from
 * text, a file or /dev/null, stdout and stderr captured (or stdout sent to a
 * path such as /dev/full), optionally a file-size limit (RLIMIT_FSIZE, with
 * SIGXFSZ ignored, so writes past it fail with EFBIG: a full disk without
 * root). spawn_exe and spawn_exe_va run a program with a NULL-terminated
 * argument list. Header-only; the tests that include it link nothing more. */
#ifndef SV_TEST_SPAWN_H
#define SV_TEST_SPAWN_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

typedef struct spawn_opts {
    const char *stdin_text; /* stdin: this text, */
    const char *stdin_path; /* or this file (/dev/zero), else /dev/null */
    const char *stdout_path; /* stdout to this path (/dev/full) instead of captured */
    long long fsize_limit;  /* > 0: RLIMIT_FSIZE in bytes for the child */
    char **env;             /* NULL: the parent's */
} spawn_opts;

typedef struct spawn_result {
    int status; /* exit status, or -1 when it did not exit normally */
    char *out;  /* captured stdout ("" when sent elsewhere) */
    char *err;  /* captured stderr */
} spawn_result;

static void spawn_result_free(spawn_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

static char *spawn_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    size_t cap = 4096, len = 0, got;
    char *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    while (f && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                fprintf(stderr, "out of memory\n");
                exit(1);
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (f)
        fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Runs argv[0] (a path) with argv; dir is a scratch folder for the captured
 * streams. Exits the test on a failure to run at all. */
static spawn_result spawn_run(const char *dir, char *const argv[], const spawn_opts *o)
{
    static const spawn_opts none;
    char in_path[600], out_path[600], err_path[600];
    if (!o)
        o = &none;
    snprintf(in_path, sizeof in_path, "%s/stdin", dir);
    snprintf(out_path, sizeof out_path, "%s/stdout", dir);
    snprintf(err_path, sizeof err_path, "%s/stderr", dir);
    if (o->stdin_text) {
        FILE *f = fopen(in_path, "wb");
        if (!f || fputs(o->stdin_text, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "%s: %s\n", in_path, strerror(errno));
            exit(1);
        }
    }
    const char *in = o->stdin_text ? in_path : o->stdin_path ? o->stdin_path : "/dev/null";
    const char *out = o->stdout_path ? o->stdout_path : out_path;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid == 0) {
        int fd0 = open(in, O_RDONLY);
        int fd1 = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fd2 = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd0 < 0 || fd1 < 0 || fd2 < 0 || dup2(fd0, 0) < 0 || dup2(fd1, 1) < 0 ||
            dup2(fd2, 2) < 0)
            _exit(126);
        if (o->fsize_limit > 0) {
            struct rlimit rl = {(rlim_t)o->fsize_limit, (rlim_t)o->fsize_limit};
            signal(SIGXFSZ, SIG_IGN); /* stays ignored across exec: write gets EFBIG */
            if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
                _exit(126);
        }
        execve(argv[0], argv, o->env ? o->env : environ);
        _exit(127);
    }
    int ws;
    while (waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) {
            perror("waitpid");
            exit(1);
        }
    }
    spawn_result r;
    r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    r.out = o->stdout_path ? spawn_slurp("/dev/null") : spawn_slurp(out_path);
    r.err = spawn_slurp(err_path);
    return r;
}

/* spawn_run of the program exe with the arguments args (NULL-terminated;
 * at most 62 are passed). */
static inline spawn_result spawn_exe(const char *dir, const char *exe, const char *const *args,
                                     const spawn_opts *o)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)exe;
    for (; *args && argc < 63; args++)
        argv[argc++] = (char *)*args;
    argv[argc] = NULL;
    return spawn_run(dir, argv, o);
}

/* spawn_exe with the arguments taken from ap up to a NULL. */
static inline spawn_result spawn_exe_va(const char *dir, const char *exe, va_list ap,
                                        const spawn_opts *o)
{
    const char *args[64];
    int n = 0;
    for (const char *a; n < 63 && (a = va_arg(ap, const char *)) != NULL;)
        args[n++] = a;
    args[n] = NULL;
    return spawn_exe(dir, exe, args, o);
}

#endif
