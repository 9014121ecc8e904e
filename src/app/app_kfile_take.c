/* Taking a kernel file's run into the state (app_kfile.c's results, on the
 * main thread): the new trace replaces the shown one, or, for an error,
 * the last good one stays and the error is shown at its line. Also the
 * D: the chapter kernel's run beside it (sv_app_kcompare, app_view.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_internal.h"
#include "kpane.h"

/* Failures that keep the last good picture: nothing (or not the whole run)
 * to show of the new version. An out-of-range access is shown on its cells. */
static bool keeps_last(sv_kfail_kind k)
{
    return k != SV_KFAIL_NONE && k != SV_KFAIL_OUT_OF_RANGE;
}

static void clear_error(sv_app_state *s)
{
    s->kerror[0] = '\0';
    s->kerror_line = 0;
    s->kstale = false;
    free(s->ksource);
    s->ksource = NULL;
}

/* Shows t as the kernel trace (taking it), the step kept in range. */
static void show(sv_app_state *s, sv_ktrace *t)
{
    if (s->quiz_asking) /* the question was about the old trace's step */
        sv_app_quiz_reset_question(s);
    sv_ktrace_destroy(s->ktrace);
    s->ktrace = t;
    s->ktile_lo = s->ktile_hi = -1; /* (its tiles may not be the last trace's) */
    int last = sv_app_steps_of(s) - 1;
    s->step = sv_clampi(s->step, 0, last);
    s->from_step = s->step;
    s->anim = 1.0f;
    s->gen++;
}

void sv_app_kfile_take(sv_app_state *s, sv_ktrace *t, char *text, const char *err)
{
    char words[1024];
    s->kfile_taken++;
    sv_kfail_kind kind = t ? t->failure.kind : SV_KFAIL_INTERNAL;
    if (!keeps_last(kind)) {
        clear_error(s);
        free(text);
        show(s, t);
        if (kind == SV_KFAIL_OUT_OF_RANGE) {
            sv_app_paths_shown(sv_ktrace_failure_words(t, words, sizeof words), s->kerror,
                               sizeof s->kerror);
            s->kerror_line = t->failure.line;
        }
        return;
    }
    /* An error: its words and line, the file's new text for the panel. */
    if (t)
        sv_ktrace_failure_words(t, words, sizeof words);
    else
        snprintf(words, sizeof words, "%s", err && *err ? err : "the kernel could not run");
    /* "does not compile: guard.cu:3:42: ...": the file as the window names it */
    sv_app_paths_shown(words, s->kerror, sizeof s->kerror);
    s->kerror_line = t ? t->failure.line : 0;
    free(s->ksource);
    s->ksource = text;
    s->code = true; /* the source panel opens at the failing line */
    if (s->ktrace) { /* the last good picture stays */
        s->kstale = true;
        sv_ktrace_destroy(t);
        return;
    }
    s->kstale = false; /* nothing good yet: what ran of this one */
    if (t)
        show(s, t);
}

/* The hovered (else pinned) cell of the kernel pane: its row and column. */
static bool target_cell(const sv_app_state *s, const sv_krows *rows, int *row, int *col)
{
    int r = s->pinned_row, c = s->pinned_cell;
    if (r < 0 || c < 0) {
        r = s->hover_row;
        c = s->hover_cell;
    }
    if (r < 0 || r >= rows->n || c < 0 || (uint32_t)c >= rows->row[r].count)
        return false;
    *row = r;
    *col = c;
    return true;
}

int64_t sv_app_kfile_wrong_target(sv_app_state *s, bool back)
{
    const sv_ktrace *t = s->ktrace;
    sv_krows rows;
    int r, c;
    char msg[400], sc[64], name[80];
    if (!s->kf || !t) {
        sv_app_set_status(s, "W steps through the runs in which the hovered cell was wrong "
                             "(--kernel-file with --runs over a seeded schedule)");
        return -1;
    }
    if (t->backend == SV_BACKEND_CUDA) {
        sv_app_set_status(s, "a GPU run cannot be run again: the shown run is the one kept");
        return -1;
    }
    if (!sv_kpane_rows(t, &rows) || !target_cell(s, &rows, &r, &c)) {
        sv_app_set_status(s, "W: hover over (or click) a cell first");
        return -1;
    }
    size_t k = (size_t)sv_clampi(s->step, 0, t->nsteps ? (int)t->nsteps - 1 : 0);
    uint32_t wrong = 0;
    const uint32_t *which = NULL;
    snprintf(name, sizeof name, "%s[%d]", rows.row[r].name, c);
    if (!sv_kpane_cell_runs(t, k, &rows.row[r], (uint32_t)c, &wrong, &which)) {
        snprintf(msg, sizeof msg, "%s: no runs counted here (one run, or not a row the chapter "
                 "reads; try --runs 100 --schedule random:1)", name);
        sv_app_set_status(s, msg);
        return -1;
    }
    int64_t run = sv_kpane_next_wrong_run(t, k, &rows.row[r], (uint32_t)c, back);
    if (run < 0) {
        snprintf(msg, sizeof msg, "%s was right in all %u runs", name, (unsigned)t->runs);
        sv_app_set_status(s, msg);
        return -1;
    }
    sv_kwords_run_schedule(t, (uint32_t)run, sc, sizeof sc);
    if ((uint32_t)run == t->shown_run && wrong <= 1) {
        snprintf(msg, sizeof msg, "%s was wrong only in run %u, shown (%s)", name,
                 (unsigned)run, sc);
        sv_app_set_status(s, msg);
        return -1;
    }
    snprintf(msg, sizeof msg, "%s was wrong in %u of %u runs: running run %u again (%s)", name,
             (unsigned)wrong, (unsigned)t->runs, (unsigned)run, sc);
    sv_app_set_status(s, msg);
    return run;
}

bool sv_app_kfile_take_replay(sv_app_state *s, sv_ktrace *t, uint32_t run)
{
    sv_ktrace *old = s->ktrace;
    if (!t || !old || t->failure.kind != SV_KFAIL_NONE || t->n != old->n ||
        t->nsteps != old->nsteps || run >= old->runs) {
        if (t)
            sv_app_set_status(s, "that run went differently this time (the file or the input "
                                 "changed?): running all the runs again");
        sv_ktrace_destroy(t);
        return false;
    }
    /* the runs' counts and run 0's schedule stay the trace's */
    t->runs = old->runs;
    t->wrong_runs = old->wrong_runs;
    t->shown_run = run;
    t->cellruns = old->cellruns;
    t->ncellruns = old->ncellruns;
    old->cellruns = NULL;
    old->ncellruns = 0;
    char *sched = t->schedule;
    t->schedule = old->schedule;
    old->schedule = sched;
    s->kfile_taken++;
    show(s, t);
    char msg[200], sc[64];
    snprintf(msg, sizeof msg, "run %u of %u shown (%s)", (unsigned)run, (unsigned)t->runs,
             sv_kwords_run_schedule(t, run, sc, sizeof sc));
    sv_app_set_status(s, msg);
    return true;
}

/* D: the chapter's values beside the student's (on or off). */
void sv_app_kfile_toggle_compare(sv_app_state *s)
{
    if (!s->kf) {
        sv_app_set_status(s, "D compares a kernel file (--kernel-file) with the chapter's kernel");
        return;
    }
    if (s->trace && s->trace->n > SV_MAX_N) {
        char msg[160];
        snprintf(msg, sizeof msg, "The chapter's kernel scans one block, at most %d values: "
                 "nothing to compare with at n = %zu", SV_MAX_N, s->trace->n);
        sv_app_set_status(s, msg);
        return;
    }
    s->kcompare_shown = !s->kcompare_shown;
    sv_app_set_status(s, s->kcompare_shown ? "the chapter kernel's values beside yours"
                                           : "your kernel's values alone");
}
