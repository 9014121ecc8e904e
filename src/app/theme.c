/* The three colour themes. The case colours (Okabe-Ito: full #0072B2,
 * partial #E69F00, copy #999999, window #CC79A7, error #D55E00) are the same
 * in every theme, so a legend or a screenshot reads the same everywhere. */
#include <string.h>

#include "theme.h"

#define OKABE_FULL    0x0072B2
#define OKABE_PARTIAL 0xE69F00
#define OKABE_COPY    0x999999
#define OKABE_WINDOW  0xCC79A7
#define OKABE_ERROR   0xD55E00
#define OKABE_SKY     0x56B4E9
#define OKABE_GREEN   0x009E73
#define OKABE_YELLOW  0xF0E442

static sv_rgba rgb(uint32_t hex)
{
    sv_rgba c = {
        (float)((hex >> 16) & 0xff) / 255.0f,
        (float)((hex >> 8) & 0xff) / 255.0f,
        (float)(hex & 0xff) / 255.0f,
        1.0f,
    };
    return c;
}

static sv_theme themes[SV_THEME_COUNT];
static bool themes_ready;

static void themes_init(void)
{
    sv_theme *d = &themes[SV_THEME_DARK];
    d->name = "dark";
    d->bg = rgb(0x15181D);
    d->panel = rgb(0x20252D);
    d->text = rgb(0xECEEF1);
    d->text_dim = rgb(0x9AA3AE);
    d->grid = rgb(0x2E343D);
    d->cell_fill = rgb(0x262C35);
    d->cell_border = rgb(0x4C5563);
    d->cell_text = rgb(0xF3F4F6);
    d->uninit = rgb(0x737C88);
    d->pin_tag = rgb(OKABE_SKY);
    d->pout_tag = rgb(OKABE_YELLOW);
    d->arrow = rgb(0xC9CFD8);
    d->tag_text = rgb(0x111418);
    d->accent = rgb(OKABE_YELLOW);
    d->tint = 0.34f;
    d->overlay_alpha = 0.94f;

    sv_theme *l = &themes[SV_THEME_LIGHT];
    l->name = "light";
    l->bg = rgb(0xF7F6F2);
    l->panel = rgb(0xFFFFFF);
    l->text = rgb(0x1B1F24);
    l->text_dim = rgb(0x5E6670);
    l->grid = rgb(0xDEE1E5);
    l->cell_fill = rgb(0xFFFFFF);
    l->cell_border = rgb(0xA9B0BA);
    l->cell_text = rgb(0x14171B);
    l->uninit = rgb(0x8C939D);
    l->pin_tag = rgb(OKABE_SKY);
    l->pout_tag = rgb(OKABE_YELLOW);
    l->arrow = rgb(0x3A414B);
    l->tag_text = rgb(0x111418);
    l->accent = rgb(OKABE_FULL);
    l->tint = 0.24f;
    l->overlay_alpha = 0.96f;

    sv_theme *h = &themes[SV_THEME_CONTRAST];
    h->name = "contrast";
    h->bg = rgb(0x000000);
    h->panel = rgb(0x000000);
    h->text = rgb(0xFFFFFF);
    h->text_dim = rgb(0xE0E0E0);
    h->grid = rgb(0x808080);
    h->cell_fill = rgb(0x000000);
    h->cell_border = rgb(0xFFFFFF);
    h->cell_text = rgb(0xFFFFFF);
    h->uninit = rgb(0xBDBDBD);
    h->pin_tag = rgb(OKABE_SKY);
    h->pout_tag = rgb(OKABE_YELLOW);
    h->arrow = rgb(0xFFFFFF);
    h->tag_text = rgb(0x000000);
    h->accent = rgb(OKABE_YELLOW);
    h->tint = 0.40f;
    h->overlay_alpha = 0.97f;

    for (int i = 0; i < SV_THEME_COUNT; i++) {
        themes[i].full = rgb(OKABE_FULL);
        themes[i].partial = rgb(OKABE_PARTIAL);
        themes[i].copy = rgb(OKABE_COPY);
        themes[i].window = rgb(OKABE_WINDOW);
        themes[i].error = rgb(OKABE_ERROR);
    }
    themes_ready = true;
}

const sv_theme *sv_theme_get(sv_theme_id id)
{
    if (!themes_ready)
        themes_init();
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
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            if (out)
                *out = names[i].id;
            return true;
        }
    }
    return false;
}
