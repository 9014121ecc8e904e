/* Private seams between gfx.c (the batch, GL state) and text.c (fonts, the
 * glyph atlas). Nothing outside the drawing layer includes this. */
#ifndef SV_GFX_INTERNAL_H
#define SV_GFX_INTERNAL_H

#include "gfx.h"

typedef struct sv_text sv_text;

/* Opens the embedded fonts and creates the R8 atlas texture (needs the GL
 * context). Returns NULL with err filled on failure. */
sv_text *sv_text_create(char *err, size_t errlen);
void sv_text_destroy(sv_text *t); /* accepts NULL */
unsigned sv_text_atlas_texture(const sv_text *t);
/* The glyphs made since the last call into the texture (text.c); true when
 * there were any. */
bool sv_text_sync(sv_text *t);
void sv_text_frame_begin(sv_text *t); /* counts frames, for font-cache aging */
int sv_text_atlas_resets(const sv_text *t); /* times the atlas was full, ever */

/* gfx.c side, for text.c. */
sv_text *sv_gfx_text_state(sv_gfx *g);
/* Draws everything batched so far (before the atlas is cleared). */
void sv_gfx_flush(sv_gfx *g);
/* Whether rows [y0, y1] can show through the clip. */
bool sv_gfx_visible_rows(const sv_gfx *g, float y0, float y1);
/* One glyph quad: framebuffer rect (x, y, w, h), atlas texel rect at (u, v). */
void sv_gfx_glyph(sv_gfx *g, float x, float y, float w, float h, float u, float v, sv_rgba c);

/* The recorder attached to g, or NULL (record.c appends to it). While
 * muted (a primitive made of others, such as an arrow's shaft), nothing is
 * recorded. */
sv_gfx_rec *sv_gfx_recorder(sv_gfx *g);
void sv_gfx_rec_reset(sv_gfx_rec *r, int w, int h, sv_rgba clear);
sv_prim *sv_gfx_rec_push(sv_gfx_rec *r, sv_prim_kind kind); /* zeroed; NULL when out of memory */
bool sv_gfx_rec_set_text(sv_gfx_rec *r, sv_prim *p, const char *utf8);

#endif
