/* Divergence within a warp (issue 30), read from a kernel trace's recorded
 * accesses: in one step, the lanes of a warp that ran a source line (made an
 * access of memory at it) against the warp's lanes that made any access in
 * the step. A line some of those lanes ran and others did not is where the
 * warp diverged: the others waited while it ran (independent thread
 * scheduling runs the two sides one after the other). Only lines with an
 * access are seen (the CPU runtime records the line of every access; a
 * branch of pure register arithmetic is not); a trace without reads (the
 * GPU's) has none. Derived: never read from a file, always recomputed. */
#ifndef SV_KTRACE_DIVERGE_H
#define SV_KTRACE_DIVERGE_H

#include <stddef.h>
#include <stdint.h>

#include "ktrace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_kdiverge {
    uint32_t warp;   /* threads 32 * warp .. 32 * warp + 31 */
    int32_t line;    /* the kernel file's line (> 0) */
    uint32_t ran;    /* bit i: lane i made an access at line in the step */
    uint32_t lanes;  /* bit i: lane i made any access in the step (ran is within it) */
} sv_kdiverge;

/* Step k's divergent lines, by warp, then line: writes up to max of them
 * into out (out may be NULL when max is 0) and returns how many there are.
 * 0 when k is past the steps or the trace recorded no accesses. */
size_t sv_ktrace_divergence(const sv_ktrace *t, size_t k, sv_kdiverge *out, size_t max);

/* "lanes 1-31", "lane 0", "lanes 0, 2, 4-7" of a mask (at most len bytes). */
char *sv_lanes_words(uint32_t mask, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
