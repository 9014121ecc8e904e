/* Warp-level CUDA on the CPU runtime (issue 30): the kernels of
 * tests/kernels/ that use shuffles, votes, __syncwarp, the counting
 * barriers, atomics, the bit intrinsics and assert, each run as a user's
 * file for several n and schedules. Every output is checked bit for bit
 * against a plain C computation here (not the runtime's), every failure by
 * kind, thread, line (the file's MARK) and words, and the race / no-race
 * verdict of the warp-synchronous pair.
 *   test_warp TESTS_KERNELS_DIR */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"

#include "core/fileio.h"
#include "core/ktrace.h"
#include "core/lab.h"
#include "runtime.h"
#include "need_cpu.h"

static const char *kdir;
static const char *const schedules[] = {"sequential", "reverse", "lockstep", "random:7", "warps:3"};
#define NSCHED (sizeof schedules / sizeof *schedules)
static const size_t sizes[] = {1, 31, 32, 33, 64, 100, 1024};
#define NSIZES (sizeof sizes / sizeof *sizes)

static sv_ktrace *run(const char *file, const int32_t *in, size_t n, const char *schedule,
                      char **src_out)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/%s", kdir, file);
    size_t len;
    char *src = sv_read_bounded(path, 1 << 20, "kernel", &len, err, sizeof err);
    CHECK_MSG(src != NULL, "%s", err);
    if (!src)
        return NULL;
    static sv_value vin[SV_MAX_N];
    for (size_t i = 0; i < n; i++)
        vin[i].i = in[i];
    sv_runtime_request req;
    memset(&req, 0, sizeof req);
    req.path = path;
    req.source = src;
    req.op = SV_OP_SUM;
    req.type = SV_TYPE_INT32;
    req.scan = SV_SCAN_INCLUSIVE;
    req.input = vin;
    req.n = n;
    req.backend = SV_RUNTIME_CPU;
    req.runs = 1;
    if (!sv_schedule_parse(schedule, &req.schedule, err, sizeof err)) {
        CHECK_MSG(false, "%s", err);
        free(src);
        return NULL;
    }
    sv_ktrace *t = sv_runtime_run(&req, err, sizeof err);
    CHECK_MSG(t != NULL, "%s: %s", file, err);
    if (src_out)
        *src_out = src;
    else
        free(src);
    return t;
}

static int mark_line(const char *src, const char *tag)
{
    char want[64];
    snprintf(want, sizeof want, "MARK: %s", tag);
    const char *p = strstr(src, want);
    int line = 1;
    for (const char *c = src; p && c < p; c++)
        line += *c == '\n';
    return p ? line : 0;
}

/* Seeded values in [-8, 23]: negatives, zeros and positives in every warp. */
static void input_of(size_t n, uint32_t seed, int32_t *in)
{
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        in[i] = (int32_t)(x >> 27) - 8;
    }
}

/* A run that must succeed with out[] == want and (hazards < 0: any) that
 * many hazards. */
static void check_run(const char *file, const int32_t *in, const int32_t *want, size_t n,
                      const char *sched, long long hazards)
{
    sv_ktrace *t = run(file, in, n, sched, NULL);
    if (!t)
        return;
    char what[160];
    snprintf(what, sizeof what, "%s n=%zu %s", file, n, sched);
    CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "%s: %s", what,
              t->failure.message ? t->failure.message : "");
    if (t->failure.kind == SV_KFAIL_NONE) {
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            if (t->output[i].i != want[i] && bad++ < 3)
                CHECK_MSG(false, "%s: out[%zu] = %d, want %d", what, i, t->output[i].i, want[i]);
        if (hazards >= 0)
            CHECK_MSG((long long)t->hazards_total == hazards, "%s: %llu hazards, want %lld", what,
                      (unsigned long long)t->hazards_total, hazards);
    }
    sv_ktrace_destroy(t);
}

static void inclusive(const int32_t *in, size_t n, int32_t *out)
{
    int32_t s = 0;
    for (size_t i = 0; i < n; i++)
        out[i] = s += in[i];
}

static int32_t in[SV_MAX_N], want[SV_MAX_N];

static void test_scans(void)
{
    for (size_t z = 0; z < NSIZES; z++) {
        size_t n = sizes[z];
        input_of(n, (uint32_t)n, in);
        inclusive(in, n, want);
        for (size_t s = 0; s < NSCHED; s++) {
            if (n <= 32) {
                check_run("warp_scan.cu", in, want, n, schedules[s], 0);
                check_run("warp_syncwarp.cu", in, want, n, schedules[s], 0);
            }
            check_run("block_warp_scan.cu", in, want, n, schedules[s], 0);
        }
    }
}

/* warp_race.cu: hazards wherever two lanes meet on a cell without a
 * __syncwarp between (n >= 2); how many depends on the schedule's order. */
static void test_warp_race(void)
{
    for (size_t n = 2; n <= 32; n += 15) {
        input_of(n, 3, in);
        for (size_t s = 0; s < NSCHED; s++) {
            sv_ktrace *t = run("warp_race.cu", in, n, schedules[s], NULL);
            if (!t)
                continue;
            CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "warp_race n=%zu %s: %s", n, schedules[s],
                      t->failure.message ? t->failure.message : "");
            CHECK_MSG(t->hazards_total > 0, "warp_race n=%zu %s: no hazard", n, schedules[s]);
            sv_ktrace_destroy(t);
        }
    }
}

static void ballot_want(const int32_t *v, size_t n, int32_t *out)
{
    for (size_t base = 0; base < n; base += 32) {
        size_t lanes = n - base < 32 ? n - base : 32;
        uint32_t b = 0;
        for (size_t l = 0; l < lanes; l++)
            if (v[base + l] > 0)
                b |= 1u << l;
        int ffs = 0;
        for (int k = 0; k < 32 && !ffs; k++)
            if (b >> k & 1)
                ffs = k + 1;
        for (size_t l = 0; l < lanes; l++) {
            int c = 0;
            for (size_t k = 0; k <= l; k++)
                c += v[base + k] > 0;
            uint32_t all = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
            out[base + l] = c + (b == all ? 1000 : 0) + (b ? 2000 : 0) + 10000 * ffs;
        }
    }
}

static void test_ballot(void)
{
    for (size_t z = 0; z < NSIZES; z++) {
        size_t n = sizes[z];
        input_of(n, 11, in);
        if (n >= 64)
            for (size_t i = 32; i < 64; i++)
                in[i] = (int32_t)i; /* one warp all positive: __all_sync true */
        ballot_want(in, n, want);
        for (size_t s = 0; s < NSCHED; s++)
            check_run("ballot_popc.cu", in, want, n, schedules[s], 0);
    }
}

static void test_syncthreads_count(void)
{
    for (size_t z = 0; z < NSIZES; z++) {
        size_t n = sizes[z];
        input_of(n, 5, in);
        int c = 0, a = 1, o = 0;
        for (size_t i = 0; i < n; i++) {
            c += in[i] > 0;
            a &= in[i] > -5;
            o |= in[i] > 15;
        }
        for (size_t i = 0; i < n; i++)
            want[i] = c + 10000 * a + 20000 * o;
        for (size_t s = 0; s < NSCHED; s++) {
            check_run("syncthreads_count.cu", in, want, n, schedules[s], 0);
        }
        sv_ktrace *t = run("syncthreads_count.cu", in, n, "lockstep", NULL);
        if (t) {
            CHECK_MSG(t->nsteps == 4, "syncthreads_count n=%zu: %zu steps, want 4", n, t->nsteps);
            sv_ktrace_destroy(t);
        }
    }
}

static void test_atomics(void)
{
    for (size_t z = 0; z < NSIZES; z++) {
        size_t n = sizes[z];
        input_of(n, 9, in);
        int32_t bins[8] = {0};
        for (size_t i = 0; i < n; i++)
            bins[in[i] & 7]++;
        for (size_t i = 0; i < n; i++)
            want[i] = i < 8 ? bins[i] : i == 8 ? (int32_t)n - 1 : i == 9 ? (int32_t)n : in[i];
        if (n > 10)
            want[10] += (int32_t)n;
        for (size_t s = 0; s < NSCHED; s++)
            check_run("atomic_hist.cu", in, want, n, schedules[s], 0);
    }
    /* what each atomic returns and leaves, n = 32 and 64 */
    for (size_t n = 32; n <= 64; n += 32) {
        for (size_t i = 0; i < n; i++)
            in[i] = (int32_t)(i * 7919 % 61) - 20;
        in[10] = 5, in[26] = 5;   /* atomicInc at its limit: 0 */
        in[11] = 0, in[27] = 9;   /* atomicDec from 0: the limit */
        in[14] = 0x3fc00000, in[30] = 0x40200000; /* 1.5f + 2.5f = 4.0f */
        for (size_t i = 0; i < n; i++)
            want[i] = in[i];
        for (int i = 0; i < 16; i++) {
            int32_t a = in[i], b = in[i + 16], w;
            uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
            switch (i) {
            case 0: w = (int32_t)(ua + ub); break;
            case 1: w = (int32_t)(ua - ub); break;
            case 2: w = a < b ? a : b; break;
            case 3: w = a > b ? a : b; break;
            case 4: w = b; break;
            case 5: w = b; break;          /* compare matched */
            case 6: w = a; break;          /* compare did not */
            case 7: w = a & b; break;
            case 8: w = a | b; break;
            case 9: w = a ^ b; break;
            case 10: w = (int32_t)(ua >= ub ? 0u : ua + 1); break;
            case 11: w = (int32_t)(ua == 0 || ua > ub ? ub : ua - 1); break;
            case 12: w = (int32_t)(ua < ub ? ua : ub); break;
            case 13: w = (int32_t)(ua > ub ? ua : ub); break;
            case 14: {
                float fa, fb, fr;
                memcpy(&fa, &a, 4);
                memcpy(&fb, &b, 4);
                fr = fa + fb;
                memcpy(&w, &fr, 4);
                break;
            }
            default: w = (int32_t)(ua + ub); break;
            }
            want[i] = a;
            want[i + 16] = w;
        }
        for (size_t s = 0; s < NSCHED; s++)
            check_run("atomic_ops.cu", in, want, n, schedules[s], 0);
    }
}

static int popc32(uint32_t x)
{
    int c = 0;
    for (; x; x >>= 1)
        c += x & 1;
    return c;
}
static int clz_n(uint64_t x, int bits)
{
    int c = 0;
    for (int k = bits - 1; k >= 0 && !(x >> k & 1); k--)
        c++;
    return c;
}
static int ffs_n(uint64_t x, int bits)
{
    for (int k = 0; k < bits; k++)
        if (x >> k & 1)
            return k + 1;
    return 0;
}
static uint64_t brev_n(uint64_t x, int bits)
{
    uint64_t r = 0;
    for (int k = 0; k < bits; k++)
        if (x >> k & 1)
            r |= 1ull << (bits - 1 - k);
    return r;
}

static void warp_misc_want(const int32_t *v, size_t n, int32_t *out)
{
    for (size_t i = 0; i < n; i++) {
        size_t lane = i % 32, base = i - lane, lanes = n - base < 32 ? n - base : 32;
        int32_t x = v[i], a = x, b = x, c = x;
        float f = (float)x * 0.5f;
        if (lanes == 32) {
            a = v[base + ((lane & ~7u) | 3)];
            b = (lane + 2) <= ((lane & 16) | 15) ? v[i + 2] : x;
            c = v[base + (lane ^ 5)];
            f = (float)v[base + (lane ^ 1)] * 0.5f;
        }
        uint32_t u = (uint32_t)x * 2654435761u;
        int bits = popc32(u) + 33 * clz_n(u >> (x & 31), 32) +
                   33 * 65 * ffs_n((uint32_t)(u << (x & 7)), 32);
        uint32_t r = (uint32_t)brev_n(u, 32) ^ (uint32_t)(brev_n(u, 64) >> 32);
        int mn = a < b ? a : b, m = (mn > c ? mn : c) + (int)(f < 0 ? -f : f);
        uint64_t u31 = (uint64_t)u << 31, u30 = (uint64_t)u << 30;
        int pc = popc32((uint32_t)u31) + popc32((uint32_t)(u31 >> 32));
        out[i] = (int32_t)((uint32_t)bits + 7u * (uint32_t)m + (r & 0xffu) * 100003u +
                           (uint32_t)pc + (uint32_t)clz_n(u, 64) + (uint32_t)ffs_n(u30, 64));
    }
}

static void test_warp_misc(void)
{
    for (size_t z = 0; z < NSIZES; z++) {
        size_t n = sizes[z];
        input_of(n, 21, in);
        in[0] = 0; /* __clz(0), __ffs(0) */
        warp_misc_want(in, n, want);
        for (size_t s = 0; s < NSCHED; s += 2)
            check_run("warp_misc.cu", in, want, n, schedules[s], 0);
    }
}

static void check_fail(const char *file, const int32_t *v, size_t n, const char *sched,
                       sv_kfail_kind kind, const char *mark, int thread, const char *says)
{
    char *src = NULL;
    sv_ktrace *t = run(file, v, n, sched, &src);
    if (!t) {
        free(src);
        return;
    }
    int line = mark_line(src, mark);
    CHECK(line > 0);
    const char *m = t->failure.message ? t->failure.message : "";
    CHECK_MSG(t->failure.kind == kind, "%s n=%zu %s: failure %s (%s), want %s", file, n, sched,
              sv_kfail_kind_name(t->failure.kind), m, sv_kfail_kind_name(kind));
    CHECK_MSG(t->failure.line == line, "%s n=%zu %s: line %d, want %d (%s)", file, n, sched,
              t->failure.line, line, m);
    CHECK_MSG(t->failure.thread == thread, "%s n=%zu %s: thread %d, want %d (%s)", file, n, sched,
              t->failure.thread, thread, m);
    char words[256];
    snprintf(words, sizeof words, says, line);
    CHECK_CONTAINS(m, words);
    sv_ktrace_destroy(t);
    free(src);
}

static void test_failures(void)
{
    for (size_t z = 2; z < NSIZES; z++) {
        size_t n = sizes[z];
        input_of(n, 1, in);
        for (size_t s = 0; s < NSCHED; s++) {
            check_fail("shfl_bad_mask.cu", in, n, schedules[s], SV_KFAIL_OUT_OF_RANGE, "shfl", 5,
                       "lane 5 (thread 5) reads lane 4, which is not in the mask 0xffffffef, at "
                       "line %d");
            check_fail("warp_barrier_deadlock.cu", in, n, schedules[s], SV_KFAIL_DEADLOCK,
                       "syncwarp", 0, "lane 0 (thread 0) waits at the __syncwarp of line %d for "
                       "lane 5 (thread 5) of its mask 0xffffffff, which waits at the "
                       "__syncthreads()");
        }
    }
    for (size_t n = 4; n <= 64; n += 60) {
        for (size_t i = 0; i < n; i++)
            in[i] = (int32_t)(i % 50);
        in[3] = 1000;
        for (size_t s = 0; s < NSCHED; s++)
            check_fail("assert_fails.cu", in, n, schedules[s], SV_KFAIL_CRASH, "assert", 3,
                       "thread 3: assert(in[i] < 100) failed at line %d");
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_warp TESTS_KERNELS_DIR\n");
        return 2;
    }
    kdir = argv[1];
    need_cpu_runtime(77);
    test_scans();
    test_warp_race();
    test_ballot();
    test_syncthreads_count();
    test_atomics();
    test_warp_misc();
    test_failures();
    return check_report("all warp-level tests passed");
}
