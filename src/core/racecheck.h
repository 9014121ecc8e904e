/* compute-sanitizer racecheck reports, parsed and mapped onto the trace: each
 * hazard's shared-memory address to a buffer and cell, its threads, source
 * lines and values, and (where the values allow) the round. Text in, data
 * out: no process is run here (capture runs the sanitizer). */
#ifndef SV_RACECHECK_H
#define SV_RACECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Hazards kept per report; the summary counts every hazard regardless. */
#define SV_RACECHECK_MAX_HAZARDS 10000

typedef struct sv_hazard {
    bool error;          /* an "Error" block; false: a "Warning" */
    bool warp_level;     /* "(Warp Level Programming)": inside one warp */
    char kind[4];        /* "RAW", "WAR" or "WAW" */
    uint32_t address;    /* byte address in the shared window */
    int buf, cell;       /* where the address falls; -1 outside the buffers */
    int round;           /* the round of the write, -1 when the values do not say */
    int thread[2];       /* the two accesses' threads (x), in the report's order */
    char access[2];      /* 'R' or 'W' for each */
    int line[2];         /* source line of each access, -1 unknown */
    char file[64];       /* source file of the first access ("" unknown) */
    bool has_values;
    int64_t current, incoming; /* the cell's value and the value written over it */
} sv_hazard;

typedef struct sv_racecheck {
    bool ran;            /* false: the sanitizer is missing or failed; note says why */
    char note[256];      /* how it ran or why not, in words */
    bool has_summary;    /* the report's summary line was found */
    uint64_t errors, warnings; /* from the summary (else counted from the blocks) */
    size_t nhazards;
    sv_hazard *hazards;  /* the blocks the report printed, at most SV_RACECHECK_MAX_HAZARDS */
} sv_racecheck;

void sv_racecheck_destroy(sv_racecheck *rc); /* accepts NULL */

/* Parses a racecheck report (--racecheck-report hazard, or analysis; any
 * other lines are ignored) of len bytes. Returns a new report with ran set,
 * or NULL on allocation failure (err filled). Addresses are not mapped. */
sv_racecheck *sv_racecheck_parse(const char *text, size_t len, char *err, size_t errlen);

/* Maps each hazard's address to buf and cell for a kernel whose buf starts
 * at shared address base with n cells of elem bytes per buffer (buffer b at
 * base + b * n * elem), and its round from the values: the round r >= 1 in
 * which the writing thread's pout cell (bits[r * n + thread], the run's raw
 * rounds) took the incoming value, when exactly one does. */
void sv_racecheck_map(sv_racecheck *rc, uint32_t base, size_t n, size_t elem,
                      const uint32_t *bits, size_t nrounds, bool int_values);

/* The recorded hazards whose address falls on cell of buffer buf: how many,
 * how many of them in round (a mapped round), and one to describe (the
 * first in round, else the first; NULL when none). rc may be NULL. */
size_t sv_racecheck_at(const sv_racecheck *rc, int buf, int cell, int round, size_t *in_round,
                       const sv_hazard **example);

#ifdef __cplusplus
}
#endif

#endif
