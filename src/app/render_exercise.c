/* The exercise's panel (view.exercise, --exercise NAME): the exercise's
 * place and title, then a body that scrolls (exercise->scroll, in lines):
 * the latest check's result (passed, or the first failure in words; the
 * kernel pane marks the failing cell), the hint shown (the newest text,
 * so first), the statement; or once revealed the solution. Every line is
 * wrapped to the panel, none is cut: what does not fit is scrolled to
 * (Ctrl+Down / Ctrl+Up, the wheel), and the panel says how many lines lie
 * above and below. Under a hint or the solution, the path of its whole
 * file. The foot: the keys that go on (N, A, G). Draws from the view
 * alone; text from files is escaped before it is measured and wrapped.
 * The title takes two lines at most (the second ellipsized: the titles
 * are short). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/escape.h"
#include "font_metrics.h"
#include "scene.h"

#define EX_MAX_LINES 640 /* the body's lines (a solution of 64 KiB is cut there, said so) */

/* One laid-out line of the body: what to draw and how far down the next
 * one starts. */
typedef struct ex_line {
    sv_font font;
    float px;
    int ink;                 /* EX_INK_* */
    float pitch;             /* this line's height, with the gap after it */
    char text[SV_WRAP_MAX];
} ex_line;

enum { EX_INK_TEXT, EX_INK_DIM, EX_INK_ACCENT, EX_INK_PASSED, EX_INK_FAILED };

/* The panel's geometry and its body, laid out. */
typedef struct ex_body {
    sv_gfx *g;
    float w;                 /* the text's width */
    float sp, code_px;
    int n;
    bool cut;                /* more than EX_MAX_LINES */
    ex_line line[EX_MAX_LINES];
} ex_body;

static ex_body body_; /* one panel a frame, on the main thread */

static ex_line *add_line(ex_body *b, sv_font font, float px, int ink, float pitch,
                         const char *text)
{
    if (b->n >= EX_MAX_LINES) {
        b->cut = true;
        return NULL;
    }
    ex_line *l = &b->line[b->n++];
    l->font = font;
    l->px = px;
    l->ink = ink;
    l->pitch = pitch;
    sv_utf8_copy(text, l->text, sizeof l->text); /* escaped already, by its paragraph */
    return l;
}

/* A wrapped line as one or more lines: a word wider than the panel (a
 * long path) is broken where it reaches the edge, after a '/' where one is
 * near. Returns the last line added. */
static ex_line *add_fitted(ex_body *b, sv_font font, float px, int ink, float pitch,
                           const char *text)
{
    char head[SV_WRAP_MAX];
    const char *p = text;
    while (sv_gfx_text_width(b->g, font, px, p) > b->w) {
        size_t fit = 0, slash = 0, len = strlen(p);
        for (size_t i = 1; i <= len && i < sizeof head; i++) {
            if (i < len && ((unsigned char)p[i] & 0xC0) == 0x80)
                continue; /* inside a character */
            memcpy(head, p, i);
            head[i] = '\0';
            if (sv_gfx_text_width(b->g, font, px, head) > b->w)
                break;
            fit = i;
            if (p[i - 1] == '/')
                slash = i;
        }
        if (fit == 0) /* not even one character fits */
            break;
        size_t cut = slash > fit / 2 ? slash : fit;
        memcpy(head, p, cut);
        head[cut] = '\0';
        if (!add_line(b, font, px, ink, pitch, head))
            return NULL;
        p += cut;
    }
    return add_line(b, font, px, ink, pitch, p);
}

/* Prose: paragraphs (a blank line starts one; single newlines are spaces),
 * each wrapped to the width, a small gap after each. */
static void add_prose(ex_body *b, sv_font font, float px, int ink, const char *text)
{
    static char para[4096], esc[4 * 4096 + 4];
    static char out[EX_MAX_LINES][SV_WRAP_MAX];
    float pitch = ceilf(px * 1.3f);
    const char *p = text;
    while (*p == '\n' || *p == '\r')
        p++;
    while (*p) {
        const char *end = strstr(p, "\n\n");
        const char *crlf = strstr(p, "\r\n\r\n");
        if (crlf && (!end || crlf < end))
            end = crlf;
        size_t n = end ? (size_t)(end - p) : strlen(p), k = 0;
        /* A paragraph longer than the buffer goes on in the next one. */
        size_t take = n < sizeof para - 1 ? n : sizeof para - 1;
        while (take < n && take > 0 && ((unsigned char)p[take] & 0xC0) == 0x80)
            take--;
        if (take == 0) /* no character starts in it (not UTF-8): bytes, escaped below */
            take = n < sizeof para - 1 ? n : sizeof para - 1;
        for (size_t i = 0; i < take; i++)
            if (p[i] != '\r')
                para[k++] = p[i] == '\n' || p[i] == '\t' ? ' ' : p[i];
        para[k] = '\0';
        /* Text from a file: escaped before it is measured and wrapped. */
        sv_escape(para, esc, sizeof esc);
        int m = sv_scene_wrap(b->g, font, px, b->w, esc, out, EX_MAX_LINES);
        ex_line *last = NULL;
        for (int i = 0; i < m && i < EX_MAX_LINES; i++)
            last = add_fitted(b, font, px, ink, pitch, out[i]);
        if (take < n) {
            p += take;
            continue;
        }
        if (last)
            last->pitch += ceilf(pitch * 0.4f);
        p += n;
        while (*p == '\n' || *p == '\r')
            p++;
    }
}

/* Code: each line as it is in the mono font, tabs as four spaces; a line
 * wider than the panel goes on below, indented as it was and two more. */
static void add_code(ex_body *b, const char *text)
{
    float px = b->code_px, pitch = ceilf(px * 1.25f);
    size_t per = (size_t)fmaxf(8.0f, floorf(b->w / sv_mono_width(px, 1.0f)));
    if (per >= SV_WRAP_MAX)
        per = SV_WRAP_MAX - 1;
    char line[4096];
    for (const char *p = text; *p;) {
        size_t j = 0;
        for (; *p && *p != '\n'; p++) {
            if (j + 5 >= sizeof line)
                continue; /* longer than any kernel line: the rest is dropped */
            if (*p == '\t') {
                memcpy(line + j, "    ", 4);
                j += 4;
            } else if (*p != '\r') {
                line[j++] = *p;
            }
        }
        line[j] = '\0';
        if (*p == '\n')
            p++;
        char esc[4 * sizeof line + 4]; /* text from a file: escaped, then cut into rows */
        sv_escape(line, esc, sizeof esc);
        size_t indent = 0;
        while (esc[indent] == ' ')
            indent++;
        const char *q = esc;
        bool first = true;
        do {
            /* per characters (not bytes) a row; continuation rows indented */
            char row[SV_WRAP_MAX];
            size_t lead = first ? 0 : indent + 2 < per / 2 ? indent + 2 : per / 2;
            memset(row, ' ', lead);
            size_t at = lead, chars = lead;
            const char *start = q;
            size_t space_at = 0; /* where the row may end at a space, 0 none */
            const char *space_q = NULL;
            while (*q && chars < per && at + 4 < sizeof row) {
                size_t len = 1;
                while (((unsigned char)q[len] & 0xC0) == 0x80)
                    len++;
                if (*q == ' ' && q > start && chars > lead + (per - lead) / 3) {
                    space_at = at;
                    space_q = q + 1;
                }
                memcpy(row + at, q, len);
                at += len;
                q += len;
                chars++;
            }
            if (*q && space_q) { /* the row is full: end it at its last space */
                at = space_at;
                q = space_q;
            }
            row[at] = '\0';
            if (!add_line(b, SV_FONT_MONO, px, EX_INK_TEXT, pitch, row))
                return;
            first = false;
        } while (*q);
    }
}

static void check_line(const sv_exercise_view *e, char *buf, size_t len)
{
    switch (e->check) {
    case SV_EXCHECK_NONE:
        snprintf(buf, len, "Save your file to check it.");
        break;
    case SV_EXCHECK_RUNNING:
        snprintf(buf, len, "Checking \u2026");
        break;
    case SV_EXCHECK_PASSED:
        snprintf(buf, len, "\u2714 %s%s", e->result, e->stale ? " (checking the new save \u2026)" : "");
        break;
    case SV_EXCHECK_FAILED:
        snprintf(buf, len, "\u2718 %s%s", e->result, e->stale ? " (checking the new save \u2026)" : "");
        break;
    }
}

/* The keys line: what N, A and G do now. */
static void keys_line(const sv_exercise_view *e, char *buf, size_t len)
{
    int at = 0;
    if (e->hints_shown < e->hint_count)
        at = snprintf(buf, len, "N hint %u of %u", e->hints_shown + 1, e->hint_count);
    else
        at = snprintf(buf, len, "no more hints");
    if (!e->solution[0] && at >= 0 && (size_t)at < len)
        at += snprintf(buf + at, len - (size_t)at, "  \u00b7  A solution");
    if (e->next[0] && at >= 0 && (size_t)at < len)
        snprintf(buf + at, len - (size_t)at, "  \u00b7  G next: %s", e->next);
}

/* Where the panel's parts go. */
typedef struct ex_geo {
    float x, w, u, sp;
    float small;             /* the notes' and the code's size: 0.85 sp, never under legible */
    float head_y;            /* the title's first line */
    int head_lines;
    char head[2][SV_WRAP_MAX];
    float body_y, body_h;    /* the scrolled body */
    float foot_y;            /* the keys line's middle (none on a clean slide) */
} ex_geo;

/* The title wrapped onto at most two lines (the second ellipsized). */
static void title_lines(sv_gfx *g, const sv_exercise_view *e, float sp, float w, ex_geo *o)
{
    char head[400], raw[400];
    static char out[8][SV_WRAP_MAX];
    snprintf(raw, sizeof raw, "Exercise %d of %d \u00b7 %s", e->index, e->count, e->title);
    sv_escape(raw, head, sizeof head);
    int k = sv_scene_wrap(g, SV_FONT_SANS_BOLD, sp, w, head, out, 8);
    o->head_lines = k < 1 ? 1 : k > 2 ? 2 : k;
    snprintf(o->head[0], sizeof o->head[0], "%s", k > 0 ? out[0] : head);
    o->head[1][0] = '\0';
    if (k >= 2) {
        char rest[SV_WRAP_MAX * 2] = "";
        for (int i = 1; i < k && i < 8; i++) {
            size_t at = strlen(rest);
            snprintf(rest + at, sizeof rest - at, "%s%s", i > 1 ? " " : "", out[i]);
        }
        sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, sp, w, rest, o->head[1], sizeof o->head[1]);
    }
}

static void geometry(sv_gfx *g, const sv_app_view *s, const sv_layout *l, ex_geo *o)
{
    const sv_box *p = &l->exercise_panel;
    o->u = l->unit;
    o->sp = l->small_px;
    o->small = fmaxf(0.85f * o->sp, l->legible_px);
    o->x = p->x + 1.2f * o->u;
    o->w = p->w - 2.4f * o->u;
    title_lines(g, s->exercise, o->sp, o->w, o);
    o->head_y = p->y + 1.4f * o->u + 0.65f * o->sp;
    float top = p->y + 1.4f * o->u + 1.5f * o->sp * (float)o->head_lines;
    float bottom = p->y + p->h - 0.8f * o->u;
    float foot = s->clean ? 0.0f : 1.4f * o->sp;
    o->foot_y = bottom - 0.6f * o->sp;
    o->body_y = top;
    o->body_h = fmaxf(0.0f, bottom - foot - top);
}

/* The body's lines at this geometry. */
static ex_body *layout_body(sv_gfx *g, const sv_exercise_view *e, const ex_geo *o)
{
    ex_body *b = &body_;
    b->g = g;
    b->w = o->w;
    b->sp = o->sp;
    b->code_px = o->small;
    b->n = 0;
    b->cut = false;
    char line[2400], where[1200];
    check_line(e, line, sizeof line);
    int ink = e->check == SV_EXCHECK_PASSED ? EX_INK_PASSED
            : e->check == SV_EXCHECK_FAILED ? EX_INK_FAILED : EX_INK_DIM;
    add_prose(b, SV_FONT_SANS_BOLD, o->sp, ink, line);
    if (e->note[0]) /* about the progress file */
        add_prose(b, SV_FONT_SANS, o->small, EX_INK_DIM, e->note);
    if (e->solution[0]) {
        add_prose(b, SV_FONT_SANS_BOLD, o->sp, EX_INK_ACCENT,
                  "Solution (your file is unchanged):");
        if (e->solution_file[0]) {
            snprintf(where, sizeof where, "the whole file: %s", e->solution_file);
            add_prose(b, SV_FONT_SANS, o->small, EX_INK_DIM, where);
        }
        add_code(b, e->solution);
        return b;
    }
    if (e->hint[0]) {
        char title[64];
        snprintf(title, sizeof title, "Hint %u of %u", e->hints_shown, e->hint_count);
        add_prose(b, SV_FONT_SANS_BOLD, o->sp, EX_INK_ACCENT, title);
        add_prose(b, SV_FONT_SANS, o->sp, EX_INK_TEXT, e->hint);
        if (e->hint_file[0]) {
            snprintf(where, sizeof where, "the hint's file: %s", e->hint_file);
            add_prose(b, SV_FONT_SANS, o->small, EX_INK_DIM, where);
        }
    }
    add_prose(b, SV_FONT_SANS, o->sp, EX_INK_TEXT, e->statement);
    return b;
}

/* The first line that may be shown at the top: the last lines fill the
 * body's height from there. With room for lines above / below notes. */
static int scroll_max(const ex_body *b, float h)
{
    float used = 0.0f;
    int k = b->n;
    while (k > 0 && used + b->line[k - 1].pitch <= h)
        used += b->line[--k].pitch;
    return k;
}

/* The body's height less the notes of what lies above and below. */
static float room(const ex_geo *o, bool above, bool below)
{
    float note = ceilf(o->small * 1.3f);
    return o->body_h - (above ? note : 0.0f) - (below ? note : 0.0f);
}

/* The lines from first that fit in height h. */
static int fitting(const ex_body *b, int first, float h)
{
    float used = 0.0f;
    int count = 0;
    while (first + count < b->n && used + b->line[first + count].pitch <= h)
        used += b->line[first + count++].pitch;
    return count;
}

/* Where the body starts for a wanted scroll (clamped), the lines shown
 * from there (*shown) and the height they have (*h, less the notes of the
 * lines above and below). */
static int settle_scroll(const ex_body *b, const ex_geo *o, int want, int *shown, float *h)
{
    if (scroll_max(b, o->body_h) == 0) { /* everything fits: no notes, no scroll */
        *shown = b->n;
        *h = o->body_h;
        return 0;
    }
    int max = scroll_max(b, room(o, true, false));
    int first = want < 0 ? 0 : want > max ? max : want;
    *h = room(o, first > 0, false);
    *shown = fitting(b, first, *h);
    if (first + *shown < b->n) { /* more below: its note takes a line */
        *h = room(o, first > 0, true);
        *shown = fitting(b, first, *h);
    }
    return first;
}

int sv_render_exercise_scroll_max(sv_gfx *g, const sv_app_view *s, int fb_w, int fb_h,
                                  int *page)
{
    *page = 0;
    if (!s->exercise || s->view != SV_VIEW_SCAN)
        return 0;
    sv_layout lay;
    sv_layout_compute(s, fb_w, fb_h, &lay);
    const sv_layout *l = &lay;
    if (l->exercise_panel.w <= 0.0f || l->exercise_panel.h <= 0.0f)
        return 0;
    ex_geo o;
    geometry(g, s, l, &o);
    ex_body *b = layout_body(g, s->exercise, &o);
    float h;
    settle_scroll(b, &o, 0, page, &h);
    if (scroll_max(b, o.body_h) == 0)
        return 0;
    return scroll_max(b, room(&o, true, false));
}

static sv_rgba ink_of(const sv_theme *t, int ink)
{
    switch (ink) {
    case EX_INK_DIM: return t->text_dim;
    case EX_INK_ACCENT: return t->accent;
    case EX_INK_PASSED: return t->full;
    case EX_INK_FAILED: return t->error;
    default: return t->text;
    }
}

void sv_render_exercise(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    const sv_exercise_view *e = s->exercise;
    const sv_box *p = &l->exercise_panel;
    if (!e || p->w <= 0.0f || p->h <= 0.0f)
        return;
    float u = l->unit;
    sv_gfx_rect(g, *p, 0.8f * u, t->panel, t->grid, fmaxf(1.0f, 0.15f * u), SV_BORDER_SOLID);
    ex_geo o;
    geometry(g, s, l, &o);
    float sp = o.sp, x = o.x;
    for (int i = 0; i < o.head_lines; i++)
        sv_gfx_text(g, SV_FONT_SANS_BOLD, sp, x, o.head_y + 1.5f * sp * (float)i, SV_ALIGN_LEFT,
                    t->text, o.head[i]);
    ex_body *b = layout_body(g, e, &o);
    int shown = 0;
    float h = 0.0f;
    int first = settle_scroll(b, &o, e->scroll, &shown, &h);
    float note_px = o.small, note_pitch = ceilf(note_px * 1.3f);
    float y = o.body_y;
    char msg[160];
    if (first > 0) {
        snprintf(msg, sizeof msg, "\u25b2 %d line%s above (Ctrl+Up or the wheel)", first,
                 first == 1 ? "" : "s");
        sv_gfx_text(g, SV_FONT_SANS, note_px, x, y + note_pitch / 2.0f, SV_ALIGN_LEFT,
                    t->text_dim, msg);
        y += note_pitch;
    }
    sv_gfx_clip(g, &(sv_box){ p->x, y, p->w, h });
    for (int i = first; i < first + shown; i++) {
        const ex_line *ln = &b->line[i];
        float mid = y + ceilf(ln->px * (ln->font == SV_FONT_MONO ? 1.25f : 1.3f)) / 2.0f;
        sv_gfx_text(g, ln->font, ln->px, x, mid, SV_ALIGN_LEFT, ink_of(t, ln->ink), ln->text);
        y += ln->pitch;
    }
    sv_gfx_clip(g, NULL);
    int below = b->n - first - shown;
    if (below > 0 || b->cut) {
        if (b->cut)
            snprintf(msg, sizeof msg, "\u25bc %d more line%s (Ctrl+Down or the wheel); the "
                     "rest is in the file", below, below == 1 ? "" : "s");
        else
            snprintf(msg, sizeof msg, "\u25bc %d more line%s (Ctrl+Down or the wheel)", below,
                     below == 1 ? "" : "s");
        sv_gfx_text(g, SV_FONT_SANS, note_px, x, o.body_y + o.body_h - note_pitch / 2.0f,
                    SV_ALIGN_LEFT, t->accent, msg);
    }
    if (!s->clean) {
        char line[400], cut[400];
        keys_line(e, line, sizeof line);
        sv_gfx_text_ellipsize(g, SV_FONT_SANS, sp, o.w, line, cut, sizeof cut);
        sv_gfx_text(g, SV_FONT_SANS, sp, x, o.foot_y, SV_ALIGN_LEFT, t->accent, cut);
    }
}
