/* What every read of one lab run saw: per round, thread and slot (LEFT, the
 * add's pin[i - stride]; SELF, its pin[i] or the else branch's copy), the
 * cell read, its value, whose write it saw in which round, and what the same
 * read sees in lockstep; and the words that say it. Plain data (a lab record
 * owns the shown run's, lab_record.h) made from a kernel trace of the
 * runtime (lab_ktrace.h). */
#ifndef SV_LAB_READS_H
#define SV_LAB_READS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab_registry.h"
#include "lab_schedule.h"
#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_read_slot {
    SV_READ_LEFT, /* a = pin[i - stride] (the guard taken) */
    SV_READ_SELF, /* b = pin[i] (pout[i] for pout-accumulate), or the else branch's copy */
    SV_READ_SLOTS
} sv_read_slot;

/* One read of shared memory by one thread in one round. writer is the
 * thread whose write the read saw and writer_round the round of that write
 * (0: the load); writer -1: the cell was never written (value unknown, `?`).
 * want_* is what the same read sees under lockstep (the write it was meant
 * to see); correct is the value the chapter's kernel reads there. A read
 * out of range (no guard: pin[i - stride] with i < stride) reads no cell:
 * out_of_range, index < 0, value `?`, writer -1 (the runtime stops the run
 * there); the chapter's kernel makes no such read (correct is 0). */
typedef struct sv_lab_read {
    bool done;            /* false: this thread made no such read this round */
    bool out_of_range;    /* index is left of the buffer's first cell */
    int buf;              /* 0 or 1 */
    int32_t index;        /* the index the thread read: cell, or < 0 out of range */
    uint32_t cell;        /* the cell read (0 out of range) */
    sv_value value;
    bool known;           /* false: the value is `?` */
    int32_t writer;
    int writer_round;
    /* The last write to the cell before the read, whatever it wrote: the
     * writer above keeps the write that put the value there (a write of the
     * same value, such as a copy that changes nothing, keeps it, so no race
     * is read into it); the words that say who last wrote the cell name
     * this one. -1 / -1: never written. */
    int32_t last_writer;
    int last_round;
    sv_value want;
    bool want_known;
    int32_t want_writer;
    int want_round;
    sv_value correct;
} sv_lab_read;

/* One run: what every read saw. Free with sv_lab_reads_destroy(). */
typedef struct sv_lab_reads {
    sv_kernel kernel;
    sv_schedule schedule;
    size_t n, nrounds;
    sv_lab_read *reads;  /* [(round * n + thread) * SV_READ_SLOTS + slot]; round 0 has none */
    bool *wrote;         /* [round * n + thread]: the thread wrote its pout cell this round */
    /* Where the run stopped (no-guard's read out of range): the round and the
     * thread; stopped_round -1 when it ran to the end. Rounds from
     * stopped_round on hold only the writes made before it stopped. */
    int stopped_round;
    int32_t stopped_thread;
} sv_lab_reads;

void sv_lab_reads_destroy(sv_lab_reads *r); /* accepts NULL */
const sv_lab_read *sv_lab_reads_at(const sv_lab_reads *r, size_t round, size_t thread,
                                   sv_read_slot slot);

/* The operations thread reads of round `round` show: the threads that read
 * both operands (a read out of range is none). 0 for round 0, a round the
 * run never reached, or r NULL. */
size_t sv_lab_reads_ops(const sv_lab_reads *r, size_t round);

/* Says in words what the read saw, e.g. "round 2: thread 5 read buf[3] = 15
 * after thread 3 had overwritten it; it should have read 11", or that it was
 * out of range. Returns false (buf "") when the thread made no such read. */
bool sv_lab_read_describe(const sv_lab_reads *r, sv_type type, size_t round, size_t thread,
                          sv_read_slot slot, char *buf, size_t len);

/* Says in words why thread i's pout cell is what it is after round r: the
 * first read that saw the wrong write, a write that did not happen (no else,
 * off-by-one, the run stopped), or "as the chapter's kernel". */
void sv_lab_cell_describe(const sv_lab_reads *r, sv_type type, size_t round, size_t i,
                          char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
