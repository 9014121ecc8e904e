/* Rows of cells as aligned text (text_rows.h). */
#include "text_rows.h"

void sv_rows_label(FILE *f, const char *text)
{
    fprintf(f, "  %-*s", SV_ROWS_LABEL_WIDTH, text);
}

void sv_rows_index(FILE *f, bool colour, int width, size_t lo, size_t hi)
{
    if (colour)
        fputs("\x1b[2m", f);
    sv_rows_label(f, "cell");
    for (size_t i = lo; i < hi; i++)
        fprintf(f, " %*zu", width, i);
    if (colour)
        fputs("\x1b[0m", f);
    fputc('\n', f);
}
