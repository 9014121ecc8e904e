/* The watched worker's start and teardown (worker.h). */
#include "worker.h"

#include <stdio.h>

#include "wake.h"

bool sv_worker_start(sv_worker *w, SDL_ThreadFunction fn, const char *name, void *data,
                     const char *flag, char *err, size_t errlen)
{
    sv_wake_register();
    w->thread = SDL_CreateThread(fn, name, data);
    if (!w->thread) {
        snprintf(err, errlen, "%s: cannot start a thread: %s", flag, SDL_GetError());
        return false;
    }
    return true;
}

void sv_worker_stop(sv_worker *w)
{
    SDL_AtomicSet(&w->quit, 1);
    if (w->thread)
        SDL_WaitThread(w->thread, NULL);
    w->thread = NULL;
    if (w->lock)
        SDL_DestroyMutex(w->lock);
    w->lock = NULL;
    sv_watch_close(w->watch);
    w->watch = NULL;
}
