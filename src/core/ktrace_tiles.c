/* A launch's tiles over time (ktrace_tiles.h). */
#include "ktrace_tiles.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

int sv_ktrace_tiles_launch(const sv_ktrace *t, size_t k)
{
    const sv_klaunch *l = sv_ktrace_launch_of(t, k);
    if (!l)
        return -1;
    const size_t li = (size_t)(l - t->launches);
    for (size_t i = 0; i < t->ntiles; i++)
        if (t->tiles[i].launch == li)
            return (int)li;
    return -1;
}

/* op over in[lo .. hi] */
static sv_value fold(const sv_ktrace *t, int64_t lo, int64_t hi)
{
    sv_value acc = sv_op_identity(t->op, t->type);
    for (int64_t i = lo; i <= hi; i++)
        acc = sv_op_apply(t->op, t->type, acc, t->input[i], NULL);
    return acc;
}

typedef struct {
    uint32_t k;  /* index into t->tiles */
    int64_t lo;
    uint32_t block;
} order_of;

static int by_cells(const void *a, const void *b)
{
    const order_of *x = a, *y = b;
    if ((x->lo < 0) != (y->lo < 0))
        return x->lo < 0 ? 1 : -1;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return x->block < y->block ? -1 : x->block > y->block;
}

sv_timeline *sv_ktrace_launch_timeline(const sv_ktrace *t, size_t l, char *err, size_t errlen)
{
    size_t first = t->ntiles, count = 0;
    for (size_t i = 0; i < t->ntiles; i++)
        if (t->tiles[i].launch == l) {
            if (first == t->ntiles)
                first = i;
            count++;
        }
    if (l >= t->nlaunches || count == 0) {
        sv_errorf(err, errlen, "launch %zu has no tiles recorded", l + 1);
        return NULL;
    }
    const sv_klaunch *la = &t->launches[l];
    order_of *ord = calloc(count, sizeof *ord);
    uint32_t *pos = calloc(count, sizeof *pos); /* tile (from first) -> its row */
    sv_timeline *tl = sv_timeline_new((uint32_t)count);
    size_t nlooks = 0;
    for (size_t e = 0; e < t->nevents; e++)
        nlooks += t->events[e].kind == SV_KEVENT_LOOK && t->events[e].tile >= first &&
                  t->events[e].tile < first + count;
    if (tl && nlooks)
        tl->looks = calloc(nlooks, sizeof *tl->looks);
    if (!ord || !pos || !tl || (nlooks && !tl->looks)) {
        free(ord);
        free(pos);
        sv_timeline_destroy(tl);
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < count; i++)
        ord[i] = (order_of){ (uint32_t)(first + i), t->tiles[first + i].out_lo,
                             t->tiles[first + i].block };
    qsort(ord, count, sizeof *ord, by_cells);
    for (size_t i = 0; i < count; i++)
        pos[ord[i].k - first] = (uint32_t)i;
    snprintf(tl->algo, sizeof tl->algo, "kernel");
    snprintf(tl->kernel, sizeof tl->kernel, "%s", la->kernel);
    char grid[48], block[48];
    snprintf(tl->command, sizeof tl->command, "launch %zu of %zu at line %" PRId32 ", %s<<<%s, "
             "%s>>>%s%s", l + 1, t->nlaunches, la->line, la->kernel,
             sv_klaunch_grid_words(la, grid, sizeof grid),
             sv_klaunch_block_words(la, block, sizeof block),
             t->schedule ? ", schedule " : "", t->schedule ? t->schedule : "");
    snprintf(tl->gpu, sizeof tl->gpu, "%s",
             t->backend == SV_BACKEND_CUDA && t->device ? t->device : "the CPU runtime");
    if (t->backend == SV_BACKEND_CUDA) {
        snprintf(tl->clock, sizeof tl->clock,
                 "\u00b5s after the first tile's start (the GPU's %%globaltimer)");
        tl->per_unit = 1e3;
    } else {
        snprintf(tl->clock, sizeof tl->clock,
                 "accesses of memory the schedule made (the CPU runtime's clock)");
        tl->per_unit = 1.0;
    }
    size_t stuck = 0;
    for (size_t i = first; i < first + count; i++)
        stuck += t->tiles[i].end == SV_KTRACE_NO_TIME;
    size_t used = strlen(tl->command);
    if (stuck && used < sizeof tl->command)
        snprintf(tl->command + used, sizeof tl->command - used, ", stopped with %zu block%s "
                 "running", stuck, stuck == 1 ? "" : "s");
    used = strlen(tl->command);
    if (used < sizeof tl->command)
        snprintf(tl->command + used, sizeof tl->command - used, ", rows by the out[] cells "
                 "each block wrote");
    tl->type = t->type;
    tl->n = t->n;
    tl->tile = la->block;
    tl->blocks = la->grid;
    /* the launch's last time: where a tile that never ended (a deadlock) ends */
    uint64_t last = 0;
    for (size_t i = first; i < first + count; i++)
        if (t->tiles[i].end != SV_KTRACE_NO_TIME && t->tiles[i].end > last)
            last = t->tiles[i].end;
        else if (t->tiles[i].start > last)
            last = t->tiles[i].start;
    for (size_t j = 0; j < t->nevents; j++)
        if (t->events[j].tile >= first && t->events[j].tile < first + count &&
            t->events[j].time > last)
            last = t->events[j].time;
    /* op over in[0 .. i], once (a publish is recognised by its value) */
    sv_value *prefix = malloc((t->n ? t->n : 1) * sizeof *prefix);
    if (!prefix) {
        free(ord);
        free(pos);
        sv_timeline_destroy(tl);
        sv_errorf(err, errlen, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < t->n; i++)
        prefix[i] = sv_op_apply(t->op, t->type, i ? prefix[i - 1] : sv_op_identity(t->op, t->type),
                                t->input[i], NULL);
    size_t e = 0, nl = 0;
    for (size_t i = 0; i < count; i++) {
        const uint32_t k = (uint32_t)(first + i);
        const sv_ktile *x = &t->tiles[k];
        sv_timeline_tile *y = &tl->tiles[pos[i]];
        y->start = x->start;
        y->block = x->block;
        while (e < t->nevents && t->events[e].tile < k)
            e++;
        size_t e0 = e;
        while (e < t->nevents && t->events[e].tile == k)
            e++;
        y->no_end = x->end == SV_KTRACE_NO_TIME;
        y->end = y->no_end ? last + 1 : x->end; /* still running after the last time */
        y->no_aggregate = y->no_inclusive = true;
        y->aggregate = y->start;
        y->inclusive = y->end;
        y->lo = pos[i];
        uint32_t seen_lo = UINT32_MAX;
        const sv_value agg = x->out_lo < 0 ? sv_op_identity(t->op, t->type)
                                           : fold(t, x->out_lo, x->out_hi);
        for (size_t j = e0; j < e; j++) {
            const sv_kevent *v = &t->events[j];
            if (v->kind == SV_KEVENT_PUBLISH && x->out_lo >= 0) {
                /* its inclusive prefix (tile 0's is its aggregate too), or its aggregate */
                const bool prefix_out = prefix[x->out_hi].bits == v->value.bits;
                if (prefix_out && y->no_inclusive) {
                    y->no_inclusive = false;
                    y->inclusive = v->time;
                }
                if ((prefix_out ? x->out_lo == 0 : agg.bits == v->value.bits) &&
                    y->no_aggregate) {
                    y->no_aggregate = false;
                    y->aggregate = v->time;
                }
            } else if (v->kind == SV_KEVENT_WAIT) {
                y->polls++;
                if (y->wait_from == y->wait_to)
                    y->wait_from = y->wait_to = v->time;
            } else if (v->kind == SV_KEVENT_LOOK && v->other >= first &&
                       v->other < first + count) {
                const uint32_t o = pos[v->other - first];
                tl->looks[nl++] = (sv_timeline_look){ pos[i], o, v->time, v->other_time };
                if (o < seen_lo)
                    seen_lo = o;
                if (y->polls) /* a read after it began to wait */
                    y->wait_to = v->time;
            }
        }
        if (y->no_end && y->polls && y->wait_to == y->wait_from)
            y->wait_to = y->end; /* it still waited when the run stopped */
        if (seen_lo != UINT32_MAX && seen_lo < pos[i])
            y->lo = seen_lo;
        if (y->inclusive < y->start)
            y->inclusive = y->start;
        if (y->aggregate > y->inclusive)
            y->inclusive = y->aggregate > y->end ? y->end : y->aggregate;
        if (y->wait_to < y->wait_from)
            y->wait_to = y->wait_from;
    }
    tl->nlooks = nl;
    free(ord);
    free(pos);
    free(prefix);
    /* times after the launch's first start (as the GPU's are) */
    uint64_t t0 = UINT64_MAX;
    for (uint32_t i = 0; i < tl->ntiles; i++)
        if (tl->tiles[i].start < t0)
            t0 = tl->tiles[i].start;
    for (uint32_t i = 0; i < tl->ntiles; i++) {
        sv_timeline_tile *y = &tl->tiles[i];
        y->start -= t0;
        y->aggregate -= t0;
        y->inclusive -= t0;
        y->end -= t0;
        y->wait_from = y->wait_from > t0 ? y->wait_from - t0 : 0;
        y->wait_to = y->wait_to > t0 ? y->wait_to - t0 : 0;
    }
    for (size_t i = 0; i < nl; i++) {
        tl->looks[i].time -= t0;
        tl->looks[i].other_time = tl->looks[i].other_time > t0 ? tl->looks[i].other_time - t0 : 0;
    }
    return tl;
}
