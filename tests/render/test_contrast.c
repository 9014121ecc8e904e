/* WCAG 2.1 contrast of every theme, computed from the theme table (theme.c):
 * case colours, the window colour, arrows and cell borders against the
 * background and the cells (non-text: 3:1, 4.5:1 in the contrast theme);
 * every text colour against what it is drawn on (4.5:1, 7:1 in the contrast
 * theme). Colours are taken at 8 bits, as the framebuffer holds them. The
 * formula is checked first on known pairs, and the old light-theme orange
 * must fail, so the test can fail. */
#include <math.h>
#include <stdio.h>

#include "gfx.h"
#include "theme.h"

#include "../expect.h"

static double channel(float v)
{
    double c = (double)lroundf(v * 255.0f) / 255.0;
    return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double luminance(sv_rgba c)
{
    return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

static double ratio(sv_rgba a, sv_rgba b)
{
    double la = luminance(a), lb = luminance(b);
    if (la < lb) {
        double t = la;
        la = lb;
        lb = t;
    }
    return (la + 0.05) / (lb + 0.05);
}

static int checked;

static void need(const sv_theme *t, const char *what, sv_rgba fg, const char *on, sv_rgba bg,
                 double min)
{
    double r = ratio(fg, bg);
    checked++;
    CHECK_MSG(r >= min, "theme %s: %s on %s is %.2f:1, needs %.1f:1", t->name, what, on, r, min);
}

int main(void)
{
    /* The formula: black on white is 21:1, #777777 on white about 4.48:1. */
    CHECK_MSG(fabs(ratio(sv_rgb_hex(0x000000), sv_rgb_hex(0xFFFFFF)) - 21.0) < 1e-9, "black/white");
    CHECK_MSG(fabs(ratio(sv_rgb_hex(0x777777), sv_rgb_hex(0xFFFFFF)) - 4.478) < 0.01,
          "#777 on white is %.3f", ratio(sv_rgb_hex(0x777777), sv_rgb_hex(0xFFFFFF)));
    /* What the lecturer measured: Okabe-Ito orange on the light background. */
    double old = ratio(sv_rgb_hex(0xE69F00), sv_rgb_hex(0xF7F6F2));
    CHECK_MSG(old > 1.8 && old < 2.2, "old light orange was %.2f:1 (about 1.9-2.1 expected)", old);

    for (int id = 0; id < SV_THEME_COUNT; id++) {
        const sv_theme *t = sv_theme_get((sv_theme_id)id);
        bool hc = id == SV_THEME_CONTRAST;
        double shape = hc ? 4.5 : 3.0, text = hc ? 7.0 : 4.5;
        struct { const char *name; sv_rgba c; } lines[] = {
            { "full window (case border, arrows)", t->full },
            { "partial window (case border, arrows)", t->partial },
            { "copy-through (case border)", t->copy },
            { "window on the input (border, bracket)", t->window },
            { "arrows", t->arrow },
            { "cell border", t->cell_border },
        };
        for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
            need(t, lines[k].name, lines[k].c, "background", t->bg, shape);
            need(t, lines[k].name, lines[k].c, "cell fill", t->cell_fill, shape);
        }
        /* Text. */
        need(t, "text", t->text, "background", t->bg, text);
        need(t, "text", t->text, "panel", t->panel, text);
        need(t, "text", t->text, "cell fill", t->cell_fill, text);
        need(t, "dim text", t->text_dim, "background", t->bg, text);
        need(t, "dim text", t->text_dim, "panel", t->panel, text);
        need(t, "numbers", t->cell_text, "cell fill", t->cell_fill, text);
        sv_rgba cases[4] = { t->full, t->partial, t->copy, t->window };
        const char *cname[4] = { "full", "partial", "copy", "window" };
        for (int c = 0; c < 4; c++) {
            char on[64];
            snprintf(on, sizeof on, "the %s cell fill", cname[c]);
            float tint = c == 3 ? 0.42f : t->tint; /* render_cells.c: style_of */
            need(t, "numbers", t->cell_text, on, sv_rgba_mix(t->cell_fill, cases[c], tint), text);
        }
        need(t, "`?` of an uninitialized cell", t->uninit, "its fill",
             sv_rgba_mix(t->cell_fill, t->bg, 0.55f), text);
        need(t, "overflow and float notes (error colour)", t->error, "background", t->bg, text);
        need(t, "window label", t->window, "background", t->bg, text);
        need(t, "key names (accent)", t->accent, "panel", t->panel, text);
        need(t, "pin tag text", t->tag_text, "pin tag", t->pin_tag, text);
        need(t, "pout tag text", t->tag_text, "pout tag", t->pout_tag, text);
        CHECK_MSG(t->line_scale >= 1.0f, "theme %s: line_scale %.2f", t->name, t->line_scale);
    }
    /* Thicker arrows and borders in the contrast theme (the lecturer found
     * them thin). */
    CHECK_MSG(sv_theme_get(SV_THEME_CONTRAST)->line_scale >= 1.5f, "contrast theme lines not thicker");
    printf("contrast: %d pairs checked, %d below the minimum\n", checked, failures);
    return failures ? 1 : 0;
}
