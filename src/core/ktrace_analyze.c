/* The chapter's reading of a kernel trace (ktrace.h, sv_ktrace_analyze): the
 * expected scan and the first wrong output cell, each step read against the
 * invariant "after round r, cell i holds op over input[max(0, i-2^r+1) .. i]",
 * and the chapter-shaped trace of a kernel that follows it. */
#include "ktrace.h"
#include "ktrace_reading.h"
#include "ktrace_shuffle.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reference.h"

/* The windows of every round, r = 0 .. R (R = 1 + ceil(log2 n) - 1; later
 * rounds have round R's windows: all reach cell 0): the value the chapter's
 * kernel holds (its order of operations), and for the float tolerance the
 * window's magnitude (sum of |x|, or |product|) and its length. */
typedef struct windows {
    size_t n, nrounds;
    sv_value *value; /* [r * n + i] */
    double *mag;     /* [r * n + i] */
} windows;

static void windows_free(windows *w)
{
    free(w->value);
    free(w->mag);
}

static bool windows_make(const sv_ktrace *t, windows *w, char *err, size_t errlen)
{
    size_t n = t->n;
    w->n = n;
    w->nrounds = sv_round_count(n);
    w->value = malloc(w->nrounds * n * sizeof *w->value);
    w->mag = malloc(w->nrounds * n * sizeof *w->mag);
    if (!w->value || !w->mag) {
        windows_free(w);
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    bool product = t->op == SV_OP_PRODUCT;
    for (size_t i = 0; i < n; i++) {
        w->value[i] = t->input[i];
        w->mag[i] = t->type == SV_TYPE_FLOAT32 ? fabs((double)t->input[i].f) : 0;
    }
    for (size_t r = 1; r < w->nrounds; r++) {
        size_t s = (size_t)1 << (r - 1);
        const sv_value *pv = w->value + (r - 1) * n;
        const double *pm = w->mag + (r - 1) * n;
        for (size_t i = 0; i < n; i++) {
            sv_value *v = &w->value[r * n + i];
            double *m = &w->mag[r * n + i];
            if (i < s) {
                *v = pv[i];
                *m = pm[i];
            } else {
                *v = sv_op_apply(t->op, t->type, pv[i - s], pv[i], NULL);
                *m = product ? pm[i - s] * pm[i] : pm[i - s] + pm[i];
            }
        }
    }
    return true;
}

static size_t window_lo(size_t r, size_t i)
{
    if (r >= 31)
        return 0;
    size_t span = (size_t)1 << r;
    return i + 1 >= span ? i + 1 - span : 0;
}

bool sv_kvalue_matches(sv_op op, sv_type type, sv_value got, sv_value want, size_t k, double mag)
{
    if (got.bits == want.bits)
        return true;
    if (type != SV_TYPE_FLOAT32 || (op != SV_OP_SUM && op != SV_OP_PRODUCT))
        return false;
    if (!isfinite(got.f) || !isfinite(want.f))
        return false;
    return fabs((double)got.f - (double)want.f) <= (double)k * ldexp(mag, -23);
}

/* Whether round r's windows hold in row (a, row) of step s; *bad the first
 * cell that does not. */
static bool row_holds(const sv_ktrace *t, const windows *w, const sv_kstep *s, size_t a,
                      size_t row, size_t r, size_t *bad)
{
    size_t n = t->n, base = row * (t->arrays[a].len / t->arrays[a].rows);
    size_t wr = r < w->nrounds ? r : w->nrounds - 1;
    for (size_t i = 0; i < n; i++) {
        size_t k = i - window_lo(r, i) + 1;
        if (!s->written[a][base + i] ||
            !sv_kvalue_matches(t->op, t->type, s->cells[a][base + i], w->value[wr * n + i], k,
                               w->mag[wr * n + i])) {
            *bad = i;
            return false;
        }
    }
    return true;
}

/* The one row of the first n cells of one shared array that step s wrote
 * in, or false (no shared write, or writes elsewhere). */
static bool written_row(const sv_ktrace *t, const sv_kstep *s, size_t *array, size_t *row)
{
    bool found = false;
    for (size_t a = 0; a < t->narrays; a++) {
        if (t->arrays[a].kind != SV_KARRAY_SHARED)
            continue;
        size_t rowlen = t->arrays[a].len / t->arrays[a].rows;
        for (size_t c = 0; c < t->arrays[a].len; c++) {
            if (!s->wrote[a][c])
                continue;
            size_t r = c / rowlen;
            if (c % rowlen >= t->n || rowlen < t->n)
                return false;
            if (found && (a != *array || r != *row))
                return false;
            found = true;
            *array = a;
            *row = r;
        }
    }
    return found;
}

/* Reads step k against round `expect` (the round after the last one read). */
static void read_step(const sv_ktrace *t, const windows *w, size_t k, int expect,
                      sv_kreading *rd)
{
    const sv_kstep *s = &t->steps[k];
    size_t a, row, bad = 0;
    if (!written_row(t, s, &a, &row))
        return;
    rd->fits = true;
    rd->expected_round = expect;
    rd->pout_array = (int32_t)a;
    rd->pout_row = (int32_t)row;
    if (row_holds(t, w, s, a, row, (size_t)expect, &bad)) {
        rd->round = expect;
        return;
    }
    size_t first_bad = bad;
    for (size_t r = 0; r < w->nrounds; r++) {
        if ((int)r != expect && row_holds(t, w, s, a, row, r, &bad)) {
            rd->round = (int)r;
            return;
        }
    }
    size_t n = t->n, base = row * (t->arrays[a].len / t->arrays[a].rows);
    size_t wr = (size_t)expect < w->nrounds ? (size_t)expect : w->nrounds - 1;
    rd->round = expect;
    rd->broken = true;
    rd->first_broken = (uint32_t)first_bad;
    rd->holds_known = s->written[a][base + first_bad];
    rd->holds = rd->holds_known ? s->cells[a][base + first_bad] : (sv_value){0};
    rd->window_lo = (uint32_t)window_lo((size_t)expect, first_bad);
    rd->window_hi = (uint32_t)first_bad;
    rd->window_value = w->value[wr * n + first_bad];
}

/* Each cell of out against the scan: wrong[i] (NULL: stop at the first).
 * Returns the first wrong cell, -1 none; *count the wrong ones. */
static int32_t scan_check(sv_op op, sv_type type, sv_scan scan, const sv_value *input,
                          const sv_value *expected, const sv_value *out, const bool *written,
                          size_t n, bool *wrong, size_t *count)
{
    /* mag: the magnitudes of the inputs cell i combines, added (multiplied
     * for product), the scale of its float32 rounding. */
    double m = op == SV_OP_PRODUCT ? 1 : 0;
    int32_t first = -1;
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        double x = type == SV_TYPE_FLOAT32 ? fabs((double)input[i].f) : 0;
        double mag = m;
        m = op == SV_OP_PRODUCT ? m * x : m + x;
        if (scan == SV_SCAN_INCLUSIVE)
            mag = m;
        size_t k = scan == SV_SCAN_EXCLUSIVE ? i : i + 1;
        bool bad = (written && !written[i]) ||
                   !sv_kvalue_matches(op, type, out[i], expected[i], k ? k : 1, mag);
        if (wrong)
            wrong[i] = bad;
        if (!bad)
            continue;
        ++*count;
        if (first < 0)
            first = (int32_t)i;
        if (!wrong)
            break;
    }
    return first;
}

bool sv_kround_windows(const sv_ktrace *t, int round, sv_value *want, double *mag, char *err,
                       size_t errlen)
{
    windows w;
    if (!windows_make(t, &w, err, errlen))
        return false;
    size_t r = round < 0 ? 0 : (size_t)round < w.nrounds ? (size_t)round : w.nrounds - 1;
    memcpy(want, w.value + r * t->n, t->n * sizeof *want);
    memcpy(mag, w.mag + r * t->n, t->n * sizeof *mag);
    windows_free(&w);
    return true;
}

bool sv_kround_cell_right(const sv_ktrace *t, int round, size_t i, sv_value got, sv_value want,
                          double mag)
{
    size_t r = round < 0 ? 0 : (size_t)round;
    return sv_kvalue_matches(t->op, t->type, got, want, i - window_lo(r, i) + 1, mag);
}

bool sv_ktrace_want(const sv_ktrace *t, sv_value *want, double *mag, char *err, size_t errlen)
{
    if (t->output_round > 0)
        return sv_kround_windows(t, t->output_round, want, mag, err, errlen);
    sv_reference_scan(t->op, t->type, t->scan, t->input, want, t->n);
    for (size_t i = 0; i < t->n; i++)
        mag[i] = 0.0; /* (the scan's tolerance is scan_check's own) */
    return true;
}

int32_t sv_ktrace_out_check(const sv_ktrace *t, const sv_value *want, const double *mag,
                            const sv_value *out, const bool *written, bool *wrong)
{
    if (t->output_round <= 0) {
        size_t count;
        return scan_check(t->op, t->type, t->scan, t->input, want, out, written, t->n, wrong,
                          &count);
    }
    int32_t first = -1;
    for (size_t i = 0; i < t->n; i++) {
        bool bad = (written && !written[i]) ||
                   !sv_kround_cell_right(t, t->output_round, i, out[i], want[i], mag[i]);
        if (wrong)
            wrong[i] = bad;
        if (bad && first < 0) {
            first = (int32_t)i;
            if (!wrong)
                break;
        }
    }
    return first;
}

/* expected (the scan, or the exercise's round: output_round), and
 * first_wrong and output_wrong against it. */
static bool check_output(sv_ktrace *t, char *err, size_t errlen)
{
    size_t n = t->n;
    free(t->output_wrong);
    t->output_wrong = calloc(n ? n : 1, sizeof *t->output_wrong);
    if ((!t->expected && !(t->expected = malloc(n * sizeof *t->expected))) || !t->output_wrong) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    double *mag = malloc(n * sizeof *mag);
    if (!mag || !sv_ktrace_want(t, t->expected, mag, err, errlen)) {
        if (!mag)
            sv_errorf(err, errlen, "out of memory");
        free(mag);
        return false;
    }
    t->first_wrong = sv_ktrace_out_check(t, t->expected, mag, t->output, t->output_written,
                                         t->output_wrong);
    free(mag);
    return true;
}

/* Which cells of each reading row hold their expected round's window. */
static void mark_wrong(sv_ktrace *t, const windows *w)
{
    size_t n = t->n;
    for (size_t k = 0; k < t->nsteps; k++) {
        const sv_kreading *rd = &t->readings[k];
        bool *out = t->cell_wrong + k * n;
        if (!rd->fits || rd->pout_array < 0)
            continue;
        const sv_kstep *s = &t->steps[k];
        size_t a = (size_t)rd->pout_array;
        size_t base = (size_t)rd->pout_row * (t->arrays[a].len / t->arrays[a].rows);
        size_t r = (size_t)(rd->expected_round < 0 ? 0 : rd->expected_round);
        size_t wr = r < w->nrounds ? r : w->nrounds - 1;
        for (size_t i = 0; i < n; i++)
            out[i] = !s->written[a][base + i] ||
                     !sv_kvalue_matches(t->op, t->type, s->cells[a][base + i],
                                        w->value[wr * n + i], i - window_lo(r, i) + 1,
                                        w->mag[wr * n + i]);
    }
}

/* Whether the kernel's source declares array name as an unsized (extern)
 * array, "s[]"; true without a source to look in. */
static bool declared_unsized(const sv_ktrace *t, const char *name)
{
    if (!t->source || !name || !name[0])
        return true;
    size_t len = strlen(name);
    for (const char *p = strstr(t->source, name); p; p = strstr(p + 1, name)) {
        bool start = p == t->source || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        const char *q = p + len;
        while (*q == ' ' || *q == '\t')
            q++;
        if (start && q[0] == '[' && q[1] == ']')
            return true;
    }
    return false;
}

/* An array the runtime gave two rows of n (the dynamic shared memory's 2n
 * cells) whose second row no step wrote or read: the kernel used it as one
 * buffer, and its names are s[i], not s[0][i]. */
static bool one_buffer(const sv_ktrace *t, uint32_t a)
{
    const sv_karray *arr = &t->arrays[a];
    /* a run that stopped early kept only some of its steps: not enough to say */
    if (arr->kind != SV_KARRAY_SHARED || arr->rows != 2 || arr->len != 2 * t->n ||
        t->nsteps == 0 || t->failure.kind != SV_KFAIL_NONE || !declared_unsized(t, arr->name))
        return false;
    const sv_kstep *last = &t->steps[t->nsteps - 1];
    for (uint32_t c = (uint32_t)t->n; c < arr->len; c++)
        if (last->written[a][c])
            return false;
    for (size_t k = 0; k < t->nsteps; k++)
        for (size_t r = 0; r < t->steps[k].nreads; r++)
            if (t->steps[k].reads[r].array == a && t->steps[k].reads[r].cell >= t->n)
                return false;
    return true;
}

uint32_t sv_ktrace_rows_named(const sv_ktrace *t, uint32_t a)
{
    if (!t || a >= t->narrays)
        return 1;
    if (t->one_buffer && a < t->one_buffer_n && t->one_buffer[a])
        return 1;
    return t->arrays[a].rows ? t->arrays[a].rows : 1;
}

/* out[] after the kernel, of the shown run: a trace of several runs holds
 * the shown run's steps, and out's array after its last step is that run's
 * out[] at the kernel's end. The CPU runtime's trace of --runs R fills
 * output from the last run it made, which with the shown run 0 is another
 * run (the table's "shown: run 0" printed it; the window's caption and kout
 * said it beside run 0's cells): the shown run's last step wins, so that
 * everything shown is one run's. Only where that step is the end of a run
 * that ran to it (no failure, no steps dropped). */
static void output_of_shown_run(sv_ktrace *t)
{
    if (t->runs <= 1 || t->nsteps == 0 || t->steps_dropped || t->failure.kind != SV_KFAIL_NONE ||
        !t->output || !t->output_written)
        return;
    const sv_kstep *last = &t->steps[t->nsteps - 1];
    for (size_t a = 0; a < t->narrays; a++) {
        if (t->arrays[a].kind != SV_KARRAY_OUT || t->arrays[a].len != t->n || !last->cells ||
            !last->cells[a] || !last->written[a])
            continue;
        for (size_t i = 0; i < t->n; i++) {
            t->output_written[i] = last->written[a][i];
            t->output[i] = last->written[a][i] ? last->cells[a][i] : (sv_value){.bits = 0};
        }
        return;
    }
}

/* One float32 notation for the whole trace: positional unless a value of
 * the input, a written cell or out needs the exponent (table.c's rule). */
static sv_float_style float_style_of(const sv_ktrace *t)
{
    if (t->type != SV_TYPE_FLOAT32)
        return SV_FLOAT_SHORTEST;
    if (sv_float_style_of(t->type, t->input, t->n) == SV_FLOAT_EXPONENT)
        return SV_FLOAT_EXPONENT;
    for (size_t i = 0; t->output && i < t->n; i++)
        if (t->output_written[i] &&
            sv_float_style_of(t->type, &t->output[i], 1) == SV_FLOAT_EXPONENT)
            return SV_FLOAT_EXPONENT;
    for (size_t k = 0; k < t->nsteps; k++)
        for (size_t a = 0; a < t->narrays; a++)
            for (uint32_t c = 0; c < t->arrays[a].len; c++)
                if (t->steps[k].written[a][c] &&
                    sv_float_style_of(t->type, &t->steps[k].cells[a][c], 1) == SV_FLOAT_EXPONENT)
                    return SV_FLOAT_EXPONENT;
    return SV_FLOAT_POSITIONAL;
}

/* No step read as one of the chapter's rounds. */
static void no_rounds(sv_ktrace *t)
{
    for (size_t k = 0; k < t->nsteps; k++)
        t->readings[k] = (sv_kreading){.round = -1, .pout_array = -1, .pout_row = -1,
                                       .pin_array = -1, .pin_row = -1, .expected_round = -1};
    t->first_broken_step = -1;
}

bool sv_ktrace_analyze(sv_ktrace *t, char *err, size_t errlen)
{
    windows w;
    output_of_shown_run(t);
    t->float_style = float_style_of(t);
    free(t->one_buffer);
    t->one_buffer = calloc(t->narrays ? t->narrays : 1, sizeof *t->one_buffer);
    if (!t->one_buffer) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    t->one_buffer_n = t->narrays;
    for (size_t a = 0; a < t->narrays; a++)
        t->one_buffer[a] = one_buffer(t, (uint32_t)a);
    if (!check_output(t, err, errlen))
        return false;
    free(t->regrounds);
    t->regrounds = calloc(t->narrays ? t->narrays : 1, sizeof *t->regrounds);
    if (!t->regrounds) {
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    for (size_t a = 0; a < t->narrays; a++)
        sv_ktrace_reg_rounds(t, (uint32_t)a, &t->regrounds[a]);
    if (!windows_make(t, &w, err, errlen))
        return false;
    free(t->cell_wrong);
    t->cell_wrong = calloc(t->nsteps ? t->nsteps * t->n : 1, sizeof *t->cell_wrong);
    if (!t->cell_wrong) {
        windows_free(&w);
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    free(t->readings);
    t->readings = calloc(t->nsteps ? t->nsteps : 1, sizeof *t->readings);
    if (!t->readings) {
        windows_free(&w);
        sv_errorf(err, errlen, "out of memory");
        return false;
    }
    int expect = 0;
    int32_t pin_array = -1, pin_row = -1;
    t->first_broken_step = -1;
    for (size_t k = 0; k < t->nsteps; k++) {
        sv_kreading *rd = &t->readings[k];
        rd->round = -1;
        rd->pout_array = rd->pout_row = -1;
        read_step(t, &w, k, expect, rd);
        rd->pin_array = rd->fits ? pin_array : -1;
        rd->pin_row = rd->fits ? pin_row : -1;
        if (!rd->fits)
            continue;
        if (rd->broken && t->first_broken_step < 0)
            t->first_broken_step = (int32_t)k;
        /* After the last round the windows reach cell 0 and stay so. */
        expect = rd->round + 1 < (int)w.nrounds ? rd->round + 1 : (int)w.nrounds - 1;
        pin_array = rd->pout_array;
        pin_row = rd->pout_row;
    }
    /* A kernel whose output is the scan and whose steps do not hold the
     * chapter's invariant computes it another way (a student's Blelloch, a
     * tree): the chapter's rounds do not describe it, so none of its steps
     * is read as one, and nothing is called broken. A wrong output keeps
     * its broken step: that is where it went wrong. */
    if (t->first_broken_step >= 0 && t->first_wrong < 0 && t->failure.kind == SV_KFAIL_NONE)
        no_rounds(t);
    /* Nor do they describe the steps of a reading with its own (Blelloch's
     * tree, whose staging alone would read as round 0). */
    t->reading = sv_reading_pick(t);
    if (!t->reading->rounds)
        no_rounds(t);
    mark_wrong(t, &w);
    windows_free(&w);
    return true;
}

/* ---- The chapter's reading (ktrace_reading.h) ------------------------------ */

/* The chapter's rounds fit where a step was read as one. */
static bool rounds_fit(const sv_ktrace *t)
{
    for (size_t k = 0; t->readings && k < t->nsteps; k++)
        if (t->readings[k].fits)
            return true;
    return false;
}

/* A step read as a chapter round is named by the loop's own count (the
 * how-many-th such step), not by the round its cells happen to match (an
 * in-place race's first iteration holds round 3's windows: still r1). */
static char *round_label(const sv_ktrace *t, size_t k, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!t->readings || k >= t->nsteps || !t->readings[k].fits)
        return buf;
    int ordinal = 0;
    for (size_t j = 0; j < k; j++)
        ordinal += t->readings[j].fits;
    snprintf(buf, len, "r%d", ordinal);
    return buf;
}

/* Its words are the pane's and the table's own, read from t->readings. */
const sv_reading sv_reading_hillis_steele = {
    .name = "hillis-steele",
    .detect = rounds_fit,
    .rounds = true,
    .step_label = round_label,
};

/* ---- The chapter-shaped trace -------------------------------------------- */

/* Which buffer of the chapter's trace each row is: rows of round 0 and 1
 * (the double buffer) or one row. Returns false with err when the reading
 * is not the chapter's. */
static bool chapter_rows(const sv_ktrace *t, size_t nrounds, size_t *step_of, bool *one_row,
                         char *err, size_t errlen)
{
    size_t r = 0;
    for (size_t k = 0; k < t->nsteps; k++) {
        const sv_kreading *rd = &t->readings[k];
        if (!rd->fits)
            continue;
        if (rd->broken || rd->round != (int)r || r >= nrounds) {
            if (rd->broken)
                sv_errorf(err, errlen, "step %zu breaks the chapter's invariant", k + 1);
            else if (r < nrounds)
                sv_errorf(err, errlen, "step %zu is round %d where the chapter's kernel has "
                          "round %zu", k + 1, rd->round, r);
            else
                sv_errorf(err, errlen, "step %zu is round %d after the chapter's last round",
                          k + 1, rd->round);
            return false;
        }
        step_of[r++] = k;
    }
    if (r != nrounds) {
        sv_errorf(err, errlen, "%zu of the chapter's %zu rounds (round 0 included) were found",
                  r, nrounds);
        return false;
    }
    const sv_kreading *r0 = &t->readings[step_of[0]];
    *one_row = true;
    for (size_t q = 1; q < nrounds; q++) {
        const sv_kreading *rd = &t->readings[step_of[q]];
        bool same = rd->pout_array == r0->pout_array && rd->pout_row == r0->pout_row;
        *one_row = *one_row && same;
        const sv_kreading *other = nrounds > 1 ? &t->readings[step_of[1]] : r0;
        const sv_kreading *want = q % 2 ? other : r0;
        if (!*one_row && (rd->pout_array != want->pout_array || rd->pout_row != want->pout_row)) {
            sv_errorf(err, errlen, "step %zu (round %zu) writes neither the one row nor the "
                      "double buffer's other row", step_of[q] + 1, q);
            return false;
        }
    }
    return true;
}

sv_trace *sv_ktrace_chapter_trace(const sv_ktrace *t, char *err, size_t errlen)
{
    if (!t->readings) {
        sv_errorf(err, errlen, "the kernel trace has not been read (sv_ktrace_analyze)");
        return NULL;
    }
    size_t nrounds = sv_round_count(t->n);
    size_t step_of[64];
    bool one_row = false;
    if (!chapter_rows(t, nrounds, step_of, &one_row, err, errlen))
        return NULL;
    sv_trace *c = sv_trace_create(t->op, t->type, t->scan, t->input, t->n,
                                  t->backend, t->device, err, errlen);
    if (!c)
        return NULL;
    size_t n = t->n;
    for (size_t r = 0; r < nrounds; r++) {
        sv_round *rd = &c->rounds[r];
        if (one_row && r > 0)
            rd->pin = rd->pout = 0;
        /* The state after round r's step: round 0's row is buf[0], round
         * 1's (double buffer) buf[1]. */
        const sv_kstep *s = &t->steps[step_of[r]];
        for (int b = 0; b < 2; b++) {
            const sv_kreading *src = &t->readings[step_of[b == 0 || nrounds < 2 ? 0 : 1]];
            if (b == 1 && (one_row || nrounds < 2))
                continue;
            size_t a = (size_t)src->pout_array;
            size_t base = (size_t)src->pout_row * (t->arrays[a].len / t->arrays[a].rows);
            memcpy(rd->buf[b], s->cells[a] + base, n * sizeof *rd->buf[b]);
            memcpy(rd->written[b], s->written[a] + base, n * sizeof *rd->written[b]);
        }
    }
    if (!sv_trace_finish(c, err, errlen)) {
        sv_trace_destroy(c);
        return NULL;
    }
    return c;
}

sv_ktrace *sv_ktrace_of_rounds(const sv_trace *c, char *err, size_t errlen)
{
    sv_ktrace *k = sv_ktrace_create("correct", c->op, c->type, c->scan, c->input, c->n, err,
                                    errlen);
    if (k && !sv_ktrace_set_text(&k->device, c->device, err, errlen)) {
        sv_ktrace_destroy(k);
        return NULL;
    }
    if (k) /* it ran where the rounds did */
        k->backend = c->backend;
    uint32_t n = (uint32_t)c->n;
    bool ok = k && sv_ktrace_add_array(k, "buf", SV_KARRAY_SHARED, 2 * n, 2, err, errlen) >= 0 &&
              sv_ktrace_add_array(k, "out", SV_KARRAY_OUT, n, 1, err, errlen) >= 0;
    for (size_t r = 0; ok && r <= c->nrounds; r++) {
        sv_kstep *st = sv_ktrace_add_step(k, 0, err, errlen);
        if (!(ok = st != NULL))
            break;
        if (r == c->nrounds) { /* out[i] = the last round's cell */
            for (uint32_t i = 0; i < n; i++) {
                sv_ktrace_set_output(k, i, c->output[i]);
                sv_kstep_set_cell(k, st, 1, i, c->output[i]);
            }
            break;
        }
        const sv_round *R = &c->rounds[r];
        int row = R->pout < 0 ? 0 : R->pout;
        for (uint32_t i = 0; i < n; i++)
            if (R->written[row][i])
                sv_kstep_set_cell(k, st, 0, (uint32_t)row * n + i, R->buf[row][i]);
    }
    if (ok && sv_ktrace_analyze(k, err, errlen))
        return k;
    sv_ktrace_destroy(k);
    return NULL;
}
