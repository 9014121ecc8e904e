/* The mistakes lab's named schedules: their names, parsing and formatting,
 * and the seeded random picks of random:S and warps:S. */
#include "lab_schedule.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

/* ---- Schedules ----------------------------------------------------------- */

static const char *const schedule_names[SV_SCHEDULE_COUNT] = {
    "lockstep", "sequential", "reverse", "random", "warps",
};

const char *sv_schedule_kind_name(sv_schedule_kind k)
{
    return (unsigned)k < SV_SCHEDULE_COUNT ? schedule_names[k] : NULL;
}

bool sv_schedule_parse(const char *text, sv_schedule *out, char *err, size_t errlen)
{
    static const char accepted[] =
        "lockstep, sequential, reverse, random[:SEED], warps[:SEED]";
    if (!text || !*text) {
        sv_errorf(err, errlen, "empty schedule (expected %s)", accepted);
        return false;
    }
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    for (int k = 0; k < SV_SCHEDULE_COUNT; k++) {
        if (strlen(schedule_names[k]) != len || strncmp(text, schedule_names[k], len) != 0)
            continue;
        sv_schedule s = {(sv_schedule_kind)k, 1};
        if (colon) {
            if (k != SV_SCHEDULE_RANDOM && k != SV_SCHEDULE_WARPS) {
                sv_errorf(err, errlen, "schedule \"%.40s\": %s takes no seed", text,
                          schedule_names[k]);
                return false;
            }
            const char *p = colon + 1;
            uint64_t v = 0;
            if (!*p) {
                sv_errorf(err, errlen, "schedule \"%.40s\": no seed after ':'", text);
                return false;
            }
            for (; *p; p++) {
                if (*p < '0' || *p > '9') {
                    sv_errorf(err, errlen,
                              "schedule \"%.40s\": seed must be a decimal integer, got '%c' "
                              "at position %zu", text, *p >= 32 && *p < 127 ? *p : '?',
                              (size_t)(p - text) + 1);
                    return false;
                }
                unsigned d = (unsigned)(*p - '0');
                if (v > (UINT64_MAX - d) / 10) {
                    sv_errorf(err, errlen, "schedule \"%.40s\": seed above 2^64-1", text);
                    return false;
                }
                v = v * 10 + d;
            }
            s.seed = v;
        }
        *out = s;
        return true;
    }
    /* Name the token without letting control bytes through. */
    char shown[41];
    size_t j = 0;
    for (const char *p = text; *p && j < sizeof shown - 1; p++)
        shown[j++] = (*p >= 32 && *p < 127) ? *p : '?';
    shown[j] = '\0';
    sv_errorf(err, errlen, "unknown schedule \"%s\" (expected %s)", shown, accepted);
    return false;
}

char *sv_schedule_format(sv_schedule s, char *buf, size_t len)
{
    const char *name = sv_schedule_kind_name(s.kind);
    if (!name)
        name = "?";
    if (s.kind == SV_SCHEDULE_RANDOM || s.kind == SV_SCHEDULE_WARPS)
        snprintf(buf, len, "%s:%" PRIu64, name, s.seed);
    else
        snprintf(buf, len, "%s", name);
    return buf;
}

/* splitmix64: small, seedable, the same on every platform. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

size_t sv_schedule_pick(uint64_t *state, size_t bound)
{
    return (size_t)(rng_next(state) % bound);
}
