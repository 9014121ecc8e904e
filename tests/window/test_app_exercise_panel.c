/* The exercise's panel can always be read (issue 28), in frames drawn
 * headless (the recorded scene) at 1280x720 and 1920x1080:
 *  - N shows the hint at once, first after the check's result, with the
 *    path of its whole file (relative to the current folder, escaped);
 *  - every line of the panel lies inside it, at least the legible size,
 *    none cut ("…"), none over another;
 *  - scrolled line by line (Ctrl+Down, as the app takes keys, up to what
 *    the frame says the text needs), the body holds the whole result,
 *    hint, statement, and once revealed (A, A) every line of solution.cu;
 *    Ctrl+Up goes back, never above the top; the wheel over the panel
 *    scrolls it (and does not zoom the cells);
 *  - a hint file's control characters and invalid UTF-8 are escaped, and
 *    a word wider than the panel is broken at its edge.
 *
 * usage: test_app_exercise_panel OUT_DIR EXERCISES_DIR */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app_test.h"
#include "../render/view_test.h"

#include "../../src/core/escape.h"
#include "../../src/core/fileio.h"

static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};
static char dir[64];
static const char *exdir;

static char *slurp(const char *path)
{
    char err[256];
    char *t = sv_read_bounded(path, 1 << 20, "a test file", NULL, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    return t;
}

/* Draws s at its size with rec, tells the app how far its panel scrolls
 * (as the main loop does after each frame); returns the scroll's most. */
static int draw(sv_app_state *s, sv_gfx_rec *rec, const char *name)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    view_draw(&v, s->fb_w, s->fb_h, rec, "expanel-", name);
    int page = 0, max = sv_render_exercise_scroll_max(g, &v, s->fb_w, s->fb_h, &page);
    sv_app_exercise_scroll_room(s, max, page);
    return max;
}

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* The body's lines of the last frame, top down: the panel's text less its
 * title, the notes of lines above and below and the keys line. Checks
 * that every line of the panel is inside it, legible, uncut, apart. */
static int body_lines(const sv_gfx_rec *rec, const sv_app_state *s, const char *title,
                      const char **out, int max, const char *what)
{
    const sv_box p = lay.exercise_panel;
    int n = 0;
    float last_y = -1e9f, last_px = 0.0f;
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *q = sv_gfx_rec_prim(rec, k);
        if (q->kind != SV_PRIM_TEXT || q->x0 < p.x || q->x0 > p.x + p.w || q->y0 < p.y ||
            q->y0 > p.y + p.h)
            continue;
        if (!q->text[0])
            continue;
        CHECK_MSG(q->x0 + q->advance <= p.x + p.w - 0.5f * lay.unit,
                  "%s: \"%s\" runs out of the panel (%.0f + %.0f > %.0f)", what, q->text,
                  (double)q->x0, (double)q->advance, (double)(p.x + p.w));
        CHECK_MSG(q->px >= lay.legible_px - 0.5f, "%s: \"%s\" at %.1f px, under %.1f", what,
                  q->text, (double)q->px, (double)lay.legible_px);
        CHECK_MSG(!strstr(q->text, "\u2026") || starts(q->text, "Checking"),
                  "%s: a cut line: \"%s\"", what, q->text);
        CHECK_MSG(q->y0 - last_y >= 0.9f * fmaxf(q->px, last_px), "%s: \"%s\" over the line above",
                  what, q->text);
        last_y = q->y0;
        last_px = q->px;
        if (strstr(title, q->text) || starts(q->text, "\u25b2") || starts(q->text, "\u25bc") ||
            starts(q->text, "N hint") || starts(q->text, "no more hints"))
            continue;
        if (n < max)
            out[n++] = q->text;
    }
    (void)s;
    return n;
}

/* text without whitespace. */
static void squeeze(const char *text, char *out, size_t len)
{
    size_t j = 0;
    for (const char *p = text; *p && j + 1 < len; p++)
        if (!isspace((unsigned char)*p))
            out[j++] = *p;
    out[j] = '\0';
}

/* The whole body, scrolled to its end a line at a time by Ctrl+Down:
 * each frame's body lines, a line each, frames apart by a form feed. */
static char *whole_body(sv_app_state *s, const char *title, const char *what)
{
    size_t cap = 1 << 21, len = 0;
    char *all = calloc(1, cap);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    for (int i = 0; i < 200; i++)
        key(s, SDLK_UP, KMOD_LCTRL);
    CHECK_INT(s->exv.scroll, 0);
    int max = draw(s, rec, NULL);
    for (int k = 0;; k++) {
        const char *lines[256];
        int n = body_lines(rec, s, title, lines, 256, what);
        CHECK_MSG(n > 0, "%s: no body line at scroll %d", what, k);
        for (int i = 0; i < n && len + 1 < cap; i++)
            len += (size_t)snprintf(all + len, cap - len, "%s\n", lines[i]);
        len += (size_t)snprintf(all + len, cap - len, "\f");
        if (k >= max)
            break;
        key(s, SDLK_DOWN, KMOD_LCTRL);
        CHECK_INT(s->exv.scroll, k + 1);
        draw(s, rec, NULL);
    }
    /* At the end: more Ctrl+Down stays; Ctrl+Up goes back at once. */
    key(s, SDLK_DOWN, KMOD_LCTRL);
    CHECK_INT(s->exv.scroll, max);
    if (max > 0) {
        key(s, SDLK_UP, KMOD_LCTRL);
        CHECK_INT(s->exv.scroll, max - 1);
    }
    sv_gfx_rec_destroy(rec);
    return all;
}

/* Whether some frame of body (whole_body's), whitespace left out, holds
 * text whitespace left out. */
static bool in_a_frame(const char *body, const char *text)
{
    static char frame[1 << 16], want[1 << 12];
    squeeze(text, want, sizeof want);
    for (const char *p = body; *p;) {
        const char *end = strchr(p, '\f');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(frame, sizeof frame, "%.*s", (int)n, p);
        squeeze(frame, frame, sizeof frame);
        if (strstr(frame, want))
            return true;
        p += n + (end != NULL);
    }
    return false;
}

/* Whether the words of text (whitespace apart) appear in body in order. */
static bool words_in_order(const char *body, const char *text, char *missing, size_t len)
{
    const char *at = body;
    char word[256];
    for (const char *p = text; *p;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        size_t n = 0;
        while (p[n] && !isspace((unsigned char)p[n]))
            n++;
        if (!n)
            break;
        snprintf(word, sizeof word, "%.*s", (int)(n < 255 ? n : 255), p);
        const char *f = strstr(at, word);
        if (!f) {
            snprintf(missing, len, "%s", word);
            return false;
        }
        at = f + strlen(word);
        p += n;
    }
    return true;
}

static void open_exercise(sv_app_state *s, const char *name, int w, int h)
{
    char into[160];
    snprintf(into, sizeof into, "%s/into-%s-%d", dir, name, w);
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.exercise = name;
    c.into = into;
    c.animations = false;
    if (!start_app(s, &c))
        exit(check_report("exercise panel"));
    sv_app_resize(s, w, h, w, h);
}

/* The path the panel should name for exercise file `file`. */
static void shown(const char *name, const char *file, char *out, size_t len)
{
    char path[1200], cwd[1024], rel[1200];
    snprintf(path, sizeof path, "%s/%s/%s", exdir, name, file);
    const char *p = path;
    if (getcwd(cwd, sizeof cwd) && strncmp(path, cwd, strlen(cwd)) == 0 &&
        path[strlen(cwd)] == '/')
        p = path + strlen(cwd) + 1;
    snprintf(rel, sizeof rel, "%s", p);
    sv_escape(rel, out, len);
}

/* N: the hint first after the result, whole, with its file. */
static void hint_readable(const char *name, int w, int h)
{
    char what[96], title[300], file[1200], missing[256], path[1200];
    snprintf(what, sizeof what, "%s %dx%d hint 1", name, w, h);
    sv_app_state s;
    open_exercise(&s, name, w, h);
    press(&s, "n");
    CHECK_INT((long)s.exv.hints_shown, 1);
    snprintf(title, sizeof title, "Exercise %d of %d \u00b7 %s", s.exv.index, s.exv.count,
             s.exv.title);
    snprintf(path, sizeof path, "%s/%s/hint-1.txt", exdir, name);
    char *hint = slurp(path);
    snprintf(path, sizeof path, "%s/%s/statement.txt", exdir, name);
    char *statement = slurp(path);
    /* At once, unscrolled: the hint's title and its first words. */
    sv_gfx_rec *rec = sv_gfx_rec_create();
    char png[64];
    snprintf(png, sizeof png, "%s-%d-hint", name, w);
    draw(&s, rec, png);
    const char *lines[256];
    int n = body_lines(rec, &s, title, lines, 256, what);
    char first[64] = "";
    sscanf(hint, "%63s", first);
    bool titled = false, begun = false;
    for (int i = 0; i < n; i++) {
        titled |= strcmp(lines[i], "Hint 1 of 3") == 0;
        begun |= titled && strstr(lines[i], first) != NULL;
    }
    CHECK_MSG(titled && begun, "%s: N shows no hint at once (title %d, \"%s\" %d)", what, titled,
              first, begun);
    sv_gfx_rec_destroy(rec);
    /* Scrolled through: the result, the hint, its file, the statement. */
    char *body = whole_body(&s, title, what);
    CHECK_MSG(words_in_order(body, s.exv.result, missing, sizeof missing),
              "%s: the result's \"%s\" is not shown:\n%s", what, missing, body);
    CHECK_MSG(words_in_order(body, hint, missing, sizeof missing),
              "%s: the hint's \"%s\" is not shown:\n%s", what, missing, body);
    shown(name, "hint-1.txt", file, sizeof file);
    char where[1300];
    snprintf(where, sizeof where, "the hint's file: %s", file);
    CHECK_MSG(in_a_frame(body, where), "%s: no \"%s\":\n%s", what, where, body);
    CHECK_MSG(words_in_order(strstr(body, "Hint 1 of 3") ? strstr(body, "Hint 1 of 3") : body,
                             statement, missing, sizeof missing),
              "%s: the statement's \"%s\" is not shown after the hint:\n%s", what, missing, body);
    free(body);
    free(hint);
    free(statement);
    /* The wheel over the panel scrolls it, not the cells. */
    float zoom = s.zoom;
    int at = s.exv.scroll;
    sv_layout l;
    layout(&s, &l);
    mouse(&s, SDL_MOUSEMOTION, (int)(l.exercise_panel.x + l.exercise_panel.w / 2),
          (int)(l.exercise_panel.y + l.exercise_panel.h / 2), 0);
    mouse(&s, SDL_MOUSEWHEEL, 0, 0, 1); /* up: towards the top */
    CHECK_MSG(s.zoom == zoom && s.exv.scroll == (at > 3 ? at - 3 : 0),
              "%s: the wheel up over the panel: scroll %d -> %d, zoom %.2f -> %.2f", what, at,
              s.exv.scroll, (double)zoom, (double)s.zoom);
    mouse(&s, SDL_MOUSEWHEEL, 0, 0, -1);
    CHECK_MSG(s.exv.scroll == (at > 3 ? at : s.ex_scroll_max < 3 ? s.ex_scroll_max : 3),
              "%s: the wheel down over the panel: scroll %d", what, s.exv.scroll);
    sv_app_cleanup(&s);
}

/* A, A: the whole solution, every line, with its file. */
static void solution_readable(const char *name, int w, int h)
{
    char what[96], title[300], file[1200], path[1200];
    snprintf(what, sizeof what, "%s %dx%d solution", name, w, h);
    sv_app_state s;
    open_exercise(&s, name, w, h);
    press(&s, "aa");
    CHECK_MSG(s.exv.solution[0], "%s: A A revealed nothing", what);
    snprintf(title, sizeof title, "Exercise %d of %d \u00b7 %s", s.exv.index, s.exv.count,
             s.exv.title);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    char png[64];
    snprintf(png, sizeof png, "%s-%d-solution", name, w);
    draw(&s, rec, png);
    sv_gfx_rec_destroy(rec);
    char *body = whole_body(&s, title, what);
    snprintf(path, sizeof path, "%s/%s/solution.cu", exdir, name);
    char *sol = slurp(path);
    shown(name, "solution.cu", file, sizeof file);
    char where[1300];
    snprintf(where, sizeof where, "the whole file: %s", file);
    CHECK_MSG(in_a_frame(body, where), "%s: \"%s\" expected:\n%s", what, where, body);
    /* Every line of the file, whole (a long one goes on below). */
    int lines = 0, missing = 0;
    for (char *line = strtok(sol, "\n"); line; line = strtok(NULL, "\n")) {
        char sq[4096];
        squeeze(line, sq, sizeof sq);
        if (!sq[0])
            continue;
        lines++;
        if (!in_a_frame(body, line)) {
            if (!missing++)
                fprintf(stderr, "%s: line not shown whole: %s\n", what, line);
        }
    }
    CHECK_MSG(lines > 10 && missing == 0, "%s: %d of %d lines of solution.cu not shown:\n%s",
              what, missing, lines, body);
    free(sol);
    free(body);
    sv_app_cleanup(&s);
}

/* A hostile hint (a copy of the exercises with double-buffer's hint 1
 * replaced): escapes, a stray byte, a word wider than the panel. */
static void hostile_hint(void)
{
    char copy[160], cmd[600], hint[300];
    snprintf(copy, sizeof copy, "%s/exercises-copy", dir);
    snprintf(cmd, sizeof cmd, "cp -r '%s' '%s'", exdir, copy);
    CHECK(system(cmd) == 0);
    snprintf(hint, sizeof hint, "%s/double-buffer/hint-1.txt", copy);
    FILE *f = fopen(hint, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    fputs("Clear\x1b[2Jthe screen, a bell\x07, a stray \xff byte, and "
          "a/very/long/path/without/any/space/in/it/that/is/wider/than/the/panel/of/the/"
          "exercise/at/any/size/the/window/has.txt\n", f);
    fclose(f);
    setenv("SCANVIZ_EXERCISES", copy, 1);
    sv_app_state s;
    open_exercise(&s, "double-buffer", 1280, 720);
    press(&s, "n");
    char title[300];
    snprintf(title, sizeof title, "Exercise %d of %d \u00b7 %s", s.exv.index, s.exv.count,
             s.exv.title);
    char *body = whole_body(&s, title, "a hostile hint"); /* every line inside the panel */
    CHECK_MSG(strstr(body, "Clear\\e[2Jthe") && strstr(body, "bell\\x07") &&
                  strstr(body, "\xef\xbf\xbd byte"), "the hint, escaped:\n%s", body);
    for (const char *p = body; *p; p++)
        CHECK_MSG((unsigned char)*p >= 0x20 || *p == '\n' || *p == '\f',
                  "a control byte 0x%02x drawn", (unsigned char)*p);
    CHECK_MSG(in_a_frame(body, "a/very/long/path/without/any/space/in/it/that/is/wider/than/the/"
                               "panel/of/the/exercise/at/any/size/the/window/has.txt"),
              "the long word, broken, is not whole:\n%s", body);
    free(body);
    sv_app_cleanup(&s);
    setenv("SCANVIZ_EXERCISES", exdir, 1);
}

int main(int argc, char **argv)
{
    exdir = argc > 2 ? argv[2] : "assets/exercises";
    check_tmpdir(dir, sizeof dir, "sv-expanel");
    char state[128];
    snprintf(state, sizeof state, "%s/state", dir);
    setenv("XDG_STATE_HOME", state, 1);
    setenv("SCANVIZ_EXERCISES", exdir, 1);
    view_test_open(argc, argv, "exercise panel");
    static const int sizes[][2] = {{1280, 720}, {1920, 1080}};
    for (size_t i = 0; i < 2; i++) {
        hint_readable("double-buffer", sizes[i][0], sizes[i][1]);
        hint_readable("any-n", sizes[i][0], sizes[i][1]);
        solution_readable("double-buffer", sizes[i][0], sizes[i][1]);
    }
    hostile_hint();
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return view_test_close("app exercise panel: all checks passed");
}
