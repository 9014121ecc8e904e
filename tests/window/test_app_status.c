/* The status line (issue 28), in frames drawn headless (the recorded
 * scene) at 1280x720 and 1024x768:
 *  - a message names a file under the current folder relative to it
 *    ("exercise copied to into/guard.cu"), one elsewhere as it is; so do
 *    the exercise panel's result and the kernel file's error, drawn
 *    ("does not compile: broken/guard.cu:1:...");
 *  - a file name's control characters are escaped ("\e"), never drawn raw;
 *  - a long message wraps onto at most three lines, each inside the window
 *    and apart from the others, the last cut with "…" when even they do
 *    not hold it; the state line's status= has it whole.
 *
 * usage: test_app_status OUT_DIR EXERCISES_DIR */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_test.h"
#include "../render/view_test.h"

static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};
static char dir[64];

/* The status line's text primitives of the last frame: those centred on
 * the header's middle in the small text's size below the header. */
static int status_lines(const sv_gfx_rec *rec, const char *status, const sv_prim **out, int max)
{
    int n = 0;
    for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
        const sv_prim *q = sv_gfx_rec_prim(rec, k);
        /* the toast: left-aligned in the header's band (issue28-a's placement,
         * right of the header's words, off the title and the cells) */
        if (q->kind == SV_PRIM_TEXT && q->align == SV_ALIGN_LEFT &&
            q->y0 < lay.header.y + lay.header.h + lay.unit && q->text[0] &&
            (strstr(status, q->text) || strstr(q->text, "\u2026")) && n < max &&
            q->x0 > lay.header.x + 1.0f)
            out[n++] = q;
    }
    return n;
}

/* The state line's status="..." (the app's own, unquoted). */
static void state_status(const sv_app_state *s, char *out, size_t len)
{
    static char line[200000];
    sv_app_state_line(s, line, sizeof line);
    const char *p = strstr(line, " status=\"");
    out[0] = '\0';
    if (!p)
        return;
    p += strlen(" status=\"");
    const char *e = strstr(p, "\" source=");
    snprintf(out, len, "%.*s", e ? (int)(e - p) : 0, p);
}

static void open_in(sv_app_state *s, const char *into, int w, int h)
{
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.exercise = "guard";
    c.into = into;
    c.animations = false;
    if (!start_app(s, &c))
        exit(check_report("status"));
    sv_app_resize(s, w, h, w, h);
}

/* Draws s and checks its status lines: inside the window, apart, at most
 * three; returns how many. */
static int drawn(sv_app_state *s, const char *what, const char *png)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    sv_gfx_rec *rec = sv_gfx_rec_create();
    view_draw(&v, s->fb_w, s->fb_h, rec, "status-", png);
    const sv_prim *l[8];
    int n = status_lines(rec, s->status, l, 8);
    CHECK_MSG(n >= 1 && n <= 3, "%s: %d status lines for \"%s\"", what, n, s->status);
    for (int i = 0; i < n; i++) {
        float left = l[i]->x0, right = l[i]->x0 + l[i]->advance;
        CHECK_MSG(left >= 0.0f && right <= (float)s->fb_w, "%s: status line %d runs out of the "
                  "window (%.0f .. %.0f of %d): \"%s\"", what, i, (double)left, (double)right,
                  s->fb_w, l[i]->text);
        if (i)
            CHECK_MSG(l[i]->y0 - l[i - 1]->y0 >= l[i]->px, "%s: status line %d over the one "
                      "above", what, i);
    }
    sv_gfx_rec_destroy(rec);
    return n;
}

static void run_at(int w, int h)
{
    char what[64], cwd[256], into[1024], png[32];
    snprintf(cwd, sizeof cwd, "%s/work", dir);
    mkdir(cwd, 0700);
    CHECK(chdir(cwd) == 0);
    /* Under the current folder: relative. */
    snprintf(what, sizeof what, "%dx%d relative", w, h);
    snprintf(into, sizeof into, "%s/into-%d", cwd, w);
    sv_app_state s;
    open_in(&s, into, w, h);
    char want[128];
    snprintf(want, sizeof want, "exercise copied to into-%d/guard.cu", w);
    CHECK_MSG(strcmp(s.status, want) == 0, "%s: status \"%s\", expected \"%s\"", what, s.status,
              want);
    snprintf(png, sizeof png, "relative-%d", w);
    CHECK_INT(drawn(&s, what, png), 1);
    sv_app_cleanup(&s);
    /* A student's file that does not compile: the check's words and the
     * kernel file's error name it relative too, in the panel as drawn. */
    snprintf(what, sizeof what, "%dx%d compile error", w, h);
    snprintf(into, sizeof into, "%s/broken-%d", cwd, w);
    mkdir(into, 0700);
    char mine[1100], rel[64];
    snprintf(mine, sizeof mine, "%s/guard.cu", into);
    FILE *f = fopen(mine, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("__global__ void scan(const int *in, int *out, int n) { out[0] = ; }\n", f);
        fclose(f);
    }
    open_in(&s, into, w, h);
    snprintf(rel, sizeof rel, "broken-%d/guard.cu:1:", w);
    CHECK_MSG(strstr(s.exv.result, rel) && !strstr(s.exv.result, cwd),
              "%s: the check's words \"%s\" lack \"%s\"", what, s.exv.result, rel);
    CHECK_MSG(strstr(s.kerror, rel) && !strstr(s.kerror, cwd),
              "%s: the kernel file's error \"%s\" lacks \"%s\"", what, s.kerror, rel);
    {
        sv_app_view v;
        sv_app_view_of(&s, &v);
        sv_gfx_rec *rec = sv_gfx_rec_create();
        snprintf(png, sizeof png, "compile-%d", w);
        view_draw(&v, s.fb_w, s.fb_h, rec, "status-", png);
        bool named = false, absolute = false;
        for (size_t k = 0; k < sv_gfx_rec_count(rec); k++) {
            const sv_prim *q = sv_gfx_rec_prim(rec, k);
            if (q->kind != SV_PRIM_TEXT)
                continue;
            named |= strstr(q->text, "broken-") != NULL;
            absolute |= strstr(q->text, cwd) != NULL;
            if (strstr(q->text, cwd))
                fprintf(stderr, "absolute: %s\n", q->text);
        }
        CHECK_MSG(named && !absolute, "%s: drawn: the file named %d, an absolute path %d", what,
                  named, absolute);
        sv_gfx_rec_destroy(rec);
    }
    sv_app_cleanup(&s);
    /* Elsewhere, with an escape character in a folder's name: as given,
     * escaped. */
    snprintf(what, sizeof what, "%dx%d escaped", w, h);
    snprintf(into, sizeof into, "%s/odd\x1b[2Jname-%d", dir, w);
    open_in(&s, into, w, h);
    snprintf(want, sizeof want, "%s/odd\\e[2Jname-%d/guard.cu", dir, w);
    CHECK_MSG(strstr(s.status, want) != NULL && !strchr(s.status, '\x1b'),
              "%s: status \"%s\" lacks \"%s\"", what, s.status, want);
    snprintf(png, sizeof png, "escaped-%d", w);
    drawn(&s, what, png);
    sv_app_cleanup(&s);
    /* A long message: wrapped, inside the window, whole in the state line. */
    snprintf(what, sizeof what, "%dx%d long", w, h);
    char longdir[700];
    snprintf(longdir, sizeof longdir, "%s/a-folder-with-a-long-name-for-the-status-line", dir);
    mkdir(longdir, 0700);
    snprintf(into, sizeof into, "%s/and its sub folder with spaces in its long name "
             "that goes on and on/another level of folders, as deep as a course's tree "
             "goes/into-%d", longdir, w);
    open_in(&s, into, w, h);
    CHECK_MSG(strlen(s.status) > 200, "%s: status \"%s\" is not long", what, s.status);
    char whole[2048];
    state_status(&s, whole, sizeof whole);
    CHECK_MSG(strcmp(whole, s.status) == 0 && strstr(whole, "/guard.cu"),
              "%s: the state line's status=\"%s\"", what, whole);
    snprintf(png, sizeof png, "long-%d", w);
    CHECK_MSG(drawn(&s, what, png) >= 2, "%s: a long message on one line", what);
    sv_app_cleanup(&s);
}

int main(int argc, char **argv)
{
    const char *exdir = argc > 2 ? argv[2] : "assets/exercises";
    char root[1024];
    CHECK(realpath(exdir, root) != NULL);
    check_tmpdir(dir, sizeof dir, "sv-status");
    char state[128];
    snprintf(state, sizeof state, "%s/state", dir);
    setenv("XDG_STATE_HOME", state, 1);
    setenv("SCANVIZ_EXERCISES", root, 1);
    view_test_open(argc, argv, "status line");
    run_at(1280, 720);
    run_at(1024, 768);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return view_test_close("app status line: all checks passed");
}
