/* Predict mode (P, --quiz): Right asks about the next step with its
 * written row hidden, the answers are typed or marked per cell, Right again
 * reveals and scores them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/parse.h"
#include "app_internal.h"
#include "kpane.h"

int sv_app_quiz_row(const sv_app_state *s, int k)
{
    if (s->ktrace) /* a kernel trace: the pane row the step writes most (kquiz.c) */
        return k >= 0 ? sv_kquiz_row(s->ktrace, (size_t)k) : -1;
    sv_step_view v;
    return sv_steps_at(s->trace, k, &v) ? sv_steps_asked_row(&v) : 3;
}

/* Forgets the current question: its answers, verdicts and the typed text
 * (the running score stays). */
void sv_app_quiz_reset_question(sv_app_state *s)
{
    s->quiz_asking = false;
    s->quiz_scored = false;
    s->quiz_sel = 0;
    s->quiz_text[0] = '\0';
    memset(s->quiz_has, 0, sizeof s->quiz_has);
    memset(s->quiz_value, 0, sizeof s->quiz_value);
    memset(s->quiz_mark, 0, sizeof s->quiz_mark);
    memset(s->quiz_result, 0, sizeof s->quiz_result);
}

/* The true value and case of cell i of the row step k writes. */
static void quiz_truth(const sv_app_state *s, int k, int i, sv_value *val, int *cs)
{
    const sv_trace *t = s->trace;
    sv_step_view v;
    *cs = -1;
    val->i = 0;
    if (s->ktrace) { /* the value the kernel's trace has in the asked cell */
        sv_kquiz_truth(s->ktrace, (size_t)k, (uint32_t)i, val);
        return;
    }
    if (!sv_steps_at(t, k, &v))
        return;
    const sv_round *rd = v.rd;
    if (v.shift)
        *val = t->output[i];
    else if (v.round == 0)
        *val = rd->buf[0][i];
    else {
        *val = rd->buf[rd->pout][i];
        if (rd->cases)
            *cs = (int)rd->cases[i];
    }
}

void sv_app_quiz_set(sv_app_state *s, bool on)
{
    if (on && s->trace && s->trace->n > SV_MAX_N) { /* a kernel file's many blocks */
        char msg[160];
        snprintf(msg, sizeof msg, "Predict mode asks about at most %d cells; this input has %zu "
                 "(zoom in to read a tile's values)", SV_MAX_N, s->trace->n);
        sv_app_set_status(s, msg);
        on = false;
    }
    s->quiz = on && s->trace;
    sv_app_quiz_reset_question(s);
    s->quiz_right = s->quiz_total = 0;
    s->quiz_step = s->step;
}

/* Commits the typed number to the selected cell; false (and a message) when
 * it is not a number of the trace's type. */
static bool quiz_commit(sv_app_state *s)
{
    if (!s->quiz_text[0] || !s->trace)
        return true;
    sv_value *v = NULL;
    size_t n = 0;
    char err[256], msg[300];
    if (!sv_parse_values(s->quiz_text, s->trace->type, 1, &v, &n, err, sizeof err)) {
        snprintf(msg, sizeof msg, "Answer: %.280s", err);
        sv_app_set_status(s, msg);
        return false;
    }
    if (s->quiz_sel >= 0 && (size_t)s->quiz_sel < s->trace->n) {
        s->quiz_has[s->quiz_sel] = true;
        s->quiz_value[s->quiz_sel] = v[0];
    }
    free(v);
    s->quiz_text[0] = '\0';
    return true;
}

/* Whether cell i is asked: every cell of the row, or of a kernel trace's
 * row only those the step writes. */
static bool is_asked(const sv_app_state *s, int i)
{
    sv_value v;
    return !s->ktrace || sv_kquiz_truth(s->ktrace, (size_t)s->step, (uint32_t)i, &v);
}

void sv_app_quiz_select(sv_app_state *s, int i)
{
    if (!s->trace || !quiz_commit(s))
        return;
    int n = (int)s->trace->n, dir = i < s->quiz_sel ? -1 : 1;
    i = ((i % n) + n) % n;
    for (int tries = 0; tries < n && !is_asked(s, i); tries++) /* on to the next asked cell */
        i = ((i + dir) % n + n) % n;
    s->quiz_sel = i;
}

/* Right / Page Down after a revealed step, once the next step is shown
 * (app_keys.c goes there): that step becomes a question, in the step view
 * (the overview, which would answer it, closes; V while a question is open
 * leaves it, app_keys.c). */
void sv_app_quiz_ask(sv_app_state *s)
{
    s->overview = false; /* it shows every step's cells: no question is open over it */
    s->anim = 1.0f; /* nothing moves into hidden cells; Reveal animates */
    s->from_step = s->step;
    sv_app_quiz_reset_question(s);
    s->quiz_step = s->step;
    if (s->ktrace && sv_app_quiz_row(s, s->step) < 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "Step %d writes no cell: nothing to predict (Right goes on)",
                 s->step + 1);
        sv_app_set_status(s, msg);
        return;
    }
    s->quiz_asking = true;
    s->quiz_sel = 0;
    if (!is_asked(s, 0))
        sv_app_quiz_select(s, 1);
}

/* Right / Page Down on a question: mark each answer, add them to the score
 * and show the step, moving its values in as a step does. */
void sv_app_quiz_reveal(sv_app_state *s)
{
    if (!quiz_commit(s))
        return;
    sv_quiz_kind kind = sv_app_quiz_kind_at(s, s->step);
    int right = 0, asked = 0;
    for (size_t i = 0; i < s->trace->n; i++) {
        sv_value want;
        int cs;
        quiz_truth(s, s->step, (int)i, &want, &cs);
        bool answered = kind == SV_QUIZ_VALUES ? s->quiz_has[i] && is_asked(s, (int)i)
                                               : s->quiz_mark[i] != 0;
        if (!answered) {
            s->quiz_result[i] = SV_QUIZ_UNASKED;
            continue;
        }
        bool ok;
        if (kind == SV_QUIZ_OUTCOME) {
            /* right = right in every run: one wrong run is the race showing */
            sv_step_view v;
            size_t r = sv_steps_at(s->trace, s->step, &v) ? (size_t)v.round : 0;
            bool right = s->lab->cells[r * s->lab->n + i].wrong_runs == 0;
            ok = (s->quiz_mark[i] == SV_QUIZ_RIGHT) == right;
        } else if (kind == SV_QUIZ_CASES) {
            ok = (int)s->quiz_mark[i] - 1 == cs;
        } else if (s->trace->type == SV_TYPE_FLOAT32) {
            /* what was typed is read as a float32, as the cells hold it;
             * a shown value that was rounded to fit still counts */
            float a = s->quiz_value[i].f, b = want.f;
            ok = a == b || (isnan(a) && isnan(b)) ||
                 fabsf(a - b) <= 1e-6f * fmaxf(1.0f, fabsf(b));
        } else {
            ok = s->quiz_value[i].i == want.i;
        }
        s->quiz_result[i] = ok ? SV_QUIZ_RIGHT : SV_QUIZ_WRONG;
        right += ok;
        asked++;
    }
    s->quiz_right += right;
    s->quiz_total += asked;
    s->quiz_scored = true;
    s->quiz_asking = false;
    s->quiz_step = s->step;
    if (s->animations && s->step > 0) {
        s->from_step = s->step - 1;
        s->anim = 0.0f;
    }
    char msg[128];
    if (asked)
        snprintf(msg, sizeof msg, "%d of %d right · score %d / %d", right, asked,
                 s->quiz_right, s->quiz_total);
    else
        snprintf(msg, sizeof msg, "Revealed (no answers given)");
    sv_app_set_status(s, msg);
}

/* Cycles a mark: cases none, full, partial, copy-through, none; outcome
 * none, right, wrong, none. */
void sv_app_quiz_cycle_mark(sv_app_state *s, int i)
{
    static const unsigned char next[4] = { 1 + SV_CASE_FULL, 0, 1 + SV_CASE_COPY,
                                           1 + SV_CASE_PARTIAL };
    /* next[mark]: 0 -> full, 1 + copy -> none, 1 + partial -> copy,
     * 1 + full -> partial (SV_CASE_COPY 0, PARTIAL 1, FULL 2) */
    static const unsigned char next_outcome[3] = { SV_QUIZ_RIGHT, SV_QUIZ_WRONG, 0 };
    if (i < 0 || (size_t)i >= s->trace->n)
        return;
    if (sv_app_quiz_kind_at(s, s->step) == SV_QUIZ_OUTCOME)
        s->quiz_mark[i] = s->quiz_mark[i] < 3 ? next_outcome[s->quiz_mark[i]] : 0;
    else if (s->quiz_mark[i] < 4)
        s->quiz_mark[i] = next[s->quiz_mark[i]];
}

/* The keys of a question (values: digits, '-', '.', Backspace, Return;
 * cases: Return cycles, 1 / 2 / 3 mark full / partial / copy-through, 0 or
 * Backspace clears; outcome: Return cycles, 1 / 2 mark right / wrong, 0 or
 * Backspace clears; all: Tab / Shift+Tab move). True when k was used. */
bool sv_app_quiz_key(sv_app_state *s, const SDL_Keysym *k)
{
    if (!s->quiz || !s->quiz_asking || !s->trace)
        return false;
    bool shift = (k->mod & KMOD_SHIFT) != 0;
    sv_quiz_kind kind = sv_app_quiz_kind_at(s, s->step);
    bool cases = kind != SV_QUIZ_VALUES; /* marks, not numbers */
    int sel = s->quiz_sel;
    char ch = 0;
    switch (k->sym) {
    case SDLK_TAB:
        sv_app_quiz_select(s, sel + (shift ? -1 : 1));
        return true;
    case SDLK_RETURN: case SDLK_KP_ENTER:
        if (cases) {
            sv_app_quiz_cycle_mark(s, sel);
        } else if (s->quiz_text[0] && quiz_commit(s)) {
            if ((size_t)sel + 1 < s->trace->n)
                s->quiz_sel = sel + 1; /* the next cell, for a row of answers */
        }
        return true;
    case SDLK_BACKSPACE: case SDLK_DELETE:
        if (cases) {
            s->quiz_mark[sel] = 0;
        } else {
            size_t len = strlen(s->quiz_text);
            if (len)
                s->quiz_text[len - 1] = '\0';
            else
                s->quiz_has[sel] = false;
        }
        return true;
    case SDLK_ESCAPE:
        if (s->quiz_text[0]) {
            s->quiz_text[0] = '\0';
            return true;
        }
        return false;
    case SDLK_MINUS: case SDLK_KP_MINUS: ch = '-'; break;
    case SDLK_PERIOD: case SDLK_KP_PERIOD: ch = '.'; break;
    case SDLK_KP_0: ch = '0'; break;
    default:
        if (k->sym >= SDLK_0 && k->sym <= SDLK_9)
            ch = (char)('0' + (k->sym - SDLK_0));
        else if (k->sym >= SDLK_KP_1 && k->sym <= SDLK_KP_9)
            ch = (char)('1' + (k->sym - SDLK_KP_1));
        break;
    }
    if (!ch)
        return false;
    if (kind == SV_QUIZ_OUTCOME) {
        if (ch >= '0' && ch <= '2')
            s->quiz_mark[sel] = (unsigned char)(ch - '0'); /* SV_QUIZ_RIGHT 1, _WRONG 2 */
        return true;
    }
    if (cases) {
        if (ch >= '0' && ch <= '3') {
            static const unsigned char mark[4] = { 0, 1 + SV_CASE_FULL, 1 + SV_CASE_PARTIAL,
                                                   1 + SV_CASE_COPY };
            s->quiz_mark[sel] = mark[ch - '0'];
        }
        return true;
    }
    size_t len = strlen(s->quiz_text);
    if (len + 1 < sizeof s->quiz_text) {
        s->quiz_text[len] = ch;
        s->quiz_text[len + 1] = '\0';
    }
    return true;
}

void sv_app_quiz_next_kind(sv_app_state *s)
{
    /* values -> cases -> (a mistake shown) right or wrong -> values */
    s->quiz_kind = s->quiz_kind == SV_QUIZ_VALUES ? SV_QUIZ_CASES
                 : s->quiz_kind == SV_QUIZ_CASES && s->lab ? SV_QUIZ_OUTCOME
                 : SV_QUIZ_VALUES;
    bool asking = s->quiz_asking;
    sv_app_quiz_reset_question(s);
    s->quiz_asking = asking;
    sv_app_set_status(s, s->quiz_kind == SV_QUIZ_CASES
                             ? "Question: which cells are full / partial / copy-through?"
                         : s->quiz_kind == SV_QUIZ_OUTCOME
                             ? "Question: will each cell be right in every run?"
                             : "Question: what value will each cell hold?");
}
