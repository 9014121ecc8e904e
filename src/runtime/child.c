/* The runtime's child process, its side (backend.h): the signal handler that
 * turns a crash or the time limit into the trace's failure and sends what
 * there is, the time and memory limits, progress records and where the
 * kernel is. process.c forks and enters the child here; the backends call
 * the rest. Kept apart from process.c so that the backends, which
 * process.c calls, do not call back into it. */
#define _GNU_SOURCE /* REG_RIP, sigaltstack's stack_t fields */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#include "backend.h"
#include "wire.h"

#include "../core/error.h"


/* ---- In the child ----------------------------------------------------------- */

static sv_ktrace *child_t;
static int child_fd = -1;
static int child_progress_fd = -1;
static uint32_t child_limit_ms;
static sv_rt_where_fn child_where;
static char child_msg[512];

void sv_rt_set_where(sv_rt_where_fn fn)
{
    child_where = fn;
}

/* A progress record: {0, done, runs, 0} of runs, {1, k, ended, grid} of a
 * launch (process.c reads them; 16 bytes, within PIPE_BUF: never torn). */
static void progress_put(uint32_t kind, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t rec[4] = {kind, a, b, c};
    if (child_progress_fd >= 0 && write(child_progress_fd, rec, sizeof rec) < 0) {
        /* a full pipe drops a progress record: the next one says more */
    }
}

void sv_rt_progress(uint32_t done, uint32_t runs)
{
    progress_put(0, done, runs, 0);
}

void sv_rt_launch_progress(uint32_t k, uint32_t ended, uint32_t grid)
{
    progress_put(1, k, ended, grid);
}

static size_t put_str(char *buf, size_t at, size_t len, const char *s)
{
    while (*s && at + 1 < len)
        buf[at++] = *s++;
    buf[at] = '\0';
    return at;
}

static size_t put_uint(char *buf, size_t at, size_t len, unsigned long long v)
{
    char tmp[24];
    size_t k = 0;
    do {
        tmp[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k && at + 1 < len)
        buf[at++] = tmp[--k];
    buf[at] = '\0';
    return at;
}

static const char *signal_words(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (an access to memory it may not touch)";
    case SIGBUS: return "SIGBUS (a misaligned or unmapped access)";
    case SIGFPE: return "SIGFPE (an integer division by zero)";
    case SIGILL: return "SIGILL (an illegal instruction)";
    case SIGABRT: return "SIGABRT (aborted)";
    case SIGXCPU: return "SIGXCPU (past its CPU time limit)";
    default: return "a signal";
    }
}

static void on_signal(int sig, siginfo_t *si, void *ucv)
{
    sv_kfailure *f = &child_t->failure;
    if (f->kind == SV_KFAIL_NONE || sig == SIGALRM || sig == SIGSYS) {
        void *pc = NULL, *sp = NULL;
#if defined(__x86_64__)
        if (ucv) {
            pc = (void *)((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP];
            sp = (void *)((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RSP];
        }
#elif defined(__aarch64__)
        if (ucv) {
            pc = (void *)((ucontext_t *)ucv)->uc_mcontext.pc;
            sp = (void *)((ucontext_t *)ucv)->uc_mcontext.sp;
        }
#endif
        f->kind = sig == SIGALRM || sig == SIGXCPU ? SV_KFAIL_TIME
                  : sig == SIGSYS                  ? SV_KFAIL_SYSCALL
                                                   : SV_KFAIL_CRASH;
        f->line = 0;
        f->thread = -1;
        f->step = -1;
        f->array = -1;
        f->index = 0;
        f->nwaits = 0;
        if (sig == SIGSYS) /* the call the seccomp filter refused (the parent names it) */
            f->index = si ? si->si_syscall : -1;
        if (child_where)
            child_where(f, pc, sp); /* (f->kind says whether it is the time limit) */
        if (getenv("SV_RT_DEBUG")) {
            Dl_info di;
            if (pc && dladdr(pc, &di))
                fprintf(stderr, "sv_rt: signal %d at %s+%#lx (%s)\n", sig, di.dli_fname,
                        (unsigned long)((char *)pc - (char *)di.dli_fbase),
                        di.dli_sname ? di.dli_sname : "?");
        }
        size_t u = 0;
        if (sig == SIGALRM) {
            u = put_str(child_msg, u, sizeof child_msg, "the kernel ran past its time limit of ");
            u = put_uint(child_msg, u, sizeof child_msg, child_limit_ms);
            u = put_str(child_msg, u, sizeof child_msg, " ms");
        } else if (sig == SIGSYS) {
            u = put_str(child_msg, u, sizeof child_msg,
                        "the kernel made a system call that a kernel cannot make");
        } else {
            u = put_str(child_msg, u, sizeof child_msg, "the kernel crashed: ");
            u = put_str(child_msg, u, sizeof child_msg, signal_words(sig));
        }
        if (f->thread >= 0) {
            u = put_str(child_msg, u, sizeof child_msg, ", in thread ");
            u = put_uint(child_msg, u, sizeof child_msg, (unsigned)f->thread);
        }
        if (f->line > 0) {
            u = put_str(child_msg, u, sizeof child_msg, " at line ");
            u = put_uint(child_msg, u, sizeof child_msg, (unsigned)f->line);
        }
        f->message = child_msg; /* the child never frees its trace */
    }
    sv_rt_wire_send(child_fd, child_t);
    sv_rt_child_exit(0);
}

__attribute__((noreturn)) void sv_rt_child_exit(int status)
{
    for (;;)
        syscall(SYS_exit_group, status);
}

static void child_signals(void)
{
    static char altstack[64 * 1024];
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGALRM);
    sigaddset(&sa.sa_mask, SIGSYS);
    const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM, SIGSYS, SIGXCPU};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

bool sv_rt_limits_apply_time(const sv_runtime_request *req, char *err, size_t errlen)
{
    uint32_t ms = sv_runtime_time_limit_ms(req);
    child_limit_ms = ms;
    struct itimerval it;
    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = ms / 1000;
    it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
    if (setitimer(ITIMER_REAL, &it, NULL) != 0) {
        sv_errorf(err, errlen, "setitimer: %s", strerror(errno));
        return false;
    }
    return true;
}

bool sv_rt_child_send(const sv_ktrace *t)
{
    return sv_rt_wire_send(child_fd, t);
}

void sv_rt_child_enter(sv_ktrace *t, int fd, int pfd)
{
    child_t = t;
    child_fd = fd;
    child_progress_fd = pfd;
    child_signals();
}
