/* The look-back timeline of one run of hs (`scanviz-bench --timeline FILE`):
 * for every tile of a real GPU run, when its block took it, when it
 * published its aggregate and its inclusive prefix, when it was stored, and
 * where its look-back stopped. The file format is docs/timeline-format.md;
 * this is its model, its writer and its reader, which trusts nothing. The
 * Measure view draws it (src/app/render_timeline.c). */
#ifndef SV_TIMELINE_H
#define SV_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SV_TIMELINE_VERSION 1
#define SV_TIMELINE_MAX_TILES (1u << 18) /* 2^30 elements in tiles of 4096 */
#define SV_LIMIT_TIMELINE (64u << 20)    /* the file: 2^18 tiles of about 100 bytes */
#define SV_TIMELINE_MAX_NS ((uint64_t)1 << 50) /* about 13 days */

/* One tile. Times are nanoseconds of the GPU's %globaltimer after the
 * earliest time in the run. lo: the look-back stopped at tile lo's
 * inclusive prefix and summed the aggregates of lo + 1 .. index - 1 (tile
 * 0: lo = 0, no look-back). */
typedef struct sv_timeline_tile {
    uint64_t start;     /* its block took it as the current tile */
    uint64_t aggregate; /* its aggregate A was published (early: before start) */
    uint64_t inclusive; /* its inclusive prefix P was published */
    uint64_t end;       /* its last warp had stored it */
    uint32_t block, sm;
    uint32_t lo;
    uint32_t windows;   /* windows of 32 predecessors the look-back read */
    uint32_t polls;     /* the slowest lane's re-reads of a predecessor with nothing yet */
    bool early;         /* A published by an eager warp while the block was busy */
    /* A kernel trace's tile (sv_ktrace_launch_timeline; a file's are 0): */
    bool no_aggregate;  /* it published no aggregate (aggregate: its start) */
    bool no_inclusive;  /* it published no inclusive prefix (inclusive: its end) */
    bool no_end;        /* it never ended (the run stopped: end is the launch's last time) */
    uint64_t wait_from, wait_to; /* it spun on another tile's word: from its first spin
                                    to its last read of another tile (equal: never) */
} sv_timeline_tile;

/* A read of another tile's word (a kernel trace's look-back): tile read,
 * at time, what other wrote at other_time. */
typedef struct sv_timeline_look {
    uint32_t tile, other;
    uint64_t time, other_time;
} sv_timeline_look;

typedef struct sv_timeline {
    char algo[16];       /* "hs" */
    char variant[96];    /* the shape hs ran: "512x32 3 stages 1 block/SM ..." */
    char gpu[128];       /* "NVIDIA H200" */
    char cuda[32];       /* "13.0 (driver 13.0)" */
    char date[32];       /* "2026-12-02" */
    char command[512];   /* the command line that recorded it */
    sv_type type;
    uint64_t n;          /* elements scanned */
    uint32_t tile;       /* elements per tile */
    uint32_t ntiles;     /* ceil(n / tile) */
    uint32_t blocks;     /* blocks launched (persistent: at most one per tile) */
    /* The recording's cost, measured in the same run: medians of reps
     * timed runs of hs with and without the recording. */
    int reps;
    double plain_us, recorded_us;
    sv_timeline_tile *tiles; /* ntiles */
    /* A kernel trace's launch (sv_ktrace_launch_timeline), never a file's:
     * kernel "" for hs's file. */
    char kernel[64];     /* the kernel launched (command: the launch, its schedule) */
    char clock[128];     /* the time axis' words */
    double per_unit;     /* times per unit of the axis (0: ns shown as microseconds) */
    size_t nlooks;       /* its reads of other tiles' words, by tile then time */
    sv_timeline_look *looks;
} sv_timeline;

/* A timeline of ntiles tiles, all zero (NULL: out of memory). */
sv_timeline *sv_timeline_new(uint32_t ntiles);
void sv_timeline_destroy(sv_timeline *t); /* accepts NULL */

/* Whether t is a timeline the reader would accept: false with why naming
 * the field and the tile ("tiles.end[17]: 120 is before its inclusive
 * prefix's 130"). The writer checks it too. */
bool sv_timeline_check(const sv_timeline *t, char *why, size_t whylen);

/* Writes t as JSON (docs/timeline-format.md); false with why on a write
 * failure or a timeline that fails sv_timeline_check. */
bool sv_timeline_write(const sv_timeline *t, FILE *f, char *why, size_t whylen);
/* Writes t to path all or nothing (core/fileio.h). */
bool sv_timeline_save(const sv_timeline *t, const char *path, char *err, size_t errlen);

/* Parses and validates a timeline file's text; NULL with err naming the
 * field and its position. */
sv_timeline *sv_timeline_parse(const char *text, char *err, size_t errlen);
/* Reads path (at most SV_LIMIT_TIMELINE bytes) and parses it; err starts
 * with the file's name. */
sv_timeline *sv_timeline_load(const char *path, char *err, size_t errlen);

/* A tile's state at a time (step by time): before its start, running,
 * spinning on another tile's word, with its aggregate out, with its
 * inclusive prefix out, ended. */
typedef enum sv_tile_state {
    SV_TILE_NOT_STARTED,
    SV_TILE_RUNNING,
    SV_TILE_WAITING,
    SV_TILE_AGGREGATE,
    SV_TILE_PREFIX,
    SV_TILE_DONE,
    SV_TILE_STATES
} sv_tile_state;
#define SV_TL_NO_CURSOR UINT64_MAX
sv_tile_state sv_timeline_state_at(const sv_timeline *t, uint32_t tile, uint64_t time);
/* "at 5289: 1 done, 1 waiting for another tile, 2 not started" (the states' counts). */
char *sv_timeline_state_words(const sv_timeline *t, uint64_t time, char *buf, size_t len);
/* The next (later) or previous time after / before from at which a tile
 * starts, publishes, reads another's word, begins to wait or ends; false
 * where none. from SV_TL_NO_CURSOR: the first (later) or the last. */
bool sv_timeline_step_time(const sv_timeline *t, uint64_t from, bool later, uint64_t *out);

/* The latest time in t (the last tile's store, usually). */
uint64_t sv_timeline_span(const sv_timeline *t);

#ifdef __cplusplus
}
#endif

#endif
