/* The chapter's rounds in registers (ktrace_shuffle.h). */
#include "ktrace_shuffle.h"

#include <stdlib.h>
#include <string.h>

bool sv_kreg_case(uint32_t row, uint32_t cell, sv_case *cs)
{
    if (row == 0 || row > 31)
        return false;
    uint32_t s = 1u << (row - 1), lane = cell % 32;
    *cs = lane < s ? SV_CASE_COPY : lane + 1 >= 2 * s ? SV_CASE_FULL : SV_CASE_PARTIAL;
    return true;
}

const sv_kregrounds *sv_ktrace_reg_reading(const sv_ktrace *t, uint32_t a)
{
    /* regrounds has one_buffer_n entries: both are made for every array
       by the same sv_ktrace_analyze */
    if (!t || !t->regrounds || a >= t->one_buffer_n || a >= t->narrays)
        return NULL;
    return t->regrounds[a].fits ? &t->regrounds[a] : NULL;
}

bool sv_ktrace_reg_rounds(const sv_ktrace *t, uint32_t a, sv_kregrounds *out)
{
    memset(out, 0, sizeof *out);
    out->broken_row = -1;
    if (!t || a >= t->narrays || t->arrays[a].kind != SV_KARRAY_REG || t->nsteps == 0)
        return false;
    const sv_karray *arr = &t->arrays[a];
    const sv_kstep *last = &t->steps[t->nsteps - 1];
    if (!last->cells || !last->cells[a] || arr->rows < 2 || arr->len != arr->rows * t->n)
        return false;
    out->rows = arr->rows;
    const size_t n = t->n;
    sv_value *cur = malloc(n * sizeof *cur), *next = malloc(n * sizeof *next);
    if (!cur || !next) {
        free(cur);
        free(next);
        return false;
    }
    memcpy(cur, t->input, n * sizeof *cur);
    bool ok = true;
    for (uint32_t r = 0; ok && r < arr->rows; r++) {
        if (r > 0) { /* round r from round r - 1, in the shuffle's order */
            uint32_t s = r - 1 < 31 ? 1u << (r - 1) : 0;
            for (size_t i = 0; i < n; i++) {
                bool overflow;
                next[i] = s && i % 32 >= s ? sv_op_apply(t->op, t->type, cur[i - s], cur[i], &overflow)
                                           : cur[i];
            }
            memcpy(cur, next, n * sizeof *cur);
        }
        const sv_value *row = last->cells[a] + (size_t)r * n;
        const bool *w = last->written[a] + (size_t)r * n;
        size_t i = 0;
        while (i < n && w[i] && row[i].bits == cur[i].bits)
            i++;
        if (i == n)
            continue;
        /* Off the rounds at lane i. Not the pattern at all (row 0 not the
         * input; row 1 not round 1 with the output right): no reading. A
         * right output: its rows are the rounds up to here and then
         * something else (a second scan at the same line, the warps'
         * totals): the reading ends, nothing is called broken. A wrong
         * output: broken here. */
        if (r == 0 || (r == 1 && t->first_wrong < 0)) {
            ok = false;
        } else if (t->first_wrong < 0) {
            out->rows = r;
        } else {
            out->broken_row = (int32_t)r;
            out->broken_cell = (uint32_t)i;
            out->holds = w[i] ? row[i] : (sv_value){ 0 };
            out->want = cur[i];
        }
        break;
    }
    free(cur);
    free(next);
    out->fits = ok;
    return ok;
}
