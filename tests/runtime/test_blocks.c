/* Many blocks and launches on the CPU runtime (issue 31): kernel files with a
 * host function scan that launches their kernels, run as a user's file for
 * several n and every schedule. Each output is checked against a plain C
 * scan here (not the runtime's), the launches against what the file's host
 * function must have asked for, every failure by kind, line (the file's
 * MARK) and words, the hazards between blocks by kind and lines, and the
 * trace file's launches read back.
 *   test_blocks TESTS_KERNELS_DIR */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"

#include "core/fileio.h"
#include "core/ktrace.h"
#include "core/ktrace_file.h"
#include "core/lab.h"
#include "runtime.h"
#include "need_cpu.h"

static const char *kdir;
static const char *const schedules[] = {"sequential", "reverse", "lockstep", "random:7", "warps:3"};
#define NSCHED (sizeof schedules / sizeof *schedules)

static char *source_of(const char *file)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", kdir, file);
    size_t len;
    char *src = sv_read_bounded(path, 1 << 20, "kernel", &len, err, sizeof err);
    CHECK_MSG(src != NULL, "%s", err);
    return src;
}

static uint32_t time_limit_ms; /* 0: the runtime's default */
static uint32_t runs_asked;    /* 0: one run */
static void (*runs_progress)(void *, uint32_t, uint32_t); /* req.progress */

/* What the runtime said of its launches as they ran (req.launched), in
 * order: each launch's number, blocks ended and grid. */
static uint32_t launched[4096][3];
static size_t nlaunched;

static void on_launched(void *ctx, uint32_t k, uint32_t ended, uint32_t grid)
{
    (void)ctx;
    if (nlaunched < sizeof launched / sizeof *launched) {
        launched[nlaunched][0] = k;
        launched[nlaunched][1] = ended;
        launched[nlaunched][2] = grid;
    }
    nlaunched++;
}

/* Whether the records say: launches 1 .. k in order, each from 0 of its grid
 * (its blocks) to all of them, never backwards, at most 65 records each. */
static bool launches_heard(size_t k, const uint32_t *grids)
{
    size_t at = 0;
    for (uint32_t l = 1; l <= k; l++) {
        size_t first = at;
        if (at >= nlaunched || launched[at][0] != l || launched[at][1] != 0 ||
            launched[at][2] != grids[l - 1])
            return false;
        while (at + 1 < nlaunched && launched[at + 1][0] == l && launched[at + 1][1] >=
               launched[at][1] && launched[at + 1][2] == grids[l - 1])
            at++;
        if (launched[at][1] != grids[l - 1] || at - first > 64)
            return false;
        at++;
    }
    return at == nlaunched;
}

static sv_ktrace *run(const char *file, const sv_value *in, size_t n, sv_op op, sv_type type,
                      const char *schedule, sv_runtime_backend backend)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", kdir, file);
    char *src = source_of(file);
    if (!src)
        return NULL;
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.path = path;
    req.source = src;
    req.op = op;
    req.type = type;
    req.scan = SV_SCAN_INCLUSIVE;
    req.input = in;
    req.n = n;
    req.backend = backend;
    req.runs = runs_asked ? runs_asked : 1;
    req.progress = runs_progress;
    req.time_limit_ms = time_limit_ms;
    req.launched = on_launched;
    nlaunched = 0;
    if (!sv_schedule_parse(schedule, &req.schedule, err, sizeof err)) {
        CHECK_MSG(false, "%s", err);
        free(src);
        return NULL;
    }
    sv_ktrace *t = sv_runtime_run(&req, err, sizeof err);
    CHECK_MSG(t != NULL, "%s: %s", file, err);
    free(src);
    return t;
}

static int mark_line(const char *file, const char *tag)
{
    char *src = source_of(file), want[64];
    if (!src)
        return 0;
    snprintf(want, sizeof want, "MARK: %s", tag);
    const char *p = strstr(src, want);
    int line = 1;
    for (const char *c = src; p && c < p; c++)
        line += *c == '\n';
    free(src);
    return p ? line : 0;
}

/* Seeded values in [-8, 23]. */
static void input_of(size_t n, uint32_t seed, sv_value *in)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        in[i].i = (int32_t)((x >> 16) % 32) - 8;
    }
}

/* The inclusive scan of op over int32 values, as C computes it. */
static int32_t apply(sv_op op, int32_t a, int32_t b)
{
    switch (op) {
    case SV_OP_MAX:
        return a > b ? a : b;
    case SV_OP_XOR:
        return a ^ b;
    default:
        return (int32_t)((uint32_t)a + (uint32_t)b);
    }
}

static bool right(const sv_ktrace *t, const sv_value *in, size_t n, sv_op op)
{
    if (!t->output)
        return false;
    int32_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        acc = i ? apply(op, acc, in[i].i) : in[i].i;
        if (!t->output_written[i] || t->output[i].i != acc)
            return false;
    }
    return true;
}

/* The runs' progress the runtime reported (req.progress): calls, the last. */
static uint32_t runs_calls, runs_last_done, runs_last_of;

static void on_runs(void *ctx, uint32_t done, uint32_t runs)
{
    (void)ctx;
    runs_calls++;
    runs_last_done = done;
    runs_last_of = runs;
}

/* --runs: a single block's runs in one child, a host function's a child a
 * run; each reports its runs as they end, and counts them in the trace. */
static void many_runs(void)
{
    static sv_value in[1000];
    input_of(1000, 3, in);
    static const struct { const char *file; size_t n; } files[] = {
        {"double_buffer.cu", 256}, {"blocks_hier.cu", 1000}};
    runs_asked = 5;
    runs_progress = on_runs;
    for (size_t f = 0; f < 2; f++) {
        runs_calls = runs_last_done = runs_last_of = 0;
        sv_ktrace *t = run(files[f].file, in, files[f].n, SV_OP_SUM, SV_TYPE_INT32, "random:2",
                           SV_RUNTIME_CPU);
        if (t)
            CHECK_MSG(t->runs == 5 && t->wrong_runs == 0 && t->failure.kind == SV_KFAIL_NONE &&
                          right(t, in, files[f].n, SV_OP_SUM),
                      "%s --runs 5: %u runs, %u wrong", files[f].file, t->runs, t->wrong_runs);
        CHECK_MSG(runs_calls >= 1 && runs_last_done == 5 && runs_last_of == 5,
                  "%s --runs 5: %u progress calls, the last %u of %u", files[f].file, runs_calls,
                  runs_last_done, runs_last_of);
        sv_ktrace_destroy(t);
    }
    runs_asked = 0;
    runs_progress = NULL;
}

static void hierarchical(void)
{
    static const size_t sizes[] = {1, 63, 64, 65, 1000, 1024};
    static const sv_op ops[] = {SV_OP_SUM, SV_OP_MAX, SV_OP_XOR};
    static sv_value in[SV_MAX_N];
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (size_t s = 0; s < NSCHED; s++)
            for (size_t o = 0; o < 3; o++) {
                size_t n = sizes[z];
                if (o > 0 && n != 1000)
                    continue;
                input_of(n, (uint32_t)(z * 31 + s), in);
                sv_ktrace *t = run("blocks_hier.cu", in, n, ops[o], SV_TYPE_INT32, schedules[s],
                                   SV_RUNTIME_CPU);
                if (!t)
                    continue;
                CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "hier n=%zu %s: %s", n, schedules[s],
                          t->failure.message ? t->failure.message : "");
                CHECK_MSG(right(t, in, n, ops[o]), "hier n=%zu %s op %d: output wrong", n,
                          schedules[s], (int)ops[o]);
                CHECK_MSG(t->nhazards == 0 && t->hazards_total == 0, "hier n=%zu %s: hazards", n,
                          schedules[s]);
                uint32_t blocks = (uint32_t)((n + 63) / 64);
                CHECK(t->nlaunches == 3 && t->nsteps == 3);
                /* the parent heard of each launch's blocks as they ran (the window's
                 * progress) */
                const uint32_t grids[3] = {blocks, 1, blocks};
                CHECK_MSG(launches_heard(3, grids), "hier n=%zu %s: %zu progress records", n,
                          schedules[s], nlaunched);
                if (t->nlaunches == 3) {
                    CHECK(strcmp(t->launches[0].kernel, "block_scan") == 0 &&
                          t->launches[0].grid == blocks && t->launches[0].block == 64 &&
                          t->launches[0].step == 0);
                    CHECK(strcmp(t->launches[1].kernel, "scan_sums") == 0 &&
                          t->launches[1].grid == 1 && t->launches[1].block == 1);
                    CHECK(strcmp(t->launches[2].kernel, "add_back") == 0 &&
                          t->launches[2].grid == blocks && t->launches[2].step == 2);
                    CHECK(t->launches[0].line == mark_line("blocks_hier.cu", "") ||
                          t->launches[0].line > 0);
                }
                /* out and the block sums, the sums scanned after launch 2 */
                CHECK(t->narrays == 2 && strcmp(t->arrays[1].name, "sums") == 0 &&
                      t->arrays[1].kind == SV_KARRAY_GLOBAL && t->arrays[1].len == blocks);
                if (t->narrays == 2 && t->nsteps == 3 && ops[o] == SV_OP_SUM) {
                    int32_t acc = 0;
                    for (uint32_t b = 0; b < blocks; b++) {
                        int32_t block = 0;
                        for (size_t i = b * 64; i < n && i < (b + 1) * 64; i++)
                            block += in[i].i;
                        acc += block;
                        CHECK_MSG(t->steps[0].cells[1][b].i == block &&
                                      t->steps[1].cells[1][b].i == acc,
                                  "hier n=%zu: sums[%u] after launches 1 and 2", n, b);
                    }
                }
                sv_ktrace_destroy(t);
            }
}

/* The block's scan made of warp scans (__shfl_up_sync in every block, and
 * in the one warp that scans the block sums). */
static void warps(void)
{
    static const size_t sizes[] = {1, 31, 128, 129, 1000, 1024};
    static sv_value in[SV_MAX_N];
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (size_t s = 0; s < NSCHED; s++) {
            size_t n = sizes[z];
            input_of(n, (uint32_t)(5 * z + s), in);
            sv_ktrace *t = run("blocks_warp.cu", in, n, SV_OP_SUM, SV_TYPE_INT32, schedules[s],
                               SV_RUNTIME_CPU);
            if (!t)
                continue;
            CHECK_MSG(t->failure.kind == SV_KFAIL_NONE && right(t, in, n, SV_OP_SUM),
                      "warps n=%zu %s: %s", n, schedules[s],
                      t->failure.message ? t->failure.message : "wrong");
            CHECK(t->nlaunches == 3 && t->launches[0].block == 128 &&
                  t->launches[0].grid == (n + 127) / 128 && t->launches[1].block == 32);
            sv_ktrace_destroy(t);
        }
}

/* A decoupled look-back (64-bit statuses, a ticket), the hierarchical scan
 * with dynamic shared memory, on a 2-D grid, with 2-D blocks, and with a
 * launch a round and cudaMemcpy: right under every schedule. */
static void lookback_and_extern(void)
{
    static const size_t sizes[] = {1, 64, 65, 1000, 4096};
    static sv_value in[SV_MAX_N_BLOCKS];
    static const char *const files[] = {"blocks_lookback.cu", "blocks_extern.cu",
                                        "blocks_grid_2d.cu", "blocks_memcpy.cu",
                                        "blocks_block_2d.cu"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++)
        for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
            for (size_t s = 0; s < NSCHED; s++) {
                size_t n = sizes[z];
                input_of(n, (uint32_t)(z * 3 + s + 11 * f), in);
                sv_ktrace *t = run(files[f], in, n, SV_OP_SUM, SV_TYPE_INT32, schedules[s],
                                   SV_RUNTIME_CPU);
                if (!t)
                    continue;
                CHECK_MSG(t->failure.kind == SV_KFAIL_NONE && right(t, in, n, SV_OP_SUM) &&
                              t->hazards_total == 0,
                          "%s n=%zu %s: %s", files[f], n, schedules[s],
                          t->failure.message ? t->failure.message : "wrong or hazards");
                if (f == 2 && t->nlaunches == 3) /* (16, rows) blocks of 64 */
                    CHECK_MSG(t->launches[0].dims[0] == 16 &&
                                  t->launches[0].dims[1] == ((n + 63) / 64 + 15) / 16 &&
                                  t->launches[0].grid == 16 * t->launches[0].dims[1] &&
                                  t->launches[1].dims[1] <= 1,
                              "grid_2d n=%zu: launch 1 of (%u, %u) = %u blocks", n,
                              t->launches[0].dims[0], t->launches[0].dims[1],
                              t->launches[0].grid);
                if (f == 4 && t->nlaunches == 3) /* blocks of (8, 8): 64 threads */
                    CHECK_MSG(t->launches[0].block == 64 && t->launches[0].block_dims[0] == 8 &&
                                  t->launches[0].block_dims[1] == 8 &&
                                  t->launches[0].block_dims[2] == 1 &&
                                  t->launches[1].block == 1 && t->launches[1].block_dims[1] <= 1 &&
                                  t->launches[2].block_dims[1] == 8,
                              "block_2d n=%zu: blocks of %u = (%u, %u, %u)", n,
                              t->launches[0].block, t->launches[0].block_dims[0],
                              t->launches[0].block_dims[1], t->launches[0].block_dims[2]);
                sv_ktrace_destroy(t);
            }
}

static void chained(void)
{
    static const size_t sizes[] = {1, 33, 100, 1024};
    static sv_value in[SV_MAX_N];
    const int wait = mark_line("blocks_chained.cu", "wait");
    CHECK(wait > 0);
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (size_t s = 0; s < NSCHED; s++) {
            size_t n = sizes[z];
            input_of(n, (uint32_t)(z + 7 * s), in);
            /* with a ticket: right under every schedule */
            sv_ktrace *t = run("blocks_ticket.cu", in, n, SV_OP_SUM, SV_TYPE_INT32, schedules[s],
                               SV_RUNTIME_CPU);
            if (t) {
                CHECK_MSG(t->failure.kind == SV_KFAIL_NONE && right(t, in, n, SV_OP_SUM) &&
                              t->hazards_total == 0,
                          "ticket n=%zu %s: %s", n, schedules[s],
                          t->failure.message ? t->failure.message : "wrong or hazards");
                CHECK(t->nlaunches == 1 && t->launches[0].grid == (n + 31) / 32);
                sv_ktrace_destroy(t);
            }
            /* without: right when blocks start in order, else the block it
             * waits for has not started */
            t = run("blocks_chained.cu", in, n, SV_OP_SUM, SV_TYPE_INT32, schedules[s],
                    SV_RUNTIME_CPU);
            if (!t)
                continue;
            bool in_order = strcmp(schedules[s], "reverse") != 0 &&
                            strncmp(schedules[s], "random", 6) != 0;
            if (in_order || n <= 64) { /* (two blocks: both resident at once) */
                CHECK_MSG(t->failure.kind == SV_KFAIL_NONE && right(t, in, n, SV_OP_SUM),
                          "chained n=%zu %s: %s", n, schedules[s],
                          t->failure.message ? t->failure.message : "wrong");
            } else {
                const char *m = t->failure.message ? t->failure.message : "";
                CHECK_MSG(t->failure.kind == SV_KFAIL_DEADLOCK && t->failure.line == wait &&
                              strstr(m, "blocks may start in any order") &&
                              strstr(m, "which has not started") && strstr(m, "flags["),
                          "chained n=%zu %s: %d at line %d: %s", n, schedules[s],
                          (int)t->failure.kind, (int)t->failure.line, m);
                /* the launch it stopped in is kept, with the tiles that started:
                 * the one or two resident when it stopped never ended, one of them
                 * waits at the line on the flag before its own */
                CHECK(t->nlaunches == 1 && t->nsteps == 1 && t->failure.step == 0 &&
                      t->ntiles >= 1 && t->ntiles < t->launches[0].grid);
                bool named = false;
                size_t stuck = 0;
                for (size_t i = 0; i < t->ntiles; i++) {
                    stuck += t->tiles[i].end == SV_KTRACE_NO_TIME;
                    for (size_t e = 0; e < t->nevents; e++)
                        named = named || (t->events[e].tile == i &&
                                          t->events[e].kind == SV_KEVENT_WAIT &&
                                          t->events[e].line == wait &&
                                          t->events[e].cell + 1 == t->tiles[i].block);
                }
                CHECK_MSG(named && stuck >= 1 && stuck <= 2,
                          "chained n=%zu %s: %zu tiles stuck, none waits for the flag before "
                          "its own", n, schedules[s], stuck);
            }
            sv_ktrace_destroy(t);
        }
}

static void one_launch(void)
{
    static sv_value in[SV_MAX_N];
    const size_t n = 100;
    input_of(n, 3, in);
    const int rd = mark_line("blocks_one_launch.cu", "read"),
              wr = mark_line("blocks_one_launch.cu", "write");
    sv_ktrace *t = run("blocks_one_launch.cu", in, n, SV_OP_SUM, SV_TYPE_INT32, "sequential",
                       SV_RUNTIME_CPU);
    if (t) {
        CHECK_MSG(right(t, in, n, SV_OP_SUM) && t->hazards_total == 0,
                  "one launch, in order: right and no hazard");
        sv_ktrace_destroy(t);
    }
    t = run("blocks_one_launch.cu", in, n, SV_OP_SUM, SV_TYPE_INT32, "reverse", SV_RUNTIME_CPU);
    if (!t)
        return;
    CHECK_MSG(!right(t, in, n, SV_OP_SUM), "one launch, reversed: the sums are read too early");
    /* sums[b] of 5 of the 6 blocks read by a later block before it was
     * written (under reverse, the resident blocks take their turns from the
     * last slot: block 5 writes its sum before block 6, beside it, reads it) */
    CHECK_MSG(t->nhazards == 5 && t->hazards_total == 5, "%zu hazards", t->nhazards);
    for (size_t h = 0; h < t->nhazards; h++) {
        const sv_khazard *z = &t->hazards[h];
        CHECK(z->kind == SV_KHAZARD_WAR && z->step == 0 && z->array == 1 &&
              z->first.line == rd && z->second.line == wr && z->first.thread / 16 > z->cell &&
              z->second.thread / 16 == z->cell);
        /* the write's value is what it stored (the sum the step holds), not the cell's
         * value before the store */
        CHECK_MSG(z->second.value.bits == t->steps[0].cells[1][z->cell].bits,
                  "hazard %zu: the write of sums[%u] holds %d, the step %d", h, z->cell,
                  (int)z->second.value.bits, (int)t->steps[0].cells[1][z->cell].bits);
    }
    sv_ktrace_destroy(t);
}

/* A block's race in a file of many blocks: hazards between its threads, in
 * launch 1, at the round's line, named by the block's shared array. */
static void block_race(void)
{
    static sv_value in[SV_MAX_N];
    const int round = mark_line("blocks_no_barrier.cu", "round");
    for (size_t s = 0; s < NSCHED; s++) {
        input_of(200, (uint32_t)s, in);
        sv_ktrace *t = run("blocks_no_barrier.cu", in, 200, SV_OP_SUM, SV_TYPE_INT32,
                           schedules[s], SV_RUNTIME_CPU);
        if (!t)
            continue;
        CHECK_MSG(t->nhazards > 0 && t->hazards_total >= t->nhazards, "no barrier %s: %zu hazards",
                  schedules[s], t->nhazards);
        for (size_t h = 0; h < t->nhazards; h++) {
            const sv_khazard *z = &t->hazards[h];
            CHECK(z->step == 0 && z->array < t->narrays &&
                  strcmp(t->arrays[z->array].name, "buf") == 0 &&
                  t->arrays[z->array].kind == SV_KARRAY_SHARED && !t->arrays[z->array].touched &&
                  z->first.line == round && z->second.line == round &&
                  z->first.thread / 64 == z->second.thread / 64 &&
                  z->first.thread != z->second.thread);
        }
        sv_ktrace_destroy(t);
    }
    /* and none in the right file */
    input_of(200, 1, in);
    sv_ktrace *t = run("blocks_hier.cu", in, 200, SV_OP_SUM, SV_TYPE_INT32, "random:7",
                       SV_RUNTIME_CPU);
    if (t) {
        CHECK(t->hazards_total == 0 && t->narrays == 2);
        sv_ktrace_destroy(t);
    }
}

/* Memory order: a flag published before its data with no __threadfence()
 * between is named (a RAW hazard of the data's cell, its write then the
 * read after the flag); with the fence (blocks_chained.cu) it is not. */
static void memory_order(void)
{
    static sv_value in[SV_MAX_N];
    const int data = mark_line("blocks_no_fence.cu", "data"),
              rd = mark_line("blocks_no_fence.cu", "read data");
    input_of(100, 4, in);
    sv_ktrace *t = run("blocks_no_fence.cu", in, 100, SV_OP_SUM, SV_TYPE_INT32, "sequential",
                       SV_RUNTIME_CPU);
    if (!t)
        return;
    CHECK_MSG(right(t, in, 100, SV_OP_SUM), "no fence: right on the CPU runtime");
    /* 4 blocks: blocks 1, 2, 3 each read a prefix published without a fence */
    CHECK_MSG(t->nhazards == 3 && t->hazards_total == 3, "no fence: %zu hazards", t->nhazards);
    for (size_t h = 0; h < t->nhazards; h++) {
        const sv_khazard *z = &t->hazards[h];
        CHECK(z->kind == SV_KHAZARD_RAW && z->array < t->narrays &&
              strcmp(t->arrays[z->array].name, "prefix") == 0 && z->first.line == data &&
              z->second.line == rd && z->first.thread == 32 * z->cell &&
              z->second.thread == 32 * (z->cell + 1));
    }
    sv_ktrace_destroy(t);
}

static void refusals(void)
{
    static sv_value in[64];
    input_of(64, 1, in);
    struct {
        const char *file, *mark, *words;
        sv_kfail_kind kind;
    } cases[] = {
        {"blocks_no_host.cu", "launch", "host function void scan", SV_KFAIL_REFUSED},
        {"blocks_host_reads.cu", "host read", "the host function scan read in[0]",
         SV_KFAIL_OUT_OF_RANGE},
        /* the host function is as walled in as its kernels */
        {"blocks_host_wild.cu", "wild", "the host function scan read memory that is not the "
         "kernel's (address 0x12345678", SV_KFAIL_OUT_OF_RANGE},
        {"blocks_host_loop.cu", "loop", "past its time limit of 2000 ms", SV_KFAIL_TIME},
        {"blocks_many_arrays.cu", "alloc", "13 arrays in a run", SV_KFAIL_MEMORY},
    };
    time_limit_ms = 2000;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        sv_ktrace *t = run(cases[i].file, in, 64, SV_OP_SUM, SV_TYPE_INT32, "sequential",
                           SV_RUNTIME_CPU);
        if (!t)
            continue;
        const char *m = t->failure.message ? t->failure.message : "";
        CHECK_MSG(t->failure.kind == cases[i].kind && strstr(m, cases[i].words) &&
                      t->failure.line == mark_line(cases[i].file, cases[i].mark),
                  "%s: %d at line %d: %s", cases[i].file, (int)t->failure.kind,
                  (int)t->failure.line, m);
        sv_ktrace_destroy(t);
    }
    time_limit_ms = 0;
    /* n past one block: a file without a host function is refused in words */
    static sv_value big[2000];
    input_of(2000, 2, big);
    sv_ktrace *one = run("double_buffer.cu", big, 2000, SV_OP_SUM, SV_TYPE_INT32, "sequential",
                         SV_RUNTIME_CPU);
    if (one) {
        CHECK_MSG(one->failure.kind == SV_KFAIL_SIGNATURE && one->failure.message &&
                      strstr(one->failure.message, "n = 2000: a kernel file without a host "
                             "function scan runs as one block"),
                  "one block at n = 2000: %d %s", (int)one->failure.kind,
                  one->failure.message ? one->failure.message : "");
        sv_ktrace_destroy(one);
    }
    one = run("blocks_hier.cu", big, 2000, SV_OP_SUM, SV_TYPE_INT32, "reverse", SV_RUNTIME_CPU);
    if (one) {
        CHECK_MSG(one->failure.kind == SV_KFAIL_NONE && right(one, big, 2000, SV_OP_SUM) &&
                      one->nlaunches == 3 && one->launches[0].grid == 32,
                  "hier at n = 2000: %s", one->failure.message ? one->failure.message : "wrong");
        sv_ktrace_destroy(one);
    }
    /* a file with a host function on the GPU backend, where there is none:
     * said (tests/gpu/test_blocks_gpu.c runs it where there is one) */
    char why[256];
    if (!sv_runtime_available(SV_RUNTIME_GPU, why, sizeof why)) {
        sv_ktrace *t = run("blocks_hier.cu", in, 64, SV_OP_SUM, SV_TYPE_INT32, "sequential",
                           SV_RUNTIME_GPU);
        if (t) {
            CHECK_MSG(t->failure.kind == SV_KFAIL_UNAVAILABLE && t->failure.message &&
                          t->failure.message[0],
                      "hier on no GPU: %d", (int)t->failure.kind);
            sv_ktrace_destroy(t);
        }
    }
}

static void file_round_trip(void)
{
    static sv_value in[SV_MAX_N];
    input_of(300, 9, in);
    sv_ktrace *t = run("blocks_hier.cu", in, 300, SV_OP_SUM, SV_TYPE_INT32, "random:3",
                       SV_RUNTIME_CPU);
    if (!t)
        return;
    char *buf = NULL, err[512];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f && sv_ktrace_write(t, f, err, sizeof err));
    if (f)
        fclose(f);
    CHECK(buf && strstr(buf, "\"launches\": [") &&
          strstr(buf, "{\"kernel\": \"block_scan\", \"grid\": 5, \"block\": 64, \"shared\": 0"));
    sv_ktrace *u = buf ? sv_ktrace_parse(buf, err, sizeof err) : NULL;
    CHECK_MSG(u != NULL, "read back: %s", err);
    if (u) {
        CHECK(u->nlaunches == 3 && u->narrays == 2 && u->arrays[1].kind == SV_KARRAY_GLOBAL);
        for (size_t i = 0; i < u->nlaunches && i < t->nlaunches; i++)
            CHECK(strcmp(u->launches[i].kernel, t->launches[i].kernel) == 0 &&
                  u->launches[i].grid == t->launches[i].grid &&
                  u->launches[i].block == t->launches[i].block &&
                  u->launches[i].line == t->launches[i].line &&
                  u->launches[i].step == t->launches[i].step);
        sv_ktrace_destroy(u);
    }
    /* a launch's step past the steps, a kernel that is no identifier: refused */
    if (buf) {
        char *bad = strdup(buf);
        char *p = bad ? strstr(bad, "\"step\": 2}") : NULL;
        if (p) {
            p[8] = '7';
            sv_ktrace *v = sv_ktrace_parse(bad, err, sizeof err);
            CHECK_MSG(v == NULL && strstr(err, "launches"), "a launch past the steps: %s", err);
            sv_ktrace_destroy(v);
        }
        free(bad);
        bad = strdup(buf);
        p = bad ? strstr(bad, "\"kernel\": \"add_back\"") : NULL;
        if (p) {
            p[14] = ' ';
            sv_ktrace *v = sv_ktrace_parse(bad, err, sizeof err);
            CHECK_MSG(v == NULL && strstr(err, "identifier"), "a kernel's name: %s", err);
            sv_ktrace_destroy(v);
        }
        free(bad);
    }
    free(buf);
    /* trimmed to fit a smaller file: the launches whose steps went go with
     * their tiles and events, and what stays still validates and reads back */
    const size_t before = t->ntiles;
    size_t dropped = 0; /* the largest budget that drops a step (a call that drops none is a no-op) */
    for (size_t b = 1u << 20; b > 1000 && !dropped; b -= 500)
        dropped = sv_ktrace_trim(t, b);
    CHECK(dropped > 0 && t->nsteps > 0);
    CHECK_MSG(t->nlaunches < 3 && t->ntiles < before, "trimmed: %zu launches, %zu of %zu tiles",
              t->nlaunches, t->ntiles, before);
    for (size_t i = 0; i < t->nlaunches; i++)
        CHECK(t->launches[i].step < t->nsteps);
    CHECK_MSG(sv_ktrace_validate(t, err, sizeof err), "trimmed: %s", err);
    buf = NULL;
    f = open_memstream(&buf, &len);
    CHECK(f && sv_ktrace_write(t, f, err, sizeof err));
    if (f)
        fclose(f);
    sv_ktrace *w = buf ? sv_ktrace_parse(buf, err, sizeof err) : NULL;
    CHECK_MSG(w && w->ntiles == t->ntiles && w->nevents == t->nevents, "trimmed, read back: %s",
              w ? "tiles differ" : err);
    sv_ktrace_destroy(w);
    free(buf);
    sv_ktrace_destroy(t);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_blocks TESTS_KERNELS_DIR\n");
        return 2;
    }
    kdir = argv[1];
    /* the default time limit: 5 s, or 20 us a value past 250,000 (21 s at 2^20) */
    sv_runtime_request tl;
    memset(&tl, 0, sizeof tl);
    tl.n = 1000;
    CHECK_INT((int)sv_runtime_time_limit_ms(&tl), SV_RUNTIME_DEFAULT_TIME_LIMIT_MS);
    tl.n = (size_t)1 << 20;
    CHECK_INT((int)sv_runtime_time_limit_ms(&tl), 20971);
    tl.time_limit_ms = 7000;
    CHECK_INT((int)sv_runtime_time_limit_ms(&tl), 7000);
    need_cpu_runtime(77);
    hierarchical();
    many_runs();
    warps();
    lookback_and_extern();
    chained();
    one_launch();
    block_race();
    memory_order();
    refusals();
    file_round_trip();
    return check_report("all many-block tests passed");
}
