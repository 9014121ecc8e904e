/* A student's progress through the exercises (exercise_progress.h). */
#define _DEFAULT_SOURCE /* timegm */
#include "exercise_progress.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "buf.h"
#include "error.h"
#include "escape.h"
#include "fileio.h"

#define SV_PROGRESS_HEADER "scanviz-progress"

/* b's text, taken (NULL when memory ran out). */
static char *btake(sv_buf *b)
{
    if (b->oom || !sv_buf_append(b, "", 0)) {
        sv_buf_free(b);
        return NULL;
    }
    char *p = b->p;
    if (!p)
        p = calloc(1, 1);
    return p;
}

/* ---- Where ---------------------------------------------------------------- */

bool sv_progress_path(char *path, size_t len, bool create, char *err, size_t errlen)
{
    char base[PATH_MAX];
    if (!sv_xdg_base("XDG_STATE_HOME", ".local/state", "place for the exercises' progress", base,
                     sizeof base, err, errlen))
        return false;
    char dir[PATH_MAX];
    int m = snprintf(dir, sizeof dir, "%s/scanviz", base);
    if (m < 0 || (size_t)m >= sizeof dir || (size_t)m + 10 >= len) {
        sv_errorf(err, errlen, "%s: path too long", base);
        return false;
    }
    if (create && (!sv_mkdir_parents(base, 0700, err, errlen) ||
                   !sv_private_dir(dir, "the exercises' progress folder", err, errlen)))
        return false;
    snprintf(path, len, "%s/progress", dir);
    return true;
}

/* ---- Reading -------------------------------------------------------------- */

static bool whole(const char *v, unsigned long max, unsigned *out)
{
    char *end;
    errno = 0;
    if (!*v || *v == '-' || *v == '+')
        return false;
    unsigned long x = strtoul(v, &end, 10);
    if (*end || errno || x > max)
        return false;
    *out = (unsigned)x;
    return true;
}

static bool yes_no(const char *v, bool *out)
{
    if (strcmp(v, "yes") && strcmp(v, "no"))
        return false;
    *out = v[0] == 'y';
    return true;
}

/* "2026-12-01T12:30:00Z" or "-". */
static bool when(const char *v, int64_t *out)
{
    if (strcmp(v, "-") == 0) {
        *out = 0;
        return true;
    }
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    char z = 0, extra = 0;
    if (sscanf(v, "%4d-%2d-%2dT%2d:%2d:%2d%c%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
               &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z, &extra) != 7 || z != 'Z' ||
        strlen(v) != 20 || tm.tm_year < 1970 || tm.tm_year > 9999 || tm.tm_mon < 1 ||
        tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
        tm.tm_min > 59 || tm.tm_sec > 60)
        return false;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    time_t t = timegm(&tm);
    if (t <= 0)
        return false;
    *out = (int64_t)t;
    return true;
}

/* One field "key=value" (the field's position in words, 1 the name). */
static bool take_field(sv_progress_entry *e, char *f, const char *where, int pos, char *err,
                       size_t errlen)
{
    char esc[128];
    char *eq = strchr(f, '=');
    if (!eq) {
        sv_errorf(err, errlen, "%s, field %d \"%s\": expected KEY=VALUE", where, pos,
                  sv_escape(f, esc, sizeof esc));
        return false;
    }
    *eq = '\0';
    const char *v = eq + 1, *expect = NULL;
    if (strcmp(f, "passed") == 0) {
        if (!yes_no(v, &e->passed))
            expect = "yes or no";
    } else if (strcmp(f, "revealed") == 0) {
        if (!yes_no(v, &e->revealed))
            expect = "yes or no";
    } else if (strcmp(f, "hints") == 0) {
        if (!whole(v, SV_EXERCISE_MAX_HINTS, &e->hints))
            expect = "a whole number from 0 to 3";
    } else if (strcmp(f, "attempts") == 0) {
        if (!whole(v, SV_PROGRESS_MAX_ATTEMPTS, &e->attempts))
            expect = "a whole number from 0 to 1000000000";
    } else if (strcmp(f, "first-pass") == 0) {
        if (!when(v, &e->first_pass))
            expect = "a UTC time as 2026-12-01T12:30:00Z, or -";
    } else {
        sv_errorf(err, errlen, "%s, field %d: unknown field \"%s\" (passed, hints, attempts, "
                  "first-pass, revealed)", where, pos, sv_escape(f, esc, sizeof esc));
        return false;
    }
    if (expect) {
        char vesc[128];
        sv_errorf(err, errlen, "%s, field %d (%s): \"%s\": expected %s", where, pos, f,
                  sv_escape(v, vesc, sizeof vesc), expect);
        return false;
    }
    return true;
}

/* One exercise's line. */
static bool take_entry(sv_progress *p, char *line, const char *where, char *err, size_t errlen)
{
    char esc[128];
    char *save = NULL;
    char *name = strtok_r(line, " \t", &save);
    if (!sv_exercise_name_ok(name)) {
        sv_errorf(err, errlen, "%s, field 1 (the exercise): \"%s\" is not an exercise's name",
                  where, sv_escape(name, esc, sizeof esc));
        return false;
    }
    if (sv_progress_find(p, name)) {
        sv_errorf(err, errlen, "%s, field 1 (the exercise): %s is listed twice", where, name);
        return false;
    }
    if (p->n == SV_EXERCISE_MAX_LIST) {
        sv_errorf(err, errlen, "%s: more than %d exercises", where, SV_EXERCISE_MAX_LIST);
        return false;
    }
    sv_progress_entry e;
    memset(&e, 0, sizeof e);
    snprintf(e.name, sizeof e.name, "%s", name);
    int pos = 2;
    for (char *f = strtok_r(NULL, " \t", &save); f; f = strtok_r(NULL, " \t", &save), pos++)
        if (!take_field(&e, f, where, pos, err, errlen))
            return false;
    if (e.passed != (e.first_pass != 0)) {
        sv_errorf(err, errlen, "%s, field first-pass: %s", where,
                  e.passed ? "passed=yes needs the time of the first pass"
                           : "a time of the first pass with passed=no");
        return false;
    }
    p->e[p->n++] = e;
    return true;
}

sv_progress_load_status sv_progress_parse(const char *path, const char *text, sv_progress *p,
                                          char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    char *copy = strdup(text);
    if (!copy) {
        sv_errorf(err, errlen, "%s: out of memory", path);
        return SV_PROGRESS_BAD;
    }
    bool ok = true, header = false;
    int line = 1;
    for (char *s = copy; ok && s; line++) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        char where[PATH_MAX + 32];
        snprintf(where, sizeof where, "%s: line %d", path, line);
        s[strcspn(s, "#\r")] = '\0';
        char *t = s + strspn(s, " \t");
        if (*t && !header) {
            unsigned v = 0;
            char extra;
            if (sscanf(t, SV_PROGRESS_HEADER " %u %c", &v, &extra) != 1 ||
                v != SV_PROGRESS_VERSION) {
                sv_errorf(err, errlen, "%s: expected \"" SV_PROGRESS_HEADER " %d\" first (not "
                          "a progress file of this scanviz)", where, SV_PROGRESS_VERSION);
                ok = false;
            }
            header = true;
        } else if (*t) {
            ok = take_entry(p, t, where, err, errlen);
        }
        s = nl ? nl + 1 : NULL;
    }
    free(copy);
    if (ok && !header) {
        sv_errorf(err, errlen, "%s: empty (no \"" SV_PROGRESS_HEADER "\" line)", path);
        ok = false;
    }
    if (!ok)
        memset(p, 0, sizeof *p);
    return ok ? SV_PROGRESS_LOADED : SV_PROGRESS_BAD;
}

sv_progress_load_status sv_progress_load(const char *path, sv_progress *p, char *err,
                                         size_t errlen)
{
    memset(p, 0, sizeof *p);
    struct stat sb;
    if (stat(path, &sb) != 0 && errno == ENOENT)
        return SV_PROGRESS_NO_FILE;
    /* a regular file only: a named pipe there is refused at once, never
     * waited on */
    char *text = sv_read_regular(path, SV_PROGRESS_MAX_FILE, "a progress file", true, NULL, err,
                                 errlen);
    if (!text)
        return SV_PROGRESS_BAD;
    sv_progress_load_status st = sv_progress_parse(path, text, p, err, errlen);
    free(text);
    return st;
}

void sv_progress_current(sv_progress *p, char *note, size_t notelen)
{
    char path[PATH_MAX];
    memset(p, 0, sizeof *p);
    if (notelen)
        note[0] = '\0';
    if (!sv_progress_path(path, sizeof path, false, note, notelen))
        return;
    if (sv_progress_load(path, p, note, notelen) == SV_PROGRESS_BAD) {
        size_t l = strlen(note);
        snprintf(note + l, notelen - l, ": ignored (shown as not started)");
    } else if (notelen) {
        note[0] = '\0';
    }
}

/* ---- Writing -------------------------------------------------------------- */

static void format_time(int64_t t, char *buf, size_t len)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (t <= 0 || !gmtime_r(&tt, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
        snprintf(buf, len, "-");
}

char *sv_progress_format(const sv_progress *p)
{
    sv_buf b = {0};
    sv_buf_printf(&b, "# scanviz exercise progress: one exercise a line (written by scanviz)\n"
                      SV_PROGRESS_HEADER " %d\n", SV_PROGRESS_VERSION);
    for (size_t i = 0; i < p->n; i++) {
        const sv_progress_entry *e = &p->e[i];
        char t[32];
        format_time(e->first_pass, t, sizeof t);
        sv_buf_printf(&b, "%s passed=%s hints=%u attempts=%u first-pass=%s revealed=%s\n",
                      e->name, e->passed ? "yes" : "no", e->hints, e->attempts, t,
                      e->revealed ? "yes" : "no");
    }
    return btake(&b);
}

bool sv_progress_save(const char *path, const sv_progress *p, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        sv_errorf(err, errlen, "%s: not a regular file: refused as the progress file (it is "
                  "written all or nothing, never into a pipe or a device)", path);
        return false;
    }
    char *text = sv_progress_format(p);
    if (!text) {
        sv_errorf(err, errlen, "%s: out of memory", path);
        return false;
    }
    sv_file *f = sv_file_begin(path, err, errlen);
    if (!f) {
        free(text);
        return false;
    }
    fputs(text, sv_file_stream(f));
    free(text);
    if (!sv_file_finish(f, err, errlen)) {
        sv_file_abort(f);
        return false;
    }
    const char *crash = getenv("SCANVIZ_PROGRESS_CRASH");
    if (crash && strcmp(crash, "before-rename") == 0)
        raise(SIGKILL); /* the test hook (exercise_progress.h) */
    return sv_file_publish(f, err, errlen);
}

const sv_progress_entry *sv_progress_find(const sv_progress *p, const char *name)
{
    for (size_t i = 0; i < p->n; i++)
        if (strcmp(p->e[i].name, name) == 0)
            return &p->e[i];
    return NULL;
}

static sv_progress_entry *entry_for(sv_progress *p, const char *name)
{
    sv_progress_entry *e = (sv_progress_entry *)sv_progress_find(p, name);
    if (e || p->n == SV_EXERCISE_MAX_LIST)
        return e;
    e = &p->e[p->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    return e;
}

bool sv_progress_record(const char *name, sv_progress_event ev, bool passed, unsigned hint,
                        int64_t now, char *note, size_t notelen, char *err, size_t errlen)
{
    char path[PATH_MAX], why[1024];
    if (notelen)
        note[0] = '\0';
    if (!sv_exercise_name_ok(name)) {
        sv_errorf(err, errlen, "progress: \"%.60s\" is not an exercise's name", name);
        return false;
    }
    if (!sv_progress_path(path, sizeof path, true, err, errlen))
        return false;
    sv_progress p;
    if (sv_progress_load(path, &p, why, sizeof why) == SV_PROGRESS_BAD) {
        /* Never lost: set aside whole, then a new file begins. */
        char bad[PATH_MAX + 8];
        snprintf(bad, sizeof bad, "%s.bad", path);
        if (rename(path, bad) != 0) {
            sv_errorf(err, errlen, "%s (and it could not be set aside as %s: %s)", why, bad,
                      strerror(errno));
            return false;
        }
        sv_errorf(note, notelen, "%s: ignored, kept as %s; a new progress file begins", why,
                  bad);
    }
    sv_progress_entry *e = entry_for(&p, name);
    if (!e) {
        sv_errorf(err, errlen, "%s: more than %d exercises", path, SV_EXERCISE_MAX_LIST);
        return false;
    }
    if (ev == SV_PROGRESS_CHECKED) {
        if (e->attempts < SV_PROGRESS_MAX_ATTEMPTS)
            e->attempts++;
        if (passed && !e->passed) {
            e->passed = true;
            e->first_pass = now > 0 ? now : 1;
        }
    } else if (ev == SV_PROGRESS_HINT) {
        if (hint > e->hints && hint <= SV_EXERCISE_MAX_HINTS)
            e->hints = hint;
    } else {
        e->revealed = true;
    }
    return sv_progress_save(path, &p, err, errlen);
}

/* ---- In words -------------------------------------------------------------- */

char *sv_progress_words(const sv_progress_entry *e, char *buf, size_t len)
{
    if (!e || (!e->attempts && !e->hints && !e->passed && !e->revealed)) {
        snprintf(buf, len, "not started");
        return buf;
    }
    char day[32] = "";
    if (e->passed) {
        format_time(e->first_pass, day, sizeof day);
        day[10] = '\0';
    }
    snprintf(buf, len, "%s%s%s%u attempt%s, %u hint%s%s", e->passed ? "passed " : "", day,
             e->passed ? ", " : "", e->attempts, e->attempts == 1 ? "" : "s", e->hints,
             e->hints == 1 ? "" : "s", e->revealed ? ", solution revealed" : "");
    return buf;
}

char *sv_exercise_list_text(const char *root, const sv_progress *p, char *err, size_t errlen)
{
    char names[SV_EXERCISE_MAX_LIST][SV_EXERCISE_MAX_NAME];
    size_t n = sv_exercise_list(root, names, SV_EXERCISE_MAX_LIST, err, errlen);
    if (!n)
        return NULL;
    sv_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        sv_exercise_spec s;
        char why[512], esc[256], words[160];
        bool ok = sv_exercise_load(root, names[i], &s, why, sizeof why);
        const sv_progress_entry *e = p ? sv_progress_find(p, names[i]) : NULL;
        sv_buf_printf(&b, "%2zu  %-14s %-40s %s\n", i + 1, names[i],
                ok ? sv_escape(s.title, esc, sizeof esc) : "?",
                sv_progress_words(e, words, sizeof words));
        if (ok)
            sv_exercise_spec_free(&s);
    }
    return btake(&b);
}
