/* Exercises: the spec, where they are, and the judgement (exercise.h). */
#include "exercise.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"
#include "escape.h"
#include "fileio.h"
#include "parse.h"

/* ---- The spec ----------------------------------------------------------- */

void sv_exercise_spec_free(sv_exercise_spec *spec)
{
    if (!spec)
        return;
    for (size_t i = 0; i < spec->ninputs; i++)
        free(spec->inputs[i].values);
    spec->ninputs = 0;
}

static bool add_input(sv_exercise_spec *s, sv_value *v, size_t n, bool random, uint64_t seed,
                      int line, char *err, size_t errlen)
{
    if (s->ninputs == SV_EXERCISE_MAX_INPUTS) {
        free(v);
        sv_errorf(err, errlen, "line %d: more than %d inputs", line, SV_EXERCISE_MAX_INPUTS);
        return false;
    }
    s->inputs[s->ninputs++] = (sv_exercise_input){v, n, random, seed};
    return true;
}

/* "random N N ...": seeded inputs of those sizes. */
static bool take_random(sv_exercise_spec *s, char *rest, uint64_t seed, int line, char *err,
                        size_t errlen)
{
    for (char *tok = strtok(rest, " \t"); tok; tok = strtok(NULL, " \t")) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(tok, &end, 10);
        if (*end || errno || n < 1 || n > SV_MAX_N) {
            sv_errorf(err, errlen, "line %d: random size \"%s\": expected 1 to %d", line, tok,
                      SV_MAX_N);
            return false;
        }
        sv_value *v = sv_random_values(s->op, s->type, n, seed + s->ninputs);
        if (!v) {
            sv_errorf(err, errlen, "out of memory");
            return false;
        }
        if (!add_input(s, v, n, true, seed + s->ninputs, line, err, errlen))
            return false;
    }
    return true;
}

static bool take_schedules(sv_exercise_spec *s, char *rest, int line, char *err, size_t errlen)
{
    char why[256];
    for (char *tok = strtok(rest, " \t"); tok; tok = strtok(NULL, " \t")) {
        if (s->nschedules == SV_EXERCISE_MAX_SCHEDULES) {
            sv_errorf(err, errlen, "line %d: more than %d schedules", line,
                      SV_EXERCISE_MAX_SCHEDULES);
            return false;
        }
        if (!sv_schedule_parse(tok, &s->schedules[s->nschedules++], why, sizeof why)) {
            sv_errorf(err, errlen, "line %d: schedule \"%s\": %s", line, tok, why);
            return false;
        }
    }
    return true;
}

static bool take_number(const char *key, const char *rest, double lo, double hi, double *out,
                        int line, char *err, size_t errlen)
{
    char *end;
    double v = strtod(rest, &end);
    if (end == rest || *end || v < lo || v > hi) {
        sv_errorf(err, errlen, "line %d: %s \"%s\": expected a number from %g to %g", line, key,
                  rest, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

/* One "key rest" line. */
static bool take_line(sv_exercise_spec *s, const char *key, char *rest, uint64_t *seed, int line,
                      char *err, size_t errlen)
{
    double d;
    if (strcmp(key, "title") == 0) {
        snprintf(s->title, sizeof s->title, "%s", rest);
    } else if (strcmp(key, "op") == 0) {
        if (!sv_op_from_name(rest, &s->op))
            goto bad;
    } else if (strcmp(key, "type") == 0) {
        if (!sv_type_from_name(rest, &s->type))
            goto bad;
    } else if (strcmp(key, "scan") == 0) {
        if (strcmp(rest, "inclusive") && strcmp(rest, "exclusive"))
            goto bad;
        s->scan = rest[0] == 'e' ? SV_SCAN_EXCLUSIVE : SV_SCAN_INCLUSIVE;
    } else if (strcmp(key, "output") == 0) {
        int r;
        if (strcmp(rest, "scan") == 0)
            s->output_round = 0;
        else if (sscanf(rest, "round %d", &r) == 1 && r >= 1 && r <= 10)
            s->output_round = r;
        else
            goto bad;
    } else if (strcmp(key, "rounds") == 0) {
        if (strcmp(rest, "chapter") && strcmp(rest, "any"))
            goto bad;
        s->rounds = rest[0] == 'c';
    } else if (strcmp(key, "input") == 0) {
        sv_value *v = NULL;
        size_t n = 0;
        char why[512];
        if (!sv_parse_values(rest, s->type, SV_MAX_N, &v, &n, why, sizeof why)) {
            sv_errorf(err, errlen, "line %d: input: %s", line, why);
            return false;
        }
        return add_input(s, v, n, false, 0, line, err, errlen);
    } else if (strcmp(key, "seed") == 0) {
        if (!take_number(key, rest, 0, 1e9, &d, line, err, errlen))
            return false;
        *seed = (uint64_t)d;
    } else if (strcmp(key, "random") == 0) {
        return take_random(s, rest, *seed, line, err, errlen);
    } else if (strcmp(key, "schedules") == 0) {
        return take_schedules(s, rest, line, err, errlen);
    } else if (strcmp(key, "runs") == 0) {
        if (!take_number(key, rest, 1, 100, &d, line, err, errlen))
            return false;
        s->runs = (uint32_t)d;
    } else if (strcmp(key, "bank-conflicts") == 0) {
        if (!take_number(key, rest, 0, 1e9, &d, line, err, errlen))
            return false;
        s->banks = true;
        s->max_banks = (uint64_t)d;
    } else if (strcmp(key, "time-limit") == 0) {
        if (!take_number(key, rest, 0.1, 60, &d, line, err, errlen))
            return false;
        s->time_limit_ms = (uint32_t)(d * 1000 + 0.5);
    } else {
        sv_errorf(err, errlen, "line %d: unknown key \"%s\"", line, key);
        return false;
    }
    return true;
bad:
    sv_errorf(err, errlen, "line %d: %s \"%s\": not one of its values", line, key, rest);
    return false;
}

bool sv_exercise_spec_parse(const char *name, const char *text, sv_exercise_spec *spec,
                            char *err, size_t errlen)
{
    memset(spec, 0, sizeof *spec);
    snprintf(spec->name, sizeof spec->name, "%s", name);
    spec->runs = 2;
    spec->time_limit_ms = 2000;
    uint64_t seed = 1;
    char *copy = strdup(text);
    if (!copy) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    bool ok = true;
    int line = 0;
    for (char *p = copy; ok && p && *p; line++) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        while (*p && isspace((unsigned char)*p))
            p++;
        size_t l = strlen(p);
        while (l && isspace((unsigned char)p[l - 1]))
            p[--l] = '\0';
        if (*p) {
            char *rest = p + strcspn(p, " \t");
            if (*rest)
                *rest++ = '\0';
            while (*rest == ' ' || *rest == '\t')
                rest++;
            ok = take_line(spec, p, rest, &seed, line + 1, err, errlen);
        }
        p = nl ? nl + 1 : NULL;
    }
    free(copy);
    if (ok && !sv_op_valid(spec->op, spec->type, err, errlen))
        ok = false;
    if (ok && (spec->ninputs == 0 || spec->nschedules == 0)) {
        sv_errorf(err, errlen, "no %s", spec->ninputs ? "schedules" : "input");
        ok = false;
    }
    if (!ok)
        sv_exercise_spec_free(spec);
    return ok;
}

/* ---- Where they are ------------------------------------------------------ */

bool sv_exercise_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= SV_EXERCISE_MAX_NAME)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)name[i]) || isdigit((unsigned char)name[i]) || name[i] == '-'))
            return false;
    return true;
}

static bool has_sequence(const char *dir)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/sequence", dir);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

bool sv_exercise_root(const char *const *dirs, size_t ndirs, char *root, size_t len, char *err,
                      size_t errlen)
{
    const char *env = getenv("SCANVIZ_EXERCISES");
    if (env && *env) {
        if (!has_sequence(env)) {
            sv_errorf(err, errlen, "SCANVIZ_EXERCISES=%s: no exercises there (no sequence file)",
                      env);
            return false;
        }
        snprintf(root, len, "%s", env);
        return true;
    }
    for (size_t i = 0; i < ndirs; i++)
        if (dirs[i] && has_sequence(dirs[i])) {
            snprintf(root, len, "%s", dirs[i]);
            return true;
        }
    sv_errorf(err, errlen, "the exercises are not installed (looked in %s%s)",
              ndirs ? dirs[0] : "nowhere", ndirs > 1 ? " and beside the program" : "");
    return false;
}

#ifndef SV_EXERCISES_INSTALLED
#define SV_EXERCISES_INSTALLED "/usr/local/share/scanviz/exercises"
#endif
#ifndef SV_EXERCISES_BUILD
#define SV_EXERCISES_BUILD "assets/exercises"
#endif

bool sv_exercise_find_root(char *root, size_t len, char *err, size_t errlen)
{
    const char *dirs[] = {SV_EXERCISES_INSTALLED, SV_EXERCISES_BUILD};
    return sv_exercise_root(dirs, 2, root, len, err, errlen);
}

size_t sv_exercise_list(const char *root, char names[][SV_EXERCISE_MAX_NAME], size_t max,
                        char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/sequence", root);
    char *text = sv_read_bounded(path, SV_EXERCISE_MAX_FILE, "the exercise list", NULL, err,
                                 errlen);
    if (!text)
        return 0;
    size_t count = 0;
    for (char *tok = strtok(text, "\n"); tok && count < max; tok = strtok(NULL, "\n")) {
        tok += strspn(tok, " \t");
        tok[strcspn(tok, " \t#\r")] = '\0';
        if (!*tok)
            continue;
        if (!sv_exercise_name_ok(tok)) {
            sv_errorf(err, errlen, "%s: \"%.40s\" is not an exercise name", path, tok);
            free(text);
            return 0;
        }
        snprintf(names[count++], SV_EXERCISE_MAX_NAME, "%s", tok);
    }
    free(text);
    if (!count)
        sv_errorf(err, errlen, "%s: no exercises listed", path);
    return count;
}

char *sv_exercise_read(const char *root, const char *name, const char *file, size_t limit,
                       char *err, size_t errlen)
{
    char path[4096], what[128];
    if (!sv_exercise_name_ok(name)) {
        char esc[200];
        sv_errorf(err, errlen, "\"%s\" is not an exercise (scanviz-trace --exercise list lists them)",
                  sv_escape(name, esc, sizeof esc));
        return NULL;
    }
    snprintf(path, sizeof path, "%s/%s", root, name);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        sv_errorf(err, errlen, "no exercise named \"%s\" (scanviz-trace --exercise list lists "
                  "them)", name);
        return NULL;
    }
    snprintf(path, sizeof path, "%s/%s/%s", root, name, file);
    snprintf(what, sizeof what, "exercise %s's %s", name, file);
    /* A source tree's folder keeps the kernel files as diffs (start.diff);
     * the build writes them whole (assets/exercises/meson.build). */
    size_t k = strlen(path);
    if (k > 3 && strcmp(path + k - 3, ".cu") == 0 && stat(path, &st) != 0 && k + 2 < sizeof path) {
        memcpy(path + k - 3, ".diff", 6);
        bool diff = stat(path, &st) == 0;
        memcpy(path + k - 3, ".cu", 4);
        if (diff) {
            sv_errorf(err, errlen, "%s: %s is written by the build (this folder holds its diff): "
                      "use the build tree's or the installed exercises", path, what);
            return NULL;
        }
    }
    return sv_read_bounded(path, limit, what, NULL, err, errlen);
}

bool sv_exercise_load(const char *root, const char *name, sv_exercise_spec *spec, char *err,
                      size_t errlen)
{
    char why[512];
    char *text = sv_exercise_read(root, name, "check.txt", SV_EXERCISE_MAX_FILE, err, errlen);
    if (!text)
        return false;
    bool ok = sv_exercise_spec_parse(name, text, spec, why, sizeof why);
    free(text);
    if (!ok)
        sv_errorf(err, errlen, "exercise %s: check.txt: %s", name, why);
    return ok;
}

unsigned sv_exercise_hint_count(const char *root, const char *name)
{
    unsigned k = 0;
    char path[4096];
    struct stat st;
    if (!sv_exercise_name_ok(name))
        return 0;
    while (k < SV_EXERCISE_MAX_HINTS) {
        snprintf(path, sizeof path, "%s/%s/hint-%u.txt", root, name, k + 1);
        if (stat(path, &st) != 0)
            break;
        k++;
    }
    return k;
}
