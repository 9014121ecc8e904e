/* The kernel pane's words (kpane.h): what a kernel did in a step, said from
 * its trace (the writes, the reads behind them, the hazards, the failure,
 * the chapter's reading), never from what the chapter's kernel would have
 * done. Pure: tests read them without a window. */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../core/escape.h"
#include "../core/ktrace_diverge.h"
#include "../core/ktrace_reading.h"
#include "../core/ktrace_shuffle.h"
#include "../core/lab_schedule.h"
#include "kpane.h"

static void fmtv(const sv_ktrace *t, sv_value v, char *buf, size_t len)
{
    sv_value_format_as(t->type, v, t->float_style, buf, len); /* the trace's one notation */
}

/* Appends to buf (NUL-terminated, len bytes). */
static void cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t len, const char *fmt, ...)
{
    size_t at = strlen(buf);
    if (at + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
}

static const char *combine_words(sv_op op)
{
    return op == SV_OP_SUM ? "sums to" : "combines to";
}

char *sv_kwords_hazard(const sv_ktrace *t, const sv_khazard *h, char *buf, size_t len)
{
    char cell[128], a[48], b[48];
    sv_ktrace_cell_name(t, h->array, h->cell, cell, sizeof cell);
    const bool launch = sv_ktrace_launch_of(t, h->step) != NULL;
    sv_ktrace_thread_name(t, h->step, h->first.thread, a, sizeof a);
    sv_ktrace_thread_name(t, h->step, h->second.thread, b, sizeof b);
    const char *when = launch ? "in the same launch" : "in the same step";
    switch (h->kind) {
    case SV_KHAZARD_RAW: /* first wrote, second read */
        snprintf(buf, len, "%s read %s while %s wrote it, %s", b, cell, a, when);
        break;
    case SV_KHAZARD_WAR: /* first read, second wrote */
        snprintf(buf, len, "%s wrote %s while %s read it, %s", b, cell, a, when);
        break;
    default:
        if (launch)
            snprintf(buf, len, "%s and %s both wrote %s, %s", a, b, cell, when);
        else
            snprintf(buf, len, "threads %" PRIu32 " and %" PRIu32 " both wrote %s in the same "
                     "step", h->first.thread, h->second.thread, cell);
        break;
    }
    return buf;
}

/* The stride of the round step k runs, where the reading says (else 0). */
static uint64_t step_stride(const sv_ktrace *t, size_t k)
{
    if (!t->readings || k >= t->nsteps)
        return 0;
    int r = t->readings[k].fits ? t->readings[k].round : t->readings[k].expected_round;
    return r >= 1 && r < 63 ? 1ull << (r - 1) : 0;
}

/* Whether line `line` (from 1) of t's source has the identifier word. */
static bool source_line_has(const sv_ktrace *t, int32_t line, const char *word)
{
    const char *p = t->source;
    for (int32_t l = 1; p && l < line; l++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    if (!p || line < 1)
        return false;
    size_t end = strcspn(p, "\n"), wl = strlen(word);
    for (size_t i = 0; i + wl <= end; i++) {
        bool before = i == 0 || !(isalnum((unsigned char)p[i - 1]) || p[i - 1] == '_');
        bool after = i + wl == end || !(isalnum((unsigned char)p[i + wl]) || p[i + wl] == '_');
        if (before && after && strncmp(p + i, word, wl) == 0)
            return true;
    }
    return false;
}

char *sv_kwords_out_of_range(const sv_ktrace *t, char *buf, size_t len)
{
    buf[0] = '\0';
    const sv_kfailure *f = &t->failure;
    if (f->kind != SV_KFAIL_OUT_OF_RANGE)
        return buf;
    char cell[128];
    int64_t idx = f->index;
    uint32_t a = f->array < 0 ? SV_KARRAY_IN : (uint32_t)f->array;
    uint32_t alen = a == SV_KARRAY_IN ? (uint32_t)t->n
                                      : (a < t->narrays ? t->arrays[a].len : 0);
    /* Name the index as tried, not as a row of the array. */
    char name[64] = "in";
    if (a != SV_KARRAY_IN && a < t->narrays)
        sv_escape(t->arrays[a].name, name, sizeof name);
    snprintf(cell, sizeof cell, "%s[%" PRId64 "]", name, idx);
    const char *edge = idx < 0 ? "the left edge" : "past the right edge";
    char how[96] = "";
    /* thread - stride as the guard's reason, where the numbers say so */
    size_t k = f->step >= 0 ? (size_t)f->step : (t->nsteps ? t->nsteps : 0);
    uint64_t stride = step_stride(t, k);
    if (!stride && t->readings && t->nsteps) {
        /* the round after the last read step */
        for (size_t j = t->nsteps; j-- > 0;)
            if (t->readings[j].fits) {
                int r = t->readings[j].round + 1;
                stride = r >= 1 && r < 63 ? 1ull << (r - 1) : 0;
                break;
            }
    }
    /* "i - stride" only where the failing line has a stride to subtract
     * (round-one's kernel reads buf[0 * n + i - 1]: "i - 1 = -1") */
    bool has_stride = source_line_has(t, f->line, "stride");
    if (f->thread >= 0 && stride && idx < 0 && has_stride)
        snprintf(how, sizeof how, "i - stride = %" PRId64 ", ", (int64_t)f->thread - (int64_t)stride);
    else if (f->thread >= 0 && idx < 0 && !has_stride && (int64_t)f->thread - idx > 0)
        snprintf(how, sizeof how, "i - %" PRId64 " = %" PRId64 ", ", (int64_t)f->thread - idx, idx);
    if (f->thread >= 0)
        snprintf(buf, len, "thread %" PRId32 " read %s: %s%s (%s has %" PRIu32 " cells)",
                 f->thread, cell, how, edge, name, alen);
    else
        snprintf(buf, len, "a thread read %s: %s (%s has %" PRIu32 " cells)", cell, edge, name,
                 alen);
    return buf;
}

/* "step 3 of 5 (round 2)", "step 2 of 8". */
static void step_name(const sv_ktrace *t, size_t k, char *buf, size_t len)
{
    snprintf(buf, len, "Step %zu of %zu", k + 1, t->nsteps);
    if (t->readings && t->readings[k].fits)
        cat(buf, len, " (round %d)", t->readings[k].round);
}

/* What the first broken cell's thread did: "thread 1 copied instead of
 * adding: the guard skipped i = 1". */
static void broken_deed(const sv_ktrace *t, size_t k, char *buf, size_t len)
{
    const sv_kreading *rd = &t->readings[k];
    const sv_karray *arr = &t->arrays[rd->pout_array];
    uint32_t cell = (uint32_t)rd->pout_row * (arr->len / arr->rows) + rd->first_broken;
    uint32_t i = rd->first_broken;
    char name[128], v[48];
    sv_ktrace_cell_name(t, (uint32_t)rd->pout_array, cell, name, sizeof name);
    if (!sv_kpane_has_reads(t)) {
        if (rd->holds_known) {
            fmtv(t, rd->holds, v, sizeof v);
            snprintf(buf, len, "%s holds %s, not its window (the GPU records no reads)", name, v);
        } else {
            snprintf(buf, len, "%s was never written", name);
        }
        return;
    }
    const sv_kwrite *w = sv_kpane_write_of(t, k, (uint32_t)rd->pout_array, cell);
    const sv_kstep *s = &t->steps[k];
    if (!w) {
        if (rd->holds_known) {
            fmtv(t, rd->holds, v, sizeof v);
            snprintf(buf, len, "thread %" PRIu32 " wrote nothing to %s in this step: it still "
                     "holds %s from before", i, name, v);
        } else {
            snprintf(buf, len, "thread %" PRIu32 " wrote nothing to %s: it was never written",
                     i, name);
        }
        return;
    }
    uint64_t stride = rd->round >= 1 ? 1ull << (rd->round - 1) : 0;
    if (w->nreads == 1 && stride && i >= stride) {
        snprintf(buf, len, "thread %" PRIu32 " copied instead of %s: the guard skipped i = %"
                 PRIu32, w->at.thread, t->op == SV_OP_SUM ? "adding" : "combining", i);
        return;
    }
    /* a read that another thread's write of this step had changed */
    for (uint32_t r = 0; r < w->nreads; r++) {
        const sv_kaccess *x = &s->reads[w->first_read + r];
        for (size_t h = 0; h < t->nhazards; h++) {
            const sv_khazard *hz = &t->hazards[h];
            if (hz->step != k || hz->array != x->array || hz->cell != x->cell ||
                hz->second.thread != w->at.thread || hz->kind != SV_KHAZARD_RAW)
                continue;
            char rn[128];
            sv_ktrace_cell_name(t, x->array, x->cell, rn, sizeof rn);
            fmtv(t, x->value, v, sizeof v);
            snprintf(buf, len, "thread %" PRIu32 " read %s = %s after thread %" PRIu32
                     " had written it in this step: a race", w->at.thread, rn, v,
                     hz->first.thread);
            return;
        }
    }
    char got[48];
    fmtv(t, w->at.value, got, sizeof got);
    snprintf(buf, len, "thread %" PRIu32 " wrote %s = %s from %" PRIu32 " read%s", w->at.thread,
             name, got, w->nreads, w->nreads == 1 ? "" : "s");
    for (uint32_t r = 0; r < w->nreads && r < 3; r++) {
        const sv_kaccess *x = &s->reads[w->first_read + r];
        char rn[128];
        sv_ktrace_cell_name(t, x->array, x->cell, rn, sizeof rn);
        fmtv(t, x->value, v, sizeof v);
        cat(buf, len, "%s %s = %s", r ? "," : ":", rn, v);
    }
}

/* "cell 5 holds 12; the window [2, 5] sums to 16". */
static void broken_holds(const sv_ktrace *t, const sv_kreading *rd, char *buf, size_t len)
{
    char want[48], got[48];
    fmtv(t, rd->window_value, want, sizeof want);
    if (rd->holds_known) {
        fmtv(t, rd->holds, got, sizeof got);
        snprintf(buf, len, "holds %s; the window [%" PRIu32 ", %" PRIu32 "] %s %s", got,
                 rd->window_lo, rd->window_hi, combine_words(t->op), want);
    } else {
        snprintf(buf, len, "holds nothing (never written); the window [%" PRIu32 ", %" PRIu32
                 "] %s %s", rd->window_lo, rd->window_hi, combine_words(t->op), want);
    }
}

/* Which arrays step k wrote, as "buf[1]" / "s" / "out". */
static bool step_writes_out(const sv_ktrace *t, size_t k)
{
    for (size_t a = 0; a < t->narrays; a++) {
        if (t->arrays[a].kind != SV_KARRAY_OUT)
            continue;
        for (uint32_t c = 0; c < t->arrays[a].len; c++)
            if (t->steps[k].wrote[a][c])
                return true;
    }
    return false;
}

static void output_words(const sv_ktrace *t, char *buf, size_t len)
{
    const char *kind = t->scan == SV_SCAN_EXCLUSIVE ? "exclusive" : "inclusive";
    if (t->first_wrong < 0 && t->output_round > 0) { /* an exercise's round (round-one) */
        snprintf(buf, len, "out holds round %d's windows of in[] (%s), as the exercise asks",
                 (int)t->output_round, sv_op_name(t->op));
        return;
    }
    if (t->first_wrong < 0) {
        snprintf(buf, len, "out holds the %s scan of in[] (%s)", kind, sv_op_name(t->op));
        return;
    }
    size_t i = (size_t)t->first_wrong;
    char got[48] = "?", want[48];
    if (t->output_written[i])
        fmtv(t, t->output[i], got, sizeof got);
    fmtv(t, t->expected[i], want, sizeof want);
    if (t->output_round > 0) {
        snprintf(buf, len, "out is not round %d's windows: out[%zu] holds %s where the window "
                 "has %s", (int)t->output_round, i, got, want);
        return;
    }
    snprintf(buf, len, "out is not the %s scan: out[%zu] holds %s where the scan has %s", kind,
             i, got, want);
}

/* The chapter's words name its buffer buf; a kernel whose rounds are rows of
 * one array of another name gets that name ("pin = row[1], pout = row[0]"),
 * as its pane labels the rows. The words stay as they are where they would
 * not fit. */
static void rename_buf(char *s, size_t cap, const char *name)
{
    char out[SV_WORDS_MAX];
    size_t nl = strlen(name), o = 0;
    for (const char *p = s; *p;) {
        bool at = strncmp(p, "buf[", 4) == 0 && (p == s || !(isalnum((unsigned char)p[-1]) ||
                                                              p[-1] == '_'));
        const char *w = at ? name : p;
        size_t l = at ? nl : 1;
        if (o + l >= sizeof out || o + l >= cap)
            return;
        memcpy(out + o, w, l);
        o += l;
        p += at ? 3 : 1;
    }
    out[o] = '\0';
    memcpy(s, out, o + 1);
}

/* The chapter's own caption for a step of a kernel that holds the chapter's
 * picture (v->trace its reading, no hazard, output right). */
static bool chapter_caption(const sv_app_view *v, size_t k, sv_caption_words *out)
{
    const sv_ktrace *t = v->ktrace;
    if (!v->trace || t->nhazards || t->first_wrong >= 0 || t->failure.kind != SV_KFAIL_NONE ||
        !t->readings || !t->readings[k].fits || t->readings[k].broken)
        return false;
    for (size_t j = 0; j < t->nsteps; j++)
        if (t->readings[j].fits && t->readings[j].broken)
            return false;
    int round = t->readings[k].round;
    if (round < 0 || round >= (int)v->trace->nrounds)
        return false;
    sv_app_view c = *v;
    c.ktrace = NULL;
    c.step = c.from_step = round;
    c.anim = 1.0f;
    c.phase = SV_PHASE_NONE; /* a kernel's phases are its own (kphase.c) */
    c.hover_row = c.hover_cell = c.pinned_row = c.pinned_cell = -1;
    if (!sv_words_caption(&c, out))
        return false;
    const sv_kreading *rd = &t->readings[k];
    int32_t a = rd->pout_array;
    if (a >= 0 && (size_t)a < t->narrays && (rd->pin_array < 0 || rd->pin_array == a) &&
        t->arrays[a].name && strcmp(t->arrays[a].name, "buf") != 0) {
        rename_buf(out->line1, sizeof out->line1, t->arrays[a].name);
        rename_buf(out->line2, sizeof out->line2, t->arrays[a].name);
    }
    return true;
}

static void compare_words(const sv_app_view *v, size_t k, char *buf, size_t len)
{
    sv_krows rows;
    sv_kpane_rows(v->ktrace, &rows);
    for (int r = 0; r < rows.n; r++) {
        for (uint32_t c = 0; c < rows.row[r].count; c++) {
            sv_value want, got;
            if (!sv_kpane_compare(v, k, &rows.row[r], c, &want))
                continue;
            bool have = sv_kpane_value(v->ktrace, k, &rows.row[r], c, &got);
            if (have && memcmp(&want, &got, sizeof got) == 0)
                continue;
            char a[48] = "nothing", b[48];
            if (have)
                fmtv(v->ktrace, got, a, sizeof a);
            fmtv(v->ktrace, want, b, sizeof b);
            cat(buf, len, "%sfirst difference from the chapter's kernel: %s[%u] holds %s, the "
                "chapter's %s", buf[0] ? " \u00b7 " : "", rows.row[r].name, (unsigned)c, a, b);
            return;
        }
    }
    cat(buf, len, "%sthe chapter's kernel holds the same values here", buf[0] ? " \u00b7 " : "");
}

/* Whether t's output is the scan and none of its steps is read as one of
 * the chapter's rounds (sv_ktrace_analyze reads no round of a kernel that
 * is right another way). */
static bool not_chapter(const sv_ktrace *t)
{
    if (t->first_wrong >= 0 || t->failure.kind != SV_KFAIL_NONE || !t->readings)
        return false;
    for (size_t k = 0; k < t->nsteps; k++)
        if (t->readings[k].fits)
            return false;
    return t->nsteps > 0;
}

/* The shared cells step k wrote. */
static size_t step_written(const sv_ktrace *t, size_t k)
{
    size_t n = 0;
    for (size_t a = 0; a < t->narrays; a++)
        for (uint32_t c = 0; t->arrays[a].kind == SV_KARRAY_SHARED && c < t->arrays[a].len; c++)
            n += t->steps[k].wrote[a][c];
    return n;
}

static size_t step_hazards(const sv_ktrace *t, size_t k)
{
    size_t n = 0;
    for (size_t h = 0; h < t->nhazards; h++)
        n += t->hazards[h].step == k;
    return n;
}

/* A launch of a host function (issue 31): "Launch 1 of 3 · block_scan<<<4,
 * 256>>> (line 43): 3 blocks wrote 1000 cells of out and 4 of sums", the
 * output's words after the last. */
static void launch_line(const sv_ktrace *t, size_t k, const sv_klaunch *l, char *l1, size_t n1,
                        char *l2, size_t n2)
{
    char grid[48], block[48];
    snprintf(l1, n1, "Launch %zu of %zu \u00b7 %s<<<%s, %s>>> (line %" PRId32 "): ",
             (size_t)(l - t->launches) + 1, t->nlaunches, l->kernel,
             sv_klaunch_grid_words(l, grid, sizeof grid),
             sv_klaunch_block_words(l, block, sizeof block), l->line);
    size_t parts = 0;
    for (size_t a = 0; a < t->narrays; a++) {
        size_t w = 0;
        for (uint32_t c = 0; c < t->arrays[a].len; c++)
            w += t->steps[k].wrote[a][c];
        if (w)
            cat(l1, n1, "%s%zu cell%s of %s", parts++ ? ", " : "its blocks wrote ", w,
                w == 1 ? "" : "s", t->arrays[a].name);
    }
    if (!parts)
        cat(l1, n1, "no cell changed");
    if (k + 1 == t->nsteps && t->failure.kind == SV_KFAIL_NONE) {
        char o[SV_WORDS_MAX];
        output_words(t, o, sizeof o);
        cat(l2, n2, "%s%s", l2[0] ? " \u00b7 " : "", o);
    }
}

static void deed_line(const sv_ktrace *t, size_t k, char *l1, size_t n1, char *l2, size_t n2)
{
    const sv_klaunch *launch = sv_ktrace_launch_of(t, k);
    if (launch) {
        launch_line(t, k, launch, l1, n1, l2, n2);
        return;
    }
    char head[64];
    step_name(t, k, head, sizeof head);
    const sv_kstep *s = &t->steps[k];
    const sv_kreading *rd = t->readings ? &t->readings[k] : NULL;
    char deed[SV_WORDS_MAX] = "";
    if (rd && rd->fits && rd->broken) {
        broken_deed(t, k, deed, sizeof deed);
        broken_holds(t, rd, l2, n2);
        char name[128];
        const sv_karray *arr = &t->arrays[rd->pout_array];
        sv_ktrace_cell_name(t, (uint32_t)rd->pout_array,
                            (uint32_t)rd->pout_row * (arr->len / arr->rows) + rd->first_broken,
                            name, sizeof name);
        char tmp[SV_WORDS_MAX];
        tmp[0] = '\0';
        cat(tmp, sizeof tmp, "%s %s; the cells after it are drawn without a case", name, l2);
        l2[0] = '\0';
        cat(l2, n2, "%s", tmp);
    } else if (rd && rd->fits) {
        char row[96];
        const sv_karray *arr = &t->arrays[rd->pout_array];
        sv_ktrace_cell_name(t, (uint32_t)rd->pout_array,
                            (uint32_t)rd->pout_row * (arr->len / arr->rows), row, sizeof row);
        char *br = strrchr(row, '[');
        if (br && arr->rows <= 1) *br = '\0';
        else if (br) *br = '\0'; /* "buf[1][0]" -> "buf[1]" */
        if (rd->round > rd->expected_round && rd->expected_round >= 1)
            snprintf(deed, sizeof deed, "%s already holds round %d's windows where round %d's "
                     "were due: threads read cells that others had written in this step", row,
                     rd->round, rd->expected_round);
        else if (rd->round < rd->expected_round && rd->expected_round >= 1)
            /* (an earlier round's windows: nothing was combined, no race: the
             * starting file of round-one copies) */
            snprintf(deed, sizeof deed, "%s still holds round %d's windows where round %d's "
                     "were due: the threads copied cells without combining them", row, rd->round,
                     rd->expected_round);
        else if (rd->round == 0)
            snprintf(deed, sizeof deed, "the threads copied in[] into %s: round 0", row);
        else
            snprintf(deed, sizeof deed, "%s holds round %d's windows: each cell the %s of "
                     "in[i \u2212 %llu .. i]", row, rd->round, sv_op_name(t->op),
                     (unsigned long long)((1ull << rd->round) - 1));
    } else if (step_writes_out(t, k)) {
        output_words(t, deed, sizeof deed);
    } else if (s->nwrites == 0 && s->nreads > 0) {
        snprintf(deed, sizeof deed, "the threads read %zu cells and wrote no shared cell", s->nreads);
    } else if (not_chapter(t)) { /* a tree, a student's Blelloch: right another way */
        snprintf(deed, sizeof deed, "%zu cell%s written; the chapter's rounds do not apply: "
                 "this kernel makes the scan by other steps", step_written(t, k),
                 step_written(t, k) == 1 ? "" : "s");
    } else {
        snprintf(deed, sizeof deed, "no shared row holds a round of the scan here");
    }
    if (k + 1 == t->nsteps && !step_writes_out(t, k) && t->failure.kind == SV_KFAIL_NONE) {
        char o[SV_WORDS_MAX];
        output_words(t, o, sizeof o);
        cat(l2, n2, "%s%s", l2[0] ? " \u00b7 " : "", o);
    }
    snprintf(l1, n1, "%s: %s", head, deed);
    if (s->barrier_line > 0)
        cat(l1, n1, " (until the barrier of line %" PRId32 ")", s->barrier_line);
}

bool sv_kwords_caption(const sv_app_view *v, sv_caption_words *out)
{
    memset(out, 0, sizeof *out);
    const sv_ktrace *t = v->ktrace;
    if (!t)
        return false;
    char *l1 = out->line1, *l2 = out->line2;
    size_t n1 = sizeof out->line1, n2 = sizeof out->line2;
    if (t->nsteps == 0) {
        char f[SV_WORDS_MAX];
        sv_ktrace_failure_words(t, f, sizeof f);
        l1[0] = '\0';
        cat(l1, n1, "The kernel stopped before its first barrier: %s", f);
        out->line2_error = true;
        return true;
    }
    if (sv_kwords_quiz(v, out)) /* predict mode's question or verdicts (kquiz.c) */
        return true;
    size_t k = (size_t)sv_kpane_step(v);
    const sv_reading *rd = sv_reading_of(t); /* its own words (Blelloch's sweeps), else the
                                                chapter's rounds or what the step did */
    if (!(rd->step_words && rd->step_words(t, k, l1, n1, l2, n2)) && !chapter_caption(v, k, out))
        deed_line(t, k, l1, n1, l2, n2);
    if (v->phase != SV_PHASE_NONE) { /* Down/Up: the phase first, the step under it */
        memmove(l2, l1, n1 < n2 ? n1 : n2);
        l2[n2 - 1] = '\0';
        sv_kwords_phase(t, k, v->phase, l1, n1);
    }
    if (sv_kpane_failed_here(t, k)) {
        char f[SV_WORDS_MAX], oor[SV_WORDS_MAX];
        sv_ktrace_failure_words(t, f, sizeof f);
        sv_kwords_out_of_range(t, oor, sizeof oor);
        l2[0] = '\0';
        cat(l2, n2, "then it failed: %s", oor[0] ? oor : f);
        char uk[SV_WORDS_MAX];
        if (sv_ktrace_unkept_hazards_words(t, uk, sizeof uk)[0])
            cat(l2, n2, " \u00b7 %s", uk); /* "hazards: 1" counted, none drawn: why */
        out->line2_error = true;
    }
    size_t nh = step_hazards(t, k);
    if (nh) {
        char hw[256];
        const sv_khazard *first = NULL;
        for (size_t h = 0; h < t->nhazards && !first; h++)
            if (t->hazards[h].step == k)
                first = &t->hazards[h];
        sv_kwords_hazard(t, first, hw, sizeof hw);
        cat(l2, n2, "%s%zu hazard%s in this step (hatched), e.g. %s", l2[0] ? " \u00b7 " : "",
            nh, nh == 1 ? "" : "s", hw);
        out->line2_error = true;
    }
    for (size_t a = 0; k + 1 == t->nsteps && a < t->narrays; a++) { /* a shuffle's rows,
                                                                       read as the rounds */
        const sv_kregrounds *g = sv_ktrace_reg_reading(t, (uint32_t)a);
        char name[64], hv[48], wv[48];
        if (!g)
            continue;
        sv_escape(t->arrays[a].name, name, sizeof name);
        if (g->broken_row < 0) {
            cat(l2, n2, "%s%s[0] to %s[%u] are the chapter's rounds 0 to %u in registers, each "
                "lane's window within its warp", l2[0] ? " \u00b7 " : "", name, name,
                g->rows - 1, g->rows - 1);
        } else {
            fmtv(t, g->holds, hv, sizeof hv);
            fmtv(t, g->want, wv, sizeof wv);
            cat(l2, n2, "%s%s[%d][%u] breaks round %d in registers: it holds %s, the round "
                "gives %s", l2[0] ? " \u00b7 " : "", name, (int)g->broken_row,
                (unsigned)g->broken_cell, (int)g->broken_row, hv, wv);
            out->line2_error = true;
        }
    }
    const sv_kbankcell *most;
    size_t nbc = sv_kpane_bank_cells(t, k, &most);
    if (nbc) { /* bank conflicts: a cost, not an error */
        char cell[128];
        sv_ktrace_cell_name(t, most->array, most->cell, cell, sizeof cell);
        cat(l2, n2, "%s%zu cell%s in bank conflicts (barred), up to %u-way: %s, %s at line %" PRId32,
            l2[0] ? " \u00b7 " : "", nbc, nbc == 1 ? "" : "s", (unsigned)most->ways, cell,
            most->store ? "a store" : "a load", most->line);
    }
    sv_kunwritten uw;
    size_t nuw = sv_ktrace_unwritten_reads(t, k, &uw);
    if (nuw) { /* a value no thread wrote: named, not a silent 0 */
        char ww[256];
        sv_ktrace_unwritten_words(t, uw, ww, sizeof ww);
        if (nuw == 1)
            cat(l2, n2, "%s%s", l2[0] ? " \u00b7 " : "", ww);
        else
            cat(l2, n2, "%s%zu reads of never-written cells, e.g. %s", l2[0] ? " \u00b7 " : "",
                nuw, ww);
        out->line2_error = true;
    }
    if (!sv_kpane_has_reads(t) && t->nlaunches == 0)
        cat(l2, n2, "%sno reads recorded (GPU): no operand arrows", l2[0] ? " \u00b7 " : "");
    if (v->kcompare && v->kcompare_shown)
        compare_words(v, k, l2, n2);
    if (v->caption && v->caption[0]) {
        snprintf(l1, n1, "%s", v->caption);
    }
    return true;
}

/* The tooltip's line about the write behind a cell. */
static void write_line(const sv_ktrace *t, size_t k, const sv_kwrite *w, char *buf, size_t len)
{
    snprintf(buf, len, "thread %" PRIu32 " wrote it (line %" PRId32 ")", w->at.thread, w->at.line);
    const sv_kstep *s = &t->steps[k];
    if (w->nreads == 0) {
        cat(buf, len, " reading no shared cell");
        return;
    }
    cat(buf, len, " from");
    for (uint32_t r = 0; r < w->nreads && r < 3; r++) {
        const sv_kaccess *x = &s->reads[w->first_read + r];
        char rn[128], v[48];
        sv_ktrace_cell_name(t, x->array, x->cell, rn, sizeof rn);
        fmtv(t, x->value, v, sizeof v);
        cat(buf, len, "%s %s = %s", r ? "," : "", rn, v);
    }
    if (w->nreads > 3)
        cat(buf, len, ", \u2026");
}

static void case_line(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col, char *buf,
                      size_t len, sv_words_tone *tone)
{
    sv_case cs = SV_CASE_COPY;
    const sv_kreading *rd = t->readings ? &t->readings[k] : NULL;
    const sv_kregrounds *g = r->kind == SV_KROW_ARRAY ? sv_ktrace_reg_reading(t, r->array) : NULL;
    if (g) { /* a shuffle's row: its round in registers */
        sv_kmark m = sv_kpane_mark(t, k, r, col, &cs);
        char hv[48], wv[48];
        buf[0] = '\0';
        if (m == SV_KMARK_CASE) {
            uint32_t wbase = col & ~31u, span = r->row < 31 ? 1u << r->row : UINT32_MAX;
            uint32_t lo = col + 1 >= span && col + 1 - span >= wbase ? col + 1 - span : wbase;
            const char *names[] = { "full window", "partial window", "copy-through" };
            int ci = cs == SV_CASE_FULL ? 0 : cs == SV_CASE_PARTIAL ? 1 : 2;
            snprintf(buf, len, "%s: holds the %s of in[%u .. %u] (round %u, in registers)",
                     names[ci], sv_op_name(t->op), (unsigned)lo, (unsigned)col, (unsigned)r->row);
            *tone = ci == 0 ? SV_TONE_FULL : ci == 1 ? SV_TONE_PARTIAL : SV_TONE_COPY;
        } else if (m == SV_KMARK_BROKEN) {
            fmtv(t, g->holds, hv, sizeof hv);
            fmtv(t, g->want, wv, sizeof wv);
            snprintf(buf, len, "breaks round %d in registers: holds %s, the round gives %s",
                     (int)g->broken_row, hv, wv);
            *tone = SV_TONE_ERROR;
        } else if (m == SV_KMARK_AFTER) {
            snprintf(buf, len, "no case: after the first broken lane (%u)",
                     (unsigned)g->broken_cell);
        }
        return;
    }
    if (!rd || rd->round < 0) {
        buf[0] = '\0';
        return;
    }
    switch (sv_kpane_mark(t, k, r, col, &cs)) {
    case SV_KMARK_CASE: {
        uint64_t w = 1ull << rd->round;
        uint64_t lo = col + 1 >= w ? col + 1 - w : 0;
        const char *names[] = { "full window", "partial window", "copy-through" };
        int ci = cs == SV_CASE_FULL ? 0 : cs == SV_CASE_PARTIAL ? 1 : 2;
        snprintf(buf, len, "%s: holds the %s of in[%llu .. %u] (round %d)", names[ci],
                 sv_op_name(t->op), (unsigned long long)lo, (unsigned)col, rd->round);
        *tone = ci == 0 ? SV_TONE_FULL : ci == 1 ? SV_TONE_PARTIAL : SV_TONE_COPY;
        break;
    }
    case SV_KMARK_BROKEN:
        broken_holds(t, rd, buf, len);
        *tone = SV_TONE_ERROR;
        break;
    case SV_KMARK_AFTER:
        snprintf(buf, len, "no case: after the first broken cell (%u)", (unsigned)rd->first_broken);
        break;
    default:
        buf[0] = '\0';
    }
}

char *sv_kwords_run_schedule(const sv_ktrace *t, uint32_t run, char *buf, size_t len)
{
    sv_schedule sc;
    char err[64];
    if (!t->schedule || !sv_schedule_parse(t->schedule, &sc, err, sizeof err)) {
        snprintf(buf, len, "%s", t->backend == SV_BACKEND_CUDA ? "the GPU" : "?");
        return buf;
    }
    if (sc.kind == SV_SCHEDULE_RANDOM || sc.kind == SV_SCHEDULE_WARPS)
        sc.seed += run;
    return sv_schedule_format(sc, buf, len);
}

char *sv_kwords_runs(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col, char *buf,
                     size_t len)
{
    uint32_t wrong = 0;
    const uint32_t *which = NULL;
    buf[0] = '\0';
    if (!sv_kpane_cell_runs(t, k, r, col, &wrong, &which))
        return buf;
    if (wrong == 0) {
        snprintf(buf, len, "right in all %" PRIu32 " runs", t->runs);
        return buf;
    }
    snprintf(buf, len, "wrong in %" PRIu32 " of %" PRIu32 " runs:", wrong, t->runs);
    bool shown = false;
    size_t m = 0;
    for (; m < SV_KTRACE_CELL_RUNS && which[m] != SV_KTRACE_NO_RUN; m++) {
        cat(buf, len, "%s %" PRIu32, m ? "," : "", which[m]);
        shown |= which[m] == t->shown_run;
    }
    if (wrong > m)
        cat(buf, len, ", \u2026");
    sv_kverdict_cell here = sv_kpane_verdict(t, k, r, col);
    cat(buf, len, " (run %" PRIu32 " shown, %s)", t->shown_run,
        shown || here == SV_KCELL_WRONG ? "one of them" : "right here");
    int64_t next = sv_kpane_next_wrong_run(t, k, r, col, false);
    if (next >= 0 && (uint32_t)next != t->shown_run) {
        char sc[64];
        cat(buf, len, "; W shows run %" PRId64 " (%s)", next,
            sv_kwords_run_schedule(t, (uint32_t)next, sc, sizeof sc));
    }
    return buf;
}

/* A read of a never-written cell at cell (a, cell) in step k: the one its
 * write w made its value from, else one of the cell itself. */
static bool unwritten_line(const sv_ktrace *t, size_t k, uint32_t a, uint32_t cell,
                           const sv_kwrite *w, char *buf, size_t len)
{
    char ww[256];
    const sv_kstep *s = &t->steps[k];
    for (uint32_t q = 0; w && q < w->nreads; q++)
        if (sv_ktrace_read_unwritten(t, k, w->first_read + q)) {
            sv_ktrace_unwritten_words(t, (sv_kunwritten){k, w->first_read + q}, ww, sizeof ww);
            snprintf(buf, len, "made from a cell nothing wrote: %.200s", ww);
            return true;
        }
    for (size_t i = 0; i < s->nreads; i++)
        if (s->reads[i].array == a && s->reads[i].cell == cell &&
            sv_ktrace_read_unwritten(t, k, i)) {
            sv_ktrace_unwritten_words(t, (sv_kunwritten){k, i}, ww, sizeof ww);
            snprintf(buf, len, "%s", ww);
            return true;
        }
    return false;
}

bool sv_kwords_tooltip(const sv_app_view *v, int row, int col, sv_tip_words *out)
{
    memset(out, 0, sizeof *out);
    const sv_ktrace *t = v->ktrace;
    sv_krows rows;
    if (!t || !sv_kpane_rows(t, &rows) || row < 0 || row >= rows.n || col < 0 ||
        (uint32_t)col >= rows.row[row].count || t->nsteps == 0 ||
        sv_kquiz_hidden(v, row, (uint32_t)col)) /* an open question's cell tells nothing */
        return false;
    size_t k = (size_t)sv_kpane_step(v);
    const sv_krow *r = &rows.row[row];
    uint32_t c = (uint32_t)col, cell = r->first + c;
    sv_value val;
    int n = 0;
    char vs[48];
    if (sv_kpane_value(t, k, r, c, &val)) {
        fmtv(t, val, vs, sizeof vs);
        snprintf(out->line[n++], SV_TIP_MAX, "%s[%u] = %s", r->name, (unsigned)c, vs);
    } else {
        snprintf(out->line[n++], SV_TIP_MAX, "%s[%u]: not written yet", r->name, (unsigned)c);
    }
    out->line[n++][0] = '\0';
    if (r->kind != SV_KROW_INPUT && r->array != SV_KARRAY_IN) {
        const sv_kwrite *w = sv_kpane_write_of(t, k, r->array, cell);
        if (w)
            write_line(t, k, w, out->line[1], SV_TIP_MAX);
        else if (sv_kpane_wrote(t, k, r, c))
            snprintf(out->line[1], SV_TIP_MAX, "written in this step (the GPU records no reads)");
        else
            snprintf(out->line[1], SV_TIP_MAX, "not written in this step");
        char cl[SV_TIP_MAX];
        case_line(t, k, r, c, cl, sizeof cl, &out->accent);
        const sv_reading *rd = sv_reading_of(t); /* what the cell holds in its terms */
        if (rd->cell_words && r->kind == SV_KROW_ARRAY)
            rd->cell_words(t, k, cell, cl, sizeof cl);
        if (cl[0]) {
            out->emph[n] = true;
            snprintf(out->line[n++], SV_TIP_MAX, "%s", cl);
        }
        char uw[SV_TIP_MAX];
        if (unwritten_line(t, k, r->array, cell, w, uw, sizeof uw) && n < SV_TIP_LINES) {
            out->emph[n] = true;
            snprintf(out->line[n++], SV_TIP_MAX, "%s", uw);
            out->accent = SV_TONE_ERROR;
        }
        const sv_khazard *h = sv_kpane_hazard_at(t, k, r->array, cell, 0);
        if (h && n < SV_TIP_LINES) {
            char hw[SV_TIP_MAX];
            sv_kwords_hazard(t, h, hw, sizeof hw);
            out->emph[n] = true;
            snprintf(out->line[n++], SV_TIP_MAX, "%s", hw);
            if (n < SV_TIP_LINES)
                snprintf(out->line[n++], SV_TIP_MAX, "%s: lines %" PRId32 " and %" PRId32 "%s",
                         sv_khazard_kind_name(h->kind), h->first.line, h->second.line,
                         sv_kpane_verdict(t, k, r, c) == SV_KCELL_RIGHT
                             ? " \u00b7 in this run the cell is still right" : "");
            out->accent = SV_TONE_ERROR;
        }
        const sv_kbankcell *bc = r->kind == SV_KROW_ARRAY ? sv_kpane_bank_at(t, k, r->array, cell)
                                                          : NULL;
        if (bc && n < SV_TIP_LINES)
            snprintf(out->line[n++], SV_TIP_MAX, "bank conflict: a %u-way %s at line %" PRId32
                     " (warp %" PRIu32 "): its bank served %u words of the request, one after "
                     "another", (unsigned)bc->ways, bc->store ? "store" : "load", bc->line,
                     bc->warp, (unsigned)bc->ways);
        /* where the writer's warp diverged in this step: its lines, and who waited */
        sv_kdiverge dv[8];
        size_t ndv = sv_ktrace_divergence(t, k, dv, 8);
        uint32_t thread = w ? w->at.thread : (uint32_t)col;
        for (size_t i = 0, said = 0; i < ndv && i < 8 && said < 2 && n < SV_TIP_LINES; i++) {
            if (dv[i].warp != thread / 32)
                continue;
            char ran[96], waited[96];
            sv_lanes_words(dv[i].ran, ran, sizeof ran);
            sv_lanes_words(dv[i].lanes & ~dv[i].ran, waited, sizeof waited);
            snprintf(out->line[n++], SV_TIP_MAX, "warp %" PRIu32 " diverged at line %" PRId32
                     ": %s ran it, %s waited", dv[i].warp, dv[i].line, ran, waited);
            said++;
        }
        char rw[SV_TIP_MAX];
        sv_kwords_runs(t, k, r, c, rw, sizeof rw);
        if (rw[0] && n < SV_TIP_LINES) {
            out->emph[n] = strncmp(rw, "wrong", 5) == 0;
            snprintf(out->line[n++], SV_TIP_MAX, "%s", rw);
        }
    }
    sv_value want;
    if (n < SV_TIP_LINES && sv_kpane_compare(v, k, r, c, &want)) {
        fmtv(t, want, vs, sizeof vs);
        snprintf(out->line[n++], SV_TIP_MAX, "the chapter's kernel: %s", vs);
    }
    /* the printf calls of the column's thread in this step (issue 30), as
     * the table lists them (escaped again: from a file they may be anything) */
    for (size_t p = 0; p < t->nprints && n < SV_TIP_LINES; p++) {
        const sv_kprint *q = &t->prints[p];
        if (q->step != k || q->thread != (uint32_t)col)
            continue;
        char esc[SV_TIP_MAX];
        snprintf(out->line[n++], SV_TIP_MAX, "printf at line %" PRId32 ": %s", q->line,
                 sv_escape(q->text, esc, sizeof esc));
    }
    if (n < SV_TIP_LINES && sv_kpane_failed_here(t, k) && t->failure.thread == col &&
        r->kind == SV_KROW_ARRAY) {
        char f[SV_TIP_MAX];
        sv_kwords_out_of_range(t, f, sizeof f);
        if (!f[0])
            sv_ktrace_failure_words(t, f, sizeof f);
        out->emph[n] = true;
        snprintf(out->line[n++], SV_TIP_MAX, "%s", f);
        out->accent = SV_TONE_ERROR;
    }
    out->n = n;
    return true;
}

bool sv_kwords_case_conditions(const sv_app_view *v, char out[3][48])
{
    out[0][0] = out[1][0] = out[2][0] = '\0';
    const sv_ktrace *t = v ? v->ktrace : NULL;
    if (!t || !t->readings || !sv_reading_of(t)->rounds)
        return false;
    if (v->overview) { /* every step at once: in r, where some step is a round */
        for (size_t k = 0; k < t->nsteps; k++)
            if (t->readings[k].fits && t->readings[k].round >= 1)
                return sv_words_conditions_of(0, out);
        return false;
    }
    size_t k = (size_t)sv_kpane_step(v);
    if (k >= t->nsteps || !t->readings[k].fits)
        return false;
    uint64_t st = step_stride(t, k); /* 0 for round 0, the staging */
    return st >= 1 && st <= UINT32_MAX && sv_words_conditions_of((uint32_t)st, out);
}

bool sv_kwords_counters(const sv_app_view *v, char *line, size_t n1, char *note, size_t n2)
{
    line[0] = note[0] = '\0';
    const sv_ktrace *t = v->ktrace;
    if (!t)
        return false;
    size_t k = (size_t)sv_kpane_step(v);
    size_t writes = 0, combined = 0, total = 0;
    for (size_t j = 0; j < t->nsteps && j <= k; j++) {
        for (size_t w = 0; w < t->steps[j].nwrites; w++) {
            bool comb = t->steps[j].writes[w].nreads >= 2;
            total += comb;
            if (j == k) {
                writes++;
                combined += comb;
            }
        }
    }
    /* An open question (kquiz.c): nothing of the asked step that would
     * answer it, its operations, hazards or the output's verdict, until
     * Reveal (issue 28). */
    if (v->quiz && v->quiz_asking && t->nsteps) {
        snprintf(line, n1, "step %zu of %zu \u00b7 writes %zu \u00b7 ops and hazards this step: "
                 "after Reveal", k + 1, t->nsteps, writes);
        if (t->failure.kind == SV_KFAIL_NONE && (t->first_wrong >= 0 || t->hazards_total))
            snprintf(note, n2, "\u25cf the output's verdict shows after Reveal");
        else if (t->failure.kind != SV_KFAIL_NONE) {
            char f[SV_WORDS_MAX];
            sv_ktrace_failure_words(t, f, sizeof f);
            snprintf(note, n2, "\u25cf %s", f);
        }
        if (v->kerror && v->kerror[0])
            snprintf(note, n2, "\u25cf the last save failed: %s", v->kerror);
        return true;
    }
    const sv_reading *rd = sv_reading_of(t); /* its ops as it counts them (Blelloch's plan) */
    bool own = rd->counters && rd->counters(t, k, writes, step_hazards(t, k), line, n1);
    if (!own && sv_kpane_has_reads(t))
        snprintf(line, n1, "step %zu of %zu \u00b7 writes %zu \u00b7 ops this step %zu \u00b7 "
                 "total %zu (writes from two reads or more) \u00b7 hazards %zu",
                 t->nsteps ? k + 1 : 0, t->nsteps, writes, combined, total,
                 t->nsteps ? step_hazards(t, k) : 0);
    else if (!own && t->nlaunches)
        snprintf(line, n1, "launch %zu of %zu \u00b7 hazards between blocks %zu",
                 t->nsteps ? k + 1 : 0, t->nsteps, t->nsteps ? step_hazards(t, k) : 0);
    else if (!own)
        snprintf(line, n1, "step %zu of %zu \u00b7 hazards %zu", t->nsteps ? k + 1 : 0,
                 t->nsteps, (size_t)t->hazards_total);
    size_t ndv = sv_ktrace_divergence(t, k, NULL, 0);
    if (ndv) /* a warp's line some of its lanes ran while the others waited */
        cat(line, n1, " \u00b7 divergent lines %zu", ndv);
    if (t->failure.kind != SV_KFAIL_NONE) {
        char f[SV_WORDS_MAX];
        sv_ktrace_failure_words(t, f, sizeof f);
        snprintf(note, n2, "\u25cf %s", f);
    } else if (t->first_wrong >= 0 || t->hazards_total) {
        snprintf(note, n2, "\u25cf output %s \u00b7 %" PRIu64 " hazard%s in all",
                 t->first_wrong >= 0 ? "wrong" : "right", t->hazards_total,
                 t->hazards_total == 1 ? "" : "s");
        if (t->runs > 1) {
            char sc[64];
            cat(note, n2, " \u00b7 wrong in %" PRIu32 " of %" PRIu32 " runs \u00b7 run %" PRIu32
                " shown (%s)", t->wrong_runs, t->runs, t->shown_run,
                sv_kwords_run_schedule(t, t->shown_run, sc, sizeof sc));
        }
    }
    if (v->kerror && v->kerror[0])
        snprintf(note, n2, "\u25cf the last save failed: %s", v->kerror);
    return true;
}

void sv_kwords_overview_counters(const sv_ktrace *t, char *buf, size_t len)
{
    size_t writes = 0; /* cells written, step by step (the GPU records no writes) */
    for (size_t k = 0; k < t->nsteps; k++)
        for (size_t a = 0; a < t->narrays && t->steps[k].wrote; a++)
            for (uint32_t c = 0; c < t->arrays[a].len; c++)
                writes += t->steps[k].wrote[a][c];
    snprintf(buf, len, "%zu step%s \u00b7 %zu cells written \u00b7 %llu hazard%s \u00b7 output %s",
             t->nsteps, t->nsteps == 1 ? "" : "s", writes, (unsigned long long)t->hazards_total,
             t->hazards_total == 1 ? "" : "s", t->first_wrong < 0 ? "right" : "wrong");
}

void sv_kwords_step_label(const sv_ktrace *t, int k, char *buf, size_t len)
{
    const sv_reading *rd = sv_reading_of(t);
    if (k >= 0 && rd->step_label && rd->step_label(t, (size_t)k, buf, len)[0])
        return; /* the reading's: "r2", "\u21912", "root" */
    /* Else the last step, the copy to out[], is "out" (a launch is its number). */
    if (t && k >= 0 && (size_t)k + 1 == t->nsteps && step_writes_out(t, (size_t)k) &&
        !t->nlaunches) {
        snprintf(buf, len, "out");
    } else {
        snprintf(buf, len, "%d", k + 1);
    }
}

char *sv_kwords_source(const sv_ktrace *t, bool clean, char *buf, size_t len)
{
    if (t->backend == SV_BACKEND_CUDA) {
        char dev[128];
        sv_escape(t->device ? t->device : "", dev, sizeof dev);
        snprintf(buf, len, "GPU runtime%s%s", dev[0] ? " \u00b7 " : "", dev);
        return buf;
    }
    snprintf(buf, len, "CPU runtime");
    if (!clean && t->schedule) {
        char sc[64];
        sv_escape(t->schedule, sc, sizeof sc);
        cat(buf, len, " \u00b7 schedule %s", sc);
    }
    return buf;
}

void sv_kwords_header(const sv_app_view *v, const char **title, char *rest, size_t len)
{
    if (v->view == SV_VIEW_MEASURE) { /* the Measure view's header is the same for every pane */
        sv_words_header(v, title, rest, len);
        return;
    }
    const sv_ktrace *t = v->ktrace;
    const char *own = sv_reading_of(t)->title; /* "Blelloch" */
    *title = own ? own : "Your kernel";
    rest[0] = '\0';
    if (!t)
        return;
    char name[128];
    const char *file = t->file ? t->file : t->kernel ? t->kernel : "kernel";
    const char *slash = strrchr(file, '/');
    sv_escape(slash && slash[1] ? slash + 1 : file, name, sizeof name);
    snprintf(rest, len, ": %s  \u00b7  n = %zu  \u00b7  %s  \u00b7  %s", name, t->n,
             sv_op_name(t->op), sv_scan_name(t->scan));
    if (t->type == SV_TYPE_FLOAT32)
        cat(rest, len, "  \u00b7  %s", sv_type_name(t->type));
    if (v->kstale)
        cat(rest, len, "  \u00b7  shown: the previous version (the last save failed)");
    if (v->kread_only)
        cat(rest, len, "  \u00b7  from a trace file: read only");
}
