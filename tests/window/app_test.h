/* What the window-less tests of the app's logic (test_app.c, test_app_lab.c)
 * share: synthetic key presses into sv_app_event(), a configuration as the
 * command line gives it, and a started app at 1280x720. Header-only. */
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

/* The defaults of the command line: sum, inclusive, the CPU emulator,
 * settled at round 0, speed 1, animations on, seed 1. */
static inline sv_app_config config(const sv_value *in, size_t n, sv_type type)
{
    sv_app_config c;
    memset(&c, 0, sizeof c);
    c.op = SV_OP_SUM;
    c.type = type;
    c.scan = SV_SCAN_INCLUSIVE;
    c.backend = SV_CHOOSE_CPU;
    c.input = in;
    c.n = n;
    c.round = -1;
    c.speed = 1.0f;
    c.animations = true;
    c.seed = 1;
    return c;
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
