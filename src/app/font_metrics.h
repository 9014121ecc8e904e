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

/* The width of n characters of DejaVu Sans Mono at px. */
static inline float sv_mono_width(float px, float n)
{
    return n * px * SV_MONO_ADVANCE;
}

#endif
