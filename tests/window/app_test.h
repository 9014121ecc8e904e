/* What the window-less tests of the app's logic (test_app.c, test_app_lab.c,
 * test_app_guide.c) share: synthetic key presses, text, mouse events and
 * time into the app, the layout and state line it gives, a configuration
 * as the command line gives it, and a started app at 1280x720. Header-only. */
#ifndef SV_TEST_APP_TEST_H
#define SV_TEST_APP_TEST_H

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "render.h"

#include "../expect.h"

/* One key press (SDL_KEYDOWN) of sym with modifiers mod. */
static inline void key(sv_app_state *s, SDL_Keycode sym, Uint16 mod)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_KEYDOWN;
    e.key.keysym.sym = sym;
    e.key.keysym.mod = mod;
    sv_app_event(s, &e);
}

/* A key press for each character of keys, no modifiers: SDL's keycode of a
 * printable key is its character, so "\t2.25\r" is Tab, 2, ., 2, 5, Return
 * ("\b" is Backspace). */
static inline void press(sv_app_state *s, const char *keys)
{
    for (const char *k = keys; *k; k++)
        key(s, (SDL_Keycode)*k, 0);
}

/* The layout of what s shows, as the renderers see it (through its view). */
static inline void layout(const sv_app_state *s, sv_layout *l)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    sv_layout_compute(&v, s->fb_w, s->fb_h, l);
}

/* Typed text (SDL_TEXTINPUT), as the input box receives it. */
static inline void text(sv_app_state *s, const char *t)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_TEXTINPUT;
    snprintf(e.text.text, sizeof e.text.text, "%s", t);
    sv_app_event(s, &e);
}

/* A mouse event of type at window point (x, y); wheel for SDL_MOUSEWHEEL. */
static inline void mouse(sv_app_state *s, Uint32 type, int x, int y, int wheel)
{
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = type;
    if (type == SDL_MOUSEMOTION) {
        e.motion.x = x;
        e.motion.y = y;
    } else if (type == SDL_MOUSEWHEEL) {
        e.wheel.y = wheel;
    } else {
        e.button.button = SDL_BUTTON_LEFT;
        e.button.x = x;
        e.button.y = y;
    }
    sv_app_event(s, &e);
}

/* Time passing: seconds of sv_app_update in 10 ms steps. */
static inline void run(sv_app_state *s, float seconds)
{
    for (float t = 0; t < seconds; t += 0.01f)
        sv_app_update(s, 0.01f);
}

/* Whether the state line holds field (says what it holds when not). */
static inline bool line_has(const sv_app_state *s, const char *field)
{
    static char line[200000];
    sv_app_state_line(s, line, sizeof line);
    bool ok = strstr(line, field) != NULL;
    if (!ok)
        fprintf(stderr, "state line lacks \"%s\": %.600s...\n", field, line);
    return ok;
}

/* A left click (press and release) at (x, y). */
static inline void click_at(sv_app_state *s, float x, float y)
{
    mouse(s, SDL_MOUSEBUTTONDOWN, (int)x, (int)y, 0);
    mouse(s, SDL_MOUSEBUTTONUP, (int)x, (int)y, 0);
}

/* The defaults of the command line: sum, inclusive, the CPU emulator,
 * settled at round 0, speed 1, animations on, seed 1. */
static inline sv_app_config config(const sv_value *in, size_t n, sv_type type)
{
    return (sv_app_config){
        .op = SV_OP_SUM, .type = type, .scan = SV_SCAN_INCLUSIVE, .backend = SV_CHOOSE_CPU,
        .input = in, .n = n, .round = -1, .speed = 1.0f, .animations = true, .seed = 1,
    };
}

/* Starts s from c (a failure is a failed check, with the message) and sizes
 * it to 1280x720; returns whether it started. */
static inline bool start_app(sv_app_state *s, const sv_app_config *c)
{
    char err[256] = "";
    bool ok = sv_app_init(s, c, err, sizeof err) == SV_APP_OK;
    CHECK_MSG(ok, "init: %s", err);
    sv_app_resize(s, 1280, 720, 1280, 720);
    return ok;
}

/* A fresh app on the chapter's example at 1280x720, settled at round 0. */
static inline void chapter_app(sv_app_state *s, bool animations)
{
    static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = animations;
    start_app(s, &c);
}

#endif
