/* The shipped kernels as the CPU runtime has them: built ahead of time
 * (sv-cpu-kernel) and embedded, each with its line table and its text.
 * Inside src/runtime/ only. */
#ifndef SV_RUNTIME_SHIPPED_H
#define SV_RUNTIME_SHIPPED_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_rt_shipped {
    const char *stem;            /* "hillis_steele", "in_place", ... */
    const unsigned char *so;     /* the .so's bytes */
    size_t so_size;
    const char *lines;           /* its line table (cpu_compile.h's text) */
    const char *source;          /* the kernel file's text */
} sv_rt_shipped;

/* The shipped kernel whose file (a registry row's, "kernels/mistakes/in_place.cu")
 * has this stem; NULL when none. */
const sv_rt_shipped *sv_rt_shipped_find(const char *file);

/* A path dlopen() takes for k's .so: an anonymous memory file
 * (/proc/self/fd/N); false with err. */
bool sv_rt_shipped_path(const sv_rt_shipped *k, char *path, size_t len, char *err,
                        size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
