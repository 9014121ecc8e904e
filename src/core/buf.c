/* sv_buf (buf.h): a growing byte buffer, kept NUL-terminated. */
#include "buf.h"

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

void sv_buf_free(sv_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}
