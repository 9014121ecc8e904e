/* Summaries of lab runs: every round and cell of R raw runs against the
 * chapter's kernel (values, counts, first divergence, distinct outputs), and
 * the conversions between one raw run and a trace. */
#include "lab_summary.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

/* ---- Summaries ------------------------------------------------------------ */

void sv_lab_raw_from_trace(const sv_trace *t, uint32_t run, uint32_t *bits, bool *known)
{
    size_t n = t->n;
    for (size_t r = 0; r < t->nrounds; r++) {
        const sv_round *R = &t->rounds[r];
        int b = r == 0 ? 0 : R->pout;
        for (size_t i = 0; i < n; i++) {
            size_t j = ((size_t)run * t->nrounds + r) * n + i;
            bits[j] = R->written[b][i] ? R->buf[b][i].bits : 0;
            if (known)
                known[j] = R->written[b][i];
        }
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_count(const void *a, const void *b)
{
    const sv_lab_count *x = a, *y = b;
    if (x->runs != y->runs)
        return x->runs > y->runs ? -1 : 1;
    uint64_t kx = x->known ? x->value.bits : (1ull << 32), ky = y->known ? y->value.bits : (1ull << 32);
    return kx < ky ? -1 : kx > ky;
}

/* A run's output row, for counting distinct outputs. */
typedef struct row_ref {
    const uint32_t *bits;
    const bool *known;
    size_t n;
} row_ref;

static int cmp_row(const void *a, const void *b)
{
    const row_ref *x = a, *y = b;
    for (size_t i = 0; i < x->n; i++) {
        uint64_t kx = (!x->known || x->known[i]) ? x->bits[i] : (1ull << 32);
        uint64_t ky = (!y->known || y->known[i]) ? y->bits[i] : (1ull << 32);
        if (kx != ky)
            return kx < ky ? -1 : 1;
    }
    return 0;
}

sv_lab_summary *sv_lab_summarize(const sv_trace *correct, uint32_t runs, const uint32_t *bits,
                                 const bool *known, char *err, size_t errlen)
{
    if (!correct || !bits || runs == 0) {
        sv_errorf(err, errlen, "sv_lab_summarize: %s", runs == 0 ? "no runs" : "no data");
        return NULL;
    }
    const size_t n = correct->n, nr = correct->nrounds;
    bool ok = false;
    sv_lab_summary *s = calloc(1, sizeof *s);
    uint64_t *keys = calloc(runs, sizeof(uint64_t));
    row_ref *rows = calloc(runs, sizeof(row_ref));
    if (!s || !keys || !rows)
        goto done;
    s->n = n;
    s->nrounds = nr;
    s->runs = runs;
    s->first_wrong_cell = -1;
    s->first_wrong_round = -1;
    s->cells = calloc(n * nr, sizeof(sv_lab_cell));
    s->first_diverged = malloc(n * sizeof(int));
    if (!s->cells || !s->first_diverged)
        goto done;
    for (size_t i = 0; i < n; i++)
        s->first_diverged[i] = -1;
    for (size_t r = 0; r < nr; r++) {
        const sv_round *R = &correct->rounds[r];
        int b = r == 0 ? 0 : R->pout;
        for (size_t i = 0; i < n; i++) {
            sv_lab_cell *c = &s->cells[r * n + i];
            c->correct = R->buf[b][i];
            for (uint32_t k = 0; k < runs; k++) {
                size_t j = ((size_t)k * nr + r) * n + i;
                bool kn = !known || known[j];
                keys[k] = kn ? bits[j] : (1ull << 32);
                if (!kn || bits[j] != c->correct.bits)
                    c->wrong_runs++;
            }
            qsort(keys, runs, sizeof *keys, cmp_u64);
            uint32_t distinct = 1;
            for (uint32_t k = 1; k < runs; k++)
                distinct += keys[k] != keys[k - 1];
            c->values = calloc(distinct, sizeof(sv_lab_count));
            if (!c->values)
                goto done;
            uint32_t v = 0;
            for (uint32_t k = 0; k < runs; k++) {
                if (k > 0 && keys[k] == keys[k - 1]) {
                    c->values[v - 1].runs++;
                    continue;
                }
                c->values[v].known = keys[k] < (1ull << 32);
                c->values[v].value.bits = (uint32_t)keys[k];
                c->values[v].runs = 1;
                v++;
            }
            c->nvalues = distinct;
            qsort(c->values, distinct, sizeof(sv_lab_count), cmp_count);
            if (c->wrong_runs > 0) {
                if (s->first_diverged[i] < 0)
                    s->first_diverged[i] = (int)r;
                if (s->first_wrong_round < 0)
                    s->first_wrong_round = (int)r;
            }
        }
    }
    /* The output: the last round's pout. */
    size_t last = nr - 1;
    for (size_t i = 0; i < n; i++)
        if (s->cells[last * n + i].wrong_runs > 0) {
            s->first_wrong_cell = (int)i;
            break;
        }
    for (uint32_t k = 0; k < runs; k++) {
        size_t j = ((size_t)k * nr + last) * n;
        rows[k] = (row_ref){bits + j, known ? known + j : NULL, n};
        for (size_t i = 0; i < n; i++) {
            bool kn = !known || known[j + i];
            if (!kn || bits[j + i] != s->cells[last * n + i].correct.bits) {
                s->wrong_runs++;
                break;
            }
        }
    }
    qsort(rows, runs, sizeof *rows, cmp_row);
    s->distinct_outputs = 1;
    for (uint32_t k = 1; k < runs; k++)
        s->distinct_outputs += cmp_row(&rows[k], &rows[k - 1]) != 0;
    ok = true;
done:
    if (!ok) {
        sv_errorf(err, errlen, "out of memory summarizing %u runs of %zu cells", (unsigned)runs,
                  n);
        sv_lab_summary_destroy(s);
        s = NULL;
    }
    free(keys);
    free(rows);
    return s;
}

sv_lab_summary *sv_lab_summary_all_correct(const sv_trace *correct, uint32_t runs, char *err,
                                           size_t errlen)
{
    size_t words = correct->nrounds * correct->n;
    uint32_t *bits = malloc(words * sizeof *bits);
    if (!bits) {
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    sv_lab_raw_from_trace(correct, 0, bits, NULL);
    /* One run, then scale the counts: every run held the same values. */
    sv_lab_summary *s = sv_lab_summarize(correct, 1, bits, NULL, err, errlen);
    free(bits);
    if (!s)
        return NULL;
    s->runs = runs;
    for (size_t j = 0; j < words; j++)
        s->cells[j].values[0].runs = runs;
    return s;
}

void sv_lab_trace_from_raw(sv_trace *t, sv_kernel k, const uint32_t *bits, const bool *known)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    const size_t n = t->n;
    for (size_t i = 0; i < n; i++) {
        sv_value own[2] = {{.bits = 0}, {.bits = 0}};
        bool has[2] = {false, false};
        int pout = 0;
        for (size_t r = 0; r < t->nrounds; r++) {
            sv_round *R = &t->rounds[r];
            if (r > 0) {
                if (info->double_buffer)
                    pout = 1 - pout;
                else
                    R->pin = R->pout = 0;
            }
            if (r == 0 || sv_kernel_writes(k, (int)r, i)) {
                own[pout].bits = bits[r * n + i];
                has[pout] = !known || known[r * n + i];
            }
            for (int b = 0; b < 2; b++) {
                R->buf[b][i] = has[b] ? own[b] : (sv_value){.bits = 0};
                R->written[b][i] = has[b];
            }
        }
    }
}
