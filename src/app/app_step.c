/* Stepping through the run: rounds (Right/Left, the timeline), the phases
 * inside a round (Down/Up), autoplay and its speed, and the presenter
 * script's steps. */
#include <stdio.h>

#include "app_internal.h"
#include "kpane.h"
#include "source.h"
#include "util.h"

static const float speeds[] = {0.25f, 0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f};
#define NSPEEDS (sizeof speeds / sizeof speeds[0])

/* The buffer row (1 or 2) step k writes; -1 at the exclusive shift. */
static int written_row(const sv_app_state *s, int k)
{
    sv_step_view v;
    return sv_steps_at(s->trace, k, &v) ? sv_steps_written_row(&v) : -1;
}

void sv_app_go_step(sv_app_state *s, int k)
{
    s->phase = SV_PHASE_NONE; /* a round step shows the whole round */
    k = sv_clampi(k, 0, sv_app_steps_of(s) - 1);
    if (k == s->step)
        return;
    if (s->quiz_asking) /* leaving a question unrevealed drops it */
        sv_app_quiz_reset_question(s);
    /* A pinned buffer cell keeps its position in the algorithm, not its
     * buffer: pout[i] stays pout[i] (the row being written), pin[i] stays
     * pin[i], although the two buffers swap roles every round. */
    if (s->pinned_row == 1 || s->pinned_row == 2) {
        int was = written_row(s, s->step), now = written_row(s, k);
        if (was > 0 && now > 0)
            s->pinned_row = s->pinned_row == was ? now : 3 - now;
    }
    bool adjacent = k == s->step + 1 || k == s->step - 1;
    s->from_step = s->step;
    s->step = k;
    s->anim = s->animations && adjacent ? 0.0f : 1.0f;
    if (s->anim >= 1.0f)
        s->from_step = k;
    s->hold = SV_HOLD_S / s->speed;
}

/* The phases of step k: a kernel trace's own (its writes' lines and its
 * barrier, kphase.c), else the chapter round's (source.h). */
static int phases_at(const sv_app_state *s, int k, sv_phase *ph)
{
    if (s->ktrace)
        return k >= 0 ? sv_kphases_of(s->ktrace, (size_t)k, ph) : 0;
    return s->trace ? sv_phases_of(s->trace, k, ph) : 0;
}

/* The kernel script step `at` shows: the last one named at or before it,
 * else the one the window had before the script (sv_script_check has
 * checked the names). */
static sv_kernel script_kernel_at(const sv_app_state *s, int at)
{
    sv_kernel k = s->script_kernel;
    for (int i = 0; i <= at && i < s->script.n; i++)
        if (s->script.steps[i].kernel_ok)
            k = s->script.steps[i].kernel_id;
    return k;
}

/* The kernel file at script step `at`: the last step at or before it that
 * names one (a kernel-file step, or a kernel step naming a shipped kernel
 * beyond the chapter, kernel blelloch: *builtin set; a later kernel step
 * naming a lab kernel ends either), else the --kernel-file or --kernel
 * blelloch the window started with ("" none). */
static const char *script_kfile_at(const sv_app_state *s, int at, bool *builtin)
{
    const char *f = s->kfile_start;
    *builtin = s->kfile_start_builtin;
    for (int i = 0; i <= at && i < s->script.n; i++) {
        const sv_script_step *st = &s->script.steps[i];
        const sv_kernel_beyond *b = st->beyond;
        if (st->kfile[0]) {
            f = st->kfile;
            *builtin = false;
        } else if (st->exercise[0]) {
            f = s->kfile_start; /* the exercise's file (sv_app_exercise_open) */
            *builtin = false;
        } else if (b) {
            f = b->file;
            *builtin = true;
        } else if (st->kernel[0]) { /* a lab kernel: the chapter's pane again */
            f = "";
            *builtin = false;
        }
    }
    return f;
}

/* The exercise at script step `at`: the last step at or before it that
 * names one ("" none: whatever is open stays). */
static const char *script_exercise_at(const sv_app_state *s, int at)
{
    const char *e = "";
    for (int i = 0; i <= at && i < s->script.n; i++)
        if (s->script.steps[i].exercise[0])
            e = s->script.steps[i].exercise;
    return e;
}

/* The source panel (code) or D's values (correct) at script step `at`: the
 * last step at or before it that says, else what the window had before the
 * script; was (C or D pressed meanwhile stays) when the script never says. */
static bool script_flag_at(const sv_app_state *s, int at, bool code, bool was)
{
    bool on = code ? s->script_code : false, said = false;
    for (int i = 0; i < s->script.n; i++) {
        signed char f = code ? s->script.steps[i].code : s->script.steps[i].correct;
        if (f >= 0 && i <= at)
            on = f == 1;
        said |= f >= 0;
    }
    return said ? on : was;
}

/* A script step's phase, where its round has it (a later X or K may have
 * changed the rounds), and its question: asked anew, or revealed when the
 * script goes forward to another step on the asked round. */
static void script_phase_and_quiz(sv_app_state *s, const sv_script_step *st, bool forward,
                                  int was_step, bool was_asking)
{
    sv_phase ph[SV_PHASE_COUNT];
    int n = phases_at(s, s->step, ph);
    s->phase = SV_PHASE_NONE;
    for (int k = 0; k < n; k++)
        if (ph[k] == st->phase)
            s->phase = st->phase;
    if (st->quiz && s->trace && s->view == SV_VIEW_SCAN) {
        if (!s->quiz)
            sv_app_quiz_set(s, true);
        s->quiz_kind = st->quiz_kind;
        sv_app_quiz_ask(s);
    } else if (was_asking) {
        if (forward && s->step == was_step && s->view == SV_VIEW_SCAN)
            sv_app_quiz_reveal(s);
        else
            sv_app_quiz_reset_question(s);
    }
}

/* Shows step `at` of the presenter script (clamped): its kernel where the
 * script changes it (K in between stays until the next change), its view,
 * the source panel and D's values where it says, its round (moving into it
 * from the round before when the step says "move" and the script goes
 * forward), its phase, its question, its caption. */
void sv_app_script_go(sv_app_state *s, int at)
{
    if (s->script.n == 0)
        return;
    at = sv_clampi(at, 0, s->script.n - 1);
    bool forward = at == s->script_at + 1;
    int was_step = s->step;
    bool was_asking = s->quiz_asking;
    sv_app_exercise_switch(s, script_exercise_at(s, at));
    bool builtin;
    const char *kfile = script_kfile_at(s, at, &builtin);
    sv_app_kfile_switch(s, kfile, builtin);
    sv_kernel want = script_kernel_at(s, at);
    if (want != script_kernel_at(s, s->script_at) || (s->script_at < 0 && want != s->kernel)) {
        sv_app_set_kernel(s, want);
        sv_app_labjob_wait(s); /* a script's step shows its kernel's result */
    }
    s->script_at = at;
    const sv_script_step *st = &s->script.steps[at];
    s->playing = false;
    if (st->view == SV_SCRIPT_VIEW_MEASURE) {
        sv_app_show(s, SV_VIEW_MEASURE);
    } else {
        sv_app_show(s, SV_VIEW_SCAN);
        s->overview = st->view == SV_SCRIPT_VIEW_OVERVIEW;
    }
    bool code = script_flag_at(s, at, true, s->code);
    s->show_correct = script_flag_at(s, at, false, s->show_correct);
    if (code != s->code) {
        s->code = code;
        sv_app_clamp_view(s);
    }
    int last = sv_app_steps_of(s) - 1;
    int k = st->shift ? last : sv_clampi(st->round, 0, last);
    if (st->move && forward && k > 0 && s->animations && s->view == SV_VIEW_SCAN &&
        !s->overview) {
        s->from_step = k - 1;
        s->step = k;
        s->anim = 0.0f;
    } else {
        s->step = s->from_step = k;
        s->anim = 1.0f;
    }
    script_phase_and_quiz(s, st, forward, was_step, was_asking);
    snprintf(s->caption_override, sizeof s->caption_override, "%s", st->caption);
}

/* Down (dir +1) / Up (-1): the next or previous phase of the round,
 * crossing into the next or previous step at either end. From the whole
 * round, Down starts at its first phase and Up at its last. No animation:
 * a phase is a still picture of what the threads do. */
void sv_app_step_phase(sv_app_state *s, int dir)
{
    if (!s->trace && !s->ktrace)
        return;
    sv_phase ph[SV_PHASE_COUNT];
    int n = phases_at(s, s->step, ph);
    if (n <= 0)
        return;
    int at = -1;
    for (int k = 0; k < n; k++)
        if (ph[k] == s->phase)
            at = k;
    int step = s->step;
    sv_phase next;
    if (at < 0) {
        if (dir < 0 && step == 0)
            return; /* the whole of round 0 is the start: no phase before it */
        next = dir > 0 ? ph[0] : ph[n - 1];
    } else if (at + dir >= 0 && at + dir < n) {
        next = ph[at + dir];
    } else {
        step += dir;
        if (step < 0 || step >= sv_app_steps_of(s))
            return; /* the first phase of round 0, the last of the last step */
        n = phases_at(s, step, ph);
        while (n <= 0 && step + dir >= 0 && step + dir < sv_app_steps_of(s))
            n = phases_at(s, step += dir, ph); /* a kernel's step with no phase */
        if (n <= 0)
            return;
        next = dir > 0 ? ph[0] : ph[n - 1];
    }
    s->playing = false;
    s->step = s->from_step = step;
    s->anim = 1.0f;
    s->phase = next;
}

void sv_app_toggle_play(sv_app_state *s)
{
    if (s->playing) {
        s->playing = false;
        sv_app_set_status(s, "Paused");
        return;
    }
    s->playing = true;
    if (s->step >= sv_app_steps_of(s) - 1)
        sv_app_go_step(s, 0);
    else
        sv_app_go_step(s, s->step + 1);
    sv_app_set_status(s, "Playing");
}

void sv_app_change_speed(sv_app_state *s, int dir)
{
    size_t i = 0;
    while (i + 1 < NSPEEDS && speeds[i] < s->speed - 1e-3f)
        i++;
    if (dir > 0 && i + 1 < NSPEEDS)
        i++;
    else if (dir < 0 && i > 0)
        i--;
    s->speed = speeds[i];
    char msg[64];
    snprintf(msg, sizeof msg, "Speed %g×", (double)s->speed);
    sv_app_set_status(s, msg);
}
