/* A student's progress through the exercises (issue 19): per exercise,
 * whether it passed, the hints shown, the checks counted as attempts, the
 * time of the first pass and whether the solution was revealed, in one
 * small text file:
 *
 *     $XDG_STATE_HOME/scanviz/progress   (default ~/.local/state/scanviz/)
 *
 *     # scanviz exercise progress: one exercise a line (written by scanviz)
 *     scanviz-progress 1
 *     round-one passed=yes hints=2 attempts=5 first-pass=2026-12-01T12:30:00Z revealed=no
 *
 * The folder is created 0700 and must be the user's own folder, not a
 * link (sv_private_dir); the file is written all or nothing
 * (sv_file_begin/commit) and read bounded (SV_PROGRESS_MAX_FILE), and a bad
 * file is refused with the line, the field's position and its name. A bad
 * file is never lost: the next write renames it to PATH.bad first and says
 * so. Who counts what: the window counts a check of each save (not the one
 * at opening) and each hint shown; scanviz-trace --exercise NAME
 * --kernel-file counts its check; --grade never touches the file.
 *
 * Test hook: with SCANVIZ_PROGRESS_CRASH=before-rename in the environment,
 * a save kills its own process (SIGKILL) after the new file is written and
 * synced and before it replaces the old one: tests/core/test_progress.c
 * checks that the old file then reads whole. Nothing here prints. */
#ifndef SV_EXERCISE_PROGRESS_H
#define SV_EXERCISE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exercise.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SV_PROGRESS_MAX_FILE (64u * 1024) /* bytes */
#define SV_PROGRESS_MAX_ATTEMPTS 1000000000u
#define SV_PROGRESS_VERSION 1

typedef struct sv_progress_entry {
    char name[SV_EXERCISE_MAX_NAME];
    bool passed;
    unsigned hints;      /* hints shown so far, 0 .. SV_EXERCISE_MAX_HINTS */
    unsigned attempts;   /* checks counted */
    int64_t first_pass;  /* Unix time of the first pass; 0: not yet */
    bool revealed;       /* the solution was shown */
} sv_progress_entry;

typedef struct sv_progress {
    size_t n;
    sv_progress_entry e[SV_EXERCISE_MAX_LIST];
} sv_progress;

/* The progress file's path, its folder created (0700) when create is set.
 * false with err when neither $XDG_STATE_HOME (absolute) nor $HOME is set,
 * or the folder is refused. */
bool sv_progress_path(char *path, size_t len, bool create, char *err, size_t errlen);

typedef enum sv_progress_load_status {
    SV_PROGRESS_LOADED,
    SV_PROGRESS_NO_FILE, /* nothing yet: p is empty */
    SV_PROGRESS_BAD      /* err names the line, field and why; p is empty */
} sv_progress_load_status;

/* Parses the file's text (path only names it in err). */
sv_progress_load_status sv_progress_parse(const char *path, const char *text, sv_progress *p,
                                          char *err, size_t errlen);
sv_progress_load_status sv_progress_load(const char *path, sv_progress *p, char *err,
                                         size_t errlen);
/* The user's progress (sv_progress_path, nothing created): p empty when
 * there is none; note is "" or says why none was read ("PATH: line 2, field
 * 3 (hints): \"x\": expected ...: ignored"). */
void sv_progress_current(sv_progress *p, char *note, size_t notelen);
/* The text of p, as the file holds it (the caller frees). */
char *sv_progress_format(const sv_progress *p);
/* Writes p to path all or nothing. */
bool sv_progress_save(const char *path, const sv_progress *p, char *err, size_t errlen);

/* name's entry (NULL: none). */
const sv_progress_entry *sv_progress_find(const sv_progress *p, const char *name);

/* What happened to an exercise. */
typedef enum sv_progress_event {
    SV_PROGRESS_CHECKED, /* a check ran (an attempt); passed says how it went */
    SV_PROGRESS_HINT,    /* hint number `hint` (1-based) was shown */
    SV_PROGRESS_REVEALED /* the solution was shown */
} sv_progress_event;

/* Loads the file, applies the event to name's entry (added when new), and
 * saves it all or nothing; now is the Unix time of a first pass. A bad
 * file is renamed to PATH.bad and a new one begun: note then says so
 * (else note is ""). false with err when nothing could be written. */
bool sv_progress_record(const char *name, sv_progress_event ev, bool passed, unsigned hint,
                        int64_t now, char *note, size_t notelen, char *err, size_t errlen);

/* One exercise's progress in words: "passed 2026-12-01, 5 attempts, 2 hints",
 * "3 attempts, 1 hint", "not started". */
char *sv_progress_words(const sv_progress_entry *e, char *buf, size_t len);

/* The exercise list with each one's progress (p may be NULL), one line
 * each: "  1  round-one      Round 1 alone ...   passed 2026-12-01, 3
 * attempts, 1 hint"; the caller frees. NULL with err when the list cannot
 * be read. */
char *sv_exercise_list_text(const char *root, const sv_progress *p, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
