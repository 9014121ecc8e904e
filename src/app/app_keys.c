/* The keys: keys.h's table expanded into bindings, the dispatcher that
 * picks one for a key press, and the actions they name (each a few lines
 * calling the file of its idea). */
#include <math.h>
#include <stdio.h>

#include "app_internal.h"
#include "keys.h"
#include "render_timeline.h" /* sv_tl_clamp */
#include "../core/ktrace_tiles.h"
#include "../core/timeline.h"
#include "util.h"

typedef bool (*sv_key_action)(sv_app_state *s, const SDL_KeyboardEvent *e);

typedef struct sv_key_binding {
    SDL_Keycode sym, last;  /* the keys sym .. last (last 0: sym alone) */
    int mods;               /* SV_KEYMOD_* */
    unsigned when;          /* SV_KEYWHEN_* bits, all needed */
    unsigned flags;         /* SV_KEYF_* */
    sv_key_action action;
} sv_key_binding;

/* ---- the actions (true: the key was used) -------------------------------- */

#define ACTION(name) static bool act_##name(sv_app_state *s, const SDL_KeyboardEvent *e)
#define UNUSED_EVENT (void)e

ACTION(script_next) { UNUSED_EVENT; sv_app_script_go(s, s->script_at + 1); return true; }
ACTION(script_prev) { UNUSED_EVENT; sv_app_script_go(s, s->script_at - 1); return true; }
ACTION(script_first) { UNUSED_EVENT; sv_app_script_go(s, 0); return true; }
ACTION(script_last) { UNUSED_EVENT; sv_app_script_go(s, s->script.n - 1); return true; }

/* Right, Page Down: a step; in predict mode ask, then reveal. */
ACTION(forward)
{
    UNUSED_EVENT;
    if (s->compare) { /* the compare view: the panes that step (Tab) */
        sv_app_compare_go(s, +1, false);
    } else if (s->quiz && s->quiz_asking) {
        sv_app_quiz_reveal(s);
    } else if (s->quiz) { /* the next step as a question (none after the last) */
        if (s->step < sv_app_steps_of(s) - 1) {
            sv_app_go_step(s, s->step + 1);
            sv_app_quiz_ask(s);
        }
    } else {
        sv_app_go_step(s, s->step + 1);
    }
    return true;
}

/* Left, Home, End; in the compare view the panes that step (Tab). */
static bool go(sv_app_state *s, int k, int delta, bool to_end)
{
    if (s->compare)
        sv_app_compare_go(s, delta, to_end);
    else
        sv_app_go_step(s, k); /* drops a question */
    return true;
}

ACTION(back) { UNUSED_EVENT; return go(s, s->step - 1, -1, false); }
ACTION(first) { UNUSED_EVENT; return go(s, 0, -1, true); }
ACTION(last) { UNUSED_EVENT; return go(s, sv_app_steps_of(s) - 1, +1, true); }
ACTION(phase_next) { UNUSED_EVENT; sv_app_step_phase(s, +1); return true; }
ACTION(phase_prev) { UNUSED_EVENT; sv_app_step_phase(s, -1); return true; }
ACTION(play) { UNUSED_EVENT; sv_app_toggle_play(s); return true; }
ACTION(faster) { UNUSED_EVENT; sv_app_change_speed(s, +1); return true; }
ACTION(slower) { UNUSED_EVENT; sv_app_change_speed(s, -1); return true; }
ACTION(edit) { UNUSED_EVENT; sv_app_edit_open(s); return true; }

ACTION(preset)
{
    sv_app_apply_preset(s, (int)(e->keysym.sym - SDLK_0));
    return true;
}

ACTION(random) { UNUSED_EVENT; sv_app_random_input(s); return true; }

ACTION(scan_kind)
{
    UNUSED_EVENT;
    sv_scan sc = s->scan == SV_SCAN_INCLUSIVE ? SV_SCAN_EXCLUSIVE : SV_SCAN_INCLUSIVE;
    sv_app_with_current_input(s, s->op, sc,
                              sc == SV_SCAN_EXCLUSIVE ? "Exclusive scan" : "Inclusive scan");
    return true;
}

ACTION(type) { UNUSED_EVENT; sv_app_next_type(s); return true; }
ACTION(op) { UNUSED_EVENT; sv_app_next_op(s); return true; }

ACTION(theme)
{
    UNUSED_EVENT;
    s->theme = (sv_theme_id)((s->theme + 1) % SV_THEME_COUNT);
    char msg[64];
    snprintf(msg, sizeof msg, "Theme: %s", sv_theme_get(s->theme)->name);
    sv_app_set_status(s, msg);
    return true;
}

ACTION(fullscreen) { UNUSED_EVENT; s->fullscreen = !s->fullscreen; return true; }

static bool ui_scale(sv_app_state *s, float to)
{
    s->ui_scale = sv_clampf(to, (float)SV_UI_SCALE_MIN, (float)SV_UI_SCALE_MAX);
    sv_app_clamp_view(s);
    return true;
}

ACTION(ui_bigger) { UNUSED_EVENT; return ui_scale(s, s->ui_scale * 1.1f); }
ACTION(ui_smaller) { UNUSED_EVENT; return ui_scale(s, s->ui_scale / 1.1f); }
ACTION(ui_reset) { UNUSED_EVENT; return ui_scale(s, 1.0f); }
ACTION(tile_step)
{
    return sv_app_tile_step(s, (e->keysym.mod & KMOD_SHIFT) ? -1 : 1);
}

ACTION(zoom_in) { UNUSED_EVENT; sv_app_zoom_centre(s, 1.25f); return true; }
ACTION(zoom_out) { UNUSED_EVENT; sv_app_zoom_centre(s, 1.0f / 1.25f); return true; }

ACTION(pan_right)
{
    UNUSED_EVENT;
    sv_app_pan_by(s, fmaxf(1.0f, sv_app_visible_cells(s) / 4.0f));
    return true;
}

ACTION(pan_left)
{
    UNUSED_EVENT;
    sv_app_pan_by(s, -fmaxf(1.0f, sv_app_visible_cells(s) / 4.0f));
    return true;
}

ACTION(zoom_reset)
{
    UNUSED_EVENT;
    s->zoom = 1.0f;
    s->pan = 0.0f;
    s->ktile_lo = -1; /* (Tab starts again from the first tile) */
    return true;
}

ACTION(overview)
{
    UNUSED_EVENT;
    s->overview = !s->overview;
    if (s->overview && s->quiz_asking) {
        /* The overview shows every step's cells: it would answer the open
         * question, so the question is left (unscored), as Left leaves it. */
        sv_app_quiz_reset_question(s);
        sv_app_set_status(s, "Question left (the overview shows its answers): V back, "
                             "Right asks about the next step");
        return true;
    }
    if (s->ktrace) /* a kernel trace: its steps (pane_kernel_overview.c) */
        sv_app_set_status(s, s->overview ? "Overview: every step" : "The steps");
    else
        sv_app_set_status(s, s->overview ? "Overview: every round" : "The rounds");
    return true;
}

ACTION(compare) { UNUSED_EVENT; sv_app_compare_toggle(s); return true; }
ACTION(compare_focus) { UNUSED_EVENT; sv_app_compare_next_focus(s); return true; }

ACTION(code)
{
    UNUSED_EVENT;
    s->code = !s->code;
    sv_app_clamp_view(s);
    sv_app_set_status(s, s->code ? "Kernel source shown (C hides it)" : "Kernel source hidden");
    return true;
}

/* K: the next kernel; with a --trace deck, K / Shift+K walk its files. */
ACTION(kernel)
{
    if (s->deck_n > 1)
        sv_app_deck_step(s, (e->keysym.mod & KMOD_SHIFT) ? -1 : 1);
    else
        sv_app_next_kernel(s);
    return true;
}

ACTION(correct)
{
    UNUSED_EVENT;
    if (s->kf) { /* a kernel file: the chapter kernel's values beside */
        sv_app_kfile_toggle_compare(s);
        return true;
    }
    s->show_correct = !s->show_correct;
    sv_app_set_status(s, !s->show_correct ? "Correct values hidden"
                         : s->lab ? "Correct kernel's values shown beside (D hides them)"
                                  : "D: the correct values show beside a mistake's (K)");
    return true;
}

ACTION(kedit) { UNUSED_EVENT; sv_app_kfile_edit(s); return true; }
ACTION(kschedule) { UNUSED_EVENT; sv_app_kfile_next_schedule(s); return true; }
ACTION(kwrong_next) { UNUSED_EVENT; sv_app_kfile_wrong_run(s, false); return true; }
ACTION(kwrong_prev) { UNUSED_EVENT; sv_app_kfile_wrong_run(s, true); return true; }
ACTION(ex_hint) { UNUSED_EVENT; sv_app_exercise_hint(s); return true; }
ACTION(ex_reveal) { UNUSED_EVENT; sv_app_exercise_reveal(s); return true; }
ACTION(ex_next) { UNUSED_EVENT; sv_app_exercise_next(s); return true; }
ACTION(ex_scroll_down) { UNUSED_EVENT; sv_app_exercise_scroll(s, +1); return true; }
ACTION(ex_scroll_up) { UNUSED_EVENT; sv_app_exercise_scroll(s, -1); return true; }
ACTION(ex_page_down) { UNUSED_EVENT; sv_app_exercise_scroll_page(s, +1); return true; }
ACTION(ex_page_up) { UNUSED_EVENT; sv_app_exercise_scroll_page(s, -1); return true; }

ACTION(measure)
{
    UNUSED_EVENT;
    if (s->compare) /* the Measure view with where the extra work costs time */
        sv_app_compare_measure(s);
    else
        sv_app_show(s, s->view == SV_VIEW_SCAN ? SV_VIEW_MEASURE : SV_VIEW_SCAN);
    return true;
}

ACTION(bench) { UNUSED_EVENT; sv_app_bench_toggle(s); return true; }

/* L in the scan view: a kernel file's launch (its step shown) as its tiles
 * over time, in the Measure view (--timeline FILE's kept aside). */
ACTION(tl_launch)
{
    UNUSED_EVENT;
    int l = s->ktrace ? sv_ktrace_tiles_launch(s->ktrace, (size_t)s->step) : -1;
    if (l < 0) {
        sv_app_set_status(s, "L shows a launch's tiles over time: a kernel file with a host "
                             "function scan, at the step of one of its launches");
        return true;
    }
    char err[256];
    sv_timeline *tl = sv_ktrace_launch_timeline(s->ktrace, (size_t)l, err, sizeof err);
    if (!tl) {
        sv_app_set_status(s, err);
        return true;
    }
    if (s->timeline && !s->timeline->kernel[0] && !s->timeline_file)
        s->timeline_file = s->timeline;
    else if (s->timeline != s->timeline_file)
        sv_timeline_destroy(s->timeline);
    s->timeline = tl;
    s->timeline_on = true;
    s->tl_first = 0;
    s->tl_rows = SV_TL_ROWS_DEFAULT;
    s->tl_cursor = SV_TL_NO_CURSOR;
    sv_tl_clamp(s->timeline, &s->tl_first, &s->tl_rows);
    sv_app_show(s, SV_VIEW_MEASURE);
    return true;
}

/* Right / Left in a timeline: step by time. */
static bool tl_step(sv_app_state *s, bool later)
{
    uint64_t at;
    if (sv_timeline_step_time(s->timeline, s->tl_cursor, later, &at))
        s->tl_cursor = at;
    else if (!later)
        s->tl_cursor = SV_TL_NO_CURSOR; /* before the first: the whole run again */
    return true;
}
ACTION(tl_later) { UNUSED_EVENT; return tl_step(s, true); }
ACTION(tl_earlier) { UNUSED_EVENT; return tl_step(s, false); }

/* The look-back timeline (--timeline FILE, or L's launch): L shows it or the
 * plots; the rest scroll and zoom its tiles (render_timeline.h clamps them). */
ACTION(tl_toggle)
{
    UNUSED_EVENT;
    if (!s->timeline) {
        sv_app_set_status(s, "No look-back timeline: scanviz --timeline FILE opens one "
                             "(scanviz-bench --timeline FILE records it on a GPU)");
        return true;
    }
    s->timeline_on = !s->timeline_on;
    return true;
}
static bool tl_move(sv_app_state *s, int first, int rows)
{
    sv_tl_clamp(s->timeline, &first, &rows);
    s->tl_first = first;
    s->tl_rows = rows;
    return true;
}
ACTION(tl_down) { UNUSED_EVENT; return tl_move(s, s->tl_first + 1, s->tl_rows); }
ACTION(tl_up) { UNUSED_EVENT; return tl_move(s, s->tl_first - 1, s->tl_rows); }
ACTION(tl_page_down) { UNUSED_EVENT; return tl_move(s, s->tl_first + s->tl_rows, s->tl_rows); }
ACTION(tl_page_up) { UNUSED_EVENT; return tl_move(s, s->tl_first - s->tl_rows, s->tl_rows); }
ACTION(tl_home) { UNUSED_EVENT; return tl_move(s, 0, s->tl_rows); }
ACTION(tl_end) { UNUSED_EVENT; return tl_move(s, (int)s->timeline->ntiles, s->tl_rows); }
ACTION(tl_fewer)
{
    UNUSED_EVENT;
    int rows = s->tl_rows / 2 < SV_TL_ROWS_MIN ? SV_TL_ROWS_MIN : s->tl_rows / 2;
    return tl_move(s, s->tl_first, rows);
}
ACTION(tl_more)
{
    UNUSED_EVENT;
    int n = (int)s->timeline->ntiles;
    return tl_move(s, s->tl_first, s->tl_rows >= n / 2 ? n : s->tl_rows * 2);
}

ACTION(predict)
{
    UNUSED_EVENT;
    bool on = !s->quiz;
    sv_app_quiz_set(s, on);
    if (s->quiz == on) /* (refused: sv_app_quiz_set said why) */
        sv_app_set_status(s, s->quiz ? "Predict mode: Right asks about the next round"
                                     : "Predict mode off");
    return true;
}

ACTION(question) { UNUSED_EVENT; sv_app_quiz_next_kind(s); return true; }
/* An open question's keys: what they mean depends on the question. */
ACTION(answer) { return sv_app_quiz_key(s, &e->keysym); }
ACTION(help) { UNUSED_EVENT; s->help = !s->help; return true; }
ACTION(state_line) { UNUSED_EVENT; s->want_state_line = true; return true; }

/* Esc: one thing at a time: the help, the Measure view, the overview,
 * fullscreen, and only then the app, asking first when the array was made
 * here. (The input box and a half-typed answer take their Esc first.) */
ACTION(escape)
{
    UNUSED_EVENT;
    if (s->help)
        s->help = false;
    else if (s->view == SV_VIEW_MEASURE)
        sv_app_show(s, SV_VIEW_SCAN);
    else if (s->compare)
        sv_app_compare_toggle(s);
    else if (s->overview)
        s->overview = false;
    else if (s->fullscreen)
        s->fullscreen = false;
    else if (s->custom_input && !(s->quit_armed > 0.0f)) {
        s->quit_armed = SV_QUIT_ARM_S;
        sv_app_set_status(s, "Esc again quits and loses this array · Ctrl+Q quits");
    } else
        s->quit = true;
    return true;
}

ACTION(quit) { UNUSED_EVENT; s->quit = true; return true; } /* no question asked */

/* ---- the table and the dispatcher ---------------------------------------- */

#define SV_KEY_NO_LINE(label, what)
#define SV_KEY_BINDING(sym, last, mods, when, flags, action) \
    { sym, last, mods, when, flags, act_##action },
static const sv_key_binding bindings[] = {
    SV_KEYS_TABLE(SV_KEY_NO_LINE, SV_KEY_BINDING, SV_KEY_NO_LINE)
};
#define NBINDINGS (sizeof bindings / sizeof bindings[0])

/* The modes that hold now (SV_KEYWHEN_* bits). */
static unsigned modes_now(const sv_app_state *s)
{
    bool scan = s->view == SV_VIEW_SCAN;
    unsigned m = 0;
    if (scan && !s->quit)
        m |= SV_KEYWHEN_SCAN;
    if (!scan)
        m |= SV_KEYWHEN_MEASURE;
    if (s->script.n > 0 && !s->quit)
        m |= SV_KEYWHEN_SCRIPT;
    if (s->quiz)
        m |= SV_KEYWHEN_QUIZ;
    if (s->ex)
        m |= SV_KEYWHEN_EXERCISE;
    if (scan && !s->help && s->quiz && s->quiz_asking && s->trace)
        m |= SV_KEYWHEN_ASKING;
    if (scan && s->compare)
        m |= SV_KEYWHEN_COMPARE;
    if (!scan && s->timeline && s->timeline_on)
        m |= SV_KEYWHEN_TIMELINE;
    return m;
}

static bool mods_match(int want, const SDL_Keysym *k)
{
    bool ctrl = (k->mod & KMOD_CTRL) != 0, shift = (k->mod & KMOD_SHIFT) != 0;
    switch (want) {
    case SV_KEYMOD_CTRL: return ctrl;
    case SV_KEYMOD_SHIFT: return !ctrl && shift;
    case SV_KEYMOD_NOSHIFT: return !ctrl && !shift;
    default: return !ctrl;
    }
}

static bool binding_matches(const sv_key_binding *b, const SDL_KeyboardEvent *e, unsigned modes)
{
    SDL_Keycode sym = e->keysym.sym;
    bool key = b->last ? sym >= b->sym && sym <= b->last : sym == b->sym;
    return key && mods_match(b->mods, &e->keysym) && (b->when & modes) == b->when &&
           (!e->repeat || (b->flags & SV_KEYF_REPEAT));
}

void sv_app_key(sv_app_state *s, const SDL_KeyboardEvent *e)
{
    if (s->editing) {
        sv_app_edit_key(s, &e->keysym);
        return;
    }
    unsigned modes = modes_now(s);
    /* An open question's keys first, then the rest in table order. */
    for (int modal = 1; modal >= 0; modal--)
        for (size_t i = 0; i < NBINDINGS; i++) {
            const sv_key_binding *b = &bindings[i];
            if (((b->when & SV_KEYWHEN_ASKING) != 0) == (modal != 0) &&
                binding_matches(b, e, modes) && b->action(s, e))
                return;
        }
}
