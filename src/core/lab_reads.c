/* What every read of a lab run saw, and the words for it (lab_reads.h). */
#include "lab_reads.h"

#include <stdio.h>
#include <stdlib.h>

static size_t stride_of(size_t round)
{
    return round >= 1 ? (size_t)1 << (round - 1) : 0;
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

size_t sv_lab_reads_ops(const sv_lab_reads *r, size_t round)
{
    size_t ops = 0;
    for (size_t i = 0; r && round >= 1 && round < r->nrounds && i < r->n; i++) {
        const sv_lab_read *a = sv_lab_reads_at(r, round, i, SV_READ_LEFT);
        const sv_lab_read *b = sv_lab_reads_at(r, round, i, SV_READ_SELF);
        ops += a->done && !a->out_of_range && b->done && !b->out_of_range;
    }
    return ops;
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
                 "out of range, and the run stopped there (value unknown, ?); the chapter's "
                 "guard i >= stride skips this read", round, thread, name);
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
        /* who last wrote the cell (a copy of the same value included), not
         * the write the value first came from */
        int32_t w = x->last_writer >= 0 ? x->last_writer : x->writer;
        int wr = x->last_writer >= 0 ? x->last_round : x->writer_round;
        snprintf(p, left, ", written by thread %d in round %d, a value already wrong; the "
                 "chapter's kernel reads %s", (int)w, wr, corr);
    } else {
        snprintf(p, left, ", as the chapter's kernel does");
    }
    return true;
}

void sv_lab_cell_describe(const sv_lab_reads *r, sv_type type, size_t round, size_t i,
                          char *buf, size_t len)
{
    if (len)
        buf[0] = '\0';
    if (!r || round >= r->nrounds || i >= r->n || len == 0)
        return;
    if (round == 0) {
        snprintf(buf, len, "round 0: thread %zu staged input[%zu] into buf[0][%zu]", i, i, i);
        return;
    }
    const sv_kernel_info *info = sv_kernel_get(r->kernel);
    size_t s = stride_of(round);
    const sv_lab_read *left = sv_lab_reads_at(r, round, i, SV_READ_LEFT);
    if (left->done && left->out_of_range) {
        sv_lab_read_describe(r, type, round, i, SV_READ_LEFT, buf, len);
        return;
    }
    if (!r->wrote[round * r->n + i] && r->stopped_round >= 0 && (int)round == r->stopped_round) {
        snprintf(buf, len, "round %zu: the run stopped in round %d, when thread %d read out of "
                 "range, with no write of thread %zu's kept (?: the round never finished)",
                 round, r->stopped_round, (int)r->stopped_thread, i);
        return;
    }
    if (r->stopped_round >= 0 && (int)round > r->stopped_round) {
        snprintf(buf, len, "round %zu never ran: the run stopped in round %d, when thread %d "
                 "read out of range; thread %zu's cell holds what the run left there", round,
                 r->stopped_round, (int)r->stopped_thread, i);
        return;
    }
    if (!r->wrote[round * r->n + i] && info->has_else && !info->double_buffer && i < s) {
        snprintf(buf, len, "round %zu: thread %zu's copy buf[%zu] = buf[%zu] changes nothing, and "
                 "the compiled kernel leaves it out: the cell keeps its value", round, i, i, i);
        return;
    }
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
            sv_lab_read_describe(r, type, round, i, (sv_read_slot)slot, buf, len);
            return;
        }
    }
    snprintf(buf, len, "round %zu: thread %zu read what the chapter's kernel reads", round, i);
}
