/* Text for gfx.h: the embedded fonts through SDL2_ttf, rasterised glyph by
 * glyph at the exact integer pixel size asked for into one R8 atlas texture
 * (cached on demand, cleared whole when full), laid out with the fonts'
 * advances and kerning, and drawn as texel-aligned quads so it stays crisp. */
#include "gfx.h"
#include "../core/free_all.h"
#include "gfx_internal.h"

#include <SDL.h>
#include <SDL_ttf.h>
#include <epoxy/gl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const unsigned char sv_font_sans[];
extern const size_t sv_font_sans_size;
extern const unsigned char sv_font_sans_bold[];
extern const size_t sv_font_sans_bold_size;
extern const unsigned char sv_font_mono[];
extern const size_t sv_font_mono_size;

#define ATLAS_SIZE 2048
#define GLYPH_SLOTS 8192      /* power of two */
#define GLYPH_MAX_USED 6000   /* beyond this the table counts as full */
#define MAX_SIZED_FONTS 32
#define RUN_SLOTS 8192        /* power of two */
#define RUN_MAX_USED 6000
#define RUN_MAX_BYTES 32      /* strings up to this long are cached whole */
#define RUN_ARENA (RUN_SLOTS * 16)
#define MEASURE_SLOTS 4096    /* power of two: measured widths */
#define MEASURE_MAX_USED 3000
#define MEASURE_MAX_BYTES 512 /* longer strings are measured each time */
#define MEASURE_ARENA (MEASURE_SLOTS * 64)
#define MIN_PX 1
#define MAX_PX 512

typedef struct glyph {
    uint64_t key; /* 0: empty slot */
    int16_t x0, y0; /* bitmap's top left from the pen on the baseline */
    uint16_t w, h;  /* bitmap size (0 for blanks) */
    uint16_t u, v;  /* bitmap's top left in the atlas */
    int16_t advance;
} glyph;

/* A short string rendered whole into the atlas: numbers and labels, drawn
 * as one quad instead of one per glyph (llvmpipe pays per triangle). */
typedef struct run {
    uint64_t hash; /* 0: empty slot */
    uint32_t off;  /* the string's bytes in the arena */
    uint16_t len;
    uint8_t font;
    uint16_t px;
    int16_t x0, y0; /* bitmap's top left from the pen start on the baseline */
    uint16_t w, h, u, v;
    int16_t advance;
} run;

/* A string's measured advance (layout without drawing): the layout asks
 * for the same widths every frame (wrapping, centring, ellipsizing), and a
 * measure is a kerning lookup per pair. */
typedef struct measure {
    uint64_t hash; /* 0: empty slot */
    uint32_t off;  /* the string's bytes in the measure arena */
    uint16_t len;
    uint8_t font;
    uint16_t px;
    int32_t advance;
} measure;

typedef struct sized_font {
    TTF_Font *ttf;
    int font, px;
    int cap;   /* cap height: text is centred on it */
    bool kern; /* the font has pair kerning at all */
    unsigned last_used;
} sized_font;

struct sv_text {
    GLuint tex;
    int shelf_x, shelf_y, shelf_h; /* atlas packing: rows of glyphs */
    glyph *slots;
    int used;
    int resets;
    sized_font sizes[MAX_SIZED_FONTS];
    int nsizes;
    int last; /* index of the last sized font used */
    unsigned frame;
    uint8_t *scratch; /* one glyph's or run's coverage before upload */
    size_t scratch_cap;
    uint8_t *mirror;  /* the atlas's contents, to compose runs from glyphs */
    /* The part of the mirror not yet in the texture: [x0, x1) x [y0, y1),
     * empty when x1 == 0 (sv_text_sync). */
    int dirty_x0, dirty_y0, dirty_x1, dirty_y1;
    run *runs;
    int runs_used;
    char *arena;
    size_t arena_used;
    measure *measures;
    int measures_used;
    char *marena;
    size_t marena_used;
};

static const unsigned char *font_data(int f, size_t *size)
{
    switch (f) {
    case SV_FONT_SANS_BOLD: *size = sv_font_sans_bold_size; return sv_font_sans_bold;
    case SV_FONT_MONO: *size = sv_font_mono_size; return sv_font_mono;
    default: *size = sv_font_sans_size; return sv_font_sans;
    }
}

sv_text *sv_text_create(char *err, size_t errlen)
{
    if (TTF_Init() != 0) {
        snprintf(err, errlen, "SDL_ttf init failed: %s", TTF_GetError());
        return NULL;
    }
    sv_text *t = calloc(1, sizeof *t);
    if (!t)
        goto fail_oom;
    t->slots = calloc(GLYPH_SLOTS, sizeof *t->slots);
    t->runs = calloc(RUN_SLOTS, sizeof *t->runs);
    t->arena = malloc(RUN_ARENA);
    t->mirror = calloc((size_t)ATLAS_SIZE * ATLAS_SIZE, 1);
    t->measures = calloc(MEASURE_SLOTS, sizeof *t->measures);
    t->marena = malloc(MEASURE_ARENA);
    if (!t->slots || !t->runs || !t->arena || !t->mirror || !t->measures || !t->marena)
        goto fail_oom;
    /* Check now that every embedded font opens, so a bad font is an error
     * at start and not blank text later. */
    for (int f = 0; f < SV_FONT_COUNT; f++) {
        size_t size;
        const unsigned char *data = font_data(f, &size);
        SDL_RWops *rw = SDL_RWFromConstMem(data, (int)size);
        TTF_Font *ttf = rw ? TTF_OpenFontRW(rw, 1, 16) : NULL;
        if (!ttf) {
            snprintf(err, errlen, "cannot open embedded font %d (%zu bytes): %s", f, size,
                     TTF_GetError());
            goto fail;
        }
        TTF_CloseFont(ttf);
    }
    glGenTextures(1, &t->tex);
    glBindTexture(GL_TEXTURE_2D, t->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, ATLAS_SIZE, ATLAS_SIZE, 0, GL_RED, GL_UNSIGNED_BYTE,
                 t->mirror);
    /* Quads are texel-aligned, so nearest sampling reads exact coverage. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    t->shelf_x = 1;
    t->shelf_y = 1;
    return t;

fail_oom:
    snprintf(err, errlen, "out of memory");
fail:
    sv_text_destroy(t);
    if (!t)
        TTF_Quit();
    return NULL;
}

void sv_text_destroy(sv_text *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->nsizes; i++)
        TTF_CloseFont(t->sizes[i].ttf);
    if (t->tex)
        glDeleteTextures(1, &t->tex);
    SV_FREE_ALL(t->slots, t->runs, t->arena, t->mirror, t->measures, t->marena, t->scratch, t);
    TTF_Quit();
}

unsigned sv_text_atlas_texture(const sv_text *t)
{
    return t->tex;
}

void sv_text_frame_begin(sv_text *t)
{
    t->frame++;
}

int sv_text_atlas_resets(const sv_text *t)
{
    return t->resets;
}

/* ---- fonts by size ---------------------------------------------------- */

static int clamp_px(float px)
{
    if (!(px >= MIN_PX))
        return MIN_PX;
    if (px >= MAX_PX)
        return MAX_PX;
    return (int)floorf(px + 0.5f);
}

static sized_font *get_font(sv_text *t, int font, int px)
{
    if (font < 0 || font >= SV_FONT_COUNT)
        font = SV_FONT_SANS;
    sized_font *s = &t->sizes[t->last];
    if (t->nsizes && s->font == font && s->px == px) {
        s->last_used = t->frame;
        return s;
    }
    for (int i = 0; i < t->nsizes; i++) {
        s = &t->sizes[i];
        if (s->font == font && s->px == px) {
            s->last_used = t->frame;
            t->last = i;
            return s;
        }
    }
    int slot = t->nsizes;
    if (slot == MAX_SIZED_FONTS) { /* evict the least recently used */
        slot = 0;
        for (int i = 1; i < t->nsizes; i++)
            if (t->sizes[i].last_used < t->sizes[slot].last_used)
                slot = i;
        TTF_CloseFont(t->sizes[slot].ttf);
        t->sizes[slot].ttf = NULL;
    }
    size_t size;
    const unsigned char *data = font_data(font, &size);
    SDL_RWops *rw = SDL_RWFromConstMem(data, (int)size);
    TTF_Font *ttf = rw ? TTF_OpenFontRW(rw, 1, px) : NULL;
    if (!ttf) {
        if (slot < t->nsizes) { /* keep the array dense */
            t->sizes[slot] = t->sizes[--t->nsizes];
            t->last = 0;
        }
        return NULL;
    }
    s = &t->sizes[slot];
    s->ttf = ttf;
    s->font = font;
    s->px = px;
    s->last_used = t->frame;
    int minx, maxx, miny, maxy, adv;
    s->cap = TTF_GlyphMetrics32(ttf, 'H', &minx, &maxx, &miny, &maxy, &adv) == 0 ? maxy
                                                                                 : px * 7 / 10;
    s->kern = TTF_GetFontKerningSizeGlyphs32(ttf, 'A', 'V') != 0 ||
              TTF_GetFontKerningSizeGlyphs32(ttf, 'T', 'o') != 0 ||
              TTF_GetFontKerningSizeGlyphs32(ttf, 'L', 'T') != 0;
    if (slot == t->nsizes)
        t->nsizes++;
    t->last = slot;
    return s;
}

/* ---- the atlas -------------------------------------------------------- */

static uint64_t glyph_key(int font, int px, uint32_t cp)
{
    return ((uint64_t)(font + 1) << 48) | ((uint64_t)px << 32) | cp;
}

static glyph *find_slot(sv_text *t, uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 40) & (GLYPH_SLOTS - 1);
    while (t->slots[i].key && t->slots[i].key != key)
        i = (i + 1) & (GLYPH_SLOTS - 1);
    return &t->slots[i];
}

static void atlas_reset(sv_gfx *g, sv_text *t)
{
    sv_gfx_flush(g); /* quads already batched read the old contents */
    memset(t->slots, 0, GLYPH_SLOTS * sizeof *t->slots);
    t->used = 0;
    memset(t->runs, 0, RUN_SLOTS * sizeof *t->runs);
    t->runs_used = 0;
    t->arena_used = 0;
    t->shelf_x = 1;
    t->shelf_y = 1;
    t->shelf_h = 0;
    t->resets++;
}

/* Finds room for w x h (plus a 1 px gutter); false when the atlas is full. */
static bool atlas_alloc(sv_text *t, int w, int h, int *u, int *v)
{
    if (w + 2 > ATLAS_SIZE || h + 2 > ATLAS_SIZE)
        return false;
    if (t->shelf_x + w + 1 > ATLAS_SIZE) {
        t->shelf_y += t->shelf_h + 1;
        t->shelf_x = 1;
        t->shelf_h = 0;
    }
    if (t->shelf_y + h + 1 > ATLAS_SIZE)
        return false;
    *u = t->shelf_x;
    *v = t->shelf_y;
    t->shelf_x += w + 1;
    if (h > t->shelf_h)
        t->shelf_h = h;
    return true;
}

/* Copies w x h of coverage from t->scratch to the atlas's mirror at (u, v);
 * the texture gets it at the next sv_text_sync. */
static void upload(sv_text *t, int u, int v, int w, int h)
{
    for (int y = 0; y < h; y++)
        memcpy(t->mirror + (size_t)(v + y) * ATLAS_SIZE + u, t->scratch + (size_t)y * w,
               (size_t)w);
    if (t->dirty_x1 == 0) {
        t->dirty_x0 = u;
        t->dirty_y0 = v;
        t->dirty_x1 = u + w;
        t->dirty_y1 = v + h;
        return;
    }
    t->dirty_x0 = u < t->dirty_x0 ? u : t->dirty_x0;
    t->dirty_y0 = v < t->dirty_y0 ? v : t->dirty_y0;
    t->dirty_x1 = u + w > t->dirty_x1 ? u + w : t->dirty_x1;
    t->dirty_y1 = v + h > t->dirty_y1 ? v + h : t->dirty_y1;
}

/* Texture uploads wait for a software rasteriser's pending draws that read
 * the texture (llvmpipe finishes them first): one glyph at a time, a frame
 * with new text did that a few dozen times. So the glyphs and runs made
 * while a batch is built go to the mirror, and the batch's flush uploads
 * what changed, once, before its draw calls (gfx.c). */
bool sv_text_sync(sv_text *t)
{
    if (t->dirty_x1 == 0)
        return false;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, t->tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, ATLAS_SIZE);
    glTexSubImage2D(GL_TEXTURE_2D, 0, t->dirty_x0, t->dirty_y0, t->dirty_x1 - t->dirty_x0,
                    t->dirty_y1 - t->dirty_y0, GL_RED, GL_UNSIGNED_BYTE,
                    t->mirror + (size_t)t->dirty_y0 * ATLAS_SIZE + t->dirty_x0);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    t->dirty_x1 = 0;
    return true;
}

static bool reserve_scratch(sv_text *t, size_t need)
{
    if (need <= t->scratch_cap)
        return true;
    uint8_t *p = realloc(t->scratch, need);
    if (!p)
        return false;
    t->scratch = p;
    t->scratch_cap = need;
    return true;
}

/* Rasterises cp into a glyph record (not yet placed in the atlas): its
 * coverage goes to t->scratch. */
static bool rasterise(sv_text *t, sized_font *s, uint32_t cp, glyph *out)
{
    int minx = 0, maxx = 0, miny = 0, maxy = 0, adv = 0;
    if (TTF_GlyphMetrics32(s->ttf, cp, &minx, &maxx, &miny, &maxy, &adv) != 0)
        adv = 0;
    memset(out, 0, sizeof *out);
    out->advance = (int16_t)adv;
    if (cp == ' ' || cp == '\t' || cp == 0xA0)
        return true;
    static const SDL_Color white = {255, 255, 255, 255};
    SDL_Surface *surf = TTF_RenderGlyph32_Blended(s->ttf, cp, white);
    if (!surf)
        return true; /* nothing to draw, still advances */
    SDL_Surface *argb = surf;
    if (surf->format->format != SDL_PIXELFORMAT_ARGB8888) {
        argb = SDL_ConvertSurfaceFormat(surf, SDL_PIXELFORMAT_ARGB8888, 0);
        SDL_FreeSurface(surf);
        if (!argb)
            return true;
    }
    SDL_LockSurface(argb);
    /* SDL_ttf draws the pen origin at x = -minx when the glyph reaches
     * left of it, and the baseline at the font's ascent. */
    int ox = minx < 0 ? -minx : 0, base = TTF_FontAscent(s->ttf);
    int x0 = argb->w, y0 = argb->h, x1 = -1, y1 = -1;
    for (int y = 0; y < argb->h; y++) {
        const Uint32 *row = (const Uint32 *)((const uint8_t *)argb->pixels + y * argb->pitch);
        for (int x = 0; x < argb->w; x++) {
            if (row[x] >> 24) {
                if (x < x0) x0 = x;
                if (x > x1) x1 = x;
                if (y < y0) y0 = y;
                if (y > y1) y1 = y;
            }
        }
    }
    if (x1 >= x0 && y1 >= y0) {
        int w = x1 - x0 + 1, h = y1 - y0 + 1;
        if (!reserve_scratch(t, (size_t)w * h)) {
            SDL_UnlockSurface(argb);
            SDL_FreeSurface(argb);
            return false;
        }
        for (int y = 0; y < h; y++) {
            const Uint32 *row =
                (const Uint32 *)((const uint8_t *)argb->pixels + (y0 + y) * argb->pitch);
            for (int x = 0; x < w; x++)
                t->scratch[(size_t)y * w + x] = (uint8_t)(row[x0 + x] >> 24);
        }
        out->x0 = (int16_t)(x0 - ox);
        out->y0 = (int16_t)(y0 - base);
        out->w = (uint16_t)w;
        out->h = (uint16_t)h;
    }
    SDL_UnlockSurface(argb);
    SDL_FreeSurface(argb);
    return true;
}

/* The cached glyph for cp, rasterised and uploaded on first use. May flush
 * the batch and clear the atlas; NULL when it cannot be drawn at all. */
static const glyph *get_glyph(sv_gfx *g, sv_text *t, sized_font *s, uint32_t cp)
{
    uint64_t key = glyph_key(s->font, s->px, cp);
    glyph *slot = find_slot(t, key);
    if (slot->key == key)
        return slot;
    glyph gl;
    if (!rasterise(t, s, cp, &gl))
        return NULL;
    int u = 0, v = 0;
    if (gl.w > 0 && !atlas_alloc(t, gl.w, gl.h, &u, &v)) {
        atlas_reset(g, t);
        if (!atlas_alloc(t, gl.w, gl.h, &u, &v))
            return NULL; /* larger than the whole atlas */
    }
    if (t->used >= GLYPH_MAX_USED) {
        atlas_reset(g, t);
        if (gl.w > 0 && !atlas_alloc(t, gl.w, gl.h, &u, &v))
            return NULL;
    }
    if (gl.w > 0)
        upload(t, u, v, gl.w, gl.h);
    gl.u = (uint16_t)u;
    gl.v = (uint16_t)v;
    gl.key = key;
    slot = find_slot(t, key); /* the table may have been cleared */
    *slot = gl;
    t->used++;
    return slot;
}

/* The advance of cp, the same as its glyph's, without rasterising it when
 * it is not cached yet (measuring often tries sizes that are never drawn). */
static int glyph_advance(sv_text *t, sized_font *s, uint32_t cp)
{
    const glyph *gl = find_slot(t, glyph_key(s->font, s->px, cp));
    if (gl->key)
        return gl->advance;
    int minx, maxx, miny, maxy, adv;
    return TTF_GlyphMetrics32(s->ttf, cp, &minx, &maxx, &miny, &maxy, &adv) == 0 ? adv : 0;
}

/* ---- UTF-8 and layout ------------------------------------------------- */

/* Decodes one code point; malformed input gives U+FFFD and moves on. */
static uint32_t utf8_next(const unsigned char **ps)
{
    const unsigned char *s = *ps;
    uint32_t c = s[0];
    int n = 0;
    if (c < 0x80) {
        *ps = s + 1;
        return c;
    } else if ((c & 0xE0) == 0xC0) {
        c &= 0x1F;
        n = 1;
    } else if ((c & 0xF0) == 0xE0) {
        c &= 0x0F;
        n = 2;
    } else if ((c & 0xF8) == 0xF0) {
        c &= 0x07;
        n = 3;
    } else {
        *ps = s + 1;
        return 0xFFFD;
    }
    for (int i = 1; i <= n; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *ps = s + i;
            return 0xFFFD;
        }
        c = (c << 6) | (s[i] & 0x3F);
    }
    *ps = s + n + 1;
    static const uint32_t min[4] = {0, 0x80, 0x800, 0x10000};
    if (c < min[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0xFFFD;
    return c;
}

/* Walks [p, end), or up to the NUL when end is NULL: returns the advance
 * width in whole px; with draw, also draws each glyph at pen (x, baseline)
 * in whole px. */
static int layout_range(sv_gfx *g, sv_text *t, sized_font *s, int x, int baseline, sv_rgba c,
                        const unsigned char *p, const unsigned char *end, bool draw)
{
    int pen = 0;
    uint32_t prev = 0;
    while (end ? p < end : *p != 0) {
        uint32_t cp = utf8_next(&p);
        if (cp == '\n' || cp == '\r')
            continue;
        if (prev && s->kern)
            pen += TTF_GetFontKerningSizeGlyphs32(s->ttf, prev, cp);
        if (draw) {
            const glyph *gl = get_glyph(g, t, s, cp);
            if (gl) {
                if (gl->w > 0)
                    sv_gfx_glyph(g, (float)(x + pen + gl->x0), (float)(baseline + gl->y0),
                                 (float)gl->w, (float)gl->h, (float)gl->u, (float)gl->v, c);
                pen += gl->advance;
            }
        } else {
            pen += glyph_advance(t, s, cp);
        }
        prev = cp;
    }
    return pen;
}

/* layout_range over the whole of a NUL-terminated string. */
static int layout(sv_gfx *g, sv_text *t, sized_font *s, int x, int baseline, sv_rgba c,
                  const char *utf8, bool draw)
{
    return layout_range(g, t, s, x, baseline, c, (const unsigned char *)utf8, NULL, draw);
}

/* ---- whole short strings ----------------------------------------------- */

static uint64_t run_hash(int font, int px, const char *utf8, size_t len)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(font * 1024 + px);
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)utf8[i];
        h *= 1099511628211ull;
    }
    return h ? h : 1;
}

static run *find_run(sv_text *t, uint64_t hash, int font, int px, const char *utf8,
                     size_t len)
{
    size_t i = (size_t)(hash >> 20) & (RUN_SLOTS - 1);
    for (;;) {
        run *r = &t->runs[i];
        if (!r->hash)
            return r;
        if (r->hash == hash && r->len == len && r->font == font && r->px == px &&
            memcmp(t->arena + r->off, utf8, len) == 0)
            return r;
        i = (i + 1) & (RUN_SLOTS - 1);
    }
}

typedef struct placed {
    int x, y; /* top left from the pen start on the baseline */
    int w, h, u, v;
} placed;

/* Lays the string out from cached glyphs and composes it into the atlas as
 * one bitmap. Returns false when the atlas was cleared on the way (the
 * glyphs it had placed are gone: try again) or there is no room. */
static bool build_run(sv_gfx *g, sv_text *t, sized_font *s, const char *utf8, size_t len,
                      run *out)
{
    placed pl[RUN_MAX_BYTES];
    int n = 0, pen = 0, resets = t->resets;
    int x0 = INT16_MAX, y0 = INT16_MAX, x1 = INT16_MIN, y1 = INT16_MIN;
    const unsigned char *p = (const unsigned char *)utf8, *end = p + len;
    uint32_t prev = 0;
    while (p < end) {
        uint32_t cp = utf8_next(&p);
        if (prev && s->kern)
            pen += TTF_GetFontKerningSizeGlyphs32(s->ttf, prev, cp);
        prev = cp;
        const glyph *gl = get_glyph(g, t, s, cp);
        if (!gl)
            continue;
        if (gl->w > 0 && n < RUN_MAX_BYTES) {
            placed q = {pen + gl->x0, gl->y0, gl->w, gl->h, gl->u, gl->v};
            pl[n++] = q;
            x0 = q.x < x0 ? q.x : x0;
            y0 = q.y < y0 ? q.y : y0;
            x1 = q.x + q.w > x1 ? q.x + q.w : x1;
            y1 = q.y + q.h > y1 ? q.y + q.h : y1;
        }
        pen += gl->advance;
    }
    if (t->resets != resets)
        return false;
    memset(out, 0, sizeof *out);
    out->advance = (int16_t)pen;
    if (n == 0)
        return true;
    int w = x1 - x0, h = y1 - y0, u, v;
    /* Big strings would crowd the atlas out: those go glyph by glyph. */
    if (w > ATLAS_SIZE / 4 || h > ATLAS_SIZE / 8 || !reserve_scratch(t, (size_t)w * h)) {
        out->w = 0xffff; /* not cacheable */
        return true;
    }
    if (!atlas_alloc(t, w, h, &u, &v)) {
        atlas_reset(g, t);
        return false;
    }
    memset(t->scratch, 0, (size_t)w * h);
    /* Where glyphs overlap (a kerned pair, "ff" in bold), coverage a over b
     * is a + b - ab, as blending the glyphs one by one gives. */
    for (int i = 0; i < n; i++)
        for (int y = 0; y < pl[i].h; y++) {
            const uint8_t *src = t->mirror + (size_t)(pl[i].v + y) * ATLAS_SIZE + pl[i].u;
            uint8_t *dst = t->scratch + (size_t)(pl[i].y - y0 + y) * w + (pl[i].x - x0);
            for (int x = 0; x < pl[i].w; x++) {
                int a = dst[x], b = src[x];
                dst[x] = (uint8_t)(a + b - (a * b + 127) / 255);
            }
        }
    upload(t, u, v, w, h);
    out->x0 = (int16_t)x0;
    out->y0 = (int16_t)y0;
    out->w = (uint16_t)w;
    out->h = (uint16_t)h;
    out->u = (uint16_t)u;
    out->v = (uint16_t)v;
    return true;
}

/* The cached run for a short string, built on first use; NULL when it
 * cannot be cached (the caller then draws glyph by glyph). */
static const run *get_run(sv_gfx *g, sv_text *t, sized_font *s, const char *utf8, size_t len)
{
    uint64_t hash = run_hash(s->font, s->px, utf8, len);
    run *slot = find_run(t, hash, s->font, s->px, utf8, len);
    if (slot->hash)
        return slot;
    if (t->runs_used >= RUN_MAX_USED || t->arena_used + len > RUN_ARENA)
        atlas_reset(g, t);
    run r;
    if (!build_run(g, t, s, utf8, len, &r) && !build_run(g, t, s, utf8, len, &r))
        return NULL;
    if (r.w == 0xffff)
        return NULL;
    r.hash = hash;
    r.len = (uint16_t)len;
    r.font = (uint8_t)s->font;
    r.px = (uint16_t)s->px;
    r.off = (uint32_t)t->arena_used;
    memcpy(t->arena + t->arena_used, utf8, len);
    t->arena_used += len;
    slot = find_run(t, hash, s->font, s->px, utf8, len); /* the table may have been cleared */
    *slot = r;
    t->runs_used++;
    return slot;
}

/* Draws a string too long to cache whole: word by word, each word a cached
 * run at the pen position glyph-by-glyph layout gives it (the kerning
 * across a space is the layout's), a word that cannot be cached glyph by
 * glyph. A run is one quad where its glyphs were one each: on llvmpipe a
 * small quad costs about twice a large one per pixel. Returns the advance,
 * the same as layout's. */
static int draw_words(sv_gfx *g, sv_text *t, sized_font *s, int x, int baseline, sv_rgba c,
                      const char *utf8)
{
    const unsigned char *p = (const unsigned char *)utf8;
    int pen = 0;
    uint32_t prev = 0;
    while (*p) {
        const unsigned char *q = p;
        uint32_t cp = utf8_next(&q);
        if (cp == '\n' || cp == '\r') {
            p = q;
            continue;
        }
        if (prev && s->kern)
            pen += TTF_GetFontKerningSizeGlyphs32(s->ttf, prev, cp);
        if (cp == ' ') {
            const glyph *gl = get_glyph(g, t, s, cp);
            pen += gl ? gl->advance : 0;
            prev = cp;
            p = q;
            continue;
        }
        /* a word: up to the next space, line break or the end */
        const unsigned char *end = p;
        uint32_t last = cp;
        while (*end && *end != ' ' && *end != '\n' && *end != '\r') {
            const unsigned char *e = end;
            last = utf8_next(&e);
            end = e;
        }
        size_t len = (size_t)(end - p);
        const run *r = len <= RUN_MAX_BYTES ? get_run(g, t, s, (const char *)p, len) : NULL;
        if (r) {
            if (r->w > 0)
                sv_gfx_glyph(g, (float)(x + pen + r->x0), (float)(baseline + r->y0),
                             (float)r->w, (float)r->h, (float)r->u, (float)r->v, c);
            pen += r->advance;
        } else {
            pen += layout_range(g, t, s, x + pen, baseline, c, p, end, true);
        }
        prev = last;
        p = end;
    }
    return pen;
}

static bool cacheable(const char *utf8, size_t *len)
{
    size_t n = 0;
    for (; utf8[n]; n++)
        if (n >= RUN_MAX_BYTES || utf8[n] == '\n' || utf8[n] == '\r')
            return false;
    *len = n;
    return true;
}

/* The font to lay utf8 out in, or NULL when there is nothing to draw
 * (no text, or the font failed to load). */
static sized_font *font_for(sv_text *t, sv_font font, float px, const char *utf8)
{
    if (!utf8 || !*utf8)
        return NULL;
    return get_font(t, (int)font, clamp_px(px));
}

/* The advance of utf8 in s, as layout measures it, from the measure cache
 * (filled on first use; cleared whole when full). */
static int measured(sv_gfx *g, sv_text *t, sized_font *s, const char *utf8)
{
    size_t len = strlen(utf8);
    if (len > MEASURE_MAX_BYTES)
        return layout(g, t, s, 0, 0, (sv_rgba){0, 0, 0, 0}, utf8, false);
    uint64_t hash = run_hash(s->font, s->px, utf8, len);
    size_t i = (size_t)(hash >> 20) & (MEASURE_SLOTS - 1);
    for (;; i = (i + 1) & (MEASURE_SLOTS - 1)) {
        measure *m = &t->measures[i];
        if (!m->hash)
            break;
        if (m->hash == hash && m->len == len && m->font == s->font && m->px == s->px &&
            memcmp(t->marena + m->off, utf8, len) == 0)
            return m->advance;
    }
    int advance = layout(g, t, s, 0, 0, (sv_rgba){0, 0, 0, 0}, utf8, false);
    if (t->measures_used >= MEASURE_MAX_USED || t->marena_used + len > MEASURE_ARENA) {
        memset(t->measures, 0, MEASURE_SLOTS * sizeof *t->measures);
        t->measures_used = 0;
        t->marena_used = 0;
        i = (size_t)(hash >> 20) & (MEASURE_SLOTS - 1);
    }
    measure *m = &t->measures[i];
    while (m->hash) {
        i = (i + 1) & (MEASURE_SLOTS - 1);
        m = &t->measures[i];
    }
    *m = (measure){hash, (uint32_t)t->marena_used, (uint16_t)len, (uint8_t)s->font,
                   (uint16_t)s->px, advance};
    memcpy(t->marena + t->marena_used, utf8, len);
    t->marena_used += len;
    t->measures_used++;
    return advance;
}

float sv_gfx_text_width(sv_gfx *g, sv_font font, float px, const char *utf8)
{
    sv_text *t = sv_gfx_text_state(g);
    sized_font *s = font_for(t, font, px, utf8);
    if (!s)
        return 0.0f;
    return (float)measured(g, t, s, utf8);
}

void sv_gfx_text_ellipsize(sv_gfx *g, sv_font font, float px, float max_w, const char *utf8,
                           char *out, size_t len)
{
    if (!out || len == 0)
        return;
    snprintf(out, len, "%s", utf8 ? utf8 : "");
    if (sv_gfx_text_width(g, font, px, out) <= max_w)
        return;
    size_t n = strlen(out);
    while (n > 0) {
        n--;
        while (n > 0 && ((unsigned char)out[n] & 0xC0) == 0x80) /* a whole character */
            n--;
        if (n + 4 > len)
            continue;
        memcpy(out + n, "\u2026", 4); /* 3 bytes and the NUL */
        if (sv_gfx_text_width(g, font, px, out) <= max_w)
            return;
    }
    out[0] = '\0';
}

float sv_gfx_text(sv_gfx *g, sv_font font, float px, float x, float y, sv_align align,
                  sv_rgba c, const char *utf8)
{
    sv_text *t = sv_gfx_text_state(g);
    sized_font *s = font_for(t, font, px, utf8);
    if (!s)
        return 0.0f;
    sv_gfx_rec *rec = sv_gfx_recorder(g);
    if (rec && isfinite(x) && isfinite(y)) {
        /* The vector record: the same size, anchor and baseline. */
        sv_prim *p = sv_gfx_rec_push(rec, SV_PRIM_TEXT);
        if (p && sv_gfx_rec_set_text(rec, p, utf8)) {
            p->font = font;
            p->px = (float)s->px;
            p->x0 = x;
            p->y0 = floorf(y + 0.5f * (float)s->cap + 0.5f);
            p->align = align;
            p->fill = c;
            p->advance = (float)measured(g, t, s, utf8);
        }
    }
    /* Rows of text wholly outside the clip are measured, not drawn; so is
     * text at a position that is not a number (a degenerate layout). */
    float top = y - (float)s->px, bottom = y + (float)s->px;
    if (!isfinite(x) || !isfinite(y) || fabsf(x) > 1e7f || fabsf(y) > 1e7f ||
        !sv_gfx_visible_rows(g, top, bottom))
        return (float)measured(g, t, s, utf8);
    size_t len;
    const run *r = cacheable(utf8, &len) ? get_run(g, t, s, utf8, len) : NULL;
    int w = 0;
    if (r)
        w = r->advance;
    else if (align != SV_ALIGN_LEFT)
        w = measured(g, t, s, utf8);
    float left = align == SV_ALIGN_CENTER ? x - 0.5f * (float)w
               : align == SV_ALIGN_RIGHT  ? x - (float)w
                                          : x;
    /* Whole pixels: glyph bitmaps land texel for texel on the framebuffer. */
    int ix = (int)floorf(left + 0.5f);
    int baseline = (int)floorf(y + 0.5f * (float)s->cap + 0.5f);
    if (r) {
        if (r->w > 0)
            sv_gfx_glyph(g, (float)(ix + r->x0), (float)(baseline + r->y0), (float)r->w,
                         (float)r->h, (float)r->u, (float)r->v, c);
        return (float)r->advance;
    }
    return (float)draw_words(g, t, s, ix, baseline, c, utf8);
}
