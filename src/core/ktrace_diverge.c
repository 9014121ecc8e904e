/* Divergence within a warp, read from a step's accesses (ktrace_diverge.h). */
#include "ktrace_diverge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One (warp, line) of the step and the lanes that ran it. */
typedef struct wl {
    uint32_t warp;
    int32_t line;
    uint32_t ran;
} wl;

static int wl_cmp(const void *a, const void *b)
{
    const wl *x = a, *y = b;
    if (x->warp != y->warp)
        return x->warp < y->warp ? -1 : 1;
    return (x->line > y->line) - (x->line < y->line);
}

/* Adds access x to the table (warp, line) -> lanes: a search from the
 * newest entry back (a warp's lanes mostly come at one line in a row, and a
 * step has a few lines per warp), the table sorted once at the end. */
static bool note(wl **tab, size_t *n, size_t *cap, uint32_t *present, const sv_kaccess *x)
{
    uint32_t warp = x->thread / 32, bit = 1u << (x->thread % 32);
    present[warp] |= bit;
    if (x->line <= 0)
        return true;
    for (size_t i = *n; i-- > 0;)
        if ((*tab)[i].warp == warp && (*tab)[i].line == x->line) {
            (*tab)[i].ran |= bit;
            return true;
        }
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        wl *g = realloc(*tab, c * sizeof *g);
        if (!g)
            return false;
        *tab = g;
        *cap = c;
    }
    (*tab)[(*n)++] = (wl){ warp, x->line, bit };
    return true;
}

size_t sv_ktrace_divergence(const sv_ktrace *t, size_t k, sv_kdiverge *out, size_t max)
{
    if (!t || k >= t->nsteps)
        return 0;
    const sv_kstep *s = &t->steps[k];
    if (s->nreads == 0 && s->nwrites == 0)
        return 0;
    uint32_t present[SV_MAX_N / 32] = { 0 };
    wl *tab = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (size_t r = 0; ok && r < s->nreads; r++)
        ok = s->reads[r].thread < SV_MAX_N && note(&tab, &n, &cap, present, &s->reads[r]);
    for (size_t w = 0; ok && w < s->nwrites; w++)
        ok = s->writes[w].at.thread < SV_MAX_N &&
             note(&tab, &n, &cap, present, &s->writes[w].at);
    size_t found = 0;
    if (ok && n) {
        qsort(tab, n, sizeof *tab, wl_cmp);
        for (size_t i = 0; i < n; i++) {
            uint32_t lanes = present[tab[i].warp];
            if (tab[i].ran == lanes)
                continue;
            if (found < max)
                out[found] = (sv_kdiverge){ tab[i].warp, tab[i].line, tab[i].ran, lanes };
            found++;
        }
    }
    free(tab);
    return found;
}

char *sv_lanes_words(uint32_t mask, char *buf, size_t len)
{
    if (!len)
        return buf;
    buf[0] = '\0';
    int count = __builtin_popcount(mask), at = 0;
    size_t o = (size_t)snprintf(buf, len, count == 1 ? "lane " : "lanes ");
    for (int i = 0; i < 32 && o < len; i++) {
        if (!(mask >> i & 1u))
            continue;
        int j = i;
        while (j + 1 < 32 && (mask >> (j + 1) & 1u))
            j++;
        o += (size_t)snprintf(buf + o, len - o, j > i ? "%s%d-%d" : "%s%d", at++ ? ", " : "", i,
                              j);
        i = j;
    }
    if (!count)
        snprintf(buf, len, "no lane");
    return buf;
}
