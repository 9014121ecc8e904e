/* The mistakes lab's part of the text table (sv_lab_print_table): what ran,
 * how often it went wrong, each divergent cell's values with their counts,
 * in words why (emulated runs know which write each read saw), where a run
 * stopped (no-guard's read out of range), and the
 * racecheck hazards mapped to rounds, cells and threads. */
#include "lab.h"
#include "escape.h"

#include <inttypes.h>
#include <stdlib.h>

static const char *val(const sv_trace *t, sv_value v, bool known, char *buf, size_t len)
{
    if (!known)
        return snprintf(buf, len, "?"), buf;
    return sv_value_format(t->type, v, buf, len);
}

void sv_lab_print_table(const sv_trace *t, FILE *f)
{
    const sv_lab_record *L = t->lab;
    const sv_lab_summary *s = L ? L->summary : NULL;
    if (!s)
        return;
    const sv_kernel_info *k = sv_kernel_get(L->kernel);
    char a[48], b[48], sched[48];
    fprintf(f, "\nMistakes lab · kernel %s (%s): %s\n", k->name, k->file, k->label);
    if (L->emulated)
        fprintf(f, "  emulated, schedule %s, %u run%s%s\n",
                sv_schedule_format(L->schedule, sched, sizeof sched), (unsigned)L->runs,
                L->runs == 1 ? "" : "s",
                L->runs > 1 && (L->schedule.kind == SV_SCHEDULE_RANDOM ||
                                L->schedule.kind == SV_SCHEDULE_WARPS)
                    ? " (run k uses seed S + k)" : "");
    else
        fprintf(f, "  GPU, %u run%s%s%s, %.0f us in all\n", (unsigned)L->runs,
                L->runs == 1 ? "" : "s", L->shake ? ", shaken, seed " : ", not shaken",
                L->shake ? (snprintf(sched, sizeof sched, "%" PRIu64, L->shake_seed), sched) : "",
                L->wall_us);
    fprintf(f, "  wrong output in %u of %u runs; %u distinct output%s", (unsigned)s->wrong_runs,
            (unsigned)L->runs, (unsigned)s->distinct_outputs, s->distinct_outputs == 1 ? "" : "s");
    if (s->first_wrong_cell >= 0)
        fprintf(f, "; first wrong output cell %d", s->first_wrong_cell);
    if (s->first_wrong_round >= 0)
        fprintf(f, "; first divergent round %d", s->first_wrong_round);
    fprintf(f, "\n  the rounds above show run %u%s\n", (unsigned)L->shown_run,
            s->wrong_runs ? " (the first wrong one)" : "");

    if (L->emulated && L->hazards) { /* the code's races, whatever the output */
        char esc[4 * sizeof L->hazard];
        fprintf(f, "  hazards: %" PRIu64 " in run %u (the same cell in one barrier interval, two "
                "threads, one writing)%s%s\n", L->hazards, (unsigned)L->shown_run,
                L->hazard[0] ? ", e.g. " : "", sv_escape(L->hazard, esc, sizeof esc));
        if (s->wrong_runs == 0)
            fprintf(f, "  the output is right in every run, but not by design: a race this "
                       "schedule did not expose\n");
    }
    if (L->stopped[0]) {
        char esc[4 * sizeof L->stopped];
        fprintf(f, "  run %u stopped: %s\n", (unsigned)L->shown_run,
                sv_escape(L->stopped, esc, sizeof esc));
    }
    /* The reads of the shown run, for the words (capture's; none from a file). */
    const sv_lab_reads *reads = L->reads;
    size_t shown = 0, total = 0;
    for (size_t r = 0; r < s->nrounds; r++)
        for (size_t i = 0; i < s->n; i++)
            total += s->cells[r * s->n + i].wrong_runs > 0;
    if (total)
        fprintf(f, "  divergent cells (pout after the round): correct value; observed values "
                   "x runs\n");
    for (size_t r = 0; r < s->nrounds && shown < SV_LAB_TABLE_CELLS; r++) {
        for (size_t i = 0; i < s->n && shown < SV_LAB_TABLE_CELLS; i++) {
            const sv_lab_cell *c = &s->cells[r * s->n + i];
            if (c->wrong_runs == 0)
                continue;
            shown++;
            fprintf(f, "    round %zu cell %zu: correct %s;", r, i,
                    val(t, c->correct, true, a, sizeof a));
            for (uint32_t v = 0; v < c->nvalues && v < 6; v++)
                fprintf(f, " %s x%u", val(t, c->values[v].value, c->values[v].known, b, sizeof b),
                        (unsigned)c->values[v].runs);
            uint32_t more = (c->nvalues > 6 ? c->nvalues - 6 : 0) + c->more_values;
            if (more)
                fprintf(f, " (+%u more values)", (unsigned)more);
            fprintf(f, " · wrong in %u of %u runs\n", (unsigned)c->wrong_runs, (unsigned)L->runs);
            if (reads && s->first_diverged[i] == (int)r) {
                char words[320];
                sv_lab_cell_describe(reads, t->type, r, i, words, sizeof words);
                fprintf(f, "      %s\n", words);
            }
        }
    }
    if (total > shown)
        fprintf(f, "    ... and %zu more divergent cells (--format json lists them all)\n",
                total - shown);

    const sv_racecheck *rc = L->racecheck;
    if (!rc)
        return;
    /* The note and the hazards' strings come from a file: escaped. */
    char esc[4 * sizeof rc->note];
    fprintf(f, "  racecheck: %s\n", sv_escape(rc->note, esc, sizeof esc));
    if (!rc->ran)
        return;
    /* The first hazards on whole cells (the sanitizer also lists bytes 1..3
     * of each word: the same cell, byte values). */
    size_t listed = 0;
    for (size_t h = 0; h < rc->nhazards && listed < 16; h++) {
        const sv_hazard *z = &rc->hazards[h];
        if (z->buf >= 0 && z->address % 4 != 0)
            continue;
        listed++;
        fprintf(f, "    %s %s%s at ", z->error ? "error" : "warning",
                sv_escape(z->kind, esc, sizeof esc), z->warp_level ? " (inside a warp)" : "");
        if (z->buf >= 0)
            fprintf(f, "buf[%d][%d]", z->buf, z->cell);
        else
            fprintf(f, "shared 0x%" PRIx32, z->address);
        if (z->round >= 0)
            fprintf(f, " in round %d", z->round);
        fprintf(f, ": thread %d %s, thread %d %s", z->thread[0],
                z->access[0] == 'W' ? "wrote" : "read", z->thread[1],
                z->access[1] == 'W' ? "wrote" : "read");
        if (z->file[0] && z->line[0] >= 0)
            fprintf(f, " (%s:%d)", sv_escape(z->file, esc, sizeof esc), z->line[0]);
        else
            fprintf(f, " (no source line: the kernels were built without -lineinfo)");
        if (z->has_values)
            fprintf(f, "; %" PRId64 " overwritten by %" PRId64, z->current, z->incoming);
        fputc('\n', f);
    }
    if (rc->nhazards > 16)
        fprintf(f, "    ... %zu hazards printed by the sanitizer in all (--format json lists "
                   "them)\n", rc->nhazards);
}
