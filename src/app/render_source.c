/* The source panel (key C, --code): the kernel's own file as embedded at
 * build time (source.h), with line numbers and simple C/CUDA colouring,
 * the current phase's lines highlighted and, for a mistake, its changed
 * lines marked. The code is the small
 * text's size; a line longer than the panel wraps onto more rows (marked
 * with an arrow in the gutter). The panel scrolls by itself to keep the
 * highlight in view. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "font_metrics.h"
#include "scene.h"
#include "source.h"
#include "kpane.h"
#include "../core/escape.h"
#include "../core/ktrace_diverge.h"

/* A line as drawn: tabs as 4 spaces, control bytes as spaces (never one on
 * screen), each byte with its span's token. Returns the bytes in out. */
#define CODE_LINE_MAX 512
#define CODE_MIN_COLS 32.0f /* characters a row keeps as the UI scale grows */
static size_t expand_line(const sv_source_file *f, int line, char *out, sv_tok *tok)
{
    const sv_source_line *ln = &f->lines[line - 1];
    size_t o = 0;
    for (size_t sp = 0; sp < ln->nspans; sp++) {
        const sv_source_span *span = &f->spans[ln->first_span + sp];
        for (size_t c = 0; c < span->len && o + 5 < CODE_LINE_MAX; c++) {
            char ch = ln->text[span->start + c];
            int reps = ch == '\t' ? 4 : 1;
            for (int q = 0; q < reps; q++) {
                out[o] = (ch == '\t' || (unsigned char)ch < 0x20 || ch == 0x7f) ? ' ' : ch;
                tok[o++] = span->tok;
            }
        }
    }
    out[o] = '\0';
    return o;
}

/* Where the rows of a line of len bytes start (starts[0] = 0), cols
 * characters each: a row breaks after the last space, comma or '(' in its
 * second half, else at cols; a continuation skips its leading spaces.
 * Returns the rows (at most max). */
static int wrap_rows(const char *text, size_t len, int cols, size_t *starts, int max)
{
    int rows = 1;
    size_t a = 0;
    starts[0] = 0;
    while (rows < max) {
        size_t b = a, chars = 0, brk = 0;
        while (b < len && chars < (size_t)cols) {
            b++;
            while (b < len && ((unsigned char)text[b] & 0xC0) == 0x80)
                b++; /* never inside a UTF-8 character */
            chars++;
            char c = text[b - 1];
            if ((c == ' ' || c == ',' || c == '(') && chars * 2 >= (size_t)cols)
                brk = b;
        }
        if (b >= len)
            break;
        a = brk ? brk : b;
        while (a < len && text[a] == ' ')
            a++;
        if (a >= len)
            break;
        starts[rows++] = a;
    }
    return rows;
}

int sv_code_line_rows(const sv_code_geo *g, int line)
{
    if (!g->file || line < 1 || line > g->file->nlines || g->cols < 1)
        return 1;
    char text[CODE_LINE_MAX];
    sv_tok tok[CODE_LINE_MAX];
    size_t starts[CODE_LINE_MAX];
    size_t len = expand_line(g->file, line, text, tok);
    return wrap_rows(text, len, g->cols, starts, CODE_LINE_MAX);
}

/* Rows taken by lines [lo, hi]. */
static int rows_between(const sv_code_geo *g, int lo, int hi)
{
    int rows = 0;
    for (int line = lo; line <= hi; line++)
        rows += sv_code_line_rows(g, line);
    return rows;
}

/* The lines the panel keeps in view (issue 28: it opened at the template
 * line, the round's add and a mistake's changed line below the panel):
 * the phase's highlighted lines, or without a phase the lines the shown
 * step runs (round 0 the load, a round its guarded add or copy, the
 * exclusive shift the copy back), and a mistake's changed lines with them
 * where the panel holds both, else the changed lines alone. [*lo, *hi];
 * 0 when none. */
static void focus_lines(const sv_app_view *v, const sv_code_geo *g, const sv_source_file *f,
                        int *lo, int *hi)
{
    *lo = g->hl_lo;
    *hi = g->hl_hi;
    sv_step_view sv;
    if (*lo <= 0 && v->trace && sv_scene_step(v, v->step, &sv)) {
        sv_phase ph = sv.shift ? SV_PHASE_COPY_BACK : sv.round == 0 ? SV_PHASE_LOAD
                                                                    : SV_PHASE_OP;
        if (!sv_source_phase_lines(f, ph, sv.round, lo, hi) || *lo <= 0)
            *lo = *hi = 0;
    }
    int clo = 0, chi = 0;
    for (int line = 1; line <= f->nlines; line++)
        if (f->lines[line - 1].changed) {
            if (!clo) clo = line;
            chi = line;
        }
    if (!clo)
        return;
    if (*lo <= 0) {
        *lo = clo;
        *hi = chi;
        return;
    }
    int a = clo < *lo ? clo : *lo, b = chi > *hi ? chi : *hi;
    if (rows_between(g, a, b) <= g->count) {
        *lo = a;
        *hi = b;
    } else { /* both do not fit: the mistake's own line first */
        *lo = clo;
        *hi = rows_between(g, clo, chi) <= g->count ? chi : clo;
    }
}

/* The first line shown: the kernel's start, or scrolled so that the focus
 * lines [lo, hi] are in view with a third of the panel above them. */
static int first_line(const sv_code_geo *g, const sv_source_file *f, int lo, int hi)
{
    int first = f->kernel_line;
    if (lo > 0 && (lo < first || rows_between(g, first, hi) > g->count)) {
        first = lo;
        while (first > 1 && rows_between(g, first - 1, lo - 1) <= g->count / 3 &&
               rows_between(g, first - 1, hi) <= g->count)
            first--;
    }
    /* No empty rows at the end while earlier lines would fit. */
    while (first > 1 && rows_between(g, first - 1, f->nlines) <= g->count)
        first--;
    return first < 1 ? 1 : first;
}

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
    /* The code is the small text's size at the UI scale (2.5% of the
     * height times the scale, as the small text would be if the cells did
     * not take the room first), as long as a row keeps CODE_MIN_COLS
     * characters; never below 2.1% of the
     * height (the user guide's minimum). Long lines wrap instead of being
     * cut at the panel's edge. */
    float fit = floorf((p->w - 2.0f * u) / sv_mono_width(1.0f, CODE_MIN_COLS + 5.0f));
    float ui = v->ui_scale > 0.0f ? v->ui_scale : 1.0f;
    float want = fmaxf(floorf(l->small_px), floorf(0.025f * (float)l->fb_h * ui));
    out->px = fmaxf(fminf(want, fit), ceilf(0.021f * (float)l->fb_h));
    out->px = fmaxf(out->px, 8.0f);
    out->pitch = ceilf(out->px * 1.3f);
    out->title_y = p->y + 2.0f * u;
    float top = p->y + 4.2f * u;
    out->count = (int)floorf((p->y + p->h - 0.8f * u - top) / out->pitch);
    if (out->count < 1)
        out->count = 1;
    out->y0 = top + out->pitch / 2.0f;
    float adv = ceilf(sv_mono_width(out->px, 1.0f)); /* whole px, as glyphs are placed */
    out->gutter_x = p->x + 1.0f * u + 3.0f * adv; /* right edge of the numbers */
    out->text_x = out->gutter_x + 1.2f * adv;
    out->cols = (int)floorf((p->x + p->w - 0.8f * u - out->text_x) / adv);
    if (out->cols < 8)
        out->cols = 8;
    out->file = f;
    out->nlines = f->nlines;
    if (v->trace)
        sv_source_phase_lines(f, v->phase, v->step, &out->hl_lo, &out->hl_hi);
    int lo, hi;
    focus_lines(v, out, f, &lo, &hi);
    out->first = first_line(out, f, lo, hi);
    return true;
}

float sv_code_line_y(const sv_code_geo *g, int line)
{
    int rows = line >= g->first ? rows_between(g, g->first, line - 1)
                                : -rows_between(g, line, g->first - 1);
    return g->y0 + (float)rows * g->pitch;
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

/* The highlight band of the phase's lines and the mark of a mistake's
 * changed line, over all of the line's rows. */
static void draw_line_marks(sv_gfx *g, const sv_theme *t, const sv_box *p, float u, sv_box band,
                            bool hl, bool changed)
{
    if (hl)
        sv_gfx_rect(g, band, 0.0f, sv_rgba_mix(t->panel, t->accent, 0.28f),
                    sv_rgba_alpha(t->accent, 0.0f), 0.0f, SV_BORDER_NONE);
    if (changed) {
        sv_box mark = { p->x + 0.3f * u, band.y, 0.7f * u, band.h };
        sv_gfx_rect(g, mark, 0.0f, t->error, t->error, 0.0f, SV_BORDER_NONE);
        if (!hl)
            sv_gfx_rect(g, (sv_box){ mark.x + mark.w, band.y, band.w - mark.w, band.h },
                        0.0f, sv_rgba_mix(t->panel, t->error, 0.16f),
                        sv_rgba_alpha(t->error, 0.0f), 0.0f, SV_BORDER_NONE);
    } else if (hl) {
        sv_box bar = { p->x + 0.3f * u, band.y, 0.5f * u, band.h };
        sv_gfx_rect(g, bar, 0.0f, t->accent, t->accent, 0.0f, SV_BORDER_NONE);
    }
}

/* Bytes [a, b) of a line as one text call per run of one token. */
static void draw_row(sv_gfx *g, const sv_theme *t, const sv_code_geo *cg, const char *text,
                     const sv_tok *tok, size_t a, size_t b, float y)
{
    float x = cg->text_x, adv = sv_mono_width(cg->px, 1.0f);
    while (a < b) {
        size_t e = a + 1;
        while (e < b && tok[e] == tok[a])
            e++;
        char run[CODE_LINE_MAX];
        memcpy(run, text + a, e - a);
        run[e - a] = '\0';
        float w = sv_gfx_text(g, SV_FONT_MONO, cg->px, x, y, SV_ALIGN_LEFT,
                              tok_colour(t, tok[a]), run);
        x += w > 0.0f ? w : adv * (float)(e - a);
        a = e;
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

    /* The title: the file, whole, and the phase (or how to step through
     * them) to its right where there is room: in words, then its name
     * alone, else left out (the band shows it). The file name is cut only
     * when it alone is wider than the panel. */
    char path[240];
    /* A mistake whose file was not in the tree at build time: its name, and
     * the chapter's kernel below, said plainly. */
    if (s->kernel_file && s->kernel_file[0] && !s->kernel_embedded)
        snprintf(path, sizeof path, "%s (not in this build; the chapter's kernel shown)",
                 s->kernel_file);
    else
        snprintf(path, sizeof path, "%s", f->path);
    /* the name at the small size, down to the legible size to be whole */
    float sp = sv_scene_fit_px(g, SV_FONT_SANS_BOLD, l->small_px, p->w - 2.0f * u, path);
    sp = fmaxf(sp, fminf(l->legible_px, l->small_px));
    float name_w = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, sp, path);
    char right[96];
    if (s->phase != SV_PHASE_NONE)
        snprintf(right, sizeof right, "phase: %s", sv_phase_name(s->phase));
    else
        snprintf(right, sizeof right, "\u25bc \u25b2 phases");
    float room = p->w - 3.0f * u - name_w;
    if (sv_gfx_text_width(g, SV_FONT_SANS, sp, right) > room && s->phase != SV_PHASE_NONE)
        snprintf(right, sizeof right, "%s", sv_phase_name(s->phase));
    if (sv_gfx_text_width(g, SV_FONT_SANS, sp, right) <= room)
        sv_gfx_text(g, SV_FONT_SANS, sp, p->x + p->w - 1.0f * u, cg.title_y, SV_ALIGN_RIGHT,
                    s->phase ? t->accent : t->text_dim, right);
    char title[200];
    sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, sp, p->w - 2.0f * u, path, title, sizeof title);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, sp, p->x + 1.0f * u, cg.title_y, SV_ALIGN_LEFT, t->text,
                title);

    sv_box clip = { p->x + 0.3f * u, p->y + 3.4f * u, p->w - 0.6f * u, p->h - 3.8f * u };
    sv_gfx_clip(g, &clip);
    int row = 0;
    for (int line = cg.first; line <= f->nlines && row < cg.count; line++) {
        const sv_source_line *ln = &f->lines[line - 1];
        char text[CODE_LINE_MAX];
        sv_tok tok[CODE_LINE_MAX];
        size_t starts[CODE_LINE_MAX];
        size_t len = expand_line(f, line, text, tok);
        int rows = wrap_rows(text, len, cg.cols, starts, CODE_LINE_MAX);
        float y = sv_code_line_y(&cg, line);
        bool hl = line >= cg.hl_lo && line <= cg.hl_hi && cg.hl_lo > 0;
        sv_box band = { p->x + 0.3f * u, y - cg.pitch / 2.0f, p->w - 0.6f * u,
                        cg.pitch * (float)rows };
        draw_line_marks(g, t, p, u, band, hl, ln->changed);
        char num[16];
        snprintf(num, sizeof num, "%d", line);
        sv_gfx_text(g, SV_FONT_MONO, cg.px, cg.gutter_x, y, SV_ALIGN_RIGHT,
                    hl ? t->text : t->text_dim, num);
        for (int r = 0; r < rows && row < cg.count; r++, row++) {
            float ry = y + (float)r * cg.pitch;
            if (r > 0) /* a continuation: marked in the gutter */
                sv_gfx_text(g, SV_FONT_SANS, cg.px, cg.gutter_x, ry, SV_ALIGN_RIGHT,
                            t->text_dim, "\u21aa");
            size_t a = starts[r], b = r + 1 < rows ? starts[r + 1] : len;
            while (b > a && text[b - 1] == ' ')
                b--;
            draw_row(g, t, &cg, text, tok, a, b, ry);
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

/* ---- a kernel trace's own source (issue 18) ----------------------------- */

/* A warp's lanes at a line where it diverged (issue 30), at the line's
 * right end: a square per lane of the step, filled where the lane ran the
 * line, hollow where it waited; the warp's number before them. */
static void draw_lanes(sv_gfx *g, const sv_theme *t, const sv_box *clip, float y, float pitch,
                       const sv_kdiverge *d)
{
    float side = fminf(pitch * 0.55f, clip->w * 0.28f / 32.0f), gap = side * 0.25f;
    if (side < 2.0f)
        return;
    int last = 31;
    while (last > 0 && !(d->lanes >> last & 1u))
        last--;
    float x0 = clip->x + clip->w - 0.4f * pitch - (float)(last + 1) * (side + gap);
    sv_rgba ink = t->partial;
    float tagw = 1.8f * pitch; /* the panel under them: legible over a long line's text */
    sv_gfx_rect(g, (sv_box){ x0 - tagw, y - pitch / 2.0f, clip->x + clip->w - x0 + tagw, pitch },
                0.0f, t->panel, sv_rgba_alpha(t->panel, 0.0f), 0.0f, SV_BORDER_NONE);
    for (int i = 0; i <= last; i++) {
        if (!(d->lanes >> i & 1u))
            continue;
        bool ran = d->ran >> i & 1u;
        sv_box b = { x0 + (float)i * (side + gap), y - side / 2.0f, side, side };
        sv_gfx_rect(g, b, 0.0f, ran ? ink : sv_rgba_alpha(t->panel, 0.0f), ink,
                    fmaxf(1.0f, side * 0.14f), SV_BORDER_SOLID);
    }
    char w[24];
    snprintf(w, sizeof w, "w%u", (unsigned)d->warp);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, fmaxf(8.0f, pitch * 0.55f), x0 - 0.3f * pitch, y,
                SV_ALIGN_RIGHT, ink, w);
}

/* The lines the kernel pane marks in its source: the last save's error, the
 * hovered cell's hazard (both lines) and write, the failure, and the step's
 * barrier, or with a phase (Down/Up) that phase's lines (kphase.c). */
typedef struct kmarks {
    int error, fail, barrier, write, hz1, hz2;
    int phase[SV_KPHASE_MAX_LINES], nphase;
} kmarks;

static bool phase_line(const kmarks *m, int line)
{
    for (int i = 0; i < m->nphase; i++)
        if (m->phase[i] == line)
            return true;
    return false;
}

static kmarks kernel_marks(const sv_app_view *s)
{
    const sv_ktrace *t = s->ktrace;
    kmarks m = { .error = s->kerror && s->kerror[0] ? s->kerror_line : 0 };
    /* A failed save's text has other lines than the picture's trace: only
     * its error line is marked there, none of the old picture's (its
     * barrier, its phase, its failure, a hovered cell's write). */
    if (s->ksource)
        return m;
    if (t->failure.kind != SV_KFAIL_NONE)
        m.fail = t->failure.line;
    if (t->nsteps == 0)
        return m;
    size_t k = (size_t)sv_kpane_step(s);
    if (s->phase != SV_PHASE_NONE)
        m.nphase = sv_kphase_lines(t, k, s->phase, m.phase, SV_KPHASE_MAX_LINES);
    else
        m.barrier = t->steps[k].barrier_line;
    int row, col;
    sv_krows rows;
    if (sv_scene_tooltip_target(s, &row, &col) && sv_kpane_rows(t, &rows) && row < rows.n &&
        (uint32_t)col < rows.row[row].count && rows.row[row].kind != SV_KROW_INPUT) {
        const sv_krow *r = &rows.row[row];
        const sv_kwrite *w = sv_kpane_write_of(t, k, r->array, r->first + (uint32_t)col);
        if (w)
            m.write = w->at.line;
        const sv_khazard *h = sv_kpane_hazard_at(t, k, r->array, r->first + (uint32_t)col, 0);
        if (h) {
            m.hz1 = h->first.line;
            m.hz2 = h->second.line;
        }
    }
    return m;
}

void sv_render_kernel_source(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                             const sv_theme *t)
{
    const sv_ktrace *kt = s->ktrace;
    if (!s->code || !kt || l->code_panel.w <= 0.0f || l->code_panel.h <= 0.0f)
        return;
    const sv_box *p = &l->code_panel;
    float u = l->unit;
    float px = fmaxf(8.0f, floorf(fminf(1.75f * u, p->w / 50.0f)));
    float pitch = ceilf(px * 1.38f), top = p->y + 4.2f * u;
    int count = (int)floorf((p->y + p->h - 0.8f * u - top) / pitch);
    if (count < 1) count = 1;
    sv_gfx_rect(g, *p, 0.8f * u, t->panel, t->grid, fmaxf(1.0f, 0.15f * u), SV_BORDER_SOLID);
    char title[200], name[160];
    const char *file = kt->file ? kt->file : kt->kernel ? kt->kernel : "kernel";
    const char *slash = strrchr(file, '/');
    sv_escape(slash && slash[1] ? slash + 1 : file, name, sizeof name);
    sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, l->small_px, p->w - 2.0f * u, name, title,
                          sizeof title);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, l->small_px, p->x + 1.0f * u, p->y + 2.0f * u,
                SV_ALIGN_LEFT, t->text, title);
    char right[64]; /* the phase, or how to step through them, where there is room */
    if (s->phase)
        snprintf(right, sizeof right, "phase: %s", sv_phase_name(s->phase));
    else
        snprintf(right, sizeof right, "\u25bc \u25b2 phases");
    if (sv_gfx_text_width(g, SV_FONT_SANS, l->small_px, right) <=
        p->w - 3.0f * u - sv_gfx_text_width(g, SV_FONT_SANS_BOLD, l->small_px, title))
        sv_gfx_text(g, SV_FONT_SANS, l->small_px, p->x + p->w - 1.0f * u, p->y + 2.0f * u,
                    SV_ALIGN_RIGHT, s->phase ? t->accent : t->text_dim, right);
    /* A failed save shows the failing text (its error line is marked), over
     * the last good trace's own source. */
    const char *src = s->ksource ? s->ksource : kt->source ? kt->source : "";
    int nlines = 1;
    for (const char *c = src; *c; c++)
        nlines += *c == '\n';
    kmarks m = kernel_marks(s);
    int focus = m.error ? m.error : m.hz1 ? m.hz1 : m.fail ? m.fail : m.write ? m.write
              : m.nphase ? m.phase[0] : m.barrier;
    int first = 1;
    if (focus > count * 2 / 3)
        first = focus - count / 3;
    if (first > nlines - count + 1) first = nlines - count + 1;
    if (first < 1) first = 1;
    float gutter = p->x + 1.0f * u + sv_mono_width(px, 4.0f), tx = gutter + 1.4f * u;
    sv_box clip = { p->x + 0.3f * u, p->y + 3.4f * u, p->w - 0.6f * u, p->h - 3.8f * u };
    sv_gfx_clip(g, &clip);
    const char *c = src;
    for (int line = 1; line < first && *c; line++) {
        const char *nl = strchr(c, '\n');
        c = nl ? nl + 1 : c + strlen(c);
    }
    /* The step's divergence for the warp the view shows (the hovered
     * cell's, else the first): its lanes at each line that split it. */
    sv_kdiverge dv[64];
    size_t ndv = 0;
    if (!s->ksource && kt->nsteps > 0) {
        size_t k = (size_t)sv_kpane_step(s), all = sv_ktrace_divergence(kt, k, dv, 64);
        if (all > 64)
            all = 64;
        int warp = sv_kpane_diverged_warp(s, k, dv, all);
        for (size_t i = 0; i < all; i++)
            if (dv[i].warp == (uint32_t)warp)
                dv[ndv++] = dv[i];
    }
    float y = top + pitch / 2.0f;
    for (int line = first; line < first + count && line <= nlines; line++, y += pitch) {
        const char *nl = strchr(c, '\n');
        size_t len = nl ? (size_t)(nl - c) : strlen(c);
        sv_box band = { p->x + 0.3f * u, y - pitch / 2.0f, p->w - 0.6f * u, pitch };
        bool err = line == m.error || line == m.fail || line == m.hz1 || line == m.hz2;
        bool acc = line == m.write || line == m.barrier || phase_line(&m, line);
        if (err || acc) {
            sv_rgba col = err ? t->error : t->accent;
            sv_gfx_rect(g, band, 0.0f, sv_rgba_mix(t->panel, col, 0.24f), sv_rgba_alpha(col, 0.0f),
                        0.0f, SV_BORDER_NONE);
            sv_gfx_rect(g, (sv_box){ band.x, band.y, 0.6f * u, band.h }, 0.0f, col, col, 0.0f,
                        SV_BORDER_NONE);
        }
        char num[16], buf[512];
        snprintf(num, sizeof num, "%d", line);
        sv_gfx_text(g, SV_FONT_MONO, px, gutter, y, SV_ALIGN_RIGHT, err || acc ? t->text
                                                                       : t->text_dim, num);
        size_t o = 0;
        for (size_t q = 0; q < len && o + 5 < sizeof buf; q++) {
            unsigned char ch = (unsigned char)c[q];
            if (ch == '\t') {
                for (int sp = 0; sp < 4; sp++) buf[o++] = ' ';
            } else {
                buf[o++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
            }
        }
        buf[o] = '\0';
        sv_gfx_text(g, SV_FONT_MONO, px, tx, y, SV_ALIGN_LEFT, t->text, buf);
        for (size_t i = 0; i < ndv; i++)
            if (dv[i].line == line)
                draw_lanes(g, t, &clip, y, pitch, &dv[i]);
        if (line == m.error && s->kerror && s->kerror[0]) { /* the message under its line */
            y += pitch;
            char msg[400], cut[400];
            sv_escape(s->kerror, msg, sizeof msg);
            sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, px, clip.x + clip.w - tx, msg, cut,
                                  sizeof cut);
            sv_gfx_text(g, SV_FONT_SANS_BOLD, px, tx, y, SV_ALIGN_LEFT, t->error, cut);
            count--;
        }
        c = nl ? nl + 1 : c + len;
    }
    sv_gfx_clip(g, NULL);
}
