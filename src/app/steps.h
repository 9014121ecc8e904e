/* The step model: what step k of a trace's timeline is (a round, or the
 * exclusive shift after the last one) and which row it writes. Pure and
 * plain (no SDL, no GL): the app (state, predict mode, pinned cells) and
 * the scene (layout.c, render_*.c) ask the same questions here. */
#ifndef SV_STEPS_H
#define SV_STEPS_H

#include <stdbool.h>

#include "../core/trace.h"

/* What one step of the timeline is: a round of the trace, or the exclusive
 * shift that follows the last round. */
typedef struct sv_step_view {
    int round;               /* the trace's round whose buffers are shown */
    bool shift;              /* the exclusive shift step */
    bool last;               /* the output row is filled at this step */
    const sv_round *rd;      /* trace->rounds[round] */
} sv_step_view;

/* Number of steps the timeline shows for t: its rounds, plus one for the
 * exclusive shift (at most SV_MAX_STEPS); 0 for NULL. */
int sv_view_steps(const sv_trace *t);

/* Step k of t (clamped to 0 .. steps - 1) into *out; false (out untouched)
 * without a trace or without rounds. */
bool sv_steps_at(const sv_trace *t, int k, sv_step_view *out);

/* The row step v writes: 1 (buf[0]) in round 0, 1 + pout in a round, -1 at
 * the exclusive shift (it writes the output, row 3). */
int sv_steps_written_row(const sv_step_view *v);

/* The row a predict-mode question at step v asks about: the row it writes,
 * the output (3) at the exclusive shift. */
int sv_steps_asked_row(const sv_step_view *v);

/* Whether output cell i of t holds no value: the last round's cell it is
 * copied from was never written (a mistake without the else copy: drawn and
 * printed as `?`). False for the exclusive scan's identity cell. */
bool sv_steps_output_unwritten(const sv_trace *t, size_t i);

#endif
