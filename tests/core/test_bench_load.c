/* sv_bench_table_load on paths that are not CSV files: the message names the
 * path and the system's reason (the parser's own messages are tested in
 * tests/plot/test_bench_csv.c). */
#include <errno.h>
#include <stdlib.h>

#include "bench_csv.h"
#include "../expect.h"

int main(void)
{
    char err[512] = "", want[600];
    /* A directory opens, then fails to read: say why. */
    sv_bench_table *t = sv_bench_table_load("/", err, sizeof err);
    CHECK(t == NULL);
    snprintf(want, sizeof want, "/: cannot read: %s", strerror(EISDIR));
    CHECK_STR(err, want);
    sv_bench_table_destroy(t);
    return check_status();
}
