/* A growing byte buffer, kept NUL-terminated: for output assembled piece by
 * piece in memory (an SVG document, a child process's stdout, a GIF). */
#ifndef SV_BUF_H
#define SV_BUF_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Zero-initialize it ({0}); only sv_buf_append and sv_buf_free write it. */
typedef struct sv_buf {
    char *p;    /* n bytes and a NUL after them; NULL until the first append */
    size_t n;   /* bytes held, the NUL not counted */
    size_t cap; /* bytes allocated */
    bool oom;   /* an append ran out of memory: p keeps what it had, and every
                   later append does nothing */
} sv_buf;

/* Appends len bytes of data. Returns false (b->oom set) when memory ran out,
 * now or at an earlier append. */
bool sv_buf_append(sv_buf *b, const void *data, size_t len);

/* Appends printf's text (any length). Returns false as sv_buf_append does. */
bool sv_buf_printf(sv_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Frees the bytes and zeroes b (ready for reuse). */
void sv_buf_free(sv_buf *b);

#ifdef __cplusplus
}
#endif

#endif
