/* The record a lab trace carries and its summary: destroy, and the
 * schedule of each emulated run. */
#include "lab_record.h"

#include <stdlib.h>

void sv_lab_summary_destroy(sv_lab_summary *s)
{
    if (!s)
        return;
    if (s->cells)
        for (size_t j = 0; j < s->n * s->nrounds; j++)
            free(s->cells[j].values);
    free(s->cells);
    free(s->first_diverged);
    free(s);
}
/* ---- Records -------------------------------------------------------------- */

void sv_lab_record_destroy(sv_lab_record *r)
{
    if (!r)
        return;
    sv_lab_summary_destroy(r->summary);
    sv_racecheck_destroy(r->racecheck);
    sv_lab_reads_destroy(r->reads);
    free(r);
}

sv_schedule sv_lab_run_schedule(const sv_lab_record *r, uint32_t run)
{
    sv_schedule s = r->schedule;
    if (s.kind == SV_SCHEDULE_RANDOM || s.kind == SV_SCHEDULE_WARPS)
        s.seed += run;
    return s;
}
