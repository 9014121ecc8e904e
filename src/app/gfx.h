/* A small immediate-mode 2D renderer over OpenGL 3.3 core (through libepoxy):
 * rounded cells with solid, dashed or dotted borders, lines and arrows, and
 * text from SDL2_ttf through a glyph atlas. Everything the screen shows is
 * drawn through this; the renderers above it (render_*.c) never call GL.
 * Coordinates are framebuffer pixels, origin at the top left. */
#ifndef SV_GFX_H
#define SV_GFX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sv_rgba {
    float r, g, b, a;
} sv_rgba;

/* 0xRRGGBB, opaque. */
sv_rgba sv_rgb_hex(uint32_t rgb);
sv_rgba sv_rgba_alpha(sv_rgba c, float a);
sv_rgba sv_rgba_mix(sv_rgba a, sv_rgba b, float t); /* a*(1-t) + b*t */

typedef enum sv_border {
    SV_BORDER_NONE,
    SV_BORDER_SOLID,
    SV_BORDER_DASHED,
    SV_BORDER_DOTTED
} sv_border;

typedef enum sv_font {
    SV_FONT_SANS,      /* labels, captions */
    SV_FONT_SANS_BOLD, /* titles */
    SV_FONT_MONO,      /* numbers */
    SV_FONT_COUNT
} sv_font;

typedef enum sv_align {
    SV_ALIGN_LEFT,
    SV_ALIGN_CENTER,
    SV_ALIGN_RIGHT
} sv_align;

typedef struct sv_box {
    float x, y, w, h;
} sv_box;

typedef struct sv_gfx sv_gfx;

/* Needs a current OpenGL 3.3+ core context. Compiles the embedded shaders and
 * opens the embedded fonts. Returns NULL with err filled on failure. */
sv_gfx *sv_gfx_create(char *err, size_t errlen);
void sv_gfx_destroy(sv_gfx *g); /* accepts NULL; the context must still be current */

/* Starts a frame on the currently bound framebuffer of fb_w x fb_h pixels,
 * cleared to clear. Draw calls are batched and issued by sv_gfx_end() (or
 * when a batch fills); wherever two draws overlap, the later one is on top.
 * Colours are straight alpha (0..1); blending is premultiplied inside. */
void sv_gfx_begin(sv_gfx *g, int fb_w, int fb_h, sv_rgba clear);
void sv_gfx_end(sv_gfx *g);

/* Clips later draws to box, rounded to whole pixels (NULL: no clip).
 * Shapes and text rows wholly outside it are skipped on the CPU. A clip
 * change issues the batch so far: set it per panel, not per shape. */
void sv_gfx_clip(sv_gfx *g, const sv_box *box);

/* A rectangle with rounded corners (radius px), filled with fill, and its
 * border of border_w px inside the edge, in border_color and style. Dashes
 * (3 w long, 2 w apart) and round dots (w across, w apart but at least 2 px)
 * are centred on each corner and stretched so each side holds a whole
 * number of them.
 * Fill and border may be transparent; radius and border_w are clamped to
 * the box. Fractional boxes are fine: edges are antialiased. */
void sv_gfx_rect(sv_gfx *g, sv_box box, float radius, sv_rgba fill,
                 sv_rgba border_color, float border_w, sv_border style);

/* An antialiased line with round caps (widths under 1 px draw fainter),
 * and one with an arrow head of head px at (x1, y1): a triangle head px
 * long and 0.9 head wide whose tip is exactly at (x1, y1). */
void sv_gfx_line(sv_gfx *g, float x0, float y0, float x1, float y1, float width, sv_rgba c);
/* Parallel lines `width` px wide across box, cut at its edges: those where
 * x nx + y ny = phase + k period for any integer k. One quad however many
 * lines (a hatch, the warp lines through the rows): on llvmpipe each thin
 * line's two sliver triangles shade every 4x4 block they touch twice. The
 * pixels are sv_gfx_line's along each line's body; the record gets each
 * line, edge to edge, as a line. */
void sv_gfx_stripes(sv_gfx *g, sv_box box, float nx, float ny, float period, float phase,
                    float width, sv_rgba c);
void sv_gfx_arrow(sv_gfx *g, float x0, float y0, float x1, float y1, float width,
                  float head, sv_rgba c);
/* A filled circle, with a solid border of border_w inside it when > 0. */
void sv_gfx_circle(sv_gfx *g, float cx, float cy, float r, sv_rgba fill,
                   sv_rgba border_color, float border_w);

/* UTF-8 text of size px (pixel height of the font's em, rounded to whole
 * px and rasterised at exactly that size), placed so that the middle of the
 * capital letters and digits is at y, aligned on x; glyphs land on whole
 * pixels, so text stays sharp. Returns the advance width in px, which
 * sv_gfx_text_width gives without drawing (same value, whole px). Short
 * strings (up to 32 bytes) are cached whole, so drawing a number is one
 * quad. Measuring is cheap and does not fill the atlas. */
float sv_gfx_text(sv_gfx *g, sv_font font, float px, float x, float y,
                  sv_align align, sv_rgba c, const char *utf8);
float sv_gfx_text_width(sv_gfx *g, sv_font font, float px, const char *utf8);
/* Copies utf8 into out[len], cut at a character boundary and ended with
 * "\u2026" so that it is at most max_w wide at px; empty when not even that fits. */
void sv_gfx_text_ellipsize(sv_gfx *g, sv_font font, float px, float max_w, const char *utf8,
                           char *out, size_t len);

/* An offscreen RGBA8 render target (framebuffer object) of w x h. */
typedef struct sv_gfx_target sv_gfx_target;
sv_gfx_target *sv_gfx_target_create(sv_gfx *g, int w, int h, char *err, size_t errlen);
void sv_gfx_target_destroy(sv_gfx_target *t); /* accepts NULL */
void sv_gfx_target_bind(sv_gfx_target *t);   /* NULL binds the window */

/* Reads the bound framebuffer into rgba (w*h*4 bytes, top row first). */
void sv_gfx_read_pixels(sv_gfx *g, int w, int h, uint8_t *rgba);

/* What the frame so far cost, for benchmarks: draw calls issued, batches
 * flushed (up to one draw call per shader class each) and quads drawn (a
 * cell, a glyph, an arrow's shaft and its head are one quad each). */
typedef struct sv_gfx_stats {
    int draw_calls;
    int flushes;
    int quads;
    int atlas_resets;  /* glyph atlas cleared because it was full */
    int atlas_uploads; /* new glyphs sent to the atlas texture: at most one a flush */
} sv_gfx_stats;
sv_gfx_stats sv_gfx_get_stats(const sv_gfx *g);

/* ---- The second back end: a record of what a frame draws -------------
 * While a recorder is attached, every sv_gfx_rect, _circle, _line, _arrow,
 * _text and _clip call is also kept as one primitive, in order, exactly as
 * the renderers asked for it (before culling and batching): the same scene
 * the GL back end rasterises, ready for a vector writer (svg.h) or for tests
 * that ask what was drawn. sv_gfx_begin empties it. */
typedef enum sv_prim_kind {
    SV_PRIM_RECT,  /* box, radius, fill, border, border_w (inside the edge), style */
    SV_PRIM_LINE,  /* (x0,y0)-(x1,y1), width, colour; round caps */
    SV_PRIM_ARROW, /* (x0,y0)-(x1,y1), width, head, colour; tip at (x1,y1) */
    SV_PRIM_TEXT,  /* text at x (aligned as align), baseline y, font, px, colour, advance */
    SV_PRIM_CLIP   /* box; clip_on false: no clip */
} sv_prim_kind;

typedef struct sv_prim {
    sv_prim_kind kind;
    sv_box box;
    float radius, border_w;
    sv_border style;
    sv_rgba fill, border;        /* RECT; LINE, ARROW and TEXT use fill */
    float x0, y0, x1, y1, width, head;
    sv_font font;
    float px, advance;
    sv_align align;
    const char *text;            /* TEXT: UTF-8, owned by the record */
    bool clip_on;
} sv_prim;

typedef struct sv_gfx_rec sv_gfx_rec;
sv_gfx_rec *sv_gfx_rec_create(void);           /* NULL when out of memory */
void sv_gfx_rec_destroy(sv_gfx_rec *r);         /* accepts NULL */
/* Attaches r to g (NULL detaches); g does not own it. */
void sv_gfx_record(sv_gfx *g, sv_gfx_rec *r);
size_t sv_gfx_rec_count(const sv_gfx_rec *r);
const sv_prim *sv_gfx_rec_prim(const sv_gfx_rec *r, size_t i);
/* The frame's size and clear colour (from sv_gfx_begin); false when memory
 * ran out while recording (the record is then incomplete). */
bool sv_gfx_rec_frame(const sv_gfx_rec *r, int *w, int *h, sv_rgba *clear);

/* Writes an RGBA8 image, top row first, as PNG through libpng. */
bool sv_png_write(const char *path, const uint8_t *rgba, int w, int h,
                  char *err, size_t errlen);

#endif
