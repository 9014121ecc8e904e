/* PNG to an open stream, for writers that commit several files together
 * (export.c's rounds). sv_png_write (gfx.h) is the all-or-nothing write to a
 * path built on it. */
#ifndef SV_PNG_STREAM_H
#define SV_PNG_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Writes an RGBA8 image, top row first, to f; name is for messages. The
 * caller checks and closes the stream (sv_file_finish/commit). */
bool sv_png_write_stream(FILE *f, const char *name, const uint8_t *rgba, int w, int h,
                         char *err, size_t errlen);

#endif
