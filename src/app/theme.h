/* Colour themes. The case colours are Okabe-Ito hues (colour-blind safe) in
 * every theme, lightened or darkened per theme for contrast (theme.c says
 * which); borders (solid, dashed, dotted) carry the case without colour. */
#ifndef SV_THEME_H
#define SV_THEME_H

#include "gfx.h"

typedef enum sv_theme_id {
    SV_THEME_DARK,     /* projectors in dim rooms (default) */
    SV_THEME_LIGHT,    /* handouts, bright rooms */
    SV_THEME_CONTRAST, /* high contrast */
    SV_THEME_COUNT
} sv_theme_id;

typedef struct sv_theme {
    const char *name;   /* "dark", "light", "contrast" */
    sv_rgba bg, panel, text, text_dim, grid;
    sv_rgba cell_fill, cell_border, cell_text, uninit; /* cells with no case */
    sv_rgba full, partial, copy;  /* Okabe-Ito blue, orange, grey */
    sv_rgba window;               /* Okabe-Ito reddish purple: a cell's window on the input row */
    sv_rgba error;                /* Okabe-Ito vermilion (also text: overflow notes) */
    sv_rgba pin_tag, pout_tag, arrow;
    sv_rgba tag_text;             /* text on the pin/pout tags */
    sv_rgba accent;               /* key names in the help, the current timeline step */
    float tint;                   /* how much of its case colour a pout cell's fill takes */
    float overlay_alpha;          /* opacity of the help and input panels */
    float line_scale;             /* arrows and case borders: width factor (contrast: 1.6) */
} sv_theme;

const sv_theme *sv_theme_get(sv_theme_id id);
bool sv_theme_from_name(const char *name, sv_theme_id *out);

#endif
