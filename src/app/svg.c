/* The SVG back end: walks a recorded frame (record.c) and prints each
 * primitive as SVG, matching what shape.frag and text.c draw:
 *  - a rect's border lies inside its edge, so the stroke runs on a path
 *    inset by half its width (one <rect> carries fill and stroke);
 *  - dashes are 3 w long and 2 w apart, dots w across and w apart (at least
 *    2 px), a whole number of periods around the outline, one centred on
 *    the top-left corner (the GL shader also centres them on every corner
 *    and stretches each side: here the period is stretched over the whole
 *    outline instead, which a browser can do with one dasharray);
 *  - an arrow is its shaft (round caps, stopping inside the head) and a
 *    triangle head length `head` and 0.9 head wide with its tip at (x1, y1);
 *  - text is anchored as drawn (start, middle, end) on the same baseline,
 *    at the same em size, in the embedded fonts' families. */
#include <math.h>

#define SV_PI 3.14159265358979f
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/buf.h"
#include "../core/fileio.h"
#include "svg.h"

typedef sv_buf sbuf;

static void put(sbuf *b, const char *s, size_t len)
{
    sv_buf_append(b, s, len); /* b->oom says, at the end, whether all went in */
}

static void puts_(sbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* A coordinate: two decimals at most, no trailing zeros. */
static const char *num(char out[32], float v)
{
    if (!isfinite(v))
        v = 0.0f;
    snprintf(out, 32, "%.2f", (double)v);
    char *dot = strchr(out, '.');
    if (dot) {
        char *e = out + strlen(out) - 1;
        while (e > dot && *e == '0')
            *e-- = '\0';
        if (e == dot)
            *e = '\0';
    }
    if (strcmp(out, "-0") == 0)
        strcpy(out, "0");
    return out;
}

static unsigned byte(float v)
{
    return v <= 0.0f ? 0u : v >= 1.0f ? 255u : (unsigned)lroundf(v * 255.0f);
}

/* ` NAME="#rrggbb"` and ` NAME-opacity="a"` when not opaque. */
static void paint(sbuf *b, const char *name, sv_rgba c)
{
    sv_buf_printf(b, " %s=\"#%02x%02x%02x\"", name, byte(c.r), byte(c.g), byte(c.b));
    if (c.a < 0.999f) {
        char a[32];
        sv_buf_printf(b, " %s-opacity=\"%s\"", name, num(a, c.a < 0.0f ? 0.0f : c.a));
    }
}

/* XML text: & < > " escaped, control bytes dropped, invalid UTF-8 and the
 * non-characters U+FFFE/U+FFFF (not allowed in XML) as U+FFFD. */
static void put_escaped(sbuf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned c = *p;
        if (c < 0x80) {
            if (c == '&') puts_(b, "&amp;");
            else if (c == '<') puts_(b, "&lt;");
            else if (c == '>') puts_(b, "&gt;");
            else if (c == '"') puts_(b, "&quot;");
            else if (c >= 0x20 && c != 0x7f) put(b, (const char *)p, 1);
            p++;
            continue;
        }
        int len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        bool ok = len > 0 && !(c == 0xC0 || c == 0xC1 || c > 0xF4);
        for (int k = 1; ok && k < len; k++)
            ok = (p[k] & 0xC0) == 0x80;
        if (ok && len == 3 && c == 0xE0 && p[1] < 0xA0) ok = false; /* overlong */
        if (ok && len == 3 && c == 0xED && p[1] >= 0xA0) ok = false; /* surrogates */
        if (ok && len == 4 && c == 0xF0 && p[1] < 0x90) ok = false;
        if (ok && len == 4 && c == 0xF4 && p[1] >= 0x90) ok = false;
        if (ok && len == 3 && c == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) {
            /* U+FFFE and U+FFFF are not XML characters: a parser refuses
             * the whole file. Shown as U+FFFD, like a bad byte. */
            puts_(b, "\xEF\xBF\xBD");
            p += 3;
            continue;
        }
        if (ok) {
            put(b, (const char *)p, (size_t)len);
            p += len;
        } else {
            puts_(b, "\xEF\xBF\xBD");
            p++;
        }
    }
}

static const char *family(sv_font f)
{
    return f == SV_FONT_MONO ? "'DejaVu Sans Mono', Menlo, Consolas, monospace"
                             : "'DejaVu Sans', Verdana, Arial, sans-serif";
}

static void put_rect(sbuf *b, const sv_prim *p)
{
    char s1[32], s2[32], s3[32], s4[32], s5[32];
    sv_box box = p->box;
    float bw = p->style == SV_BORDER_NONE || p->border.a <= 0.0f ? 0.0f : p->border_w;
    if (p->fill.a <= 0.0f && bw <= 0.0f)
        return;
    /* The stroke runs on the outline inset by bw/2, so it fills [edge - bw, edge]. */
    float in = bw * 0.5f;
    float x = box.x + in, y = box.y + in, w = box.w - bw, h = box.h - bw;
    float r = p->radius - in;
    if (r < 0.0f) r = 0.0f;
    if (w < 0.0f) w = 0.0f;
    if (h < 0.0f) h = 0.0f;
    sv_buf_printf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"", num(s1, x), num(s2, y),
         num(s3, w), num(s4, h));
    if (r > 0.0f)
        sv_buf_printf(b, " rx=\"%s\"", num(s5, r));
    if (p->fill.a > 0.0f)
        paint(b, "fill", p->fill);
    else
        puts_(b, " fill=\"none\"");
    if (bw > 0.0f) {
        paint(b, "stroke", p->border);
        sv_buf_printf(b, " stroke-width=\"%s\"", num(s1, bw));
        if (p->style == SV_BORDER_DASHED || p->style == SV_BORDER_DOTTED) {
            /* The outline's length: the straight sides plus a circle. */
            float perim = 2.0f * (w - 2.0f * r) + 2.0f * (h - 2.0f * r) + 2.0f * SV_PI * r;
            float quarter = SV_PI * r / 4.0f; /* to the middle of a corner arc */
            float period = p->style == SV_BORDER_DASHED ? 5.0f * bw : fmaxf(2.0f * bw, bw + 2.0f);
            float k = fmaxf(1.0f, roundf(perim / period));
            period = perim / k;
            if (p->style == SV_BORDER_DASHED)
                sv_buf_printf(b, " stroke-dasharray=\"%s %s\" stroke-dashoffset=\"%s\"",
                     num(s1, period * 0.6f), num(s2, period * 0.4f),
                     num(s3, period * 0.3f + quarter));
            else
                sv_buf_printf(b, " stroke-dasharray=\"0 %s\" stroke-dashoffset=\"%s\""
                     " stroke-linecap=\"round\"", num(s1, period), num(s2, quarter));
            sv_buf_printf(b, " class=\"%s\"", p->style == SV_BORDER_DASHED ? "dashed" : "dotted");
        }
    }
    puts_(b, "/>\n");
}

static void put_line(sbuf *b, float x0, float y0, float x1, float y1, float width, sv_rgba c)
{
    char s1[32], s2[32], s3[32], s4[32], s5[32];
    if (!(width > 0.0f))
        return;
    if (width < 1.0f) { /* as gfx.c: hairlines 1 px and fainter */
        c.a *= width;
        width = 1.0f;
    }
    sv_buf_printf(b, "<path d=\"M%s %sL%s %s\"", num(s1, x0), num(s2, y0), num(s3, x1), num(s4, y1));
    paint(b, "stroke", c);
    sv_buf_printf(b, " stroke-width=\"%s\" stroke-linecap=\"round\" fill=\"none\"/>\n", num(s5, width));
}

static void put_arrow(sbuf *b, const sv_prim *p)
{
    char s1[32], s2[32], s3[32], s4[32], s5[32], s6[32];
    float dx = p->x1 - p->x0, dy = p->y1 - p->y0, len = sqrtf(dx * dx + dy * dy);
    if (!(len > 1e-6f))
        return;
    float head = p->head;
    if (head < p->width * 2.0f) head = p->width * 2.0f;
    if (head > len) head = len;
    float ux = dx / len, uy = dy / len, shaft_end = head * 0.6f;
    puts_(b, "<g class=\"arrow\">");
    if (len > shaft_end)
        put_line(b, p->x0, p->y0, p->x1 - ux * shaft_end, p->y1 - uy * shaft_end, p->width,
                 p->fill);
    float bx = p->x1 - ux * head, by = p->y1 - uy * head, hw = head * 0.45f;
    sv_buf_printf(b, "<path d=\"M%s %sL%s %sL%s %sZ\"", num(s1, p->x1), num(s2, p->y1),
         num(s3, bx - uy * hw), num(s4, by + ux * hw), num(s5, bx + uy * hw),
         num(s6, by - ux * hw));
    paint(b, "fill", p->fill);
    puts_(b, "/></g>\n");
}

/* Opens a <text> with p in it; put_text_close ends it. */
static void put_text_open(sbuf *b, const sv_prim *p)
{
    char s1[32], s2[32], s3[32];
    sv_buf_printf(b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\"", num(s1, p->x0), num(s2, p->y0),
         num(s3, p->px));
    if (p->font == SV_FONT_MONO)
        sv_buf_printf(b, " font-family=\"%s\"", family(SV_FONT_MONO));
    if (p->font == SV_FONT_SANS_BOLD)
        puts_(b, " font-weight=\"bold\"");
    if (p->align == SV_ALIGN_CENTER)
        puts_(b, " text-anchor=\"middle\"");
    else if (p->align == SV_ALIGN_RIGHT)
        puts_(b, " text-anchor=\"end\"");
    paint(b, "fill", p->fill);
    puts_(b, ">");
    put_escaped(b, p->text);
}

/* p as a <tspan> that goes on from where the open <text> ends, dx and dy
 * from there: the browser places it after the glyphs it drew, in whatever
 * font it drew them (a header's subtitle after its title). Its font is set
 * in full: a tspan inherits the text's. */
static void put_tspan(sbuf *b, const sv_prim *p, float dx, float dy)
{
    char s1[32], s2[32], s3[32];
    sv_buf_printf(b, "<tspan dx=\"%s\" dy=\"%s\" font-size=\"%s\" font-family=\"%s\" "
            "font-weight=\"%s\"", num(s1, dx), num(s2, dy), num(s3, p->px), family(p->font),
         p->font == SV_FONT_SANS_BOLD ? "bold" : "normal");
    paint(b, "fill", p->fill);
    puts_(b, ">");
    put_escaped(b, p->text);
    puts_(b, "</tspan>");
}

/* Text pieces drawn one after the other on a line (each placed at the end
 * of the one before, as GL measured it with the embedded font) become one
 * <text> of tspans, so a browser that draws with another font of the stack
 * keeps them apart instead of overlapping them. */
typedef struct text_run {
    bool open;
    float end_x, y;     /* where the open text ends (GL's measure), its baseline */
    float px;
} text_run;

static void put_text_close(sbuf *b, text_run *run)
{
    if (run->open)
        puts_(b, "</text>\n");
    run->open = false;
}

static void put_text(sbuf *b, const sv_prim *p, text_run *run)
{
    if (!p->text || !p->text[0] || p->fill.a <= 0.0f)
        return;
    float tol = 0.3f * fmaxf(p->px, run->px);
    if (run->open && p->align == SV_ALIGN_LEFT && fabsf(p->x0 - run->end_x) <= 1.0f &&
        fabsf(p->y0 - run->y) <= tol) {
        put_tspan(b, p, p->x0 - run->end_x, p->y0 - run->y);
    } else {
        put_text_close(b, run);
        put_text_open(b, p);
        run->open = p->align == SV_ALIGN_LEFT; /* only left-aligned text goes on */
        if (!run->open)
            puts_(b, "</text>\n");
    }
    if (run->open) {
        run->end_x = p->x0 + p->advance;
        run->y = p->y0;
        run->px = p->px;
    }
}

char *sv_svg_render(const sv_gfx_rec *r, const char *title, size_t *len)
{
    int w = 0, h = 0;
    sv_rgba clear;
    if (!sv_gfx_rec_frame(r, &w, &h, &clear))
        return NULL;
    sbuf b = {0};
    sv_buf_printf(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
             "height=\"%d\" viewBox=\"0 0 %d %d\" xml:space=\"preserve\" style=\"white-space:pre\" "
             "font-family=\"%s\">\n",
         w, h, w, h, family(SV_FONT_SANS));
    if (title) {
        puts_(&b, "<title>");
        put_escaped(&b, title);
        puts_(&b, "</title>\n");
    }
    puts_(&b, "<rect width=\"100%\" height=\"100%\"");
    paint(&b, "fill", clear);
    puts_(&b, "/>\n");
    int clips = 0;
    bool open = false;
    text_run run = {0};
    size_t n = sv_gfx_rec_count(r);
    for (size_t i = 0; i < n; i++) {
        const sv_prim *p = sv_gfx_rec_prim(r, i);
        if (p->kind != SV_PRIM_TEXT)
            put_text_close(&b, &run);
        switch (p->kind) {
        case SV_PRIM_RECT:
            put_rect(&b, p);
            break;
        case SV_PRIM_LINE:
            put_line(&b, p->x0, p->y0, p->x1, p->y1, p->width, p->fill);
            break;
        case SV_PRIM_ARROW:
            put_arrow(&b, p);
            break;
        case SV_PRIM_TEXT:
            put_text(&b, p, &run);
            break;
        case SV_PRIM_CLIP: {
            if (open)
                puts_(&b, "</g>\n");
            open = false;
            if (!p->clip_on)
                break;
            char s1[32], s2[32], s3[32], s4[32];
            clips++;
            sv_buf_printf(&b, "<clipPath id=\"clip%d\"><rect x=\"%s\" y=\"%s\" width=\"%s\" "
                     "height=\"%s\"/></clipPath>\n<g clip-path=\"url(#clip%d)\">\n", clips,
                 num(s1, roundf(p->box.x)), num(s2, roundf(p->box.y)),
                 num(s3, roundf(p->box.x + p->box.w) - roundf(p->box.x)),
                 num(s4, roundf(p->box.y + p->box.h) - roundf(p->box.y)), clips);
            open = true;
            break;
        }
        }
    }
    put_text_close(&b, &run);
    if (open)
        puts_(&b, "</g>\n");
    puts_(&b, "</svg>\n");
    if (b.oom) {
        sv_buf_free(&b);
        return NULL;
    }
    if (len)
        *len = b.n;
    return b.p;
}

bool sv_svg_write(const sv_gfx_rec *r, const char *title, const char *path, char *err,
                  size_t errlen)
{
    size_t len = 0;
    char *doc = sv_svg_render(r, title, &len);
    if (!doc) {
        snprintf(err, errlen, "cannot write SVG %s: out of memory", path);
        return false;
    }
    bool ok = sv_write_atomic(path, doc, len, err, errlen);
    free(doc);
    return ok;
}
