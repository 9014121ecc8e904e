/* A watched worker: the thread that app_kfile.c (a kernel file) and
 * app_exercise.c (an exercise) each run beside the frame loop, with the lock
 * over what it shares with the main thread, the flag that tells it to quit
 * and the watch on the student's file (watch.h; NULL where nothing is
 * watched). One start and one teardown for both. */
#ifndef SV_WORKER_H
#define SV_WORKER_H

#include <SDL.h>
#include <stdbool.h>
#include <stddef.h>

#include "watch.h"

typedef struct sv_worker {
    SDL_Thread *thread;
    SDL_mutex *lock;
    SDL_atomic_t quit;
    sv_watch *watch;
} sv_worker;

/* Starts fn(data) on a thread called name, registering the wake event
 * first; false with err = "FLAG: cannot start a thread: SDL's reason". */
bool sv_worker_start(sv_worker *w, SDL_ThreadFunction fn, const char *name, void *data,
                     const char *flag, char *err, size_t errlen);
/* Tells the thread to quit and waits for it, then frees the lock and closes
 * the watch: each only where there is one (a half-opened worker too). */
void sv_worker_stop(sv_worker *w);

#endif
