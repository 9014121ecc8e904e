/* The mistakes lab's emulated runs (each kernel's own code on the CPU
 * runtime, read as rounds by lab_ktrace.c): every kernel under every
 * schedule, on the chapter's example and on seeded random inputs, against
 * references written here round by round (not through the runtime): the
 * deterministic schedules exactly, the seeded ones through properties every
 * interleaving must have (each read saw a value some thread really wrote;
 * each thread's cell is the operation on what it read; a warp hides the
 * race; a seed replays). Also the schedule names, the captions and the
 * summary of many runs. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"
#include "capture.h"
#include "lab.h"
#include "racecheck.h"
#include "trace_file.h"
#include "parse.h"
#include "trace.h"

/* ---- The reference ------------------------------------------------------ */

/* Own cells after every round, [round][buf][i]: what a dump records. */
typedef struct ref {
    size_t n, nrounds;
    sv_value *v;  /* [(r * 2 + b) * n + i] */
    bool *known;
} ref;

static size_t at(const ref *R, size_t r, int b, size_t i)
{
    return (r * 2 + (size_t)b) * R->n + i;
}

typedef struct rcell {
    sv_value v;
    bool known;
} rcell;

static rcell apply(sv_op op, sv_type type, rcell a, rcell b)
{
    rcell c = {{.bits = 0}, a.known && b.known};
    if (c.known)
        c.v = sv_op_apply(op, type, a.v, b.v, NULL);
    return c;
}

/* Whether thread i takes the add at stride s (no guard: always). */
static bool takes(const sv_kernel_info *k, size_t s, size_t i)
{
    return !k->guard || i >= s + (size_t)k->guard_offset;
}

/* pin[i - s] in memory b: unknown when i < s, out of range (no guard). */
static rcell left(rcell *b, size_t s, size_t i)
{
    return i >= s ? b[i - s] : (rcell){{.bits = 0}, false};
}

/* What thread i does in round r on the memory m (one buffer: pin == pout). */
/* Whether the else branch copies: in the one-buffer kernels it is buf[i] =
 * buf[i], which the compiled kernel leaves out (no access at all). */
static bool copies(const sv_kernel_info *k)
{
    return k->has_else && k->double_buffer;
}

static void thread_round(const sv_kernel_info *k, sv_op op, sv_type type, rcell *m[2], int pin,
                         int pout, size_t s, size_t i)
{
    if (takes(k, s, i))
        m[pout][i] = apply(op, type, left(m[pin], s, i), k->self_from_pout ? m[pout][i] : m[pin][i]);
    else if (k->has_else)
        m[pout][i] = m[pin][i];
}

static void snap(ref *R, size_t r, rcell *m[2], size_t i)
{
    for (int b = 0; b < 2; b++) {
        R->v[at(R, r, b, i)] = m[b][i].v;
        R->known[at(R, r, b, i)] = m[b][i].known;
    }
}

/* The reference for lockstep, sequential and reverse. */
static bool reference(sv_kernel kid, sv_schedule_kind sched, sv_op op, sv_type type,
                      const sv_value *in, size_t n, ref *R)
{
    const sv_kernel_info *k = sv_kernel_get(kid);
    R->n = n;
    R->nrounds = sv_round_count(n);
    R->v = calloc(R->nrounds * 2 * n, sizeof(sv_value));
    R->known = calloc(R->nrounds * 2 * n, sizeof(bool));
    rcell *m[2] = {calloc(n, sizeof(rcell)), calloc(n, sizeof(rcell))};
    rcell *tmp = calloc(n, sizeof(rcell));
    if (!R->v || !R->known || !m[0] || !m[1] || !tmp)
        return false;
    for (size_t i = 0; i < n; i++) {
        m[0][i] = (rcell){in[i], true};
        snap(R, 0, m, i);
    }
    if (!k->guard) {
        /* No guard: thread 0's read of pin[-1] in round 1 stops the run
         * (the runtime checks every index), and the unfinished interval is
         * not kept: round 1's pout is unknown (no write of it kept); the
         * rounds after it never ran, so they show the memory the run left:
         * the staged buf[0] and round 1's unknown pout (issue 28: not the
         * staged buf[0] as ?). */
        int pout = k->double_buffer ? 1 : 0;
        for (size_t i = 0; i < n; i++)
            m[pout][i].known = false;
        for (size_t r = 1; r < R->nrounds; r++)
            for (size_t i = 0; i < n; i++)
                snap(R, r, m, i);
        free(m[0]);
        free(m[1]);
        free(tmp);
        return true;
    }
    bool round_by_round = k->barrier || sched == SV_SCHEDULE_LOCKSTEP;
    if (round_by_round) {
        int pout = 0;
        for (size_t r = 1; r < R->nrounds; r++) {
            size_t s = (size_t)1 << (r - 1);
            if (k->double_buffer) {
                /* Nobody writes what anybody reads: order does not matter. */
                pout = 1 - pout;
                for (size_t i = 0; i < n; i++)
                    thread_round(k, op, type, m, 1 - pout, pout, s, i);
            } else if (sched == SV_SCHEDULE_LOCKSTEP) {
                /* Every read before any write: read a copy of the round's start. */
                memcpy(tmp, m[0], n * sizeof(rcell));
                rcell *mm[2] = {tmp, m[1]};
                for (size_t i = 0; i < n; i++)
                    if (takes(k, s, i))
                        m[0][i] = apply(op, type, left(mm[0], s, i), mm[0][i]);
            } else if (sched == SV_SCHEDULE_SEQUENTIAL) {
                for (size_t i = 0; i < n; i++)
                    thread_round(k, op, type, m, 0, 0, s, i);
            } else {
                for (size_t i = n; i-- > 0;)
                    thread_round(k, op, type, m, 0, 0, s, i);
            }
            for (size_t i = 0; i < n; i++)
                snap(R, r, m, i);
        }
    } else {
        /* No barrier in the loop: one thread runs all its rounds before the
         * next starts (after the load, whose barrier is kept). */
        for (size_t j = 0; j < n; j++) {
            size_t i = sched == SV_SCHEDULE_SEQUENTIAL ? j : n - 1 - j;
            int pout = 0;
            for (size_t r = 1; r < R->nrounds; r++) {
                size_t s = (size_t)1 << (r - 1);
                if (k->double_buffer)
                    pout = 1 - pout;
                thread_round(k, op, type, m, k->double_buffer ? 1 - pout : 0, pout, s, i);
                snap(R, r, m, i);
            }
        }
    }
    free(m[0]);
    free(m[1]);
    free(tmp);
    return true;
}

static void ref_free(ref *R)
{
    free(R->v);
    free(R->known);
}

static sv_trace *make(const sv_value *in, size_t n, sv_op op)
{
    char err[256];
    sv_trace *t = sv_trace_create(op, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, n, SV_BACKEND_CPU,
                                  NULL, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    return t;
}

/* make(in, n, op), emulated as kernel k under schedule s (no record); a
 * failure is a failed check (the trace, if made, is returned all the same). */
static sv_trace *emulated(const sv_value *in, size_t n, sv_op op, sv_kernel k, sv_schedule s)
{
    char err[256] = "";
    sv_trace *t = make(in, n, op);
    CHECK_MSG(t && sv_capture_lab_run(t, k, s, NULL, NULL, NULL, err, sizeof err), "kernel %d: %s",
              (int)k, err);
    return t;
}

/* The chapter's kernel in lockstep: the right answer. */
#define LOCKSTEP ((sv_schedule){SV_SCHEDULE_LOCKSTEP, 1})

/* The emulator's snapshots equal the reference's, every round and cell. */
static void compare(const sv_trace *t, const ref *R, const char *what)
{
    int shown = 0;
    for (size_t r = 0; r < R->nrounds; r++)
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < R->n; i++) {
                size_t j = at(R, r, b, i);
                bool same = t->rounds[r].written[b][i] == R->known[j] &&
                            (!R->known[j] || t->rounds[r].buf[b][i].bits == R->v[j].bits);
                if (!same && shown++ < 3)
                    CHECK_MSG(same, "%s: round %zu buf[%d][%zu]: %s%d, reference %s%d", what, r, b,
                              i, t->rounds[r].written[b][i] ? "" : "? ", t->rounds[r].buf[b][i].i,
                              R->known[j] ? "" : "? ", R->v[j].i);
                else if (!same)
                    failures++;
            }
}

/* ---- Properties of any interleaving --------------------------------------- */

static void check_provenance(const sv_trace *t, const sv_lab_reads *rd, const char *what)
{
    const sv_kernel_info *k = sv_kernel_get(rd->kernel);
    int shown = 0;
#define PROP(cond, ...) \
    do { if (!(cond)) { if (shown++ < 3) CHECK_MSG(cond, __VA_ARGS__); else failures++; } } while (0)
    if (!k->guard) {
        /* The run stopped at thread 0's read of pin[-1] in round 1: that
         * read out of range, no other (the interval was not kept). */
        PROP(rd->stopped_round == (t->nrounds > 1 ? 1 : -1), "%s: stopped in round %d", what,
             rd->stopped_round);
        for (size_t r = 1; r < t->nrounds; r++)
            for (size_t i = 0; i < t->n; i++)
                for (int sl = 0; sl < 2; sl++) {
                    const sv_lab_read *x = sv_lab_reads_at(rd, r, i, (sv_read_slot)sl);
                    bool stop = r == 1 && i == 0 && sl == SV_READ_LEFT;
                    PROP(x->done == stop && (!stop || (x->out_of_range && x->index == -1 &&
                                                       !x->known && x->writer < 0)),
                         "%s: round %zu thread %zu slot %d: done %d", what, r, i, sl, x->done);
                }
        return;
    }
    for (size_t r = 1; r < t->nrounds; r++) {
        size_t s = (size_t)1 << (r - 1);
        for (size_t i = 0; i < t->n; i++) {
            bool taken = takes(k, s, i);
            const sv_lab_read *L = sv_lab_reads_at(rd, r, i, SV_READ_LEFT);
            const sv_lab_read *S = sv_lab_reads_at(rd, r, i, SV_READ_SELF);
            PROP(L->done == taken, "%s: round %zu thread %zu left read %d", what, r, i, L->done);
            PROP(S->done == (taken || copies(k)), "%s: round %zu thread %zu self read", what, r, i);
            PROP(L->out_of_range == (L->done && i < s), "%s: round %zu thread %zu left read %s",
                 what, r, i, L->out_of_range ? "out of range" : "in range");
            for (int sl = 0; sl < 2; sl++) {
                const sv_lab_read *x = sl ? S : L;
                if (!x->done)
                    continue;
                if (x->out_of_range) {
                    PROP(!x->known && x->writer < 0 && x->index == (int32_t)i - (int32_t)s,
                         "%s: round %zu thread %zu out-of-range read index %d", what, r, i,
                         (int)x->index);
                    continue;
                }
                size_t c = sl ? i : i - s;
                PROP(x->index == (int32_t)c, "%s: index %d of cell %zu", what, (int)x->index, c);
                PROP(x->cell == c, "%s: round %zu thread %zu slot %d cell %u", what, r, i, sl,
                     (unsigned)x->cell);
                if (x->writer < 0) {
                    PROP(!x->known, "%s: unwritten cell read as known", what);
                    continue;
                }
                /* The value is what the writer's own cell held after the
                 * round it wrote in: a value somebody really wrote. */
                const sv_round *W = &t->rounds[x->writer_round];
                PROP(x->writer == (int32_t)x->cell, "%s: cell %u written by thread %d", what,
                     (unsigned)x->cell, (int)x->writer);
                PROP(W->written[x->buf][x->cell] == x->known &&
                         (!x->known || W->buf[x->buf][x->cell].bits == x->value.bits),
                     "%s: round %zu thread %zu read %d from thread %d round %d, which wrote %d",
                     what, r, i, x->value.i, (int)x->writer, x->writer_round,
                     W->buf[x->buf][x->cell].i);
            }
            /* The thread's pout cell is the operation on what it read. */
            int pout = t->rounds[r].pout;
            if (taken) {
                bool kn = L->known && S->known;
                sv_value v = kn ? sv_op_apply(t->op, t->type, L->value, S->value, NULL)
                                : (sv_value){.bits = 0};
                PROP(t->rounds[r].written[pout][i] == kn &&
                         (!kn || t->rounds[r].buf[pout][i].bits == v.bits),
                     "%s: round %zu cell %zu is not its reads' result", what, r, i);
            } else if (copies(k)) {
                PROP(t->rounds[r].written[pout][i] == S->known &&
                         (!S->known || t->rounds[r].buf[pout][i].bits == S->value.bits),
                     "%s: round %zu cell %zu is not the copy it read", what, r, i);
            }
        }
    }
#undef PROP
}

/* What sv_lab_print_table prints of t, in memory (the caller frees; NULL
 * when the stream cannot open). */
static char *lab_table(const sv_trace *t)
{
    char *tab = NULL;
    size_t len = 0;
    FILE *g = open_memstream(&tab, &len);
    if (!g)
        return NULL;
    sv_lab_print_table(t, g);
    fclose(g);
    return tab;
}

/* t (made from in[0..n) under op) emulated as kernel k under schedule s,
 * with its record (out and known as sv_capture_lab_run's, or NULL); where the
 * schedule is not random, every snapshot compared with the reference; the
 * provenance of every read checked. Returns the record, NULL when the
 * emulation failed (a failed check). */
static sv_lab_reads *emulate_checked(sv_trace *t, const sv_value *in, size_t n, sv_op op,
                                     sv_kernel k, sv_schedule s, sv_value *out, bool *known,
                                     const char *what)
{
    char err[256] = "";
    sv_lab_reads *rd = NULL;
    CHECK_MSG(t && sv_capture_lab_run(t, k, s, &rd, out, known, err, sizeof err), "%s: %s", what, err);
    if (!rd)
        return NULL;
    if (s.kind < SV_SCHEDULE_RANDOM) {
        ref R;
        CHECK(reference(k, s.kind, op, SV_TYPE_INT32, in, n, &R));
        compare(t, &R, what);
        ref_free(&R);
    }
    check_provenance(t, rd, what);
    return rd;
}

static bool same_buffers(const sv_trace *a, const sv_trace *b)
{
    char diff[256];
    return sv_trace_equal(a, b, diff, sizeof diff);
}

/* ---- Tests ---------------------------------------------------------------- */

static void test_names(void)
{
    char err[256], buf[64];
    sv_schedule s;
    CHECK(sv_schedule_parse("lockstep", &s, err, sizeof err) && s.kind == SV_SCHEDULE_LOCKSTEP);
    CHECK(sv_schedule_parse("random", &s, err, sizeof err) && s.kind == SV_SCHEDULE_RANDOM &&
          s.seed == 1);
    CHECK(sv_schedule_parse("warps:18446744073709551615", &s, err, sizeof err) &&
          s.seed == UINT64_MAX);
    CHECK_STR(sv_schedule_format(s, buf, sizeof buf), "warps:18446744073709551615");
    CHECK(!sv_schedule_parse("warps:18446744073709551616", &s, err, sizeof err));
    CHECK_CONTAINS(err, "2^64");
    CHECK(!sv_schedule_parse("sequential:3", &s, err, sizeof err));
    CHECK_CONTAINS(err, "takes no seed");
    CHECK(!sv_schedule_parse("random:", &s, err, sizeof err));
    CHECK(!sv_schedule_parse("random:1x", &s, err, sizeof err));
    CHECK_CONTAINS(err, "position 9");
    CHECK(!sv_schedule_parse("chaos\x1b", &s, err, sizeof err));
    CHECK_CONTAINS(err, "\"chaos?\"");
    CHECK(strchr(err, '\x1b') == NULL);
    /* The --kernel names and K's order, exactly. */
    static const char *names[] = {"correct", "in-place", "no-barrier", "in-place-no-barrier",
                                  "no-else", "off-by-one", "pout-accumulate", "no-guard"};
    CHECK_INT(SV_KERNEL_COUNT, (int)(sizeof names / sizeof *names));
    for (int k = 0; k < SV_KERNEL_COUNT; k++) {
        sv_kernel got;
        CHECK(sv_kernel_from_name(names[k], &got) && got == (sv_kernel)k);
        CHECK_STR(sv_kernel_name((sv_kernel)k), names[k]);
    }
    CHECK(SV_KERNEL_NO_GUARD == 7 && SV_KERNEL_POUT_ACCUMULATE == 6);
    sv_kernel got;
    CHECK(!sv_kernel_from_name("inplace", &got));
    CHECK(sv_kernel_parse(SV_KERNEL_TEACHING, &got, err, sizeof err) && got == SV_KERNEL_CORRECT);
    CHECK_STR(sv_kernel_get(SV_KERNEL_CORRECT)->alias, SV_KERNEL_TEACHING);
    CHECK(!sv_kernel_parse("no_guard\x1b", &got, err, sizeof err));
    CHECK_STR(err, "unknown kernel \"no_guard?\" (expected correct, in-place, no-barrier, "
                   "in-place-no-barrier, no-else, off-by-one, pout-accumulate or no-guard)");
    CHECK(sv_kernel_get(SV_KERNEL_LIMIT) == NULL && sv_kernel_name((sv_kernel)-1) == NULL);
}

/* The fields of a registry row as a kernel file carries them (`key: value`
 * lines; in a .diff after the opening comment, before "--- a/"), read here
 * on their own, not by apply.py. Returns false when the file cannot be read. */
typedef struct file_row {
    char name[64], alias[64], label[160], teaches[400];
    char buffers[8], barrier[8], else_[8], guard[32], add[64], racy[8];
} file_row;

static bool read_row(const char *path, file_row *row)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    memset(row, 0, sizeof *row);
    struct { const char *key; char *into; size_t size; } keys[] = {
        {"name", row->name, sizeof row->name}, {"alias", row->alias, sizeof row->alias},
        {"label", row->label, sizeof row->label}, {"teaches", row->teaches, sizeof row->teaches},
        {"buffers", row->buffers, sizeof row->buffers},
        {"barrier", row->barrier, sizeof row->barrier}, {"else", row->else_, sizeof row->else_},
        {"guard", row->guard, sizeof row->guard}, {"add", row->add, sizeof row->add},
        {"racy", row->racy, sizeof row->racy},
    };
    char line[1024];
    bool in_comment = false;
    while (fgets(line, sizeof line, f) && strncmp(line, "--- a/", 6) != 0) {
        if (strncmp(line, "/*", 2) == 0)
            in_comment = true;
        if (in_comment) {
            in_comment = strstr(line, "*/") == NULL;
            continue;
        }
        line[strcspn(line, "\n")] = '\0';
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
            size_t kl = strlen(keys[k].key);
            if (strncmp(line, keys[k].key, kl) == 0 && line[kl] == ':' && line[kl + 1] == ' ')
                snprintf(keys[k].into, keys[k].size, "%s", line + kl + 2);
        }
    }
    fclose(f);
    return true;
}

/* Every row of the registry is its kernel file's fields, in the build's
 * order, and every mistake's .diff in kernels/mistakes/ has its row. */
static void test_registry_files(const char *kernels_dir)
{
    int diffs = 0;
    for (int k = 0; k < SV_KERNEL_COUNT; k++) {
        const sv_kernel_info *info = sv_kernel_get((sv_kernel)k);
        char path[512];
        const char *base = strrchr(info->file, '/') + 1;
        if (k == SV_KERNEL_CORRECT) {
            CHECK_STR(info->file, "kernels/hillis_steele.cu");
            snprintf(path, sizeof path, "%s/hillis_steele.row", kernels_dir);
        } else {
            CHECK_MSG(strncmp(info->file, "kernels/mistakes/", 17) == 0, "%s", info->file);
            snprintf(path, sizeof path, "%s/mistakes/%.*s.diff", kernels_dir,
                     (int)(strlen(base) - 3), base);
        }
        file_row row;
        CHECK_MSG(read_row(path, &row), "%s: cannot read", path);
        CHECK_STR(info->name, row.name);
        CHECK_STR(info->alias ? info->alias : "", row.alias);
        CHECK_STR(info->label, row.label);
        CHECK_STR(info->teaches, row.teaches);
        CHECK_MSG(info->emulated && info->double_buffer == (strcmp(row.buffers, "2") == 0) &&
                      info->barrier == (strcmp(row.barrier, "yes") == 0) &&
                      info->has_else == (strcmp(row.else_, "yes") == 0) &&
                      info->racy == (strcmp(row.racy, "yes") == 0) &&
                      info->self_from_pout == (strcmp(row.add, "pin[i - stride] op pout[i]") == 0),
                  "%s: the model differs from its file's fields", info->name);
        CHECK_MSG(info->guard == (strcmp(row.guard, "none") != 0) &&
                      info->guard_offset == (strcmp(row.guard, "i > stride") == 0),
                  "%s: guard %s", info->name, row.guard);
        diffs += k > 0;
    }
    /* No .diff without a row (the build lists them; this counts them). */
    char dir[512];
    snprintf(dir, sizeof dir, "%s/mistakes", kernels_dir);
    DIR *d = opendir(dir);
    CHECK_MSG(d != NULL, "%s: cannot list", dir);
    int listed = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        listed += len > 5 && strcmp(e->d_name + len - 5, ".diff") == 0;
    }
    if (d)
        closedir(d);
    CHECK_MSG(listed == diffs, "%d .diff files, %d mistakes in the registry", listed, diffs);
}

/* A kernel file given at run time is a row after the shipped ones. */
static void test_added_rows(void)
{
    char err[256] = "";
    sv_kernel k, again;
    size_t before = sv_kernel_count();
    CHECK(before == SV_KERNEL_COUNT);
    CHECK_MSG(sv_kernel_add_file("/tmp/class/my_scan.cu", &k, err, sizeof err), "%s", err);
    CHECK((int)k == SV_KERNEL_COUNT && sv_kernel_count() == before + 1);
    const sv_kernel_info *info = sv_kernel_get(k);
    CHECK(info && !info->emulated && strcmp(info->file, "/tmp/class/my_scan.cu") == 0);
    CHECK_STR(sv_kernel_name(k), "my_scan.cu");
    CHECK_STR(info->label, "your kernel, my_scan.cu");
    CHECK(sv_kernel_from_name("my_scan.cu", &again) && again == k);
    CHECK(sv_kernel_add_file("/tmp/class/my_scan.cu", &again, err, sizeof err) && again == k);
    CHECK(sv_kernel_count() == before + 1);
    CHECK(!sv_kernel_add_file("/elsewhere/my_scan.cu", &again, err, sizeof err));
    CHECK_CONTAINS(err, "already a kernel's name");
    CHECK(!sv_kernel_add_file("kernels/correct", &again, err, sizeof err));
    CHECK(!sv_kernel_add_file("dir/", &again, err, sizeof err));
    CHECK(!sv_kernel_add_file("", &again, err, sizeof err));
    CHECK(sv_kernel_add_file("odd\x1bname.cu", &again, err, sizeof err));
    CHECK_STR(sv_kernel_name(again), "odd?name.cu");
    CHECK(!sv_kernel_writes(k, 1, 5) && sv_kernel_writes(k, 0, 5));
    /* Not a shipped kernel: the lab's emulated runs say so rather than guess
     * (a kernel file runs through scanviz-trace --kernel-file). */
    sv_value in[4] = {{.i = 1}, {.i = 2}, {.i = 3}, {.i = 4}};
    sv_trace *t = make(in, 4, SV_OP_SUM);
    CHECK(t && !sv_capture_lab_run(t, k, LOCKSTEP, NULL, NULL, NULL, err, sizeof err));
    CHECK_CONTAINS(err, "not a shipped kernel");
    sv_trace_destroy(t);
    /* The list of --kernel names stays the shipped ones. */
    CHECK(strstr(sv_kernel_list(), "my_scan") == NULL);
    int added = 2;
    char path[64];
    for (int j = 0; j < SV_KERNEL_MAX_ADDED; j++) {
        snprintf(path, sizeof path, "k%d.cu", j);
        added += sv_kernel_add_file(path, NULL, err, sizeof err);
    }
    CHECK_INT(added, SV_KERNEL_MAX_ADDED);
    CHECK_CONTAINS(err, "at most 16 kernel files");
    CHECK(sv_kernel_count() == (size_t)SV_KERNEL_LIMIT && sv_kernel_get(SV_KERNEL_LIMIT) == NULL &&
          sv_kernel_get((sv_kernel)(SV_KERNEL_LIMIT - 1)) != NULL);
}

static void test_chapter(void)
{
    char err[256], cap[256];
    sv_value *in = NULL;
    size_t n = 0;
    CHECK(sv_parse_values("3 1 7 0 4 1 6 3", SV_TYPE_INT32, SV_MAX_N, &in, &n, err, sizeof err));
    static const int32_t chapter[8] = {3, 4, 11, 11, 15, 16, 22, 25};
    static const int32_t in_place_seq[8] = {3, 4, 14, 15, 32, 35, 65, 71};
    for (int k = 0; k < SV_KERNEL_COUNT; k++) {
        for (int sk = 0; sk < SV_SCHEDULE_COUNT; sk++) {
            for (uint64_t seed = 1; seed <= (sk >= SV_SCHEDULE_RANDOM ? 4u : 1u); seed++) {
                sv_schedule s = {(sv_schedule_kind)sk, seed};
                char what[96], sname[32];
                snprintf(what, sizeof what, "chapter %s %s", sv_kernel_name((sv_kernel)k),
                         sv_schedule_format(s, sname, sizeof sname));
                sv_trace *t = make(in, n, SV_OP_SUM);
                sv_value out[8];
                bool known[8];
                sv_lab_reads *rd = emulate_checked(t, in, n, SV_OP_SUM, (sv_kernel)k, s, out, known,
                                                   what);
                if (!rd) {
                    sv_trace_destroy(t);
                    continue;
                }
                const sv_round *last = &t->rounds[3];
                for (int i = 0; i < 8; i++)
                    CHECK_MSG(known[i] == last->written[last->pout][i] &&
                                  (!known[i] || out[i].bits == last->buf[last->pout][i].bits),
                              "%s: copy back out[%d]", what, i);
                if (k == SV_KERNEL_CORRECT)
                    for (int i = 0; i < 8; i++)
                        CHECK_MSG(known[i] && out[i].i == chapter[i], "%s: out[%d] = %d", what, i,
                                  out[i].i);
                if (k == SV_KERNEL_IN_PLACE && sk == SV_SCHEDULE_SEQUENTIAL) {
                    for (int i = 0; i < 8; i++)
                        CHECK_MSG(known[i] && out[i].i == in_place_seq[i],
                                  "in-place sequential out[%d] = %d, expected %d", i, out[i].i,
                                  in_place_seq[i]);
                    CHECK(sv_lab_read_describe(rd, SV_TYPE_INT32, 2, 4, SV_READ_LEFT, cap,
                                               sizeof cap));
                    CHECK_STR(cap, "round 2: thread 4 read buf[2] = 14 after thread 2 had "
                                   "overwritten it; it should have read 8");
                    CHECK(sv_lab_read_describe(rd, SV_TYPE_INT32, 1, 2, SV_READ_LEFT, cap,
                                               sizeof cap));
                    CHECK_STR(cap, "round 1: thread 2 read buf[1] = 4 after thread 1 had "
                                   "overwritten it; it should have read 1");
                    CHECK(!sv_lab_read_describe(rd, SV_TYPE_INT32, 1, 0, SV_READ_LEFT, cap,
                                                sizeof cap));
                    sv_lab_cell_describe(rd, t->type, 3, 7, cap, sizeof cap);
                    CHECK_CONTAINS(cap, "round 3: thread 7 read buf[3] = 15, written by thread 3 "
                                        "in round 2, a value already wrong");
                }
                if (k == SV_KERNEL_IN_PLACE && sk == SV_SCHEDULE_REVERSE)
                    for (int i = 0; i < 8; i++) /* reverse order never overwrites early */
                        CHECK_INT(out[i].i, chapter[i]);
                if (k == SV_KERNEL_NO_BARRIER && sk == SV_SCHEDULE_REVERSE) {
                    /* Thread 7 runs first: round 2 reads buf[1][5], which
                     * thread 5 has not written yet. */
                    CHECK(!known[7]);
                    sv_lab_read_describe(rd, SV_TYPE_INT32, 2, 7, SV_READ_LEFT, cap, sizeof cap);
                    CHECK_STR(cap, "round 2: thread 7 read buf[1][5] = ?, a cell nobody had "
                                   "written; it should have read 5");
                }
                if (k == SV_KERNEL_NO_BARRIER && sk == SV_SCHEDULE_SEQUENTIAL) {
                    sv_lab_read_describe(rd, SV_TYPE_INT32, 1, 2, SV_READ_LEFT, cap, sizeof cap);
                    CHECK_STR(cap, "round 1: thread 2 read buf[0][1] = 4 after thread 1 had "
                                   "already written it in round 2; it should have read 1");
                }
                if (k == SV_KERNEL_NO_ELSE) {
                    /* Round 1 never writes buf[1][0], and round 2's buf[0][2]
                     * is ? + 8; round 3's pout is buf[1]. */
                    static const int32_t want[8] = {0, 4, 8, 7, 15, 13, 0, 25};
                    for (int i = 0; i < 8; i++)
                        CHECK_MSG(known[i] == (i != 0 && i != 6) && (!known[i] || out[i].i == want[i]),
                                  "%s: out[%d] = %s%d", what, i, known[i] ? "" : "? ", out[i].i);
                    sv_lab_cell_describe(rd, t->type, 1, 0, cap, sizeof cap);
                    CHECK_CONTAINS(cap, "round 1: thread 0 wrote nothing (i < stride and no else)");
                }
                if (k == SV_KERNEL_NO_GUARD) {
                    /* Thread 0 reads pin[-1] in round 1 and the run stops
                     * there, under every schedule: out[] is never written. */
                    for (int i = 0; i < 8; i++)
                        CHECK_MSG(!known[i], "%s: out[%d] = %d", what, i, out[i].i);
                    const sv_lab_read *x = sv_lab_reads_at(rd, 1, 0, SV_READ_LEFT);
                    CHECK(x && x->done && x->out_of_range && x->index == -1 && x->buf == 0 &&
                          !x->known && x->writer == -1);
                    CHECK(sv_lab_read_describe(rd, SV_TYPE_INT32, 1, 0, SV_READ_LEFT, cap,
                                               sizeof cap));
                    CHECK_STR(cap, "round 1: thread 0 read buf[0][-1], left of the buffer's "
                                   "first cell: out of range, and the run stopped there (value "
                                   "unknown, ?); the chapter's guard i >= stride skips this read");
                    sv_lab_cell_describe(rd, t->type, 1, 0, cap, sizeof cap);
                    CHECK_CONTAINS(cap, "round 1: thread 0 read buf[0][-1], left of the buffer's");
                    sv_lab_cell_describe(rd, t->type, 1, 2, cap, sizeof cap);
                    CHECK_STR(cap, "round 1: the run stopped in round 1, when thread 0 read out "
                                   "of range, with no write of thread 2's kept (?: the round "
                                   "never finished)");
                    sv_lab_cell_describe(rd, t->type, 2, 2, cap, sizeof cap);
                    CHECK_STR(cap, "round 2 never ran: the run stopped in round 1, when thread 0 "
                                   "read out of range; thread 2's cell holds what the run left "
                                   "there");
                    /* the staged buf[0] stays the input after the stop (round 2's pout,
                     * round 3's pin), not ? */
                    for (size_t r = 2; r < t->nrounds; r++)
                        for (int i = 0; i < 8; i++)
                            CHECK_MSG(t->rounds[r].written[0][i] &&
                                          t->rounds[r].buf[0][i].bits == in[i].bits,
                                      "%s: round %zu buf[0][%d] is not the staged input", what, r,
                                      i);
                    /* no round did an operation: the counted ops say so */
                    for (size_t r = 0; r < t->nrounds; r++)
                        CHECK_MSG(sv_lab_reads_ops(rd, r) == 0, "%s: round %zu did %zu ops", what,
                                  r, sv_lab_reads_ops(rd, r));
                }
                if (k == SV_KERNEL_OFF_BY_ONE) {
                    static const int32_t want[8] = {3, 1, 8, 8, 12, 13, 19, 22};
                    for (int i = 0; i < 8; i++)
                        CHECK_MSG(known[i] && out[i].i == want[i], "%s: out[%d] = %d, expected %d",
                                  what, i, out[i].i, want[i]);
                    sv_lab_cell_describe(rd, t->type, 1, 1, cap, sizeof cap);
                    CHECK_STR(cap, "round 1: thread 1 copied pin[1] instead of adding pin[0]: "
                                   "the guard i > 1 is false for i = 1");
                    /* round 3, thread 5 reads buf[0][1]: thread 1's copy of round 2 wrote
                     * it last (the same 1 it held since the staging), not round 0 */
                    sv_lab_cell_describe(rd, t->type, 3, 5, cap, sizeof cap);
                    CHECK_CONTAINS(cap, "round 3: thread 5 read buf[0][1] = 1, written by thread "
                                        "1 in round 2, a value already wrong");
                    CHECK_INT(sv_lab_reads_ops(rd, 1), 6); /* thread 1 copied: 7 - 1 */
                    CHECK_INT(sv_lab_reads_ops(rd, 3), 4 - 1);
                }
                sv_lab_reads_destroy(rd);
                sv_trace_destroy(t);
            }
        }
    }
    free(in);
}

static void test_random_inputs(void)
{
    /* Every run is a child process of the CPU runtime: sizes at the edges
     * (1, a warp, one past it, not a power of two, the largest) and both
     * operators where they are cheap. */
    static const size_t sizes[] = {1, 3, 8, 13, 32, 33, 100, 1024};
    char err[256];
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
        size_t n = sizes[z];
        for (int opi = 0; opi < (n <= 33 ? 2 : 1); opi++) {
            sv_op op = opi ? SV_OP_MAX : SV_OP_SUM;
            sv_value *in = sv_random_values(op, SV_TYPE_INT32, n, 0xab5eedull + n * 3 + (uint64_t)opi);
            sv_trace *correct = emulated(in, n, op, SV_KERNEL_CORRECT, LOCKSTEP);
            CHECK(correct && sv_trace_finish(correct, err, sizeof err) &&
                  sv_trace_check(correct, err, sizeof err));
            for (int k = 0; k < SV_KERNEL_COUNT; k++) {
                const sv_kernel_info *info = sv_kernel_get((sv_kernel)k);
                for (int sk = 0; sk < SV_SCHEDULE_COUNT; sk++) {
                    int seeds = sk >= SV_SCHEDULE_RANDOM ? (n <= 64 ? 2 : 1) : 1;
                    for (int sd = 1; sd <= seeds; sd++) {
                        sv_schedule s = {(sv_schedule_kind)sk, (uint64_t)sd * 7919};
                        char what[96], sname[40];
                        snprintf(what, sizeof what, "n=%zu %s %s %s", n, sv_op_name(op),
                                 sv_kernel_name((sv_kernel)k),
                                 sv_schedule_format(s, sname, sizeof sname));
                        sv_trace *t = make(in, n, op);
                        sv_lab_reads *rd = emulate_checked(t, in, n, op, (sv_kernel)k, s, NULL,
                                                           NULL, what);
                        if (!rd) {
                            sv_trace_destroy(t);
                            continue;
                        }
                        /* The correct kernel is the same under every schedule;
                         * so are the mistakes without a race; and a warp of
                         * 32 in lockstep hides every race. */
                        if (correct && (k == SV_KERNEL_CORRECT ||
                                        (!info->racy && sk != SV_SCHEDULE_LOCKSTEP) ||
                                        (info->racy && sk == SV_SCHEDULE_LOCKSTEP) ||
                                        (info->racy && sk == SV_SCHEDULE_WARPS && n <= 32))) {
                            sv_kernel bk = info->racy ? SV_KERNEL_CORRECT : (sv_kernel)k;
                            sv_trace *base = emulated(in, n, op, bk, LOCKSTEP);
                            if (base && info->racy) { /* same values, one buffer or two */
                                for (size_t r = 0; r < n && t; r++) {
                                    const sv_round *A = &t->rounds[t->nrounds - 1];
                                    const sv_round *B = &base->rounds[base->nrounds - 1];
                                    int pa = A->round ? A->pout : 0, pb = B->round ? B->pout : 0;
                                    CHECK_MSG(A->written[pa][r] &&
                                                  A->buf[pa][r].bits == B->buf[pb][r].bits,
                                              "%s: out[%zu] differs from the correct kernel", what, r);
                                }
                            } else if (base) {
                                CHECK_MSG(same_buffers(t, base), "%s: differs from lockstep", what);
                            }
                            sv_trace_destroy(base);
                        }
                        /* A seed replays exactly. */
                        if (sk >= SV_SCHEDULE_RANDOM && n <= 100) {
                            sv_trace *again = emulated(in, n, op, (sv_kernel)k, s);
                            CHECK_MSG(again && same_buffers(t, again), "%s: not replayable", what);
                            sv_trace_destroy(again);
                        }
                        sv_lab_reads_destroy(rd);
                        sv_trace_destroy(t);
                    }
                }
            }
            sv_trace_destroy(correct);
            free(in);
        }
    }
}

/* Races show across warps: in-place at n = 64 under warps:S goes wrong (for
 * every one of these seeds, as on the shaken GPU), and never in cells 0..31
 * of round 1 (one warp, lockstep). */
static void test_warps_expose(void)
{
    size_t n = 64;
    sv_value *in = sv_random_values(SV_OP_SUM, SV_TYPE_INT32, n, 99);
    sv_trace *correct = emulated(in, n, SV_OP_SUM, SV_KERNEL_CORRECT, LOCKSTEP);
    int wrong = 0;
    for (uint64_t seed = 1; seed <= 20 && correct; seed++) {
        sv_trace *t = emulated(in, n, SV_OP_SUM, SV_KERNEL_IN_PLACE,
                               (sv_schedule){SV_SCHEDULE_WARPS, seed});
        bool differs = false;
        for (size_t i = 0; t && i < n; i++) {
            if (i < 32)
                CHECK(t->rounds[1].buf[0][i].bits == correct->rounds[1].buf[1][i].bits);
            differs |= t->rounds[t->nrounds - 1].buf[0][i].bits !=
                       correct->rounds[correct->nrounds - 1].buf[1][i].bits;
        }
        wrong += differs;
        sv_trace_destroy(t);
    }
    CHECK_MSG(wrong > 0, "in-place warps n=64: %d of 20 seeds wrong", wrong);
    sv_trace_destroy(correct);
    free(in);
}

/* The summary of runs against counts worked out by hand. */
static void test_summary(void)
{
    char err[256];
    sv_value in[4] = {{.i = 1}, {.i = 2}, {.i = 3}, {.i = 4}};
    sv_trace *c = emulated(in, 4, SV_OP_SUM, SV_KERNEL_CORRECT, LOCKSTEP);
    if (!c)
        return;
    /* rounds 0..2: [1 2 3 4], [1 3 5 7], [1 3 6 10]. Three runs. */
    uint32_t bits[3][3][4] = {
        {{1, 2, 3, 4}, {1, 3, 5, 7}, {1, 3, 6, 10}},
        {{1, 2, 3, 4}, {1, 3, 5, 7}, {1, 3, 8, 10}},
        {{1, 2, 3, 4}, {1, 3, 6, 7}, {1, 3, 8, 12}},
    };
    bool known[3][3][4];
    memset(known, 1, sizeof known);
    known[2][2][0] = false;
    sv_lab_summary *s = sv_lab_summarize(c, 3, &bits[0][0][0], &known[0][0][0], err, sizeof err);
    CHECK_MSG(s != NULL, "%s", err);
    if (s) {
        CHECK_INT(s->wrong_runs, 2);
        CHECK_INT(s->distinct_outputs, 3);
        CHECK_INT(s->first_wrong_cell, 0);
        CHECK_INT(s->first_wrong_round, 1);
        CHECK_INT(s->first_diverged[0], 2);
        CHECK_INT(s->first_diverged[1], -1);
        CHECK_INT(s->first_diverged[2], 1);
        CHECK_INT(s->first_diverged[3], 2);
        const sv_lab_cell *x = &s->cells[2 * 4 + 2];
        CHECK_INT(x->correct.i, 6);
        CHECK_INT(x->wrong_runs, 2);
        CHECK_INT(x->nvalues, 2);
        CHECK(x->values[0].known && x->values[0].value.i == 8 && x->values[0].runs == 2);
        CHECK(x->values[1].value.i == 6 && x->values[1].runs == 1);
        x = &s->cells[2 * 4 + 0];
        CHECK_INT(x->nvalues, 2);
        CHECK(x->values[0].value.i == 1 && x->values[0].runs == 2);
        CHECK(!x->values[1].known && x->values[1].runs == 1);
    }
    sv_lab_summary_destroy(s);
    sv_lab_summary_destroy(NULL);
    sv_lab_reads_destroy(NULL);
    sv_trace_destroy(c);
}

/* A racecheck report in the format BUILD-NOTES.md records from the H200. */
static void test_racecheck(void)
{
    static const char report[] =
        "========= COMPUTE-SANITIZER\n"
        "sv-racecheck-base 0x00000400\n"
        "========= Warning: (Warp Level Programming) Potential WAR hazard detected at __shared__ 0x480 in block (0,0,0) :\n"
        "=========     Read Thread (33,0,0) at void ns::hillis_steele<sv::OpSum, int, sv::LabTrace<int>>(const T2 *, T2 *, int, bool, T3::Buffers)+0x160 in /x/kernels/mistakes/in_place.cu:38\n"
        "=========     Write Thread (32,0,0) at void ns::hillis_steele<...>(...)+0x180 in /x/kernels/mistakes/in_place.cu:38\n"
        "=========     Current Value : 3, Incoming Value : 10\n"
        "=========\n"
        "========= Error: Potential RAW hazard detected at __shared__ 0x4fc in block (0,0,0) :\n"
        "=========     Write Thread (63,0,0) at f()+0x10 in in_place.cu:38\n"
        "=========     Read Thread (64,0,0) at f()+0x20 in in_place.cu:38\n"
        "=========     Current Value : -5, Incoming Value : 7\n"
        "========= Error: Potential WAW hazard detected at __shared__ 0x9000 in block (0,0,0) :\n"
        "========= RACECHECK SUMMARY: 3 hazards displayed (124 errors, 908 warnings)\n";
    char err[256];
    sv_racecheck *rc = sv_racecheck_parse(report, sizeof report - 1, err, sizeof err);
    CHECK_MSG(rc != NULL, "%s", err);
    if (!rc)
        return;
    CHECK_INT(rc->nhazards, 3);
    CHECK(rc->has_summary && rc->errors == 124 && rc->warnings == 908);
    const sv_hazard *h = &rc->hazards[0];
    CHECK(!h->error && h->warp_level && strcmp(h->kind, "WAR") == 0 && h->address == 0x480);
    CHECK(h->thread[0] == 33 && h->access[0] == 'R' && h->thread[1] == 32 && h->access[1] == 'W');
    CHECK(h->line[0] == 38 && h->line[1] == 38);
    CHECK_STR(h->file, "in_place.cu");
    CHECK(h->has_values && h->current == 3 && h->incoming == 10);
    h = &rc->hazards[1];
    CHECK(h->error && strcmp(h->kind, "RAW") == 0 && h->current == -5 && h->incoming == 7);
    CHECK(rc->hazards[2].thread[0] == -1 && !rc->hazards[2].has_values);
    /* No summary line: counted from the blocks; garbage lines are ignored. */
    static const char partial[] = "junk\n========= Error: Potential RAW hazard detected at "
                                  "__shared__ 0xZZ in block\n\x01\xff\n";
    sv_racecheck *p = sv_racecheck_parse(partial, sizeof partial - 1, err, sizeof err);
    CHECK(p && !p->has_summary && p->errors == 1 && p->warnings == 0 && p->nhazards == 0);
    sv_racecheck_destroy(p);
    sv_racecheck_destroy(rc);
}

/* A lab trace through the file format and back: the record, every cell's
 * outcome, the hazards; and refusals that name the field. */
static void test_file(void)
{
    char err[512];
    size_t n = 64;
    sv_value *in = sv_random_values(SV_OP_SUM, SV_TYPE_INT32, n, 5);
    sv_trace *t = make(in, n, SV_OP_SUM);
    sv_trace *correct = make(in, n, SV_OP_SUM);
    if (!t || !correct)
        return;
    CHECK(sv_capture_lab_run(correct, SV_KERNEL_CORRECT, LOCKSTEP,
                         NULL, NULL, NULL, err, sizeof err) &&
          sv_trace_finish(correct, err, sizeof err));
    uint32_t runs = 6;
    size_t nr = t->nrounds;
    uint32_t *bits = calloc(runs * nr * n, sizeof *bits);
    bool *known = calloc(runs * nr * n, sizeof *known);
    sv_lab_record *L = calloc(1, sizeof *L);
    if (!bits || !known || !L)
        return;
    L->kernel = SV_KERNEL_IN_PLACE;
    L->emulated = true;
    L->schedule = (sv_schedule){SV_SCHEDULE_WARPS, 11};
    L->runs = runs;
    for (uint32_t k = 0; k < runs; k++) {
        sv_trace *one = emulated(in, n, SV_OP_SUM, L->kernel, sv_lab_run_schedule(L, k));
        if (one)
            sv_lab_raw_from_trace(one, k, bits, known);
        sv_trace_destroy(one);
    }
    L->summary = sv_lab_summarize(correct, runs, bits, known, err, sizeof err);
    CHECK(L->summary && L->summary->wrong_runs > 0);
    static const char one_hazard[] = "========= Error: Potential RAW hazard detected at "
                                     "__shared__ 0x480 in block (0,0,0) :\n"
                                     "=========     Write Thread (32,0,0) at f in a.cu:3\n"
                                     "=========     Read Thread (33,0,0) at f in a.cu:3\n";
    L->racecheck = sv_racecheck_parse(one_hazard, sizeof one_hazard - 1, err, sizeof err);
    CHECK(sv_capture_lab_run(t, L->kernel, sv_lab_run_schedule(L, 0), NULL, NULL, NULL, err,
                         sizeof err) && sv_trace_finish(t, err, sizeof err));
    t->lab = L;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && sv_trace_write(t, f, err, sizeof err));
    if (f)
        fclose(f);
    sv_trace *u = text ? sv_trace_parse(text, err, sizeof err) : NULL;
    CHECK_MSG(u != NULL, "%s", err);
    if (u && L->summary) {
        CHECK(sv_trace_equal(t, u, err, sizeof err));
        const sv_lab_record *M = u->lab;
        CHECK(M && M->kernel == SV_KERNEL_IN_PLACE && M->emulated && M->runs == runs &&
              M->schedule.kind == SV_SCHEDULE_WARPS && M->schedule.seed == 11);
        const sv_lab_summary *a = L->summary, *b = M ? M->summary : NULL;
        CHECK(b && a->wrong_runs == b->wrong_runs && a->distinct_outputs == b->distinct_outputs &&
              a->first_wrong_cell == b->first_wrong_cell &&
              a->first_wrong_round == b->first_wrong_round);
        for (size_t j = 0; b && j < nr * n; j++) {
            const sv_lab_cell *x = &a->cells[j], *y = &b->cells[j];
            bool same = x->correct.bits == y->correct.bits && x->wrong_runs == y->wrong_runs &&
                        x->nvalues == y->nvalues;
            for (uint32_t v = 0; same && v < x->nvalues; v++)
                same = x->values[v].known == y->values[v].known &&
                       x->values[v].value.bits == y->values[v].value.bits &&
                       x->values[v].runs == y->values[v].runs;
            CHECK_MSG(same, "cell %zu differs after the round trip", j);
            if (!same)
                break;
        }
        for (size_t i = 0; b && i < n; i++)
            CHECK(a->first_diverged[i] == b->first_diverged[i]);
        CHECK(M && M->racecheck && M->racecheck->errors == 1 && M->racecheck->nhazards == 1 &&
              M->racecheck->hazards[0].thread[1] == 33 &&
              M->racecheck->hazards[0].access[0] == 'W');
    }
    sv_trace_destroy(u);
    /* Refusals. */
    struct { const char *from, *to, *want; } bad[] = {
        {"\"kernel\": \"in-place\"", "\"kernel\": \"sideways\"", "lab.kernel: unknown kernel"},
        {"\"source\": \"emulated\"", "\"source\": \"gpu\"", "lab.source: \"gpu\", but the trace's backend is cpu"},
        {"\"runs\": 6", "\"runs\": 7", "lab.divergent"},
        {"\"schedule\": \"warps:11\"", "\"schedule\": \"warps:x\"", "lab.schedule: schedule"},
    };
    for (size_t k = 0; text && k < sizeof bad / sizeof *bad; k++) {
        const char *at = strstr(text, bad[k].from);
        CHECK_MSG(at != NULL, "no %s in the file", bad[k].from);
        if (!at)
            continue;
        size_t head = (size_t)(at - text), fl = strlen(bad[k].from), tl = strlen(bad[k].to);
        char *edited = malloc(len - fl + tl + 1);
        if (!edited)
            continue;
        memcpy(edited, text, head);
        memcpy(edited + head, bad[k].to, tl);
        strcpy(edited + head + tl, at + fl);
        sv_trace *v = sv_trace_parse(edited, err, sizeof err);
        CHECK_MSG(v == NULL && strstr(err, bad[k].want) != NULL, "%s: got \"%s\"", bad[k].want, err);
        sv_trace_destroy(v);
        free(edited);
    }
    /* The table: the record in words. */
    char *tab = lab_table(t);
    CHECK_CONTAINS(tab, "Mistakes lab · kernel in-place (kernels/mistakes/in_place.cu)");
    CHECK_CONTAINS(tab, "emulated, schedule warps:11, 6 runs (run k uses seed S + k)");
    CHECK_CONTAINS(tab, "racecheck: ");
    free(tab);
    free(text);
    free(bits);
    free(known);
    sv_trace_destroy(t);
    sv_trace_destroy(correct);
    free(in);
}

/* A cell with more values than a file lists (20 runs, 20 values): the file
 * keeps the 16 most frequent and counts the rest, and reads back so. */
static void test_more_values(void)
{
    char err[512];
    sv_value in[4] = {{.i = 1}, {.i = 2}, {.i = 3}, {.i = 4}};
    sv_trace *t = make(in, 4, SV_OP_SUM);
    sv_trace *c = make(in, 4, SV_OP_SUM);
    if (!t || !c)
        return;
    CHECK(sv_capture_lab_run(c, SV_KERNEL_CORRECT, LOCKSTEP, NULL,
                         NULL, NULL, err, sizeof err) && sv_trace_finish(c, err, sizeof err));
    CHECK(sv_capture_lab_run(t, SV_KERNEL_CORRECT, LOCKSTEP, NULL,
                         NULL, NULL, err, sizeof err) && sv_trace_finish(t, err, sizeof err));
    enum { RUNS = 20 };
    uint32_t bits[RUNS][3][4];
    for (int k = 0; k < RUNS; k++) {
        sv_lab_raw_from_trace(c, 0, &bits[k][0][0], NULL);
        bits[k][2][3] = 100u + (uint32_t)k; /* the output's last cell: a new value each run */
    }
    sv_lab_record *L = calloc(1, sizeof *L);
    if (!L)
        return;
    L->kernel = SV_KERNEL_CORRECT;
    L->emulated = true;
    L->schedule = (sv_schedule){SV_SCHEDULE_RANDOM, 3};
    L->runs = RUNS;
    L->summary = sv_lab_summarize(c, RUNS, &bits[0][0][0], NULL, err, sizeof err);
    t->lab = L;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(L->summary && f && sv_trace_write(t, f, err, sizeof err));
    if (f)
        fclose(f);
    CHECK_CONTAINS(text, "\"wrong_runs\": 20, \"values\": [[100, 1], [101, 1]");
    CHECK_CONTAINS(text, "[115, 1]], \"more\": [4, 4]}");
    sv_trace *u = text ? sv_trace_parse(text, err, sizeof err) : NULL;
    CHECK_MSG(u != NULL, "%s", err);
    if (u && u->lab) {
        const sv_lab_cell *x = &u->lab->summary->cells[2 * 4 + 3];
        CHECK(x->nvalues == 16 && x->more_values == 4 && x->more_runs == 4 && x->wrong_runs == 20);
        char *tab = lab_table(u);
        CHECK_CONTAINS(tab, "(+14 more values) · wrong in 20 of 20 runs");
        free(tab);
    }
    sv_trace_destroy(u);
    /* Counts that do not add up are refused. */
    char *at = text ? strstr(text, "\"more\": [4, 4]") : NULL;
    if (at) {
        memcpy(at, "\"more\": [4, 5]", 14);
        u = sv_trace_parse(text, err, sizeof err);
        CHECK(u == NULL);
        CHECK_CONTAINS(err, "lab.divergent[0].values: the counts add up to 21 runs");
        sv_trace_destroy(u);
    }
    free(text);
    sv_trace_destroy(t);
    sv_trace_destroy(c);
}

/* A trace the H200 made (scanviz-trace --kernel in-place --random 64 --shake
 * --runs 100 --racecheck --format json, docs/gpu-runs.md) opens here, with
 * its runs, outcomes and hazards: a laptop shows the GPU's real outcomes. */
static void test_gpu_file(const char *dir)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/lab-inplace-64-h200.json", dir);
    sv_trace *t = sv_trace_load(path, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return;
    const sv_lab_record *L = t->lab;
    CHECK(t->backend == SV_BACKEND_CUDA && t->device && strstr(t->device, "H200"));
    CHECK(L && L->kernel == SV_KERNEL_IN_PLACE && !L->emulated && L->shake && L->runs == 100);
    if (L) {
        const sv_lab_summary *s = L->summary;
        CHECK(s->wrong_runs == 86 && s->distinct_outputs == 22 && s->first_wrong_cell == 32);
        /* Cells 0..31 are one warp: right in every run, every round. */
        for (size_t r = 0; r < s->nrounds; r++)
            for (size_t i = 0; i < 32; i++)
                CHECK_MSG(s->cells[r * s->n + i].wrong_runs == 0, "round %zu cell %zu", r, i);
        CHECK(s->first_diverged[32] == 1);
        const sv_racecheck *rc = L->racecheck;
        CHECK(rc && rc->ran && rc->errors == 124 && rc->warnings == 908 && rc->nhazards == 1032);
        CHECK(rc && rc->hazards[0].buf == 0 && rc->hazards[0].cell == 32 &&
              rc->hazards[0].round == 1 && rc->hazards[0].thread[0] == 33 &&
              rc->hazards[0].line[0] == 39 && strcmp(rc->hazards[0].file, "in_place.cu") == 0);
    }
    sv_trace_destroy(t);
}

/* All runs of an emulated capture in one child of the CPU runtime
 * (sv_runtime_run_each) give what one child per run gives (each run alone,
 * sv_capture_lab_run under its own seed): the same wrong runs, the same
 * shown run and its buffers, the same wrong runs of each output cell. */
static void test_one_child(void)
{
    static const char *const kernels[] = {"in-place", "no-barrier", "off-by-one", "no-guard"};
    static const char *const schedules[] = {"random:1", "warps:3", "sequential"};
    enum { N = 64, RUNS = 12 };
    sv_value in[N];
    for (size_t i = 0; i < N; i++)
        in[i].i = (int32_t)(i * 5 % 7) + 1;
    for (size_t kk = 0; kk < sizeof kernels / sizeof *kernels; kk++)
        for (size_t ss = 0; ss < sizeof schedules / sizeof *schedules; ss++) {
            char err[256] = "";
            sv_kernel k;
            sv_schedule sched;
            if (!sv_kernel_parse(kernels[kk], &k, err, sizeof err))
                continue; /* not a kernel of this registry */
            CHECK(sv_schedule_parse(schedules[ss], &sched, err, sizeof err));
            sv_capture_request req = {.op = SV_OP_SUM, .type = SV_TYPE_INT32, .input = in,
                                      .n = N, .choice = SV_CHOOSE_CPU, .kernel = k,
                                      .has_schedule = true, .schedule = sched, .runs = RUNS};
            sv_trace *t = NULL;
            CHECK_MSG(sv_capture(&req, &t, NULL, err, sizeof err) == SV_CAPTURE_OK && t &&
                          t->lab && t->lab->summary,
                      "%s %s: %s", kernels[kk], schedules[ss], err);
            if (!t || !t->lab || !t->lab->summary) {
                sv_trace_destroy(t);
                continue;
            }
            sv_trace *correct = emulated(in, N, SV_OP_SUM, SV_KERNEL_CORRECT, LOCKSTEP);
            const size_t last = correct->nrounds - 1;
            const sv_round *C = &correct->rounds[last];
            uint32_t wrong = 0, shown = 0, cell_wrong[N] = {0};
            sv_trace *shown_trace = NULL;
            for (uint32_t r = 0; r < RUNS; r++) {
                sv_schedule sr = sched;
                if (sr.kind == SV_SCHEDULE_RANDOM || sr.kind == SV_SCHEDULE_WARPS)
                    sr.seed += r;
                sv_trace *one = emulated(in, N, SV_OP_SUM, k, sr);
                const sv_round *O = &one->rounds[last];
                bool w = false;
                for (size_t i = 0; i < N; i++) {
                    bool cw = O->buf[O->pout][i].bits != C->buf[C->pout][i].bits ||
                              !O->written[O->pout][i];
                    cell_wrong[i] += cw;
                    w = w || cw;
                }
                if (w && wrong == 0) {
                    shown = r;
                    sv_trace_destroy(shown_trace);
                    shown_trace = one;
                    one = NULL;
                } else if (r == 0) {
                    shown_trace = one;
                    one = NULL;
                }
                wrong += w;
                sv_trace_destroy(one);
            }
            const sv_lab_record *L = t->lab;
            CHECK_MSG(L->summary->wrong_runs == wrong && L->shown_run == shown,
                      "%s %s: one child %u wrong runs (shows run %u), one child per run %u (%u)",
                      kernels[kk], schedules[ss], (unsigned)L->summary->wrong_runs,
                      (unsigned)L->shown_run, (unsigned)wrong, (unsigned)shown);
            CHECK_MSG(shown_trace && same_buffers(t, shown_trace), "%s %s: the shown run's rounds",
                      kernels[kk], schedules[ss]);
            /* the rounds keep the kernel trace of the run they show */
            char want[64];
            sv_schedule_format(sv_lab_run_schedule(L, L->shown_run), want, sizeof want);
            CHECK_MSG(t->run && t->run->readings && t->run->schedule &&
                          strcmp(t->run->schedule, want) == 0,
                      "%s %s: the trace's run is %s, the shown run %s", kernels[kk],
                      schedules[ss], t->run && t->run->schedule ? t->run->schedule : "none", want);
            for (size_t i = 0; i < N; i++)
                CHECK_MSG(L->summary->cells[last * N + i].wrong_runs == cell_wrong[i],
                          "%s %s: out[%zu] wrong in %u runs, per run %u", kernels[kk],
                          schedules[ss], i, (unsigned)L->summary->cells[last * N + i].wrong_runs,
                          (unsigned)cell_wrong[i]);
            sv_trace_destroy(shown_trace);
            sv_trace_destroy(correct);
            sv_trace_destroy(t);
        }
}

int main(int argc, char **argv)
{
    test_names();
    if (argc > 2)
        test_registry_files(argv[2]);
    else
        CHECK_MSG(argc > 2, "usage: test_core_lab DATA_DIR KERNELS_DIR");
    test_added_rows();
    test_chapter();
    test_random_inputs();
    test_warps_expose();
    test_summary();
    test_racecheck();
    test_file();
    test_more_values();
    test_one_child();
    if (argc > 1)
        test_gpu_file(argv[1]);
    else
        CHECK_MSG(argc > 1, "usage: test_core_lab DATA_DIR");
    return check_status();
}
