/* The window's wake-up event: see wake.h. */
#include "wake.h"

static uint32_t wake_event = (uint32_t)-1;

uint32_t sv_wake_register(void)
{
    if (wake_event == (uint32_t)-1) {
        Uint32 t = SDL_RegisterEvents(1);
        if (t != (Uint32)-1)
            wake_event = t;
    }
    return wake_event;
}

void sv_wake_post(void)
{
    if (wake_event == (uint32_t)-1)
        return;
    SDL_Event e;
    SDL_zero(e);
    e.type = wake_event;
    SDL_PushEvent(&e);
}

bool sv_wake_is(const SDL_Event *e)
{
    return wake_event != (uint32_t)-1 && e->type == wake_event;
}
