/* The chapter's rounds in registers (issue 30): a shuffle's rows
 * (SV_KARRAY_REG: row r the values the lanes sent the r-th time they ran
 * one __shfl*_sync line) read as Hillis-Steele's rounds within each warp.
 * A warp's shuffle scan sends in[i] first and, after the round of delta
 * s = 2^(r-1), v = v op v(lane - s) where lane >= s: row r holds round r,
 * each lane's window of its own warp. The reading applies where row 0 is
 * the input and row 1 round 1 (the pattern), or row 0 the input and the
 * output wrong (a round skipped: broken at row 1). With the output wrong
 * a row off its round is broken at its first lane (or unwritten one);
 * with it right the reading ends there (a second scan at the same line). Pure, from the trace's last step; needs
 * t->first_wrong (sv_ktrace_analyze computes it first). */
#ifndef SV_KTRACE_SHUFFLE_H
#define SV_KTRACE_SHUFFLE_H

#include <stdbool.h>
#include <stdint.h>

#include "ktrace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_kregrounds {
    bool fits;             /* rows 0 and 1 are the input and round 1 */
    uint32_t rows;         /* the rows read (from 0): the array's, or fewer where a right
                              output's rows leave the rounds (then something else) */
    int32_t broken_row;    /* the first row off its round, -1 none */
    uint32_t broken_cell;  /* its first lane off it (a thread) */
    sv_value holds, want;  /* what that cell holds and its round's value */
} sv_kregrounds;

/* Reads register array a (false: a is no register array, or it does not fit). */
bool sv_ktrace_reg_rounds(const sv_ktrace *t, uint32_t a, sv_kregrounds *out);

/* Register array a's reading where it fits (sv_ktrace_analyze kept it in
 * t->regrounds, one per array), else NULL: a is no register array, the
 * trace is not analyzed, or its rows are not the rounds. */
const sv_kregrounds *sv_ktrace_reg_reading(const sv_ktrace *t, uint32_t a);

/* The case of cell `cell` (thread) in row r of a register array that fits:
 * copy (lane below the round's delta), partial (its window reaches its
 * warp's first lane) or full; row 0 has none (false). */
bool sv_kreg_case(uint32_t row, uint32_t cell, sv_case *cs);

#ifdef __cplusplus
}
#endif

#endif
