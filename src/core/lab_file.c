/* The "lab" object of a version 2 trace file (lab_file.h). Values are int32
 * integers, or for float32 the bit pattern as "0x%08x" (exact for NaN and
 * -0); null is `?`. Only cells that diverged in some run are listed; every
 * other cell held the correct kernel's value in every run, and the reader
 * recomputes those from the input. */
#include "lab_file.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "error.h"
#include "lab_ktrace.h" /* sv_lab_correct_trace */
#include "escape.h"

static void put_val(FILE *f, sv_type type, sv_value v, bool known)
{
    if (!known)
        fputs("null", f);
    else if (type == SV_TYPE_INT32)
        fprintf(f, "%" PRId32, v.i);
    else
        fprintf(f, "\"0x%08" PRIx32 "\"", v.bits);
}

/* A JSON string the reader takes back: valid UTF-8 (a bad byte as U+FFFD:
 * jansson refuses invalid UTF-8), '"', '\\' and control bytes escaped. */
static void put_str(FILE *f, const char *s)
{
    char clean[1024];
    sv_utf8_copy(s, clean, sizeof clean);
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)clean; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 32 || *p == 127)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* A seed, 0 .. SV_SEED_MAX (2^64-1), as a JSON integer. jansson holds
 * integers up to INT64_MAX only: sv_lab_json_loads reads the larger ones,
 * so that every seed --shake-seed takes reopens. */
static void put_seed(FILE *f, uint64_t seed)
{
    fprintf(f, "%" PRIu64, seed);
}

/* A racecheck count, at most SV_RACECHECK_MAX_COUNT (what the reader
 * takes; racecheck.c keeps a report's counts within it too). */
static uint64_t count_of(uint64_t n)
{
    return n > (uint64_t)SV_RACECHECK_MAX_COUNT ? (uint64_t)SV_RACECHECK_MAX_COUNT : n;
}

void sv_lab_write_json(const sv_trace *t, FILE *f)
{
    const sv_lab_record *L = t->lab;
    const sv_lab_summary *s = L->summary;
    char sched[48];
    fprintf(f, "{\n    \"kernel\": \"%s\",\n    \"source\": \"%s\",\n", sv_kernel_name(L->kernel),
            L->emulated ? "emulated" : "gpu");
    if (L->emulated) {
        fprintf(f, "    \"schedule\": \"%s\",\n", sv_schedule_format(L->schedule, sched, sizeof sched));
        if (L->hazards) { /* the CPU runtime's count of the shown run, and its first */
            fprintf(f, "    \"hazards\": %" PRIu64 ",\n    \"hazard\": ", count_of(L->hazards));
            put_str(f, L->hazard);
            fputs(",\n", f);
        }
    } else {
        fprintf(f, "    \"shake\": %s,\n    \"shake_seed\": ", L->shake ? "true" : "false");
        put_seed(f, L->shake_seed);
        fprintf(f, ",\n    \"wall_us\": %.1f,\n", L->wall_us);
    }
    fprintf(f, "    \"runs\": %u,\n    \"shown_run\": %u,\n    \"wrong_runs\": %u,\n"
               "    \"distinct_outputs\": %u,\n    \"first_wrong_cell\": %d,\n"
               "    \"first_wrong_round\": %d,\n    \"divergent\": [",
            (unsigned)L->runs, (unsigned)L->shown_run, (unsigned)s->wrong_runs,
            (unsigned)s->distinct_outputs, s->first_wrong_cell, s->first_wrong_round);
    size_t k = 0;
    for (size_t r = 0; r < s->nrounds; r++) {
        for (size_t i = 0; i < s->n; i++) {
            const sv_lab_cell *c = &s->cells[r * s->n + i];
            if (c->wrong_runs == 0)
                continue;
            fprintf(f, "%s\n      {\"round\": %zu, \"cell\": %zu, \"wrong_runs\": %u, \"values\": [",
                    k++ ? "," : "", r, i, (unsigned)c->wrong_runs);
            uint32_t listed = c->nvalues < SV_LAB_FILE_VALUES ? c->nvalues : SV_LAB_FILE_VALUES;
            uint64_t more_runs = c->more_runs;
            for (uint32_t v = 0; v < c->nvalues; v++) {
                if (v >= listed) {
                    more_runs += c->values[v].runs;
                    continue;
                }
                fputs(v ? ", [" : "[", f);
                put_val(f, t->type, c->values[v].value, c->values[v].known);
                fprintf(f, ", %u]", (unsigned)c->values[v].runs);
            }
            fputc(']', f);
            if (c->nvalues > listed || c->more_values)
                fprintf(f, ", \"more\": [%u, %" PRIu64 "]",
                        (unsigned)(c->nvalues - listed + c->more_values), more_runs);
            fputc('}', f);
        }
    }
    fputs(k ? "\n    ]" : "]", f);
    const sv_racecheck *rc = L->racecheck;
    if (rc) {
        fprintf(f, ",\n    \"racecheck\": {\n      \"ran\": %s,\n      \"note\": ",
                rc->ran ? "true" : "false");
        put_str(f, rc->note);
        fprintf(f, ",\n      \"errors\": %" PRIu64 ",\n      \"warnings\": %" PRIu64
                   ",\n      \"hazards\": [", count_of(rc->errors), count_of(rc->warnings));
        for (size_t h = 0; h < rc->nhazards; h++) {
            const sv_hazard *z = &rc->hazards[h];
            fprintf(f, "%s\n        {\"severity\": \"%s\", \"kind\": ", h ? "," : "",
                    z->error ? "error" : "warning");
            put_str(f, z->kind);
            fprintf(f, ", \"warp_level\": %s, "
                       "\"address\": %" PRIu32 ", \"buf\": %d, \"cell\": %d, \"round\": %d, "
                       "\"threads\": [%d, %d], \"accesses\": \"%c%c\", \"lines\": [%d, %d], "
                       "\"file\": ",
                    z->warp_level ? "true" : "false", z->address, z->buf, z->cell, z->round,
                    z->thread[0], z->thread[1], z->access[0] ? z->access[0] : '?',
                    z->access[1] ? z->access[1] : '?', z->line[0], z->line[1]);
            put_str(f, z->file);
            if (z->has_values)
                fprintf(f, ", \"current\": %" PRId64 ", \"incoming\": %" PRId64, z->current,
                        z->incoming);
            fputc('}', f);
        }
        fputs(rc->nhazards ? "\n      ]\n    }" : "]\n    }", f);
    }
    fputs("\n  }", f);
}

/* ---- Reading ---------------------------------------------------------------- */

typedef struct rd {
    char *path;
    size_t pathlen;
    char *err;
    size_t errlen;
} rd;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool bad(rd *r, const char *where, const char *fmt, ...)
{
    snprintf(r->path, r->pathlen, "lab%s", where);
    va_list ap;
    va_start(ap, fmt);
    if (r->err && r->errlen)
        vsnprintf(r->err, r->errlen, fmt, ap);
    va_end(ap);
    return false;
}

static bool get_ll(rd *r, const json_t *obj, const char *name, const char *where, long long lo,
                   long long hi, long long *out)
{
    json_t *x = json_object_get(obj, name);
    char p[96];
    snprintf(p, sizeof p, "%s.%s", where, name);
    if (!x)
        return bad(r, p, "missing");
    if (!json_is_integer(x))
        return bad(r, p, "expected an integer");
    long long v = json_integer_value(x);
    if (v < lo || v > hi)
        return bad(r, p, "%lld is outside %lld..%lld", v, lo, hi);
    *out = v;
    return true;
}

/* A seed as put_seed writes it: an integer 0 .. INT64_MAX, or one above it,
 * which sv_lab_json_loads hands over as the string of its digits, up to
 * SV_SEED_MAX. */
static bool get_seed(rd *r, const json_t *obj, const char *name, uint64_t *out)
{
    json_t *x = json_object_get(obj, name);
    char p[96];
    snprintf(p, sizeof p, ".%s", name);
    if (!x)
        return bad(r, p, "missing");
    if (json_is_integer(x)) {
        if (json_integer_value(x) < 0)
            return bad(r, p, "%lld is below 0", (long long)json_integer_value(x));
        *out = (uint64_t)json_integer_value(x);
        return true;
    }
    const char *s = json_is_string(x) ? json_string_value(x) : NULL;
    uint64_t v = 0;
    bool ok = s && *s;
    for (; ok && *s; s++) {
        unsigned d = (unsigned)(*s - '0');
        ok = *s >= '0' && *s <= '9' && v <= (SV_SEED_MAX - d) / 10;
        v = v * 10 + d;
    }
    if (!ok)
        return bad(r, p, "expected a whole number from 0 to %" PRIu64, (uint64_t)SV_SEED_MAX);
    *out = v;
    return true;
}

static bool get_val(rd *r, const json_t *x, const char *where, sv_type type, sv_value *v,
                    bool *known)
{
    if (json_is_null(x)) {
        *known = false;
        v->bits = 0;
        return true;
    }
    *known = true;
    if (type == SV_TYPE_INT32) {
        if (!json_is_integer(x) || json_integer_value(x) < INT32_MIN ||
            json_integer_value(x) > INT32_MAX)
            return bad(r, where, "expected an int32 or null");
        v->i = (int32_t)json_integer_value(x);
        return true;
    }
    const char *s = json_is_string(x) ? json_string_value(x) : NULL;
    char *end = NULL;
    unsigned long u = s && strncmp(s, "0x", 2) == 0 && strlen(s) == 10 ? strtoul(s + 2, &end, 16) : 0;
    if (!end || *end)
        return bad(r, where, "expected a float32 bit pattern \"0x%%08x\" or null");
    v->bits = (uint32_t)u;
    return true;
}

/* A hazard's severity and kind, each one of the words the writer uses
 * (racecheck.h), and its two threads and lines, integers. */
static bool hazard_strings(rd *r, const char *w, const json_t *e, sv_hazard *z)
{
    static const char *const kinds[] = {"RAW", "WAR", "WAW", "?"};
    char p[96];
    const char *sev = json_string_value(json_object_get(e, "severity"));
    const char *kind = json_string_value(json_object_get(e, "kind"));
    if (strcmp(sev, "error") != 0 && strcmp(sev, "warning") != 0) {
        snprintf(p, sizeof p, "%s.severity", w);
        return bad(r, p, "\"%.32s\": expected \"error\" or \"warning\"", sev);
    }
    z->error = strcmp(sev, "error") == 0;
    size_t k = 0;
    while (k < 4 && strcmp(kind, kinds[k]) != 0)
        k++;
    if (k == 4) {
        snprintf(p, sizeof p, "%s.kind", w);
        return bad(r, p, "\"%.32s\": expected RAW, WAR, WAW or ?", kind);
    }
    snprintf(z->kind, sizeof z->kind, "%s", kinds[k]);
    const char *arrays[2] = {"threads", "lines"};
    for (int a = 0; a < 2; a++) {
        const json_t *x = json_object_get(e, arrays[a]);
        for (size_t i = 0; i < 2; i++) {
            if (!json_is_integer(json_array_get(x, i))) {
                snprintf(p, sizeof p, "%s.%s[%zu]", w, arrays[a], i);
                return bad(r, p, "expected an integer");
            }
        }
    }
    return true;
}

bool sv_lab_peek_kernel(const json_t *root, sv_kernel *out, char *path, size_t pathlen,
                        char *err, size_t errlen)
{
    *out = SV_KERNEL_CORRECT;
    json_t *lab = json_object_get(root, "lab");
    if (!lab || !json_is_object(lab))
        return true;
    json_t *k = json_object_get(lab, "kernel");
    if (!k || !json_is_string(k))
        return true; /* sv_lab_read_json names the problem */
    if (!sv_kernel_from_name(json_string_value(k), out)) {
        snprintf(path, pathlen, "lab.kernel");
        sv_kernel_parse(json_string_value(k), out, err, errlen);
        return false;
    }
    return true;
}

/* The lab record's "divergent" cells into the summary s (every other cell
 * holds its correct value, as sv_lab_summary_all_correct made it). */
static bool read_divergent(rd *r, const json_t *dv, const sv_trace *t, const sv_lab_record *L,
                           sv_lab_summary *s)
{
    if (!dv || !json_is_array(dv)) {
        bad(r, ".divergent", dv ? "expected an array" : "missing");
        return false;
    }
    if (json_array_size(dv) > s->n * s->nrounds) {
        bad(r, ".divergent", "%zu cells, more than the trace has", json_array_size(dv));
        return false;
    }
    for (size_t k = 0; k < json_array_size(dv); k++) {
        const json_t *e = json_array_get(dv, k);
        char w[64];
        snprintf(w, sizeof w, ".divergent[%zu]", k);
        long long rr, cc, wrong;
        if (!json_is_object(e)) {
            bad(r, w, "expected an object");
            return false;
        }
        if (!get_ll(r, e, "round", w, 0, (long long)s->nrounds - 1, &rr) ||
            !get_ll(r, e, "cell", w, 0, (long long)s->n - 1, &cc) ||
            !get_ll(r, e, "wrong_runs", w, 1, L->runs, &wrong))
            return false;
        sv_lab_cell *c = &s->cells[(size_t)rr * s->n + (size_t)cc];
        if (c->wrong_runs != 0) {
            bad(r, w, "round %lld cell %lld is listed twice", rr, cc);
            return false;
        }
        json_t *vals = json_object_get(e, "values");
        char wv[80];
        snprintf(wv, sizeof wv, "%s.values", w);
        if (!vals || !json_is_array(vals) || json_array_size(vals) == 0 ||
            json_array_size(vals) > L->runs) {
            bad(r, wv, "expected an array of 1 to runs [value, runs] pairs");
            return false;
        }
        /* "more": [values, runs] the file did not list (optional). */
        json_t *more = json_object_get(e, "more");
        long long more_values = 0, more_runs = 0;
        if (more) {
            char wm[80];
            snprintf(wm, sizeof wm, "%s.more", w);
            if (!json_is_array(more) || json_array_size(more) != 2 ||
                !json_is_integer(json_array_get(more, 0)) ||
                !json_is_integer(json_array_get(more, 1))) {
                bad(r, wm, "expected [values, runs]");
                return false;
            }
            more_values = json_integer_value(json_array_get(more, 0));
            more_runs = json_integer_value(json_array_get(more, 1));
            if (more_values < 1 || more_values > L->runs || more_runs < more_values ||
                more_runs > L->runs) {
                bad(r, wm, "[%lld, %lld]: expected 1 to runs values in as many to runs runs",
                    more_values, more_runs);
                return false;
            }
        }
        size_t nv = json_array_size(vals);
        sv_lab_count *cnt = calloc(nv, sizeof *cnt);
        if (!cnt) {
            bad(r, wv, "out of memory");
            return false;
        }
        free(c->values);
        c->values = cnt;
        c->nvalues = (uint32_t)nv;
        c->wrong_runs = (uint32_t)wrong;
        c->more_values = (uint32_t)more_values;
        c->more_runs = (uint32_t)more_runs;
        uint64_t total = (uint64_t)more_runs, wrong_seen = 0;
        for (size_t q = 0; q < nv; q++) {
            json_t *pair = json_array_get(vals, q);
            char wq[128];
            snprintf(wq, sizeof wq, "%s[%zu]", wv, q);
            if (!json_is_array(pair) || json_array_size(pair) != 2 ||
                !json_is_integer(json_array_get(pair, 1)) ||
                json_integer_value(json_array_get(pair, 1)) < 1 ||
                json_integer_value(json_array_get(pair, 1)) > L->runs) {
                bad(r, wq, "expected [value, runs] with runs in 1..%u", (unsigned)L->runs);
                return false;
            }
            if (!get_val(r, json_array_get(pair, 0), wq, t->type, &cnt[q].value, &cnt[q].known))
                return false;
            cnt[q].runs = (uint32_t)json_integer_value(json_array_get(pair, 1));
            total += cnt[q].runs;
            if (!cnt[q].known || cnt[q].value.bits != c->correct.bits)
                wrong_seen += cnt[q].runs;
        }
        /* The values not listed may hold the correct one: their runs count
         * as wrong or not. */
        if (total != L->runs || wrong_seen > (uint64_t)wrong ||
            wrong_seen + (uint64_t)more_runs < (uint64_t)wrong) {
            bad(r, wv, "the counts add up to %" PRIu64 " runs (%" PRIu64 " wrong), expected %u "
                "(%lld wrong)", total, wrong_seen, (unsigned)L->runs, wrong);
            return false;
        }
        if (s->first_diverged[cc] < 0 || s->first_diverged[cc] > (int)rr)
            s->first_diverged[cc] = (int)rr;
    }
    return true;
}

/* One racecheck hazard, k, of the lab record (racecheck.h). */
static bool read_hazard(rd *r, const json_t *e, size_t k, const sv_trace *t, sv_hazard *z)
{
    char w[64];
    long long a, b, c2, rnd, t0, t1, l0, l1;
    snprintf(w, sizeof w, ".racecheck.hazards[%zu]", k);
    json_t *sev = json_object_get(e, "severity"), *kind = json_object_get(e, "kind");
    json_t *thr = json_object_get(e, "threads"), *lines = json_object_get(e, "lines");
    json_t *acc = json_object_get(e, "accesses"), *file = json_object_get(e, "file");
    if (!json_is_object(e) || !sev || !json_is_string(sev) || !kind ||
        !json_is_string(kind) || !json_is_array(thr) || json_array_size(thr) != 2 ||
        !json_is_array(lines) || json_array_size(lines) != 2 || !acc ||
        !json_is_string(acc) || strlen(json_string_value(acc)) != 2) {
        bad(r, w, "expected severity, kind, threads [2], accesses \"XY\" and lines [2]");
        return false;
    }
    if (!hazard_strings(r, w, e, z))
        return false;
    z->warp_level = json_is_true(json_object_get(e, "warp_level"));
    t0 = json_integer_value(json_array_get(thr, 0));
    t1 = json_integer_value(json_array_get(thr, 1));
    l0 = json_integer_value(json_array_get(lines, 0));
    l1 = json_integer_value(json_array_get(lines, 1));
    if (!get_ll(r, e, "address", w, 0, UINT32_MAX, &a) ||
        !get_ll(r, e, "buf", w, -1, 1, &b) ||
        !get_ll(r, e, "cell", w, -1, (long long)t->n - 1, &c2) ||
        !get_ll(r, e, "round", w, -1, (long long)t->nrounds - 1, &rnd))
        return false;
    z->address = (uint32_t)a;
    z->buf = (int)b;
    z->cell = (int)c2;
    z->round = (int)rnd;
    /* the ranges racecheck.c reads from a report */
    z->thread[0] = t0 >= -1 && t0 <= SV_RACECHECK_MAX_THREAD ? (int)t0 : -1;
    z->thread[1] = t1 >= -1 && t1 <= SV_RACECHECK_MAX_THREAD ? (int)t1 : -1;
    z->line[0] = l0 >= -1 && l0 <= SV_RACECHECK_MAX_LINE ? (int)l0 : -1;
    z->line[1] = l1 >= -1 && l1 <= SV_RACECHECK_MAX_LINE ? (int)l1 : -1;
    z->access[0] = json_string_value(acc)[0] == 'W' ? 'W' : 'R';
    z->access[1] = json_string_value(acc)[1] == 'W' ? 'W' : 'R';
    const char *fs = file && json_is_string(file) ? json_string_value(file) : "";
    size_t fl = 0;
    for (; fs[fl] && fl < sizeof z->file - 1; fl++)
        z->file[fl] = (fs[fl] >= 32 && fs[fl] < 127) ? fs[fl] : '?';
    z->file[fl] = '\0';
    json_t *cu = json_object_get(e, "current"), *in = json_object_get(e, "incoming");
    if (cu && in && json_is_integer(cu) && json_is_integer(in)) {
        z->has_values = true;
        z->current = json_integer_value(cu);
        z->incoming = json_integer_value(in);
    }
    return true;
}

/* The lab record's "racecheck" object into L->racecheck. */
static bool read_racecheck(rd *r, const json_t *x, const sv_trace *t, sv_lab_record *L)
{
    long long v;
    if (!json_is_object(x))
        return bad(r, ".racecheck", "expected an object");
    sv_racecheck *rc = calloc(1, sizeof *rc);
    if (!rc) {
        bad(r, ".racecheck", "out of memory");
        return false;
    }
    L->racecheck = rc;
    const json_t *y = json_object_get(x, "ran");
    rc->ran = y && json_is_true(y);
    y = json_object_get(x, "note");
    if (y && !json_is_string(y)) {
        bad(r, ".racecheck.note", "expected a string");
        return false;
    }
    /* Kept to its buffer, cut at a whole UTF-8 character. */
    sv_utf8_copy(y ? json_string_value(y) : "", rc->note, sizeof rc->note);
    if (!get_ll(r, x, "errors", ".racecheck", 0, SV_RACECHECK_MAX_COUNT, &v))
        return false;
    rc->errors = (uint64_t)v;
    if (!get_ll(r, x, "warnings", ".racecheck", 0, SV_RACECHECK_MAX_COUNT, &v))
        return false;
    rc->warnings = (uint64_t)v;
    rc->has_summary = true;
    const json_t *hz = json_object_get(x, "hazards");
    if (!hz || !json_is_array(hz) || json_array_size(hz) > SV_RACECHECK_MAX_HAZARDS) {
        bad(r, ".racecheck.hazards", "expected an array of at most %d hazards",
            SV_RACECHECK_MAX_HAZARDS);
        return false;
    }
    rc->nhazards = json_array_size(hz);
    if (rc->nhazards && !(rc->hazards = calloc(rc->nhazards, sizeof *rc->hazards))) {
        bad(r, ".racecheck.hazards", "out of memory");
        return false;
    }
    for (size_t k = 0; k < rc->nhazards; k++)
        if (!read_hazard(r, json_array_get(hz, k), k, t, &rc->hazards[k]))
            return false;
    return true;
}

bool sv_lab_read_json(const json_t *j, sv_trace *t, char *path, size_t pathlen, char *err,
                      size_t errlen)
{
    rd r = {path, pathlen, err, errlen};
    sv_lab_record *L = NULL;
    sv_trace *correct = NULL;
    long long v;
    char why[256];
    if (!json_is_object(j))
        return bad(&r, "", "expected an object");
    if (!(L = calloc(1, sizeof *L)))
        return bad(&r, "", "out of memory");
    json_t *x = json_object_get(j, "kernel");
    if (!x || !json_is_string(x)) {
        bad(&r, ".kernel", x ? "expected a string" : "missing");
        goto fail;
    }
    if (!sv_kernel_from_name(json_string_value(x), &L->kernel)) {
        sv_kernel_parse(json_string_value(x), &L->kernel, why, sizeof why);
        bad(&r, ".kernel", "%s", why);
        goto fail;
    }
    x = json_object_get(j, "source");
    const char *src = x && json_is_string(x) ? json_string_value(x) : NULL;
    if (!src || (strcmp(src, "emulated") != 0 && strcmp(src, "gpu") != 0)) {
        bad(&r, ".source", "expected \"emulated\" or \"gpu\"");
        goto fail;
    }
    L->emulated = strcmp(src, "emulated") == 0;
    if (L->emulated != (t->backend == SV_BACKEND_CPU)) {
        bad(&r, ".source", "\"%s\", but the trace's backend is %s", src,
            sv_backend_name(t->backend));
        goto fail;
    }
    if (L->emulated) {
        x = json_object_get(j, "schedule");
        if (!x || !json_is_string(x)) {
            bad(&r, ".schedule", x ? "expected a string" : "missing");
            goto fail;
        }
        if (!sv_schedule_parse(json_string_value(x), &L->schedule, why, sizeof why)) {
            bad(&r, ".schedule", "%s", why);
            goto fail;
        }
        x = json_object_get(j, "hazards"); /* optional: files before issue 28 lack it */
        if (x && (!json_is_integer(x) || json_integer_value(x) < 0)) {
            bad(&r, ".hazards", "expected an integer 0 or more");
            goto fail;
        }
        L->hazards = x ? (uint64_t)json_integer_value(x) : 0;
        x = json_object_get(j, "hazard");
        if (x && !json_is_string(x)) {
            bad(&r, ".hazard", "expected a string");
            goto fail;
        }
        if (x)
            sv_utf8_copy(json_string_value(x), L->hazard, sizeof L->hazard);
    } else {
        x = json_object_get(j, "shake");
        if (!x || !json_is_boolean(x)) {
            bad(&r, ".shake", x ? "expected true or false" : "missing");
            goto fail;
        }
        L->shake = json_is_true(x);
        if (!get_seed(&r, j, "shake_seed", &L->shake_seed))
            goto fail;
        x = json_object_get(j, "wall_us");
        if (x && json_is_number(x) && json_number_value(x) >= 0)
            L->wall_us = json_number_value(x);
    }
    if (!get_ll(&r, j, "runs", "", 1, SV_LAB_MAX_RUNS, &v))
        goto fail;
    L->runs = (uint32_t)v;
    if (!get_ll(&r, j, "shown_run", "", 0, L->runs - 1, &v))
        goto fail;
    L->shown_run = (uint32_t)v;
    if (!(correct = sv_lab_correct_trace(t, why, sizeof why))) {
        bad(&r, "", "%s", why);
        goto fail;
    }
    if (!(L->summary = sv_lab_summary_all_correct(correct, L->runs, why, sizeof why))) {
        bad(&r, "", "%s", why);
        goto fail;
    }
    sv_lab_summary *s = L->summary;
    long long wr, dist, fwc, fwr;
    if (!get_ll(&r, j, "wrong_runs", "", 0, L->runs, &wr) ||
        !get_ll(&r, j, "distinct_outputs", "", 1, L->runs, &dist) ||
        !get_ll(&r, j, "first_wrong_cell", "", -1, (long long)t->n - 1, &fwc) ||
        !get_ll(&r, j, "first_wrong_round", "", -1, (long long)t->nrounds - 1, &fwr))
        goto fail;
    s->wrong_runs = (uint32_t)wr;
    s->distinct_outputs = (uint32_t)dist;
    s->first_wrong_cell = (int)fwc;
    s->first_wrong_round = (int)fwr;
    if (!read_divergent(&r, json_object_get(j, "divergent"), t, L, s))
        goto fail;
    x = json_object_get(j, "racecheck");
    if (x && !read_racecheck(&r, x, t, L))
        goto fail;
    sv_trace_destroy(correct);
    sv_lab_record_destroy(t->lab);
    t->lab = L;
    return true;
fail:
    sv_trace_destroy(correct);
    sv_lab_record_destroy(L);
    return false;
}

/* ---- Integers above INT64_MAX -------------------------------------------------- */

json_t *sv_lab_json_loads(const char *text, size_t flags, json_error_t *jerr)
{
    json_t *root = json_loads(text, flags, jerr);
    char *copy = NULL;
    /* jansson stops at the first integer it cannot hold ("too big integer",
     * its position just after the digits): quote it and read again, a few
     * times at most (each is a whole parse). */
    for (int tries = 0; !root && tries < 8 && strncmp(jerr->text, "too big integer", 15) == 0;
         tries++) {
        const char *src = copy ? copy : text;
        size_t len = strlen(src), end = (size_t)jerr->position, begin = end;
        while (begin > 0 && src[begin - 1] >= '0' && src[begin - 1] <= '9')
            begin--;
        if (end > len || begin == end || (begin > 0 && src[begin - 1] == '-'))
            break;
        char *next = malloc(len + 3);
        if (!next)
            break;
        memcpy(next, src, begin);
        next[begin] = '"';
        memcpy(next + begin + 1, src + begin, end - begin);
        next[end + 1] = '"';
        memcpy(next + end + 2, src + end, len - end + 1);
        free(copy);
        copy = next;
        root = json_loads(copy, flags, jerr);
    }
    free(copy);
    return root;
}
