/* compute-sanitizer racecheck reports, parsed: each hazard's shared-memory
 * address, its threads, source lines and values (the GPU runtime places
 * them on a kernel trace's arrays and steps, gpu_run.c; the lab takes them
 * from there, lab_capture.c). Text in, data out: no process is run here. */
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

/* The recorded hazards whose address falls on cell of buffer buf: how many,
 * how many of them in round (a mapped round), and one to describe (the
 * first in round, else the first; NULL when none). rc may be NULL. */
size_t sv_racecheck_at(const sv_racecheck *rc, int buf, int cell, int round, size_t *in_round,
                       const sv_hazard **example);

#ifdef __cplusplus
}
#endif

#endif
