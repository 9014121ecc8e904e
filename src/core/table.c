/* The trace as aligned text rows (being written: a minimal listing for now). */
#include "table.h"

void sv_trace_print_table(const sv_trace *t, FILE *f, bool colour, const char *note)
{
    (void)colour;
    char v[48];
    fprintf(f, "Hillis-Steele scan · n = %zu · %s · %s · %s\n", t->n, sv_op_name(t->op),
            sv_type_name(t->type), sv_scan_name(t->scan));
    if (note && *note)
        fprintf(f, "%s\n", note);
    for (size_t r = 0; r < t->nrounds; r++) {
        for (int b = 0; b < 2; b++) {
            fprintf(f, "round %zu buf[%d]:", r, b);
            for (size_t i = 0; i < t->n; i++)
                fprintf(f, " %s", t->rounds[r].written[b][i]
                                      ? sv_value_format(t->type, t->rounds[r].buf[b][i], v, sizeof v) : "?");
            fprintf(f, "\n");
        }
    }
}
