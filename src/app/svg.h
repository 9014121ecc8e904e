/* SVG, the vector back end: a recorded frame (gfx.h, sv_gfx_rec) written as
 * real shapes and text. Rounded rects with their borders as strokes (dashed
 * and dotted through stroke-dasharray), lines and arrows as paths, text as
 * <text> in the DejaVu families with generic fallbacks, clips as clipPath. */
#ifndef SV_SVG_H
#define SV_SVG_H

#include <stdbool.h>
#include <stddef.h>

#include "gfx.h"

/* The SVG document of r as a NUL-terminated string (*len without the NUL);
 * NULL when out of memory or r is incomplete. title (may be NULL) becomes
 * the <title>. The caller frees the result. */
char *sv_svg_render(const sv_gfx_rec *r, const char *title, size_t *len);

/* sv_svg_render, written all or nothing to path. */
bool sv_svg_write(const sv_gfx_rec *r, const char *title, const char *path, char *err,
                  size_t errlen);

#endif
