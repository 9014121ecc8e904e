/* Running a helper program (compute-sanitizer, a compiler): where it is,
 * and its output captured with a time limit. Shared by capture's racecheck
 * and the GPU runtime's. */
#ifndef SV_SPAWN_H
#define SV_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The first executable `name` on $PATH, else the first of fallback (a
 * NULL-terminated list of paths; NULL: none) that is executable, into out.
 * False when none is. */
bool sv_spawn_find(const char *name, const char *const *fallback, char *out, size_t len);

/* Runs argv (argv[0] a path) with stdout and stderr into one NUL-terminated
 * buffer of at most limit bytes (*len; the rest is read and dropped);
 * *status gets the wait status. Past timeout_ms the child's whole process
 * group is killed and *timed_out set (the output so far is returned).
 * A negative timeout_ms: no time limit.
 * NULL with err filled when it cannot start; the caller frees the result. */
char *sv_spawn_output(char *const argv[], size_t limit, int timeout_ms, size_t *len, int *status,
                      bool *timed_out, char *err, size_t errlen);

/* How sv_spawn_run starts its program. */
typedef struct sv_spawn_opts {
    char *const *envp;        /* the environment (NULL: this process's) */
    bool stdin_null;          /* standard input from /dev/null (else inherited) */
    const char *cwd;          /* its working folder (NULL: this one) */
    /* Called in the child after fork, before exec, with ctx: only
     * async-signal-safe calls (setrlimit, prctl, a Landlock syscall); false
     * ends the child with status 126 before it execs. NULL: none. */
    bool (*pre_exec)(void *ctx);
    void *ctx;
} sv_spawn_opts;

/* sv_spawn_output with options: the same capture (at most limit bytes
 * kept, the rest read and dropped), the deadline checked on every read, the
 * child's whole process group killed at the deadline and after the child
 * ends (nothing it started outlives it). */
char *sv_spawn_run(char *const argv[], const sv_spawn_opts *opts, size_t limit, int timeout_ms,
                   size_t *len, int *status, bool *timed_out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
