/* Rows of cells as aligned text, the part the two tables share (table.c
 * for the chapter's trace, ktrace_table.c for a kernel file's): a label
 * column, then one right-aligned column per cell. */
#ifndef SV_TEXT_ROWS_H
#define SV_TEXT_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define SV_ROWS_LABEL_WIDTH 14

/* The row's label, padded to the label column. */
void sv_rows_label(FILE *f, const char *text);
/* The "cell" row: the indexes lo .. hi-1, each in a column of width
 * characters, dimmed when colour. */
void sv_rows_index(FILE *f, bool colour, int width, size_t lo, size_t hi);

#endif
