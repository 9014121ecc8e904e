/* Kernel trace files: version 3 of docs/trace-format.md ("algorithm":
 * "kernel"). The writer lays the JSON out by hand, one array per line like
 * the chapter's trace file (values through json_value.c, strings through
 * jansson); the reader parses with jansson and validates every field, naming
 * it and its position on error. */
#include "ktrace_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "fileio.h"
#include "json_value.h"
#include "ktrace_diverge.h"

/* ---- Writing -------------------------------------------------------------- */

/* A JSON string (jansson escapes it); text that is not UTF-8 has its bytes
 * above 0x7f written as '?', so the file stays valid JSON. NULL: null. */
static void put_text(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    json_t *j = json_string(s);
    char *copy = NULL;
    if (!j && (copy = strdup(s))) {
        for (char *p = copy; *p; p++)
            if ((unsigned char)*p > 0x7f)
                *p = '?';
        j = json_string(copy);
    }
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "null", f);
    free(text);
    free(copy);
    json_decref(j);
}

static void put_array_ref(FILE *f, uint32_t a)
{
    if (a == SV_KARRAY_IN)
        fputs("\"in\"", f);
    else
        fprintf(f, "%" PRIu32, a);
}

/* thread, array, cell, value, line of one access (without the braces). */
static void put_access(FILE *f, sv_type type, const sv_kaccess *a, bool where)
{
    fprintf(f, "\"thread\": %" PRIu32 ", ", a->thread);
    if (where) {
        fputs("\"array\": ", f);
        put_array_ref(f, a->array);
        fprintf(f, ", \"cell\": %" PRIu32 ", ", a->cell);
    }
    fputs("\"value\": ", f);
    sv_json_put_value(f, type, a->value);
    fprintf(f, ", \"line\": %" PRId32, a->line);
}

/* The chapter's reading of step k, an optional extra the reader derives
 * again and compares: null, or the round, its rows and the broken cell. */
static void put_reading(FILE *f, const sv_ktrace *t, size_t k)
{
    const sv_kreading *rd = &t->readings[k];
    fputs(",\n      \"reading\": ", f);
    if (!rd->fits) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"round\": %d, \"expected_round\": %d, \"array\": %" PRId32 ", \"row\": %"
               PRId32 ", \"pin_array\": %" PRId32 ", \"pin_row\": %" PRId32 ", \"broken\": ",
            rd->round, rd->expected_round, rd->pout_array, rd->pout_row, rd->pin_array,
            rd->pin_row);
    if (!rd->broken) {
        fputs("null}", f);
        return;
    }
    fprintf(f, "{\"cell\": %" PRIu32 ", \"holds\": ", rd->first_broken);
    if (rd->holds_known)
        sv_json_put_value(f, t->type, rd->holds);
    else
        fputs("null", f);
    fprintf(f, ", \"window\": [%" PRIu32 ", %" PRIu32 "], \"value\": ", rd->window_lo,
            rd->window_hi);
    sv_json_put_value(f, t->type, rd->window_value);
    fputs("}}", f);
}

static const char *const verdict_names[] = {"ok", "wrong", "refused", "failed", "unavailable",
                                            "internal"};

/* The derived diagnosis, optional extras the reader compares: the expected
 * scan, the first wrong cell, the first broken step, the verdict. */
static void put_diagnosis(FILE *f, const sv_ktrace *t)
{
    if (!t->expected || !t->readings)
        return;
    fputs("  \"expected\": ", f);
    sv_json_put_values(f, t->type, t->expected, NULL, t->n, 14);
    fprintf(f, ",\n  \"first_wrong\": %" PRId32 ",\n  \"first_broken_step\": %" PRId32
               ",\n  \"verdict\": \"%s\",\n", t->first_wrong, t->first_broken_step,
            verdict_names[sv_ktrace_verdict(t)]);
}

static void put_step(FILE *f, const sv_ktrace *t, size_t k, bool accesses)
{
    const sv_kstep *s = &t->steps[k];
    fprintf(f, "    {\n      \"barrier_line\": %" PRId32 ",\n      \"cells\": [", s->barrier_line);
    for (size_t a = 0; a < t->narrays; a++) { /* up to the last written cell */
        size_t m = t->arrays[a].len;
        while (m > 0 && !s->written[a][m - 1])
            m--;
        fputs(a ? ",\n        " : "\n        ", f);
        sv_json_put_values(f, t->type, s->cells[a], s->written[a], m, 8);
    }
    fputs("\n      ],\n      \"wrote\": [", f);
    for (size_t a = 0; a < t->narrays; a++) {
        fputs(a ? ",\n        [" : "\n        [", f);
        size_t m = 0;
        for (size_t c = 0; c < t->arrays[a].len; c++)
            if (s->wrote[a][c])
                fprintf(f, "%s%zu", m++ ? (m % SV_JSON_VALUES_PER_LINE == 1 ? ",\n         " : ", ")
                                        : "", c);
        fputc(']', f);
    }
    fputs("\n      ]", f);
    if (accesses && (s->nreads || s->nwrites)) {
        fputs(",\n      \"reads\": [", f);
        for (size_t r = 0; r < s->nreads; r++) {
            fputs(r ? ",\n        {" : "\n        {", f);
            put_access(f, t->type, &s->reads[r], true);
            fputc('}', f);
        }
        fputs(s->nreads ? "\n      ],\n      \"writes\": [" : "],\n      \"writes\": [", f);
        for (size_t w = 0; w < s->nwrites; w++) {
            fputs(w ? ",\n        {" : "\n        {", f);
            put_access(f, t->type, &s->writes[w].at, true);
            fprintf(f, ", \"first_read\": %" PRIu32 ", \"nreads\": %" PRIu32 "}",
                    s->writes[w].first_read, s->writes[w].nreads);
        }
        fputs(s->nwrites ? "\n      ]" : "]", f);
    }
    size_t nd = accesses ? sv_ktrace_divergence(t, k, NULL, 0) : 0;
    sv_kdiverge *dv = nd ? malloc(nd * sizeof *dv) : NULL;
    if (dv) { /* derived from the accesses (never read back): where warps diverged */
        sv_ktrace_divergence(t, k, dv, nd);
        fputs(",\n      \"divergence\": [", f);
        for (size_t i = 0; i < nd; i++)
            fprintf(f, "%s{\"warp\": %" PRIu32 ", \"line\": %" PRId32 ", \"ran\": %" PRIu32
                       ", \"lanes\": %" PRIu32 "}", i ? ",\n        " : "\n        ", dv[i].warp,
                    dv[i].line, dv[i].ran, dv[i].lanes);
        fputs("\n      ]", f);
        free(dv);
    }
    if (t->readings)
        put_reading(f, t, k);
    fprintf(f, "\n    }%s\n", k + 1 < t->nsteps ? "," : "");
}

static void put_hazards(FILE *f, const sv_ktrace *t)
{
    fputs("  \"hazards\": [", f);
    for (size_t h = 0; h < t->nhazards; h++) {
        const sv_khazard *z = &t->hazards[h];
        fprintf(f, "%s{\"kind\": \"%s\", \"step\": %" PRIu32 ", \"array\": ", h ? ",\n    " : "\n    ",
                sv_khazard_kind_name(z->kind), z->step);
        put_array_ref(f, z->array);
        fprintf(f, ", \"cell\": %" PRIu32 ",\n     \"first\": {", z->cell);
        put_access(f, t->type, &z->first, false);
        fputs("}, \"second\": {", f);
        put_access(f, t->type, &z->second, false);
        fputs("}}", f);
    }
    fprintf(f, "%s],\n  \"hazards_total\": %" PRIu64 ",\n", t->nhazards ? "\n  " : "",
            t->hazards_total);
}

static void put_failure(FILE *f, const sv_ktrace *t)
{
    const sv_kfailure *x = &t->failure;
    fputs("  \"failure\": ", f);
    if (x->kind == SV_KFAIL_NONE) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\n    \"kind\": \"%s\",\n    \"message\": ", sv_kfail_kind_name(x->kind));
    put_text(f, x->message);
    fprintf(f, ",\n    \"line\": %" PRId32 ",\n    \"thread\": %" PRId32 ",\n    \"step\": %" PRId32
               ",\n    \"array\": ", x->line, x->thread, x->step);
    if (x->array < 0)
        fputs("null", f);
    else
        put_array_ref(f, (uint32_t)x->array);
    fprintf(f, ",\n    \"index\": %" PRId64 ",\n    \"waits\": [", x->index);
    for (size_t w = 0; w < x->nwaits; w++)
        fprintf(f, "%s{\"line\": %" PRId32 ", \"count\": %" PRIu32 ", \"first_thread\": %" PRIu32 "}",
                w ? ", " : "", x->waits[w].line, x->waits[w].count, x->waits[w].first_thread);
    fputs("]\n  }", f);
}

/* "cell_runs": each counted row, its cells wrong in some run (only those). */
static void put_cellruns(FILE *f, const sv_ktrace *t)
{
    if (t->ncellruns == 0)
        return;
    fputs(",\n  \"cell_runs\": [", f);
    for (size_t k = 0; k < t->ncellruns; k++) {
        const sv_kcellruns *c = &t->cellruns[k];
        fprintf(f, "%s\n    {\"step\": %" PRId32 ", \"array\": %" PRIu32 ", \"first\": %" PRIu32
                   ", \"round\": %" PRId32 ", \"cells\": [", k ? "," : "", c->step, c->array,
                c->first, c->round);
        bool any = false;
        for (size_t i = 0; i < t->n; i++) {
            if (c->wrong[i] == 0)
                continue;
            fprintf(f, "%s\n      {\"cell\": %zu, \"wrong\": %" PRIu32 ", \"runs\": [",
                    any ? "," : "", i, c->wrong[i]);
            for (size_t j = 0; j < SV_KTRACE_CELL_RUNS; j++) {
                uint32_t run = c->which[i * SV_KTRACE_CELL_RUNS + j];
                if (run == SV_KTRACE_NO_RUN)
                    break;
                fprintf(f, "%s%" PRIu32, j ? ", " : "", run);
            }
            fputs("]}", f);
            any = true;
        }
        fputs(any ? "\n    ]}" : "]}", f);
    }
    fputs("\n  ]", f);
}

/* The kernel's printf calls: "printf": [{"thread": T, "step": S, "line": L,
 * "text": "..."}], with "printf_dropped" past the limit; absent when none. */
static void put_prints(FILE *f, const sv_ktrace *t)
{
    if (!t->nprints && !t->prints_dropped)
        return;
    fputs(",\n  \"printf\": [", f);
    for (size_t i = 0; i < t->nprints; i++) {
        const sv_kprint *p = &t->prints[i];
        fprintf(f, "%s\n    {\"thread\": %" PRIu32 ", \"step\": %" PRIu32 ", \"line\": %" PRId32
                   ", \"text\": ", i ? "," : "", p->thread, p->step, p->line);
        put_text(f, p->text);
        fputc('}', f);
    }
    fputs(t->nprints ? "\n  ]" : "]", f);
    if (t->prints_dropped)
        fprintf(f, ",\n  \"printf_dropped\": %" PRIu32, t->prints_dropped);
}

/* A host function's launches (issue 31): "launches": [{"kernel": K, "grid":
 * G, "block": B, "shared": S, "line": L, "step": k}], each step k the device
 * memory after its launch; absent for a file run as one block. */
static void put_launches(FILE *f, const sv_ktrace *t)
{
    if (!t->nlaunches)
        return;
    fputs(",\n  \"launches\": [", f);
    for (size_t i = 0; i < t->nlaunches; i++) {
        const sv_klaunch *l = &t->launches[i];
        fprintf(f, "%s\n    {\"kernel\": ", i ? "," : "");
        put_text(f, l->kernel);
        fprintf(f, ", \"grid\": %" PRIu32, l->grid);
        if (sv_klaunch_multi(l->dims))
            fprintf(f, ", \"grid_dims\": [%" PRIu32 ", %" PRIu32 ", %" PRIu32 "]", l->dims[0],
                    l->dims[1], l->dims[2]);
        fprintf(f, ", \"block\": %" PRIu32, l->block);
        if (sv_klaunch_multi(l->block_dims))
            fprintf(f, ", \"block_dims\": [%" PRIu32 ", %" PRIu32 ", %" PRIu32 "]",
                    l->block_dims[0], l->block_dims[1], l->block_dims[2]);
        fprintf(f, ", \"shared\": %" PRIu32 ", \"line\": %" PRId32 ", \"step\": %" PRIu32 "}",
                l->shared, l->line, l->step);
    }
    fputs("\n  ]", f);
}

/* Each launch's blocks over time (issue 31): "tiles": [{"launch": L,
 * "block": B, "start": T, "end": T or null, "out": [lo, hi] or null,
 * "events": [{"kind": "step" | "publish" | "look" | "wait", "time": T,
 * "thread": t, "line": L, and but for a step "array": A, "cell": C, "value":
 * V, and for a look "tile": K, "written": T, for a wait "tile": K or
 * null}]}], then "events_dropped" when some were; absent with no tiles. */
static void put_tiles(FILE *f, const sv_ktrace *t)
{
    if (!t->ntiles)
        return;
    fputs(",\n  \"tiles\": [", f);
    size_t e = 0;
    for (size_t i = 0; i < t->ntiles; i++) {
        const sv_ktile *x = &t->tiles[i];
        fprintf(f, "%s\n    {\"launch\": %" PRIu32 ", \"block\": %" PRIu32 ", \"start\": %"
                   PRIu64 ", \"end\": ", i ? "," : "", x->launch, x->block, x->start);
        if (x->end == SV_KTRACE_NO_TIME)
            fputs("null", f);
        else
            fprintf(f, "%" PRIu64, x->end);
        if (x->out_lo < 0)
            fputs(", \"out\": null", f);
        else
            fprintf(f, ", \"out\": [%" PRId64 ", %" PRId64 "]", x->out_lo, x->out_hi);
        fputs(", \"events\": [", f);
        bool any = false;
        for (; e < t->nevents && t->events[e].tile == i; e++, any = true) {
            const sv_kevent *v = &t->events[e];
            fprintf(f, "%s\n      {\"kind\": \"%s\", \"time\": %" PRIu64 ", ", any ? "," : "",
                    sv_kevent_kind_name(v->kind), v->time);
            if (v->kind == SV_KEVENT_STEP) {
                fprintf(f, "\"thread\": %" PRIu32 ", \"line\": %" PRId32 "}", v->thread, v->line);
                continue;
            }
            const sv_kaccess a = { .thread = v->thread, .array = v->array, .cell = v->cell,
                                   .value = v->value, .line = v->line };
            put_access(f, t->type, &a, true);
            if (v->kind == SV_KEVENT_LOOK)
                fprintf(f, ", \"tile\": %" PRIu32 ", \"written\": %" PRIu64, v->other,
                        v->other_time);
            else if (v->kind == SV_KEVENT_WAIT && v->other == SV_KTRACE_NO_TILE)
                fputs(", \"tile\": null", f);
            else if (v->kind == SV_KEVENT_WAIT)
                fprintf(f, ", \"tile\": %" PRIu32, v->other);
            fputc('}', f);
        }
        fputs(any ? "\n    ]}" : "]}", f);
    }
    fputs("\n  ]", f);
    if (t->events_dropped)
        fprintf(f, ",\n  \"events_dropped\": %" PRIu32, t->events_dropped);
}

/* The CPU runtime's bank conflicts: "bank_conflicts": {"loads": L, "stores":
 * S, "by_line": [{"step": K, "line": L, "loads": a, "stores": b}, ...]};
 * absent when not counted (the GPU). */
static void put_banks(FILE *f, const sv_ktrace *t)
{
    if (!t->banks_counted)
        return;
    fprintf(f, ",\n  \"bank_conflicts\": {\"loads\": %" PRIu64 ", \"stores\": %" PRIu64
               ", \"by_line\": [", t->bank_loads, t->bank_stores);
    for (size_t i = 0; i < t->nbanks; i++)
        fprintf(f, "%s\n    {\"step\": %" PRIu32 ", \"line\": %" PRId32 ", \"loads\": %" PRIu64
                   ", \"stores\": %" PRIu64 "}", i ? "," : "", t->banks[i].step, t->banks[i].line,
                t->banks[i].loads, t->banks[i].stores);
    fputs(t->nbanks ? "\n  ]" : "]", f);
    /* the colliding cells: "cells": [{"step": K, "array": A, "cell": C,
     * "ways": W, "op": "load" | "store", "line": L, "warp": w}, ...] */
    fputs(", \"cells\": [", f);
    for (size_t i = 0; i < t->nbankcells; i++) {
        const sv_kbankcell *c = &t->bankcells[i];
        fprintf(f, "%s\n    {\"step\": %" PRIu32 ", \"array\": ", i ? "," : "", c->step);
        put_array_ref(f, c->array);
        fprintf(f, ", \"cell\": %" PRIu32 ", \"ways\": %u, \"op\": \"%s\", \"line\": %" PRId32
                   ", \"warp\": %" PRIu32 "}", c->cell, (unsigned)c->ways,
                c->store ? "store" : "load", c->line, c->warp);
    }
    fputs(t->nbankcells ? "\n  ]" : "]", f);
    if (t->bankcells_dropped)
        fprintf(f, ", \"cells_dropped\": %" PRIu32, t->bankcells_dropped);
    fputs("}", f);
}

/* sv_ktrace_save: sv_ktrace_write below, all or nothing. */
SV_FILE_SAVER(sv_ktrace_save, sv_ktrace, sv_ktrace_write)

static bool write_doc(const sv_ktrace *t, FILE *f, bool accesses, char *err, size_t errlen)
{
    fprintf(f, "{\n  \"format\": \"scanviz-trace\",\n  \"version\": %d,\n"
               "  \"algorithm\": \"kernel\",\n  \"kernel\": ", SV_KTRACE_FILE_VERSION);
    put_text(f, t->kernel);
    fputs(",\n  \"file\": ", f);
    put_text(f, t->file);
    fputs(",\n  \"entry\": ", f);
    put_text(f, t->entry);
    fprintf(f, ",\n  \"backend\": \"%s\",\n  \"device\": ", sv_backend_name(t->backend));
    put_text(f, t->device);
    fputs(",\n  \"schedule\": ", f);
    put_text(f, t->schedule);
    if (t->output_round > 0)
        fprintf(f, ",\n  \"output_round\": %d", (int)t->output_round);
    if (t->sandbox) {
        fputs(",\n  \"sandbox\": ", f);
        put_text(f, t->sandbox);
    }
    if (t->console) {
        fputs(",\n  \"console\": ", f);
        put_text(f, t->console);
    }
    fprintf(f, ",\n  \"runs\": %" PRIu32 ",\n  \"shown_run\": %" PRIu32 ",\n  \"wrong_runs\": %"
               PRIu32 ",\n  \"switches\": %" PRIu64 ",\n", t->runs, t->shown_run, t->wrong_runs,
            t->switches);
    fprintf(f, "  \"op\": \"%s\",\n  \"type\": \"%s\",\n  \"scan\": \"%s\",\n  \"n\": %zu,\n"
               "  \"input\": ", sv_op_name(t->op), sv_type_name(t->type), sv_scan_name(t->scan),
            t->n);
    sv_json_put_values(f, t->type, t->input, NULL, t->n, 11);
    fputs(",\n  \"arrays\": [", f);
    for (size_t a = 0; a < t->narrays; a++) {
        const sv_karray *x = &t->arrays[a];
        fputs(a ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        put_text(f, x->name);
        fprintf(f, ", \"kind\": \"%s\", \"len\": %" PRIu32 ", \"rows\": %" PRIu32
                   ", \"touched\": %s}", sv_karray_kind_name(x->kind), x->len, x->rows,
                x->touched ? "true" : "false");
    }
    fputs(t->narrays ? "\n  ],\n  \"steps\": [\n" : "],\n  \"steps\": [\n", f);
    for (size_t k = 0; k < t->nsteps; k++)
        put_step(f, t, k, accesses);
    fputs("  ],\n", f);
    if (t->steps_dropped)
        fprintf(f, "  \"steps_dropped\": %" PRIu32 ",\n", t->steps_dropped);
    fputs("  \"output\": ", f);
    sv_json_put_values(f, t->type, t->output, t->output_written, t->n, 12);
    fputs(",\n", f);
    put_diagnosis(f, t);
    put_hazards(f, t);
    put_failure(f, t);
    put_prints(f, t);
    put_launches(f, t);
    put_tiles(f, t);
    put_banks(f, t);
    put_cellruns(f, t);
    fputs(",\n  \"source\": ", f);
    put_text(f, t->source);
    fputs("\n}\n", f);
    return sv_stream_written(f, err, errlen);
}

bool sv_ktrace_write(const sv_ktrace *t, FILE *f, char *err, size_t errlen)
{
    return write_doc(t, f, true, err, errlen);
}

bool sv_ktrace_write_cells(const sv_ktrace *t, FILE *f, char *err, size_t errlen)
{
    return write_doc(t, f, false, err, errlen);
}

/* ---- Reading -------------------------------------------------------------- */

typedef struct kreader {
    char *err;
    size_t errlen;
    sv_ktrace *t;
} kreader;

/* err = "PATH: reason"; false. */
#define bad(r, ...) sv_json_bad((r)->err, (r)->errlen, __VA_ARGS__)

/* obj[name] (path "PREFIX.name" or "name"), or a "missing" error. */
static json_t *need(kreader *r, const json_t *obj, const char *prefix, const char *name,
                    char *path, size_t pathlen)
{
    if (prefix[0])
        snprintf(path, pathlen, "%s.%s", prefix, name);
    else
        snprintf(path, pathlen, "%s", name);
    json_t *j = json_object_get(obj, name);
    if (!j)
        bad(r, path, "missing");
    return j;
}

/* root's list NAME ("steps"): an array of at most max NAME; NULL with the
 * error set otherwise. */
static json_t *need_list(kreader *r, const json_t *root, const char *name, long long max)
{
    char p[64];
    json_t *j = need(r, root, "", name, p, sizeof p);
    if (j && (!json_is_array(j) || (long long)json_array_size(j) > max)) {
        bad(r, name, "expected an array of at most %lld %s", max, name);
        return NULL;
    }
    return j;
}

static bool want_int(kreader *r, const json_t *obj, const char *prefix, const char *name,
                     long long lo, long long hi, long long *out)
{
    char p[320];
    json_t *j = need(r, obj, prefix, name, p, sizeof p);
    if (!j)
        return false;
    return sv_json_get_int(j, p, lo, hi, out, r->err, r->errlen);
}

/* A string (copied into *out) or, when nullable, null (*out NULL). */
static bool want_text(kreader *r, const json_t *obj, const char *prefix, const char *name,
                      bool nullable, size_t maxlen, char **out)
{
    char p[320];
    json_t *j = need(r, obj, prefix, name, p, sizeof p);
    if (!j)
        return false;
    if (json_is_null(j) && nullable)
        return sv_ktrace_set_text(out, NULL, r->err, r->errlen);
    if (!json_is_string(j))
        return bad(r, p, "expected a string%s, got %s", nullable ? " or null" : "",
                   sv_json_kind_of(j));
    if (json_string_length(j) > maxlen)
        return bad(r, p, "%zu bytes, more than the limit of %zu", json_string_length(j), maxlen);
    if (strlen(json_string_value(j)) != json_string_length(j))
        return bad(r, p, "holds a NUL character");
    return sv_ktrace_set_text(out, json_string_value(j), r->err, r->errlen);
}

/* One of names[0 .. count) at obj[name]. */
/* want_int of a field that may be absent too (absent: 0). */
/* The optional member key of launch obj (prefix): a grid's or a block's x,
 * y and z, each from 1 to most[k], whose product is total, past one
 * dimension; into out (left as it is when absent). what and whose word the
 * refusal: "[16, 2, 1]: a grid of more than one dimension whose blocks are
 * grid = 48". */
static bool want_dims(kreader *r, const json_t *obj, const char *prefix, const char *key,
                      const long long most[3], long long total, const char *what,
                      const char *whose, uint32_t out[3])
{
    const json_t *dims = json_object_get(obj, key);
    if (!dims)
        return true;
    char q[96];
    snprintf(q, sizeof q, "%s.%s", prefix, key);
    long long d[3];
    if (!json_is_array(dims) || json_array_size(dims) != 3)
        return bad(r, q, "expected an array of three whole numbers");
    for (size_t k = 0; k < 3; k++) {
        char e[112];
        snprintf(e, sizeof e, "%s[%zu]", q, k);
        const json_t *v = json_array_get(dims, k);
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > most[k])
            return bad(r, e, "expected a whole number from 1 to %lld", most[k]);
        d[k] = json_integer_value(v);
    }
    if (d[0] * d[1] * d[2] != total || (d[1] == 1 && d[2] == 1))
        return bad(r, q, "[%lld, %lld, %lld]: %s of more than one dimension whose %s = %lld",
                   d[0], d[1], d[2], what, whose, total);
    for (size_t k = 0; k < 3; k++)
        out[k] = (uint32_t)d[k];
    return true;
}

static bool want_int_opt(kreader *r, const json_t *obj, const char *name, long long lo,
                         long long hi, int32_t *out)
{
    long long v = 0;
    if (json_object_get(obj, name) && !want_int(r, obj, "", name, lo, hi, &v))
        return false;
    *out = (int32_t)v;
    return true;
}

/* want_text of a field that may be absent too (one added after the
 * format's first files: absent, it is NULL). */
static bool want_text_opt(kreader *r, const json_t *obj, const char *name, size_t maxlen,
                          char **out)
{
    if (!json_object_get(obj, name))
        return sv_ktrace_set_text(out, NULL, r->err, r->errlen);
    return want_text(r, obj, "", name, true, maxlen, out);
}

static bool want_name(kreader *r, const json_t *obj, const char *prefix, const char *name,
                      const char *(*name_of)(int), int count, int *out)
{
    char p[320], list[256] = "";
    json_t *j = need(r, obj, prefix, name, p, sizeof p);
    if (!j)
        return false;
    for (int k = 0, listed = 0; k < count; k++) {
        const char *nk = name_of(k);
        if (!nk)
            continue;
        if (json_is_string(j) && strcmp(json_string_value(j), nk) == 0) {
            *out = k;
            return true;
        }
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s\"%s\"",
                 listed++ ? (k + 1 < count ? ", " : " or ") : "", nk);
    }
    if (!json_is_string(j))
        return bad(r, p, "expected a string, got %s", sv_json_kind_of(j));
    return bad(r, p, "\"%s\", expected %s", json_string_value(j), list);
}

static const char *op_name(int k) { return sv_op_name((sv_op)k); }
static const char *type_name(int k) { return sv_type_name((sv_type)k); }
static const char *scan_name(int k) { return sv_scan_name((sv_scan)k); }
static const char *backend_name(int k) { return sv_backend_name((sv_backend)k); }
static const char *array_kind(int k) { return sv_karray_kind_name((sv_karray_kind)k); }
static const char *hazard_kind(int k) { return sv_khazard_kind_name((sv_khazard_kind)k); }
static const char *bank_op(int k) { return k == 0 ? "load" : k == 1 ? "store" : NULL; }
static const char *fail_kind(int k) { return k == 0 ? NULL : sv_kfail_kind_name((sv_kfail_kind)k); }

/* An array reference: an index into arrays, or "in" when in_ok. */
static bool want_array_ref(kreader *r, const json_t *obj, const char *prefix, bool in_ok,
                           uint32_t *out)
{
    char p[320];
    json_t *j = need(r, obj, prefix, "array", p, sizeof p);
    if (!j)
        return false;
    if (in_ok && json_is_string(j) && strcmp(json_string_value(j), "in") == 0) {
        *out = SV_KARRAY_IN;
        return true;
    }
    if (!json_is_integer(j) || json_integer_value(j) < 0 ||
        json_integer_value(j) >= (json_int_t)r->t->narrays)
        return bad(r, p, "expected an index into arrays (0 to %zu)%s", r->t->narrays - 1,
                   in_ok ? " or \"in\"" : "");
    *out = (uint32_t)json_integer_value(j);
    return true;
}

/* thread, array and cell (when where), value, line. */
static bool read_access_of(kreader *r, const json_t *j, const char *path, bool where,
                           bool in_ok, long long threads, sv_kaccess *a)
{
    long long v;
    char p[320];
    if (!json_is_object(j))
        return bad(r, path, "expected an object, got %s", sv_json_kind_of(j));
    memset(a, 0, sizeof *a);
    if (!want_int(r, j, path, "thread", 0, threads - 1, &v))
        return false;
    a->thread = (uint32_t)v;
    if (where) {
        uint32_t ref;
        if (!want_array_ref(r, j, path, in_ok, &ref))
            return false;
        a->array = (uint16_t)ref;
        long long len = a->array == SV_KARRAY_IN ? (long long)r->t->n : r->t->arrays[a->array].len;
        if (!want_int(r, j, path, "cell", 0, len - 1, &v))
            return false;
        a->cell = (uint32_t)v;
    }
    json_t *x = need(r, j, path, "value", p, sizeof p);
    if (!x || !sv_json_get_value(x, p, r->t->type, false, &a->value, NULL, r->err, r->errlen))
        return false;
    if (!want_int(r, j, path, "line", 0, INT32_MAX, &v))
        return false;
    a->line = (int32_t)v;
    return true;
}

/* An access of one of the trace's n threads. */
static bool read_access(kreader *r, const json_t *j, const char *path, bool where, bool in_ok,
                        sv_kaccess *a)
{
    return read_access_of(r, j, path, where, in_ok, (long long)r->t->n, a);
}

static bool read_arrays(kreader *r, const json_t *root)
{
    char p[256], q[256];
    json_t *arrays = need_list(r, root, "arrays", SV_KTRACE_MAX_ARRAYS);
    if (!arrays)
        return false;
    for (size_t a = 0; a < json_array_size(arrays); a++) {
        json_t *x = json_array_get(arrays, a);
        char *name = NULL;
        long long len, rows;
        int kind = 0;
        snprintf(p, sizeof p, "arrays[%zu]", a);
        if (!json_is_object(x))
            return bad(r, p, "expected an object, got %s", sv_json_kind_of(x));
        if (!want_text(r, x, p, "name", false, 256, &name))
            return false;
        bool ok = want_name(r, x, p, "kind", array_kind, 4, &kind) &&
                  want_int(r, x, p, "len", 1, sv_karray_max_len((sv_karray_kind)kind), &len) &&
                  want_int(r, x, p, "rows", 1, len, &rows);
        for (size_t b = 0; ok && b < a; b++)
            if (strcmp(r->t->arrays[b].name, name) == 0)
                ok = bad(r, p, "a second array named \"%s\" (arrays[%zu])", name, b);
        if (ok && len % rows != 0) {
            snprintf(q, sizeof q, "%.100s.rows", p);
            ok = bad(r, q, "%lld does not divide len = %lld", rows, len);
        }
        ok = ok && sv_ktrace_add_array(r->t, name, (sv_karray_kind)kind, (uint32_t)len,
                                       (uint32_t)rows, r->err, r->errlen) >= 0;
        free(name);
        if (!ok)
            return false;
        json_t *touched = need(r, x, p, "touched", q, sizeof q);
        if (!touched || !json_is_boolean(touched))
            return touched ? bad(r, q, "expected true or false, got %s", sv_json_kind_of(touched))
                           : false;
        r->t->arrays[a].touched = json_is_true(touched);
    }
    return true;
}

/* Step k's cells (null: never written) and the cells it wrote, checked
 * against the step before: a written cell stays written, and a cell not in
 * wrote keeps its value. */
static bool read_cells(kreader *r, const json_t *j, const char *path, size_t k, sv_kstep *s)
{
    char p[256], q[256];
    const sv_kstep *prev = k ? &r->t->steps[k - 1] : NULL;
    json_t *cells = need(r, j, path, "cells", p, sizeof p);
    json_t *wrote = cells ? need(r, j, path, "wrote", q, sizeof q) : NULL;
    if (!wrote)
        return false;
    size_t na = r->t->narrays;
    if (!json_is_array(cells) || json_array_size(cells) != na)
        return bad(r, p, "expected an array of %zu arrays (one per array)", na);
    if (!json_is_array(wrote) || json_array_size(wrote) != na)
        return bad(r, q, "expected an array of %zu arrays of cell indices", na);
    for (size_t a = 0; a < na; a++) {
        size_t len = r->t->arrays[a].len;
        snprintf(p, sizeof p, "%.100s.cells[%zu]", path, a);
        json_t *vals = json_array_get(cells, a);
        if (!json_is_array(vals) || json_array_size(vals) > len)
            return bad(r, p, "expected an array of at most len = %zu values, got %s", len,
                       json_is_array(vals) ? "more" : sv_json_kind_of(vals));
        if (!sv_json_get_values(vals, p, r->t->type, json_array_size(vals), true, s->cells[a],
                                s->written[a], r->err, r->errlen))
            return false;
        json_t *w = json_array_get(wrote, a);
        snprintf(q, sizeof q, "%.100s.wrote[%zu]", path, a);
        if (!json_is_array(w) || json_array_size(w) > len)
            return bad(r, q, "expected an array of at most %zu cell indices", len);
        long long last = -1;
        for (size_t m = 0; m < json_array_size(w); m++) {
            json_t *x = json_array_get(w, m);
            snprintf(q, sizeof q, "%.100s.wrote[%zu][%zu]", path, a, m);
            if (!json_is_integer(x) || json_integer_value(x) <= last ||
                json_integer_value(x) >= (json_int_t)len)
                return bad(r, q, "expected a cell index above %lld and below %zu (ascending)",
                           last, len);
            last = json_integer_value(x);
            if (!s->written[a][last])
                return bad(r, q, "cell %lld is written in this step, but cells[%zu][%lld] is null",
                           last, a, last);
            s->wrote[a][last] = true;
        }
        for (size_t c = 0; c < len; c++) {
            bool was = prev && prev->written[a][c];
            snprintf(p, sizeof p, "%.100s.cells[%zu][%zu]", path, a, c);
            if (was && !s->written[a][c])
                return bad(r, p, "null, but the step before had written it");
            if (!s->wrote[a][c] && (s->written[a][c] != was ||
                                    (was && s->cells[a][c].bits != prev->cells[a][c].bits)))
                return bad(r, p, "differs from the step before, but is not in wrote[%zu]", a);
        }
    }
    return true;
}

/* The CPU runtime's reads and writes of one step (both optional). */
static bool read_accesses(kreader *r, const json_t *j, const char *path, sv_kstep *s)
{
    char p[256];
    json_t *reads = json_object_get(j, "reads"), *writes = json_object_get(j, "writes");
    if (reads && !json_is_array(reads)) {
        snprintf(p, sizeof p, "%.100s.reads", path);
        return bad(r, p, "expected an array, got %s", sv_json_kind_of(reads));
    }
    for (size_t m = 0; reads && m < json_array_size(reads); m++) {
        sv_kaccess a;
        snprintf(p, sizeof p, "%.100s.reads[%zu]", path, m);
        if (!read_access(r, json_array_get(reads, m), p, true, true, &a) ||
            !sv_kstep_add_read(r->t, s, &a, r->err, r->errlen))
            return false;
    }
    if (writes && !json_is_array(writes)) {
        snprintf(p, sizeof p, "%.100s.writes", path);
        return bad(r, p, "expected an array, got %s", sv_json_kind_of(writes));
    }
    for (size_t m = 0; writes && m < json_array_size(writes); m++) {
        sv_kaccess a;
        long long first, count;
        json_t *w = json_array_get(writes, m);
        snprintf(p, sizeof p, "%.100s.writes[%zu]", path, m);
        if (!read_access(r, w, p, true, false, &a) ||
            !want_int(r, w, p, "first_read", 0, (long long)s->nreads, &first) ||
            !want_int(r, w, p, "nreads", 0, (long long)s->nreads - first, &count))
            return false;
        for (long long q = first; q < first + count; q++)
            if (s->reads[q].thread != a.thread)
                return bad(r, p, "reads[%lld] is thread %" PRIu32 "'s, not this write's thread %"
                           PRIu32, q, s->reads[q].thread, a.thread);
        if (!s->wrote[a.array][a.cell])
            return bad(r, p, "a write of cell %" PRIu32 " of arrays[%" PRIu32 "], which wrote "
                       "does not list", a.cell, a.array);
        /* The cells are as read: a write does not change them here. */
        sv_value keep = s->cells[a.array][a.cell];
        if (!sv_kstep_add_write(r->t, s, &a, (uint32_t)first, (uint32_t)count, r->err, r->errlen))
            return false;
        s->cells[a.array][a.cell] = keep;
    }
    return true;
}

static bool read_steps(kreader *r, const json_t *root)
{
    char p[320];
    json_t *steps = need_list(r, root, "steps", SV_KTRACE_MAX_STEPS);
    if (!steps)
        return false;
    size_t cells = 0;
    for (size_t a = 0; a < r->t->narrays; a++)
        cells += r->t->arrays[a].len;
    if (cells && json_array_size(steps) > SV_KTRACE_MAX_TOTAL_CELLS / cells)
        return bad(r, "steps", "%zu steps of %zu cells: more than the limit of %u cells in all",
                   json_array_size(steps), cells, (unsigned)SV_KTRACE_MAX_TOTAL_CELLS);
    bool touched[SV_KTRACE_MAX_ARRAYS];
    for (size_t a = 0; a < r->t->narrays; a++)
        touched[a] = r->t->arrays[a].touched;
    for (size_t k = 0; k < json_array_size(steps); k++) {
        json_t *j = json_array_get(steps, k);
        long long line;
        snprintf(p, sizeof p, "steps[%zu]", k);
        if (!json_is_object(j))
            return bad(r, p, "expected an object, got %s", sv_json_kind_of(j));
        if (!want_int(r, j, p, "barrier_line", 0, INT32_MAX, &line))
            return false;
        sv_kstep *s = sv_ktrace_add_step(r->t, (int32_t)line, r->err, r->errlen);
        if (!s)
            return false;
        for (size_t a = 0; a < r->t->narrays; a++) /* as read, not carried over */
            memset(s->written[a], 0, r->t->arrays[a].len * sizeof **s->written);
        if (!read_cells(r, j, p, k, s) || !read_accesses(r, j, p, s))
            return false;
    }
    for (size_t a = 0; a < r->t->narrays; a++)
        r->t->arrays[a].touched = touched[a];
    return true;
}

/* One cell of a cell_runs row: {"cell", "wrong", "runs": [first runs]}. */
static bool read_cellrun(kreader *r, const json_t *j, const char *p, sv_kcellruns *c)
{
    long long i, wrong, run;
    char q[320];
    if (!json_is_object(j))
        return bad(r, p, "expected an object, got %s", sv_json_kind_of(j));
    if (!want_int(r, j, p, "cell", 0, (long long)r->t->n - 1, &i) ||
        !want_int(r, j, p, "wrong", 1, r->t->runs, &wrong))
        return false;
    if (c->wrong[i] != 0)
        return bad(r, p, "cell %lld is listed twice", i);
    json_t *runs = need(r, j, p, "runs", q, sizeof q);
    if (!runs)
        return false;
    size_t want = wrong < SV_KTRACE_CELL_RUNS ? (size_t)wrong : SV_KTRACE_CELL_RUNS;
    if (!json_is_array(runs) || json_array_size(runs) != want)
        return bad(r, q, "expected an array of %zu run indices (the first of the %lld wrong runs, "
                   "at most %d)", want, wrong, SV_KTRACE_CELL_RUNS);
    for (size_t k = 0; k < want; k++) {
        json_t *x = json_array_get(runs, k);
        run = json_is_integer(x) ? json_integer_value(x) : -1;
        long long lo = k ? (long long)c->which[(size_t)i * SV_KTRACE_CELL_RUNS + k - 1] + 1 : 0;
        if (run < lo || run >= (long long)r->t->runs)
            return bad(r, q, "[%zu]: expected a run index from %lld to %u, ascending", k, lo,
                       (unsigned)r->t->runs - 1);
        c->which[(size_t)i * SV_KTRACE_CELL_RUNS + k] = (uint32_t)run;
    }
    c->wrong[i] = (uint32_t)wrong;
    return true;
}

/* "cell_runs" (optional): at most SV_KTRACE_MAX_CELLRUNS rows, each a step
 * (or -1, out) with a row of n cells inside its array. */
static bool read_cellruns(kreader *r, const json_t *root)
{
    json_t *cr = json_object_get(root, "cell_runs");
    char p[256], q[256];
    long long step, first, round;
    uint32_t a;
    if (!cr)
        return true;
    if (!json_is_array(cr) || json_array_size(cr) > SV_KTRACE_MAX_CELLRUNS)
        return bad(r, "cell_runs", "expected an array of at most %d rows", SV_KTRACE_MAX_CELLRUNS);
    for (size_t k = 0; k < json_array_size(cr); k++) {
        json_t *j = json_array_get(cr, k);
        snprintf(p, sizeof p, "cell_runs[%zu]", k);
        if (!json_is_object(j))
            return bad(r, p, "expected an object, got %s", sv_json_kind_of(j));
        if (!want_int(r, j, p, "step", -1, (long long)r->t->nsteps - 1, &step) ||
            !want_array_ref(r, j, p, false, &a) ||
            !want_int(r, j, p, "first", 0, (long long)r->t->arrays[a].len - (long long)r->t->n,
                      &first) ||
            !want_int(r, j, p, "round", -1, 64, &round))
            return false;
        sv_kcellruns *c = sv_ktrace_add_cellruns(r->t, (int32_t)step, a, (uint32_t)first,
                                                 (int32_t)round, r->err, r->errlen);
        json_t *cells = c ? need(r, j, p, "cells", q, sizeof q) : NULL;
        if (!cells)
            return false;
        if (!json_is_array(cells) || json_array_size(cells) > r->t->n)
            return bad(r, q, "expected an array of at most n = %zu cells", r->t->n);
        for (size_t i = 0; i < json_array_size(cells); i++) {
            char cp[320];
            snprintf(cp, sizeof cp, "%s[%zu]", q, i);
            if (!read_cellrun(r, json_array_get(cells, i), cp, c))
                return false;
        }
    }
    return true;
}

static bool read_hazards(kreader *r, const json_t *root)
{
    char p[256], q[256];
    long long v;
    json_t *hz = need_list(r, root, "hazards", SV_KTRACE_MAX_HAZARDS);
    if (!hz)
        return false;
    for (size_t h = 0; h < json_array_size(hz); h++) {
        json_t *j = json_array_get(hz, h);
        sv_khazard z;
        uint32_t a;
        int kind = 0;
        memset(&z, 0, sizeof z);
        snprintf(p, sizeof p, "hazards[%zu]", h);
        if (!json_is_object(j))
            return bad(r, p, "expected an object, got %s", sv_json_kind_of(j));
        /* A failed run's last step, cut short, may hold hazards too. */
        long long last = (long long)r->t->nsteps - (r->t->failure.kind == SV_KFAIL_NONE);
        if (!want_name(r, j, p, "kind", hazard_kind, 3, &kind) ||
            !want_int(r, j, p, "step", 0, last, &v))
            return false;
        z.kind = (sv_khazard_kind)kind;
        z.step = (uint32_t)v;
        if (!want_array_ref(r, j, p, false, &a) ||
            !want_int(r, j, p, "cell", 0, (long long)r->t->arrays[a].len - 1, &v))
            return false;
        z.array = (uint16_t)a;
        z.cell = (uint32_t)v;
        static const char *const which[2] = {"first", "second"};
        for (int k = 0; k < 2; k++) {
            sv_kaccess *acc = k ? &z.second : &z.first;
            json_t *x = need(r, j, p, which[k], q, sizeof q);
            if (!x || !read_access(r, x, q, false, false, acc))
                return false;
            acc->array = z.array;
            acc->cell = z.cell;
        }
        if (!sv_ktrace_add_hazard(r->t, &z, r->err, r->errlen))
            return false;
    }
    /* More than listed: past SV_KTRACE_MAX_HAZARDS, or found in the step a
     * failure cut short (it was never recorded). */
    if (!want_int(r, root, "", "hazards_total", (long long)r->t->nhazards, INT64_MAX, &v))
        return false;
    r->t->hazards_total = (uint64_t)v;
    if (r->t->nhazards < SV_KTRACE_MAX_HAZARDS && r->t->hazards_total != r->t->nhazards &&
        r->t->failure.kind == SV_KFAIL_NONE && r->t->steps_dropped == 0)
        return bad(r, "hazards_total", "%lld, but %zu hazards are listed (all are, below %d, "
                   "in a run that did not fail)", v, r->t->nhazards, SV_KTRACE_MAX_HAZARDS);
    return true;
}

static bool read_failure(kreader *r, const json_t *root)
{
    char p[320];
    long long v;
    sv_kfailure *f = &r->t->failure;
    json_t *j = need(r, root, "", "failure", p, sizeof p);
    if (!j)
        return false;
    if (json_is_null(j))
        return true;
    if (!json_is_object(j))
        return bad(r, "failure", "expected an object or null, got %s", sv_json_kind_of(j));
    int kind = 0;
    if (!want_name(r, j, "failure", "kind", fail_kind, SV_KFAIL_COUNT, &kind) ||
        !want_text(r, j, "failure", "message", true, SV_KTRACE_MAX_SOURCE, &f->message))
        return false;
    f->kind = (sv_kfail_kind)kind;
    if (!want_int(r, j, "failure", "line", 0, INT32_MAX, &v))
        return false;
    f->line = (int32_t)v;
    if (!want_int(r, j, "failure", "thread", -1, (long long)r->t->n - 1, &v))
        return false;
    f->thread = (int32_t)v;
    /* The step it happened in may be past the last recorded (a runtime stops
     * recording at SV_KTRACE_MAX_STEPS, an endless loop does not stop). */
    if (!want_int(r, j, "failure", "step", -1, INT32_MAX, &v))
        return false;
    f->step = (int32_t)v;
    json_t *a = need(r, j, "failure", "array", p, sizeof p);
    uint32_t ref;
    if (!a)
        return false;
    if (json_is_null(a))
        f->array = -1;
    else if (!want_array_ref(r, j, "failure", true, &ref))
        return false;
    else
        f->array = ref == SV_KARRAY_IN ? (int32_t)SV_KARRAY_IN : (int32_t)ref;
    if (!want_int(r, j, "failure", "index", INT32_MIN, INT32_MAX, &v))
        return false;
    f->index = v;
    json_t *waits = need(r, j, "failure", "waits", p, sizeof p);
    if (!waits)
        return false;
    if (!json_is_array(waits) || json_array_size(waits) > r->t->n)
        return bad(r, p, "expected an array of at most n = %zu barriers", r->t->n);
    for (size_t w = 0; w < json_array_size(waits); w++) {
        json_t *x = json_array_get(waits, w);
        long long line, count, first;
        snprintf(p, sizeof p, "failure.waits[%zu]", w);
        if (!json_is_object(x))
            return bad(r, p, "expected an object, got %s", sv_json_kind_of(x));
        if (!want_int(r, x, p, "line", 0, INT32_MAX, &line) ||
            !want_int(r, x, p, "count", 1, (long long)r->t->n, &count) ||
            !want_int(r, x, p, "first_thread", 0, (long long)r->t->n - 1, &first) ||
            !sv_ktrace_add_wait(r->t, (int32_t)line, (uint32_t)count, (uint32_t)first, r->err,
                                r->errlen))
            return false;
    }
    return true;
}

/* The header: kernel, file, entry, backend, device, schedule, runs, op,
 * type, scan, n, input; creates r->t. */
/* "printf" (optional): each call's thread, step, line and text, at most
 * SV_KTRACE_MAX_PRINTS, in the trace's order (by step, then thread). */
static bool read_prints(kreader *r, const json_t *root)
{
    long long v;
    const json_t *list = json_object_get(root, "printf");
    if (!list)
        return true;
    if (!json_is_array(list) || json_array_size(list) > SV_KTRACE_MAX_PRINTS)
        return bad(r, "printf", "expected an array of at most %d calls", SV_KTRACE_MAX_PRINTS);
    for (size_t i = 0; i < json_array_size(list); i++) {
        const json_t *x = json_array_get(list, i);
        char p[64];
        snprintf(p, sizeof p, "printf[%zu]", i);
        if (!json_is_object(x))
            return bad(r, p, "expected an object, got %s", sv_json_kind_of(x));
        long long th, st, line;
        char *text = NULL;
        if (!want_int(r, x, p, "thread", 0, (long long)r->t->n - 1, &th) ||
            !want_int(r, x, p, "step", 0, SV_KTRACE_MAX_STEPS, &st) ||
            !want_int(r, x, p, "line", 0, INT32_MAX, &line) ||
            !want_text(r, x, p, "text", false, 4 * SV_KTRACE_MAX_PRINT + 8, &text))
            return false;
        if (i > 0) {
            const sv_kprint *q = &r->t->prints[r->t->nprints - 1];
            if ((uint32_t)st < q->step || ((uint32_t)st == q->step && (uint32_t)th < q->thread)) {
                free(text);
                return bad(r, p, "out of order (the calls are by step, then thread)");
            }
        }
        bool ok = sv_ktrace_add_print(r->t, (uint32_t)th, (uint32_t)st, (int32_t)line, text,
                                      r->err, r->errlen);
        free(text);
        if (!ok)
            return false;
    }
    if (json_object_get(root, "printf_dropped")) {
        if (!want_int(r, root, "", "printf_dropped", 1, INT32_MAX, &v))
            return false;
        r->t->prints_dropped = (uint32_t)v;
    }
    return true;
}

/* A time of a tile: 0 .. 2^50 (or null where null_ok: SV_KTRACE_NO_TIME). */
static bool want_time(kreader *r, const json_t *obj, const char *prefix, const char *name,
                      bool null_ok, uint64_t *out)
{
    long long v;
    if (null_ok && json_is_null(json_object_get(obj, name))) {
        *out = SV_KTRACE_NO_TIME;
        return true;
    }
    if (!want_int(r, obj, prefix, name, 0, 1LL << 50, &v))
        return false;
    *out = (uint64_t)v;
    return true;
}

static const char *event_kind(int k) { return sv_kevent_kind_name((sv_kevent_kind)k); }

/* One event of tiles[tile] at path. */
static bool read_event(kreader *r, const json_t *j, const char *path, uint32_t tile)
{
    sv_ktrace *t = r->t;
    if (!json_is_object(j))
        return bad(r, path, "expected an object, got %s", sv_json_kind_of(j));
    if (t->nevents >= SV_KTRACE_MAX_EVENTS)
        return bad(r, path, "more than %d events", SV_KTRACE_MAX_EVENTS);
    sv_kevent *e = &t->events[t->nevents];
    memset(e, 0, sizeof *e);
    int kind = 0;
    long long v;
    if (!want_name(r, j, path, "kind", event_kind, SV_KEVENT_COUNT, &kind) ||
        !want_time(r, j, path, "time", false, &e->time))
        return false;
    e->kind = (sv_kevent_kind)kind;
    e->tile = tile;
    e->other = SV_KTRACE_NO_TILE;
    if (e->kind == SV_KEVENT_STEP) {
        if (!want_int(r, j, path, "thread", 0, 1023, &v))
            return false;
        e->thread = (uint32_t)v;
        if (!want_int(r, j, path, "line", 0, INT32_MAX, &v))
            return false;
        e->line = (int32_t)v;
    } else { /* a tile's thread is its threadIdx.x, below its block (sv_ktrace_validate_tiles) */
        sv_kaccess a;
        if (!read_access_of(r, j, path, true, true, 1024, &a))
            return false;
        e->thread = a.thread;
        e->array = a.array;
        e->cell = a.cell;
        e->value = a.value;
        e->line = a.line;
    }
    if (e->kind == SV_KEVENT_LOOK || e->kind == SV_KEVENT_WAIT) {
        const json_t *k = json_object_get(j, "tile");
        if (e->kind == SV_KEVENT_LOOK || !json_is_null(k)) {
            if (!want_int(r, j, path, "tile", 0, SV_KTRACE_MAX_TILES - 1, &v))
                return false;
            e->other = (uint32_t)v;
        }
        if (e->kind == SV_KEVENT_LOOK && !want_time(r, j, path, "written", false, &e->other_time))
            return false;
    }
    t->nevents++;
    return true;
}

/* "tiles" (optional, with "launches"): each launch's blocks over time. */
static bool read_tiles(kreader *r, const json_t *root)
{
    sv_ktrace *t = r->t;
    const json_t *list = json_object_get(root, "tiles");
    long long v;
    if (!list)
        return true;
    if (!json_is_array(list) || json_array_size(list) == 0 ||
        json_array_size(list) > SV_KTRACE_MAX_TILES || !t->nlaunches)
        return bad(r, "tiles", "expected an array of 1 to %d tiles, with launches",
                   SV_KTRACE_MAX_TILES);
    size_t n = json_array_size(list), ne = 0;
    for (size_t i = 0; i < n; i++) {
        const json_t *ev = json_object_get(json_array_get(list, i), "events");
        ne += json_is_array(ev) ? json_array_size(ev) : 0;
    }
    if (ne > SV_KTRACE_MAX_EVENTS)
        return bad(r, "tiles", "%zu events, more than %d", ne, SV_KTRACE_MAX_EVENTS);
    t->tiles = calloc(n, sizeof *t->tiles);
    t->events = ne ? calloc(ne, sizeof *t->events) : NULL;
    if (!t->tiles || (ne && !t->events))
        return bad(r, "tiles", "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *x = json_array_get(list, i);
        char p[64], q[96];
        snprintf(p, sizeof p, "tiles[%zu]", i);
        if (!json_is_object(x))
            return bad(r, p, "expected an object, got %s", sv_json_kind_of(x));
        sv_ktile *k = &t->tiles[t->ntiles++];
        if (!want_int(r, x, p, "launch", 0, (long long)t->nlaunches - 1, &v))
            return false;
        k->launch = (uint32_t)v;
        if (!want_int(r, x, p, "block", 0, (1LL << 26) - 1, &v))
            return false;
        k->block = (uint32_t)v;
        if (!want_time(r, x, p, "start", false, &k->start) ||
            !want_time(r, x, p, "end", true, &k->end))
            return false;
        const json_t *o = json_object_get(x, "out");
        k->out_lo = k->out_hi = -1;
        if (!o) {
            snprintf(q, sizeof q, "%s.out", p);
            return bad(r, q, "missing");
        }
        if (!json_is_null(o)) {
            snprintf(q, sizeof q, "%s.out", p);
            if (!json_is_array(o) || json_array_size(o) != 2 ||
                !json_is_integer(json_array_get(o, 0)) || !json_is_integer(json_array_get(o, 1)))
                return bad(r, q, "expected [lo, hi], the cells of out it wrote, or null");
            k->out_lo = json_integer_value(json_array_get(o, 0));
            k->out_hi = json_integer_value(json_array_get(o, 1));
            if (k->out_lo < 0 || k->out_hi < k->out_lo || k->out_hi >= (int64_t)t->n)
                return bad(r, q, "[%lld, %lld] is not a range of out's %zu cells",
                           (long long)k->out_lo, (long long)k->out_hi, t->n);
        }
        const json_t *ev = json_object_get(x, "events");
        if (!json_is_array(ev)) {
            snprintf(q, sizeof q, "%s.events", p);
            return bad(r, q, "expected an array");
        }
        for (size_t j = 0; j < json_array_size(ev); j++) {
            snprintf(q, sizeof q, "%s.events[%zu]", p, j);
            if (!read_event(r, json_array_get(ev, j), q, (uint32_t)i))
                return false;
        }
    }
    if (json_object_get(root, "events_dropped")) {
        if (!want_int(r, root, "", "events_dropped", 1, INT32_MAX, &v))
            return false;
        t->events_dropped = (uint32_t)v;
    }
    char why[256];
    if (!sv_ktrace_validate_tiles(t, why, sizeof why))
        return bad(r, "tiles", "%s", why);
    return true;
}

/* "launches" (optional): each launch of the host function, in order, each
 * with the step after it. */
static bool read_launches(kreader *r, const json_t *root)
{
    const json_t *list = json_object_get(root, "launches");
    if (!list)
        return true;
    if (!json_is_array(list) || json_array_size(list) == 0 ||
        json_array_size(list) > SV_KTRACE_MAX_LAUNCHES)
        return bad(r, "launches", "expected an array of 1 to %d launches",
                   SV_KTRACE_MAX_LAUNCHES);
    size_t n = json_array_size(list);
    r->t->launches = calloc(n, sizeof *r->t->launches);
    if (!r->t->launches)
        return bad(r, "launches", "out of memory");
    for (size_t i = 0; i < n; i++) {
        const json_t *x = json_array_get(list, i);
        char p[64];
        snprintf(p, sizeof p, "launches[%zu]", i);
        if (!json_is_object(x))
            return bad(r, p, "expected an object, got %s", sv_json_kind_of(x));
        long long grid, block, shared, line, step;
        char *kernel = NULL;
        if (!want_text(r, x, p, "kernel", false, 64, &kernel))
            return false;
        sv_klaunch *l = &r->t->launches[r->t->nlaunches++];
        l->kernel = kernel;
        if (!want_int(r, x, p, "grid", 1, 1 << 26, &grid) ||
            !want_int(r, x, p, "block", 1, 1024, &block) ||
            !want_int(r, x, p, "shared", 0, 49152, &shared) ||
            !want_int(r, x, p, "line", 0, INT32_MAX, &line) ||
            !want_int(r, x, p, "step", 0, SV_KTRACE_MAX_STEPS - 1, &step))
            return false;
        l->grid = (uint32_t)grid;
        if (!want_dims(r, x, p, "grid_dims", (const long long[3]){1 << 26, 65535, 65535}, grid,
                       "a grid", "blocks are grid", l->dims) ||
            !want_dims(r, x, p, "block_dims", (const long long[3]){1024, 1024, 64}, block,
                       "a block", "threads are block", l->block_dims))
            return false;
        l->block = (uint32_t)block;
        l->shared = (uint32_t)shared;
        l->line = (int32_t)line;
        l->step = (uint32_t)step;
        if ((size_t)step >= r->t->nsteps || (i && l->step <= l[-1].step))
            return bad(r, p, "step %lld: each launch's step is one of the %zu steps, after the "
                       "launch before", step, r->t->nsteps);
        for (const char *c = kernel; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                  (*c >= '0' && *c <= '9') || *c == '_'))
                return bad(r, p, "kernel: a kernel's name is an identifier");
    }
    return true;
}

/* bank_conflicts.cells (optional: files of before it have none): the
 * colliding cells, in order (by step, array, cell), each a shared array's. */
static bool read_bank_cells(kreader *r, const json_t *b)
{
    sv_ktrace *t = r->t;
    long long dropped = 0;
    if (json_object_get(b, "cells_dropped") &&
        !want_int(r, b, "bank_conflicts", "cells_dropped", 0, UINT32_MAX, &dropped))
        return false;
    t->bankcells_dropped = (uint32_t)dropped;
    const json_t *list = json_object_get(b, "cells");
    if (!list)
        return true;
    if (!json_is_array(list) || json_array_size(list) > SV_KTRACE_MAX_BANK_CELLS)
        return bad(r, "bank_conflicts.cells", "expected an array of at most %d entries",
                   SV_KTRACE_MAX_BANK_CELLS);
    size_t k = json_array_size(list);
    if (k && !(t->bankcells = calloc(k, sizeof *t->bankcells)))
        return bad(r, "bank_conflicts.cells", "out of memory");
    for (size_t i = 0; i < k; i++) {
        const json_t *x = json_array_get(list, i);
        char q[96];
        snprintf(q, sizeof q, "bank_conflicts.cells[%zu]", i);
        if (!json_is_object(x))
            return bad(r, q, "expected an object, got %s", sv_json_kind_of(x));
        long long st, cell, ways, line, warp;
        uint32_t arr;
        int op = 0;
        if (!want_int(r, x, q, "step", 0, SV_KTRACE_MAX_STEPS, &st) ||
            !want_array_ref(r, x, q, false, &arr) ||
            !want_int(r, x, q, "cell", 0, SV_KTRACE_MAX_CELLS - 1, &cell) ||
            !want_int(r, x, q, "ways", 2, 32, &ways) ||
            !want_name(r, x, q, "op", bank_op, 2, &op) ||
            !want_int(r, x, q, "line", 0, INT32_MAX, &line) ||
            !want_int(r, x, q, "warp", 0, SV_MAX_N / 32, &warp))
            return false;
        if (t->arrays[arr].kind != SV_KARRAY_SHARED || (uint32_t)cell >= t->arrays[arr].len)
            return bad(r, q, "cell %lld of %s is no cell of a shared array", cell,
                       t->arrays[arr].name);
        t->bankcells[i] = (sv_kbankcell){(uint32_t)st, (uint16_t)arr, (uint8_t)ways, op == 1,
                                         (uint32_t)cell, (int32_t)line, (uint32_t)warp};
        t->nbankcells = i + 1;
        const sv_kbankcell *c = &t->bankcells[i], *p = i ? c - 1 : NULL;
        if (p && (c->step < p->step ||
                  (c->step == p->step &&
                   (c->array < p->array || (c->array == p->array && c->cell <= p->cell)))))
            return bad(r, q, "out of order (by step, then array, then cell)");
    }
    return true;
}

/* "bank_conflicts" (optional): the totals and the entries by step and line,
 * each within the totals, in order. */
static bool read_banks(kreader *r, const json_t *root)
{
    const json_t *b = json_object_get(root, "bank_conflicts");
    if (!b)
        return true;
    if (!json_is_object(b))
        return bad(r, "bank_conflicts", "expected an object, got %s", sv_json_kind_of(b));
    long long loads, stores;
    if (!want_int(r, b, "bank_conflicts", "loads", 0, INT64_MAX, &loads) ||
        !want_int(r, b, "bank_conflicts", "stores", 0, INT64_MAX, &stores))
        return false;
    sv_ktrace *t = r->t;
    t->banks_counted = true;
    t->bank_loads = (uint64_t)loads;
    t->bank_stores = (uint64_t)stores;
    char p[96];
    json_t *list = need(r, b, "bank_conflicts", "by_line", p, sizeof p);
    if (!list)
        return false;
    if (!json_is_array(list) || json_array_size(list) > SV_KTRACE_MAX_BANK_LINES)
        return bad(r, p, "expected an array of at most %d entries", SV_KTRACE_MAX_BANK_LINES);
    size_t k = json_array_size(list);
    if (k && !(t->banks = calloc(k, sizeof *t->banks)))
        return bad(r, p, "out of memory");
    for (size_t i = 0; i < k; i++) {
        const json_t *x = json_array_get(list, i);
        char q[96];
        snprintf(q, sizeof q, "bank_conflicts.by_line[%zu]", i);
        long long st, line, lo, so;
        if (!json_is_object(x))
            return bad(r, q, "expected an object, got %s", sv_json_kind_of(x));
        if (!want_int(r, x, q, "step", 0, SV_KTRACE_MAX_STEPS, &st) ||
            !want_int(r, x, q, "line", 0, INT32_MAX, &line) ||
            !want_int(r, x, q, "loads", 0, loads, &lo) ||
            !want_int(r, x, q, "stores", 0, stores, &so))
            return false;
        t->banks[i] = (sv_kbank){(uint32_t)st, (int32_t)line, (uint64_t)lo, (uint64_t)so};
        t->nbanks = i + 1;
        if (i > 0 && (t->banks[i].step < t->banks[i - 1].step ||
                      (t->banks[i].step == t->banks[i - 1].step &&
                       t->banks[i].line <= t->banks[i - 1].line)))
            return bad(r, q, "out of order (by step, then line)");
    }
    return read_bank_cells(r, b);
}

static bool read_header(kreader *r, const json_t *root)
{
    char p[320];
    int op = 0, type = 0, scan = 0, backend = 0;
    long long n;
    if (!want_name(r, root, "", "op", op_name, SV_OP_COUNT, &op) ||
        !want_name(r, root, "", "type", type_name, SV_TYPE_COUNT, &type) ||
        !want_name(r, root, "", "scan", scan_name, 2, &scan) ||
        !want_int(r, root, "", "n", 1,
                  json_object_get(root, "launches") ? SV_MAX_N_BLOCKS : SV_MAX_N, &n))
        return false;
    char why[256];
    if (!sv_op_valid((sv_op)op, (sv_type)type, why, sizeof why))
        return bad(r, "op", "%s", why);
    sv_value *input = malloc((size_t)n * sizeof *input);
    json_t *x = input ? need(r, root, "", "input", p, sizeof p) : NULL;
    bool ok = x && sv_json_get_values(x, "input", (sv_type)type, (size_t)n, false, input, NULL,
                                      r->err, r->errlen);
    if (ok && !(r->t = sv_ktrace_create("kernel", (sv_op)op, (sv_type)type, (sv_scan)scan, input,
                                        (size_t)n, r->err, r->errlen)))
        ok = false;
    free(input);
    if (!ok)
        return input ? false : bad(r, "input", "out of memory");
    sv_ktrace *t = r->t;
    long long runs, shown, wrong, sw;
    if (!want_text(r, root, "", "kernel", false, 256, &t->kernel) ||
        !want_text(r, root, "", "file", true, 4096, &t->file) ||
        !want_text(r, root, "", "entry", true, 256, &t->entry) ||
        !want_text(r, root, "", "source", true, SV_KTRACE_MAX_SOURCE, &t->source) ||
        !want_name(r, root, "", "backend", backend_name, 2, &backend) ||
        !want_text(r, root, "", "device", true, 256, &t->device) ||
        !want_text(r, root, "", "schedule", true, 64, &t->schedule) ||
        !want_int_opt(r, root, "output_round", 0, 64, &t->output_round) ||
        !want_text_opt(r, root, "sandbox", 4096, &t->sandbox) ||
        !want_text_opt(r, root, "console", 4 * SV_KTRACE_MAX_CONSOLE + 64, &t->console) ||
        !want_int(r, root, "", "runs", 1, 100000, &runs) ||
        !want_int(r, root, "", "shown_run", 0, runs - 1, &shown) ||
        !want_int(r, root, "", "wrong_runs", 0, runs, &wrong) ||
        !want_int(r, root, "", "switches", 0, INT64_MAX, &sw))
        return false;
    t->backend = (sv_backend)backend;
    t->runs = (uint32_t)runs;
    t->shown_run = (uint32_t)shown;
    t->wrong_runs = (uint32_t)wrong;
    t->switches = (uint64_t)sw;
    return true;
}

/* An optional integer extra at obj[name] equal to want (what the reader
 * derived). */
static bool same_int(kreader *r, const json_t *obj, const char *prefix, const char *name,
                     long long want, const char *what)
{
    char p[256];
    json_t *j = json_object_get(obj, name);
    snprintf(p, sizeof p, "%s%s%s", prefix, prefix[0] ? "." : "", name);
    if (!j)
        return true;
    if (!json_is_integer(j))
        return bad(r, p, "expected an integer, got %s", sv_json_kind_of(j));
    if (json_integer_value(j) != want)
        return bad(r, p, "%lld, but %s gives %lld", (long long)json_integer_value(j), what, want);
    return true;
}

/* An optional value extra at obj[name] (null: unknown) equal to want. */
static bool same_value(kreader *r, const json_t *obj, const char *prefix, const char *name,
                       sv_value want, bool known)
{
    char p[256], a[48], b[48];
    json_t *j = json_object_get(obj, name);
    sv_value v;
    bool is_null = false;
    snprintf(p, sizeof p, "%s.%s", prefix, name);
    if (!j)
        return true;
    if (!sv_json_get_value(j, p, r->t->type, true, &v, &is_null, r->err, r->errlen))
        return false;
    if (is_null != !known || (known && v.bits != want.bits))
        return bad(r, p, "%s, but the cells give %s", is_null ? "null" : sv_value_format(r->t->type, v, a, sizeof a),
                   known ? sv_value_format(r->t->type, want, b, sizeof b) : "null");
    return true;
}

/* An optional extra that is null or an object as `want` says: 1 an object
 * to compare, 0 nothing more to compare (absent, or null as wanted), -1 an
 * error (err: "PATH: null, but WHY_WANT" or "PATH: WHAT, but WHY_NOT"). */
static int present(kreader *r, const json_t *x, const char *path, bool want, const char *what,
                   const char *why_want, const char *why_not)
{
    if (!x)
        return 0;
    if (json_is_null(x) != !want)
        return bad(r, path, "%s, but %s", json_is_null(x) ? "null" : what,
                   want ? why_want : why_not) ? 0 : -1;
    if (!want)
        return 0;
    if (!json_is_object(x))
        return bad(r, path, "expected an object or null, got %s", sv_json_kind_of(x)) ? 0 : -1;
    return 1;
}

/* steps[k].reading, when present, is what sv_ktrace_analyze derives. */
static bool check_reading(kreader *r, const json_t *j, size_t k)
{
    char p[128], q[160];
    const sv_kreading *rd = &r->t->readings[k];
    json_t *x = json_object_get(j, "reading");
    snprintf(p, sizeof p, "steps[%zu].reading", k);
    int has = present(r, x, p, rd->fits, "a reading", "the cells give one",
                      "the cells give none (no shared write in one row)");
    if (has <= 0)
        return has == 0;
    const char *what = "the reading of the cells";
    if (!same_int(r, x, p, "round", rd->round, what) ||
        !same_int(r, x, p, "expected_round", rd->expected_round, what) ||
        !same_int(r, x, p, "array", rd->pout_array, what) ||
        !same_int(r, x, p, "row", rd->pout_row, what) ||
        !same_int(r, x, p, "pin_array", rd->pin_array, what) ||
        !same_int(r, x, p, "pin_row", rd->pin_row, what))
        return false;
    json_t *b = json_object_get(x, "broken");
    snprintf(q, sizeof q, "%s.broken", p);
    has = present(r, b, q, rd->broken, "a broken cell", "the cells break the invariant",
                  "the cells hold the invariant");
    if (has <= 0)
        return has == 0;
    json_t *w = json_object_get(b, "window");
    if (w && (!json_is_array(w) || json_array_size(w) != 2 ||
              !json_is_integer(json_array_get(w, 0)) || !json_is_integer(json_array_get(w, 1)) ||
              json_integer_value(json_array_get(w, 0)) != rd->window_lo ||
              json_integer_value(json_array_get(w, 1)) != rd->window_hi)) {
        snprintf(q, sizeof q, "%s.broken.window", p);
        return bad(r, q, "expected [%" PRIu32 ", %" PRIu32 "] (the cells' first broken window)",
                   rd->window_lo, rd->window_hi);
    }
    return same_int(r, b, q, "cell", rd->first_broken, what) &&
           same_value(r, b, q, "holds", rd->holds, rd->holds_known) &&
           same_value(r, b, q, "value", rd->window_value, true);
}

/* The optional derived extras, compared with what the reader derived. */
static bool check_derived(kreader *r, const json_t *root)
{
    sv_ktrace *t = r->t;
    json_t *x = json_object_get(root, "expected");
    if (x) {
        sv_value *v = malloc(t->n * sizeof *v);
        if (!v)
            return bad(r, "expected", "out of memory");
        bool ok = sv_json_get_values(x, "expected", t->type, t->n, false, v, NULL, r->err,
                                          r->errlen);
        for (size_t i = 0; ok && i < t->n; i++)
            if (v[i].bits != t->expected[i].bits) {
                char p[48], a[48], b[48];
                snprintf(p, sizeof p, "expected[%zu]", i);
                ok = bad(r, p, "%s, but the sequential scan gives %s",
                         sv_value_format(t->type, v[i], a, sizeof a),
                         sv_value_format(t->type, t->expected[i], b, sizeof b));
            }
        free(v);
        if (!ok)
            return false;
    }
    if (!same_int(r, root, "", "first_wrong", t->first_wrong, "the output against the scan") ||
        !same_int(r, root, "", "first_broken_step", t->first_broken_step, "the steps' readings"))
        return false;
    if ((x = json_object_get(root, "verdict"))) {
        const char *want = verdict_names[sv_ktrace_verdict(t)];
        if (!json_is_string(x) || strcmp(json_string_value(x), want) != 0)
            return bad(r, "verdict", "expected \"%s\" (from the output, hazards and failure)",
                       want);
    }
    json_t *steps = json_object_get(root, "steps");
    for (size_t k = 0; k < t->nsteps; k++)
        if (!check_reading(r, json_array_get(steps, k), k))
            return false;
    return true;
}

sv_ktrace *sv_ktrace_from_json(const json_t *root, char *err, size_t errlen)
{
    kreader r = {err, errlen, NULL};
    long long v;
    char p[64];
    json_t *x;
    if (!json_is_object(root)) {
        bad(&r, "(top level)", "expected an object, got %s", sv_json_kind_of(root));
        return NULL;
    }
    if (!(x = need(&r, root, "", "format", p, sizeof p)))
        return NULL;
    if (!json_is_string(x) || strcmp(json_string_value(x), "scanviz-trace") != 0) {
        bad(&r, "format", "expected \"scanviz-trace\" (not a scanviz trace file)");
        return NULL;
    }
    if (!want_int(&r, root, "", "version", 0, INT32_MAX, &v))
        return NULL;
    if (v != SV_KTRACE_FILE_VERSION) {
        bad(&r, "version", "%lld, expected %d (a kernel trace)", v, SV_KTRACE_FILE_VERSION);
        return NULL;
    }
    if (!(x = need(&r, root, "", "algorithm", p, sizeof p)))
        return NULL;
    if (!json_is_string(x) || strcmp(json_string_value(x), "kernel") != 0) {
        bad(&r, "algorithm", "expected \"kernel\" (version %d holds kernel traces)",
            SV_KTRACE_FILE_VERSION);
        return NULL;
    }
    if (!read_header(&r, root) || !read_arrays(&r, root) || !read_steps(&r, root))
        goto fail;
    if ((x = json_object_get(root, "steps_dropped"))) {
        if (!want_int(&r, root, "", "steps_dropped", 1, INT32_MAX, &v))
            goto fail;
        r.t->steps_dropped = (uint32_t)v;
    }
    if (!(x = need(&r, root, "", "output", p, sizeof p)) ||
        !sv_json_get_values(x, "output", r.t->type, r.t->n, true, r.t->output,
                            r.t->output_written, err, errlen))
        goto fail;
    if (!read_failure(&r, root) || !read_hazards(&r, root) || !read_prints(&r, root) ||
        !read_launches(&r, root) || !read_tiles(&r, root) ||
        !read_banks(&r, root) || !read_cellruns(&r, root))
        goto fail;
    if (!sv_ktrace_analyze(r.t, err, errlen) || !check_derived(&r, root))
        goto fail;
    return r.t;
fail:
    sv_ktrace_destroy(r.t);
    return NULL;
}

sv_ktrace *sv_ktrace_parse(const char *json, char *err, size_t errlen)
{
    json_error_t jerr;
    char why[256];
    if (sv_ktrace_too_large(json, why, sizeof why)) {
        sv_errorf(err, errlen, "%s (refused before parsing)", why);
        return NULL;
    }
    json_t *root = json_loads(json, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        sv_errorf(err, errlen, "not valid JSON: line %d, column %d: %s", jerr.line, jerr.column,
                  jerr.text);
        return NULL;
    }
    sv_ktrace *t = sv_ktrace_from_json(root, err, errlen);
    json_decref(root);
    return t;
}

const char *sv_ktrace_too_large(const char *text, char *why, size_t len)
{
    return sv_json_too_many(text, SV_KTRACE_FILE_MAX_TOKENS, SV_KTRACE_FILE_MAX_ARRAYS,
                            SV_KTRACE_FILE_MAX_OBJECTS, why, len);
}

/* The value of the first `"key":` in head, as a whole number; -1: none. */
static long long head_number(const char *head, const char *key)
{
    const char *p = strstr(head, key);
    if (!p)
        return -1;
    p += strlen(key);
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    long long v = 0;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9' && v < (1ll << 40); p++)
        v = v * 10 + (*p - '0');
    return v;
}

size_t sv_trace_read_limit(const char *path)
{
    struct stat st;
    /* only a regular file is opened to look (a named pipe's writer must not
     * see a reader come and go) */
    if (!path || strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
        st.st_size <= SV_LIMIT_TRACE)
        return SV_LIMIT_TRACE;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return SV_LIMIT_TRACE; /* the read says why */
    char head[4097];
    ssize_t got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > SV_LIMIT_TRACE
                      ? read(fd, head, sizeof head - 1) : -1;
    close(fd);
    if (got <= 0)
        return SV_LIMIT_TRACE;
    head[got] = '\0';
    long long n = head_number(head, "\"n\":");
    if (!strstr(head, "\"algorithm\": \"kernel\"") || n <= SV_MAX_N || n > SV_MAX_N_BLOCKS)
        return SV_LIMIT_TRACE;
    return sv_ktrace_file_limit((size_t)n);
}

size_t sv_ktrace_file_limit(size_t n)
{
    if (n <= SV_MAX_N)
        return SV_LIMIT_TRACE;
    size_t limit = sv_ktrace_file_budget(n) + ((size_t)17 << 20);
    limit &= ~(((size_t)1 << 20) - 1); /* whole MiB, as the refusal names it */
    return limit < SV_LIMIT_TRACE_BLOCKS ? limit : SV_LIMIT_TRACE_BLOCKS;
}

sv_ktrace *sv_ktrace_load(const char *path, char *err, size_t errlen)
{
    char why[512];
    char *text = sv_read_bounded(path, sv_trace_read_limit(path), "a trace file", NULL, err,
                                 errlen);
    if (!text)
        return NULL;
    sv_ktrace *t = sv_ktrace_parse(text, why, sizeof why);
    free(text);
    if (!t)
        sv_errorf(err, errlen, "%s: %s", sv_path_name(path), why);
    return t;
}

bool sv_trace_file_is_kernel(const json_t *root)
{
    json_t *v = json_object_get(root, "version");
    /* a chapter's trace of this version names its reading (trace_file.c) */
    return json_is_integer(v) && json_integer_value(v) == SV_KTRACE_FILE_VERSION &&
           !json_object_get(root, "reading");
}

sv_trace *sv_ktrace_chapter_from_json(const json_t *root, char *err, size_t errlen)
{
    char why[512];
    sv_ktrace *k = sv_ktrace_from_json(root, err, errlen);
    if (!k)
        return NULL;
    /* Only what the chapter's picture tells truly: its rounds in the double
     * buffer, the chapter's invariant in every cell, the right output, no
     * hazard and no failure. */
    sv_trace *t = NULL;
    if (k->failure.kind != SV_KFAIL_NONE)
        snprintf(why, sizeof why, "it failed: %s", sv_kfail_kind_name(k->failure.kind));
    else if (k->hazards_total > 0)
        snprintf(why, sizeof why, "%llu hazards", (unsigned long long)k->hazards_total);
    else if (k->first_wrong >= 0)
        snprintf(why, sizeof why, "its output is wrong from cell %d", (int)k->first_wrong);
    else if ((t = sv_ktrace_chapter_trace(k, why, sizeof why)) &&
             !sv_trace_check(t, why, sizeof why)) {
        sv_trace_destroy(t);
        t = NULL;
    }
    if (!t)
        sv_errorf(err, errlen, "a kernel trace (version %d) of %s that is not the chapter's "
                  "rounds in a double buffer (%s): only those read as the chapter's trace; "
                  "scanviz --trace draws it and scanviz-trace --open prints it", SV_KTRACE_FILE_VERSION,
                  k->entry ? k->entry : k->kernel, why);
    if (t)
        t->run = k;
    else
        sv_ktrace_destroy(k);
    return t;
}
