/* The kernel pane's model (kpane.h): which rows a kernel trace shows, what
 * each cell holds at a step, its mark from the chapter's reading, the write
 * and hazards behind it, and the chapter kernel's value to compare with.
 * Pure: no drawing. */
#include <stdio.h>
#include <string.h>

#include "../core/escape.h"
#include "../core/ktrace_diverge.h"
#include "../core/ktrace_reading.h"
#include "../core/ktrace_shuffle.h"
#include "kpane.h"
#include "scene.h"

/* Whether row `row` of array a holds a cell written by the end, or read. */
static bool row_touched(const sv_ktrace *t, uint32_t a, uint32_t row)
{
    const sv_karray *arr = &t->arrays[a];
    if (!arr->touched || t->nsteps == 0)
        return false;
    uint32_t rowlen = arr->len / arr->rows, lo = row * rowlen, hi = lo + rowlen;
    const sv_kstep *last = &t->steps[t->nsteps - 1];
    for (uint32_t c = lo; c < hi; c++)
        if (last->written[a][c])
            return true;
    for (size_t k = 0; k < t->nsteps; k++)
        for (size_t r = 0; r < t->steps[k].nreads; r++) {
            const sv_kaccess *x = &t->steps[k].reads[r];
            if (x->array == a && x->cell >= lo && x->cell < hi)
                return true;
        }
    return false;
}

bool sv_kpane_rows(const sv_ktrace *t, sv_krows *out)
{
    memset(out, 0, sizeof *out);
    if (!t)
        return false;
    out->cols = t->n;
    sv_krow *in = &out->row[out->n++];
    *in = (sv_krow){ .kind = SV_KROW_INPUT, .array = SV_KARRAY_IN, .count = (uint32_t)t->n };
    snprintf(in->name, sizeof in->name, "in");
    int out_array = -1;
    const sv_reading *rd = sv_reading_of(t);
    for (size_t a = 0; a < t->narrays; a++) {
        const sv_karray *arr = &t->arrays[a];
        if (arr->kind == SV_KARRAY_OUT) {
            out_array = (int)a;
            continue;
        }
        uint32_t rows = arr->rows ? arr->rows : 1, rowlen = arr->len / rows;
        for (uint32_t r = 0; r < rows; r++) {
            if (!row_touched(t, (uint32_t)a, r)) {
                out->hidden++;
                continue;
            }
            if (out->n >= SV_KPANE_MAX_ROWS - 1) {
                out->hidden++;
                continue;
            }
            sv_krow *k = &out->row[out->n++];
            char name[48];
            sv_escape(arr->name, name, sizeof name);
            *k = (sv_krow){ .kind = SV_KROW_ARRAY, .array = (uint32_t)a, .row = r,
                            .first = r * rowlen,
                            .count = rowlen < t->n ? rowlen : (uint32_t)t->n };
            if (rd->row_name && rd->row_name(t, (uint32_t)a, r, rowlen, k->name, sizeof k->name))
                continue; /* the reading names its rows (Blelloch's tree: t[]) */
            if (sv_ktrace_rows_named(t, (uint32_t)a) > 1)
                snprintf(k->name, sizeof k->name, "%s[%u]", name, (unsigned)r);
            else
                snprintf(k->name, sizeof k->name, "%s", name);
        }
    }
    sv_krow *o = &out->row[out->n++];
    *o = (sv_krow){ .kind = SV_KROW_OUT, .array = out_array < 0 ? SV_KARRAY_IN : (uint32_t)out_array,
                    .count = (uint32_t)t->n };
    snprintf(o->name, sizeof o->name, "out");
    return true;
}

int sv_kpane_steps(const sv_ktrace *t)
{
    if (!t)
        return 0;
    return t->nsteps > SV_MAX_STEPS ? SV_MAX_STEPS : (int)t->nsteps;
}

int sv_kpane_step(const sv_app_view *v)
{
    int n = sv_kpane_steps(v ? v->ktrace : NULL);
    if (n <= 0)
        return 0;
    return v->kstep < 0 ? 0 : v->kstep >= n ? n - 1 : v->kstep;
}

int sv_kpane_row_of(const sv_krows *r, uint32_t a, uint32_t cell, uint32_t *col)
{
    for (int k = 0; k < r->n; k++) {
        const sv_krow *x = &r->row[k];
        if (x->kind == SV_KROW_OUT && x->array == SV_KARRAY_IN)
            continue; /* no out array: nothing maps to it */
        if (x->array == a && cell >= x->first && cell < x->first + x->count) {
            if (col)
                *col = cell - x->first;
            return k;
        }
    }
    return -1;
}

bool sv_kpane_value(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col,
                    sv_value *out)
{
    if (col >= r->count)
        return false;
    if (r->kind == SV_KROW_INPUT) {
        *out = t->input[col];
        return true;
    }
    if (r->kind == SV_KROW_OUT && r->array == SV_KARRAY_IN) {
        if (k + 1 < t->nsteps || !t->output_written[col])
            return false;
        *out = t->output[col];
        return true;
    }
    if (k >= t->nsteps)
        return false;
    const sv_kstep *s = &t->steps[k];
    if (!s->written[r->array][r->first + col])
        return false;
    *out = s->cells[r->array][r->first + col];
    return true;
}

bool sv_kpane_wrote(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col)
{
    if (r->kind == SV_KROW_INPUT || k >= t->nsteps || col >= r->count ||
        r->array == SV_KARRAY_IN)
        return false;
    return t->steps[k].wrote[r->array][r->first + col];
}

sv_kmark sv_kpane_mark(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col,
                       sv_case *cs)
{
    if (!t->readings || k >= t->nsteps || r->kind != SV_KROW_ARRAY)
        return SV_KMARK_NONE;
    const sv_kregrounds *g = sv_ktrace_reg_reading(t, r->array);
    if (g && k + 1 == t->nsteps) { /* a shuffle's rows read as the chapter's rounds (issue 30) */
        if (r->row >= g->rows || (g->broken_row >= 0 && r->row > (uint32_t)g->broken_row))
            return SV_KMARK_NONE;
        if (g->broken_row >= 0 && r->row == (uint32_t)g->broken_row)
            return col == g->broken_cell ? SV_KMARK_BROKEN
                   : col > g->broken_cell ? SV_KMARK_AFTER : SV_KMARK_NONE;
        sv_case c;
        if (!sv_kreg_case(r->row, col, &c))
            return SV_KMARK_NONE;
        if (cs)
            *cs = c;
        return SV_KMARK_CASE;
    }
    const sv_kreading *rd = &t->readings[k];
    if (!rd->fits || (uint32_t)rd->pout_array != r->array || (uint32_t)rd->pout_row != r->row)
        return SV_KMARK_NONE;
    if (rd->broken && col == rd->first_broken)
        return SV_KMARK_BROKEN;
    if (rd->broken && col > rd->first_broken)
        return SV_KMARK_AFTER;
    if (rd->round < 1)
        return SV_KMARK_NONE;
    uint64_t stride = 1ull << (rd->round - 1);
    if (cs)
        *cs = col < stride ? SV_CASE_COPY : col + 1 >= 2 * stride ? SV_CASE_FULL
                                                                : SV_CASE_PARTIAL;
    return SV_KMARK_CASE;
}

const sv_kwrite *sv_kpane_write_of(const sv_ktrace *t, size_t k, uint32_t a, uint32_t cell)
{
    if (k >= t->nsteps)
        return NULL;
    const sv_kstep *s = &t->steps[k];
    for (size_t w = s->nwrites; w-- > 0;)
        if (s->writes[w].at.array == a && s->writes[w].at.cell == cell)
            return &s->writes[w];
    return NULL;
}

bool sv_kpane_has_reads(const sv_ktrace *t)
{
    if (!t || t->backend == SV_BACKEND_CUDA)
        return false;
    for (size_t k = 0; k < t->nsteps; k++)
        if (t->steps[k].nwrites > 0)
            return true;
    return false;
}

const sv_khazard *sv_kpane_hazard_at(const sv_ktrace *t, size_t k, uint32_t a, uint32_t cell,
                                     size_t i)
{
    for (size_t h = 0; h < t->nhazards; h++) {
        const sv_khazard *x = &t->hazards[h];
        if (x->step == k && x->array == a && x->cell == cell && i-- == 0)
            return x;
    }
    return NULL;
}

size_t sv_kpane_bank_first(const sv_ktrace *t, size_t k)
{
    size_t lo = 0, hi = t->nbankcells; /* the first entry of a step >= k */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->bankcells[mid].step < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->nbankcells && t->bankcells[lo].step == k ? lo : t->nbankcells;
}

const sv_kbankcell *sv_kpane_bank_at(const sv_ktrace *t, size_t k, uint32_t a, uint32_t cell)
{
    for (size_t i = sv_kpane_bank_first(t, k); i < t->nbankcells && t->bankcells[i].step == k;
         i++)
        if (t->bankcells[i].array == a && t->bankcells[i].cell == cell)
            return &t->bankcells[i];
    return NULL;
}

size_t sv_kpane_bank_cells(const sv_ktrace *t, size_t k, const sv_kbankcell **most)
{
    size_t n = 0;
    *most = NULL;
    for (size_t i = sv_kpane_bank_first(t, k); i < t->nbankcells && t->bankcells[i].step == k;
         i++, n++)
        if (!*most || t->bankcells[i].ways > (*most)->ways)
            *most = &t->bankcells[i];
    return n;
}

int sv_kpane_diverged_warp(const sv_app_view *v, size_t k, const sv_kdiverge *d, size_t n)
{
    const sv_ktrace *t = v->ktrace;
    if (!t || n == 0)
        return -1;
    int row, col;
    sv_krows rows;
    if (sv_scene_tooltip_target(v, &row, &col) && sv_kpane_rows(t, &rows) && row < rows.n &&
        col >= 0 && (uint32_t)col < rows.row[row].count) {
        const sv_krow *r = &rows.row[row];
        const sv_kwrite *w = r->kind == SV_KROW_INPUT ? NULL
                             : sv_kpane_write_of(t, k, r->array, r->first + (uint32_t)col);
        uint32_t thread = w ? w->at.thread : (uint32_t)col;
        return thread < t->n ? (int)(thread / 32) : (int)d[0].warp;
    }
    return (int)d[0].warp;
}

bool sv_kpane_failed_here(const sv_ktrace *t, size_t k)
{
    if (t->failure.kind == SV_KFAIL_NONE)
        return false;
    if (t->failure.step >= 0)
        return (size_t)t->failure.step == k ||
               ((size_t)t->failure.step >= t->nsteps && k + 1 == t->nsteps);
    return k + 1 == t->nsteps;
}

sv_kverdict_cell sv_kpane_verdict(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col)
{
    if (!t || col >= t->n || col >= r->count)
        return SV_KCELL_UNKNOWN;
    if (r->kind == SV_KROW_OUT) {
        if (k + 1 < t->nsteps || !t->output_wrong)
            return SV_KCELL_UNKNOWN;
        return t->output_wrong[col] ? SV_KCELL_WRONG : SV_KCELL_RIGHT;
    }
    if (r->kind != SV_KROW_ARRAY || !t->readings || !t->cell_wrong || k >= t->nsteps)
        return SV_KCELL_UNKNOWN;
    const sv_kreading *rd = &t->readings[k];
    if (!rd->fits || (uint32_t)rd->pout_array != r->array || (uint32_t)rd->pout_row != r->row)
        return SV_KCELL_UNKNOWN;
    return t->cell_wrong[k * t->n + col] ? SV_KCELL_WRONG : SV_KCELL_RIGHT;
}

bool sv_kpane_cell_runs(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col,
                        uint32_t *wrong, const uint32_t **which)
{
    if (!t || t->ncellruns == 0 || col >= r->count || r->kind == SV_KROW_INPUT)
        return false;
    uint32_t i = 0;
    const sv_kcellruns *c;
    if (r->kind == SV_KROW_OUT) {
        if (k + 1 < t->nsteps)
            return false;
        c = sv_ktrace_cellruns_at(t, -1, r->array, col, &i);
    } else {
        c = sv_ktrace_cellruns_at(t, (int32_t)k, r->array, r->first + col, &i);
    }
    if (!c)
        return false;
    *wrong = c->wrong[i];
    *which = c->which + (size_t)i * SV_KTRACE_CELL_RUNS;
    return true;
}

int64_t sv_kpane_next_wrong_run(const sv_ktrace *t, size_t k, const sv_krow *r, uint32_t col,
                                bool back)
{
    uint32_t wrong = 0;
    const uint32_t *which = NULL;
    if (!sv_kpane_cell_runs(t, k, r, col, &wrong, &which) || wrong == 0)
        return -1;
    size_t m = 0;
    while (m < SV_KTRACE_CELL_RUNS && which[m] != SV_KTRACE_NO_RUN)
        m++;
    if (m == 0)
        return -1;
    uint32_t cur = t->shown_run;
    if (back) {
        for (size_t j = m; j-- > 0;)
            if (which[j] < cur)
                return which[j];
        return which[m - 1];
    }
    for (size_t j = 0; j < m; j++)
        if (which[j] > cur)
            return which[j];
    return which[0];
}

/* The step of c holding round `round` in its reading (fits), or -1. */
static int compare_step(const sv_ktrace *c, int round)
{
    if (!c->readings)
        return -1;
    for (size_t k = 0; k < c->nsteps; k++)
        if (c->readings[k].fits && !c->readings[k].broken && c->readings[k].round == round)
            return (int)k;
    return -1;
}

bool sv_kpane_compare(const sv_app_view *v, size_t k, const sv_krow *r, uint32_t col,
                      sv_value *out)
{
    const sv_ktrace *t = v->ktrace, *c = v->kcompare;
    if (!t || !c || !v->kcompare_shown || c->n != t->n || col >= t->n)
        return false;
    if (r->kind == SV_KROW_OUT) {
        if (k + 1 < t->nsteps || !c->output_written[col])
            return false;
        *out = c->output[col];
        return true;
    }
    if (r->kind != SV_KROW_ARRAY || !t->readings || k >= t->nsteps)
        return false;
    const sv_kreading *rd = &t->readings[k];
    if (!rd->fits || (uint32_t)rd->pout_array != r->array || (uint32_t)rd->pout_row != r->row)
        return false;
    int ck = compare_step(c, rd->round);
    if (ck < 0)
        return false;
    const sv_kreading *cr = &c->readings[ck];
    const sv_karray *ca = &c->arrays[cr->pout_array];
    uint32_t cell = (uint32_t)cr->pout_row * (ca->len / ca->rows) + col;
    if (!c->steps[ck].written[cr->pout_array][cell])
        return false;
    *out = c->steps[ck].cells[cr->pout_array][cell];
    return true;
}
