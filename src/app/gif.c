/* The GIF writer (gif.h). Under the hood:
 *  - Colours: every pixel goes to its nearest palette entry (a weighted RGB
 *    distance), remembered per exact colour in an open-addressing cache, so
 *    a frame's few thousand distinct colours are searched once each.
 *  - Frames: a frame is compared with the last one stored, index for index;
 *    only the bounding box of the change is stored (disposal "leave in
 *    place"), and inside it an unchanged pixel is the transparent index,
 *    which LZW packs into long runs. A frame with no change adds its delay
 *    to the previous frame instead, which is rewritten before it is encoded:
 *    frames are encoded one behind.
 *  - The file is built in memory and written through sv_write_atomic (core/fileio.h). */
#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gif.h"
#include "../core/buf.h"
#include "../core/fileio.h"

#define CACHE_BITS 16
#define CACHE_SIZE (1u << CACHE_BITS)
#define TRANSPARENT 0

struct sv_gif {
    int w, h;
    GifFileType *gf;
    sv_buf out;             /* the file so far, written at sv_gif_finish */
    uint8_t pal[256][3];
    int npal;               /* entries 1..npal are colours; 0 is transparent */
    uint32_t cache_key[CACHE_SIZE]; /* rgb + 1 (0 = empty) */
    uint8_t cache_val[CACHE_SIZE];
    uint8_t *prev, *cur;    /* palette indices of the last stored frame and this one */
    uint8_t *pending;       /* the frame waiting to be encoded (its box only) */
    int px0, py0, pw, ph, pdelay; /* its box and delay; pw == 0: none */
    int frames;
    bool failed;
};

static int on_write(GifFileType *gf, const GifByteType *data, int len)
{
    if (len <= 0)
        return 0;
    return sv_buf_append(gf->UserData, data, (size_t)len) ? len : 0;
}

static void gif_error(char *err, size_t errlen, const char *what, int code)
{
    const char *why = GifErrorString(code);
    snprintf(err, errlen, "GIF: %s: %s", what, why ? why : "error");
}

sv_gif *sv_gif_create(int w, int h, const uint8_t (*palette)[3], int n, char *err,
                      size_t errlen)
{
    if (w < 1 || h < 1 || w > 16384 || h > 16384 || n < 1 || n > 255) {
        snprintf(err, errlen, "GIF: size %dx%d or palette of %d colours out of range", w, h, n);
        return NULL;
    }
    sv_gif *g = calloc(1, sizeof *g);
    if (!g)
        goto oom;
    g->w = w;
    g->h = h;
    g->npal = n;
    memcpy(g->pal[1], palette, (size_t)n * 3);
    memcpy(g->pal[0], palette[0], 3);
    size_t px = (size_t)w * (size_t)h;
    g->prev = malloc(px);
    g->cur = malloc(px);
    g->pending = malloc(px);
    if (!g->prev || !g->cur || !g->pending)
        goto oom;
    int code = 0;
    g->gf = EGifOpen(&g->out, on_write, &code);
    if (!g->gf) {
        gif_error(err, errlen, "cannot start", code);
        goto fail;
    }
    EGifSetGifVersion(g->gf, true);
    ColorMapObject *map = GifMakeMapObject(256, NULL);
    if (!map)
        goto oom;
    for (int i = 0; i < 256; i++) {
        int k = i <= n ? i : 0;
        map->Colors[i].Red = g->pal[k][0];
        map->Colors[i].Green = g->pal[k][1];
        map->Colors[i].Blue = g->pal[k][2];
    }
    int rc = EGifPutScreenDesc(g->gf, w, h, 8, 0, map);
    GifFreeMapObject(map);
    if (rc != GIF_OK) {
        gif_error(err, errlen, "screen descriptor", g->gf->Error);
        goto fail;
    }
    /* Loop forever: NETSCAPE2.0, sub-block 1, count 0. */
    unsigned char loop[3] = {1, 0, 0};
    if (EGifPutExtensionLeader(g->gf, APPLICATION_EXT_FUNC_CODE) != GIF_OK ||
        EGifPutExtensionBlock(g->gf, 11, "NETSCAPE2.0") != GIF_OK ||
        EGifPutExtensionBlock(g->gf, 3, loop) != GIF_OK ||
        EGifPutExtensionTrailer(g->gf) != GIF_OK) {
        gif_error(err, errlen, "loop extension", g->gf->Error);
        goto fail;
    }
    return g;
oom:
    snprintf(err, errlen, "GIF: out of memory for %dx%d frames", w, h);
fail:
    sv_gif_destroy(g);
    return NULL;
}

void sv_gif_destroy(sv_gif *g)
{
    if (!g)
        return;
    if (g->gf) {
        int code;
        EGifCloseFile(g->gf, &code);
    }
    sv_buf_free(&g->out);
    free(g->prev);
    free(g->cur);
    free(g->pending);
    free(g);
}

int sv_gif_frames(const sv_gif *g)
{
    return g ? g->frames : 0;
}

static uint8_t nearest(sv_gif *g, uint32_t rgb)
{
    uint32_t key = rgb + 1, h = (rgb * 2654435761u) >> (32 - CACHE_BITS);
    for (uint32_t k = 0; k < 8; k++) {
        uint32_t s = (h + k) & (CACHE_SIZE - 1);
        if (g->cache_key[s] == key)
            return g->cache_val[s];
        if (g->cache_key[s] == 0)
            break;
    }
    int r = (int)(rgb >> 16), gr = (int)(rgb >> 8) & 255, b = (int)rgb & 255;
    int best = 1;
    long bestd = -1;
    for (int i = 1; i <= g->npal; i++) {
        int dr = r - g->pal[i][0], dg = gr - g->pal[i][1], db = b - g->pal[i][2];
        long d = 3L * dr * dr + 4L * dg * dg + 2L * db * db;
        if (bestd < 0 || d < bestd) {
            bestd = d;
            best = i;
        }
    }
    for (uint32_t k = 0; k < 8; k++) {
        uint32_t s = (h + k) & (CACHE_SIZE - 1);
        if (g->cache_key[s] == 0 || k == 7) {
            g->cache_key[s] = key;
            g->cache_val[s] = (uint8_t)best;
            break;
        }
    }
    return (uint8_t)best;
}

/* Encodes the pending frame (if any). */
static bool flush_pending(sv_gif *g, char *err, size_t errlen)
{
    if (g->pw == 0)
        return true;
    GraphicsControlBlock gcb = {0};
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.DelayTime = g->pdelay;
    gcb.TransparentColor = g->frames > 1 ? TRANSPARENT : NO_TRANSPARENT_COLOR;
    GifByteType ext[4];
    size_t len = EGifGCBToExtension(&gcb, ext);
    if (EGifPutExtension(g->gf, GRAPHICS_EXT_FUNC_CODE, (int)len, ext) != GIF_OK ||
        EGifPutImageDesc(g->gf, g->px0, g->py0, g->pw, g->ph, false, NULL) != GIF_OK) {
        gif_error(err, errlen, "frame header", g->gf->Error);
        return false;
    }
    for (int y = 0; y < g->ph; y++) {
        if (EGifPutLine(g->gf, g->pending + (size_t)y * g->pw, g->pw) != GIF_OK) {
            gif_error(err, errlen, "frame data", g->gf->Error);
            return false;
        }
    }
    g->pw = 0;
    return true;
}

bool sv_gif_add(sv_gif *g, const uint8_t *rgba, int delay_cs, char *err, size_t errlen)
{
    if (g->failed) {
        snprintf(err, errlen, "GIF: writer failed earlier");
        return false;
    }
    if (delay_cs < 2)
        delay_cs = 2;
    size_t npx = (size_t)g->w * (size_t)g->h;
    for (size_t i = 0; i < npx; i++) {
        const uint8_t *p = rgba + i * 4;
        g->cur[i] = nearest(g, (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]);
    }
    int x0 = 0, y0 = 0, x1 = g->w - 1, y1 = g->h - 1;
    if (g->frames > 0) {
        x0 = g->w;
        y0 = g->h;
        x1 = y1 = -1;
        for (int y = 0; y < g->h; y++) {
            const uint8_t *a = g->cur + (size_t)y * g->w, *b = g->prev + (size_t)y * g->w;
            if (memcmp(a, b, (size_t)g->w) == 0)
                continue;
            if (y < y0) y0 = y;
            y1 = y;
            for (int x = 0; x < g->w; x++)
                if (a[x] != b[x]) {
                    if (x < x0) x0 = x;
                    if (x > x1) x1 = x;
                }
        }
        if (x1 < 0) { /* nothing changed: the frame before stays longer */
            g->pdelay += delay_cs;
            return true;
        }
    }
    if (!flush_pending(g, err, errlen)) {
        g->failed = true;
        return false;
    }
    g->px0 = x0;
    g->py0 = y0;
    g->pw = x1 - x0 + 1;
    g->ph = y1 - y0 + 1;
    g->pdelay = delay_cs;
    for (int y = 0; y < g->ph; y++) {
        uint8_t *dst = g->pending + (size_t)y * g->pw;
        const uint8_t *c = g->cur + (size_t)(y0 + y) * g->w + x0;
        const uint8_t *p = g->prev + (size_t)(y0 + y) * g->w + x0;
        for (int x = 0; x < g->pw; x++)
            dst[x] = (g->frames > 0 && c[x] == p[x]) ? TRANSPARENT : c[x];
    }
    uint8_t *t = g->prev;
    g->prev = g->cur;
    g->cur = t;
    g->frames++;
    return true;
}

bool sv_gif_finish(sv_gif *g, const char *path, size_t *bytes, char *err, size_t errlen)
{
    bool ok = !g->failed && g->frames > 0;
    if (!ok)
        snprintf(err, errlen, g->frames == 0 ? "GIF: no frames" : "GIF: writer failed earlier");
    if (ok)
        ok = flush_pending(g, err, errlen);
    int code = 0;
    if (EGifCloseFile(g->gf, &code) != GIF_OK && ok) {
        gif_error(err, errlen, "cannot finish", code);
        ok = false;
    }
    g->gf = NULL;
    if (ok && g->out.oom) {
        snprintf(err, errlen, "GIF: out of memory");
        ok = false;
    }
    if (ok)
        ok = sv_write_atomic(path, g->out.p, g->out.n, err, errlen);
    if (ok && bytes)
        *bytes = g->out.n;
    sv_gif_destroy(g);
    return ok;
}
