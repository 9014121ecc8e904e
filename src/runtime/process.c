/* The child process around every kernel run (runtime.h), and the walls
 * around it (issue 27): sv_runtime_run prepares the kernel in the caller's
 * process (the source scan's refusals, the sandboxed compile, the check of
 * the .so, the cache: cpu_compile.h), starts a child that runs one backend
 * behind its own walls and sends the trace back over a pipe (wire.h), and
 * waits, watches and turns whatever happened (a trace, a signal, silence)
 * into a trace with its failure. The parent never runs the kernel's code
 * and trusts nothing the child sends.
 *
 * The child is a fresh program, not a bare fork: the caller may have
 * threads (the window: SDL's, the kernel file's worker), and a fork of a
 * threaded process can only call async-signal-safe functions before it
 * execs. So the child forks, and at once, between fork and exec:
 *   - leads a new session (setsid), so that its process group is killed
 *     whole at the deadline and nothing it could start outlives it, and is
 *     killed when the caller's thread that waits for it ends (a grader
 *     killing a check at its deadline kills its runs too);
 *   - takes stdin from /dev/null and stdout and stderr into a pipe the
 *     parent reads (at most SV_KTRACE_MAX_CONSOLE bytes kept, escaped);
 *   - keeps descriptors 3 (the request, a memory file), 4 (the trace's
 *     pipe), 5 (progress) and 6 (the compiled kernel, a sealed memory file)
 *     and closes every other (close_range);
 *   - unblocks every signal (a caller's thread may block SIGALRM) and
 *     execs this same program (/proc/self/exe) with SV_RT_CPU_CHILD_FLAG
 *     and an environment of only what the dynamic loader and the
 *     sanitizers need (LD_LIBRARY_PATH, ASAN_OPTIONS, ...; the GPU child
 *     the CUDA_ ones too).
 * A constructor (before main, in any program that links the runtime) takes
 * that start: every signal to its default, the environment cleared, a
 * fresh empty working folder (made, entered and removed, so nothing can be
 * created in it), then the backend, which puts up the rest of the walls
 * before the kernel's first instruction (cpu_exec.cc: limits, Landlock,
 * seccomp; gpu_run.c: the GPU's). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backend.h"
#include "cpu_compile.h"
#include "request.h"
#include "sandbox.h"
#include "shipped.h"
#include "source_scan.h"
#include "wire.h"

#include "../core/error.h"
#include "../core/escape.h"

#define WIRE_MAX ((size_t)512 << 20)
#define SV_RT_CPU_CHILD_FLAG "--sv-rt-child"
/* The descriptors the child has (exec_child). */
#define CHILD_REQ_FD 3
#define CHILD_WIRE_FD 4
#define CHILD_PROGRESS_FD 5
#define CHILD_SO_FD 6

/* ---- In the child (its signals and limits: child.c) ------------------------- */

static void child_main(const sv_runtime_request *req, const sv_rt_prep *prep, sv_ktrace *t,
                       int fd, int pfd)
{
    sv_rt_wire_set_key(prep->key);
    sv_rt_child_enter(t, fd, pfd);
    char err[1024] = "";
    bool ok = req->backend == SV_RUNTIME_GPU ? sv_rt_gpu_run(req, t, err, sizeof err)
                                             : sv_rt_cpu_run(req, prep, CHILD_SO_FD, t, err,
                                                             sizeof err);
    struct itimerval off;
    memset(&off, 0, sizeof off);
    setitimer(ITIMER_REAL, &off, NULL);
    if (!ok) {
        t->failure.kind = SV_KFAIL_INTERNAL;
        t->failure.message = err;
    }
    sv_rt_wire_send(fd, t);
    sv_rt_child_exit(0);
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
    char *console;  /* its stdout and stderr, at most SV_KTRACE_MAX_CONSOLE bytes */
    size_t console_len;
    bool console_cut;
    bool killed_time, killed_memory, too_big;
    int status;
} child_out;

/* What the parent prepared for one run: the compiled kernel (CPU kernel
 * files), its names and the run's key. */
typedef struct prepared {
    sv_rt_prep prep;
    sv_rt_built built;
    char entry[SV_SCAN_NAME];
    char dyn[SV_SCAN_NAME];
} prepared;

/* Reads the progress records there are (the pipe is non-blocking). */
static void progress_read(int pfd, const sv_runtime_request *req)
{
    uint32_t rec[4]; /* child.c's: {0, done, runs, 0} or {1, launch, ended, grid} */
    while (read(pfd, rec, sizeof rec) == (ssize_t)sizeof rec)
        if (rec[0] == 1 && rec[1] > 0 && rec[2] <= rec[3]) {
            if (req->launched)
                req->launched(req->progress_ctx, rec[1], rec[2], rec[3]);
        } else if (rec[0] == 0 && req->progress && rec[2] > 0 && rec[1] <= rec[2]) {
            req->progress(req->progress_ctx, rec[1], rec[2]);
        }
}

/* Reads what fd holds now into o's trace stream; false at its end. */
static bool wire_take(int fd, pid_t pid, child_out *o, size_t *cap)
{
    for (;;) {
        if (o->len == *cap && *cap >= WIRE_MAX) {
            o->too_big = true; /* (it would block on the pipe for ever) */
            kill(-pid, SIGKILL);
            return false;
        }
        if (o->len == *cap) {
            unsigned char *nd = realloc(o->data, *cap * 2);
            if (!nd)
                return false;
            o->data = nd;
            *cap *= 2;
        }
        ssize_t k = read(fd, o->data + o->len, *cap - o->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno == EAGAIN)
            return true;
        if (k <= 0)
            return false;
        o->len += (size_t)k;
    }
}

/* What the parent keeps of the console (the kernel's printf records among
 * it): the first MiB; the trace keeps the prints and SV_KTRACE_MAX_CONSOLE
 * bytes of the rest. */
#define CONSOLE_RAW ((size_t)1 << 20)

/* Reads what the console pipe holds now: the first bytes kept, the rest
 * dropped; false at its end. */
static bool console_take(int cfd, child_out *o)
{
    char buf[4096];
    for (;;) {
        ssize_t k = read(cfd, buf, sizeof buf);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && errno == EAGAIN)
            return true;
        if (k <= 0)
            return false;
        size_t room = CONSOLE_RAW - o->console_len;
        size_t take = (size_t)k < room ? (size_t)k : room;
        if (take && o->console) {
            memcpy(o->console + o->console_len, buf, take);
            o->console_len += take;
        }
        if (take < (size_t)k)
            o->console_cut = true;
    }
}

/* How long the parent waits for the child at most: the time limit, with
 * room for the child's start and, on the GPU, NVRTC and the context. */
static long long backstop_ms(const sv_runtime_request *req)
{
    uint32_t ms = sv_runtime_time_limit_ms(req);
    return (long long)ms + (req->backend == SV_RUNTIME_GPU ? SV_RT_GPU_SETUP_MS : 1000) +
           (req->racecheck ? 300000 : 0);
}

/* Reads the child's streams until it has ended and they are drained,
 * killing its process group past the backstop deadline (checked on every
 * turn, however busy the pipes) or past the resident-size limit. */
static bool parent_wait(pid_t pid, int fd, int pfd, int cfd, const sv_runtime_request *req,
                        child_out *o, char *err, size_t errlen)
{
    uint32_t mb = req->memory_mb ? req->memory_mb : SV_RUNTIME_DEFAULT_MEMORY_MB;
    long long deadline = now_ms() + backstop_ms(req), next_rss = 0;
    unsigned long long rss_limit = rss_bytes(getpid()) + ((unsigned long long)mb << 20) +
                                   (64ull << 20);
    size_t cap = 1 << 16;
    o->data = malloc(cap);
    o->console = malloc(CONSOLE_RAW);
    if (!o->data) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    fcntl(fd, F_SETFL, O_NONBLOCK);
    fcntl(cfd, F_SETFL, O_NONBLOCK);
    bool wire_open = true, console_open = true, reaped = false;
    while (wire_open || console_open) {
        struct pollfd p[3] = {{fd, POLLIN, 0}, {cfd, POLLIN, 0}, {pfd, POLLIN, 0}};
        int r = poll(p, pfd >= 0 ? 3 : 2, 20);
        if (r < 0 && errno != EINTR)
            break;
        if (pfd >= 0 && (p[2].revents & POLLIN))
            progress_read(pfd, req);
        if (wire_open && (p[0].revents & (POLLIN | POLLHUP | POLLERR)))
            wire_open = wire_take(fd, pid, o, &cap);
        if (console_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR)))
            console_open = console_take(cfd, o);
        if (o->too_big)
            break;
        long long now = now_ms();
        if (now > deadline) {
            o->killed_time = true;
            kill(-pid, SIGKILL);
            break;
        }
        if (now >= next_rss) {
            next_rss = now + 20;
            if (rss_bytes(pid) > rss_limit) {
                o->killed_memory = true;
                kill(-pid, SIGKILL);
                break;
            }
        }
        if (!reaped && waitpid(pid, &o->status, WNOHANG) == pid) {
            /* it has ended: what it wrote is in the pipes; nothing else may
             * hold them open */
            reaped = true;
            kill(-pid, SIGKILL);
            if (wire_open)
                wire_take(fd, pid, o, &cap);
            if (console_open)
                console_take(cfd, o);
            break;
        }
    }
    kill(-pid, SIGKILL);
    while (!reaped && waitpid(pid, &o->status, 0) < 0 && errno == EINTR) {
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
    t->output_round = req->output_round > 0 ? req->output_round : 0;
    const char *missing = sv_sandbox_missing();
    if (missing[0] && !sv_ktrace_set_text(&t->sandbox, missing, err, errlen)) {
        sv_ktrace_destroy(t);
        return NULL;
    }
    return t;
}

/* Layers 1 to 3 in the caller's process: the source scan's refusals and
 * the contract (both backends), and on the CPU the sandboxed compile and
 * the .so's check (cpu_compile.h). A kernel refused is t's failure and
 * *ready false; false with err only when the runtime itself failed. */
static bool prepare(const sv_runtime_request *req, sv_ktrace *t, prepared *pr, bool *ready,
                    char *err, size_t errlen)
{
    memset(pr, 0, sizeof *pr);
    *ready = false;
    if (getrandom(pr->prep.key, sizeof pr->prep.key, 0) != (ssize_t)sizeof pr->prep.key) {
        sv_errorf(err, errlen, "getrandom: %s", strerror(errno));
        return false;
    }
    if (req->builtin && req->n > SV_MAX_N) {
        sv_errorf(err, errlen, "n = %zu: the shipped kernels run as one block, n <= %d", req->n,
                  SV_MAX_N);
        return false;
    }
    if (req->builtin) {
        *ready = true;
        return true;
    }
    const char *path = req->path ? req->path : "kernel.cu";
    sv_source_scan *scan = malloc(sizeof *scan);
    char msg[2048];
    if (!scan) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    sv_kfail_kind kind;
    int line = 0;
    char *text = NULL, *messages = NULL;
    if (!sv_source_scan_text(req->source, path, scan, &kind, &line, msg, sizeof msg)) {
        ok = sv_ktrace_fail(t, kind, msg, line, -1, err, errlen);
        goto done;
    }
    if (!sv_source_check_entry(scan, req->entry, req->type, &line, msg, sizeof msg)) {
        ok = sv_ktrace_fail(t, SV_KFAIL_SIGNATURE, msg, line, -1, err, errlen);
        goto done;
    }
    if (scan->entry != SV_SCAN_ENTRY_HOST && req->n > SV_MAX_N) {
        char words[400];
        snprintf(words, sizeof words, "n = %zu: a kernel file without a host function scan runs "
                 "as one block of n threads, n <= %d (a host function scan launches many "
                 "blocks: the user guide's \"Many blocks\")", req->n, SV_MAX_N);
        ok = sv_ktrace_fail(t, SV_KFAIL_SIGNATURE, words, 0, -1, err, errlen);
        goto done;
    }
    if (scan->entry == SV_SCAN_ENTRY_HOST && req->backend == SV_RUNTIME_GPU && !req->plan) {
        ok = sv_ktrace_fail(t, SV_KFAIL_UNAVAILABLE,
                            "a kernel file with a host function scan runs on the GPU one run at "
                            "a time (each run's launches made by the CPU runtime first): many "
                            "runs of it on the GPU are not yet",
                            scan->host.line, -1, err, errlen);
        goto done;
    }
    snprintf(pr->entry, sizeof pr->entry, "%s", sv_source_entry(scan)->name);
    pr->prep.entry = pr->entry;
    if (!sv_ktrace_set_text(&t->entry, pr->entry, err, errlen)) {
        ok = false;
        goto done;
    }
    if (req->backend == SV_RUNTIME_GPU) { /* NVRTC compiles it in the child */
        *ready = true;
        goto done;
    }
    for (size_t i = 0; i < scan->nshared; i++)
        if (scan->shared[i].is_extern) {
            snprintf(pr->dyn, sizeof pr->dyn, "%s", scan->shared[i].name);
            pr->prep.dyn = pr->dyn;
            break;
        }
    text = sv_source_cpu_text(scan, req->source, path, req->type);
    if (!text) {
        sv_errorf(err, errlen, "out of memory");
        ok = false;
        goto done;
    }
    bool cached;
    if (!sv_rt_cpu_compile(text, path, &pr->built, &cached, &kind, &line, &messages, msg,
                           sizeof msg)) {
        ok = sv_ktrace_fail(t, kind, messages ? messages : msg, line, -1, err, errlen);
        goto done;
    }
    pr->prep.lines = pr->built.lines;
    *ready = true;
done:
    free(messages);
    free(text);
    free(scan);
    return ok;
}

/* A sealed memory file holding bytes (the compiled kernel): the child maps
 * it and nobody can change it after. -1 with err. */
static int sealed_file(const unsigned char *bytes, size_t len, char *err, size_t errlen)
{
    int fd = memfd_create("scanviz-kernel", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) {
        sv_errorf(err, errlen, "memfd_create: %s", strerror(errno));
        return -1;
    }
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, bytes + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            sv_errorf(err, errlen, "writing the kernel: %s", strerror(errno));
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    if (fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0) {
        sv_errorf(err, errlen, "sealing the kernel: %s", strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* The child's environment: only what its loader and sanitizers read (and
 * on the GPU, CUDA's own settings). envp points into store. */
static void child_env(bool gpu, char **envp, size_t max, char *store, size_t cap)
{
    static const char *const keep[] = {"LD_LIBRARY_PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS",
                                       "LSAN_OPTIONS", NULL};
    extern char **environ;
    size_t n = 0, used = 0;
    /* the GPU's child runs no code of the kernel's on this machine, and
     * --racecheck starts compute-sanitizer from it, which needs its PATH,
     * HOME and TMPDIR */
    static const char *const keep_gpu[] = {"PATH", "HOME", "TMPDIR", NULL};
    for (char **e = environ; e && *e && n + 2 < max; e++) {
        bool take = gpu && strncmp(*e, "CUDA_", 5) == 0;
        for (size_t k = 0; gpu && keep_gpu[k] && !take; k++) {
            size_t l = strlen(keep_gpu[k]);
            take = strncmp(*e, keep_gpu[k], l) == 0 && (*e)[l] == '=';
        }
        for (size_t k = 0; keep[k] && !take; k++) {
            size_t l = strlen(keep[k]);
            take = strncmp(*e, keep[k], l) == 0 && (*e)[l] == '=';
        }
        size_t l = strlen(*e) + 1;
        if (take && used + l <= cap) {
            memcpy(store + used, *e, l);
            envp[n++] = store + used;
            used += l;
        }
    }
    if (gpu && n + 2 < max && used + 32 <= cap) { /* no JIT cache written anywhere */
        memcpy(store + used, "CUDA_CACHE_DISABLE=1", 21);
        envp[n++] = store + used;
        used += 21;
    }
    envp[n] = NULL;
}

/* In the forked child: the fds moved to their places, everything else
 * closed, signals unblocked, this program again (the constructor below).
 * Async-signal-safe calls only. */
static void exec_child(const char *exe, char **envp, int nul, int cfd, const int *fds,
                       pid_t parent)
{
    setsid();
    /* ended with the caller's thread that waits for it, whatever ends that */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    dup2(nul, 0);
    dup2(cfd, 1);
    dup2(cfd, 2);
    /* fds[k] -> 3 + k: first out of the way (above any of 3..6), then down */
    int high[4];
    for (int k = 0; k < 4; k++)
        high[k] = fds[k] >= 0 ? fcntl(fds[k], F_DUPFD_CLOEXEC, 64) : -1;
    for (int k = 0; k < 4; k++)
        if (high[k] >= 0)
            dup2(high[k], 3 + k); /* (dup2 clears close-on-exec on the copy) */
    close_range(3 + 4, ~0U, 0);
    for (int k = 0; k < 4; k++)
        if (high[k] < 0)
            close(3 + k);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    char *argv[] = {(char *)exe, (char *)SV_RT_CPU_CHILD_FLAG, NULL};
    execve(exe, argv, envp);
    _exit(127);
}

/* Starts the child on req and reads all it sends into o (o->data owned by
 * the caller). False with err when no child ran. */
static bool run_child(const sv_runtime_request *req, const prepared *pr, child_out *o, char *err,
                      size_t errlen)
{
    char exe[4096];
    ssize_t el = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int reqfd = memfd_create("sv-rt-request", MFD_CLOEXEC);
    if (el <= 0 || reqfd < 0 || !sv_rt_request_write(reqfd, req, &pr->prep) ||
        lseek(reqfd, 0, SEEK_SET) != 0) {
        sv_errorf(err, errlen, "cannot pass the request to the runtime's child: %s",
                  strerror(errno));
        if (reqfd >= 0)
            close(reqfd);
        return false;
    }
    exe[el] = '\0';
    int sofd = -1;
    if (pr->built.so && (sofd = sealed_file(pr->built.so, pr->built.so_len, err, errlen)) < 0) {
        close(reqfd);
        return false;
    }
    int fd[2] = {-1, -1}, pfd[2] = {-1, -1}, cfd[2] = {-1, -1};
    int nul = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (nul < 0 || pipe2(fd, O_CLOEXEC) != 0 || pipe2(cfd, O_CLOEXEC) != 0) {
        sv_errorf(err, errlen, "pipe: %s", strerror(errno));
        goto fail;
    }
    if (pipe2(pfd, O_CLOEXEC) == 0) {
        fcntl(pfd[0], F_SETFL, O_NONBLOCK);
        fcntl(pfd[1], F_SETFL, O_NONBLOCK);
    }
    char *envp[32], store[16384];
    child_env(req->backend == SV_RUNTIME_GPU, envp, sizeof envp / sizeof *envp, store,
              sizeof store);
    fflush(NULL);
    pid_t me = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        sv_errorf(err, errlen, "fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        int fds[4] = {reqfd, fd[1], pfd[1], sofd};
        exec_child(exe, envp, nul, cfd[1], fds, me);
    }
    setpgid(pid, pid); /* (the child's setsid makes it so too; whichever runs first) */
    close(reqfd);
    close(nul);
    if (sofd >= 0)
        close(sofd);
    close(fd[1]);
    close(cfd[1]);
    if (pfd[1] >= 0)
        close(pfd[1]);
    bool waited = parent_wait(pid, fd[0], pfd[0], cfd[0], req, o, err, errlen);
    if (pfd[0] >= 0) {
        progress_read(pfd[0], req);
        close(pfd[0]);
    }
    close(fd[0]);
    close(cfd[0]);
    return waited;
fail:
    close(reqfd);
    if (sofd >= 0)
        close(sofd);
    if (nul >= 0)
        close(nul);
    for (int k = 0; k < 2; k++) {
        if (fd[k] >= 0)
            close(fd[k]);
        if (cfd[k] >= 0)
            close(cfd[k]);
        if (pfd[k] >= 0)
            close(pfd[k]);
    }
    return false;
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
    uint32_t ms = sv_runtime_time_limit_ms(req);
    if (o->too_big) {
        kind = SV_KFAIL_INTERNAL;
        snprintf(msg, sizeof msg, "the kernel's trace is larger than %zu MiB", WIRE_MAX >> 20);
    } else if (o->killed_memory) {
        kind = SV_KFAIL_MEMORY;
        snprintf(msg, sizeof msg, "the kernel's process went past its memory limit of %u MiB",
                 (unsigned)mb);
    } else if (o->killed_time) {
        kind = SV_KFAIL_TIME;
        snprintf(msg, sizeof msg, "the kernel ran past its time limit of %u ms and its process "
                 "was stopped", (unsigned)ms);
    } else if (WIFSIGNALED(o->status) && WTERMSIG(o->status) == SIGSYS) {
        kind = SV_KFAIL_SYSCALL;
        snprintf(msg, sizeof msg, "the kernel made a system call that a kernel cannot make "
                 "(its process was ended by SIGSYS)");
    } else if (WIFSIGNALED(o->status) && WTERMSIG(o->status) == SIGXCPU) {
        kind = SV_KFAIL_TIME;
        snprintf(msg, sizeof msg, "the kernel's process went past its CPU time limit");
    } else if (WIFSIGNALED(o->status)) {
        snprintf(msg, sizeof msg, "the kernel's process was ended by signal %d (%s)",
                 WTERMSIG(o->status), strsignal(WTERMSIG(o->status)));
    } else {
        kind = SV_KFAIL_INTERNAL;
        snprintf(msg, sizeof msg, "the kernel's process ended (status %d) without a trace%s%s",
                 WIFEXITED(o->status) ? WEXITSTATUS(o->status) : -1, werr[0] ? ": " : "", werr);
    }
    return sv_ktrace_fail(t, kind, msg, 0, -1, err, errlen);
}

/* One decimal field of a printf record, followed by `end`: false when it
 * is anything else (the record is then console text). */
static bool record_u32(const char **p, const char *lim, char end, uint32_t *out)
{
    uint64_t v = 0;
    const char *s = *p;
    while (s < lim && *s >= '0' && *s <= '9' && s - *p < 10)
        v = v * 10 + (uint64_t)(*s++ - '0');
    if (s == *p || s >= lim || *s != end || v > INT32_MAX)
        return false;
    *out = (uint32_t)v;
    *p = s + 1;
    return true;
}

/* The kernel's printf calls in the raw console, as both runtimes write them
 * ("\x1esv RUN THREAD STEP LINE\x1f" TEXT "\x1d": cuda_cpu.h's hook,
 * gpu_prelude.h's printf), run `run`'s into t->prints (escaped, one
 * trailing newline dropped, at most SV_KTRACE_MAX_PRINT bytes; a thread
 * past n or a step past the limit is no record), ordered by step and
 * thread; whatever is not a record is copied to rest (*restlen bytes). The
 * child's words are trusted in nothing but their bounds. */
static bool prints_take(sv_ktrace *t, uint32_t run, const char *raw, size_t len, char *rest,
                        size_t *restlen, char *err, size_t errlen)
{
    static const char head[] = "\x1esv ";
    const char *p = raw, *lim = raw + len;
    size_t used = 0;
    char text[SV_KTRACE_MAX_PRINT + 1], esc[4 * SV_KTRACE_MAX_PRINT + 8];
    while (p < lim) {
        const char *q = memmem(p, (size_t)(lim - p), head, sizeof head - 1);
        const char *stop = q ? q : lim;
        memcpy(rest + used, p, (size_t)(stop - p));
        used += (size_t)(stop - p);
        if (!q)
            break;
        const char *s = q + sizeof head - 1;
        uint32_t r, th, st, line;
        if (!record_u32(&s, lim, ' ', &r) || !record_u32(&s, lim, ' ', &th) ||
            !record_u32(&s, lim, ' ', &st) || !record_u32(&s, lim, '\x1f', &line)) {
            rest[used++] = *q; /* not a record: its bytes are console text */
            p = q + 1;
            continue;
        }
        const char *e = memchr(s, '\x1d', (size_t)(lim - s));
        const char *tend = e ? e : lim;
        size_t tl = (size_t)(tend - s) < SV_KTRACE_MAX_PRINT ? (size_t)(tend - s)
                                                              : SV_KTRACE_MAX_PRINT;
        memcpy(text, s, tl);
        if (tl > 0 && text[tl - 1] == '\n')
            tl--;
        text[tl] = '\0';
        sv_escape_n(text, tl, esc, sizeof esc);
        if (r == run && th < t->n && st <= SV_KTRACE_MAX_STEPS &&
            !sv_ktrace_add_print(t, th, st, (int32_t)line, esc, err, errlen))
            return false;
        p = e ? e + 1 : lim;
    }
    *restlen = used;
    sv_ktrace_sort_prints(t);
    return true;
}

/* The child's words on a failure it sent: a system call named (the child
 * sends its number), the console kept, escaped, its printf records taken
 * out (run `run`'s, the trace's prints). */
static bool finish_from_child(sv_ktrace *t, const child_out *o, uint32_t run, char *err,
                              size_t errlen)
{
    sv_kfailure *f = &t->failure;
    if (f->kind == SV_KFAIL_SYSCALL) {
        char name[64], msg[512], where[96] = "";
        sv_sandbox_syscall_name((int)f->index, name, sizeof name);
        if (f->thread >= 0 && f->line > 0)
            snprintf(where, sizeof where, ", in thread %d at line %d", (int)f->thread,
                     (int)f->line);
        else if (f->thread >= 0)
            snprintf(where, sizeof where, ", in thread %d", (int)f->thread);
        snprintf(msg, sizeof msg, "the kernel made a system call (`%s`) that a kernel cannot "
                 "make%s", name, where);
        if (!sv_ktrace_set_text(&f->message, msg, err, errlen))
            return false;
    }
    if (o->console && o->console_len > 0) {
        char *rest = malloc(o->console_len);
        size_t rl = 0;
        if (!rest) {
            sv_errorf(err, errlen, "out of memory");
            return false;
        }
        if (!prints_take(t, run, o->console, o->console_len, rest, &rl, err, errlen)) {
            free(rest);
            return false;
        }
        bool cut = o->console_cut || rl > SV_KTRACE_MAX_CONSOLE;
        rl = rl < SV_KTRACE_MAX_CONSOLE ? rl : SV_KTRACE_MAX_CONSOLE;
        char *esc = rl ? malloc(4 * rl + 64) : NULL;
        if (rl && !esc) {
            free(rest);
            sv_errorf(err, errlen, "out of memory");
            return false;
        }
        if (esc) {
            sv_escape_n(rest, rl, esc, 4 * rl + 1);
            if (cut)
                strcat(esc, " [... cut at 64 KiB]");
        }
        free(rest);
        free(t->console);
        t->console = esc;
    }
    return true;
}

/* A trace for the failure of a run whose stream did not read: the one
 * made before it was read (req's), the partial read dropped. */
static sv_ktrace *fresh_failure(sv_ktrace *t, const sv_runtime_request *req, const child_out *o,
                                const char *werr, char *err, size_t errlen)
{
    sv_ktrace *f = trace_for(req, err, errlen);
    if (!f)
        return NULL;
    if (t->entry && !sv_ktrace_set_text(&f->entry, t->entry, err, errlen)) {
        sv_ktrace_destroy(f);
        return NULL;
    }
    f->arrays = calloc(SV_KTRACE_MAX_ARRAYS, sizeof *f->arrays);
    if (!f->arrays || !fail_from_child(f, req, o, werr, err, errlen) ||
        !finish_from_child(f, o, 0, err, errlen)) {
        sv_ktrace_destroy(f);
        return NULL;
    }
    return f;
}

/* One child's run of what pr holds, into t (req's trace); NULL with err. */
static sv_ktrace *run_prepared(const sv_runtime_request *req, sv_ktrace *t, prepared *pr,
                               char *err, size_t errlen)
{
    child_out o;
    memset(&o, 0, sizeof o);
    bool ran = run_child(req, pr, &o, err, errlen);
    sv_rt_built_free(&pr->built);
    if (!ran) {
        free(o.data);
        free(o.console);
        sv_ktrace_destroy(t);
        return NULL;
    }
    char werr[256] = "";
    bool got = o.len > 0 && sv_rt_wire_recv(o.data, o.len, pr->prep.key, t, werr, sizeof werr);
    sv_ktrace *r = t;
    if (got && !o.killed_memory && !o.killed_time && !o.too_big) {
        if (!finish_from_child(t, &o, t->shown_run, err, errlen))
            r = NULL;
    } else {
        r = fresh_failure(t, req, &o, werr, err, errlen);
    }
    free(o.data);
    free(o.console);
    if (r != t)
        sv_ktrace_destroy(t);
    return r;
}

bool sv_runtime_file_launches(const char *source)
{
    if (!source)
        return false;
    sv_source_scan *scan = malloc(sizeof *scan);
    char msg[512];
    sv_kfail_kind kind;
    int line;
    bool host = scan && sv_source_scan_text(source, "kernel.cu", scan, &kind, &line, msg,
                                            sizeof msg) && scan->has_host;
    free(scan);
    return host;
}

/* A host function's file on the CPU runtime with runs > 1 (issue 31): run
 * k is a child of its own under the schedule's seed S + k (the engine of
 * many blocks runs the host function once a child). The trace is the first
 * wrong or failed run's (else run 0's), with the runs made, the wrong ones
 * and the one shown; no cell-by-cell counts. A failure that no schedule
 * changes (it does not compile, it is refused) ends the runs. */
static sv_ktrace *host_runs(const sv_runtime_request *req, char *err, size_t errlen)
{
    sv_runtime_request c = *req;
    c.runs = 1;
    sv_ktrace *keep = NULL;
    bool keep_wrong = false;
    uint32_t made = 0, wrong = 0, shown = 0;
    for (uint32_t k = 0; k < req->runs; k++) {
        c.schedule = req->schedule;
        if (c.schedule.kind == SV_SCHEDULE_RANDOM || c.schedule.kind == SV_SCHEDULE_WARPS)
            c.schedule.seed += k;
        sv_ktrace *t = sv_runtime_run(&c, err, errlen);
        if (!t) {
            sv_ktrace_destroy(keep);
            return NULL;
        }
        made++;
        const sv_kfail_kind f = t->failure.kind;
        const bool w = f != SV_KFAIL_NONE || t->wrong_runs > 0;
        wrong += w;
        if (!keep || (w && !keep_wrong)) {
            sv_ktrace_destroy(keep);
            keep = t;
            keep_wrong = w;
            shown = k;
        } else {
            sv_ktrace_destroy(t);
        }
        if (req->progress)
            req->progress(req->progress_ctx, made, req->runs);
        if (f == SV_KFAIL_COMPILE || f == SV_KFAIL_REFUSED || f == SV_KFAIL_INTERNAL)
            break;
    }
    char sched[64];
    keep->runs = made;
    keep->wrong_runs = wrong;
    keep->shown_run = shown;
    if (!sv_ktrace_set_text(&keep->schedule, sv_schedule_format(req->schedule, sched,
                                                                sizeof sched), err, errlen)) {
        sv_ktrace_destroy(keep);
        return NULL;
    }
    return keep;
}

sv_ktrace *sv_runtime_run(const sv_runtime_request *req, char *err, size_t errlen)
{
    if (!request_valid(req, err, errlen))
        return NULL;
    if (req->backend == SV_RUNTIME_CPU && req->runs > 1 && !req->each_run && !req->builtin &&
        !req->plan && sv_runtime_file_launches(req->source))
        return host_runs(req, err, errlen);
    if (req->backend == SV_RUNTIME_GPU && !req->plan && !req->builtin &&
        sv_runtime_file_launches(req->source)) {
        /* A host function's launches on the GPU (issue 31): the CPU runtime
         * runs the file once (its host function decides the launches from n
         * alone: it cannot read device memory), then the GPU replays them */
        sv_runtime_request c = *req;
        c.backend = SV_RUNTIME_CPU;
        c.runs = 1;
        c.each_run = c.shake = c.racecheck = false;
        c.schedule = (sv_schedule){SV_SCHEDULE_SEQUENTIAL, 1};
        c.progress = NULL;
        sv_ktrace *cpu = sv_runtime_run(&c, err, errlen);
        if (!cpu || cpu->failure.kind != SV_KFAIL_NONE || !cpu->plan)
            return cpu; /* it says why (it failed, or was refused, on the CPU) */
        sv_runtime_request g = *req;
        g.plan = cpu->plan;
        sv_ktrace *t = sv_runtime_run(&g, err, errlen);
        sv_ktrace_destroy(cpu);
        return t;
    }
    sv_ktrace *t = trace_for(req, err, errlen);
    if (!t)
        return NULL;
    prepared pr;
    bool ready = false;
    if (!prepare(req, t, &pr, &ready, err, errlen)) {
        sv_rt_built_free(&pr.built);
        sv_ktrace_destroy(t);
        return NULL;
    }
    if (!ready) { /* refused before it ran */
        sv_rt_built_free(&pr.built);
        return t;
    }
    return run_prepared(req, t, &pr, err, errlen);
}

sv_ktrace *sv_rt_run_object(const sv_runtime_request *req, const unsigned char *so, size_t len,
                            const char *lines, const char *entry, const char *dyn, char *err,
                            size_t errlen)
{
    if (!request_valid(req, err, errlen) || req->backend != SV_RUNTIME_CPU || req->builtin)
        return NULL;
    sv_ktrace *t = trace_for(req, err, errlen);
    if (!t)
        return NULL;
    prepared pr;
    memset(&pr, 0, sizeof pr);
    pr.built.so = malloc(len);
    pr.built.lines = strdup(lines ? lines : "");
    if (!pr.built.so || !pr.built.lines ||
        getrandom(pr.prep.key, sizeof pr.prep.key, 0) != (ssize_t)sizeof pr.prep.key) {
        sv_rt_built_free(&pr.built);
        sv_ktrace_destroy(t);
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    memcpy(pr.built.so, so, len);
    pr.built.so_len = len;
    pr.prep.lines = pr.built.lines;
    snprintf(pr.entry, sizeof pr.entry, "%s", entry ? entry : "scan");
    pr.prep.entry = pr.entry;
    if (dyn) {
        snprintf(pr.dyn, sizeof pr.dyn, "%s", dyn);
        pr.prep.dyn = pr.dyn;
    }
    return run_prepared(req, t, &pr, err, errlen);
}

/* Runs first .. of q in one child (each_run), each trace to each(); *next
 * gets the run after an index out of range (the runs after it need a fresh
 * child), else q's runs. False with err when no child ran. */
static bool each_child(const sv_runtime_request *q, const prepared *pr, uint32_t first,
                       uint32_t *next, bool (*each)(void *ctx, uint32_t run, sv_ktrace *t),
                       void *ctx, char *err, size_t errlen)
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
    if (!run_child(&c, pr, &o, err, errlen)) {
        free(o.data);
        free(o.console);
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
        bool got = at < o.len && sv_rt_wire_recv_first(o.data + at, o.len - at, pr->prep.key,
                                                       &used, t, werr, sizeof werr);
        at += used;
        if (!got) {
            sv_ktrace *f = fresh_failure(t, &one, &o, werr, err, errlen);
            sv_ktrace_destroy(t);
            t = f;
            if (!t) {
                ok = false;
                break;
            }
        } else if (!finish_from_child(t, &o, k - first, err, errlen)) {
            sv_ktrace_destroy(t);
            ok = false;
            break;
        }
        sv_kfail_kind kind = t->failure.kind;
        /* the GPU's child ran every run before it sends any: a write past
         * out[] it found in a run's guard cells (the failure names the cell)
         * is that run's, and the runs after it follow in the stream (an
         * illegal address, which names none, ended them all) */
        bool gpu_more = q->backend == SV_RUNTIME_GPU && kind == SV_KFAIL_OUT_OF_RANGE &&
                        t->failure.array >= 0;
        if (!each(ctx, k, t)) /* (t is each's) */
            break;
        if (got && !cut && gpu_more)
            continue;
        if (!got || cut || kind != SV_KFAIL_NONE) {
            if (got && !cut && kind == SV_KFAIL_OUT_OF_RANGE)
                *next = k + 1;
            break;
        }
    }
    free(o.data);
    free(o.console);
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
    prepared pr;
    bool ready = false;
    sv_ktrace *t = trace_for(&q, err, errlen);
    if (!t)
        return false;
    if (!prepare(&q, t, &pr, &ready, err, errlen)) {
        sv_rt_built_free(&pr.built);
        sv_ktrace_destroy(t);
        return false;
    }
    if (!ready) { /* refused: that is the one run's trace */
        sv_rt_built_free(&pr.built);
        each(ctx, 0, t);
        return true;
    }
    sv_ktrace_destroy(t);
    uint32_t runs = q.runs ? q.runs : 1, first = 0;
    bool ok = true;
    while (ok && first < runs) {
        uint32_t next;
        ok = each_child(&q, &pr, first, &next, each, ctx, err, errlen);
        first = next;
    }
    sv_rt_built_free(&pr.built);
    return ok;
}

/* Whether this process is the runtime's child (the backends ask: the GPU's
 * child uses CUDA itself, as a fresh program). */
bool sv_rt_in_child;

/* Before main: `PROGRAM --sv-rt-child` is the runtime's child (exec_child):
 * the request from fd 3, the trace to fd 4, progress to fd 5, the compiled
 * kernel on fd 6. Any other start returns at once. */
__attribute__((constructor)) static void rt_child_main(void)
{
    char args[8192];
    size_t len;
    const char *a1 = sv_rt_start_args(args, sizeof args, &len);
    if (!a1 || strcmp(a1, SV_RT_CPU_CHILD_FLAG) != 0)
        return;
    sv_rt_in_child = true;
    /* every signal to its default (an ignored SIGALRM stays ignored across exec) */
    for (int s = 1; s < NSIG; s++)
        if (s != SIGKILL && s != SIGSTOP)
            signal(s, SIG_DFL);
    char err[256];
    sv_rt_request_copy rq;
    bool ok = sv_rt_request_read(CHILD_REQ_FD, &rq, err, sizeof err);
    close(CHILD_REQ_FD);
    /* a fresh empty working folder that nothing can be created in (the GPU's
     * child starts compute-sanitizer, whose shell needs a folder that is
     * there: it gets /, and so does a CPU child where /tmp cannot be
     * written; its environment is already gone, so no $TMPDIR) */
    char dir[] = "/tmp/scanviz-run-XXXXXX";
    bool in_dir = false;
    if (ok && rq.req.backend == SV_RUNTIME_CPU && mkdtemp(dir)) {
        in_dir = chdir(dir) == 0;
        rmdir(dir); /* entered or not, it is not left behind */
    }
    if (!in_dir && chdir("/") != 0)
        _exit(3);
    /* the kernel's code on the CPU sees no environment at all (the GPU's
     * child keeps its few, for the driver and --racecheck's sanitizer) */
    if (ok && rq.req.backend == SV_RUNTIME_CPU)
        clearenv();
    sv_ktrace *t = ok ? trace_for(&rq.req, err, sizeof err) : NULL;
    if (!t)
        _exit(3); /* the parent says "ended without a trace" */
    if (rq.prep.entry && !sv_ktrace_set_text(&t->entry, rq.prep.entry, err, sizeof err))
        _exit(3);
    child_main(&rq.req, &rq.prep, t, CHILD_WIRE_FD, CHILD_PROGRESS_FD);
}

bool sv_runtime_available(sv_runtime_backend b, char *why, size_t whylen)
{
    char path[4096];
    if (b == SV_RUNTIME_CPU)
        return sv_rt_cxx_find(path, sizeof path, why, whylen);
    return sv_rt_gpu_available(why, whylen);
}

bool sv_runtime_gpu_probe(sv_runtime_gpu_device *d, char *why, size_t whylen)
{
    return sv_rt_gpu_probe(d, why, whylen);
}
