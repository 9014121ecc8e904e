/* The drawing helpers every part of the scene shares (scene.h): text fitted
 * to a width, text wrapped onto lines, and the hatch of a cell wrong in some
 * run of the mistakes lab. They call only gfx. */
#include <math.h>
#include <string.h>

#include "scene.h"

/* Diagonal hatch lines (/) across box b, spaced gap apart, cut at the box
 * inset by w: one quad of stripes (sv_gfx_stripes), no clip change, so the
 * batch goes on. */
void sv_scene_hatch(sv_gfx *g, sv_box b, float gap, float w, sv_rgba col)
{
    float in = w;
    sv_box c = { b.x + in, b.y + in, b.w - 2 * in, b.h - 2 * in };
    if (c.w <= 0.0f || c.h <= 0.0f)
        return;
    /* the lines x + y = k inside c, k = c.x + c.y + gap / 2 + j gap */
    sv_gfx_stripes(g, c, 1.0f, 1.0f, gap, c.x + c.y + gap * 0.5f, w, col);
}

/* Text px that makes utf8 at most max_w wide (px itself when it fits). */
float sv_scene_fit_px(sv_gfx *g, sv_font font, float px, float max_w, const char *utf8)
{
    float w = sv_gfx_text_width(g, font, px, utf8);
    if (w <= max_w || w <= 0.0f)
        return px;
    /* Text is rasterised at whole pixel sizes: step down until it fits. */
    float fit = floorf(px * max_w / w);
    while (fit > 4.0f && sv_gfx_text_width(g, font, fit, utf8) > max_w)
        fit -= 1.0f;
    return fit;
}

float sv_scene_text_fit(sv_gfx *g, sv_font font, float px, float least, float max_w,
                        float x, float y, sv_align align, sv_rgba col, const char *utf8)
{
    float fit = sv_scene_fit_px(g, font, px, max_w, utf8);
    if (fit >= least)
        return sv_gfx_text(g, font, fit, x, y, align, col, utf8);
    char cut[SV_WRAP_MAX];
    sv_gfx_text_ellipsize(g, font, least, max_w, utf8, cut, sizeof cut);
    return sv_gfx_text(g, font, least, x, y, align, col, cut);
}

int sv_scene_wrap(sv_gfx *g, sv_font font, float px, float max_w, const char *utf8,
                  char (*out)[SV_WRAP_MAX], int max)
{
    int n = 0;
    const char *p = utf8;
    while (*p == ' ')
        p++;
    while (*p) {
        size_t len = strlen(p), cut = len;
        if (len >= SV_WRAP_MAX || sv_gfx_text_width(g, font, px, p) > max_w) {
            /* The longest head cut at a space that fits; a word longer than
             * the line goes alone. */
            char tmp[SV_WRAP_MAX];
            size_t best = 0, first = 0;
            for (size_t i = 1; i < len && i < SV_WRAP_MAX; i++) {
                if (p[i] != ' ')
                    continue;
                if (!first)
                    first = i;
                memcpy(tmp, p, i);
                tmp[i] = '\0';
                if (sv_gfx_text_width(g, font, px, tmp) > max_w)
                    break;
                best = i;
            }
            cut = best ? best : first ? first : (len < SV_WRAP_MAX ? len : SV_WRAP_MAX - 1);
        }
        if (n < max) {
            memcpy(out[n], p, cut);
            out[n][cut] = '\0';
        }
        n++;
        p += cut;
        while (*p == ' ')
            p++;
    }
    return n;
}
