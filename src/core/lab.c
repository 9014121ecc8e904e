/* The mistakes lab in the model: the kernel registry, the schedules, the
 * statement-level emulator with read provenance, and the per-cell summary
 * of many runs. lab.h describes the statement model.
 *
 * UNDER THE HOOD. Each thread is a program counter over one flat statement
 * list, the same for every thread (built once per kernel and n); a thread
 * steps over the statements its guard does not take, as a warp's predicated
 * lanes do. A schedule only chooses which thread (or group of threads)
 * executes its next statement; barriers park a thread until every thread
 * that is not done is parked, then release them all. Lockstep and warps step
 * a group together with every read of the step before any write, which is
 * why a warp hides the in-place race. Shared memory cells carry the value,
 * whether it is known (`?` otherwise) and who wrote it in which round, so
 * each read records the write it saw. */
#include "lab.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "names.h"

/* ---- Kernels ----------------------------------------------------------- */

static const sv_kernel_info kernels[SV_KERNEL_COUNT] = {
    [SV_KERNEL_CORRECT] = {"correct", "kernels/hillis_steele.cu",
                           "the chapter's kernel", true, true, true, 0, false, false},
    [SV_KERNEL_IN_PLACE] = {"in-place", "kernels/mistakes/in_place.cu",
                            "one buffer: buf[i] = buf[i - stride] op buf[i]", false, true, true,
                            0, false, true},
    [SV_KERNEL_NO_BARRIER] = {"no-barrier", "kernels/mistakes/no_barrier.cu",
                              "double buffer, the barrier in the loop removed", true, false,
                              true, 0, false, true},
    [SV_KERNEL_IN_PLACE_NO_BARRIER] = {"in-place-no-barrier",
                                       "kernels/mistakes/in_place_no_barrier.cu",
                                       "one buffer and no barrier in the loop", false, false,
                                       true, 0, false, true},
    [SV_KERNEL_NO_ELSE] = {"no-else", "kernels/mistakes/no_else.cu",
                           "the else copy removed: pout[i] for i < stride is never written",
                           true, true, false, 0, false, false},
    [SV_KERNEL_OFF_BY_ONE] = {"off-by-one", "kernels/mistakes/off_by_one.cu",
                              "the guard written i > stride", true, true, true, 1, false, false},
    [SV_KERNEL_POUT_ACCUMULATE] = {"pout-accumulate", "kernels/mistakes/pout_accumulate.cu",
                                   "pout[i] = pin[i - stride] op pout[i] (GPU Gems 3, listing 39.1)",
                                   true, true, true, 0, true, false},
};

const sv_kernel_info *sv_kernel_get(sv_kernel k)
{
    return (unsigned)k < SV_KERNEL_COUNT ? &kernels[k] : NULL;
}

const char *sv_kernel_name(sv_kernel k)
{
    return (unsigned)k < SV_KERNEL_COUNT ? kernels[k].name : NULL;
}

bool sv_kernel_from_name(const char *name, sv_kernel *out)
{
    int k = SV_NAME_INDEX(name, kernels, SV_KERNEL_COUNT);
    if (k >= 0 && out)
        *out = (sv_kernel)k;
    return k >= 0;
}

static size_t stride_of(int round)
{
    return round >= 1 ? (size_t)1 << (round - 1) : 0;
}

bool sv_kernel_writes(sv_kernel k, int round, size_t i)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    if (!info || round < 1)
        return round == 0;
    bool taken = i >= stride_of(round) + (size_t)info->guard_offset;
    return taken || info->has_else;
}

/* ---- Schedules ----------------------------------------------------------- */

static const char *const schedule_names[SV_SCHEDULE_COUNT] = {
    "lockstep", "sequential", "reverse", "random", "warps",
};

const char *sv_schedule_kind_name(sv_schedule_kind k)
{
    return (unsigned)k < SV_SCHEDULE_COUNT ? schedule_names[k] : NULL;
}

bool sv_schedule_parse(const char *text, sv_schedule *out, char *err, size_t errlen)
{
    static const char accepted[] =
        "lockstep, sequential, reverse, random[:SEED], warps[:SEED]";
    if (!text || !*text) {
        sv_errorf(err, errlen, "empty schedule (expected %s)", accepted);
        return false;
    }
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    for (int k = 0; k < SV_SCHEDULE_COUNT; k++) {
        if (strlen(schedule_names[k]) != len || strncmp(text, schedule_names[k], len) != 0)
            continue;
        sv_schedule s = {(sv_schedule_kind)k, 1};
        if (colon) {
            if (k != SV_SCHEDULE_RANDOM && k != SV_SCHEDULE_WARPS) {
                sv_errorf(err, errlen, "schedule \"%.40s\": %s takes no seed", text,
                          schedule_names[k]);
                return false;
            }
            const char *p = colon + 1;
            uint64_t v = 0;
            if (!*p) {
                sv_errorf(err, errlen, "schedule \"%.40s\": no seed after ':'", text);
                return false;
            }
            for (; *p; p++) {
                if (*p < '0' || *p > '9') {
                    sv_errorf(err, errlen,
                              "schedule \"%.40s\": seed must be a decimal integer, got '%c' "
                              "at position %zu", text, *p >= 32 && *p < 127 ? *p : '?',
                              (size_t)(p - text) + 1);
                    return false;
                }
                unsigned d = (unsigned)(*p - '0');
                if (v > (UINT64_MAX - d) / 10) {
                    sv_errorf(err, errlen, "schedule \"%.40s\": seed above 2^64-1", text);
                    return false;
                }
                v = v * 10 + d;
            }
            s.seed = v;
        }
        *out = s;
        return true;
    }
    /* Name the token without letting control bytes through. */
    char shown[41];
    size_t j = 0;
    for (const char *p = text; *p && j < sizeof shown - 1; p++)
        shown[j++] = (*p >= 32 && *p < 127) ? *p : '?';
    shown[j] = '\0';
    sv_errorf(err, errlen, "unknown schedule \"%s\" (expected %s)", shown, accepted);
    return false;
}

char *sv_schedule_format(sv_schedule s, char *buf, size_t len)
{
    const char *name = sv_schedule_kind_name(s.kind);
    if (!name)
        name = "?";
    if (s.kind == SV_SCHEDULE_RANDOM || s.kind == SV_SCHEDULE_WARPS)
        snprintf(buf, len, "%s:%" PRIu64, name, s.seed);
    else
        snprintf(buf, len, "%s", name);
    return buf;
}

/* splitmix64: small, seedable, the same on every platform. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static size_t rng_below(uint64_t *state, size_t bound)
{
    return (size_t)(rng_next(state) % bound);
}

/* ---- The statement machine ----------------------------------------------- */

typedef enum stmt_kind {
    ST_LOAD,       /* buf[0][i] = in[i] */
    ST_BARRIER,
    ST_DUMP,       /* instrumentation: record own cells after the round */
    ST_SWAP,       /* pout = 1 - pout; pin = 1 - pout (double buffer only) */
    ST_GUARD,      /* taken = i >= stride + offset */
    ST_READ_L,     /* [taken] a = pin[i - stride] */
    ST_READ_S,     /* [taken] b = pin[i] */
    ST_OP,         /* [taken] v = a op b */
    ST_WRITE,      /* [taken] pout[i] = v */
    ST_ELSE_READ,  /* [else] v = pin[i] */
    ST_ELSE_WRITE, /* [else] pout[i] = v */
    ST_COPYBACK    /* out[i] = buf[pout][i] (exclusive: [i - 1]) */
} stmt_kind;

typedef struct stmt {
    stmt_kind kind;
    int round;
} stmt;

typedef struct cell {
    sv_value v;
    bool known;
    int32_t writer;   /* -1: never written */
    int round;
} cell;

typedef struct reg {
    sv_value v;
    bool known;
} reg;

enum { T_RUNNABLE, T_WAITING, T_DONE };

typedef struct thread {
    size_t pc;
    int pin, pout;
    bool taken;
    bool pending; /* step_group: steps in the write half */
    reg a, b, v;
    int status;
} thread;

/* One execution: inputs, the machine, and where its results go. */
typedef struct machine {
    const sv_kernel_info *info;
    sv_op op;
    sv_type type;
    bool exclusive;
    size_t n;
    size_t nrounds;
    const sv_value *input;
    stmt *prog;
    size_t nprog;
    cell *mem[2];
    thread *th;
    /* results */
    sv_trace *snap;       /* may be NULL: where DUMP records */
    sv_lab_read *reads;   /* [(round * n + i) * SLOTS + slot] */
    bool *wrote;          /* [round * n + i] */
    sv_value *out;
    bool *out_known;
} machine;

static bool is_write(stmt_kind k)
{
    return k == ST_LOAD || k == ST_WRITE || k == ST_ELSE_WRITE;
}

static size_t build_program(const sv_kernel_info *info, size_t nrounds, stmt *p)
{
    size_t m = 0;
    p[m++] = (stmt){ST_LOAD, 0};
    p[m++] = (stmt){ST_BARRIER, 0};
    p[m++] = (stmt){ST_DUMP, 0};
    for (int r = 1; r < (int)nrounds; r++) {
        p[m++] = (stmt){ST_SWAP, r};
        p[m++] = (stmt){ST_GUARD, r};
        p[m++] = (stmt){ST_READ_L, r};
        p[m++] = (stmt){ST_READ_S, r};
        p[m++] = (stmt){ST_OP, r};
        p[m++] = (stmt){ST_WRITE, r};
        if (info->has_else) {
            p[m++] = (stmt){ST_ELSE_READ, r};
            p[m++] = (stmt){ST_ELSE_WRITE, r};
        }
        if (info->barrier)
            p[m++] = (stmt){ST_BARRIER, r};
        p[m++] = (stmt){ST_DUMP, r};
    }
    p[m++] = (stmt){ST_COPYBACK, (int)nrounds - 1};
    return m;
}

static void record_read(machine *m, int round, size_t i, sv_read_slot slot, int b, size_t c)
{
    const cell *x = &m->mem[b][c];
    sv_lab_read *rd = &m->reads[((size_t)round * m->n + i) * SV_READ_SLOTS + slot];
    rd->done = true;
    rd->buf = b;
    rd->cell = (uint32_t)c;
    rd->value = x->v;
    rd->known = x->known;
    rd->writer = x->writer;
    rd->writer_round = x->round;
}

/* A write that leaves the cell as it was (the one-buffer kernels' else,
 * buf[i] = buf[i]) keeps the cell's provenance: no reader can tell it
 * happened, and the captions speak of values. */
static void do_write(machine *m, int b, size_t i, reg v, int round)
{
    cell *x = &m->mem[b][i];
    if (round >= 1)
        m->wrote[(size_t)round * m->n + i] = true;
    if (x->writer >= 0 && x->known == v.known && (!v.known || x->v.bits == v.v.bits))
        return;
    x->v = v.known ? v.v : (sv_value){.bits = 0};
    x->known = v.known;
    x->writer = (int32_t)i;
    x->round = round;
}

/* Executes thread i's statement at its pc and advances it. */
static void step(machine *m, size_t i)
{
    thread *t = &m->th[i];
    const stmt *s = &m->prog[t->pc];
    size_t stride = stride_of(s->round);
    t->pc++;
    switch (s->kind) {
    case ST_LOAD:
        do_write(m, 0, i, (reg){m->input[i], true}, 0);
        break;
    case ST_BARRIER:
        t->status = T_WAITING;
        break;
    case ST_DUMP:
        if (m->snap) {
            sv_round *R = &m->snap->rounds[s->round];
            for (int b = 0; b < 2; b++) {
                R->buf[b][i] = m->mem[b][i].known ? m->mem[b][i].v : (sv_value){.bits = 0};
                R->written[b][i] = m->mem[b][i].known;
            }
        }
        break;
    case ST_SWAP:
        if (m->info->double_buffer) {
            t->pout = 1 - t->pout;
            t->pin = 1 - t->pout;
        }
        break;
    case ST_GUARD:
        t->taken = i >= stride + (size_t)m->info->guard_offset;
        break;
    case ST_READ_L:
        if (t->taken) {
            record_read(m, s->round, i, SV_READ_LEFT, t->pin, i - stride);
            t->a = (reg){m->mem[t->pin][i - stride].v, m->mem[t->pin][i - stride].known};
        }
        break;
    case ST_READ_S:
        if (t->taken) {
            int b = m->info->self_from_pout ? t->pout : t->pin;
            record_read(m, s->round, i, SV_READ_SELF, b, i);
            t->b = (reg){m->mem[b][i].v, m->mem[b][i].known};
        }
        break;
    case ST_OP:
        if (t->taken) {
            /* An operation on `?` gives `?`. */
            t->v.known = t->a.known && t->b.known;
            t->v.v = t->v.known ? sv_op_apply(m->op, m->type, t->a.v, t->b.v, NULL)
                                : (sv_value){.bits = 0};
        }
        break;
    case ST_WRITE:
        if (t->taken)
            do_write(m, t->pout, i, t->v, s->round);
        break;
    case ST_ELSE_READ:
        if (!t->taken) {
            record_read(m, s->round, i, SV_READ_SELF, t->pin, i);
            t->v = (reg){m->mem[t->pin][i].v, m->mem[t->pin][i].known};
        }
        break;
    case ST_ELSE_WRITE:
        if (!t->taken)
            do_write(m, t->pout, i, t->v, s->round);
        break;
    case ST_COPYBACK:
        if (m->out) {
            if (m->exclusive && i == 0) {
                m->out[i] = sv_op_identity(m->op, m->type);
                m->out_known[i] = true;
            } else {
                size_t c = m->exclusive ? i - 1 : i;
                m->out[i] = m->mem[t->pout][c].v;
                m->out_known[i] = m->mem[t->pout][c].known;
            }
        }
        break;
    }
    if (t->status == T_RUNNABLE && t->pc >= m->nprog)
        t->status = T_DONE;
}

/* Steps threads lo..hi-1 that are runnable together: every read of the
 * step before any write. Each thread's side is decided before it moves, so
 * no thread executes two statements in one step. */
static size_t step_group(machine *m, size_t lo, size_t hi)
{
    size_t stepped = 0;
    for (size_t i = lo; i < hi; i++) {
        thread *t = &m->th[i];
        t->pending = false;
        if (t->status != T_RUNNABLE)
            continue;
        if (is_write(m->prog[t->pc].kind))
            t->pending = true;
        else
            step(m, i);
        stepped++;
    }
    for (size_t i = lo; i < hi; i++) {
        if (m->th[i].pending) {
            m->th[i].pending = false;
            step(m, i);
        }
    }
    return stepped;
}

/* Releases the barrier when nobody can run; false when all are done. */
static bool release(machine *m)
{
    bool any = false;
    for (size_t i = 0; i < m->n; i++) {
        if (m->th[i].status == T_WAITING) {
            m->th[i].status = m->th[i].pc >= m->nprog ? T_DONE : T_RUNNABLE;
            any = true;
        }
    }
    return any;
}

static void run_to_barrier(machine *m, size_t i)
{
    while (m->th[i].status == T_RUNNABLE)
        step(m, i);
}

static void run_schedule(machine *m, sv_schedule s, size_t *scratch)
{
    uint64_t rng = s.seed;
    const size_t n = m->n, warp = 32, nwarps = (n + warp - 1) / warp;
    for (;;) {
        switch (s.kind) {
        case SV_SCHEDULE_LOCKSTEP:
        case SV_SCHEDULE_COUNT:
            while (step_group(m, 0, n) > 0) {
            }
            break;
        case SV_SCHEDULE_SEQUENTIAL:
            for (size_t i = 0; i < n; i++)
                run_to_barrier(m, i);
            break;
        case SV_SCHEDULE_REVERSE:
            for (size_t i = n; i-- > 0;)
                run_to_barrier(m, i);
            break;
        case SV_SCHEDULE_RANDOM:
        case SV_SCHEDULE_WARPS: {
            /* scratch holds the runnable threads (or warps); a pick that
             * parks or finishes its thread (warp) is removed. */
            bool by_warp = s.kind == SV_SCHEDULE_WARPS;
            size_t count = by_warp ? nwarps : n;
            for (size_t k = 0; k < count; k++)
                scratch[k] = k;
            while (count > 0) {
                size_t pick = rng_below(&rng, count);
                size_t u = scratch[pick];
                if (by_warp) {
                    size_t hi = (u + 1) * warp < n ? (u + 1) * warp : n;
                    if (step_group(m, u * warp, hi) == 0)
                        scratch[pick] = scratch[--count];
                } else if (m->th[u].status == T_RUNNABLE) {
                    step(m, u);
                    if (m->th[u].status != T_RUNNABLE)
                        scratch[pick] = scratch[--count];
                } else {
                    scratch[pick] = scratch[--count];
                }
            }
            break;
        }
        }
        if (!release(m))
            return;
    }
}

static bool machine_run(const sv_trace *t, sv_kernel k, sv_schedule s, sv_trace *snap,
                        sv_lab_read *reads, bool *wrote, sv_value *out, bool *out_known,
                        char *err, size_t errlen)
{
    machine m;
    memset(&m, 0, sizeof m);
    m.info = sv_kernel_get(k);
    m.op = t->op;
    m.type = t->type;
    m.exclusive = t->scan == SV_SCAN_EXCLUSIVE;
    m.n = t->n;
    m.nrounds = t->nrounds;
    m.input = t->input;
    m.snap = snap;
    m.reads = reads;
    m.wrote = wrote;
    m.out = out;
    m.out_known = out_known;
    bool ok = false;
    m.prog = calloc(4 + 10 * m.nrounds, sizeof(stmt));
    m.mem[0] = calloc(m.n, sizeof(cell));
    m.mem[1] = calloc(m.n, sizeof(cell));
    m.th = calloc(m.n, sizeof(thread));
    size_t *scratch = calloc(m.n, sizeof(size_t));
    if (!m.info || !m.prog || !m.mem[0] || !m.mem[1] || !m.th || !scratch) {
        sv_errorf(err, errlen, m.info ? "out of memory emulating %zu threads"
                                      : "unknown kernel (%zu threads)", m.n);
        goto fail;
    }
    m.nprog = build_program(m.info, m.nrounds, m.prog);
    for (int b = 0; b < 2; b++)
        for (size_t i = 0; i < m.n; i++)
            m.mem[b][i].writer = -1;
    for (size_t i = 0; i < m.n; i++) {
        m.th[i].pout = 0;
        m.th[i].pin = m.info->double_buffer ? 1 : 0;
        m.th[i].status = T_RUNNABLE;
    }
    run_schedule(&m, s, scratch);
    ok = true;
fail:
    free(scratch);
    free(m.th);
    free(m.mem[0]);
    free(m.mem[1]);
    free(m.prog);
    return ok;
}

void sv_lab_reads_destroy(sv_lab_reads *r)
{
    if (!r)
        return;
    free(r->reads);
    free(r->wrote);
    free(r);
}

const sv_lab_read *sv_lab_reads_at(const sv_lab_reads *r, size_t round, size_t thread,
                                   sv_read_slot slot)
{
    if (!r || round >= r->nrounds || thread >= r->n || (unsigned)slot >= SV_READ_SLOTS)
        return NULL;
    return &r->reads[(round * r->n + thread) * SV_READ_SLOTS + slot];
}

/* The chapter's kernel's pout after each round: [round * n + i]. */
static sv_value *correct_rounds(const sv_trace *t)
{
    size_t n = t->n;
    sv_value *v = malloc(t->nrounds * n * sizeof(sv_value));
    if (!v)
        return NULL;
    memcpy(v, t->input, n * sizeof(sv_value));
    for (size_t r = 1; r < t->nrounds; r++) {
        size_t s = stride_of((int)r);
        for (size_t i = 0; i < n; i++)
            v[r * n + i] = i >= s ? sv_op_apply(t->op, t->type, v[(r - 1) * n + i - s],
                                                v[(r - 1) * n + i], NULL)
                                  : v[(r - 1) * n + i];
    }
    return v;
}

bool sv_lab_emulate(sv_trace *t, sv_kernel k, sv_schedule s, sv_lab_reads **reads,
                    sv_value *kernel_out, bool *out_known, char *err, size_t errlen)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    if (!t || !info) {
        sv_errorf(err, errlen, "sv_lab_emulate: %s", t ? "unknown kernel" : "no trace");
        return false;
    }
    if ((unsigned)s.kind >= SV_SCHEDULE_COUNT) {
        sv_errorf(err, errlen, "sv_lab_emulate: unknown schedule %d", (int)s.kind);
        return false;
    }
    const size_t n = t->n, nr = t->nrounds, slots = nr * n * SV_READ_SLOTS;
    bool ok = false;
    sv_lab_read *rd = calloc(slots, sizeof *rd);
    sv_lab_read *want = calloc(slots, sizeof *want);
    bool *wrote = calloc(nr * n, sizeof(bool));
    sv_value *corr = correct_rounds(t);
    bool *ok_known = out_known ? NULL : calloc(n, sizeof(bool));
    sv_value *ok_out = kernel_out ? NULL : calloc(n, sizeof(sv_value));
    sv_lab_reads *res = NULL;
    if (!rd || !want || !wrote || !corr || (!out_known && !ok_known) || (!kernel_out && !ok_out)) {
        sv_errorf(err, errlen, "out of memory emulating %zu threads", n);
        goto done;
    }
    for (size_t r = 0; r < nr; r++)
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < n; i++)
                t->rounds[r].written[b][i] = false;
    if (!machine_run(t, k, s, t, rd, wrote, kernel_out ? kernel_out : ok_out,
                     out_known ? out_known : ok_known, err, errlen))
        goto done;
    /* One-buffer kernels read and write buf[0] in every round. */
    if (!info->double_buffer)
        for (size_t r = 1; r < nr; r++)
            t->rounds[r].pin = t->rounds[r].pout = 0;
    if (s.kind == SV_SCHEDULE_LOCKSTEP) {
        memcpy(want, rd, slots * sizeof *rd);
    } else {
        bool *w2 = calloc(nr * n, sizeof(bool));
        bool ran = w2 && machine_run(t, k, (sv_schedule){SV_SCHEDULE_LOCKSTEP, 1}, NULL, want,
                                     w2, NULL, NULL, err, errlen);
        free(w2);
        if (!ran) {
            if (!w2)
                sv_errorf(err, errlen, "out of memory emulating %zu threads", n);
            goto done;
        }
    }
    for (size_t j = 0; j < slots; j++) {
        size_t r = j / SV_READ_SLOTS / n;
        rd[j].want = want[j].value;
        rd[j].want_known = want[j].known;
        rd[j].want_writer = want[j].done ? want[j].writer : -1;
        rd[j].want_round = want[j].done ? want[j].writer_round : -1;
        if (rd[j].done && r >= 1)
            rd[j].correct = corr[(r - 1) * n + rd[j].cell];
    }
    if (reads) {
        res = malloc(sizeof *res);
        if (!res) {
            sv_errorf(err, errlen, "out of memory emulating %zu threads", n);
            goto done;
        }
        *res = (sv_lab_reads){.kernel = k, .schedule = s, .n = n, .nrounds = nr, .reads = rd,
                              .wrote = wrote};
        rd = NULL;
        wrote = NULL;
        *reads = res;
    }
    ok = true;
done:
    free(rd);
    free(want);
    free(wrote);
    free(corr);
    free(ok_known);
    free(ok_out);
    return ok;
}

/* ---- Words ---------------------------------------------------------------- */

static void cell_name(const sv_lab_reads *r, int b, uint32_t c, char *buf, size_t len)
{
    if (sv_kernel_get(r->kernel)->double_buffer)
        snprintf(buf, len, "buf[%d][%u]", b, (unsigned)c);
    else
        snprintf(buf, len, "buf[%u]", (unsigned)c);
}

static const char *fmt_value(sv_type type, sv_value v, bool known, char *buf, size_t len)
{
    if (!known)
        return snprintf(buf, len, "?"), buf;
    return sv_value_format(type, v, buf, len);
}

bool sv_lab_read_describe(const sv_lab_reads *r, sv_type type, size_t round, size_t thread,
                          sv_read_slot slot, char *buf, size_t len)
{
    const sv_lab_read *x = sv_lab_reads_at(r, round, thread, slot);
    if (len)
        buf[0] = '\0';
    if (!x || !x->done)
        return false;
    char name[48], got[48], want[48], corr[48];
    cell_name(r, x->buf, x->cell, name, sizeof name);
    fmt_value(type, x->value, x->known, got, sizeof got);
    fmt_value(type, x->want, x->want_known, want, sizeof want);
    fmt_value(type, x->correct, true, corr, sizeof corr);
    int n = snprintf(buf, len, "round %zu: thread %zu read %s = %s", round, thread, name, got);
    if (n < 0 || (size_t)n >= len)
        return true;
    char *p = buf + n;
    size_t left = len - (size_t)n;
    bool same_write = x->writer == x->want_writer && x->writer_round == x->want_round;
    if (x->writer < 0) {
        snprintf(p, left, ", a cell nobody had written; it should have read %s", corr);
    } else if (!same_write && x->writer_round == (int)round) {
        snprintf(p, left, " after thread %d had overwritten it; it should have read %s",
                 (int)x->writer, want);
    } else if (!same_write && x->writer_round > (int)round) {
        snprintf(p, left, " after thread %d had already written it in round %d; it should "
                 "have read %s", (int)x->writer, x->writer_round, want);
    } else if (!same_write && x->want_writer >= 0) {
        snprintf(p, left, " before thread %d had written it in round %d (it saw round %d's "
                 "value); it should have read %s", (int)x->want_writer, x->want_round,
                 x->writer_round, want);
    } else if (!x->known || x->value.bits != x->correct.bits) {
        snprintf(p, left, ", written by thread %d in round %d, a value already wrong; the "
                 "chapter's kernel reads %s", (int)x->writer, x->writer_round, corr);
    } else {
        snprintf(p, left, ", as the chapter's kernel does");
    }
    return true;
}

void sv_lab_cell_describe(const sv_lab_reads *r, const sv_trace *t, size_t round, size_t i,
                          char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (!r || !t || round >= r->nrounds || i >= r->n || len == 0)
        return;
    if (round == 0) {
        snprintf(buf, len, "round 0: thread %zu staged input[%zu] into buf[0][%zu]", i, i, i);
        return;
    }
    const sv_kernel_info *info = sv_kernel_get(r->kernel);
    size_t s = stride_of((int)round);
    if (!r->wrote[round * r->n + i]) {
        if (i >= s && info->guard_offset > 0)
            snprintf(buf, len, "round %zu: thread %zu skipped the add: the guard i > %zu is false "
                     "for i = %zu (it should be i >= stride)", round, i, s, i);
        else
            snprintf(buf, len, "round %zu: thread %zu wrote nothing (i < stride and no else): "
                     "its pout cell keeps what an earlier round left there, or ? if none",
                     round, i);
        return;
    }
    if (i >= s && i < s + (size_t)info->guard_offset) {
        snprintf(buf, len, "round %zu: thread %zu copied pin[%zu] instead of adding pin[%zu]: "
                 "the guard i > %zu is false for i = %zu", round, i, i, i - s, s, i);
        return;
    }
    for (int slot = 0; slot < SV_READ_SLOTS; slot++) {
        const sv_lab_read *x = sv_lab_reads_at(r, round, i, (sv_read_slot)slot);
        if (x->done && (!x->known || x->value.bits != x->correct.bits)) {
            sv_lab_read_describe(r, t->type, round, i, (sv_read_slot)slot, buf, len);
            return;
        }
    }
    snprintf(buf, len, "round %zu: thread %zu read what the chapter's kernel reads", round, i);
}

/* ---- Summaries ------------------------------------------------------------ */

void sv_lab_summary_destroy(sv_lab_summary *s)
{
    if (!s)
        return;
    if (s->cells)
        for (size_t j = 0; j < s->n * s->nrounds; j++)
            free(s->cells[j].values);
    free(s->cells);
    free(s->first_diverged);
    free(s);
}

void sv_lab_raw_from_trace(const sv_trace *t, uint32_t run, uint32_t *bits, bool *known)
{
    size_t n = t->n;
    for (size_t r = 0; r < t->nrounds; r++) {
        const sv_round *R = &t->rounds[r];
        int b = r == 0 ? 0 : R->pout;
        for (size_t i = 0; i < n; i++) {
            size_t j = ((size_t)run * t->nrounds + r) * n + i;
            bits[j] = R->written[b][i] ? R->buf[b][i].bits : 0;
            if (known)
                known[j] = R->written[b][i];
        }
    }
}

static int cmp_count(const void *a, const void *b)
{
    const sv_lab_count *x = a, *y = b;
    if (x->runs != y->runs)
        return x->runs > y->runs ? -1 : 1;
    uint64_t kx = x->known ? x->value.bits : (1ull << 32), ky = y->known ? y->value.bits : (1ull << 32);
    return kx < ky ? -1 : kx > ky;
}

/* A run's output row, for counting distinct outputs. */
typedef struct row_ref {
    const uint32_t *bits;
    const bool *known;
    size_t n;
} row_ref;

static int cmp_row(const void *a, const void *b)
{
    const row_ref *x = a, *y = b;
    for (size_t i = 0; i < x->n; i++) {
        uint64_t kx = (!x->known || x->known[i]) ? x->bits[i] : (1ull << 32);
        uint64_t ky = (!y->known || y->known[i]) ? y->bits[i] : (1ull << 32);
        if (kx != ky)
            return kx < ky ? -1 : 1;
    }
    return 0;
}

/* Sorts keys[0..m) (below 2^40) ascending: LSD radix sort on 8-bit digits,
 * one histogram pass for all five digits, skipping a digit all keys share
 * (the unknown flag, bit 32, mostly). tmp holds m keys. */
static void radix_sort_keys(uint64_t *keys, uint64_t *tmp, uint32_t m)
{
    uint32_t hist[5][256];
    memset(hist, 0, sizeof hist);
    for (uint32_t k = 0; k < m; k++)
        for (int d = 0; d < 5; d++)
            hist[d][(keys[k] >> (8 * d)) & 255]++;
    for (int d = 0; d < 5; d++) {
        uint32_t *h = hist[d], sum = 0;
        if (h[(keys[0] >> (8 * d)) & 255] == m)
            continue; /* every key has this digit */
        for (int v = 0; v < 256; v++) {
            uint32_t c = h[v];
            h[v] = sum;
            sum += c;
        }
        for (uint32_t k = 0; k < m; k++)
            tmp[h[(keys[k] >> (8 * d)) & 255]++] = keys[k];
        memcpy(keys, tmp, m * sizeof *keys);
    }
}

/* Fills c->values with the distinct keys among keys[0..m) (a key is the
 * value's bits, or 2^32 for unknown) and their run counts, most runs first,
 * then by key (cmp_count's order). A cell holds few distinct values in most
 * mistakes: they are counted in a small table. A race can give a cell a
 * value of its own in almost every run: then the keys are radix sorted,
 * counted in key order, and placed by a stable counting sort on the run
 * count (qsort's comparisons cost 0.6 s for 1000 runs at n = 1024).
 * tmp holds m keys, bucket m + 1 counts. */
enum { kSmallValues = 8 };
static bool count_values(uint64_t *keys, uint32_t m, uint64_t *tmp, uint32_t *bucket,
                         sv_lab_cell *c)
{
    uint64_t kv[kSmallValues];
    uint32_t kc[kSmallValues], d = 0, k;
    for (k = 0; k < m; k++) {
        uint32_t q = 0;
        while (q < d && kv[q] != keys[k])
            q++;
        if (q == d) {
            if (d == kSmallValues)
                break;
            kv[d] = keys[k];
            kc[d++] = 0;
        }
        kc[q]++;
    }
    if (k == m) {
        if (!(c->values = calloc(d, sizeof(sv_lab_count))))
            return false;
        for (uint32_t v = 0; v < d; v++) {
            c->values[v].known = kv[v] < (1ull << 32);
            c->values[v].value.bits = (uint32_t)kv[v];
            c->values[v].runs = kc[v];
        }
        c->nvalues = d;
        qsort(c->values, d, sizeof(sv_lab_count), cmp_count);
        return true;
    }
    radix_sort_keys(keys, tmp, m);
    /* The distinct keys in ascending order into tmp[v], their runs into
     * bucket[v] (tmp is free again after the sort). */
    d = 0;
    for (k = 0; k < m; k++) {
        if (k > 0 && keys[k] == tmp[d - 1]) {
            bucket[d - 1]++;
            continue;
        }
        tmp[d] = keys[k];
        bucket[d++] = 1;
    }
    if (!(c->values = calloc(d, sizeof(sv_lab_count))))
        return false;
    /* Stable counting sort by runs, descending: start[r] (r = m - runs) in
     * keys reinterpreted as counts. */
    uint32_t *start = (uint32_t *)keys; /* the cell's keys are consumed: m + 1 counts fit */
    memset(start, 0, (m + 1) * sizeof *start);
    for (uint32_t v = 0; v < d; v++)
        start[m - bucket[v]]++;
    for (uint32_t r = 0, sum = 0; r <= m; r++) {
        uint32_t cnt = start[r];
        start[r] = sum;
        sum += cnt;
    }
    for (uint32_t v = 0; v < d; v++) {
        sv_lab_count *e = &c->values[start[m - bucket[v]]++];
        e->known = tmp[v] < (1ull << 32);
        e->value.bits = (uint32_t)tmp[v];
        e->runs = bucket[v];
    }
    c->nvalues = d;
    return true;
}

/* One thread's share of a summary: cells [lo, hi) of every run (cell j of
 * run k is bits[k * cells + j]). */
typedef struct summary_job {
    sv_lab_summary *s;
    const uint32_t *corr, *bits;
    const bool *known;
    uint32_t runs;
    size_t lo, hi;
    bool ok;
} summary_job;

/* Keys of 16 cells at once: each run's 16 cells are one 64-byte line of
 * bits, and the 16 rows of keys stay in cache while they fill. */
enum { kCellBlock = 16 };

/* The job's cells: the runs that differ from the correct value, counted in
 * one pass over the runs; then the values, one entry for a cell no run got
 * wrong (most of them); for the others the keys of a block of cells are
 * gathered run by run, then counted cell by cell. */
static void *summary_work(void *arg)
{
    summary_job *jb = arg;
    sv_lab_summary *s = jb->s;
    const size_t cells = s->n * s->nrounds;
    const uint32_t runs = jb->runs;
    uint64_t *keys = malloc((size_t)kCellBlock * runs * sizeof *keys);
    uint64_t *tmp = malloc(runs * sizeof *tmp);
    uint32_t *bucket = malloc(((size_t)runs + 1) * sizeof *bucket);
    jb->ok = keys && tmp && bucket;
    for (uint32_t k = 0; jb->ok && k < runs; k++) {
        const uint32_t *row = jb->bits + (size_t)k * cells;
        const bool *krow = jb->known ? jb->known + (size_t)k * cells : NULL;
        for (size_t j = jb->lo; j < jb->hi; j++)
            s->cells[j].wrong_runs += (krow && !krow[j]) || row[j] != jb->corr[j];
    }
    for (size_t c0 = jb->lo; jb->ok && c0 < jb->hi; c0 += kCellBlock) {
        const size_t c1 = c0 + kCellBlock < jb->hi ? c0 + kCellBlock : jb->hi;
        bool any = false;
        for (size_t j = c0; j < c1 && jb->ok; j++) {
            sv_lab_cell *c = &s->cells[j];
            if (c->wrong_runs > 0) {
                any = true;
            } else if ((c->values = calloc(1, sizeof(sv_lab_count)))) {
                c->values[0] = (sv_lab_count){.known = true, .value = c->correct, .runs = runs};
                c->nvalues = 1;
            } else {
                jb->ok = false;
            }
        }
        if (!any || !jb->ok)
            continue;
        for (uint32_t k = 0; k < runs; k++) {
            const size_t at = (size_t)k * cells;
            for (size_t j = c0; j < c1; j++)
                keys[(j - c0) * runs + k] =
                    (!jb->known || jb->known[at + j]) ? jb->bits[at + j] : (1ull << 32);
        }
        for (size_t j = c0; j < c1 && jb->ok; j++)
            if (s->cells[j].wrong_runs > 0)
                jb->ok = count_values(keys + (j - c0) * runs, runs, tmp, bucket, &s->cells[j]);
    }
    free(keys);
    free(tmp);
    free(bucket);
    return NULL;
}

/* Every cell's wrong runs and values, on up to kSummaryThreads threads when
 * there are many (the work is per cell; 1000 runs at n = 1024 are 11 M
 * keys). */
enum { kSummaryThreads = 8 };
static bool summarize_cells(sv_lab_summary *s, const uint32_t *corr, uint32_t runs,
                            const uint32_t *bits, const bool *known)
{
    const size_t cells = s->n * s->nrounds;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t nt = (size_t)cells * runs < ((size_t)1 << 20) || cpus < 2 ? 1
                : cpus < kSummaryThreads ? (size_t)cpus : kSummaryThreads;
    summary_job jobs[kSummaryThreads];
    pthread_t tid[kSummaryThreads];
    bool started[kSummaryThreads] = {false};
    const size_t share = (cells / nt + kCellBlock - 1) / kCellBlock * kCellBlock;
    for (size_t t = 0; t < nt; t++) {
        size_t lo = t * share < cells ? t * share : cells;
        size_t hi = t + 1 == nt || lo + share > cells ? cells : lo + share;
        jobs[t] = (summary_job){s, corr, bits, known, runs, lo, hi, false};
        if (t > 0)
            started[t] = pthread_create(&tid[t], NULL, summary_work, &jobs[t]) == 0;
    }
    summary_work(&jobs[0]);
    bool ok = jobs[0].ok;
    for (size_t t = 1; t < nt; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            summary_work(&jobs[t]); /* no thread: do its share here */
        ok = ok && jobs[t].ok;
    }
    return ok;
}

sv_lab_summary *sv_lab_summarize(const sv_trace *correct, uint32_t runs, const uint32_t *bits,
                                 const bool *known, char *err, size_t errlen)
{
    if (!correct || !bits || runs == 0) {
        sv_errorf(err, errlen, "sv_lab_summarize: %s", runs == 0 ? "no runs" : "no data");
        return NULL;
    }
    const size_t n = correct->n, nr = correct->nrounds, cells = n * nr;
    bool ok = false;
    sv_lab_summary *s = calloc(1, sizeof *s);
    uint32_t *corr = malloc(cells * sizeof *corr);
    row_ref *rows = calloc(runs, sizeof(row_ref));
    if (!s || !corr || !rows)
        goto done;
    s->n = n;
    s->nrounds = nr;
    s->runs = runs;
    s->first_wrong_cell = -1;
    s->first_wrong_round = -1;
    s->cells = calloc(cells, sizeof(sv_lab_cell));
    s->first_diverged = malloc(n * sizeof(int));
    if (!s->cells || !s->first_diverged)
        goto done;
    for (size_t r = 0; r < nr; r++) {
        const sv_round *R = &correct->rounds[r];
        int b = r == 0 ? 0 : R->pout;
        for (size_t i = 0; i < n; i++) {
            s->cells[r * n + i].correct = R->buf[b][i];
            corr[r * n + i] = R->buf[b][i].bits;
        }
    }
    if (!summarize_cells(s, corr, runs, bits, known))
        goto done;
    for (size_t i = 0; i < n; i++)
        s->first_diverged[i] = -1;
    for (size_t r = 0; r < nr; r++)
        for (size_t i = 0; i < n; i++)
            if (s->cells[r * n + i].wrong_runs > 0) {
                if (s->first_diverged[i] < 0)
                    s->first_diverged[i] = (int)r;
                if (s->first_wrong_round < 0)
                    s->first_wrong_round = (int)r;
            }
    /* The output: the last round's pout. */
    size_t last = nr - 1;
    for (size_t i = 0; i < n; i++)
        if (s->cells[last * n + i].wrong_runs > 0) {
            s->first_wrong_cell = (int)i;
            break;
        }
    for (uint32_t k = 0; k < runs; k++) {
        size_t j = ((size_t)k * nr + last) * n;
        rows[k] = (row_ref){bits + j, known ? known + j : NULL, n};
        for (size_t i = 0; i < n; i++) {
            bool kn = !known || known[j + i];
            if (!kn || bits[j + i] != corr[last * n + i]) {
                s->wrong_runs++;
                break;
            }
        }
    }
    qsort(rows, runs, sizeof *rows, cmp_row);
    s->distinct_outputs = 1;
    for (uint32_t k = 1; k < runs; k++)
        s->distinct_outputs += cmp_row(&rows[k], &rows[k - 1]) != 0;
    ok = true;
done:
    if (!ok) {
        sv_errorf(err, errlen, "out of memory summarizing %u runs of %zu cells", (unsigned)runs,
                  n);
        sv_lab_summary_destroy(s);
        s = NULL;
    }
    free(corr);
    free(rows);
    return s;
}

/* ---- Records -------------------------------------------------------------- */

void sv_lab_record_destroy(sv_lab_record *r)
{
    if (!r)
        return;
    sv_lab_summary_destroy(r->summary);
    sv_racecheck_destroy(r->racecheck);
    free(r);
}

sv_schedule sv_lab_run_schedule(const sv_lab_record *r, uint32_t run)
{
    sv_schedule s = r->schedule;
    if (s.kind == SV_SCHEDULE_RANDOM || s.kind == SV_SCHEDULE_WARPS)
        s.seed += run;
    return s;
}

/* Built once from the registry, so that a kernel added there is named in
 * every message, the help overlay and --help's checks alike. */
static char kernel_list[SV_KERNEL_COUNT * 32];
static pthread_once_t kernel_list_once = PTHREAD_ONCE_INIT;

static void kernel_list_build(void)
{
    size_t at = 0;
    for (int k = 0; k < SV_KERNEL_COUNT && at < sizeof kernel_list; k++)
        at += (size_t)snprintf(kernel_list + at, sizeof kernel_list - at, "%s%s",
                               k == 0 ? "" : k + 1 == SV_KERNEL_COUNT ? " or " : ", ",
                               sv_kernel_name((sv_kernel)k));
}

const char *sv_kernel_list(void)
{
    pthread_once(&kernel_list_once, kernel_list_build);
    return kernel_list;
}

bool sv_kernel_parse(const char *name, sv_kernel *out, char *err, size_t errlen)
{
    if (name && strcmp(name, SV_KERNEL_TEACHING) == 0) {
        *out = SV_KERNEL_CORRECT;
        return true;
    }
    if (sv_kernel_from_name(name, out))
        return true;
    char shown[41];
    size_t j = 0;
    for (const char *p = name ? name : ""; *p && j < sizeof shown - 1; p++)
        shown[j++] = (*p >= 32 && *p < 127) ? *p : '?';
    shown[j] = '\0';
    sv_errorf(err, errlen, "unknown kernel \"%s\" (expected %s)", shown, sv_kernel_list());
    return false;
}

sv_lab_summary *sv_lab_summary_all_correct(const sv_trace *correct, uint32_t runs, char *err,
                                           size_t errlen)
{
    size_t words = correct->nrounds * correct->n;
    uint32_t *bits = malloc(words * sizeof *bits);
    if (!bits) {
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    sv_lab_raw_from_trace(correct, 0, bits, NULL);
    /* One run, then scale the counts: every run held the same values. */
    sv_lab_summary *s = sv_lab_summarize(correct, 1, bits, NULL, err, errlen);
    free(bits);
    if (!s)
        return NULL;
    s->runs = runs;
    for (size_t j = 0; j < words; j++)
        s->cells[j].values[0].runs = runs;
    return s;
}

void sv_lab_trace_from_raw(sv_trace *t, sv_kernel k, const uint32_t *bits, const bool *known)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    const size_t n = t->n;
    for (size_t i = 0; i < n; i++) {
        sv_value own[2] = {{.bits = 0}, {.bits = 0}};
        bool has[2] = {false, false};
        int pout = 0;
        for (size_t r = 0; r < t->nrounds; r++) {
            sv_round *R = &t->rounds[r];
            if (r > 0) {
                if (info->double_buffer)
                    pout = 1 - pout;
                else
                    R->pin = R->pout = 0;
            }
            if (r == 0 || sv_kernel_writes(k, (int)r, i)) {
                own[pout].bits = bits[r * n + i];
                has[pout] = !known || known[r * n + i];
            }
            for (int b = 0; b < 2; b++) {
                R->buf[b][i] = has[b] ? own[b] : (sv_value){.bits = 0};
                R->written[b][i] = has[b];
            }
        }
    }
}

sv_trace *sv_lab_correct_trace(const sv_trace *t, char *err, size_t errlen)
{
    sv_trace *c = sv_trace_create(t->op, t->type, t->scan, t->input, t->n, SV_BACKEND_CPU, NULL,
                                  err, errlen);
    if (!c)
        return NULL;
    if (!sv_lab_emulate(c, SV_KERNEL_CORRECT, (sv_schedule){SV_SCHEDULE_LOCKSTEP, 1}, NULL, NULL,
                        NULL, err, errlen) ||
        !sv_trace_finish(c, err, errlen)) {
        sv_trace_destroy(c);
        return NULL;
    }
    return c;
}
