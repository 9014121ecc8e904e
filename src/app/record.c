/* The record of a frame (gfx.h, "the second back end"): a growing array of
 * primitives and a string arena for their text, reset by sv_gfx_begin. */
#include <stdlib.h>
#include <string.h>

#include "gfx_internal.h"

struct sv_gfx_rec {
    sv_prim *prims;
    size_t n, cap;
    /* Text lives in blocks that are kept across frames (freed at destroy). */
    char **blocks;
    size_t nblocks, block_used, block_size;
    int w, h;
    sv_rgba clear;
    bool oom;
};

#define BLOCK 65536

sv_gfx_rec *sv_gfx_rec_create(void)
{
    return calloc(1, sizeof(sv_gfx_rec));
}

void sv_gfx_rec_destroy(sv_gfx_rec *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nblocks; i++)
        free(r->blocks[i]);
    free(r->blocks);
    free(r->prims);
    free(r);
}

void sv_gfx_rec_reset(sv_gfx_rec *r, int w, int h, sv_rgba clear)
{
    /* Keep only the first text block: a frame's text rarely needs more. */
    for (size_t i = 1; i < r->nblocks; i++)
        free(r->blocks[i]);
    if (r->nblocks > 1)
        r->nblocks = 1;
    r->block_used = 0;
    r->block_size = r->nblocks ? BLOCK : 0;
    r->n = 0;
    r->w = w;
    r->h = h;
    r->clear = clear;
    r->oom = false;
}

sv_prim *sv_gfx_rec_push(sv_gfx_rec *r, sv_prim_kind kind)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 1024;
        sv_prim *p = realloc(r->prims, cap * sizeof *p);
        if (!p) {
            r->oom = true;
            return NULL;
        }
        r->prims = p;
        r->cap = cap;
    }
    sv_prim *p = &r->prims[r->n++];
    memset(p, 0, sizeof *p);
    p->kind = kind;
    return p;
}

bool sv_gfx_rec_set_text(sv_gfx_rec *r, sv_prim *p, const char *utf8)
{
    size_t len = strlen(utf8) + 1;
    if (len > BLOCK)
        len = BLOCK; /* cut (at a byte: the writers escape what they print) */
    if (r->nblocks == 0 || r->block_used + len > r->block_size) {
        char **b = realloc(r->blocks, (r->nblocks + 1) * sizeof *b);
        if (!b) {
            r->oom = true;
            return false;
        }
        r->blocks = b;
        r->blocks[r->nblocks] = malloc(BLOCK);
        if (!r->blocks[r->nblocks]) {
            r->oom = true;
            return false;
        }
        r->nblocks++;
        r->block_used = 0;
        r->block_size = BLOCK;
    }
    char *dst = r->blocks[r->nblocks - 1] + r->block_used;
    memcpy(dst, utf8, len - 1);
    dst[len - 1] = '\0';
    r->block_used += len;
    p->text = dst;
    return true;
}

size_t sv_gfx_rec_count(const sv_gfx_rec *r)
{
    return r ? r->n : 0;
}

const sv_prim *sv_gfx_rec_prim(const sv_gfx_rec *r, size_t i)
{
    return r && i < r->n ? &r->prims[i] : NULL;
}

bool sv_gfx_rec_frame(const sv_gfx_rec *r, int *w, int *h, sv_rgba *clear)
{
    if (!r)
        return false;
    if (w) *w = r->w;
    if (h) *h = r->h;
    if (clear) *clear = r->clear;
    return !r->oom;
}
