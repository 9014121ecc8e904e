/* The Blelloch reading of a kernel trace (issue 20): what each step of
 * kernels/blelloch.cu does and what each cell of its tree holds, as pure
 * functions of an analyzed sv_ktrace. The chapter's reading (rounds and
 * windows, sv_ktrace_analyze) does not describe this kernel; this one does:
 *
 *   step 0            the staging: the leaves t[i] = in[i], padding cells
 *                     n .. m - 1 the identity (m: the next power of two >= n)
 *   steps 1 .. L      the up-sweep at strides 1, 2, .., m / 2 (L = log2 m):
 *                     each right child k = 2d(j + 1) - 1 takes t[k - d] op t[k]
 *   step L + 1        the root t[m - 1] cleared to the identity
 *   steps L + 2 .. 2L + 1  the down-sweep at strides m / 2, .., 1: each pair
 *                     swaps and adds (t[k - d] = t[k], t[k] = t[k] op old t[k - d])
 *   step 2L + 2       out[i] = t[i] (exclusive) or t[i] op in[i] (inclusive)
 *
 * What a cell holds is a range of the input, op over in[lo .. hi], or the
 * identity (the sum of nothing): its subtree's sum in the up-sweep, the sum
 * of everything left of its subtree in the down-sweep. Closed forms (no
 * replay), so the window asks per cell per frame. Words name cells as the
 * kernel's tree does, "t[3]", and ranges as "[0..3]". The table
 * (ktrace_table.c) and the kernel pane (src/app/kpane*.c) ask them through
 * the reading's entry, sv_reading_blelloch (ktrace_reading.h); the compare
 * view (src/app/compare.c) asks them by name. */
#ifndef SV_KTRACE_BLELLOCH_H
#define SV_KTRACE_BLELLOCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace.h"
#include "ktrace_reading.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_bphase {
    SV_BPHASE_NONE,  /* not a step of the kernel's plan (past it, or not Blelloch) */
    SV_BPHASE_STAGE, /* the leaves staged */
    SV_BPHASE_UP,    /* an up-sweep level */
    SV_BPHASE_ROOT,  /* the root cleared */
    SV_BPHASE_DOWN,  /* a down-sweep level */
    SV_BPHASE_OUT    /* out[] written */
} sv_bphase;

typedef struct sv_bstep {
    sv_bphase phase;
    uint32_t stride;  /* d of an up or down level; 0 otherwise */
    uint32_t m;       /* the tree's leaves: the next power of two >= n */
    uint32_t levels;  /* log2 m */
} sv_bstep;

/* What a cell of the tree holds after a step. */
typedef struct sv_brange {
    bool known;       /* false: not a cell of the tree, or no plan here */
    bool empty;       /* the identity: op over no input */
    uint32_t lo, hi;  /* else op over in[lo .. hi], hi <= n - 1 */
} sv_brange;

/* Whether t is the Blelloch kernel (its file is the registry's
 * kernels/blelloch.cu, lab_registry.h's kernels beyond the chapter). */
bool sv_blelloch_is(const sv_ktrace *t);
/* The tree's array: the first shared one (its cell c is the kernel's t[c]);
 * -1 when there is none. */
int sv_blelloch_tree_array(const sv_ktrace *t);
/* The next power of two >= n (1 for n <= 1): the tree's leaves, m. */
uint32_t sv_blelloch_leaves(size_t n);
/* log2 of sv_blelloch_leaves(n): the levels of either sweep. */
uint32_t sv_blelloch_levels(size_t n);
/* Step k of t in the plan above; false (phase NONE) when t is not Blelloch
 * or k is past the plan. */
bool sv_blelloch_step(const sv_ktrace *t, size_t k, sv_bstep *out);
/* What tree cell `cell` (0 .. m - 1) holds after step k. */
sv_brange sv_blelloch_range(const sv_ktrace *t, size_t k, uint32_t cell);
/* Whether cell's range after step k is a subtree's (or a prefix's) sum
 * worth marking: two or more leaves, or the identity of a cleared or
 * handed-down cell. */
bool sv_blelloch_marked(const sv_ktrace *t, size_t k, uint32_t cell);
/* "[0..3]", "[5]" for one leaf, "[]" for the identity; "" unknown. */
char *sv_blelloch_range_text(sv_brange r, char *buf, size_t len);

/* A down-sweep swap in step k: thread x wrote both cells of its pair,
 * left = k - d takes the parent's value, right = k the parent op the old
 * left. From the trace itself: the thread's two writes, the left one
 * holding what the right one held before the step (and the reads behind
 * them, where recorded, naming both cells). The readings' exchange. */
typedef sv_rexchange sv_bswap;
/* The swap of step k whose pair holds cell (either one); false when cell
 * is in none. */
bool sv_blelloch_swap_at(const sv_ktrace *t, size_t k, uint32_t cell, sv_bswap *out);

/* The plan's combines (op applications) in step k, and through step k (the
 * first k + 1 steps): m / 2d at each level of either sweep, 2 (m - 1) in
 * the tree, none to stage or clear, n more at out[] for the inclusive scan.
 * False when there is no plan at k. */
bool sv_blelloch_ops(const sv_ktrace *t, size_t k, uint32_t *this_step, uint32_t *through);

/* ---- Words ------------------------------------------------------------------ */

/* Step k's caption: line1 what every thread does ("up-sweep, stride 2: each
 * right child takes the sum of its pair"), line2 the cells and what they
 * now hold. false (both "") when there is no plan at k. */
bool sv_blelloch_step_words(const sv_ktrace *t, size_t k, char *line1, size_t n1, char *line2,
                            size_t n2);
/* What tree cell `cell` holds after step k, in a sentence: "t[3] holds the
 * sum of in[0..3], its subtree (= 11)"; "" when unknown. */
char *sv_blelloch_cell_words(const sv_ktrace *t, size_t k, uint32_t cell, char *buf, size_t len);
/* The step's short name for the timeline: "stage", "\u21912" (up-sweep,
 * stride 2), "root", "\u21934" (down-sweep, stride 4), "out"; "" without a
 * plan. */
char *sv_blelloch_step_label(const sv_ktrace *t, size_t k, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
