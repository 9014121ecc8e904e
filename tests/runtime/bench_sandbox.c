/* What the walls cost a run (issue 27; docs/performance.md): the child's
 * part (its limits, Landlock's ruleset and restriction, both seccomp
 * filters) timed in fresh children, and the parent's (the object's check
 * and its SHA-256 as a cache hit does them). Prints min / median / max in
 * microseconds; asserts nothing (figures are measured, not tested).
 *   bench_sandbox KERNEL.so [RUNS] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <nettle/sha2.h>

#include "core/fileio.h"
#include "sandbox.h"
#include "so_check.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void print(const char *what, double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    printf("%-44s min %8.1f  median %8.1f  max %8.1f us  (%d runs)\n", what, v[0], v[n / 2],
           v[n - 1], n);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_sandbox KERNEL.so [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 200;
    if (runs < 3 || runs > 100000)
        runs = 200;
    double *child = calloc((size_t)runs, sizeof *child);
    double *parent = calloc((size_t)runs, sizeof *parent);
    char err[512];
    size_t len = 0;
    unsigned char *so = (unsigned char *)sv_read_regular(argv[1], 64u << 20, "a kernel", false,
                                                         &len, err, sizeof err);
    if (!so || !child || !parent) {
        fprintf(stderr, "bench_sandbox: %s\n", so ? "out of memory" : err);
        return 1;
    }
    for (int k = 0; k < runs; k++) {
        int fd[2];
        if (pipe(fd) != 0)
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            close(fd[0]);
            double t0 = now_us();
            char e[256];
            int rs = sv_sandbox_ruleset_run(e, sizeof e);
            bool ok = sv_sandbox_limits_run(16, 10, 0, true, e, sizeof e) &&
                      (rs < 0 || sv_sandbox_restrict(rs));
            const int fds[] = {fd[1]};
            ok = ok && sv_sandbox_seccomp(SV_SECCOMP_LOAD, fds, 1, e, sizeof e) &&
                 sv_sandbox_seccomp(SV_SECCOMP_RUN, fds, 1, e, sizeof e);
            double us = ok ? now_us() - t0 : -1;
            if (write(fd[1], &us, sizeof us) != (ssize_t)sizeof us) {
                /* the parent sees a short read */
            }
            _exit(0);
        }
        close(fd[1]);
        double us = -1;
        if (read(fd[0], &us, sizeof us) != (ssize_t)sizeof us || us < 0) {
            fprintf(stderr, "bench_sandbox: a child could not put up its walls\n");
            return 1;
        }
        close(fd[0]);
        waitpid(pid, NULL, 0);
        child[k] = us;
        double t0 = now_us();
        struct sha256_ctx c;
        uint8_t d[SHA256_DIGEST_SIZE];
        sha256_init(&c);
        sha256_update(&c, len, so);
        sha256_digest(&c, sizeof d, d);
        if (!sv_rt_so_check(so, len, err, sizeof err)) {
            fprintf(stderr, "bench_sandbox: %s\n", err);
            return 1;
        }
        parent[k] = now_us() - t0;
    }
    printf("walls of a kernel's run, %s (%zu bytes); Landlock ABI %d, seccomp %s\n", argv[1], len,
           sv_sandbox_landlock_abi(), sv_sandbox_seccomp_available() ? "yes" : "no");
    print("child: limits, Landlock, seccomp (2 filters)", child, runs);
    print("parent: SHA-256 and the .so's check", parent, runs);
    free(so);
    free(child);
    free(parent);
    return 0;
}
