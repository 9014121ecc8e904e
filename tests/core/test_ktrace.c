/* core/ktrace on hand-built kernel traces (tests/core/ktrace_build.h): the
 * chapter's reading of each step, the first wrong output cell, the words,
 * the chapter-shaped trace, and the version 3 trace file (round trip and
 * one refusal per rule). With an argument DIR it also writes the sample
 * files it builds there (the fuzz corpus: tests/fuzz/corpus/ktrace). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"
#include "ktrace_build.h"
#include "emulate.h"
#include "../../src/core/ktrace_file.h"
#include "../../src/core/ktrace_table.h"
#include "../../src/core/trace_file.h"

static const int32_t chapter_in[8] = {3, 1, 7, 0, 4, 1, 6, 3};
static const char *corpus_dir;

static void analyze(sv_ktrace *t)
{
    char err[256];
    CHECK_MSG(sv_ktrace_analyze(t, err, sizeof err), "%s", err);
}

static char *to_json(const sv_ktrace *t)
{
    char *text = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && sv_ktrace_write(t, f, err, sizeof err));
    fclose(f);
    return text;
}

static void save_sample(const sv_ktrace *t, const char *name)
{
    if (!corpus_dir)
        return;
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s.json", corpus_dir, name);
    CHECK_MSG(sv_ktrace_save(t, path, err, sizeof err), "%s", err);
}

/* The chapter's kernel as a student writes it: every step with shared
 * writes is a round, rows alternate, and the chapter-shaped trace is the
 * emulator's, bit for bit. */
static void test_double_buffer(void)
{
    char err[512], words[512];
    sv_ktrace *t = kb_chapter(KB_DOUBLE, chapter_in, 8);
    analyze(t);
    CHECK_INT(t->nsteps, 5);
    CHECK_INT(t->first_wrong, -1);
    CHECK_INT(t->first_broken_step, -1);
    CHECK_INT(sv_ktrace_verdict(t), SV_KVERDICT_OK);
    for (int k = 0; k < 4; k++) {
        const sv_kreading *rd = &t->readings[k];
        CHECK_MSG(rd->fits && !rd->broken && rd->round == k, "step %d: fits %d round %d", k,
                  rd->fits, rd->round);
        CHECK_INT(rd->pout_array, 0);
        CHECK_INT(rd->pout_row, k % 2);
        CHECK_INT(rd->pin_row, k == 0 ? -1 : (k + 1) % 2);
    }
    CHECK(!t->readings[4].fits); /* the copy back writes out[] only */
    CHECK_STR(sv_ktrace_reading_words(t, 2, words, sizeof words),
              "step 3 (round 2): buf[0] holds the round's windows");
    CHECK_STR(sv_ktrace_reading_words(t, 0, words, sizeof words),
              "step 1 (round 0): buf[0] holds the input (the staging)");
    CHECK_STR(sv_ktrace_reading_words(t, 4, words, sizeof words), "");

    sv_trace *c = sv_ktrace_chapter_trace(t, err, sizeof err);
    CHECK_MSG(c, "%s", err);
    sv_value in[8];
    for (int i = 0; i < 8; i++)
        in[i].i = chapter_in[i];
    sv_trace *e = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, 8,
                                  SV_BACKEND_CPU, NULL, err, sizeof err);
    CHECK(e && sv_emulate(e, err, sizeof err) && sv_trace_finish(e, err, sizeof err));
    CHECK_MSG(c && e && sv_trace_equal(c, e, err, sizeof err), "%s", err);
    CHECK(c && sv_trace_check(c, err, sizeof err));
    sv_trace_destroy(c);
    sv_trace_destroy(e);
    save_sample(t, "double-buffer");
    sv_ktrace_destroy(t);
}

/* In place with one barrier, threads in order: round 1 reads cells its
 * left neighbour already overwrote, so its row holds the whole scan at once
 * (round 3's windows, read as such), and round 2 adds to it again. */
static void test_in_place(void)
{
    char err[512], words[512];
    sv_ktrace *t = kb_chapter(KB_IN_PLACE, chapter_in, 8);
    analyze(t);
    CHECK(t->readings[0].fits && !t->readings[0].broken);
    CHECK(t->readings[1].fits && !t->readings[1].broken && t->readings[1].round == 3);
    const sv_kreading *rd = &t->readings[2];
    CHECK(rd->fits && rd->broken && rd->round == 3);
    CHECK_INT(rd->first_broken, 2);
    CHECK(rd->holds_known && rd->holds.i == 14);
    CHECK_INT(rd->window_lo, 0);
    CHECK_INT(rd->window_value.i, 11);
    CHECK_INT(rd->pin_row, 0);
    CHECK_INT(rd->pout_row, 0);
    CHECK_INT(t->first_broken_step, 2);
    CHECK_STR(sv_ktrace_reading_words(t, 1, words, sizeof words),
              "step 2 (round 3): s holds round 3's windows already, where the chapter's kernel "
              "has round 1's");
    CHECK_STR(sv_ktrace_reading_words(t, 2, words, sizeof words),
              "step 3 (round 3): cell 2 holds 14; the window [0, 2] sums to 11 (in s)");
    CHECK_INT(t->first_wrong, 2);
    CHECK_INT(sv_ktrace_verdict(t), SV_KVERDICT_WRONG);
    CHECK(!sv_ktrace_chapter_trace(t, err, sizeof err));
    CHECK_STR(err, "step 2 is round 3 where the chapter's kernel has round 1");
    sv_ktrace_destroy(t);
}

/* Without the else, cell 0 of buf[1] is never written: the round is
 * broken there, and the output's unwritten cells are wrong. */
static void test_no_else(void)
{
    char words[512];
    sv_ktrace *t = kb_chapter(KB_NO_ELSE, chapter_in, 8);
    analyze(t);
    const sv_kreading *rd = &t->readings[1];
    CHECK(rd->fits && rd->broken && rd->round == 1 && rd->first_broken == 0 && !rd->holds_known);
    CHECK_STR(sv_ktrace_reading_words(t, 1, words, sizeof words),
              "step 2 (round 1): cell 0 holds ?; the window [0, 0] is in[0] = 3 (in buf[1])");
    CHECK_INT(t->first_wrong, 0);
    CHECK(!t->output_written[0] && t->output_written[1]);
    char *text = to_json(t);
    /* Unwritten shared cells read as 0 in this builder: only out[0] is
     * never written. */
    CHECK_CONTAINS(text, "\"output\": [null, 4, 8, 7, 15, 13, 19, 25]");
    free(text);
    save_sample(t, "no-else");
    sv_ktrace_destroy(t);
}

/* Two barriers per round: the read steps have no reading, the write steps
 * are the rounds, in one row. */
static void test_two_barriers(void)
{
    char err[512];
    sv_ktrace *t = kb_chapter(KB_TWO_BARRIER, chapter_in, 8);
    analyze(t);
    CHECK_INT(t->nsteps, 1 + 2 * 3 + 1);
    for (size_t k = 1; k < 7; k++)
        CHECK_MSG(t->readings[k].fits == (k % 2 == 0) &&
                      (!t->readings[k].fits || t->readings[k].round == (int)k / 2),
                  "step %zu", k);
    CHECK_INT(t->first_broken_step, -1);
    CHECK_INT(sv_ktrace_verdict(t), SV_KVERDICT_OK);
    sv_trace *c = sv_ktrace_chapter_trace(t, err, sizeof err);
    CHECK_MSG(c, "%s", err);
    CHECK(c && c->rounds[3].pin == 0 && c->rounds[3].pout == 0 && c->output[7].i == 25);
    sv_trace_destroy(c);
    sv_ktrace_destroy(t);
}

/* A correct scan whose steps are not the chapter's (Blelloch's up-sweep):
 * right output, no hazard: not the chapter's rounds, no step read as one
 * and none broken (issue 28: it was "broken first in step 2"); the verdict
 * is OK. A wrong output keeps its broken step. */
static void test_not_the_chapters(void)
{
    char err[256];
    sv_value in[4] = {{.i = 1}, {.i = 2}, {.i = 3}, {.i = 4}};
    sv_ktrace *t = sv_ktrace_create("blelloch", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, in, 4,
                                    err, sizeof err);
    CHECK(t && sv_ktrace_add_array(t, "t", SV_KARRAY_SHARED, 8, 2, err, sizeof err) == 0);
    sv_kstep *s = sv_ktrace_add_step(t, 9, err, sizeof err);
    for (uint32_t i = 0; i < 4; i++)
        sv_kstep_set_cell(t, s, 0, i, in[i]);
    s = sv_ktrace_add_step(t, 12, err, sizeof err);
    sv_kstep_set_cell(t, s, 0, 1, (sv_value){.i = 3});
    sv_kstep_set_cell(t, s, 0, 3, (sv_value){.i = 7});
    static const int32_t out[4] = {0, 1, 3, 6};
    for (size_t i = 0; i < 4; i++)
        sv_ktrace_set_output(t, i, (sv_value){.i = out[i]});
    analyze(t);
    CHECK_INT(t->first_wrong, -1);
    for (size_t k = 0; k < t->nsteps; k++)
        CHECK_MSG(!t->readings[k].fits && !t->readings[k].broken, "step %zu read as a round", k);
    CHECK_INT(t->first_broken_step, -1);
    for (size_t i = 0; i < t->nsteps * t->n; i++)
        CHECK_MSG(!t->cell_wrong[i], "cell %zu of step %zu marked wrong", i % t->n, i / t->n);
    CHECK_INT(sv_ktrace_verdict(t), SV_KVERDICT_OK);
    /* the same steps with a wrong output: broken where it went wrong */
    sv_ktrace_set_output(t, 3, (sv_value){.i = 7});
    analyze(t);
    CHECK_INT(t->first_wrong, 3);
    CHECK(t->readings[1].fits && t->readings[1].broken && t->readings[1].first_broken == 2);
    CHECK_INT(t->first_broken_step, 1);
    sv_ktrace_destroy(t);
}

/* Float sums in any order pass within the rounding bound; beyond it, not. */
static void test_float_tolerance(void)
{
    sv_value a = {.f = 0.1f + 0.2f}, b = {.f = 0.3f}, c = {.f = 0.31f};
    CHECK(sv_kvalue_matches(SV_OP_SUM, SV_TYPE_FLOAT32, a, b, 2, 0.3));
    CHECK(!sv_kvalue_matches(SV_OP_SUM, SV_TYPE_FLOAT32, c, b, 2, 0.3));
    CHECK(!sv_kvalue_matches(SV_OP_MAX, SV_TYPE_FLOAT32, a, b, 2, 0.3) || a.bits == b.bits);
    CHECK(!sv_kvalue_matches(SV_OP_SUM, SV_TYPE_INT32, (sv_value){.i = 1}, (sv_value){.i = 2}, 2,
                             0));
    sv_value inf = {.f = INFINITY};
    CHECK(sv_kvalue_matches(SV_OP_SUM, SV_TYPE_FLOAT32, inf, inf, 2, 1));
    CHECK(!sv_kvalue_matches(SV_OP_SUM, SV_TYPE_FLOAT32, inf, b, 2, 1e30));
}

/* A trace with everything a file holds: hazards, a failure with waits,
 * reads and writes, text with newlines, quotes and a byte that is not UTF-8. */
static sv_ktrace *full_trace(void)
{
    char err[256];
    sv_ktrace *t = kb_chapter(KB_IN_PLACE, chapter_in, 8);
    CHECK(sv_ktrace_set_text(&t->file, "tests/kernels/in_place_race.cu", err, sizeof err));
    CHECK(sv_ktrace_set_text(&t->entry, "scan_race", err, sizeof err));
    CHECK(sv_ktrace_set_text(&t->source, "__global__ void scan_race(const int *in, int *out, int n)\n"
                             "{\n\t/* \"quoted\" \x1b[31m */\n}\n", err, sizeof err));
    CHECK(sv_ktrace_set_text(&t->schedule, "sequential", err, sizeof err));
    t->switches = 123;
    sv_khazard h = {.kind = SV_KHAZARD_RAW, .step = 1, .array = 0, .cell = 4,
                    .first = {.thread = 4, .array = 0, .cell = 4, .value = {.i = 4}, .line = 12},
                    .second = {.thread = 5, .array = 0, .cell = 4, .value = {.i = 4}, .line = 12}};
    CHECK(sv_ktrace_add_hazard(t, &h, err, sizeof err));
    h.kind = SV_KHAZARD_WAR;
    h.cell = h.first.cell = h.second.cell = 2;
    h.first.thread = 4;
    h.second.thread = 2;
    CHECK(sv_ktrace_add_hazard(t, &h, err, sizeof err));
    CHECK(sv_ktrace_fail(t, SV_KFAIL_DEADLOCK, "threads wait\nat a barrier", 15, -1, err,
                         sizeof err));
    t->failure.step = 2;
    CHECK(sv_ktrace_add_wait(t, 15, 7, 1, err, sizeof err));
    CHECK(sv_ktrace_add_wait(t, 0, 1, 0, err, sizeof err));
    /* 12 runs, cell by cell: step 2's row and out */
    t->runs = 12;
    t->wrong_runs = 10;
    sv_kcellruns *c = sv_ktrace_add_cellruns(t, 1, 0, 0, 1, err, sizeof err);
    CHECK(c != NULL);
    for (uint32_t run = 0; c && run < 10; run++)
        sv_kcellruns_count(c, 4, run);
    if (c)
        sv_kcellruns_count(c, 2, 7);
    c = sv_ktrace_add_cellruns(t, -1, (uint32_t)(t->narrays - 1), 0, -1, err, sizeof err);
    CHECK(c != NULL);
    if (c)
        sv_kcellruns_count(c, 7, 3);
    analyze(t);
    return t;
}

static void test_words(void)
{
    char buf[512];
    sv_ktrace *t = full_trace();
    CHECK_STR(sv_ktrace_hazard_words(t, &t->hazards[0], buf, sizeof buf),
              "step 2: thread 5 read s[4], thread 4 wrote it, lines 12 and 12 (RAW)");
    CHECK_STR(sv_ktrace_hazard_words(t, &t->hazards[1], buf, sizeof buf),
              "step 2: thread 4 read s[2], thread 2 wrote it, lines 12 and 12 (WAR)");
    CHECK_STR(sv_ktrace_failure_words(t, buf, sizeof buf),
              "deadlock: 7 threads from thread 1 wait at the barrier of line 15; thread 0 has "
              "ended");
    CHECK_INT(sv_ktrace_verdict(t), SV_KVERDICT_FAILED);
    CHECK(sv_ktrace_fail(t, SV_KFAIL_OUT_OF_RANGE, NULL, 14, 0, buf, sizeof buf));
    t->failure.array = 0;
    t->failure.index = -1;
    CHECK_STR(sv_ktrace_failure_words(t, buf, sizeof buf),
              "out of range: thread 0 accessed s[-1] at line 14");
    CHECK(sv_ktrace_fail(t, SV_KFAIL_COMPILE, "k.cu: In function 'f':\nk.cu:7: error: expected "
                         "';'\x1b[2J\nmore", 7, -1, buf, sizeof buf));
    CHECK_STR(sv_ktrace_failure_words(t, buf, sizeof buf),
              "does not compile: k.cu:7: error: expected ';'\\e[2J");
    CHECK_INT(sv_ktrace_verdict(t), SV_KVERDICT_REFUSED);
    sv_ktrace_destroy(t);
}

static bool same_access(const sv_kaccess *a, const sv_kaccess *b)
{
    return a->thread == b->thread && a->array == b->array && a->cell == b->cell &&
           a->value.bits == b->value.bits && a->line == b->line;
}

static void same_ktrace(const sv_ktrace *a, const sv_ktrace *b)
{
    CHECK(a->n == b->n && a->op == b->op && a->type == b->type && a->scan == b->scan);
    CHECK(a->narrays == b->narrays && a->nsteps == b->nsteps && a->nhazards == b->nhazards);
    CHECK(a->hazards_total == b->hazards_total && a->failure.kind == b->failure.kind);
    CHECK(a->failure.nwaits == b->failure.nwaits);
    CHECK((!a->source && !b->source) || (a->source && b->source && !strcmp(a->source, b->source)));
    for (size_t k = 0; k < a->nsteps && k < b->nsteps && a->narrays == b->narrays; k++) {
        const sv_kstep *s = &a->steps[k], *u = &b->steps[k];
        CHECK_MSG(s->nreads == u->nreads && s->nwrites == u->nwrites, "step %zu", k);
        for (size_t x = 0; x < a->narrays; x++)
            for (size_t c = 0; c < a->arrays[x].len; c++)
                CHECK_MSG(s->written[x][c] == u->written[x][c] && s->wrote[x][c] == u->wrote[x][c] &&
                              (!s->written[x][c] || s->cells[x][c].bits == u->cells[x][c].bits),
                          "step %zu array %zu cell %zu", k, x, c);
        for (size_t w = 0; w < s->nwrites && w < u->nwrites; w++)
            CHECK(same_access(&s->writes[w].at, &u->writes[w].at) &&
                  s->writes[w].first_read == u->writes[w].first_read &&
                  s->writes[w].nreads == u->writes[w].nreads);
        for (size_t r = 0; r < s->nreads && r < u->nreads; r++)
            CHECK(same_access(&s->reads[r], &u->reads[r]));
    }
    CHECK_INT(b->ncellruns, a->ncellruns);
    for (size_t k = 0; k < a->ncellruns && k < b->ncellruns; k++) {
        const sv_kcellruns *x = &a->cellruns[k], *y = &b->cellruns[k];
        CHECK(x->step == y->step && x->array == y->array && x->first == y->first &&
              x->round == y->round);
        CHECK(memcmp(x->wrong, y->wrong, a->n * sizeof *x->wrong) == 0);
        CHECK(memcmp(x->which, y->which, a->n * SV_KTRACE_CELL_RUNS * sizeof *x->which) == 0);
    }
    for (size_t h = 0; h < a->nhazards && h < b->nhazards; h++) {
        const sv_khazard *x = &a->hazards[h], *y = &b->hazards[h];
        CHECK(x->kind == y->kind && x->step == y->step && x->array == y->array &&
              x->cell == y->cell);
        CHECK(same_access(&x->first, &y->first) && same_access(&x->second, &y->second));
    }
}

static void test_round_trip(void)
{
    char err[512];
    sv_ktrace *t = full_trace();
    char *one = to_json(t);
    sv_ktrace *u = sv_ktrace_parse(one, err, sizeof err);
    CHECK_MSG(u, "%s", err);
    if (u) {
        same_ktrace(t, u);
        char *two = to_json(u);
        CHECK_STR(two, one);
        free(two);
        CHECK_INT(u->first_broken_step, 2);
    }
    save_sample(t, "in-place-deadlock");
    /* The chapter's reader refuses what is not the chapter's rounds, and
     * says what to do; the double buffer opens as a chapter trace. */
    CHECK(!sv_trace_parse(one, err, sizeof err));
    CHECK_CONTAINS(err, "of scan_race that is not the chapter's rounds in a double buffer (it "
                        "failed: deadlock)");
    free(one);
    sv_ktrace *d = kb_chapter(KB_DOUBLE, chapter_in, 8);
    analyze(d);
    one = to_json(d);
    sv_trace *c = sv_trace_parse(one, err, sizeof err);
    CHECK_MSG(c && c->output[7].i == 25 && c->nrounds == 4, "%s", err);
    sv_trace_destroy(c);
    free(one);
    sv_ktrace_destroy(d);
    sv_ktrace_destroy(u);
    sv_ktrace_destroy(t);
}

/* Edits one field of a written file (a JSON pointer-like path of object
 * keys and array indices, "steps.1.cells.0.3"), sets it to v (NULL:
 * removes it), and checks the reader's message. */
static void bad_edit(const char *path, const char *json, const char *want)
{
    char err[512], key[64];
    json_t *v = json ? json_loads(json, JSON_DECODE_ANY, NULL) : NULL;
    sv_ktrace *t = full_trace();
    char *text = to_json(t);
    json_t *root = json_loads(text, 0, NULL);
    json_t *parent = root, *cur = root;
    const char *p = path;
    while (*p) {
        size_t len = strcspn(p, ".");
        snprintf(key, sizeof key, "%.*s", (int)len, p);
        parent = cur;
        cur = json_is_array(parent) ? json_array_get(parent, (size_t)atol(key))
                                    : json_object_get(parent, key);
        p += len + (p[len] == '.');
    }
    if (json_is_array(parent))
        json_array_set_new(parent, (size_t)atol(key), v);
    else if (v)
        json_object_set_new(parent, key, v);
    else
        json_object_del(parent, key);
    char *edited = json_dumps(root, 0);
    sv_ktrace *u = sv_ktrace_parse(edited, err, sizeof err);
    if (u || strcmp(err, want) != 0)
        fprintf(stderr, "%s: edit %s: got \"%s\"\n  expected \"%s\"\n", __FILE__, path,
                u ? "(accepted)" : err, want);
    CHECK(!u && strcmp(err, want) == 0);
    sv_ktrace_destroy(u);
    free(edited);
    json_decref(root);
    free(text);
    sv_ktrace_destroy(t);
}

/* A run that did not fail lists every hazard below the limit. */
static void test_hazard_total(void)
{
    char err[512];
    sv_ktrace *t = full_trace();
    t->failure.kind = SV_KFAIL_NONE;
    t->hazards_total = 3;
    char *text = to_json(t);
    CHECK(!sv_ktrace_parse(text, err, sizeof err));
    CHECK_STR(err, "hazards_total: 3, but 2 hazards are listed (all are, below 10000, in a run "
                   "that did not fail)");
    free(text);
    sv_ktrace_destroy(t);
}

/* A small file cannot make the reader allocate without bound: 4096 empty
 * steps of 16 arrays of 65536 cells would be 4 G cells. */
static void test_cells_bound(void)
{
    char err[512];
    json_t *root = json_pack("{s:s, s:i, s:s, s:s, s:n, s:n, s:n, s:s, s:n, s:n, s:i, s:i, s:i, "
                             "s:i, s:s, s:s, s:s, s:i, s:[i]}",
                             "format", "scanviz-trace", "version", 3, "algorithm", "kernel",
                             "kernel", "k", "file", "entry", "source", "backend", "cpu", "device",
                             "schedule", "runs", 1, "shown_run", 0, "wrong_runs", 0, "switches",
                             0, "op", "sum", "type", "int32", "scan", "inclusive", "n", 1,
                             "input", 1);
    json_t *arrays = json_array(), *steps = json_array();
    for (int a = 0; a < 16; a++) {
        char name[8];
        snprintf(name, sizeof name, "a%d", a);
        json_array_append_new(arrays, json_pack("{s:s, s:s, s:i, s:i, s:b}", "name", name,
                                                "kind", "shared", "len", 65536, "rows", 1,
                                                "touched", 0));
    }
    for (int k = 0; k < 4096; k++)
        json_array_append_new(steps, json_pack("{s:i}", "barrier_line", 1));
    json_object_set_new(root, "arrays", arrays);
    json_object_set_new(root, "steps", steps);
    char *text = json_dumps(root, 0);
    CHECK(!sv_ktrace_parse(text, err, sizeof err));
    CHECK_STR(err, "steps: 4096 steps of 1048576 cells: more than the limit of 33554432 cells "
                   "in all");
    free(text);
    json_decref(root);
}

/* The JSON is counted before it is parsed: 300001 empty objects are
 * refused without building their tree. */
static void test_count_first(void)
{
    char err[512];
    size_t n = 300001, len = 3 * n + 2;
    char *text = malloc(len + 1);
    CHECK(text);
    if (!text)
        return;
    text[0] = '[';
    for (size_t i = 0; i < n; i++)
        memcpy(text + 1 + 3 * i, i + 1 < n ? "{}," : "{}]", 3);
    text[len - 1] = '\0';
    CHECK(!sv_ktrace_parse(text, err, sizeof err));
    CHECK_STR(err, "300001 JSON objects, more than the 262144 a trace may have (refused before "
                   "parsing)");
    free(text);
}

static void test_refusals(void)
{
    /* Each edit of a whole trace the reader must refuse: the field (dots go
     * into objects and arrays), its new value as JSON (NULL: removed) and the
     * reader's message. */
    static const struct {
        const char *path, *json, *want;
    } edits[] = {
        {"version", "4", "version: 4, expected 3 (a kernel trace)"},
        {"algorithm", "\"hillis-steele\"",
         "algorithm: expected \"kernel\" (version 3 holds kernel traces)"},
        {"kernel", NULL, "kernel: missing"},
        {"source", "1", "source: expected a string or null, got an integer"},
        {"n", "7", "input: 8 values, expected n = 7"},
        {"backend", "\"opencl\"", "backend: \"opencl\", expected \"cpu\" or \"cuda\""},
        {"arrays.0.rows", "3", "arrays[0].rows: 3 does not divide len = 8"},
        {"arrays.1.name", "\"s\"", "arrays[1]: a second array named \"s\" (arrays[0])"},
        {"steps.1.cells.1", "[99]",
         "steps[1].cells[1][0]: differs from the step before, but is not in wrote[1]"},
        {"steps.1.cells.0.5", "null",
         "steps[1].wrote[0][5]: cell 5 is written in this step, but cells[0][5] is null"},
        {"steps.2.cells.0.5", "null",
         "steps[2].wrote[0][5]: cell 5 is written in this step, but cells[0][5] is null"},
        {"steps.4.cells.0.5", "null",
         "steps[4].cells[0][5]: null, but the step before had written it"},
        {"steps.1.cells.0", "1",
         "steps[1].cells[0]: expected an array of at most len = 8 values, got an integer"},
        {"steps.1.cells.1", "[1, 2, 3, 4, 5, 6, 7, 8, 9]",
         "steps[1].cells[1]: expected an array of at most len = 8 values, got more"},
        {"steps.1.reads.0.thread", "8", "steps[1].reads[0].thread: 8 is out of range (0 to 7)"},
        {"steps.1.reads.0.array", "2",
         "steps[1].reads[0].array: expected an index into arrays (0 to 1) or \"in\""},
        {"steps.1.writes.0.nreads", "99",
         "steps[1].writes[0].nreads: 99 is out of range (0 to 15)"},
        {"steps.1.writes.0.thread", "2",
         "steps[1].writes[0]: reads[0] is thread 0's, not this write's thread 2"},
        {"hazards.0.kind", "\"RAR\"",
         "hazards[0].kind: \"RAR\", expected \"RAW\", \"WAR\" or \"WAW\""},
        {"hazards.0.cell", "8", "hazards[0].cell: 8 is out of range (0 to 7)"},
        /* The run failed: its last step, cut short, may hold hazards (step 5 of 5). */
        {"hazards.0.step", "6", "hazards[0].step: 6 is out of range (0 to 5)"},
        {"hazards_total", "1", "hazards_total: 1 is out of range (2 to 9223372036854775807)"},
        {"failure.kind", "\"none\"",
         "failure.kind: \"none\", expected \"compile\", \"signature\", \"include\", \"crash\", "
         "\"out-of-range\", \"deadlock\", \"time\", \"memory\", \"unavailable\", "
         "\"internal\", \"refused\" or \"syscall\""},
        {"failure.waits.0.count", "0", "failure.waits[0].count: 0 is out of range (1 to 8)"},
        {"output.2", "\"x\"", "output[2]: expected an integer or null"},
        /* The derived extras are checked against what the reader derives. */
        {"steps.1.reading.round", "1",
         "steps[1].reading.round: 1, but the reading of the cells gives 3"},
        {"steps.2.reading.broken.holds", "13",
         "steps[2].reading.broken.holds: 13, but the cells give 14"},
        {"steps.2.reading.broken.window", "[1, 2]",
         "steps[2].reading.broken.window: expected [0, 2] (the cells' first broken window)"},
        {"steps.2.reading.broken", "null",
         "steps[2].reading.broken: null, but the cells break the invariant"},
        {"steps.4.reading", "{}",
         "steps[4].reading: a reading, but the cells give none (no shared write in one row)"},
        {"first_wrong", "3", "first_wrong: 3, but the output against the scan gives 2"},
        {"expected.7", "24", "expected[7]: 24, but the sequential scan gives 25"},
        {"cell_runs.0.step", "9", "cell_runs[0].step: 9 is out of range (-1 to 4)"},
        {"cell_runs.0.cells.0.wrong", "13",
         "cell_runs[0].cells[0].wrong: 13 is out of range (1 to 12)"},
        {"cell_runs.0.cells.1.runs.3", "1",
         "cell_runs[0].cells[1].runs: [3]: expected a run index from 3 to 11, ascending"},
        {"verdict", "\"ok\"",
         "verdict: expected \"failed\" (from the output, hazards and failure)"},
    };
    for (size_t k = 0; k < sizeof edits / sizeof edits[0]; k++)
        bad_edit(edits[k].path, edits[k].json, edits[k].want);
}

static char *table_of(const sv_ktrace *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f);
    sv_ktrace_print_table(t, f, false, NULL);
    fclose(f);
    if (getenv("SV_SHOW_TABLES"))
        fputs(text, stdout);
    return text;
}

/* The table: the arrays of each step by their names, ? where never
 * written, the readings, the diagnosis in words, nothing raw from the file. */
static void test_table(void)
{
    sv_ktrace *t = kb_chapter(KB_DOUBLE, chapter_in, 8);
    analyze(t);
    char *text = table_of(t);
    CHECK_CONTAINS(text, "Step 1 · up to the barrier of line 11 · round 0: buf[0] holds the input");
    CHECK_CONTAINS(text, "  buf[1]          ?  ?  ?  ?  ?  ?  ?  ?\n");
    CHECK_CONTAINS(text, "  buf[1] pout     3  4  8  7  4  5  7  9\n  case            c  F  F  F");
    CHECK_CONTAINS(text, "  output: right (the inclusive scan of sum)");
    CHECK_CONTAINS(text, "  invariant: holds in every step read as a chapter round (4)");
    CHECK_CONTAINS(text, "  hazards: 0\n");
    free(text);
    sv_ktrace_destroy(t);

    t = full_trace();
    text = table_of(t);
    CHECK_CONTAINS(text, "  failure: deadlock: 7 threads from thread 1 wait at the barrier of line 15");
    CHECK_CONTAINS(text, "  invariant: broken first in step 3 (round 3): cell 2 holds 14; the window "
                         "[0, 2] sums to 11 (in s)");
    CHECK_CONTAINS(text, "  hazards: 2 (");
    CHECK_CONTAINS(text, "    step 2: thread 5 read s[4], thread 4 wrote it, lines 12 and 12 (RAW)");
    CHECK_CONTAINS(text, "  s pout          3  4 14 15 29 31 51 56\n  case            c  c  X\n");
    CHECK(!strchr(text, '\x1b'));
    free(text);
    CHECK(sv_ktrace_fail(t, SV_KFAIL_COMPILE, "k.cu(7): error: expected a \";\"\n\x1b[2Jk.cu(9): "
                         "note: here", 7, -1, NULL, 0));
    text = table_of(t);
    CHECK_CONTAINS(text, "  failure: does not compile: k.cu(7): error: expected a \";\"\n");
    CHECK_CONTAINS(text, "The compiler said:\n  k.cu(7): error: expected a \";\"\n  \\e[2Jk.cu(9): note: here\n");
    CHECK(!strchr(text, '\x1b'));
    free(text);
    sv_ktrace_destroy(t);
}

/* Trimming keeps a file within its budget: whole steps from the end go,
 * with their hazards, counted; what is left round-trips. */
static void test_trim(void)
{
    char err[512];
    sv_ktrace *t = full_trace();
    size_t before = t->nsteps;
    char *whole = to_json(t);
    CHECK(sv_ktrace_trim(t, strlen(whole) * 4) == 0 && t->nsteps == before);
    size_t dropped = sv_ktrace_trim(t, 7600);
    CHECK_MSG(dropped > 0 && dropped < before && t->nsteps == before - dropped &&
                  t->steps_dropped == dropped, "dropped %zu of %zu", dropped, before);
    for (size_t h = 0; h < t->nhazards; h++)
        CHECK(t->hazards[h].step < t->nsteps);
    analyze(t);
    char *text = to_json(t);
    CHECK(strlen(text) <= 7600);
    CHECK_CONTAINS(text, "\"steps_dropped\": ");
    sv_ktrace *u = sv_ktrace_parse(text, err, sizeof err);
    CHECK_MSG(u && u->steps_dropped == dropped && u->nsteps == t->nsteps, "%s", err);
    char *table = u ? table_of(u) : NULL;
    CHECK_CONTAINS(table, "later steps, left out to keep the trace file within its limit");
    free(table);
    sv_ktrace_destroy(u);
    free(text);
    free(whole);
    sv_ktrace_destroy(t);
}

/* Thousands of steps (an endless loop) print as the first 60 and the last 4. */
static void test_table_steps(void)
{
    char err[256];
    sv_value one = {.i = 1};
    sv_ktrace *t = sv_ktrace_create("loop", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, &one, 1,
                                    err, sizeof err);
    CHECK(t && sv_ktrace_add_array(t, "s", SV_KARRAY_SHARED, 1, 1, err, sizeof err) == 0);
    for (int k = 0; k < 100; k++) {
        sv_kstep *s = sv_ktrace_add_step(t, 7, err, sizeof err);
        CHECK(s);
        if (s)
            sv_kstep_set_cell(t, s, 0, 0, (sv_value){.i = k});
    }
    CHECK(sv_ktrace_fail(t, SV_KFAIL_TIME, "past 1000 ms", 0, -1, err, sizeof err));
    analyze(t);
    char *text = table_of(t);
    CHECK_CONTAINS(text, "Step 60 · ");
    CHECK(!strstr(text, "Step 61 · "));
    CHECK_CONTAINS(text, "... steps 61 to 96 not shown (--format json has every step)\n\nStep 97 · ");
    CHECK_CONTAINS(text, "Step 100 · ");
    CHECK_CONTAINS(text, "  failure: time limit: past 1000 ms\n");
    free(text);
    sv_ktrace_destroy(t);
}

int main(int argc, char **argv)
{
    corpus_dir = argc > 1 ? argv[1] : NULL;
    test_double_buffer();
    test_in_place();
    test_no_else();
    test_two_barriers();
    test_not_the_chapters();
    test_float_tolerance();
    test_words();
    test_round_trip();
    test_refusals();
    test_hazard_total();
    test_cells_bound();
    test_count_first();
    test_table();
    test_table_steps();
    test_trim();
    return check_report("ktrace: all checks passed");
}
