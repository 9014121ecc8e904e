/* A new trace on screen: adopting it (sv_app_adopt, from the start, a
 * recapture, the background probe or the lab's worker), and the lab's
 * outcome it carries (trace->lab) taken for the view. Below app_lab.c and
 * app_capture.c, which both hand it their traces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "source.h"

/* Makes t the shown trace (taking it), keeping the step and the view valid. */
void sv_app_adopt(sv_app_state *s, sv_trace *t)
{
    /* The GPU's trace of the same input replaces the emulator's without
     * disturbing a question; any other new trace ends it. */
    const sv_trace *o = s->trace;
    bool same = o && o->n == t->n && o->op == t->op && o->type == t->type &&
                o->scan == t->scan && memcmp(o->input, t->input, t->n * sizeof *t->input) == 0;
    if (!same || s->kread_only)
        sv_app_quiz_reset_question(s);
    if (t->n > SV_MAX_N) /* its arrays hold SV_MAX_N cells (state.h) */
        s->quiz = false;
    if (s->kread_only) { /* a trace file's kernel trace gives way to any new trace */
        sv_ktrace_destroy(s->ktrace);
        s->ktrace = NULL;
        s->kread_only = false;
    }
    /* A new trace: the old outcome no longer describes it. */
    sv_app_lab_clear(s);
    sv_trace_destroy(s->trace);
    s->trace = t;
    sv_app_lab_take(s);
    s->op = t->op;
    s->type = t->type;
    s->scan = t->scan;
    s->gen++;
    s->from_file = false;
    int last = sv_app_steps_of(s) - 1;
    s->step = sv_clampi(s->step, 0, last);
    s->from_step = s->step;
    s->anim = 1.0f;
    if ((size_t)s->hover_cell >= t->n || s->hover_cell < 0)
        s->hover_row = s->hover_cell = -1;
    if ((size_t)s->pinned_cell >= t->n || s->pinned_cell < 0)
        s->pinned_row = s->pinned_cell = -1;
    if (s->zoom < 1.0f)
        s->zoom = 1.0f;
    if (s->kf && !same) /* a kernel file runs again on the new input */
        sv_app_kfile_rerun(s);
    if (s->compare && (!same || !s->cmp_ktrace)) { /* and Blelloch beside it */
        char err[512];
        if (!sv_app_compare_rerun(s, err, sizeof err))
            sv_app_set_status(s, err);
    }
}

/* Which embedded source shows kernel k: its own file when it was in the
 * tree at build time, else 0 (the chapter's; the panel says so). */
static int source_of(sv_kernel k)
{
    const sv_kernel_info *ki = sv_kernel_get(k);
    int f = (ki && k != SV_KERNEL_CORRECT) ? sv_source_find(ki->file) : 0;
    return f < 0 ? 0 : f;
}

/* Forgets the shown trace's outcome (adopt, cleanup). */
void sv_app_lab_clear(sv_app_state *s)
{
    s->lab = NULL;
    s->lab_reads = NULL;
    s->lab_note[0] = '\0';
}

/* Shows the outcome the shown trace carries (trace->lab, from capture or a
 * file): its kernel and source panel, the per-cell summary, a note of how
 * it ran, and for emulated runs what each read of the shown run saw (the
 * record's, from capture). Under the hood: a trace file carries no reads,
 * so for one read from a file the shown run runs once more here on the CPU
 * runtime (its schedule is deterministic); a GPU's runs have none (the
 * captions compare with the correct values). */
void sv_app_lab_take(sv_app_state *s)
{
    const sv_trace *t = s->trace;
    sv_lab_record *L = t ? t->lab : NULL;
    s->kernel = L ? L->kernel : SV_KERNEL_CORRECT;
    s->source_kernel = source_of(s->kernel);
    if (!L)
        return;
    s->lab = L->summary;
    const char *name = sv_kernel_name(L->kernel);
    if (!L->emulated) {
        if (L->shake)
            snprintf(s->lab_note, sizeof s->lab_note, "%s \u00b7 %u GPU runs (shaken, seed %llu)",
                     name, (unsigned)L->runs, (unsigned long long)L->shake_seed);
        else
            snprintf(s->lab_note, sizeof s->lab_note, "%s \u00b7 %u GPU run%s (not shaken)", name,
                     (unsigned)L->runs, L->runs == 1 ? "" : "s");
        return;
    }
    char sched[48], err[256];
    sv_schedule_format(L->schedule, sched, sizeof sched);
    bool seeded = L->schedule.kind == SV_SCHEDULE_RANDOM || L->schedule.kind == SV_SCHEDULE_WARPS;
    if (L->runs > 1)
        snprintf(s->lab_note, sizeof s->lab_note, "%s \u00b7 %s, %u %s \u00b7 emulated", name,
                 sched, (unsigned)L->runs, seeded ? "seeds" : "runs");
    else
        snprintf(s->lab_note, sizeof s->lab_note, "%s \u00b7 %s \u00b7 emulated", name, sched);
    if (!L->reads && !sv_capture_lab_reads(s->trace, err, sizeof err))
        sv_app_set_status(s, err); /* the captions fall back to the correct values */
    s->lab_reads = L->reads;
}
