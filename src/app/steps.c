/* The step model (steps.h): steps of a trace's timeline, one answer for the
 * app and the scene. */
#include "steps.h"

#include "util.h"

int sv_view_steps(const sv_trace *t)
{
    if (!t)
        return 0;
    int steps = (int)t->nrounds + (t->scan == SV_SCAN_EXCLUSIVE ? 1 : 0);
    return steps > SV_MAX_STEPS ? SV_MAX_STEPS : steps;
}

bool sv_steps_at(const sv_trace *t, int k, sv_step_view *out)
{
    if (!t || t->nrounds == 0)
        return false;
    int steps = sv_view_steps(t);
    if (k < 0) k = 0;
    if (k >= steps) k = steps - 1;
    int last_round = (int)t->nrounds - 1;
    out->shift = k > last_round;
    out->round = out->shift ? last_round : k;
    out->rd = &t->rounds[out->round];
    out->last = t->scan == SV_SCAN_EXCLUSIVE ? out->shift : out->round == last_round;
    return true;
}

int sv_steps_written_row(const sv_step_view *v)
{
    if (v->shift)
        return -1;
    return v->round == 0 ? 1 : 1 + v->rd->pout;
}

bool sv_steps_output_unwritten(const sv_trace *t, size_t i)
{
    if (!t || t->nrounds == 0 || i >= t->n)
        return false;
    const sv_round *lr = &t->rounds[t->nrounds - 1];
    int b = t->nrounds == 1 ? 0 : lr->pout;
    if (t->scan == SV_SCAN_EXCLUSIVE && i == 0)
        return false;
    size_t src = t->scan == SV_SCAN_EXCLUSIVE ? i - 1 : i;
    return !lr->written[b][src];
}

int sv_steps_asked_row(const sv_step_view *v)
{
    return v->shift ? 3 : sv_steps_written_row(v);
}
