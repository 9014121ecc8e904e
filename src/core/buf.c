/* sv_buf (buf.h): a growing byte buffer, kept NUL-terminated. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool sv_buf_append(sv_buf *b, const void *data, size_t len)
{
    if (b->oom)
        return false;
    if (b->n + len + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + len + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return false;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, len);
    b->n += len;
    b->p[b->n] = '\0';
    return true;
}

bool sv_buf_printf(sv_buf *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return false;
    if ((size_t)k < sizeof tmp)
        return sv_buf_append(b, tmp, (size_t)k);
    char *big = malloc((size_t)k + 1);
    if (!big) {
        b->oom = true;
        return false;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)k + 1, fmt, ap);
    va_end(ap);
    bool ok = sv_buf_append(b, big, (size_t)k);
    free(big);
    return ok;
}

void sv_buf_free(sv_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}
