/* The window's wake-up event (wake.c): a worker thread (the background GPU
 * capture, app_bg.c; a kernel file's runs, app_kfile.c) posts it when its
 * result is ready, so that a main loop waiting on SDL's events wakes and
 * takes the result. The event carries nothing: the result stays with the
 * worker. */
#ifndef SV_WAKE_H
#define SV_WAKE_H

#include <stdbool.h>
#include <stdint.h>

#include <SDL.h>

/* Registers the event (once; later calls return the same type); call after
 * SDL_Init, from the main thread. (uint32_t)-1 when SDL has none left. */
uint32_t sv_wake_register(void);

/* Posts the event, if it is registered; safe from any thread. */
void sv_wake_post(void);

/* Whether e is the wake-up event. */
bool sv_wake_is(const SDL_Event *e);

#endif
