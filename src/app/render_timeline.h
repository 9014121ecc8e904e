/* The Measure view's look-back timeline (scanviz --timeline FILE): one row
 * per tile of a real GPU run of hs, the GPU's time across. Each row: a bar
 * from the tile's start to its inclusive prefix (waiting for its look-back)
 * and on to its end (adding the prefix, storing); a tick where its
 * aggregate was published (a thin lead-in when that came early, before the
 * tile's start); an arrow from its inclusive prefix back to the tile whose
 * inclusive prefix its look-back stopped at. Tests use the layout to look
 * at exactly what was drawn. */
#ifndef SV_RENDER_TIMELINE_H
#define SV_RENDER_TIMELINE_H

#include <stdint.h>

#include "../core/timeline.h"
#include "gfx.h"
#include "theme.h"

/* Tiles shown when a timeline opens; ] halves them (down to SV_TL_ROWS_MIN),
 * [ doubles them (up to all). */
#define SV_TL_ROWS_DEFAULT 32
#define SV_TL_ROWS_MIN 4

typedef struct sv_tl_layout {
    sv_box header;      /* title and source lines */
    sv_box legend;
    sv_box area;        /* the rows: time across, tiles down */
    int first, rows;    /* the tiles shown: first .. first + rows - 1 */
    double t0, t1;      /* the time the area spans, ns (the shown tiles' range) */
    float row_h;        /* px per tile */
    bool arrows;        /* rows tall enough for the look-back's arrows */
} sv_tl_layout;

/* The tiles shown, clamped: rows to 1 .. ntiles, first to 0 .. ntiles -
 * rows. */
void sv_tl_clamp(const sv_timeline *t, int *first, int *rows);

/* The layout sv_render_timeline uses (unit: the layout unit, as the plot's). */
void sv_tl_layout_compute(const sv_timeline *t, sv_box box, float unit, int first, int rows,
                          sv_tl_layout *out);
float sv_tl_x(const sv_tl_layout *L, uint64_t ns);
float sv_tl_y(const sv_tl_layout *L, uint32_t tile); /* the row's middle */

void sv_render_timeline(sv_gfx *g, const sv_timeline *t, sv_box box, const sv_theme *theme,
                        float unit, int first, int rows);
/* The same with a time cursor (step by time): a line at it, what came
 * after it faint, the tiles' states at it in words (SV_TL_NO_CURSOR: none). */
void sv_render_timeline_at(sv_gfx *g, const sv_timeline *t, sv_box box, const sv_theme *theme,
                           float unit, int first, int rows, uint64_t cursor);

#endif
