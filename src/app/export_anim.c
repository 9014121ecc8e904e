/* Exports beyond one PNG per round: the whole run as an animated GIF at the
 * animation's own timing (export.h: sv_export_gif), and any frame as SVG
 * through the recorded scene (sv_export_svg_rounds). Both draw through
 * sv_render_frame, exactly as the window does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/fileio.h"
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

/* ---- the GIF ------------------------------------------------------------ */

bool sv_export_gif(sv_gfx *g, const sv_app_view *v, const char *path, int w, int h,
                   float speed, sv_export_gif_info *info, char *err, size_t errlen)
{
    if (info)
        memset(info, 0, sizeof *info);
    sv_app_view c;
    if (!sv_export_view(v, w, h, "GIF", 8192, &c, err, errlen))
        return false;
    if (!(speed >= 0.25f && speed <= 4.0f))
        speed = 1.0f;
    sv_frame_out o;
    if (!sv_frame_out_open(g, &o, w, h, err, errlen))
        return false;
    palette *pal = malloc(sizeof *pal);
    sv_gif *gif = NULL;
    bool ok = false;
    if (!pal) {
        snprintf(err, errlen, "GIF: out of memory for %dx%d frames", w, h);
        goto done;
    }
    int steps = sv_export_steps(&c);
    /* The palette: the theme, then what a settled frame and a frame
     * mid-move use that the theme's blends miss. */
    theme_palette(sv_theme_get(c.theme), pal);
    sv_export_at(&c, steps > 1 ? 1 : 0);
    c.anim = 1.0f;
    sv_frame_out_render(g, &o, &c);
    palette_from_frame(pal, o.rgba, (size_t)w * h);
    if (steps > 1) {
        c.from_step = 0;
        c.anim = 0.3f;
        sv_frame_out_render(g, &o, &c);
        palette_from_frame(pal, o.rgba, (size_t)w * h);
        c.anim = 0.7f;
        sv_frame_out_render(g, &o, &c);
        palette_from_frame(pal, o.rgba, (size_t)w * h);
    }
    gif = sv_gif_create(w, h, (const uint8_t(*)[3])pal->c, pal->n, err, errlen);
    if (!gif)
        goto done;
    /* 25 frames a second while values move; each settled round held. */
    const int frame_cs = 4;
    int move_frames = (int)lroundf(SV_MOVE_S / speed * 100.0f / (float)frame_cs);
    if (move_frames < 2)
        move_frames = 2;
    int hold_cs = (int)lroundf(SV_HOLD_S / speed * 100.0f);
    int total_cs = 0;
    for (int k = 0; k < steps; k++) {
        if (k > 0) {
            for (int j = 0; j < move_frames; j++) {
                sv_export_at(&c, k);
                c.from_step = k - 1;
                c.anim = (float)j / (float)move_frames;
                sv_frame_out_render(g, &o, &c);
                if (!sv_gif_add(gif, o.rgba, frame_cs, err, errlen))
                    goto done;
                total_cs += frame_cs;
            }
        }
        sv_export_at(&c, k);
        c.anim = 1.0f;
        sv_frame_out_render(g, &o, &c);
        if (!sv_gif_add(gif, o.rgba, hold_cs, err, errlen))
            goto done;
        total_cs += hold_cs;
    }
    int frames = sv_gif_frames(gif);
    size_t bytes = 0;
    ok = sv_gif_finish(gif, path, &bytes, err, errlen);
    gif = NULL;
    if (ok && info) {
        info->frames = frames;
        info->bytes = bytes;
        info->seconds = (double)total_cs / 100.0;
        info->colours = pal->n;
    }
done:
    sv_gif_destroy(gif);
    free(pal);
    sv_frame_out_close(&o);
    return ok;
}

/* ---- SVG ---------------------------------------------------------------- */

/* Renders c with the recorder attached and writes its SVG into f (begun,
 * not yet finished). */
static bool svg_one(sv_gfx *g, sv_gfx_target *target, sv_gfx_rec *rec, const sv_app_view *c,
                    int w, int h, sv_file *f, const char *title, char *err, size_t errlen)
{
    sv_gfx_target_bind(target);
    sv_gfx_record(g, rec);
    sv_render_frame(g, c, w, h);
    sv_gfx_record(g, NULL);
    sv_gfx_target_bind(NULL);
    size_t len = 0;
    char *doc = sv_svg_render(rec, title, &len);
    if (!doc) {
        snprintf(err, errlen, "%s: out of memory for the SVG", sv_file_name(f));
        return false;
    }
    bool ok = fwrite(doc, 1, len, sv_file_stream(f)) == len;
    free(doc);
    if (!ok)
        snprintf(err, errlen, "%s: write failed", sv_file_name(f));
    return ok;
}

bool sv_export_svg(sv_gfx *g, const sv_app_view *v, const char *dir, int w, int h, int *count,
                   char *err, size_t errlen)
{
    if (count)
        *count = 0;
    sv_app_view c;
    if (!sv_export_view(v, w, h, "SVG", 16384, &c, err, errlen))
        return false;
    if (!sv_export_make_dirs(dir, err, errlen))
        return false;
    sv_gfx_rec *rec = sv_gfx_rec_create();
    sv_gfx_target *target = rec ? sv_gfx_target_create(g, w, h, err, errlen) : NULL;
    if (!rec)
        snprintf(err, errlen, "SVG: out of memory");
    int steps = sv_export_steps(&c);
    /* As the PNG export: every file to its temporary first, then all of
     * them renamed, so a full disk leaves an earlier export whole. */
    sv_file **files = calloc((size_t)steps + 1, sizeof *files);
    bool ok = rec && target && files;
    if (rec && target && !files)
        snprintf(err, errlen, "SVG: out of memory");
    char path[4200], title[160];
    for (int k = 0; k <= steps && ok; k++) {
        bool over = k == steps;
        c.overview = over;
        sv_export_at(&c, over ? steps - 1 : k);
        const char *what = c.compare ? "Hillis-Steele beside Blelloch" : "Hillis-Steele scan";
        if (over) { /* the compare view has no overview: its last step */
            snprintf(path, sizeof path, "%s/overview.svg", dir);
            snprintf(title, sizeof title, "%s, n = %zu: every round", what, c.trace->n);
        } else {
            snprintf(path, sizeof path, "%s/round-%02d.svg", dir, k);
            snprintf(title, sizeof title, "%s, n = %zu: step %d", what, c.trace->n, k);
        }
        ok = (files[k] = sv_file_begin(path, err, errlen)) != NULL &&
             svg_one(g, target, rec, &c, w, h, files[k], title, err, errlen) &&
             sv_file_finish(files[k], err, errlen);
    }
    for (int k = 0; k <= steps && ok; k++) {
        sv_file *f = files[k];
        files[k] = NULL;
        ok = sv_file_publish(f, err, errlen);
        if (ok && count)
            *count = k + 1;
    }
    if (files)
        for (int k = 0; k <= steps; k++)
            sv_file_abort(files[k]);
    free(files);
    sv_gfx_target_destroy(target);
    sv_gfx_rec_destroy(rec);
    return ok;
}
