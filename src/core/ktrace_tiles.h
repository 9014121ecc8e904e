/* A launch of a kernel trace as its tiles over time (issue 31): the look-back
 * timeline the Measure view draws for hs's file (timeline.h), read from what
 * the launch's blocks did (sv_ktrace.tiles, .events). A tile's aggregate and
 * inclusive prefix are what its blocks published, recognised by value: a
 * publish of op over in[] of the tile's own out[] cells is its aggregate, of
 * in[0 ..] through its last cell its inclusive prefix. */
#ifndef SV_KTRACE_TILES_H
#define SV_KTRACE_TILES_H

#include <stddef.h>

#include "ktrace.h"
#include "timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The launch (index into t->launches) whose step k holds, with tiles: its
 * index; -1 none. */
int sv_ktrace_tiles_launch(const sv_ktrace *t, size_t k);

/* Launch l's tiles as a timeline, by the out[] cells each wrote (the tiles
 * that wrote none last, by blockIdx); NULL with err for a launch without
 * tiles or out of memory. */
sv_timeline *sv_ktrace_launch_timeline(const sv_ktrace *t, size_t l, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
