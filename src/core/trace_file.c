/* Trace files: the JSON of docs/trace-format.md. The writer lays the JSON out
 * by hand (one array per line, so a file reads like the table; jansson escapes
 * the strings), the reader parses with jansson and validates every field. */
#include "trace_file.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "json_value.h"
#include "ktrace_file.h"
#include "lab_file.h"
#include "parse.h"

#define VALUES_PER_LINE 16

/* ---- Writing -------------------------------------------------------------- */

/* The values' JSON (json_value.c, shared with the kernel trace's file). */
static void put_value(FILE *f, sv_type type, sv_value v)
{
    sv_json_put_value(f, type, v);
}

static void put_values(FILE *f, sv_type type, const sv_value *v, const bool *written, size_t n,
                       int indent)
{
    sv_json_put_values(f, type, v, written, n, indent);
}

static void put_string(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    if (!j) /* not UTF-8 (jansson refuses it): a placeholder name instead */
        j = json_string("(device name not UTF-8)");
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "null", f);
    free(text);
    json_decref(j);
}

static void put_double(FILE *f, double d)
{
    if (isnan(d))
        fputs("\"nan\"", f);
    else if (isinf(d))
        fputs(d < 0 ? "\"-inf\"" : "\"inf\"", f);
    else {
        char buf[40];
        snprintf(buf, sizeof buf, "%.17g", d);
        fputs(buf, f);
        if (!strpbrk(buf, ".eE"))
            fputs(".0", f);
    }
}

/* Which cells of inclusive and output were written (a mistake can leave
 * the last round's pout cells unwritten: they are null, as in the rounds);
 * known[0 .. n) for inclusive, known[n .. 2n) for output (shifted for the
 * exclusive scan, whose output[0] is the identity). NULL when all are, or
 * when out of memory (then every cell is written as its value). */
static bool *output_known(const sv_trace *t)
{
    const sv_round *last = &t->rounds[t->nrounds - 1];
    const bool *w = last->written[t->nrounds > 1 ? last->pout : 0];
    size_t n = t->n, i = 0;
    while (i < n && w[i])
        i++;
    bool *known = i < n ? malloc(2 * n * sizeof *known) : NULL;
    for (i = 0; known && i < n; i++) {
        known[i] = w[i];
        known[n + i] = t->scan == SV_SCAN_INCLUSIVE ? w[i] : i == 0 || w[i - 1];
    }
    return known;
}

/* sv_trace_save: sv_trace_write below, all or nothing. */
SV_FILE_SAVER(sv_trace_save, sv_trace, sv_trace_write)

/* ",\n  \"run\": {...}", the kernel trace's own JSON (cells only) indented
 * one level: its raw newlines are between tokens (strings escape theirs). */
static bool put_run(FILE *f, const sv_ktrace *run, char *err, size_t errlen)
{
    char *doc = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&doc, &len);
    bool ok = m && sv_ktrace_write_cells(run, m, err, errlen);
    if (m && fclose(m) != 0 && ok) {
        snprintf(err, errlen, "write failed: %s", strerror(errno));
        ok = false;
    }
    if (!m)
        snprintf(err, errlen, "out of memory");
    if (ok) {
        while (len > 0 && doc[len - 1] == '\n')
            len--;
        fputs(",\n  \"run\": ", f);
        for (size_t i = 0; i < len; i++) {
            fputc(doc[i], f);
            if (doc[i] == '\n')
                fputs("  ", f);
        }
    }
    free(doc);
    return ok;
}

bool sv_trace_write(const sv_trace *t, FILE *f, char *err, size_t errlen)
{
    if (!t->inclusive || !t->output) {
        snprintf(err, errlen, "cannot write an unfinished trace (call sv_trace_finish first)");
        return false;
    }
    /* The run the rounds are a reading of, written under "run"; a
     * trace read from an old file without one gets the run its rounds
     * imply (sv_ktrace_of_rounds). */
    sv_ktrace *implied = NULL;
    const sv_ktrace *run = t->run;
    if (!run && !(run = implied = sv_ktrace_of_rounds(t, err, errlen)))
        return false;
    sv_type ty = t->type;
    size_t n = t->n;
    fprintf(f, "{\n  \"format\": \"scanviz-trace\",\n  \"version\": %d,\n"
               "  \"algorithm\": \"hillis-steele\",\n  \"reading\": \"hillis-steele\",\n",
            SV_KTRACE_FILE_VERSION);
    fprintf(f, "  \"backend\": \"%s\",\n  \"device\": ", sv_backend_name(t->backend));
    if (t->device)
        put_string(f, t->device);
    else
        fputs("null", f);
    fprintf(f, ",\n  \"op\": \"%s\",\n  \"type\": \"%s\",\n  \"scan\": \"%s\",\n  \"n\": %zu,\n",
            sv_op_name(t->op), sv_type_name(ty), sv_scan_name(t->scan), n);
    fputs("  \"input\": ", f);
    put_values(f, ty, t->input, NULL, n, 11);
    fputs(",\n  \"rounds\": [\n", f);
    for (size_t r = 0; r < t->nrounds; r++) {
        const sv_round *rd = &t->rounds[r];
        fprintf(f, "    {\n      \"round\": %d,\n      \"stride\": %u,\n", rd->round, (unsigned)rd->stride);
        if (r == 0)
            fputs("      \"pin\": null,\n      \"pout\": null,\n", f);
        else
            fprintf(f, "      \"pin\": %d,\n      \"pout\": %d,\n      \"ops\": %zu,\n", rd->pin,
                    rd->pout, rd->ops);
        fputs("      \"buf\": [\n        ", f);
        put_values(f, ty, rd->buf[0], rd->written[0], n, 8);
        fputs(",\n        ", f);
        put_values(f, ty, rd->buf[1], rd->written[1], n, 8);
        fputs("\n      ]", f);
        if (r > 0) {
            fputs(",\n      \"cases\": [", f);
            for (size_t i = 0; i < n; i++) {
                if (i > 0)
                    fputs(i % VALUES_PER_LINE == 0 ? ",\n                 " : ", ", f);
                fprintf(f, "\"%s\"", sv_case_name(rd->cases[i]));
            }
            fputs("],\n      \"window_lo\": [", f);
            for (size_t i = 0; i < n; i++) {
                if (i > 0)
                    fputs(i % VALUES_PER_LINE == 0 ? ",\n                     " : ", ", f);
                fprintf(f, "%u", (unsigned)rd->window_lo[i]);
            }
            fputc(']', f);
            if (rd->overflow_count > 0) {
                fputs(",\n      \"overflow\": [", f);
                size_t k = 0;
                for (size_t i = 0; i < n; i++)
                    if (rd->overflow[i])
                        fprintf(f, "%s%zu", k++ ? ", " : "", i);
                fputc(']', f);
            }
        }
        fprintf(f, "\n    }%s\n", r + 1 < t->nrounds ? "," : "");
    }
    fputs("  ],\n", f);
    bool *known = output_known(t);
    if (t->scan == SV_SCAN_EXCLUSIVE) {
        fputs("  \"exclusive\": {\n    \"identity\": ", f);
        put_value(f, ty, sv_op_identity(t->op, ty));
        fputs(",\n    \"inclusive\": ", f);
        put_values(f, ty, t->inclusive, known, n, 17);
        fputs(",\n    \"values\": ", f);
        put_values(f, ty, t->output, known ? known + n : NULL, n, 14);
        fputs("\n  },\n", f);
    }
    fputs("  \"output\": ", f);
    put_values(f, ty, t->output, known ? known + n : NULL, n, 12);
    free(known);
    fprintf(f, ",\n  \"total_ops\": %zu,\n  \"overflow_count\": %zu", t->total_ops, t->overflow_count);
    if (ty == SV_TYPE_FLOAT32) {
        fputs(",\n  \"max_abs_diff\": ", f);
        put_double(f, t->max_abs_diff);
        fprintf(f, ",\n  \"max_diff_index\": %zu", t->max_diff_index);
    }
    if (t->lab) {
        fputs(",\n  \"lab\": ", f);
        sv_lab_write_json(t, f);
    }
    bool ok = put_run(f, run, err, errlen); /* last: the file still ends as version 2's */
    sv_ktrace_destroy(implied);
    fputs("\n}\n", f);
    return ok && sv_stream_written(f, err, errlen);
}

/* ---- Reading -------------------------------------------------------------- */

typedef struct reader {
    char *err;
    size_t errlen;
} reader;

/* Fills err with "PATH: reason"; false. */
#define fail(rd, ...) sv_json_bad((rd)->err, (rd)->errlen, __VA_ARGS__)

static const char *kind_of(const json_t *j)
{
    return sv_json_kind_of(j);
}

static json_t *field(reader *rd, const json_t *obj, const char *path, const char *name)
{
    json_t *j = json_object_get(obj, name);
    if (!j)
        fail(rd, path, "missing");
    return j;
}

static bool get_string(reader *rd, const json_t *obj, const char *name, const char **out)
{
    json_t *j = field(rd, obj, name, name);
    if (!j)
        return false;
    if (!json_is_string(j))
        return fail(rd, name, "expected a string, got %s", kind_of(j));
    *out = json_string_value(j);
    return true;
}

/* A string field that must be want; note ends the message when it is not. */
static bool get_fixed(reader *rd, const json_t *obj, const char *name, const char *want,
                      const char *note)
{
    const char *s = NULL;
    if (!get_string(rd, obj, name, &s))
        return false;
    if (strcmp(s, want) != 0)
        return fail(rd, name, "\"%s\", expected \"%s\"%s", s, want, note);
    return true;
}

/* A string field that must be one of two names: *which = 0 for a, 1 for b. */
static bool get_one_of(reader *rd, const json_t *obj, const char *name, const char *a,
                       const char *b, int *which)
{
    const char *s = NULL;
    if (!get_string(rd, obj, name, &s))
        return false;
    if (strcmp(s, a) != 0 && strcmp(s, b) != 0)
        return fail(rd, name, "\"%s\", expected \"%s\" or \"%s\"", s, a, b);
    *which = strcmp(s, a) == 0 ? 0 : 1;
    return true;
}

/* An integer in [lo, hi]. */
static bool get_int(reader *rd, const json_t *j, const char *path, long long lo, long long hi,
                    long long *out)
{
    return sv_json_get_int(j, path, lo, hi, out, rd->err, rd->errlen);
}

/* One cell, and an array of exactly n cells (json_value.c). */
static bool get_value(reader *rd, const json_t *j, const char *path, sv_type type, bool allow_null,
                      sv_value *out, bool *is_null)
{
    return sv_json_get_value(j, path, type, allow_null, out, is_null, rd->err, rd->errlen);
}

static bool get_values(reader *rd, const json_t *j, const char *path, sv_type type, size_t n,
                       bool allow_null, sv_value *vals, bool *written)
{
    return sv_json_get_values(j, path, type, n, allow_null, vals, written, rd->err, rd->errlen);
}

/* null in output / exclusive.inclusive / exclusive.values (part 1, 0, 1)
 * only where the last round's pout cell was never written; such a cell
 * compares as the round's value (an older file wrote 0 there). */
static bool check_nulls(reader *rd, const json_t *arr, const char *path, const sv_trace *t,
                        int part, sv_value *vals)
{
    bool *known = output_known(t);
    for (size_t i = 0; i < t->n; i++) {
        if (!json_is_null(json_array_get(arr, i)))
            continue;
        if (known && !known[(size_t)part * t->n + i]) {
            vals[i] = t->output == NULL ? vals[i] : part ? t->output[i] : t->inclusive[i];
            continue;
        }
        free(known);
        char p[96];
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        return fail(rd, p, "null, but the last round's pout gives it a value");
    }
    free(known);
    return true;
}

static bool same_bits(const sv_value *a, const sv_value *b, size_t n, size_t *where)
{
    for (size_t i = 0; i < n; i++) {
        if (a[i].bits != b[i].bits) {
            *where = i;
            return false;
        }
    }
    return true;
}

/* The round's fields; buffers into t->rounds[r]. cases and the optional
 * extras are compared with what sv_trace_finish() derives, later. */
static bool read_round(reader *rd, const json_t *j, size_t r, sv_trace *t)
{
    char path[64], p[96];
    long long v = 0;
    sv_round *round = &t->rounds[r];
    snprintf(path, sizeof path, "rounds[%zu]", r);
    if (!json_is_object(j))
        return fail(rd, path, "expected an object, got %s", kind_of(j));

    snprintf(p, sizeof p, "%s.round", path);
    json_t *x = json_object_get(j, "round");
    if (!x)
        return fail(rd, p, "missing");
    if (!get_int(rd, x, p, 0, 64, &v))
        return false;
    if (v != (long long)r)
        return fail(rd, p, "%lld, expected %zu (rounds are listed in order from 0)", v, r);

    snprintf(p, sizeof p, "%s.stride", path);
    if (!(x = json_object_get(j, "stride")))
        return fail(rd, p, "missing");
    if (!get_int(rd, x, p, 0, 1LL << 32, &v))
        return false;
    if (v != (long long)round->stride)
        return fail(rd, p, "%lld, expected %u (%s)", v, (unsigned)round->stride,
                    r == 0 ? "round 0 only stages the input" : "2^(round-1)");

    static const char *const roles[2] = {"pin", "pout"};
    for (int k = 0; k < 2; k++) {
        int want = k == 0 ? round->pin : round->pout;
        snprintf(p, sizeof p, "%s.%s", path, roles[k]);
        if (!(x = json_object_get(j, roles[k])))
            return fail(rd, p, "missing");
        if (r == 0) {
            if (!json_is_null(x))
                return fail(rd, p, "expected null (round 0 only stages the input), got %s", kind_of(x));
            continue;
        }
        if (!get_int(rd, x, p, 0, 1, &v))
            return false;
        if (v != want)
            return fail(rd, p, "%lld, expected %d (%s = buf[(round%s) mod 2])", v, want, roles[k],
                        k == 0 ? "-1" : "");
    }

    snprintf(p, sizeof p, "%s.buf", path);
    if (!(x = json_object_get(j, "buf")))
        return fail(rd, p, "missing");
    if (!json_is_array(x) || json_array_size(x) != 2)
        return fail(rd, p, "expected an array of the 2 buffers, got %s", json_is_array(x)
                    ? (json_array_size(x) == 1 ? "1 array" : "another number of arrays") : kind_of(x));
    for (int b = 0; b < 2; b++) {
        char pb[112];
        snprintf(pb, sizeof pb, "%s.buf[%d]", path, b);
        if (!get_values(rd, json_array_get(x, (size_t)b), pb, t->type, t->n, true, round->buf[b],
                        round->written[b]))
            return false;
    }

    snprintf(p, sizeof p, "%s.cases", path);
    x = json_object_get(j, "cases");
    if (r == 0) {
        if (x)
            return fail(rd, p, "round 0 has no cases (it only stages the input)");
        return true;
    }
    if (!x)
        return fail(rd, p, "missing");
    if (!json_is_array(x))
        return fail(rd, p, "expected an array of %zu cases, got %s", t->n, kind_of(x));
    if (json_array_size(x) != t->n)
        return fail(rd, p, "%zu cases, expected n = %zu", json_array_size(x), t->n);
    for (size_t i = 0; i < t->n; i++) {
        json_t *c = json_array_get(x, i);
        sv_case got, want = sv_case_of((int)r, i);
        snprintf(p, sizeof p, "%s.cases[%zu]", path, i);
        if (!json_is_string(c) || !sv_case_from_name(json_string_value(c), &got))
            return fail(rd, p, "expected \"copy\", \"partial\" or \"full\"");
        if (got != want)
            return fail(rd, p, "\"%s\", but cell %zu in round %zu is \"%s\" (copy: i < %zu, "
                        "partial: i < %zu, full: i >= %zu)", sv_case_name(got), i, r,
                        sv_case_name(want), (size_t)1 << (r - 1), ((size_t)1 << r) - 1,
                        ((size_t)1 << r) - 1);
    }
    return true;
}

/* The optional per-round extras, compared with the derived ones. */
static bool check_round_extras(reader *rd, const json_t *j, size_t r, const sv_trace *t)
{
    char p[96];
    long long v = 0;
    const sv_round *round = &t->rounds[r];
    json_t *x;
    if ((x = json_object_get(j, "ops"))) {
        snprintf(p, sizeof p, "rounds[%zu].ops", r);
        if (!get_int(rd, x, p, 0, SV_MAX_N, &v))
            return false;
        if (r == 0 ? v != 0 : v != (long long)round->ops)
            return fail(rd, p, "%lld, expected %zu (n - stride)", v, r == 0 ? (size_t)0 : round->ops);
    }
    if ((x = json_object_get(j, "window_lo"))) {
        snprintf(p, sizeof p, "rounds[%zu].window_lo", r);
        if (r == 0)
            return fail(rd, p, "round 0 has no windows");
        if (!json_is_array(x) || json_array_size(x) != t->n)
            return fail(rd, p, "expected an array of n = %zu indices", t->n);
        for (size_t i = 0; i < t->n; i++) {
            snprintf(p, sizeof p, "rounds[%zu].window_lo[%zu]", r, i);
            if (!get_int(rd, json_array_get(x, i), p, 0, SV_MAX_N, &v))
                return false;
            if (v != (long long)round->window_lo[i])
                return fail(rd, p, "%lld, expected %u (max(0, i - 2^round + 1))", v,
                            (unsigned)round->window_lo[i]);
        }
    }
    if ((x = json_object_get(j, "overflow"))) {
        snprintf(p, sizeof p, "rounds[%zu].overflow", r);
        if (r == 0 || !json_is_array(x))
            return fail(rd, p, r == 0 ? "round 0 computes nothing" : "expected an array of cell indices");
        size_t k = 0;
        for (size_t i = 0; i < t->n; i++) {
            if (!round->overflow[i])
                continue;
            snprintf(p, sizeof p, "rounds[%zu].overflow[%zu]", r, k);
            if (k >= json_array_size(x))
                return fail(rd, p, "missing: cell %zu wrapped in this round", i);
            if (!get_int(rd, json_array_get(x, k), p, 0, SV_MAX_N, &v))
                return false;
            if (v != (long long)i)
                return fail(rd, p, "%lld, expected %zu (the cells that wrapped, in order)", v, i);
            k++;
        }
        if (k != json_array_size(x)) {
            snprintf(p, sizeof p, "rounds[%zu].overflow[%zu]", r, k);
            return fail(rd, p, "no further cell wrapped in this round");
        }
    }
    return true;
}

static bool check_count(reader *rd, const json_t *root, const char *name, size_t want, const char *what)
{
    json_t *x = json_object_get(root, name);
    long long v = 0;
    if (!x)
        return true;
    if (!get_int(rd, x, name, 0, 1LL << 40, &v))
        return false;
    if (v != (long long)want)
        return fail(rd, name, "%lld, expected %zu (%s)", v, want, what);
    return true;
}

/* The header fields, up to n: what the trace is of. */
typedef struct header {
    sv_op op;
    sv_type type;
    sv_scan scan;
    sv_backend backend;
    const char *device;
    sv_kernel lab_kernel;
    size_t n;
    int version;
} header;

static bool read_header(reader *rd, const json_t *root, header *h)
{
    const char *s = NULL;
    long long v = 0;
    int which;
    json_t *x;
    char why[256];

    h->device = NULL;
    if (!json_is_object(root))
        return fail(rd, "(top level)", "expected an object, got %s", kind_of(root));
    if (!get_fixed(rd, root, "format", "scanviz-trace", " (not a scanviz trace file)"))
        return false;
    if (!(x = field(rd, root, "version", "version")) || !get_int(rd, x, "version", 0, INT32_MAX, &v))
        return false;
    if (v != 1 && v != 2 && v != 3) {
        fail(rd, "version", "%lld is not supported (this reader knows versions 1, 2 and 3)", v);
        return false;
    }
    h->version = (int)v;
    /* Version 3: the chapter's reading of the run written under "run" (a
     * version 3 file without "reading" is a kernel trace, ktrace_file.c). */
    if (v == 3 && !get_fixed(rd, root, "reading", "hillis-steele", ""))
        return false;

    /* Version 2 adds the mistakes lab's record; a one-buffer kernel's rounds
     * read and write buf[0] (pin == pout == 0), and a mistake's trace is
     * not held to the chapter's invariant. */
    h->lab_kernel = SV_KERNEL_CORRECT;
    json_t *lab = json_object_get(root, "lab");
    if (lab && v == 1) {
        fail(rd, "lab", "present in a version 1 file (the lab record is version 2)");
        return false;
    }
    if (v < 3 && json_object_get(root, "run")) {
        fail(rd, "run", "present in a version %lld file (the run is version 3)", v);
        return false;
    }
    {
        char lp[64];
        if (!sv_lab_peek_kernel(root, &h->lab_kernel, lp, sizeof lp, why, sizeof why)) {
            fail(rd, lp, "%s", why);
            return false;
        }
    }
    if (!get_fixed(rd, root, "algorithm", "hillis-steele", ""))
        return false;
    if (!get_one_of(rd, root, "backend", "cpu", "cuda", &which))
        return false;
    h->backend = which == 0 ? SV_BACKEND_CPU : SV_BACKEND_CUDA;
    if (!(x = field(rd, root, "device", "device")))
        return false;
    if (json_is_string(x) && h->backend == SV_BACKEND_CUDA)
        h->device = json_string_value(x);
    else if (!json_is_null(x)) {
        fail(rd, "device", h->backend == SV_BACKEND_CPU ? "expected null for the cpu backend, got %s"
                                                     : "expected the GPU's name or null, got %s",
             kind_of(x));
        return false;
    }
    if (!get_string(rd, root, "op", &s))
        return false;
    if (!sv_op_from_name(s, &h->op)) {
        fail(rd, "op", "\"%s\", expected sum, max, min, product or xor", s);
        return false;
    }
    if (!get_string(rd, root, "type", &s))
        return false;
    if (!sv_type_from_name(s, &h->type)) {
        fail(rd, "type", "\"%s\", expected int32 or float32", s);
        return false;
    }
    if (!sv_op_valid(h->op, h->type, why, sizeof why)) {
        fail(rd, "op", "%s", why);
        return false;
    }
    if (!get_one_of(rd, root, "scan", "inclusive", "exclusive", &which))
        return false;
    h->scan = which == 0 ? SV_SCAN_INCLUSIVE : SV_SCAN_EXCLUSIVE;
    if (!(x = field(rd, root, "n", "n")) || !get_int(rd, x, "n", 1, SV_MAX_N, &v))
        return false;
    h->n = (size_t)v;
    return true;
}

/* The rounds, then the invariant on the buffers as read (a mistake's
 * trace is not held to it). */
static bool read_rounds(reader *rd, const json_t *root, sv_trace *t, sv_kernel lab_kernel)
{
    char why[256];
    json_t *rounds = field(rd, root, "rounds", "rounds");
    if (!rounds)
        return false;
    if (!json_is_array(rounds)) {
        fail(rd, "rounds", "expected an array, got %s", kind_of(rounds));
        return false;
    }
    if (json_array_size(rounds) != t->nrounds) {
        fail(rd, "rounds", "%zu rounds, expected %zu for n = %zu (round 0, then one per stride "
             "1, 2, 4, ... below n)", json_array_size(rounds), t->nrounds, t->n);
        return false;
    }
    if (!sv_kernel_get(lab_kernel)->double_buffer)
        for (size_t r = 1; r < t->nrounds; r++)
            t->rounds[r].pin = t->rounds[r].pout = 0;
    for (size_t r = 0; r < t->nrounds; r++)
        if (!read_round(rd, json_array_get(rounds, r), r, t))
            return false;
    if (!sv_trace_finish(t, why, sizeof why)) {
        fail(rd, "(trace)", "%s", why);
        return false;
    }
    for (size_t r = 0; r < t->nrounds; r++)
        if (!check_round_extras(rd, json_array_get(rounds, r), r, t))
            return false;

    /* The invariant, on the buffers as read. */
    sv_check_loc loc;
    if (lab_kernel == SV_KERNEL_CORRECT && !sv_trace_check_at(t, why, sizeof why, &loc)) {
        char p[96];
        if (loc.round >= 0 && loc.buf >= 0)
            snprintf(p, sizeof p, "rounds[%d].buf[%d][%zu]", loc.round, loc.buf, loc.cell);
        else if (loc.round >= 0)
            snprintf(p, sizeof p, "rounds[%d]", loc.round);
        else
            snprintf(p, sizeof p, "rounds[%zu].buf (final pout)", t->nrounds - 1);
        fail(rd, p, "breaks the invariant: %s", why);
        return false;
    }
    return true;
}

/* The output, which must be what the last round's pout gives, and an
 * exclusive scan's record; vals holds n values as read. */
static bool check_output(reader *rd, const json_t *root, const sv_trace *t, sv_value *vals)
{
    sv_type type = t->type;
    sv_scan scan = t->scan;
    sv_op op = t->op;
    size_t n = t->n, where;
    json_t *x;
    if (!(x = field(rd, root, "output", "output")) ||
        !get_values(rd, x, "output", type, n, true, vals, NULL) ||
        !check_nulls(rd, x, "output", t, 1, vals))
        return false;
    if (!same_bits(vals, t->output, n, &where)) {
        char a[48], b[48], p[48];
        snprintf(p, sizeof p, "output[%zu]", where);
        fail(rd, p, "%s, but the last round's pout gives %s%s", sv_value_format(type, vals[where], a, sizeof a),
             sv_value_format(type, t->output[where], b, sizeof b),
             scan == SV_SCAN_EXCLUSIVE ? " (shifted right for the exclusive scan)" : "");
        return false;
    }

    x = json_object_get(root, "exclusive");
    if (x && scan != SV_SCAN_EXCLUSIVE) {
        fail(rd, "exclusive", "present, but scan is \"inclusive\"");
        return false;
    }
    if (x) {
        sv_value id;
        json_t *y;
        char a[48], b[48];
        if (!json_is_object(x)) {
            fail(rd, "exclusive", "expected an object, got %s", kind_of(x));
            return false;
        }
        if (!(y = field(rd, x, "exclusive.identity", "identity")) ||
            !get_value(rd, y, "exclusive.identity", type, false, &id, NULL)) {
            return false;
        }
        if (id.bits != sv_op_identity(op, type).bits) {
            fail(rd, "exclusive.identity", "%s, but the identity of %s is %s",
                 sv_value_format(type, id, a, sizeof a), sv_op_name(op),
                 sv_value_format(type, sv_op_identity(op, type), b, sizeof b));
            return false;
        }
        static const char *const parts[2] = {"inclusive", "values"};
        for (int k = 0; k < 2; k++) {
            char p[48];
            const sv_value *want = k == 0 ? t->inclusive : t->output;
            snprintf(p, sizeof p, "exclusive.%s", parts[k]);
            if (!(y = field(rd, x, p, parts[k])) || !get_values(rd, y, p, type, n, true, vals, NULL) ||
                !check_nulls(rd, y, p, t, k, vals)) {
                return false;
            }
            if (!same_bits(vals, want, n, &where)) {
                snprintf(p, sizeof p, "exclusive.%s[%zu]", parts[k], where);
                fail(rd, p, "%s, expected %s", sv_value_format(type, vals[where], a, sizeof a),
                     sv_value_format(type, want[where], b, sizeof b));
                return false;
            }
        }
    }
    return true;
}

/* The summary fields, each against what the rounds give. */
static bool check_summary(reader *rd, const json_t *root, const sv_trace *t)
{
    json_t *x;
    if (!check_count(rd, root, "total_ops", t->total_ops, "the rounds' ops added up") ||
        !check_count(rd, root, "overflow_count", t->overflow_count, "cells that wrapped, all rounds"))
        return false;
    if (t->type == SV_TYPE_INT32) {
        static const char *const float_only[2] = {"max_abs_diff", "max_diff_index"};
        for (int k = 0; k < 2; k++)
            if (json_object_get(root, float_only[k])) {
                fail(rd, float_only[k], "present, but type is \"int32\" (a float32 field)");
                return false;
            }
    }
    if ((x = json_object_get(root, "max_abs_diff"))) {
        double d;
        if (json_is_number(x))
            d = json_number_value(x);
        else if (json_is_string(x) && strcmp(json_string_value(x), "inf") == 0)
            d = INFINITY;
        else {
            fail(rd, "max_abs_diff", "expected a number, got %s", kind_of(x));
            return false;
        }
        if (d != t->max_abs_diff) {
            fail(rd, "max_abs_diff", "%.9g, but output and a sequential scan differ by %.9g", d,
                 t->max_abs_diff);
            return false;
        }
    }
    if (!check_count(rd, root, "max_diff_index", t->max_diff_index, "where that difference is"))
        return false;
    return true;
}

/* The rounds of a and b agree, bit for bit and written flag for flag; else
 * false with *r, *b and *i where they first differ. */
static bool same_rounds(const sv_trace *a, const sv_trace *c, size_t *r, int *b, size_t *i)
{
    *r = 0, *b = 0, *i = 0;
    if (a->nrounds != c->nrounds)
        return false;
    for (*r = 0; *r < a->nrounds; (*r)++)
        for (*b = 0; *b < 2; (*b)++)
            for (*i = 0; *i < a->n; (*i)++) {
                const sv_round *x = &a->rounds[*r], *y = &c->rounds[*r];
                if (x->written[*b][*i] != y->written[*b][*i] ||
                    (x->written[*b][*i] && x->buf[*b][*i].bits != y->buf[*b][*i].bits))
                    return false;
            }
    return true;
}

/* A version 3 file's run (a kernel trace, ktrace_file.c), held to the
 * rounds it is the reading of: the same scan of the same input, and for the
 * chapter's kernel (no lab record) the same rounds read from it again. */
static bool read_run(reader *rd, const json_t *root, sv_trace *t)
{
    char why[512];
    json_t *x = field(rd, root, "run", "run");
    if (!x)
        return false;
    sv_ktrace *k = sv_ktrace_from_json(x, why, sizeof why);
    if (!k)
        return fail(rd, "run", "%s", why);
    bool ok = true;
    if (k->op != t->op || k->type != t->type || k->scan != t->scan || k->n != t->n)
        ok = fail(rd, "run", "a run of %s %s %s at n = %zu, but the rounds are of %s %s %s at "
                  "n = %zu", sv_op_name(k->op), sv_type_name(k->type), sv_scan_name(k->scan),
                  k->n, sv_op_name(t->op), sv_type_name(t->type), sv_scan_name(t->scan), t->n);
    for (size_t i = 0; ok && i < t->n; i++)
        if (k->input[i].bits != t->input[i].bits)
            ok = fail(rd, "run.input", "differs from the input at cell %zu", i);
    if (ok && !t->lab) {
        sv_trace *c = sv_ktrace_chapter_trace(k, why, sizeof why);
        size_t r, i;
        int b;
        if (!c)
            ok = fail(rd, "run", "its steps are not the chapter's rounds: %s", why);
        else if (!same_rounds(c, t, &r, &b, &i))
            ok = c->nrounds != t->nrounds
                     ? fail(rd, "run", "its steps read as %zu rounds, the file has %zu",
                            c->nrounds, t->nrounds)
                     : fail(rd, "run", "its steps give rounds[%zu].buf[%d][%zu] another value "
                            "than the file's", r, b, i);
        sv_trace_destroy(c);
    }
    if (!ok) {
        sv_ktrace_destroy(k);
        return false;
    }
    t->run = k;
    return true;
}

static sv_trace *parse_root(reader *rd, const json_t *root)
{
    header h;
    sv_value *input = NULL, *vals = NULL; /* vals: output and exclusive arrays as read */
    sv_trace *t = NULL;
    json_t *x;
    char why[256];

    if (!read_header(rd, root, &h))
        return NULL;
    size_t n = h.n;
    if (!(x = field(rd, root, "input", "input")))
        return NULL;
    if (!(input = malloc(n * sizeof *input))) {
        fail(rd, "input", "out of memory");
        return NULL;
    }
    if (!get_values(rd, x, "input", h.type, n, false, input, NULL))
        goto fail;
    if (!(t = sv_trace_create(h.op, h.type, h.scan, input, n, h.backend, h.device, why, sizeof why))) {
        fail(rd, "(trace)", "%s", why);
        goto fail;
    }
    if (!read_rounds(rd, root, t, h.lab_kernel))
        goto fail;
    if (!(vals = malloc(n * sizeof *vals))) {
        fail(rd, "output", "out of memory");
        goto fail;
    }
    if (!check_output(rd, root, t, vals) || !check_summary(rd, root, t))
        goto fail;
    json_t *lab = json_object_get(root, "lab");
    if (lab) {
        char lp[128];
        if (!sv_lab_read_json(lab, t, lp, sizeof lp, why, sizeof why)) {
            fail(rd, lp, "%s", why);
            goto fail;
        }
    }
    if (h.version == 3) {
        if (!read_run(rd, root, t))
            goto fail;
    } else if (!lab && !(t->run = sv_ktrace_of_rounds(t, why, sizeof why))) {
        fail(rd, "(trace)", "%s", why);
        goto fail;
    }
    free(vals);
    free(input);
    return t;
fail:
    free(vals);
    free(input);
    sv_trace_destroy(t);
    return NULL;
}

/* Counts the JSON tokens of text (strings, keys included, numbers,
 * literals, and separately the arrays and objects) without parsing it, so
 * that a file of millions of tiny values is refused before jansson builds a
 * tree of it (an empty object costs jansson about 220 bytes, an empty
 * array 140, a number 40). The largest trace scanviz writes (n = 1024, a
 * lab record of every cell diverging with 16 values each and 10000
 * racecheck hazards) has about 1.1 million tokens, 230,000 arrays and
 * 22,000 objects (its run, written beside since version 3, is the GPU's:
 * cells only). An emulated lab run at n = 1024 with its 10,000 hazards kept
 * adds 230,000 tokens and 25,000 objects to a lab record of 170,000 and
 * 10,000. The limits leave twice that and more, and keep the tree of any
 * accepted 16 MiB file near 150 MB. Returns NULL or what is over. */
#define TRACE_MAX_TOKENS ((size_t)1 << 21)
#define TRACE_MAX_ARRAYS ((size_t)1 << 19)
#define TRACE_MAX_OBJECTS ((size_t)1 << 16)
static const char *too_many_values(const char *p, char *why, size_t len)
{
    return sv_json_too_many(p, TRACE_MAX_TOKENS, TRACE_MAX_ARRAYS, TRACE_MAX_OBJECTS, why, len);
}

/* The parsed root of a trace file's text, or NULL with err (not JSON). */
static json_t *load_root(const char *json, char *err, size_t errlen)
{
    json_error_t jerr;
    json_t *root = json_loads(json, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        /* a seed above INT64_MAX, as the lab writes it (lab_file.h) */
        root = sv_lab_json_loads(json, JSON_REJECT_DUPLICATES, &jerr);
    }
    if (!root)
        snprintf(err, errlen, "not valid JSON: line %d, column %d: %s", jerr.line, jerr.column,
                 jerr.text);
    return root;
}

sv_trace *sv_trace_parse(const char *json, char *err, size_t errlen)
{
    reader rd = {err, errlen};
    char why[160];
    if (too_many_values(json, why, sizeof why)) {
        snprintf(err, errlen, "%s (refused before parsing)", why);
        return NULL;
    }
    json_t *root = load_root(json, err, errlen);
    if (!root)
        return NULL;
    /* Version 3 is a kernel trace (ktrace_file.c): its chapter-shaped trace
     * where its steps are the chapter's rounds. */
    sv_trace *t = sv_trace_file_is_kernel(root) ? sv_ktrace_chapter_from_json(root, err, errlen)
                                                : parse_root(&rd, root);
    json_decref(root);
    return t;
}

bool sv_trace_file_parse_any(const char *json, sv_trace **trace, sv_ktrace **ktrace, char *err,
                             size_t errlen)
{
    *trace = NULL;
    *ktrace = NULL;
    char why[160], kwhy[160];
    const char *big = too_many_values(json, why, sizeof why);
    const char *kbig = sv_ktrace_too_large(json, kwhy, sizeof kwhy);
    if (big && kbig) {
        snprintf(err, errlen, "%s (refused before parsing)", why);
        return false;
    }
    json_t *root = load_root(json, err, errlen);
    if (!root)
        return false;
    bool kernel = sv_trace_file_is_kernel(root);
    if (kernel && kbig) {
        snprintf(err, errlen, "%s (refused before parsing)", kwhy);
    } else if (!kernel && big) {
        snprintf(err, errlen, "%s (refused before parsing)", why);
    } else if (kernel) {
        *ktrace = sv_ktrace_from_json(root, err, errlen);
    } else {
        reader rd = {err, errlen};
        *trace = parse_root(&rd, root);
    }
    json_decref(root);
    return *trace || *ktrace;
}

bool sv_trace_file_load_any(const char *path, sv_trace **trace, sv_ktrace **ktrace, char *err,
                            size_t errlen)
{
    char why[512];
    *trace = NULL;
    *ktrace = NULL;
    char *text = sv_read_bounded(path, sv_trace_read_limit(path), "a trace file", NULL, err,
                                 errlen);
    if (!text)
        return false; /* err names the file */
    bool ok = sv_trace_file_parse_any(text, trace, ktrace, why, sizeof why);
    free(text);
    if (!ok)
        snprintf(err, errlen, "%s: %s", sv_path_name(path), why);
    return ok;
}

sv_trace *sv_trace_load(const char *path, char *err, size_t errlen)
{
    char why[512];
    char *text = sv_read_bounded(path, sv_trace_read_limit(path), "a trace file", NULL, err,
                                 errlen);
    if (!text)
        return NULL; /* err names the file */
    sv_trace *t = sv_trace_parse(text, why, sizeof why);
    free(text);
    if (!t)
        snprintf(err, errlen, "%s: %s", sv_path_name(path), why);
    return t;
}
