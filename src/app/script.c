/* The presenter script's reader (script.h): lines of words, a colon, and a
 * caption; bounded, with every error naming the file, line and word. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script.h"
#include "source.h"
#include "../core/exercise.h"
#include "../core/fileio.h"
#include "../core/lab.h"

/* A printable copy of a word for messages: at most 24 bytes, control bytes
 * and non-ASCII as '?'. */
static const char *shown(const char *w, size_t len, char out[32])
{
    size_t k = 0;
    for (size_t i = 0; i < len && k < 24; i++)
        out[k++] = (w[i] >= 0x20 && w[i] < 0x7f) ? w[i] : '?';
    if (len > 24)
        out[k++] = '.', out[k++] = '.', out[k++] = '.';
    out[k] = '\0';
    return out;
}

/* Whether s[0..len) is valid UTF-8 with no control character (C0, DEL, C1). */
static bool clean_utf8(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7f)
                return false;
            i++;
            continue;
        }
        int n = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
        if (n == 0 || c == 0xC0 || c == 0xC1 || c > 0xF4 || i + (size_t)n > len)
            return false;
        for (int k = 1; k < n; k++)
            if ((p[i + (size_t)k] & 0xC0) != 0x80)
                return false;
        if ((c == 0xE0 && p[i + 1] < 0xA0) || (c == 0xED && p[i + 1] >= 0xA0) ||
            (c == 0xF0 && p[i + 1] < 0x90) || (c == 0xF4 && p[i + 1] >= 0x90))
            return false;
        if (n == 3 && c == 0xE2 && p[i + 1] == 0x80 && (p[i + 2] == 0xA8 || p[i + 2] == 0xA9))
            return false; /* line and paragraph separators */
        if (n == 2 && c == 0xC2 && p[i + 1] < 0xA0)
            return false; /* C1 controls U+0080..U+009F (some terminals obey them) */
        i += (size_t)n;
    }
    return true;
}

static bool word_is(const char *w, size_t len, const char *lit)
{
    return strlen(lit) == len && memcmp(w, lit, len) == 0;
}

/* Next word of [*p, end): skips spaces and tabs; a word ends at a space, a
 * tab or ':'. Returns its length (0 at the end or at ':'). */
static size_t next_word(const char **p, const char *end, const char **w)
{
    while (*p < end && (**p == ' ' || **p == '\t'))
        (*p)++;
    *w = *p;
    while (*p < end && **p != ' ' && **p != '\t' && **p != ':')
        (*p)++;
    return (size_t)(*p - *w);
}

/* `phase NAME`, `code on|off`, `correct on|off`, `quiz KIND`: the word
 * after w (already read) into st; false with err naming the value. */
/* A step's one word (kernel NAME, kernel-file PATH) into out, 1 .. cap - 1
 * bytes; false with err ("\"kernel\" needs a name of 1 to 63 characters"). */
static bool step_word(const char **p, const char *end, const char *step, const char *noun,
                      const char *unit, char *out, size_t cap, const char *name, int ln,
                      char *err, size_t errlen)
{
    const char *v;
    size_t vl = next_word(p, end, &v);
    if (vl == 0 || vl >= cap) {
        snprintf(err, errlen, "%s:%d: \"%s\" needs a %s of 1 to %zu %s", name, ln, step, noun,
                 cap - 1, unit);
        return false;
    }
    memcpy(out, v, vl);
    out[vl] = '\0';
    return true;
}

static bool parse_view_word(const char *w, size_t wl, const char **p, const char *end,
                            const char *name, int ln, sv_script_step *st, char *err,
                            size_t errlen)
{
    const char *v;
    size_t vl = next_word(p, end, &v);
    char tmp[32];
    if (word_is(w, wl, "phase")) {
        for (int k = SV_PHASE_NONE + 1; k < SV_PHASE_COUNT; k++)
            if (word_is(v, vl, sv_phase_name((sv_phase)k))) {
                st->phase = (sv_phase)k;
                return true;
            }
        snprintf(err, errlen, "%s:%d: phase \"%s\": expected load, guard, op, barrier, swap "
                 "or copy-back", name, ln, shown(v, vl, tmp));
        return false;
    }
    if (word_is(w, wl, "quiz")) {
        static const char *const kinds[] = { "values", "cases", "outcome" };
        for (int k = 0; k < 3; k++)
            if (word_is(v, vl, kinds[k])) {
                st->quiz = true;
                st->quiz_kind = (sv_quiz_kind)k; /* SV_QUIZ_VALUES, _CASES, _OUTCOME */
                return true;
            }
        snprintf(err, errlen, "%s:%d: quiz \"%s\": expected values, cases or outcome", name,
                 ln, shown(v, vl, tmp));
        return false;
    }
    signed char *flag = word_is(w, wl, "code") ? &st->code : &st->correct;
    if (word_is(v, vl, "on") || word_is(v, vl, "off")) {
        *flag = word_is(v, vl, "on");
        return true;
    }
    snprintf(err, errlen, "%s:%d: %.*s \"%s\": expected on or off", name, ln, (int)wl, w,
             shown(v, vl, tmp));
    return false;
}

static bool parse_line(const char *line, size_t len, const char *name, int ln,
                       sv_script_step *st, char *err, size_t errlen)
{
    const char *p = line, *end = line + len, *w;
    char tmp[32];
    bool named_round = false;
    size_t wl;
    while ((wl = next_word(&p, end, &w)) > 0) {
        if (word_is(w, wl, "round")) {
            const char *v;
            size_t vl = next_word(&p, end, &v);
            char num[16];
            if (vl == 0 || vl >= sizeof num) {
                snprintf(err, errlen, "%s:%d: \"round\" needs a number (round 0, round 1, ...)",
                         name, ln);
                return false;
            }
            memcpy(num, v, vl);
            num[vl] = '\0';
            char *e;
            errno = 0;
            long r = strtol(num, &e, 10);
            if (errno || *e || r < 0 || r > 64 || num[0] == '+' || num[0] == '-') {
                snprintf(err, errlen, "%s:%d: round \"%s\": expected a round number 0..64",
                         name, ln, shown(v, vl, tmp));
                return false;
            }
            st->round = (int)r;
            st->shift = false;
            named_round = true;
        } else if (word_is(w, wl, "move")) {
            st->move = true;
        } else if (word_is(w, wl, "shift")) {
            st->shift = true;
            named_round = true;
        } else if (word_is(w, wl, "view")) {
            const char *v;
            size_t vl = next_word(&p, end, &v);
            if (word_is(v, vl, "scan") || word_is(v, vl, "rounds"))
                st->view = SV_SCRIPT_VIEW_SCAN;
            else if (word_is(v, vl, "overview"))
                st->view = SV_SCRIPT_VIEW_OVERVIEW;
            else if (word_is(v, vl, "measure"))
                st->view = SV_SCRIPT_VIEW_MEASURE;
            else {
                snprintf(err, errlen, "%s:%d: view \"%s\": expected scan, overview or measure",
                         name, ln, shown(v, vl, tmp));
                return false;
            }
        } else if (word_is(w, wl, "kernel")) {
            if (!step_word(&p, end, "kernel", "name", "characters", st->kernel,
                           sizeof st->kernel, name, ln, err, errlen))
                return false;
            for (const char *c = st->kernel; *c; c++) {
                if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                      (*c >= '0' && *c <= '9') || *c == '-' || *c == '_')) {
                    snprintf(err, errlen, "%s:%d: kernel \"%s\": letters, digits, - and _ only",
                             name, ln, shown(st->kernel, strlen(st->kernel), tmp));
                    return false;
                }
            }
            st->beyond = sv_kernel_beyond_find(st->kernel);
            st->kernel_ok = !st->beyond && sv_kernel_parse(st->kernel, &st->kernel_id, NULL, 0);
        } else if (word_is(w, wl, "kernel-file")) {
            if (!step_word(&p, end, "kernel-file", "path", "bytes", st->kfile,
                           sizeof st->kfile, name, ln, err, errlen))
                return false;
        } else if (word_is(w, wl, "exercise")) {
            if (!step_word(&p, end, "exercise", "name", "characters", st->exercise,
                           sizeof st->exercise, name, ln, err, errlen))
                return false;
            if (!sv_exercise_name_ok(st->exercise)) {
                snprintf(err, errlen, "%s:%d: exercise \"%s\": expected an exercise's name "
                         "(scanviz --exercise list lists them)", name, ln,
                         shown(st->exercise, strlen(st->exercise), tmp));
                return false;
            }
        } else if (word_is(w, wl, "phase") || word_is(w, wl, "code") ||
                   word_is(w, wl, "correct") || word_is(w, wl, "quiz")) {
            if (!parse_view_word(w, wl, &p, end, name, ln, st, err, errlen))
                return false;
        } else {
            snprintf(err, errlen, "%s:%d: \"%s\": expected round, move, shift, view, kernel, "
                     "kernel-file, exercise, phase, code, correct, quiz or \":\" before the caption", name, ln,
                     shown(w, wl, tmp));
            return false;
        }
    }
    (void)named_round;
    if (p < end && *p == ':') {
        p++;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        size_t cl = (size_t)(end - p);
        while (cl > 0 && (p[cl - 1] == ' ' || p[cl - 1] == '\t'))
            cl--;
        if (cl >= sizeof st->caption) {
            snprintf(err, errlen, "%s:%d: the caption is %zu bytes, at most %zu", name, ln, cl,
                     sizeof st->caption - 1);
            return false;
        }
        if (!clean_utf8(p, cl)) {
            snprintf(err, errlen, "%s:%d: the caption has a control character or is not UTF-8",
                     name, ln);
            return false;
        }
        memcpy(st->caption, p, cl);
        st->caption[cl] = '\0';
    }
    return true;
}

bool sv_script_parse(const char *text, size_t len, const char *name, sv_script *out,
                     char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (len > SV_SCRIPT_MAX_BYTES) {
        snprintf(err, errlen, "%s: %zu bytes, a script is at most %d", name, len,
                 SV_SCRIPT_MAX_BYTES);
        return false;
    }
    if (memchr(text, '\0', len)) {
        snprintf(err, errlen, "%s: not a text file (contains a NUL byte)", name);
        return false;
    }
    sv_script_step *steps = calloc(SV_SCRIPT_MAX_STEPS, sizeof *steps);
    if (!steps) {
        snprintf(err, errlen, "%s: out of memory", name);
        return false;
    }
    int n = 0, ln = 0;
    sv_script_step prev = { .round = 0, .view = SV_SCRIPT_VIEW_SCAN };
    const char *p = text, *end = text + len;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
        p += 3; /* a UTF-8 byte order mark */
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        ln++;
        size_t ll = (size_t)(le - p);
        if (ll > 0 && p[ll - 1] == '\r')
            ll--;
        const char *q = p;
        while (q < p + ll && (*q == ' ' || *q == '\t'))
            q++;
        if (q < p + ll && *q != '#') {
            if (n == SV_SCRIPT_MAX_STEPS) {
                snprintf(err, errlen, "%s:%d: more than %d steps", name, ln, SV_SCRIPT_MAX_STEPS);
                goto fail;
            }
            sv_script_step *st = &steps[n];
            memset(st, 0, sizeof *st);
            st->round = prev.round;
            st->shift = prev.shift;
            st->view = SV_SCRIPT_VIEW_KEEP;
            st->code = st->correct = -1;
            st->line = ln;
            if (!parse_line(p, ll, name, ln, st, err, errlen))
                goto fail;
            if (st->view == SV_SCRIPT_VIEW_KEEP)
                st->view = prev.view;
            if (st->move && (st->shift ? false : st->round == 0)) {
                snprintf(err, errlen, "%s:%d: \"move\" into round 0: round 0 is where a run "
                         "starts, nothing moves into it", name, ln);
                goto fail;
            }
            prev = *st;
            prev.move = false;
            n++;
        }
        p = nl ? nl + 1 : end;
    }
    if (n == 0) {
        snprintf(err, errlen, "%s: no steps (one a line: round R, shift or view V, then "
                 "\": caption\")", name);
        goto fail;
    }
    out->steps = steps;
    out->n = n;
    return true;
fail:
    free(steps);
    return false;
}

bool sv_script_load(const char *path, sv_script *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    char *buf = sv_read_bounded(path, SV_SCRIPT_MAX_BYTES, "a presenter script", &len, err,
                                errlen);
    if (!buf)
        return false;
    bool ok = sv_script_parse(buf, len, path, out, err, errlen);
    free(buf);
    /* A step's kernel file is relative to the script's folder. */
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    for (int i = 0; ok && dl && i < out->n; i++) {
        sv_script_step *st = &out->steps[i];
        size_t fl = strlen(st->kfile);
        if (!fl || st->kfile[0] == '/')
            continue;
        if (dl + fl >= sizeof st->kfile) {
            snprintf(err, errlen, "%s:%d: kernel-file %s: the path is too long", path, st->line,
                     st->kfile);
            sv_script_finish(out);
            return false;
        }
        memmove(st->kfile + dl, st->kfile, fl + 1);
        memcpy(st->kfile, path, dl);
    }
    return ok;
}

/* Whether step st's round has its phase; why lists the phases it has. */
static bool phase_of_step(const sv_script_step *st, const sv_trace *t, char *why, size_t len)
{
    int step = st->shift ? sv_view_steps(t) - 1 : st->round;
    sv_phase ph[SV_PHASE_COUNT];
    int n = sv_phases_of(t, step, ph);
    size_t at = (size_t)snprintf(why, len, "phase %s: %s %d has ", sv_phase_name(st->phase),
                                 st->shift ? "the shift, step" : "round", step);
    for (int k = 0; k < n; k++) {
        if (ph[k] == st->phase)
            return true;
        if (at < len)
            at += (size_t)snprintf(why + at, len - at, "%s%s", k ? ", " : "",
                                   sv_phase_name(ph[k]));
    }
    if (n == 0 && at < len)
        snprintf(why + at, len - at, "no phases");
    return false;
}

bool sv_script_check_phases(const sv_script *s, const sv_trace *t, char *err, size_t errlen)
{
    for (int i = 0; i < s->n; i++) {
        const sv_script_step *st = &s->steps[i];
        char why[300];
        if (st->phase != SV_PHASE_NONE && !phase_of_step(st, t, why, sizeof why)) {
            snprintf(err, errlen, "line %d: %s", st->line, why);
            return false;
        }
    }
    return true;
}

bool sv_script_check(const sv_script *s, int nrounds, bool exclusive, char *err, size_t errlen)
{
    for (int i = 0; i < s->n; i++) {
        const sv_script_step *st = &s->steps[i];
        if (st->shift && !exclusive) {
            snprintf(err, errlen, "line %d: \"shift\" needs an exclusive scan (--exclusive)",
                     st->line);
            return false;
        }
        bool kfile = false; /* a kernel file's steps are known once it ran */
        for (int j = 0; j <= i; j++)
            kfile = s->steps[j].kfile[0] ? true : kfile;
        if (!st->shift && st->round >= nrounds && !kfile) {
            snprintf(err, errlen, "line %d: round %d, but this trace has rounds 0..%d",
                     st->line, st->round, nrounds - 1);
            return false;
        }
        sv_kernel k;
        char why[300];
        if (st->kernel[0] && !st->beyond && !st->kernel_ok &&
            !sv_kernel_parse(st->kernel, &k, why, sizeof why)) { /* (for its words) */
            snprintf(err, errlen, "line %d: %s", st->line, why);
            return false;
        }
    }
    return true;
}

void sv_script_finish(sv_script *s)
{
    if (!s)
        return;
    free(s->steps);
    s->steps = NULL;
    s->n = 0;
}
