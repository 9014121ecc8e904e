/* The app's behaviour without a window: synthetic SDL events into
 * sv_app_event() and time into sv_app_update(), checked on the state. Covers
 * what the Xvfb tests cannot pin down exactly: animation timing, autoplay
 * looping, clamping, the input box's UTF-8 editing, zoom and pan bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_test.h"

/* Issue 10, section 3: fixes 1, 2, 3, 9 and 10 (the tooltip's place is a
 * pixel test in tests/render). */
static void test_lecture_fixes(void)
{
    sv_app_state s;
    sv_layout l;

    /* 1. Esc leaves fullscreen first; with an array made here it asks
     * before quitting (a second Esc within 3 s quits); Ctrl+Q quits. */
    chapter_app(&s, false);
    key(&s, SDLK_f, 0);
    CHECK(s.fullscreen);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(!s.fullscreen && !s.quit);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(s.quit); /* the array given on the command line: nothing is lost */
    sv_app_cleanup(&s);
    chapter_app(&s, false);
    key(&s, SDLK_e, 0);
    text(&s, "9 8 7");
    key(&s, SDLK_RETURN, 0);
    CHECK(!s.editing && s.trace->n == 3);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(!s.quit && s.quit_armed > 0.0f && strstr(s.status, "Ctrl+Q"));
    CHECK(line_has(&s, " quit_armed=1 "));
    run(&s, 3.2f); /* the question lapses */
    CHECK(s.quit_armed == 0.0f);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(!s.quit);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(s.quit);
    sv_app_cleanup(&s);
    chapter_app(&s, false);
    key(&s, SDLK_r, 0);
    key(&s, SDLK_q, KMOD_LCTRL);
    CHECK(s.quit);
    sv_app_cleanup(&s);

    /* 2. The [?] button opens the help; a click anywhere closes it. */
    chapter_app(&s, false);
    layout(&s, &l);
    click_at(&s, l.help_hint.x + l.help_hint.w / 2, l.help_hint.y + l.help_hint.h / 2);
    CHECK(s.help);
    click_at(&s, 640, 400);
    CHECK(!s.help);
    CHECK(line_has(&s, " helpbtn="));

    /* 3. A stale error: it follows the text as it is typed. */
    key(&s, SDLK_e, 0);
    text(&s, "3 1 7 o 4");
    key(&s, SDLK_RETURN, 0);
    CHECK(s.editing && strstr(s.edit_error, "\"o\"") != NULL);
    press(&s, "\b\b");
    CHECK(strcmp(s.edit_text, "3 1 7 o") == 0 && strstr(s.edit_error, "\"o\""));
    key(&s, SDLK_BACKSPACE, 0);
    CHECK(s.edit_error[0] == '\0'); /* "3 1 7 " is valid: red goes at once */
    text(&s, "0 4");
    CHECK(s.edit_error[0] == '\0' && s.trace->n == 8); /* nothing applied yet */
    text(&s, " z");
    CHECK(strstr(s.edit_error, "\"z\"") != NULL); /* named at once, no Return needed */
    press(&s, "\b\r");
    CHECK(!s.editing && s.trace->n == 5 && s.trace->input[3].i == 0);
    sv_app_cleanup(&s);

    /* 9. Y changes the element type (xor becomes sum on float32); X is I. */
    chapter_app(&s, false);
    key(&s, SDLK_y, 0);
    CHECK(s.type == SV_TYPE_FLOAT32 && s.trace->type == SV_TYPE_FLOAT32);
    CHECK(s.trace->input[2].f == 7.0f && s.trace->output[7].f == 25.0f);
    key(&s, SDLK_y, 0);
    CHECK(s.type == SV_TYPE_INT32 && s.trace->input[2].i == 7);
    for (int i = 0; i < 4; i++)
        key(&s, SDLK_o, 0); /* sum -> max -> min -> product -> xor */
    CHECK(s.op == SV_OP_XOR);
    key(&s, SDLK_y, 0);
    CHECK(s.type == SV_TYPE_FLOAT32 && s.op == SV_OP_SUM && strstr(s.status, "xor"));
    key(&s, SDLK_x, 0);
    CHECK(s.scan == SV_SCAN_EXCLUSIVE);
    key(&s, SDLK_x, 0);
    CHECK(s.scan == SV_SCAN_INCLUSIVE);
    sv_app_cleanup(&s);

    /* 10. A pinned buffer cell keeps its role when the round changes:
     * pout[5] stays pout[5] although buf[0] and buf[1] swap. */
    chapter_app(&s, false);
    key(&s, SDLK_RIGHT, 0); /* round 1: pin buf[0], pout buf[1] */
    layout(&s, &l);
    sv_box b = sv_layout_cell(&l, 2, 5);
    click_at(&s, b.x + b.w / 2, b.y + b.h / 2);
    CHECK(s.pinned_row == 2 && s.pinned_cell == 5);
    key(&s, SDLK_RIGHT, 0); /* round 2: pout is buf[0] */
    CHECK(s.pinned_row == 1 && s.pinned_cell == 5);
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.pinned_row == 2);
    key(&s, SDLK_HOME, 0); /* round 0 writes buf[0] */
    CHECK(s.pinned_row == 1);
    key(&s, SDLK_RIGHT, 0);
    layout(&s, &l);
    b = sv_layout_cell(&l, 1, 3); /* pin[3] in round 1 */
    click_at(&s, b.x + b.w / 2, b.y + b.h / 2);
    CHECK(s.pinned_row == 1 && s.pinned_cell == 3);
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.pinned_row == 2 && s.pinned_cell == 3); /* pin[3] of round 2 */
    sv_app_cleanup(&s);
}

/* Issue 10, section 1: predict mode. */
static void test_quiz(void)
{
    sv_app_state s;
    sv_layout l;
    chapter_app(&s, true);
    key(&s, SDLK_p, 0);
    CHECK(s.quiz && !s.quiz_asking && s.step == 0);
    CHECK(line_has(&s, " quiz=1 quiz_kind=values quiz_phase=shown "));
    /* Right asks about round 1: its pout (buf[1]) is hidden, at once. */
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.step == 1 && s.quiz_asking && s.anim == 1.0f && s.quiz_sel == 0);
    {
        sv_app_view v;
        sv_app_view_of(&s, &v);
        CHECK(v.quiz && v.quiz_asking && v.quiz_has == s.quiz_has && v.quiz_sel == 0);
    }
    /* Keyboard: Tab to cell 2, type 8 (right: 1 + 7), Return moves on to
     * cell 3; type 9 (wrong: 7 + 0 = 7); Shift+Tab, Tab; cell 0 by click. */
    press(&s, "\t\t");
    CHECK(s.quiz_sel == 2);
    key(&s, SDLK_8, 0);
    CHECK(strcmp(s.quiz_text, "8") == 0);
    key(&s, SDLK_RETURN, 0);
    CHECK(s.quiz_has[2] && s.quiz_value[2].i == 8 && s.quiz_sel == 3 && !s.quiz_text[0]);
    key(&s, SDLK_9, 0);
    key(&s, SDLK_TAB, KMOD_LSHIFT); /* moving commits what was typed */
    CHECK(s.quiz_has[3] && s.quiz_value[3].i == 9 && s.quiz_sel == 2);
    /* minus and Backspace */
    press(&s, "\t\t-4\b5");
    CHECK(strcmp(s.quiz_text, "-5") == 0 && s.speed == 1.0f); /* minus is not "slower" */
    key(&s, SDLK_RETURN, 0);
    CHECK(s.quiz_has[4] && s.quiz_value[4].i == -5);
    layout(&s, &l);
    sv_box b = sv_layout_cell(&l, 2, 0);
    click_at(&s, b.x + b.w / 2, b.y + b.h / 2);
    CHECK(s.quiz_sel == 0 && s.pinned_row == -1); /* selects, does not pin */
    key(&s, SDLK_3, 0);
    key(&s, SDLK_KP_ENTER, 0);
    CHECK(s.quiz_has[0] && s.quiz_value[0].i == 3);
    CHECK(line_has(&s, " quiz_phase=ask quiz_step=1 "));
    CHECK(line_has(&s, " quiz_answers=0:3,2:8,3:9,4:-5 "));
    /* Page Down reveals: 0 and 2 right, 3 and 4 wrong; the values move in. */
    key(&s, SDLK_PAGEDOWN, 0);
    CHECK(!s.quiz_asking && s.step == 1 && s.from_step == 0 && s.anim == 0.0f);
    CHECK(s.quiz_result[0] == SV_QUIZ_RIGHT && s.quiz_result[2] == SV_QUIZ_RIGHT);
    CHECK(s.quiz_result[3] == SV_QUIZ_WRONG && s.quiz_result[4] == SV_QUIZ_WRONG);
    CHECK(s.quiz_result[1] == SV_QUIZ_UNASKED);
    CHECK(s.quiz_right == 2 && s.quiz_total == 4);
    CHECK(line_has(&s, " quiz_score=2/4 "));
    CHECK(line_has(&s, " quiz_results=0:right,2:right,3:wrong,4:wrong "));
    run(&s, 0.5f);
    /* Q: the cases question for round 2 (stride 2: 0-1 copy, 2 partial,
     * 3.. full). Click cycles full, partial, copy, none; keys 1 2 3 0. */
    key(&s, SDLK_q, 0);
    CHECK(s.quiz_kind == SV_QUIZ_CASES);
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.step == 2 && s.quiz_asking);
    CHECK(line_has(&s, " quiz_kind=cases quiz_phase=ask "));
    layout(&s, &l);
    b = sv_layout_cell(&l, 1, 2); /* round 2's pout is buf[0] */
    click_at(&s, b.x + b.w / 2, b.y + b.h / 2);
    CHECK(s.quiz_sel == 2 && s.quiz_mark[2] == 1 + SV_CASE_FULL);
    click_at(&s, b.x + b.w / 2, b.y + b.h / 2);
    CHECK(s.quiz_mark[2] == 1 + SV_CASE_PARTIAL);
    key(&s, SDLK_TAB, KMOD_LSHIFT);
    key(&s, SDLK_3, 0);
    CHECK(s.quiz_sel == 1 && s.quiz_mark[1] == 1 + SV_CASE_COPY);
    key(&s, SDLK_TAB, KMOD_LSHIFT);
    key(&s, SDLK_2, 0); /* wrong: 0 copies through */
    press(&s, "\t\t\t\r"); /* cell 3: full */
    CHECK(s.quiz_mark[3] == 1 + SV_CASE_FULL);
    CHECK(line_has(&s, " quiz_answers=0:partial,1:copy,2:partial,3:full "));
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.quiz_result[0] == SV_QUIZ_WRONG && s.quiz_result[1] == SV_QUIZ_RIGHT &&
          s.quiz_result[2] == SV_QUIZ_RIGHT && s.quiz_result[3] == SV_QUIZ_RIGHT);
    CHECK(s.quiz_right == 5 && s.quiz_total == 8);
    run(&s, 0.5f);
    /* Left during a question drops it (no score); the shift step of an
     * exclusive scan asks about the output, with values (it has no cases). */
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.step == 3 && s.quiz_asking);
    key(&s, SDLK_LEFT, 0);
    CHECK(s.step == 2 && !s.quiz_asking && s.quiz_total == 8);
    key(&s, SDLK_i, 0); /* a new trace ends the question */
    CHECK(s.scan == SV_SCAN_EXCLUSIVE && s.quiz && !s.quiz_asking);
    key(&s, SDLK_END, 0);
    run(&s, 0.5f);
    key(&s, SDLK_LEFT, 0);
    run(&s, 0.5f);
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.step == 4 && s.quiz_asking);
    CHECK(line_has(&s, " quiz_kind=values quiz_phase=ask "));
    press(&s, "\t3\r"); /* output[1] = 3 */
    key(&s, SDLK_PAGEDOWN, 0);
    CHECK(s.quiz_result[1] == SV_QUIZ_RIGHT && s.quiz_right == 6 && s.quiz_total == 9);
    /* P turns it off; the score starts again next time. */
    key(&s, SDLK_p, 0);
    CHECK(!s.quiz);
    CHECK(line_has(&s, " quiz=0 "));
    key(&s, SDLK_p, 0);
    CHECK(s.quiz && s.quiz_total == 0);
    sv_app_cleanup(&s);

    /* float32 and max: answers are read as the trace's type. */
    static const sv_value fin[4] = {{.f = 0.5f}, {.f = 2.25f}, {.f = -1.0f}, {.f = 4.0f}};
    sv_app_config c = config(fin, 4, SV_TYPE_FLOAT32);
    c.op = SV_OP_MAX;
    c.quiz = true;
    c.animations = false;
    start_app(&s, &c);
    CHECK(s.quiz);
    key(&s, SDLK_RIGHT, 0);
    press(&s, "\t2.25\r"); /* max(0.5, 2.25) */
    press(&s, "-1\r"); /* max(2.25, -1) = 2.25: wrong */
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.quiz_result[1] == SV_QUIZ_RIGHT && s.quiz_result[2] == SV_QUIZ_WRONG);
    CHECK(s.step == 1 && s.anim == 1.0f);
    sv_app_cleanup(&s);
}

int main(void)
{
    char err[256];
    sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};
    sv_app_state s;
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    start_app(&s, &c);
    CHECK(s.trace && s.trace->n == 8);
    CHECK(sv_state_steps(&s) == 4);
    CHECK(strstr(s.source, "CPU emulator") != NULL);

    /* Stepping animates from the old step, settles after 0.35 s at speed 1,
     * and stays inside 0 .. steps-1. */
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.step == 1 && s.from_step == 0 && s.anim == 0.0f);
    run(&s, 0.17f);
    CHECK(s.anim > 0.4f && s.anim < 0.6f);
    run(&s, 0.25f);
    CHECK(s.anim == 1.0f && s.from_step == 1);
    for (int i = 0; i < 6; i++)
        key(&s, SDLK_RIGHT, 0);
    CHECK(s.step == 3);
    key(&s, SDLK_HOME, 0);
    CHECK(s.step == 0);
    key(&s, SDLK_LEFT, 0);
    CHECK(s.step == 0);
    key(&s, SDLK_END, 0);
    CHECK(s.step == 3);

    /* Space at the last round starts from 0 and plays to the end, then stops. */
    run(&s, 1.0f);
    key(&s, SDLK_SPACE, 0);
    CHECK(s.playing && s.step == 0);
    run(&s, 10.0f);
    CHECK(s.step == 3 && !s.playing);
    /* Faster: + twice is 1.5 then 2. */
    key(&s, SDLK_PLUS, 0);
    key(&s, SDLK_EQUALS, 0);
    CHECK(fabsf(s.speed - 2.0f) < 1e-6f);
    press(&s, "--");
    CHECK(fabsf(s.speed - 1.0f) < 1e-6f);

    /* I: exclusive has one more step; back to inclusive clamps the step. */
    key(&s, SDLK_i, 0);
    CHECK(s.scan == SV_SCAN_EXCLUSIVE && sv_state_steps(&s) == 5);
    key(&s, SDLK_END, 0);
    CHECK(s.step == 4);
    key(&s, SDLK_i, 0);
    CHECK(s.scan == SV_SCAN_INCLUSIVE && s.step == 3);

    /* The input box: opens selected, typing replaces, Return applies. */
    key(&s, SDLK_e, 0);
    CHECK(s.editing && s.edit_all && strcmp(s.edit_text, "3 1 7 0 4 1 6 3") == 0);
    text(&s, "9 8");
    CHECK(strcmp(s.edit_text, "9 8") == 0 && s.edit_cursor == 3);
    key(&s, SDLK_t, 0); /* a key that would change the theme: only text now */
    CHECK(s.theme == SV_THEME_DARK);
    key(&s, SDLK_RETURN, 0);
    CHECK(!s.editing && s.trace->n == 2 && s.trace->output[1].i == 17);
    CHECK(s.step == 1); /* clamped: n = 2 has steps 0..1 */
    /* A bad array: error names the token; the previous array stays. */
    key(&s, SDLK_e, 0);
    text(&s, "1 2 x3");
    key(&s, SDLK_RETURN, 0);
    CHECK(s.editing && strstr(s.edit_error, "x3") && s.trace->n == 2);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(!s.editing && s.edit_error[0] == '\0' && !s.quit && s.trace->n == 2);
    /* UTF-8: the cursor and Backspace move over whole characters. */
    key(&s, SDLK_e, 0);
    text(&s, "\xc3\xa9" "1");
    key(&s, SDLK_LEFT, 0);
    CHECK(s.edit_cursor == 2);
    key(&s, SDLK_BACKSPACE, 0);
    CHECK(strcmp(s.edit_text, "1") == 0 && s.edit_cursor == 0);
    key(&s, SDLK_END, 0);
    key(&s, SDLK_DELETE, 0); /* nothing after the cursor */
    CHECK(strcmp(s.edit_text, "1") == 0);
    key(&s, SDLK_a, KMOD_LCTRL);
    text(&s, "4,5,6");
    CHECK(strcmp(s.edit_text, "4,5,6") == 0);
    key(&s, SDLK_KP_ENTER, 0);
    CHECK(!s.editing && s.trace->n == 3);
    text(&s, "7"); /* text outside the box is ignored */
    CHECK(s.trace->n == 3 && !s.editing);

    /* Issue 7, defect 8: the largest valid array fits (1024 values of
     * "10000000 ", 9216 bytes, arriving in text events of 30 bytes), and is
     * applied whole; text past the box is refused with a message, not cut. */
    {
        static char big[1024 * 9 + 1];
        for (int i = 0; i < 1024; i++)
            memcpy(big + 9 * i, "10000000 ", 9);
        key(&s, SDLK_e, 0);
        for (size_t at = 0; at < strlen(big); at += 30) {
            char chunk[31];
            snprintf(chunk, sizeof chunk, "%.30s", big + at);
            text(&s, chunk);
        }
        CHECK(strlen(s.edit_text) == 9216 && s.edit_error[0] == '\0');
        key(&s, SDLK_RETURN, 0);
        CHECK(!s.editing && s.trace->n == 1024 && s.trace->input[1023].i == 10000000);
        key(&s, SDLK_e, 0);
        size_t before = 0;
        /* (every keystroke is checked: the too-large numbers show their
         * error at once; typing goes on until the box is full) */
        for (int k = 0; k < 2000 && !strstr(s.edit_error, "not inserted"); k++) {
            before = strlen(s.edit_text);
            text(&s, "1234567890123456789012345 ");
        }
        CHECK(strstr(s.edit_error, "not inserted") && strstr(s.edit_error, "1024 values"));
        CHECK(strlen(s.edit_text) == before && before + 26 >= SV_EDIT_MAX - 1);
        /* The state line escapes what was typed: no control byte, valid UTF-8. */
        key(&s, SDLK_a, KMOD_LCTRL);
        text(&s, "1 \x1b[2J \xff");
        static char line[SV_MAX_N * 100 + SV_EDIT_MAX + 4096];
        sv_app_state_line(&s, line, sizeof line);
        CHECK(strchr(line, 0x1b) == NULL && strstr(line, "text=\"1 \\e[2J \xef\xbf\xbd\""));
        key(&s, SDLK_ESCAPE, 0);
        CHECK(!s.editing && s.trace->n == 1024);
    }

    /* Presets. */
    key(&s, SDLK_2, KMOD_LCTRL);
    CHECK(s.trace->n == 16 && s.trace->output[15].i == 16 && !s.editing);
    key(&s, SDLK_3, KMOD_LCTRL);
    CHECK(s.trace->n == 13);
    key(&s, SDLK_r, 0); /* random, same n */
    CHECK(s.trace->n == 13);
    key(&s, SDLK_1, KMOD_LCTRL);
    CHECK(s.trace->n == 8 && s.trace->output[7].i == 25);

    /* O cycles the operators; UI scale; themes; help; Measure view; Esc order. */
    key(&s, SDLK_o, 0);
    CHECK(s.op == SV_OP_MAX && s.trace->op == SV_OP_MAX);
    key(&s, SDLK_EQUALS, KMOD_LCTRL);
    CHECK(s.ui_scale > 1.0f);
    key(&s, SDLK_0, KMOD_LCTRL);
    CHECK(s.ui_scale == 1.0f);
    key(&s, SDLK_t, 0);
    CHECK(s.theme == SV_THEME_LIGHT);
    press(&s, "hm");
    CHECK(s.help && s.view == SV_VIEW_MEASURE);
    int step = s.step;
    key(&s, SDLK_RIGHT, 0);
    CHECK(s.step == step);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(!s.help && s.view == SV_VIEW_MEASURE && !s.quit);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(s.view == SV_VIEW_SCAN && !s.quit);
    key(&s, SDLK_F12, 0);
    CHECK(sv_app_take_state_line(&s)); /* asked for once, then taken */
    CHECK(!sv_app_take_state_line(&s));
    sv_app_request_state_line(&s);
    CHECK(sv_app_take_state_line(&s));
    /* The view shows the state as it is, borrowing its text. */
    {
        sv_app_view v;
        sv_app_view_of(&s, &v);
        CHECK(v.trace == s.trace && v.step == s.step && v.from_step == s.from_step);
        CHECK(v.view == s.view && v.theme == s.theme && v.zoom == s.zoom && v.help == s.help);
        CHECK(v.source == s.source && v.edit_text == s.edit_text && v.status == s.status);
        sv_app_show(&s, SV_VIEW_MEASURE);
        CHECK(v.view == SV_VIEW_SCAN && s.view == SV_VIEW_MEASURE);
        sv_app_show(&s, SV_VIEW_SCAN);
    }
    static char line[200000];
    sv_app_state_line(&s, line, sizeof line);
    CHECK(strncmp(line, "state step=", 11) == 0);
    CHECK(strstr(line, " op=max ") && strstr(line, " input=3,1,7,0,4,1,6,3 ") &&
          strstr(line, " output=3,3,7,7,7,7,7,7 ") && strstr(line, " theme=light "));
    /* The array was made here (presets): the first Esc only asks. */
    key(&s, SDLK_ESCAPE, 0);
    CHECK(!s.quit && s.quit_armed > 0.0f);
    key(&s, SDLK_ESCAPE, 0);
    CHECK(s.quit);
    sv_app_cleanup(&s);
    sv_app_cleanup(&s); /* twice is safe */

    /* float32: O never picks xor. */
    sv_value f[3];
    f[0].f = 0.5f;
    f[1].f = 1.5f;
    f[2].f = 2.0f;
    c = config(f, 3, SV_TYPE_FLOAT32);
    CHECK(sv_app_init(&s, &c, err, sizeof err) == SV_APP_OK);
    for (int i = 0; i < 10; i++) {
        key(&s, SDLK_o, 0);
        CHECK(s.op != SV_OP_XOR);
    }
    sv_app_cleanup(&s);

    /* --autoplay loops back to round 0; --round out of range is refused. */
    c = config(chapter, 8, SV_TYPE_INT32);
    c.autoplay = true;
    c.round = 2;
    CHECK(sv_app_init(&s, &c, err, sizeof err) == SV_APP_OK);
    CHECK(s.step == 2 && s.playing && s.loop);
    int seen0 = 0;
    for (int i = 0; i < 1200; i++) { /* 12 s */
        sv_app_update(&s, 0.01f);
        if (s.step == 0)
            seen0 = 1;
    }
    CHECK(seen0 && s.playing);
    sv_app_cleanup(&s);
    c.round = 4;
    CHECK(sv_app_init(&s, &c, err, sizeof err) == SV_APP_BAD_INPUT);
    CHECK(strstr(err, "--round 4") != NULL);
    sv_app_cleanup(&s);

    /* Zoom and pan with n = 300: the wheel zooms around the pointer, pan
     * stays inside [0, n - cells in view], tiny windows are survivable. */
    sv_value *big = calloc(300, sizeof *big);
    for (int i = 0; i < 300; i++)
        big[i].i = i % 10;
    c = config(big, 300, SV_TYPE_INT32);
    CHECK(sv_app_init(&s, &c, err, sizeof err) == SV_APP_OK);
    sv_app_resize(&s, 1280, 720, 2560, 1440); /* high-DPI: 2 pixels a point */
    sv_layout l;
    layout(&s, &l);
    float cx = l.cell_x0 + 150.0f * l.cell_pitch + l.cell_w / 2.0f; /* pixels */
    mouse(&s, SDL_MOUSEMOTION, (int)(cx / 2.0f), (int)(l.row_y[1] / 2.0f), 0);
    CHECK(fabsf(s.mouse_x - cx) < 3.0f); /* points were turned into pixels */
    for (int i = 0; i < 8; i++)
        mouse(&s, SDL_MOUSEWHEEL, 0, 0, 1);
    CHECK(s.zoom > 4.0f);
    layout(&s, &l);
    float under = (s.mouse_x - l.cell_x0) / l.cell_pitch;
    CHECK(under > 149.0f && under < 152.0f);
    float maxpan = 300.0f - l.cells_clip.w / l.cell_pitch;
    CHECK(s.pan >= 0.0f && s.pan <= maxpan + 1e-3f);
    for (int i = 0; i < 100; i++)
        key(&s, SDLK_RIGHT, KMOD_LSHIFT);
    CHECK(fabsf(s.pan - maxpan) < 1e-2f);
    /* A drag to the right pans left. */
    float p0 = s.pan;
    mouse(&s, SDL_MOUSEBUTTONDOWN, 400, 200, 0);
    mouse(&s, SDL_MOUSEMOTION, 500, 200, 0);
    mouse(&s, SDL_MOUSEMOTION, 600, 200, 0);
    mouse(&s, SDL_MOUSEBUTTONUP, 600, 200, 0);
    CHECK(s.pan < p0);
    for (int i = 0; i < 40; i++)
        mouse(&s, SDL_MOUSEWHEEL, 0, 0, -1);
    CHECK(s.zoom == 1.0f && s.pan == 0.0f);
    key(&s, SDLK_RIGHTBRACKET, 0);
    CHECK(s.zoom > 1.0f);
    key(&s, SDLK_z, 0);
    CHECK(s.zoom == 1.0f && s.pan == 0.0f);
    /* Tiny and degenerate sizes, then random pointer events: no crash. */
    int sizes[][2] = {{1, 1}, {0, 0}, {7, 3}, {60, 20}, {3000, 40}};
    srand(7);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        sv_app_resize(&s, sizes[k][0], sizes[k][1], sizes[k][0], sizes[k][1]);
        CHECK(s.fb_w >= 1 && s.fb_h >= 1);
        for (int i = 0; i < 300; i++) {
            int x = rand() % 3100 - 50, y = rand() % 800 - 50;
            Uint32 types[] = {SDL_MOUSEMOTION, SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP,
                              SDL_MOUSEWHEEL};
            mouse(&s, types[rand() % 4], x, y, rand() % 5 - 2);
        }
        CHECK(s.zoom >= 1.0f && isfinite(s.pan) && s.pan >= 0.0f);
    }
    sv_app_cleanup(&s);
    free(big);

    /* The window's start: the emulator's trace at once, CUDA probed on a
     * background thread; an input changed meanwhile is what ends up shown,
     * captured by whichever backend won. */
    if (SDL_Init(SDL_INIT_EVENTS) == 0) {
        c = config(chapter, 8, SV_TYPE_INT32);
        c.backend = SV_CHOOSE_AUTO;
        c.background = true;
        CHECK(sv_app_init(&s, &c, err, sizeof err) == SV_APP_OK);
        CHECK(s.trace && s.trace->backend == SV_BACKEND_CPU);
        key(&s, SDLK_o, 0); /* while the probe may still run */
        CHECK(s.op == SV_OP_MAX && s.trace->op == SV_OP_MAX);
        for (int i = 0; i < 3000 && strstr(s.source, "looking for"); i++) { /* 30 s */
            SDL_Event e;
            while (SDL_PollEvent(&e))
                sv_app_event(&s, &e);
            sv_app_update(&s, 0.01f);
            SDL_Delay(10);
        }
        CHECK(strstr(s.source, "looking for") == NULL);
        CHECK(s.trace->op == SV_OP_MAX && s.trace->output[7].i == 7);
        if (s.trace->backend == SV_BACKEND_CUDA)
            CHECK(strncmp(s.source, "CUDA · ", strlen("CUDA · ")) == 0);
        else
            CHECK(strncmp(s.source, "CPU emulator: ", 14) == 0);
        printf("background capture: %s\n", s.source);
        sv_app_cleanup(&s);
        SDL_Quit();
    }

    test_lecture_fixes();
    test_quiz();

    return check_report("test_app: all checks passed");
}
