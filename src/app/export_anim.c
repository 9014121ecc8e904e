/* Exports beyond one PNG per round: the whole run as an animated GIF at the
 * animation's own timing (export.h: sv_export_gif), and any frame as SVG
 * through the recorded scene (sv_export_svg_rounds). Both draw through
 * sv_render_frame, exactly as the window does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "gif.h"
#include "render.h"
#include "svg.h"

/* ---- the palette ------------------------------------------------------- */

typedef struct palette {
    uint8_t c[255][3];
    int n;
} palette;

static void pal_add(palette *p, sv_rgba c)
{
    if (p->n >= 255)
        return;
    uint8_t r = (uint8_t)lroundf(fminf(fmaxf(c.r, 0.0f), 1.0f) * 255.0f);
    uint8_t g = (uint8_t)lroundf(fminf(fmaxf(c.g, 0.0f), 1.0f) * 255.0f);
    uint8_t b = (uint8_t)lroundf(fminf(fmaxf(c.b, 0.0f), 1.0f) * 255.0f);
    for (int i = 0; i < p->n; i++)
        if (p->c[i][0] == r && p->c[i][1] == g && p->c[i][2] == b)
            return;
    p->c[p->n][0] = r;
    p->c[p->n][1] = g;
    p->c[p->n][2] = b;
    p->n++;
}

/* Three steps between a ground and an ink: what antialiased edges and
 * small text blend to. */
static void pal_ramp(palette *p, sv_rgba ground, sv_rgba ink)
{
    for (int k = 1; k <= 3; k++)
        pal_add(p, sv_rgba_mix(ground, ink, (float)k / 4.0f));
}

/* The theme's colours, the case fills as drawn, and ramps between each
 * ground and the inks drawn on it (render_cells.c, render_overlay.c). */
static void theme_palette(const sv_theme *t, palette *p)
{
    memset(p, 0, sizeof *p);
    sv_rgba tint_full = sv_rgba_mix(t->cell_fill, t->full, t->tint);
    sv_rgba tint_partial = sv_rgba_mix(t->cell_fill, t->partial, t->tint);
    sv_rgba tint_copy = sv_rgba_mix(t->cell_fill, t->copy, t->tint);
    sv_rgba tint_window = sv_rgba_mix(t->cell_fill, t->window, 0.42f);
    sv_rgba uninit_fill = sv_rgba_mix(t->cell_fill, t->bg, 0.55f);
    sv_rgba base[] = { t->bg, t->panel, t->text, t->text_dim, t->grid, t->cell_fill,
                       t->cell_border, t->cell_text, t->uninit, t->full, t->partial, t->copy,
                       t->window, t->error, t->pin_tag, t->pout_tag, t->arrow, t->tag_text,
                       t->accent, tint_full, tint_partial, tint_copy, tint_window,
                       uninit_fill };
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        pal_add(p, base[i]);
    sv_rgba inks[] = { t->text, t->text_dim, t->cell_text, t->uninit, t->full, t->partial,
                       t->copy, t->window, t->error, t->arrow, t->accent, t->cell_border,
                       t->grid, t->pin_tag, t->pout_tag };
    for (size_t i = 0; i < sizeof inks / sizeof inks[0]; i++)
        pal_ramp(p, t->bg, inks[i]);
    sv_rgba cell_inks[] = { t->cell_text, t->cell_border, t->uninit, t->arrow };
    for (size_t i = 0; i < sizeof cell_inks / sizeof cell_inks[0]; i++)
        pal_ramp(p, t->cell_fill, cell_inks[i]);
    pal_ramp(p, tint_full, t->cell_text);
    pal_ramp(p, tint_full, t->full);
    pal_ramp(p, tint_partial, t->cell_text);
    pal_ramp(p, tint_partial, t->partial);
    pal_ramp(p, tint_copy, t->cell_text);
    pal_ramp(p, tint_copy, t->copy);
    pal_ramp(p, tint_window, t->cell_text);
    pal_ramp(p, tint_window, t->window);
    pal_ramp(p, uninit_fill, t->uninit);
    sv_rgba panel_inks[] = { t->text, t->text_dim, t->accent, t->error, t->cell_text };
    for (size_t i = 0; i < sizeof panel_inks / sizeof panel_inks[0]; i++)
        pal_ramp(p, t->panel, panel_inks[i]);
    pal_ramp(p, t->pin_tag, t->tag_text);
    pal_ramp(p, t->pout_tag, t->tag_text);
}

/* Fills the palette's free entries with the colours a real frame uses most
 * that the theme's entries miss (by more than a small distance): blends of
 * blends, such as a value token's edge over an arrow. */
static void palette_from_frame(palette *p, const uint8_t *rgba, size_t npx)
{
    enum { SLOTS = 4096 };
    uint32_t *key = calloc(SLOTS, sizeof *key);
    uint32_t *cnt = calloc(SLOTS, sizeof *cnt);
    if (!key || !cnt)
        goto done;
    for (size_t i = 0; i < npx; i += 3) {
        const uint8_t *q = rgba + i * 4;
        uint32_t c = (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
        uint32_t h = (c * 2654435761u) >> 20;
        for (int k = 0; k < 16; k++) {
            uint32_t s = (h + (uint32_t)k) & (SLOTS - 1);
            if (key[s] == c + 1) {
                cnt[s]++;
                break;
            }
            if (key[s] == 0) {
                key[s] = c + 1;
                cnt[s] = 1;
                break;
            }
        }
    }
    while (p->n < 255) {
        int best = -1;
        for (int s = 0; s < SLOTS; s++) {
            if (!key[s] || cnt[s] < 4)
                continue;
            if (best < 0 || cnt[s] > cnt[best])
                best = s;
        }
        if (best < 0)
            break;
        uint32_t c = key[best] - 1;
        cnt[best] = 0;
        int r = (int)(c >> 16), g = (int)(c >> 8) & 255, b = (int)c & 255;
        bool near = false;
        for (int i = 0; i < p->n && !near; i++) {
            int dr = r - p->c[i][0], dg = g - p->c[i][1], db = b - p->c[i][2];
            near = dr * dr + dg * dg + db * db < 48;
        }
        if (!near) {
            p->c[p->n][0] = (uint8_t)r;
            p->c[p->n][1] = (uint8_t)g;
            p->c[p->n][2] = (uint8_t)b;
            p->n++;
        }
    }
done:
    free(key);
    free(cnt);
}
