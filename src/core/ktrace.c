/* The kernel trace (ktrace.h): its names, its builders (the runtimes, the
 * file reader and the tests fill a trace through them) and its destruction.
 * Reading a trace against the chapter is ktrace_analyze.c, its words
 * ktrace_words.c, its file ktrace_file.c, its table ktrace_table.c. */
#include "ktrace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "free_all.h"
#include "names.h"

/* ---- Names ---------------------------------------------------------------- */

static const char *const fail_names[SV_KFAIL_COUNT] = {
    "none", "compile", "signature", "include", "crash", "out-of-range",
    "deadlock", "time", "memory", "unavailable", "internal", "refused", "syscall",
};
static const char *const hazard_names[] = {"RAW", "WAR", "WAW"};
static const char *const array_kind_names[] = {"shared", "out", "register", "global"};
static const char *const event_kind_names[] = {"step", "publish", "look", "wait"};

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* PREFIX_name(k): the name of kind k of enum T (NULL out of range), and
 * PREFIX_from_name(name, &k): the kind of a name (false: none), from the
 * table names. */
#define KIND_NAMES(T, PREFIX, names)                                                   \
    const char *PREFIX##_name(T k)                                                     \
    {                                                                                  \
        return (unsigned)k < COUNT(names) ? names[k] : NULL;                           \
    }                                                                                  \
    bool PREFIX##_from_name(const char *name, T *out)                                  \
    {                                                                                  \
        int i = SV_STRING_INDEX(name, names, COUNT(names));                            \
        if (i < 0)                                                                     \
            return false;                                                              \
        *out = (T)i;                                                                   \
        return true;                                                                   \
    }

KIND_NAMES(sv_kfail_kind, sv_kfail_kind, fail_names)
KIND_NAMES(sv_khazard_kind, sv_khazard_kind, hazard_names)
KIND_NAMES(sv_karray_kind, sv_karray_kind, array_kind_names)
KIND_NAMES(sv_kevent_kind, sv_kevent_kind, event_kind_names)

const sv_klaunch *sv_ktrace_launch_of(const sv_ktrace *t, size_t k)
{
    for (size_t i = 0; t && i < t->nlaunches; i++)
        if (t->launches[i].step == k)
            return &t->launches[i];
    return NULL;
}

/* "16", "(16, 3)" or "(16, 3, 2)": total, or dims past 1-D. */
static char *dims_words(uint32_t total, const uint32_t d[3], char *buf, size_t len)
{
    if (!sv_klaunch_multi(d))
        snprintf(buf, len, "%" PRIu32, total);
    else if (d[2] > 1)
        snprintf(buf, len, "(%" PRIu32 ", %" PRIu32 ", %" PRIu32 ")", d[0], d[1], d[2]);
    else
        snprintf(buf, len, "(%" PRIu32 ", %" PRIu32 ")", d[0], d[1]);
    return buf;
}

char *sv_klaunch_grid_words(const sv_klaunch *l, char *buf, size_t len)
{
    return dims_words(l->grid, l->dims, buf, len);
}

char *sv_klaunch_block_words(const sv_klaunch *l, char *buf, size_t len)
{
    return dims_words(l->block, l->block_dims, buf, len);
}

char *sv_ktrace_thread_name(const sv_ktrace *t, size_t k, uint32_t thread, char *buf, size_t len)
{
    const sv_klaunch *l = sv_ktrace_launch_of(t, k);
    if (l && l->block)
        snprintf(buf, len, "block %" PRIu32 " thread %" PRIu32, thread / l->block,
                 thread % l->block);
    else
        snprintf(buf, len, "thread %" PRIu32, thread);
    return buf;
}

/* ---- Growth ----------------------------------------------------------------
 * The lists grow by doubling at each power of two of their count, so no
 * capacity field is needed: with count elements, the block holds
 * max(1, next power of two >= count). */
static bool grow(void **items, size_t count, size_t size, char *err, size_t errlen)
{
    if (count != 0 && (count & (count - 1)) != 0)
        return true;
    size_t cap = count ? 2 * count : 1;
    void *p = realloc(*items, cap * size);
    if (!p) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    *items = p;
    return true;
}

/* ---- Create and destroy ------------------------------------------------------ */

sv_ktrace *sv_ktrace_create(const char *kernel, sv_op op, sv_type type, sv_scan scan,
                            const sv_value *input, size_t n, char *err, size_t errlen)
{
    if (!sv_count_valid(n, SV_MAX_N_BLOCKS, err, errlen) || !sv_op_valid(op, type, err, errlen))
        return NULL;
    sv_ktrace *t = malloc(sizeof *t);
    if (!t)
        goto oom;
    *t = (sv_ktrace){
        .op = op, .type = type, .scan = scan, .n = n, .runs = 1, .first_wrong = -1,
        .first_broken_step = -1,
        .failure = {.kind = SV_KFAIL_NONE, .thread = -1, .step = -1, .array = -1},
    };
    t->input = malloc(n * sizeof *t->input);
    t->output = calloc(n, sizeof *t->output);
    t->output_written = calloc(n, sizeof *t->output_written);
    if (!t->input || !t->output || !t->output_written ||
        !sv_ktrace_set_text(&t->kernel, kernel ? kernel : "kernel", err, errlen)) {
        sv_ktrace_destroy(t);
        goto oom;
    }
    memcpy(t->input, input, n * sizeof *t->input);
    return t;
oom:
    sv_errorf(err, errlen, "out of memory");
    return NULL;
}

void sv_kstep_clear(sv_kstep *s, size_t narrays)
{
    for (size_t a = 0; a < narrays; a++) {
        if (s->cells)
            free(s->cells[a]);
        if (s->written)
            free(s->written[a]);
        if (s->wrote)
            free(s->wrote[a]);
    }
    SV_FREE_ALL(s->cells, s->written, s->wrote, s->writes, s->reads);
    memset(s, 0, sizeof *s);
}

/* What sv_ktrace_analyze derived (ktrace_analyze.c), freed here so that
 * the model needs nothing above it. */
void sv_ktrace_unanalyze(sv_ktrace *t)
{
    free(t->one_buffer);
    t->one_buffer = NULL;
    t->one_buffer_n = 0;
    free(t->regrounds);
    t->regrounds = NULL;
    free(t->readings);
    free(t->expected);
    free(t->cell_wrong);
    free(t->output_wrong);
    t->readings = NULL;
    t->reading = NULL;
    t->expected = NULL;
    t->cell_wrong = NULL;
    t->output_wrong = NULL;
}

void sv_ktrace_destroy(sv_ktrace *t)
{
    if (!t)
        return;
    SV_FREE_ALL(t->kernel, t->file, t->entry, t->source, t->input, t->device, t->schedule,
                t->sandbox, t->console);
    for (size_t i = 0; i < t->nprints; i++)
        free(t->prints[i].text);
    free(t->prints);
    for (size_t i = 0; i < t->nlaunches; i++)
        free(t->launches[i].kernel);
    free(t->launches);
    free(t->tiles);
    free(t->events);
    free(t->plan);
    free(t->banks);
    free(t->bankcells);
    for (size_t s = 0; s < t->nsteps; s++)
        sv_kstep_clear(&t->steps[s], t->narrays);
    free(t->steps);
    for (size_t a = 0; a < t->narrays; a++)
        free(t->arrays[a].name);
    SV_FREE_ALL(t->arrays, t->output, t->output_written, t->hazards, t->failure.message,
                t->failure.waits);
    sv_ktrace_unanalyze(t);
    sv_ktrace_cellruns_clear(t);
    free(t);
}

/* ---- Cell runs -------------------------------------------------------------- */

void sv_ktrace_cellruns_clear(sv_ktrace *t)
{
    for (size_t k = 0; k < t->ncellruns; k++) {
        free(t->cellruns[k].wrong);
        free(t->cellruns[k].which);
    }
    free(t->cellruns);
    t->cellruns = NULL;
    t->ncellruns = 0;
}

sv_kcellruns *sv_ktrace_add_cellruns(sv_ktrace *t, int32_t step, uint32_t array, uint32_t first,
                                     int32_t round, char *err, size_t errlen)
{
    if (t->ncellruns >= SV_KTRACE_MAX_CELLRUNS) {
        sv_errorf(err, errlen, "more than %d rows of cell runs", SV_KTRACE_MAX_CELLRUNS);
        return NULL;
    }
    sv_kcellruns *grown = realloc(t->cellruns, (t->ncellruns + 1) * sizeof *grown);
    if (!grown) {
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    t->cellruns = grown;
    sv_kcellruns *c = &grown[t->ncellruns];
    memset(c, 0, sizeof *c);
    c->step = step;
    c->array = array;
    c->first = first;
    c->round = round;
    c->wrong = calloc(t->n, sizeof *c->wrong);
    c->which = malloc(t->n * SV_KTRACE_CELL_RUNS * sizeof *c->which);
    if (!c->wrong || !c->which) {
        free(c->wrong);
        free(c->which);
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < t->n * SV_KTRACE_CELL_RUNS; i++)
        c->which[i] = SV_KTRACE_NO_RUN;
    t->ncellruns++;
    return c;
}

void sv_kcellruns_count(sv_kcellruns *c, uint32_t i, uint32_t run)
{
    if (c->wrong[i] < SV_KTRACE_CELL_RUNS)
        c->which[(size_t)i * SV_KTRACE_CELL_RUNS + c->wrong[i]] = run;
    c->wrong[i]++;
}

const sv_kcellruns *sv_ktrace_cellruns_at(const sv_ktrace *t, int32_t step, uint32_t array,
                                          uint32_t cell, uint32_t *i)
{
    for (size_t k = 0; t && k < t->ncellruns; k++) {
        const sv_kcellruns *c = &t->cellruns[k];
        if (c->step == step && c->array == array && cell >= c->first && cell - c->first < t->n) {
            if (i)
                *i = cell - c->first;
            return c;
        }
    }
    return NULL;
}

/* ---- Builders ---------------------------------------------------------------- */

bool sv_ktrace_set_text(char **field, const char *s, char *err, size_t errlen)
{
    char *copy = NULL;
    if (s && !(copy = strdup(s))) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    free(*field);
    *field = copy;
    return true;
}

int sv_ktrace_add_array(sv_ktrace *t, const char *name, sv_karray_kind kind, uint32_t len,
                        uint32_t rows, char *err, size_t errlen)
{
    if (t->nsteps > 0) {
        sv_errorf(err, errlen, "array \"%s\" added after the first step", name);
        return -1;
    }
    if (t->narrays >= SV_KTRACE_MAX_ARRAYS) {
        sv_errorf(err, errlen, "more than %d arrays", SV_KTRACE_MAX_ARRAYS);
        return -1;
    }
    if (len == 0 || len > sv_karray_max_len(kind) || rows == 0 || len % rows != 0) {
        sv_errorf(err, errlen, "array \"%s\": %u cells in %u rows (1 to %u cells, rows "
                  "dividing them)", name, (unsigned)len, (unsigned)rows,
                  (unsigned)sv_karray_max_len(kind));
        return -1;
    }
    if (!grow((void **)&t->arrays, t->narrays, sizeof *t->arrays, err, errlen))
        return -1;
    sv_karray *a = &t->arrays[t->narrays];
    memset(a, 0, sizeof *a);
    if (!sv_ktrace_set_text(&a->name, name, err, errlen))
        return -1;
    a->kind = kind;
    a->len = len;
    a->rows = rows;
    return (int)t->narrays++;
}

sv_kstep *sv_ktrace_add_step(sv_ktrace *t, int32_t barrier_line, char *err, size_t errlen)
{
    if (t->nsteps >= SV_KTRACE_MAX_STEPS) {
        sv_errorf(err, errlen, "more than %d steps", SV_KTRACE_MAX_STEPS);
        return NULL;
    }
    if (!grow((void **)&t->steps, t->nsteps, sizeof *t->steps, err, errlen))
        return NULL;
    sv_kstep *s = &t->steps[t->nsteps];
    const sv_kstep *prev = t->nsteps ? &t->steps[t->nsteps - 1] : NULL;
    memset(s, 0, sizeof *s);
    s->barrier_line = barrier_line;
    size_t na = t->narrays ? t->narrays : 1;
    s->cells = calloc(na, sizeof *s->cells);
    s->written = calloc(na, sizeof *s->written);
    s->wrote = calloc(na, sizeof *s->wrote);
    bool ok = s->cells && s->written && s->wrote;
    for (size_t a = 0; ok && a < t->narrays; a++) {
        size_t len = t->arrays[a].len;
        s->cells[a] = calloc(len, sizeof **s->cells);
        s->written[a] = calloc(len, sizeof **s->written);
        s->wrote[a] = calloc(len, sizeof **s->wrote);
        ok = s->cells[a] && s->written[a] && s->wrote[a];
        if (ok && prev) {
            memcpy(s->cells[a], prev->cells[a], len * sizeof **s->cells);
            memcpy(s->written[a], prev->written[a], len * sizeof **s->written);
        }
    }
    if (!ok) {
        sv_kstep_clear(s, t->narrays);
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    t->nsteps++;
    return s;
}

void sv_kstep_set_cell(sv_ktrace *t, sv_kstep *s, uint32_t a, uint32_t cell, sv_value v)
{
    if (a >= t->narrays || cell >= t->arrays[a].len)
        return;
    s->cells[a][cell] = v;
    s->written[a][cell] = true;
    s->wrote[a][cell] = true;
    t->arrays[a].touched = true;
}

bool sv_kstep_add_read(sv_ktrace *t, sv_kstep *s, const sv_kaccess *read, char *err,
                       size_t errlen)
{
    if (!grow((void **)&s->reads, s->nreads, sizeof *s->reads, err, errlen))
        return false;
    s->reads[s->nreads++] = *read;
    if (read->array < t->narrays)
        t->arrays[read->array].touched = true;
    return true;
}

bool sv_kstep_add_write(sv_ktrace *t, sv_kstep *s, const sv_kaccess *write, uint32_t first_read,
                        uint32_t nreads, char *err, size_t errlen)
{
    if ((size_t)first_read + nreads > s->nreads) {
        sv_errorf(err, errlen, "a write's reads %u .. %u past the step's %zu reads",
                  (unsigned)first_read, (unsigned)(first_read + nreads), s->nreads);
        return false;
    }
    if (!grow((void **)&s->writes, s->nwrites, sizeof *s->writes, err, errlen))
        return false;
    sv_kwrite *w = &s->writes[s->nwrites++];
    w->at = *write;
    w->first_read = first_read;
    w->nreads = nreads;
    if (write->array != SV_KARRAY_IN)
        sv_kstep_set_cell(t, s, write->array, write->cell, write->value);
    return true;
}

bool sv_ktrace_add_hazard(sv_ktrace *t, const sv_khazard *h, char *err, size_t errlen)
{
    t->hazards_total++;
    if (t->nhazards >= SV_KTRACE_MAX_HAZARDS)
        return true;
    if (!grow((void **)&t->hazards, t->nhazards, sizeof *t->hazards, err, errlen))
        return false;
    t->hazards[t->nhazards++] = *h;
    return true;
}

bool sv_ktrace_fail(sv_ktrace *t, sv_kfail_kind kind, const char *message, int32_t line,
                    int32_t thread, char *err, size_t errlen)
{
    if (!sv_ktrace_set_text(&t->failure.message, message, err, errlen))
        return false;
    t->failure.kind = kind;
    t->failure.line = line;
    t->failure.thread = thread;
    return true;
}

bool sv_ktrace_add_wait(sv_ktrace *t, int32_t line, uint32_t count, uint32_t first_thread,
                        char *err, size_t errlen)
{
    sv_kfailure *f = &t->failure;
    if (!grow((void **)&f->waits, f->nwaits, sizeof *f->waits, err, errlen))
        return false;
    f->waits[f->nwaits++] = (sv_kwait){.line = line, .count = count, .first_thread = first_thread};
    return true;
}

bool sv_ktrace_add_print(sv_ktrace *t, uint32_t thread, uint32_t step, int32_t line,
                         const char *text, char *err, size_t errlen)
{
    if (t->nprints >= SV_KTRACE_MAX_PRINTS) {
        t->prints_dropped++;
        return true;
    }
    char *copy = NULL;
    if (!sv_ktrace_set_text(&copy, text ? text : "", err, errlen) ||
        !grow((void **)&t->prints, t->nprints, sizeof *t->prints, err, errlen)) {
        free(copy);
        return false;
    }
    t->prints[t->nprints++] = (sv_kprint){.thread = thread, .step = step, .line = line,
                                          .text = copy};
    return true;
}

static int print_cmp(const void *pa, const void *pb)
{
    const sv_kprint *a = pa, *b = pb;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    return 0;
}

void sv_ktrace_sort_prints(sv_ktrace *t)
{
    /* a stable order (qsort is not): insertion by (step, thread), each
     * thread's own calls kept in the order it made them */
    for (size_t i = 1; i < t->nprints; i++) {
        sv_kprint p = t->prints[i];
        size_t j = i;
        for (; j > 0 && print_cmp(&t->prints[j - 1], &p) > 0; j--)
            t->prints[j] = t->prints[j - 1];
        t->prints[j] = p;
    }
}

void sv_ktrace_set_output(sv_ktrace *t, size_t i, sv_value v)
{
    if (i >= t->n)
        return;
    t->output[i] = v;
    t->output_written[i] = true;
}

/* At least what step s takes in the trace file: a value up to 8 bytes, a
 * read 85 and a write 115 (their objects, one per line, at n = 1024). */
static size_t step_bytes(const sv_ktrace *t, const sv_kstep *s)
{
    size_t b = 300;
    for (size_t a = 0; a < t->narrays; a++)
        for (size_t c = 0; c < t->arrays[a].len; c++)
            b += s->written[a][c] ? 8 + (s->wrote[a][c] ? 6 : 0) : 0;
    return b + 85 * s->nreads + 115 * s->nwrites;
}

size_t sv_ktrace_trim(sv_ktrace *t, size_t max_bytes)
{
    size_t used = 4096 + t->n * 30 + 160 * t->nhazards + 100 * t->nbankcells +
                  120 * t->ntiles + 130 * t->nevents + (t->source ? 2 * strlen(t->source) : 0);
    for (size_t k = 0; k < t->ncellruns; k++) {
        used += 64;
        for (size_t i = 0; i < t->n; i++)
            if (t->cellruns[k].wrong[i])
                used += 44 + 8 * (t->cellruns[k].wrong[i] < SV_KTRACE_CELL_RUNS
                                      ? t->cellruns[k].wrong[i] : SV_KTRACE_CELL_RUNS);
    }
    size_t keep = 0;
    while (keep < t->nsteps) {
        size_t b = step_bytes(t, &t->steps[keep]);
        if (used + b > max_bytes)
            break;
        used += b;
        keep++;
    }
    size_t dropped = t->nsteps - keep;
    if (dropped == 0)
        return 0;
    for (size_t k = keep; k < t->nsteps; k++)
        sv_kstep_clear(&t->steps[k], t->narrays);
    t->nsteps = keep;
    t->steps_dropped += (uint32_t)dropped;
    size_t h = 0;
    for (size_t i = 0; i < t->nhazards; i++)
        if (t->hazards[i].step < keep)
            t->hazards[h++] = t->hazards[i];
    t->nhazards = h;
    size_t bc = 0;
    for (size_t i = 0; i < t->nbankcells; i++)
        if (t->bankcells[i].step < keep)
            t->bankcells[bc++] = t->bankcells[i];
    t->nbankcells = bc;
    size_t c = 0;
    for (size_t i = 0; i < t->ncellruns; i++) {
        if (t->cellruns[i].step < (int32_t)keep) {
            t->cellruns[c++] = t->cellruns[i];
        } else {
            free(t->cellruns[i].wrong);
            free(t->cellruns[i].which);
        }
    }
    t->ncellruns = c;
    /* the launches whose steps went, with their tiles and the tiles' events
     * (tiles are by launch, events by tile: what stays is a prefix) */
    size_t l = 0;
    while (l < t->nlaunches && t->launches[l].step < keep)
        l++;
    for (size_t i = l; i < t->nlaunches; i++)
        free(t->launches[i].kernel);
    t->nlaunches = l;
    size_t tk = 0;
    while (tk < t->ntiles && t->tiles[tk].launch < l)
        tk++;
    t->ntiles = tk;
    size_t ek = 0;
    while (ek < t->nevents && t->events[ek].tile < tk)
        ek++;
    t->nevents = ek;
    return dropped;
}

sv_kverdict sv_ktrace_verdict(const sv_ktrace *t)
{
    switch (t->failure.kind) {
    case SV_KFAIL_NONE:
        return t->first_wrong >= 0 || t->hazards_total > 0 || t->wrong_runs > 0
                   ? SV_KVERDICT_WRONG : SV_KVERDICT_OK;
    case SV_KFAIL_COMPILE:
    case SV_KFAIL_SIGNATURE:
    case SV_KFAIL_INCLUDE:
    case SV_KFAIL_REFUSED:
        return SV_KVERDICT_REFUSED;
    case SV_KFAIL_UNAVAILABLE:
        return SV_KVERDICT_UNAVAILABLE;
    case SV_KFAIL_INTERNAL:
    case SV_KFAIL_COUNT:
        return SV_KVERDICT_INTERNAL;
    default:
        return SV_KVERDICT_FAILED;
    }
}

/* ---- Validation -------------------------------------------------------------- */

#define VALID_TEXT (64u * 1024)

static bool text_ok(const char *s)
{
    return !s || strnlen(s, VALID_TEXT + 1) <= VALID_TEXT;
}

static bool access_ok(const sv_ktrace *t, const sv_kaccess *a, bool in_ok)
{
    if (a->thread >= t->n || a->line < 0)
        return false;
    if (a->array == SV_KARRAY_IN)
        return in_ok && a->cell < t->n;
    return a->array < t->narrays && a->cell < t->arrays[a->array].len;
}

#define BAD(...) return sv_errorf(err, errlen, __VA_ARGS__), false
bool sv_ktrace_validate_tiles(const sv_ktrace *t, char *err, size_t errlen)
{
    if (t->ntiles > SV_KTRACE_MAX_TILES || (t->ntiles && (!t->tiles || !t->nlaunches)))
        BAD("%zu tiles (at most %d, and only with launches)", t->ntiles, SV_KTRACE_MAX_TILES);
    for (size_t i = 0; i < t->ntiles; i++) {
        const sv_ktile *x = &t->tiles[i], *p = i ? &t->tiles[i - 1] : NULL;
        if (x->launch >= t->nlaunches || x->block >= t->launches[x->launch].grid ||
            (p && (x->launch < p->launch || (x->launch == p->launch && x->block <= p->block))))
            BAD("tiles[%zu]: launch or block out of range or order", i);
        if (x->start == SV_KTRACE_NO_TIME ||
            (x->end != SV_KTRACE_NO_TIME && x->end < x->start) ||
            x->out_lo < -1 || x->out_hi < x->out_lo || x->out_hi >= (int64_t)t->n ||
            (x->out_lo < 0) != (x->out_hi < 0))
            BAD("tiles[%zu]: start, end or out cells out of range", i);
    }
    if (t->nevents > SV_KTRACE_MAX_EVENTS || (t->nevents && (!t->events || !t->ntiles)))
        BAD("%zu tile events (at most %d, and only with tiles)", t->nevents,
            SV_KTRACE_MAX_EVENTS);
    for (size_t i = 0; i < t->nevents; i++) {
        const sv_kevent *e = &t->events[i], *p = i ? &t->events[i - 1] : NULL;
        if ((unsigned)e->kind >= SV_KEVENT_COUNT || e->tile >= t->ntiles ||
            (p && (e->tile < p->tile || (e->tile == p->tile && e->time < p->time))))
            BAD("events[%zu]: kind or tile out of range, or out of order", i);
        const sv_ktile *x = &t->tiles[e->tile];
        const sv_klaunch *l = &t->launches[x->launch];
        if (e->time < x->start || (x->end != SV_KTRACE_NO_TIME && e->time > x->end) ||
            e->thread >= l->block || e->line < 0)
            BAD("events[%zu]: time, thread or line out of its tile's range", i);
        if (e->kind != SV_KEVENT_STEP &&
            (e->array == SV_KARRAY_IN ? e->cell >= t->n
                                      : e->array >= t->narrays ||
                                            e->cell >= t->arrays[e->array].len))
            BAD("events[%zu]: array or cell out of range", i);
        if ((e->kind == SV_KEVENT_LOOK && (e->other >= t->ntiles || e->other == e->tile ||
                                           t->tiles[e->other].launch != x->launch ||
                                           e->other_time > e->time)) ||
            (e->kind == SV_KEVENT_WAIT && e->other != SV_KTRACE_NO_TILE &&
             (e->other >= t->ntiles || t->tiles[e->other].launch != x->launch)))
            BAD("events[%zu]: the tile it read is not another tile of its launch, or wrote "
                "after the read", i);
    }
    return true;
}

bool sv_ktrace_validate(const sv_ktrace *t, char *err, size_t errlen)
{
    if (!t || t->n < 1 || t->n > SV_MAX_N_BLOCKS || !t->input || !t->output || !t->output_written)
        BAD("the trace has no input or output");
    if (!text_ok(t->entry) || !text_ok(t->kernel) || !text_ok(t->file) || !text_ok(t->device) ||
        !text_ok(t->schedule) || !text_ok(t->failure.message) || !text_ok(t->sandbox) ||
        !text_ok(t->console) || !text_ok(t->plan))
        BAD("a text of the trace is longer than 64 KiB");
    if (t->nbanks > SV_KTRACE_MAX_BANK_LINES || (t->nbanks && (!t->banks || !t->banks_counted)))
        BAD("%zu bank conflict entries", t->nbanks);
    for (size_t i = 0; i < t->nbanks; i++) {
        const sv_kbank *b = &t->banks[i];
        if (b->step > SV_KTRACE_MAX_STEPS || b->line < 0 || b->loads > t->bank_loads ||
            b->stores > t->bank_stores || (i > 0 && (b->step < t->banks[i - 1].step ||
                                                      (b->step == t->banks[i - 1].step &&
                                                       b->line <= t->banks[i - 1].line))))
            BAD("bank_conflicts[%zu]: step, line or counts out of range or order", i);
    }
    if (t->nbankcells > SV_KTRACE_MAX_BANK_CELLS ||
        (t->nbankcells && (!t->bankcells || !t->banks_counted)))
        BAD("%zu colliding cells", t->nbankcells);
    for (size_t i = 0; i < t->nbankcells; i++) {
        const sv_kbankcell *b = &t->bankcells[i], *p = i ? &t->bankcells[i - 1] : NULL;
        if (b->step > SV_KTRACE_MAX_STEPS || b->array >= t->narrays ||
            t->arrays[b->array].kind != SV_KARRAY_SHARED || b->cell >= t->arrays[b->array].len ||
            b->ways < 2 || b->ways > 32 || b->line < 0 || b->warp > SV_MAX_N / 32 ||
            (p && (b->step < p->step ||
                   (b->step == p->step && (b->array < p->array ||
                                           (b->array == p->array && b->cell <= p->cell))))))
            BAD("bank_conflicts.cells[%zu]: step, array, cell, ways or line out of range or "
                "order", i);
    }
    if (t->nprints > SV_KTRACE_MAX_PRINTS || (t->nprints && !t->prints))
        BAD("%zu printf calls (at most %d are kept)", t->nprints, SV_KTRACE_MAX_PRINTS);
    for (size_t i = 0; i < t->nprints; i++) {
        const sv_kprint *p = &t->prints[i];
        if (p->thread >= t->n || p->step > SV_KTRACE_MAX_STEPS || p->line < 0 || !p->text ||
            strlen(p->text) > 4 * SV_KTRACE_MAX_PRINT + 8)
            BAD("printf[%zu]: thread, step, line or text out of range", i);
    }
    if (t->nlaunches > SV_KTRACE_MAX_LAUNCHES || (t->nlaunches && !t->launches))
        BAD("%zu launches (at most %d)", t->nlaunches, SV_KTRACE_MAX_LAUNCHES);
    for (size_t i = 0; i < t->nlaunches; i++) {
        const sv_klaunch *l = &t->launches[i];
        if (!l->kernel || !l->kernel[0] || strlen(l->kernel) > 256 || l->grid < 1 ||
            l->grid > (1u << 26) || l->block < 1 || l->block > 1024 || l->shared > 49152 ||
            l->line < 0 || l->step >= t->nsteps || (i && l->step <= t->launches[i - 1].step))
            BAD("launches[%zu]: kernel, grid, block, shared, line or step out of range", i);
        if (sv_klaunch_multi(l->dims) &&
            (l->dims[0] < 1 || l->dims[1] < 1 || l->dims[2] < 1 || l->dims[1] > 65535 ||
             l->dims[2] > 65535 ||
             (uint64_t)l->dims[0] * l->dims[1] * l->dims[2] != l->grid))
            BAD("launches[%zu]: grid_dims are not the grid's %" PRIu32 " blocks", i, l->grid);
        if (sv_klaunch_multi(l->block_dims) && !sv_klaunch_block_dims_ok(l->block_dims, l->block))
            BAD("launches[%zu]: block_dims are not the block's %" PRIu32 " threads", i, l->block);
        for (const char *c = l->kernel; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                  (*c >= '0' && *c <= '9') || *c == '_'))
                BAD("launches[%zu]: a kernel's name is an identifier", i);
    }
    if (!sv_ktrace_validate_tiles(t, err, errlen))
        return false;
    if (t->runs < 1 || t->shown_run >= t->runs || t->wrong_runs > t->runs)
        BAD("runs %u, shown run %u, wrong runs %u do not hold together", t->runs, t->shown_run,
            t->wrong_runs);
    if (t->narrays > SV_KTRACE_MAX_ARRAYS || (t->narrays && !t->arrays))
        BAD("%zu arrays", t->narrays);
    size_t outs = 0;
    uint64_t cells = 0;
    for (size_t a = 0; a < t->narrays; a++) {
        const sv_karray *k = &t->arrays[a];
        if (!k->name || !k->name[0] || strlen(k->name) > 256)
            BAD("arrays[%zu]: no name", a);
        if ((unsigned)k->kind > SV_KARRAY_GLOBAL || k->len < 1 ||
            k->len > sv_karray_max_len(k->kind) ||
            k->rows < 1 || k->len % k->rows != 0)
            BAD("arrays[%zu]: kind, len or rows out of range", a);
        if (k->kind == SV_KARRAY_OUT && (++outs > 1 || k->len != t->n))
            BAD("arrays[%zu]: a second out[] or one of %u cells for n = %zu", a, k->len, t->n);
        if (k->kind == SV_KARRAY_REG && (uint64_t)k->rows * t->n != k->len)
            BAD("arrays[%zu]: registers of %u rows of %zu lanes, not %u cells", a, k->rows, t->n,
                k->len);
        for (size_t b = 0; b < a; b++)
            if (strcmp(t->arrays[b].name, k->name) == 0)
                BAD("arrays[%zu]: the name of arrays[%zu] again", a, b);
        cells += k->len;
    }
    if (t->nsteps > SV_KTRACE_MAX_STEPS || (t->nsteps && !t->steps) ||
        (uint64_t)t->nsteps * cells > SV_KTRACE_MAX_TOTAL_CELLS)
        BAD("%zu steps of %llu cells", t->nsteps, (unsigned long long)cells);
    for (size_t k = 0; k < t->nsteps; k++) {
        const sv_kstep *s = &t->steps[k];
        if (s->barrier_line < 0 || !s->cells || !s->written || !s->wrote)
            BAD("steps[%zu]: no cells or a negative line", k);
        for (size_t a = 0; a < t->narrays; a++) {
            if (!s->cells[a] || !s->written[a] || !s->wrote[a])
                BAD("steps[%zu]: no cells of arrays[%zu]", k, a);
            for (uint32_t c = 0; c < t->arrays[a].len; c++)
                if (s->wrote[a][c] && !s->written[a][c])
                    BAD("steps[%zu]: arrays[%zu][%u] wrote but not written", k, a, c);
        }
        if ((s->nwrites && !s->writes) || (s->nreads && !s->reads))
            BAD("steps[%zu]: accesses missing", k);
        for (size_t w = 0; w < s->nwrites; w++) {
            const sv_kwrite *x = &s->writes[w];
            if (!access_ok(t, &x->at, false) ||
                (uint64_t)x->first_read + x->nreads > s->nreads)
                BAD("steps[%zu].writes[%zu]: out of range", k, w);
        }
        for (size_t r = 0; r < s->nreads; r++)
            if (!access_ok(t, &s->reads[r], true))
                BAD("steps[%zu].reads[%zu]: out of range", k, r);
    }
    if (t->nhazards > SV_KTRACE_MAX_HAZARDS || t->nhazards > t->hazards_total ||
        (t->nhazards && !t->hazards))
        BAD("%zu hazards of %llu", t->nhazards, (unsigned long long)t->hazards_total);
    for (size_t h = 0; h < t->nhazards; h++) {
        const sv_khazard *z = &t->hazards[h];
        if ((unsigned)z->kind > SV_KHAZARD_WAW || z->step > t->nsteps ||
            z->array >= t->narrays || z->cell >= t->arrays[z->array].len ||
            !access_ok(t, &z->first, false) || !access_ok(t, &z->second, false))
            BAD("hazards[%zu]: out of range", h);
    }
    const sv_kfailure *f = &t->failure;
    /* (its step may be past the last recorded: a runtime stops recording
     * steps at its limit and goes on counting them) */
    if ((unsigned)f->kind >= SV_KFAIL_COUNT || f->line < 0 || f->thread < -1 ||
        (f->thread >= 0 && (size_t)f->thread >= t->n) || f->step < -1 ||
        (f->array < -1 && f->array != (int32_t)SV_KARRAY_IN) ||
        (f->array >= 0 && f->array != (int32_t)SV_KARRAY_IN && (size_t)f->array >= t->narrays) ||
        f->nwaits > t->n + 1 || (f->nwaits && !f->waits))
        BAD("the failure's fields are out of range (kind %d, line %d, thread %d, step %d, array "
            "%d, %zu waits)", (int)f->kind, (int)f->line, (int)f->thread, (int)f->step,
            (int)f->array, f->nwaits);
    for (size_t k = 0; k < f->nwaits; k++)
        if (f->waits[k].line < 0 || f->waits[k].count > t->n || f->waits[k].first_thread >= t->n)
            BAD("failure.waits[%zu]: out of range", k);
    if (t->ncellruns > SV_KTRACE_MAX_CELLRUNS || (t->ncellruns && !t->cellruns))
        BAD("%zu cell-runs rows", t->ncellruns);
    for (size_t k = 0; k < t->ncellruns; k++) {
        const sv_kcellruns *c = &t->cellruns[k];
        if (c->step < -1 || (c->step >= 0 && (size_t)c->step >= t->nsteps) ||
            c->array >= t->narrays || c->first > t->arrays[c->array].len ||
            t->arrays[c->array].len - c->first < t->n || !c->wrong || !c->which)
            BAD("cellruns[%zu]: out of range", k);
        for (size_t i = 0; i < t->n; i++)
            if (c->wrong[i] > t->runs)
                BAD("cellruns[%zu]: a cell wrong in more runs than ran", k);
    }
    return true;
#undef BAD
}
