/* Headless export: the same frames the window shows, drawn into an offscreen
 * target and written as PNG. */
#ifndef SV_EXPORT_H
#define SV_EXPORT_H

#include "gfx.h"
#include "view.h"

/* Renders v as it stands into a w x h PNG at path. */
bool sv_export_frame(sv_gfx *g, const sv_app_view *v, int w, int h,
                     const char *path, char *err, size_t errlen);

/* Renders every step of v's trace, settled (no animation), to
 * dir/round-00.png, round-01.png, ... (the exclusive shift as one more file),
 * creating dir if needed; everything else (theme, zoom, overlays) as v
 * shows it. v itself is not changed. On success *count (if not NULL) is the
 * number of files written. */
bool sv_export_rounds(sv_gfx *g, const sv_app_view *v, const char *dir, int w, int h,
                      int *count, char *err, size_t errlen);

#endif
