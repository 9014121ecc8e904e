/* Issue 21 item 23: a compute-sanitizer that never exits must not hang
 * scanviz-trace. The racecheck run goes through sv_spawn_output
 * (src/core/spawn.c, from the GPU runtime) with a time limit; here a child that never
 * exits, and leaves a grandchild holding the output pipe, stands in for
 * the sanitizer (no GPU is needed). */
#include <stdbool.h>
#include <sys/wait.h>
#include <time.h>

#include "../expect.h"
#include "spawn.h"

int main(void)
{
    char err[256];
    size_t len = 0;
    int status = 0;
    bool timed_out = false;
    char *argv[] = {"/bin/sh", "-c", "echo started; sleep 1000 & sleep 1000", NULL};
    time_t t0 = time(NULL);
    char *out = sv_spawn_output(argv, 1 << 16, 1000, &len, &status, &timed_out, err, sizeof err);
    CHECK_MSG(out != NULL, "%s", err);
    CHECK(timed_out);
    CHECK(time(NULL) - t0 <= 5);
    CHECK(WIFSIGNALED(status));
    if (out)
        CHECK_CONTAINS(out, "started");
    free(out);
    /* A child that finishes in time: its output and status, no time-out. */
    char *quick[] = {"/bin/sh", "-c", "echo report; exit 3", NULL};
    out = sv_spawn_output(quick, 1 << 16, 10000, &len, &status, &timed_out, err, sizeof err);
    CHECK(out && !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 3);
    if (out)
        CHECK_STR(out, "report\n");
    free(out);
    return check_status();
}
