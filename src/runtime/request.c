/* A runtime request as bytes (request.h): fixed-size little-endian fields
 * in the order of sv_runtime_request, strings as a length (UINT32_MAX:
 * NULL) and bytes. */
#include "request.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/buf.h"
#include "../core/error.h"

#define REQ_MAGIC 0x53565251u /* "SVRQ" */
#define REQ_MAX ((size_t)SV_KTRACE_MAX_SOURCE * 2 + SV_RT_MAX_LINES + 4 * SV_MAX_N_BLOCKS * 4 + \
                 2 * 65536)

static void put32(sv_buf *b, uint32_t v) { sv_buf_append(b, &v, 4); }
static void put64(sv_buf *b, uint64_t v) { sv_buf_append(b, &v, 8); }

static void putstr(sv_buf *b, const char *s)
{
    size_t k = s ? strnlen(s, SV_RT_MAX_LINES) : 0;
    put32(b, s ? (uint32_t)k : UINT32_MAX);
    if (s)
        sv_buf_append(b, s, k);
}

bool sv_rt_request_write(int fd, const sv_runtime_request *req, const sv_rt_prep *prep)
{
    sv_buf b = {0};
    put32(&b, REQ_MAGIC);
    putstr(&b, req->path);
    putstr(&b, req->source);
    putstr(&b, req->entry);
    putstr(&b, req->builtin);
    put32(&b, (uint32_t)req->op);
    put32(&b, (uint32_t)req->type);
    put32(&b, (uint32_t)req->scan);
    put32(&b, (uint32_t)req->n);
    for (size_t i = 0; i < req->n; i++)
        put32(&b, req->input[i].bits);
    put32(&b, (uint32_t)req->backend);
    put32(&b, (uint32_t)req->schedule.kind);
    put64(&b, req->schedule.seed);
    put32(&b, req->runs);
    put32(&b, req->each_run);
    put32(&b, req->shake);
    put64(&b, req->shake_seed);
    put32(&b, req->racecheck);
    put32(&b, req->time_limit_ms);
    put32(&b, req->memory_mb);
    put32(&b, (uint32_t)req->output_round);
    putstr(&b, req->plan);
    putstr(&b, prep ? prep->lines : NULL);
    putstr(&b, prep ? prep->dyn : NULL);
    putstr(&b, prep ? prep->entry : NULL);
    static const unsigned char nokey[SV_RT_KEY_BYTES];
    sv_buf_append(&b, prep ? prep->key : nokey, SV_RT_KEY_BYTES);
    put32(&b, REQ_MAGIC);
    bool ok = !b.oom;
    for (size_t at = 0; ok && at < b.n;) {
        ssize_t w = write(fd, b.p + at, b.n - at);
        if (w < 0 && errno == EINTR)
            continue;
        ok = w > 0;
        at += w > 0 ? (size_t)w : 0;
    }
    sv_buf_free(&b);
    return ok;
}

typedef struct rd {
    unsigned char *p;
    size_t len, off;
    bool ok;
} rd;

static uint32_t get32(rd *r)
{
    uint32_t v = 0;
    if (r->len - r->off < 4)
        r->ok = false;
    else
        memcpy(&v, r->p + r->off, 4), r->off += 4;
    return v;
}

static uint64_t get64(rd *r)
{
    uint64_t lo = get32(r), hi = get32(r);
    return lo | hi << 32;
}

/* A string, copied with its NUL into *dst: the region of the same
 * allocation after the stream (which has room for every string). */
static const char *getstr(rd *r, char **dst, size_t max)
{
    uint32_t k = get32(r);
    if (!r->ok || k == UINT32_MAX)
        return NULL;
    if (k > max || r->len - r->off < k) {
        r->ok = false;
        return NULL;
    }
    char *s = *dst;
    memcpy(s, r->p + r->off, k);
    s[k] = '\0';
    *dst += k + 1;
    r->off += k;
    return s;
}

bool sv_rt_request_read(int fd, sv_rt_request_copy *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    size_t cap = 1 << 16, used = 0;
    unsigned char *p = malloc(cap);
    while (p) {
        if (used == cap) {
            unsigned char *np = cap < REQ_MAX ? realloc(p, cap * 2) : NULL;
            if (!np) {
                free(p);
                p = NULL;
                break;
            }
            p = np;
            cap *= 2;
        }
        ssize_t k = read(fd, p + used, cap - used);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        used += (size_t)k;
    }
    /* room for the strings' copies, each with a NUL */
    unsigned char *all = p ? realloc(p, 2 * used + 8) : NULL;
    if (!all) {
        free(p);
        sv_errorf(err, errlen, "cannot read the runtime's request");
        return false;
    }
    out->bytes = all;
    rd r = {all, used, 0, true};
    char *dst = (char *)all + used;
    sv_runtime_request *q = &out->req;
    bool magic = get32(&r) == REQ_MAGIC;
    q->path = getstr(&r, &dst, 4096);
    q->source = getstr(&r, &dst, SV_KTRACE_MAX_SOURCE);
    q->entry = getstr(&r, &dst, 4096);
    q->builtin = getstr(&r, &dst, 4096);
    q->op = (sv_op)get32(&r);
    q->type = (sv_type)get32(&r);
    q->scan = (sv_scan)get32(&r);
    q->n = get32(&r);
    if (q->n < 1 || q->n > SV_MAX_N_BLOCKS)
        r.ok = false;
    out->input = r.ok ? calloc(q->n, sizeof *out->input) : NULL;
    for (size_t i = 0; out->input && i < q->n; i++)
        out->input[i].bits = get32(&r);
    q->input = out->input;
    q->backend = (sv_runtime_backend)get32(&r);
    q->schedule.kind = (sv_schedule_kind)get32(&r);
    q->schedule.seed = get64(&r);
    q->runs = get32(&r);
    q->each_run = get32(&r) != 0;
    q->shake = get32(&r) != 0;
    q->shake_seed = get64(&r);
    q->racecheck = get32(&r) != 0;
    q->time_limit_ms = get32(&r);
    q->memory_mb = get32(&r);
    q->output_round = (int)get32(&r);
    if (q->output_round < 0 || q->output_round > 64)
        r.ok = false;
    q->plan = getstr(&r, &dst, 65536);
    out->prep.lines = getstr(&r, &dst, SV_RT_MAX_LINES);
    out->prep.dyn = getstr(&r, &dst, 4096);
    out->prep.entry = getstr(&r, &dst, 4096);
    if (r.ok && r.len - r.off >= SV_RT_KEY_BYTES) {
        memcpy(out->prep.key, r.p + r.off, SV_RT_KEY_BYTES);
        r.off += SV_RT_KEY_BYTES;
    } else {
        r.ok = false;
    }
    if (!magic || get32(&r) != REQ_MAGIC || !r.ok || !out->input) {
        sv_rt_request_free(out);
        sv_errorf(err, errlen, "the runtime's request is cut short or broken");
        return false;
    }
    return true;
}

void sv_rt_request_free(sv_rt_request_copy *c)
{
    free(c->bytes);
    free(c->input);
    memset(c, 0, sizeof *c);
}

const char *sv_rt_start_args(char *args, size_t cap, size_t *len)
{
    FILE *f = fopen("/proc/self/cmdline", "r");
    *len = f ? fread(args, 1, cap - 1, f) : 0;
    if (f)
        fclose(f);
    args[*len] = '\0';
    const char *a1 = args + strlen(args) + 1;
    return a1 < args + *len ? a1 : NULL;
}
