/* An exercise in the app's logic, without a window (issue 19): a presenter
 * script's `exercise NAME` step opens it (the starting file copied into a
 * temporary --into, the check run at once, as exports do), the student's
 * own file is opened as it is and never overwritten, N shows the hints in
 * turn, A is refused once before a pass and reveals the solution when asked
 * twice, G opens the next exercise after a pass, predict mode asks about
 * the exercise's starting file, and the progress file (a temporary
 * XDG_STATE_HOME) counts the hints and the reveal.
 *
 * usage: test_app_exercise EXERCISES_DIR */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app_test.h"

#include "../../src/core/exercise_progress.h"
#include "../../src/core/fileio.h"

static char dir[64];

static char *slurp(const char *path)
{
    char err[256];
    return sv_read_bounded(path, 1 << 20, "a test file", NULL, err, sizeof err);
}

static void write_file(const char *path, const char *text)
{
    char err[256];
    CHECK_MSG(sv_write_atomic(path, text, strlen(text), err, sizeof err), "%s", err);
}

static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};

/* A script's `exercise guard` step opens it; hints, the reveal rule,
 * predict mode on the starting file. */
static void script_opens(const char *exdir)
{
    char into[128], script[128], mine[200], start[300];
    snprintf(into, sizeof into, "%s/into", dir);
    snprintf(script, sizeof script, "%s/talk.txt", dir);
    snprintf(mine, sizeof mine, "%s/guard.cu", into);
    snprintf(start, sizeof start, "%s/guard/start.cu", exdir);
    write_file(script, "round 0 : the chapter's kernel\n"
                       "exercise guard : now you write the guard\n");
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.script = script;
    c.into = into;
    c.animations = false;
    sv_app_state s;
    if (!start_app(&s, &c))
        return;
    CHECK(line_has(&s, "exercise=- "));
    key(&s, SDLK_RIGHT, 0); /* the script's first step */
    key(&s, SDLK_RIGHT, 0); /* exercise guard */
    CHECK(line_has(&s, "exercise=guard exindex=4/10 excheck=failed"));
    CHECK(line_has(&s, "buf[-1]"));
    char *a = slurp(mine), *b = slurp(start);
    CHECK_MSG(a && b && strcmp(a, b) == 0, "the starting file was not copied whole to %s", mine);
    free(a);
    free(b);
    /* N: hints 1, 2, 3, then no more. */
    press(&s, "n");
    CHECK(line_has(&s, "exhints=1/3"));
    press(&s, "nnn");
    CHECK(line_has(&s, "exhints=3/3"));
    CHECK_CONTAINS(s.status, "no more hints");
    /* A before a pass: refused once, with the rule; revealed the second time. */
    press(&s, "a");
    CHECK(line_has(&s, "exsolution=0"));
    CHECK_CONTAINS(s.status, "after a pass, or if you ask again");
    /* G before a pass: nothing opens. */
    press(&s, "g");
    CHECK(line_has(&s, "exercise=guard "));
    CHECK_CONTAINS(s.status, "once this one passes");
    press(&s, "a");
    CHECK(line_has(&s, "exsolution=1 "));
    a = slurp(mine);
    b = slurp(start);
    CHECK_MSG(a && b && strcmp(a, b) == 0, "revealing the solution changed the student's file");
    free(a);
    free(b);
    /* Predict mode on the exercise's starting file. */
    press(&s, "p");
    key(&s, SDLK_RIGHT, 0);
    CHECK(line_has(&s, "quiz=1 "));
    sv_app_cleanup(&s);
    /* Progress: the hints and the reveal; the check at opening is no attempt. */
    sv_progress p;
    char note[1200];
    sv_progress_current(&p, note, sizeof note);
    const sv_progress_entry *e = sv_progress_find(&p, "guard");
    CHECK_MSG(e && e->hints == 3 && e->revealed && e->attempts == 0 && !e->passed,
              "progress of guard: %s", e ? "wrong" : "none");
}

/* A bad progress file: the panel says it was ignored; the next write sets
 * it aside whole as progress.bad and says so. */
static void bad_progress(void)
{
    char path[256], bad[300], err[512], into[128];
    CHECK(sv_progress_path(path, sizeof path, true, err, sizeof err));
    snprintf(bad, sizeof bad, "%s.bad", path);
    write_file(path, "scanviz-progress 1\nguard attempts=lots\n");
    snprintf(into, sizeof into, "%s/into3", dir);
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.exercise = "barrier";
    c.into = into;
    sv_app_state s;
    if (!start_app(&s, &c))
        return;
    CHECK(line_has(&s, "line 2, field 2 (attempts)"));
    CHECK(line_has(&s, "ignored (shown as not started)"));
    press(&s, "n");
    CHECK(line_has(&s, "exhints=1/3"));
    CHECK(line_has(&s, "kept as"));
    char *kept = slurp(bad);
    CHECK_STR(kept ? kept : "", "scanviz-progress 1\nguard attempts=lots\n");
    free(kept);
    sv_app_cleanup(&s);
    unlink(bad);
}

/* The student's own file is opened as it is: here the solution, so the
 * check passes, the next exercise is offered and G opens it. */
static void own_file(const char *exdir)
{
    char into[128], mine[200], sol[300], next[200];
    snprintf(into, sizeof into, "%s/into2", dir);
    mkdir(into, 0700);
    snprintf(mine, sizeof mine, "%s/guard.cu", into);
    snprintf(sol, sizeof sol, "%s/guard/solution.cu", exdir);
    snprintf(next, sizeof next, "%s/any-n.cu", into);
    char *text = slurp(sol);
    char *mytext = malloc(strlen(text) + 32);
    sprintf(mytext, "%s// my own notes\n", text);
    write_file(mine, mytext);
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.exercise = "guard";
    c.into = into;
    c.animations = false;
    sv_app_state s;
    if (start_app(&s, &c)) {
        CHECK(line_has(&s, "exercise=guard exindex=4/10 excheck=passed"));
        CHECK(line_has(&s, "exnext=any-n "));
        char *now = slurp(mine);
        CHECK_MSG(now && strcmp(now, mytext) == 0, "the student's file was overwritten");
        free(now);
        CHECK(access(next, F_OK) != 0);
        press(&s, "a"); /* after a pass: at once */
        CHECK(line_has(&s, "exsolution=1 exnext=any-n"));
        press(&s, "g");
        CHECK(line_has(&s, "exercise=any-n exindex=5/10 excheck=failed"));
        CHECK(line_has(&s, "exhints=0/3 exasks=0 exsolution=0"));
        CHECK(access(next, F_OK) == 0);
        sv_app_cleanup(&s);
    }
    free(text);
    free(mytext);
    /* An unknown exercise is refused at start, naming it. */
    sv_app_config bad = config(chapter, 8, SV_TYPE_INT32);
    bad.exercise = "no-such";
    bad.into = into;
    char err[512] = "";
    CHECK(sv_app_init(&s, &bad, err, sizeof err) == SV_APP_BAD_INPUT);
    CHECK_CONTAINS(err, "no exercise named \"no-such\"");
}

int main(int argc, char **argv)
{
    const char *exdir = argc > 1 ? argv[1] : "assets/exercises";
    check_tmpdir(dir, sizeof dir, "sv-app-exercise");
    char state[128];
    snprintf(state, sizeof state, "%s/state", dir);
    setenv("XDG_STATE_HOME", state, 1);
    setenv("SCANVIZ_EXERCISES", exdir, 1);
    script_opens(exdir);
    bad_progress();
    own_file(exdir);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_report("app exercise: all checks passed");
}
