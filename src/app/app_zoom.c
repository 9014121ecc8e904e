/* Zoom and pan of the cells: the wheel and ] / [ zoom around a point, drag,
 * Shift+arrows and the horizontal wheel pan, always inside the cells. */
#include <math.h>

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
