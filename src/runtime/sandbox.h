/* The walls around a kernel file, which is someone else's code (issue 27):
 * the kernel's Landlock rulesets, its seccomp allow-lists and the resource
 * limits of the processes that compile and run it. process.c and
 * cpu_compile.c put them up; docs/reliability.md ("A kernel file is
 * untrusted code") says what each one stops. Inside src/runtime/ only.
 *
 * Landlock (the kernel's own unprivileged sandbox, ABI 1..7) takes away
 * file access (all of it for a run; all but the compiler's folders for a
 * compile), TCP bind and connect (ABI 4) and signals and abstract sockets
 * outside the process's own domain (ABI 6). seccomp (through libseccomp)
 * leaves a run only the system calls the runtime itself makes; any other
 * ends the run with SIGSYS, which the child reports at the kernel's thread
 * and line. Where the running kernel lacks one of them the run goes on
 * behind the others, and sv_sandbox_missing() says which is missing. */
#ifndef SV_RUNTIME_SANDBOX_H
#define SV_RUNTIME_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The Landlock ABI this machine's kernel offers (0: none), probed once. */
int sv_sandbox_landlock_abi(void);
/* Whether seccomp filters can be installed here (libseccomp built in and
 * the kernel's seccomp on), probed once. */
bool sv_sandbox_seccomp_available(void);
/* "" when every layer is there, else which is missing and why, in words:
 * "no Landlock (the kernel offers none): a run is not kept from the file
 * system", "no seccomp (...)". A static string. */
const char *sv_sandbox_missing(void);
/* The same words for a machine with Landlock ABI abi (0: none) and seccomp
 * or not, into words (len bytes); "" for ABI 6 or later with seccomp. */
char *sv_sandbox_missing_words(int abi, bool seccomp, char *words, size_t len);

/* A Landlock ruleset for a run: no file access at all (a kernel's .so is
 * mapped from a sealed memory file, which Landlock leaves alone), no TCP
 * bind or connect, no signal or abstract socket outside the process.
 * Returns its descriptor, or -1 where there is no Landlock (err empty) or
 * on failure (err filled). */
int sv_sandbox_ruleset_run(char *err, size_t errlen);
/* A ruleset for a helper (the C++ compiler, the GPU's child): read and
 * execute beneath each of ro[] (NULL-terminated; missing paths skipped),
 * everything beneath each of rw[], device ioctls beneath each of dev[];
 * no TCP, scoped signals. -1 as above. Called before fork. */
int sv_sandbox_ruleset_paths(const char *const *ro, const char *const *rw,
                             const char *const *dev, char *err, size_t errlen);
/* Sets no-new-privileges and restricts this process to ruleset fd (and
 * closes it). Only system calls: safe between fork and exec. False when
 * the kernel refused. */
bool sv_sandbox_restrict(int fd);
/* In a process of its own (not between fork and exec): restricts it to rs,
 * a ruleset just made; rs -1 with make_err empty is no Landlock here (true),
 * with make_err filled the making's failure (false, err = make_err). */
bool sv_sandbox_landlock(int rs, const char *make_err, char *err, size_t errlen);

/* The seccomp allow-lists of a run's child, in the order they go on
 * (filters stack; the later is the stricter):
 *   LOAD  before the kernel's .so is mapped: what the dynamic loader needs
 *         (open, mmap with PROT_EXEC, mprotect) besides the runtime's own;
 *   RUN   once it is mapped, before its first instruction: memory without
 *         PROT_EXEC, futex, the time limit's timer, writes to write_fds,
 *         its own pid and tid, exit;
 *   GPU   the GPU child (the driver's threads, ioctls and maps): a list of
 *         what is refused instead (processes, other processes' signals,
 *         sockets but the machine's own (AF_UNIX: the driver talks to its
 *         daemon), execve, ptrace, mounts, namespaces, keys).
 * A call outside the list raises SIGSYS (SCMP_ACT_TRAP) in the child.
 * False with err when libseccomp failed; true and nothing done where there
 * is no seccomp. */
typedef enum sv_seccomp_stage { SV_SECCOMP_LOAD, SV_SECCOMP_RUN, SV_SECCOMP_GPU } sv_seccomp_stage;
bool sv_sandbox_seccomp(sv_seccomp_stage stage, const int *write_fds, size_t nfds, char *err,
                        size_t errlen);

/* The name of system call nr on this machine ("connect"), into buf; "system
 * call NR" when libseccomp does not know it. */
const char *sv_sandbox_syscall_name(int nr, char *buf, size_t len);

/* The limits a run's child puts on itself before the kernel's code is
 * mapped: no core file, no file growth, no new process (for a user that
 * the kernel holds to it: root is not), at most max_fd descriptors, no
 * locked memory, CPU seconds, and the address space (as_bytes, 0: left
 * alone, as under AddressSanitizer). False with err naming the limit. */
bool sv_sandbox_limits_run(unsigned max_fd, unsigned cpu_seconds, unsigned long long as_bytes,
                           bool no_processes, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
