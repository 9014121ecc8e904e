/* The batched 2D renderer behind gfx.h: every shape is one quad of four
 * vertices in a CPU array, shaded by shaders/shape.frag as a signed-distance
 * shape or an atlas glyph; a frame is a few draw calls (three per batch, one
 * per shader build). GL state changes only at begin, at a clip change and
 * when a batch is issued. */
#include "gfx.h"
#include "gfx_internal.h"

#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char sv_shader_shape_vert[];
extern const size_t sv_shader_shape_vert_size;
extern const unsigned char sv_shader_shape_frag[];
extern const size_t sv_shader_shape_frag_size;

/* Must match the shaders. */
enum { KIND_BOX = 0, KIND_TRIANGLE = 1, KIND_GLYPH = 2, KIND_FLAT = 3 };

/* 48 bytes; the layout is mirrored by the glVertexAttribPointer calls. */
typedef struct vtx {
    float x, y;    /* framebuffer px */
    float lx, ly;  /* px from the shape's centre (glyphs: atlas texels) */
    float hx, hy;  /* half size */
    float radius, border_w, kind, style;
    uint8_t fill[4];
    uint8_t border[4];
} vtx;

/* UNDER THE HOOD: five shader lists, and why draw order still holds
 * =====================================================================
 *
 * The promise (gfx.h): what is drawn later is on top, as if every quad went
 * to GL one by one in call order.
 *
 * Why not simply keep call order. sokol_gl.h keeps the order of submission
 * and only merges a draw into the one before it when both use the same
 * state; that is always right, but a frame here alternates shaders all the
 * time (a cell, its number, the next cell, its number, ...), so call order
 * would be a few hundred draw calls. We cannot use one shader for all
 * either: on llvmpipe (the software GL that CI and many laptops without a
 * GPU driver run) a fragment shader costs every branch it contains for
 * every pixel, so glyphs must not pay for the dash and dot patterns, nor
 * plain cells for either. Hence builds of shape.frag, one per class (the
 * two flat classes share one):
 *   CLASS_SHAPE   solid boxes, rounded rectangles, lines, triangles
 *   CLASS_FLAT    the inside of a large opaque box: its fill, no distance
 *   CLASS_TINT    the inside of a large translucent box: the same, blended
 *   CLASS_STRIPES parallel lines across a box: a hatch, the warp lines
 *   CLASS_PATTERN boxes with a dashed or dotted border
 *   CLASS_GLYPH   text, sampled from the glyph atlas
 *
 * Batching. Each quad is appended to its class's list (next_quad). A flush
 * (sv_gfx_flush) uploads the lists and draws them in class order: all
 * shapes, the flat and tinted insides, stripes, then all patterns, then all
 * glyphs, one draw call each.
 * Within one list call order is kept: GL blends the primitives of one draw
 * call in index order, and the list is in call order.
 *
 * What the reordering can break. Only one thing: a quad of an EARLIER class
 * drawn AFTER a pending quad of a LATER class, where the two share a pixel.
 * Example: a glyph, then a tooltip panel (a shape) over it. The flush would
 * draw the panel first and the glyph over it. Every other pair comes out
 * right: same class keeps call order; a later class drawn after an earlier
 * one is drawn after it anyway; and quads that share no pixel can be drawn
 * in any order, because blending is per pixel.
 *
 * The check. Before appending a quad of class c, conflicts() asks whether
 * any pending quad of a class after c overlaps it; if so we flush first, so
 * the pending quads reach the framebuffer before the new one, as called.
 * "Overlaps" is tested on bounding boxes (box[]: the axis-aligned box of the
 * quad's four corners, which holds every pixel the quad can cover), so the
 * test can say "overlap" when pixels do not, costing only a flush, but never
 * the reverse. Boxes that only touch (x1 == x0) share no pixel centre and do
 * not count. Glyphs are the last class, so they never conflict; shapes are
 * the first, so nothing has to look for them: only pattern and glyph quads
 * are recorded (note_pending).
 *
 * The tile grid makes the check cheap. Comparing each new shape with every
 * pending quad would be O(n^2) per frame (thousands of cells and numbers at
 * n = 1024). So the framebuffer is cut into TILE x TILE px tiles; each tile
 * lists up to TILE_CAP pending quads that touch it (class << 13 | index;
 * CLASS_QUADS = 8192 fits the 13 bits, NCLASS the 3 above them) and has a
 * mask of the classes that touch it. A new quad visits only its own tiles: a tile whose mask has no
 * later class is skipped at once; otherwise its listed quads' boxes are
 * tested exactly. A tile that has overflowed (more than TILE_CAP quads)
 * answers "conflict" without looking, and so does a missing grid (its
 * allocation failed): both only cost flushes. The grid is cleared at every
 * flush, since nothing is pending then.
 *
 * Other flushes. A full list (CLASS_QUADS) flushes, and so does every clip
 * change (sv_gfx_clip), so one scissor rectangle holds for a whole batch.
 *
 * Testing it. tests/gfx (test_order) draws text under an opaque box, a
 * dashed box under a plain one, a line over a dotted box and text, and
 * cells interleaved with their numbers; it checks by pixel what is on top,
 * and that the interleaved cells and numbers needed no extra flushes.
 * sv_gfx_get_stats() counts flushes and draw calls (scanviz --bench-frames
 * prints them). */
enum {
    CLASS_SHAPE,
    CLASS_FLAT,
    CLASS_TINT,
    CLASS_STRIPES,
    CLASS_PATTERN,
    CLASS_GLYPH,
    NCLASS
};
static const char *const class_define[NCLASS] = {
    "", "#define SV_FLAT 1\n", "#define SV_FLAT 1\n", "#define SV_STRIPES 1\n",
    "#define SV_PATTERN 1\n", "#define SV_GLYPH 1\n"};

/* 8192 quads per list: 16-bit indices plus a base vertex address each. */
#define CLASS_QUADS 8192
_Static_assert(CLASS_QUADS <= 1 << 13 && NCLASS <= 8, "a tile entry is class << 13 | index");
#define VBO_RING 3 /* flushes in flight before a buffer is reused */
#define TILE 32     /* px: the grid that finds overlaps with pending quads */
#define TILE_CAP 12 /* quads listed per tile; beyond, the tile is "full" */

typedef struct quad_list {
    vtx *verts;          /* 4 per quad */
    float (*box)[4];     /* the pixels each quad can touch: x0, y0, x1, y1 */
    int n;
} quad_list;

struct sv_gfx {
    GLuint program[NCLASS];
    GLint u_viewport[NCLASS], u_atlas[NCLASS];
    GLuint vao[VBO_RING], vbo[VBO_RING], ibo;
    int ring;
    quad_list list[NCLASS];
    int pending;
    int fb_w, fb_h;
    float clip_x0, clip_y0, clip_x1, clip_y1; /* culling rect, px */
    /* Pending pattern and glyph quads by tile (shapes never cover-conflict:
     * they are drawn first). tile_n > TILE_CAP: the tile overflowed. */
    int tiles_x, tiles_y, tiles_cap;
    uint8_t *tile_n, *tile_mask;
    uint16_t *tile_ent; /* class << 13 | index, TILE_CAP per tile */
    sv_text *text;
    sv_gfx_rec *rec;    /* the second back end, when attached (record.c) */
    int rec_mute;       /* > 0 inside a primitive made of others */
    sv_gfx_stats stats;
    int resets_at_begin;
    GLint warm_fbo; /* the framebuffer the shaders were last warmed up on (+1; 0: none) */
};

struct sv_gfx_target {
    GLuint fbo, tex;
    int w, h;
};

/* ---- colours ---------------------------------------------------------- */

sv_rgba sv_rgb_hex(uint32_t rgb)
{
    sv_rgba c = {((rgb >> 16) & 0xff) / 255.0f, ((rgb >> 8) & 0xff) / 255.0f,
                 (rgb & 0xff) / 255.0f, 1.0f};
    return c;
}

sv_rgba sv_rgba_alpha(sv_rgba c, float a)
{
    c.a = a;
    return c;
}

sv_rgba sv_rgba_mix(sv_rgba a, sv_rgba b, float t)
{
    sv_rgba c = {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t,
                 a.a + (b.a - a.a) * t};
    return c;
}

static uint8_t unorm8(float v)
{
    if (!(v > 0.0f))
        return 0;
    if (v >= 1.0f)
        return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

static void pack_rgba(uint8_t out[4], sv_rgba c)
{
    out[0] = unorm8(c.r);
    out[1] = unorm8(c.g);
    out[2] = unorm8(c.b);
    out[3] = unorm8(c.a);
}

/* ---- GL setup --------------------------------------------------------- */

/* Whether a shader compiled (status GL_COMPILE_STATUS, with glGetShaderiv
 * and glGetShaderInfoLog) or a program linked (GL_LINK_STATUS, the Program
 * pair); when not, the driver's log goes into log. */
static bool built(GLuint obj, GLenum status, PFNGLGETSHADERIVPROC get,
                  PFNGLGETSHADERINFOLOGPROC get_log, char *log, size_t loglen)
{
    GLint ok = 0;
    get(obj, status, &ok);
    if (ok)
        return true;
    log[0] = '\0';
    get_log(obj, (GLsizei)loglen, NULL, log);
    return false;
}

static GLuint compile(GLenum type, const char *src, const char *define, const char *name,
                      char *err, size_t errlen)
{
    /* The define goes right after the #version line, which must come first. */
    const char *nl = strchr(src, '\n');
    const char *parts[3] = {src, define, nl ? nl + 1 : ""};
    GLint lens[3] = {nl ? (GLint)(nl + 1 - src) : (GLint)strlen(src), (GLint)strlen(define), -1};
    GLuint s = glCreateShader(type);
    glShaderSource(s, 3, parts, lens);
    glCompileShader(s);
    char log[1024];
    if (!built(s, GL_COMPILE_STATUS, glGetShaderiv, glGetShaderInfoLog, log, sizeof log)) {
        snprintf(err, errlen, "shader %s (%s) does not compile: %s", name,
                 *define ? define : "shapes", log);
        glDeleteShader(s);
        return 0;
    }
    return s;
}

static GLuint link_program(int cls, char *err, size_t errlen)
{
    GLuint vs = compile(GL_VERTEX_SHADER, (const char *)sv_shader_shape_vert,
                        class_define[cls], "shaders/shape.vert", err, errlen);
    if (!vs)
        return 0;
    GLuint fs = compile(GL_FRAGMENT_SHADER, (const char *)sv_shader_shape_frag,
                        class_define[cls], "shaders/shape.frag", err, errlen);
    if (!fs) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint p = glCreateProgram();
    glAttachShader(p, vs);
    glAttachShader(p, fs);
    glLinkProgram(p);
    glDeleteShader(vs);
    glDeleteShader(fs);
    char log[1024];
    if (!built(p, GL_LINK_STATUS, glGetProgramiv, glGetProgramInfoLog, log, sizeof log)) {
        snprintf(err, errlen, "shape shaders do not link: %s", log);
        glDeleteProgram(p);
        return 0;
    }
    return p;
}

static void setup_vao(GLuint vao, GLuint vbo, GLuint ibo)
{
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(vtx) * 4 * CLASS_QUADS * NCLASS, NULL, GL_STREAM_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo);
    /* The vertex attributes, at the locations the shape shader names. */
    static const struct {
        GLint size;
        GLenum type;
        GLboolean normalized;
        size_t offset;
    } attrs[] = {
        {2, GL_FLOAT, GL_FALSE, offsetof(vtx, x)},
        {2, GL_FLOAT, GL_FALSE, offsetof(vtx, lx)},
        {2, GL_FLOAT, GL_FALSE, offsetof(vtx, hx)},
        {4, GL_FLOAT, GL_FALSE, offsetof(vtx, radius)},
        {4, GL_UNSIGNED_BYTE, GL_TRUE, offsetof(vtx, fill)},
        {4, GL_UNSIGNED_BYTE, GL_TRUE, offsetof(vtx, border)},
    };
    for (GLuint i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        glEnableVertexAttribArray(i);
        glVertexAttribPointer(i, attrs[i].size, attrs[i].type, attrs[i].normalized,
                              (GLsizei)sizeof(vtx), (void *)attrs[i].offset);
    }
    glBindVertexArray(0);
}

sv_gfx *sv_gfx_create(char *err, size_t errlen)
{
    if (epoxy_gl_version() < 33) {
        snprintf(err, errlen, "OpenGL 3.3 or later is needed, the context has %d.%d (%s)",
                 epoxy_gl_version() / 10, epoxy_gl_version() % 10,
                 (const char *)glGetString(GL_RENDERER));
        return NULL;
    }
    sv_gfx *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    uint16_t *idx = malloc(sizeof(uint16_t) * 6 * CLASS_QUADS);
    if (!idx)
        goto fail_oom;
    for (int c = 0; c < NCLASS; c++) {
        g->list[c].verts = malloc(sizeof(vtx) * 4 * CLASS_QUADS);
        g->list[c].box = malloc(sizeof(float[4]) * CLASS_QUADS);
        if (!g->list[c].verts || !g->list[c].box)
            goto fail_oom;
    }
    for (int c = 0; c < NCLASS; c++) {
        g->program[c] = link_program(c, err, errlen);
        if (!g->program[c])
            goto fail;
        g->u_viewport[c] = glGetUniformLocation(g->program[c], "u_viewport");
        g->u_atlas[c] = glGetUniformLocation(g->program[c], "u_atlas");
    }
    for (int q = 0; q < CLASS_QUADS; q++) {
        uint16_t b = (uint16_t)(q * 4);
        uint16_t *o = idx + q * 6;
        o[0] = b;
        o[1] = b + 1;
        o[2] = b + 2;
        o[3] = b + 2;
        o[4] = b + 1;
        o[5] = b + 3;
    }
    glGenBuffers(1, &g->ibo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof(uint16_t) * 6 * CLASS_QUADS, idx,
                 GL_STATIC_DRAW);
    free(idx);
    idx = NULL;
    glGenVertexArrays(VBO_RING, g->vao);
    glGenBuffers(VBO_RING, g->vbo);
    for (int i = 0; i < VBO_RING; i++)
        setup_vao(g->vao[i], g->vbo[i], g->ibo);

    g->text = sv_text_create(err, errlen);
    if (!g->text)
        goto fail;
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "OpenGL error 0x%04x while setting up the renderer", e);
        goto fail;
    }
    return g;

fail_oom:
    snprintf(err, errlen, "out of memory");
fail:
    free(idx);
    sv_gfx_destroy(g);
    return NULL;
}

void sv_gfx_destroy(sv_gfx *g)
{
    if (!g)
        return;
    sv_text_destroy(g->text);
    if (g->ibo)
        glDeleteBuffers(1, &g->ibo);
    for (int i = 0; i < VBO_RING; i++) {
        if (g->vbo[i])
            glDeleteBuffers(1, &g->vbo[i]);
        if (g->vao[i])
            glDeleteVertexArrays(1, &g->vao[i]);
    }
    for (int c = 0; c < NCLASS; c++) {
        if (g->program[c])
            glDeleteProgram(g->program[c]);
        free(g->list[c].verts);
        free(g->list[c].box);
    }
    free(g->tile_n);
    free(g->tile_mask);
    free(g->tile_ent);
    free(g);
}

sv_text *sv_gfx_text_state(sv_gfx *g)
{
    return g->text;
}

void sv_gfx_record(sv_gfx *g, sv_gfx_rec *r)
{
    g->rec = r;
}

sv_gfx_rec *sv_gfx_recorder(sv_gfx *g)
{
    return g->rec_mute ? NULL : g->rec;
}

/* Keeps p in the record, when one is attached and not muted. */
static void record(sv_gfx *g, sv_prim p)
{
    sv_gfx_rec *r = sv_gfx_recorder(g);
    sv_prim *rp = r ? sv_gfx_rec_push(r, p.kind) : NULL;
    if (rp)
        *rp = p;
}

/* ---- frames and batches ----------------------------------------------- */

/* Sizes the overlap grid for the framebuffer; it only ever grows, so frames
 * after the first allocate nothing. False when memory runs out (the grid
 * then stays off and every class change would be unsafe: callers flush). */
static bool size_grid(sv_gfx *g)
{
    int tx = (g->fb_w + TILE - 1) / TILE, ty = (g->fb_h + TILE - 1) / TILE;
    if (tx * ty > g->tiles_cap) {
        uint8_t *n = realloc(g->tile_n, (size_t)tx * ty);
        if (n)
            g->tile_n = n;
        uint8_t *m = realloc(g->tile_mask, (size_t)tx * ty);
        if (m)
            g->tile_mask = m;
        uint16_t *e = realloc(g->tile_ent, sizeof(uint16_t) * TILE_CAP * tx * ty);
        if (e)
            g->tile_ent = e;
        if (!n || !m || !e) {
            g->tiles_x = g->tiles_y = 0;
            return false;
        }
        g->tiles_cap = tx * ty;
    }
    g->tiles_x = tx;
    g->tiles_y = ty;
    memset(g->tile_n, 0, (size_t)tx * ty);
    memset(g->tile_mask, 0, (size_t)tx * ty);
    return true;
}

/* llvmpipe compiles a shader's code for a framebuffer and blend state at
 * the first draw that needs it, a few ms for a class, and that landed in
 * the first frame that drew the class (the lab's first change of step took
 * 4 ms more than the frames around it). So each framebuffer's first frame
 * draws every class once, in the state its flush uses, with a quad outside
 * the framebuffer, which draws nothing. A framebuffer is known by its GL
 * name: a new target that reuses a freed one's name has the same format,
 * whose code is compiled already. */
static void warm_up(sv_gfx *g)
{
    GLint fbo = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    if (g->warm_fbo == fbo + 1)
        return;
    g->warm_fbo = fbo + 1;
    vtx v[4];
    memset(v, 0, sizeof v);
    for (int i = 0; i < 4; i++) {
        v[i].x = -8.0f - (float)(i & 1);
        v[i].y = -8.0f - (float)(i >> 1);
    }
    int k = g->ring;
    g->ring = (g->ring + 1) % VBO_RING;
    glBindVertexArray(g->vao[k]);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo[k]);
    glBufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)sizeof v, v);
    for (int c = 0; c < NCLASS; c++) {
        glUseProgram(g->program[c]);
        if (c == CLASS_FLAT)
            glDisable(GL_BLEND);
        glDrawElementsBaseVertex(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, NULL, 0);
        if (c == CLASS_FLAT)
            glEnable(GL_BLEND);
    }
}

void sv_gfx_begin(sv_gfx *g, int fb_w, int fb_h, sv_rgba clear)
{
    g->fb_w = fb_w > 0 ? fb_w : 1;
    g->fb_h = fb_h > 0 ? fb_h : 1;
    for (int c = 0; c < NCLASS; c++)
        g->list[c].n = 0;
    g->pending = 0;
    size_grid(g);
    memset(&g->stats, 0, sizeof g->stats);
    sv_text_frame_begin(g->text);
    g->resets_at_begin = sv_text_atlas_resets(g->text);
    g->clip_x0 = 0;
    g->clip_y0 = 0;
    g->clip_x1 = (float)g->fb_w;
    g->clip_y1 = (float)g->fb_h;
    if (g->rec)
        sv_gfx_rec_reset(g->rec, g->fb_w, g->fb_h, clear);
    glDisable(GL_SCISSOR_TEST);
    /* The clear colour is straight alpha; the framebuffer holds premultiplied. */
    glClearColor(clear.r * clear.a, clear.g * clear.a, clear.b * clear.a, clear.a);
    glClear(GL_COLOR_BUFFER_BIT);
    glViewport(0, 0, g->fb_w, g->fb_h);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_CULL_FACE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA); /* premultiplied */
    for (int c = 0; c < NCLASS; c++) {
        glUseProgram(g->program[c]);
        glUniform2f(g->u_viewport[c], (float)g->fb_w, (float)g->fb_h);
        glUniform1i(g->u_atlas[c], 0);
    }
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, sv_text_atlas_texture(g->text));
    warm_up(g);
}

void sv_gfx_flush(sv_gfx *g)
{
    if (g->pending == 0)
        return;
    if (sv_text_sync(g->text))
        g->stats.atlas_uploads++;
    int k = g->ring;
    g->ring = (g->ring + 1) % VBO_RING;
    glBindVertexArray(g->vao[k]);
    glBindBuffer(GL_ARRAY_BUFFER, g->vbo[k]);
    GLint base[NCLASS];
    GLint at = 0;
    for (int c = 0; c < NCLASS; c++) {
        base[c] = at;
        int n = g->list[c].n;
        if (n == 0)
            continue;
        glBufferSubData(GL_ARRAY_BUFFER, (GLintptr)(sizeof(vtx) * (size_t)at),
                        (GLsizeiptr)(sizeof(vtx) * 4 * (size_t)n), g->list[c].verts);
        at += 4 * n;
    }
    for (int c = 0; c < NCLASS; c++) {
        int n = g->list[c].n;
        if (n == 0)
            continue;
        glUseProgram(g->program[c]);
        /* Flat quads are opaque: blending would give the same pixels, at a
         * read of each one (push_flat_box). */
        if (c == CLASS_FLAT)
            glDisable(GL_BLEND);
        glDrawElementsBaseVertex(GL_TRIANGLES, n * 6, GL_UNSIGNED_SHORT, NULL, base[c]);
        if (c == CLASS_FLAT)
            glEnable(GL_BLEND);
        g->stats.draw_calls++;
        g->stats.quads += n;
        g->list[c].n = 0;
    }
    g->pending = 0;
    if (g->tiles_x)
        memset(g->tile_n, 0, (size_t)g->tiles_x * g->tiles_y);
    if (g->tiles_x)
        memset(g->tile_mask, 0, (size_t)g->tiles_x * g->tiles_y);
    g->stats.flushes++;
}

void sv_gfx_end(sv_gfx *g)
{
    sv_gfx_flush(g);
    glDisable(GL_SCISSOR_TEST);
    glBindVertexArray(0);
}

sv_gfx_stats sv_gfx_get_stats(const sv_gfx *g)
{
    sv_gfx_stats s = g->stats;
    s.atlas_resets = sv_text_atlas_resets(g->text) - g->resets_at_begin;
    return s;
}

void sv_gfx_clip(sv_gfx *g, const sv_box *box)
{
    sv_gfx_flush(g);
    sv_prim *rp = g->rec ? sv_gfx_rec_push(g->rec, SV_PRIM_CLIP) : NULL;
    if (rp) {
        rp->clip_on = box != NULL;
        if (box)
            rp->box = *box;
    }
    if (!box) {
        g->clip_x0 = 0;
        g->clip_y0 = 0;
        g->clip_x1 = (float)g->fb_w;
        g->clip_y1 = (float)g->fb_h;
        glDisable(GL_SCISSOR_TEST);
        return;
    }
    /* Whole pixels within the framebuffer; a box that is not a number clips
     * everything away. */
    float fx0 = box->x, fy0 = box->y, fx1 = box->x + box->w, fy1 = box->y + box->h;
    if (!(fx1 >= fx0) || !(fy1 >= fy0)) /* also NaN */
        fx0 = fx1 = fy0 = fy1 = 0.0f;
    fx0 = fminf(fmaxf(fx0, 0.0f), (float)g->fb_w);
    fx1 = fminf(fmaxf(fx1, 0.0f), (float)g->fb_w);
    fy0 = fminf(fmaxf(fy0, 0.0f), (float)g->fb_h);
    fy1 = fminf(fmaxf(fy1, 0.0f), (float)g->fb_h);
    int x0 = (int)floorf(fx0 + 0.5f), y0 = (int)floorf(fy0 + 0.5f);
    int x1 = (int)floorf(fx1 + 0.5f), y1 = (int)floorf(fy1 + 0.5f);
    if (x1 < x0)
        x1 = x0;
    if (y1 < y0)
        y1 = y0;
    g->clip_x0 = (float)x0;
    g->clip_y0 = (float)y0;
    g->clip_x1 = (float)x1;
    g->clip_y1 = (float)y1;
    glEnable(GL_SCISSOR_TEST);
    glScissor(x0, g->fb_h - y1, x1 - x0, y1 - y0); /* GL counts rows from the bottom */
}

/* Whether a bounding box can touch the clip rect (else the shape is culled). */
static bool visible(const sv_gfx *g, float x0, float y0, float x1, float y1)
{
    return x1 > g->clip_x0 && x0 < g->clip_x1 && y1 > g->clip_y0 && y0 < g->clip_y1;
}

bool sv_gfx_visible_rows(const sv_gfx *g, float y0, float y1)
{
    return y1 > g->clip_y0 && y0 < g->clip_y1;
}

static void tile_range(const sv_gfx *g, const float b[4], int *tx0, int *ty0, int *tx1, int *ty1)
{
    /* Clamped as floats first: a huge box must not overflow an int. */
    float mx = (float)(g->tiles_x - 1), my = (float)(g->tiles_y - 1);
    *tx0 = (int)fminf(fmaxf(floorf(b[0] / TILE), 0.0f), mx);
    *ty0 = (int)fminf(fmaxf(floorf(b[1] / TILE), 0.0f), my);
    *tx1 = (int)fminf(fmaxf(floorf(b[2] / TILE), 0.0f), mx);
    *ty1 = (int)fminf(fmaxf(floorf(b[3] / TILE), 0.0f), my);
}

/* Whether a new quad of class cls over box b overlaps a pending quad that
 * the flush would draw after it (a class later in the order). */
static bool conflicts(const sv_gfx *g, int cls, const float b[4])
{
    unsigned later = (1u << NCLASS) - (2u << cls);
    if (!later || g->pending == 0)
        return false;
    if (!g->tiles_x) /* no grid: assume the worst */
        return true;
    int tx0, ty0, tx1, ty1;
    tile_range(g, b, &tx0, &ty0, &tx1, &ty1);
    for (int ty = ty0; ty <= ty1; ty++)
        for (int tx = tx0; tx <= tx1; tx++) {
            int t = ty * g->tiles_x + tx;
            if (!(g->tile_mask[t] & later))
                continue;
            if (g->tile_n[t] > TILE_CAP)
                return true;
            const uint16_t *e = g->tile_ent + (size_t)t * TILE_CAP;
            for (int i = 0; i < g->tile_n[t]; i++) {
                int c = e[i] >> 13;
                if (!(later & (1u << c)))
                    continue;
                const float *o = g->list[c].box[e[i] & 0x1fff];
                if (b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3])
                    return true;
            }
        }
    return false;
}

static void note_pending(sv_gfx *g, int cls, int index, const float b[4])
{
    if (cls == CLASS_SHAPE || !g->tiles_x)
        return; /* nothing is drawn before shapes */
    int tx0, ty0, tx1, ty1;
    tile_range(g, b, &tx0, &ty0, &tx1, &ty1);
    for (int ty = ty0; ty <= ty1; ty++)
        for (int tx = tx0; tx <= tx1; tx++) {
            int t = ty * g->tiles_x + tx;
            g->tile_mask[t] |= (uint8_t)(1u << cls);
            if (g->tile_n[t] < TILE_CAP)
                g->tile_ent[(size_t)t * TILE_CAP + g->tile_n[t]] =
                    (uint16_t)(cls << 13 | index);
            if (g->tile_n[t] <= TILE_CAP)
                g->tile_n[t]++;
        }
}

/* Room for one quad of class cls that touches pixels in [x0,x1) x [y0,y1). */
static vtx *next_quad(sv_gfx *g, int cls, float x0, float y0, float x1, float y1)
{
    float b[4] = {x0, y0, x1, y1};
    if (g->list[cls].n == CLASS_QUADS || conflicts(g, cls, b))
        sv_gfx_flush(g);
    quad_list *l = &g->list[cls];
    int i = l->n++;
    memcpy(l->box[i], b, sizeof b);
    note_pending(g, cls, i, b);
    g->pending++;
    return l->verts + 4 * i;
}

/* A quad over part of a shape centred at (cx, cy) with axes u (unit) and
 * n = perp(u), half size (hx, hy): the part [lx0, lx1] x [ly0, ly1] in the
 * shape's own coordinates (px from its centre along u and n). */
static void push_part(sv_gfx *g, float cx, float cy, float ux, float uy, float hx, float hy,
                      float lx0, float ly0, float lx1, float ly1, float radius,
                      float border_w, int kind, int style, sv_rgba fill, sv_rgba border)
{
    const float lx[4] = {lx0, lx1, lx0, lx1}, ly[4] = {ly0, ly0, ly1, ly1};
    float px[4], py[4];
    float x0 = 1e30f, y0 = 1e30f, x1 = -1e30f, y1 = -1e30f;
    for (int i = 0; i < 4; i++) {
        px[i] = cx + ux * lx[i] - uy * ly[i];
        py[i] = cy + uy * lx[i] + ux * ly[i];
        x0 = fminf(x0, px[i]);
        y0 = fminf(y0, py[i]);
        x1 = fmaxf(x1, px[i]);
        y1 = fmaxf(y1, py[i]);
    }
    if (!visible(g, x0, y0, x1, y1))
        return;
    int cls = kind == KIND_FLAT ? (fill.a >= 1.0f ? CLASS_FLAT : CLASS_TINT)
              : (style == SV_BORDER_DASHED || style == SV_BORDER_DOTTED) && kind == KIND_BOX
                  ? CLASS_PATTERN
                  : CLASS_SHAPE;
    vtx *v = next_quad(g, cls, x0, y0, x1, y1);
    uint8_t f[4], b[4];
    pack_rgba(f, fill);
    pack_rgba(b, border);
    for (int i = 0; i < 4; i++) {
        v[i].x = px[i];
        v[i].y = py[i];
        v[i].lx = lx[i];
        v[i].ly = ly[i];
        v[i].hx = hx;
        v[i].hy = hy;
        v[i].radius = radius;
        v[i].border_w = border_w;
        v[i].kind = (float)kind;
        v[i].style = (float)style;
        memcpy(v[i].fill, f, 4);
        memcpy(v[i].border, b, 4);
    }
}

/* The antialiased edge reaches 0.5 px beyond a shape: a pixel whose centre
 * lies further out has no coverage, so quads need only that margin. */
#define AA_MARGIN 0.51f

/* The whole shape. */
static void push_shape(sv_gfx *g, float cx, float cy, float ux, float uy, float hx, float hy,
                       float radius, float border_w, int kind, int style, sv_rgba fill,
                       sv_rgba border)
{
    const float m = AA_MARGIN;
    push_part(g, cx, cy, ux, uy, hx, hy, -hx - m, -hy - m, hx + m, hy + m, radius, border_w,
              kind, style, fill, border);
}

void sv_gfx_glyph(sv_gfx *g, float x, float y, float w, float h, float u, float v, sv_rgba c)
{
    if (!visible(g, x, y, x + w, y + h))
        return;
    vtx *q = next_quad(g, CLASS_GLYPH, x, y, x + w, y + h);
    uint8_t f[4];
    pack_rgba(f, c);
    static const float sx[4] = {0, 1, 0, 1}, sy[4] = {0, 0, 1, 1};
    for (int i = 0; i < 4; i++) {
        q[i].x = x + sx[i] * w;
        q[i].y = y + sy[i] * h;
        q[i].lx = u + sx[i] * w;
        q[i].ly = v + sy[i] * h;
        q[i].hx = 0;
        q[i].hy = 0;
        q[i].radius = 0;
        q[i].border_w = 0;
        q[i].kind = KIND_GLYPH;
        q[i].style = 0;
        memcpy(q[i].fill, f, 4);
        memset(q[i].border, 0, 4);
    }
}

/* ---- shapes ----------------------------------------------------------- */

/* Boxes whose inside (inset by the band that holds the border and corners)
 * has more pixels than this are drawn as that inside, flat, and four strips
 * of the distance shader along the edges. */
#define FLAT_MIN_PX 512.0f

/* A large box with a solid border or none: every pixel centre at least
 * `band` (> radius and border width, by 1 px) inside its edges has the
 * distance shader's outer = 1 and ring = 0, so it gets exactly the fill,
 * which the flat classes give without computing a distance (on llvmpipe the
 * distance is most of a pixel's cost, and the source panel alone is half a
 * million pixels). So the box is that inside, flat, and four strips of the
 * distance shader along the edges; the strips meet each other on shared
 * edges (each pixel once: a translucent antialiased edge must not be
 * blended twice).
 *  - An opaque fill: the inside is CLASS_FLAT, drawn without blending (with
 *    an opaque fill blending gives the same pixels, at a read of each), and
 *    the strips overlap it by a pixel, so no pixel centre falls between
 *    them; where they overlap, both write the same opaque fill, which
 *    blending over itself leaves as it is.
 *  - A translucent fill: the inside is CLASS_TINT (the flat shader,
 *    blended), and the strips meet it exactly on shared edges (the same
 *    floats, so GL's fill rule gives each pixel centre to one of them):
 *    blended twice, a pixel would come out darker.
 *  - No fill (an outline): the strips alone; the inside draws nothing.
 * The picture is the one push_shape gives for the whole box. */
static void push_flat_box(sv_gfx *g, float cx, float cy, float hx, float hy, float band,
                          float radius, float border_w, int style, sv_rgba fill,
                          sv_rgba border)
{
    const float m = AA_MARGIN, ix = hx - band, iy = hy - band;
    const float o = fill.a >= 1.0f ? 1.0f : 0.0f;
    /* Away from the corners an edge needs only its border and the pixel
     * that antialiases it: there the strips are ts thick, not band. */
    const float ts = fminf(border_w + 1.0f, band), tx = hx - ts, ty = hy - ts;
    static const float sx[4] = {-1, 1, -1, 1}, sy[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; k++) { /* the corners, band by band */
        float ax = sx[k] * (hx + m), bx = sx[k] * (ix - o), ay = sy[k] * (hy + m),
              by = sy[k] * (iy - o);
        push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, fminf(ax, bx), fminf(ay, by), fmaxf(ax, bx),
                  fmaxf(ay, by), radius, border_w, KIND_BOX, style, fill, border);
    }
    /* the straight edges: top, bottom, left, right */
    push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, -ix + o, -hy - m, ix - o, -ty + o, radius,
              border_w, KIND_BOX, style, fill, border);
    push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, -ix + o, ty - o, ix - o, hy + m, radius,
              border_w, KIND_BOX, style, fill, border);
    push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, -hx - m, -iy + o, -tx + o, iy - o, radius,
              border_w, KIND_BOX, style, fill, border);
    push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, tx - o, -iy + o, hx + m, iy - o, radius,
              border_w, KIND_BOX, style, fill, border);
    /* last: a strip pushed after it would overlap a pending later class
     * and flush. The inside: between the side strips, and above and below
     * it up to the top and bottom strips, between the corners. */
    if (fill.a > 0.0f) {
        push_part(g, cx, cy, 1.0f, 0.0f, tx, iy, -tx, -iy, tx, iy, 0.0f, 0.0f, KIND_FLAT,
                  SV_BORDER_NONE, fill, fill);
        if (ty > iy) {
            push_part(g, cx, cy, 1.0f, 0.0f, ix, ty, -ix, -ty, ix, -iy, 0.0f, 0.0f, KIND_FLAT,
                      SV_BORDER_NONE, fill, fill);
            push_part(g, cx, cy, 1.0f, 0.0f, ix, ty, -ix, iy, ix, ty, 0.0f, 0.0f, KIND_FLAT,
                      SV_BORDER_NONE, fill, fill);
        }
    }
}

void sv_gfx_rect(sv_gfx *g, sv_box box, float radius, sv_rgba fill, sv_rgba border_color,
                 float border_w, sv_border style)
{
    if (!(box.w > 0.0f) || !(box.h > 0.0f))
        return;
    float hx = box.w * 0.5f, hy = box.h * 0.5f;
    if (radius < 0.0f)
        radius = 0.0f;
    if (radius > hx)
        radius = hx;
    if (radius > hy)
        radius = hy;
    if (!(border_w > 0.0f) || style == SV_BORDER_NONE) {
        border_w = 0.0f;
        style = SV_BORDER_NONE;
    }
    if (border_w > hx)
        border_w = hx;
    if (border_w > hy)
        border_w = hy;
    record(g, (sv_prim){.kind = SV_PRIM_RECT, .box = box, .radius = radius, .fill = fill,
                        .border = border_color, .border_w = border_w, .style = style});
    float cx = box.x + hx, cy = box.y + hy;
    /* A dashed or dotted border costs many times a plain fill per pixel, so
     * on a large box only the band that holds the border gets the pattern
     * shader: the fill goes first as a plain box, then four strips along the
     * edges (wide enough for the corner arcs) with a clear fill. */
    float band = fmaxf(radius, border_w) + 1.0f;
    bool patterned = style == SV_BORDER_DASHED || style == SV_BORDER_DOTTED;
    bool big = hx > band && hy > band && (hx - band) * (hy - band) > FLAT_MIN_PX / 4.0f;
    if (patterned && (hx - band) * (hy - band) > 256.0f) {
        sv_rgba clear = {0, 0, 0, 0};
        if (fill.a > 0.0f && big) /* the fill, flat inside */
            push_flat_box(g, cx, cy, hx, hy, band, radius, 0.0f, SV_BORDER_NONE, fill,
                          border_color);
        else if (fill.a > 0.0f)
            push_shape(g, cx, cy, 1.0f, 0.0f, hx, hy, radius, 0.0f, KIND_BOX, SV_BORDER_NONE,
                       fill, border_color);
        float ex = hx + AA_MARGIN, ey = hy + AA_MARGIN, side = border_w + 1.0f;
        push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, -ex, -ey, ex, -hy + band, radius, border_w,
                  KIND_BOX, (int)style, clear, border_color);
        push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, -ex, hy - band, ex, ey, radius, border_w,
                  KIND_BOX, (int)style, clear, border_color);
        push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, -ex, -hy + band, -hx + side, hy - band,
                  radius, border_w, KIND_BOX, (int)style, clear, border_color);
        push_part(g, cx, cy, 1.0f, 0.0f, hx, hy, hx - side, -hy + band, ex, hy - band, radius,
                  border_w, KIND_BOX, (int)style, clear, border_color);
        return;
    }
    if (!patterned && big) {
        push_flat_box(g, cx, cy, hx, hy, band, radius, border_w, (int)style, fill,
                      border_color);
        return;
    }
    push_shape(g, cx, cy, 1.0f, 0.0f, hx, hy, radius, border_w, KIND_BOX, (int)style, fill,
               border_color);
}

void sv_gfx_circle(sv_gfx *g, float cx, float cy, float r, sv_rgba fill, sv_rgba border_color,
                   float border_w)
{
    if (!(r > 0.0f))
        return;
    sv_border style = border_w > 0.0f ? SV_BORDER_SOLID : SV_BORDER_NONE;
    sv_box b = {cx - r, cy - r, 2 * r, 2 * r};
    sv_gfx_rect(g, b, r, fill, border_color, border_w, style);
}

void sv_gfx_line(sv_gfx *g, float x0, float y0, float x1, float y1, float width, sv_rgba c)
{
    if (!(width > 0.0f))
        return;
    /* Hairlines are drawn 1 px wide and fainter, so they stay antialiased. */
    if (width < 1.0f) {
        c.a *= width;
        width = 1.0f;
    }
    record(g, (sv_prim){.kind = SV_PRIM_LINE, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1,
                        .width = width, .fill = c});
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    float ux = 1.0f, uy = 0.0f;
    if (len > 1e-6f) {
        ux = dx / len;
        uy = dy / len;
    }
    float r = width * 0.5f;
    push_shape(g, (x0 + x1) * 0.5f, (y0 + y1) * 0.5f, ux, uy, len * 0.5f + r, r, r, 0.0f,
               KIND_BOX, SV_BORDER_NONE, c, c);
}

/* The record gets each stripe as the line sv_gfx_line would have drawn:
 * the stripe's centre line between the box's edges, where it is at least
 * half a pixel long. */
static void record_stripes(sv_gfx *g, sv_box box, float nx, float ny, float period,
                           float phase, float width, sv_rgba c)
{
    const float cx[4] = {box.x, box.x + box.w, box.x, box.x + box.w};
    const float cy[4] = {box.y, box.y, box.y + box.h, box.y + box.h};
    float lo = 1e30f, hi = -1e30f;
    for (int i = 0; i < 4; i++) {
        float s = cx[i] * nx + cy[i] * ny;
        lo = fminf(lo, s);
        hi = fmaxf(hi, s);
    }
    float k0 = ceilf((lo - phase) / period), k1 = floorf((hi - phase) / period);
    if (!(k1 - k0 < 10000.0f)) /* also NaN: no picture has that many lines */
        return;
    for (int j = 0; (float)j <= k1 - k0; j++) {
        float s = phase + (k0 + (float)j) * period;
        /* the line s n + t d, d = (-ny, nx), clipped to the box */
        float px = s * nx, py = s * ny, dx = -ny, dy = nx, t0 = -1e30f, t1 = 1e30f;
        const float p0[2] = {px, py}, d[2] = {dx, dy}, b0[2] = {box.x, box.y};
        const float b1[2] = {box.x + box.w, box.y + box.h};
        bool hit = true;
        for (int a = 0; a < 2; a++) {
            if (fabsf(d[a]) < 1e-9f) {
                hit = hit && p0[a] >= b0[a] && p0[a] <= b1[a];
                continue;
            }
            float ta = (b0[a] - p0[a]) / d[a], tb = (b1[a] - p0[a]) / d[a];
            t0 = fmaxf(t0, fminf(ta, tb));
            t1 = fminf(t1, fmaxf(ta, tb));
        }
        if (!hit || t1 - t0 < 0.5f)
            continue;
        record(g, (sv_prim){.kind = SV_PRIM_LINE, .x0 = px + dx * t0, .y0 = py + dy * t0,
                            .x1 = px + dx * t1, .y1 = py + dy * t1, .width = width, .fill = c});
    }
}

/* One quad of the stripes shader over x0..x1, y0..y1: lines of `width`
 * centred where dot((x, y), (nx, ny)) - phase is a multiple of period. */
static void stripes_quad(sv_gfx *g, float x0, float y0, float x1, float y1, float nx, float ny,
                         float period, float phase, float width, const uint8_t f[4])
{
    vtx *v = next_quad(g, CLASS_STRIPES, x0, y0, x1, y1);
    static const float sx[4] = {0, 1, 0, 1}, sy[4] = {0, 0, 1, 1};
    for (int i = 0; i < 4; i++) {
        v[i].x = v[i].lx = x0 + sx[i] * (x1 - x0);
        v[i].y = v[i].ly = y0 + sy[i] * (y1 - y0);
        v[i].hx = period;
        v[i].hy = width * 0.5f;
        v[i].radius = nx;
        v[i].border_w = ny;
        v[i].kind = phase;
        v[i].style = 0;
        memcpy(v[i].fill, f, 4);
        memset(v[i].border, 0, 4);
    }
}

void sv_gfx_stripes(sv_gfx *g, sv_box box, float nx, float ny, float period, float phase,
                    float width, sv_rgba c)
{
    if (!(box.w > 0.0f) || !(box.h > 0.0f) || !(period > 0.0f) || !(width > 0.0f) ||
        !isfinite(phase) || !isfinite(period) || !isfinite(width) ||
        !(fabsf(box.x) < 1e7f && fabsf(box.y) < 1e7f && box.w < 1e7f && box.h < 1e7f))
        return;
    float n = sqrtf(nx * nx + ny * ny);
    if (!(n > 1e-6f) || !isfinite(n))
        return;
    nx /= n;
    ny /= n;
    phase /= n;
    period /= n;
    if (width < 1.0f) { /* hairlines: 1 px and fainter, as sv_gfx_line */
        c.a *= width;
        width = 1.0f;
    }
    if (sv_gfx_recorder(g)) /* attached and not muted */
        record_stripes(g, box, nx, ny, period, phase, width, c);
    float x0 = box.x, y0 = box.y, x1 = box.x + box.w, y1 = box.y + box.h;
    if (!visible(g, x0, y0, x1, y1))
        return;
    /* a phase near the box keeps t small, for float precision */
    float ref = x0 * nx + y0 * ny;
    phase += period * floorf((ref - phase) / period);
    uint8_t f[4];
    pack_rgba(f, c);
    /* Sparse lines across a box (the warp lines: 1 px every 20 or more) are
     * a quad each, as wide as the line's pixels, with the same shader: one
     * quad over the whole box would shade every pixel between them. */
    float reach = width * 0.5f + 1.0f; /* the coverage is 0 beyond hw + 0.5 */
    bool vertical = ny == 0.0f, horizontal = nx == 0.0f;
    float lo = vertical ? x0 : y0, hi = vertical ? x1 : y1, sgn = vertical ? nx : ny;
    if ((vertical || horizontal) && period >= 8.0f * reach && (hi - lo) / period < 256.0f) {
        /* centres at t = sgn * pos - phase = k * period, for pos in the box */
        float kmin = ceilf((fminf(sgn * lo, sgn * hi) - phase - reach) / period);
        float kmax = floorf((fmaxf(sgn * lo, sgn * hi) - phase + reach) / period);
        int lines = kmax >= kmin ? (int)(kmax - kmin) + 1 : 0;
        for (int k = 0; k < lines; k++) {
            float centre = sgn * (phase + (kmin + (float)k) * period);
            float a = fmaxf(centre - reach, lo), b = fminf(centre + reach, hi);
            if (b > a)
                stripes_quad(g, vertical ? a : x0, vertical ? y0 : a, vertical ? b : x1,
                             vertical ? y1 : b, nx, ny, period, phase, width, f);
        }
        return;
    }
    stripes_quad(g, x0, y0, x1, y1, nx, ny, period, phase, width, f);
}

void sv_gfx_arrow(sv_gfx *g, float x0, float y0, float x1, float y1, float width, float head,
                  sv_rgba c)
{
    float dx = x1 - x0, dy = y1 - y0, len = sqrtf(dx * dx + dy * dy);
    if (!(len > 1e-6f))
        return;
    if (head < width * 2.0f)
        head = width * 2.0f;
    if (head > len)
        head = len;
    float ux = dx / len, uy = dy / len;
    record(g, (sv_prim){.kind = SV_PRIM_ARROW, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1,
                        .width = width, .head = head, .fill = c});
    /* The shaft stops inside the head, where the head is wider than the
     * shaft, so its round cap never shows past the head's sides. */
    float shaft_end = head * 0.6f;
    g->rec_mute++; /* the shaft is part of the arrow's record */
    if (len > shaft_end)
        sv_gfx_line(g, x0, y0, x1 - ux * shaft_end, y1 - uy * shaft_end, width, c);
    g->rec_mute--;
    float hx = head * 0.5f, hy = head * 0.45f;
    push_shape(g, x1 - ux * hx, y1 - uy * hx, ux, uy, hx, hy, 0.0f, 0.0f, KIND_TRIANGLE,
               SV_BORDER_NONE, c, c);
}

/* ---- offscreen targets ------------------------------------------------ */

sv_gfx_target *sv_gfx_target_create(sv_gfx *g, int w, int h, char *err, size_t errlen)
{
    (void)g;
    GLint max = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max);
    if (w < 1 || h < 1 || (max > 0 && (w > max || h > max))) {
        snprintf(err, errlen, "render target size %dx%d is out of range (1..%d)", w, h, max);
        return NULL;
    }
    sv_gfx_target *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    t->w = w;
    t->h = h;
    glGenTextures(1, &t->tex);
    glBindTexture(GL_TEXTURE_2D, t->tex);
    /* BGRA (an unsized RGBA with BGRA data picks it): llvmpipe (Mesa 22)
     * rasterises rectangles, and fills simple ones on its 8-bit linear
     * path, only into B8G8R8A8; with R8G8B8A8 every quad is two triangles
     * and every pixel the general shader. A frame of the lab costs about a
     * third less; the pixels are the same (docs/performance.md). */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_BGRA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &t->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, t->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t->tex, 0);
    GLenum st = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    if (st != GL_FRAMEBUFFER_COMPLETE) {
        snprintf(err, errlen, "render target %dx%d is incomplete (status 0x%04x)", w, h, st);
        goto fail;
    }
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        snprintf(err, errlen, "OpenGL error 0x%04x creating a %dx%d render target", e, w, h);
        goto fail;
    }
    return t;
fail:
    sv_gfx_target_destroy(t);
    return NULL;
}

void sv_gfx_target_destroy(sv_gfx_target *t)
{
    if (!t)
        return;
    if (t->fbo)
        glDeleteFramebuffers(1, &t->fbo);
    if (t->tex)
        glDeleteTextures(1, &t->tex);
    free(t);
}

void sv_gfx_target_bind(sv_gfx_target *t)
{
    glBindFramebuffer(GL_FRAMEBUFFER, t ? t->fbo : 0);
}

void sv_gfx_read_pixels(sv_gfx *g, int w, int h, uint8_t *rgba)
{
    (void)g;
    if (w < 1 || h < 1 || !rgba)
        return;
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    /* GL's row 0 is the bottom one. */
    size_t stride = (size_t)w * 4;
    uint8_t tmp[4096];
    for (int y = 0; y < h / 2; y++) {
        uint8_t *a = rgba + (size_t)y * stride, *b = rgba + (size_t)(h - 1 - y) * stride;
        for (size_t off = 0; off < stride; off += sizeof tmp) {
            size_t n = stride - off < sizeof tmp ? stride - off : sizeof tmp;
            memcpy(tmp, a + off, n);
            memcpy(a + off, b + off, n);
            memcpy(b + off, tmp, n);
        }
    }
}
