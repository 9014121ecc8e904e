/* The CPU backend's one call (backend.h), in the child process: a shipped
 * kernel from its build made ahead of time, or the kernel file the parent
 * compiled (process.c, cpu_compile.h), run by cpu_exec.cc behind its
 * walls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cpu_compile.h"
#include "cpu_exec.h"
#include "request.h"
#include "shipped.h"
#include "source_scan.h"

#include "../core/error.h"

static char *dup_s(const char *s)
{
    size_t k = strlen(s) + 1;
    char *d = malloc(k);
    if (d)
        memcpy(d, s, k);
    return d;
}

static void fail(sv_ktrace *t, sv_kfail_kind kind, int line, const char *msg)
{
    t->failure.kind = kind;
    t->failure.line = line;
    t->failure.thread = -1;
    t->failure.step = -1;
    t->failure.array = -1;
    free(t->failure.message);
    t->failure.message = dup_s(msg);
}

/* A shipped kernel: its ahead-of-time build from memory. */
static bool run_shipped(const sv_runtime_request *req, sv_ktrace *t, char *err, size_t errlen)
{
    const sv_rt_shipped *k = sv_rt_shipped_find(req->builtin);
    char so[64], msg[1024];
    if (!k) {
        fail(t, SV_KFAIL_INTERNAL, 0, "not a shipped kernel of this build");
        return true;
    }
    sv_source_scan *scan = malloc(sizeof *scan);
    sv_rt_lines lines = {0, NULL, NULL};
    if (!scan || !sv_rt_lines_parse(k->lines, &lines)) {
        free(scan);
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    sv_kfail_kind kind;
    int line;
    if (!sv_source_scan_text(k->source, req->builtin, scan, &kind, &line, msg, sizeof msg) ||
        !sv_source_check_entry(scan, NULL, req->type, &line, msg, sizeof msg) ||
        !sv_rt_shipped_path(k, so, sizeof so, msg, sizeof msg)) {
        fail(t, SV_KFAIL_INTERNAL, 0, msg);
    } else {
        free(t->entry);
        t->entry = dup_s(scan->kernels[scan->entry >= 0 ? scan->entry : 0].name);
        const char *dyn = NULL;
        for (size_t i = 0; i < scan->nshared; i++)
            if (scan->shared[i].is_extern && !dyn)
                dyn = scan->shared[i].name;
        ok = sv_rt_cpu_exec(so, &lines, dyn, req, t, err, errlen);
    }
    sv_rt_lines_free(&lines);
    free(scan);
    return ok;
}

bool sv_rt_cpu_run(const sv_runtime_request *req, const sv_rt_prep *prep, int so_fd,
                   sv_ktrace *t, char *err, size_t errlen)
{
    if (req->builtin)
        return run_shipped(req, t, err, errlen);
    /* a kernel file: compiled and checked by the parent (process.c) */
    if (so_fd < 0 || !prep->entry) {
        fail(t, SV_KFAIL_INTERNAL, 0, "the runtime's child was given no compiled kernel");
        return true;
    }
    sv_rt_lines lines = {0, NULL, NULL};
    if (prep->lines && !sv_rt_lines_parse(prep->lines, &lines)) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    char so[64];
    snprintf(so, sizeof so, "/proc/self/fd/%d", so_fd);
    bool ok = sv_rt_cpu_exec(so, &lines, prep->dyn, req, t, err, errlen);
    sv_rt_lines_free(&lines);
    return ok;
}
