/* Headless export: the frame the window would show, drawn into an offscreen
 * target, read back and written as PNG; and every step of a trace, settled,
 * as DIR/round-00.png, round-01.png, ... */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "export.h"
#include "kpane.h"
#include "png_stream.h"
#include "../core/fileio.h"
#include "render.h"

int sv_export_steps(const sv_app_view *v)
{
    if (v->compare) { /* both panes stepping together: the longer one's steps */
        int a = sv_view_steps(v->trace), b = sv_kpane_steps(v->cmp_ktrace);
        return a > b ? a : b;
    }
    return v->ktrace ? sv_kpane_steps(v->ktrace) : sv_view_steps(v->trace);
}

void sv_export_at(sv_app_view *c, int k)
{
    c->step = c->from_step = k;
    c->kstep = k; /* a kernel file: its pane's step */
    c->cmp_step[0] = c->cmp_step[1] = k; /* the compare view's panes (drawn clamped) */
}

void sv_frame_out_close(sv_frame_out *o)
{
    free(o->rgba);
    sv_gfx_target_destroy(o->target);
}

bool sv_frame_out_open(sv_gfx *g, sv_frame_out *o, int w, int h, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (w < 1 || h < 1 || w > 16384 || h > 16384) {
        snprintf(err, errlen, "export size %dx%d: must be 1x1 to 16384x16384", w, h);
        return false;
    }
    o->w = w;
    o->h = h;
    o->target = sv_gfx_target_create(g, w, h, err, errlen);
    if (!o->target)
        return false;
    o->rgba = malloc((size_t)w * (size_t)h * 4);
    if (!o->rgba) {
        snprintf(err, errlen, "export: out of memory for a %dx%d image", w, h);
        sv_frame_out_close(o);
        return false;
    }
    return true;
}

void sv_frame_out_render(sv_gfx *g, sv_frame_out *o, const sv_app_view *v)
{
    sv_gfx_target_bind(o->target);
    sv_render_frame(g, v, o->w, o->h);
    sv_gfx_read_pixels(g, o->w, o->h, o->rgba);
    sv_gfx_target_bind(NULL);
}

bool sv_export_view(const sv_app_view *v, int w, int h, const char *what, int max,
                    sv_app_view *c, char *err, size_t errlen)
{
    if (!v->trace) {
        snprintf(err, errlen, "export: no trace to render");
        return false;
    }
    if (what && (w < 16 || h < 16 || w > max || h > max)) {
        snprintf(err, errlen, "%s size %dx%d: must be 16x16 to %dx%d", what, w, h, max, max);
        return false;
    }
    *c = *v;
    c->anim = 1.0f;
    c->playing = false;
    c->fb_w = w;
    c->fb_h = h;
    return true;
}

/* Draws v and writes it as PNG to the stream of f (begun by the caller). */
static bool frame_out_draw(sv_gfx *g, sv_frame_out *o, const sv_app_view *v, sv_file *f,
                           char *err, size_t errlen)
{
    sv_frame_out_render(g, o, v);
    return sv_png_write_stream(sv_file_stream(f), sv_file_name(f), o->rgba, o->w, o->h, err,
                               errlen);
}

/* All or nothing: path is replaced only when the whole PNG is on disk. */
static bool frame_out_write(sv_gfx *g, sv_frame_out *o, const sv_app_view *v, const char *path,
                            char *err, size_t errlen)
{
    sv_file *f = sv_file_begin(path, err, errlen);
    if (!f)
        return false;
    if (!frame_out_draw(g, o, v, f, err, errlen)) {
        sv_file_abort(f);
        return false;
    }
    return sv_file_commit(f, err, errlen);
}

bool sv_export_frame(sv_gfx *g, const sv_app_view *v, int w, int h,
                     const char *path, char *err, size_t errlen)
{
    sv_frame_out o;
    if (!sv_frame_out_open(g, &o, w, h, err, errlen))
        return false;
    bool ok = frame_out_write(g, &o, v, path, err, errlen);
    sv_frame_out_close(&o);
    return ok;
}

/* mkdir -p: creates dir and its missing parents. */
bool sv_export_make_dirs(const char *dir, char *err, size_t errlen)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
        snprintf(err, errlen, "export directory name too long: %.64s...", dir);
        return false;
    }
    size_t len = strlen(path);
    for (size_t i = 1; i <= len; i++) {
        if (path[i] != '/' && path[i] != '\0')
            continue;
        char c = path[i];
        path[i] = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "cannot create directory %s: %s", path, strerror(errno));
            return false;
        }
        path[i] = c;
    }
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s is not a directory", dir);
        return false;
    }
    return true;
}

bool sv_export_rounds(sv_gfx *g, const sv_app_view *v, const char *dir, int w, int h,
                      int *count, char *err, size_t errlen)
{
    if (count)
        *count = 0;
    sv_app_view c; /* moved step by step */
    if (!sv_export_view(v, w, h, NULL, 0, &c, err, errlen) ||
        !sv_export_make_dirs(dir, err, errlen))
        return false;
    /* one target and one pixel buffer for every round */
    sv_frame_out o;
    if (!sv_frame_out_open(g, &o, w, h, err, errlen))
        return false;
    /* Every image goes to its temporary file first (round-NN.png.tmp-*);
     * only when all are written and synced do they replace the old ones, so
     * a full disk leaves an earlier export whole. Should a rename fail part
     * way (it does not on one file system short of the disk dying), the
     * message says exactly which images were replaced. */
    int steps = sv_export_steps(&c);
    sv_file **files = calloc((size_t)(steps > 0 ? steps : 1), sizeof *files);
    bool ok = files != NULL;
    if (!ok)
        snprintf(err, errlen, "export: out of memory");
    for (int k = 0; k < steps && ok; k++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/round-%02d.png", dir, k);
        sv_export_at(&c, k);
        ok = (files[k] = sv_file_begin(path, err, errlen)) != NULL &&
             frame_out_draw(g, &o, &c, files[k], err, errlen) &&
             sv_file_finish(files[k], err, errlen);
    }
    if (ok) {
        for (int k = 0; k < steps; k++) {
            char why[512];
            sv_file *f = files[k];
            files[k] = NULL;
            if (!sv_file_publish(f, why, sizeof why)) {
                if (k > 0)
                    snprintf(err, errlen, "%s (round-00.png .. round-%02d.png were replaced; "
                             "round-%02d.png .. round-%02d.png were not)", why, k - 1, k, steps - 1);
                else
                    snprintf(err, errlen, "%s (no image was replaced)", why);
                ok = false;
                for (int j = k + 1; j < steps; j++) {
                    sv_file_abort(files[j]);
                    files[j] = NULL;
                }
                break;
            }
            if (count)
                *count = k + 1;
        }
    } else if (files) {
        char why[512];
        snprintf(why, sizeof why, "%s", err);
        snprintf(err, errlen, "%s (no image was replaced)", why);
    }
    if (files)
        for (int k = 0; k < steps; k++)
            sv_file_abort(files[k]);
    free(files);
    sv_frame_out_close(&o);
    return ok;
}
