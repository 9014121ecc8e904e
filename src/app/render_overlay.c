/* The frame's drawing around the pane: the caption (wrapped onto the lines
 * the layout made room for), the legend with the cases' conditions, the
 * lab's verdict and the counters, the timeline and key hints, the tooltip
 * (placed off what it explains), the input box, the transient status line
 * and the help overlay. The words come from words.c; this places them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/ktrace_reading.h"
#include "help.h"
#include "kpane.h"
#include "scene.h"
#include "util.h"
#include "words.h"

static void draw_caption(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                         const sv_theme *t)
{
    sv_caption_words cw;
    if (!sv_pane_of(s)->caption(s, &cw))
        return;
    const char *l1 = cw.line1, *l2 = cw.line2;
    const sv_box *b = &l->caption;
    sv_rgba l2_col = cw.line2_error ? t->error : t->text_dim;
    /* The bold line wraps onto the lines the layout made room for at the
     * full size before it shrinks (never below 80%, nor below the legible
     * size); past that its last line is cut with an ellipsis. */
    int maxb = l->caption_bold > 0 ? l->caption_bold : 2;
    if (maxb > 4) maxb = 4;
    char lines[4][SV_WRAP_MAX];
    float px = l->caption_px;
    int n = sv_scene_wrap(g, SV_FONT_SANS_BOLD, px, b->w, l1, lines, maxb);
    float least = fmaxf(0.8f * l->caption_px, l->legible_px);
    while (n > maxb && px - 1.0f >= least) {
        px = floorf(px - 1.0f);
        n = sv_scene_wrap(g, SV_FONT_SANS_BOLD, px, b->w, l1, lines, maxb);
    }
    if (n > maxb) {
        /* the rest from the last line on, cut to fit */
        const char *rest = l1;
        for (int k = 0; k < maxb - 1; k++) {
            rest = strstr(rest, lines[k]) + strlen(lines[k]);
            while (*rest == ' ')
                rest++;
        }
        char cut[SV_WRAP_MAX];
        sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, px, b->w, rest, cut, sizeof cut);
        memcpy(lines[maxb - 1], cut, sizeof cut);
        n = maxb;
    }
    float lh = l->caption_px * 1.22f, y = b->y + lh * 0.5f;
    for (int k = 0; k < n; k++, y += lh)
        sv_gfx_text(g, SV_FONT_SANS_BOLD, px, b->x, y, SV_ALIGN_LEFT, t->text, lines[k]);
    /* The small lines: the round's second line and, n > 32, the warps
     * line. Each wraps onto the lines the box has left rather than shrink;
     * only when even that is not enough does it shrink to one line. */
    const char *small[2] = { l2, cw.warps };
    sv_rgba cols[2] = { l2_col, t->text_dim };
    float spx = l->small_px * 1.05f, slh = l->small_px * 1.5f;
    float y2 = y - lh * 0.5f + l->small_px * 0.75f;
    int room = (int)floorf((b->y + b->h - (y - lh * 0.5f)) / slh + 0.05f);
    char wrapped[2][4][SV_WRAP_MAX];
    int need[2] = { 0, 0 };
    for (int k = 0; k < 2; k++)
        if (small[k][0])
            need[k] = sv_scene_wrap(g, SV_FONT_SANS, spx, b->w, small[k], wrapped[k], 4);
    bool wrap = need[0] + need[1] <= room && need[0] <= 4 && need[1] <= 4;
    for (int k = 0; k < 2; k++) {
        if (!small[k][0])
            continue;
        if (wrap && need[k] > 1) {
            for (int j = 0; j < need[k]; j++, y2 += slh)
                sv_gfx_text(g, SV_FONT_SANS, spx, b->x, y2, SV_ALIGN_LEFT, cols[k],
                            wrapped[k][j]);
            continue;
        }
        sv_scene_text_fit(g, SV_FONT_SANS, spx, l->legible_px, b->w, b->x, y2, SV_ALIGN_LEFT,
                          cols[k], small[k]);
        y2 += slh;
    }
}

/* ---- legend and counters ---------------------------------------------- */

/* The legend's entries flow onto the lines the layout gave it (one, or two
 * where even the terse words at the legible size would not fit one line:
 * issue 28), each a swatch with the case's border style, then its words
 * and, dimmer, the case's condition at this round. A flow places entries
 * at unit u (the small text's size / 2.5, or less to fit) and draws them
 * when draw is set; it says whether they all fit. */
typedef struct legend_entry {
    sv_rgba fill, border;
    sv_border style;
    const char *glyph, *words, *cond;
    bool hatch;
} legend_entry;

typedef struct legend_flow {
    float x, right;   /* the pen and the legend's right edge */
    int line, lines;  /* the line the pen is on, how many there are */
    float widest;     /* the longest line's width */
} legend_flow;

static float legend_entry_w(sv_gfx *g, const legend_entry *e, float u)
{
    float px = floorf(2.5f * u);
    float w = 3.8f * u + 0.9f * u + sv_gfx_text_width(g, SV_FONT_SANS, px, e->words);
    if (e->cond && e->cond[0])
        w += 0.9f * u + sv_gfx_text_width(g, SV_FONT_SANS, px, e->cond);
    return w;
}

static bool legend_place(sv_gfx *g, const sv_layout *l, const sv_theme *t,
                         const legend_entry *e, size_t n, float u, bool draw, legend_flow *f)
{
    f->x = l->legend.x;
    f->right = l->legend.x + l->legend.w;
    f->line = 0;
    f->lines = l->legend_lines > 1 ? l->legend_lines : 1;
    f->widest = 0.0f;
    float px = floorf(2.5f * u), lh = l->legend.h / (float)f->lines;
    bool fits = true;
    for (size_t i = 0; i < n; i++) {
        float w = legend_entry_w(g, &e[i], u);
        if (f->x > l->legend.x && f->x + w > f->right && f->line + 1 < f->lines) {
            f->line++;
            f->x = l->legend.x;
        }
        if (f->x + w > f->right + 0.5f)
            fits = false;
        if (draw) {
            float cy = l->legend.y + lh * ((float)f->line + 0.5f), x = f->x;
            sv_box sw = { x, cy - 1.3f * u, 3.8f * u, 2.6f * u };
            if (e[i].hatch)
                sv_scene_hatch(g, sw, 0.9f * u, fmaxf(1.0f, 0.2f * u), t->error);
            sv_gfx_rect(g, sw, 0.5f * u, e[i].fill, e[i].border, fmaxf(1.0f, 0.36f * u),
                        e[i].style);
            if (e[i].glyph) /* the `?` a cell shows, as legible as the words */
                sv_gfx_text(g, SV_FONT_MONO, fmaxf(1.8f * u, fminf(l->legible_px, px)),
                            sw.x + sw.w / 2.0f, cy, SV_ALIGN_CENTER, t->uninit, e[i].glyph);
            x += sw.w + 0.9f * u;
            x += sv_gfx_text(g, SV_FONT_SANS, px, x, cy, SV_ALIGN_LEFT, t->text, e[i].words);
            if (e[i].cond && e[i].cond[0])
                sv_gfx_text(g, SV_FONT_SANS, px, x + 0.9f * u, cy, SV_ALIGN_LEFT, t->text_dim,
                            e[i].cond);
        }
        f->x += w;
        if (f->x - l->legend.x > f->widest)
            f->widest = f->x - l->legend.x;
        f->x += 2.6f * u;
    }
    return fits;
}

/* The Hillis-Steele legend's entries: the three cases (with their
 * conditions at this round, cond; NULL none; terse: the words without the
 * border style's name, which the swatch shows), uninitialized, the input
 * window while a cell is explained, the lab's hatch. Returns how many. */
static size_t legend_entries(const sv_theme *t, bool show_window, bool lab, bool show_correct,
                             char (*cond)[48], bool terse, legend_entry out[6])
{
    static const char *full_words[3] = { "full window (solid)", "partial window (dashed)",
                                         "copy-through (dotted)" };
    static const char *terse_words[3] = { "full window", "partial window", "copy-through" };
    const char *const *words = terse ? terse_words : full_words;
    size_t n = 0;
    out[n++] = (legend_entry){ sv_rgba_mix(t->cell_fill, t->full, t->tint), t->full,
                               SV_BORDER_SOLID, NULL, words[0], cond ? cond[0] : NULL, false };
    out[n++] = (legend_entry){ sv_rgba_mix(t->cell_fill, t->partial, t->tint), t->partial,
                               SV_BORDER_DASHED, NULL, words[1], cond ? cond[1] : NULL, false };
    out[n++] = (legend_entry){ sv_rgba_mix(t->cell_fill, t->copy, t->tint), t->copy,
                               SV_BORDER_DOTTED, NULL, words[2], cond ? cond[2] : NULL, false };
    out[n++] = (legend_entry){ sv_rgba_mix(t->cell_fill, t->bg, 0.55f),
                               sv_rgba_alpha(t->uninit, 0.7f), SV_BORDER_SOLID, "?",
                               "uninitialized", NULL, false };
    if (show_window)
        out[n++] = (legend_entry){ sv_rgba_mix(t->cell_fill, t->window, 0.42f), t->window,
                                   SV_BORDER_SOLID, NULL, "input window", NULL, false };
    if (lab)
        out[n++] = (legend_entry){ sv_rgba_alpha(t->error, 0.0f), t->error, SV_BORDER_SOLID,
                                   NULL, show_correct ? "wrong in some run (\u2713 correct)"
                                                      : "wrong in some run (D: correct)",
                                   NULL, true };
    return n;
}

/* A reading's own legend (its cells have no chapter cases; Blelloch's: the
 * range marks and the swap), the marks in the accent pane_kernel.c draws
 * them with. Returns its width; only measured when draw is false. */
static float legend_reading(sv_gfx *g, const sv_layout *l, const sv_theme *t, float cy,
                            const sv_rlegend *item, size_t n, float u, bool draw)
{
    float px = floorf(2.5f * u), x = l->legend.x;
    for (size_t i = 0; i < n; i++) {
        x += draw ? sv_gfx_text(g, SV_FONT_MONO, px, x, cy, SV_ALIGN_LEFT, t->accent,
                                item[i].mark)
                  : sv_gfx_text_width(g, SV_FONT_MONO, px, item[i].mark);
        x += 0.9f * u;
        x += draw ? sv_gfx_text(g, SV_FONT_SANS, px, x, cy, SV_ALIGN_LEFT, t->text, item[i].words)
                  : sv_gfx_text_width(g, SV_FONT_SANS, px, item[i].words);
        x += 2.6f * u;
    }
    return x - 2.6f * u - l->legend.x;
}

static void draw_legend(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                        bool show_window)
{
    const sv_reading *rd = sv_reading_of(s->ktrace);
    sv_rlegend item[SV_READING_LEGEND_MAX];
    size_t nitem = rd->legend ? rd->legend(s->ktrace, item) : 0;
    if (nitem) {
        float cy = l->legend.y + l->legend.h / 2.0f, u = l->small_px / 2.5f;
        float w = legend_reading(g, l, t, cy, item, nitem, u, false);
        if (w > l->legend.w)
            u *= l->legend.w / w;
        legend_reading(g, l, t, cy, item, nitem, u, true);
        return;
    }
    /* u: the legend's unit, the small text's size / 2.5, shrunk to fit. */
    float u = l->small_px / 2.5f;
    bool lab = s->lab != NULL && !s->outcome_hidden; /* a question open: no hint */
    /* The cases' conditions at this round where they fit at full size (no
     * question open: they would answer it; the tooltip of a cell gives its
     * case's condition anyway); the overview, which has no tooltip, shortens
     * the words to make room for them. Else the words alone, shrunk if need
     * be, but not below the legible size (issue 28): there the terse words
     * (the swatches show the border styles), and below it only where even
     * those would run off the frame. */
    char cond[3][48];
    bool conds = !(s->quiz && s->quiz_asking) && sv_pane_of(s)->conditions(s, cond);
    bool sc = s->show_correct;
    legend_entry e[6];
    size_t n = 0;
    legend_flow f;
    bool placed = false;
    if (conds) {
        n = legend_entries(t, show_window, lab, sc, cond, false, e);
        placed = legend_place(g, l, t, e, n, u, false, &f);
        if (!placed && s->overview) {
            n = legend_entries(t, show_window, lab, sc, cond, true, e);
            placed = legend_place(g, l, t, e, n, u, false, &f);
        }
    }
    float least = fminf(l->legible_px / 2.5f, u);
    /* the input window's entry, which comes with the pointer, goes first
     * (the window's own label under the input row names it) */
    for (int pass = 0; pass < 4 && !placed; pass++) {
        bool terse = pass & 1, window = show_window && pass < 2;
        if (pass >= 2 && !show_window)
            break;
        n = legend_entries(t, window, lab, sc, NULL, terse, e);
        for (float k = 1.0f; !placed && u * k >= least - 1e-3f; k -= 0.04f) {
            placed = legend_place(g, l, t, e, n, fmaxf(u * k, least), false, &f);
            if (placed)
                u = fmaxf(u * k, least);
        }
    }
    for (float k = 0.96f; !placed && k > 0.3f; k -= 0.04f) { /* the last resort */
        placed = legend_place(g, l, t, e, n, least * k, false, &f);
        if (placed)
            u = least * k;
    }
    legend_place(g, l, t, e, n, u, true, &f);
    float w = f.line == 0 ? f.widest : f.x - 2.6f * u - l->legend.x;
    float cy = l->legend.y + l->legend.h / (float)f.lines * ((float)f.line + 0.5f);
    /* Too many cells for numbers: say how to get them, right of the legend. */
    if (l->num_px <= 0.0f) {
        const char *hint = "values: hover a cell, or zoom in (])";
        float avail = l->legend.w - w - 2.0f * u;
        float px = sv_scene_fit_px(g, SV_FONT_SANS, l->small_px, avail, hint);
        if (px >= l->legible_px - 0.5f) /* else none: it would be too small to read */
            sv_gfx_text(g, SV_FONT_SANS, px, l->legend.x + l->legend.w, cy, SV_ALIGN_RIGHT,
                        t->text_dim, hint);
    }
}

static void draw_counters(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                          const sv_theme *t)
{
    char line[256], note[512];
    if (!sv_pane_of(s)->counters(s, line, sizeof line, note, sizeof note))
        return;
    if (l->verdict.h > 0.0f && note[0]) {
        /* The lab's verdict on its own lines, wrapped at the small size. */
        char lines[3][SV_WRAP_MAX];
        float px = l->small_px;
        int n = sv_scene_wrap(g, SV_FONT_SANS, px, l->verdict.w, note, lines, 3);
        int room = (int)floorf(l->verdict.h / (1.5f * px) + 0.05f);
        if (room < 1) room = 1;
        if (room > 3) room = 3;
        if (n > room) { /* longer than the layout's estimate: the rest on one line */
            const char *rest = note;
            for (int k = 0; k < room - 1; k++) {
                rest = strstr(rest, lines[k]) + strlen(lines[k]);
                while (*rest == ' ')
                    rest++;
            }
            px = fmaxf(sv_scene_fit_px(g, SV_FONT_SANS, px, l->verdict.w, rest), l->legible_px);
            sv_gfx_text_ellipsize(g, SV_FONT_SANS, px, l->verdict.w, rest, lines[room - 1],
                                  SV_WRAP_MAX);
            n = room;
        }
        float y = l->verdict.y + 0.75f * l->small_px;
        for (int k = 0; k < n; k++, y += 1.5f * l->small_px)
            sv_gfx_text(g, SV_FONT_SANS, k == n - 1 ? px : l->small_px, l->verdict.x, y,
                        SV_ALIGN_LEFT, t->error, lines[k]);
        note[0] = '\0';
    }
    float cy = l->counters.y + l->counters.h / 2.0f;
    /* fitted to the line, never below the legible size (cut there) */
    float w = sv_scene_text_fit(g, SV_FONT_SANS, l->small_px, l->legible_px,
                                note[0] ? l->counters.w * 0.55f : l->counters.w, l->counters.x,
                                cy, SV_ALIGN_LEFT, t->text_dim, line);
    if (note[0]) {
        float avail = l->counters.w - w - 1.2f * l->small_px;
        sv_scene_text_fit(g, SV_FONT_SANS, l->small_px, l->legible_px, fmaxf(avail, 1.0f),
                          l->counters.x + l->counters.w, cy, SV_ALIGN_RIGHT, t->error, note);
    }
}

/* ---- timeline and key hints ------------------------------------------- */

static void draw_timeline(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                          const sv_theme *t)
{
    float u = l->small_px / 2.5f, y = l->timeline_y, r = l->timeline_r;
    int steps = l->steps, cur = s->ktrace ? sv_kpane_step(s) : s->step;
    sv_gfx_text(g, SV_FONT_SANS, l->small_px, l->timeline.x, y, SV_ALIGN_LEFT, t->text_dim,
                s->ktrace ? "step" : "round");
    if (steps > 1)
        sv_gfx_line(g, l->timeline_x[0], y, l->timeline_x[steps - 1], y,
                    fmaxf(1.0f, 0.25f * u), t->grid);
    for (int k = 0; k < steps; k++) {
        float x = l->timeline_x[k];
        if (k == cur) {
            sv_gfx_circle(g, x, y, r * 1.7f, t->bg, t->accent,
                          fmaxf(1.5f, 0.3f * u));
            sv_gfx_circle(g, x, y, r, t->text, t->text, 0.0f);
        } else if (k < cur) {
            sv_gfx_circle(g, x, y, r, t->text_dim, t->text_dim, 0.0f);
        } else {
            sv_gfx_circle(g, x, y, r, t->bg, t->text_dim, fmaxf(1.0f, 0.22f * u));
        }
        /* The mistakes lab: the first round in which any cell diverged. */
        int first_wrong = s->ktrace ? s->ktrace->first_broken_step
                                    : s->lab ? s->lab->first_wrong_round : -1;
        if ((s->lab || s->ktrace) && !s->outcome_hidden && first_wrong == k) {
            sv_gfx_circle(g, x, y, r * 2.4f, sv_rgba_alpha(t->error, 0.0f), t->error,
                          fmaxf(1.5f, 0.3f * u));
            sv_gfx_text(g, SV_FONT_SANS_BOLD, fmaxf(l->small_px * 0.85f, l->legible_px), x,
                        y - 2.6f * u,
                        SV_ALIGN_CENTER, t->error, s->ktrace ? "first broken" : "first wrong");
        }
        char lab[16];
        if (s->ktrace) /* a kernel's steps: "r2" where it is the chapter's round 2 */
            sv_kwords_step_label(s->ktrace, k, lab, sizeof lab);
        else
            sv_words_step_label(s->trace, k, lab, sizeof lab);
        sv_gfx_text(g, k == cur ? SV_FONT_SANS_BOLD : SV_FONT_SANS,
                    fmaxf(l->small_px * 0.85f, l->legible_px), x, y + 1.3f * l->small_px, SV_ALIGN_CENTER, k == cur ? t->text : t->text_dim,
                    lab);
    }
    char qhint[200];
    const char *hint = sv_words_hint(s, qhint, sizeof qhint);
    if (!hint[0]) /* a slide: no key hints */
        return;
    /* the room right of the last dot (the dots take the left half at most) */
    float end = steps > 0 ? l->timeline_x[steps - 1] + 2.4f * r : l->timeline.x;
    float avail = fmaxf(l->timeline.w * 0.45f, l->timeline.x + l->timeline.w - end - 1.5f * u);
    sv_scene_text_fit(g, SV_FONT_SANS, l->small_px, l->legible_px, avail,
                      l->timeline.x + l->timeline.w, y, SV_ALIGN_RIGHT, t->text_dim, hint);
}

/* ---- tooltip ---------------------------------------------------------- */

static sv_rgba tone_colour(const sv_theme *t, sv_words_tone tone)
{
    switch (tone) {
    case SV_TONE_FULL: return t->full;
    case SV_TONE_PARTIAL: return t->partial;
    case SV_TONE_COPY: return t->copy;
    case SV_TONE_ERROR: return t->error;
    default: return t->text;
    }
}

static float overlap_area(sv_box a, sv_box b)
{
    float w = fminf(a.x + a.w, b.x + b.w) - fmaxf(a.x, b.x);
    float h = fminf(a.y + a.h, b.y + b.h) - fmaxf(a.y, b.y);
    return w > 0.0f && h > 0.0f ? w * h : 0.0f;
}

/* Where a tooltip of bw x bh about cell (row, i) goes: off the row it
 * explains and off the input window it highlights (both would hide what it
 * explains), then as far as it can off a pout cell's operands in pin and
 * off the caption; near the cell. Tries above and below the row, above the
 * rows and below them, each centred on the cell or beside the window, and
 * keeps the least covering. */
static void tooltip_place(const sv_app_view *s, const sv_layout *l, int row, int i, float bw,
                          float bh, float *out_x, float *out_y)
{
    float u = l->text_u, gap = 0.9f * u, m = l->margin;
    float W = (float)l->fb_w, H = (float)l->fb_h;
    sv_box c = sv_layout_cell(l, row, i);
    sv_box avoid[5];
    /* what it explains weighs far more than the caption or the header:
     * the operands most (issue 28: at 1024x768 the inductive step's
     * tooltip sat on pin[i - s] and pin[i]), then its row and window */
    float weight[5] = { 20.0f, 20.0f, 50.0f, 0.5f, 1.0f };
    int na = 0;
    avoid[na++] = (sv_box){ l->cells_clip.x, c.y, l->cells_clip.w, c.h };
    sv_step_view v;
    bool have = !s->ktrace && sv_scene_step(s, s->step, &v);
    int lo = i, hi = i;
    sv_box win = { 0, 0, 0, 0 };
    if (have && !sv_scene_hidden(s, &v, row) && sv_scene_window(s, &v, row, i, &lo)) {
        if (row == 3 && s->trace->scan == SV_SCAN_EXCLUSIVE)
            hi = i - 1;
        if (hi >= lo) {
            sv_box a = sv_layout_cell(l, 0, lo), b = sv_layout_cell(l, 0, hi);
            win = (sv_box){ a.x, a.y, b.x + b.w - a.x, a.h + 3.5f * l->unit };
        }
    }
    avoid[na++] = win;
    sv_box ops = { 0, 0, 0, 0 };
    if (have && v.round > 0 && !v.shift && row == 1 + v.rd->pout && v.rd->cases) {
        int j = v.rd->cases[i] == SV_CASE_COPY ? i : i - (int)v.rd->stride;
        sv_box a = sv_layout_cell(l, 1 + v.rd->pin, j), b = sv_layout_cell(l, 1 + v.rd->pin, i);
        ops = (sv_box){ a.x, a.y, b.x + b.w - a.x, a.h };
    }
    avoid[na++] = ops;
    avoid[na++] = l->caption;
    avoid[na++] = l->header; /* the title, and a toast's place (draw_status) */
    float top = l->row_y[0] - l->cell_h / 2.0f, bottom = l->index_y + l->index_px;
    float ys[4] = { c.y - gap - bh, c.y + c.h + gap, top - gap - bh, bottom + gap };
    if (row >= 2) { /* the lower rows look below first */
        float t0 = ys[0];
        ys[0] = ys[1];
        ys[1] = t0;
    }
    float xs[3] = { c.x + c.w / 2.0f - bw / 2.0f, win.x - gap - bw, win.x + win.w + gap };
    float best = INFINITY;
    *out_x = sv_clampf(xs[0], m, W - m - bw);
    *out_y = sv_clampf(ys[0], m, H - m - bh);
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 3; b++) {
            if (b > 0 && win.w <= 0.0f)
                break;
            float x = sv_clampf(xs[b], m, W - m - bw), y = sv_clampf(ys[a], m, H - m - bh);
            sv_box box = { x, y, bw, bh };
            float cost = 0.0f;
            for (int k = 0; k < na; k++)
                cost += weight[k] * overlap_area(box, avoid[k]);
            /* near the cell, in the order tried, breaks ties */
            cost += 0.01f * (fabsf(x + bw / 2.0f - (c.x + c.w / 2.0f)) + fabsf(y - c.y)) +
                    (float)(a * 3 + b);
            if (cost < best) {
                best = cost;
                *out_x = x;
                *out_y = y;
            }
        }
    }
}

/* The header's source line whole, under it, while the pointer is on it:
 * the header may say it short ("CPU emulator (no NVIDIA GPU found)"), the
 * tooltip keeps the full reason ("CPU emulator: no CUDA driver (CUDA
 * driver version is insufficient for CUDA runtime version)"). */
static void draw_source_tip(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                            const sv_theme *t, int fb_w)
{
    if (!s->hover_source || !s->source || !s->source[0])
        return;
    float u = l->text_u, px = l->small_px, pad = 1.4f * u;
    char line[320], ksrc[200];
    const char *src = s->ktrace ? sv_kwords_source(s->ktrace, false, ksrc, sizeof ksrc) : s->source;
    float avail = (float)fb_w - 2.0f * l->margin - 2.0f * pad;
    sv_gfx_text_ellipsize(g, SV_FONT_SANS, px, avail, src, line, sizeof line);
    float bw = sv_gfx_text_width(g, SV_FONT_SANS, px, line) + 2.0f * pad, bh = px + 2.0f * pad;
    float x = l->source_box.x + l->source_box.w - bw, y = l->header.y + l->header.h + 0.8f * u;
    if (x < l->margin) x = l->margin;
    sv_gfx_rect(g, (sv_box){ x, y, bw, bh }, 1.2f * u, t->panel, t->cell_border,
                fmaxf(1.0f, 0.25f * u), SV_BORDER_SOLID);
    sv_gfx_text(g, SV_FONT_SANS, px, x + pad, y + bh / 2.0f, SV_ALIGN_LEFT, t->text, line);
}

static void draw_tooltip(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                         const sv_theme *t, int fb_w)
{
    int row, i;
    if (!sv_scene_tooltip_target(s, &row, &i) || i < l->first_cell || i > l->last_cell)
        return;
    sv_tip_words tip;
    if (!sv_pane_of(s)->tooltip(s, row, i, &tip))
        return;
    sv_rgba accent = tone_colour(t, tip.accent);
    float u = l->text_u, px = l->small_px, lh = px * 1.5f, pad = 1.4f * u;
    /* Each line at the small size; one wider than the frame wraps onto more
     * lines rather than shrink (issue 28: the lab's explanation line was
     * about 12 px at 1024x768). */
    enum { MAX_ROWS = 24 };
    static char rows[MAX_ROWS][SV_WRAP_MAX];
    int line_of[MAX_ROWS], n = 0;
    float max_w = (float)fb_w - 2 * l->margin - 2 * pad, w = 0.0f;
    for (int k = 0; k < tip.n && n < MAX_ROWS; k++) {
        sv_font f = k == 0 ? SV_FONT_SANS_BOLD : (k == 1 ? SV_FONT_MONO : SV_FONT_SANS);
        char wrapped[8][SV_WRAP_MAX];
        int m = sv_scene_wrap(g, f, px, max_w, tip.line[k], wrapped, 8);
        if (m < 1) { /* an empty line stays a line */
            wrapped[0][0] = '\0';
            m = 1;
        }
        for (int j = 0; j < m && j < 8 && n < MAX_ROWS; j++, n++) {
            memcpy(rows[n], wrapped[j], SV_WRAP_MAX);
            line_of[n] = k;
            w = fmaxf(w, sv_gfx_text_width(g, f, px, rows[n]));
        }
    }
    float bw = fminf(w + 2 * pad, (float)fb_w - 2 * l->margin);
    float bh = (float)n * lh + 2 * pad - (lh - px);
    float x, y;
    tooltip_place(s, l, row, i, bw, bh, &x, &y);
    sv_gfx_rect(g, (sv_box){ x + 0.3f * u, y + 0.4f * u, bw, bh }, 1.2f * u,
                sv_rgba_alpha(t->bg, 0.5f), sv_rgba_alpha(t->bg, 0.0f), 0.0f, SV_BORDER_NONE);
    sv_gfx_rect(g, (sv_box){ x, y, bw, bh }, 1.2f * u, t->panel, accent,
                fmaxf(1.0f, 0.25f * u), SV_BORDER_SOLID);
    float ty = y + pad + px / 2.0f;
    for (int r = 0; r < n; r++) {
        int k = line_of[r];
        sv_font f = k == 0 ? SV_FONT_SANS_BOLD : (k == 1 ? SV_FONT_MONO : SV_FONT_SANS);
        sv_rgba col = k == 0 ? t->text
                    : tip.emph[k] ? sv_rgba_mix(t->text, accent, 0.6f)
                    : k == 1 ? t->text : t->text_dim;
        /* a single word wider than the frame: cut at the legible size */
        sv_scene_text_fit(g, f, px, l->legible_px, bw - 2 * pad, x + pad, ty, SV_ALIGN_LEFT, col,
                          rows[r]);
        ty += lh;
    }
}

/* ---- input box -------------------------------------------------------- */

static size_t utf8_back(const char *s, size_t i)
{
    while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
        i--;
    return i;
}

static void draw_input_box(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                           const sv_theme *t)
{
    float u = l->unit;
    sv_box b = l->input_box;
    sv_gfx_rect(g, b, 1.4f * u, t->panel, t->pin_tag,
                fmaxf(1.0f, 0.3f * u), SV_BORDER_SOLID);
    /* the rows where the layout put them (frame.c's input_rows) */
    float x = b.x + 1.8f * u, y = b.y + l->input_rows.title_y;
    float w = sv_gfx_text(g, SV_FONT_SANS_BOLD, l->label_px, x, y, SV_ALIGN_LEFT, t->text,
                          "Input array");
    const char *how = "numbers separated by spaces or commas, as scanviz-trace takes them";
    float avail = b.w - 3.6f * u - w - 2.0f * u;
    sv_scene_text_fit(g, SV_FONT_SANS, l->small_px, l->legible_px, avail, x + w + 2.0f * u, y,
                      SV_ALIGN_LEFT, t->text_dim, how);

    /* The field: one line, scrolled so the cursor stays in view. */
    sv_box f = { x, b.y + l->input_rows.field_y, b.w - 3.6f * u, l->input_rows.field_h };
    bool bad = s->edit_error[0] != '\0';
    sv_gfx_rect(g, f, 0.8f * u, t->cell_fill, bad ? t->error : t->cell_border,
                fmaxf(1.0f, 0.25f * u), SV_BORDER_SOLID);
    float px = l->label_px * 1.05f, inner = f.w - 2.0f * u;
    const char *text = s->edit_text;
    size_t len = strnlen(text, SV_VIEW_TEXT_MAX - 1);
    size_t cur = s->edit_cursor > len ? len : s->edit_cursor;
    size_t start = 0;
    char tmp[SV_VIEW_TEXT_MAX];
    /* Move start right (by ~8 bytes at a time, then bytewise) until the text
     * before the cursor fits. */
    for (;;) {
        size_t k = cur - start;
        memcpy(tmp, text + start, k);
        tmp[k] = '\0';
        if (sv_gfx_text_width(g, SV_FONT_MONO, px, tmp) <= inner * 0.92f || start >= cur)
            break;
        size_t step = (cur - start) > 64 ? (cur - start) / 4 : 1;
        start = start + step;
        while (start < cur && ((unsigned char)text[start] & 0xC0) == 0x80)
            start++;
    }
    start = utf8_back(text, start);
    size_t shown = len - start;
    memcpy(tmp, text + start, shown);
    tmp[shown] = '\0';
    sv_box clip = { f.x + 0.5f * u, f.y, f.w - 1.0f * u, f.h };
    sv_gfx_clip(g, &clip);
    float tx = f.x + 1.0f * u, ty = f.y + f.h / 2.0f;
    if (s->edit_all && shown > 0) {
        /* The box opens with its text selected: typing replaces it. */
        float sw = sv_gfx_text_width(g, SV_FONT_MONO, px, tmp);
        sv_gfx_rect(g, (sv_box){ tx - 0.2f * u, f.y + 0.7f * u, sw + 0.4f * u, f.h - 1.4f * u },
                    0.3f * u, sv_rgba_alpha(t->pin_tag, 0.45f), t->pin_tag, 0.0f, SV_BORDER_NONE);
    }
    sv_gfx_text(g, SV_FONT_MONO, px, tx, ty, SV_ALIGN_LEFT, t->text, tmp);
    tmp[cur - start] = '\0';
    float cx = tx + sv_gfx_text_width(g, SV_FONT_MONO, px, tmp);
    sv_gfx_line(g, cx, f.y + 0.8f * u, cx, f.y + f.h - 0.8f * u, fmaxf(1.5f, 0.25f * u),
                t->accent);
    sv_gfx_clip(g, NULL);

    if (bad)
        sv_scene_text_fit(g, SV_FONT_SANS_BOLD, l->small_px * 1.1f, l->legible_px, f.w, x,
                          b.y + l->input_rows.error_y, SV_ALIGN_LEFT, t->error, s->edit_error);
    if (l->input_rows.hint)
        sv_scene_text_fit(g, SV_FONT_SANS, l->small_px, l->legible_px, f.w, x,
                          b.y + l->input_rows.hint_y, SV_ALIGN_LEFT, t->text_dim, SV_EDIT_HINT);
}

/* The overview's foot: the whole run's counters, and the key hint where
 * the timeline would be (none on a --clean slide); in a presenter script,
 * where in it, as on its other steps (issue 28: an overview step had
 * none). */
static void draw_overview_foot(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                               const sv_theme *t, const char *line, const char *hint)
{
    sv_scene_text_fit(g, SV_FONT_SANS, l->small_px, l->legible_px, l->counters.w, l->counters.x,
                      l->counters.y + l->counters.h / 2.0f, SV_ALIGN_LEFT, t->text_dim, line);
    if (s->clean)
        return;
    char pos[96];
    if (s->script_steps > 0) {
        snprintf(pos, sizeof pos, "%d / %d \u00b7 \u25c4 \u25ba script \u00b7 H help",
                 s->script_step, s->script_steps);
        hint = pos;
    }
    sv_scene_text_fit(g, SV_FONT_SANS, l->small_px, l->legible_px, l->timeline.w,
                      l->timeline.x + l->timeline.w, l->timeline_y, SV_ALIGN_RIGHT, t->text_dim,
                      hint);
}

/* ---- status and help ---------------------------------------------------- */

/* The transient status line (a toast) sits in the header, right-aligned
 * over the trace's source line (left of the [?]), never over the cells,
 * the overview's titles, the header's title or the key hints and a
 * script's position (issue 28: it covered the first row and the overview's
 * first title). It takes the room from the end of the header's words, or
 * of its title, at the small size shrunk to fit but not below the legible
 * size; a longer one wraps onto two lines, the pill then reaching into the
 * margins above and below the header, and is cut past that. */
static void draw_status(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    if (!s->status[0])
        return;
    float a = (s->status_time > 0.0f && s->status_time < 0.4f) ? s->status_time / 0.4f : 1.0f;
    float u = l->text_u, px = l->small_px, pad = 1.2f * u;
    const sv_box *h = &l->header;
    float right = (s->clean ? h->x + h->w : l->help_hint.x - 0.8f * l->unit) - pad;
    /* where the header's words end (render_frame.c's sv_render_header) */
    char rest[160];
    const char *title;
    sv_pane_of(s)->header(s, &title, rest, sizeof rest);
    if (s->compare && s->view == SV_VIEW_SCAN)
        title = "Hillis-Steele beside Blelloch";
    float title_end = h->x + sv_gfx_text_width(g, SV_FONT_SANS_BOLD, l->title_px, title);
    float rest_px = fmaxf(l->title_px * 0.82f, l->legible_px);
    float words_end = title_end + sv_gfx_text_width(g, SV_FONT_SANS, rest_px, rest);
    float left = words_end + 1.0f * u + pad;
    if (sv_gfx_text_width(g, SV_FONT_SANS, l->legible_px, s->status) > right - left)
        left = title_end + 1.0f * u + pad;
    float max_w = fmaxf(right - left, 1.0f);
    char lines[2][SV_WRAP_MAX];
    int n = 1;
    float fit = sv_scene_fit_px(g, SV_FONT_SANS, px, max_w, s->status);
    if (fit >= l->legible_px) {
        snprintf(lines[0], SV_WRAP_MAX, "%s", s->status);
    } else {
        fit = l->legible_px;
        n = sv_scene_wrap(g, SV_FONT_SANS, fit, max_w, s->status, lines, 2);
        if (n > 2) { /* the rest from the second line on, cut to fit */
            const char *rest2 = strstr(s->status, lines[0]) + strlen(lines[0]);
            while (*rest2 == ' ')
                rest2++;
            sv_gfx_text_ellipsize(g, SV_FONT_SANS, fit, max_w, rest2, lines[1], SV_WRAP_MAX);
        }
        if (n > 2)
            n = 2;
        for (int k = 0; k < n; k++) { /* a word longer than the room */
            char cut[SV_WRAP_MAX];
            sv_gfx_text_ellipsize(g, SV_FONT_SANS, fit, max_w, lines[k], cut, sizeof cut);
            memcpy(lines[k], cut, sizeof cut);
        }
    }
    float w = 0.0f;
    for (int k = 0; k < n; k++)
        w = fmaxf(w, sv_gfx_text_width(g, SV_FONT_SANS, fit, lines[k]));
    float cy = h->y + h->h / 2.0f, lh = 1.2f * fit;
    /* two lines: within the margin above the header and its rule below */
    float lo = 0.3f * h->y, hi = h->y + h->h + 0.5f * l->unit;
    if (n > 1)
        lh = fminf(lh, (hi - lo - 0.2f * fit) / (float)n);
    float bh = n == 1 ? fminf(h->h, 1.6f * fit) : (float)n * lh + 0.2f * fit;
    float top = cy - bh / 2.0f;
    if (n > 1)
        top = sv_clampf(top, lo, hi - bh);
    sv_box pill = { right + pad - w - 2.0f * pad, top, w + 2.0f * pad, bh };
    sv_gfx_rect(g, pill, fminf(bh / 2.0f, 1.6f * u), sv_rgba_alpha(t->panel, a),
                sv_rgba_alpha(t->pin_tag, a), fmaxf(1.0f, 0.2f * u), SV_BORDER_SOLID);
    float y = top + bh / 2.0f - lh * ((float)n - 1.0f) / 2.0f;
    for (int k = 0; k < n; k++, y += lh)
        sv_gfx_text(g, SV_FONT_SANS, fit, pill.x + pad, y, SV_ALIGN_LEFT,
                    sv_rgba_alpha(t->text, a), lines[k]);
}

static void draw_help(sv_gfx *g, const sv_layout *l, const sv_theme *t, int fb_w, int fb_h)
{
    float u = l->unit;
    /* The keys as the app binds them: keys.h's table, sv_help_keys[]. */
    size_t nk = 0;
    while (sv_help_keys[nk][0])
        nk++;
    sv_gfx_rect(g, (sv_box){ 0, 0, (float)fb_w, (float)fb_h }, 0.0f,
                sv_rgba_alpha(t->bg, 0.55f), sv_rgba_alpha(t->bg, 0.0f), 0.0f, SV_BORDER_NONE);
    float px = l->small_px * 1.1f, lh = px * 1.5f;
    float kw = 0.0f, dw = 0.0f;
    for (size_t i = 0; i < nk; i++) {
        float a = sv_gfx_text_width(g, SV_FONT_SANS_BOLD, px, sv_help_keys[i][0]);
        float b = sv_gfx_text_width(g, SV_FONT_SANS, px, sv_help_what(i));
        if (a > kw) kw = a;
        if (b > dw) dw = b;
    }
    float pad = 3.0f * u;
    float bw = kw + dw + 3.0f * u + 2 * pad;
    float bh = 6.5f * u + (float)nk * lh + 4.0f * u + pad;
    /* Shrink everything when the window is small. */
    float k = fminf(1.0f, fminf(((float)fb_w - 2 * l->margin) / bw, ((float)fb_h - 2 * l->margin) / bh));
    px *= k; lh *= k; kw *= k; bw *= k; bh *= k; pad *= k;
    float x = ((float)fb_w - bw) / 2.0f, y = ((float)fb_h - bh) / 2.0f;
    sv_gfx_rect(g, (sv_box){ x, y, bw, bh }, 1.6f * u, sv_rgba_alpha(t->panel, t->overlay_alpha),
                t->grid, fmaxf(1.0f, 0.25f * u), SV_BORDER_SOLID);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, l->title_px * k, x + pad, y + pad + 1.2f * u * k,
                SV_ALIGN_LEFT, t->text, "Keys");
    float ty = y + pad + 5.0f * u * k;
    for (size_t i = 0; i < nk; i++) {
        sv_gfx_text(g, SV_FONT_SANS_BOLD, px, x + pad + kw, ty, SV_ALIGN_RIGHT, t->accent,
                    sv_help_keys[i][0]);
        sv_gfx_text(g, SV_FONT_SANS, px, x + pad + kw + 3.0f * u * k, ty, SV_ALIGN_LEFT, t->text,
                    sv_help_what(i));
        ty += lh;
    }
    sv_gfx_text(g, SV_FONT_SANS, px * 0.95f, x + bw / 2.0f, y + bh - pad * 0.9f, SV_ALIGN_CENTER,
                t->text_dim, "H, ? or Esc closes this help");
}

void sv_render_overlay(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    int fb_w = l->fb_w, fb_h = l->fb_h;
    sv_step_view v;
    bool have = sv_scene_step(s, s->step, &v);
    if (s->view == SV_VIEW_SCAN && s->ktrace) {
        /* The kernel pane: its caption, counters, steps and tooltip (the
         * words dispatch on ktrace); the legend's cases without the
         * chapter's conditions, which belong to its rounds. */
        sv_app_view c = *s;
        c.trace = NULL;
        c.lab = NULL;
        if (!s->overview || (s->caption && s->caption[0]))
            draw_caption(g, s, l, t);
        draw_legend(g, &c, l, t, false);
        if (s->overview) { /* every step is shown: the run's counters, no timeline or tooltip */
            char line[160];
            sv_kwords_overview_counters(s->ktrace, line, sizeof line);
            draw_overview_foot(g, s, l, t, line, "V back to the steps \u00b7 H help");
        } else {
            draw_counters(g, s, l, t);
            draw_timeline(g, s, l, t);
            if (!s->editing && !s->help)
                draw_tooltip(g, s, l, t, fb_w);
        }
    } else if (s->view == SV_VIEW_SCAN && have && s->overview) {
        /* The overview: the legend, the whole run's counters, a script's
         * caption if any; no timeline or tooltip (every round is shown). */
        if (s->caption && s->caption[0])
            draw_caption(g, s, l, t);
        draw_legend(g, s, l, t, false);
        char line[160];
        sv_words_overview_counters(s->trace, line, sizeof line);
        draw_overview_foot(g, s, l, t, line, "V back to the rounds \u00b7 H help");
    } else if (s->view == SV_VIEW_SCAN && have) {
        draw_caption(g, s, l, t);
        int row, cell;
        draw_legend(g, s, l, t, sv_scene_tooltip_target(s, &row, &cell) &&
                                    !sv_scene_hidden(s, &v, row));
        draw_counters(g, s, l, t);
        draw_timeline(g, s, l, t);
        if (!s->editing && !s->help) {
            draw_tooltip(g, s, l, t, fb_w);
            draw_source_tip(g, s, l, t, fb_w);
        }
    }
    if (s->editing)
        draw_input_box(g, s, l, t);
    draw_status(g, s, l, t);
    if (s->help)
        draw_help(g, l, t, fb_w, fb_h);
}
