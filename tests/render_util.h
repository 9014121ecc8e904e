/* What the GL tests (tests/render, tests/plot) share around a frame: opening
 * a headless GL context and the drawing layer, reading an offscreen target
 * back into memory, and keeping Mesa loaded until LeakSanitizer has run.
 * Include after gfx.h and platform.h; the including file defines
 * _GNU_SOURCE first (dl_iterate_phdr, RTLD_NODELETE). */
#ifndef SV_TEST_RENDER_UTIL_H
#define SV_TEST_RENDER_UTIL_H

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Reads the w x h frame just drawn into t back into *px (freed and
 * allocated again; NULL when out of memory, and nothing read), then binds
 * the window again and destroys t. */
static inline void render_read_back(sv_gfx *g, sv_gfx_target *t, int w, int h, uint8_t **px)
{
    free(*px);
    *px = malloc((size_t)w * h * 4);
    if (*px)
        sv_gfx_read_pixels(g, w, h, *px);
    sv_gfx_target_bind(NULL);
    sv_gfx_target_destroy(t);
}

static int render_pin_library_(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name && info->dlpi_name[0])
        dlopen(info->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    return 0;
}

/* Pins every loaded shared library (RTLD_NODELETE), so that closing the GL
 * context does not unload Mesa's driver before LeakSanitizer runs: its
 * process-lifetime allocations then carry module names that tests/lsan.supp
 * matches, instead of "<unknown module>". Call before sv_platform_close. */
static inline void render_pin_libraries(void)
{
    dl_iterate_phdr(render_pin_library_, NULL);
}

/* Opens a hidden window with a GL context (the test runs with SDL's
 * offscreen driver) and the drawing layer on it; on failure says why with
 * the test's name and exits 1. */
static inline sv_gfx *render_open(sv_platform *p, const char *name)
{
    char err[512];
    if (!sv_platform_open(p, name, 64, 64, true, false, err, sizeof err)) {
        fprintf(stderr, "%s: FAIL: no headless GL: %s\n", name, err);
        exit(1);
    }
    sv_gfx *g = sv_gfx_create(err, sizeof err);
    if (!g) {
        fprintf(stderr, "%s: FAIL: sv_gfx_create: %s\n", name, err);
        sv_platform_close(p);
        exit(1);
    }
    return g;
}

/* Destroys g, pins the libraries (render_pin_libraries) and closes p. */
static inline void render_close(sv_platform *p, sv_gfx *g)
{
    sv_gfx_destroy(g);
    render_pin_libraries();
    sv_platform_close(p);
}

#endif
