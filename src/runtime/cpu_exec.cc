// The CPU runtime's run of a compiled kernel (cpu_exec.h).
//
// Each CUDA thread is a boost::context::fiber on a stack of its own. The
// kernel's code calls back into this file through the table of cuda_cpu.h:
// access() before every load and store that is not a plain local (the
// compiler's -fsanitize=thread instrumentation), sync() for __syncthreads(),
// shared() when a static __shared__ declaration first runs. access()
// classifies the address (a shared array, in[], out[], or something else,
// ignored), checks the index, records the access and, under the schedules
// that interleave at accesses, parks the fiber before the access so that the
// scheduler decides who goes next. A write's value is read back at the
// thread's next call (nothing else runs in between: the fibers are
// cooperative). The scheduler runs on the process's own stack.
#include "cpu_exec.h"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <boost/context/fiber.hpp>

#include "backend.h"
#include "sandbox.h"
#define SV_RT_HOOKS_ONLY
#include "cuda_cpu.h" /* the table through which the kernel's code calls back */
#include "print_format.h"

extern "C" {
#include "../core/error.h"
#include "../core/lab_schedule.h"
#include "../core/reference.h"
}

#if defined(__SANITIZE_ADDRESS__)
#define SV_RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SV_RT_ASAN 1
#endif
#endif
#ifdef SV_RT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace ctx = boost::context;

namespace {

// WARP: at a warp collective, until every lane of its mask has come to one
enum State { RUNNABLE, WAITING, WARP, DONE };
enum Pend { P_NONE, P_READ, P_WRITE };

constexpr size_t kStack = 64 * 1024;
constexpr size_t kGuard = 4096;
constexpr size_t kSlack = 64 * 1024; // an index this far outside an array is out of range
constexpr uint32_t kCell = 4;

struct Acc {
    uint32_t thread;
    uint16_t array; // internal id; SV_KARRAY_IN
    uint32_t cell;
    uint32_t value;
    uint64_t pc;
    uint32_t order; // sv_kaccess.order
};

struct Arr {
    std::string name;
    sv_karray_kind kind;
    uintptr_t base;
    size_t bytes;
    uint32_t len, rows;
    int tidx = -1; // index in t->arrays once placed
    std::vector<uint8_t> written, wrote;
    // per cell in this step: readers and writers (thread, pc, value), pairs reported
    struct Who {
        uint32_t thread;
        uint64_t pc;
        uint32_t value;
        int32_t write_ref; // writes: index into the step's writes, -1 none
        uint64_t gseq = 0; // __syncwarps completed in the run before it (Rt::wseq)
        uint32_t own = 0;  // __syncwarps its thread had passed before it (Th::syncs)
        bool atomic = false; // an atomic's: no race with another atomic's
    };
    std::vector<std::vector<Who>> readers, writers;
    std::vector<uint32_t> dirty;
};

struct Th {
    ctx::fiber self; // the scheduler's handle of the fiber
    ctx::fiber sink; // the fiber's handle of the scheduler
    State state = RUNNABLE;
    int wait_line = 0;
    const char *wait_what = "__syncthreads()"; // what it waits at, in words
    // at a warp collective (WARP): its kind (SV_RT_W_*), mask, value, lane
    // or delta, width; its result once the collective completes
    int wkind = 0;
    uint32_t wmask = 0, warg = 0;
    int wwidth = 32;
    uint64_t wval = 0, wres = 0;
    bool pred = false;  // its __syncthreads_count predicate
    uint32_t syncs = 0; // the __syncwarps it has passed in this run
    Pend pend = P_NONE;
    bool started = false;
    bool stepped = false;
    int32_t wflush = -1;    // a write to read back: index into writes
    uint16_t warr = 0;
    uint32_t wcell = 0, wcells = 0;
    std::vector<Acc> reads; // reads since this thread's last write in this step
    uint64_t last_pc = 0;   // its last access's pc
    // the smallest pc of its accesses in this barrier interval and the one
    // before (0: none): where the time limit names it, the same however far
    // into a loop's round the limit lands
    uint64_t min_pc = 0, prev_min_pc = 0;
#ifdef SV_RT_ASAN
    void *fake = nullptr;
#endif
};

struct HzPend {
    sv_khazard h;
    uint16_t arr;           // internal id
    int32_t first_write, second_write; // writes whose value is not known yet
};

struct WriteRec {
    Acc at;
    uint32_t first_read, nreads;
};

struct Rt {
    // the request
    const sv_runtime_request *req = nullptr;
    sv_ktrace *t = nullptr;
    const sv_rt_lines *lines = nullptr;
    uint32_t n = 0;
    sv_schedule sched{};
    bool yield_at_access = false;
    bool record = true;
    size_t recorded = 0; // bytes of the steps recorded so far (about)
    // the loaded kernel
    void *so = nullptr;
    uintptr_t so_base = 0;
    void (*entry)(const void *, void *, int) = nullptr;
    sv_rt_hooks **hooks = nullptr;
    unsigned *tidx = nullptr; // sv_rt_threadIdx
    unsigned char *pool = nullptr; // sv_rt_pool: all shared memory (cuda_cpu.h)
    unsigned char *dyn = nullptr;  // the extern __shared__ part of it
    struct Decl {
        void *addr;
        unsigned long bytes, rows;
        const char *name;
        int line;
    } *decls = nullptr;
    unsigned *ndecls = nullptr;
    // in[] and out[] with guard pages around
    unsigned char *in = nullptr, *out = nullptr;
    size_t io_bytes = 0;
    std::vector<Arr> arrs; // internal ids; out is id 0
    // the fibers
    std::vector<Th> th;
    unsigned char *stacks = nullptr;
    uint32_t cur = 0;
    uint64_t switches = 0;
    uint32_t order = 0; // accesses recorded so far (sv_kaccess.order)
    bool failed = false;
    int32_t fail_arr = -1; // internal id of the failure's array
    volatile bool in_fiber = false; // a kernel thread runs (for the signal handlers)
    volatile uint64_t last_pc = 0;  // the last access's pc
    uint64_t allocated = 0;         // device-side malloc, all runs
    // The kernel's own memory besides the shared arrays, in[] and out[]: the
    // .so's segments, the fiber stacks, what it allocated. An access
    // anywhere else stops the run (issue 27: the runtime's own memory, the
    // run's key among it, is not the kernel's to read).
    std::vector<std::pair<uintptr_t, uintptr_t>> own;  // [lo, hi), the .so's and the stacks
    uintptr_t code_lo = 0, code_hi = 0;                // the .so's executable segment
    std::vector<std::pair<uintptr_t, size_t>> blocks;  // device-side malloc: start, bytes
    const void *main_bottom = nullptr;
    size_t main_size = 0;
#ifdef SV_RT_ASAN
    void *main_fake = nullptr;
#endif
    // the current step
    std::vector<WriteRec> writes;
    std::vector<Acc> reads;
    std::vector<HzPend> hz;
    uint64_t hazards_total = 0;
    uint32_t step = 0;
    bool step_any = false;
    // __syncwarp (warp-level ordering of shared accesses): the run's count of
    // completed __syncwarps, and for thread i and lane l of its warp the
    // number (1, 2, ...) of the last one both passed, at sync_with[i * 32 + l]
    uint64_t wseq = 0;
    std::vector<uint64_t> sync_with;
    int bar_count = 0; // the last barrier's count of non-zero predicates
    // many runs, cell by cell (t->cellruns): the entry of each step (-1
    // none) and of out, the values each entry's row should hold
    std::vector<int> check_of_step;
    int check_out = -1;
    std::vector<std::vector<sv_value>> want;
    std::vector<std::vector<double>> mag;
    uint32_t run = 0;
    bool counting = false;
    // registers that moved by shuffle (SV_KARRAY_REG): the array of each
    // __shfl*_sync line, its memory, and how often each thread ran it in
    // the recorded run (its row); shuffles past kRegRows rows not drawn
    std::map<int32_t, uint16_t> reg_arr;
    std::vector<std::unique_ptr<std::vector<uint32_t>>> reg_mem;
    std::map<std::pair<uint16_t, uint32_t>, uint32_t> reg_occ;
    std::map<uint16_t, uint32_t> reg_rows; // rows written in the recording (kept past its run)
};
constexpr uint32_t kRegRows = 16;

Rt *R;

// An access the runtime made up (a shuffle's register, SV_KARRAY_REG) has
// its line in place of a pc, with this bit set.
constexpr uint64_t kLinePc = 1ull << 63;

int32_t line_of(uint64_t pc)
{
    if (pc & kLinePc)
        return (int32_t)(pc & 0x7fffffff);
    return sv_rt_lines_at(R->lines, pc);
}

char *dup_str(const char *s)
{
    size_t k = strlen(s) + 1;
    char *d = (char *)malloc(k);
    if (d)
        memcpy(d, s, k);
    return d;
}

// ---- Failures ---------------------------------------------------------------

void fail_set(sv_kfail_kind kind, const char *msg, int32_t line, int32_t thread, int32_t array,
              int64_t index)
{
    sv_kfailure *f = &R->t->failure;
    if (f->kind != SV_KFAIL_NONE)
        return;
    f->kind = kind;
    f->message = dup_str(msg);
    f->line = line;
    f->thread = thread;
    f->step = (int32_t)R->step;
    f->array = array;
    f->index = index;
    R->failed = true;
}

// ---- Fiber switches ---------------------------------------------------------

void active_release_warp(uint32_t base);

void to_scheduler()
{
    Th &t = R->th[R->cur];
#ifdef SV_RT_ASAN
    __sanitizer_start_switch_fiber(&t.fake, R->main_bottom, R->main_size);
#endif
    t.sink = std::move(t.sink).resume();
#ifdef SV_RT_ASAN
    __sanitizer_finish_switch_fiber(t.fake, nullptr, nullptr);
#endif
}

void resume(uint32_t i)
{
    Th &t = R->th[i];
    R->cur = i;
    R->tidx[0] = i;
    R->switches++;
    t.stepped = true;
    R->in_fiber = true;
#ifdef SV_RT_ASAN
    __sanitizer_start_switch_fiber(&R->main_fake, R->stacks + (size_t)i * (kStack + kGuard) + kGuard,
                                   kStack);
#endif
    t.self = std::move(t.self).resume();
#ifdef SV_RT_ASAN
    __sanitizer_finish_switch_fiber(R->main_fake, nullptr, nullptr);
#endif
    R->in_fiber = false;
    if (!t.self)
        t.state = DONE;
    if (t.state != RUNNABLE)
        active_release_warp(i - i % 32);
}

// ---- Arrays and cells -------------------------------------------------------

uint16_t arr_add(const char *name, sv_karray_kind kind, uintptr_t base, size_t bytes, uint32_t rows)
{
    Arr a;
    a.name = name;
    a.kind = kind;
    a.base = base;
    a.bytes = bytes;
    a.len = (uint32_t)(bytes / kCell);
    a.rows = rows >= 1 && a.len % rows == 0 ? rows : 1;
    a.written.assign(a.len, 0);
    a.wrote.assign(a.len, 0);
    a.readers.resize(a.len);
    a.writers.resize(a.len);
    R->arrs.push_back(std::move(a));
    return (uint16_t)(R->arrs.size() - 1);
}

uint32_t cell_value(const Arr &a, uint32_t c)
{
    uint32_t v;
    memcpy(&v, (const void *)(a.base + (uintptr_t)c * kCell), kCell);
    return v;
}

// Which array addr is in: its id and cell, or -1 (not ours), or -2 (out of
// range: *arr the nearest array, *index the element index tried).
constexpr size_t kPool = 3 * 4096 + 49152 + 49152 + 32 * 256; // SV_RT_POOL
constexpr size_t kGap = 256;                                   // SV_RT_GAP

int nearest(uintptr_t addr, uint16_t *arr, int64_t *index)
{
    uint64_t best = UINT64_MAX;
    for (uint16_t k = 0; k < R->arrs.size(); k++) {
        const Arr &a = R->arrs[k];
        if (a.kind != SV_KARRAY_SHARED)
            continue;
        uintptr_t lo = a.base, hi = a.base + a.len * (uintptr_t)kCell;
        uint64_t d = addr < lo ? lo - addr : addr - hi;
        if (d < best) {
            best = d;
            *arr = k;
            *index = addr < lo ? -(int64_t)((lo - addr + kCell - 1) / kCell)
                               : (int64_t)((addr - lo) / kCell);
        }
    }
    return -2;
}

int guarded_index(uintptr_t addr, uintptr_t base, uint32_t n, int64_t *index)
{
    *index = addr < base ? -(int64_t)((base - addr + kCell - 1) / kCell)
                         : (int64_t)((addr - base) / kCell);
    return addr >= base && addr < base + (uintptr_t)n * kCell ? 0 : -2;
}

int classify(uintptr_t addr, uint16_t *arr, int64_t *index)
{
    const uintptr_t in = (uintptr_t)R->in, out = (uintptr_t)R->out, pool = (uintptr_t)R->pool;
    if (addr + kSlack >= in && addr < in + R->io_bytes + kSlack) {
        *arr = SV_KARRAY_IN;
        return guarded_index(addr, in, R->n, index);
    }
    if (addr + kSlack >= out && addr < out + R->io_bytes + kSlack) {
        *arr = 0;
        return guarded_index(addr, out, R->n, index);
    }
    if (addr < pool || addr >= pool + kPool) {
        // a file-scope array (SV_RT_FSTATIC): its own box, a gap on each side
        for (uint16_t k = 1; k < R->arrs.size(); k++) {
            const Arr &a = R->arrs[k];
            uintptr_t lo = a.base, hi = a.base + a.len * (uintptr_t)kCell;
            if (a.kind != SV_KARRAY_SHARED || (lo >= pool && lo < pool + kPool) ||
                addr + kGap < lo || addr >= hi + kGap)
                continue;
            *arr = k;
            if (addr >= lo && addr < hi) {
                *index = (int64_t)((addr - lo) / kCell);
                return 0;
            }
            *index = addr < lo ? -(int64_t)((lo - addr + kCell - 1) / kCell)
                               : (int64_t)((addr - lo) / kCell);
            return -2;
        }
        return -1;
    }
    for (uint16_t k = 1; k < R->arrs.size(); k++) {
        const Arr &a = R->arrs[k];
        if (addr >= a.base && addr < a.base + a.len * (uintptr_t)kCell) {
            *arr = k;
            *index = (int64_t)((addr - a.base) / kCell);
            return 0;
        }
    }
    *arr = 0xfffe; // shared memory no array holds
    *index = 0;
    if (R->arrs.size() > 1)
        nearest(addr, arr, index);
    return -2;
}

void out_of_range(uint16_t arr, int64_t index, uint64_t pc, bool write)
{
    char msg[256];
    if (arr == 0xfffe) {
        int32_t line = line_of(pc);
        snprintf(msg, sizeof msg, "thread %u %s shared memory outside every __shared__ array",
                 R->cur, write ? "wrote" : "read");
        fail_set(SV_KFAIL_OUT_OF_RANGE, msg, line, (int32_t)R->cur, -1, 0);
        return;
    }
    const char *name = arr == SV_KARRAY_IN ? "in" : R->arrs[arr].name.c_str();
    uint32_t len = arr == SV_KARRAY_IN ? R->n : R->arrs[arr].len;
    int32_t line = line_of(pc);
    snprintf(msg, sizeof msg, "thread %u %s %s[%lld], outside %s[0 .. %u]%s%d", R->cur,
             write ? "wrote" : "read", name, (long long)index, name, len ? len - 1 : 0,
             line ? " at line " : "", line);
    if (!line)
        msg[strlen(msg) - 1] = '\0';
    fail_set(SV_KFAIL_OUT_OF_RANGE, msg, line, (int32_t)R->cur, (int32_t)SV_KARRAY_IN, index);
    R->fail_arr = arr; // placed in t->arrays at the end
}

// ---- Hazards ----------------------------------------------------------------

void hazard(sv_khazard_kind kind, uint16_t arr, uint32_t cell, const Arr::Who &first,
            uint32_t thread, uint64_t pc, uint32_t value, int32_t second_write)
{
    R->hazards_total++;
    if (!R->record || R->t->nhazards + R->hz.size() >= SV_KTRACE_MAX_HAZARDS)
        return;
    HzPend p;
    memset(&p, 0, sizeof p);
    p.h.kind = kind;
    p.h.step = R->step;
    p.h.cell = cell;
    p.h.first = sv_kaccess{first.thread, 0, cell, sv_value{}, line_of(first.pc), 0};
    p.h.first.value.bits = first.value;
    p.h.second = sv_kaccess{thread, 0, cell, sv_value{}, line_of(pc), 0};
    p.h.second.value.bits = value;
    p.arr = arr;
    p.first_write = first.write_ref;
    p.second_write = second_write;
    R->hz.push_back(p);
}

// One access by the current thread to cell c of shared array a (hazards and
// the per-cell sets). A thread's second read of a cell adds nothing; a
// hazard is one pair of threads on one cell in one step.
// Whether an earlier access w and one of thread t now are ordered or no
// race: the same thread, both atomic, or a __syncwarp that both threads
// passed after w (the same warp).
bool no_race(const Arr::Who &w, uint32_t t, bool atomic)
{
    if (w.thread == t || (w.atomic && atomic))
        return true;
    if (w.thread / 32 != t / 32 || R->sync_with.empty())
        return false;
    return R->sync_with[(size_t)t * 32 + w.thread % 32] > w.gseq;
}

// One access by the current thread to cell c of shared array a (hazards and
// the per-cell sets). A thread's second read of a cell adds nothing (unless
// it has passed a __syncwarp since, or the first was an atomic's and this
// one is not: then it is checked again in its new place); a hazard is one
// pair of threads on one cell in one step.
void cell_access(uint16_t ai, uint32_t c, bool write, uint64_t pc, uint32_t value, int32_t wref,
                 bool atomic)
{
    Arr &a = R->arrs[ai];
    const uint32_t t = R->cur;
    const Th &me = R->th[t];
    auto &rd = a.readers[c];
    auto &wr = a.writers[c];
    if (rd.empty() && wr.empty())
        a.dirty.push_back(c);
    auto &mine = write ? wr : rd;
    Arr::Who *prev = nullptr;
    for (Arr::Who &w : mine)
        if (w.thread == t)
            prev = &w;
    if (prev && prev->own == me.syncs && (!prev->atomic || atomic))
        return;
    if (!write) {
        for (const Arr::Who &w : wr)
            if (!no_race(w, t, atomic))
                hazard(SV_KHAZARD_RAW, ai, c, w, t, pc, value, -1);
    } else {
        for (const Arr::Who &r : rd)
            if (!no_race(r, t, atomic))
                hazard(SV_KHAZARD_WAR, ai, c, r, t, pc, value, wref);
        for (const Arr::Who &w : wr)
            if (!no_race(w, t, atomic))
                hazard(SV_KHAZARD_WAW, ai, c, w, t, pc, value, wref);
    }
    Arr::Who now{t, pc, value, write ? wref : -1, R->wseq, me.syncs, atomic};
    if (prev)
        *prev = now;
    else
        mine.push_back(now);
}

// The value a write left: read back at the thread's next call.
void flush_write(Th &t)
{
    if (t.wflush < 0 && t.wcells == 0)
        return;
    Arr &a = R->arrs[t.warr];
    uint32_t v = cell_value(a, t.wcell);
    if (t.wflush >= 0 && R->record) {
        R->writes[(size_t)t.wflush].at.value = v;
        for (HzPend &p : R->hz) {
            if (p.first_write == t.wflush)
                p.h.first.value.bits = v;
            if (p.second_write == t.wflush)
                p.h.second.value.bits = v;
        }
        for (uint32_t k = 0; k < t.wcells; k++) {
            for (Arr::Who &w : a.writers[t.wcell + k])
                if (w.write_ref == t.wflush)
                    w.value = cell_value(a, t.wcell + k);
        }
    }
    t.wflush = -1;
    t.wcells = 0;
}

// Records one access of size bytes at addr (already classified).
// ---- Bank conflicts (issue 30) ----------------------------------------------
// A warp-wide access to shared memory as the hardware serves it, counted as
// ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / _st.sum
// count: the lanes of one warp that run the same instruction (the same pc,
// the k-th time each lane runs it in this step: one request, whatever the
// schedule's interleaving) make a request of 32 banks of 4 bytes; a request
// of accesses of up to 4 bytes is one group of 32 lanes, of 8 bytes two
// half-warps, of 16 bytes four quarter-warps (each group 128 bytes at
// most); a group takes as many wavefronts as the most distinct words any one
// bank holds among its lanes (lanes reading one word are a broadcast), and
// its conflicts are its wavefronts past the first. Atomics are not counted
// (ncu counts them apart). The recorded run's, per step and line.
struct BankKey {
    uint32_t warp;
    uint64_t pc;
    uint32_t occ;
    bool write;
    bool operator<(const BankKey &o) const
    {
        return std::tie(warp, pc, occ, write) < std::tie(o.warp, o.pc, o.occ, o.write);
    }
};
struct BankLane {
    uint32_t lane;
    uint64_t word;   // its first 4-byte word
    uint16_t arr;    // its array (internal id) and first cell
    uint32_t cell;
    uint64_t word_at(unsigned w) const { return word + w; } // its w-th word
};
struct BankReq {
    unsigned size = 0;
    std::vector<BankLane> lanes;
};
// A colliding cell of the recorded run (ktrace.h's sv_kbankcell, the array
// still the internal id): the request of most ways it collided in.
struct BankCell {
    uint8_t ways;
    bool store;
    int32_t line;
    uint32_t warp;
};
// Made with new when first needed: the child starts in a constructor of its
// own, before this file's dynamic initializers may have run, so no object
// here may need one.
struct Banks {
    std::map<BankKey, BankReq> reqs;                          // this step's requests
    std::vector<std::unordered_map<uint64_t, uint32_t>> occ; // per thread: pc -> times run
    std::map<std::pair<uint32_t, int32_t>, std::pair<uint64_t, uint64_t>> lines; // (step,
                                                              // line) -> loads, stores
    std::map<std::tuple<uint32_t, uint16_t, uint32_t>, BankCell> cells; // (step, arr, cell)
    uint32_t cells_dropped = 0;
    uint64_t loads = 0, stores = 0;
};
Banks *banks_ = nullptr;

Banks &banks()
{
    if (!banks_)
        banks_ = new Banks;
    return *banks_;
}

void bank_note(uintptr_t off, unsigned long size, bool write, uint64_t pc, uint16_t arr,
               uint32_t cell)
{
    Banks &b = banks();
    if (b.occ.size() < R->n)
        b.occ.resize(R->n);
    uint32_t occ = b.occ[R->cur][pc]++;
    BankReq &q = b.reqs[BankKey{R->cur / 32, pc, occ, write}];
    q.size = std::max(q.size, (unsigned)size);
    q.lanes.push_back({R->cur % 32, (uint64_t)(off / 4), arr, cell});
}

// The cells of one conflicting request's lanes whose words share a bank
// with other words of their group: marked with that bank's ways (the
// distinct words it served), keeping a cell's most ways in the step.
void bank_cells_of(const BankReq &q, const BankKey &key, uint32_t step, int32_t line)
{
    Banks &b = banks();
    unsigned words = q.size <= 4 ? 1 : (q.size + 3) / 4;
    unsigned group = q.size <= 4 ? 32 : q.size <= 8 ? 16 : 8;
    for (unsigned g = 0; g < 32 / group; g++) {
        std::map<uint64_t, bool> ws; // the group's distinct words
        for (const auto &l : q.lanes)
            if (l.lane / group == g)
                for (unsigned w = 0; w < words; w++)
                    ws[l.word_at(w)] = true;
        unsigned per_bank[32] = {0};
        for (const auto &w : ws)
            per_bank[w.first % 32]++;
        for (const auto &l : q.lanes) {
            if (l.lane / group != g)
                continue;
            for (unsigned w = 0; w < words; w++) {
                unsigned ways = per_bank[l.word_at(w) % 32];
                const Arr &a = R->arrs[l.arr];
                uint32_t cell = l.cell + (uint32_t)(w * 4 / kCell);
                if (ways < 2 || cell >= a.len)
                    continue;
                auto k = std::make_tuple(step, l.arr, cell);
                auto it = b.cells.find(k);
                if (it == b.cells.end()) {
                    if (b.cells.size() >= SV_KTRACE_MAX_BANK_CELLS) {
                        b.cells_dropped++;
                        continue;
                    }
                    b.cells[k] = {(uint8_t)ways, key.write, line > 0 ? line : 0, key.warp};
                } else if (ways > it->second.ways) {
                    it->second = {(uint8_t)ways, key.write, line > 0 ? line : 0, key.warp};
                }
            }
        }
    }
}

// The conflicts of one request.
uint64_t bank_conflicts_of(const BankReq &q)
{
    unsigned words = q.size <= 4 ? 1 : (q.size + 3) / 4;
    unsigned group = q.size <= 4 ? 32 : q.size <= 8 ? 16 : 8;
    uint64_t waves = 0, groups = 0;
    std::vector<uint64_t> ws;
    for (unsigned g = 0; g < 32 / group; g++) {
        ws.clear();
        for (const auto &l : q.lanes)
            if (l.lane / group == g)
                for (unsigned w = 0; w < words; w++)
                    ws.push_back(l.word_at(w));
        if (ws.empty())
            continue;
        std::sort(ws.begin(), ws.end());
        ws.erase(std::unique(ws.begin(), ws.end()), ws.end());
        unsigned per_bank[32] = {0}, most = 0;
        for (uint64_t w : ws)
            most = std::max(most, ++per_bank[w % 32]);
        waves += most;
        groups++;
    }
    return waves - groups;
}

// Ends a step's requests: their conflicts by line.
void bank_step(uint32_t step)
{
    Banks &b = banks();
    for (const auto &kv : b.reqs) {
        uint64_t c = bank_conflicts_of(kv.second);
        if (!c)
            continue;
        int32_t line = line_of(kv.first.pc);
        bank_cells_of(kv.second, kv.first, step, line);
        auto &e = b.lines[{step, line > 0 ? line : 0}];
        (kv.first.write ? e.second : e.first) += c;
        (kv.first.write ? b.stores : b.loads) += c;
    }
    b.reqs.clear();
    for (auto &m : b.occ)
        m.clear();
}

void record_access(uint16_t ai, uintptr_t addr, unsigned long size, bool write, uint64_t pc,
                   bool atomic = false)
{
    Th &t = R->th[R->cur];
    R->step_any = true;
    if (ai == SV_KARRAY_IN) {
        if (!R->record)
            return;
        uint32_t c = (uint32_t)((addr - (uintptr_t)R->in) / kCell);
        uint32_t v;
        memcpy(&v, R->in + (size_t)c * kCell, kCell);
        t.reads.push_back({R->cur, SV_KARRAY_IN, c, v, pc, ++R->order});
        return;
    }
    Arr &a = R->arrs[ai];
    if (R->record && !atomic && a.kind == SV_KARRAY_SHARED)
        bank_note(addr - (uintptr_t)R->pool, size, write, pc, ai,
                  (uint32_t)((addr - a.base) / kCell));
    uint32_t c0 = (uint32_t)((addr - a.base) / kCell);
    uint32_t c1 = (uint32_t)((addr + size - 1 - a.base) / kCell);
    if (c1 >= a.len)
        c1 = a.len - 1;
    for (uint32_t c = c0; c <= c1; c++) {
        if (write) {
            a.written[c] = 1;
            a.wrote[c] = 1;
            int32_t wref = -1;
            if (R->record) {
                wref = (int32_t)R->writes.size();
                WriteRec w{{R->cur, ai, c, 0, pc, ++R->order}, 0, 0};
                R->writes.push_back(w);
                // the reads behind it: every read since the thread's last write
                R->writes.back().first_read = (uint32_t)R->reads.size();
                R->writes.back().nreads = (uint32_t)t.reads.size();
                R->reads.insert(R->reads.end(), t.reads.begin(), t.reads.end());
                t.reads.clear();
            }
            if (c == c0) {
                t.wflush = wref;
                t.warr = ai;
                t.wcell = c0;
                t.wcells = c1 - c0 + 1;
            }
            if (a.kind == SV_KARRAY_SHARED)
                cell_access(ai, c, true, pc, 0, wref, atomic);
        } else {
            uint32_t v = cell_value(a, c);
            if (R->record)
                t.reads.push_back({R->cur, ai, c, v, pc, ++R->order});
            if (a.kind == SV_KARRAY_SHARED)
                cell_access(ai, c, false, pc, v, -1, atomic);
        }
    }
}

// ---- The hooks --------------------------------------------------------------

// Whether [addr, addr + size) is the kernel's own memory that the runtime
// does not classify: the .so's segments, the fiber stacks, its malloc'd
// blocks.
bool own_memory(uintptr_t addr, unsigned long size)
{
    uintptr_t end = addr + size;
    if (end < addr)
        return false;
    for (const auto &r : R->own)
        if (addr >= r.first && end <= r.second)
            return true;
    for (const auto &b : R->blocks)
        if (addr >= b.first && end <= b.first + (b.second ? b.second : 1))
            return true;
    return false;
}

// An access to memory that is not the kernel's: the run stops there.
void foreign(uintptr_t addr, bool write, uint64_t pc)
{
    char msg[256];
    int32_t line = line_of(pc);
    snprintf(msg, sizeof msg, "thread %u %s memory that is not the kernel's (address %#llx: not "
             "a __shared__ array, in[], out[], a local or a block it allocated)%s%d", R->cur,
             write ? "wrote" : "read", (unsigned long long)addr, line ? " at line " : "", line);
    if (!line)
        msg[strlen(msg) - 1] = '\0';
    fail_set(SV_KFAIL_OUT_OF_RANGE, msg, line, (int32_t)R->cur, -1, 0);
}

// One access of the kernel's (hook_access), or an atomic's read and write
// of its word (atomic: write is set).
void access_at(void *addr, unsigned long size, int write, void *pcp, bool atomic)
{
    if (R->failed)
        return;
    uint16_t ai = 0;
    int64_t index = 0;
    int k = classify((uintptr_t)addr, &ai, &index);
    uint64_t pc = (uintptr_t)pcp - R->so_base;
    if (k == -1) {
        if (own_memory((uintptr_t)addr, size))
            return;
        R->last_pc = pc;
        foreign((uintptr_t)addr, write != 0, pc);
        to_scheduler(); // never resumed
        return;
    }
    R->last_pc = pc;
    Th &t = R->th[R->cur];
    t.last_pc = pc;
    if (!t.min_pc || pc < t.min_pc)
        t.min_pc = pc;
    flush_write(t);
    if (k == -2 || (ai != SV_KARRAY_IN && (uintptr_t)addr + size >
                                             R->arrs[ai].base + R->arrs[ai].len * (uintptr_t)kCell)) {
        if (k != -2)
            index = (int64_t)(((uintptr_t)addr + size - 1 - R->arrs[ai].base) / kCell);
        out_of_range(ai, index, pc, write != 0);
        to_scheduler(); // never resumed
        return;
    }
    if (ai == SV_KARRAY_IN && write) {
        char msg[128];
        snprintf(msg, sizeof msg, "thread %u wrote in[%lld]: in[] is the kernel's const input",
                 R->cur, (long long)index);
        fail_set(SV_KFAIL_OUT_OF_RANGE, msg, line_of(pc), (int32_t)R->cur,
                 (int32_t)SV_KARRAY_IN, index);
        to_scheduler();
        return;
    }
    bool is_shared = ai != SV_KARRAY_IN && R->arrs[ai].kind == SV_KARRAY_SHARED;
    if (R->yield_at_access && is_shared) {
        t.pend = write ? P_WRITE : P_READ;
        to_scheduler();
        t.pend = P_NONE;
        if (R->failed)
            return;
    }
    if (atomic) // the old value read, then the new one written: a write of the cell
        record_access(ai, (uintptr_t)addr, size, false, pc, true);
    record_access(ai, (uintptr_t)addr, size, write != 0, pc, atomic);
}

void hook_access(void *addr, unsigned long size, int write, void *pcp)
{
    access_at(addr, size, write & 1, pcp, false); // (one block: a volatile access is any other)
}

void hook_atomic(void *addr, unsigned long size, void *pcp)
{
    access_at(addr, size, 1, pcp, true);
}

// The current thread waits at the barrier of line (what: its name in
// words), bringing pred for a counting one.
void barrier_wait(int line, const char *what, bool pred)
{
    Th &t = R->th[R->cur];
    flush_write(t);
    t.state = WAITING;
    t.wait_line = line;
    t.wait_what = what;
    t.pred = pred;
    to_scheduler();
}

void hook_sync(int line)
{
    barrier_wait(line, "__syncthreads()", false);
}

// __syncthreads_count/_and/_or: the same barrier, then the block's count.
int hook_sync_count(int pred, int line)
{
    barrier_wait(line, "__syncthreads_count()", pred != 0);
    return R->bar_count;
}

// assert(expr) failed: the expression's text is the kernel's (checked to be
// its own memory before it is read), the run stops.
bool in_own(const void *p, size_t len);
void hook_assert_fail(const char *expr, int line)
{
    char text[128];
    size_t k = 0;
    while (k + 1 < sizeof text && in_own(expr + k, 1) && expr[k]) {
        unsigned char c = (unsigned char)expr[k];
        text[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    text[k] = '\0';
    if (k + 1 == sizeof text && k >= 3)
        memcpy(text + k - 3, "...", 3);
    char msg[256];
    snprintf(msg, sizeof msg, "thread %u: assert(%s) failed at line %d", R->cur, text, line);
    flush_write(R->th[R->cur]);
    fail_set(SV_KFAIL_CRASH, msg, line, (int32_t)R->cur, -1, 0);
    to_scheduler(); // never resumed
}

// ---- Warps --------------------------------------------------------------------
//
// UNDER THE HOOD: a lane that comes to a warp collective (a shuffle, a vote,
// __syncwarp) records what it brings and parks (state WARP); the one whose
// arrival completes the set of lanes its mask names (every lane of that set
// parked at a collective) computes every result and makes them runnable.
// Lanes that do not exist (past blockDim.x in the last warp) are not
// waited for; reading one, or a lane outside the mask, stops the run, as
// do lanes meeting with different masks or collectives. Lanes that wait
// for one that never comes (it has exited, it waits at a barrier) are found
// when nothing can run: a deadlock. A completed __syncwarp orders the
// shared accesses of its lanes (sync_with, read by no_race).

const char *warp_name(int kind)
{
    static const char *const names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                        "__shfl_xor_sync", "__ballot_sync", "__any_sync",
                                        "__all_sync", "__syncwarp", "__activemask",
                                        "__reduce_*_sync"};
    return kind >= 0 && kind <= SV_RT_W_RED ? names[kind] : "a warp collective";
}

// The lanes of thread i's warp that exist (bit l: thread base + l < n).
uint32_t warp_lanes(uint32_t i)
{
    uint32_t base = i / 32 * 32, nl = R->n - base < 32 ? R->n - base : 32;
    return nl == 32 ? 0xffffffffu : (1u << nl) - 1;
}

void warp_fail(sv_kfail_kind kind, uint32_t thread, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void warp_fail(sv_kfail_kind kind, uint32_t thread, int line, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_set(kind, msg, line, (int32_t)thread, -1, 0);
}

// The lane a shuffle of lane `lane` reads (PTX's shfl.sync: c's segment
// mask and clamp as CUDA's headers pass them for width).
uint32_t shfl_src(int kind, uint32_t lane, uint32_t b, int width)
{
    const uint32_t seg = (uint32_t)(32 - width) & 0x1f;  // c[12:8]
    const uint32_t clamp = kind == SV_RT_W_UP ? 0 : 0x1f; // c[4:0]
    const uint32_t min_lane = lane & seg, max_lane = min_lane | (clamp & ~seg);
    int64_t j = lane;
    bool ok = false;
    switch (kind) {
    case SV_RT_W_UP:
        j = (int64_t)lane - b;
        ok = j >= (int64_t)max_lane;
        break;
    case SV_RT_W_DOWN:
        j = (int64_t)lane + b;
        ok = j <= (int64_t)max_lane;
        break;
    case SV_RT_W_XOR:
        j = lane ^ b;
        ok = j <= (int64_t)max_lane;
        break;
    default:
        j = min_lane | (b & 0x1f & ~seg);
        ok = j <= (int64_t)max_lane;
        break;
    }
    return ok ? (uint32_t)j : lane;
}

// The register array of a shuffle at line (made at its first run), or -1
// when the trace's limits leave it out.
int reg_array_of(int32_t line)
{
    auto it = R->reg_arr.find(line);
    if (it != R->reg_arr.end())
        return it->second;
    if (R->arrs.size() >= SV_KTRACE_MAX_ARRAYS || (size_t)kRegRows * R->n > SV_KTRACE_MAX_CELLS)
        return -1;
    R->reg_mem.push_back(std::make_unique<std::vector<uint32_t>>((size_t)kRegRows * R->n, 0));
    char name[32];
    snprintf(name, sizeof name, "shfl@%d", (int)line);
    uint16_t a = arr_add(name, SV_KARRAY_REG, (uintptr_t)R->reg_mem.back()->data(),
                         (size_t)kRegRows * R->n * kCell, kRegRows);
    R->reg_arr[line] = a;
    return a;
}

// A shuffle as rows (issue 30: registers as rows): each lane's value sent
// is written into its cell of the line's register array (row: the how
// many-th time the lane ran the line), behind the reads it made since its
// last write; what it received is read, from the source lane's cell (and
// its own, the register it adds to), so that the lane's next write (its
// next shuffle's value, or out[i]) has arrows from both, as the chapter's
// rounds have. Not accesses of memory: no hazards, no bank conflicts.
void reg_shuffle(uint32_t base, uint32_t set, const uint64_t *res)
{
    int32_t line = R->th[base + (uint32_t)__builtin_ctz(set)].wait_line;
    int ai = line > 0 ? reg_array_of(line) : -1;
    if (ai < 0)
        return;
    Arr &a = R->arrs[(size_t)ai];
    uint32_t *mem = (uint32_t *)a.base;
    uint32_t row[32] = {0};
    bool kept[32] = {false};
    for (uint32_t l = 0; l < 32; l++) {
        if (!(set >> l & 1))
            continue;
        const uint32_t i = base + l;
        Th &x = R->th[i];
        row[l] = R->reg_occ[{(uint16_t)ai, i}]++;
        if (row[l] >= kRegRows)
            continue;
        kept[l] = true;
        uint32_t &rows = R->reg_rows[(uint16_t)ai];
        rows = std::max(rows, row[l] + 1);
        const uint32_t c = row[l] * R->n + i, v = (uint32_t)x.wval;
        mem[c] = v;
        a.written[c] = a.wrote[c] = 1;
        WriteRec w{{i, (uint16_t)ai, c, v, kLinePc | (uint32_t)line, ++R->order}, 0, 0};
        w.first_read = (uint32_t)R->reads.size();
        w.nreads = (uint32_t)x.reads.size();
        R->reads.insert(R->reads.end(), x.reads.begin(), x.reads.end());
        x.reads.clear();
        R->writes.push_back(w);
        R->step_any = true;
    }
    for (uint32_t l = 0; l < 32; l++) {
        if (!kept[l])
            continue;
        const uint32_t i = base + l;
        Th &x = R->th[i];
        uint32_t j = shfl_src(x.wkind, l, x.warg, x.wwidth);
        const uint32_t own = row[l] * R->n + i;
        x.reads.push_back({i, (uint16_t)ai, own, mem[own], kLinePc | (uint32_t)line, ++R->order});
        if (j != l && kept[j] && row[j] == row[l]) {
            const uint32_t src = row[j] * R->n + base + j;
            x.reads.push_back({i, (uint16_t)ai, src, (uint32_t)res[l], kLinePc | (uint32_t)line,
                               ++R->order});
        }
    }
}

// The results of a warp collective of the lanes in set, all at it: lane l
// is w[l] (a Th of one block, a GThread of a block of many: the same
// fields), lanes the lanes of the warp that exist. On a bad collective its
// kind and lanes instead: the lanes name different masks or collectives
// (lane, and the first lane, src), or a shuffle reads a lane that does not
// exist or is not in the mask (lane reads src).
enum WarpBad { WARP_OK, WARP_MISMATCH, WARP_NO_LANE, WARP_NOT_IN_MASK };
struct WarpOut {
    WarpBad bad;
    uint32_t lane, src;
};

template <class T>
WarpOut warp_results(const T *w, uint32_t set, uint32_t lanes, uint64_t res[32])
{
    const uint32_t first = (uint32_t)__builtin_ctz(set);
    const T &f = w[first];
    for (uint32_t l = 0; l < 32; l++)
        if ((set >> l & 1) && (w[l].wmask != f.wmask || w[l].wkind != f.wkind ||
                               (f.wkind == SV_RT_W_RED && w[l].warg != f.warg)))
            return {WARP_MISMATCH, l, first};
    uint32_t ballot = 0;
    for (uint32_t l = 0; l < 32; l++)
        if ((set >> l & 1) && w[l].wval)
            ballot |= 1u << l;
    // __reduce_*_sync: op (SV_RT_RED_*) | 8 for int, over the lanes of set
    uint32_t reduced = (uint32_t)f.wval;
    const bool sgn = (f.warg & 8u) != 0;
    for (uint32_t m = first + 1; f.wkind == SV_RT_W_RED && m < 32; m++) {
        if (!(set >> m & 1))
            continue;
        const uint32_t v = (uint32_t)w[m].wval, r = reduced;
        switch (f.warg & 7u) {
        case SV_RT_RED_ADD: reduced = r + v; break;
        case SV_RT_RED_MIN: reduced = sgn ? ((int32_t)v < (int32_t)r ? v : r) : (v < r ? v : r); break;
        case SV_RT_RED_MAX: reduced = sgn ? ((int32_t)v > (int32_t)r ? v : r) : (v > r ? v : r); break;
        case SV_RT_RED_AND: reduced = r & v; break;
        case SV_RT_RED_OR: reduced = r | v; break;
        default: reduced = r ^ v; break;
        }
    }
    for (uint32_t l = 0; l < 32; l++) {
        if (!(set >> l & 1))
            continue;
        switch (w[l].wkind) {
        case SV_RT_W_BALLOT: res[l] = ballot; break;
        case SV_RT_W_ANY: res[l] = ballot != 0; break;
        case SV_RT_W_ALL: res[l] = ballot == set; break;
        case SV_RT_W_SYNC: res[l] = 0; break;
        case SV_RT_W_RED: res[l] = reduced; break;
        default: {
            uint32_t j = shfl_src(w[l].wkind, l, w[l].warg, w[l].wwidth);
            if (j != l && !(lanes >> j & 1))
                return {WARP_NO_LANE, l, j};
            if (j != l && !(f.wmask >> j & 1))
                return {WARP_NOT_IN_MASK, l, j};
            res[l] = w[j].wval;
        }
        }
    }
    return {WARP_OK, 0, 0};
}

void warp_complete(uint32_t base, uint32_t set)
{
    uint64_t res[32] = {0};
    const WarpOut o = warp_results(&R->th[base], set, warp_lanes(base), res);
    const Th &x = R->th[base + o.lane], &f = R->th[base + o.src];
    switch (o.bad) {
    case WARP_MISMATCH:
        warp_fail(SV_KFAIL_DEADLOCK, base + o.lane, x.wait_line,
                  "deadlock at a warp collective: lane %u (thread %u) is at the %s of line %d "
                  "with mask %#010x, lane %u (thread %u) at the %s of line %d with mask %#010x: "
                  "the lanes of one collective must name the same mask", o.lane, base + o.lane,
                  warp_name(x.wkind), x.wait_line, x.wmask, o.src, base + o.src,
                  warp_name(f.wkind), f.wait_line, f.wmask);
        return;
    case WARP_NO_LANE:
        warp_fail(SV_KFAIL_OUT_OF_RANGE, base + o.lane, x.wait_line,
                  "lane %u (thread %u) reads lane %u, which does not exist (the last warp "
                  "has %d lanes), at line %d", o.lane, base + o.lane, o.src,
                  __builtin_popcount(warp_lanes(base)), x.wait_line);
        return;
    case WARP_NOT_IN_MASK:
        warp_fail(SV_KFAIL_OUT_OF_RANGE, base + o.lane, x.wait_line,
                  "lane %u (thread %u) reads lane %u, which is not in the mask %#010x, at "
                  "line %d", o.lane, base + o.lane, o.src, x.wmask, x.wait_line);
        return;
    case WARP_OK:
        break;
    }
    const Th &f0 = R->th[base + (uint32_t)__builtin_ctz(set)];
    if (f0.wkind <= SV_RT_W_XOR && R->record)
        reg_shuffle(base, set, res);
    uint64_t seq = f0.wkind == SV_RT_W_SYNC ? ++R->wseq : 0;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(set >> l & 1))
            continue;
        Th &x = R->th[base + l];
        x.wres = res[l];
        x.state = RUNNABLE;
        if (seq) {
            x.syncs++;
            for (uint32_t m = 0; m < 32; m++)
                if (set >> m & 1)
                    R->sync_with[(size_t)(base + l) * 32 + m] = seq;
        }
    }
}

// __activemask: the lanes of a warp that run it together. A lane parks at
// it; when no lane of its warp can run (each parked at a barrier or a
// collective, or returned: checked whenever a lane stops, in resume()), the lanes of the warp parked at one line's
// __activemask are released, each given that set: straight-line code gives
// every lane that has not returned, as a converged warp does on the GPU,
// and the lanes of a branch the others left give the branch's. Other warps
// play no part (one may spin on a flag meanwhile).
void active_release_warp(uint32_t base)
{
    const uint32_t lanes = warp_lanes(base);
    for (uint32_t l = 0; l < 32 && (lanes >> l & 1); l++)
        if (R->th[base + l].state == RUNNABLE)
            return; // (a lane of it can still come)
    for (uint32_t l = 0; l < 32 && (lanes >> l & 1); l++) {
        const Th &x = R->th[base + l];
        if (x.state != WARP || x.wkind != SV_RT_W_ACTIVE)
            continue;
        uint32_t set = 0;
        for (uint32_t m = l; m < 32 && (lanes >> m & 1); m++) {
            const Th &y = R->th[base + m];
            if (y.state == WARP && y.wkind == SV_RT_W_ACTIVE && y.wait_line == x.wait_line)
                set |= 1u << m;
        }
        for (uint32_t m = l; m < 32; m++)
            if (set >> m & 1) {
                R->th[base + m].wres = set;
                R->th[base + m].state = RUNNABLE;
            }
    }
}

unsigned long long hook_warp(int kind, unsigned mask, unsigned long long value, unsigned arg,
                             int width, int line)
{
    const uint32_t i = R->cur, lane = i % 32, base = i - lane, lanes = warp_lanes(i);
    Th &t = R->th[i];
    flush_write(t);
    if (kind == SV_RT_W_ACTIVE) { // parked until no lane of its warp can run (active_release_warp)
        t.state = WARP;
        t.wait_line = line;
        t.wait_what = warp_name(kind);
        t.wkind = kind;
        t.wmask = lanes;
        t.wval = 0;
        to_scheduler();
        return t.wres;
    }
    if (kind < SV_RT_W_IDX || (kind > SV_RT_W_SYNC && kind != SV_RT_W_RED)) {
        warp_fail(SV_KFAIL_INTERNAL, i, line, "thread %u: warp collective %d unknown", i, kind);
        to_scheduler(); // never resumed
        return 0;
    }
    if (kind <= SV_RT_W_XOR && (width < 1 || width > 32 || (width & (width - 1)))) {
        warp_fail(SV_KFAIL_OUT_OF_RANGE, i, line, "lane %u (thread %u): the %s of line %d has "
                  "width %d, not a power of two from 1 to 32", lane, i, warp_name(kind), line,
                  width);
        to_scheduler(); // never resumed
        return 0;
    }
    if (!(mask >> lane & 1)) {
        warp_fail(SV_KFAIL_OUT_OF_RANGE, i, line, "lane %u (thread %u) is not in the mask %#010x "
                  "of its own %s, at line %d", lane, i, mask, warp_name(kind), line);
        to_scheduler(); // never resumed
        return 0;
    }
    t.state = WARP;
    t.wait_line = line;
    t.wait_what = warp_name(kind);
    t.wkind = kind;
    t.wmask = mask;
    t.wval = kind == SV_RT_W_BALLOT || kind == SV_RT_W_ANY || kind == SV_RT_W_ALL ? value != 0
                                                                                   : value;
    t.warg = arg;
    t.wwidth = width;
    const uint32_t set = mask & lanes;
    bool all = true;
    for (uint32_t l = 0; l < 32 && all; l++)
        if ((set >> l & 1) && (R->th[base + l].state != WARP ||
                               R->th[base + l].wkind == SV_RT_W_ACTIVE))
            all = false;
    if (all)
        warp_complete(base, set);
    to_scheduler(); // (runnable at once when it completed the collective)
    return t.wres;
}

void hook_shared(void *addr, unsigned long bytes, unsigned long rows, const char *name, int line)
{
    if (!addr) {
        char msg[256];
        snprintf(msg, sizeof msg, "__shared__ %s (line %d): the static __shared__ arrays take "
                 "more than 48 KiB, the CUDA limit", name, line);
        fail_set(SV_KFAIL_MEMORY, msg, line, (int32_t)R->cur, -1, 0);
        return;
    }
    for (const Arr &a : R->arrs)
        if (a.base == (uintptr_t)addr)
            return;
    if (R->arrs.size() >= SV_KTRACE_MAX_ARRAYS || bytes / kCell > SV_KTRACE_MAX_CELLS)
        return; // not traced (the trace's limits); accesses to it are ignored
    arr_add(name, SV_KARRAY_SHARED, (uintptr_t)addr, bytes, (uint32_t)rows);
}

// A device-side malloc: the runtime's memory, counted against the memory
// limit (so the limit holds under AddressSanitizer too, where RLIMIT_AS is
// left out) and known as the kernel's own until it is freed.
void *hook_alloc(unsigned long bytes, int line)
{
    uint64_t limit = (uint64_t)(R->req->memory_mb ? R->req->memory_mb
                                                  : SV_RUNTIME_DEFAULT_MEMORY_MB) << 20;
    void *p = nullptr;
    if (R->allocated + bytes <= limit && bytes <= limit) {
        p = malloc(bytes ? bytes : 1);
        if (p) {
            R->allocated += bytes;
            R->blocks.push_back({(uintptr_t)p, (size_t)bytes});
            return p;
        }
    }
    char msg[256];
    if (bytes <= limit && R->allocated + bytes <= limit)
        snprintf(msg, sizeof msg, "thread %u: a malloc at line %d found no memory", R->cur, line);
    else
        snprintf(msg, sizeof msg, "thread %u: malloc(%lu) at line %d goes past the memory limit "
                 "of %llu MiB", R->cur, bytes, line, (unsigned long long)(limit >> 20));
    fail_set(SV_KFAIL_MEMORY, msg, line, (int32_t)R->cur, -1, 0);
    to_scheduler(); // never resumed
    return nullptr;
}

// free(): a block the kernel allocated goes back; anything else stops the
// run (a pointer the kernel made up is not freed by the runtime).
void hook_release(void *p)
{
    if (!p || R->failed)
        return;
    for (size_t i = 0; i < R->blocks.size(); i++)
        if (R->blocks[i].first == (uintptr_t)p) {
            R->allocated -= R->blocks[i].second;
            R->blocks.erase(R->blocks.begin() + (long)i);
            free(p);
            return;
        }
    char msg[160];
    snprintf(msg, sizeof msg, "thread %u freed %#llx, which is not a block it allocated", R->cur,
             (unsigned long long)(uintptr_t)p);
    fail_set(SV_KFAIL_OUT_OF_RANGE, msg, line_of(R->last_pc), (int32_t)R->cur, -1, 0);
    to_scheduler(); // never resumed
}

// A copy's range (memcpy, memset): the kernel's own, or the run stops.
void hook_span(void *addr, unsigned long size, int write, void *pcp)
{
    if (R->failed || size == 0)
        return;
    uintptr_t a = (uintptr_t)addr;
    uint16_t ai = 0;
    int64_t index = 0;
    int k = classify(a, &ai, &index);
    if (k == 0 && ai != SV_KARRAY_IN &&
        a + size <= R->arrs[ai].base + R->arrs[ai].len * (uintptr_t)kCell)
        return;
    if (k == 0 && ai == SV_KARRAY_IN && !write && a + size <= (uintptr_t)R->in + R->n * kCell)
        return;
    if (k == -1 && own_memory(a, size))
        return;
    uint64_t pc = (uintptr_t)pcp - R->so_base;
    R->last_pc = pc;
    if (k == -1)
        foreign(a, write != 0, pc);
    else
        out_of_range(ai, index, pc, write != 0);
    to_scheduler(); // never resumed
}

// A printf of the kernel's: its format checked again (a literal of the
// .so's, of numbers and characters: print_format.h), formatted by the C
// library, and written to the console as a record the parent takes apart
// (process.c, prints_take): run, thread, step, line, text. The record's
// own marks in the text become '?'. Past kMaxPrints calls a run writes no
// more (the trace keeps SV_KTRACE_MAX_PRINTS and counts the rest).
constexpr uint32_t kMaxPrints = 2 * SV_KTRACE_MAX_PRINTS;
uint32_t prints_run = UINT32_MAX, prints_made = 0;

void g_fail(sv_kfail_kind kind, const char *msg, int32_t line, int32_t array, int64_t index);

// host: the host function scan's printf (the grid engine's), else a thread's
int hook_print_as(int line, const char *fmt, va_list ap, bool host)
{
    if (R->failed)
        return 0;
    size_t len = 0; /* read byte by byte, each the kernel's own (as assert's text) */
    while (len < 4096 && in_own(fmt + len, 1) && fmt[len])
        len++;
    bool ended = len < 4096 && in_own(fmt + len, 1);
    char why[256];
    if (!ended || !sv_print_format_ok(fmt, len, why, sizeof why)) {
        if (!ended)
            snprintf(why, sizeof why, "printf's format is not a string of the kernel file's");
        if (host) {
            g_fail(SV_KFAIL_REFUSED, why, line, -1, 0); // never resumed
            return 0;
        }
        fail_set(SV_KFAIL_REFUSED, why, line, (int32_t)R->cur, -1, 0);
        to_scheduler(); // never resumed
        return 0;
    }
    if (prints_run != R->run) {
        prints_run = R->run;
        prints_made = 0;
    }
    char text[SV_KTRACE_MAX_PRINT + 1];
    int r = vsnprintf(text, sizeof text, fmt, ap);
    if (r < 0 || prints_made >= kMaxPrints)
        return r;
    prints_made++;
    for (char *c = text; *c; c++)
        if (*c == '\x1d' || *c == '\x1e' || *c == '\x1f')
            *c = '?';
    char rec[SV_KTRACE_MAX_PRINT + 96];
    // the host function's text goes to the console as a program's would (no
    // thread's record: the trace's console keeps it, escaped)
    int k = host ? snprintf(rec, sizeof rec, "%s", text)
                 : snprintf(rec, sizeof rec, "\x1esv %u %u %u %d\x1f%s\x1d", R->run, R->cur,
                            R->step, line > 0 ? line : 0, text);
    if (k > 0) {
        size_t done = 0, want = (size_t)k < sizeof rec ? (size_t)k : sizeof rec - 1;
        while (done < want) {
            ssize_t w = write(1, rec + done, want - done);
            if (w <= 0)
                break;
            done += (size_t)w;
        }
    }
    return r;
}

int hook_print(int line, const char *fmt, va_list ap)
{
    return hook_print_as(line, fmt, ap, false);
}

// The host side's calls from a file run as one block: the file has no host
// function scan (only it launches and allocates device memory).
void hook_launch_one(int line, const char *, const unsigned *, const unsigned *, unsigned long,
                     void (*)(const void *), const void *, unsigned long, const sv_rt_arg *,
                     unsigned)
{
    char msg[160];
    snprintf(msg, sizeof msg, "thread %u launches a kernel at line %d: a kernel does not launch "
             "kernels (dynamic parallelism is not supported)", R->cur, line);
    fail_set(SV_KFAIL_REFUSED, msg, line, (int32_t)R->cur, -1, 0);
    to_scheduler(); // never resumed
}

void *hook_dalloc_one(unsigned long, const char *, int line)
{
    char msg[160];
    snprintf(msg, sizeof msg, "thread %u calls cudaMalloc at line %d: device memory is the host "
             "function scan's to allocate (a kernel may use malloc)", R->cur, line);
    fail_set(SV_KFAIL_REFUSED, msg, line, (int32_t)R->cur, -1, 0);
    to_scheduler(); // never resumed
    return nullptr;
}

void hook_dfree_one(void *p, int line)
{
    hook_dalloc_one(0, nullptr, line);
    (void)p;
}

void hook_fence_one(int) {} // one block: every access is seen by the next fiber

void hook_dset_one(void *, int, unsigned long, int line)
{
    hook_dalloc_one(0, nullptr, line);
}

void hook_dcopy_one(void *, const void *, unsigned long, int, int line)
{
    hook_dalloc_one(0, nullptr, line);
}

sv_rt_hooks the_hooks = {hook_access,  hook_sync, hook_shared, hook_alloc,
                         hook_release, hook_span, hook_warp,   hook_sync_count,
                         hook_atomic,  hook_assert_fail, hook_print, hook_launch_one,
                         hook_dalloc_one, hook_dfree_one, hook_fence_one, hook_dset_one,
                         hook_dcopy_one};

// ---- Steps ------------------------------------------------------------------

// Gives every array that has none a place in t->arrays: the shared arrays
// registered so far, then out (so that, as a rule, out comes last).
template <typename T>
T *alloc_n(size_t n)
{
    return (T *)calloc(n ? n : 1, sizeof(T));
}

void place_arrays()
{
    sv_ktrace *t = R->t;
    auto place = [&](Arr &a) {
        if (a.tidx >= 0)
            return;
        sv_karray *k = &t->arrays[t->narrays];
        k->name = dup_str(a.name.c_str());
        k->kind = a.kind;
        k->len = a.len;
        k->rows = a.rows;
        k->touched = false;
        a.tidx = (int)t->narrays++;
        // an array first met after steps were recorded (a shuffle's
        // registers, a __shared__ declared later): never written in them
        for (size_t j = 0; j < t->nsteps; j++) {
            sv_kstep *s = &t->steps[j];
            if (s->cells && !s->cells[a.tidx]) {
                s->cells[a.tidx] = alloc_n<sv_value>(a.len);
                s->written[a.tidx] = alloc_n<bool>(a.len);
                s->wrote[a.tidx] = alloc_n<bool>(a.len);
            }
        }
    };
    for (size_t k = 1; k < R->arrs.size(); k++)
        place(R->arrs[k]);
    place(R->arrs[0]);
}

uint16_t tid_of(uint16_t arr)
{
    return arr == SV_KARRAY_IN ? (uint16_t)SV_KARRAY_IN : (uint16_t)R->arrs[arr].tidx;
}

sv_kaccess to_k(const Acc &a)
{
    sv_kaccess k;
    k.thread = a.thread;
    k.array = tid_of(a.array);
    k.cell = a.cell;
    k.value.bits = a.value;
    k.line = line_of(a.pc);
    k.order = a.order;
    return k;
}


// Ends the current step: snapshots every array into t (when recording),
// moves the step's hazards there, clears the per-cell sets.
void count_step(uint32_t step);

// What the recorded steps may take in all (step_end)
constexpr size_t RECORD_BUDGET = (size_t)64 << 20;

bool step_end(int32_t barrier_line)
{
    sv_ktrace *t = R->t;
    if (R->counting && !R->record)
        count_step(R->step);
    if (R->record)
        bank_step(R->step);
    for (Th &x : R->th) {
        if (R->record)
            R->reads.insert(R->reads.end(), x.reads.begin(), x.reads.end());
        x.reads.clear();
    }
    // Steps are recorded up to SV_KTRACE_MAX_STEPS and about RECORD_BUDGET
    // bytes: an endless loop at n = 1024 records a few hundred KB a step, and
    // thousands of them would take longer to send than the parent waits past
    // the time limit (the run would end stopped, without its thread and line)
    if (R->record && t->nsteps < SV_KTRACE_MAX_STEPS && R->recorded < RECORD_BUDGET) {
        place_arrays();
        sv_kstep *s = &t->steps[t->nsteps];
        s->barrier_line = barrier_line;
        s->cells = alloc_n<sv_value *>(SV_KTRACE_MAX_ARRAYS);
        s->written = alloc_n<bool *>(SV_KTRACE_MAX_ARRAYS);
        s->wrote = alloc_n<bool *>(SV_KTRACE_MAX_ARRAYS);
        s->writes = alloc_n<sv_kwrite>(R->writes.size());
        s->reads = alloc_n<sv_kaccess>(R->reads.size());
        if (!s->cells || !s->written || !s->wrote || !s->writes || !s->reads)
            return false;
        for (Arr &a : R->arrs) {
            int k = a.tidx;
            s->cells[k] = alloc_n<sv_value>(a.len);
            s->written[k] = alloc_n<bool>(a.len);
            s->wrote[k] = alloc_n<bool>(a.len);
            if (!s->cells[k] || !s->written[k] || !s->wrote[k])
                return false;
            for (uint32_t c = 0; c < a.len; c++) {
                s->cells[k][c].bits = cell_value(a, c);
                s->written[k][c] = a.written[c] != 0;
                s->wrote[k][c] = a.wrote[c] != 0;
            }
        }
        for (size_t w = 0; w < R->writes.size(); w++) {
            s->writes[w].at = to_k(R->writes[w].at);
            s->writes[w].first_read = R->writes[w].first_read;
            s->writes[w].nreads = R->writes[w].nreads;
            t->arrays[s->writes[w].at.array].touched = true;
        }
        for (size_t r = 0; r < R->reads.size(); r++) {
            s->reads[r] = to_k(R->reads[r]);
            if (s->reads[r].array != SV_KARRAY_IN)
                t->arrays[s->reads[r].array].touched = true;
        }
        s->nwrites = R->writes.size();
        s->nreads = R->reads.size();
        for (HzPend &p : R->hz) {
            p.h.array = tid_of(p.arr);
            p.h.first.array = p.h.second.array = p.h.array;
            t->hazards[t->nhazards++] = p.h;
        }
        R->recorded += sizeof(sv_kstep) + s->nwrites * sizeof(sv_kwrite) +
                       s->nreads * sizeof(sv_kaccess);
        for (Arr &a : R->arrs)
            R->recorded += (size_t)a.len * (sizeof(sv_value) + 2 * sizeof(bool));
        t->nsteps++;
    }
    R->writes.clear();
    R->reads.clear();
    R->hz.clear();
    for (Arr &a : R->arrs) {
        std::fill(a.wrote.begin(), a.wrote.end(), 0);
        for (uint32_t c : a.dirty) {
            a.readers[c].clear();
            a.writers[c].clear();
        }
        a.dirty.clear();
    }
    R->step++;
    R->step_any = false;
    return true;
}

// ---- Schedules --------------------------------------------------------------

bool runnable(uint32_t i)
{
    return R->th[i].state == RUNNABLE && !R->failed;
}

// Threads lo..hi-1 make one access together, every read before any write
// (threads parked before nothing, at the start or after a barrier, first
// run to their first access). Returns how many threads moved.
size_t step_group(uint32_t lo, uint32_t hi)
{
    size_t moved = 0;
    for (uint32_t i = lo; i < hi; i++)
        if (runnable(i) && R->th[i].pend == P_NONE) {
            resume(i);
            moved++;
        }
    std::vector<uint32_t> writers;
    for (uint32_t i = lo; i < hi; i++) {
        if (!runnable(i) || R->th[i].pend == P_NONE)
            continue;
        if (R->th[i].pend == P_WRITE) {
            writers.push_back(i);
            continue;
        }
        resume(i);
        moved++;
    }
    for (uint32_t i : writers)
        if (runnable(i)) {
            resume(i);
            moved++;
        }
    return moved;
}

void run_to_barrier(uint32_t i)
{
    while (runnable(i))
        resume(i);
}

void run_pass(uint64_t *rng, std::vector<uint32_t> &pool);

// One barrier interval: the schedule's passes until no thread can run (a
// lane parked at a warp collective is made runnable again by the lane that
// completes it, after the pass may have gone by it).
void run_interval(uint64_t *rng, std::vector<uint32_t> &pool)
{
    for (;;) {
        run_pass(rng, pool);
        if (R->failed)
            return;
        bool any = false;
        for (uint32_t i = 0; i < R->n && !any; i++)
            any = R->th[i].state == RUNNABLE;
        if (!any)
            return;
    }
}

void run_pass(uint64_t *rng, std::vector<uint32_t> &pool)
{
    const uint32_t n = R->n, warp = 32, nwarps = (n + warp - 1) / warp;
    switch (R->sched.kind) {
    case SV_SCHEDULE_LOCKSTEP:
    case SV_SCHEDULE_COUNT:
        while (step_group(0, n) > 0) {
        }
        break;
    case SV_SCHEDULE_SEQUENTIAL:
        for (uint32_t i = 0; i < n; i++)
            run_to_barrier(i);
        break;
    case SV_SCHEDULE_REVERSE:
        for (uint32_t i = n; i-- > 0;)
            run_to_barrier(i);
        break;
    case SV_SCHEDULE_RANDOM:
    case SV_SCHEDULE_WARPS: {
        bool by_warp = R->sched.kind == SV_SCHEDULE_WARPS;
        size_t count = by_warp ? nwarps : n;
        pool.resize(count);
        for (size_t k = 0; k < count; k++)
            pool[k] = (uint32_t)k;
        while (count > 0 && !R->failed) {
            size_t pick = sv_schedule_pick(rng, count);
            uint32_t u = pool[pick];
            if (by_warp) {
                uint32_t hi = (u + 1) * warp < n ? (u + 1) * warp : n;
                if (step_group(u * warp, hi) == 0)
                    pool[pick] = pool[--count];
            } else if (runnable(u)) {
                resume(u);
                if (!runnable(u))
                    pool[pick] = pool[--count];
            } else {
                pool[pick] = pool[--count];
            }
        }
        break;
    }
    }
}

// After an interval: all at one barrier (released: true), all done, or a
// deadlock (filled).
bool barrier_release(bool *done)
{
    uint32_t waiting = 0, finished = 0;
    int line = 0;
    bool same = true;
    for (Th &x : R->th) {
        if (x.state == DONE) {
            finished++;
        } else if (x.state == WAITING) {
            if (waiting++ == 0)
                line = x.wait_line;
            else if (x.wait_line != line)
                same = false;
        }
    }
    *done = finished == R->n;
    if (*done)
        return false;
    if (waiting == R->n && same) {
        R->bar_count = 0;
        for (const Th &x : R->th)
            R->bar_count += x.pred;
        for (Th &x : R->th) {
            x.state = RUNNABLE;
            if (x.min_pc)
                x.prev_min_pc = x.min_pc;
            x.min_pc = 0;
        }
        return true;
    }
    return false;
}

// A deadlock at a warp collective: the first parked lane (by thread) and
// the lane of its mask it waits for, in words; 0 when none is parked.
size_t warp_deadlock_words(char *msg, size_t len, int32_t *line, int32_t *thread)
{
    for (uint32_t i = 0; i < R->n; i++) {
        const Th &x = R->th[i];
        if (x.state != WARP)
            continue;
        const uint32_t lane = i % 32, base = i - lane, set = x.wmask & warp_lanes(i);
        for (uint32_t l = 0; l < 32; l++) {
            const Th &y = R->th[base + l];
            if (!(set >> l & 1) || y.state == WARP)
                continue;
            char why[128];
            if (y.state == DONE)
                snprintf(why, sizeof why, "which has exited");
            else
                snprintf(why, sizeof why, "which waits at the %s of line %d", y.wait_what,
                         y.wait_line);
            *line = x.wait_line;
            *thread = (int32_t)i;
            return (size_t)snprintf(msg, len, "deadlock at a warp collective: lane %u (thread %u) "
                                    "waits at the %s of line %d for lane %u (thread %u) of its "
                                    "mask %#010x, %s;", lane, i, x.wait_what, x.wait_line, l,
                                    base + l, x.wmask, why);
        }
    }
    return 0;
}

void deadlock_fill()
{
    sv_kfailure *f = &R->t->failure;
    std::vector<sv_kwait> w;
    for (uint32_t i = 0; i < R->n; i++) {
        const Th &x = R->th[i];
        int32_t line = x.state == DONE ? 0 : x.wait_line;
        bool found = false;
        for (sv_kwait &k : w)
            if (k.line == line) {
                k.count++;
                found = true;
            }
        if (!found)
            w.push_back({line, 1, i});
    }
    char msg[768];
    int32_t wline = 0, wthread = -1;
    size_t u = warp_deadlock_words(msg, sizeof msg, &wline, &wthread);
    if (u == 0)
        u = (size_t)snprintf(msg, sizeof msg, "deadlock at a barrier:");
    for (size_t k = 0; k < w.size() && u < sizeof msg; k++) {
        uint32_t last = w[k].first_thread;
        for (uint32_t i = 0; i < R->n; i++)
            if ((R->th[i].state == DONE ? 0 : R->th[i].wait_line) == w[k].line)
                last = i;
        char who[64];
        if (w[k].count == 1)
            snprintf(who, sizeof who, "thread %u", w[k].first_thread);
        else if (last - w[k].first_thread + 1 == w[k].count)
            snprintf(who, sizeof who, "threads %u .. %u", w[k].first_thread, last);
        else
            snprintf(who, sizeof who, "%u threads from %u", w[k].count, w[k].first_thread);
        const char *what = "__syncthreads()";
        for (uint32_t i = 0; i < R->n; i++)
            if (R->th[i].state != DONE && R->th[i].wait_line == w[k].line)
                what = R->th[i].wait_what;
        if (w[k].line)
            u += (size_t)snprintf(msg + u, sizeof msg - u, "%s %s wait%s at the %s "
                                  "of line %d", k ? ";" : "", who, w[k].count == 1 ? "s" : "",
                                  what, w[k].line);
        else
            u += (size_t)snprintf(msg + u, sizeof msg - u, "%s %s ended without reaching it",
                                  k ? ";" : "", who);
    }
    int32_t line = wline, thread = wthread;
    for (const sv_kwait &k : w)
        if (k.line && !line) {
            line = k.line;
            thread = (int32_t)k.first_thread;
        }
    fail_set(SV_KFAIL_DEADLOCK, msg, line, thread, -1, 0);
    f->waits = alloc_n<sv_kwait>(w.size());
    if (f->waits) {
        std::copy(w.begin(), w.end(), f->waits);
        f->nwaits = w.size();
    }
}

// ---- One run ----------------------------------------------------------------

struct Alloc {
    unsigned char *top;
    ctx::stack_context allocate()
    {
        ctx::stack_context sc;
        sc.size = kStack;
        sc.sp = top;
        return sc;
    }
    void deallocate(ctx::stack_context &) noexcept {}
};

ctx::fiber make_fiber(uint32_t i)
{
    unsigned char *top = R->stacks + (size_t)(i + 1) * (kStack + kGuard);
    return ctx::fiber(std::allocator_arg, Alloc{top}, [i](ctx::fiber &&sink) -> ctx::fiber {
#ifdef SV_RT_ASAN
        __sanitizer_finish_switch_fiber(nullptr, &R->main_bottom, &R->main_size);
#endif
        R->th[i].sink = std::move(sink);
        R->entry(R->in, R->out, (int)R->n);
        flush_write(R->th[i]);
        R->th[i].state = DONE;
#ifdef SV_RT_ASAN
        __sanitizer_start_switch_fiber(nullptr, R->main_bottom, R->main_size);
#endif
        return std::move(R->th[i].sink);
    });
}

void reset_memory()
{
    memset(R->pool, 0, kPool);
    memset(R->out, 0, R->io_bytes);
    const uintptr_t pool = (uintptr_t)R->pool;
    for (const Arr &a : R->arrs) // the file-scope arrays, outside the pool
        if (a.kind == SV_KARRAY_SHARED && (a.base < pool || a.base >= pool + kPool))
            memset((void *)a.base, 0, a.bytes);
    for (Arr &a : R->arrs) {
        std::fill(a.written.begin(), a.written.end(), 0);
        std::fill(a.wrote.begin(), a.wrote.end(), 0);
    }
    for (auto &m : R->reg_mem)
        std::fill(m->begin(), m->end(), 0);
    R->reg_occ.clear();
}

// Runs the kernel once under s. False: the runtime failed (err); a kernel's
// failure is in t->failure.
bool run_once(sv_schedule s, char *err, size_t errlen)
{
    R->sched = s;
    R->yield_at_access = s.kind == SV_SCHEDULE_LOCKSTEP || s.kind == SV_SCHEDULE_RANDOM ||
                         s.kind == SV_SCHEDULE_WARPS;
    R->switches = 0;
    R->order = 0;
    R->step = 0;
    R->hazards_total = 0;
    banks().reqs.clear();
    banks().occ.clear();
    banks().lines.clear();
    banks().cells.clear();
    banks().cells_dropped = 0;
    banks().loads = banks().stores = 0;
    R->wseq = 0;
    R->sync_with.assign((size_t)R->n * 32, 0);
    R->bar_count = 0;
    reset_memory();
    R->th.clear();
    R->th.resize(R->n);
    for (uint32_t i = 0; i < R->n; i++)
        R->th[i].self = make_fiber(i);
    uint64_t rng = s.seed;
    std::vector<uint32_t> pool;
    for (;;) {
        run_interval(&rng, pool);
        if (R->failed)
            break;
        bool done = false;
        if (barrier_release(&done)) {
            if (!step_end(R->th[0].wait_line))
                goto oom;
            continue;
        }
        if (done) {
            if ((R->step_any || R->t->nsteps == 0) && !step_end(0))
                goto oom;
            break;
        }
        deadlock_fill();
        break;
    }
    if (R->failed) {
        // (the step it failed in did not complete: the trace ends before it)
        // suspended fibers are left as they are: unwinding a kernel's frames
        // is not safe, and the child process ends soon
        std::vector<Th> *leak = new (std::nothrow) std::vector<Th>();
        if (leak)
            leak->swap(R->th);
    }
    return true;
oom:
    sv_errorf(err, errlen, "out of memory recording the trace");
    return false;
}

// What out[] must hold (sv_ktrace_want: the scan or the request's round),
// and its magnitudes for the float32 tolerance.
std::vector<double> want_mag;

bool output_wrong(const sv_value *expected)
{
    const Arr &o = R->arrs[0];
    const sv_ktrace *t = R->t;
    sv_value *out = static_cast<sv_value *>(malloc((size_t)R->n * sizeof *out));
    bool *written = static_cast<bool *>(malloc((size_t)R->n * sizeof *written));
    bool wrong = true; /* out of memory: no verdict of right */
    if (out && written) {
        for (uint32_t i = 0; i < R->n; i++) {
            memcpy(&out[i].bits, R->out + (size_t)i * kCell, kCell);
            written[i] = o.written[i];
        }
        /* The verdict of sv_ktrace_analyze, float32 rounding tolerance included. */
        wrong = sv_ktrace_out_check(t, expected, want_mag.data(), out, written, nullptr) >= 0;
    }
    free(out);
    free(written);
    return wrong;
}

void clear_recording()
{
    sv_ktrace *t = R->t;
    for (size_t s = 0; s < t->nsteps; s++)
        sv_kstep_clear(&t->steps[s], SV_KTRACE_MAX_ARRAYS);
    t->nsteps = 0;
    t->nhazards = 0;
    R->recorded = 0;
    R->reg_rows.clear();
}

// ---- Loading ----------------------------------------------------------------

unsigned char *guarded(size_t bytes, size_t *rounded)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (bytes + page - 1) / page * page;
    size_t total = body + 2 * kSlack;
    void *m = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return nullptr;
    unsigned char *b = (unsigned char *)m + kSlack;
    if (mprotect(b, body, PROT_READ | PROT_WRITE) != 0)
        return nullptr;
    *rounded = body;
    return b;
}

// The .so's loaded segments (dl_iterate_phdr's callback): the kernel's own.
int own_segments(struct dl_phdr_info *info, size_t, void *)
{
    if ((uintptr_t)info->dlpi_addr != R->so_base)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) &ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD)
            continue;
        uintptr_t lo = (uintptr_t)(info->dlpi_addr + ph.p_vaddr), hi = lo + ph.p_memsz;
        R->own.push_back({lo, hi});
        if ((ph.p_flags & PF_X) && !R->code_lo) {
            R->code_lo = lo;
            R->code_hi = hi;
        }
    }
    return 1;
}

bool in_own(const void *p, size_t len)
{
    return own_memory((uintptr_t)p, len);
}

// The file-scope __shared__ arrays the .so lists (cuda_cpu.h's
// sv_rt_fdecls), each checked to lie in the .so before it is believed.
void file_scope_arrays()
{
    const sv_rt_fdecl *const *b = (const sv_rt_fdecl *const *)dlsym(R->so, "sv_rt_fdecls_begin");
    const sv_rt_fdecl *const *e = (const sv_rt_fdecl *const *)dlsym(R->so, "sv_rt_fdecls_end");
    if (!b || !e || !*b || !*e || *e < *b)
        return;
    unsigned long total = 0;
    for (const sv_rt_fdecl *d = *b; d < *e && d < *b + 32; d++) {
        if (!in_own(d, sizeof *d) || !in_own(d->addr, d->bytes ? d->bytes : 1) ||
            !in_own(d->name, 1) || d->rows < 1)
            continue;
        size_t nl = 0;
        while (nl < 64 && in_own(d->name + nl, 1) && d->name[nl])
            nl++;
        if (nl == 64 || !in_own(d->name + nl, 1))
            continue;
        total += d->bytes;
        hook_shared(total > 49152 ? nullptr : d->addr, d->bytes, d->rows, d->name, d->line);
    }
}

// The walls before the kernel's .so is mapped (issue 27, layer 4): the
// limits (the address space among them, so the .so is mapped under it),
// Landlock (no file at all, no TCP, no signal out), the loader's seccomp
// list. False with err when one that this machine has cannot be put up.
// Fiber stacks of a file with a host function (issue 31): the host's and
// two resident blocks of 1024 threads (cpu_grid's kResident, kMaxBlock).
constexpr uint32_t kHostStacks = 1 + 2 * 1024;
bool host_mode = false;

bool walls_before_load(char *err, size_t errlen)
{
    uint32_t ms = sv_runtime_time_limit_ms(R->req);
    unsigned long long as = 0;
#ifndef SV_RT_ASAN
    uint32_t mb = R->req->memory_mb ? R->req->memory_mb : SV_RUNTIME_DEFAULT_MEMORY_MB;
    unsigned long pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    // now + the kernel's memory + its stacks, in[]/out[] and the trace's room
    as = (unsigned long long)pages * (unsigned long long)sysconf(_SC_PAGESIZE) +
         ((unsigned long long)mb << 20) +
         (unsigned long long)kHostStacks * (kStack + kGuard) + // (n <= 1024 < kHostStacks)
         (256ull << 20);
#endif
    if (!sv_sandbox_limits_run(16, ms / 1000 + 3, as, true, err, errlen))
        return false;
    char lerr[256];
    int rs = sv_sandbox_ruleset_run(lerr, sizeof lerr);
    if (!sv_sandbox_landlock(rs, lerr, err, errlen))
        return false;
    const int fds[] = {1, 2, 4, 5}; // stdout, stderr, the trace, progress (process.c)
    return sv_sandbox_seccomp(SV_SECCOMP_LOAD, fds, 4, err, errlen);
}

bool g_setup(char *err, size_t errlen); // many blocks (below)

bool load(const char *so_path, const char *dyn_name, char *err, size_t errlen)
{
    if (!walls_before_load(err, errlen))
        return false;
    R->so = dlopen(so_path, RTLD_NOW | RTLD_LOCAL);
    if (!R->so) {
        const char *e = dlerror();
        bool mem = e && (strstr(e, "map") || strstr(e, "memory"));
        fail_set(mem ? SV_KFAIL_MEMORY : SV_KFAIL_INTERNAL, e ? e : "dlopen failed", 0, -1, -1, 0);
        return true;
    }
    R->entry = (void (*)(const void *, void *, int))dlsym(R->so, "sv_rt_entry");
    R->hooks = (sv_rt_hooks **)dlsym(R->so, "sv_rt_hooks_ptr");
    R->tidx = (unsigned *)dlsym(R->so, "sv_rt_threadIdx");
    unsigned *bdim = (unsigned *)dlsym(R->so, "sv_rt_blockDim");
    R->pool = (unsigned char *)dlsym(R->so, "sv_rt_pool");
    R->decls = (Rt::Decl *)dlsym(R->so, "sv_rt_decls");
    R->ndecls = (unsigned *)dlsym(R->so, "sv_rt_ndecls");
    Dl_info info;
    if (!R->entry || !R->hooks || !R->tidx || !bdim || !R->pool || !R->decls || !R->ndecls ||
        !dladdr((void *)R->entry, &info)) {
        sv_errorf(err, errlen, "%s: not a kernel built with cuda_cpu.h", so_path);
        return false;
    }
    R->so_base = (uintptr_t)info.dli_fbase;
    dl_iterate_phdr(own_segments, nullptr);
    R->dyn = R->pool + 4096;
    // the run's operator and kind, which Op::apply and scan_exclusive read (scan_ops.h)
    int *scan = (int *)dlsym(R->so, "sv_rt_scan");
    if (!scan) {
        sv_errorf(err, errlen, "%s: not a kernel built with cuda_cpu.h", so_path);
        return false;
    }
    scan[0] = (int)R->req->op;
    scan[1] = R->req->scan == SV_SCAN_EXCLUSIVE;
    scan[2] = (int)R->req->type;
    *R->hooks = &the_hooks;
    bdim[0] = R->n;
    bdim[1] = bdim[2] = 1;
    R->tidx[1] = R->tidx[2] = 0;
    size_t rounded = 0;
    R->in = guarded((size_t)R->n * kCell, &rounded);
    R->out = guarded((size_t)R->n * kCell, &rounded);
    R->io_bytes = rounded;
    host_mode = dlsym(R->so, "sv_rt_host") != nullptr;
    const uint32_t nstacks = host_mode ? kHostStacks : R->n;
    size_t stacks = (size_t)nstacks * (kStack + kGuard);
    void *m = mmap(nullptr, stacks, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (!R->in || !R->out || m == MAP_FAILED) {
        fail_set(SV_KFAIL_MEMORY, "no memory for the kernel's buffers and fiber stacks", 0, -1, -1, 0);
        return true;
    }
    R->stacks = (unsigned char *)m;
    R->own.push_back({(uintptr_t)m, (uintptr_t)m + stacks});
    for (uint32_t i = 0; i < nstacks; i++)
        mprotect(R->stacks + (size_t)i * (kStack + kGuard), kGuard, PROT_NONE);
    for (uint32_t i = 0; i < R->n; i++)
        memcpy(R->in + (size_t)i * kCell, &R->t->input[i].bits, kCell);
    arr_add("out", SV_KARRAY_OUT, (uintptr_t)R->out, (size_t)R->n * kCell, 1);
    if (dyn_name)
        arr_add(dyn_name, SV_KARRAY_SHARED, (uintptr_t)R->dyn, 2 * (size_t)R->n * kCell, 2);
    file_scope_arrays();
    if (host_mode && !g_setup(err, errlen))
        return false;
    // the kernel's code may run from here on: only the runtime's own calls
    const int fds[] = {1, 2, 4, 5};
    if (!sv_sandbox_seccomp(SV_SECCOMP_RUN, fds, 4, err, errlen))
        return false;
    return true;
}

// t's arrays, steps and hazards as they must be: every step holds every
// array (those placed after a step hold no cells there: unwritten), the
// failure's array placed.
bool finish(const sv_value *expected, char *err, size_t errlen)
{
    sv_ktrace *t = R->t;
    if (R->arrs.empty() || !R->out)
        return true; // it failed before it loaded
    place_arrays();
    for (size_t s = 0; s < t->nsteps; s++) {
        sv_kstep *k = &t->steps[s];
        for (size_t a = 0; a < t->narrays; a++) {
            if (k->cells[a])
                continue;
            k->cells[a] = alloc_n<sv_value>(t->arrays[a].len);
            k->written[a] = alloc_n<bool>(t->arrays[a].len);
            k->wrote[a] = alloc_n<bool>(t->arrays[a].len);
            if (!k->cells[a] || !k->written[a] || !k->wrote[a])
                goto oom;
        }
    }
    if (R->fail_arr >= 0)
        t->failure.array = R->arrs[(size_t)R->fail_arr].tidx;
    free(t->output);
    free(t->output_written);
    t->output = alloc_n<sv_value>(R->n);
    t->output_written = alloc_n<bool>(R->n);
    if (!t->output || !t->output_written)
        goto oom;
    for (uint32_t i = 0; i < R->n; i++) {
        memcpy(&t->output[i].bits, R->out + (size_t)i * kCell, kCell);
        t->output_written[i] = R->arrs[0].written[i] != 0;
    }
    t->hazards_total = R->hazards_total;
    t->switches = R->switches;
    if (R->record) { // the recorded run's bank conflicts (the last step's too)
        bank_step(R->step);
        free(t->banks);
        t->banks = nullptr;
        t->nbanks = 0;
        t->banks_counted = true;
        t->bank_loads = banks().loads;
        t->bank_stores = banks().stores;
        for (const auto &kv : banks().lines) {
            if (t->nbanks >= SV_KTRACE_MAX_BANK_LINES)
                break;
            sv_kbank *nb = (sv_kbank *)realloc(t->banks, (t->nbanks + 1) * sizeof *nb);
            if (!nb)
                goto oom;
            t->banks = nb;
            t->banks[t->nbanks++] = {kv.first.first, kv.first.second, kv.second.first,
                                     kv.second.second};
        }
        free(t->bankcells);
        t->bankcells = nullptr;
        t->nbankcells = 0;
        t->bankcells_dropped = banks().cells_dropped;
        if (!banks().cells.empty()) {
            t->bankcells = alloc_n<sv_kbankcell>(banks().cells.size());
            if (!t->bankcells)
                goto oom;
        }
        // (step, internal array, cell) order becomes (step, trace array, cell) order
        // once each array's place is known
        for (const auto &kv : banks().cells) {
            int ta = R->arrs[std::get<1>(kv.first)].tidx;
            if (ta < 0 || std::get<0>(kv.first) >= t->nsteps)
                continue; // a step not recorded (past the trace's limits)
            t->bankcells[t->nbankcells++] = {std::get<0>(kv.first), (uint16_t)ta, kv.second.ways,
                                             kv.second.store, std::get<2>(kv.first),
                                             kv.second.line, kv.second.warp};
        }
        // each shuffle's register rows: as many as its lanes ran it (kRegRows at most)
        for (const auto &kv : R->reg_arr) {
            const Arr &a = R->arrs[kv.second];
            if (a.tidx < 0)
                continue;
            auto it = R->reg_rows.find(kv.second);
            uint32_t rows = it == R->reg_rows.end() ? 1 : std::max(1u, it->second);
            t->arrays[a.tidx].rows = rows;
            t->arrays[a.tidx].len = rows * R->n;
        }
        std::stable_sort(t->bankcells, t->bankcells + t->nbankcells,
                         [](const sv_kbankcell &x, const sv_kbankcell &y) {
                             return std::tie(x.step, x.array, x.cell) <
                                    std::tie(y.step, y.array, y.cell);
                         });
    }
    (void)expected;
    return true;
oom:
    sv_errorf(err, errlen, "out of memory finishing the trace");
    return false;
}

sv_schedule run_schedule(sv_schedule s, uint32_t k)
{
    if (s.kind == SV_SCHEDULE_RANDOM || s.kind == SV_SCHEDULE_WARPS)
        s.seed += k;
    return s;
}

// ---- Many runs, cell by cell (ktrace.h's cellruns) -------------------------

const Arr *arr_of_tidx(uint32_t tidx)
{
    for (const Arr &a : R->arrs)
        if (a.tidx >= 0 && (uint32_t)a.tidx == tidx)
            return &a;
    return nullptr;
}

// Counts the cells of entry e wrong in this run: values[i] (written[i]) of its row.
void count_row(int e, const sv_value *values, const bool *written)
{
    sv_kcellruns *c = &R->t->cellruns[e];
    for (uint32_t i = 0; i < R->n; i++)
        if (!written[i] || !sv_kround_cell_right(R->t, c->round, i, values[i], R->want[(size_t)e][i],
                                                 R->mag[(size_t)e][i]))
            sv_kcellruns_count(c, i, R->run);
}

// At the end of step `step` of an unrecorded run: its entry's row as it is now.
void count_step(uint32_t step)
{
    if (step >= R->check_of_step.size() || R->check_of_step[step] < 0)
        return;
    int e = R->check_of_step[step];
    const sv_kcellruns *c = &R->t->cellruns[e];
    const Arr *a = arr_of_tidx(c->array);
    if (!a)
        return;
    std::vector<sv_value> v(R->n);
    std::unique_ptr<bool[]> w(new (std::nothrow) bool[R->n]);
    if (!w)
        return;
    for (uint32_t i = 0; i < R->n; i++) {
        v[i].bits = cell_value(*a, c->first + i);
        w[i] = a->written[c->first + i] != 0;
    }
    count_row(e, v.data(), w.get());
}

// out[] after a run against the scan.
void count_out(const sv_value *expected)
{
    if (R->check_out < 0)
        return;
    const Arr &o = R->arrs[0];
    std::vector<sv_value> out(R->n);
    std::unique_ptr<bool[]> written(new (std::nothrow) bool[R->n]);
    std::unique_ptr<bool[]> wrong(new (std::nothrow) bool[R->n]);
    if (!written || !wrong)
        return;
    for (uint32_t i = 0; i < R->n; i++) {
        memcpy(&out[i].bits, R->out + (size_t)i * kCell, kCell);
        written[i] = o.written[i] != 0;
    }
    const sv_ktrace *t = R->t;
    sv_ktrace_out_check(t, expected, want_mag.data(), out.data(), written.get(), wrong.get());
    sv_kcellruns *c = &R->t->cellruns[R->check_out];
    for (uint32_t i = 0; i < R->n; i++)
        if (wrong[i])
            sv_kcellruns_count(c, i, R->run);
}

// After run 0 (recorded): the rows to count, from run 0's chapter reading
// (each step's pout row against its expected round) and out; run 0 counted.
bool counting_start(const sv_value *expected, char *err, size_t errlen)
{
    sv_ktrace *t = R->t;
    place_arrays();
    if (!sv_ktrace_analyze(t, err, errlen))
        return false;
    R->check_of_step.assign(t->nsteps, -1);
    bool ok = true;
    for (size_t s = 0; s < t->nsteps && ok; s++) {
        const sv_kreading *rd = &t->readings[s];
        if (!rd->fits || rd->pout_array < 0)
            continue;
        const sv_karray *a = &t->arrays[rd->pout_array];
        uint32_t first = (uint32_t)rd->pout_row * (a->len / a->rows);
        R->check_of_step[s] = (int)t->ncellruns;
        ok = sv_ktrace_add_cellruns(t, (int32_t)s, (uint32_t)rd->pout_array, first,
                                    rd->expected_round, err, errlen) != nullptr;
    }
    for (size_t a = 0; a < t->narrays && ok; a++)
        if (t->arrays[a].kind == SV_KARRAY_OUT) {
            R->check_out = (int)t->ncellruns;
            ok = sv_ktrace_add_cellruns(t, -1, (uint32_t)a, 0, -1, err, errlen) != nullptr;
            break;
        }
    sv_ktrace_unanalyze(t);
    if (!ok)
        return false;
    R->want.assign(t->ncellruns, std::vector<sv_value>(R->n));
    R->mag.assign(t->ncellruns, std::vector<double>(R->n));
    for (size_t e = 0; e < t->ncellruns && ok; e++)
        if (t->cellruns[e].step >= 0)
            ok = sv_kround_windows(t, t->cellruns[e].round, R->want[e].data(), R->mag[e].data(),
                                   err, errlen);
    if (!ok)
        return false;
    R->run = 0;
    for (size_t e = 0; e < t->ncellruns; e++) {
        const sv_kcellruns *c = &t->cellruns[e];
        if (c->step < 0)
            continue;
        const sv_kstep *k = &t->steps[c->step];
        count_row((int)e, k->cells[c->array] + c->first, k->written[c->array] + c->first);
    }
    count_out(expected);
    R->counting = true;
    return true;
}

// Forgets the last recorded run (its steps, hazards and failure) for the next.
void reset_run()
{
    sv_ktrace *t = R->t;
    clear_recording();
    free(t->failure.message);
    memset(&t->failure, 0, sizeof t->failure);
    t->failure.kind = SV_KFAIL_NONE;
    t->failure.thread = -1;
    t->failure.step = -1;
    t->failure.array = -1;
    R->failed = false;
    R->fail_arr = -1;
}

// each_run: every run recorded, finished and sent as its own trace (the
// parent reads them in order, sv_runtime_run_each); a failed run ends this
// child's runs (a fiber left suspended is not safe to run past). t is left
// as the last run (sent again by the child's end, and ignored).
bool each_run(const sv_runtime_request *req, const sv_value *expected, char *err, size_t errlen)
{
    sv_ktrace *t = R->t;
    uint32_t nruns = req->runs ? req->runs : 1;
    for (uint32_t k = 0; k < nruns; k++) {
        if (k > 0)
            reset_run();
        R->record = true;
        R->run = k;
        sv_schedule sk = run_schedule(req->schedule, k);
        if (!run_once(sk, err, errlen) || !finish(expected, err, errlen))
            return false;
        t->runs = 1;
        t->shown_run = 0;
        t->wrong_runs = !R->failed && output_wrong(expected);
        if (!sv_rt_child_send(t))
            return false;
        sv_rt_progress(k + 1, nruns);
        if (R->failed) // (the parent starts a fresh child for the runs after it)
            break;
    }
    return true;
}

bool runs(const sv_runtime_request *req, const sv_value *expected, char *err, size_t errlen)
{
    if (req->each_run)
        return each_run(req, expected, err, errlen);
    sv_ktrace *t = R->t;
    uint32_t nruns = req->runs ? req->runs : 1;
    if (!run_once(run_schedule(req->schedule, 0), err, errlen))
        return false;
    bool wrong0 = !R->failed && output_wrong(expected);
    uint32_t wrong = wrong0, shown = 0, made = 1;
    if (nruns > 1)
        sv_rt_progress(1, nruns);
    if (nruns > 1 && !R->failed && !counting_start(expected, err, errlen))
        return false;
    if (!R->failed)
        for (uint32_t k = 1; k < nruns; k++) {
            R->record = false;
            R->run = k;
            sv_schedule sk = run_schedule(req->schedule, k);
            if (!run_once(sk, err, errlen))
                return false;
            made++;
            sv_rt_progress(made, nruns);
            bool failed = R->failed;
            if (!failed)
                count_out(expected);
            bool w = !failed && output_wrong(expected);
            wrong += w;
            if ((w || failed) && !wrong0 && shown == 0)
                shown = k;
            if (failed)
                break;
        }
    R->counting = false;
    if (shown != 0 || made > 1) {
        // the shown run again, recorded (the schedules are deterministic),
        // so that the memory, out[] and the switches are the shown run's
        // and not the last run's (run 0 was recorded, but the runs after it
        // wrote out[] and counted switches since)
        clear_recording();
        free(t->failure.message);
        memset(&t->failure, 0, sizeof t->failure);
        t->failure.kind = SV_KFAIL_NONE;
        R->failed = false;
        R->fail_arr = -1;
        R->record = true;
        if (!run_once(run_schedule(req->schedule, shown), err, errlen))
            return false;
    }
    t->runs = made;
    t->shown_run = shown;
    t->wrong_runs = wrong;
    return true;
}

// Where a signal found the kernel (backend.h's sv_rt_where_fn): the thread
// that runs (or ran last, when the signal came between two fibers), the line
// of the faulting instruction when it is the kernel's, else of the last
// access.
// Whether pc is in the .so's code (its executable segment).
bool in_kernel_code(uintptr_t pc)
{
    return pc >= R->code_lo && pc < R->code_hi;
}

// The first word on the fiber's stack from sp up that points into the
// kernel's code (a return address), 0 when none. Not instrumented: the
// words between are frames of the runtime's own, redzones and all.
__attribute__((no_sanitize("address"))) uintptr_t kernel_caller(uintptr_t sp)
{
    uintptr_t lo = (uintptr_t)R->stacks + (size_t)R->cur * (kStack + kGuard) + kGuard;
    uintptr_t hi = lo + kStack;
    for (uintptr_t a = sp & ~(uintptr_t)7; a >= lo && a + 8 <= hi && a < sp + 512 * 8; a += 8) {
        uintptr_t v = *(const volatile uintptr_t *)a;
        if (in_kernel_code(v))
            return v;
    }
    return 0;
}

void where(sv_kfailure *f, void *fault_pc, void *sp)
{
    if (!R || (!R->in_fiber && R->switches == 0))
        return; // not in the kernel yet
    f->thread = (int32_t)R->cur;
    f->step = (int32_t)R->step;
    int32_t line = 0;
    uintptr_t pc = (uintptr_t)fault_pc;
    if (pc && R->in_fiber && !in_kernel_code(pc) && sp && f->kind != SV_KFAIL_TIME) {
        // stopped outside the kernel's code (a system call in the C
        // library): its caller is the return address into the kernel's code
        uintptr_t ret = kernel_caller((uintptr_t)sp);
        pc = ret ? ret - 1 : 0;
    }
    if (pc && R->in_fiber && in_kernel_code(pc))
        line = line_of(pc - R->so_base + 1);
    if (f->kind == SV_KFAIL_TIME) {
        // The time limit lands on whichever fiber runs then, anywhere in a
        // loop's round, which a spin on memory makes any thread: name the
        // first thread that has not ended (the same in every run), at the
        // first line of its round's accesses (the smallest pc of this
        // interval's and the one before: the same however far into the round
        // the limit lands), else the line it runs.
        for (uint32_t i = 0; i < R->th.size(); i++)
            if (R->th[i].state != DONE) {
                const Th &x = R->th[i];
                uint64_t m = x.min_pc && x.prev_min_pc ? std::min(x.min_pc, x.prev_min_pc)
                                                       : x.min_pc ? x.min_pc : x.prev_min_pc;
                if (i != R->cur || !R->in_fiber)
                    line = 0;
                f->thread = (int32_t)i;
                f->line = m ? line_of(m + 1) : line ? line : line_of(x.last_pc);
                return;
            }
    }
    f->line = line ? line : line_of(R->last_pc);
}

// ---- Many blocks and launches (issue 31) ------------------------------------
//
// A file with a host function scan runs it in a fiber of its own (the
// host, on stack 0). Each launch it makes goes back to the scheduler, which
// runs the launch's blocks: at most kResident at a time (the fewest a GPU
// may hold), started in the schedule's order (sequential, lockstep, warps:
// by blockIdx; reverse: from the last; random:S: a seeded shuffle), each
// block's threads as fibers (stacks 1 ..), each block's shared memory its
// own (the pool and the file-scope arrays are swapped in with the block
// whose thread runs). A thread that reads one word kSpin times with no write
// between spins: it waits until some thread writes, so that the block it
// waits for runs. When every resident thread waits and no write comes, the
// launch is stuck: with blocks not started yet, a spinning block waits for
// one of them (it assumes that blocks start in order), else a deadlock.
// Each launch's end is a step of the trace: out[] and the device memory the
// host allocated (cudaMalloc), cell by cell.
//
// Warp collectives are a block's own (32 consecutive threadIdx.x of it).
// Hazards between the threads of a block are found per barrier interval of
// the block, as one block's. Not yet (said in the user guide): device-side
// malloc in such a file; 2-D and 3-D grids; n past 1024.

constexpr uint32_t kResident = 2;
constexpr uint32_t kSpin = 64;
constexpr uint32_t kSpinTries = 1000; // wakes of a stuck spinner before it is stuck
constexpr uint32_t kMaxBlock = 1024;
constexpr uint32_t kMaxGrid = SV_MAX_N_BLOCKS; // blocks a launch: one a value at the most n
constexpr size_t kDevSlack = 4096;
constexpr size_t kClosure = 4096;
constexpr size_t kMaxDev = (size_t)SV_KTRACE_MAX_DEVICE_CELLS * kCell;
constexpr size_t kDynMax = 49152; // SV_RT_DYN
constexpr size_t kName = 64;      // SV_SCAN_NAME

enum GState { G_RUN, G_BAR, G_SPIN, G_WARP, G_DONE };

struct GThread {
    ctx::fiber self, sink;
    GState state = G_RUN;
    uint32_t block = 0, tid = 0;
    int wait_line = 0;
    bool pred = false;
    uintptr_t spin_addr = 0;
    uint32_t spin_count = 0, spin_tries = 0;
    uint64_t spin_epoch = 0;
    uintptr_t atom_addr = 0; // an atomic's word, to see whether it changed
    uint32_t atom_old = 0;
    // a write of device memory whose value its next hook reads (the event
    // of G->ev it publishes, -1 none, and the cell's word)
    int64_t pub = -1;
    uintptr_t pub_addr = 0;
    // its last plain or volatile write of device memory: the records that
    // took the cell's value before the store, set right at its next hook
    // (the writer's, the memory order's, a hazard's second access, -1 none)
    int64_t wfix_arr = -1;
    uint32_t wfix_cell = 0;
    int64_t wfix_hazard = -1;
    // memory order: the __threadfence()s it made, and the last write of
    // another block it read (its writer, that writer's fences then, the
    // write's place in the launch): a flag, maybe
    uint32_t fences = 0;
    uint32_t acq_gid = UINT32_MAX, acq_fences = 0;
    uint64_t acq_seq = 0;
    int32_t acq_line = 0;
    uint32_t acq_arr = 0, acq_cell = 0;
    // at a warp collective (G_WARP): as Th's
    int wkind = 0;
    uint32_t wmask = 0, warg = 0;
    int wwidth = 32;
    uint64_t wval = 0, wres = 0;
#ifdef SV_RT_ASAN
    void *fake = nullptr;
#endif
};

// Device memory: out[] (dev[0]) and what cudaMalloc gave.
struct GArr {
    std::string name;
    uintptr_t base = 0;
    size_t bytes = 0;
    uint32_t len = 0;
    unsigned char *mem = nullptr; // malloc'd with kDevSlack on each side
    std::vector<uint8_t> written;
    bool freed = false;
    int tidx = -1; // its index in t->arrays (placed when it is made)
    // this launch's plain (not atomic, not volatile) accesses of each cell:
    // its last reader and the last of another block than that one, its
    // writer (launch numbers tell this launch's from older ones)
    struct Who {
        uint32_t launch = 0, block = 0, gid = 0, value = 0;
        int32_t line = 0;
    };
    std::vector<Who> r1, r2, w;
    std::vector<uint32_t> reported; // the launch a hazard of the cell was found in
    // the last write of each cell of any kind (plain, volatile, atomic): its
    // writer's fences then and its place in the launch (memory order)
    struct Last {
        uint32_t launch = 0, block = 0, gid = 0, fences = 0, value = 0;
        uint64_t seq = 0;
        int32_t line = 0;
        uint64_t clock = 0; // G->clock at the write
    };
    std::vector<Last> last;
    std::vector<uint32_t> ordered; // the launch a memory-order finding of the cell was in
};

struct Grid {
    unsigned *bidx = nullptr, *gdim = nullptr, *bdim = nullptr;
    ctx::fiber host, host_sink;
    bool in_host = false, host_done = false;
#ifdef SV_RT_ASAN
    void *host_fake = nullptr;
#endif
    // the launch the host asked for
    bool pending = false;
    int line = 0;
    char kernel[kName] = "";
    uint32_t grid = 0, block = 0; // the launch's blocks in all, its threads a block
    uint32_t dims[3] = {1, 1, 1}; // the grid's x, y, z
    uint32_t bdims[3] = {1, 1, 1}; // the block's x, y, z (its threads numbered x, then y, then z)
    unsigned long shared = 0;
    void (*thunk)(const void *) = nullptr;
    unsigned char *closure = nullptr;
    // its blocks
    std::vector<GThread> th; // slot s's threads at s * block ..
    std::vector<uint32_t> slot;
    std::vector<std::vector<uint8_t>> img;
    std::vector<int> bar_count;
    int loaded = -1;
    std::vector<uint32_t> order;
    size_t started = 0, ended = 0;
    uint32_t cur = 0;
    uint64_t epoch = 0;
    std::vector<GArr> dev;
    std::vector<sv_klaunch> launches;
    uint32_t launch = 0; // launches run so far, this one included
    // each slot's shared cells in its block's barrier interval (gen): the
    // last writer, the last reader and the one before of another thread
    struct Cell {
        uint64_t gen = 0;
        uint32_t w = UINT32_MAX, r = UINT32_MAX, r2 = UINT32_MAX; // tid
        int32_t wl = 0, rl = 0, r2l = 0;
        uint32_t wv = 0, rv = 0, r2v = 0;
        bool reported = false;
    };
    std::vector<std::unordered_map<uint64_t, Cell>> sh;
    std::vector<uint64_t> gen;
    uint64_t gen_next = 0;
    std::map<uint16_t, int> sh_tidx; // a shared array a hazard named: its index in t->arrays
    uint64_t wseq = 0; // device-memory writes so far (their order)
    // each launch's blocks over time (sv_ktrace.tiles, .events): the clock
    // counts the run's accesses; this launch's tiles by block, its events
    // (tile: the block) and the cells each block looked at or waited on
    uint64_t clock = 0;
    std::vector<sv_ktile> tiles, tl;
    std::vector<sv_kevent> events, ev;
    uint32_t events_dropped = 0;
    uint32_t launches_run = 0; // every launch, kept in the trace or not (its progress)
    std::unordered_map<uint64_t, uint32_t> looked;
    std::unordered_set<uint64_t> waited;
    // the launches as a plan the GPU replays (sv_ktrace.plan): one line each
    // of "A k BYTES NAME" (cudaMalloc), "S k OFF VALUE BYTES" (cudaMemset),
    // "C k OFF j OFF BYTES" (cudaMemcpy from j, -1 for in[], into k), "L
    // LINE GRID BLOCK SHARED NARGS" then per argument "p k OFF" (a pointer
    // into device memory: k, or -1 for in[]) or "v SIZE HEX" (its bytes);
    // "x WHY" when one cannot be replayed
    std::string plan;
};
Grid *G;
bool g_place_dev(size_t k);     // below: the arrays' places in t
int g_shared_tidx(uint16_t si);

[[maybe_unused]] unsigned char *g_stack_bottom(uint32_t k)
{
    return R->stacks + (size_t)k * (kStack + kGuard) + kGuard;
}

uint32_t g_gid(const GThread &t)
{
    return t.block * G->block + t.tid;
}

int32_t g_thread(const GThread &t)
{
    uint32_t id = g_gid(t);
    return id < R->n ? (int32_t)id : -1;
}

// the scheduler's side: back to it from a thread or the host
void g_to_scheduler()
{
    if (G->in_host) {
#ifdef SV_RT_ASAN
        __sanitizer_start_switch_fiber(&G->host_fake, R->main_bottom, R->main_size);
#endif
        G->host_sink = std::move(G->host_sink).resume();
#ifdef SV_RT_ASAN
        __sanitizer_finish_switch_fiber(G->host_fake, nullptr, nullptr);
#endif
        return;
    }
    GThread &t = G->th[G->cur];
#ifdef SV_RT_ASAN
    __sanitizer_start_switch_fiber(&t.fake, R->main_bottom, R->main_size);
#endif
    t.sink = std::move(t.sink).resume();
#ifdef SV_RT_ASAN
    __sanitizer_finish_switch_fiber(t.fake, nullptr, nullptr);
#endif
}

// A failure of the host or the thread that runs: the run stops there.
void g_fail(sv_kfail_kind kind, const char *msg, int32_t line, int32_t array, int64_t index)
{
    int32_t thread = G->in_host ? -1 : g_thread(G->th[G->cur]);
    fail_set(kind, msg, line, thread, array, index);
    g_to_scheduler(); // never resumed
}

// "block 3 thread 7" or "the host function scan": who runs, in words.
const char *g_who(char *buf, size_t len)
{
    if (G->in_host)
        snprintf(buf, len, "the host function scan");
    else
        snprintf(buf, len, "block %u thread %u", G->th[G->cur].block, G->th[G->cur].tid);
    return buf;
}

// The shared memory of slot s in place (the pool and the file-scope arrays).
void g_shared_swap(int s)
{
    if (G->loaded == s)
        return;
    auto copy = [](std::vector<uint8_t> &img, bool save) {
        size_t at = 0;
        auto one = [&](unsigned char *p, size_t k) {
            if (save)
                memcpy(img.data() + at, p, k);
            else
                memcpy(p, img.data() + at, k);
            at += k;
        };
        one(R->pool, kPool);
        const uintptr_t pool = (uintptr_t)R->pool;
        for (const Arr &a : R->arrs)
            if (a.kind == SV_KARRAY_SHARED && (a.base < pool || a.base >= pool + kPool) &&
                at + a.bytes <= img.size())
                one((unsigned char *)a.base, a.bytes);
    };
    if (G->loaded >= 0)
        copy(G->img[(size_t)G->loaded], true);
    copy(G->img[(size_t)s], false);
    G->loaded = s;
}

size_t g_image_bytes()
{
    size_t k = kPool;
    const uintptr_t pool = (uintptr_t)R->pool;
    for (const Arr &a : R->arrs)
        if (a.kind == SV_KARRAY_SHARED && (a.base < pool || a.base >= pool + kPool))
            k += a.bytes;
    return k;
}

// Which device array addr is in: its index and cell (0), -2 out of range
// (within kDevSlack of one, or in in[]/out[]'s guard), -1 none. in[] is
// SV_KARRAY_IN.
int g_classify(uintptr_t addr, unsigned long size, uint32_t *arr, int64_t *index)
{
    const uintptr_t in = (uintptr_t)R->in;
    if (addr + kSlack >= in && addr < in + R->io_bytes + kSlack) {
        *arr = SV_KARRAY_IN;
        *index = addr < in ? -(int64_t)((in - addr + kCell - 1) / kCell)
                           : (int64_t)((addr - in) / kCell);
        return addr >= in && addr + size <= in + (uintptr_t)R->n * kCell ? 0 : -2;
    }
    for (uint32_t k = 0; k < G->dev.size(); k++) {
        const GArr &a = G->dev[k];
        if (a.freed || addr + kDevSlack < a.base || addr >= a.base + a.bytes + kDevSlack)
            continue;
        *arr = k;
        *index = addr < a.base ? -(int64_t)((a.base - addr + kCell - 1) / kCell)
                               : (int64_t)((addr - a.base) / kCell);
        return addr >= a.base && addr + size <= a.base + a.bytes ? 0 : -2;
    }
    return -1;
}

// An atomic's word after the atomic: a write (it changed) wakes spinners.
void g_flush(GThread &t)
{
    if (t.wfix_arr >= 0) {
        GArr &a = G->dev[(size_t)t.wfix_arr];
        const uint32_t c = t.wfix_cell, gid = g_gid(t);
        if (c < a.len && !a.freed) {
            uint32_t v;
            memcpy(&v, (const void *)(a.base + (uintptr_t)c * kCell), kCell);
            if (a.w.size() == a.len && a.w[c].gid == gid && a.w[c].launch == G->launch)
                a.w[c].value = v;
            if (a.last.size() == a.len && a.last[c].gid == gid && a.last[c].launch == G->launch)
                a.last[c].value = v;
            if (t.wfix_hazard >= 0 && (size_t)t.wfix_hazard < R->t->nhazards)
                R->t->hazards[t.wfix_hazard].second.value.bits = v;
        }
        t.wfix_arr = t.wfix_hazard = -1;
    }
    if (t.pub >= 0) {
        memcpy(&G->ev[(size_t)t.pub].value.bits, (const void *)t.pub_addr, kCell);
        t.pub = -1;
    }
    if (!t.atom_addr)
        return;
    uint32_t now;
    memcpy(&now, (const void *)t.atom_addr, kCell);
    if (now != t.atom_old)
        G->epoch++;
    t.atom_addr = 0;
}

// A plain access of device memory: a write of a cell another block read
// or wrote in this launch is a hazard (nothing orders blocks within a
// launch); a read after another block's write may be ordered by a flag
// (a volatile or atomic access, which is never one), and is not.
void g_race(uint32_t arr, uint32_t c, bool write, int32_t line)
{
    GArr &a = G->dev[arr];
    if (a.r1.size() != a.len) {
        a.r1.assign(a.len, {});
        a.r2.assign(a.len, {});
        a.w.assign(a.len, {});
        a.reported.assign(a.len, 0);
    }
    const GThread &t = G->th[G->cur];
    GArr::Who me;
    me.launch = G->launch;
    me.block = t.block;
    me.gid = g_gid(t);
    me.line = line;
    memcpy(&me.value, (const void *)(a.base + (uintptr_t)c * kCell), kCell);
    if (!write) {
        GArr::Who &r1 = a.r1[c];
        if (r1.launch == G->launch && r1.block != me.block)
            a.r2[c] = r1;
        r1 = me;
        return;
    }
    const GArr::Who *other = nullptr;
    sv_khazard_kind kind = SV_KHAZARD_WAR;
    if (a.w[c].launch == G->launch && a.w[c].block != me.block) {
        other = &a.w[c];
        kind = SV_KHAZARD_WAW;
    } else if (a.r1[c].launch == G->launch && a.r1[c].block != me.block) {
        other = &a.r1[c];
    } else if (a.r2[c].launch == G->launch && a.r2[c].block != me.block) {
        other = &a.r2[c];
    }
    if (other && a.reported[c] != G->launch) {
        a.reported[c] = G->launch;
        sv_ktrace *tr = R->t;
        R->hazards_total++;
        tr->hazards_total = R->hazards_total;
        if (tr->nhazards < SV_KTRACE_MAX_HAZARDS && other->gid < R->n && me.gid < R->n) {
            sv_khazard h{};
            h.kind = kind;
            h.step = (uint32_t)tr->nsteps;
            const uint16_t ta = (uint16_t)G->dev[arr].tidx;
            h.array = ta;
            h.cell = c;
            h.first = {other->gid, ta, c, {0}, other->line, 0};
            h.first.value.bits = other->value;
            h.second = {me.gid, ta, c, {0}, me.line, 0};
            h.second.value.bits = me.value;
            G->th[G->cur].wfix_hazard = (int64_t)tr->nhazards;
            tr->hazards[tr->nhazards++] = h;
        }
    }
    a.w[c] = me;
}

// A plain access of shared cell c of array si by the thread that runs: a
// hazard with another thread of its block in the same barrier interval, as
// one block's (RAW, WAR, WAW), one per cell and interval.
void g_shared_race(uint16_t si, uint32_t c, bool write, int32_t line)
{
    const GThread &t = G->th[G->cur];
    const uint32_t s = G->cur / G->block;
    Grid::Cell &e = G->sh[s][(uint64_t)si << 32 | c];
    if (e.gen != G->gen[s])
        e = Grid::Cell{G->gen[s]};
    uint32_t v;
    memcpy(&v, (const void *)(R->arrs[si].base + (uintptr_t)c * kCell), kCell);
    uint32_t other = UINT32_MAX, ov = 0;
    int32_t ol = 0;
    sv_khazard_kind kind = SV_KHAZARD_RAW;
    if (e.w != UINT32_MAX && e.w != t.tid) {
        other = e.w, ol = e.wl, ov = e.wv;
        kind = write ? SV_KHAZARD_WAW : SV_KHAZARD_RAW;
    } else if (write && e.r != UINT32_MAX && e.r != t.tid) {
        other = e.r, ol = e.rl, ov = e.rv, kind = SV_KHAZARD_WAR;
    } else if (write && e.r2 != UINT32_MAX && e.r2 != t.tid) {
        other = e.r2, ol = e.r2l, ov = e.r2v, kind = SV_KHAZARD_WAR;
    }
    if (other != UINT32_MAX && !e.reported) {
        e.reported = true;
        sv_ktrace *tr = R->t;
        R->hazards_total++;
        tr->hazards_total = R->hazards_total;
        const uint32_t g1 = t.block * G->block + other, g2 = g_gid(t);
        const int sa = g1 < R->n && g2 < R->n ? g_shared_tidx(si) : -1;
        if (tr->nhazards < SV_KTRACE_MAX_HAZARDS && sa >= 0) {
            const uint16_t a = (uint16_t)sa;
            sv_khazard h{};
            h.kind = kind;
            h.step = (uint32_t)tr->nsteps;
            h.array = a;
            h.cell = c;
            h.first = {g1, a, c, {0}, ol, 0};
            h.first.value.bits = ov;
            h.second = {g2, a, c, {0}, line, 0};
            h.second.value.bits = v;
            tr->hazards[tr->nhazards++] = h;
        }
    }
    if (write) {
        e.w = t.tid, e.wl = line, e.wv = v;
    } else if (e.r != t.tid) {
        e.r2 = e.r, e.r2l = e.rl, e.r2v = e.rv;
        e.r = t.tid, e.rl = line, e.rv = v;
    }
}

// Memory order (a flag before its data): thread R reads cell c of device
// array arr. A write of another block it read before in this launch is an
// acquire (a flag, maybe); a later read of a cell that same writer wrote
// before that flag with no __threadfence() between them is not ordered by
// it: on a GPU the flag may be seen before the data. Named as a RAW hazard
// of the data's cell (first the data's write, then this read). A write is
// recorded as the cell's last, with its writer's fences.
void g_order(uint32_t arr, uint32_t c, bool write, int32_t line)
{
    GArr &a = G->dev[arr];
    if (a.last.size() != a.len) {
        a.last.assign(a.len, {});
        a.ordered.assign(a.len, 0);
    }
    GThread &t = G->th[G->cur];
    GArr::Last &l = a.last[c];
    uint32_t v;
    memcpy(&v, (const void *)(a.base + (uintptr_t)c * kCell), kCell);
    if (write) {
        l = {G->launch, t.block, g_gid(t), t.fences, v, ++G->wseq, line, G->clock};
        t.wfix_arr = arr; // the value once stored: g_flush
        t.wfix_cell = c;
        return;
    }
    if (l.launch != G->launch || l.block == t.block)
        return;
    if (t.acq_gid == l.gid && l.seq < t.acq_seq && l.fences == t.acq_fences &&
        !(t.acq_arr == arr && t.acq_cell == c) && a.ordered[c] != G->launch) {
        a.ordered[c] = G->launch;
        sv_ktrace *tr = R->t;
        R->hazards_total++;
        tr->hazards_total = R->hazards_total;
        const uint32_t me = g_gid(t);
        if (tr->nhazards < SV_KTRACE_MAX_HAZARDS && l.gid < R->n && me < R->n) {
            sv_khazard h{};
            h.kind = SV_KHAZARD_RAW;
            h.step = (uint32_t)tr->nsteps;
            const uint16_t ta = (uint16_t)G->dev[arr].tidx;
            h.array = ta;
            h.cell = c;
            h.first = {l.gid, ta, c, {0}, l.line, 0};
            h.first.value.bits = l.value;
            h.second = {me, ta, c, {0}, line, 0};
            h.second.value.bits = v;
            tr->hazards[tr->nhazards++] = h;
        }
    }
    t.acq_gid = l.gid;
    t.acq_fences = l.fences;
    t.acq_seq = l.seq;
    t.acq_line = line;
    t.acq_arr = arr;
    t.acq_cell = c;
}

void g_hook_fence(int)
{
    if (!G->in_host)
        G->th[G->cur].fences++;
}

// An event of the block that runs in this launch (tile: its block), or
// one more dropped past SV_KTRACE_MAX_EVENTS; its index, -1 dropped.
int64_t g_event(sv_kevent_kind kind, uint32_t arr, uint32_t c, uint32_t value, int32_t line)
{
    const GThread &t = G->th[G->cur];
    if (G->events.size() + G->ev.size() >= SV_KTRACE_MAX_EVENTS) {
        G->events_dropped++;
        return -1;
    }
    sv_kevent e{};
    e.kind = kind;
    e.tile = t.block;
    e.time = G->clock;
    e.thread = t.tid;
    e.array = arr == SV_KARRAY_IN ? (uint16_t)SV_KARRAY_IN : (uint16_t)G->dev[arr].tidx;
    e.cell = c;
    e.value.bits = value;
    e.line = line;
    e.other = SV_KTRACE_NO_TILE;
    G->ev.push_back(e);
    return (int64_t)G->ev.size() - 1;
}

// A device-memory access of the thread that runs, for its tile: a cell of
// out[] it wrote, a publish (a write of other device memory; its value at
// the thread's next hook), a look (a read of a cell another block of this
// launch wrote, once per value).
void g_tile_access(uint32_t arr, uint32_t c, bool write, bool atomic, int32_t line,
                   const GArr::Last *pre)
{
    GThread &t = G->th[G->cur];
    GArr &a = G->dev[arr];
    if (c >= a.len || a.tidx < 0 || t.block >= G->tl.size())
        return;
    sv_ktile &x = G->tl[t.block];
    const uintptr_t word = a.base + (uintptr_t)c * kCell;
    if ((write || atomic) && arr == 0) {
        if (x.out_lo < 0 || (int64_t)c < x.out_lo)
            x.out_lo = c;
        if ((int64_t)c > x.out_hi)
            x.out_hi = c;
    }
    if (!write || atomic) {
        const GArr::Last *l = a.last.size() == a.len ? &a.last[c] : nullptr;
        if (atomic && pre && l && l->gid == g_gid(t) && l->launch == G->launch)
            l = pre; // its own atomic's write: the one before it is what it read
        if (l && l->launch == G->launch && l->block != t.block) {
            uint32_t now;
            memcpy(&now, (const void *)word, kCell);
            const uint64_t key = (uint64_t)t.block << 40 | (uint64_t)arr << 32 | c;
            auto it = G->looked.find(key);
            if (it == G->looked.end() || it->second != now) {
                G->looked[key] = now;
                G->waited.erase(key);
                int64_t e = g_event(SV_KEVENT_LOOK, arr, c, now, line);
                if (e >= 0) {
                    G->ev[(size_t)e].other = l->block;
                    G->ev[(size_t)e].other_time = l->clock;
                }
            }
        }
    }
    if ((write || atomic) && arr != 0) {
        int64_t e = g_event(SV_KEVENT_PUBLISH, arr, c, 0, line);
        if (e >= 0) {
            t.pub = e;
            t.pub_addr = word;
        }
    }
}

// A thread of the block that runs begins to spin on its word: a wait of
// its tile, once until it reads something new there.
void g_tile_wait(const GThread &t, int32_t line)
{
    uint32_t arr = 0;
    int64_t index = 0;
    if (g_classify(t.spin_addr, 1, &arr, &index) != 0 || arr == SV_KARRAY_IN ||
        G->dev[arr].tidx < 0)
        return;
    const uint32_t c = (uint32_t)index;
    const uint64_t key = (uint64_t)t.block << 40 | (uint64_t)arr << 32 | c;
    if (!G->waited.insert(key).second)
        return;
    const GArr &a = G->dev[arr];
    uint32_t now;
    memcpy(&now, (const void *)(a.base + (uintptr_t)c * kCell), kCell);
    int64_t e = g_event(SV_KEVENT_WAIT, arr, c, now, line);
    if (e >= 0 && a.last.size() == a.len && a.last[c].launch == G->launch)
        G->ev[(size_t)e].other = a.last[c].block;
}

void g_access(void *addr, unsigned long size, int write, void *pcp, bool atomic)
{
    const bool vol = (write & 2) != 0;
    write &= 1;
    if (R->failed)
        return;
    uintptr_t a = (uintptr_t)addr;
    uint64_t pc = (uintptr_t)pcp - R->so_base;
    R->last_pc = pc;
    int32_t line = line_of(pc);
    char who[64], msg[320];
    uint32_t arr = 0;
    int64_t index = 0;
    if (!G->in_host) {
        g_flush(G->th[G->cur]);
        G->clock++;
    }
    int k = g_classify(a, size, &arr, &index);
    int64_t tile_arr = -1; // device memory: its tile's events, after the yield below
    GArr::Last pre{};      // an atomic's cell's last write before its own
    bool have_pre = false;
    if (k == -1) {
        // shared memory of the block that runs, or the kernel's own
        uint16_t si = 0;
        int sk = classify(a, &si, &index);
        if (sk == 0 && si != 0 && si != SV_KARRAY_IN && !G->in_host) {
            if (!atomic && !vol && si < SV_KTRACE_MAX_ARRAYS)
                g_shared_race(si, (uint32_t)index, write != 0, line);
            goto shared;
        }
        if (sk == -2 && si != 0 && si != SV_KARRAY_IN && !G->in_host) {
            snprintf(msg, sizeof msg, "%s %s %s[%lld] at line %d: outside the array",
                     g_who(who, sizeof who), write ? "wrote" : "read",
                     si == 0xfffe ? "shared memory" : R->arrs[si].name.c_str(),
                     (long long)index, line);
            g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, -1, index);
            return;
        }
        if (own_memory(a, size))
            return;
        snprintf(msg, sizeof msg, "%s %s memory that is not the kernel's (address %#llx: not a "
                 "__shared__ array, in[], out[], device memory of cudaMalloc or a local) at "
                 "line %d", g_who(who, sizeof who), write ? "wrote" : "read",
                 (unsigned long long)a, line);
        g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, -1, 0);
        return;
    }
    {
        const char *name = arr == SV_KARRAY_IN ? "in" : G->dev[arr].name.c_str();
        int32_t tarr = arr == SV_KARRAY_IN ? (int32_t)SV_KARRAY_IN : (int32_t)arr;
        if (G->in_host) {
            snprintf(msg, sizeof msg, "the host function scan %s %s[%lld] at line %d: device "
                     "memory is the kernels' to read and write (the host launches them)",
                     write ? "wrote" : "read", name, (long long)index, line);
            g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, tarr, index);
            return;
        }
        if (k == -2) {
            snprintf(msg, sizeof msg, "%s %s %s[%lld] at line %d: outside the array",
                     g_who(who, sizeof who), write ? "wrote" : "read", name, (long long)index,
                     line);
            g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, tarr, index);
            return;
        }
        if (arr == SV_KARRAY_IN && write) {
            snprintf(msg, sizeof msg, "%s wrote in[%lld] at line %d: in[] is the kernel's const "
                     "input", g_who(who, sizeof who), (long long)index, line);
            g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, tarr, index);
            return;
        }
        if (write || atomic)
            for (int64_t c = index; c < index + (int64_t)((size + kCell - 1) / kCell) &&
                                    c < (int64_t)G->dev[arr].len; c++)
                G->dev[arr].written[(size_t)c] = 1;
        if (arr != SV_KARRAY_IN) {
            tile_arr = (int64_t)arr;
            const GArr &d = G->dev[arr];
            if (atomic && d.last.size() == d.len && index >= 0 && index < (int64_t)d.len) {
                pre = d.last[(size_t)index];
                have_pre = true;
            }
        }
        if (!atomic && !vol && arr != SV_KARRAY_IN)
            g_race(arr, (uint32_t)index, write != 0, line);
        if (arr != SV_KARRAY_IN && atomic) { // a read, then a write of the word
            g_order(arr, (uint32_t)index, false, line);
            g_order(arr, (uint32_t)index, true, line);
        } else if (arr != SV_KARRAY_IN) {
            g_order(arr, (uint32_t)index, write != 0, line);
        }
    }
shared:
    GThread &t = G->th[G->cur]; // (flushed at the hook's start)
    if (R->yield_at_access) {
        g_to_scheduler();
        if (R->failed)
            return;
    }
    if (tile_arr >= 0) // what it reads is there now (others ran in the yield)
        g_tile_access((uint32_t)tile_arr, (uint32_t)index, write != 0, atomic, line,
                      have_pre ? &pre : nullptr);
    if (write && !atomic) {
        t.spin_addr = 0;
        t.spin_count = 0;
        G->epoch++;
        return;
    }
    if (atomic) {
        t.atom_addr = a & ~(uintptr_t)(kCell - 1);
        memcpy(&t.atom_old, (const void *)t.atom_addr, kCell);
    }
    if (a != t.spin_addr) {
        t.spin_addr = a;
        t.spin_count = 1;
        return;
    }
    if (++t.spin_count < kSpin)
        return;
    t.state = G_SPIN;
    t.spin_epoch = G->epoch;
    t.wait_line = line;
    g_tile_wait(t, line);
    g_to_scheduler();
    if (tile_arr >= 0 && !R->failed) // woken: what it reads now (another's write, maybe)
        g_tile_access((uint32_t)tile_arr, (uint32_t)index, false, false, line, nullptr);
    t.spin_count = kSpin - 8; // a few more reads before it waits again
}

void g_hook_access(void *addr, unsigned long size, int write, void *pcp)
{
    g_access(addr, size, write, pcp, false);
}

void g_hook_atomic(void *addr, unsigned long size, void *pcp)
{
    g_access(addr, size, 1, pcp, true);
}

void g_barrier(int line, bool pred)
{
    if (G->in_host) {
        char msg[128];
        snprintf(msg, sizeof msg, "the host function scan calls __syncthreads() at line %d", line);
        g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
        return;
    }
    GThread &t = G->th[G->cur];
    g_flush(t);
    t.state = G_BAR;
    t.wait_line = line;
    t.pred = pred;
    t.spin_addr = 0;
    t.spin_count = 0;
    g_to_scheduler();
}

void g_hook_sync(int line)
{
    g_barrier(line, false);
}

int g_hook_sync_count(int pred, int line)
{
    g_barrier(line, pred != 0);
    return G->bar_count[G->cur / G->block];
}

void g_hook_shared(void *addr, unsigned long bytes, unsigned long rows, const char *name, int line)
{
    hook_shared(addr, bytes, rows, name, line);
    if (R->failed)
        g_to_scheduler();
}

// What a file with a host function does not have yet: the run stops, in words.
void g_not_yet(const char *what, int line)
{
    char msg[256], who[64];
    snprintf(msg, sizeof msg, "%s uses %s at line %d: not supported yet in a file whose host "
             "function scan launches its kernels", g_who(who, sizeof who), what, line);
    g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
}

void *g_hook_alloc(unsigned long, int line)
{
    g_not_yet("malloc", line);
    return nullptr;
}

void g_hook_release(void *)
{
    g_not_yet("free", line_of(R->last_pc));
}

// ---- Warps of a block (as one block's: hook_warp) ----
//
// Lane l of the warp of slot thread j is slot thread j - j % 32 + l of the
// same block; the last warp of a block may be partial.
uint32_t g_lanes(uint32_t tid)
{
    const uint32_t have = G->block - (tid - tid % 32);
    return have >= 32 ? 0xffffffffu : (1u << have) - 1u;
}

void g_warp_fail(sv_kfail_kind kind, const GThread &t, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void g_warp_fail(sv_kfail_kind kind, const GThread &t, int line, const char *fmt, ...)
{
    char msg[512];
    int k = snprintf(msg, sizeof msg, "block %u: ", t.block);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + (k > 0 ? k : 0), sizeof msg - (size_t)(k > 0 ? k : 0), fmt, ap);
    va_end(ap);
    fail_set(kind, msg, line, g_thread(t), -1, 0);
}

// The collective of the lanes in set (all at it), from slot thread base.
void g_warp_complete(uint32_t base, uint32_t set)
{
    uint64_t res[32] = {0};
    const GThread &b0 = G->th[base];
    const WarpOut o = warp_results(&G->th[base], set, g_lanes(b0.tid), res);
    const GThread &x = G->th[base + o.lane], &f = G->th[base + o.src];
    switch (o.bad) {
    case WARP_MISMATCH:
        g_warp_fail(SV_KFAIL_DEADLOCK, x, x.wait_line, "deadlock at a warp collective: thread "
                    "%u is at the %s of line %d with mask %#010x, thread %u at the %s of line "
                    "%d with mask %#010x: the lanes of one collective must name the same mask",
                    x.tid, warp_name(x.wkind), x.wait_line, x.wmask, f.tid, warp_name(f.wkind),
                    f.wait_line, f.wmask);
        return;
    case WARP_NO_LANE:
    case WARP_NOT_IN_MASK:
        g_warp_fail(SV_KFAIL_OUT_OF_RANGE, x, x.wait_line, "thread %u (lane %u) reads lane %u, "
                    "which %s, at line %d", x.tid, o.lane, o.src,
                    o.bad == WARP_NO_LANE ? "does not exist (a partial last warp)"
                                          : "is not in the mask", x.wait_line);
        return;
    case WARP_OK:
        break;
    }
    for (uint32_t l = 0; l < 32; l++)
        if (set >> l & 1) {
            G->th[base + l].wres = res[l];
            G->th[base + l].state = G_RUN;
        }
}

unsigned long long g_hook_warp(int kind, unsigned mask, unsigned long long value, unsigned arg,
                               int width, int line)
{
    if (G->in_host) {
        g_not_yet("a warp collective in the host function", line);
        return 0;
    }
    GThread &t = G->th[G->cur];
    g_flush(t);
    const uint32_t lane = t.tid % 32, base = G->cur - lane, lanes = g_lanes(t.tid);
    t.spin_addr = 0;
    t.spin_count = 0;
    if (kind == SV_RT_W_ACTIVE) { // until no lane of its warp can run (g_settle)
        t.state = G_WARP;
        t.wait_line = line;
        t.wkind = kind;
        t.wmask = lanes;
        t.wval = 0;
        g_to_scheduler();
        return t.wres;
    }
    char msg[256];
    if (kind < SV_RT_W_IDX || (kind > SV_RT_W_SYNC && kind != SV_RT_W_RED)) {
        snprintf(msg, sizeof msg, "warp collective %d unknown", kind);
        g_fail(SV_KFAIL_INTERNAL, msg, line, -1, 0);
        return 0;
    }
    if ((kind <= SV_RT_W_XOR && (width < 1 || width > 32 || (width & (width - 1)))) ||
        !(mask >> lane & 1)) {
        snprintf(msg, sizeof msg, "block %u thread %u: the %s of line %d has %s", t.block, t.tid,
                 warp_name(kind), line, !(mask >> lane & 1) ? "a mask without its own lane"
                                                             : "a width that is not a power of "
                                                               "two from 1 to 32");
        g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, -1, 0);
        return 0;
    }
    t.state = G_WARP;
    t.wait_line = line;
    t.wkind = kind;
    t.wmask = mask;
    t.wval = kind == SV_RT_W_BALLOT || kind == SV_RT_W_ANY || kind == SV_RT_W_ALL ? value != 0
                                                                                   : value;
    t.warg = arg;
    t.wwidth = width;
    const uint32_t set = mask & lanes;
    bool all = true;
    for (uint32_t l = 0; l < 32 && all; l++)
        if ((set >> l & 1) && (G->th[base + l].state != G_WARP ||
                               G->th[base + l].wkind == SV_RT_W_ACTIVE))
            all = false;
    if (all)
        g_warp_complete(base, set);
    g_to_scheduler(); // (runnable at once when it completed the collective)
    return t.wres;
}

// printf of a kernel's thread (as one block's, its thread the global index),
// or of the host function (to the console); a thread past n prints nothing
// yet.
int g_hook_print(int line, const char *fmt, va_list ap)
{
    if (G->in_host)
        return hook_print_as(line, fmt, ap, true);
    if (g_thread(G->th[G->cur]) < 0) {
        g_not_yet("printf in a thread past n", line);
        return 0;
    }
    return hook_print(line, fmt, ap);
}

void g_hook_assert_fail(const char *expr, int line)
{
    char text[128], who[64], msg[256];
    size_t k = 0;
    while (k + 1 < sizeof text && in_own(expr + k, 1) && expr[k]) {
        unsigned char c = (unsigned char)expr[k];
        text[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    text[k] = '\0';
    snprintf(msg, sizeof msg, "%s: assert(%s) failed at line %d", g_who(who, sizeof who), text,
             line);
    g_fail(SV_KFAIL_CRASH, msg, line, -1, 0);
}

// A copy's range: the kernel's own memory, device memory (cudaMemset) or a
// block's shared memory.
void g_hook_span(void *addr, unsigned long size, int write, void *pcp)
{
    if (R->failed || size == 0)
        return;
    uint32_t arr = 0;
    int64_t index = 0;
    uintptr_t a = (uintptr_t)addr;
    int k = g_classify(a, size, &arr, &index);
    if (k == 0 && arr != SV_KARRAY_IN && !G->in_host) {
        if (write)
            for (uint32_t c = (uint32_t)index; c < G->dev[arr].len &&
                                               (uintptr_t)c * kCell < (a - G->dev[arr].base) + size;
                 c++)
                G->dev[arr].written[c] = 1;
        return;
    }
    if (k == 0 && arr == SV_KARRAY_IN && !write && !G->in_host)
        return;
    uint16_t si = 0;
    if (k == -1 && ((!G->in_host && classify(a, &si, &index) == 0 && si != 0 &&
                     a + size <= R->arrs[si].base + R->arrs[si].len * (uintptr_t)kCell) ||
                    own_memory(a, size)))
        return;
    g_access(addr, size, write, pcp, false); // names what it touched
    if (!R->failed) {
        char msg[160], who[64];
        uint64_t pc = (uintptr_t)pcp - R->so_base;
        snprintf(msg, sizeof msg, "%s copies %lu bytes at %#llx, beyond the memory it may use",
                 g_who(who, sizeof who), size, (unsigned long long)a);
        g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line_of(pc), -1, 0);
    }
}

// cudaMalloc: zeroed memory with a margin each side, named by the last
// identifier of the pointer's expression ("&sums" -> sums, "sums@LINE" when
// the name is taken).
void *g_hook_dalloc(unsigned long bytes, const char *name, int line)
{
    char msg[256];
    if (!G->in_host) {
        snprintf(msg, sizeof msg, "a kernel calls cudaMalloc at line %d: device memory is the "
                 "host function scan's to allocate", line);
        g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
        return nullptr;
    }
    // every array of the run is one of the trace's (freed ones too), out[]
    // first, with room for two shared arrays a hazard may name
    const size_t most = SV_KTRACE_MAX_ARRAYS - 2;
    if (bytes == 0 || bytes > kMaxDev || bytes % kCell != 0 || G->dev.size() >= most) {
        snprintf(msg, sizeof msg, "cudaMalloc of %lu bytes at line %d: the CPU runtime gives "
                 "device memory of whole %u-byte cells, up to %zu bytes, %zu arrays in a run",
                 bytes, line, kCell, kMaxDev, most - 1);
        g_fail(SV_KFAIL_MEMORY, msg, line, -1, 0);
        return nullptr;
    }
    char id[kName] = "";
    size_t m = 0;
    for (size_t i = 0; name && i < 256 && in_own(name + i, 1) && name[i]; i++) {
        char c = name[i];
        bool idc = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                   (m > 0 && c >= '0' && c <= '9');
        if (idc && m + 1 < sizeof id) {
            id[m++] = c;
            id[m] = '\0';
        } else if (!idc && m > 0) {
            if (strcmp(id, "void") != 0 && strcmp(id, "int") != 0 && strcmp(id, "float") != 0)
                break; // the identifier before the next one is the pointer's
            m = 0;
            id[0] = '\0';
        }
    }
    if (!id[0] || !strcmp(id, "void"))
        snprintf(id, sizeof id, "dev");
    // its name, made unique: "sums", then "sums@LINE", then "sums@LINE.2", ...
    std::string nm = id;
    auto taken = [](const std::string &s) {
        for (const GArr &a : G->dev)
            if (a.name == s)
                return true;
        return false;
    };
    for (int k = 1; taken(nm) && k <= SV_KTRACE_MAX_ARRAYS + 1; k++) {
        char alt[kName + 32];
        if (k == 1)
            snprintf(alt, sizeof alt, "%s@%d", id, line);
        else
            snprintf(alt, sizeof alt, "%s@%d.%d", id, line, k);
        nm = alt;
    }
    GArr g;
    g.mem = (unsigned char *)calloc(1, bytes + 2 * kDevSlack);
    if (!g.mem) {
        snprintf(msg, sizeof msg, "cudaMalloc of %lu bytes at line %d found no memory", bytes,
                 line);
        g_fail(SV_KFAIL_MEMORY, msg, line, -1, 0);
        return nullptr;
    }
    g.name = nm;
    g.base = (uintptr_t)g.mem + kDevSlack;
    g.bytes = bytes;
    g.len = (uint32_t)(bytes / kCell);
    g.written.assign(g.len, 0);
    G->dev.push_back(std::move(g));
    if (!g_place_dev(G->dev.size() - 1)) {
        snprintf(msg, sizeof msg, "cudaMalloc at line %d: no room in the trace for another array",
                 line);
        g_fail(SV_KFAIL_MEMORY, msg, line, -1, 0);
        return nullptr;
    }
    char pl[128];
    snprintf(pl, sizeof pl, "A %zu %lu %s\n", G->dev.size() - 1, bytes, nm.c_str());
    G->plan += pl;
    return (void *)G->dev.back().base;
}

void g_hook_dfree(void *p, int line)
{
    if (!p)
        return;
    for (size_t k = 1; k < G->dev.size(); k++)
        if (!G->dev[k].freed && G->dev[k].base == (uintptr_t)p) {
            G->dev[k].freed = true; // its cells stay in the trace
            return;
        }
    char msg[200];
    snprintf(msg, sizeof msg, "cudaFree at line %d of %#llx, which is no device memory the host "
             "function allocated", line, (unsigned long long)(uintptr_t)p);
    g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, -1, 0);
}

// A launch: checked, its closure copied, then the scheduler runs it.
void g_plan_launch(int line, const sv_rt_arg *args, unsigned nargs);

void g_hook_launch(int line, const char *kernel, const unsigned *grid, const unsigned *block,
                   unsigned long shared, void (*thunk)(const void *), const void *closure,
                   unsigned long bytes, const sv_rt_arg *args, unsigned nargs)
{
    char msg[320];
    if (!G->in_host) {
        snprintf(msg, sizeof msg, "block %u thread %u launches a kernel at line %d: a kernel "
                 "does not launch kernels (dynamic parallelism is not supported)",
                 G->th[G->cur].block, G->th[G->cur].tid, line);
        g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
        return;
    }
    size_t k = 0;
    char name[kName] = "";
    while (k + 1 < sizeof name && in_own(kernel + k, 1) && kernel[k]) {
        char c = kernel[k];
        name[k++] = ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
                        ? c : '_';
    }
    name[k] = '\0';
    if (!in_own(grid, 3 * sizeof *grid) || !in_own(block, 3 * sizeof *block) ||
        !in_own(closure, bytes) || bytes > kClosure || !name[0]) {
        snprintf(msg, sizeof msg, "the launch of %s at line %d: its arguments take more than "
                 "%zu bytes", name[0] ? name : "a kernel", line, kClosure);
        g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
        return;
    }
    const uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
    const uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    if (blocks < 1 || blocks > kMaxGrid || grid[1] > 65535 || grid[2] > 65535 || threads < 1 ||
        threads > kMaxBlock || block[0] > 1024 || block[1] > 1024 || block[2] > 64 ||
        shared > kDynMax) {
        char bw[48];
        if (block[1] == 1 && block[2] == 1)
            snprintf(bw, sizeof bw, "%u threads", block[0]);
        else
            snprintf(bw, sizeof bw, "(%u, %u, %u) threads", block[0], block[1], block[2]);
        snprintf(msg, sizeof msg, "the launch of %s at line %d: (%u, %u, %u) blocks of %s with "
                 "%lu bytes of shared memory (the CPU runtime: 1 .. %u blocks in all, y and z at "
                 "most 65535, of 1 .. %u threads in all, x and y at most 1024, z at most 64, at "
                 "most 49152 bytes)", name, line, grid[0], grid[1], grid[2], bw, shared,
                 kMaxGrid, kMaxBlock);
        g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
        return;
    }
    if (G->launches.size() >= SV_KTRACE_MAX_LAUNCHES) {
        snprintf(msg, sizeof msg, "the launch of %s at line %d: more than %d launches", name,
                 line, SV_KTRACE_MAX_LAUNCHES);
        g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
        return;
    }
    memcpy(G->closure, closure, bytes);
    snprintf(G->kernel, sizeof G->kernel, "%s", name);
    G->line = line;
    G->grid = (uint32_t)blocks;
    for (int k = 0; k < 3; k++)
        G->dims[k] = grid[k];
    G->block = (uint32_t)threads;
    for (int k = 0; k < 3; k++)
        G->bdims[k] = block[k];
    G->shared = shared;
    G->thunk = thunk;
    G->pending = true;
    g_plan_launch(line, args, nargs);
    g_to_scheduler(); // back when the launch has run
}

// cudaMemset of the host function: device memory it allocated (or out[]),
// whole cells, set here and in the plan.
void g_hook_dset(void *p, int value, unsigned long bytes, int line)
{
    char msg[256];
    uint32_t arr = 0;
    int64_t index = 0;
    uintptr_t a = (uintptr_t)p;
    if (!G->in_host || bytes == 0 || g_classify(a, bytes, &arr, &index) != 0 ||
        arr == SV_KARRAY_IN || (a - G->dev[arr].base) % kCell != 0) {
        snprintf(msg, sizeof msg, "cudaMemset at line %d of %lu bytes at %#llx: the host "
                 "function sets device memory it allocated (or out[]), from a cell's start",
                 line, bytes, (unsigned long long)a);
        g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, -1, 0);
        return;
    }
    memset((void *)a, value, bytes);
    GArr &d = G->dev[arr];
    for (uint64_t c = (uint64_t)index; c < d.len && (c - (uint64_t)index) * kCell < bytes; c++)
        d.written[c] = 1;
    char pl[96];
    snprintf(pl, sizeof pl, "S %u %llu %d %lu\n", arr,
             (unsigned long long)(a - d.base), value & 0xff, bytes);
    G->plan += pl;
}

// cudaMemcpy of the host function: device memory (in[], out[] or what it
// allocated) into out[] or what it allocated, copied here and in the plan
// ("C DST OFF SRC OFF BYTES", SRC -1 for in[]). To or from the host it is
// refused: the host function does not read device memory, so that its
// launches depend on n alone and the GPU can replay them.
void g_hook_dcopy(void *dst, const void *src, unsigned long bytes, int kind, int line)
{
    char msg[320];
    if (!G->in_host) {
        snprintf(msg, sizeof msg, "block %u thread %u calls cudaMemcpy at line %d: device "
                 "memory is the host function scan's to copy", G->th[G->cur].block,
                 G->th[G->cur].tid, line);
        g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
        return;
    }
    if (kind != 3 && kind != 4) { // cudaMemcpyDeviceToDevice, cudaMemcpyDefault
        snprintf(msg, sizeof msg, "cudaMemcpy at line %d %s the host: the host function does "
                 "not read or write device memory itself (its launches depend on n alone, so "
                 "that the GPU can replay them); cudaMemcpyDeviceToDevice copies between device "
                 "arrays", line, kind == 1 ? "from" : kind == 2 ? "to" : "to and from");
        g_fail(SV_KFAIL_REFUSED, msg, line, -1, 0);
        return;
    }
    if (bytes == 0)
        return;
    uint32_t da = 0, sa = 0;
    int64_t di = 0, si = 0;
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    const bool ok = g_classify(d, bytes, &da, &di) == 0 && da != SV_KARRAY_IN &&
                    g_classify(s, bytes, &sa, &si) == 0;
    const uintptr_t dbase = ok ? G->dev[da].base : 0;
    const uintptr_t sbase = !ok ? 0 : sa == SV_KARRAY_IN ? (uintptr_t)R->in : G->dev[sa].base;
    if (!ok || (d - dbase) % kCell != 0 || (s - sbase) % kCell != 0) {
        snprintf(msg, sizeof msg, "cudaMemcpy at line %d of %lu bytes from %#llx to %#llx: the "
                 "host function copies device memory (in[], out[] or what it allocated, from a "
                 "cell's start) into out[] or what it allocated", line, bytes,
                 (unsigned long long)s, (unsigned long long)d);
        g_fail(SV_KFAIL_OUT_OF_RANGE, msg, line, -1, 0);
        return;
    }
    memmove((void *)d, (const void *)s, bytes);
    GArr &g = G->dev[da];
    for (uint64_t c = (uint64_t)di; c < g.len && (c - (uint64_t)di) * kCell < bytes; c++)
        g.written[c] = 1;
    char pl[128];
    snprintf(pl, sizeof pl, "C %u %llu %d %llu %lu\n", da, (unsigned long long)(d - dbase),
             sa == SV_KARRAY_IN ? -1 : (int)sa, (unsigned long long)(s - sbase), bytes);
    G->plan += pl;
}

// A launch's line of the plan (its arguments as the GPU will pass them).
void g_plan_launch(int line, const sv_rt_arg *args, unsigned nargs)
{
    char pl[128];
    if (G->dims[1] > 1 || G->dims[2] > 1) { // the next launch's grid, past 1-D
        snprintf(pl, sizeof pl, "D %u %u %u\n", G->dims[0], G->dims[1], G->dims[2]);
        G->plan += pl;
    }
    if (G->bdims[1] > 1 || G->bdims[2] > 1) { // and its block, past 1-D
        snprintf(pl, sizeof pl, "B %u %u %u\n", G->bdims[0], G->bdims[1], G->bdims[2]);
        G->plan += pl;
    }
    snprintf(pl, sizeof pl, "L %d %u %u %lu %u", line, G->grid, G->block, G->shared, nargs);
    std::string l = pl;
    for (unsigned i = 0; i < nargs; i++) {
        if (!in_own(&args[i], sizeof args[i]) || !in_own(args[i].p, args[i].size) ||
            args[i].size == 0 || args[i].size > 16) {
            G->plan += "x an argument of the launch at line " + std::to_string(line) +
                       " is not a plain value of 1 to 16 bytes\n";
            return;
        }
        if (args[i].pointer && args[i].size == sizeof(void *)) {
            uintptr_t v;
            memcpy(&v, args[i].p, sizeof v);
            uint32_t arr = 0;
            int64_t index = 0;
            if (!v) {
                l += " v 8 0000000000000000";
                continue;
            }
            if (g_classify(v, 1, &arr, &index) != 0) {
                G->plan += "x a pointer argument of the launch at line " + std::to_string(line) +
                           " is not device memory\n";
                return;
            }
            uintptr_t base = arr == SV_KARRAY_IN ? (uintptr_t)R->in : G->dev[arr].base;
            snprintf(pl, sizeof pl, " p %d %llu", arr == SV_KARRAY_IN ? -1 : (int)arr,
                     (unsigned long long)(v - base));
            l += pl;
            continue;
        }
        snprintf(pl, sizeof pl, " v %lu ", args[i].size);
        l += pl;
        const unsigned char *b = (const unsigned char *)args[i].p;
        for (unsigned long k = 0; k < args[i].size; k++) {
            snprintf(pl, sizeof pl, "%02x", b[k]);
            l += pl;
        }
    }
    G->plan += l + "\n";
}

sv_rt_hooks g_hooks = {g_hook_access,  g_hook_sync,  g_hook_shared,      g_hook_alloc,
                       g_hook_release, g_hook_span,  g_hook_warp,        g_hook_sync_count,
                       g_hook_atomic,  g_hook_assert_fail, g_hook_print, g_hook_launch,
                       g_hook_dalloc,  g_hook_dfree, g_hook_fence, g_hook_dset,
                       g_hook_dcopy};

ctx::fiber g_make(uint32_t j)
{
    unsigned char *top = R->stacks + (size_t)(j + 2) * (kStack + kGuard);
    return ctx::fiber(std::allocator_arg, Alloc{top}, [j](ctx::fiber &&sink) -> ctx::fiber {
#ifdef SV_RT_ASAN
        __sanitizer_finish_switch_fiber(nullptr, &R->main_bottom, &R->main_size);
#endif
        G->th[j].sink = std::move(sink);
        G->thunk(G->closure);
        g_flush(G->th[j]);
        G->th[j].state = G_DONE;
#ifdef SV_RT_ASAN
        __sanitizer_start_switch_fiber(nullptr, R->main_bottom, R->main_size);
#endif
        return std::move(G->th[j].sink);
    });
}

void g_resume(uint32_t j)
{
    GThread &t = G->th[j];
    G->cur = j;
    g_shared_swap((int)(j / G->block));
    R->tidx[0] = t.tid % G->bdims[0]; // threads are numbered x, then y, then z
    R->tidx[1] = t.tid / G->bdims[0] % G->bdims[1];
    R->tidx[2] = t.tid / G->bdims[0] / G->bdims[1];
    G->bidx[0] = t.block % G->dims[0]; // blocks are numbered x, then y, then z
    G->bidx[1] = t.block / G->dims[0] % G->dims[1];
    G->bidx[2] = t.block / G->dims[0] / G->dims[1];
    R->cur = g_gid(t);
    R->switches++;
    R->in_fiber = true;
#ifdef SV_RT_ASAN
    __sanitizer_start_switch_fiber(&R->main_fake, g_stack_bottom(j + 1), kStack);
#endif
    t.self = std::move(t.self).resume();
#ifdef SV_RT_ASAN
    __sanitizer_finish_switch_fiber(R->main_fake, nullptr, nullptr);
#endif
    R->in_fiber = false;
    if (!t.self)
        t.state = G_DONE;
}

void g_start_block(uint32_t s, uint32_t b)
{
    G->slot[s] = b;
    sv_ktile &x = G->tl[b];
    x.launch = (uint32_t)G->launches.size();
    x.block = b;
    x.start = G->clock;
    G->gen[s] = ++G->gen_next;
    G->sh[s].clear();
    std::fill(G->img[s].begin(), G->img[s].end(), 0);
    if (G->loaded == (int)s)
        G->loaded = -1;
    for (uint32_t i = 0; i < G->block; i++) {
        uint32_t j = s * G->block + i;
        G->th[j] = GThread();
        G->th[j].block = b;
        G->th[j].tid = i;
        G->th[j].self = g_make(j);
    }
}

// One pass over slot s's threads under the schedule; whether any ran.
bool g_pass(uint32_t s, uint64_t *rng)
{
    const uint32_t lo = s * G->block, hi = lo + G->block;
    bool moved = false;
    auto runnable = [](uint32_t j) { return G->th[j].state == G_RUN && !R->failed; };
    switch (R->sched.kind) {
    case SV_SCHEDULE_SEQUENTIAL:
        for (uint32_t j = lo; j < hi; j++)
            while (runnable(j)) {
                g_resume(j);
                moved = true;
            }
        break;
    case SV_SCHEDULE_REVERSE:
        for (uint32_t j = hi; j-- > lo;)
            while (runnable(j)) {
                g_resume(j);
                moved = true;
            }
        break;
    case SV_SCHEDULE_RANDOM: {
        std::vector<uint32_t> pool;
        for (uint32_t j = lo; j < hi; j++)
            if (runnable(j))
                pool.push_back(j);
        while (!pool.empty() && !R->failed) {
            size_t pick = sv_schedule_pick(rng, pool.size());
            g_resume(pool[pick]);
            moved = true;
            if (!runnable(pool[pick])) {
                pool[pick] = pool.back();
                pool.pop_back();
            }
        }
        break;
    }
    default: // lockstep, warps: every thread one access at a time, by index
        for (bool any = true; any && !R->failed;) {
            any = false;
            for (uint32_t j = lo; j < hi; j++)
                if (runnable(j)) {
                    g_resume(j);
                    moved = any = true;
                }
        }
        break;
    }
    return moved;
}

// After a pass: slot s's block ended, its barrier released, or stuck there.
bool g_settle(uint32_t s)
{
    const uint32_t lo = s * G->block, hi = lo + G->block;
    uint32_t done = 0, bar = 0, spin = 0;
    int line = 0;
    bool same = true;
    for (uint32_t j = lo; j < hi; j++) {
        const GThread &t = G->th[j];
        done += t.state == G_DONE;
        spin += t.state == G_SPIN;
        if (t.state == G_BAR) {
            if (bar++ == 0)
                line = t.wait_line;
            else if (t.wait_line != line)
                same = false;
        }
    }
    if (done == G->block) {
        G->tl[G->slot[s]].end = G->clock;
        G->slot[s] = UINT32_MAX;
        G->ended++;
        if (G->ended * 64 / G->grid != (G->ended - 1) * 64 / G->grid) // (64 a launch at most)
            sv_rt_launch_progress(G->launches_run, (uint32_t)G->ended, G->grid);
        return true;
    }
    // __activemask: the lanes of a warp none of whose lanes can run
    uint32_t warp_wait = 0, run = 0;
    for (uint32_t j = lo; j < hi; j++) {
        warp_wait += G->th[j].state == G_WARP;
        run += G->th[j].state == G_RUN;
    }
    for (uint32_t w = lo; warp_wait && w < hi; w += 32) {
        bool can = false;
        for (uint32_t j = w; j < w + 32 && j < hi; j++)
            can = can || G->th[j].state == G_RUN;
        if (can)
            continue;
        for (uint32_t j = w; j < w + 32 && j < hi; j++) {
            const GThread &x = G->th[j];
            if (x.state != G_WARP || x.wkind != SV_RT_W_ACTIVE)
                continue;
            uint32_t set = 0;
            for (uint32_t m = j; m < w + 32 && m < hi; m++)
                if (G->th[m].state == G_WARP && G->th[m].wkind == SV_RT_W_ACTIVE &&
                    G->th[m].wait_line == x.wait_line)
                    set |= 1u << (m - w);
            for (uint32_t m = j; m < w + 32 && m < hi; m++)
                if (set >> (m - w) & 1) {
                    G->th[m].wres = set;
                    G->th[m].state = G_RUN;
                }
            return true;
        }
    }
    if (warp_wait && run == 0 && spin == 0) {
        // a lane at a collective for a lane that never comes
        for (uint32_t j = lo; j < hi; j++) {
            const GThread &x = G->th[j];
            if (x.state != G_WARP)
                continue;
            const uint32_t base = j - x.tid % 32, set = x.wmask & g_lanes(x.tid);
            for (uint32_t l = 0; l < 32; l++) {
                const GThread &y = G->th[base + l];
                if (!(set >> l & 1) || y.state == G_WARP)
                    continue;
                char why[96];
                if (y.state == G_DONE)
                    snprintf(why, sizeof why, "which has exited");
                else
                    snprintf(why, sizeof why, "which waits at the __syncthreads() of line %d",
                             y.wait_line);
                g_warp_fail(SV_KFAIL_DEADLOCK, x, x.wait_line, "deadlock at a warp collective: "
                            "thread %u waits at the %s of line %d for thread %u of its mask "
                            "%#010x, %s", x.tid, warp_name(x.wkind), x.wait_line, y.tid, x.wmask,
                            why);
                return false;
            }
        }
    }
    if (bar == G->block && same) {
        int count = 0;
        for (uint32_t j = lo; j < hi; j++) {
            count += G->th[j].pred;
            G->th[j].state = G_RUN;
        }
        G->bar_count[s] = count;
        G->gen[s] = ++G->gen_next; // a new barrier interval of the block
        if (G->events.size() + G->ev.size() < SV_KTRACE_MAX_EVENTS) {
            sv_kevent e{};
            e.kind = SV_KEVENT_STEP;
            e.tile = G->slot[s];
            e.time = G->clock;
            e.line = line;
            e.other = SV_KTRACE_NO_TILE;
            G->ev.push_back(e);
        } else {
            G->events_dropped++;
        }
        return true;
    }
    if (bar > 0 && spin == 0 && bar + done == G->block) {
        // threads at different barriers, or some ended: they never all meet
        char msg[320];
        uint32_t b = G->slot[s];
        const GThread *w = nullptr, *o = nullptr;
        for (uint32_t j = lo; j < hi; j++) {
            const GThread &t = G->th[j];
            if (t.state == G_BAR && !w)
                w = &t;
            else if (w && !o && (t.state == G_DONE || t.wait_line != w->wait_line))
                o = &t;
        }
        if (o && o->state == G_DONE)
            snprintf(msg, sizeof msg, "deadlock in block %u of %s (line %d): thread %u waits at "
                     "the __syncthreads() of line %d, and thread %u has ended", b, G->kernel,
                     G->line, w->tid, w->wait_line, o->tid);
        else
            snprintf(msg, sizeof msg, "deadlock in block %u of %s (line %d): thread %u waits at "
                     "the __syncthreads() of line %d, thread %u at line %d", b, G->kernel,
                     G->line, w->tid, w->wait_line, o ? o->tid : 0, o ? o->wait_line : 0);
        fail_set(SV_KFAIL_DEADLOCK, msg, w->wait_line, g_thread(*w), -1, 0);
    }
    return false;
}

// Nothing can run and no write will come: the launch is stuck at a spin.
void g_stuck()
{
    const GThread *w = nullptr;
    for (const GThread &t : G->th)
        if (t.state == G_SPIN && (!w || t.block < w->block))
            w = &t;
    char msg[512], where[96] = "";
    if (!w) {
        snprintf(msg, sizeof msg, "the launch of %s at line %d makes no progress", G->kernel,
                 G->line);
        fail_set(SV_KFAIL_DEADLOCK, msg, G->line, -1, -1, 0);
        return;
    }
    uint32_t arr = 0;
    int64_t index = 0;
    if (g_classify(w->spin_addr, 1, &arr, &index) == 0 && arr != SV_KARRAY_IN)
        snprintf(where, sizeof where, "%s[%lld]", G->dev[arr].name.c_str(), (long long)index);
    else
        snprintf(where, sizeof where, "a word it reads again and again");
    size_t left = G->grid - G->started;
    if (left > 0) {
        // the blocks not started, and whether the cell it waits on names one
        bool names = arr != SV_KARRAY_IN && index >= 0 && (uint64_t)index < G->grid;
        bool unstarted = false;
        for (size_t k = G->started; k < G->order.size() && names; k++)
            unstarted = unstarted || G->order[k] == (uint32_t)index;
        char of[96];
        if (names && unstarted)
            snprintf(of, sizeof of, "a flag of block %lld, which has not started",
                     (long long)index);
        else
            snprintf(of, sizeof of, "which no block that has started writes");
        snprintf(msg, sizeof msg, "block %u waits at line %d for %s, %s: blocks may start in "
                 "any order (%zu of the %u blocks of %s had not started; a block may wait only "
                 "for blocks that started before it: take a ticket with atomicAdd for the "
                 "order)", w->block, w->wait_line, where, of, left, G->grid, G->kernel);
    } else {
        snprintf(msg, sizeof msg, "deadlock: block %u thread %u waits at line %d for %s, which "
                 "no thread of %s writes any more", w->block, w->tid, w->wait_line, where,
                 G->kernel);
    }
    fail_set(SV_KFAIL_DEADLOCK, msg, w->wait_line, g_thread(*w),
             arr == SV_KARRAY_IN ? -1 : (int32_t)arr, index);
}

void g_run_launch()
{
    const uint32_t nb = G->grid, B = G->block;
    sv_rt_launch_progress(++G->launches_run, 0, nb); // the parent's progress line
    for (int k = 0; k < 3; k++)
        G->gdim[k] = G->dims[k];
    for (int k = 0; k < 3; k++)
        G->bdim[k] = G->bdims[k];
    for (Arr &a : R->arrs) // the dynamic shared memory the launch asked for
        if (a.kind == SV_KARRAY_SHARED && a.base == (uintptr_t)R->dyn) {
            a.bytes = G->shared;
            a.len = (uint32_t)(G->shared / kCell);
        }
    G->order.resize(nb);
    for (uint32_t b = 0; b < nb; b++)
        G->order[b] = R->sched.kind == SV_SCHEDULE_REVERSE ? nb - 1 - b : b;
    uint64_t rng = R->sched.seed ^ 0x9e3779b97f4a7c15ull * (G->launches.size() + 1);
    if (R->sched.kind == SV_SCHEDULE_RANDOM)
        for (uint32_t b = nb; b > 1; b--)
            std::swap(G->order[b - 1], G->order[sv_schedule_pick(&rng, b)]);
    const uint32_t slots = nb < kResident ? nb : kResident;
    G->th.clear();
    G->th.resize((size_t)slots * B);
    G->slot.assign(slots, UINT32_MAX);
    G->img.assign(slots, std::vector<uint8_t>(g_image_bytes(), 0));
    G->bar_count.assign(slots, 0);
    G->sh.assign(slots, {});
    G->gen.assign(slots, 0);
    G->loaded = -1;
    G->started = G->ended = 0;
    G->tl.assign(nb, sv_ktile{(uint32_t)G->launches.size(), 0, SV_KTRACE_NO_TIME,
                              SV_KTRACE_NO_TIME, -1, -1});
    G->ev.clear();
    G->looked.clear();
    G->waited.clear();
    while (!R->failed && G->ended < nb) {
        for (uint32_t s = 0; s < slots; s++)
            if (G->slot[s] == UINT32_MAX && G->started < nb)
                g_start_block(s, G->order[G->started++]);
        bool moved = false;
        for (GThread &t : G->th)
            if (t.state == G_SPIN && t.spin_epoch != G->epoch)
                t.state = G_RUN;
        // the resident blocks' turns: by slot, from the last under reverse,
        // from a seeded one under random:S (a later tile may run ahead)
        const uint32_t from = R->sched.kind == SV_SCHEDULE_RANDOM
                                  ? (uint32_t)sv_schedule_pick(&rng, slots) : 0;
        for (uint32_t i = 0; i < slots && !R->failed; i++) {
            const uint32_t s = R->sched.kind == SV_SCHEDULE_REVERSE ? slots - 1 - i
                                                                    : (from + i) % slots;
            if (G->slot[s] == UINT32_MAX)
                continue;
            moved |= g_pass(s, &rng);
            if (!R->failed)
                moved |= g_settle(s);
        }
        if (moved || R->failed)
            continue;
        // stuck: the spinners try again a while (a loop that reads one word
        // often, and is no spin, ends), then the launch is stuck
        bool again = false;
        for (GThread &t : G->th)
            if (t.state == G_SPIN && t.spin_tries < kSpinTries) {
                t.spin_tries++;
                t.state = G_RUN;
                again = true;
            }
        if (!again)
            g_stuck();
    }
    if (R->failed) {
        std::vector<GThread> *leak = new (std::nothrow) std::vector<GThread>();
        if (leak)
            leak->swap(G->th); // suspended fibers: not unwound (the child ends soon)
    }
}

// The cells of one step of t: its arrays' together.
static uint64_t g_cells(const sv_ktrace *t)
{
    uint64_t c = 0;
    for (size_t a = 0; a < t->narrays; a++)
        c += t->arrays[a].len;
    return c;
}

// An array of t's own at the end of its list (steps before it hold it
// unwritten, at once: a signal may send the trace before the run's end);
// its index, -1 when the trace has no room (SV_KTRACE_MAX_ARRAYS, or the
// steps' cells past SV_KTRACE_MAX_TOTAL_CELLS) or memory.
int g_add_array(const char *name, sv_karray_kind kind, uint32_t len, uint32_t rows, bool touched)
{
    sv_ktrace *t = R->t;
    if (t->narrays >= SV_KTRACE_MAX_ARRAYS || len == 0 ||
        (uint64_t)(g_cells(t) + len) * (t->nsteps ? t->nsteps : 1) > SV_KTRACE_MAX_TOTAL_CELLS)
        return -1;
    sv_karray *k = &t->arrays[t->narrays];
    k->name = dup_str(name);
    k->kind = kind;
    k->len = len;
    k->rows = rows >= 1 && len % rows == 0 ? rows : 1;
    k->touched = touched;
    if (!k->name)
        return -1;
    const int ai = (int)t->narrays++;
    for (size_t s = 0; s < t->nsteps; s++) {
        sv_kstep *st = &t->steps[s];
        st->cells[ai] = alloc_n<sv_value>(len);
        st->written[ai] = alloc_n<bool>(len);
        st->wrote[ai] = alloc_n<bool>(len);
        if (!st->cells[ai] || !st->written[ai] || !st->wrote[ai])
            return -1;
    }
    return ai;
}

// Device array k's place in t (out first), made when the array is.
bool g_place_dev(size_t k)
{
    GArr &a = G->dev[k];
    if (a.tidx < 0)
        a.tidx = g_add_array(a.name.c_str(), k == 0 ? SV_KARRAY_OUT : SV_KARRAY_GLOBAL, a.len, 1,
                             true);
    return a.tidx >= 0;
}

// Shared array si's place in t (a hazard names it: no cells of its own,
// each block has its own), -1 when there is no room.
int g_shared_tidx(uint16_t si)
{
    auto it = G->sh_tidx.find(si);
    if (it != G->sh_tidx.end())
        return it->second;
    const Arr &a = R->arrs[si];
    int ai = g_add_array(a.name.c_str(), SV_KARRAY_SHARED, a.len ? a.len : 1, a.rows, false);
    G->sh_tidx[si] = ai;
    return ai;
}

// The device memory after a launch (at line) as a step of t: 1, or 0 where
// the trace has no room for another step (SV_KTRACE_MAX_STEPS, or the cells
// of all steps past SV_KTRACE_MAX_TOTAL_CELLS: 32 launches of 2^20 values),
// -1 out of memory.
int g_step(int line)
{
    sv_ktrace *t = R->t;
    if (t->nsteps >= SV_KTRACE_MAX_STEPS ||
        (uint64_t)g_cells(t) * (t->nsteps + 1) > SV_KTRACE_MAX_TOTAL_CELLS)
        return 0;
    sv_kstep *s = &t->steps[t->nsteps];
    s->barrier_line = line;
    s->cells = alloc_n<sv_value *>(SV_KTRACE_MAX_ARRAYS);
    s->written = alloc_n<bool *>(SV_KTRACE_MAX_ARRAYS);
    s->wrote = alloc_n<bool *>(SV_KTRACE_MAX_ARRAYS);
    if (!s->cells || !s->written || !s->wrote)
        return -1;
    for (size_t ai = 0; ai < t->narrays; ai++) { // every array; the shared ones unwritten
        s->cells[ai] = alloc_n<sv_value>(t->arrays[ai].len);
        s->written[ai] = alloc_n<bool>(t->arrays[ai].len);
        s->wrote[ai] = alloc_n<bool>(t->arrays[ai].len);
        if (!s->cells[ai] || !s->written[ai] || !s->wrote[ai])
            return -1;
    }
    for (size_t d = 0; d < G->dev.size(); d++) {
        const GArr &a = G->dev[d];
        const int k = a.tidx;
        if (k < 0)
            continue;
        const sv_kstep *p = t->nsteps ? &t->steps[t->nsteps - 1] : nullptr;
        for (uint32_t c = 0; c < a.len; c++) {
            memcpy(&s->cells[k][c].bits, (const void *)(a.base + (uintptr_t)c * kCell), kCell);
            s->written[k][c] = a.written[c] != 0;
            bool before = p && p->cells[k] && p->written[k][c];
            s->wrote[k][c] = a.written[c] &&
                             (!before || p->cells[k][c].bits != s->cells[k][c].bits);
        }
    }
    t->nsteps++;
    return 1;
}

// The host function's run (each launch, then the output).
bool g_run(sv_schedule sched, char *err, size_t errlen)
{
    R->sched = sched;
    R->yield_at_access = sched.kind == SV_SCHEDULE_LOCKSTEP || sched.kind == SV_SCHEDULE_RANDOM ||
                         sched.kind == SV_SCHEDULE_WARPS;
    R->switches = 0;
    G->host = ctx::fiber(std::allocator_arg, Alloc{R->stacks + (kStack + kGuard)},
                         [](ctx::fiber &&sink) -> ctx::fiber {
#ifdef SV_RT_ASAN
        __sanitizer_finish_switch_fiber(nullptr, &R->main_bottom, &R->main_size);
#endif
        G->host_sink = std::move(sink);
        R->entry(R->in, R->out, (int)R->n);
        G->host_done = true;
#ifdef SV_RT_ASAN
        __sanitizer_start_switch_fiber(nullptr, R->main_bottom, R->main_size);
#endif
        return std::move(G->host_sink);
    });
    for (;;) {
        G->in_host = true;
        R->in_fiber = true;
#ifdef SV_RT_ASAN
        __sanitizer_start_switch_fiber(&R->main_fake, g_stack_bottom(0), kStack);
#endif
        G->host = std::move(G->host).resume();
#ifdef SV_RT_ASAN
        __sanitizer_finish_switch_fiber(R->main_fake, nullptr, nullptr);
#endif
        R->in_fiber = false;
        G->in_host = false;
        if (R->failed || G->host_done || !G->host || !G->pending)
            break;
        G->pending = false;
        G->launch++;
        R->step = (uint32_t)R->t->nsteps; // a failure's step: the launch's
        g_run_launch();
        // a deadlock (the in-order trap among them) keeps the launch, its
        // memory when it stopped and its tiles so far: the waits are drawn
        const bool stuck = R->failed && R->t->failure.kind == SV_KFAIL_DEADLOCK;
        if (R->failed && !stuck)
            break;
        const int rec = g_step(G->line);
        if (rec < 0) {
            sv_errorf(err, errlen, "out of memory recording the trace");
            return false;
        }
        if (rec == 0) { // no room: the launch runs, its step and tiles go
            R->t->steps_dropped++;
            G->events_dropped += (uint32_t)G->ev.size();
            G->ev.clear();
            if (stuck)
                break;
            continue;
        }
        sv_klaunch l = {dup_str(G->kernel), G->grid, G->block,
                        {G->dims[0], G->dims[1], G->dims[2]},
                        {G->bdims[0], G->bdims[1], G->bdims[2]}, (uint32_t)G->shared, G->line,
                        (uint32_t)(R->t->nsteps - 1)};
        if (!l.kernel) {
            sv_errorf(err, errlen, "out of memory recording the trace");
            return false;
        }
        G->launches.push_back(l);
        // its tiles that started, after the launches' before, and their
        // events by tile
        std::vector<uint32_t> at(G->tl.size(), SV_KTRACE_NO_TILE);
        uint32_t next = (uint32_t)G->tiles.size();
        for (size_t b = 0; b < G->tl.size(); b++)
            if (G->tl[b].start != SV_KTRACE_NO_TIME)
                at[b] = next++;
        if (next <= SV_KTRACE_MAX_TILES) {
            for (sv_kevent &e : G->ev) {
                e.tile = at[e.tile];
                if (e.other != SV_KTRACE_NO_TILE)
                    e.other = at[e.other];
            }
            std::stable_sort(G->ev.begin(), G->ev.end(),
                             [](const sv_kevent &a, const sv_kevent &b) { return a.tile < b.tile; });
            for (const sv_ktile &x : G->tl)
                if (x.start != SV_KTRACE_NO_TIME)
                    G->tiles.push_back(x);
            G->events.insert(G->events.end(), G->ev.begin(), G->ev.end());
        } else {
            G->events_dropped += (uint32_t)G->ev.size();
        }
        G->ev.clear();
        if (stuck)
            break;
    }
    sv_ktrace *t = R->t;
    if (!G->launches.empty()) {
        t->launches = alloc_n<sv_klaunch>(G->launches.size());
        if (!t->launches) {
            sv_errorf(err, errlen, "out of memory recording the trace");
            return false;
        }
        memcpy(t->launches, G->launches.data(), G->launches.size() * sizeof *t->launches);
        t->nlaunches = G->launches.size();
    }
    if (!G->tiles.empty()) {
        t->tiles = alloc_n<sv_ktile>(G->tiles.size());
        t->events = G->events.empty() ? nullptr : alloc_n<sv_kevent>(G->events.size());
        if (!t->tiles || (!G->events.empty() && !t->events)) {
            sv_errorf(err, errlen, "out of memory recording the trace");
            return false;
        }
        memcpy(t->tiles, G->tiles.data(), G->tiles.size() * sizeof *t->tiles);
        if (!G->events.empty())
            memcpy(t->events, G->events.data(), G->events.size() * sizeof *t->events);
        t->ntiles = G->tiles.size();
        t->nevents = G->events.size();
    }
    t->events_dropped = G->events_dropped;
    free(t->output);
    free(t->output_written);
    t->output = alloc_n<sv_value>(R->n);
    t->output_written = alloc_n<bool>(R->n);
    if (!t->output || !t->output_written) {
        sv_errorf(err, errlen, "out of memory recording the trace");
        return false;
    }
    for (uint32_t i = 0; i < R->n; i++) {
        memcpy(&t->output[i].bits, R->out + (size_t)i * kCell, kCell);
        t->output_written[i] = G->dev[0].written[i] != 0;
        R->arrs[0].written[i] = G->dev[0].written[i]; // output_wrong reads them
    }
    t->switches = R->switches;
    t->runs = 1;
    t->shown_run = 0;
    if (G->plan.size() > 60000)
        G->plan = "x the launches' plan takes more than 60000 bytes\n";
    free(t->plan);
    t->plan = dup_str(G->plan.c_str());
    return true;
}

// Where a signal found a file with a host function: the thread that runs
// (or the host), at the kernel's line.
void g_where(sv_kfailure *f, void *fault_pc, void *)
{
    if (!R || !G)
        return;
    f->thread = G->in_host || G->th.empty() ? -1 : g_thread(G->th[G->cur]);
    uintptr_t pc = (uintptr_t)fault_pc;
    int32_t line = pc && R->in_fiber && in_kernel_code(pc) ? line_of(pc - R->so_base + 1) : 0;
    f->line = line ? line : line_of(R->last_pc);
}

// Sets up the host side after load: device memory for out[], the closure's
// room, the hooks; in[] stays the trace's input.
bool g_setup(char *err, size_t errlen)
{
    static Grid grid;
    G = &grid;
    G->bidx = (unsigned *)dlsym(R->so, "sv_rt_blockIdx");
    G->gdim = (unsigned *)dlsym(R->so, "sv_rt_gridDim");
    G->bdim = (unsigned *)dlsym(R->so, "sv_rt_blockDim");
    G->closure = (unsigned char *)calloc(1, kClosure);
    if (!G->bidx || !G->gdim || !G->bdim || !G->closure) {
        sv_errorf(err, errlen, "not a kernel built with cuda_cpu.h (no blockIdx, gridDim)");
        return false;
    }
    R->own.push_back({(uintptr_t)G->closure, (uintptr_t)G->closure + kClosure});
    GArr out;
    out.name = "out";
    out.base = (uintptr_t)R->out;
    out.bytes = (size_t)R->n * kCell;
    out.len = R->n;
    out.written.assign(R->n, 0);
    G->dev.push_back(std::move(out));
    if (!g_place_dev(0)) {
        sv_errorf(err, errlen, "out of memory for the trace");
        return false;
    }
    *R->hooks = &g_hooks;
    sv_rt_set_where(g_where);
    return true;
}

} // namespace

extern "C" bool sv_rt_cpu_exec(const char *so_path, const sv_rt_lines *lines, const char *dyn_name,
                               const sv_runtime_request *req, sv_ktrace *t, char *err,
                               size_t errlen)
{
    static Rt rt;
    R = &rt;
    R->req = req;
    R->t = t;
    R->lines = lines;
    R->n = (uint32_t)req->n;
    t->failure.kind = SV_KFAIL_NONE;
    t->failure.thread = -1;
    t->failure.step = -1;
    t->failure.array = -1;
    t->arrays = alloc_n<sv_karray>(SV_KTRACE_MAX_ARRAYS);
    t->steps = alloc_n<sv_kstep>(SV_KTRACE_MAX_STEPS);
    t->hazards = alloc_n<sv_khazard>(SV_KTRACE_MAX_HAZARDS);
    sv_value *expected = alloc_n<sv_value>(req->n);
    if (!t->arrays || !t->steps || !t->hazards || !expected) {
        free(expected);
        sv_errorf(err, errlen, "out of memory for the trace");
        return false;
    }
    want_mag.assign(req->n, 0.0);
    if (!sv_ktrace_want(t, expected, want_mag.data(), err, errlen)) {
        free(expected);
        return false;
    }
    sv_rt_set_where(where);
    bool ok = load(so_path, dyn_name, err, errlen);
    // the time limit starts with the kernel's own code: the load and the
    // fiber stacks are the runtime's
    char msg[256];
    if (ok && !R->failed && !sv_rt_limits_apply_time(req, msg, sizeof msg))
        fail_set(SV_KFAIL_INTERNAL, msg, 0, -1, -1, 0);
    if (ok && !R->failed && host_mode) {
        ok = g_run(run_schedule(req->schedule, 0), err, errlen);
        t->wrong_runs = ok && !R->failed && output_wrong(expected);
        if (ok && req->each_run)
            ok = sv_rt_child_send(t);
    } else if (ok && !R->failed) {
        ok = runs(req, expected, err, errlen);
    }
    if (ok && !host_mode)
        ok = finish(expected, err, errlen);
    free(expected);
    return ok;
}
