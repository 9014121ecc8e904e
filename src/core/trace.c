/* The trace model: allocation, the annotations every backend shares
 * (sv_trace_finish), the chapter's invariant check (sv_trace_check) and
 * bit-identity of two traces (sv_trace_equal). */
#include "trace.h"
#include "free_all.h"
#include "ktrace.h"
#include "lab_record.h"
#include "names.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

size_t sv_round_count(size_t n)
{
    size_t rounds = 1;
    for (size_t s = 1; s < n; s *= 2)
        rounds++;
    return rounds;
}

static size_t pow2(int k)
{
    return k >= 0 && k < 63 ? (size_t)1 << k : SIZE_MAX;
}

sv_case sv_case_of(int round, size_t i)
{
    if (i < pow2(round - 1))
        return SV_CASE_COPY;
    if (i < pow2(round) - 1)
        return SV_CASE_PARTIAL;
    return SV_CASE_FULL;
}

static const char *const case_names[] = {"copy", "partial", "full"};

const char *sv_case_name(sv_case c)
{
    return (unsigned)c <= SV_CASE_FULL ? case_names[c] : NULL;
}

bool sv_case_from_name(const char *name, sv_case *out)
{
    int i = SV_STRING_INDEX(name, case_names, SV_CASE_FULL + 1);
    if (i >= 0 && out)
        *out = (sv_case)i;
    return i >= 0;
}

const char *sv_backend_name(sv_backend b)
{
    switch (b) {
    case SV_BACKEND_CPU: return "cpu";
    case SV_BACKEND_CUDA: return "cuda";
    }
    return NULL;
}

/* ---- Allocation --------------------------------------------------------- */

/* sv_trace_create() for n up to max_n, with nrounds rounds. */
static sv_trace *create(sv_op op, sv_type type, sv_scan scan, const sv_value *input, size_t n,
                        size_t max_n, size_t nrounds, sv_backend backend, const char *device,
                        char *err, size_t errlen)
{
    if (!sv_op_valid(op, type, err, errlen))
        return NULL;
    if (scan != SV_SCAN_INCLUSIVE && scan != SV_SCAN_EXCLUSIVE) {
        snprintf(err, errlen, "unknown scan kind %d", (int)scan);
        return NULL;
    }
    if (!sv_count_valid(n, max_n, err, errlen))
        return NULL;
    sv_trace *t = malloc(sizeof *t);
    if (!t)
        goto fail_oom;
    *t = (sv_trace){.op = op, .type = type, .scan = scan, .n = n, .backend = backend};
    if (device && !(t->device = strdup(device)))
        goto fail_oom;
    if (!(t->input = malloc(n * sizeof *t->input)))
        goto fail_oom;
    memcpy(t->input, input, n * sizeof *t->input);
    t->nrounds = nrounds ? nrounds : sv_round_count(n);
    if (!(t->rounds = calloc(t->nrounds, sizeof *t->rounds)))
        goto fail_oom;
    for (size_t r = 0; r < t->nrounds; r++) {
        sv_round *rd = &t->rounds[r];
        rd->round = (int)r;
        rd->stride = r == 0 ? 0 : (uint32_t)pow2((int)r - 1);
        rd->pin = r == 0 ? -1 : (int)((r - 1) % 2);
        rd->pout = r == 0 ? -1 : (int)(r % 2);
        for (int b = 0; b < 2; b++) {
            rd->buf[b] = calloc(n, sizeof *rd->buf[b]);
            rd->written[b] = calloc(n, sizeof *rd->written[b]);
            if (!rd->buf[b] || !rd->written[b])
                goto fail_oom;
        }
    }
    return t;
fail_oom:
    snprintf(err, errlen, "out of memory allocating a trace of %zu values", n);
    sv_trace_destroy(t);
    return NULL;
}

sv_trace *sv_trace_create(sv_op op, sv_type type, sv_scan scan,
                          const sv_value *input, size_t n,
                          sv_backend backend, const char *device,
                          char *err, size_t errlen)
{
    return create(op, type, scan, input, n, SV_MAX_N, 0, backend, device, err, errlen);
}

sv_trace *sv_trace_create_input(sv_op op, sv_type type, sv_scan scan, const sv_value *input,
                                size_t n, char *err, size_t errlen)
{
    sv_trace *t = create(op, type, scan, input, n, SV_MAX_N_BLOCKS, 1, SV_BACKEND_CPU, NULL, err,
                         errlen);
    if (!t)
        return NULL;
    memcpy(t->rounds[0].buf[0], input, n * sizeof *input);
    memset(t->rounds[0].written[0], 1, n * sizeof *t->rounds[0].written[0]);
    t->inclusive = malloc(n * sizeof *t->inclusive);
    t->output = malloc(n * sizeof *t->output);
    if (!t->inclusive || !t->output) {
        snprintf(err, errlen, "out of memory allocating a trace of %zu values", n);
        sv_trace_destroy(t);
        return NULL;
    }
    sv_reference_scan(op, type, SV_SCAN_INCLUSIVE, input, t->inclusive, n);
    sv_reference_scan(op, type, scan, input, t->output, n);
    return t;
}

void sv_trace_destroy(sv_trace *t)
{
    if (!t)
        return;
    for (size_t r = 0; t->rounds && r < t->nrounds; r++) {
        sv_round *rd = &t->rounds[r];
        for (int b = 0; b < 2; b++) {
            free(rd->buf[b]);
            free(rd->written[b]);
        }
        SV_FREE_ALL(rd->cases, rd->window_lo, rd->overflow);
    }
    SV_FREE_ALL(t->rounds, t->input, t->device, t->inclusive, t->output);
    sv_lab_record_destroy(t->lab);
    sv_ktrace_destroy(t->run);
    free(t);
}

/* ---- Annotations ---------------------------------------------------------- */

bool sv_trace_finish(sv_trace *t, char *err, size_t errlen)
{
    size_t n = t->n;
    sv_value *ref = NULL;
    bool can_wrap = t->type == SV_TYPE_INT32 && (t->op == SV_OP_SUM || t->op == SV_OP_PRODUCT);
    t->total_ops = 0;
    t->overflow_count = 0;
    for (size_t r = 1; r < t->nrounds; r++) {
        sv_round *rd = &t->rounds[r];
        if (!rd->cases && !(rd->cases = malloc(n * sizeof *rd->cases)))
            goto fail_oom;
        if (!rd->window_lo && !(rd->window_lo = malloc(n * sizeof *rd->window_lo)))
            goto fail_oom;
        if (!rd->overflow && !(rd->overflow = malloc(n * sizeof *rd->overflow)))
            goto fail_oom;
        size_t s = rd->stride, span = pow2((int)r);
        const sv_value *pin = rd->buf[rd->pin];
        rd->overflow_count = 0;
        for (size_t i = 0; i < n; i++) {
            rd->cases[i] = sv_case_of((int)r, i);
            rd->window_lo[i] = (uint32_t)(i + 1 >= span ? i + 1 - span : 0);
            rd->overflow[i] = false;
            /* Recompute what the kernel computed from pin, to learn whether
             * that operation wrapped (int32 sum and product only). */
            if (i >= s && can_wrap)
                sv_op_apply(t->op, t->type, pin[i - s], pin[i], &rd->overflow[i]);
            rd->overflow_count += rd->overflow[i];
        }
        rd->ops = n > s ? n - s : 0;
        t->total_ops += rd->ops;
        t->overflow_count += rd->overflow_count;
    }

    if (!t->inclusive && !(t->inclusive = malloc(n * sizeof *t->inclusive)))
        goto fail_oom;
    if (!t->output && !(t->output = malloc(n * sizeof *t->output)))
        goto fail_oom;
    const sv_round *last = &t->rounds[t->nrounds - 1];
    memcpy(t->inclusive, last->buf[t->nrounds == 1 ? 0 : last->pout], n * sizeof *t->inclusive);
    if (t->scan == SV_SCAN_EXCLUSIVE) {
        t->output[0] = sv_op_identity(t->op, t->type);
        memcpy(t->output + 1, t->inclusive, (n - 1) * sizeof *t->output);
    } else {
        memcpy(t->output, t->inclusive, n * sizeof *t->output);
    }

    t->max_abs_diff = 0.0;
    t->max_diff_index = 0;
    if (t->type == SV_TYPE_FLOAT32) {
        if (!(ref = malloc(n * sizeof *ref)))
            goto fail_oom;
        sv_reference_scan(t->op, t->type, t->scan, t->input, ref, n);
        for (size_t i = 0; i < n; i++) {
            double d;
            if (ref[i].bits == t->output[i].bits)
                d = 0.0;
            else if (!isfinite(ref[i].f) || !isfinite(t->output[i].f))
                d = INFINITY;
            else
                d = fabs((double)t->output[i].f - (double)ref[i].f);
            if (d > t->max_abs_diff) {
                t->max_abs_diff = d;
                t->max_diff_index = i;
            }
        }
        free(ref);
    }
    return true;
fail_oom:
    snprintf(err, errlen, "out of memory finishing a trace of %zu values", n);
    return false;
}

/* ---- The invariant -------------------------------------------------------- */

/* What every window of the input must hold, computed from the input alone.
 * Every window the kernel produces is either a prefix input[0..i] (copy and
 * partial cells) or a run of 2^r elements (full cells), so prefix values
 * and the runs of each length (doubled once per round) cover them all in
 * O(n log n):
 *  - exact ops (all int32, float32 max/min): values through sv_op_apply();
 *    the grouping does not matter since these ops are associative.
 *  - float32 sum: the sum in double and the sum of magnitudes |x|.
 *  - float32 product: the product in double, and the min/max of the running
 *    sum of log2|x| inside the window: their spread bounds |log2| of every
 *    partial product, i.e. whether one could leave float32's normal range. */
#define MAX_LEVELS 11 /* runs of 2^0 .. 2^10 = SV_MAX_N */
_Static_assert((1 << MAX_LEVELS) > SV_MAX_N, /* windows_init stops at 2^levels > n */
               "MAX_LEVELS runs of 2^0 .. 2^(MAX_LEVELS - 1) must cover SV_MAX_N");

typedef struct agg {
    sv_value v;      /* exact ops */
    double d;        /* float sum / product, in double */
    double mag;      /* sum: sum of |x|; product: sum of log2|x| */
    double lo, hi;   /* product: min/max running log2 sum, 0 included */
    uint32_t nonfinite; /* non-finite inputs in the window */
    uint32_t len;
} agg;

typedef struct windows {
    const sv_trace *t;
    bool exact;               /* only agg.v and agg.len are kept */
    int levels;               /* run lengths 2^0 .. 2^(levels-1) fit in n */
    int level;                /* the run length lev holds now: 2^level */
    agg *pre;                 /* pre[i]: input[0..i] */
    agg *lev;                 /* lev[j]: input[j .. j+2^level) */
} windows;

static bool exact_op(const sv_trace *t)
{
    return t->type == SV_TYPE_INT32 || t->op == SV_OP_MAX || t->op == SV_OP_MIN;
}

static agg agg_leaf(const windows *w, sv_value x)
{
    agg a;
    memset(&a, 0, sizeof a);
    a.v = x;
    a.len = 1;
    if (!w->exact) {
        bool finite = isfinite(x.f);
        a.nonfinite = !finite;
        a.d = x.f;
        if (w->t->op == SV_OP_PRODUCT)
            a.mag = (finite && x.f != 0.0f) ? log2(fabs((double)x.f)) : 0.0;
        else
            a.mag = fabs((double)x.f);
        a.lo = a.mag < 0 ? a.mag : 0.0;
        a.hi = a.mag > 0 ? a.mag : 0.0;
    }
    return a;
}

/* The window l followed by the window r. */
static agg agg_join(const windows *w, const agg *l, const agg *r)
{
    agg a;
    a.len = l->len + r->len;
    if (w->exact) {
        a.v = sv_op_apply(w->t->op, w->t->type, l->v, r->v, NULL);
        a.d = a.mag = a.lo = a.hi = 0.0;
        a.nonfinite = 0;
        return a;
    }
    a.v.bits = 0;
    a.nonfinite = l->nonfinite + r->nonfinite;
    a.d = w->t->op == SV_OP_PRODUCT ? l->d * r->d : l->d + r->d;
    a.mag = l->mag + r->mag;
    a.lo = l->lo < l->mag + r->lo ? l->lo : l->mag + r->lo;
    a.hi = l->hi > l->mag + r->hi ? l->hi : l->mag + r->hi;
    return a;
}

static void windows_free(windows *w)
{
    free(w->pre);
    free(w->lev);
}

static bool windows_init(windows *w, const sv_trace *t)
{
    size_t n = t->n;
    memset(w, 0, sizeof *w);
    w->t = t;
    w->exact = exact_op(t);
    while (w->levels < MAX_LEVELS && pow2(w->levels) <= n)
        w->levels++;
    if (!(w->pre = malloc(n * sizeof *w->pre)) || !(w->lev = malloc(n * sizeof *w->lev)))
        return false;
    for (size_t i = 0; i < n; i++) {
        agg x = agg_leaf(w, t->input[i]);
        w->pre[i] = i ? agg_join(w, &w->pre[i - 1], &x) : x;
        w->lev[i] = x;
    }
    return true;
}

/* The window that cell i holds after round r: input[max(0, i-2^r+1) .. i].
 * Rounds are visited in order, so lev is doubled in place up to 2^r (each
 * lev[j] reads lev[j] and lev[j+h], and j+h is not yet overwritten). */
static const agg *window_of(windows *w, int r, size_t i)
{
    size_t span = pow2(r);
    if (i + 1 <= span || r >= w->levels)
        return &w->pre[i];
    while (w->level < r) {
        size_t h = pow2(w->level), len = w->t->n - 2 * h + 1;
        for (size_t j = 0; j < len; j++)
            w->lev[j] = agg_join(w, &w->lev[j], &w->lev[j + h]);
        w->level++;
    }
    return &w->lev[i + 1 - span];
}

/* Whether `got` is an acceptable value for window a, computed in a tree of
 * the given depth (rounds). Fills want/tol for the message. */
static bool window_matches(const sv_trace *t, const agg *a, int depth, sv_value got,
                           double *tol, bool *exact)
{
    *tol = 0.0;
    *exact = exact_op(t);
    if (*exact)
        return got.bits == a->v.bits;
    /* float32 sum / product: windows whose partial results may leave the
     * finite (sum) or normal (product) float32 range, or that contain a
     * non-finite input, depend on the order of operations: not checked. */
    if (a->nonfinite)
        return true;
    if (t->op == SV_OP_SUM) {
        if (a->mag > FLT_MAX / 2)
            return true;
        /* A tree of depth d rounds each input at most d times: |error| <=
         * d * 2^-24 * sum|x|. FLT_EPSILON = 2^-23 leaves a factor 2 spare. */
        *tol = (double)(depth + 1) * FLT_EPSILON * a->mag;
    } else {
        if (a->hi - a->lo > 125.0)
            return true;
        /* len-1 multiplications, each off by at most 2^-24 relatively. */
        *tol = (double)(a->len + 1) * FLT_EPSILON * fabs(a->d);
        if (a->d == 0.0 && got.f == 0.0f && !signbit(got.f) != !signbit(a->d))
            return false;
    }
    if (!isfinite(got.f))
        return false;
    return fabs((double)got.f - a->d) <= *tol;
}

static void describe_window(const sv_trace *t, const agg *a, size_t i, double tol, bool exact,
                            char *buf, size_t len)
{
    char v[48];
    size_t lo = i + 1 - a->len;
    if (exact || t->type == SV_TYPE_INT32)
        snprintf(buf, len, "%s (%s over input[%zu..%zu])",
                 sv_value_format(t->type, a->v, v, sizeof v), sv_op_name(t->op), lo, i);
    else
        snprintf(buf, len, "%.9g within %.3g (%s over input[%zu..%zu])",
                 a->d, tol, sv_op_name(t->op), lo, i);
}

bool sv_trace_check(const sv_trace *t, char *err, size_t errlen)
{
    return sv_trace_check_at(t, err, errlen, NULL);
}

static void set_loc(sv_check_loc *loc, int round, int buf, size_t cell, bool inclusive)
{
    if (loc) {
        loc->round = round;
        loc->buf = buf;
        loc->cell = cell;
        loc->inclusive = inclusive;
    }
}

/* Round 0 stages the input into buf[0]; buf[1] is untouched. */
static bool check_staging(const sv_trace *t, const sv_round *rd, char *err, size_t errlen,
                          sv_check_loc *loc)
{
    char a[48], b[48];
    for (size_t i = 0; i < t->n; i++) {
        if (!rd->written[0][i] || rd->buf[0][i].bits != t->input[i].bits) {
            snprintf(err, errlen, "round 0, buf[0] (staging), cell %zu: expected the input "
                     "value %s, got %s", i, sv_value_format(t->type, t->input[i], a, sizeof a),
                     rd->written[0][i] ? sv_value_format(t->type, rd->buf[0][i], b, sizeof b)
                                       : "? (never written)");
            set_loc(loc, 0, 0, i, false);
            return false;
        }
        if (rd->written[1][i]) {
            snprintf(err, errlen, "round 0, buf[1] (uninitialized), cell %zu: written "
                     "(%s) before any round ran", i,
                     sv_value_format(t->type, rd->buf[1][i], b, sizeof b));
            set_loc(loc, 0, 1, i, false);
            return false;
        }
    }
    return true;
}

/* pin is only read during round r: identical to the previous round's. */
static bool check_pin(const sv_trace *t, size_t r, char *err, size_t errlen, sv_check_loc *loc)
{
    const sv_round *rd = &t->rounds[r], *prev = &t->rounds[r - 1];
    int pin = rd->pin;
    char a[48], b[48];
    for (size_t i = 0; i < t->n; i++) {
        bool was = prev->written[pin][i], now = rd->written[pin][i];
        if (was != now || (now && prev->buf[pin][i].bits != rd->buf[pin][i].bits)) {
            snprintf(err, errlen, "round %zu, buf[%d] (pin), cell %zu: changed during the round: "
                     "was %s, now %s", r, pin, i,
                     was ? sv_value_format(t->type, prev->buf[pin][i], a, sizeof a) : "?",
                     now ? sv_value_format(t->type, rd->buf[pin][i], b, sizeof b) : "?");
            set_loc(loc, (int)r, pin, i, false);
            return false;
        }
    }
    return true;
}

/* float32 sum and product: the cell is one IEEE binary32 operation of the two
 * pin cells, exactly rounded on the CPU and on the GPU alike (no fused ops, no
 * flush-to-zero in any build: docs/reliability.md), so it is checked bit for
 * bit. By induction from round 0 every cell is then the one value the
 * kernel's order of operations gives. */
static bool check_float_cell(const sv_trace *t, size_t r, size_t i, char *err, size_t errlen,
                             sv_check_loc *loc)
{
    const sv_round *rd = &t->rounds[r];
    int pin = rd->pin, pout = rd->pout;
    uint32_t stride = rd->stride;
    char a[48], b[48], g[48], want[160];
    sv_value got = rd->buf[pout][i];
    sv_value l = rd->buf[pin][i - stride], x = rd->buf[pin][i];
    sv_value want_v = sv_op_apply(t->op, t->type, l, x, NULL);
    if (got.bits == want_v.bits)
        return true;
    snprintf(err, errlen, "round %zu, buf[%d] (pout), cell %zu (%s): expected "
             "%s (pin[%zu] %s pin[%zu] = %s %s %s, one binary32 operation; "
             "bits %08x), got %s (bits %08x)", r, pout, i,
             sv_case_name(sv_case_of((int)r, i)),
             sv_value_format(t->type, want_v, want, sizeof want), i - stride,
             sv_op_symbol(t->op), i, sv_value_format(t->type, l, a, sizeof a),
             sv_op_symbol(t->op), sv_value_format(t->type, x, b, sizeof b),
             (unsigned)want_v.bits, sv_value_format(t->type, got, g, sizeof g),
             (unsigned)got.bits);
    set_loc(loc, (int)r, pout, i, false);
    return false;
}

/* Every pout cell of round r: written, a copy cell equal to pin, every other
 * cell op over its window. */
static bool check_pout(const sv_trace *t, windows *w, size_t r, char *err, size_t errlen,
                       sv_check_loc *loc)
{
    const sv_round *rd = &t->rounds[r];
    int pin = rd->pin, pout = rd->pout;
    uint32_t stride = rd->stride;
    char a[48], b[48], want[160];
    for (size_t i = 0; i < t->n; i++) {
        sv_value got = rd->buf[pout][i];
        if (!rd->written[pout][i]) {
            snprintf(err, errlen, "round %zu, buf[%d] (pout), cell %zu: never written "
                     "(every pout cell is written each round)", r, pout, i);
            set_loc(loc, (int)r, pout, i, false);
            return false;
        }
        if (i < stride && (!rd->written[pin][i] || got.bits != rd->buf[pin][i].bits)) {
            snprintf(err, errlen, "round %zu, buf[%d] (pout), cell %zu: copy cell: expected "
                     "pin buf[%d][%zu] = %s, got %s", r, pout, i, pin, i,
                     rd->written[pin][i] ? sv_value_format(t->type, rd->buf[pin][i], a, sizeof a) : "?",
                     sv_value_format(t->type, got, b, sizeof b));
            set_loc(loc, (int)r, pout, i, false);
            return false;
        }
        if (!exact_op(t) && i >= stride) {
            if (!check_float_cell(t, r, i, err, errlen, loc))
                return false;
            continue;
        }
        const agg *win = window_of(w, (int)r, i);
        double tol;
        bool exact;
        if (!window_matches(t, win, (int)r, got, &tol, &exact)) {
            describe_window(t, win, i, tol, exact, want, sizeof want);
            snprintf(err, errlen, "round %zu, buf[%d] (pout), cell %zu (%s): expected %s, got %s",
                     r, pout, i, sv_case_name(sv_case_of((int)r, i)), want,
                     sv_value_format(t->type, got, b, sizeof b));
            set_loc(loc, (int)r, pout, i, false);
            return false;
        }
    }
    return true;
}

/* The output: the last round's pout (buf[0] when n == 1), shifted for an
 * exclusive scan, is the scan of the input. */
static bool check_output(const sv_trace *t, windows *w, char *err, size_t errlen,
                         sv_check_loc *loc)
{
    char a[48], b[48], want[160];
    size_t n = t->n;
    const sv_round *last = &t->rounds[t->nrounds - 1];
    const sv_value *fin = last->buf[t->nrounds == 1 ? 0 : last->pout];
    int depth = (int)t->nrounds - 1;
    for (size_t i = 0; i < n; i++) {
        if (t->inclusive[i].bits != fin[i].bits) {
            snprintf(err, errlen, "inclusive[%zu]: %s differs from the last round's buffer (%s)",
                     i, sv_value_format(t->type, t->inclusive[i], a, sizeof a),
                     sv_value_format(t->type, fin[i], b, sizeof b));
            set_loc(loc, -1, -1, i, true);
            return false;
        }
        double tol;
        bool exact;
        /* float32 sum/product: every cell was checked bit for bit above,
         * so the inclusive result is the one the rounds give. */
        if (exact_op(t) &&
            !window_matches(t, &w->pre[i], depth, t->inclusive[i], &tol, &exact)) {
            describe_window(t, &w->pre[i], i, tol, exact, want, sizeof want);
            snprintf(err, errlen, "output: inclusive[%zu]: expected %s, got %s", i, want,
                     sv_value_format(t->type, t->inclusive[i], b, sizeof b));
            set_loc(loc, -1, -1, i, true);
            return false;
        }
    }
    for (size_t i = 0; i < n; i++) {
        sv_value want_v = t->scan == SV_SCAN_EXCLUSIVE
            ? (i == 0 ? sv_op_identity(t->op, t->type) : t->inclusive[i - 1])
            : t->inclusive[i];
        if (t->output[i].bits != want_v.bits) {
            snprintf(err, errlen, "output[%zu]: expected %s (%s), got %s", i,
                     sv_value_format(t->type, want_v, a, sizeof a),
                     t->scan == SV_SCAN_EXCLUSIVE
                         ? (i == 0 ? "the identity" : "the inclusive result one to the left")
                         : "the inclusive result",
                     sv_value_format(t->type, t->output[i], b, sizeof b));
            set_loc(loc, -1, -1, i, false);
            return false;
        }
    }
    return true;
}

bool sv_trace_check_at(const sv_trace *t, char *err, size_t errlen, sv_check_loc *loc)
{
    windows w;
    bool ok = false;
    size_t n = t->n;

    if (!t->rounds || t->nrounds != sv_round_count(n) || !t->input) {
        snprintf(err, errlen, "trace has %zu rounds, expected %zu for n = %zu",
                 t->nrounds, sv_round_count(n), n);
        set_loc(loc, -1, -1, 0, false);
        return false;
    }
    if (!windows_init(&w, t)) {
        snprintf(err, errlen, "out of memory checking a trace of %zu values", n);
        set_loc(loc, -1, -1, 0, false);
        goto done;
    }
    for (size_t r = 0; r < t->nrounds; r++) {
        const sv_round *rd = &t->rounds[r];
        uint32_t stride = r ? (uint32_t)pow2((int)r - 1) : 0;
        int pin = r ? (int)((r - 1) % 2) : -1, pout = r ? (int)(r % 2) : -1;
        if (rd->round != (int)r || rd->stride != stride || rd->pin != pin || rd->pout != pout) {
            snprintf(err, errlen, "round %zu: metadata round %d, stride %u, pin %d, pout %d; "
                     "expected round %zu, stride %u, pin %d, pout %d",
                     r, rd->round, (unsigned)rd->stride, rd->pin, rd->pout, r,
                     (unsigned)stride, pin, pout);
            set_loc(loc, (int)r, -1, 0, false);
            goto done;
        }
        if (r == 0 ? !check_staging(t, rd, err, errlen, loc)
                   : !check_pin(t, r, err, errlen, loc) || !check_pout(t, &w, r, err, errlen, loc))
            goto done;
    }
    if (t->inclusive && t->output && !check_output(t, &w, err, errlen, loc))
        goto done;
    ok = true;
done:
    windows_free(&w);
    return ok;
}

/* ---- Bit-identity --------------------------------------------------------- */

bool sv_trace_equal(const sv_trace *x, const sv_trace *y, char *diff, size_t difflen)
{
    char a[48], b[48];
    if (x->op != y->op || x->type != y->type || x->scan != y->scan) {
        snprintf(diff, difflen, "different scans: %s %s %s vs %s %s %s",
                 sv_op_name(x->op), sv_type_name(x->type), sv_scan_name(x->scan),
                 sv_op_name(y->op), sv_type_name(y->type), sv_scan_name(y->scan));
        return false;
    }
    if (x->n != y->n || x->nrounds != y->nrounds) {
        snprintf(diff, difflen, "different sizes: n = %zu (%zu rounds) vs n = %zu (%zu rounds)",
                 x->n, x->nrounds, y->n, y->nrounds);
        return false;
    }
    sv_type ty = x->type;
    for (size_t i = 0; i < x->n; i++) {
        if (x->input[i].bits != y->input[i].bits) {
            snprintf(diff, difflen, "input[%zu]: %s vs %s", i,
                     sv_value_format(ty, x->input[i], a, sizeof a),
                     sv_value_format(ty, y->input[i], b, sizeof b));
            return false;
        }
    }
    for (size_t r = 0; r < x->nrounds; r++) {
        const sv_round *p = &x->rounds[r], *q = &y->rounds[r];
        for (int k = 0; k < 2; k++) {
            for (size_t i = 0; i < x->n; i++) {
                bool wp = p->written[k][i], wq = q->written[k][i];
                /* An unwritten cell has no value: compare values only where written. */
                if (wp != wq || (wp && p->buf[k][i].bits != q->buf[k][i].bits)) {
                    snprintf(diff, difflen, "round %zu, buf[%d], cell %zu: %s (bits %08x) vs %s (bits %08x)",
                             r, k, i, wp ? sv_value_format(ty, p->buf[k][i], a, sizeof a) : "?",
                             wp ? (unsigned)p->buf[k][i].bits : 0u,
                             wq ? sv_value_format(ty, q->buf[k][i], b, sizeof b) : "?",
                             wq ? (unsigned)q->buf[k][i].bits : 0u);
                    return false;
                }
            }
        }
    }
    return true;
}
