/* What the GL tests (tests/render, tests/plot) share around a frame: reading
 * an offscreen target back into memory, and keeping Mesa loaded until
 * LeakSanitizer has run. Include after gfx.h; the including file defines
 * _GNU_SOURCE first (dl_iterate_phdr, RTLD_NODELETE). */
#ifndef SV_TEST_RENDER_UTIL_H
#define SV_TEST_RENDER_UTIL_H

#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
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

#endif
