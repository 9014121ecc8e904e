/* The judgement of one analyzed kernel trace against an exercise's spec, in
 * words a student can act on (exercise.h). */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "escape.h"
#include "exercise.h"

const char *sv_exercise_verdict_name(sv_exercise_verdict v)
{
    static const char *const names[] = {"passed", "race", "round", "output", "does not compile",
                                        "failed while running", "unavailable", "internal",
                                        "bank conflicts"};
    return (unsigned)v < sizeof names / sizeof names[0] ? names[v] : "internal";
}

int sv_exercise_exit_status(sv_exercise_verdict v)
{
    switch (v) {
    case SV_EXERCISE_PASSED: return 0;
    case SV_EXERCISE_RACE:
    case SV_EXERCISE_ROUND:
    case SV_EXERCISE_OUTPUT:
    case SV_EXERCISE_BANKS: return 4;
    case SV_EXERCISE_REFUSED: return 2;
    case SV_EXERCISE_RUN: return 5;
    case SV_EXERCISE_UNAVAILABLE: return 3;
    case SV_EXERCISE_INTERNAL: break;
    }
    return 1;
}

char *sv_exercise_input_words(const sv_exercise_spec *spec, size_t input, char *buf, size_t len)
{
    const sv_exercise_input *in = &spec->inputs[input];
    if (in->random) {
        snprintf(buf, len, "--random %zu --seed %llu", in->n, (unsigned long long)in->seed);
        return buf;
    }
    size_t at = (size_t)snprintf(buf, len, "--input \"");
    for (size_t i = 0; i < in->n && at + 24 < len; i++) {
        char v[32];
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "",
                               sv_value_format(spec->type, in->values[i], v, sizeof v));
    }
    if (at + 2 < len)
        snprintf(buf + at, len - at, "\"");
    return buf;
}

/* "sums to", "has the max", ...: what a window of op "does". */
static const char *window_verb(sv_op op)
{
    static const char *const verbs[SV_OP_COUNT] = {"sums to", "has the max", "has the min",
                                                   "multiplies to", "xors to"};
    return (unsigned)op < SV_OP_COUNT ? verbs[op] : "combines to";
}

static void race_words(const sv_ktrace *t, const sv_khazard *h, char *buf, size_t len)
{
    char cell[96];
    sv_ktrace_cell_name(t, h->array, h->cell, cell, sizeof cell);
    const sv_kaccess *rd = h->kind == SV_KHAZARD_RAW ? &h->second : &h->first;
    const sv_kaccess *wr = h->kind == SV_KHAZARD_RAW ? &h->first : &h->second;
    const sv_klaunch *l = sv_ktrace_launch_of(t, h->step);
    if (l && l->block) { /* a launch's: "block 1 thread 0", between blocks or in one */
        char r[48], w[48];
        sv_ktrace_thread_name(t, h->step, rd->thread, r, sizeof r);
        sv_ktrace_thread_name(t, h->step, wr->thread, w, sizeof w);
        const char *why = rd->thread / l->block != wr->thread / l->block
                              ? "nothing orders the blocks of a launch"
                              : "with no barrier between";
        if (h->kind == SV_KHAZARD_WAW)
            snprintf(buf, len, "race: %s and %s both wrote %s (lines %d and %d), in launch %zu "
                     "(%s): %s", r, w, cell, (int)h->first.line, (int)h->second.line,
                     (size_t)(l - t->launches) + 1, l->kernel, why);
        else
            snprintf(buf, len, "race: %s read %s while %s wrote it (lines %d and %d), in launch "
                     "%zu (%s): %s", r, cell, w, (int)rd->line, (int)wr->line,
                     (size_t)(l - t->launches) + 1, l->kernel, why);
        return;
    }
    if (h->kind == SV_KHAZARD_WAW)
        snprintf(buf, len, "race: threads %u and %u both wrote %s (lines %d and %d), in step %u "
                 "with no barrier between", h->first.thread, h->second.thread, cell,
                 (int)h->first.line, (int)h->second.line, h->step + 1);
    else
        snprintf(buf, len, "race: thread %u read %s while thread %u wrote it (lines %d and %d), "
                 "in step %u with no barrier between", rd->thread, cell, wr->thread,
                 (int)rd->line, (int)wr->line, h->step + 1);
}

static void round_words(const sv_ktrace *t, size_t step, char *buf, size_t len)
{
    const sv_kreading *r = &t->readings[step];
    char holds[40], want[40], row[96];
    sv_ktrace_cell_name(t, (uint32_t)r->pout_array, (int64_t)r->pout_row *
                        (t->arrays[r->pout_array].len / t->arrays[r->pout_array].rows), row,
                        sizeof row);
    char *br = strchr(row, '[');
    if (br && sv_ktrace_rows_named(t, (uint32_t)r->pout_array) > 1 && strchr(br + 1, '['))
        *strchr(br + 1, '[') = '\0'; /* "buf[1]" of "buf[1][0]" */
    else if (br)
        *br = '\0';
    sv_value_format(t->type, r->window_value, want, sizeof want);
    if (r->holds_known)
        sv_value_format(t->type, r->holds, holds, sizeof holds);
    snprintf(buf, len, "round %d, cell %u %s%s; the window [%u, %u] %s %s (step %zu, in %s)",
             r->round, r->first_broken, r->holds_known ? "holds " : "was never written",
             r->holds_known ? holds : "", r->window_lo, r->window_hi, window_verb(t->op), want,
             step + 1, row);
}

/* out[i]'s expected value and the window it combines. */
static sv_value expected_at(const sv_exercise_spec *s, const sv_ktrace *t, size_t i, size_t *lo,
                            size_t *k, double *mag)
{
    size_t hi = i;
    if (s->output_round > 0) {
        size_t w = (size_t)1 << s->output_round;
        *lo = i + 1 >= w ? i + 1 - w : 0;
    } else {
        *lo = 0;
        if (s->scan == SV_SCAN_EXCLUSIVE && i == 0) {
            *k = 0;
            *mag = 0;
            return sv_op_identity(s->op, s->type);
        }
        if (s->scan == SV_SCAN_EXCLUSIVE)
            hi = i - 1;
    }
    sv_value v = t->input[*lo];
    *mag = s->type == SV_TYPE_FLOAT32 ? (double)(v.f < 0 ? -v.f : v.f) : 0;
    for (size_t j = *lo + 1; j <= hi; j++) {
        v = sv_op_apply(s->op, s->type, v, t->input[j], NULL);
        if (s->type == SV_TYPE_FLOAT32)
            *mag += t->input[j].f < 0 ? -t->input[j].f : t->input[j].f;
    }
    *k = hi - *lo + 1;
    return v;
}

/* The first wrong out[] cell, in words; false when all are right. */
static bool output_words(const sv_exercise_spec *s, const sv_ktrace *t, char *buf, size_t len)
{
    for (size_t i = 0; i < t->n; i++) {
        size_t lo, k;
        double mag;
        sv_value want = expected_at(s, t, i, &lo, &k, &mag);
        bool ok = t->output_written[i] &&
                  (k == 0 ? t->output[i].bits == want.bits
                          : sv_kvalue_matches(s->op, s->type, t->output[i], want, k, mag));
        if (ok)
            continue;
        char got[40], w[40], what[96];
        sv_value_format(s->type, want, w, sizeof w);
        if (k == 0)
            snprintf(what, sizeof what, "the identity of %s", sv_op_name(s->op));
        else if (s->output_round > 0)
            snprintf(what, sizeof what, "round %d's window in[%zu .. %zu]", s->output_round, lo,
                     lo + k - 1);
        else
            snprintf(what, sizeof what, "the %s scan of in[%zu .. %zu]", sv_scan_name(s->scan),
                     lo, lo + k - 1);
        if (!t->output_written[i])
            snprintf(buf, len, "out[%zu] was never written; it should hold %s, %s", i, w, what);
        else
            snprintf(buf, len, "out[%zu] holds %s; it should hold %s, %s", i,
                     sv_value_format(s->type, t->output[i], got, sizeof got), w, what);
        return true;
    }
    return false;
}

/* Whether step k is a round of the chapter as the chapter has it: its
 * reading holds a round r >= 1 whole and every write of that row is a
 * thread's own cell (thread i writes cell i): the block's threads each
 * compute their cell from the round before. A trace without per-write
 * records (the GPU's) is taken at its reading. */
static bool chapter_round(const sv_ktrace *t, size_t k, int *round)
{
    const sv_kreading *r = &t->readings[k];
    if (!r->fits || r->broken || r->round < 1 || r->pout_array < 0)
        return false;
    const sv_kstep *s = &t->steps[k];
    const sv_karray *a = &t->arrays[r->pout_array];
    uint32_t first = (uint32_t)r->pout_row * (a->len / a->rows);
    for (size_t w = 0; w < s->nwrites; w++) {
        const sv_kaccess *x = &s->writes[w].at;
        if (x->array == (uint16_t)r->pout_array && x->cell >= first && x->cell < first + t->n &&
            x->thread != x->cell - first)
            return false;
    }
    *round = r->round;
    return true;
}

/* The one thread that wrote shared memory or out[] in the run, -1 when
 * several did (or none). */
static int32_t lone_writer(const sv_ktrace *t)
{
    int64_t who = -1;
    for (size_t k = 0; k < t->nsteps; k++)
        for (size_t w = 0; w < t->steps[k].nwrites; w++) {
            uint32_t th = t->steps[k].writes[w].at.thread;
            if (who >= 0 && who != th)
                return -1;
            who = th;
        }
    return (int32_t)who;
}

/* A "rounds chapter" exercise: every round the exercise asks for (1 .. R:
 * round R's windows in out[], else the whole scan, R = ceil(log2 n)) must
 * be some step's chapter round. False when one is missing, with words. */
static bool rounds_missing(const sv_exercise_spec *spec, const sv_ktrace *t, char *buf,
                           size_t len)
{
    int want = 0; /* ceil(log2 n): the rounds of the whole scan */
    while (((size_t)1 << want) < t->n)
        want++;
    if (spec->output_round > 0 && spec->output_round < want)
        want = spec->output_round;
    bool seen[64] = {false};
    size_t any = 0;
    for (size_t k = 0; k < t->nsteps && t->readings; k++) {
        int r;
        if (chapter_round(t, k, &r) && r < 64) {
            any += !seen[r];
            seen[r] = true;
        }
    }
    for (int r = 1; r <= want && r < 64; r++) {
        if (seen[r])
            continue;
        int32_t lone = lone_writer(t);
        if (!any && lone >= 0)
            snprintf(buf, len, "no step is one of the chapter's rounds: thread %d did the scan "
                     "alone", (int)lone);
        else if (!any)
            snprintf(buf, len, "no step is one of the chapter's rounds (in round r every thread "
                     "i writes its own cell i from the round before, adding the cell 2^(r-1) to "
                     "its left when there is one)");
        else
            snprintf(buf, len, "round %d of the chapter (stride %d) never happened: no step holds "
                     "its windows with every thread writing its own cell", r, 1 << (r - 1));
        return true;
    }
    return false;
}

/* More bank conflicts than the spec allows: "bank conflicts: 96 (64 of
 * loads, 32 of stores) where at most 0 may be; the most at line 27 (64)". */
static bool banks_words(const sv_exercise_spec *spec, const sv_ktrace *t, char *buf, size_t len)
{
    uint64_t all = t->bank_loads + t->bank_stores;
    if (!spec->banks || !t->banks_counted || all <= spec->max_banks)
        return false;
    /* The conflicts by line, over the steps: the first 64 lines that have any
     * (a kernel file's conflicting lines are few; the rest are left out). */
    enum { LINES = 64 };
    int32_t lines[LINES];
    uint64_t sums[LINES];
    size_t nlines = 0;
    for (size_t k = 0; k < t->nbanks; k++) {
        size_t m = 0;
        while (m < nlines && lines[m] != t->banks[k].line)
            m++;
        if (m == nlines) {
            if (nlines == LINES)
                continue;
            lines[nlines] = t->banks[k].line;
            sums[nlines++] = 0;
        }
        sums[m] += t->banks[k].loads + t->banks[k].stores;
    }
    int32_t line = 0;
    uint64_t most = 0;
    for (size_t m = 0; m < nlines; m++)
        if (sums[m] > most) {
            most = sums[m];
            line = lines[m];
        }
    size_t at = (size_t)snprintf(buf, len, "bank conflicts: %llu (%llu of loads, %llu of stores) "
                                 "where at most %llu may be", (unsigned long long)all,
                                 (unsigned long long)t->bank_loads,
                                 (unsigned long long)t->bank_stores,
                                 (unsigned long long)spec->max_banks);
    if (line > 0 && at < len)
        snprintf(buf + at, len - at, "; the most at line %d (%llu)", (int)line,
                 (unsigned long long)most);
    return true;
}

static sv_exercise_verdict failure_verdict(sv_kfail_kind k)
{
    switch (k) {
    case SV_KFAIL_COMPILE:
    case SV_KFAIL_SIGNATURE:
    case SV_KFAIL_INCLUDE:
    case SV_KFAIL_REFUSED: return SV_EXERCISE_REFUSED;
    case SV_KFAIL_UNAVAILABLE: return SV_EXERCISE_UNAVAILABLE;
    case SV_KFAIL_INTERNAL: return SV_EXERCISE_INTERNAL;
    default: return SV_EXERCISE_RUN;
    }
}

sv_exercise_verdict sv_exercise_judge(const sv_exercise_spec *spec, size_t input,
                                      const sv_ktrace *t, char *words, size_t len)
{
    char what[1400], in[256], esc[1600];
    sv_exercise_verdict v = SV_EXERCISE_PASSED;
    what[0] = '\0';
    if (t->failure.kind != SV_KFAIL_NONE) {
        v = failure_verdict(t->failure.kind);
        sv_ktrace_failure_words(t, what, sizeof what);
    } else if (t->nhazards > 0) {
        v = SV_EXERCISE_RACE;
        race_words(t, &t->hazards[0], what, sizeof what);
    } else if (t->hazards_total > 0) {
        v = SV_EXERCISE_RACE;
        snprintf(what, sizeof what, "race: %llu hazards", (unsigned long long)t->hazards_total);
    } else if (spec->rounds && t->first_broken_step >= 0 && t->readings) {
        v = SV_EXERCISE_ROUND;
        round_words(t, (size_t)t->first_broken_step, what, sizeof what);
    } else if (output_words(spec, t, what, sizeof what)) {
        v = SV_EXERCISE_OUTPUT;
    } else if (spec->rounds && rounds_missing(spec, t, what, sizeof what)) {
        v = SV_EXERCISE_ROUND;
    } else if (banks_words(spec, t, what, sizeof what)) {
        v = SV_EXERCISE_BANKS;
    }
    if (v == SV_EXERCISE_PASSED) {
        snprintf(words, len, "passed");
        return v;
    }
    sv_escape(what, esc, sizeof esc);
    sv_exercise_input_words(spec, input, in, sizeof in);
    if (v == SV_EXERCISE_REFUSED || v == SV_EXERCISE_UNAVAILABLE)
        snprintf(words, len, "%s", esc);
    else
        snprintf(words, len, "%s; shown by n = %zu with %s --schedule %s", esc, t->n, in,
                 t->schedule ? t->schedule : "lockstep");
    return v;
}
