/* The kernel on screen: the CUDA source files embedded at build time (the
 * very files nvcc compiles), split into lines, coloured by a small C/CUDA
 * lexer, and mapped to the phases of a round (view.h: sv_phase) by
 * searching their code, so that the mapping survives edits to the file.
 *
 * Contract:
 *  - sv_source_get() returns a parsed, immutable file (parsed once, kept for
 *    the process; safe to call from the drawing code every frame). It never
 *    fails for a known id: an empty file parses to zero lines.
 *  - Lines are 1-based everywhere (as the panel numbers them); 0 is "none".
 *  - Plain C, no SDL or GL: render_source.c draws it, tests read it. */
#ifndef SV_SOURCE_H
#define SV_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "view.h"

/* The kind of a span of text, for colouring. */
typedef enum sv_tok {
    SV_TOK_PLAIN,
    SV_TOK_KEYWORD,   /* if else for return ... and CUDA's __global__ __syncthreads */
    SV_TOK_TYPE,      /* int bool T unsigned ... */
    SV_TOK_NUMBER,
    SV_TOK_STRING,
    SV_TOK_COMMENT,
    SV_TOK_PREPROC,   /* #include ... */
    SV_TOK_COUNT
} sv_tok;

typedef struct sv_source_span {
    size_t start, len;  /* bytes into the line */
    sv_tok tok;
} sv_source_span;

typedef struct sv_source_line {
    const char *text;   /* the line, without its newline (not NUL-terminated: len) */
    size_t len;
    size_t first_span, nspans; /* into sv_source_file.spans */
    bool changed;       /* differs from the correct kernel (mistakes only) */
} sv_source_line;

typedef struct sv_source_file {
    const char *path;   /* "kernels/hillis_steele.cu" */
    int nlines;
    const sv_source_line *lines;  /* [nlines] */
    const sv_source_span *spans;
    int kernel_line;    /* the line of `__global__` (where the panel starts), 1 if none */
} sv_source_file;

/* The embedded file at index k of the table (0: the chapter's kernel, then
 * the mistakes in the registry's order); NULL when out of range. */
const sv_source_file *sv_source_get(int k);
/* The index of the embedded file at path ("kernels/mistakes/in_place.cu",
 * as the kernel registry, src/core/lab_registry.h, names it), or -1 when it
 * was not in the tree at build time. */
int sv_source_find(const char *path);

/* The lines [*lo, *hi] (1-based) that phase p does in round `round` of f
 * (the barrier of round 0 is the one after the load, of the others the
 * one in the loop). false, with both 0, when the file has no such code
 * (a mistake that removed the barrier, say). */
bool sv_source_phase_lines(const sv_source_file *f, sv_phase p, int round, int *lo, int *hi);

/* The phases of step `step` of t, in order, into out[SV_PHASE_COUNT]:
 * round 0 loads and waits; round r >= 1 guards, computes and waits; every
 * round but the last then swaps; after the last round (or in the exclusive
 * shift step) the result is copied back. Returns how many. */
int sv_phases_of(const sv_trace *t, int step, sv_phase *out);

/* "load", "guard", "add", "barrier", "swap", "copy back"; "" for NONE. */
const char *sv_phase_name(sv_phase p);

#endif
