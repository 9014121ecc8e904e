/* The child process around every kernel run (runtime.h): sv_runtime_run
 * starts a child, which runs one backend under a time and a memory limit
 * and sends the trace back over a pipe (wire.h), and the parent waits,
 * watches and turns whatever happened (a trace, a signal, silence) into a
 * trace with its failure. The parent never runs the kernel's code.
 *
 * The child is a fresh program, not a bare fork: the caller may have
 * threads (the window: SDL's, the kernel file's worker), and a fork of a
 * threaded process can only call async-signal-safe functions before it
 * execs (under AddressSanitizer one hung in its allocator). So the child
 * forks, and at once execs this same program (/proc/self/exe) with
 * SV_RT_CPU_CHILD_FLAG, the request in a memory file (request.h) and the
 * pipes' descriptors as arguments; a constructor (before main, in any
 * program that links the runtime) reads them and runs the child. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "cpu_compile.h"
#include "request.h"
#include "shipped.h"
#include "wire.h"

#include "../core/error.h"

#define WIRE_MAX ((size_t)512 << 20)
#define SV_RT_CPU_CHILD_FLAG "--sv-rt-child"

/* ---- In the child (its signals and limits: child.c) ------------------------- */

static void child_main(const sv_runtime_request *req, sv_ktrace *t, int fd, int pfd)
{
    sv_rt_child_enter(t, fd, pfd);
    /* the kernel's stray output goes to stderr, never into the parent's stdout */
    dup2(2, 1);
    char err[1024] = "";
    bool ok = req->backend == SV_RUNTIME_GPU ? sv_rt_gpu_run(req, t, err, sizeof err)
                                             : sv_rt_cpu_run(req, t, err, sizeof err);
    struct itimerval off;
    memset(&off, 0, sizeof off);
    setitimer(ITIMER_REAL, &off, NULL);
    if (!ok) {
        t->failure.kind = SV_KFAIL_INTERNAL;
        t->failure.message = err;
    }
    sv_rt_wire_send(fd, t);
    _exit(0);
}

/* ---- In the parent ---------------------------------------------------------- */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static unsigned long long rss_bytes(pid_t pid)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(p, "r");
    unsigned long size = 0, res = 0;
    if (!f)
        return 0;
    if (fscanf(f, "%lu %lu", &size, &res) != 2)
        res = 0;
    fclose(f);
    return (unsigned long long)res * (unsigned long long)sysconf(_SC_PAGESIZE);
}

typedef struct child_out {
    unsigned char *data;
    size_t len;
    bool killed_time, killed_memory, too_big;
    int status;
} child_out;

/* Reads the child's stream until it closes, killing it past the backstop
 * deadline or the resident-size limit. */
static void progress_read(int pfd, const sv_runtime_request *req)
{
    uint32_t rec[2];
    while (read(pfd, rec, sizeof rec) == (ssize_t)sizeof rec)
        if (req->progress)
            req->progress(req->progress_ctx, rec[0], rec[1]);
}

static bool parent_wait(pid_t pid, int fd, int pfd, const sv_runtime_request *req, child_out *o,
                        char *err, size_t errlen)
{
    uint32_t ms = req->time_limit_ms ? req->time_limit_ms : SV_RUNTIME_DEFAULT_TIME_LIMIT_MS;
    uint32_t mb = req->memory_mb ? req->memory_mb : SV_RUNTIME_DEFAULT_MEMORY_MB;
    long long deadline = now_ms() + SV_RT_COMPILE_LIMIT_MS + ms + 2000;
    unsigned long long rss_limit = rss_bytes(getpid()) + ((unsigned long long)mb << 20) +
                                   (64ull << 20);
    size_t cap = 1 << 16;
    o->data = malloc(cap);
    if (!o->data) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    for (;;) {
        struct pollfd p[2] = {{fd, POLLIN, 0}, {pfd, POLLIN, 0}};
        int r = poll(p, pfd >= 0 ? 2 : 1, 20);
        if (r < 0 && errno != EINTR)
            break;
        if (r > 0 && pfd >= 0 && (p[1].revents & POLLIN))
            progress_read(pfd, req);
        if (r > 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            if (o->len == cap && cap >= WIRE_MAX) {
                o->too_big = true; /* (it would block on the pipe for ever) */
                kill(pid, SIGKILL);
                break;
            }
            if (o->len == cap) {
                unsigned char *nd = realloc(o->data, cap * 2);
                if (!nd)
                    break;
                o->data = nd;
                cap *= 2;
            }
            ssize_t k = o->len < cap ? read(fd, o->data + o->len, cap - o->len) : 0;
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                break;
            o->len += (size_t)k;
            continue;
        }
        if (now_ms() > deadline) {
            o->killed_time = true;
            kill(pid, SIGKILL);
            break;
        }
        if (rss_bytes(pid) > rss_limit) {
            o->killed_memory = true;
            kill(pid, SIGKILL);
            break;
        }
    }
    while (waitpid(pid, &o->status, 0) < 0 && errno == EINTR) {
    }
    return true;
}

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool request_valid(const sv_runtime_request *req, char *err, size_t errlen)
{
    if (!req || (!req->source && !req->builtin) || !req->input) {
        sv_errorf(err, errlen, "no kernel source or no input");
        return false;
    }
    if (req->backend != SV_RUNTIME_CPU && req->backend != SV_RUNTIME_GPU) {
        sv_errorf(err, errlen, "unknown runtime backend %d", (int)req->backend);
        return false;
    }
    return true;
}

/* The trace the backend fills: the kernel's name, file, source, schedule,
 * backend and runs set from req. NULL with err. */
static sv_ktrace *trace_for(const sv_runtime_request *req, char *err, size_t errlen)
{
    const char *source = req->source;
    if (!source && req->builtin) {
        const sv_rt_shipped *k = sv_rt_shipped_find(req->builtin);
        if (!k) {
            sv_errorf(err, errlen, "%s: not a shipped kernel of this build", req->builtin);
            return NULL;
        }
        source = k->source;
    }
    if (req->builtin && req->backend == SV_RUNTIME_GPU) {
        /* The GPU backend compiles a kernel file's text (NVRTC); a shipped
         * kernel runs from its ahead-of-time CPU build. */
        sv_errorf(err, errlen, "%s: a shipped kernel runs on the CPU runtime, not the GPU "
                  "runtime", req->builtin);
        return NULL;
    }
    const char *path = req->path ? req->path : req->builtin ? req->builtin : "kernel.cu";
    char name[256];
    snprintf(name, sizeof name, "%s", base_of(path));
    char *dot = strrchr(name, '.');
    if (dot && dot != name)
        *dot = '\0';
    sv_ktrace *t = sv_ktrace_create(name, req->op, req->type, req->scan, req->input, req->n, err,
                                    errlen);
    if (!t)
        return NULL;
    char sched[64];
    size_t srclen = strnlen(source, SV_KTRACE_MAX_SOURCE);
    char *src = malloc(srclen + 1);
    if (!src || !sv_ktrace_set_text(&t->file, path, err, errlen) ||
        (req->backend == SV_RUNTIME_CPU &&
         !sv_ktrace_set_text(&t->schedule, sv_schedule_format(req->schedule, sched, sizeof sched),
                             err, errlen))) {
        if (!src)
            sv_errorf(err, errlen, "out of memory");
        free(src);
        sv_ktrace_destroy(t);
        return NULL;
    }
    memcpy(src, source, srclen);
    src[srclen] = '\0';
    t->source = src;
    t->backend = req->backend == SV_RUNTIME_GPU ? SV_BACKEND_CUDA : SV_BACKEND_CPU;
    t->runs = req->runs ? req->runs : 1;
    return t;
}

/* In the forked child: this program again, as the runtime's child (the
 * constructor below). Async-signal-safe calls only. */
static void exec_child(const char *exe, int reqfd, int fd, int pfd)
{
    char a[3][16];
    int fds[3] = {reqfd, fd, pfd};
    for (int k = 0; k < 3; k++) {
        /* a decimal number without snprintf */
        int v = fds[k], at = 0;
        char rev[16];
        if (v < 0) {
            a[k][0] = '-', a[k][1] = '1', a[k][2] = '\0';
            continue;
        }
        do
            rev[at++] = (char)('0' + v % 10);
        while ((v /= 10) > 0);
        for (int j = 0; j < at; j++)
            a[k][j] = rev[at - 1 - j];
        a[k][at] = '\0';
        if (fds[k] >= 0)
            fcntl(fds[k], F_SETFD, 0); /* kept across the exec */
    }
    char *argv[] = {(char *)exe, (char *)SV_RT_CPU_CHILD_FLAG, a[0], a[1], a[2], NULL};
    execv(exe, argv);
    _exit(127);
}

/* Starts the child on req and reads all it sends into o (o->data owned by
 * the caller). False with err when no child ran. */
static bool run_child(const sv_runtime_request *req, child_out *o, char *err, size_t errlen)
{
    char exe[4096];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int reqfd = memfd_create("sv-rt-request", MFD_CLOEXEC);
    if (el <= 0 || reqfd < 0 || !sv_rt_request_write(reqfd, req) ||
        lseek(reqfd, 0, SEEK_SET) != 0) {
        sv_errorf(err, errlen, "cannot pass the request to the runtime's child: %s",
                  strerror(errno));
        if (reqfd >= 0)
            close(reqfd);
        return false;
    }
    exe[el] = '\0';
    int fd[2], pfd[2] = {-1, -1};
    if (pipe2(fd, O_CLOEXEC) != 0) {
        sv_errorf(err, errlen, "pipe: %s", strerror(errno));
        close(reqfd);
        return false;
    }
    if (req->progress && pipe2(pfd, O_CLOEXEC) == 0) {
        fcntl(pfd[0], F_SETFL, O_NONBLOCK);
        fcntl(pfd[1], F_SETFL, O_NONBLOCK);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        sv_errorf(err, errlen, "fork: %s", strerror(errno));
        close(reqfd);
        close(fd[0]);
        close(fd[1]);
        if (pfd[0] >= 0) {
            close(pfd[0]);
            close(pfd[1]);
        }
        return false;
    }
    if (pid == 0) {
        close(fd[0]);
        if (pfd[0] >= 0)
            close(pfd[0]);
        exec_child(exe, reqfd, fd[1], pfd[1]);
    }
    close(reqfd);
    close(fd[1]);
    if (pfd[1] >= 0)
        close(pfd[1]);
    bool waited = parent_wait(pid, fd[0], pfd[0], req, o, err, errlen);
    if (pfd[0] >= 0) {
        progress_read(pfd[0], req);
        close(pfd[0]);
    }
    close(fd[0]);
    if (!waited)
        return false;
    return true;
}

/* t's failure from how the child ended (o), when nothing or only part of
 * its trace came back; werr: why the stream did not read. False with err
 * when out of memory. */
static bool fail_from_child(sv_ktrace *t, const sv_runtime_request *req, const child_out *o,
                            const char *werr, char *err, size_t errlen)
{
    char msg[512];
    sv_kfail_kind kind = SV_KFAIL_CRASH;
    uint32_t mb = req->memory_mb ? req->memory_mb : SV_RUNTIME_DEFAULT_MEMORY_MB;
    if (o->too_big) {
        kind = SV_KFAIL_INTERNAL;
        snprintf(msg, sizeof msg, "the kernel's trace is larger than %zu MiB", WIRE_MAX >> 20);
    } else if (o->killed_memory) {
        kind = SV_KFAIL_MEMORY;
        snprintf(msg, sizeof msg, "the kernel's process went past its memory limit of %u MiB",
                 (unsigned)mb);
    } else if (o->killed_time) {
        kind = SV_KFAIL_TIME;
        snprintf(msg, sizeof msg, "the kernel's process did not finish in time and was stopped");
    } else if (WIFSIGNALED(o->status)) {
        snprintf(msg, sizeof msg, "the kernel's process was ended by signal %d (%s)",
                 WTERMSIG(o->status), strsignal(WTERMSIG(o->status)));
    } else {
        kind = SV_KFAIL_INTERNAL;
        snprintf(msg, sizeof msg, "the kernel's process ended (status %d) without a trace%s%s",
                 WIFEXITED(o->status) ? WEXITSTATUS(o->status) : -1, werr[0] ? ": " : "", werr);
    }
    return sv_ktrace_fail(t, kind, msg, t->failure.line, t->failure.thread, err, errlen);
}

sv_ktrace *sv_runtime_run(const sv_runtime_request *req, char *err, size_t errlen)
{
    if (!request_valid(req, err, errlen))
        return NULL;
    sv_ktrace *t = trace_for(req, err, errlen);
    if (!t)
        return NULL;
    child_out o;
    memset(&o, 0, sizeof o);
    if (!run_child(req, &o, err, errlen)) {
        free(o.data);
        sv_ktrace_destroy(t);
        return NULL;
    }
    char werr[256] = "";
    bool got = o.len > 0 && sv_rt_wire_recv(o.data, o.len, t, werr, sizeof werr);
    free(o.data);
    if (got && !o.killed_memory && !o.killed_time && !o.too_big)
        return t;
    if (fail_from_child(t, req, &o, werr, err, errlen))
        return t;
    sv_ktrace_destroy(t);
    return NULL;
}

/* Runs first .. of q in one child (each_run), each trace to each(); *next
 * gets the run after an index out of range (the runs after it need a fresh
 * child), else q's runs. False with err when no child ran. */
static bool each_child(const sv_runtime_request *q, uint32_t first, uint32_t *next,
                       bool (*each)(void *ctx, uint32_t run, sv_ktrace *t), void *ctx,
                       char *err, size_t errlen)
{
    uint32_t runs = q->runs ? q->runs : 1;
    sv_runtime_request c = *q; /* run k of random:S / warps:S: seed S + k */
    bool seeded = c.schedule.kind == SV_SCHEDULE_RANDOM || c.schedule.kind == SV_SCHEDULE_WARPS;
    if (seeded)
        c.schedule.seed += first;
    c.runs = runs - first;
    *next = runs;
    child_out o;
    memset(&o, 0, sizeof o);
    if (!run_child(&c, &o, err, errlen)) {
        free(o.data);
        return false;
    }
    bool cut = o.killed_memory || o.killed_time || o.too_big, ok = true;
    size_t at = 0;
    for (uint32_t k = first; k < runs; k++) {
        sv_runtime_request one = c;
        one.schedule.seed = seeded ? q->schedule.seed + k : q->schedule.seed;
        one.runs = 1;
        sv_ktrace *t = trace_for(&one, err, errlen);
        if (!t) {
            ok = false;
            break;
        }
        char werr[256] = "";
        size_t used = 0;
        bool got = at < o.len &&
                   sv_rt_wire_recv_first(o.data + at, o.len - at, &used, t, werr, sizeof werr);
        at += used;
        if (!got && !fail_from_child(t, &c, &o, werr, err, errlen)) {
            sv_ktrace_destroy(t);
            ok = false;
            break;
        }
        sv_kfail_kind kind = t->failure.kind;
        if (!each(ctx, k, t)) /* (t is each's) */
            break;
        if (!got || cut || kind != SV_KFAIL_NONE) {
            if (got && !cut && kind == SV_KFAIL_OUT_OF_RANGE)
                *next = k + 1;
            break;
        }
    }
    free(o.data);
    return ok;
}

bool sv_runtime_run_each(const sv_runtime_request *req,
                         bool (*each)(void *ctx, uint32_t run, sv_ktrace *t), void *ctx,
                         char *err, size_t errlen)
{
    if (!request_valid(req, err, errlen))
        return false;
    sv_runtime_request q = *req;
    q.each_run = true;
    q.backend = SV_RUNTIME_CPU;
    uint32_t runs = q.runs ? q.runs : 1, first = 0;
    while (first < runs) {
        uint32_t next;
        if (!each_child(&q, first, &next, each, ctx, err, errlen))
            return false;
        first = next;
    }
    return true;
}


/* Before main: `PROGRAM --sv-rt-child REQFD FD PFD` is the runtime's child
 * (exec_child): the request from REQFD, the trace to FD, progress to PFD
 * (-1 none). Any other start returns at once. */
__attribute__((constructor)) static void rt_child_main(void)
{
    char args[8192];
    size_t len;
    const char *a1 = sv_rt_start_args(args, sizeof args, &len);
    if (!a1 || strcmp(a1, SV_RT_CPU_CHILD_FLAG) != 0)
        return;
    int fds[3] = {-1, -1, -1};
    const char *a = a1 + strlen(a1) + 1;
    for (int k = 0; k < 3; k++) {
        if (a >= args + len)
            _exit(2);
        fds[k] = atoi(a);
        a += strlen(a) + 1;
    }
    char err[256];
    sv_rt_request_copy rq;
    bool ok = sv_rt_request_read(fds[0], &rq, err, sizeof err);
    close(fds[0]);
    sv_ktrace *t = ok ? trace_for(&rq.req, err, sizeof err) : NULL;
    if (!t)
        _exit(3); /* the parent says "ended without a trace" */
    child_main(&rq.req, t, fds[1], fds[2]);
}

bool sv_runtime_available(sv_runtime_backend b, char *why, size_t whylen)
{
    char path[4096];
    if (b == SV_RUNTIME_CPU)
        return sv_rt_cxx_find(path, sizeof path, why, whylen);
    return sv_rt_gpu_available(why, whylen);
}
