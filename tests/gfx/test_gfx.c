/* Pixel tests of the drawing layer (gfx.h), headless through SDL's offscreen
 * driver: fills, the three border styles told apart by their run lengths,
 * arrow heads, text within its measured width, clipping, the PNG round trip.
 * Also prints (does not assert) the time of a heavy 1920x1080 frame. */
#include "font_metrics.h"
#include "gfx.h"
#include "platform.h"

#include <epoxy/gl.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../expect.h"
#include "../timing.h"

#define W 400
#define H 300

static sv_gfx *g;
static uint8_t px[W * H * 4];
static const char *out_dir = ".";

static const uint8_t *at(int x, int y)
{
    return px + ((size_t)y * W + x) * 4;
}

/* 0 (white) .. 255 (black) */
static int dark(int x, int y)
{
    const uint8_t *p = at(x, y);
    return 255 - (p[0] + p[1] + p[2]) / 3;
}

static void frame_begin(void)
{
    sv_gfx_begin(g, W, H, sv_rgb_hex(0xffffff));
}

static void frame_end(const char *name)
{
    sv_gfx_end(g);
    sv_gfx_read_pixels(g, W, H, px);
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/gfx-%s.png", out_dir, name);
    if (!sv_png_write(path, px, W, H, err, sizeof err))
        fprintf(stderr, "note: %s\n", err);
}

static bool near(const uint8_t *p, uint32_t rgb, int tol)
{
    int r = (rgb >> 16) & 255, gg = (rgb >> 8) & 255, b = rgb & 255;
    return abs(p[0] - r) <= tol && abs(p[1] - gg) <= tol && abs(p[2] - b) <= tol;
}

static void test_fill(void)
{
    frame_begin();
    sv_gfx_rect(g, (sv_box){50, 40, 100, 60}, 10, sv_rgb_hex(0x0072B2), sv_rgb_hex(0), 0,
                SV_BORDER_NONE);
    /* half transparent black over the right part: straight alpha in, blended */
    sv_gfx_rect(g, (sv_box){200, 40, 100, 60}, 0, sv_rgba_alpha(sv_rgb_hex(0x000000), 0.5f),
                sv_rgb_hex(0), 0, SV_BORDER_NONE);
    frame_end("fill");
    const uint8_t *c = at(100, 70);
    CHECK_MSG(near(c, 0x0072B2, 1), "centre is %d,%d,%d, want 0,114,178", c[0], c[1], c[2]);
    CHECK_MSG(near(at(49, 70), 0xffffff, 0), "left of the rect is not background");
    CHECK_MSG(near(at(151, 70), 0xffffff, 0), "right of the rect is not background");
    CHECK_MSG(near(at(100, 39), 0xffffff, 0), "above the rect is not background");
    /* a rounded corner leaves the very corner pixel empty */
    CHECK_MSG(near(at(50, 40), 0xffffff, 8), "corner pixel is %d,%d,%d", at(50, 40)[0],
          at(50, 40)[1], at(50, 40)[2]);
    /* the antialiased edge lies within one pixel */
    CHECK_MSG(near(at(50, 70), 0x0072B2, 2), "first column inside is not the fill");
    CHECK_MSG(at(100, 70)[3] == 255, "alpha is %d", at(100, 70)[3]);
    const uint8_t *h = at(250, 70);
    CHECK_MSG(abs(h[0] - 128) <= 2 && abs(h[1] - 128) <= 2, "50%% black over white is %d,%d,%d",
          h[0], h[1], h[2]);
}

/* Runs of border-coloured pixels along row y from x0 to x1: fills on[] with
 * their lengths, returns their count. A run touching an end is not counted. */
static int runs(int y, int x0, int x1, int *on, int max_on, int *gaps, int *ngaps)
{
    int n = 0, ng = 0, len = 0, glen = 0;
    bool first = true, in = dark(x0, y) > 127;
    for (int x = x0; x <= x1; x++) {
        bool d = dark(x, y) > 127;
        if (d == in) {
            if (d)
                len++;
            else
                glen++;
            continue;
        }
        if (in && !first && n < max_on)
            on[n++] = len;
        if (!in && !first && ng < max_on)
            gaps[ng++] = glen;
        first = false;
        in = d;
        len = d ? 1 : 0;
        glen = d ? 0 : 1;
    }
    *ngaps = ng;
    return n;
}

static double mean(const int *v, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return n ? s / n : 0;
}

static void test_borders(void)
{
    const float bw = 4;
    frame_begin();
    static const sv_border styles[3] = {SV_BORDER_SOLID, SV_BORDER_DASHED, SV_BORDER_DOTTED};
    for (int i = 0; i < 3; i++)
        sv_gfx_rect(g, (sv_box){20, 20 + i * 90.0f, 340, 70}, 10, sv_rgb_hex(0xffffff),
                    sv_rgb_hex(0x000000), bw, styles[i]);
    frame_end("borders");
    int on[64], gaps[64], ng;
    for (int i = 0; i < 3; i++) {
        int y = 20 + i * 90 + (int)(bw / 2);
        int x0 = 20 + 10 + 4, x1 = 20 + 340 - 10 - 4; /* the straight top edge */
        int n = runs(y, x0, x1, on, 64, gaps, &ng);
        if (styles[i] == SV_BORDER_SOLID) {
            int dark_count = 0;
            for (int x = x0; x <= x1; x++)
                dark_count += dark(x, y) > 200;
            CHECK_MSG(dark_count == x1 - x0 + 1, "solid top edge has %d of %d dark pixels",
                  dark_count, x1 - x0 + 1);
            /* and continuous down the left side */
            int side = 0;
            for (int yy = 20 + 14; yy < 20 + 70 - 14; yy++)
                side += dark(20 + 2, yy) > 200;
            CHECK_MSG(side == 70 - 28, "solid left edge has %d of %d dark pixels", side, 70 - 28);
        } else if (styles[i] == SV_BORDER_DASHED) {
            double m = mean(on, n), mg = mean(gaps, ng);
            printf("dashed: %d dashes of mean %.1f px, gaps %.1f px (w = %.0f)\n", n, m, mg, bw);
            CHECK_MSG(n >= 10, "dashed top edge shows %d dashes", n);
            CHECK_MSG(m >= 2.5 * bw && m <= 3.5 * bw, "dash length %.1f, want ~3w = %.0f", m,
                  3 * bw);
            CHECK_MSG(mg >= 1.5 * bw && mg <= 2.5 * bw, "dash gap %.1f, want ~2w = %.0f", mg,
                  2 * bw);
            for (int k = 0; k < n; k++)
                CHECK_MSG(abs(on[k] - on[0]) <= 1, "dash %d is %d px, dash 0 is %d px", k, on[k],
                      on[0]);
        } else {
            double m = mean(on, n), mg = mean(gaps, ng);
            printf("dotted: %d dots of mean %.1f px, gaps %.1f px (w = %.0f)\n", n, m, mg, bw);
            CHECK_MSG(n >= 25, "dotted top edge shows %d dots", n);
            CHECK_MSG(m >= 0.5 * bw && m <= 1.25 * bw, "dot length %.1f, want ~w = %.0f", m, bw);
            CHECK_MSG(mg >= 0.75 * bw && mg <= 1.6 * bw, "dot gap %.1f, want ~w = %.0f", mg, bw);
            /* round dots: the dot's edge rows are narrower than its middle row */
            int xm = -1;
            for (int x = x0; x <= x1 && xm < 0; x++)
                if (dark(x, y) > 200 && dark(x + 1, y) > 200)
                    xm = x;
            CHECK_MSG(xm >= 0, "no dot found");
            if (xm >= 0) {
                int top_row = 0, mid_row = 0;
                for (int x = xm - 4; x <= xm + 5; x++) {
                    top_row += dark(x, 20 + i * 90);
                    mid_row += dark(x, y);
                }
                CHECK_MSG(top_row < mid_row * 0.85, "dots are not round: edge row %d, mid %d",
                      top_row, mid_row);
            }
        }
        /* inside the border: the fill */
        CHECK_MSG(near(at(190, 20 + i * 90 + 35), 0xffffff, 0), "style %d: the inside is not the fill",
              i);
    }
}

static void test_arrow(void)
{
    frame_begin();
    sv_gfx_arrow(g, 50, 150, 250, 150, 3, 20, sv_rgb_hex(0x000000));
    sv_gfx_line(g, 50, 250, 250, 200, 2, sv_rgb_hex(0xD55E00));
    frame_end("arrow");
    CHECK_MSG(dark(100, 150) > 240, "the shaft is not drawn");
    CHECK_MSG(dark(100, 145) < 5, "the shaft is too wide");
    CHECK_MSG(dark(246, 150) > 200, "no head near the tip");
    CHECK_MSG(dark(235, 145) > 200, "the head is not wider than the shaft at 15 px from the tip");
    CHECK_MSG(dark(235, 155) > 200, "the head is not symmetric");
    CHECK_MSG(dark(253, 150) < 5, "something drawn beyond the tip");
    CHECK_MSG(dark(232, 140) < 5, "the head is too wide");
    CHECK_MSG(dark(45, 150) < 5, "something drawn before the tail");
    /* the slanted line passes through its midpoint */
    CHECK_MSG(near(at(150, 225), 0xD55E00, 40), "slanted line's midpoint is %d,%d,%d",
          at(150, 225)[0], at(150, 225)[1], at(150, 225)[2]);
}

static void test_text(void)
{
    const char *s = "Hello 42 ≥ · ← ► ●";
    float px_size = 24;
    frame_begin();
    float w = sv_gfx_text_width(g, SV_FONT_SANS, px_size, s);
    float adv = sv_gfx_text(g, SV_FONT_SANS, px_size, 20, 60, SV_ALIGN_LEFT,
                            sv_rgb_hex(0x000000), s);
    float wc = sv_gfx_text_width(g, SV_FONT_MONO, 40, "1024");
    sv_gfx_text(g, SV_FONT_MONO, 40, 200, 150, SV_ALIGN_CENTER, sv_rgb_hex(0x000000), "1024");
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 60, 20, 240, SV_ALIGN_LEFT, sv_rgb_hex(0x000000), "●");
    sv_gfx_text(g, SV_FONT_SANS, 12, 380, 280, SV_ALIGN_RIGHT, sv_rgb_hex(0x000000),
                "small text, right aligned");
    frame_end("text");
    CHECK_MSG(fabsf(w - adv) < 0.01f, "text_width %.1f but text returned %.1f", w, adv);
    CHECK_MSG(w > 150 && w < 300, "width %.1f of \"%s\" at 24 px is implausible", w, s);
    int inside = 0, beyond = 0, before = 0, outside_rows = 0;
    for (int y = 0; y < 120; y++)
        for (int x = 0; x < W; x++) {
            int d = dark(x, y) > 64;
            if (!d)
                continue;
            if (x < 20 - 1)
                before++;
            else if (x > 20 + (int)w)
                beyond++;
            else
                inside++;
            if (y < 60 - 24 || y > 60 + 24)
                outside_rows++;
        }
    CHECK_MSG(inside > 300, "only %d text pixels inside the measured width", inside);
    CHECK_MSG(beyond == 0, "%d text pixels beyond the measured width %.0f", beyond, w);
    CHECK_MSG(before == 0, "%d text pixels left of x", before);
    CHECK_MSG(outside_rows == 0, "%d text pixels far from the centre line", outside_rows);
    /* the text's vertical centre is at y: cap height centred on 60 */
    int top = H, bot = -1;
    for (int y = 0; y < 120; y++)
        for (int x = 20; x < 40; x++) /* the "H" */
            if (dark(x, y) > 127) {
                if (y < top) top = y;
                if (y > bot) bot = y;
            }
    CHECK_MSG(abs((top + bot) - 2 * 60) <= 2, "H spans rows %d..%d, centre should be 60", top, bot);
    /* centred: "1024" spans [200 - wc/2, 200 + wc/2] */
    int l = W, r = -1;
    for (int y = 120; y < 180; y++)
        for (int x = 100; x < 300; x++)
            if (dark(x, y) > 64) {
                if (x < l) l = x;
                if (x > r) r = x;
            }
    CHECK_MSG(l >= (int)(200 - wc / 2) - 1 && r <= (int)(200 + wc / 2) + 1,
          "centred text spans %d..%d, measured %.0f..%.0f", l, r, 200 - wc / 2, 200 + wc / 2);
    CHECK_MSG(abs((l + r) - 400) <= 4, "centred text spans %d..%d", l, r);
    /* "●" (U+25CF) is a filled disc, not the hollow missing-glyph box */
    float wd = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, 60, "●");
    CHECK_MSG(dark(20 + (int)(wd / 2), 240) > 200, "U+25CF is not a filled disc at its centre");
    /* right aligned text ends at x = 380 */
    int rr = -1;
    for (int y = 265; y < H; y++)
        for (int x = 200; x < W; x++)
            if (dark(x, y) > 64 && x > rr)
                rr = x;
    CHECK_MSG(rr >= 375 && rr <= 380, "right-aligned text ends at %d, want 380", rr);
}

/* A string too long to cache whole is drawn word by word: each word lands
 * where the measuring layout puts it, kerning across the spaces included,
 * so the line is pixel for pixel its words drawn one at a time at the
 * widths of their prefixes; a word too long for a run (the last) goes glyph
 * by glyph. The advance is the measured width. */
static void test_long_text(void)
{
    static uint8_t whole[W * H * 4];
    const char *s = "AVAT Tony, LT: ≥ 42 Wa \"yo\"  ok ThisWordIsLongerThanThirtyTwoBytes";
    const float px_size = 13, x = 3.4f, y = 40;
    for (int pass = 0; pass < 2; pass++) {
        frame_begin();
        if (pass == 0) {
            float adv = sv_gfx_text(g, SV_FONT_SANS, px_size, x, y, SV_ALIGN_LEFT,
                                    sv_rgb_hex(0x000000), s);
            float w = sv_gfx_text_width(g, SV_FONT_SANS, px_size, s);
            CHECK_MSG(fabsf(adv - w) < 0.01f, "long text advanced %.1f, measured %.1f", adv, w);
        }
        for (size_t i = 0; pass == 1 && s[i];) {
            if (s[i] == ' ') {
                i++;
                continue;
            }
            size_t n = strcspn(s + i, " ");
            /* the pen at the word: the prefix up to its first character,
             * kerned with what comes before, less that character */
            unsigned char lead = (unsigned char)s[i];
            int clen = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
            char word[64], prefix[128], first[8];
            snprintf(word, sizeof word, "%.*s", (int)n, s + i);
            snprintf(prefix, sizeof prefix, "%.*s", (int)i + clen, s);
            snprintf(first, sizeof first, "%.*s", clen, s + i);
            float at_x = sv_gfx_text_width(g, SV_FONT_SANS, px_size, prefix) -
                         sv_gfx_text_width(g, SV_FONT_SANS, px_size, first);
            sv_gfx_text(g, SV_FONT_SANS, px_size, x + at_x, y, SV_ALIGN_LEFT,
                        sv_rgb_hex(0x000000), word);
            i += n;
        }
        frame_end(pass ? "long-text-words" : "long-text");
        if (pass == 0)
            memcpy(whole, px, sizeof px);
    }
    int differ = 0, ink = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i += 4) {
        differ += memcmp(whole + i, px + i, 3) != 0;
        ink += whole[i] < 128;
    }
    CHECK_MSG(ink > 200, "the long text drew only %d dark pixels", ink);
    CHECK_MSG(differ == 0, "%d pixels differ between the long text and its words drawn alone",
              differ);
}

/* A run (a string cached whole) is the picture of its glyphs blended one by
 * one, where they overlap too: bold "ff" drawn as a run matches the first
 * two f of a word too long for a run (drawn glyph by glyph), up to where
 * the third begins. */
static void test_run_overlap(void)
{
    const char *run = "ff", *glyphs = "ffffffffffffffffffffffffffffffffffff"; /* 36 bytes */
    const float px_size = 40;
    frame_begin();
    sv_gfx_text(g, SV_FONT_SANS_BOLD, px_size, 20, 60, SV_ALIGN_LEFT, sv_rgb_hex(0x000000), run);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, px_size, 20, 160, SV_ALIGN_LEFT, sv_rgb_hex(0x000000),
                glyphs);
    frame_end("run-overlap");
    int upto = 20 + (int)sv_gfx_text_width(g, SV_FONT_SANS_BOLD, px_size, "ff") - 2;
    int differ = 0, ink = 0;
    for (int y = 20; y < 100; y++)
        for (int x = 10; x < upto; x++) {
            differ += memcmp(at(x, y), at(x, y + 100), 3) != 0;
            ink += dark(x, y) > 64;
        }
    CHECK_MSG(ink > 100, "bold \"ff\" drew only %d dark pixels", ink);
    CHECK_MSG(differ == 0, "%d pixels of the run \"ff\" differ from the glyphs drawn one by one",
              differ);
}

/* Widths come from a cache keyed by font, size and bytes: the same string
 * in another font or size is measured anew, a long run of new strings
 * clears the cache and the widths stay the same. */
static void test_measure_cache(void)
{
    float mono = sv_gfx_text_width(g, SV_FONT_MONO, 20, "1024");
    float sans = sv_gfx_text_width(g, SV_FONT_SANS, 20, "1024");
    float mono40 = sv_gfx_text_width(g, SV_FONT_MONO, 40, "1024");
    float one = sv_gfx_text_width(g, SV_FONT_MONO, 20, "1");
    CHECK_MSG(mono == 4 * one, "mono \"1024\" is %.0f px, four \"1\" are %.0f", mono, 4 * one);
    CHECK_MSG(sans != mono, "\"1024\" measures %.0f px in both sans and mono", sans);
    CHECK_MSG(fabsf(mono40 - 2 * mono) <= 4, "\"1024\" at 40 px is %.0f px, at 20 px %.0f",
              mono40, mono);
    int changed = 0;
    char buf[32];
    for (int i = 0; i < 5000; i++) { /* more than the cache holds */
        snprintf(buf, sizeof buf, "w%d", i);
        float a = sv_gfx_text_width(g, SV_FONT_SANS, 11, buf);
        changed += sv_gfx_text_width(g, SV_FONT_SANS, 11, buf) != a;
    }
    CHECK_MSG(changed == 0, "%d widths changed when measured again", changed);
    CHECK_MSG(sv_gfx_text_width(g, SV_FONT_MONO, 20, "1024") == mono &&
                  sv_gfx_text_width(g, SV_FONT_SANS, 20, "1024") == sans,
              "widths changed after the cache was cleared");
}

/* font_metrics.h's numbers are the embedded fonts' own: the layout sizes
 * boxes from them before it measures any text. */
static void test_font_metrics(void)
{
    const char *digits = "0123456789-.e+?";
    float w = sv_gfx_text_width(g, SV_FONT_MONO, 100.0f, digits);
    float want = sv_mono_width(100.0f, (float)strlen(digits));
    CHECK_MSG(fabsf(w - want) <= 0.01f * want, "mono: %zu glyphs at 100 px are %.1f px, "
              "SV_MONO_ADVANCE says %.1f", strlen(digits), w, want);
    float b = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, 100.0f, "buf[0]") / 100.0f;
    CHECK_MSG(fabsf(b - SV_EM_BUF0_BOLD) <= 0.03f * SV_EM_BUF0_BOLD,
              "\"buf[0]\" in bold is %.3f em, SV_EM_BUF0_BOLD says %.3f", b, SV_EM_BUF0_BOLD);
    float m = sv_gfx_text_width(g, SV_FONT_SANS, 100.0f, "global memory") / 100.0f;
    CHECK_MSG(fabsf(m - SV_EM_GLOBAL_MEMORY) <= 0.03f * SV_EM_GLOBAL_MEMORY,
              "\"global memory\" is %.3f em, SV_EM_GLOBAL_MEMORY says %.3f", m,
              SV_EM_GLOBAL_MEMORY);
    float p = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, 100.0f, "pout") / 100.0f;
    CHECK_MSG(fabsf(p - SV_EM_POUT_BOLD) <= 0.03f * SV_EM_POUT_BOLD,
              "\"pout\" in bold is %.3f em, SV_EM_POUT_BOLD says %.3f", p, SV_EM_POUT_BOLD);
    float pp = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, 100.0f, "pin=pout") / 100.0f;
    CHECK_MSG(fabsf(pp - SV_EM_PIN_POUT_BOLD) <= 0.03f * SV_EM_PIN_POUT_BOLD,
              "\"pin=pout\" in bold is %.3f em, SV_EM_PIN_POUT_BOLD says %.3f", pp,
              SV_EM_PIN_POUT_BOLD);
}

static void test_clip(void)
{
    frame_begin();
    sv_gfx_clip(g, &(sv_box){100, 100, 50, 50});
    sv_gfx_rect(g, (sv_box){50, 50, 200, 200}, 0, sv_rgb_hex(0x009E73), sv_rgb_hex(0), 0,
                SV_BORDER_NONE);
    sv_gfx_clip(g, NULL);
    sv_gfx_rect(g, (sv_box){300, 50, 20, 20}, 0, sv_rgb_hex(0x009E73), sv_rgb_hex(0), 0,
                SV_BORDER_NONE);
    frame_end("clip");
    CHECK_MSG(near(at(125, 125), 0x009E73, 1), "inside the clip is not drawn");
    CHECK_MSG(near(at(99, 125), 0xffffff, 0), "left of the clip is drawn");
    CHECK_MSG(near(at(125, 150), 0xffffff, 0), "below the clip is drawn");
    CHECK_MSG(near(at(149, 149), 0x009E73, 1), "the clip's last pixel is not drawn");
    CHECK_MSG(near(at(310, 60), 0x009E73, 1), "clip(NULL) did not lift the clip");
}

/* The batch draws shapes, patterned borders and glyphs with three shaders
 * but must keep the caller's order where they overlap. */
static void test_order(void)
{
    frame_begin();
    /* text, then an opaque box over it: no text may show */
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 40, 20, 40, SV_ALIGN_LEFT, sv_rgb_hex(0x000000), "XXXX");
    sv_gfx_rect(g, (sv_box){10, 10, 150, 60}, 0, sv_rgb_hex(0x0072B2), sv_rgb_hex(0), 0,
                SV_BORDER_NONE);
    /* a dashed box, then a plain one over it */
    sv_gfx_rect(g, (sv_box){200, 10, 150, 60}, 0, sv_rgb_hex(0xffffff), sv_rgb_hex(0x000000), 6,
                SV_BORDER_DASHED);
    sv_gfx_rect(g, (sv_box){190, 0, 170, 80}, 0, sv_rgb_hex(0xE69F00), sv_rgb_hex(0), 0,
                SV_BORDER_NONE);
    /* a plain box, then a dotted one, then text, then a line over all */
    sv_gfx_rect(g, (sv_box){10, 100, 150, 60}, 0, sv_rgb_hex(0x999999), sv_rgb_hex(0), 0,
                SV_BORDER_NONE);
    sv_gfx_rect(g, (sv_box){10, 100, 150, 60}, 0, sv_rgba_alpha(sv_rgb_hex(0), 0),
                sv_rgb_hex(0x000000), 6, SV_BORDER_DOTTED);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 40, 85, 130, SV_ALIGN_CENTER, sv_rgb_hex(0xffffff), "88");
    sv_gfx_line(g, 0, 130, 170, 130, 4, sv_rgb_hex(0xD55E00));
    /* interleaved per cell, as the scene draws: cell, number, cell, number */
    for (int i = 0; i < 8; i++) {
        sv_gfx_rect(g, (sv_box){10 + i * 40.0f, 200, 36, 36}, 4, sv_rgb_hex(0x0072B2),
                    sv_rgb_hex(0xffffff), 2, (sv_border)(1 + i % 3));
        sv_gfx_text(g, SV_FONT_MONO, 18, 28 + i * 40.0f, 218, SV_ALIGN_CENTER,
                    sv_rgb_hex(0xffffff), "7");
    }
    frame_end("order");
    sv_gfx_stats st = sv_gfx_get_stats(g);
    int dark_in_box = 0;
    for (int y = 12; y < 68; y++)
        for (int x = 12; x < 158; x++)
            dark_in_box += !near(at(x, y), 0x0072B2, 2);
    CHECK_MSG(dark_in_box == 0, "%d pixels of text show through a box drawn over it", dark_in_box);
    int border_shows = 0;
    for (int y = 2; y < 78; y++)
        for (int x = 192; x < 358; x++)
            border_shows += !near(at(x, y), 0xE69F00, 2);
    CHECK_MSG(border_shows == 0, "%d pixels of a dashed box show through a box drawn over it",
          border_shows);
    CHECK_MSG(near(at(30, 130), 0xD55E00, 2), "the line is not over the dotted box");
    CHECK_MSG(near(at(85, 130), 0xD55E00, 2), "the line is not over the text");
    int white = 0;
    for (int y = 110; y < 150; y++)
        for (int x = 60; x < 110; x++)
            white += near(at(x, y), 0xffffff, 60);
    CHECK_MSG(white > 100, "the text is not over the plain box (%d white pixels)", white);
    CHECK_MSG(dark(12, 102) > 100, "the dotted border is not over the plain box");
    for (int i = 0; i < 8; i++) {
        int w7 = 0;
        for (int y = 205; y < 232; y++)
            for (int x = 18 + i * 40; x < 38 + i * 40; x++)
                w7 += near(at(x, y), 0xffffff, 60);
        CHECK_MSG(w7 > 20, "cell %d: its number is hidden (%d white pixels)", i, w7);
    }
    printf("order: %d draw calls, %d flushes for %d quads\n", st.draw_calls, st.flushes,
           st.quads);
    CHECK_MSG(st.flushes <= 4, "%d flushes: cells and their numbers should share one", st.flushes);
}

/* A large opaque box is drawn as its inside, flat, and strips of the
 * distance shader (gfx.c's push_flat_box: four corners, and four straight
 * edges only as thick as the border and a pixel): its pixels must be those
 * of the whole box. A small box (drawn whole) and a large one at the same
 * fractional origin have the same corner, the same left side and the same
 * top edge; the large one's inside is exactly its fill; the split shows in
 * the quad count (8 strips and an inside of 3). */
static void test_flat_box(void)
{
    static uint8_t small[W * H * 4];
    const sv_rgba fill = sv_rgb_hex(0x0072B2), edge = sv_rgb_hex(0x202020);
    frame_begin();
    sv_gfx_rect(g, (sv_box){10.3f, 10.6f, 20, 24}, 4, fill, edge, 2, SV_BORDER_SOLID);
    frame_end("flat-small");
    int small_quads = sv_gfx_get_stats(g).quads;
    memcpy(small, px, sizeof px);
    frame_begin();
    sv_gfx_rect(g, (sv_box){10.3f, 10.6f, 300, 200}, 4, fill, edge, 2, SV_BORDER_SOLID);
    frame_end("flat-large");
    int large_quads = sv_gfx_get_stats(g).quads;
    CHECK_MSG(small_quads == 1 && large_quads == 11,
              "%d and %d quads: the large box is not its inside and its strips",
              small_quads, large_quads);
    int off = 0, worst = 0;
    for (int y = 8; y < 29; y++) /* the small box's lower corner starts at 30.6 */
        for (int x = 8; x < 20; x++) /* the corner, then the left side */
            for (int c = 0; c < 3; c++) {
                int d = abs(small[((size_t)y * W + x) * 4 + c] - at(x, y)[c]);
                off += d > 1;
                worst = d > worst ? d : worst;
            }
    CHECK_MSG(off == 0, "%d channels of the large box's corner and side differ from the "
              "whole box's (by up to %d)", off, worst);
    off = worst = 0;
    for (int y = 8; y < 20; y++) /* the top edge, past the corners: x = 20 and x = 150 */
        for (int c = 0; c < 3; c++) {
            int d = abs(small[((size_t)y * W + 20) * 4 + c] - at(150, y)[c]);
            off += d > 1;
            worst = d > worst ? d : worst;
        }
    CHECK_MSG(off == 0, "%d channels of the large box's top edge differ from the whole box's "
              "(by up to %d)", off, worst);
    int inside = 0;
    for (int y = 20; y < 200; y += 7)
        for (int x = 20; x < 300; x += 7)
            inside += !near(at(x, y), 0x0072B2, 0);
    CHECK_MSG(inside == 0, "%d pixels inside the large box are not its fill", inside);
}

/* The pixels of [x0, x1) x [y0, y1) whose colour is more than tol off the
 * colour of (cx, cy) in a channel. */
static int off_from(int x0, int y0, int x1, int y1, int cx, int cy, int tol)
{
    const uint8_t *ref = at(cx, cy);
    int off = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            for (int c = 0; c < 3; c++)
                if (abs(at(x, y)[c] - ref[c]) > tol) {
                    off++;
                    break;
                }
    return off;
}

/* Large translucent and unfilled boxes, solid and dashed, are drawn as
 * strips along their edges and an inside of the flat shader, blended (or
 * none): the inside is one colour up to the border, with no seam blended
 * twice, the outline's inside is the background, and the solid one's
 * corner and side are those of a small box drawn whole at the same
 * fractional origin. */
static void test_tint_box(void)
{
    static uint8_t small[W * H * 4];
    const sv_rgba fill = sv_rgba_alpha(sv_rgb_hex(0xD55E00), 0.4f);
    const sv_rgba edge = sv_rgb_hex(0x202020), none = {0, 0, 0, 0};
    const sv_border styles[2] = {SV_BORDER_SOLID, SV_BORDER_DASHED};
    for (int k = 0; k < 2; k++) {
        frame_begin();
        sv_gfx_rect(g, (sv_box){10.3f, 10.6f, 20, 24}, 4, fill, edge, 2, styles[k]);
        frame_end(k ? "tint-small-dashed" : "tint-small");
        memcpy(small, px, sizeof px);
        frame_begin();
        sv_gfx_rect(g, (sv_box){10.3f, 10.6f, 240, 200}, 4, fill, edge, 2, styles[k]);
        sv_gfx_rect(g, (sv_box){270.2f, 10.6f, 110, 200}, 4, none, edge, 2, styles[k]);
        frame_end(k ? "tint-large-dashed" : "tint-large");
        int quads = sv_gfx_get_stats(g).quads;
        CHECK_MSG(quads == 19, "%s: %d quads: the boxes are not strips and an inside",
                  k ? "dashed" : "solid", quads);
        int off = 0, worst = 0;
        for (int y = 8; y < 29 && k == 0; y++) /* a dash's period follows the size */
            for (int x = 8; x < 20; x++)
                for (int c = 0; c < 3; c++) {
                    int d = abs(small[((size_t)y * W + x) * 4 + c] - at(x, y)[c]);
                    off += d > 1;
                    worst = d > worst ? d : worst;
                }
        CHECK_MSG(off == 0, "%s: %d channels of the large tinted box's corner and side differ "
                  "from the whole box's (by up to %d)", k ? "dashed" : "solid", off, worst);
        /* the border is 2 px inside 10.3 .. 250.3 x 10.6 .. 210.6 */
        CHECK_MSG(!near(at(130, 110), 0xffffff, 8) && !near(at(130, 110), 0xD55E00, 8),
                  "the tinted box's inside is not a blend of its fill over the background");
        /* One level of difference is the blend's rounding: llvmpipe blends
         * the flat inside on its 8-bit path, the strips in floats. A pixel
         * blended twice is 40 % further on to the fill, tens of levels. */
        int seams = off_from(14, 15, 247, 207, 130, 110, 1);
        CHECK_MSG(seams == 0, "%s: %d pixels inside the tinted box differ from its middle "
                  "(a seam blended twice, or none)", k ? "dashed" : "solid", seams);
        int shows = off_from(274, 15, 377, 207, 320, 110, 0);
        CHECK_MSG(shows == 0 && near(at(320, 110), 0xffffff, 0),
                  "%s: %d pixels inside the outline are not the background", k ? "dashed" : "solid",
                  shows);
    }
}

/* Many sizes and strings in one frame overflow the atlas: it is cleared and
 * refilled mid-frame, and what was drawn before still shows. */
static void test_atlas_overflow(void)
{
    frame_begin();
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 48, 20, 40, SV_ALIGN_LEFT, sv_rgb_hex(0x000000), "first");
    char buf[64];
    sv_gfx_clip(g, &(sv_box){0, 100, W, 100}); /* the stress stays in this band */
    for (int px_size = 20; px_size < 160; px_size += 1) {
        snprintf(buf, sizeof buf, "ABCDEFGHIJKLMNOPQRSTUVWXYZ %d", px_size);
        sv_gfx_text(g, SV_FONT_SANS, (float)px_size, 0, 150, SV_ALIGN_LEFT,
                    sv_rgb_hex(0x000000), buf);
    }
    for (int i = 0; i < 3000; i++) {
        snprintf(buf, sizeof buf, "%d", i);
        sv_gfx_text(g, SV_FONT_MONO, 9 + i % 7, (i * 7) % W, 150, SV_ALIGN_LEFT,
                    sv_rgb_hex(0), buf);
    }
    sv_gfx_clip(g, NULL);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 48, 20, 240, SV_ALIGN_LEFT, sv_rgb_hex(0x000000), "last");
    frame_end("atlas");
    sv_gfx_stats st = sv_gfx_get_stats(g);
    CHECK_MSG(st.atlas_resets > 0, "the atlas never filled up (test too weak)");
    int first = 0, last = 0;
    for (int y = 10; y < 70; y++)
        for (int x = 20; x < 200; x++)
            first += dark(x, y) > 127;
    for (int y = 210; y < 270; y++)
        for (int x = 20; x < 200; x++)
            last += dark(x, y) > 127;
    CHECK_MSG(first > 300, "text drawn before the atlas was cleared is lost (%d px)", first);
    CHECK_MSG(abs(first - last) < first / 3, "\"first\" has %d dark px, \"last\" %d", first, last);
    printf("atlas: %d reset(s) in one frame\n", st.atlas_resets);
}

/* Stripes (a hatch, the warp lines) are quads whose pixels are those of a
 * line's body, clamp(r + 0.5 - distance, 0, 1) of the colour: one quad for
 * the whole box, or for sparse lines across it one each, as wide as the
 * line's pixels (the seven vertical lines here: 50 px apart). Black lines
 * 1.5 px wide at x = 60.3 + 50 k cover column 59 by 0.45, column 60 wholly
 * and column 61 by 0.05; a diagonal hatch's lines x + y = 200 + 20 k are
 * dark on them and light between; nothing is drawn outside the box; the
 * record holds each line edge to edge. */
static void test_stripes(void)
{
    sv_gfx_rec *rec = sv_gfx_rec_create();
    CHECK(rec != NULL);
    sv_gfx_record(g, rec);
    frame_begin();
    sv_gfx_stripes(g, (sv_box){40, 20, 320, 100}, 1.0f, 0.0f, 50.0f, 60.3f, 1.5f,
                   sv_rgb_hex(0x000000));
    sv_gfx_stripes(g, (sv_box){40, 150, 320, 100}, 1.0f, 1.0f, 20.0f, 200.0f, 2.0f,
                   sv_rgb_hex(0x000000));
    frame_end("stripes");
    sv_gfx_record(g, NULL);
    int quads = sv_gfx_get_stats(g).quads;
    CHECK_MSG(quads == 7 + 1, "%d quads for two boxes of stripes: 7 lines and a hatch", quads);
    static const struct { int x, y; float cov; } want[] = {
        {59, 70, 0.45f}, {60, 70, 1.0f}, {61, 70, 0.05f}, {62, 70, 0.0f}, {58, 70, 0.0f},
        {309, 30, 0.45f}, {310, 110, 1.0f}, {85, 70, 0.0f}, {60, 15, 0.0f}, {60, 125, 0.0f},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int expect = (int)(255.0f * (1.0f - want[i].cov) + 0.5f);
        int got = at(want[i].x, want[i].y)[0];
        CHECK_MSG(abs(got - expect) <= 2, "stripe pixel (%d, %d): %d, expected %d (coverage %.3f)",
                  want[i].x, want[i].y, got, expect, want[i].cov);
    }
    /* x + y = 400 through (199.5, 200.5) is dark, halfway between two lines light */
    CHECK_MSG(at(199, 200)[0] < 60 && at(206, 200)[0] > 200,
              "the hatch: %d on a line, %d between two", at(199, 200)[0], at(206, 200)[0]);
    int lines = 0, vertical = 0;
    for (size_t i = 0; i < sv_gfx_rec_count(rec); i++) {
        const sv_prim *p = sv_gfx_rec_prim(rec, i);
        if (p->kind != SV_PRIM_LINE)
            continue;
        lines++;
        vertical += fabsf(p->x0 - p->x1) < 1e-3f && fabsf(p->y0 - 20.0f) < 1e-3f &&
                    fabsf(p->y1 - 120.0f) < 1e-3f;
    }
    /* x = 60.3 .. 310.3; x + y = 200 .. 600 crosses [40, 360] x [150, 250] for 200 .. 600 */
    CHECK_MSG(vertical == 6 && lines == 6 + 21, "the record: %d lines, %d of them the vertical "
              "stripes edge to edge", lines, vertical);
    sv_gfx_rec_destroy(rec);
}

/* New text is sent to the atlas texture once a batch, not once a glyph (a
 * software rasteriser finishes the draws that read a texture before each
 * upload): forty new strings in one batch are one upload, and each shows;
 * the same strings in the next frame need none. */
static void test_atlas_upload(void)
{
    for (int pass = 0; pass < 2; pass++) {
        frame_begin();
        char buf[64];
        for (int i = 0; i < 40; i++) {
            snprintf(buf, sizeof buf, "upload %d, a string not drawn before", i);
            sv_gfx_text(g, SV_FONT_SANS, 11, 4 + (float)(i % 2) * 200, 10 + (float)(i / 2) * 14,
                        SV_ALIGN_LEFT, sv_rgb_hex(0x000000), buf);
        }
        frame_end(pass ? "upload-again" : "upload");
        sv_gfx_stats st = sv_gfx_get_stats(g);
        CHECK_MSG(st.flushes == 1 && st.atlas_uploads == (pass ? 0 : 1),
                  "pass %d: %d uploads in %d batches for forty new strings", pass,
                  st.atlas_uploads, st.flushes);
        int rows = 0;
        for (int i = 0; i < 20; i++) {
            int ink = 0;
            for (int y = 3 + i * 14; y < 14 + i * 14; y++)
                for (int x = 4; x < 180; x++)
                    ink += dark(x, y) > 127;
            rows += ink > 40;
        }
        CHECK_MSG(rows == 20, "pass %d: %d of 20 rows of new text show", pass, rows);
    }
}

/* Degenerate input draws nothing (or something sane) and never crashes. */
static void test_degenerate(void)
{
    const float nan = NAN, inf = INFINITY;
    frame_begin();
    sv_gfx_rect(g, (sv_box){nan, 10, 20, 20}, 3, sv_rgb_hex(0), sv_rgb_hex(0), 2,
                SV_BORDER_DASHED);
    sv_gfx_rect(g, (sv_box){10, 10, -20, 20}, 3, sv_rgb_hex(0), sv_rgb_hex(0), 2,
                SV_BORDER_DOTTED);
    sv_gfx_rect(g, (sv_box){-inf, -inf, inf, inf}, nan, sv_rgb_hex(0), sv_rgb_hex(0), nan,
                SV_BORDER_SOLID);
    sv_gfx_rect(g, (sv_box){-1e30f, -1e30f, 2e30f, 2e30f}, 0, sv_rgba_alpha(sv_rgb_hex(0), 0),
                sv_rgb_hex(0), 0, SV_BORDER_NONE);
    sv_gfx_line(g, nan, 0, 10, 10, 2, sv_rgb_hex(0));
    sv_gfx_arrow(g, 5, 5, 5, 5, 2, 8, sv_rgb_hex(0));
    sv_gfx_circle(g, 50, 50, -3, sv_rgb_hex(0), sv_rgb_hex(0), 1);
    /* stripes: no normal, no period, a period too small to list the lines
     * (recorded: the record would be millions of lines), a box far away */
    sv_gfx_rec *rec = sv_gfx_rec_create();
    sv_gfx_record(g, rec);
    sv_gfx_stripes(g, (sv_box){0, 0, 50, 50}, 0, 0, 5, 0, 1, sv_rgb_hex(0));
    sv_gfx_stripes(g, (sv_box){0, 0, 50, 50}, nan, 1, 5, 0, 1, sv_rgb_hex(0));
    sv_gfx_stripes(g, (sv_box){0, 0, 50, 50}, 1, 0, inf, 0, 1, sv_rgb_hex(0));
    sv_gfx_stripes(g, (sv_box){0, 0, 50, 50}, 1, 0, 5, nan, 1, sv_rgb_hex(0));
    sv_gfx_stripes(g, (sv_box){0, 0, 1e6f, 1e6f}, 1, 1, 1e-4f, 0, 1, sv_rgb_hex(0));
    sv_gfx_stripes(g, (sv_box){1e30f, 0, 50, 50}, 1, 0, 5, 0, 1, sv_rgb_hex(0));
    sv_gfx_stripes(g, (sv_box){1e6f, 0, 50, 50}, 1, 0, 1e-3f, 0, 1, sv_rgb_hex(0));
    sv_gfx_record(g, NULL);
    CHECK_MSG(sv_gfx_rec_count(rec) < 100, "degenerate stripes recorded %zu primitives",
              sv_gfx_rec_count(rec));
    sv_gfx_rec_destroy(rec);
    sv_gfx_clip(g, &(sv_box){nan, 0, 10, 10});
    sv_gfx_rect(g, (sv_box){0, 0, W, H}, 0, sv_rgb_hex(0), sv_rgb_hex(0), 0, SV_BORDER_NONE);
    sv_gfx_clip(g, &(sv_box){-50, -50, 1e9f, 1e9f});
    sv_gfx_clip(g, NULL);
    CHECK_MSG(sv_gfx_text(g, SV_FONT_SANS, 20, nan, 10, SV_ALIGN_LEFT, sv_rgb_hex(0), "ab") > 0,
          "text at NaN x is not measured");
    CHECK_MSG(sv_gfx_text(g, SV_FONT_SANS, nan, 10, 10, SV_ALIGN_LEFT, sv_rgb_hex(0), "ab") >= 0,
          "text at NaN px");
    CHECK_MSG(sv_gfx_text(g, SV_FONT_SANS, 20, 10, 10, SV_ALIGN_LEFT, sv_rgb_hex(0), "") == 0,
          "empty text has width");
    CHECK_MSG(sv_gfx_text(g, SV_FONT_SANS, 20, 10, 10, SV_ALIGN_LEFT, sv_rgb_hex(0), NULL) == 0,
          "NULL text has width");
    /* invalid UTF-8: a lone continuation byte, a truncated sequence, an overlong form */
    float bad = sv_gfx_text_width(g, SV_FONT_SANS, 20, "a\x80" "b\xe2\x89" "c\xc0\xaf" "d");
    CHECK_MSG(bad > 0, "invalid UTF-8 is not measured");
    CHECK_MSG(sv_gfx_text(g, SV_FONT_MONO, 1e6f, 10, 10, SV_ALIGN_LEFT, sv_rgb_hex(0), "8") > 0,
          "huge text is not drawn clamped");
    CHECK_MSG(sv_gfx_text(g, (sv_font)99, 20, 10, 10, SV_ALIGN_LEFT, sv_rgb_hex(0), "x") > 0,
          "an unknown font does not fall back");
    sv_gfx_end(g);
    /* a zero-sized frame */
    sv_gfx_begin(g, 0, 0, sv_rgb_hex(0));
    sv_gfx_rect(g, (sv_box){0, 0, 10, 10}, 0, sv_rgb_hex(0), sv_rgb_hex(0), 0, SV_BORDER_NONE);
    sv_gfx_end(g);
    CHECK_MSG(glGetError() == GL_NO_ERROR, "a GL error after degenerate input");
}

/* One ellipsize for the header's source line and the Measure view's title:
 * never wider than asked, cut on a character boundary, whole when it fits. */
static void test_ellipsize(void)
{
    char out[64];
    const char *src = "CPU emulator: no CUDA device \u00b7 \u00e9\u00e9\u00e9\u00e9";
    float full = sv_gfx_text_width(g, SV_FONT_SANS, 20, src);
    sv_gfx_text_ellipsize(g, SV_FONT_SANS, 20, full, src, out, sizeof out);
    CHECK_MSG(strcmp(out, src) == 0, "text that fits was cut to \"%s\"", out);
    for (float w = full - 1.0f; w > 0.0f; w -= 7.0f) {
        sv_gfx_text_ellipsize(g, SV_FONT_SANS, 20, w, src, out, sizeof out);
        float got = sv_gfx_text_width(g, SV_FONT_SANS, 20, out);
        CHECK_MSG(got <= w, "ellipsized to %.0f px, wider than %.0f: \"%s\"", got, w, out);
        size_t n = strlen(out);
        CHECK_MSG(n == 0 || (n >= 3 && strcmp(out + n - 3, "\u2026") == 0),
              "cut text \"%s\" does not end with an ellipsis", out);
        for (size_t i = 0; i + 3 < n; i++)
            CHECK_MSG(((unsigned char)out[i] & 0xC0) != 0xC0 ||
                      ((unsigned char)out[i + 1] & 0xC0) == 0x80,
                  "cut inside a character at byte %zu of \"%s\"", i, out);
    }
    sv_gfx_text_ellipsize(g, SV_FONT_SANS, 20, 1.0f, src, out, sizeof out);
    CHECK_MSG(out[0] == '\0', "nothing fits 1 px, yet \"%s\"", out);
    sv_gfx_text_ellipsize(g, SV_FONT_SANS, 20, 1e6f, src, out, 8);
    CHECK_MSG(strlen(out) < 8, "a short buffer overflowed");
}

static void test_png_roundtrip(void)
{
    frame_begin();
    sv_gfx_rect(g, (sv_box){10, 10, 380, 280}, 30, sv_rgb_hex(0xE69F00), sv_rgb_hex(0x0072B2),
                6, SV_BORDER_DASHED);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, 48, 200, 150, SV_ALIGN_CENTER, sv_rgb_hex(0x000000),
                "PNG ✓");
    frame_end("png");
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/gfx-roundtrip.png", out_dir);
    CHECK_MSG(sv_png_write(path, px, W, H, err, sizeof err), "%s", err);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    bool ok = png_image_begin_read_from_file(&img, path);
    CHECK_MSG(ok, "libpng cannot read %s back: %s", path, img.message);
    if (ok) {
        CHECK_MSG(img.width == W && img.height == H, "read back %ux%u", img.width, img.height);
        img.format = PNG_FORMAT_RGBA;
        uint8_t *back = malloc(PNG_IMAGE_SIZE(img));
        ok = back && png_image_finish_read(&img, NULL, back, 0, NULL);
        CHECK_MSG(ok, "libpng cannot decode %s: %s", path, img.message);
        if (ok && img.width == W && img.height == H)
            CHECK_MSG(memcmp(back, px, sizeof px) == 0, "pixels differ after the round trip");
        free(back);
        png_image_free(&img);
    }
    remove(path);
    /* and a clear error for a path that cannot be written */
    CHECK_MSG(!sv_png_write("/nonexistent-dir/x.png", px, W, H, err, sizeof err),
          "writing into a missing directory succeeded");
    CHECK_MSG(strstr(err, "/nonexistent-dir/x.png") != NULL, "error does not name the path: %s",
          err);
}

/* 5000 rounded cells with borders, 5000 numbers, 2000 arrows at 1920x1080:
 * the n = 1024 screen with room to spare. Printed, not asserted. */
static void bench(void)
{
    char err[256];
    const int bw = 1920, bh = 1080;
    sv_gfx_target *t = sv_gfx_target_create(g, bw, bh, err, sizeof err);
    CHECK_MSG(t, "%s", err);
    if (!t)
        return;
    sv_gfx_target_bind(t);
    enum { FRAMES = 30 };
    double ms[FRAMES];
    sv_gfx_stats st = {0};
    const int cols = 100, rows = 50;
    /* SV_BENCH_PARTS: 1 cells, 2 numbers, 4 arrows (default all), to time each */
    const char *parts_env = getenv("SV_BENCH_PARTS");
    int parts = parts_env ? atoi(parts_env) : 7;
    double cpu_ms[FRAMES];
    const float cw = 1920.0f / cols, ch = 1080.0f / rows;
    for (int f = 0; f < FRAMES + 3; f++) {
        double t0 = now_ms();
        sv_gfx_begin(g, bw, bh, sv_rgb_hex(0x1b1f24));
        for (int i = 0; i < cols * rows && (parts & 1); i++) {
            float x = (i % cols) * cw, y = (i / cols) * ch;
            sv_border style = (sv_border)(1 + i % 3);
            sv_gfx_rect(g, (sv_box){x + 1, y + 1, cw - 2, ch - 2}, 3,
                        sv_rgb_hex(i % 3 == 0 ? 0x0072B2 : i % 3 == 1 ? 0xE69F00 : 0x999999),
                        sv_rgb_hex(0xffffff), 2, style);
        }
        char num[16];
        for (int i = 0; i < cols * rows && (parts & 2); i++) {
            float x = (i % cols) * cw, y = (i / cols) * ch;
            snprintf(num, sizeof num, "%d", (i * 37 + f) % 1000);
            sv_gfx_text(g, SV_FONT_MONO, 9, x + cw / 2, y + ch / 2, SV_ALIGN_CENTER,
                        sv_rgb_hex(0xffffff), num);
        }
        for (int i = 0; i < 2000 && (parts & 4); i++) {
            float x = (i % cols) * cw + cw / 2, y = (i / cols) * ch * 2 + ch;
            sv_gfx_arrow(g, x - cw, y - ch, x, y, 1.5f, 6, sv_rgba_alpha(sv_rgb_hex(0xffffff), 0.8f));
        }
        sv_gfx_end(g);
        double tc = now_ms();
        glFinish();
        double t1 = now_ms();
        if (f >= 3) {
            ms[f - 3] = t1 - t0;
            cpu_ms[f - 3] = tc - t0;
        }
        st = sv_gfx_get_stats(g);
    }
    uint8_t *shot = malloc((size_t)bw * bh * 4);
    if (shot) {
        sv_gfx_read_pixels(g, bw, bh, shot);
        char path[512];
        snprintf(path, sizeof path, "%s/gfx-bench.png", out_dir);
        if (!sv_png_write(path, shot, bw, bh, err, sizeof err))
            fprintf(stderr, "note: %s\n", err);
        free(shot);
    }
    sv_gfx_target_bind(NULL);
    sv_gfx_target_destroy(t);
    qsort(ms, FRAMES, sizeof ms[0], cmp_double);
    qsort(cpu_ms, FRAMES, sizeof cpu_ms[0], cmp_double);
    printf("perf: CPU side (building and submitting the batch) median %.2f ms\n",
           cpu_ms[FRAMES / 2]);
    printf("perf: 1920x1080, 5000 cells + 5000 numbers + 2000 arrows: median %.2f ms, "
           "p90 %.2f ms, min %.2f ms over %d frames (%d draw calls, %d quads, renderer %s)\n",
           ms[FRAMES / 2], ms[FRAMES * 9 / 10], ms[0], FRAMES, st.draw_calls, st.quads,
           (const char *)glGetString(GL_RENDERER));
}

/* The window's own framebuffer (no target bound): what the app draws to. */
static void test_window_framebuffer(sv_platform *p)
{
    int fw = 0, fh = 0;
    SDL_GL_GetDrawableSize(p->window, &fw, &fh);
    CHECK_MSG(fw >= 64 && fh >= 64, "drawable is %dx%d", fw, fh);
    if (fw < 64 || fh < 64)
        return;
    sv_gfx_target_bind(NULL);
    sv_gfx_begin(g, fw, fh, sv_rgb_hex(0x000000));
    sv_gfx_rect(g, (sv_box){8, 8, (float)fw - 16, (float)fh - 16}, 6, sv_rgb_hex(0xCC79A7),
                sv_rgb_hex(0xffffff), 2, SV_BORDER_DOTTED);
    sv_gfx_end(g);
    uint8_t *buf = malloc((size_t)fw * fh * 4);
    if (!buf)
        return;
    sv_gfx_read_pixels(g, fw, fh, buf);
    const uint8_t *c = buf + ((size_t)(fh / 2) * fw + fw / 2) * 4;
    CHECK_MSG(abs(c[0] - 0xCC) <= 1 && abs(c[1] - 0x79) <= 1 && abs(c[2] - 0xA7) <= 1,
          "window centre is %d,%d,%d", c[0], c[1], c[2]);
    CHECK_MSG(buf[0] == 0 && buf[1] == 0 && buf[2] == 0, "window corner is not the clear colour");
    free(buf);
    SDL_GL_SwapWindow(p->window);
}

int main(int argc, char **argv)
{
    /* test_gfx [--window] [OUTDIR]: --window opens a real window (x11 under
     * xvfb-run) instead of SDL's offscreen driver. */
    bool window = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--window") == 0)
            window = true;
        else
            out_dir = argv[i];
    }
    mkdir(out_dir, 0777); /* may exist already */
    char err[512];
    sv_platform p;
    if (window && !sv_platform_have_display()) {
        fprintf(stderr, "no display for --window: skipped\n");
        return 77;
    }
    if (!sv_platform_open(&p, "test_gfx", 160, 120, !window, false, err, sizeof err)) {
        fprintf(stderr, "%s:%d: FAIL: no %s GL: %s\n", __FILE__, __LINE__,
                window ? "window" : "headless", err);
        return 1;
    }
    printf("video driver %s, %s, GL %s\n", SDL_GetCurrentVideoDriver(),
           p.headless ? "headless" : "window", (const char *)glGetString(GL_VERSION));
    CHECK_MSG(p.headless == !window, "headless is %d", p.headless);
    g = sv_gfx_create(err, sizeof err);
    if (!g) {
        fprintf(stderr, "%s:%d: FAIL: sv_gfx_create: %s\n", __FILE__, __LINE__, err);
        sv_platform_close(&p);
        return 1;
    }
    test_window_framebuffer(&p);
    sv_gfx_target *t = sv_gfx_target_create(g, W, H, err, sizeof err);
    CHECK_MSG(t, "%s", err);
    if (t) {
        sv_gfx_target_bind(t);
        test_fill();
        test_borders();
        test_arrow();
        test_text();
        test_long_text();
        test_measure_cache();
        test_run_overlap();
        test_font_metrics();
        test_clip();
        test_order();
        test_flat_box();
        test_tint_box();
        test_atlas_upload();
        test_stripes();
        test_atlas_overflow();
        test_degenerate();
        test_ellipsize();
        test_png_roundtrip();
        sv_gfx_target_bind(NULL);
        sv_gfx_target_destroy(t);
    }
    /* a bad size is an error, not a crash */
    CHECK_MSG(!sv_gfx_target_create(g, 0, 10, err, sizeof err), "a 0x10 target was created");
    if (!window && !getenv("SV_GFX_NO_BENCH"))
        bench();
    sv_gfx_destroy(g);
    sv_gfx_destroy(NULL);
    sv_gfx_target_destroy(NULL);
    sv_platform_close(&p);
    sv_platform_close(&p);
    return check_report("all gfx checks passed");
}
