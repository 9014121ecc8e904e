/* SV_FREE_ALL(a, b, c, ...): frees every pointer listed (NULL ones too, as
 * free does), the one way a destroy function lets go of the blocks its
 * object owns: a trace's, a kernel trace's, the atlas's, the kernel file
 * worker's. Header only, libc only. */
#ifndef SV_FREE_ALL_H
#define SV_FREE_ALL_H

#include <stddef.h>
#include <stdlib.h>

static inline void sv_free_each(void *const *ptrs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ptrs[i]);
}

#define SV_FREE_ALL(...)                                  \
    sv_free_each((void *const[]){__VA_ARGS__},            \
                 sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

#endif
