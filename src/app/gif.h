/* Animated GIF through giflib: RGBA8 frames mapped to one fixed palette
 * (the caller builds it, e.g. from the theme), each frame stored as the
 * rectangle that changed since the one before, with unchanged pixels
 * transparent, so a run of mostly still frames stays small. */
#ifndef SV_GIF_H
#define SV_GIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sv_gif sv_gif;

/* A w x h animation that loops forever, with palette[0..n) as its colours
 * (n <= 255: one index is kept for transparency). Returns NULL with err
 * filled on failure. */
sv_gif *sv_gif_create(int w, int h, const uint8_t (*palette)[3], int n, char *err,
                      size_t errlen);
void sv_gif_destroy(sv_gif *g); /* accepts NULL */

/* Appends a frame (w*h*4 bytes, top row first; alpha ignored) shown for
 * delay_cs hundredths of a second (at least 2: browsers slow faster ones).
 * A frame equal to the one before only lengthens its delay. */
bool sv_gif_add(sv_gif *g, const uint8_t *rgba, int delay_cs, char *err, size_t errlen);

/* Ends the file and writes it to path, all or nothing. *bytes (if not NULL)
 * is its size. The writer is spent either way. */
bool sv_gif_finish(sv_gif *g, const char *path, size_t *bytes, char *err, size_t errlen);

/* Frames stored so far (a repeated frame counts once). */
int sv_gif_frames(const sv_gif *g);

#endif
