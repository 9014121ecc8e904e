/* The kernel trace over the child's pipe (wire.h). Little-endian fixed-size
 * fields in the order of sv_ktrace; strings as a length and bytes. */
#include "wire.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "request.h"

#include "../core/error.h"

#define WIRE_MAGIC 0x53565254u /* "SVRT" */
#define WIRE_END 0x454e4421u
#define WIRE_MAX_TEXT (64u * 1024) /* an entry's, an array's or a failure's words */

/* ---- Writing (async-signal-safe) ----------------------------------------- */

static unsigned char wbuf[1 << 16];
static size_t wused;
static int wfd = -1;
static bool wok;
static unsigned char wkey[SV_RT_KEY_BYTES];

void sv_rt_wire_set_key(const unsigned char *key)
{
    memcpy(wkey, key, sizeof wkey);
}

static void wflush(void)
{
    size_t off = 0;
    while (wok && off < wused) {
        ssize_t w = write(wfd, wbuf + off, wused - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            wok = false;
            break;
        }
        off += (size_t)w;
    }
    wused = 0;
}

static void wput(const void *p, size_t len)
{
    const unsigned char *c = p;
    while (len > 0) {
        if (wused == sizeof wbuf)
            wflush();
        size_t k = sizeof wbuf - wused < len ? sizeof wbuf - wused : len;
        memcpy(wbuf + wused, c, k);
        wused += k;
        c += k;
        len -= k;
    }
}

static void w32(uint32_t v) { wput(&v, 4); }
static void w64(uint64_t v) { wput(&v, 8); }

static void wstr(const char *s)
{
    uint32_t k = s ? (uint32_t)strnlen(s, WIRE_MAX_TEXT) : UINT32_MAX;
    w32(k);
    if (s)
        wput(s, k);
}

static void wacc(const sv_kaccess *a)
{
    w32(a->thread);
    w32(a->array);
    w32(a->cell);
    w32(a->value.bits);
    w32((uint32_t)a->line);
    w32(a->order);
}

static void wbools(const bool *b, uint32_t n)
{
    for (uint32_t i = 0; i < n; i += 8) {
        unsigned char byte = 0;
        for (uint32_t k = 0; k < 8 && i + k < n; k++)
            if (b && b[i + k])
                byte |= (unsigned char)(1u << k);
        wput(&byte, 1);
    }
}

static void wstep(const sv_ktrace *t, const sv_kstep *s)
{
    w32((uint32_t)s->barrier_line);
    for (size_t a = 0; a < t->narrays; a++) {
        uint32_t len = t->arrays[a].len;
        const sv_value *cells = s->cells ? s->cells[a] : NULL;
        for (uint32_t c = 0; c < len; c++)
            w32(cells ? cells[c].bits : 0);
        wbools(s->written ? s->written[a] : NULL, len);
        wbools(s->wrote ? s->wrote[a] : NULL, len);
    }
    w32((uint32_t)s->nwrites);
    for (size_t w = 0; w < s->nwrites; w++) {
        wacc(&s->writes[w].at);
        w32(s->writes[w].first_read);
        w32(s->writes[w].nreads);
    }
    w32((uint32_t)s->nreads);
    for (size_t r = 0; r < s->nreads; r++)
        wacc(&s->reads[r]);
}

bool sv_rt_wire_send(int fd, const sv_ktrace *t)
{
    wfd = fd;
    wok = true;
    wused = 0;
    w32(WIRE_MAGIC);
    wput(wkey, sizeof wkey);
    wstr(t->entry);
    wstr(t->device);
    w32(t->runs);
    w32(t->shown_run);
    w32(t->wrong_runs);
    w64(t->switches);
    w32((uint32_t)t->narrays);
    for (size_t a = 0; a < t->narrays; a++) {
        wstr(t->arrays[a].name);
        w32(t->arrays[a].kind);
        w32(t->arrays[a].len);
        w32(t->arrays[a].rows);
        w32(t->arrays[a].touched);
    }
    w32((uint32_t)t->nsteps);
    for (size_t s = 0; s < t->nsteps; s++)
        wstep(t, &t->steps[s]);
    w32(t->output ? 1 : 0);
    if (t->output) {
        for (size_t i = 0; i < t->n; i++)
            w32(t->output[i].bits);
        wbools(t->output_written, (uint32_t)t->n);
    }
    w32((uint32_t)t->nhazards);
    for (size_t h = 0; h < t->nhazards; h++) {
        const sv_khazard *z = &t->hazards[h];
        w32(z->kind);
        w32(z->step);
        w32(z->array);
        w32(z->cell);
        wacc(&z->first);
        wacc(&z->second);
    }
    w64(t->hazards_total);
    const sv_kfailure *f = &t->failure;
    w32(f->kind);
    wstr(f->message);
    w32((uint32_t)f->line);
    w32((uint32_t)f->thread);
    w32((uint32_t)f->step);
    w32((uint32_t)f->array);
    w64((uint64_t)f->index);
    w32((uint32_t)f->nwaits);
    for (size_t k = 0; k < f->nwaits; k++) {
        w32((uint32_t)f->waits[k].line);
        w32(f->waits[k].count);
        w32(f->waits[k].first_thread);
    }
    w32((uint32_t)t->ncellruns);
    for (size_t k = 0; k < t->ncellruns; k++) {
        const sv_kcellruns *c = &t->cellruns[k];
        w32((uint32_t)c->step);
        w32(c->array);
        w32(c->first);
        w32((uint32_t)c->round);
        wput(c->wrong, t->n * sizeof *c->wrong);
        wput(c->which, t->n * SV_KTRACE_CELL_RUNS * sizeof *c->which);
    }
    w32(t->banks_counted);
    w64(t->bank_loads);
    w64(t->bank_stores);
    w32((uint32_t)t->nbanks);
    for (size_t k = 0; k < t->nbanks; k++) {
        w32(t->banks[k].step);
        w32((uint32_t)t->banks[k].line);
        w64(t->banks[k].loads);
        w64(t->banks[k].stores);
    }
    w32(t->bankcells_dropped);
    w32((uint32_t)t->nbankcells);
    for (size_t k = 0; k < t->nbankcells; k++) {
        const sv_kbankcell *c = &t->bankcells[k];
        w32(c->step);
        w32((uint32_t)c->array | (uint32_t)c->ways << 16 | (uint32_t)c->store << 24);
        w32(c->cell);
        w32((uint32_t)c->line);
        w32(c->warp);
    }
    wstr(t->plan);
    w32((uint32_t)t->nlaunches);
    for (size_t k = 0; k < t->nlaunches; k++) {
        const sv_klaunch *l = &t->launches[k];
        wstr(l->kernel);
        w32(l->grid);
        w32(l->dims[0]);
        w32(l->dims[1]);
        w32(l->dims[2]);
        w32(l->block_dims[0]);
        w32(l->block_dims[1]);
        w32(l->block_dims[2]);
        w32(l->block);
        w32(l->shared);
        w32((uint32_t)l->line);
        w32(l->step);
    }
    w32((uint32_t)t->ntiles);
    for (size_t k = 0; k < t->ntiles; k++) {
        const sv_ktile *x = &t->tiles[k];
        w32(x->launch);
        w32(x->block);
        w64(x->start);
        w64(x->end);
        w64((uint64_t)x->out_lo);
        w64((uint64_t)x->out_hi);
    }
    w32((uint32_t)t->nevents);
    for (size_t k = 0; k < t->nevents; k++) {
        const sv_kevent *e = &t->events[k];
        w32((uint32_t)e->kind);
        w32(e->tile);
        w64(e->time);
        w32(e->thread);
        w32(e->array);
        w32(e->cell);
        w32(e->value.bits);
        w32((uint32_t)e->line);
        w32(e->other);
        w64(e->other_time);
    }
    w32(t->events_dropped);
    w32(t->steps_dropped);
    w32(WIRE_END);
    wput(wkey, sizeof wkey);
    wflush();
    return wok;
}

/* ---- Reading -------------------------------------------------------------- */

typedef struct rd {
    const unsigned char *p;
    size_t len, off;
    bool ok;
} rd;

static bool rget(rd *r, void *out, size_t k)
{
    if (!r->ok || r->len - r->off < k) {
        r->ok = false;
        memset(out, 0, k);
        return false;
    }
    memcpy(out, r->p + r->off, k);
    r->off += k;
    return true;
}

static uint32_t r32(rd *r)
{
    uint32_t v;
    rget(r, &v, 4);
    return v;
}

static uint64_t r64(rd *r)
{
    uint64_t v;
    rget(r, &v, 8);
    return v;
}

/* A count of at most max items of at least each bytes each: refused when
 * the bytes left could not hold them (nothing is allocated for a count the
 * stream cannot back). */
static uint32_t rcount(rd *r, uint32_t max, size_t each)
{
    uint32_t v = r32(r);
    if (v > max || (uint64_t)v * each > r->len - r->off)
        r->ok = false;
    return r->ok ? v : 0;
}

/* Whether the stream still holds k bytes (else it is refused). */
static bool rhave(rd *r, uint64_t k)
{
    if (!r->ok || k > r->len - r->off)
        r->ok = false;
    return r->ok;
}

static char *rstr(rd *r)
{
    uint32_t k = r32(r);
    if (k == UINT32_MAX || !r->ok)
        return NULL;
    if (k > WIRE_MAX_TEXT || k > r->len - r->off) {
        r->ok = false;
        return NULL;
    }
    char *s = malloc((size_t)k + 1);
    if (!s) {
        r->ok = false;
        return NULL;
    }
    memcpy(s, r->p + r->off, k);
    s[k] = '\0';
    r->off += k;
    return s;
}

static void racc(rd *r, sv_kaccess *a)
{
    a->thread = r32(r);
    a->array = (uint16_t)r32(r);
    a->cell = r32(r);
    a->value.bits = r32(r);
    a->line = (int32_t)r32(r);
    a->order = r32(r);
}

static bool *rbools(rd *r, uint32_t n)
{
    if (!rhave(r, ((uint64_t)n + 7) / 8))
        return NULL;
    bool *b = calloc(n ? n : 1, sizeof *b);
    if (!b) {
        r->ok = false;
        return NULL;
    }
    for (uint32_t i = 0; i < n; i += 8) {
        unsigned char byte = 0;
        rget(r, &byte, 1);
        for (uint32_t k = 0; k < 8 && i + k < n; k++)
            b[i + k] = (byte >> k) & 1;
    }
    return b;
}

static bool rstep(rd *r, sv_ktrace *t, sv_kstep *s)
{
    s->barrier_line = (int32_t)r32(r);
    s->cells = calloc(t->narrays ? t->narrays : 1, sizeof *s->cells);
    s->written = calloc(t->narrays ? t->narrays : 1, sizeof *s->written);
    s->wrote = calloc(t->narrays ? t->narrays : 1, sizeof *s->wrote);
    if (!s->cells || !s->written || !s->wrote)
        return false;
    for (size_t a = 0; a < t->narrays && r->ok; a++) {
        uint32_t len = t->arrays[a].len;
        if (!rhave(r, (uint64_t)len * 4))
            return true; /* (r->ok false: refused) */
        s->cells[a] = calloc(len ? len : 1, sizeof(sv_value));
        if (!s->cells[a])
            return false;
        for (uint32_t c = 0; c < len; c++)
            s->cells[a][c].bits = r32(r);
        s->written[a] = rbools(r, len);
        s->wrote[a] = rbools(r, len);
    }
    uint32_t nw = rcount(r, 1u << 24, 32);
    s->writes = calloc(nw ? nw : 1, sizeof *s->writes);
    if (!s->writes)
        return false;
    s->nwrites = nw;
    for (uint32_t w = 0; w < nw; w++) {
        racc(r, &s->writes[w].at);
        s->writes[w].first_read = r32(r);
        s->writes[w].nreads = r32(r);
    }
    uint32_t nr = rcount(r, 1u << 24, 24);
    s->reads = calloc(nr ? nr : 1, sizeof *s->reads);
    if (!s->reads)
        return false;
    s->nreads = nr;
    for (uint32_t k = 0; k < nr; k++)
        racc(r, &s->reads[k]);
    for (uint32_t w = 0; w < nw && r->ok; w++)
        if ((uint64_t)s->writes[w].first_read + s->writes[w].nreads > nr)
            r->ok = false;
    return true;
}

static bool rfailure(rd *r, sv_kfailure *f)
{
    f->kind = (sv_kfail_kind)r32(r);
    if (f->kind >= SV_KFAIL_COUNT)
        r->ok = false;
    free(f->message);
    f->message = rstr(r);
    f->line = (int32_t)r32(r);
    f->thread = (int32_t)r32(r);
    f->step = (int32_t)r32(r);
    f->array = (int32_t)r32(r);
    f->index = (int64_t)r64(r);
    uint32_t nw = rcount(r, SV_MAX_N + 1, 12);
    free(f->waits);
    f->waits = calloc(nw ? nw : 1, sizeof *f->waits);
    if (!f->waits)
        return false;
    f->nwaits = nw;
    for (uint32_t k = 0; k < nw; k++) {
        f->waits[k].line = (int32_t)r32(r);
        f->waits[k].count = r32(r);
        f->waits[k].first_thread = r32(r);
    }
    return true;
}

/* The cell runs, each row's place checked against the arrays and steps. */
static bool rcellruns(rd *r, sv_ktrace *t)
{
    sv_ktrace_cellruns_clear(t);
    uint32_t nc = rcount(r, SV_KTRACE_MAX_CELLRUNS,
                         16 + t->n * (sizeof(uint32_t) + SV_KTRACE_CELL_RUNS * sizeof(uint32_t)));
    char err[128];
    for (uint32_t k = 0; k < nc && r->ok; k++) {
        int32_t step = (int32_t)r32(r);
        uint32_t array = r32(r), first = r32(r);
        int32_t round = (int32_t)r32(r);
        if (!r->ok || step < -1 || (step >= 0 && (size_t)step >= t->nsteps) ||
            array >= t->narrays || first > t->arrays[array].len ||
            t->arrays[array].len - first < t->n) {
            r->ok = false;
            break;
        }
        sv_kcellruns *c = sv_ktrace_add_cellruns(t, step, array, first, round, err, sizeof err);
        if (!c)
            return false;
        rget(r, c->wrong, t->n * sizeof *c->wrong);
        rget(r, c->which, t->n * SV_KTRACE_CELL_RUNS * sizeof *c->which);
    }
    return true;
}

bool sv_rt_wire_recv(const unsigned char *data, size_t len, const unsigned char *key,
                     sv_ktrace *t, char *err, size_t errlen)
{
    size_t used;
    return sv_rt_wire_recv_first(data, len, key, &used, t, err, errlen);
}

bool sv_rt_wire_recv_first(const unsigned char *data, size_t len, const unsigned char *key,
                           size_t *used, sv_ktrace *t, char *err, size_t errlen)
{
    rd r = {data, len, 0, true};
    unsigned char k0[SV_RT_KEY_BYTES];
    if (r32(&r) != WIRE_MAGIC) {
        sv_errorf(err, errlen, "the runtime's child sent nothing readable");
        return false;
    }
    if (!rget(&r, k0, sizeof k0) || memcmp(k0, key, sizeof k0) != 0) {
        sv_errorf(err, errlen, "the runtime's child sent a stream that is not the runtime's "
                  "(it does not carry the run's key)");
        return false;
    }
    free(t->entry);
    t->entry = rstr(&r);
    /* the GPU's name, as the child's driver gave it: printable ASCII only,
     * short, since it reaches the window and the terminal */
    free(t->device);
    t->device = rstr(&r);
    if (t->device) {
        size_t k = 0;
        for (; t->device[k] && k < 255; k++)
            if (t->device[k] < 0x20 || t->device[k] > 0x7e)
                t->device[k] = '?';
        t->device[k] = '\0';
    }
    t->runs = r32(&r);
    t->shown_run = r32(&r);
    t->wrong_runs = r32(&r);
    t->switches = r64(&r);
    uint32_t na = rcount(&r, SV_KTRACE_MAX_ARRAYS, 20);
    t->arrays = calloc(SV_KTRACE_MAX_ARRAYS, sizeof *t->arrays);
    if (!t->arrays)
        goto oom;
    for (uint32_t a = 0; a < na && r.ok; a++) {
        sv_karray *k = &t->arrays[a];
        k->name = rstr(&r);
        k->kind = (sv_karray_kind)r32(&r);
        k->len = r32(&r);
        k->rows = r32(&r);
        k->touched = r32(&r) != 0;
        if (!k->name || k->kind > SV_KARRAY_GLOBAL || k->len > sv_karray_max_len(k->kind) ||
            k->rows == 0 || k->len % k->rows != 0)
            r.ok = false;
        t->narrays = a + 1;
    }
    uint64_t cells = 0;
    for (size_t a = 0; a < t->narrays; a++)
        cells += t->arrays[a].len;
    uint32_t ns = rcount(&r, SV_KTRACE_MAX_STEPS, 4 + cells * 4);
    if ((uint64_t)ns * cells > SV_KTRACE_MAX_TOTAL_CELLS)
        r.ok = false;
    t->steps = calloc(ns ? ns : 1, sizeof *t->steps);
    if (!t->steps)
        goto oom;
    for (uint32_t s = 0; s < ns && r.ok; s++) {
        if (!rstep(&r, t, &t->steps[s]))
            goto oom;
        t->nsteps = s + 1;
    }
    if (r32(&r)) {
        for (size_t i = 0; i < t->n; i++)
            t->output[i].bits = r32(&r);
        bool *w = rbools(&r, (uint32_t)t->n);
        if (w) {
            memcpy(t->output_written, w, t->n * sizeof *w);
            free(w);
        }
    }
    uint32_t nh = rcount(&r, SV_KTRACE_MAX_HAZARDS, 64);
    t->hazards = calloc(nh ? nh : 1, sizeof *t->hazards);
    if (!t->hazards)
        goto oom;
    for (uint32_t h = 0; h < nh && r.ok; h++) {
        sv_khazard *z = &t->hazards[h];
        z->kind = (sv_khazard_kind)r32(&r);
        z->step = r32(&r);
        z->array = (uint16_t)r32(&r);
        z->cell = r32(&r);
        racc(&r, &z->first);
        racc(&r, &z->second);
        if (z->kind > SV_KHAZARD_WAW || z->step >= t->nsteps + 1 || z->array >= t->narrays)
            r.ok = false;
        t->nhazards = h + 1;
    }
    t->hazards_total = r64(&r);
    if (!rfailure(&r, &t->failure) || !rcellruns(&r, t))
        goto oom;
    t->banks_counted = r32(&r) != 0;
    t->bank_loads = r64(&r);
    t->bank_stores = r64(&r);
    uint32_t nb = rcount(&r, SV_KTRACE_MAX_BANK_LINES, 24);
    if (nb && !(t->banks = calloc(nb, sizeof *t->banks)))
        goto oom;
    for (uint32_t k = 0; k < nb && r.ok; k++) {
        t->banks[k].step = r32(&r);
        t->banks[k].line = (int32_t)r32(&r);
        t->banks[k].loads = r64(&r);
        t->banks[k].stores = r64(&r);
        t->nbanks = k + 1;
    }
    t->bankcells_dropped = r32(&r);
    uint32_t nc = rcount(&r, SV_KTRACE_MAX_BANK_CELLS, 20);
    if (nc && !(t->bankcells = calloc(nc, sizeof *t->bankcells)))
        goto oom;
    for (uint32_t k = 0; k < nc && r.ok; k++) { /* ranges and order: sv_ktrace_validate */
        sv_kbankcell *c = &t->bankcells[k];
        c->step = r32(&r);
        uint32_t aw = r32(&r);
        c->array = (uint16_t)(aw & 0xffff);
        c->ways = (uint8_t)(aw >> 16);
        c->store = (aw >> 24) != 0;
        if (aw >> 25)
            r.ok = false;
        c->cell = r32(&r);
        c->line = (int32_t)r32(&r);
        c->warp = r32(&r);
        t->nbankcells = k + 1;
    }
    free(t->plan);
    t->plan = rstr(&r);
    uint32_t nl = rcount(&r, SV_KTRACE_MAX_LAUNCHES, 24);
    if (nl && !(t->launches = calloc(nl, sizeof *t->launches)))
        goto oom;
    for (uint32_t k = 0; k < nl && r.ok; k++) { /* ranges: sv_ktrace_validate */
        sv_klaunch *l = &t->launches[k];
        l->kernel = rstr(&r);
        l->grid = r32(&r);
        l->dims[0] = r32(&r);
        l->dims[1] = r32(&r);
        l->dims[2] = r32(&r);
        l->block_dims[0] = r32(&r);
        l->block_dims[1] = r32(&r);
        l->block_dims[2] = r32(&r);
        l->block = r32(&r);
        l->shared = r32(&r);
        l->line = (int32_t)r32(&r);
        l->step = r32(&r);
        t->nlaunches = k + 1;
        if (!l->kernel)
            r.ok = false;
    }
    uint32_t nt = rcount(&r, SV_KTRACE_MAX_TILES, 40);
    if (nt && !(t->tiles = calloc(nt, sizeof *t->tiles)))
        goto oom;
    for (uint32_t k = 0; k < nt && r.ok; k++) { /* ranges and order: sv_ktrace_validate */
        sv_ktile *x = &t->tiles[k];
        x->launch = r32(&r);
        x->block = r32(&r);
        x->start = r64(&r);
        x->end = r64(&r);
        x->out_lo = (int64_t)r64(&r);
        x->out_hi = (int64_t)r64(&r);
        t->ntiles = k + 1;
    }
    uint32_t ne = rcount(&r, SV_KTRACE_MAX_EVENTS, 48);
    if (ne && !(t->events = calloc(ne, sizeof *t->events)))
        goto oom;
    for (uint32_t k = 0; k < ne && r.ok; k++) {
        sv_kevent *e = &t->events[k];
        uint32_t kind = r32(&r);
        e->kind = kind < SV_KEVENT_COUNT ? (sv_kevent_kind)kind : SV_KEVENT_COUNT;
        e->tile = r32(&r);
        e->time = r64(&r);
        e->thread = r32(&r);
        uint32_t a = r32(&r);
        e->array = (uint16_t)a;
        if (a > 0xffffu)
            r.ok = false;
        e->cell = r32(&r);
        e->value.bits = r32(&r);
        e->line = (int32_t)r32(&r);
        e->other = r32(&r);
        e->other_time = r64(&r);
        t->nevents = k + 1;
    }
    t->events_dropped = r32(&r);
    t->steps_dropped = r32(&r);
    if (t->steps_dropped > (1u << 30))
        r.ok = false;
    unsigned char k1[SV_RT_KEY_BYTES];
    if (r32(&r) != WIRE_END || !rget(&r, k1, sizeof k1) || !r.ok) {
        sv_errorf(err, errlen, "the runtime's child sent a trace cut short or broken (%zu "
                  "bytes)", len);
        return false;
    }
    if (memcmp(k1, key, sizeof k1) != 0) {
        sv_errorf(err, errlen, "the runtime's child sent a stream that is not the runtime's "
                  "(it does not end with the run's key)");
        return false;
    }
    if (!sv_ktrace_validate(t, err, errlen))
        return false;
    *used = r.off;
    return true;
oom:
    sv_errorf(err, errlen, "out of memory reading the runtime's trace");
    return false;
}
