/* The window and its OpenGL context, through SDL2. */
#ifndef SV_PLATFORM_H
#define SV_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <SDL.h>

typedef struct sv_platform {
    SDL_Window *window;
    SDL_GLContext gl;
    bool headless; /* SDL's offscreen driver: no display, render to targets only */
} sv_platform;

/* Initialises SDL video and opens a resizable, high-DPI window of w x h
 * points with an OpenGL 3.3 core context, made current (vsync on where
 * available). headless, or no display (no DISPLAY / WAYLAND_DISPLAY), uses
 * SDL's offscreen driver (EGL, Mesa's llvmpipe). Returns false with err
 * filled (SDL's error) on failure; nothing is left open then. */
bool sv_platform_open(sv_platform *p, const char *title, int w, int h,
                      bool headless, bool fullscreen, char *err, size_t errlen);
void sv_platform_close(sv_platform *p); /* safe on a zeroed or closed platform */

/* Whether a display is there for a real window. */
bool sv_platform_have_display(void);

#endif
