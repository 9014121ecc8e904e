/* The exercises' progress file (core/exercise_progress.h): where it goes
 * ($XDG_STATE_HOME/scanviz, the folder 0700, a planted link refused), a
 * round trip, events, bad files refused with the line, the field's position
 * and name (never lost: set aside as .bad), and a crash mid-write: a child
 * killed between the write and the rename leaves the old file whole. */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../expect.h"
#include "exercise_progress.h"
#include "fileio.h"

static char dir[64];

static char *slurp(const char *path)
{
    char err[256];
    return sv_read_bounded(path, 1 << 20, "a test file", NULL, err, sizeof err);
}

static void set_state(const char *sub)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, sub);
    setenv("XDG_STATE_HOME", p, 1);
}

static void test_path(void)
{
    char path[512], err[512], want[512];
    set_state("state");
    CHECK_MSG(sv_progress_path(path, sizeof path, true, err, sizeof err), "%s", err);
    snprintf(want, sizeof want, "%s/state/scanviz/progress", dir);
    CHECK_STR(path, want);
    struct stat st;
    snprintf(want, sizeof want, "%s/state/scanviz", dir);
    CHECK(lstat(want, &st) == 0 && S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700);
    /* A link where the folder should be: refused, never written through. */
    char target[256], state2[256];
    snprintf(target, sizeof target, "%s/elsewhere", dir);
    mkdir(target, 0700);
    snprintf(state2, sizeof state2, "%s/state2", dir);
    mkdir(state2, 0700);
    snprintf(want, sizeof want, "%s/state2/scanviz", dir);
    CHECK(symlink(target, want) == 0);
    set_state("state2");
    CHECK(!sv_progress_path(path, sizeof path, true, err, sizeof err));
    CHECK_CONTAINS(err, "a symbolic link");
    char note[1200];
    CHECK(!sv_progress_record("round-one", SV_PROGRESS_HINT, false, 1, 0, note, sizeof note, err,
                              sizeof err));
    CHECK_CONTAINS(err, "refused as the exercises' progress folder");
    snprintf(want, sizeof want, "%s/progress", target);
    CHECK(access(want, F_OK) != 0);
    /* Without XDG_STATE_HOME: $HOME/.local/state. */
    unsetenv("XDG_STATE_HOME");
    char home[256];
    snprintf(home, sizeof home, "%s/home", dir);
    mkdir(home, 0700);
    setenv("HOME", home, 1);
    CHECK_MSG(sv_progress_path(path, sizeof path, true, err, sizeof err), "%s", err);
    snprintf(want, sizeof want, "%s/.local/state/scanviz/progress", home);
    CHECK_STR(path, want);
}

static void test_round_trip(void)
{
    sv_progress p = {0}, q;
    char err[512];
    p.n = 2;
    snprintf(p.e[0].name, sizeof p.e[0].name, "round-one");
    p.e[0].passed = true;
    p.e[0].hints = 2;
    p.e[0].attempts = 5;
    p.e[0].first_pass = 1796128200; /* 2026-12-01T12:30:00Z */
    snprintf(p.e[1].name, sizeof p.e[1].name, "race-hunt");
    p.e[1].attempts = 1;
    p.e[1].revealed = true;
    char *text = sv_progress_format(&p);
    CHECK_CONTAINS(text, "round-one passed=yes hints=2 attempts=5 first-pass=2026-12-01T12:30:00Z "
                         "revealed=no\n");
    CHECK_CONTAINS(text, "race-hunt passed=no hints=0 attempts=1 first-pass=- revealed=yes\n");
    CHECK_INT(sv_progress_parse("p", text, &q, err, sizeof err), SV_PROGRESS_LOADED);
    CHECK_INT(q.n, 2);
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    free(text);
    char words[160];
    CHECK_STR(sv_progress_words(&q.e[0], words, sizeof words),
              "passed 2026-12-01, 5 attempts, 2 hints");
    CHECK_STR(sv_progress_words(NULL, words, sizeof words), "not started");
}

/* Each bad text, and what its error must say. */
static void test_bad(void)
{
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"", "empty"},
        {"round-one passed=no\n", "line 1: expected \"scanviz-progress 1\" first"},
        {"scanviz-progress 2\n", "line 1: expected \"scanviz-progress 1\""},
        {"scanviz-progress 1\nround-one hints=9\n", "line 2, field 2 (hints): \"9\": expected a "
                                                    "whole number from 0 to 3"},
        {"scanviz-progress 1\nround-one attempts=-1\n", "line 2, field 2 (attempts)"},
        {"scanviz-progress 1\n# c\nround-one hints=1 passed=maybe\n",
         "line 3, field 3 (passed): \"maybe\": expected yes or no"},
        {"scanviz-progress 1\nround-one colour=red\n", "line 2, field 2: unknown field \"colour\""},
        {"scanviz-progress 1\nround-one hints\n", "line 2, field 2 \"hints\": expected KEY=VALUE"},
        {"scanviz-progress 1\nRound_One\n", "line 2, field 1 (the exercise)"},
        {"scanviz-progress 1\nmax\nmax\n", "line 3, field 1 (the exercise): max is listed twice"},
        {"scanviz-progress 1\nmax passed=yes\n", "passed=yes needs the time of the first pass"},
        {"scanviz-progress 1\nmax first-pass=2026-13-01T00:00:00Z\n",
         "line 2, field 2 (first-pass)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sv_progress p;
        char err[512] = "";
        CHECK_MSG(sv_progress_parse("FILE", bad[i].text, &p, err, sizeof err) == SV_PROGRESS_BAD,
                  "accepted: %s", bad[i].text);
        CHECK_CONTAINS(err, bad[i].want);
        CHECK_CONTAINS(err, "FILE");
        CHECK_INT(p.n, 0);
    }
    /* A bad file on disk: read as bad, then set aside whole by the next record. */
    char path[512], err[512], note[1200];
    set_state("badstate");
    CHECK(sv_progress_path(path, sizeof path, true, err, sizeof err));
    CHECK(sv_write_atomic(path, "garbage\n", 8, err, sizeof err));
    sv_progress p;
    CHECK_INT(sv_progress_load(path, &p, err, sizeof err), SV_PROGRESS_BAD);
    sv_progress_current(&p, note, sizeof note);
    CHECK_CONTAINS(note, "ignored");
    CHECK_MSG(sv_progress_record("max", SV_PROGRESS_CHECKED, true, 0, 1796128200, note,
                                 sizeof note, err, sizeof err), "%s", err);
    CHECK_CONTAINS(note, "kept as");
    char bad_path[600];
    snprintf(bad_path, sizeof bad_path, "%s.bad", path);
    char *kept = slurp(bad_path);
    CHECK_STR(kept ? kept : "", "garbage\n");
    free(kept);
    CHECK_INT(sv_progress_load(path, &p, err, sizeof err), SV_PROGRESS_LOADED);
    CHECK(p.n == 1 && p.e[0].passed && p.e[0].attempts == 1);
    /* Too long: refused bounded. */
    size_t big = SV_PROGRESS_MAX_FILE + 10;
    char *text = malloc(big);
    memset(text, 'a', big);
    CHECK(sv_write_atomic(path, text, big, err, sizeof err));
    free(text);
    CHECK_INT(sv_progress_load(path, &p, err, sizeof err), SV_PROGRESS_BAD);
    CHECK_CONTAINS(err, "longer than the limit of 64 KiB");
}

static void test_events(void)
{
    char path[512], err[512], note[1200];
    set_state("events");
    sv_progress p;
    CHECK(sv_progress_path(path, sizeof path, false, err, sizeof err));
    CHECK_INT(sv_progress_load(path, &p, err, sizeof err), SV_PROGRESS_NO_FILE);
    CHECK(sv_progress_record("guard", SV_PROGRESS_CHECKED, false, 0, 100, note, sizeof note, err,
                             sizeof err));
    CHECK(sv_progress_record("guard", SV_PROGRESS_HINT, false, 1, 100, note, sizeof note, err,
                             sizeof err));
    CHECK(sv_progress_record("guard", SV_PROGRESS_HINT, false, 2, 100, note, sizeof note, err,
                             sizeof err));
    CHECK(sv_progress_record("guard", SV_PROGRESS_CHECKED, true, 0, 1796128200, note, sizeof note,
                             err, sizeof err));
    CHECK(sv_progress_record("guard", SV_PROGRESS_CHECKED, true, 0, 1796999999, note, sizeof note,
                             err, sizeof err));
    CHECK(sv_progress_record("guard", SV_PROGRESS_CHECKED, false, 0, 1796999999, note,
                             sizeof note, err, sizeof err));
    CHECK(sv_progress_record("max", SV_PROGRESS_REVEALED, false, 0, 0, note, sizeof note, err,
                             sizeof err));
    CHECK_STR(note, "");
    CHECK_INT(sv_progress_load(path, &p, err, sizeof err), SV_PROGRESS_LOADED);
    const sv_progress_entry *g = sv_progress_find(&p, "guard");
    CHECK(g && g->attempts == 4 && g->hints == 2 && g->passed && !g->revealed);
    CHECK(g && g->first_pass == 1796128200); /* the first pass, kept */
    const sv_progress_entry *m = sv_progress_find(&p, "max");
    CHECK(m && m->revealed && m->attempts == 0 && !m->passed);
}

/* A child killed (SCANVIZ_PROGRESS_CRASH=before-rename) after writing the
 * new file and before the rename: the old file reads whole, as it was. */
static void test_crash(void)
{
    char path[512], err[512], note[1200];
    set_state("crash");
    CHECK(sv_progress_record("round-one", SV_PROGRESS_HINT, false, 1, 0, note, sizeof note, err,
                             sizeof err));
    CHECK(sv_progress_path(path, sizeof path, false, err, sizeof err));
    char *before = slurp(path);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("SCANVIZ_PROGRESS_CRASH", "before-rename", 1);
        sv_progress_record("round-one", SV_PROGRESS_CHECKED, true, 0, 1796128200, note,
                           sizeof note, err, sizeof err);
        _exit(0); /* not reached when the hook works */
    }
    int st = 0;
    waitpid(pid, &st, 0);
    CHECK_MSG(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "the child was not killed mid-write");
    char *after = slurp(path);
    CHECK_STR(after ? after : "", before ? before : "?");
    sv_progress p;
    CHECK_INT(sv_progress_load(path, &p, err, sizeof err), SV_PROGRESS_LOADED);
    CHECK(p.n == 1 && p.e[0].hints == 1 && !p.e[0].passed);
    /* What the killed child wrote is only a temporary file beside it. */
    char folder[512];
    snprintf(folder, sizeof folder, "%s", path);
    *strrchr(folder, '/') = '\0';
    CHECK_INT(check_temporaries(folder), 1);
    free(before);
    free(after);
    /* The next write goes through and the old file is replaced whole. */
    CHECK(sv_progress_record("round-one", SV_PROGRESS_CHECKED, true, 0, 1796128200, note,
                             sizeof note, err, sizeof err));
    CHECK_INT(sv_progress_load(path, &p, err, sizeof err), SV_PROGRESS_LOADED);
    CHECK(p.n == 1 && p.e[0].passed && p.e[0].attempts == 1);
}

int main(void)
{
    check_tmpdir(dir, sizeof dir, "sv-progress");
    test_path();
    test_round_trip();
    test_bad();
    test_events();
    test_crash();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_report("progress: all checks passed");
}
