/* The trace of one Hillis-Steele scan: every round's double buffer, each
 * cell's invariant case and window. Backends (the CPU emulator, the CUDA
 * kernel) fill only the buffers; sv_trace_finish() derives everything else,
 * so both backends are annotated by the same code.
 *
 * Round 0 stages the input into buf[0]; buf[1] is uninitialized. Round r >= 1
 * has stride s = 2^(r-1), reads pin = buf[(r-1) % 2], writes pout = buf[r % 2]:
 * pout[i] = pin[i-s] op pin[i] for i >= s, else pin[i]. Rounds run while s < n.
 * After round r, pout[i] = op over input[max(0, i-2^r+1) .. i]. */
#ifndef SV_TRACE_H
#define SV_TRACE_H

#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_case {
    SV_CASE_COPY,    /* i < 2^(r-1): no left neighbour at this stride, copied through */
    SV_CASE_PARTIAL, /* 2^(r-1) <= i < 2^r - 1: the window reaches position 0 */
    SV_CASE_FULL     /* i >= 2^r - 1: a full window of 2^r elements */
} sv_case;

typedef enum sv_backend {
    SV_BACKEND_CPU,
    SV_BACKEND_CUDA
} sv_backend;

typedef struct sv_round {
    int round;          /* 0 = staging */
    uint32_t stride;    /* 2^(round-1); 0 for round 0 */
    int pin, pout;      /* buffer indices 0/1; -1 for round 0 */
    sv_value *buf[2];   /* both buffers after this round, n cells each */
    bool *written[2];   /* false where a cell was never written (shown as ?) */
    /* Filled by sv_trace_finish(), for round >= 1 (NULL for round 0): */
    sv_case *cases;     /* case of each pout cell */
    uint32_t *window_lo; /* pout[i] holds op over input[window_lo[i] .. i] */
    bool *overflow;     /* int32 sum/product: pout[i] wrapped this round */
    size_t ops;         /* operations this round: n - stride */
    size_t overflow_count;
} sv_round;

typedef struct sv_trace {
    sv_op op;
    sv_type type;
    sv_scan scan;
    size_t n;
    sv_backend backend;
    char *device;       /* GPU name, NULL for the CPU emulator */
    sv_value *input;    /* n */
    size_t nrounds;     /* including round 0: 1 + ceil(log2(n)) */
    sv_round *rounds;
    /* Filled by sv_trace_finish(): */
    sv_value *inclusive; /* n: the last round's pout (buf[0] when n == 1) */
    sv_value *output;    /* n: inclusive, or for SV_SCAN_EXCLUSIVE the
                            inclusive shifted right with the identity in front */
    size_t total_ops;    /* sum of the rounds' ops */
    size_t overflow_count; /* int32: cells that wrapped, all rounds */
    double max_abs_diff; /* float32: largest |output - sequential scan|; 0 for int32 */
    size_t max_diff_index;
    /* The mistakes lab (lab_record.h): kernel, schedule or GPU runs, per-cell
     * outcomes, hazards. NULL for a plain capture of the chapter's kernel.
     * Owned: sv_trace_destroy() frees it. */
    struct sv_lab_record *lab;
    /* The kernel trace these rounds are a reading of (ktrace.h, analyzed):
     * the run a capture made (for the lab, its shown run) or a version 3
     * file's; a version 2 file's rounds as the kernel trace they imply
     * (sv_ktrace_of_rounds; NULL for a lab's). NULL for a trace built by
     * hand (the tests' emulator). Owned: sv_trace_destroy() frees it. */
    struct sv_ktrace *run;
} sv_trace;

/* Rounds for n elements, round 0 included: 1 + ceil(log2(n)). */
size_t sv_round_count(size_t n);

/* The chapter's case of cell i in round r >= 1. */
sv_case sv_case_of(int round, size_t i);
const char *sv_case_name(sv_case c); /* "copy", "partial", "full" */
bool sv_case_from_name(const char *name, sv_case *out);

const char *sv_backend_name(sv_backend b); /* "cpu", "cuda" */

/* Allocates a trace for input[0..n) with every round's metadata set (round,
 * stride, pin, pout) and every buffer cell unwritten. device may be NULL.
 * Returns NULL with err filled when n is 0 or above SV_MAX_N, or op is not
 * defined on type. The caller frees it with sv_trace_destroy(). */
sv_trace *sv_trace_create(sv_op op, sv_type type, sv_scan scan,
                          const sv_value *input, size_t n,
                          sv_backend backend, const char *device,
                          char *err, size_t errlen);
void sv_trace_destroy(sv_trace *t); /* accepts NULL */

/* The input alone, for n up to SV_MAX_N_BLOCKS (issue 31): a kernel file
 * whose host function launches many blocks scans more values than the
 * chapter's one block can, and the window keeps its input, op and scan in a
 * trace. It has the staging round only (buf[0] the input) and is not
 * finished: its inclusive and output are the sequential scan's. NULL with
 * err filled as sv_trace_create()'s. */
sv_trace *sv_trace_create_input(sv_op op, sv_type type, sv_scan scan, const sv_value *input,
                                size_t n, char *err, size_t errlen);

/* Derives cases, windows, ops, overflow, the output and the float difference
 * from the buffers a backend filled. Idempotent. Returns false (err filled)
 * only on allocation failure. */
bool sv_trace_finish(sv_trace *t, char *err, size_t errlen);

/* Checks the chapter's invariant and the double-buffer discipline on a
 * finished trace: round 0 holds the input in buf[0]; in round r pin is
 * unchanged, copy cells equal pin, every pout cell holds op over its window
 * (exactly for int32 and for max/min; for float32 sum and product bit for bit
 * the one binary32 operation pin[i-stride] op pin[i]), and the output is the
 * scan of the input. Returns false with
 * err naming the first round, buffer, cell and values that break it. */
bool sv_trace_check(const sv_trace *t, char *err, size_t errlen);

/* Where sv_trace_check_at() found the first break: a round's buffer cell
 * (round >= 0), or the output (round == -1, buf == -1; cell is the index
 * into output, or into inclusive when inclusive is true). */
typedef struct sv_check_loc {
    int round;
    int buf;
    size_t cell;
    bool inclusive;
} sv_check_loc;

/* sv_trace_check() that also says where (loc may be NULL). */
bool sv_trace_check_at(const sv_trace *t, char *err, size_t errlen, sv_check_loc *loc);

/* Bit-identity of two traces' inputs, buffers and written flags (backend and
 * device may differ). Returns false with diff naming the first difference. */
bool sv_trace_equal(const sv_trace *a, const sv_trace *b, char *diff, size_t difflen);

#ifdef __cplusplus
}
#endif

#endif
