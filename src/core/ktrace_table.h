/* A kernel trace as text, for scanviz-trace --kernel-file and --open of a
 * kernel trace file. */
#ifndef SV_KTRACE_TABLE_H
#define SV_KTRACE_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "ktrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hazards the table lists in words (all are counted). */
#define SV_KTRACE_TABLE_HAZARDS 5
#define SV_KTRACE_TABLE_PRINTS 64 /* printf calls listed (the JSON has all) */
/* Steps the table prints at most: the first ones and the last four. */
#define SV_KTRACE_TABLE_STEPS 64
/* Cells of a step and of the output the table prints at most (a host
 * function's n may be 2^20): the first ones, and the output's line of its
 * first wrong cell. */
#define SV_KTRACE_TABLE_CELLS 4096

/* Prints an analyzed t: a header (kernel, entry, n, op, type, scan, how it
 * ran) and note (escaped; may be NULL), each step's touched arrays with the
 * chapter's reading where it applies (at most SV_KTRACE_TABLE_STEPS steps:
 * the first ones and the last four; SV_KTRACE_TABLE_CELLS cells), out[]
 * against the expected scan, and
 * the diagnosis (failure, output, invariant, hazards). colour: ANSI bold and
 * dim for headings. */
void sv_ktrace_print_table(const sv_ktrace *t, FILE *f, bool colour, const char *note);

#ifdef __cplusplus
}
#endif

#endif
