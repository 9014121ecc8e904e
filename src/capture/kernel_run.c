/* A kernel's run for the app and the CLI (kernel_run.h). */
#include "kernel_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/fileio.h"

/* The backend for req, by the one policy (kernel_run.h); false: the GPU was
 * asked for and there is none (why). */
static bool pick_backend(const sv_krun_request *req, sv_runtime_backend *b, char *why,
                         size_t len)
{
    *b = SV_RUNTIME_CPU;
    if (req->choice == SV_CHOOSE_CPU || (req->run.builtin && req->choice == SV_CHOOSE_AUTO))
        return true;
    if (sv_runtime_available(SV_RUNTIME_GPU, why, len)) {
        *b = SV_RUNTIME_GPU;
        return true;
    }
    return req->choice == SV_CHOOSE_AUTO;
}

sv_ktrace *sv_capture_kernel(const sv_krun_request *req, sv_krun_status *status,
                             size_t *dropped, size_t *kept, char *err, size_t errlen)
{
    sv_krun_status st_; /* where the caller passed NULL */
    size_t dropped_, kept_;
    status = status ? status : &st_;
    dropped = dropped ? dropped : &dropped_;
    kept = kept ? kept : &kept_;
    *dropped = *kept = 0;
    sv_runtime_request rq = req->run;
    if (!pick_backend(req, &rq.backend, err, errlen)) {
        *status = SV_KRUN_UNAVAILABLE;
        return NULL;
    }
    sv_ktrace *t = sv_runtime_run(&rq, err, errlen);
    if (!t) {
        *status = SV_KRUN_NOT_RUN;
        return NULL;
    }
    if (req->trim)
        *dropped = sv_ktrace_trim(t, req->trim);
    *kept = t->nsteps;
    if (!sv_ktrace_analyze(t, err, errlen)) {
        sv_ktrace_destroy(t);
        *status = SV_KRUN_NOT_READ;
        return NULL;
    }
    *status = SV_KRUN_OK;
    return t;
}

size_t sv_krun_args_max_n(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *f = NULL;
        if (strcmp(argv[i], "--kernel-file") == 0 && i + 1 < argc)
            f = argv[i + 1];
        else if (strncmp(argv[i], "--kernel-file=", 14) == 0)
            f = argv[i] + 14;
        struct stat st;
        if (!f || strcmp(f, "-") == 0 || stat(f, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        char err[512];
        size_t len;
        char *src = sv_read_bounded(f, SV_KTRACE_MAX_SOURCE, "a kernel file", &len, err,
                                    sizeof err);
        bool many = src && sv_runtime_file_launches(src);
        free(src);
        return many ? SV_MAX_N_BLOCKS : SV_MAX_N;
    }
    return SV_MAX_N;
}
