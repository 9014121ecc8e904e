/* The mistakes lab's named schedules: which thread runs next when a kernel
 * is emulated (the CPU runtime, src/runtime/), by name ("lockstep", "random:7"), and the
 * seeded random numbers the random and warps schedules draw. */
#ifndef SV_LAB_SCHEDULE_H
#define SV_LAB_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per warp: the group the warps:S schedule steps in lockstep, and
 * the group the GPU's shake delays together (src/runtime/gpu_prelude.h). */
#define SV_WARP_SIZE 32

typedef enum sv_schedule_kind {
    SV_SCHEDULE_LOCKSTEP,   /* all threads run each statement together, reads before writes */
    SV_SCHEDULE_SEQUENTIAL, /* one thread at a time, increasing index, each to its next barrier */
    SV_SCHEDULE_REVERSE,    /* the same, decreasing index */
    SV_SCHEDULE_RANDOM,     /* a seeded random thread runs one statement at a time */
    SV_SCHEDULE_WARPS,      /* a seeded random warp of SV_WARP_SIZE runs one statement in lockstep */
    SV_SCHEDULE_COUNT
} sv_schedule_kind;

typedef struct sv_schedule {
    sv_schedule_kind kind;
    uint64_t seed;          /* random and warps; 1 by default, ignored otherwise */
} sv_schedule;

/* Parses "lockstep", "sequential", "reverse", "random", "random:S", "warps",
 * "warps:S" (S a decimal integer, 0 .. 2^64-1; the default seed is 1).
 * Returns false with err naming the text and the accepted names. */
bool sv_schedule_parse(const char *text, sv_schedule *out, char *err, size_t errlen);
/* "lockstep", "random:7": what sv_schedule_parse() reads back. Returns buf. */
char *sv_schedule_format(sv_schedule s, char *buf, size_t len);
const char *sv_schedule_kind_name(sv_schedule_kind k); /* NULL out of range */

/* The random and warps schedules' picks: a number in 0 .. bound-1 (bound >=
 * 1) from the state, which starts at the schedule's seed (splitmix64: the
 * same sequence on every platform). */
size_t sv_schedule_pick(uint64_t *state, size_t bound);

#ifdef __cplusplus
}
#endif

#endif
