/* Parsing compute-sanitizer racecheck reports (racecheck.h). The hazard
 * format, from the H200 (BUILD-NOTES.md):
 *   ========= Warning: (Warp Level Programming) Potential WAR hazard detected
 *             at __shared__ 0x480 in block (0,0,0) :
 *   =========     Read Thread (33,0,0) at f(...)+0x160 in mistakes.cu:20
 *   =========     Write Thread (32,0,0) at f(...)+0x180 in mistakes.cu:20
 *   =========     Current Value : 3, Incoming Value : 10
 *   ========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)
 * Every line is read within its own bounds; nothing is trusted to be there. */
#include "racecheck.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "error.h"
#include "free_all.h"

size_t sv_racecheck_at(const sv_racecheck *rc, int buf, int cell, int round, size_t *in_round,
                       const sv_hazard **example)
{
    size_t all = 0, here = 0;
    const sv_hazard *first = NULL, *first_here = NULL;
    for (size_t k = 0; rc && k < rc->nhazards; k++) {
        const sv_hazard *h = &rc->hazards[k];
        if (h->buf != buf || h->cell != cell)
            continue;
        all++;
        if (!first)
            first = h;
        if (h->round == round && round >= 0) {
            here++;
            if (!first_here)
                first_here = h;
        }
    }
    if (in_round)
        *in_round = here;
    if (example)
        *example = first_here ? first_here : first;
    return all;
}

void sv_racecheck_destroy(sv_racecheck *rc)
{
    if (!rc)
        return;
    SV_FREE_ALL(rc->hazards, rc);
}

/* strstr bounded to one line. */
static const char *find(const char *line, size_t len, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(line + i, needle, k) == 0)
            return line + i;
    return NULL;
}

static bool parse_u64(const char **p, const char *end, uint64_t *out, int base)
{
    uint64_t v = 0;
    const char *s = *p;
    int digits = 0;
    for (; s < end; s++, digits++) {
        int d;
        if (*s >= '0' && *s <= '9')
            d = *s - '0';
        else if (base == 16 && *s >= 'a' && *s <= 'f')
            d = *s - 'a' + 10;
        else if (base == 16 && *s >= 'A' && *s <= 'F')
            d = *s - 'A' + 10;
        else
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return false;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    if (digits == 0)
        return false;
    *p = s;
    *out = v;
    return true;
}

static bool parse_i64(const char **p, const char *end, int64_t *out)
{
    bool neg = *p < end && **p == '-';
    if (neg)
        (*p)++;
    uint64_t v;
    if (!parse_u64(p, end, &v, 10) || v > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? -(int64_t)v : (int64_t)v;
    return true;
}

/* "Read Thread (33,0,0) at ... in file.cu:20" or "Write Thread ...". */
static bool parse_access(const char *line, size_t len, char *access, int *thread, int *lineno,
                         char *file, size_t filelen)
{
    const char *end = line + len, *p;
    if ((p = find(line, len, "Read Thread (")))
        *access = 'R';
    else if ((p = find(line, len, "Write Thread (")))
        *access = 'W';
    else
        return false;
    p = strchr(p, '(') + 1;
    uint64_t x;
    if (!parse_u64(&p, end, &x, 10) || x > SV_RACECHECK_MAX_THREAD)
        return false;
    *thread = (int)x;
    *lineno = -1;
    /* The last " in " names file:line. */
    const char *in = NULL;
    for (const char *q = line; (q = find(q, (size_t)(end - q), " in ")); q += 4)
        in = q;
    if (in) {
        const char *f = in + 4, *colon = NULL;
        for (const char *q = f; q < end; q++)
            if (*q == ':')
                colon = q;
        if (colon) {
            const char *d = colon + 1;
            uint64_t ln;
            if (parse_u64(&d, end, &ln, 10) && ln <= SV_RACECHECK_MAX_LINE)
                *lineno = (int)ln;
            if (file && filelen) {
                const char *base = f;
                for (const char *q = f; q < colon; q++)
                    if (*q == '/')
                        base = q + 1;
                size_t k = (size_t)(colon - base);
                if (k >= filelen)
                    k = filelen - 1;
                for (size_t j = 0; j < k; j++)
                    file[j] = (base[j] >= 32 && base[j] < 127) ? base[j] : '?';
                file[k] = '\0';
            }
        }
    }
    return true;
}

/* "N error(s)" / "N warning(s)" in the summary line. */
static bool count_before(const char *line, size_t len, const char *word, uint64_t *out)
{
    const char *w = find(line, len, word);
    if (!w)
        return false;
    const char *q = w;
    while (q > line && q[-1] == ' ')
        q--;
    const char *d = q;
    while (d > line && d[-1] >= '0' && d[-1] <= '9')
        d--;
    if (d == q)
        return false;
    return parse_u64(&d, q, out, 10);
}

sv_racecheck *sv_racecheck_parse(const char *text, size_t len, char *err, size_t errlen)
{
    sv_racecheck *rc = calloc(1, sizeof *rc);
    if (!rc)
        goto oom;
    rc->ran = true;
    size_t cap = 0;
    sv_hazard *cur = NULL; /* the block being read */
    int accesses = 0;
    uint64_t counted_err = 0, counted_warn = 0;
    for (size_t pos = 0; pos < len;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + (nl ? 1 : 0);
        const char *end = line + ll, *p;
        if ((p = find(line, ll, "hazard detected at __shared__ 0x"))) {
            bool is_err = find(line, ll, "Error:") != NULL;
            if (is_err)
                counted_err++;
            else
                counted_warn++;
            cur = NULL;
            if (rc->nhazards >= SV_RACECHECK_MAX_HAZARDS)
                continue;
            if (rc->nhazards == cap) {
                size_t nc = cap ? cap * 2 : 64;
                sv_hazard *h = realloc(rc->hazards, nc * sizeof *h);
                if (!h)
                    goto oom;
                rc->hazards = h;
                cap = nc;
            }
            cur = &rc->hazards[rc->nhazards];
            memset(cur, 0, sizeof *cur);
            cur->error = is_err;
            cur->warp_level = find(line, ll, "Warp Level") != NULL;
            const char *k = find(line, ll, "Potential ");
            snprintf(cur->kind, sizeof cur->kind, "%s",
                     k && k + 13 <= end ? (memcmp(k + 10, "RAW", 3) == 0   ? "RAW"
                                           : memcmp(k + 10, "WAR", 3) == 0 ? "WAR"
                                           : memcmp(k + 10, "WAW", 3) == 0 ? "WAW"
                                                                           : "?")
                                        : "?");
            const char *a = p + strlen("hazard detected at __shared__ 0x");
            uint64_t addr = 0;
            if (!parse_u64(&a, end, &addr, 16) || addr > UINT32_MAX) {
                cur = NULL; /* not a block we can place: count it, keep nothing */
                continue;
            }
            cur->address = (uint32_t)addr;
            cur->buf = cur->cell = cur->round = -1;
            cur->thread[0] = cur->thread[1] = -1;
            cur->line[0] = cur->line[1] = -1;
            accesses = 0;
            rc->nhazards++;
            continue;
        }
        if ((p = find(line, ll, "RACECHECK SUMMARY"))) {
            uint64_t e = 0, w = 0;
            bool he = count_before(line, ll, " error", &e);
            bool hw = count_before(line, ll, " warning", &w);
            if (he || hw) {
                rc->has_summary = true;
                /* kept within what a trace file carries (bounds.h) */
                const uint64_t most = (uint64_t)SV_RACECHECK_MAX_COUNT;
                rc->errors = e > most ? most : e;
                rc->warnings = w > most ? most : w;
            }
            cur = NULL;
            continue;
        }
        if (!cur)
            continue;
        if (accesses < 2) {
            char acc;
            int th, ln;
            if (parse_access(line, ll, &acc, &th, &ln, accesses == 0 ? cur->file : NULL,
                             sizeof cur->file)) {
                cur->access[accesses] = acc;
                cur->thread[accesses] = th;
                cur->line[accesses] = ln;
                accesses++;
                continue;
            }
        }
        if ((p = find(line, ll, "Current Value : "))) {
            const char *c = p + strlen("Current Value : ");
            const char *q = find(line, ll, "Incoming Value : ");
            int64_t cv, iv;
            if (q && parse_i64(&c, end, &cv)) {
                const char *r = q + strlen("Incoming Value : ");
                if (parse_i64(&r, end, &iv)) {
                    cur->has_values = true;
                    cur->current = cv;
                    cur->incoming = iv;
                }
            }
            cur = NULL;
        }
    }
    if (!rc->has_summary) {
        rc->errors = counted_err;
        rc->warnings = counted_warn;
    }
    return rc;
oom:
    sv_errorf(err, errlen, "out of memory reading a racecheck report");
    sv_racecheck_destroy(rc);
    return NULL;
}
