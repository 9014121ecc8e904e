/* The scene's model, shared by every file that draws or words a frame: what
 * a step shows (a cell's value, its window, its operands' windows, its lab
 * outcome, the tooltip's cell). No drawing and no GL here, so the words
 * (words.c) need nothing but this and core; the drawing helpers every part
 * uses are scene_draw.c. Nothing here calls up into the renderers, the
 * panes or the words. Where things sit is frame.c (the frame) and
 * pane_rows.c (the rows). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene.h"

/* The step model is steps.c's, shared with the app. */
bool sv_scene_step(const sv_app_view *s, int k, sv_step_view *out)
{
    return s && sv_steps_at(s->trace, k, out);
}

int sv_scene_quiz_row(const sv_app_view *s, const sv_step_view *v)
{
    if (!s || !s->quiz || !s->quiz_asking)
        return -1;
    return sv_steps_asked_row(v);
}

bool sv_scene_hidden(const sv_app_view *s, const sv_step_view *v, int row)
{
    int q = sv_scene_quiz_row(s, v);
    return q >= 0 && (row == q || (row == 3 && v->last));
}

float sv_scene_ease(float t)
{
    t = sv_clampf(t, 0.0f, 1.0f);
    return t < 0.5f ? 4.0f * t * t * t : 1.0f - powf(-2.0f * t + 2.0f, 3.0f) / 2.0f;
}

bool sv_scene_moving(const sv_app_view *s)
{
    return s && s->trace && s->anim < 1.0f && s->step == s->from_step + 1;
}

int sv_scene_output_source(const sv_trace *t, const sv_step_view *v, int i)
{
    if (!v->last)
        return -1;
    return t->scan == SV_SCAN_EXCLUSIVE ? i - 1 : i;
}

bool sv_scene_value(const sv_app_view *s, const sv_step_view *v, int row, int i,
                    sv_value *out)
{
    const sv_trace *t = s->trace;
    if (!t || i < 0 || (size_t)i >= t->n)
        return false;
    switch (row) {
    case 0:
        *out = t->input[i];
        return true;
    case 1:
    case 2: {
        /* The guard phase comes before the round's writes: pout still holds
         * what it held after the round before. */
        const sv_round *rd = v->rd;
        if (s->phase == SV_PHASE_GUARD && v->round > 0 && !v->shift && row - 1 == rd->pout)
            rd = &t->rounds[v->round - 1];
        if (!rd->written[row - 1][i])
            return false;
        *out = rd->buf[row - 1][i];
        return true;
    }
    case 3:
        /* Written by the copy back: in a phase, only from that phase on. */
        if (!v->last || !t->output ||
            (s->phase != SV_PHASE_NONE && s->phase != SV_PHASE_COPY_BACK))
            return false;
        /* A mistake may leave the cell it copies back unwritten: `?`. */
        if (s->lab && sv_steps_output_unwritten(t, (size_t)i))
            return false;
        *out = t->output[i];
        return true;
    default:
        return false;
    }
}

bool sv_scene_unknown(const sv_app_view *s, const sv_step_view *v, int row, int i)
{
    const sv_trace *t = s->trace;
    sv_value val;
    if (!t || i < 0 || (size_t)i >= t->n || sv_scene_value(s, v, row, i, &val))
        return false;
    if (row == 1 || row == 2)
        return true;
    /* The output: written at this step, but from a cell no thread wrote. */
    return row == 3 && v->last && t->output &&
           (s->phase == SV_PHASE_NONE || s->phase == SV_PHASE_COPY_BACK);
}

void sv_scene_operand_windows(const sv_step_view *v, int i, int *left_lo, int *right_lo)
{
    /* pin was written by the round before, whose windows are stride long */
    long st = v->round > 0 ? (long)v->rd->stride : 1;
    long r = (long)i - st + 1, l = (long)i - 2 * st + 1;
    *right_lo = r < 0 ? 0 : (int)r;
    *left_lo = l < 0 ? 0 : (int)l;
}

const sv_lab_cell *sv_scene_lab_cell(const sv_app_view *s, const sv_step_view *v, int row,
                                     int i, int *round)
{
    const sv_trace *t = s->trace;
    const sv_lab_summary *lab = s->lab;
    if (!lab || !t || i < 0 || (size_t)i >= t->n || lab->n != t->n ||
        lab->nrounds != t->nrounds)
        return NULL;
    if (sv_scene_hidden(s, v, row)) /* a question's row gives nothing away */
        return NULL;
    int w;
    if (row == 3) {
        i = sv_scene_output_source(t, v, i);
        if (i < 0)
            return NULL;
        w = (int)t->nrounds - 1;
    } else if (row == 1 || row == 2) {
        int b = row - 1;
        const sv_round *rd = v->rd;
        if (v->round == 0) {
            if (b != 0)
                return NULL;
            w = 0;
        } else if (b == rd->pout) {
            w = s->phase == SV_PHASE_GUARD ? v->round - 1 : v->round;
        } else {
            /* pin: last round's pout, in a double buffer only */
            if (rd->pin == rd->pout)
                return NULL;
            w = v->round - 1;
        }
        /* the buffer must be the one round w wrote */
        int wb = w == 0 ? 0 : t->rounds[w].pout;
        if (wb != b)
            return NULL;
    } else {
        return NULL;
    }
    if (round)
        *round = w;
    return &lab->cells[(size_t)w * t->n + (size_t)i];
}

const char *sv_scene_op_verb(sv_op op)
{
    switch (op) {
    case SV_OP_SUM: return "adds";
    case SV_OP_MAX: return "takes the max with";
    case SV_OP_MIN: return "takes the min with";
    case SV_OP_PRODUCT: return "multiplies by";
    case SV_OP_XOR: return "XORs in";
    default: return "combines with";
    }
}

bool sv_scene_tooltip_target(const sv_app_view *s, int *row, int *cell)
{
    int r = s->pinned_row, c = s->pinned_cell;
    if (r < 0 || c < 0) {
        r = s->hover_row;
        c = s->hover_cell;
    }
    if (s->ktrace) { /* the kernel pane: its own rows (kpane.h) */
        if (r < 0 || r >= SV_LAYOUT_ROWS || c < 0 || (size_t)c >= s->ktrace->n)
            return false;
    } else if (r < 0 || r > 3 || c < 0 || !s->trace || (size_t)c >= s->trace->n) {
        return false;
    }
    *row = r;
    *cell = c;
    return true;
}

bool sv_scene_window(const sv_app_view *s, const sv_step_view *v, int row, int i,
                     int *lo)
{
    const sv_trace *t = s->trace;
    if (row == 0) {
        *lo = i;
        return true;
    }
    if (row == 3) {
        /* the output holds the whole prefix: input[0 .. i], or [0 .. i-1] */
        if (sv_scene_output_source(t, v, i) < 0)
            return false;
        *lo = 0;
        return true;
    }
    int b = row - 1;
    if (!v->rd->written[b][i])
        return false;
    /* The round that last wrote buffer b: this round when b is its pout,
     * else the one before (round 0 wrote buf[0]). */
    int w;
    if (v->round == 0)
        w = 0;
    else
        w = (b == v->rd->pout) ? v->round : v->round - 1;
    if (w == 0) {
        *lo = i;
        return true;
    }
    long span = 1L << (w > 30 ? 30 : w);
    long l0 = (long)i - span + 1;
    *lo = l0 < 0 ? 0 : (int)l0;
    return true;
}

/* The mistakes lab, told from the shown run (issue 18's truth problem). */
int sv_scene_lab_first_broken(const sv_app_view *s, const sv_step_view *v)
{
    const sv_trace *t = s->trace;
    const sv_lab_summary *lab = s->lab;
    if (!lab || !t || v->shift || v->round <= 0 || lab->n != t->n ||
        lab->nrounds != t->nrounds || v->rd->pout < 0)
        return -1;
    int b = v->rd->pout;
    for (size_t i = 0; i < t->n; i++) {
        const sv_lab_cell *lc = &lab->cells[(size_t)v->round * lab->n + i];
        if (!v->rd->written[b][i] ||
            memcmp(&v->rd->buf[b][i], &lc->correct, sizeof lc->correct) != 0)
            return (int)i;
    }
    return -1;
}

const sv_lab_read *sv_scene_lab_read(const sv_app_view *s, const sv_step_view *v, int i,
                                     sv_read_slot slot)
{
    if (!s->lab || !s->lab_reads || v->shift || v->round <= 0 || i < 0 ||
        (size_t)v->round >= s->lab_reads->nrounds || (size_t)i >= s->lab_reads->n)
        return NULL;
    const sv_lab_read *r = sv_lab_reads_at(s->lab_reads, (size_t)v->round, (size_t)i, slot);
    return r && r->done ? r : NULL;
}

size_t sv_scene_lab_ops(const sv_app_view *s, const sv_step_view *v)
{
    size_t ops = 0;
    for (size_t i = 0; s->trace && i < s->trace->n; i++)
        ops += sv_scene_lab_read(s, v, (int)i, SV_READ_LEFT) &&
               sv_scene_lab_read(s, v, (int)i, SV_READ_SELF);
    return ops;
}
