/* The exercise's panel (view.exercise, --exercise NAME): the exercise's
 * place and title, the latest check's result (passed, or the first failure
 * in words; the kernel pane marks the failing cell), the statement, the
 * hint shown, or once revealed the solution, and the keys that go on (N, A,
 * G). Draws from the view alone. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scene.h"

#define EX_LINES 48

/* Text wrapped into the panel from y down, paragraphs kept (a blank line
 * starts one; single newlines are spaces). Returns the y below it; stops at
 * y_max. */
static float wrapped(sv_gfx *g, sv_font font, float px, float x, float y, float w, float y_max,
                     sv_rgba c, const char *text)
{
    static char para[4096];
    static char lines[EX_LINES][SV_WRAP_MAX];
    float pitch = ceilf(px * 1.3f);
    const char *p = text;
    while (*p && y + pitch / 2.0f <= y_max) {
        const char *end = strstr(p, "\n\n");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n >= sizeof para)
            n = sizeof para - 1;
        for (size_t i = 0; i < n; i++)
            para[i] = p[i] == '\n' || p[i] == '\t' ? ' ' : p[i];
        para[n] = '\0';
        int k = sv_scene_wrap(g, font, px, w, para, lines, EX_LINES);
        for (int i = 0; i < k && i < EX_LINES && y + pitch / 2.0f <= y_max; i++) {
            sv_gfx_text(g, font, px, x, y + pitch / 2.0f, SV_ALIGN_LEFT, c, lines[i]);
            y += pitch;
        }
        y += pitch * 0.4f;
        p = end ? end + 2 : p + n;
    }
    return y;
}

/* The solution's lines in the mono font, tabs as four spaces, cut at the
 * panel's edge; from y down to y_max. */
static void code_lines(sv_gfx *g, float px, float x, float y, float w, float y_max, sv_rgba c,
                       const char *text)
{
    float pitch = ceilf(px * 1.25f);
    char line[512], cut[512];
    for (const char *p = text; *p && y + pitch <= y_max;) {
        size_t j = 0;
        for (; *p && *p != '\n' && j + 5 < sizeof line; p++) {
            if (*p == '\t') {
                memcpy(line + j, "    ", 4);
                j += 4;
            } else {
                line[j++] = *p;
            }
        }
        line[j] = '\0';
        while (*p && *p != '\n')
            p++;
        if (*p == '\n')
            p++;
        sv_gfx_text_ellipsize(g, SV_FONT_MONO, px, w, line, cut, sizeof cut);
        sv_gfx_text(g, SV_FONT_MONO, px, x, y + pitch / 2.0f, SV_ALIGN_LEFT, c, cut);
        y += pitch;
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

void sv_render_exercise(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t)
{
    const sv_exercise_view *e = s->exercise;
    const sv_box *p = &l->exercise_panel;
    if (!e || p->w <= 0.0f || p->h <= 0.0f)
        return;
    float u = l->unit, sp = l->small_px;
    sv_gfx_rect(g, *p, 0.8f * u, t->panel, t->grid, fmaxf(1.0f, 0.15f * u), SV_BORDER_SOLID);
    float x = p->x + 1.2f * u, w = p->w - 2.4f * u, y = p->y + 1.4f * u;
    float bottom = p->y + p->h - 0.8f * u;
    char head[400], cut[400];
    snprintf(head, sizeof head, "Exercise %d of %d \u00b7 %s", e->index, e->count, e->title);
    sv_gfx_text_ellipsize(g, SV_FONT_SANS_BOLD, sp, w, head, cut, sizeof cut);
    sv_gfx_text(g, SV_FONT_SANS_BOLD, sp, x, y + 0.65f * sp, SV_ALIGN_LEFT, t->text, cut);
    y += 1.5f * sp;
    /* The bottom lines: the keys (not on a clean slide) and a progress note. */
    float foot = s->clean ? 0.0f : 1.4f * sp;
    float note_h = e->note[0] ? 2.6f * sp : 0.0f;
    float body_max = bottom - foot - note_h;
    char line[2400];
    check_line(e, line, sizeof line);
    sv_rgba c = e->check == SV_EXCHECK_PASSED ? t->full
              : e->check == SV_EXCHECK_FAILED ? t->error : t->text_dim;
    y = wrapped(g, SV_FONT_SANS_BOLD, sp, x, y, w, fminf(body_max, y + 5.5f * sp), c, line);
    if (e->solution[0]) {
        y = wrapped(g, SV_FONT_SANS_BOLD, sp, x, y, w, body_max, t->accent,
                    "Solution (your file is unchanged):");
        code_lines(g, fmaxf(0.85f * sp, 8.0f), x, y, w, body_max, t->text, e->solution);
    } else {
        y = wrapped(g, SV_FONT_SANS, sp, x, y, w, body_max, t->text, e->statement);
        if (e->hint[0]) {
            char title[64];
            snprintf(title, sizeof title, "Hint %u of %u", e->hints_shown, e->hint_count);
            y = wrapped(g, SV_FONT_SANS_BOLD, sp, x, y, w, body_max, t->accent, title);
            wrapped(g, SV_FONT_SANS, sp, x, y, w, body_max, t->text, e->hint);
        }
    }
    if (e->note[0])
        wrapped(g, SV_FONT_SANS, 0.8f * sp, x, bottom - foot - note_h, w, bottom - foot,
                t->text_dim, e->note);
    if (!s->clean) {
        keys_line(e, line, sizeof line);
        sv_gfx_text_ellipsize(g, SV_FONT_SANS, sp, w, line, cut, sizeof cut);
        sv_gfx_text(g, SV_FONT_SANS, sp, x, bottom - 0.6f * sp, SV_ALIGN_LEFT, t->accent, cut);
    }
}
