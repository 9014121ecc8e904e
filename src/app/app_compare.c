/* The compare view (issue 20: --compare blelloch, key B): the shown trace,
 * Hillis-Steele, beside Blelloch's work-efficient scan on the same input,
 * its trace run on the CPU runtime as a shipped kernel
 * (kernels/blelloch.cu). Each pane has its own step; Right/Left step both
 * or the one Tab picked; M opens the Measure view with the measured cost.
 * Calls only app_view.c (app_internal.h). */
#include <stdio.h>
#include <string.h>

#include "app_internal.h"
#include "kpane.h"
#include "pane_compare.h"
#include "util.h"
#include "../capture/kernel_run.h"

/* The steps of pane k (0 Hillis-Steele, 1 Blelloch), at least 1. */
static int pane_steps(const sv_app_state *s, int k)
{
    int n = k == 0 ? sv_view_steps(s->trace) : sv_kpane_steps(s->cmp_ktrace);
    return n < 1 ? 1 : n;
}

/* Blelloch on the shown trace's input, operator, type and scan. */
static sv_ktrace *run_blelloch(const sv_trace *t, char *err, size_t errlen)
{
    const sv_krun_request req = {
        .run = { .builtin = "kernels/blelloch.cu", .op = t->op, .type = t->type,
                 .scan = t->scan, .input = t->input, .n = t->n, .runs = 1,
                 .schedule = { .kind = SV_SCHEDULE_LOCKSTEP } },
        .choice = SV_CHOOSE_CPU,
    };
    /* Its trace is read by Blelloch's own tree (ktrace_blelloch.h), not by
     * the chapter's rounds: the pane draws its ranges and swaps. */
    return sv_capture_kernel(&req, NULL, NULL, NULL, err, errlen);
}

bool sv_app_compare_rerun(sv_app_state *s, char *err, size_t errlen)
{
    sv_ktrace_destroy(s->cmp_ktrace);
    s->cmp_ktrace = NULL;
    s->cmp_error[0] = '\0';
    s->cmp_gen = s->gen;
    if (!s->trace) {
        snprintf(err, errlen, "no trace to compare with");
        return false;
    }
    char why[512] = "";
    s->cmp_ktrace = run_blelloch(s->trace, why, sizeof why);
    if (!s->cmp_ktrace) {
        snprintf(s->cmp_error, sizeof s->cmp_error, "Blelloch did not run: %s", why);
        snprintf(err, errlen, "%s", s->cmp_error);
    }
    for (int k = 0; k < 2; k++)
        s->cmp_step[k] = sv_clampi(s->cmp_step[k], 0, pane_steps(s, k) - 1);
    return s->cmp_ktrace != NULL;
}

bool sv_app_compare_set(sv_app_state *s, bool on, char *err, size_t errlen)
{
    s->cmp_measure = false;
    if (!on) {
        s->compare = false;
        return true;
    }
    s->compare = true;
    s->cmp_step[0] = s->cmp_step[1] = 0;
    s->cmp_focus = SV_CMP_BOTH;
    s->overview = false;
    s->hover_row = s->hover_cell = -1;
    s->pinned_row = s->pinned_cell = -1;
    return sv_app_compare_rerun(s, err, errlen);
}

void sv_app_compare_toggle(sv_app_state *s)
{
    char err[512];
    bool on = !s->compare;
    if (on && s->ktrace) {
        sv_app_set_status(s, "B compares the chapter's kernel with Blelloch (not a kernel file)");
        return;
    }
    if (!sv_app_compare_set(s, on, err, sizeof err))
        sv_app_set_status(s, err);
    else
        sv_app_set_status(s, on ? "Hillis-Steele beside Blelloch (B leaves)" : "The rounds");
}

/* The panes that step now: bit 0 Hillis-Steele, bit 1 Blelloch. */
static unsigned stepping(const sv_app_state *s)
{
    return s->cmp_focus == SV_CMP_HS ? 1u : s->cmp_focus == SV_CMP_BLELLOCH ? 2u : 3u;
}

void sv_app_compare_go(sv_app_state *s, int delta, bool to_end)
{
    unsigned which = stepping(s);
    for (int k = 0; k < 2; k++) {
        if (!(which & (1u << k)))
            continue;
        int last = pane_steps(s, k) - 1;
        int to = to_end ? (delta > 0 ? last : 0) : s->cmp_step[k] + delta;
        s->cmp_step[k] = sv_clampi(to, 0, last);
    }
}

void sv_app_compare_next_focus(sv_app_state *s)
{
    s->cmp_focus = (s->cmp_focus + 1) % 3;
    sv_app_set_status(s, s->cmp_focus == SV_CMP_HS ? "Right/Left step Hillis-Steele alone"
                         : s->cmp_focus == SV_CMP_BLELLOCH ? "Right/Left step Blelloch alone"
                                                           : "Right/Left step both together");
}

void sv_app_compare_measure(sv_app_state *s)
{
    bool open = s->view == SV_VIEW_SCAN;
    sv_app_show(s, open ? SV_VIEW_MEASURE : SV_VIEW_SCAN);
    s->cmp_measure = open;
}

void sv_app_compare_click(sv_app_state *s, float x, float y)
{
    sv_app_view v;
    sv_layout l;
    sv_app_view_of(s, &v);
    sv_app_layout_of(s, &l);
    sv_cmp_layout c;
    sv_cmp_layout_compute(&v, &l, &c);
    int pane = 0, k = sv_cmp_hit_step(&c, x, y, &pane);
    if (k >= 0)
        s->cmp_step[pane] = sv_clampi(k, 0, pane_steps(s, pane) - 1);
}

bool sv_app_compare_start(sv_app_state *s, char *err, size_t errlen)
{
    if (!sv_app_compare_set(s, true, err, errlen))
        return false;
    s->cmp_step[0] = s->step;
    return true;
}
