/* The mistakes lab's statement-level emulator: runs a registry kernel
 * (lab_registry.h) under a schedule (lab_schedule.h), records which write
 * every read saw, and says it in words. This header is the emulator's whole
 * interface, so that a runtime running the kernels' own code can take its
 * place (src/runtime/runtime.h).
 *
 * The statement model (one thread i, as the files in kernels/mistakes write it):
 *   round 0:  LOAD buf[0][i] = in[i]; BARRIER; DUMP
 *   round r:  SWAP; GUARD; [taken] READ a = pin[i-s]; READ b = pin[i];
 *             OP v = a op b; WRITE pout[i] = v; [else] READ v = pin[i];
 *             WRITE pout[i] = v; BARRIER; DUMP
 *   end:      COPY BACK out[i] = buf[pout][i]
 * A mistake removes or changes statements (no BARRIER, no else, one buffer,
 * guard i > s). Statements a thread does not take are predicated off: the
 * thread still steps over them, as a warp does. DUMP is the instrumentation:
 * the thread records its own cells after the round (only thread i ever
 * writes cell i, in every kernel here, so this is exact). */
#ifndef SV_LAB_EMULATE_H
#define SV_LAB_EMULATE_H

#include "lab_registry.h"
#include "lab_schedule.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_read_slot {
    SV_READ_LEFT, /* a = pin[i - stride] (the guard taken) */
    SV_READ_SELF, /* b = pin[i], or the else branch's copy of pin[i] */
    SV_READ_SLOTS
} sv_read_slot;

/* One read of shared memory by one thread in one round. writer is the
 * thread whose write the read saw and writer_round the round of that write
 * (0: the load); writer -1: the cell was never written (value unknown, `?`).
 * want_* is what the same read sees under lockstep (the write it was meant
 * to see); correct is the value the chapter's kernel reads there. A read
 * out of range (no guard: pin[i - stride] with i < stride) reads no cell:
 * out_of_range, index < 0, value `?`, writer -1; the chapter's kernel makes
 * no such read (correct is 0). */
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
    sv_value want;
    bool want_known;
    int32_t want_writer;
    int want_round;
    sv_value correct;
} sv_lab_read;

/* One emulated run: what every read saw. Owned by the caller of
 * sv_lab_emulate(); free with sv_lab_reads_destroy(). */
typedef struct sv_lab_reads {
    sv_kernel kernel;
    sv_schedule schedule;
    size_t n, nrounds;
    sv_lab_read *reads;  /* [(round * n + thread) * SV_READ_SLOTS + slot]; round 0 has none */
    bool *wrote;         /* [round * n + thread]: the thread wrote its pout cell this round */
} sv_lab_reads;

void sv_lab_reads_destroy(sv_lab_reads *r); /* accepts NULL */
const sv_lab_read *sv_lab_reads_at(const sv_lab_reads *r, size_t round, size_t thread,
                                   sv_read_slot slot);

/* Runs kernel k (a row with a statement model) under schedule s on t->input (t from sv_trace_create: op,
 * type, n, rounds set) and fills every round's buffers and written flags the
 * way the instrumentation sees them (each thread's own cells after its round;
 * written false = `?`); for a one-buffer kernel pin == pout == 0 and buf[1]
 * stays unwritten. Does not call sv_trace_finish(). When reads is not NULL,
 * *reads gets what every read saw (the caller destroys it). kernel_out, when
 * not NULL, gets n values the kernel's copy back wrote, and out_known which
 * of them are known. Returns false with err filled for a row without a
 * statement model (a kernel file: the runtime runs it) or on allocation
 * failure. */
bool sv_lab_emulate(sv_trace *t, sv_kernel k, sv_schedule s, sv_lab_reads **reads,
                    sv_value *kernel_out, bool *out_known, char *err, size_t errlen);

/* Says in words what the read saw, e.g. "round 2: thread 5 read buf[3] = 15
 * after thread 3 had overwritten it in this round; it should have read 11",
 * or that it was out of range. Returns false (buf "") when the thread made
 * no such read. */
bool sv_lab_read_describe(const sv_lab_reads *r, sv_type type, size_t round, size_t thread,
                          sv_read_slot slot, char *buf, size_t len);

/* Says in words why thread i's pout cell is what it is after round r: the
 * first read that saw the wrong write, a write that did not happen (no else,
 * off-by-one), or "as the chapter's kernel". */
void sv_lab_cell_describe(const sv_lab_reads *r, const sv_trace *t, size_t round, size_t i,
                          char *buf, size_t len);

/* The chapter's kernel's finished trace of t's input, op, type and scan
 * (emulated in lockstep): the correct values of a lab run. NULL with err
 * filled on failure. */
sv_trace *sv_lab_correct_trace(const sv_trace *t, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
