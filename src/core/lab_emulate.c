/* The mistakes lab's statement-level emulator with read provenance, and the
 * words that say what each read saw. lab_emulate.h describes the statement
 * model.
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
#include "lab_emulate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

static size_t stride_of(int round)
{
    return round >= 1 ? (size_t)1 << (round - 1) : 0;
}

/* ---- The statement machine ----------------------------------------------- */

typedef enum stmt_kind {
    ST_LOAD,       /* buf[0][i] = in[i] */
    ST_BARRIER,
    ST_DUMP,       /* instrumentation: record own cells after the round */
    ST_SWAP,       /* pout = 1 - pout; pin = 1 - pout (double buffer only) */
    ST_GUARD,      /* taken = i >= stride + offset (no guard: always) */
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
    rd->index = (int32_t)c;
    rd->value = x->v;
    rd->known = x->known;
    rd->writer = x->writer;
    rd->writer_round = x->round;
}

/* A read of pin at index < 0 (no guard): no cell, no writer, `?`. */
static void record_out_of_range(machine *m, int round, size_t i, int b, int32_t index)
{
    sv_lab_read *rd = &m->reads[((size_t)round * m->n + i) * SV_READ_SLOTS + SV_READ_LEFT];
    *rd = (sv_lab_read){.done = true, .out_of_range = true, .buf = b, .index = index,
                        .writer = -1, .writer_round = -1};
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
        t->taken = !m->info->guard || i >= stride + (size_t)m->info->guard_offset;
        break;
    case ST_READ_L:
        if (t->taken && i < stride) {
            /* No guard: pin[i - stride] is left of pin's first cell. The
             * model has no memory there: the value is `?`, the read named
             * out of range (the runtime reports what really lay there). */
            record_out_of_range(m, s->round, i, t->pin, (int32_t)i - (int32_t)stride);
            t->a = (reg){{.bits = 0}, false};
        } else if (t->taken) {
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
    const size_t n = m->n, warp = SV_WARP_SIZE, nwarps = (n + warp - 1) / warp;
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
                size_t pick = sv_schedule_pick(&rng, count);
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
    if (!info->emulated) {
        sv_errorf(err, errlen, "kernel %s has no statement model to emulate: it runs through "
                  "the kernel runtime", info->name);
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
        if (rd[j].done && !rd[j].out_of_range && r >= 1)
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

/* "buf[1][5]", "buf[5]" (one buffer); out of range "buf[1][-1]". */
static void cell_name(const sv_lab_reads *r, int b, int32_t index, char *buf, size_t len)
{
    if (sv_kernel_get(r->kernel)->double_buffer)
        snprintf(buf, len, "buf[%d][%d]", b, (int)index);
    else
        snprintf(buf, len, "buf[%d]", (int)index);
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
    cell_name(r, x->buf, x->index, name, sizeof name);
    if (x->out_of_range) {
        snprintf(buf, len, "round %zu: thread %zu read %s, left of the buffer's first cell: "
                 "out of range (value unknown, ?); the chapter's guard i >= stride skips "
                 "this read", round, thread, name);
        return true;
    }
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
