/* The window and its OpenGL context, through SDL2. */
#ifndef SV_PLATFORM_H
#define SV_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <SDL.h>

/* Fullscreen, as platform.c keeps it (sv_platform_fullscreen). */
typedef enum sv_platform_fs {
    SV_FS_OFF,        /* a window */
    SV_FS_WM,         /* SDL's desktop fullscreen, done by the window manager */
    SV_FS_BORDERLESS  /* no window manager to answer: a borderless window of
                         the display's size, placed by scanviz itself */
} sv_platform_fs;

typedef struct sv_platform {
    SDL_Window *window;
    SDL_GLContext gl;
    bool headless; /* SDL's offscreen driver: no display, render to targets only */
    /* Written by platform.c only. The window's real size in points, from
     * SDL's size events: without a window manager SDL reports the size it
     * asked for (the display's, on fullscreen), not the one the window has. */
    int win_w, win_h;
    sv_platform_fs fs;
    SDL_Rect windowed;  /* the window's place and size before fullscreen */
} sv_platform;

/* Initialises SDL video and opens a resizable, high-DPI window of w x h
 * points with an OpenGL 3.3 core context, made current (vsync on where
 * available); fullscreen goes through sv_platform_fullscreen. headless, or no display (no DISPLAY / WAYLAND_DISPLAY), uses
 * SDL's offscreen driver (EGL, Mesa's llvmpipe). Returns false with err
 * filled (SDL's error) on failure; nothing is left open then. */
bool sv_platform_open(sv_platform *p, const char *title, int w, int h,
                      bool headless, bool fullscreen, char *err, size_t errlen);
void sv_platform_close(sv_platform *p); /* safe on a zeroed or closed platform */

/* Fullscreen on or off. On: SDL's desktop fullscreen, which the window
 * manager does; with no window manager to answer (a bare X server), a
 * borderless window of the display's size instead. Off: the window gets
 * back its place and size. False when SDL refuses (nothing changed). */
bool sv_platform_fullscreen(sv_platform *p, bool on);

/* Whether the window is (or is being made) fullscreen. */
bool sv_platform_is_fullscreen(const sv_platform *p);

/* Follows the window's real size from SDL's window events (call it with
 * every event). */
void sv_platform_event(sv_platform *p, const SDL_Event *e);

/* The window's size in points and its drawable's in pixels, as they really
 * are (high-DPI: the drawable may be larger). */
void sv_platform_size(const sv_platform *p, int *win_w, int *win_h, int *fb_w, int *fb_h);

/* Whether a display is there for a real window. */
bool sv_platform_have_display(void);

#endif
