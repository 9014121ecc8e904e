/* The source panel (key C, --code): the kernel's own file as embedded at
 * build time (source.h), with line numbers and simple C/CUDA colouring,
 * the current phase's lines highlighted and, for a mistake, its changed
 * lines marked. The panel scrolls by itself to keep the highlight in view. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "font_metrics.h"
#include "scene.h"
#include "source.h"

bool sv_code_geometry(const sv_app_view *v, const sv_layout *l, sv_code_geo *out)
{
    memset(out, 0, sizeof *out);
    if (!v || !v->code || l->code_panel.w <= 0.0f || l->code_panel.h <= 0.0f)
        return false;
    const sv_source_file *f = sv_source_get(v->source_kernel);
    if (!f)
        f = sv_source_get(0);
    if (!f)
        return false;
    float u = l->unit;
    const sv_box *p = &l->code_panel;
    out->px = fmaxf(8.0f, floorf(fminf(1.75f * u, p->w / 50.0f)));
    out->pitch = ceilf(out->px * 1.38f);
    out->title_y = p->y + 2.0f * u;
    float top = p->y + 4.2f * u;
    out->count = (int)floorf((p->y + p->h - 0.8f * u - top) / out->pitch);
    if (out->count < 1)
        out->count = 1;
    out->y0 = top + out->pitch / 2.0f;
    out->gutter_x = p->x + 1.0f * u + sv_mono_width(out->px, 4.0f); /* right edge of the numbers */
    out->text_x = out->gutter_x + 1.4f * u;
    if (v->trace)
        sv_source_phase_lines(f, v->phase, v->step, &out->hl_lo, &out->hl_hi);
    /* Start at the kernel; scroll only to keep the highlight in view. */
    int first = f->kernel_line;
    if (out->hl_lo > 0 && (out->hl_lo < first || out->hl_hi >= first + out->count))
        first = out->hl_lo - out->count / 3;
    if (first > f->nlines - out->count + 1)
        first = f->nlines - out->count + 1;
    if (first < 1)
        first = 1;
    out->first = first;
    out->nlines = f->nlines;
    out->file = f;
    return true;
}

float sv_code_line_y(const sv_code_geo *g, int line)
{
    return g->y0 + (float)(line - g->first) * g->pitch;
}

static sv_rgba tok_colour(const sv_theme *t, sv_tok tok)
{
    switch (tok) {
    case SV_TOK_KEYWORD: return t->accent;
    case SV_TOK_TYPE: return t->window;
    case SV_TOK_NUMBER: return t->partial;
    case SV_TOK_STRING: return t->partial;
    case SV_TOK_COMMENT: return t->text_dim;
    case SV_TOK_PREPROC: return t->copy;
    default: return t->text;
    }
}

void sv_render_source(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    sv_code_geo cg;
    if (!sv_code_geometry(s, l, &cg))
        return;
    const sv_box *p = &l->code_panel;
    float u = l->unit;
    const sv_source_file *f = cg.file;
    sv_gfx_rect(g, *p, 0.8f * u, t->panel, t->grid, fmaxf(1.0f, 0.15f * u), SV_BORDER_SOLID);

    /* The title: the file, and the phase (or how to step through them). */
    char right[96];
    if (s->phase != SV_PHASE_NONE)
        snprintf(right, sizeof right, "phase: %s", sv_phase_name(s->phase));
    else
        snprintf(right, sizeof right, "\u25bc \u25b2 phases");
    float rw = sv_gfx_text(g, SV_FONT_SANS, l->small_px, p->x + p->w - 1.0f * u, cg.title_y,
                           SV_ALIGN_RIGHT, s->phase ? t->accent : t->text_dim, right);
    char title[200], path[240];
    /* A mistake whose file was not in the tree at build time: its name, and
     * the chapter's kernel below, said plainly. */
    if (s->kernel_file && s->kernel_file[0] && !s->kernel_embedded)
        snprintf(path, sizeof path, "%s (not in this build; the chapter's kernel shown)",
                 s->kernel_file);
    else
        snprintf(path, sizeof path, "%s", f->path);
    sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, l->small_px, p->w - rw - 3.0f * u, path,
                          title, sizeof title);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, l->small_px, p->x + 1.0f * u, cg.title_y, SV_ALIGN_LEFT,
                t->text, title);

    sv_box clip = { p->x + 0.3f * u, p->y + 3.4f * u, p->w - 0.6f * u, p->h - 3.8f * u };
    sv_gfx_clip(g, &clip);
    float adv = cg.px * SV_MONO_ADVANCE;
    for (int k = 0; k < cg.count; k++) {
        int line = cg.first + k;
        if (line > f->nlines)
            break;
        const sv_source_line *ln = &f->lines[line - 1];
        float y = sv_code_line_y(&cg, line);
        bool hl = line >= cg.hl_lo && line <= cg.hl_hi && cg.hl_lo > 0;
        sv_box band = { p->x + 0.3f * u, y - cg.pitch / 2.0f, p->w - 0.6f * u, cg.pitch };
        if (hl)
            sv_gfx_rect(g, band, 0.0f, sv_rgba_mix(t->panel, t->accent, 0.28f),
                        sv_rgba_alpha(t->accent, 0.0f), 0.0f, SV_BORDER_NONE);
        if (ln->changed) {
            sv_box mark = { p->x + 0.3f * u, band.y, 0.7f * u, band.h };
            sv_gfx_rect(g, mark, 0.0f, t->error, t->error, 0.0f, SV_BORDER_NONE);
            if (!hl)
                sv_gfx_rect(g, (sv_box){ mark.x + mark.w, band.y, band.w - mark.w, band.h },
                            0.0f, sv_rgba_mix(t->panel, t->error, 0.16f),
                            sv_rgba_alpha(t->error, 0.0f), 0.0f, SV_BORDER_NONE);
        }
        if (hl) {
            sv_box bar = { p->x + 0.3f * u, band.y, 0.5f * u, band.h };
            if (!ln->changed)
                sv_gfx_rect(g, bar, 0.0f, t->accent, t->accent, 0.0f, SV_BORDER_NONE);
        }
        char num[16];
        snprintf(num, sizeof num, "%d", line);
        sv_gfx_text(g, SV_FONT_MONO, cg.px, cg.gutter_x, y, SV_ALIGN_RIGHT,
                    hl ? t->text : t->text_dim, num);
        /* The spans, one text call each; tabs as 4 spaces. */
        float x = cg.text_x;
        for (size_t sp = 0; sp < ln->nspans; sp++) {
            const sv_source_span *span = &f->spans[ln->first_span + sp];
            char buf[512];
            size_t o = 0;
            for (size_t c = 0; c < span->len && o + 5 < sizeof buf; c++) {
                char ch = ln->text[span->start + c];
                if (ch == '\t') {
                    for (int q = 0; q < 4; q++)
                        buf[o++] = ' ';
                } else if ((unsigned char)ch < 0x20 || ch == 0x7f) {
                    buf[o++] = ' '; /* never a control byte on screen */
                } else {
                    buf[o++] = ch;
                }
            }
            buf[o] = '\0';
            if (x > clip.x + clip.w)
                break;
            float w = sv_gfx_text(g, SV_FONT_MONO, cg.px, x, y, SV_ALIGN_LEFT,
                                  tok_colour(t, span->tok), buf);
            if (w <= 0.0f)
                w = adv * (float)o;
            x += w;
        }
    }
    sv_gfx_clip(g, NULL);

    /* A phase with no code in this file (a mistake removed it) says so. */
    if (s->phase != SV_PHASE_NONE && cg.hl_lo == 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "no %s in this kernel", sv_phase_name(s->phase));
        sv_gfx_text(g, SV_FONT_SANS_BOLD, l->small_px, p->x + p->w - 1.0f * u,
                    p->y + p->h - 1.6f * u, SV_ALIGN_RIGHT, t->error, msg);
    }
}
