/* What the headless tests of the scan view (test_render.c, test_render_lab.c,
 * test_slides.c, test_vector.c) share: the GL context for the whole run, a
 * trace from the emulator, a view as app.c hands it out, a frame drawn into
 * an offscreen target and read back (pixels in px, the layout in lay, a PNG
 * in out_dir for a look), and reading those pixels. Header-only; the
 * including file defines _GNU_SOURCE first (render_util.h). */
#ifndef SV_TEST_VIEW_TEST_H
#define SV_TEST_VIEW_TEST_H

#include "export.h"
#include "gfx.h"
#include "platform.h"
#include "render.h"
#include "theme.h"
#include "view_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"
#include "../render_util.h"

static sv_gfx *g;                   /* the drawing layer, from view_test_open */
static sv_platform view_platform_;  /* its window and context */
static const char *out_dir = ".";   /* where PNGs go: argv[1] */
static sv_layout lay;               /* the layout of the last frame drawn */
static uint8_t *px;                 /* its pixels, RGBA, cur_w x cur_h */
static int cur_w, cur_h;

/* Opens the GL context and g for the test called name; out_dir from argv[1].
 * Exits 1 when there is no headless GL. */
static inline void view_test_open(int argc, char **argv, const char *name)
{
    if (argc > 1)
        out_dir = argv[1];
    g = render_open(&view_platform_, name);
}

/* Frees the last frame, closes what view_test_open opened; returns the
 * test's status (check_report with passed). */
static inline int view_test_close(const char *passed)
{
    free(px);
    px = NULL;
    render_close(&view_platform_, g);
    g = NULL;
    return check_report(passed);
}

/* A whole test: opens, runs each of tests (NULL-terminated) in order,
 * closes; returns view_test_close(passed). */
typedef void (*view_test_fn)(void);
static inline int view_test_main(int argc, char **argv, const char *name,
                                 const view_test_fn *tests, const char *passed)
{
    view_test_open(argc, argv, name);
    for (const view_test_fn *f = tests; *f; f++)
        (*f)();
    return view_test_close(passed);
}

/* Draws s at w x h into an offscreen target, with rec attached when not
 * NULL; reads the pixels back into px and the layout into lay; with a
 * name, writes out_dir/PREFIXNAME.png (a failure to write is a note). */
static inline void view_draw(const sv_app_view *s, int w, int h, sv_gfx_rec *rec,
                             const char *prefix, const char *name)
{
    char err[256];
    sv_gfx_target *t = sv_gfx_target_create(g, w, h, err, sizeof err);
    if (!t) {
        fprintf(stderr, "%s:%d: FAIL: target: %s\n", __FILE__, __LINE__, err);
        exit(1);
    }
    sv_gfx_target_bind(t);
    if (rec)
        sv_gfx_record(g, rec);
    sv_render_frame(g, s, w, h);
    if (rec)
        sv_gfx_record(g, NULL);
    render_read_back(g, t, w, h, &px);
    if (!px) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    cur_w = w;
    cur_h = h;
    sv_layout_compute(s, w, h, &lay);
    if (name) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s%s.png", out_dir, prefix, name);
        if (!sv_png_write(path, px, w, h, err, sizeof err))
            fprintf(stderr, "note: %s\n", err);
    }
}

/* The pixel under (x, y) of the last frame, clamped to it. */
static inline const uint8_t *at(float x, float y)
{
    int ix = (int)floorf(x), iy = (int)floorf(y);
    if (ix < 0) ix = 0;
    if (iy < 0) iy = 0;
    if (ix >= cur_w) ix = cur_w - 1;
    if (iy >= cur_h) iy = cur_h - 1;
    return px + ((size_t)iy * cur_w + ix) * 4;
}

/* c at 8 bits, as the framebuffer holds it. */
static inline void to_rgb8(sv_rgba c, int out[3])
{
    out[0] = (int)lroundf(c.r * 255.0f);
    out[1] = (int)lroundf(c.g * 255.0f);
    out[2] = (int)lroundf(c.b * 255.0f);
}

/* How far pixel p is from c: the sum of the three channels' differences. */
static inline int dist(const uint8_t *p, sv_rgba c)
{
    int q[3];
    to_rgb8(c, q);
    return abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]);
}

/* A pixel's luma (0..255). */
static inline int lum(const uint8_t *p)
{
    return (p[0] * 299 + p[1] * 587 + p[2] * 114) / 1000;
}

/* The first text primitive of r containing needle; NULL when none does. */
static inline const sv_prim *rec_text_containing(const sv_gfx_rec *r, const char *needle)
{
    for (size_t k = 0; k < sv_gfx_rec_count(r); k++) {
        const sv_prim *q = sv_gfx_rec_prim(r, k);
        if (q->kind == SV_PRIM_TEXT && strstr(q->text, needle))
            return q;
    }
    return NULL;
}

/* Whether a text primitive of r contains needle. */
static inline bool rec_has_text(const sv_gfx_rec *r, const char *needle)
{
    return rec_text_containing(r, needle) != NULL;
}

/* The first text primitive of r equal to (or, prefix: starting with) str. */
static inline const sv_prim *rec_find_text(const sv_gfx_rec *r, const char *str, bool prefix)
{
    for (size_t k = 0; k < sv_gfx_rec_count(r); k++) {
        const sv_prim *q = sv_gfx_rec_prim(r, k);
        if (q->kind == SV_PRIM_TEXT &&
            (prefix ? strncmp(q->text, str, strlen(str)) == 0 : strcmp(q->text, str) == 0))
            return q;
    }
    return NULL;
}

/* The last rect primitive of r with box b (within 0.5 px); NULL none. */
static inline const sv_prim *rec_rect_at(const sv_gfx_rec *r, sv_box b)
{
    const sv_prim *found = NULL;
    for (size_t k = 0; k < sv_gfx_rec_count(r); k++) {
        const sv_prim *q = sv_gfx_rec_prim(r, k);
        if (q->kind == SV_PRIM_RECT && fabsf(q->box.x - b.x) < 0.5f &&
            fabsf(q->box.y - b.y) < 0.5f && fabsf(q->box.w - b.w) < 0.5f &&
            fabsf(q->box.h - b.h) < 0.5f)
            found = q;
    }
    return found;
}

/* Whether two colours are the same to 8 bits. */
static inline bool same_rgb(sv_rgba a, sv_rgba b)
{
    return fabsf(a.r - b.r) < 0.004f && fabsf(a.g - b.g) < 0.004f && fabsf(a.b - b.b) < 0.004f;
}

/* The header's right-aligned source text of r's frame (in lay), "" none. */
static inline const char *rec_header_source(const sv_gfx_rec *r)
{
    for (size_t k = 0; k < sv_gfx_rec_count(r); k++) {
        const sv_prim *q = sv_gfx_rec_prim(r, k);
        if (q->kind == SV_PRIM_TEXT && q->align == SV_ALIGN_RIGHT &&
            q->y0 < lay.header.y + lay.header.h && q->font == SV_FONT_SANS)
            return q->text;
    }
    return "";
}

#endif
