/* The CPU runtime's compile step: the system C++ compiler, the keyword
 * header (cuda_cpu.h, embedded in the program), and a cache of the shared
 * objects it makes, keyed by the content of the text, the header, the
 * compiler and the flags. Inside src/runtime/ only. */
#ifndef SV_RUNTIME_CPU_COMPILE_H
#define SV_RUNTIME_CPU_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/ktrace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The flags of every CPU kernel object (the build's ahead-of-time kernels
 * use the same, kernels/meson.build). */
#define SV_RT_CXX_FLAGS "-std=c++17", "-O1", "-g1", "-fPIC", "-fsanitize=thread", \
    "-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics", "-fno-omit-frame-pointer"

/* The compiler to use: $CXX (its first word) when set, else c++, g++,
 * clang++ on PATH. False with why in words when none is found. */
bool sv_rt_cxx_find(char *path, size_t len, char *why, size_t whylen);

/* The cache folder, $XDG_CACHE_HOME/scanviz (else ~/.cache/scanviz), made
 * 0700 when missing; refused when it (or scanviz/) is a link or another
 * user's. */
bool sv_rt_cache_dir(char *dir, size_t len, char *err, size_t errlen);

/* One PC -> line table of a kernel .so (offsets from its load address). */
typedef struct sv_rt_lines {
    size_t n;
    uint64_t *addr; /* sorted */
    int32_t *line;  /* 0: not the kernel file's code */
} sv_rt_lines;

void sv_rt_lines_free(sv_rt_lines *l);
/* The line of the code at offset pc (a return address: pc - 1 is looked up). */
int32_t sv_rt_lines_at(const sv_rt_lines *l, uint64_t pc);

/* Compiles text (sv_source_cpu_text) into the cache, or finds it there:
 * so_path gets the .so, lines its line table. A compile error is a false
 * return with *kind SV_KFAIL_COMPILE, *line the first error's line in the
 * kernel file and *messages (malloc'd) the compiler's words; other failures
 * *kind SV_KFAIL_UNAVAILABLE or SV_KFAIL_INTERNAL with err. *cached says
 * whether it came from the cache. */
bool sv_rt_cpu_compile(const char *text, const char *path, char *so_path, size_t so_len,
                       sv_rt_lines *lines, bool *cached, sv_kfail_kind *kind, int *line,
                       char **messages, char *err, size_t errlen);
/* The same with more flags (NULL-terminated; the shipped kernels' build
 * passes -DSV_RT_HOSTED and -I kernels/), and the line table's text. */
bool sv_rt_cpu_compile_ex(const char *text, const char *path, const char *const *extra,
                          char *so_path, size_t so_len, char *lines_path, size_t lines_len,
                          sv_rt_lines *lines, bool *cached, sv_kfail_kind *kind, int *line,
                          char **messages, char *err, size_t errlen);
/* Parses a line table's text ("ADDR LINE" lines, hex and decimal). */
bool sv_rt_lines_parse(const char *text, sv_rt_lines *l);

#ifdef __cplusplus
}
#endif

#endif
