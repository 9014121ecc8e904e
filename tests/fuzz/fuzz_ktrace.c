/* libFuzzer harness: the kernel trace loader (sv_ktrace_parse, trace file
 * version 3). Property: whatever it accepts writes back (sv_ktrace_write)
 * and parses again to the same trace (arrays, every step's cells, flags,
 * reads and writes, hazards, failure, source), and writing that gives the
 * same bytes. Anything else it must refuse with a message, never crash.
 * Build and run: tests/fuzz/run.sh ktrace SECONDS (docs/reliability.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "ktrace.h"
#include "ktrace_file.h"

static bool same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static bool same_access(const sv_kaccess *a, const sv_kaccess *b)
{
    return a->thread == b->thread && a->array == b->array && a->cell == b->cell &&
           a->value.bits == b->value.bits && a->line == b->line;
}

static bool same_step(const sv_ktrace *t, const sv_kstep *s, const sv_kstep *u)
{
    if (s->barrier_line != u->barrier_line || s->nreads != u->nreads || s->nwrites != u->nwrites)
        return false;
    for (size_t a = 0; a < t->narrays; a++)
        for (size_t c = 0; c < t->arrays[a].len; c++)
            if (s->written[a][c] != u->written[a][c] || s->wrote[a][c] != u->wrote[a][c] ||
                (s->written[a][c] && s->cells[a][c].bits != u->cells[a][c].bits))
                return false;
    for (size_t r = 0; r < s->nreads; r++)
        if (!same_access(&s->reads[r], &u->reads[r]))
            return false;
    for (size_t w = 0; w < s->nwrites; w++)
        if (!same_access(&s->writes[w].at, &u->writes[w].at) ||
            s->writes[w].first_read != u->writes[w].first_read ||
            s->writes[w].nreads != u->writes[w].nreads)
            return false;
    return true;
}

static bool same_failure(const sv_kfailure *f, const sv_kfailure *g)
{
    if (f->kind != g->kind || !same_text(f->message, g->message) || f->line != g->line ||
        f->thread != g->thread || f->step != g->step || f->array != g->array ||
        f->index != g->index || f->nwaits != g->nwaits)
        return false;
    for (size_t w = 0; w < f->nwaits; w++)
        if (memcmp(&f->waits[w], &g->waits[w], sizeof f->waits[w]) != 0)
            return false;
    return true;
}

/* The re-read trace is the first, field by field. */
static void same_ktrace(const sv_ktrace *t, const sv_ktrace *u)
{
    bool same = t->n == u->n && t->op == u->op && t->type == u->type && t->scan == u->scan &&
                t->backend == u->backend && t->runs == u->runs && t->shown_run == u->shown_run &&
                t->wrong_runs == u->wrong_runs && t->switches == u->switches &&
                same_text(t->kernel, u->kernel) && same_text(t->file, u->file) &&
                same_text(t->entry, u->entry) && same_text(t->source, u->source) &&
                same_text(t->device, u->device) && same_text(t->schedule, u->schedule) &&
                t->narrays == u->narrays && t->nsteps == u->nsteps &&
                t->nhazards == u->nhazards && t->hazards_total == u->hazards_total &&
                same_failure(&t->failure, &u->failure) && t->first_wrong == u->first_wrong &&
                t->first_broken_step == u->first_broken_step;
    for (size_t i = 0; same && i < t->n; i++)
        same = t->input[i].bits == u->input[i].bits &&
               t->output_written[i] == u->output_written[i] &&
               (!t->output_written[i] || t->output[i].bits == u->output[i].bits);
    for (size_t a = 0; same && a < t->narrays; a++)
        same = same_text(t->arrays[a].name, u->arrays[a].name) &&
               t->arrays[a].kind == u->arrays[a].kind && t->arrays[a].len == u->arrays[a].len &&
               t->arrays[a].rows == u->arrays[a].rows &&
               t->arrays[a].touched == u->arrays[a].touched;
    for (size_t k = 0; same && k < t->nsteps; k++)
        same = same_step(t, &t->steps[k], &u->steps[k]);
    for (size_t h = 0; same && h < t->nhazards; h++) {
        const sv_khazard *x = &t->hazards[h], *y = &u->hazards[h];
        same = x->kind == y->kind && x->step == y->step && x->array == y->array &&
               x->cell == y->cell && same_access(&x->first, &y->first) &&
               same_access(&x->second, &y->second);
    }
    if (!same) {
        fprintf(stderr, "the kernel trace read back differs\n");
        abort();
    }
}

FUZZ_ROUND_TRIP(sv_ktrace, sv_ktrace_parse, sv_ktrace_write, sv_ktrace_destroy, "kernel trace",
                same_ktrace, true)
