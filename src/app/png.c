/* PNG output for exports and tests: an RGBA8 image, top row first, written
 * through libpng, with errors reported in the caller's buffer. */
#include "gfx.h"

#include <errno.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

typedef struct png_err_ctx {
    char *err;
    size_t errlen;
    const char *path;
} png_err_ctx;

static void on_png_error(png_structp png, png_const_charp msg)
{
    png_err_ctx *c = png_get_error_ptr(png);
    snprintf(c->err, c->errlen, "cannot write PNG %s: %s", c->path, msg);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* library code does not print */
}

bool sv_png_write(const char *path, const uint8_t *rgba, int w, int h, char *err,
                  size_t errlen)
{
    if (w < 1 || h < 1 || !rgba) {
        snprintf(err, errlen, "cannot write PNG %s: empty image (%dx%d)", path, w, h);
        return false;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s for writing: %s", path, strerror(errno));
        return false;
    }
    /* volatile: read after a longjmp from libpng. */
    png_err_ctx ctx = {err, errlen, path};
    png_structp volatile png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx,
                                                       on_png_error, on_png_warning);
    png_infop volatile info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info) {
        snprintf(err, errlen, "cannot write PNG %s: out of memory", path);
        goto fail;
    }
    if (setjmp(png_jmpbuf(png)))
        goto fail; /* err already filled */
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 6);
    png_write_info(png, info);
    for (int y = 0; y < h; y++)
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * w * 4));
    png_write_end(png, info);
    {
        png_structp p = png;
        png_infop i = info;
        png_destroy_write_struct(&p, &i);
    }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "cannot write PNG %s: %s", path, strerror(errno));
        return false;
    }
    return true;

fail:
    if (png) {
        png_structp p = png;
        png_infop i = info;
        png_destroy_write_struct(&p, info ? &i : NULL);
    }
    fclose(f);
    remove(path);
    return false;
}
