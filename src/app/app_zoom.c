/* Zoom and pan of the cells: the wheel and ] / [ zoom around a point, drag,
 * Shift+arrows and the horizontal wheel pan, always inside the cells. */
#include <math.h>
#include <stdio.h>

#include "app_internal.h"
#include "util.h"

static float zoom_max(const sv_app_state *s)
{
    float n = s->trace ? (float)s->trace->n : 1.0f;
    return n / 4.0f > 2.0f ? n / 4.0f : 2.0f;
}

/* Keeps pan inside [0, n - visible cells]; zoom 1 shows every cell. */
void sv_app_clamp_view(sv_app_state *s)
{
    s->zoom = sv_clampf(s->zoom, 1.0f, zoom_max(s));
    if (!isfinite(s->pan) || s->zoom <= 1.0f || !s->trace) {
        s->pan = 0.0f;
        return;
    }
    sv_layout l;
    sv_app_layout_of(s, &l);
    if (!(l.cell_pitch > 0.0f)) {
        s->pan = 0.0f;
        return;
    }
    /* the same bound layout.c applies when it places the cells */
    float maxpan = (float)s->trace->n - l.cells_clip.w / l.cell_pitch;
    if (maxpan < 0.0f)
        maxpan = 0.0f;
    s->pan = sv_clampf(s->pan, 0.0f, maxpan);
}

/* Zooms by factor keeping the cell under x (framebuffer px) where it is. */
void sv_app_zoom_at(sv_app_state *s, float factor, float x)
{
    if (!s->trace)
        return;
    sv_layout l;
    sv_app_layout_of(s, &l);
    if (!(l.cell_pitch > 0.0f))
        return;
    float c = (x - l.cell_x0) / l.cell_pitch;
    float z = sv_clampf(s->zoom * factor, 1.0f, zoom_max(s));
    if (z == s->zoom)
        return;
    s->zoom = z;
    sv_app_layout_of(s, &l);
    if (l.cell_pitch > 0.0f)
        s->pan += c - (x - l.cell_x0) / l.cell_pitch;
    sv_app_clamp_view(s);
}

void sv_app_zoom_centre(sv_app_state *s, float factor)
{
    sv_layout l;
    sv_app_layout_of(s, &l);
    sv_app_zoom_at(s, factor, l.cells_clip.x + l.cells_clip.w * 0.5f);
}

void sv_app_pan_by(sv_app_state *s, float cells)
{
    s->pan += cells;
    sv_app_clamp_view(s);
}

float sv_app_visible_cells(const sv_app_state *s)
{
    sv_layout l;
    sv_app_layout_of(s, &l);
    if (!(l.cell_pitch > 0.0f))
        return 1.0f;
    return l.cells_clip.w / l.cell_pitch;
}

/* The launch's tile next to the right of cells lo.. (dir 1) or to the left
 * (dir -1) of launch li: the trace's tiles by the cells of out[] they wrote,
 * else blockDim.x cells a block. False: none that way. */
static bool next_tile(const sv_ktrace *kt, const sv_klaunch *la, uint32_t li, int64_t lo,
                      int dir, int64_t *tlo, int64_t *thi, uint32_t *block, size_t *index,
                      size_t *count)
{
    bool recorded = false, found = false;
    *count = *index = 0;
    for (size_t i = 0; i < kt->ntiles; i++) {
        const sv_ktile *x = &kt->tiles[i];
        if (x->launch != li || x->out_lo < 0)
            continue;
        recorded = true;
        ++*count;
        bool way = dir > 0 ? x->out_lo > lo : (lo < 0 || x->out_lo < lo);
        if (way && (!found || (dir > 0 ? x->out_lo < *tlo : x->out_lo > *tlo))) {
            found = true;
            *tlo = x->out_lo;
            *thi = x->out_hi;
            *block = x->block;
        }
    }
    if (recorded) {
        for (size_t i = 0; found && i < kt->ntiles; i++)
            *index += kt->tiles[i].launch == li && kt->tiles[i].out_lo >= 0 &&
                      kt->tiles[i].out_lo < *tlo;
        return found;
    }
    if (la->block == 0)
        return false;
    uint64_t blocks = (kt->n + la->block - 1) / la->block;
    if (blocks > la->grid)
        blocks = la->grid;
    *count = (size_t)blocks;
    int64_t b = lo < 0 ? (dir > 0 ? 0 : (int64_t)blocks - 1)
                       : lo / la->block + (dir > 0 ? 1 : -1);
    if (b < 0 || b >= (int64_t)blocks)
        return false;
    *tlo = b * (int64_t)la->block;
    *thi = (b + 1) * (int64_t)la->block - 1;
    if (*thi >= (int64_t)kt->n)
        *thi = (int64_t)kt->n - 1;
    *block = (uint32_t)b;
    *index = (size_t)b;
    return true;
}

bool sv_app_tile_step(sv_app_state *s, int dir)
{
    const sv_ktrace *kt = s->ktrace;
    if (!kt || s->compare)
        return false;
    const sv_klaunch *la = sv_ktrace_launch_of(kt, (size_t)s->step);
    if (!la || la->grid < 2) {
        sv_app_set_status(s, "Tab steps through a launch's tiles (a kernel file whose host "
                             "function launches many blocks)");
        return true;
    }
    uint32_t li = (uint32_t)(la - kt->launches);
    int64_t from = s->ktile_lo >= 0 && s->ktile_launch == li ? s->ktile_lo : -1;
    int64_t lo = 0, hi = 0;
    uint32_t block = 0;
    size_t index, count;
    if (!next_tile(kt, la, li, from, dir, &lo, &hi, &block, &index, &count) &&
        !next_tile(kt, la, li, -1, dir, &lo, &hi, &block, &index, &count)) { /* (wraps) */
        sv_app_set_status(s, "This launch wrote no cells of out[]: no tiles to step");
        return true;
    }
    s->ktile_lo = lo;
    s->ktile_hi = hi;
    s->ktile_block = block;
    s->ktile_launch = li;
    /* the tile and a cell either side across the view */
    float cells = (float)(hi - lo + 1) + 2.0f;
    s->zoom = (float)s->trace->n / cells;
    s->pan = (float)lo - 1.0f;
    sv_app_clamp_view(s);
    char msg[160];
    snprintf(msg, sizeof msg, "Tile %zu of %zu \u00b7 block %u \u00b7 out[%lld .. %lld] "
             "(Z: all of them)", index + 1, count, (unsigned)block, (long long)lo, (long long)hi);
    sv_app_set_status(s, msg);
    return true;
}
