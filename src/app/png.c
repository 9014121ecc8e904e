/* PNG output for exports and tests: an RGBA8 image, top row first, written
 * through libpng to a stream, or all or nothing to a path (sv_file_begin/
 * commit), with errors reported in the caller's buffer. */
#include "gfx.h"
#include "png_stream.h"
#include "../core/fileio.h"

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
    /* libpng says "Write Error" for a failed fwrite: add the system's reason
     * (errno is cleared before writing, so it is this write's). */
    int e = errno;
    snprintf(c->err, c->errlen, "%s: write failed: %s%s%s", c->path, msg, e ? ": " : "",
             e ? strerror(e) : "");
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg; /* library code does not print */
}

bool sv_png_write_stream(FILE *f, const char *name, const uint8_t *rgba, int w, int h,
                         char *err, size_t errlen)
{
    if (w < 1 || h < 1 || !rgba) {
        snprintf(err, errlen, "cannot write PNG %s: empty image (%dx%d)", name, w, h);
        return false;
    }
    /* volatile: read after a longjmp from libpng. */
    png_err_ctx ctx = {err, errlen, name};
    png_structp volatile png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &ctx,
                                                       on_png_error, on_png_warning);
    png_infop volatile info = png ? png_create_info_struct(png) : NULL;
    bool ok = false;
    if (!png || !info) {
        snprintf(err, errlen, "cannot write PNG %s: out of memory", name);
        goto done;
    }
    if (setjmp(png_jmpbuf(png)))
        goto done; /* err already filled */
    errno = 0;
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGBA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 6);
    png_write_info(png, info);
    for (int y = 0; y < h; y++)
        png_write_row(png, (png_const_bytep)(rgba + (size_t)y * w * 4));
    png_write_end(png, info);
    ok = true;
done:
    if (png) {
        png_structp p = png;
        png_infop i = info;
        png_destroy_write_struct(&p, info ? &i : NULL);
    }
    return ok;
}

/* All or nothing (fileio.h): a temporary file beside path, renamed over it
 * only when every byte is written and synced. On failure path is left as it
 * was; nothing that was not created here is ever removed. */
bool sv_png_write(const char *path, const uint8_t *rgba, int w, int h, char *err,
                  size_t errlen)
{
    sv_file *f = sv_file_begin(path, err, errlen);
    if (!f)
        return false;
    if (!sv_png_write_stream(sv_file_stream(f), path, rgba, w, h, err, errlen)) {
        sv_file_abort(f);
        return false;
    }
    return sv_file_commit(f, err, errlen);
}
