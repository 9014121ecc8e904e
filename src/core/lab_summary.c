/* Summaries of lab runs: every round and cell of R raw runs against the
 * chapter's kernel (values, counts, first divergence, distinct outputs), and
 * the conversions between one raw run and a trace. */
#include "lab_summary.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Sorts keys[0..m) (below 2^40) ascending: LSD radix sort on 8-bit digits,
 * one histogram pass for all five digits, skipping a digit all keys share
 * (the unknown flag, bit 32, mostly). tmp holds m keys. */
static void radix_sort_keys(uint64_t *keys, uint64_t *tmp, uint32_t m)
{
    uint32_t hist[5][256];
    memset(hist, 0, sizeof hist);
    for (uint32_t k = 0; k < m; k++)
        for (int d = 0; d < 5; d++)
            hist[d][(keys[k] >> (8 * d)) & 255]++;
    for (int d = 0; d < 5; d++) {
        uint32_t *h = hist[d], sum = 0;
        if (h[(keys[0] >> (8 * d)) & 255] == m)
            continue; /* every key has this digit */
        for (int v = 0; v < 256; v++) {
            uint32_t c = h[v];
            h[v] = sum;
            sum += c;
        }
        for (uint32_t k = 0; k < m; k++)
            tmp[h[(keys[k] >> (8 * d)) & 255]++] = keys[k];
        memcpy(keys, tmp, m * sizeof *keys);
    }
}

/* Fills c->values with the distinct keys among keys[0..m) (a key is the
 * value's bits, or 2^32 for unknown) and their run counts, most runs first,
 * then by key (cmp_count's order). A cell holds few distinct values in most
 * mistakes: they are counted in a small table. A race can give a cell a
 * value of its own in almost every run: then the keys are radix sorted,
 * counted in key order, and placed by a stable counting sort on the run
 * count (qsort's comparisons cost 0.6 s for 1000 runs at n = 1024).
 * tmp holds m keys, bucket m + 1 counts. */
enum { kSmallValues = 8 };
static bool count_values(uint64_t *keys, uint32_t m, uint64_t *tmp, uint32_t *bucket,
                         sv_lab_cell *c)
{
    uint64_t kv[kSmallValues];
    uint32_t kc[kSmallValues], d = 0, k;
    for (k = 0; k < m; k++) {
        uint32_t q = 0;
        while (q < d && kv[q] != keys[k])
            q++;
        if (q == d) {
            if (d == kSmallValues)
                break;
            kv[d] = keys[k];
            kc[d++] = 0;
        }
        kc[q]++;
    }
    if (k == m) {
        if (!(c->values = calloc(d, sizeof(sv_lab_count))))
            return false;
        for (uint32_t v = 0; v < d; v++) {
            c->values[v].known = kv[v] < (1ull << 32);
            c->values[v].value.bits = (uint32_t)kv[v];
            c->values[v].runs = kc[v];
        }
        c->nvalues = d;
        qsort(c->values, d, sizeof(sv_lab_count), cmp_count);
        return true;
    }
    radix_sort_keys(keys, tmp, m);
    /* The distinct keys in ascending order into tmp[v], their runs into
     * bucket[v] (tmp is free again after the sort). */
    d = 0;
    for (k = 0; k < m; k++) {
        if (k > 0 && keys[k] == tmp[d - 1]) {
            bucket[d - 1]++;
            continue;
        }
        tmp[d] = keys[k];
        bucket[d++] = 1;
    }
    if (!(c->values = calloc(d, sizeof(sv_lab_count))))
        return false;
    /* Stable counting sort by runs, descending: start[r] (r = m - runs) in
     * keys reinterpreted as counts. */
    uint32_t *start = (uint32_t *)keys; /* the cell's keys are consumed: m + 1 counts fit */
    memset(start, 0, (m + 1) * sizeof *start);
    for (uint32_t v = 0; v < d; v++)
        start[m - bucket[v]]++;
    for (uint32_t r = 0, sum = 0; r <= m; r++) {
        uint32_t cnt = start[r];
        start[r] = sum;
        sum += cnt;
    }
    for (uint32_t v = 0; v < d; v++) {
        sv_lab_count *e = &c->values[start[m - bucket[v]]++];
        e->known = tmp[v] < (1ull << 32);
        e->value.bits = (uint32_t)tmp[v];
        e->runs = bucket[v];
    }
    c->nvalues = d;
    return true;
}

/* One thread's share of a summary: cells [lo, hi) of every run (cell j of
 * run k is bits[k * cells + j]). */
typedef struct summary_job {
    sv_lab_summary *s;
    const uint32_t *corr, *bits;
    const bool *known;
    uint32_t runs;
    size_t lo, hi;
    bool ok;
} summary_job;

/* Keys of 16 cells at once: each run's 16 cells are one 64-byte line of
 * bits, and the 16 rows of keys stay in cache while they fill. */
enum { kCellBlock = 16 };

/* The job's cells: the runs that differ from the correct value, counted in
 * one pass over the runs; then the values, one entry for a cell no run got
 * wrong (most of them); for the others the keys of a block of cells are
 * gathered run by run, then counted cell by cell. */
static void *summary_work(void *arg)
{
    summary_job *jb = arg;
    sv_lab_summary *s = jb->s;
    const size_t cells = s->n * s->nrounds;
    const uint32_t runs = jb->runs;
    uint64_t *keys = malloc((size_t)kCellBlock * runs * sizeof *keys);
    uint64_t *tmp = malloc(runs * sizeof *tmp);
    uint32_t *bucket = malloc(((size_t)runs + 1) * sizeof *bucket);
    jb->ok = keys && tmp && bucket;
    for (uint32_t k = 0; jb->ok && k < runs; k++) {
        const uint32_t *row = jb->bits + (size_t)k * cells;
        const bool *krow = jb->known ? jb->known + (size_t)k * cells : NULL;
        for (size_t j = jb->lo; j < jb->hi; j++)
            s->cells[j].wrong_runs += (krow && !krow[j]) || row[j] != jb->corr[j];
    }
    for (size_t c0 = jb->lo; jb->ok && c0 < jb->hi; c0 += kCellBlock) {
        const size_t c1 = c0 + kCellBlock < jb->hi ? c0 + kCellBlock : jb->hi;
        bool any = false;
        for (size_t j = c0; j < c1 && jb->ok; j++) {
            sv_lab_cell *c = &s->cells[j];
            if (c->wrong_runs > 0) {
                any = true;
            } else if ((c->values = calloc(1, sizeof(sv_lab_count)))) {
                c->values[0] = (sv_lab_count){.known = true, .value = c->correct, .runs = runs};
                c->nvalues = 1;
            } else {
                jb->ok = false;
            }
        }
        if (!any || !jb->ok)
            continue;
        for (uint32_t k = 0; k < runs; k++) {
            const size_t at = (size_t)k * cells;
            for (size_t j = c0; j < c1; j++)
                keys[(j - c0) * runs + k] =
                    (!jb->known || jb->known[at + j]) ? jb->bits[at + j] : (1ull << 32);
        }
        for (size_t j = c0; j < c1 && jb->ok; j++)
            if (s->cells[j].wrong_runs > 0)
                jb->ok = count_values(keys + (j - c0) * runs, runs, tmp, bucket, &s->cells[j]);
    }
    free(keys);
    free(tmp);
    free(bucket);
    return NULL;
}

/* Every cell's wrong runs and values, on up to kSummaryThreads threads when
 * there are many (the work is per cell; 1000 runs at n = 1024 are 11 M
 * keys). */
enum { kSummaryThreads = 8 };
static bool summarize_cells(sv_lab_summary *s, const uint32_t *corr, uint32_t runs,
                            const uint32_t *bits, const bool *known)
{
    const size_t cells = s->n * s->nrounds;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t nt = (size_t)cells * runs < ((size_t)1 << 20) || cpus < 2 ? 1
                : cpus < kSummaryThreads ? (size_t)cpus : kSummaryThreads;
    summary_job jobs[kSummaryThreads];
    pthread_t tid[kSummaryThreads];
    bool started[kSummaryThreads] = {false};
    const size_t share = (cells / nt + kCellBlock - 1) / kCellBlock * kCellBlock;
    for (size_t t = 0; t < nt; t++) {
        size_t lo = t * share < cells ? t * share : cells;
        size_t hi = t + 1 == nt || lo + share > cells ? cells : lo + share;
        jobs[t] = (summary_job){s, corr, bits, known, runs, lo, hi, false};
        if (t > 0)
            started[t] = pthread_create(&tid[t], NULL, summary_work, &jobs[t]) == 0;
    }
    summary_work(&jobs[0]);
    bool ok = jobs[0].ok;
    for (size_t t = 1; t < nt; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            summary_work(&jobs[t]); /* no thread: do its share here */
        ok = ok && jobs[t].ok;
    }
    return ok;
}

sv_lab_summary *sv_lab_summarize(const sv_trace *correct, uint32_t runs, const uint32_t *bits,
                                 const bool *known, char *err, size_t errlen)
{
    if (!correct || !bits || runs == 0) {
        sv_errorf(err, errlen, "sv_lab_summarize: %s", runs == 0 ? "no runs" : "no data");
        return NULL;
    }
    const size_t n = correct->n, nr = correct->nrounds, cells = n * nr;
    bool ok = false;
    sv_lab_summary *s = calloc(1, sizeof *s);
    uint32_t *corr = malloc(cells * sizeof *corr);
    row_ref *rows = calloc(runs, sizeof(row_ref));
    if (!s || !corr || !rows)
        goto done;
    s->n = n;
    s->nrounds = nr;
    s->runs = runs;
    s->first_wrong_cell = -1;
    s->first_wrong_round = -1;
    s->cells = calloc(cells, sizeof(sv_lab_cell));
    s->first_diverged = malloc(n * sizeof(int));
    if (!s->cells || !s->first_diverged)
        goto done;
    for (size_t r = 0; r < nr; r++) {
        const sv_round *R = &correct->rounds[r];
        int b = r == 0 ? 0 : R->pout;
        for (size_t i = 0; i < n; i++) {
            s->cells[r * n + i].correct = R->buf[b][i];
            corr[r * n + i] = R->buf[b][i].bits;
        }
    }
    if (!summarize_cells(s, corr, runs, bits, known))
        goto done;
    for (size_t i = 0; i < n; i++)
        s->first_diverged[i] = -1;
    for (size_t r = 0; r < nr; r++)
        for (size_t i = 0; i < n; i++)
            if (s->cells[r * n + i].wrong_runs > 0) {
                if (s->first_diverged[i] < 0)
                    s->first_diverged[i] = (int)r;
                if (s->first_wrong_round < 0)
                    s->first_wrong_round = (int)r;
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
            if (!kn || bits[j + i] != corr[last * n + i]) {
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
    free(corr);
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
