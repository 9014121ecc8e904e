/* The three colour themes. The case colours are Okabe-Ito (full #0072B2,
 * partial #E69F00, copy #999999, window #CC79A7, error #D55E00), kept as
 * the same hues in every theme but made lighter or darker where a theme's
 * background needs it: every case colour, border and arrow has at least 3:1
 * against the background and the cells (WCAG 2.1 non-text contrast; 4.5:1 in
 * the contrast theme), every text colour 4.5:1 (7:1 in the contrast theme).
 * tests/render/test_contrast.c computes the ratios from this table. */
#include <string.h>

#include "theme.h"
#include "../core/names.h"

/* 0xRRGGBB as an opaque sv_rgba, usable in a static initializer. */
#define RGB(h) { (float)(((h) >> 16) & 0xff) / 255.0f, (float)(((h) >> 8) & 0xff) / 255.0f, \
                 (float)((h) & 0xff) / 255.0f, 1.0f }

#define OKABE_FULL    0x0072B2
#define OKABE_PARTIAL 0xE69F00
#define OKABE_COPY    0x999999
#define OKABE_WINDOW  0xCC79A7
#define OKABE_ERROR   0xD55E00
#define OKABE_SKY     0x56B4E9
#define OKABE_YELLOW  0xF0E442


static const sv_theme themes[SV_THEME_COUNT] = {
    [SV_THEME_DARK] = {
        .name = "dark",
        .bg = RGB(0x15181D), .panel = RGB(0x20252D),
        .text = RGB(0xECEEF1), .text_dim = RGB(0x9AA3AE), .grid = RGB(0x2E343D),
        .cell_fill = RGB(0x262C35), .cell_border = RGB(0x737C8A),
        .cell_text = RGB(0xF3F4F6), .uninit = RGB(0x8A93A0),
        /* #0072B2 is 2.7:1 on the cells: the same blue, lighter */
        .full = RGB(0x2F8FD8), .partial = RGB(OKABE_PARTIAL), .copy = RGB(OKABE_COPY),
        .window = RGB(OKABE_WINDOW), .error = RGB(OKABE_ERROR),
        .pin_tag = RGB(OKABE_SKY), .pout_tag = RGB(OKABE_YELLOW), .arrow = RGB(0xC9CFD8),
        .tag_text = RGB(0x111418), .accent = RGB(OKABE_YELLOW),
        .tint = 0.34f, .overlay_alpha = 0.94f, .line_scale = 1.0f,
    },
    [SV_THEME_LIGHT] = {
        .name = "light",
        .bg = RGB(0xF7F6F2), .panel = RGB(0xFFFFFF),
        .text = RGB(0x1B1F24), .text_dim = RGB(0x5E6670), .grid = RGB(0xDEE1E5),
        .cell_fill = RGB(0xFFFFFF), .cell_border = RGB(0x7D8590),
        .cell_text = RGB(0x14171B), .uninit = RGB(0x666D78),
        /* On paper white the orange, grey and pink are 2-2.8:1: the same
         * hues, darker; the vermilion darker for its text (4.5:1). */
        .full = RGB(OKABE_FULL), .partial = RGB(0xA86800), .copy = RGB(0x767676),
        .window = RGB(0xA8457F), .error = RGB(0xB34700),
        .pin_tag = RGB(OKABE_SKY), .pout_tag = RGB(OKABE_YELLOW), .arrow = RGB(0x3A414B),
        .tag_text = RGB(0x111418), .accent = RGB(OKABE_FULL),
        .tint = 0.24f, .overlay_alpha = 0.96f, .line_scale = 1.0f,
    },
    [SV_THEME_CONTRAST] = {
        .name = "contrast",
        .bg = RGB(0x000000), .panel = RGB(0x000000),
        .text = RGB(0xFFFFFF), .text_dim = RGB(0xE0E0E0), .grid = RGB(0x808080),
        .cell_fill = RGB(0x000000), .cell_border = RGB(0xFFFFFF),
        .cell_text = RGB(0xFFFFFF), .uninit = RGB(0xBDBDBD),
        /* On black: the blue, pink and vermilion lighter (>= 7:1). */
        .full = RGB(0x4FA8E8), .partial = RGB(OKABE_PARTIAL), .copy = RGB(OKABE_COPY),
        .window = RGB(0xE08FC0), .error = RGB(0xFF7A33),
        .pin_tag = RGB(OKABE_SKY), .pout_tag = RGB(OKABE_YELLOW), .arrow = RGB(0xFFFFFF),
        .tag_text = RGB(0x000000), .accent = RGB(OKABE_YELLOW),
        .tint = 0.40f, .overlay_alpha = 0.97f, .line_scale = 1.6f,
    },
};

const sv_theme *sv_theme_get(sv_theme_id id)
{
    if ((int)id < 0 || id >= SV_THEME_COUNT)
        id = SV_THEME_DARK;
    return &themes[id];
}

bool sv_theme_from_name(const char *name, sv_theme_id *out)
{
    static const struct { const char *name; sv_theme_id id; } names[] = {
        { "dark", SV_THEME_DARK },
        { "light", SV_THEME_LIGHT },
        { "contrast", SV_THEME_CONTRAST },
        { "high-contrast", SV_THEME_CONTRAST },
    };
    int i = SV_NAME_INDEX(name, names, sizeof names / sizeof names[0]);
    if (i >= 0 && out)
        *out = names[i].id;
    return i >= 0;
}
