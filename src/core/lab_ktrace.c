/* The lab's reading of a kernel trace (lab_ktrace.h): rounds and reads from
 * the runtime's steps.
 *
 * UNDER THE HOOD. Every access to the buffers becomes an event (a write with
 * its round, a read with its round and slot); sorted by the accesses' order
 * they replay the run, with each cell carrying its value, whether it is
 * known (`?` otherwise) and who wrote it in which round, so each read gets
 * the write it saw. A write that leaves a cell as it was (the one-buffer
 * kernels' else, buf[i] = buf[i]) keeps the cell's provenance: no reader can
 * tell it happened, and the words speak of values. */
#include "lab_ktrace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

typedef struct ev {
    uint32_t order;
    bool write;
    uint32_t thread;
    int b;             /* buffer: the array's cell / n */
    uint32_t i;        /* cell in the buffer: the array's cell % n */
    sv_value value;
    int round;         /* a read: the round of the thread's next write; -1 none */
    int slot;
} ev;

typedef struct cell {
    sv_value v;
    bool known;
    int32_t writer;    /* -1: never written */
    int round;
    int32_t last_writer; /* the last write, even one that left the value as it was */
    int last_round;
} cell;

/* One replay's inputs and results. */
typedef struct replay {
    const sv_ktrace *kt;
    size_t n, nr;
    int arr;            /* the buffers' array */
    ev *evs;
    size_t nevs, cap;
    sv_lab_read *reads; /* [(r * n + i) * SLOTS + slot] */
    bool *wrote;        /* [r * n + i] */
    sv_value *rv;       /* [(r * 2 + b) * n + i]: the write of round r, NULL: not kept */
    bool *rset;
    bool *rknown;       /* the write's value is known (none of its reads was `?`) */
    int stopped_round;
    int32_t stopped_thread;
} replay;

static int by_order(const void *a, const void *b)
{
    uint32_t x = ((const ev *)a)->order, y = ((const ev *)b)->order;
    return x < y ? -1 : x > y;
}

static bool push(replay *p, ev e)
{
    if (p->nevs == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1024;
        ev *m = realloc(p->evs, cap * sizeof *m);
        if (!m)
            return false;
        p->evs = m;
        p->cap = cap;
    }
    p->evs[p->nevs++] = e;
    return true;
}

/* The shared array the kernel wrote most: the lab kernels' buffers. */
static int buffer_array(const sv_ktrace *kt, size_t n)
{
    int best = -1;
    size_t most = 0;
    for (size_t a = 0; a < kt->narrays; a++) {
        if (kt->arrays[a].kind != SV_KARRAY_SHARED || kt->arrays[a].len < n)
            continue;
        size_t w = 0;
        for (size_t s = 0; s < kt->nsteps; s++)
            for (size_t k = 0; k < kt->steps[s].nwrites; k++)
                w += kt->steps[s].writes[k].at.array == a;
        if (w > most) {
            most = w;
            best = (int)a;
        }
    }
    return best;
}

/* The events of every step, rounds counted as lab_ktrace.h says; the round
 * the run stopped in when it did. */
static bool collect(replay *p, uint32_t *count, char *err, size_t errlen)
{
    const sv_ktrace *kt = p->kt;
    const size_t n = p->n;
    int base = 0;
    for (size_t s = 0; s < kt->nsteps; s++) {
        const sv_kstep *st = &kt->steps[s];
        memset(count, 0, n * sizeof *count);
        uint32_t most = 0;
        for (size_t k = 0; k < st->nwrites; k++) {
            const sv_kwrite *w = &st->writes[k];
            if (w->at.array != (uint16_t)p->arr || w->at.cell >= 2 * n || w->at.thread >= n)
                continue;
            int round = base + (int)count[w->at.thread]++;
            most = count[w->at.thread] > most ? count[w->at.thread] : most;
            if (w->at.order == 0) {
                sv_errorf(err, errlen, "the kernel trace has no order of its accesses (the CPU "
                          "runtime records it)");
                return false;
            }
            for (uint32_t q = 0; q < w->nreads; q++) {
                const sv_kaccess *a = &st->reads[w->first_read + q];
                if (a->array != (uint16_t)p->arr || a->cell >= 2 * n)
                    continue;
                uint32_t i = a->cell % (uint32_t)n;
                ev e = {a->order, false, a->thread, (int)(a->cell / n), i, a->value, round,
                        i == a->thread ? SV_READ_SELF : SV_READ_LEFT};
                if (!push(p, e))
                    goto oom;
            }
            ev e = {w->at.order, true, w->at.thread, (int)(w->at.cell / n),
                    w->at.cell % (uint32_t)n, w->at.value, round, 0};
            if (!push(p, e))
                goto oom;
        }
        base += (int)most;
    }
    if (kt->failure.kind == SV_KFAIL_OUT_OF_RANGE && kt->failure.thread >= 0 &&
        (size_t)kt->failure.thread < n) {
        p->stopped_round = base;
        p->stopped_thread = kt->failure.thread;
    }
    return true;
oom:
    sv_errorf(err, errlen, "out of memory reading the kernel trace");
    return false;
}

/* Replays the events in order: provenance of every read, the written flags
 * and (when kept) each round's writes. */
static void replay_events(replay *p, cell *mem)
{
    const size_t n = p->n;
    for (size_t c = 0; c < 2 * n; c++)
        mem[c] = (cell){{.bits = 0}, false, -1, -1, -1, -1};
    qsort(p->evs, p->nevs, sizeof *p->evs, by_order);
    for (size_t k = 0; k < p->nevs; k++) {
        const ev *e = &p->evs[k];
        if (e->round < 0 || (size_t)e->round >= p->nr)
            continue;
        cell *x = &mem[(size_t)e->b * n + e->i];
        size_t ri = (size_t)e->round * n + e->thread;
        if (e->write) {
            /* An operation on `?` gives `?`: the memory a kernel reads
             * before anybody wrote it holds no value of the scan. */
            bool known = true;
            for (int sl = 0; e->round >= 1 && sl < SV_READ_SLOTS; sl++) {
                const sv_lab_read *rd = &p->reads[ri * SV_READ_SLOTS + (size_t)sl];
                known = known && (!rd->done || rd->known);
            }
            if (e->round >= 1)
                p->wrote[ri] = true;
            if (p->rv) {
                size_t j = ((size_t)e->round * 2 + (size_t)e->b) * n + e->i;
                p->rv[j] = known ? e->value : (sv_value){.bits = 0};
                p->rset[j] = true;
                p->rknown[j] = known;
            }
            x->last_writer = (int32_t)e->thread;
            x->last_round = e->round;
            if (x->writer >= 0 && x->known == known && (!known || x->v.bits == e->value.bits))
                continue;
            *x = (cell){known ? e->value : (sv_value){.bits = 0}, known, (int32_t)e->thread,
                        e->round, (int32_t)e->thread, e->round};
            continue;
        }
        if (e->round < 1)
            continue;
        sv_lab_read *rd = &p->reads[ri * SV_READ_SLOTS + (size_t)e->slot];
        *rd = (sv_lab_read){.done = true, .buf = e->b, .index = (int32_t)e->i, .cell = e->i,
                            .value = x->known ? e->value : (sv_value){.bits = 0},
                            .known = x->known, .writer = x->writer,
                            .writer_round = x->writer >= 0 ? x->round : -1,
                            .last_writer = x->last_writer, .last_round = x->last_round};
    }
}

/* The out-of-range read the run stopped at: pin[index], index < 0. */
static void mark_stop(replay *p, const sv_trace *t)
{
    if (p->stopped_round < 1 || (size_t)p->stopped_round >= p->nr)
        return;
    const sv_kfailure *f = &p->kt->failure;
    size_t r = (size_t)p->stopped_round, i = (size_t)p->stopped_thread;
    int pin = t->rounds[r].pin < 0 ? 0 : t->rounds[r].pin;
    int64_t index = f->index - (int64_t)pin * (int64_t)p->n;
    sv_lab_read *rd = &p->reads[(r * p->n + i) * SV_READ_SLOTS + SV_READ_LEFT];
    *rd = (sv_lab_read){.done = true, .out_of_range = true, .buf = pin,
                        .index = index < INT32_MIN ? INT32_MIN : (int32_t)index,
                        .writer = -1, .writer_round = -1, .last_writer = -1,
                        .last_round = -1};
}

static void replay_free(replay *p)
{
    free(p->evs);
    free(p->reads);
    free(p->wrote);
    free(p->rv);
    free(p->rset);
    free(p->rknown);
}

/* Replays kt (rv kept when keep_rounds). */
static bool replay_run(replay *p, const sv_ktrace *kt, const sv_trace *t, bool keep_rounds,
                       char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->kt = kt;
    p->n = t->n;
    p->nr = t->nrounds;
    p->stopped_round = -1;
    p->stopped_thread = -1;
    if (kt->n != t->n) {
        sv_errorf(err, errlen, "the kernel trace has n = %zu, the lab's trace %zu", kt->n, t->n);
        return false;
    }
    if (kt->failure.kind != SV_KFAIL_NONE && kt->failure.kind != SV_KFAIL_OUT_OF_RANGE) {
        sv_errorf(err, errlen, "the kernel run failed (%s): %s",
                  sv_kfail_kind_name(kt->failure.kind),
                  kt->failure.message ? kt->failure.message : "no message");
        return false;
    }
    p->arr = buffer_array(kt, t->n);
    if (p->arr < 0 && kt->failure.kind == SV_KFAIL_NONE) {
        sv_errorf(err, errlen, "the kernel wrote no shared array of %zu cells: no lab rounds",
                  t->n);
        return false;
    }
    const size_t n = p->n, nr = p->nr;
    p->reads = calloc(nr * n * SV_READ_SLOTS, sizeof *p->reads);
    p->wrote = calloc(nr * n, sizeof *p->wrote);
    if (keep_rounds) {
        p->rv = calloc(nr * 2 * n, sizeof *p->rv);
        p->rset = calloc(nr * 2 * n, sizeof *p->rset);
        p->rknown = calloc(nr * 2 * n, sizeof *p->rknown);
    }
    uint32_t *count = calloc(n, sizeof *count);
    cell *mem = calloc(2 * n, sizeof *mem);
    bool ok = p->reads && p->wrote && (!keep_rounds || (p->rv && p->rset && p->rknown)) && count && mem;
    if (!ok)
        sv_errorf(err, errlen, "out of memory reading the kernel trace");
    else if (p->arr >= 0)
        ok = collect(p, count, err, errlen);
    else if (kt->failure.thread >= 0 && (size_t)kt->failure.thread < n)
        p->stopped_round = 0, p->stopped_thread = kt->failure.thread;
    if (ok) {
        replay_events(p, mem);
        mark_stop(p, t);
    }
    free(count);
    free(mem);
    return ok;
}

/* t's rounds from the writes of each round: a cell keeps its value until
 * its owner writes it again. In the round a run stopped in (an index out
 * of range), a pout cell with no recorded write is `?`: the runtime keeps
 * no write of an unfinished interval, so whether a thread wrote it before
 * the stop is not known. The rounds after it never ran: their cells are
 * the memory the run left, the stopped round's (the staged buf[0] stays
 * the staged input), not `?`. */
static void fill_rounds(sv_trace *t, const replay *p, const sv_kernel_info *info)
{
    const size_t n = t->n;
    for (size_t r = 0; r < t->nrounds; r++) {
        sv_round *R = &t->rounds[r];
        int pout = r >= 1 && !info->double_buffer ? 0 : R->pout;
        bool after_stop = p->stopped_round >= 1 && r == (size_t)p->stopped_round;
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < n; i++) {
                size_t j = (r * 2 + (size_t)b) * n + i;
                if (p->rset[j]) {
                    R->buf[b][i] = p->rv[j];
                    R->written[b][i] = p->rknown[j];
                } else if (after_stop && b == pout) {
                    R->buf[b][i] = (sv_value){.bits = 0};
                    R->written[b][i] = false;
                } else if (r > 0) {
                    R->buf[b][i] = t->rounds[r - 1].buf[b][i];
                    R->written[b][i] = t->rounds[r - 1].written[b][i];
                } else {
                    R->buf[b][i] = (sv_value){.bits = 0};
                    R->written[b][i] = false;
                }
            }
        if (r >= 1 && !info->double_buffer)
            R->pin = R->pout = 0;
    }
}

/* want_* from lockstep's reads, correct from the chapter's kernel. */
static void add_wants(replay *p, const replay *lock, const sv_trace *correct)
{
    const size_t n = p->n, slots = p->nr * n * SV_READ_SLOTS;
    for (size_t j = 0; j < slots; j++) {
        sv_lab_read *x = &p->reads[j];
        const sv_lab_read *w = &lock->reads[j];
        size_t r = j / SV_READ_SLOTS / n;
        x->want = w->value;
        x->want_known = w->known;
        x->want_writer = w->done ? w->writer : -1;
        x->want_round = w->done ? w->writer_round : -1;
        if (x->done && !x->out_of_range && r >= 1 && correct) {
            const sv_round *C = &correct->rounds[r - 1];
            x->correct = C->buf[r - 1 == 0 ? 0 : C->pout][x->cell];
        }
    }
}

char *sv_lab_hazard_words(const sv_ktrace *run, sv_kernel k, const sv_khazard *h, char *buf,
                          size_t len)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    size_t n = run->n ? run->n : 1;
    char cell[48], when[48];
    if (info && info->double_buffer)
        snprintf(cell, sizeof cell, "buf[%zu][%zu]", (size_t)h->cell / n, (size_t)h->cell % n);
    else
        snprintf(cell, sizeof cell, "buf[%zu]", (size_t)h->cell % n);
    if (info && info->barrier) /* a barrier a round: step r is round r */
        snprintf(when, sizeof when, "in round %" PRIu32, h->step);
    else
        snprintf(when, sizeof when, "in one barrier interval");
    /* the reader first, as racecheck and the chapter put it */
    const sv_kaccess *a = h->kind == SV_KHAZARD_RAW ? &h->second : &h->first;
    const sv_kaccess *b = h->kind == SV_KHAZARD_RAW ? &h->first : &h->second;
    if (h->kind == SV_KHAZARD_WAW)
        snprintf(buf, len, "threads %" PRIu32 " and %" PRIu32 " both wrote %s %s (lines %" PRId32
                 " and %" PRId32 ", WAW)", h->first.thread, h->second.thread, cell, when,
                 h->first.line, h->second.line);
    else
        snprintf(buf, len, "thread %" PRIu32 " read %s while thread %" PRIu32 " wrote it, %s "
                 "(lines %" PRId32 " and %" PRId32 ", %s)", a->thread, cell, b->thread, when,
                 a->line, b->line, sv_khazard_kind_name(h->kind));
    return buf;
}

/* out[] as written, `?` where the cell it copied was (the last round's
 * pout, one cell left for the exclusive scan). */
static void kernel_output(const sv_trace *t, const sv_ktrace *run, sv_value *kernel_out,
                          bool *out_known)
{
    const sv_round *last = &t->rounds[t->nrounds - 1];
    int lp = t->nrounds == 1 ? 0 : last->pout;
    for (size_t i = 0; i < t->n; i++) {
        bool from = t->scan == SV_SCAN_EXCLUSIVE ? i == 0 || last->written[lp][i - 1]
                                                 : last->written[lp][i];
        if (kernel_out)
            kernel_out[i] = run->output_written[i] && from ? run->output[i]
                                                           : (sv_value){.bits = 0};
        if (out_known)
            out_known[i] = run->output_written[i] && from;
    }
}

/* ---- A GPU run: rounds from the snapshots ------------------------------------
 * The GPU runtime sees shared memory only at the barriers: each step is the
 * state after one barrier interval, with the cells written so far, and no
 * access order. A kernel with its barrier (the registry's row) writes one
 * round per step, so the k-th step that wrote the buffers is round k. One
 * without it runs the whole loop in one interval: the state after its last
 * round is seen, the rounds between are not, and stay `?` (not observed). */

/* Whether step s wrote any of array a's first cells cells. */
static bool step_wrote(const sv_ktrace *kt, size_t s, size_t a, size_t cells)
{
    for (size_t c = 0; c < cells; c++)
        if (kt->steps[s].wrote[a][c])
            return true;
    return false;
}

/* The shared array of at least n cells the most steps wrote: the buffers. */
static int snapshot_array(const sv_ktrace *kt, size_t n)
{
    int best = -1;
    size_t most = 0;
    for (size_t a = 0; a < kt->narrays; a++) {
        if (kt->arrays[a].kind != SV_KARRAY_SHARED || kt->arrays[a].len < n)
            continue;
        size_t cells = kt->arrays[a].len < 2 * n ? kt->arrays[a].len : 2 * n, w = 0;
        for (size_t s = 0; s < kt->nsteps; s++)
            w += step_wrote(kt, s, a, cells);
        if (w > most) {
            most = w;
            best = (int)a;
        }
    }
    return best;
}

static bool rounds_from_snapshots(sv_trace *t, const sv_kernel_info *info, const sv_ktrace *run,
                                  char *err, size_t errlen)
{
    const size_t n = t->n, nr = t->nrounds;
    int arr = snapshot_array(run, n);
    if (arr < 0) {
        sv_errorf(err, errlen, "the kernel wrote no shared array of %zu cells: no lab rounds", n);
        return false;
    }
    const size_t a = (size_t)arr, cells = run->arrays[a].len < 2 * n ? run->arrays[a].len : 2 * n;
    size_t step_of[64], m = 0; /* the steps that wrote the buffers, in order */
    for (size_t s = 0; s < run->nsteps && m < nr && m < 64; s++)
        if (step_wrote(run, s, a, cells))
            step_of[m++] = s;
    /* Without the barrier the loop's last round ends with the kernel. */
    if (!info->barrier && m >= 2 && nr >= 2) {
        step_of[nr - 1] = step_of[m - 1];
        m = nr;
    }
    for (size_t r = 0; r < nr; r++) {
        sv_round *R = &t->rounds[r];
        bool seen = r < m && (info->barrier || r == 0 || r == nr - 1);
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < n; i++) {
                size_t c = (size_t)b * n + i;
                if (seen && c < cells) {
                    const sv_kstep *st = &run->steps[step_of[r]];
                    R->written[b][i] = st->written[a][c];
                    R->buf[b][i] = st->written[a][c] ? st->cells[a][c] : (sv_value){.bits = 0};
                } else if (r >= m && r > 0) { /* the run stopped: the memory it left */
                    R->buf[b][i] = t->rounds[r - 1].buf[b][i];
                    R->written[b][i] = t->rounds[r - 1].written[b][i];
                } else {                      /* not observed */
                    R->buf[b][i] = (sv_value){.bits = 0};
                    R->written[b][i] = false;
                }
            }
        if (r >= 1 && !info->double_buffer)
            R->pin = R->pout = 0;
    }
    return true;
}

bool sv_lab_from_ktrace(sv_trace *t, sv_kernel k, const sv_ktrace *run,
                        const sv_ktrace *lockstep, const sv_trace *correct, sv_lab_reads **reads,
                        sv_value *kernel_out, bool *out_known, char *err, size_t errlen)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    if (!t || !run || !info) {
        sv_errorf(err, errlen, "sv_lab_from_ktrace: %s", info ? "no trace" : "unknown kernel");
        return false;
    }
    if (run->backend == SV_BACKEND_CUDA) { /* snapshots, no accesses */
        if (reads) {
            sv_errorf(err, errlen, "a GPU run records no reads (the CPU runtime does)");
            return false;
        }
        if (run->n != t->n || (run->failure.kind != SV_KFAIL_NONE &&
                               run->failure.kind != SV_KFAIL_OUT_OF_RANGE)) {
            sv_errorf(err, errlen, "the GPU run %s", run->n != t->n ? "has another n"
                      : run->failure.message ? run->failure.message : "failed");
            return false;
        }
        if (!rounds_from_snapshots(t, info, run, err, errlen))
            return false;
        kernel_output(t, run, kernel_out, out_known);
        return true;
    }
    replay p, lock;
    memset(&lock, 0, sizeof lock);
    bool ok = false;
    sv_lab_reads *res = NULL;
    if (!replay_run(&p, run, t, true, err, errlen))
        goto done;
    fill_rounds(t, &p, info);
    kernel_output(t, run, kernel_out, out_known);
    if (reads) {
        const sv_ktrace *ls = lockstep ? lockstep : run;
        if (!replay_run(&lock, ls, t, false, err, errlen))
            goto done;
        add_wants(&p, &lock, correct);
        if (!(res = malloc(sizeof *res))) {
            sv_errorf(err, errlen, "out of memory reading the kernel trace");
            goto done;
        }
        sv_schedule s = {SV_SCHEDULE_LOCKSTEP, 1};
        if (run->schedule && !sv_schedule_parse(run->schedule, &s, err, errlen))
            goto done;
        *res = (sv_lab_reads){.kernel = k, .schedule = s, .n = t->n, .nrounds = t->nrounds,
                              .reads = p.reads, .wrote = p.wrote,
                              .stopped_round = p.stopped_round,
                              .stopped_thread = p.stopped_thread};
        p.reads = NULL;
        p.wrote = NULL;
        *reads = res;
        res = NULL;
    }
    ok = true;
done:
    free(res);
    replay_free(&p);
    replay_free(&lock);
    return ok;
}

sv_trace *sv_lab_correct_trace(const sv_trace *t, char *err, size_t errlen)
{
    sv_trace *c = sv_trace_create(t->op, t->type, t->scan, t->input, t->n, SV_BACKEND_CPU, NULL,
                                  err, errlen);
    sv_ktrace *kt = c ? sv_ktrace_create("hillis_steele", t->op, t->type, t->scan, t->input,
                                         t->n, err, errlen)
                      : NULL;
    double *mag = kt ? malloc(t->n * sizeof *mag) : NULL;
    bool ok = mag != NULL;
    if (kt && !mag)
        sv_errorf(err, errlen, "out of memory");
    const size_t n = t->n;
    for (size_t r = 0; ok && r < c->nrounds; r++) {
        /* After round r its pout holds round r's windows and its pin what the
         * round before left there; round 0 stages buf[0], buf[1] unwritten. */
        sv_round *R = &c->rounds[r];
        const int b = r == 0 ? 0 : R->pout;
        ok = sv_kround_windows(kt, (int)r, R->buf[b], mag, err, errlen);
        for (size_t i = 0; ok && i < n; i++)
            R->written[b][i] = true;
        if (ok && r > 0) {
            const sv_round *P = &c->rounds[r - 1];
            memcpy(R->buf[R->pin], P->buf[R->pin], n * sizeof *R->buf[R->pin]);
            memcpy(R->written[R->pin], P->written[R->pin], n * sizeof *R->written[R->pin]);
        }
    }
    ok = ok && sv_trace_finish(c, err, errlen);
    free(mag);
    sv_ktrace_destroy(kt);
    if (!ok) {
        sv_trace_destroy(c);
        return NULL;
    }
    return c;
}
