/* Widths of the embedded DejaVu fonts (assets/fonts/) that the layout uses
 * before any text is measured: the one place these numbers live. The text
 * layer measures real strings (sv_gfx_text_width); these are for sizing
 * boxes from a character count. tests/gfx checks them against the font. */
#ifndef SV_FONT_METRICS_H
#define SV_FONT_METRICS_H

/* DejaVu Sans Mono: every glyph advances 1233/2048 em. */
#define SV_MONO_ADVANCE 0.602f

/* Widths in em of the row labels' longest strings: "buf[0]" in DejaVu Sans
 * Bold, "global memory" in DejaVu Sans. */
#define SV_EM_BUF0_BOLD 3.47f
#define SV_EM_GLOBAL_MEMORY 7.53f
/* "pout" in DejaVu Sans Bold: the pin/pout tag's longer word. */
#define SV_EM_POUT_BOLD 2.59f
/* "pin=pout" in DejaVu Sans Bold: the tag of one buffer read and written. */
#define SV_EM_PIN_POUT_BOLD 5.13f

/* Average advances in em of the captions' text (measured on them: 0.48 ..
 * 0.52 for DejaVu Sans, 0.55 .. 0.59 for Bold), near the middle: the layout
 * reserves the lines a caption wraps onto from it, and a caption a little
 * longer than estimated shrinks a little to fit (render_overlay.c). */
#define SV_EM_SANS_AVG 0.49f
#define SV_EM_SANS_BOLD_AVG 0.56f

/* How many lines utf8 wraps onto at px in width w, estimated from its
 * length at an average advance of em (one of the two above); 0 for "". */
static inline int sv_text_lines_estimate(const char *utf8, float em, float px, float w)
{
    unsigned long chars = 0;
    for (const char *p = utf8; *p; p++)
        chars += ((unsigned char)*p & 0xC0) != 0x80;
    if (chars == 0)
        return 0;
    float need = (float)chars * em * px / (w > 1.0f ? w : 1.0f);
    int n = (int)need;
    return (float)n < need ? n + 1 : n;
}

/* The width of n characters of DejaVu Sans Mono at px. */
static inline float sv_mono_width(float px, float n)
{
    return n * px * SV_MONO_ADVANCE;
}

#endif
