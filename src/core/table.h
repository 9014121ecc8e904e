/* The trace as aligned text rows: each round's buffers with every cell's
 * case visible without colour (markers), and ANSI colour when asked. */
#ifndef SV_TABLE_H
#define SV_TABLE_H

#include <stdio.h>
#include "trace.h"

/* Writes the table to f; colour adds ANSI colours for the cases. note, when
 * not NULL or "", is printed under the title (e.g. why the emulator ran). */
void sv_trace_print_table(const sv_trace *t, FILE *f, bool colour, const char *note);

/* The one notation for every float32 of t (op.h: sv_float_style), which the
 * table and the overview use: positional unless a value (input, a written
 * cell, output) needs an exponent. SV_FLOAT_SHORTEST for int32. */
sv_float_style sv_trace_float_style(const sv_trace *t);

#endif
