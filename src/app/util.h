/* Small helpers shared by the app and its renderers: clamping and the
 * timeline's step cap. Header only, no state. */
#ifndef SV_UTIL_H
#define SV_UTIL_H

#include "../core/op.h"
#include "../core/lab_schedule.h"

/* The most steps a timeline shows: every round of the largest trace
 * (1 + ceil(log2 n) rounds) plus the exclusive shift. sv_layout sizes its
 * timeline_x[] with it; the assertion ties it to SV_MAX_N, so raising
 * SV_MAX_N past what the cap can show fails to compile instead of cutting
 * rounds off the timeline. */
#define SV_MAX_STEPS 64
_Static_assert(SV_MAX_N >= 1 && SV_MAX_N <= (1ull << (SV_MAX_STEPS - 2)),
               "SV_MAX_STEPS must hold every round of an SV_MAX_N trace plus the shift");

/* Lanes of a warp: threads that run each statement together (lockstep);
 * the one number is core's (lab_schedule.h). */
#define SV_WARP SV_WARP_SIZE

static inline float sv_clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static inline int sv_clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

#endif
