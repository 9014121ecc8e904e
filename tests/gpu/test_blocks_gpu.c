/* test_blocks_gpu: kernel files of many blocks (issue 31) on the GPU runtime
 * (the CPU runtime's launches replayed by NVRTC's kernels, process.c and
 * gpu_run.c) against the CPU runtime, bit for bit: for each file and n the
 * output, the launches (kernel, grid, block, line, step), the arrays (names,
 * kinds, lengths) and every array's cells after every launch; sum, max and
 * xor for the hierarchical scan; n from 1 to 65,536. Exits 77 without a
 * usable GPU.
 *   test_blocks_gpu TESTS_KERNELS_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/fileio.h"
#include "../../src/core/ktrace.h"
#include "../../src/runtime/runtime.h"
#include "../expect.h"

static const char *kdir;

static sv_ktrace *run(const char *file, const sv_value *in, size_t n, sv_op op,
                      sv_runtime_backend backend)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", kdir, file);
    size_t len;
    char *src = sv_read_bounded(path, 1 << 20, "kernel", &len, err, sizeof err);
    CHECK_MSG(src != NULL, "%s", err);
    if (!src)
        return NULL;
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.path = path;
    req.source = src;
    req.op = op;
    req.type = SV_TYPE_INT32;
    req.scan = SV_SCAN_INCLUSIVE;
    req.input = in;
    req.n = n;
    req.backend = backend;
    req.runs = 1;
    req.schedule.kind = SV_SCHEDULE_SEQUENTIAL;
    req.schedule.seed = 1;
    req.time_limit_ms = 20000;
    sv_ktrace *t = sv_runtime_run(&req, err, sizeof err);
    CHECK_MSG(t != NULL, "%s: %s", file, err);
    free(src);
    return t;
}

static void compare(const char *file, size_t n, sv_op op)
{
    static sv_value in[SV_MAX_N_BLOCKS];
    uint32_t x = (uint32_t)(n * 2654435761u + (unsigned)op);
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        in[i].i = (int32_t)((x >> 8) % 2001u) - 1000;
    }
    sv_ktrace *c = run(file, in, n, op, SV_RUNTIME_CPU);
    sv_ktrace *g = run(file, in, n, op, SV_RUNTIME_GPU);
    if (!c || !g) {
        sv_ktrace_destroy(c);
        sv_ktrace_destroy(g);
        return;
    }
    CHECK_MSG(c->failure.kind == SV_KFAIL_NONE && g->failure.kind == SV_KFAIL_NONE,
              "%s n=%zu op %d: cpu %d, gpu %d: %s", file, n, (int)op, (int)c->failure.kind,
              (int)g->failure.kind, g->failure.message ? g->failure.message : "");
    CHECK_MSG(g->backend == SV_BACKEND_CUDA && g->device && g->device[0], "%s: not the GPU's",
              file);
    bool same = c->nlaunches == g->nlaunches && c->nsteps == g->nsteps &&
                c->narrays == g->narrays;
    for (size_t i = 0; same && i < c->nlaunches; i++)
        same = strcmp(c->launches[i].kernel, g->launches[i].kernel) == 0 &&
               c->launches[i].grid == g->launches[i].grid &&
               c->launches[i].block == g->launches[i].block &&
               c->launches[i].line == g->launches[i].line &&
               c->launches[i].step == g->launches[i].step;
    CHECK_MSG(same, "%s n=%zu: the launches differ (cpu %zu, gpu %zu)", file, n, c->nlaunches,
              g->nlaunches);
    for (size_t a = 0; same && a < c->narrays; a++) {
        CHECK_MSG(strcmp(c->arrays[a].name, g->arrays[a].name) == 0 &&
                      c->arrays[a].kind == g->arrays[a].kind &&
                      c->arrays[a].len == g->arrays[a].len,
                  "%s n=%zu: arrays[%zu] %s / %s", file, n, a, c->arrays[a].name,
                  g->arrays[a].name);
        for (size_t k = 0; k < c->nsteps && c->arrays[a].len == g->arrays[a].len; k++) {
            size_t diff = 0;
            for (uint32_t i = 0; i < c->arrays[a].len; i++)
                diff += c->steps[k].written[a][i] &&
                        c->steps[k].cells[a][i].bits != g->steps[k].cells[a][i].bits;
            CHECK_MSG(diff == 0, "%s n=%zu op %d: %s after launch %zu: %zu cells differ", file,
                      n, (int)op, c->arrays[a].name, k + 1, diff);
        }
    }
    size_t out = 0;
    for (size_t i = 0; i < n; i++)
        out += c->output[i].bits != g->output[i].bits || !g->output_written[i];
    CHECK_MSG(out == 0, "%s n=%zu op %d: %zu output cells differ", file, n, (int)op, out);
    sv_ktrace_destroy(c);
    sv_ktrace_destroy(g);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_blocks_gpu TESTS_KERNELS_DIR\n");
        return 2;
    }
    kdir = argv[1];
    char why[512];
    if (!sv_runtime_available(SV_RUNTIME_GPU, why, sizeof why)) {
        printf("skip: %s\n", why);
        return 77;
    }
    static const size_t ns[] = {1, 63, 64, 65, 1000, 4096, 65536};
    static const sv_op ops[] = {SV_OP_SUM, SV_OP_MAX, SV_OP_XOR};
    for (size_t z = 0; z < sizeof ns / sizeof *ns; z++)
        for (size_t o = 0; o < 3; o++)
            compare("blocks_hier.cu", ns[z], ops[o]);
    static const char *const files[] = {"blocks_ticket.cu", "blocks_chained.cu",
                                        "blocks_no_fence.cu", "blocks_tiles.cu",
                                        "blocks_lookback.cu", "blocks_extern.cu"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++)
        for (size_t z = 0; z < sizeof ns / sizeof *ns; z++)
            compare(files[f], ns[z], SV_OP_SUM);
    static const size_t wn[] = {1, 31, 128, 129, 1000, 1024};
    for (size_t z = 0; z < sizeof wn / sizeof *wn; z++)
        compare("blocks_warp.cu", wn[z], SV_OP_SUM);
    return check_report("all many-block GPU checks passed");
}
