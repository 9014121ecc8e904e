/* test_blocks_gpu: kernel files of many blocks (issue 31) on the GPU runtime
 * (the CPU runtime's launches replayed by NVRTC's kernels, process.c and
 * gpu_run.c) against the CPU runtime, bit for bit: for each file and n the
 * output, the launches (kernel, grid, block, line, step), the arrays (names,
 * kinds, lengths) and every array's cells after every launch; sum, max and
 * xor for the hierarchical scan; n from 1 to 65,536. Exits 77 without a
 * usable GPU.
 *   test_blocks_gpu TESTS_KERNELS_DIR */
#include <inttypes.h>
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

static int by_range(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/* How many publishes of t (launch l) wrote value v to cell of array a, and
 * by how many tiles that cell was published. */
static size_t publishes(const sv_ktrace *t, uint32_t l, uint16_t a, uint32_t cell, uint32_t v,
                        size_t *tiles)
{
    size_t k = 0;
    uint32_t last = UINT32_MAX;
    *tiles = 0;
    for (size_t e = 0; e < t->nevents; e++) {
        const sv_kevent *x = &t->events[e];
        if (x->kind != SV_KEVENT_PUBLISH || t->tiles[x->tile].launch != l || x->array != a ||
            x->cell != cell)
            continue;
        k += x->value.bits == v;
        if (x->tile != last)
            (*tiles)++;
        last = x->tile;
    }
    return k;
}

/* The GPU's tiles (issue 31, %globaltimer): every launch's blocks, each
 * with its start before its end, the same out[] ranges as the CPU run's
 * (as a set: a ticket may give them to other blocks), and the publishes
 * of each cell one tile publishes on the CPU with the same values. */
static void compare_tiles(const char *file, size_t n, const sv_ktrace *c, const sv_ktrace *g)
{
    CHECK_MSG(g->ntiles == c->ntiles, "%s n=%zu: %zu tiles on the GPU, %zu on the CPU", file, n,
              g->ntiles, c->ntiles);
    if (g->ntiles != c->ntiles)
        return;
    int64_t (*rc)[2] = calloc(c->ntiles + 1, sizeof *rc), (*rg)[2] = calloc(g->ntiles + 1, sizeof *rg);
    for (size_t i = 0; rc && rg && i < c->ntiles; i++) {
        CHECK_MSG(g->tiles[i].launch == c->tiles[i].launch && g->tiles[i].block == c->tiles[i].block &&
                      g->tiles[i].end != SV_KTRACE_NO_TIME && g->tiles[i].end >= g->tiles[i].start,
                  "%s n=%zu: GPU tile %zu", file, n, i);
        rc[i][0] = (int64_t)c->tiles[i].launch << 32 | (c->tiles[i].out_lo & 0xffffffff);
        rc[i][1] = c->tiles[i].out_hi;
        rg[i][0] = (int64_t)g->tiles[i].launch << 32 | (g->tiles[i].out_lo & 0xffffffff);
        rg[i][1] = g->tiles[i].out_hi;
    }
    if (rc && rg) {
        qsort(rc, c->ntiles, sizeof *rc, by_range);
        qsort(rg, g->ntiles, sizeof *rg, by_range);
        CHECK_MSG(memcmp(rc, rg, c->ntiles * sizeof *rc) == 0,
                  "%s n=%zu: the tiles' out[] ranges differ", file, n);
    }
    free(rc);
    free(rg);
    size_t checked = 0, differ = 0;
    for (size_t e = 0; e < c->nevents && g->events_dropped == 0 && c->events_dropped == 0; e++) {
        const sv_kevent *x = &c->events[e];
        if (x->kind != SV_KEVENT_PUBLISH)
            continue;
        const uint32_t l = c->tiles[x->tile].launch;
        size_t tc, tg;
        size_t kc = publishes(c, l, x->array, x->cell, x->value.bits, &tc);
        size_t kg = publishes(g, l, x->array, x->cell, x->value.bits, &tg);
        if (tc != 1)
            continue; /* a ticket, a counter: many tiles, the order theirs */
        checked++;
        differ += kc != kg;
    }
    CHECK_MSG(differ == 0, "%s n=%zu: %zu of %zu publishes differ on the GPU", file, n, differ,
              checked);
    if (n == 65536 && g->nlaunches) {
        uint64_t span = 0;
        for (size_t i = 0; i < g->ntiles; i++)
            if (g->tiles[i].launch == 0 && g->tiles[i].end > span)
                span = g->tiles[i].end;
        size_t pubs = 0;
        for (size_t e = 0; e < g->nevents; e++)
            pubs += g->events[e].kind == SV_KEVENT_PUBLISH;
        printf("%s n=%zu on %s: launch 1 %" PRIu32 " tiles over %.2f us, %zu publishes stamped, "
               "%zu checked against the CPU's\n", file, n, g->device, g->launches[0].grid,
               (double)span / 1e3, pubs, checked);
    }
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
    if (same)
        compare_tiles(file, n, c, g);
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
                                        "blocks_lookback.cu", "blocks_extern.cu",
                                        "blocks_memcpy.cu", "blocks_grid_2d.cu",
                                        "blocks_block_2d.cu"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++)
        for (size_t z = 0; z < sizeof ns / sizeof *ns; z++)
            compare(files[f], ns[z], SV_OP_SUM);
    static const size_t wn[] = {1, 31, 128, 129, 1000, 1024};
    for (size_t z = 0; z < sizeof wn / sizeof *wn; z++)
        compare("blocks_warp.cu", wn[z], SV_OP_SUM);
    return check_report("all many-block GPU checks passed");
}
