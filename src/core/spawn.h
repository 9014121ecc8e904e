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

#ifdef __cplusplus
}
#endif

#endif
