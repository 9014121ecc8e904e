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

/* mkdir -p: creates dir and its missing parents; false (err filled) when
 * it cannot, or when dir is not a directory. */
bool sv_export_make_dirs(const char *dir, char *err, size_t errlen);

/* ---- what export.c and export_anim.c share -------------------------- */

/* A copy of v to export at w x h: settled (anim 1, not playing); it borrows
 * v's trace and text, which the renderer only reads. False (err filled)
 * when v has no trace, or, where what names the export ("GIF"), when w or h
 * is not 16 .. max (what == NULL leaves the size to sv_frame_out_open). */
bool sv_export_view(const sv_app_view *v, int w, int h, const char *what, int max,
                    sv_app_view *c, char *err, size_t errlen);

/* An offscreen target and the buffer its pixels are read into, made once
 * for any number of frames of one size. */
typedef struct sv_frame_out {
    sv_gfx_target *target;
    uint8_t *rgba; /* w * h * 4 bytes, top row first, after sv_frame_out_render */
    int w, h;
} sv_frame_out;

/* False (err filled, nothing held) when w x h is not 1x1 .. 16384x16384 or
 * the target or memory cannot be had. */
bool sv_frame_out_open(sv_gfx *g, sv_frame_out *o, int w, int h, char *err, size_t errlen);
void sv_frame_out_close(sv_frame_out *o);
/* Draws v into the target and reads its pixels into o->rgba. */
void sv_frame_out_render(sv_gfx *g, sv_frame_out *o, const sv_app_view *v);

/* ---- export_anim.c --------------------------------------------------- */

/* What sv_export_gif wrote. */
typedef struct sv_export_gif_info {
    int frames;       /* frames stored (a still stretch counts once) */
    size_t bytes;     /* the file's size */
    double seconds;   /* one loop's length */
    int colours;      /* palette entries used */
} sv_export_gif_info;

/* The whole run of v's trace as an animated GIF at path, w x h, at the
 * animation's own timing (view.h: SV_MOVE_S, SV_HOLD_S, divided by speed):
 * each step's move (25 frames a second) and the settled round held as long
 * as autoplay holds it, looping forever. The palette is the theme's colours
 * and their blends (255 at most). Everything else as v shows it. */
bool sv_export_gif(sv_gfx *g, const sv_app_view *v, const char *path, int w, int h,
                   float speed, sv_export_gif_info *info, char *err, size_t errlen);

/* Every step of v's trace, settled, as SVG (the recorded scene, svg.h) to
 * dir/round-00.svg, ..., and the overview to dir/overview.svg, creating dir.
 * As sv_export_rounds: all files are written to temporaries before any
 * replaces an old one. *count (if not NULL) is the number of files written.
 * The GIF is one file written all or nothing (core/fileio.h). */
bool sv_export_svg(sv_gfx *g, const sv_app_view *v, const char *dir, int w, int h,
                   int *count, char *err, size_t errlen);

/* The steps an export walks: a kernel file's pane steps (kpane.h) when v
 * shows one, else the trace's (sv_view_steps). */
int sv_export_steps(const sv_app_view *v);
/* Moves an export's copy c to its step k, settled: the trace's step, a
 * kernel file's pane step, or in the compare view each pane's (clamped
 * there: the shorter one holds its last step). */
void sv_export_at(sv_app_view *c, int k);

#endif
