/* The readings of a kernel trace (issue 29): what a step of some algorithm
 * means, as a small table. A trace holds what a kernel did (ktrace.h); a
 * reading says what that was in an algorithm's terms: the chapter's rounds
 * (Hillis-Steele, ktrace_analyze.c), Blelloch's tree (ktrace_blelloch.c),
 * or none. sv_ktrace_analyze picks the first entry of sv_readings whose
 * detect holds and keeps it in t->reading; the kernel pane, its words, the
 * overview, the legend and the text table ask that entry, never a name.
 *
 * A reading's hooks are optional: NULL (or false) leaves the pane's and the
 * table's own words of what the trace did. Those words read the chapter's
 * rounds where t->readings has them, which only a reading with `rounds`
 * keeps; so the chapter's entry needs few hooks and `none` none at all.
 *
 * A new reading: one file defining its `const sv_reading` (ktrace_blelloch.c
 * is the example), named in src/core/meson.build, and its line in
 * sv_readings (ktrace_reading.c). */
#ifndef SV_KTRACE_READING_H
#define SV_KTRACE_READING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a reading draws over step k of its array, beside the cells. */
typedef struct sv_rstep {
    int32_t array;          /* the array its marks are on (an index into t->arrays) */
    uint32_t cells;         /* its cells 0 .. cells - 1 may carry a mark (sv_reading.mark) */
    bool second_tone;       /* the marks say what lies left of a cell (Blelloch's
                               down-sweep): drawn in the theme's second tone */
    bool exchanges;         /* cells of the array swap in pairs (sv_reading.exchange_at) */
    int64_t ring;           /* a cell ringed and named with ring_words; -1 none */
    const char *ring_words; /* "root cleared" */
} sv_rstep;

/* Two cells one thread exchanged in a step: left took what right held
 * (parent), right took that combined with what left held (old_left), as
 * Blelloch's down-sweep does. */
typedef struct sv_rexchange {
    uint32_t thread;
    uint32_t left, right;      /* cells of the reading's array */
    sv_value parent, old_left; /* what right and left held before the step */
} sv_rexchange;

/* One entry of a reading's legend: a mark in the accent colour, its words. */
typedef struct sv_rlegend {
    const char *mark;       /* "[0..3]" */
    char words[96];
} sv_rlegend;
#define SV_READING_LEGEND_MAX 4

typedef struct sv_reading {
    const char *name;       /* "hillis-steele", "blelloch", "none" */
    /* Whether t is this algorithm's, from what the trace holds. Called by
     * sv_ktrace_analyze after the chapter's reading of each step (t->readings
     * filled) and before anything else is derived from the pick. */
    bool (*detect)(const sv_ktrace *t);
    /* Keeps the chapter's reading of each step (t->readings, the cases,
     * cell_wrong, first_broken_step); without it analyze clears them: the
     * chapter's rounds do not describe another algorithm's steps. */
    bool rounds;
    const char *title;      /* the kernel pane's header title; NULL: "Your kernel" */

    /* All hooks below may be NULL. */
    /* Step k's caption in the reading's words, line1 what every thread
     * does, line2 what the cells now hold; false: none here. */
    bool (*step_words)(const sv_ktrace *t, size_t k, char *line1, size_t n1, char *line2,
                       size_t n2);
    /* The step's timeline label ("r2", "\u21912", "root"); "" none. */
    char *(*step_label)(const sv_ktrace *t, size_t k, char *buf, size_t len);
    /* What cell `cell` holds after step k, in a sentence (asked for the cells
     * of every array row); "" none. */
    char *(*cell_words)(const sv_ktrace *t, size_t k, uint32_t cell, char *buf, size_t len);
    /* The counters' line of step k: writes and hazards as the pane counted
     * them; false: the pane's own line. */
    bool (*counters)(const sv_ktrace *t, size_t k, size_t writes, size_t hazards, char *buf,
                     size_t len);
    /* A pane row's name for row r (rowlen cells) of array a ("t"); false:
     * the array's own. */
    bool (*row_name)(const sv_ktrace *t, uint32_t a, uint32_t r, uint32_t rowlen, char *buf,
                     size_t len);
    /* What step k draws over the cells; false: nothing. */
    bool (*marks)(const sv_ktrace *t, size_t k, sv_rstep *out);
    /* The mark of cell `cell` of its array (sv_rstep.array) after step k
     * ("[0..3]"); false: none. */
    bool (*mark)(const sv_ktrace *t, size_t k, uint32_t cell, char *buf, size_t len);
    /* The exchange in step k whose pair holds cell `cell` of its array;
     * false: none. */
    bool (*exchange_at)(const sv_ktrace *t, size_t k, uint32_t cell, sv_rexchange *out);
    /* The legend in place of the chapter's cases (its entries, at most
     * SV_READING_LEGEND_MAX); 0: the chapter's legend. */
    size_t (*legend)(const sv_ktrace *t, sv_rlegend *out);
    /* The text table's line after the output's (what the whole run did);
     * false: the chapter's invariant line. */
    bool (*summary)(const sv_ktrace *t, char *buf, size_t len);
} sv_reading;

/* The table in the order it is tried (its entries each defined beside
 * their reading); the last entry is none, whose detect always holds. */
extern const sv_reading *const sv_readings[];

/* The first entry of sv_readings whose detect holds for t. */
const sv_reading *sv_reading_pick(const sv_ktrace *t);
/* t's reading as sv_ktrace_analyze picked it: none when t is NULL or was
 * not analyzed. Never NULL. */
const sv_reading *sv_reading_of(const sv_ktrace *t);

#ifdef __cplusplus
}
#endif

#endif
