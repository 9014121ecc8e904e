/* The window and its OpenGL 3.3 core context, through SDL2. Without a
 * display (or when asked) it uses SDL's offscreen video driver, which gives
 * a real GL context on Mesa's llvmpipe through EGL: rendering goes to FBOs. */
#if defined(__linux__) && !defined(_GNU_SOURCE)
#define _GNU_SOURCE /* dl_iterate_phdr, RTLD_NODELETE */
#endif
#include "platform.h"
#include "escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <dlfcn.h>
#include <link.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if SV_HAVE_X11
#include <SDL_syswm.h>
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#endif

bool sv_platform_have_display(void)
{
    const char *x = getenv("DISPLAY");
    const char *w = getenv("WAYLAND_DISPLAY");
    return (x && *x) || (w && *w);
}

/* A display is set but SDL's own choice fell through to a driver without
 * one (offscreen, dummy): the display refused the connection. Left so, the
 * app would run a window nobody can see, forever. Under the hood: SDL tries
 * its drivers in turn and takes the first that starts, and its offscreen
 * driver always starts; so ask again for the display's own drivers alone,
 * a few times (a display server that is still starting, or busy, refuses
 * for a moment), and otherwise fail with the display's own error. */
static bool open_display_driver(char *err, size_t errlen)
{
    const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
    const char *names = (x && *x) ? ((w && *w) ? "x11,wayland" : "x11") : "wayland";
    char why[256] = "";
    for (int attempt = 0; attempt < 6; attempt++) {
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        if (attempt)
            SDL_Delay(250u * (unsigned)attempt);
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, names, SDL_HINT_OVERRIDE);
        bool ok = SDL_InitSubSystem(SDL_INIT_VIDEO) == 0;
        if (!ok)
            snprintf(why, sizeof why, "%s", SDL_GetError());
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, NULL, SDL_HINT_OVERRIDE);
        if (ok)
            return true;
    }
    /* The variables come from outside: escaped, as every printed text. */
    char ex[128], ew[128], ey[256];
    snprintf(err, errlen, "cannot connect to the display (DISPLAY \"%s\", WAYLAND_DISPLAY "
             "\"%s\"): %s", sv_escape(x ? x : "", ex, sizeof ex),
             sv_escape(w ? w : "", ew, sizeof ew),
             why[0] ? sv_escape(why, ey, sizeof ey) : "no video driver");
    return false;
}

static void set_gl_attributes(void)
{
    SDL_GL_ResetAttributes();
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, SDL_GL_CONTEXT_FORWARD_COMPATIBLE_FLAG);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_RED_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_GREEN_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_BLUE_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_ALPHA_SIZE, 8);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 0);
    SDL_GL_SetAttribute(SDL_GL_STENCIL_SIZE, 0);
}

#if defined(__linux__)
static int pin_module(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    const char *path = info->dlpi_name;
    const char *base = path ? strrchr(path, '/') : NULL;
    base = base ? base + 1 : path;
    if (!base || !*base)
        return 0;
    size_t n = strlen(base);
    bool driver = (n > 7 && strcmp(base + n - 7, "_dri.so") == 0) ||
                  strncmp(base, "libgallium", 10) == 0;
    if (driver) {
        /* Marks the loaded module as never unloaded; the handle is only a
         * reference count, dropped at once. */
        void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        if (h)
            dlclose(h);
    }
    return 0;
}
#endif

/* Mesa's driver module (swrast_dri.so, libgallium) is unloaded when the
 * context goes; its process-lifetime allocations then look like leaks from
 * an unknown module, which no suppression can name. Keeping it loaded until
 * exit lets leak checkers attribute them (and saves reloading it). */
static void pin_gl_driver(void)
{
#if defined(__linux__)
    dl_iterate_phdr(pin_module, NULL);
#endif
}

/* llvmpipe allocates its per-frame bins in blocks above glibc's mmap
 * threshold, so each frame mapped fresh pages and faulted them in: about a
 * third of the main thread's time at 1920x1080. Serving such blocks from the
 * heap, and keeping up to 64 MB of freed memory there, ends the churn. */
static void tune_malloc(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 16 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
#endif
}


bool sv_platform_open(sv_platform *p, const char *title, int w, int h,
                      bool headless, bool fullscreen, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    tune_malloc();
    bool offscreen = headless || !sv_platform_have_display();
    if (offscreen) {
        /* Must be set before SDL_Init picks a driver. An explicit
         * SDL_VIDEODRIVER in the environment still wins over the hint. */
        SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, "offscreen", SDL_HINT_OVERRIDE);
        if (!getenv("SDL_VIDEODRIVER"))
            setenv("SDL_VIDEODRIVER", "offscreen", 1);
    }
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
        snprintf(err, errlen, "SDL video init failed (%s driver): %s",
                 offscreen ? "offscreen" : "default", SDL_GetError());
        return false;
    }
    const char *drv = SDL_GetCurrentVideoDriver();
    if (!offscreen && !getenv("SDL_VIDEODRIVER") && drv &&
        (strcmp(drv, "offscreen") == 0 || strcmp(drv, "dummy") == 0) &&
        !open_display_driver(err, errlen))
        return false;
    drv = SDL_GetCurrentVideoDriver();
    p->headless = offscreen || (drv && strcmp(drv, "offscreen") == 0);

    set_gl_attributes();
    Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI | SDL_WINDOW_RESIZABLE;
    if (p->headless)
        flags |= SDL_WINDOW_HIDDEN;
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    p->window = SDL_CreateWindow(title ? title : "scanviz", SDL_WINDOWPOS_CENTERED,
                                 SDL_WINDOWPOS_CENTERED, w, h, flags);
    if (!p->window) {
        snprintf(err, errlen, "cannot open a %dx%d window (%s driver): %s", w, h,
                 drv ? drv : "?", SDL_GetError());
        goto fail_video;
    }
    p->gl = SDL_GL_CreateContext(p->window);
    if (!p->gl) {
        snprintf(err, errlen, "cannot create an OpenGL 3.3 core context (%s driver): %s",
                 drv ? drv : "?", SDL_GetError());
        goto fail_window;
    }
    if (SDL_GL_MakeCurrent(p->window, p->gl) != 0) {
        snprintf(err, errlen, "cannot make the OpenGL context current: %s", SDL_GetError());
        goto fail_context;
    }
    pin_gl_driver();
    /* Adaptive vsync first, then plain vsync; neither is an error. */
    if (!p->headless && SDL_GL_SetSwapInterval(-1) != 0)
        SDL_GL_SetSwapInterval(1);
    if (p->headless)
        SDL_GL_SetSwapInterval(0);
    SDL_GetWindowSize(p->window, &p->win_w, &p->win_h);
    if (fullscreen && !p->headless)
        sv_platform_fullscreen(p, true); /* a refusal leaves the window as it is */
    return true;

fail_context:
    SDL_GL_DeleteContext(p->gl);
fail_window:
    SDL_DestroyWindow(p->window);
fail_video:
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    memset(p, 0, sizeof *p);
    return false;
}

void sv_platform_close(sv_platform *p)
{
    if (!p || (!p->window && !p->gl))
        return;
    if (p->gl)
        SDL_GL_DeleteContext(p->gl);
    if (p->window) {
        /* SDL may still hold this window as the one to wake (its X11 wakeup
         * is a message sent to it on a second connection): a last event
         * spends that while the window exists, so no message reaches it
         * once it is gone (BadWindow, which ends the process at exit). */
        SDL_Event last;
        SDL_zero(last);
        last.type = SDL_USEREVENT;
        SDL_PushEvent(&last);
        SDL_FlushEvent(SDL_USEREVENT);
        SDL_PumpEvents();
        SDL_Delay(20);
        SDL_DestroyWindow(p->window);
    }
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    memset(p, 0, sizeof *p);
}

/* ---- fullscreen, with or without a window manager ----------------------
 * Under the hood: SDL's desktop fullscreen on X11 asks the window manager
 * (_NET_WM_STATE_FULLSCREEN) and at once reports the display's size as the
 * window's, with size events of its own, whether or not anyone answers. On
 * a bare X server (no window manager, as in some lecture halls) nobody
 * does: the window keeps its size while SDL says otherwise, so the picture
 * is cropped, and leaving fullscreen leaves SDL's idea at the display's
 * size. So where no window manager runs, scanviz makes the window
 * borderless and as large as its display itself (a bare server obeys a
 * window's own move and resize), and puts it back the same way. */


/* Whether a window manager looks after w: always, but on X11 without an
 * EWMH manager announcing itself (_NET_SUPPORTING_WM_CHECK on the root
 * window). A manager without EWMH would not honour fullscreen either. */
static bool window_manager_present(SDL_Window *w)
{
#if SV_HAVE_X11
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(w, &info) || info.subsystem != SDL_SYSWM_X11)
        return true;
    Display *d = info.info.x11.display;
    Atom check = XInternAtom(d, "_NET_SUPPORTING_WM_CHECK", True);
    if (check == None)
        return false;
    Atom type;
    int format;
    unsigned long n = 0, after;
    unsigned char *data = NULL;
    bool present = XGetWindowProperty(d, DefaultRootWindow(d), check, 0, 1, False, XA_WINDOW,
                                      &type, &format, &n, &after, &data) == Success &&
                   data && n == 1 && format == 32;
    if (data)
        XFree(data);
    return present;
#else
    (void)w;
    return true;
#endif
}

bool sv_platform_is_fullscreen(const sv_platform *p)
{
    return p->fs != SV_FS_OFF;
}

bool sv_platform_fullscreen(sv_platform *p, bool on)
{
    if (!p->window || on == sv_platform_is_fullscreen(p))
        return true;
    if (on) {
        SDL_GetWindowPosition(p->window, &p->windowed.x, &p->windowed.y);
        p->windowed.w = p->win_w;
        p->windowed.h = p->win_h;
        if (window_manager_present(p->window)) {
            if (SDL_SetWindowFullscreen(p->window, SDL_WINDOW_FULLSCREEN_DESKTOP) != 0)
                return false;
            p->fs = SV_FS_WM;
            return true;
        }
        /* Nobody to ask: the display's size, without borders, by ourselves. */
        int d = SDL_GetWindowDisplayIndex(p->window);
        SDL_Rect r;
        if (d < 0 || SDL_GetDisplayBounds(d, &r) != 0)
            return false;
        SDL_SetWindowBordered(p->window, SDL_FALSE);
        SDL_SetWindowResizable(p->window, SDL_FALSE);
        SDL_SetWindowPosition(p->window, r.x, r.y);
        SDL_SetWindowSize(p->window, r.w, r.h);
        p->win_w = r.w;
        p->win_h = r.h;
        p->fs = SV_FS_BORDERLESS;
        return true;
    }
    if (p->fs == SV_FS_BORDERLESS) {
        /* Back where it was, by ourselves, as it went. */
        SDL_SetWindowBordered(p->window, SDL_TRUE);
        SDL_SetWindowResizable(p->window, SDL_TRUE);
        SDL_SetWindowSize(p->window, p->windowed.w, p->windowed.h);
        SDL_SetWindowPosition(p->window, p->windowed.x, p->windowed.y);
    } else if (SDL_SetWindowFullscreen(p->window, 0) != 0) {
        return false; /* the window manager puts it back; size events follow */
    }
    p->win_w = p->windowed.w;
    p->win_h = p->windowed.h;
    p->fs = SV_FS_OFF;
    return true;
}

void sv_platform_event(sv_platform *p, const SDL_Event *e)
{
    if (e->type != SDL_WINDOWEVENT || !p->window ||
        e->window.windowID != SDL_GetWindowID(p->window))
        return;
    if ((e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED ||
         e->window.event == SDL_WINDOWEVENT_RESIZED) &&
        e->window.data1 > 0 && e->window.data2 > 0) {
        p->win_w = e->window.data1;
        p->win_h = e->window.data2;
    }
}

void sv_platform_size(const sv_platform *p, int *win_w, int *win_h, int *fb_w, int *fb_h)
{
    int sw = 0, sh = 0, dw = 0, dh = 0;
    SDL_GetWindowSize(p->window, &sw, &sh);
    SDL_GL_GetDrawableSize(p->window, &dw, &dh);
    int ww = p->win_w > 0 ? p->win_w : sw, wh = p->win_h > 0 ? p->win_h : sh;
    /* The drawable keeps SDL's pixels-per-point (high-DPI), at the real size. */
    double rx = sw > 0 ? (double)dw / sw : 1.0, ry = sh > 0 ? (double)dh / sh : 1.0;
    *win_w = ww;
    *win_h = wh;
    *fb_w = (int)(ww * rx + 0.5);
    *fb_h = (int)(wh * ry + 0.5);
}
