/* Predict mode answers nothing while a question is open (issue 28), in
 * the app's logic and in frames drawn headless (the recorded scene), on the
 * chapter's trace and on a kernel trace (kquiz.c):
 *  - V (the overview, every step's cells) leaves an open question,
 *    unscored, and says so; asking closes the overview;
 *  - the "which cases" question shows no count of this round's operations
 *    (ops this round 7 would say how many cells are full or partial); it
 *    shows after Reveal;
 *  - on a kernel trace, the asked step's operations and hazards and the
 *    output's verdict ("output right") show after Reveal.
 *
 * usage: test_app_quiz OUT_DIR EXERCISES_DIR */
#define _GNU_SOURCE
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_test.h"
#include "../render/view_test.h"

static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};

/* Draws s; whether any text drawn matches the extended regex re (the
 * matching text in hit). */
static bool drawn_matches(const sv_app_state *s, const char *re, const char *png, char *hit,
                          size_t len)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    view_draw(&v, s->fb_w, s->fb_h, rec, "quiz-", png);
    regex_t rx;
    CHECK(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) == 0);
    bool found = false;
    hit[0] = '\0';
    for (size_t k = 0; k < sv_gfx_rec_count(rec) && !found; k++) {
        const sv_prim *q = sv_gfx_rec_prim(rec, k);
        if (q->kind == SV_PRIM_TEXT && regexec(&rx, q->text, 0, NULL, 0) == 0) {
            found = true;
            snprintf(hit, len, "%s", q->text);
        }
    }
    regfree(&rx);
    sv_gfx_rec_destroy(rec);
    return found;
}

/* V during a question, and a question over the overview. */
static void overview_leaves(sv_app_state *s, const char *what)
{
    char hit[512];
    CHECK_MSG(s->quiz_asking && !s->overview, "%s: a question is open", what);
    int right = s->quiz_right, total = s->quiz_total, step = s->step;
    press(s, "v");
    CHECK_MSG(!(s->overview && s->quiz_asking), "%s: V shows the overview with the question "
              "still open (its answers on screen)", what);
    CHECK_MSG(s->overview && strstr(s->status, "Question left"), "%s: V: overview %d, \"%s\"",
              what, s->overview, s->status);
    CHECK_MSG(drawn_matches(s, "^Overview|.", "overview", hit, sizeof hit), "%s: nothing drawn",
              what);
    key(s, SDLK_RIGHT, 0); /* reveals nothing: the question is gone; asks the next step */
    CHECK_MSG(s->quiz_right == right && s->quiz_total == total,
              "%s: the left question was scored (%d / %d -> %d / %d)", what, right, total,
              s->quiz_right, s->quiz_total);
    CHECK_MSG(s->quiz_asking && !s->overview && s->step == step + 1,
              "%s: Right from the overview asks step %d in the step view (asking %d, overview "
              "%d, step %d)", what, step + 1, s->quiz_asking, s->overview, s->step);
}

static void chapter_cases(void)
{
    sv_app_state s;
    chapter_app(&s, false);
    char hit[512];
    press(&s, "pq"); /* predict mode, the "which cases" question */
    key(&s, SDLK_RIGHT, 0); /* ask round 1 */
    CHECK_MSG(s.quiz_asking && s.step == 1 && s.quiz_kind == SV_QUIZ_CASES,
              "P Q Right asks round 1's cases (asking %d, step %d)", s.quiz_asking, s.step);
    CHECK_MSG(!drawn_matches(&s, "ops this round [0-9]", "cases-asking", hit, sizeof hit),
              "the cases question shows \"%s\"", hit);
    key(&s, SDLK_RIGHT, 0); /* reveal */
    CHECK_MSG(!s.quiz_asking, "Right reveals");
    CHECK_MSG(drawn_matches(&s, "ops this round 7 ", "cases-revealed", hit, sizeof hit),
              "after Reveal: no \"ops this round 7\"");
    key(&s, SDLK_RIGHT, 0); /* ask round 2 */
    overview_leaves(&s, "chapter, cases");
    sv_app_cleanup(&s);
    /* The values question too. */
    chapter_app(&s, false);
    press(&s, "p");
    key(&s, SDLK_RIGHT, 0);
    overview_leaves(&s, "chapter, values");
    sv_app_cleanup(&s);
}

static void kernel_trace(const char *exdir)
{
    char path[600], hit[512];
    /* double-buffer's starting file: one buffer, right under lockstep
     * with hazards, so its note would say "output right". */
    snprintf(path, sizeof path, "%s/double-buffer/start.cu", exdir);
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = false;
    c.kernel_file = path;
    c.quiz = true;
    sv_app_state s;
    if (!start_app(&s, &c))
        return;
    CHECK_MSG(s.ktrace && s.ktrace->nsteps >= 3 && s.ktrace->hazards_total > 0 &&
                  s.ktrace->first_wrong < 0,
              "double-buffer's start: right with hazards under lockstep");
    CHECK_MSG(drawn_matches(&s, "output right", "kernel-start", hit, sizeof hit),
              "before a question: no \"output right\" note");
    /* Ask the last step (out): Right asks, Right reveals, ... */
    int last = (int)s.ktrace->nsteps - 1;
    for (int i = 0; i < 2 * last && !(s.quiz_asking && s.step == last); i++)
        key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(s.quiz_asking && s.step == last, "the last step asked (asking %d, step %d of %d)",
              s.quiz_asking, s.step, last);
    CHECK_MSG(!drawn_matches(&s, "output (right|wrong)|ops this step [0-9]|hazards [0-9]",
                             "kernel-asking", hit, sizeof hit),
              "a kernel trace's open question shows \"%s\"", hit);
    key(&s, SDLK_LEFT, 0); /* leave it; back to the step before, asked again */
    key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(s.quiz_asking && s.step == last, "asked again");
    key(&s, SDLK_RIGHT, 0);
    CHECK_MSG(drawn_matches(&s, "output right", "kernel-revealed", hit, sizeof hit),
              "after Reveal: no \"output right\"");
    /* V on a kernel trace's question. */
    key(&s, SDLK_HOME, 0);
    key(&s, SDLK_RIGHT, 0);
    overview_leaves(&s, "kernel trace");
    sv_app_cleanup(&s);
}

int main(int argc, char **argv)
{
    const char *exdir = argc > 2 ? argv[2] : "assets/exercises";
    view_test_open(argc, argv, "predict mode answers nothing");
    chapter_cases();
    kernel_trace(exdir);
    return view_test_close("app predict mode: all checks passed");
}
