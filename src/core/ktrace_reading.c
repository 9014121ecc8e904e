/* The table of readings (ktrace_reading.h) and the pick: the first entry
 * whose detect holds. Each entry lives beside its reading; this file only
 * orders them. */
#include "ktrace_reading.h"

/* The entries, each defined beside its reading. */
extern const sv_reading sv_reading_blelloch;      /* ktrace_blelloch.c */
extern const sv_reading sv_reading_hillis_steele; /* ktrace_analyze.c */
extern const sv_reading sv_reading_none;

static bool always(const sv_ktrace *t)
{
    (void)t;
    return true;
}

/* No algorithm's reading: the pane and the table say what the trace did. */
const sv_reading sv_reading_none = { .name = "none", .detect = always };

/* Tried in order: Blelloch's tree before the chapter's rounds, whose
 * reading of a tree's staging would fit round 0; none last, always. */
const sv_reading *const sv_readings[] = {
    &sv_reading_blelloch,
    &sv_reading_hillis_steele,
    &sv_reading_none,
};

const sv_reading *sv_reading_pick(const sv_ktrace *t)
{
    const sv_reading *const *r = sv_readings;
    while (!(*r)->detect(t))
        r++;
    return *r;
}

const sv_reading *sv_reading_of(const sv_ktrace *t)
{
    return t && t->reading ? t->reading : &sv_reading_none;
}
