/* The walls around a kernel file (sandbox.h): Landlock rulesets, seccomp
 * allow-lists through libseccomp, resource limits. */
#define _GNU_SOURCE
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../core/error.h"

#if defined(__SANITIZE_ADDRESS__)
#define SV_SB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SV_SB_ASAN 1
#endif
#endif

/* ---- Landlock ---------------------------------------------------------------
 * The system's <linux/landlock.h> (Debian 12: Linux 6.1) stops at ABI 2; the
 * fields and rights of the later ABIs are the kernel's documented values. */

struct sv_ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net; /* ABI 4 */
    uint64_t scoped;             /* ABI 6 */
};

struct sv_ll_path_beneath {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#define LL_FS_EXECUTE (1ull << 0)
#define LL_FS_WRITE_FILE (1ull << 1)
#define LL_FS_READ_FILE (1ull << 2)
#define LL_FS_READ_DIR (1ull << 3)
#define LL_FS_REFER (1ull << 13)     /* ABI 2 */
#define LL_FS_TRUNCATE (1ull << 14)  /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ull << 15) /* ABI 5 */
#define LL_NET_BIND_TCP (1ull << 0)
#define LL_NET_CONNECT_TCP (1ull << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ull << 0)
#define LL_SCOPE_SIGNAL (1ull << 1)
#define LL_FILE_RIGHTS (LL_FS_EXECUTE | LL_FS_WRITE_FILE | LL_FS_READ_FILE | LL_FS_TRUNCATE | \
                        LL_FS_IOCTL_DEV)

static int ll_abi = -1;

int sv_sandbox_landlock_abi(void)
{
    if (ll_abi < 0) {
        long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
        ll_abi = v > 0 ? (int)v : 0;
    }
    return ll_abi;
}

/* Every file-system right the ABI knows. */
static uint64_t ll_fs_all(int abi)
{
    uint64_t r = (1ull << 13) - 1; /* EXECUTE .. MAKE_SYM */
    if (abi >= 2)
        r |= LL_FS_REFER;
    if (abi >= 3)
        r |= LL_FS_TRUNCATE;
    if (abi >= 5)
        r |= LL_FS_IOCTL_DEV;
    return r;
}

static int ll_create(int abi, char *err, size_t errlen)
{
    struct sv_ll_ruleset_attr a;
    memset(&a, 0, sizeof a);
    a.handled_access_fs = ll_fs_all(abi);
    size_t size = sizeof a.handled_access_fs;
    if (abi >= 4) {
        a.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        size = offsetof(struct sv_ll_ruleset_attr, scoped);
    }
    if (abi >= 6) {
        a.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
        size = sizeof a;
    }
    long fd = syscall(SYS_landlock_create_ruleset, &a, size, 0);
    if (fd < 0) {
        sv_errorf(err, errlen, "landlock_create_ruleset: %s", strerror(errno));
        return -1;
    }
    return (int)fd;
}

int sv_sandbox_ruleset_run(char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    int abi = sv_sandbox_landlock_abi();
    return abi > 0 ? ll_create(abi, err, errlen) : -1;
}

/* Allows `rights` beneath path (a file: the file's share of them). A path
 * that is not there is skipped. */
static bool ll_allow(int rs, const char *path, uint64_t rights, char *err, size_t errlen)
{
    int pfd = open(path, O_PATH | O_CLOEXEC);
    if (pfd < 0)
        return true;
    struct stat st;
    if (fstat(pfd, &st) == 0 && !S_ISDIR(st.st_mode))
        rights &= LL_FILE_RIGHTS;
    struct sv_ll_path_beneath pb = {rights, pfd};
    long r = syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
    int e = errno;
    close(pfd);
    if (r != 0) {
        sv_errorf(err, errlen, "landlock_add_rule %s: %s", path, strerror(e));
        return false;
    }
    return true;
}

int sv_sandbox_ruleset_paths(const char *const *ro, const char *const *rw,
                             const char *const *dev, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = '\0';
    int abi = sv_sandbox_landlock_abi();
    if (abi <= 0)
        return -1;
    int rs = ll_create(abi, err, errlen);
    if (rs < 0)
        return -1;
    uint64_t all = ll_fs_all(abi);
    uint64_t read = LL_FS_EXECUTE | LL_FS_READ_FILE | LL_FS_READ_DIR;
    uint64_t devr = LL_FS_READ_FILE | LL_FS_WRITE_FILE | LL_FS_READ_DIR |
                    (abi >= 5 ? LL_FS_IOCTL_DEV : 0) | (abi >= 3 ? LL_FS_TRUNCATE : 0);
    bool ok = true;
    for (size_t i = 0; ok && ro && ro[i]; i++)
        ok = ll_allow(rs, ro[i], read, err, errlen);
    for (size_t i = 0; ok && rw && rw[i]; i++)
        ok = ll_allow(rs, rw[i], all, err, errlen);
    for (size_t i = 0; ok && dev && dev[i]; i++)
        ok = ll_allow(rs, dev[i], devr, err, errlen);
    if (!ok) {
        close(rs);
        return -1;
    }
    return rs;
}

bool sv_sandbox_restrict(int fd)
{
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return false;
    long r = syscall(SYS_landlock_restrict_self, fd, 0);
    close(fd);
    return r == 0;
}

bool sv_sandbox_landlock(int rs, const char *make_err, char *err, size_t errlen)
{
    if (rs < 0 && make_err[0]) {
        sv_errorf(err, errlen, "%s", make_err);
        return false;
    }
    if (rs >= 0 && !sv_sandbox_restrict(rs)) {
        sv_errorf(err, errlen, "landlock_restrict_self: %s", strerror(errno));
        return false;
    }
    return true;
}

/* ---- seccomp ---------------------------------------------------------------- */

static int sc_avail = -1;

bool sv_sandbox_seccomp_available(void)
{
    if (sc_avail < 0) {
        /* the kernel's seccomp: PR_GET_SECCOMP answers 0 (none yet) or 2
         * (a filter already), EINVAL where there is no seccomp at all */
        int r = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
        sc_avail = r >= 0 && seccomp_api_get() >= 1;
    }
    return sc_avail == 1;
}

char *sv_sandbox_missing_words(int abi, bool seccomp, char *words, size_t len)
{
    size_t u = 0;
    words[0] = '\0';
    if (abi <= 0)
        u += (size_t)snprintf(words, len, "no Landlock (this kernel offers none): a kernel's run "
                              "is not kept from files, TCP and signals by it");
    else if (abi < 6)
        u += (size_t)snprintf(words, len, "Landlock ABI %d (before 6): signals are not scoped "
                              "by it%s", abi, abi < 4 ? ", nor TCP" : "");
    if (!seccomp && u < len)
        snprintf(words + u, len - u, "%sno seccomp (this kernel offers none): a kernel's system "
                 "calls are not limited", u ? "; " : "");
    return words;
}

const char *sv_sandbox_missing(void)
{
    static char words[256];
    static bool made;
    if (!made) {
        sv_sandbox_missing_words(sv_sandbox_landlock_abi(), sv_sandbox_seccomp_available(), words,
                                 sizeof words);
        made = true;
    }
    return words;
}

/* Adds an unconditional allow of each call in list (names libseccomp
 * knows; one it does not know on this machine is skipped). */
static bool sc_allow_all(scmp_filter_ctx c, const char *const *list)
{
    for (size_t i = 0; list[i]; i++) {
        int nr = seccomp_syscall_resolve_name(list[i]);
        if (nr == __NR_SCMP_ERROR)
            continue;
        if (seccomp_rule_add(c, SCMP_ACT_ALLOW, nr, 0) != 0)
            return false;
    }
    return true;
}

/* What the runtime's child itself calls while the kernel runs (cpu_exec.cc,
 * child.c, wire.c): memory, futex (none here, but glibc's locks), its timer,
 * its exit. Writes, memory maps and signals to itself are added with
 * their arguments checked. */
static const char *const run_calls[] = {
    "brk", "munmap", "mremap", "madvise", "futex", "getpid", "gettid",
    "clock_gettime", "clock_getres", "gettimeofday", "setitimer", "getitimer",
    "rt_sigreturn", "sched_yield", "exit", "exit_group", "restart_syscall",
#ifdef SV_SB_ASAN
    /* AddressSanitizer's own (its allocator; its reports, which end the run
     * anyway) */
    "sigaltstack",
#endif
    NULL,
};

/* What the dynamic loader adds while it maps the kernel's .so (LOAD). */
static const char *const load_calls[] = {
    "openat", "open", "close", "read", "pread64", "fstat", "newfstatat", "statx", "lseek",
    "mmap", "mprotect", "rt_sigprocmask", "rt_sigaction", "sigaltstack", "access",
    "faccessat", "faccessat2", "getrandom", "seccomp", NULL,
};

/* What the GPU child may not do (its driver needs much else: threads,
 * ioctls, maps, /proc and /sys reads, which Landlock bounds). */
static const char *const gpu_refused[] = {
    "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv",
    "process_vm_writev", "mount", "umount2", "pivot_root", "chroot", "unshare", "setns",
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd", "kexec_load",
    "kexec_file_load", "init_module", "finit_module", "delete_module", "reboot", "swapon",
    "swapoff", "name_to_handle_at", "open_by_handle_at", "mknod", "mknodat", "tkill",
    "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "fanotify_init", "io_uring_setup",
    "settimeofday", "clock_settime", "adjtimex", "acct", "quotactl", "setuid", "setgid",
    "setreuid", "setregid", "setresuid", "setresgid", "setgroups", "setfsuid", "setfsgid",
    "setpgid", "setsid", "memfd_secret", NULL,
};

/* abort() of the runtime's own: SIGABRT to itself, nothing else (a
 * SIGSTOP of its own would stop the run until its deadline). */
static bool sc_self_signals(scmp_filter_ctx c)
{
    pid_t me = getpid();
    return seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(tgkill), 2,
                            SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)me),
                            SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)SIGABRT)) == 0 &&
           seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(kill), 2,
                            SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)me),
                            SCMP_A1(SCMP_CMP_EQ, (scmp_datum_t)SIGABRT)) == 0;
}

bool sv_sandbox_seccomp(sv_seccomp_stage stage, const int *write_fds, size_t nfds, char *err,
                        size_t errlen)
{
    if (!sv_sandbox_seccomp_available())
        return true;
    /* no-new-privileges by hand, once, so that loading a later filter needs
     * no prctl (which the earlier filter refuses) */
    static bool nnp;
    if (!nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
        sv_errorf(err, errlen, "PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
        return false;
    }
    nnp = true;
    scmp_filter_ctx c = seccomp_init(stage == SV_SECCOMP_GPU ? SCMP_ACT_ALLOW : SCMP_ACT_TRAP);
    if (!c) {
        sv_errorf(err, errlen, "seccomp_init failed");
        return false;
    }
    bool ok = seccomp_attr_set(c, SCMP_FLTATR_CTL_NNP, 0) == 0;
    if (ok && stage == SV_SECCOMP_GPU) {
        for (size_t i = 0; ok && gpu_refused[i]; i++) {
            int nr = seccomp_syscall_resolve_name(gpu_refused[i]);
            if (nr != __NR_SCMP_ERROR)
                ok = seccomp_rule_add(c, SCMP_ACT_TRAP, nr, 0) == 0;
        }
        pid_t me = getpid();
        /* threads, never processes; clone3 answers ENOSYS so glibc uses clone;
         * sockets of the machine's own only (the driver listens on one and
         * talks to its daemon over one, measured on the H200 machine;
         * Landlock refuses TCP) */
        ok = ok &&
             seccomp_rule_add(c, SCMP_ACT_TRAP, SCMP_SYS(socket), 1,
                              SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)AF_UNIX)) == 0 &&
             seccomp_rule_add(c, SCMP_ACT_TRAP, SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)) == 0 &&
             seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) == 0 &&
             seccomp_rule_add(c, SCMP_ACT_TRAP, SCMP_SYS(kill), 1,
                              SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)me)) == 0 &&
             seccomp_rule_add(c, SCMP_ACT_TRAP, SCMP_SYS(tgkill), 1,
                              SCMP_A0(SCMP_CMP_NE, (scmp_datum_t)me)) == 0;
    } else if (ok) {
        ok = sc_allow_all(c, run_calls) && sc_self_signals(c);
        if (ok && stage == SV_SECCOMP_LOAD)
            ok = sc_allow_all(c, load_calls);
        /* memory is never made executable once the .so is mapped */
        if (ok && stage == SV_SECCOMP_RUN)
            ok = seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1,
                                  SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) == 0 &&
                 seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
                                  SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0)) == 0;
        for (size_t i = 0; ok && i < nfds; i++)
            if (write_fds[i] >= 0)
                ok = seccomp_rule_add(c, SCMP_ACT_ALLOW, SCMP_SYS(write), 1,
                                      SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)write_fds[i])) == 0;
    }
    int lr = ok ? seccomp_load(c) : 0;
    seccomp_release(c);
    if (!ok || lr != 0) {
        sv_errorf(err, errlen, "seccomp: %s", ok ? strerror(-lr) : "a rule was refused");
        return false;
    }
    return true;
}

const char *sv_sandbox_syscall_name(int nr, char *buf, size_t len)
{
    char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
    if (name) {
        snprintf(buf, len, "%s", name);
        free(name);
    } else {
        snprintf(buf, len, "system call %d", nr);
    }
    return buf;
}

/* ---- Limits ----------------------------------------------------------------- */

static bool limit(int res, rlim_t v, const char *name, char *err, size_t errlen)
{
    struct rlimit rl = {v, v};
    struct rlimit now;
    /* never raise a hard limit the caller already has */
    if (getrlimit(res, &now) == 0 && now.rlim_max != RLIM_INFINITY && now.rlim_max < v)
        rl.rlim_cur = rl.rlim_max = now.rlim_max;
    if (setrlimit(res, &rl) != 0) {
        sv_errorf(err, errlen, "setrlimit(%s): %s", name, strerror(errno));
        return false;
    }
    return true;
}

bool sv_sandbox_limits_run(unsigned max_fd, unsigned cpu_seconds, unsigned long long as_bytes,
                           bool no_processes, char *err, size_t errlen)
{
    if (!limit(RLIMIT_CORE, 0, "RLIMIT_CORE", err, errlen) ||
        !limit(RLIMIT_FSIZE, 0, "RLIMIT_FSIZE", err, errlen) ||
        !limit(RLIMIT_NOFILE, max_fd, "RLIMIT_NOFILE", err, errlen) ||
        !limit(RLIMIT_MEMLOCK, 0, "RLIMIT_MEMLOCK", err, errlen) ||
        !limit(RLIMIT_MSGQUEUE, 0, "RLIMIT_MSGQUEUE", err, errlen) ||
        !limit(RLIMIT_LOCKS, 0, "RLIMIT_LOCKS", err, errlen) ||
        (no_processes && !limit(RLIMIT_NPROC, 0, "RLIMIT_NPROC", err, errlen)) ||
        (cpu_seconds && !limit(RLIMIT_CPU, cpu_seconds, "RLIMIT_CPU", err, errlen)) ||
        (as_bytes && !limit(RLIMIT_AS, (rlim_t)as_bytes, "RLIMIT_AS", err, errlen)))
        return false;
    /* no core, no ptrace by other processes of the same user */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return true;
}
