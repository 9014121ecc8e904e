/* The second back end and the animation writer, headless: shapes drawn
 * through sv_gfx with a recorder attached come back as primitives, in order,
 * and as SVG (rounded rects with inset strokes, dash and dot patterns,
 * arrows as paths, text escaped, clips); the GIF writer's file is read back
 * with giflib (frames, delays, loop, transparency, colours). */
/* dl_iterate_phdr and RTLD_NODELETE (see render_util.h) */
#define _GNU_SOURCE
#include "view_test.h"

#include "gif.h"
#include "svg.h"

#include <gif_lib.h>
#include <sys/stat.h>

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Tags balance: every <g ...> and <clipPath> closes, no raw control bytes. */
static void check_wellformed(const char *doc)
{
    CHECK_MSG(strncmp(doc, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44) == 0,
          "SVG does not start with the XML declaration and <svg");
    CHECK_MSG(count(doc, "<g") == count(doc, "</g>"), "<g> %d vs </g> %d", count(doc, "<g"),
          count(doc, "</g>"));
    CHECK_MSG(count(doc, "<clipPath") == count(doc, "</clipPath>"), "clipPath unbalanced");
    CHECK_MSG(count(doc, "<text") == count(doc, "</text>"), "text unbalanced");
    CHECK_MSG(count(doc, "</svg>") == 1, "not one </svg>");
    for (const unsigned char *p = (const unsigned char *)doc; *p; p++)
        CHECK_MSG(*p >= 0x20 || *p == '\n', "control byte 0x%02x in the SVG", *p);
}

static void test_svg(void)
{
    sv_gfx_rec *rec = sv_gfx_rec_create();
    CHECK_MSG(rec != NULL, "no recorder");
    sv_gfx_record(g, rec);
    sv_gfx_begin(g, 400, 300, sv_rgb_hex(0x15181D));
    /* the three case borders side by side: solid, dashed, dotted */
    static const uint32_t border_hex[3] = {0x0072B2, 0xE69F00, 0x999999};
    static const sv_border borders[3] = {SV_BORDER_SOLID, SV_BORDER_DASHED, SV_BORDER_DOTTED};
    for (int k = 0; k < 3; k++)
        sv_gfx_rect(g, (sv_box){10 + 70.0f * k, 10, 60, 40}, 6, sv_rgb_hex(0x262C35),
                    sv_rgb_hex(border_hex[k]), 4, borders[k]);
    sv_gfx_line(g, 10, 80, 200, 80, 0.5f, sv_rgb_hex(0xFFFFFF));
    sv_gfx_arrow(g, 40, 100, 40, 160, 3, 12, sv_rgba_alpha(sv_rgb_hex(0xC9CFD8), 0.5f));
    sv_box clip = {0, 170, 200, 100};
    sv_gfx_clip(g, &clip);
    float adv = sv_gfx_text(g, SV_FONT_MONO, 20, 100, 200, SV_ALIGN_CENTER, sv_rgb_hex(0xF3F4F6),
                            "a<b & \"c\" \x1b[31m\xff ok");
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 16, 300, 250, SV_ALIGN_RIGHT, sv_rgb_hex(0xECEEF1),
                "Round 2 \u00b7 stride 2");
    sv_gfx_clip(g, NULL);
    sv_gfx_circle(g, 300, 100, 10, sv_rgb_hex(0xF0E442), sv_rgb_hex(0), 0);
    sv_gfx_end(g);
    sv_gfx_record(g, NULL);

    /* The record: every call once, in order; the arrow's shaft is not a line of its own. */
    sv_prim_kind want[] = {SV_PRIM_RECT, SV_PRIM_RECT, SV_PRIM_RECT, SV_PRIM_LINE,
                           SV_PRIM_ARROW, SV_PRIM_CLIP, SV_PRIM_TEXT, SV_PRIM_TEXT,
                           SV_PRIM_CLIP, SV_PRIM_RECT};
    size_t nwant = sizeof want / sizeof want[0];
    CHECK_MSG(sv_gfx_rec_count(rec) == nwant, "%zu primitives recorded, want %zu",
          sv_gfx_rec_count(rec), nwant);
    for (size_t i = 0; i < nwant && i < sv_gfx_rec_count(rec); i++)
        CHECK_MSG(sv_gfx_rec_prim(rec, i)->kind == want[i], "primitive %zu is kind %d, want %d", i,
              (int)sv_gfx_rec_prim(rec, i)->kind, (int)want[i]);
    const sv_prim *tp = sv_gfx_rec_prim(rec, 6);
    if (tp && tp->kind == SV_PRIM_TEXT) {
        CHECK_MSG(tp->advance == adv, "recorded advance %g, drawn %g", (double)tp->advance,
              (double)adv);
        CHECK_MSG(tp->px == 20.0f && tp->font == SV_FONT_MONO && tp->align == SV_ALIGN_CENTER,
              "text size/font/align not kept");
        CHECK_MSG(tp->y0 > 200.0f && tp->y0 < 210.0f, "baseline %g: not below the centre line",
              (double)tp->y0);
    }
    int w, h;
    CHECK_MSG(sv_gfx_rec_frame(rec, &w, &h, NULL) && w == 400 && h == 300, "frame %dx%d", w, h);

    size_t len = 0;
    char *doc = sv_svg_render(rec, "test & title", &len);
    CHECK_MSG(doc && strlen(doc) == len, "no SVG document");
    if (doc) {
        check_wellformed(doc);
        CHECK_MSG(strstr(doc, "width=\"400\" height=\"300\" viewBox=\"0 0 400 300\"") != NULL,
              "size");
        CHECK_MSG(strstr(doc, "<title>test &amp; title</title>") != NULL, "title not escaped");
        /* The solid border: a stroke of 4 on the outline inset by 2. */
        CHECK_MSG(strstr(doc, "<rect x=\"12\" y=\"12\" width=\"56\" height=\"36\" rx=\"4\" "
                          "fill=\"#262c35\" stroke=\"#0072b2\" stroke-width=\"4\"/>") != NULL,
              "solid cell rect not as expected");
        CHECK_MSG(count(doc, "class=\"dashed\"") == 1 && count(doc, "class=\"dotted\"") == 1,
              "dashed %d, dotted %d", count(doc, "class=\"dashed\""),
              count(doc, "class=\"dotted\""));
        CHECK_MSG(count(doc, "stroke-dasharray") == 2, "dasharrays: %d",
              count(doc, "stroke-dasharray"));
        CHECK_MSG(strstr(doc, "stroke-dasharray=\"0 ") != NULL && strstr(doc, "stroke-linecap=\"round\"")
              != NULL, "dots are not round zero-length dashes");
        CHECK_MSG(count(doc, "<g class=\"arrow\">") == 1, "arrow group");
        CHECK_MSG(strstr(doc, "stroke-opacity=\"0.5\"") != NULL, "hairline opacity 0.5 missing");
        CHECK_MSG(strstr(doc, "a&lt;b &amp; &quot;c&quot; [31m\xEF\xBF\xBD ok</text>") != NULL,
              "text not escaped as expected");
        CHECK_MSG(strstr(doc, "font-family=\"'DejaVu Sans Mono'") != NULL, "mono family");
        CHECK_MSG(strstr(doc, "font-weight=\"bold\" text-anchor=\"end\"") != NULL, "bold, end anchor");
        CHECK_MSG(strstr(doc, "Round 2 \u00b7 stride 2</text>") != NULL, "UTF-8 text kept");
        CHECK_MSG(count(doc, "clip-path=\"url(#clip1)\"") == 1, "clip group");
        CHECK_MSG(strstr(doc, "rx=\"10\" fill=\"#f0e442\"") != NULL, "circle as a rounded rect");
        char path[600];
        snprintf(path, sizeof path, "%s/vector-shapes.svg", out_dir);
        char err[256];
        CHECK_MSG(sv_svg_write(rec, "test & title", path, err, sizeof err), "write: %s", err);
        struct stat st;
        CHECK_MSG(stat(path, &st) == 0 && (size_t)st.st_size == len, "written file");
        /* A folder that does not exist: an error naming the path, nothing left. */
        snprintf(path, sizeof path, "%s/no-such-dir/x.svg", out_dir);
        CHECK_MSG(!sv_svg_write(rec, NULL, path, err, sizeof err) && strstr(err, "no-such-dir"),
              "writing into a missing folder: %s", err);
    }
    free(doc);
    sv_gfx_rec_destroy(rec);
    sv_gfx_rec_destroy(NULL);
}

/* ---- GIF ---------------------------------------------------------------- */

static void fill(uint8_t *rgba, int w, int h, uint32_t bg, int sx, int sy, int sw, uint32_t fg)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint32_t c = (x >= sx && x < sx + sw && y >= sy && y < sy + sw) ? fg : bg;
            uint8_t *p = rgba + ((size_t)y * w + x) * 4;
            p[0] = (uint8_t)(c >> 16);
            p[1] = (uint8_t)(c >> 8);
            p[2] = (uint8_t)c;
            p[3] = 255;
        }
}

static void test_gif(void)
{
    enum { W = 64, H = 48 };
    const uint8_t pal[3][3] = {{0x15, 0x18, 0x1D}, {0x00, 0x72, 0xB2}, {0xE6, 0x9F, 0x00}};
    char err[256], path[600];
    snprintf(path, sizeof path, "%s/vector-anim.gif", out_dir);
    sv_gif *gf = sv_gif_create(W, H, pal, 3, err, sizeof err);
    CHECK_MSG(gf != NULL, "create: %s", err);
    if (!gf)
        return;
    static uint8_t rgba[W * H * 4];
    fill(rgba, W, H, 0x15181D, 4, 4, 8, 0x0072B2);
    CHECK_MSG(sv_gif_add(gf, rgba, 50, err, sizeof err), "frame 1: %s", err);
    CHECK_MSG(sv_gif_add(gf, rgba, 30, err, sizeof err), "same frame: %s", err);
    /* Near-palette colours map to the nearest entry. */
    fill(rgba, W, H, 0x16191E, 20, 10, 8, 0xE0A010);
    CHECK_MSG(sv_gif_add(gf, rgba, 1, err, sizeof err), "frame 2: %s", err);
    CHECK_MSG(sv_gif_frames(gf) == 2, "%d frames stored, want 2 (a repeat is merged)",
          sv_gif_frames(gf));
    size_t bytes = 0;
    CHECK_MSG(sv_gif_finish(gf, path, &bytes, err, sizeof err), "finish: %s", err);

    int code = 0;
    GifFileType *in = DGifOpenFileName(path, &code);
    CHECK_MSG(in != NULL, "giflib cannot open %s", path);
    if (!in)
        return;
    CHECK_MSG(DGifSlurp(in) == GIF_OK, "giflib cannot read %s", path);
    CHECK_MSG(in->SWidth == W && in->SHeight == H, "screen %dx%d", in->SWidth, in->SHeight);
    CHECK_MSG(in->ImageCount == 2, "%d images", in->ImageCount);
    bool loop = false;
    for (int i = 0; i < in->ImageCount; i++) {
        SavedImage *si = &in->SavedImages[i];
        for (int e = 0; e < si->ExtensionBlockCount; e++)
            if (si->ExtensionBlocks[e].Function == APPLICATION_EXT_FUNC_CODE &&
                si->ExtensionBlocks[e].ByteCount == 11 &&
                memcmp(si->ExtensionBlocks[e].Bytes, "NETSCAPE2.0", 11) == 0)
                loop = true;
    }
    CHECK_MSG(loop, "no NETSCAPE2.0 loop extension");
    GraphicsControlBlock g0, g1;
    CHECK_MSG(DGifSavedExtensionToGCB(in, 0, &g0) == GIF_OK && g0.DelayTime == 80,
          "frame 1 delay %d, want 50 + 30", g0.DelayTime);
    CHECK_MSG(DGifSavedExtensionToGCB(in, 1, &g1) == GIF_OK && g1.DelayTime == 2,
          "frame 2 delay %d, want the minimum 2", g1.DelayTime);
    CHECK_MSG(g1.TransparentColor == 0 && g1.DisposalMode == DISPOSE_DO_NOT,
          "frame 2 transparency %d disposal %d", g1.TransparentColor, g1.DisposalMode);
    /* Frame 2 holds only the changed box: the old square and the new one. */
    if (in->ImageCount == 2) {
        GifImageDesc *d = &in->SavedImages[1].ImageDesc;
        CHECK_MSG(d->Left == 4 && d->Top == 4 && d->Width == 24 && d->Height == 14,
              "frame 2 box %d,%d %dx%d, want 4,4 24x14", d->Left, d->Top, d->Width, d->Height);
        ColorMapObject *m = in->SColorMap;
        /* the new square's centre is orange, the old square's spot is background */
        int ix = (24 - 4) + 4 - 4, iy = 10 + 4 - 4; /* (24, 14) in frame coordinates */
        GifByteType c = in->SavedImages[1].RasterBits[iy * d->Width + ix];
        CHECK_MSG(m && c > 0 && m->Colors[c].Red == 0xE6 && m->Colors[c].Blue == 0x00,
              "new square index %d", c);
        GifByteType o = in->SavedImages[1].RasterBits[4 * d->Width + 4];
        CHECK_MSG(m && o > 0 && m->Colors[o].Red == 0x15, "old square not background: index %d", o);
    }
    DGifCloseFile(in, &code);
    struct stat st;
    CHECK_MSG(stat(path, &st) == 0 && (size_t)st.st_size == bytes, "file size %lld vs %zu",
          (long long)st.st_size, bytes);
    /* No frames: an error, no file. */
    gf = sv_gif_create(W, H, pal, 3, err, sizeof err);
    snprintf(path, sizeof path, "%s/vector-empty.gif", out_dir);
    remove(path);
    CHECK_MSG(gf && !sv_gif_finish(gf, path, NULL, err, sizeof err), "empty GIF accepted");
    CHECK_MSG(stat(path, &st) != 0, "an empty GIF was written");
    CHECK_MSG(sv_gif_create(W, H, pal, 0, err, sizeof err) == NULL, "empty palette accepted");
    sv_gif_destroy(NULL);
}

int main(int argc, char **argv)
{
    static const view_test_fn tests[] = {
        test_svg, test_gif, NULL,
    };
    return view_test_main(argc, argv, "test_vector", tests, "all vector and GIF checks passed");
}
