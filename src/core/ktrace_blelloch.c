/* The Blelloch reading of a kernel trace: see ktrace_blelloch.h. */
#include "ktrace_blelloch.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ktrace_reading.h"

extern const sv_reading sv_reading_blelloch; /* below */

bool sv_blelloch_is(const sv_ktrace *t)
{
    return t && t->reading == &sv_reading_blelloch;
}

/* Whether cell c of the tree may be written in step k of the plan (m
 * leaves, L levels); out[] only in the last step. */
static bool in_plan(size_t k, uint32_t m, uint32_t L, uint32_t c)
{
    if (k == 0)
        return c < m;                                    /* the staging */
    if (k <= L)
        return c < m && (c + 1) % (2u << (k - 1)) == 0;  /* an up level's right children */
    if (k == L + 1)
        return c == m - 1;                               /* the root */
    return k <= 2 * L + 1 && c < m && (c + 1) % (m >> (k - L - 1)) == 0; /* a down level's pairs */
}

/* Blelloch's tree, from what the trace holds, whatever the kernel is
 * called: 2 log2 m + 3 steps, each writing only cells of its level of the
 * first shared array (the staging t[0 .. m), an up level's right children,
 * the root, a down level's pairs) and the last one all of out[] and no
 * tree cell; the root holding the identity after its step. A step may
 * write fewer of its cells than the plan: the GPU's written flags come
 * from snapshots, which miss a write of an equal value. */
static bool tree_shaped(const sv_ktrace *t)
{
    int a = sv_blelloch_tree_array(t);
    uint32_t m = sv_blelloch_leaves(t->n), L = sv_blelloch_levels(t->n);
    if (a < 0 || t->failure.kind != SV_KFAIL_NONE || t->nsteps != 2 * (size_t)L + 3 ||
        t->arrays[a].len < m)
        return false;
    for (size_t k = 0; k < t->nsteps; k++)
        for (size_t b = 0; b < t->narrays; b++)
            for (uint32_t c = 0; c < t->arrays[b].len; c++) {
                if (!t->steps[k].wrote[b][c])
                    continue;
                bool out = t->arrays[b].kind == SV_KARRAY_OUT;
                if (out ? k + 1 != t->nsteps
                        : (int)b != a || k + 1 == t->nsteps || !in_plan(k, m, L, c))
                    return false;
            }
    for (size_t i = 0; i < t->n; i++)
        if (!t->output_written[i])
            return false;
    sv_value id = sv_op_identity(t->op, t->type);
    return t->steps[L + 1].written[a][m - 1] && t->steps[L + 1].cells[a][m - 1].bits == id.bits;
}

uint32_t sv_blelloch_leaves(size_t n)
{
    uint32_t m = 1;
    while (m < n)
        m *= 2;
    return m;
}

uint32_t sv_blelloch_levels(size_t n)
{
    uint32_t m = sv_blelloch_leaves(n), l = 0;
    while ((1u << l) < m)
        l++;
    return l;
}

bool sv_blelloch_step(const sv_ktrace *t, size_t k, sv_bstep *out)
{
    memset(out, 0, sizeof *out);
    if (!sv_blelloch_is(t))
        return false;
    out->m = sv_blelloch_leaves(t->n);
    out->levels = sv_blelloch_levels(t->n);
    size_t L = out->levels;
    if (k == 0) {
        out->phase = SV_BPHASE_STAGE;
    } else if (k <= L) {
        out->phase = SV_BPHASE_UP;
        out->stride = 1u << (k - 1);
    } else if (k == L + 1) {
        out->phase = SV_BPHASE_ROOT;
    } else if (k <= 2 * L + 1) {
        out->phase = SV_BPHASE_DOWN;
        out->stride = out->m >> (k - L - 1);
    } else if (k == 2 * L + 2) {
        out->phase = SV_BPHASE_OUT;
    } else {
        return false;
    }
    return true;
}

/* The largest power of two dividing x (x >= 1). */
static uint32_t lowbit(uint32_t x)
{
    return x & (~x + 1u);
}

/* [lo .. hi] cut to the input: padding holds the identity. */
static sv_brange clip(const sv_ktrace *t, int64_t lo, int64_t hi)
{
    sv_brange r = { true, false, 0, 0 };
    int64_t last = (int64_t)t->n - 1;
    if (hi > last)
        hi = last;
    if (hi < lo || lo < 0) {
        r.empty = true;
        return r;
    }
    r.lo = (uint32_t)lo;
    r.hi = (uint32_t)hi;
    return r;
}

sv_brange sv_blelloch_range(const sv_ktrace *t, size_t k, uint32_t cell)
{
    sv_brange none = { false, false, 0, 0 };
    sv_bstep s;
    if (!sv_blelloch_step(t, k, &s) || cell >= s.m)
        return none;
    uint32_t c1 = cell + 1, low = lowbit(c1);
    switch (s.phase) {
    case SV_BPHASE_STAGE:
        return clip(t, cell, cell);
    case SV_BPHASE_UP: {
        uint32_t w = low < 2 * s.stride ? low : 2 * s.stride;
        return clip(t, (int64_t)c1 - w, cell);
    }
    case SV_BPHASE_ROOT:
        if (cell == s.m - 1)
            return clip(t, 1, 0);
        return clip(t, (int64_t)c1 - low, cell);
    case SV_BPHASE_DOWN:
    case SV_BPHASE_OUT: {
        uint32_t d = s.phase == SV_BPHASE_OUT ? 1 : s.stride;
        if (c1 % d == 0) /* everything left of its subtree of d leaves */
            return clip(t, 0, (int64_t)cell - d);
        return clip(t, (int64_t)c1 - low, cell);
    }
    default:
        return none;
    }
}

bool sv_blelloch_marked(const sv_ktrace *t, size_t k, uint32_t cell)
{
    sv_bstep s;
    if (!sv_blelloch_step(t, k, &s) || cell >= s.m)
        return false;
    sv_brange r = sv_blelloch_range(t, k, cell);
    switch (s.phase) {
    case SV_BPHASE_UP:
        return r.known && !r.empty && r.hi > r.lo;
    case SV_BPHASE_ROOT:
        return cell == s.m - 1 || (r.known && !r.empty && r.hi > r.lo);
    case SV_BPHASE_DOWN:
        return (cell + 1) % s.stride == 0;
    default:
        return false;
    }
}

char *sv_blelloch_range_text(sv_brange r, char *buf, size_t len)
{
    if (!r.known)
        snprintf(buf, len, "%s", "");
    else if (r.empty)
        snprintf(buf, len, "[]");
    else if (r.lo == r.hi)
        snprintf(buf, len, "[%" PRIu32 "]", r.lo);
    else
        snprintf(buf, len, "[%" PRIu32 "..%" PRIu32 "]", r.lo, r.hi);
    return buf;
}

int sv_blelloch_tree_array(const sv_ktrace *t)
{
    for (size_t a = 0; a < t->narrays; a++)
        if (t->arrays[a].kind == SV_KARRAY_SHARED)
            return (int)a;
    return -1;
}

/* The value cell c of array a held before step k (after step k - 1). */
static bool before(const sv_ktrace *t, size_t k, int a, uint32_t c, sv_value *v)
{
    if (k == 0 || k > t->nsteps || c >= t->arrays[a].len || !t->steps[k - 1].written[a][c])
        return false;
    *v = t->steps[k - 1].cells[a][c];
    return true;
}

/* The last write of step k to cell c of array a, NULL when none recorded. */
static const sv_kwrite *write_to(const sv_kstep *s, int a, uint32_t c)
{
    const sv_kwrite *w = NULL;
    for (size_t i = 0; i < s->nwrites; i++)
        if (s->writes[i].at.array == (uint32_t)a && s->writes[i].at.cell == c)
            w = &s->writes[i];
    return w;
}

bool sv_blelloch_swap_at(const sv_ktrace *t, size_t k, uint32_t cell, sv_bswap *out)
{
    sv_bstep s;
    int a = t ? sv_blelloch_tree_array(t) : -1;
    if (a < 0 || !sv_blelloch_step(t, k, &s) || s.phase != SV_BPHASE_DOWN || k >= t->nsteps ||
        cell >= s.m)
        return false;
    uint32_t d = s.stride;
    /* cell's pair: the right child k = 2d(j + 1) - 1, its left k - d */
    uint32_t right = (cell + 1) % (2 * d) == 0 ? cell : cell + d;
    if ((right + 1) % (2 * d) != 0 || right >= s.m || right < d)
        return false;
    uint32_t left = right - d;
    const sv_kstep *st = &t->steps[k];
    if (right >= t->arrays[a].len || !st->wrote[a][left] || !st->wrote[a][right])
        return false;
    sv_bswap w = { (right + 1) / (2 * d) - 1, left, right, {0}, {0} };
    if (!before(t, k, a, right, &w.parent) || !before(t, k, a, left, &w.old_left))
        return false;
    /* The left child took what the right one held: the swap's first half. */
    if (st->cells[a][left].bits != w.parent.bits)
        return false;
    const sv_kwrite *wl = write_to(st, a, left), *wr = write_to(st, a, right);
    if (wl && wr) { /* the CPU runtime recorded them: one thread, both cells read */
        if (wl->at.thread != wr->at.thread)
            return false;
        bool read_l = false, read_r = false;
        for (uint32_t i = 0; i < wl->nreads + wr->nreads; i++) {
            const sv_kaccess *x = &st->reads[i < wl->nreads ? wl->first_read + i
                                                            : wr->first_read + i - wl->nreads];
            read_l |= x->array == (uint32_t)a && x->cell == left;
            read_r |= x->array == (uint32_t)a && x->cell == right;
        }
        if (!read_l || !read_r)
            return false;
        w.thread = wl->at.thread;
    }
    *out = w;
    return true;
}

static uint32_t ops_at(const sv_ktrace *t, const sv_bstep *s)
{
    switch (s->phase) {
    case SV_BPHASE_UP:
    case SV_BPHASE_DOWN: return s->m / (2 * s->stride);
    case SV_BPHASE_OUT: return t->scan == SV_SCAN_INCLUSIVE ? (uint32_t)t->n : 0;
    default: return 0;
    }
}

bool sv_blelloch_ops(const sv_ktrace *t, size_t k, uint32_t *this_step, uint32_t *through)
{
    sv_bstep s;
    if (!sv_blelloch_step(t, k, &s))
        return false;
    *this_step = ops_at(t, &s);
    *through = 0;
    for (size_t j = 0; j <= k && sv_blelloch_step(t, j, &s); j++)
        *through += ops_at(t, &s);
    return true;
}

/* ---- Words ----------------------------------------------------------------- */

/* "t[1], t[3], t[5] and t[7]" for the cells c with (c + 1) % step == 0 below
 * the input's end, with what each holds after step k ("t[1] [0..1], ..."),
 * the first four then "..". */
static void cell_list(const sv_ktrace *t, size_t k, uint32_t m, uint32_t step, bool ranges,
                      char *buf, size_t len)
{
    size_t u = 0, shown = 0, total = 0;
    buf[0] = '\0';
    for (uint32_t c = step - 1; c < m; c += step)
        total++;
    for (uint32_t c = step - 1; c < m && u < len; c += step) {
        if (shown == 4 && total > 5) {
            u += (size_t)snprintf(buf + u, len - u, ", ..");
            break;
        }
        char r[48] = "";
        if (ranges)
            sv_blelloch_range_text(sv_blelloch_range(t, k, c), r, sizeof r);
        const char *sep = shown == 0 ? "" : shown + 1 == total ? " and " : ", ";
        u += (size_t)snprintf(buf + u, len - u, "%st[%" PRIu32 "]%s%s", sep, c, ranges ? " " : "",
                              r);
        shown++;
    }
}

static void words_stage(const sv_ktrace *t, const sv_bstep *s, char *l1, size_t n1, char *l2,
                        size_t n2)
{
    char id[48];
    sv_value_format(t->type, sv_op_identity(t->op, t->type), id, sizeof id);
    snprintf(l1, n1, "staging: each thread copies its input into a leaf of the tree, t[i] = in[i]");
    if (s->m > t->n)
        snprintf(l2, n2, "%" PRIu32 " leaves, the next power of two: t[%zu..%" PRIu32 "] are "
                 "padding holding the identity %s, so they change no %s", s->m, t->n,
                 s->m - 1, id, sv_op_noun(t->op));
    else
        snprintf(l2, n2, "%" PRIu32 " leaves, one per value: each holds one input, its own "
                 "range [i]", s->m);
}

static void words_up(const sv_ktrace *t, size_t k, const sv_bstep *s, char *l1, size_t n1,
                     char *l2, size_t n2)
{
    const char *noun = sv_op_noun(t->op);
    char list[256];
    snprintf(l1, n1, "up-sweep, stride %" PRIu32 ": each right child takes the %s of its pair",
             s->stride, noun);
    cell_list(t, k, s->m, 2 * s->stride, true, list, sizeof list);
    snprintf(l2, n2, "t[k] = t[k - %" PRIu32 "] %s t[k] for k = %" PRIu32 "(j + 1) - 1: each "
             "now holds its subtree's %s: %s", s->stride, sv_op_symbol(t->op), 2 * s->stride,
             noun, list);
}

static void words_root(const sv_ktrace *t, size_t k, const sv_bstep *s, char *l1, size_t n1,
                       char *l2, size_t n2)
{
    char id[48], tot[48] = "", r[48];
    sv_value_format(t->type, sv_op_identity(t->op, t->type), id, sizeof id);
    int a = sv_blelloch_tree_array(t);
    sv_value v;
    if (a >= 0 && before(t, k, a, s->m - 1, &v))
        sv_value_format(t->type, v, tot, sizeof tot);
    sv_blelloch_range_text(sv_blelloch_range(t, k - 1 < t->nsteps ? k - 1 : 0, s->m - 1), r,
                           sizeof r);
    snprintf(l1, n1, "the root cleared: t[%" PRIu32 "], the total %s%s%s, takes the identity %s",
             s->m - 1, r, tot[0] ? " = " : "", tot, id);
    snprintf(l2, n2, "the down-sweep hands it down: the %s of everything left of the first "
             "leaf is the %s of nothing", sv_op_noun(t->op),
             sv_op_noun(t->op));
}

static void words_down(const sv_ktrace *t, size_t k, const sv_bstep *s, char *l1, size_t n1,
                       char *l2, size_t n2)
{
    const char *noun = sv_op_noun(t->op);
    char list[256];
    snprintf(l1, n1, "down-sweep, stride %" PRIu32 ": each pair swaps and adds: the left child "
             "takes its parent's value, the right child that value %s the old left child",
             s->stride, sv_op_symbol(t->op));
    cell_list(t, k, s->m, s->stride, true, list, sizeof list);
    snprintf(l2, n2, "each child now holds the %s of everything left of its subtree: %s", noun,
             list);
}

bool sv_blelloch_step_words(const sv_ktrace *t, size_t k, char *line1, size_t n1, char *line2,
                            size_t n2)
{
    line1[0] = line2[0] = '\0';
    sv_bstep s;
    if (!sv_blelloch_step(t, k, &s))
        return false;
    switch (s.phase) {
    case SV_BPHASE_STAGE: words_stage(t, &s, line1, n1, line2, n2); break;
    case SV_BPHASE_UP: words_up(t, k, &s, line1, n1, line2, n2); break;
    case SV_BPHASE_ROOT: words_root(t, k, &s, line1, n1, line2, n2); break;
    case SV_BPHASE_DOWN: words_down(t, k, &s, line1, n1, line2, n2); break;
    case SV_BPHASE_OUT:
        if (t->scan == SV_SCAN_EXCLUSIVE)
            snprintf(line1, n1, "out: each thread writes t[i], the exclusive scan, to out[i]");
        else
            snprintf(line1, n1, "out: each thread writes t[i] %s in[i], the inclusive scan, to "
                     "out[i]", sv_op_symbol(t->op));
        snprintf(line2, n2, "t[i] holds the %s of in[0..i - 1]: %" PRIu32 " combines up, %" PRIu32
                 " down, in %" PRIu32 " steps%s", sv_op_noun(t->op), s.m - 1, s.m - 1,
                 2 * s.levels, t->scan == SV_SCAN_EXCLUSIVE ? "" : ", and one more per cell here");
        break;
    default:
        return false;
    }
    return true;
}

char *sv_blelloch_cell_words(const sv_ktrace *t, size_t k, uint32_t cell, char *buf, size_t len)
{
    buf[0] = '\0';
    sv_bstep s;
    sv_brange r = sv_blelloch_range(t, k, cell);
    if (!r.known || !sv_blelloch_step(t, k, &s))
        return buf;
    char rt[48], id[48];
    sv_blelloch_range_text(r, rt, sizeof rt);
    sv_value_format(t->type, sv_op_identity(t->op, t->type), id, sizeof id);
    const char *noun = sv_op_noun(t->op);
    bool prefix = s.phase == SV_BPHASE_DOWN || s.phase == SV_BPHASE_OUT ||
                  (s.phase == SV_BPHASE_ROOT && cell == s.m - 1);
    bool left_of = prefix && ((cell + 1) % (s.phase == SV_BPHASE_DOWN ? s.stride : 1) == 0 ||
                              s.phase == SV_BPHASE_ROOT);
    if (cell >= t->n && r.empty)
        snprintf(buf, len, "t[%" PRIu32 "] is padding: the identity %s", cell, id);
    else if (r.empty)
        snprintf(buf, len, "t[%" PRIu32 "] holds the identity %s: the %s of nothing%s", cell, id,
                 noun, left_of ? " (nothing lies left of its subtree)" : "");
    else if (left_of)
        snprintf(buf, len, "t[%" PRIu32 "] holds the %s of in%s: everything left of its "
                 "subtree", cell, noun, rt);
    else if (r.lo == r.hi)
        snprintf(buf, len, "t[%" PRIu32 "] holds in[%" PRIu32 "], a leaf", cell, r.lo);
    else
        snprintf(buf, len, "t[%" PRIu32 "] holds the %s of in%s, its subtree", cell, noun, rt);
    if (cell >= t->n && !r.empty) {
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, " (a padding slot past the input)");
    }
    return buf;
}

char *sv_blelloch_step_label(const sv_ktrace *t, size_t k, char *buf, size_t len)
{
    sv_bstep s;
    buf[0] = '\0';
    if (!sv_blelloch_step(t, k, &s))
        return buf;
    switch (s.phase) {
    case SV_BPHASE_STAGE: snprintf(buf, len, "stage"); break;
    case SV_BPHASE_UP: snprintf(buf, len, "\u2191%" PRIu32, s.stride); break;
    case SV_BPHASE_ROOT: snprintf(buf, len, "root"); break;
    case SV_BPHASE_DOWN: snprintf(buf, len, "\u2193%" PRIu32, s.stride); break;
    case SV_BPHASE_OUT: snprintf(buf, len, "out"); break;
    default: break;
    }
    return buf;
}

/* ---- The reading's entry (ktrace_reading.h) ---------------------------------- */

/* The tree's combines as its plan counts them, beside the closed form. */
static bool counters(const sv_ktrace *t, size_t k, size_t writes, size_t hazards, char *buf,
                     size_t len)
{
    uint32_t ops, total;
    if (!sv_blelloch_ops(t, k, &ops, &total))
        return false;
    uint32_t m = sv_blelloch_leaves(t->n), lg = sv_blelloch_levels(t->n);
    snprintf(buf, len, "step %zu of %zu \u00b7 writes %zu \u00b7 ops this step %" PRIu32
             " \u00b7 total %" PRIu32 " (the tree: 2(m \u2212 1) = %" PRIu32 " in %" PRIu32
             " steps, m = %" PRIu32 ") \u00b7 hazards %zu", k + 1, t->nsteps, writes, ops, total,
             2 * (m - 1), 2 * lg, m, hazards);
    return true;
}

/* The tree's rows are t[], as the kernel and the words name it. */
static bool row_name(const sv_ktrace *t, uint32_t a, uint32_t r, uint32_t rowlen, char *buf,
                     size_t len)
{
    if ((int)a != sv_blelloch_tree_array(t))
        return false;
    snprintf(buf, len, r == 0 ? "t" : "t[%u..]", (unsigned)(r * rowlen));
    return true;
}

/* The ranges under the tree's cells, the root ringed when cleared, the
 * down-sweep's swaps (in its own tone: what lies left, not a subtree). */
static bool marks(const sv_ktrace *t, size_t k, sv_rstep *out)
{
    sv_bstep s;
    int a = sv_blelloch_tree_array(t);
    if (a < 0 || !sv_blelloch_step(t, k, &s))
        return false;
    bool down = s.phase == SV_BPHASE_DOWN;
    *out = (sv_rstep){ .array = a, .cells = s.m, .second_tone = down, .exchanges = down,
                       .ring = s.phase == SV_BPHASE_ROOT ? (int64_t)s.m - 1 : -1,
                       .ring_words = "root cleared" };
    return true;
}

static bool mark(const sv_ktrace *t, size_t k, uint32_t cell, char *buf, size_t len)
{
    if (!sv_blelloch_marked(t, k, cell))
        return false;
    sv_blelloch_range_text(sv_blelloch_range(t, k, cell), buf, len);
    return true;
}

/* Its cells have no chapter cases: the range marks and the swap instead. */
static size_t legend(const sv_ktrace *t, sv_rlegend *out)
{
    out[0].mark = "[0..3]";
    snprintf(out[0].words, sizeof out[0].words,
             "holds the %s of in[0..3] (up: its subtree; down: all left of it)",
             sv_op_noun(t->op));
    out[1].mark = "swap:";
    snprintf(out[1].words, sizeof out[1].words,
             "the parent goes left, the old left child comes right and is added");
    return 2;
}

static bool summary(const sv_ktrace *t, char *buf, size_t len)
{
    if (!t->nsteps)
        return false;
    uint32_t m = sv_blelloch_leaves(t->n);
    snprintf(buf, len, "tree: %" PRIu32 " leaves, %" PRIu32 " combines up and %" PRIu32
             " down (the chapter's rounds do not apply)", m, m - 1, m - 1);
    return true;
}

const sv_reading sv_reading_blelloch = {
    .name = "blelloch",
    .detect = tree_shaped,
    .title = "Blelloch",
    .step_words = sv_blelloch_step_words,
    .step_label = sv_blelloch_step_label,
    .cell_words = sv_blelloch_cell_words,
    .counters = counters,
    .row_name = row_name,
    .marks = marks,
    .mark = mark,
    .exchange_at = sv_blelloch_swap_at,
    .legend = legend,
    .summary = summary,
};
