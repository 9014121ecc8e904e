/* The CPU runtime's compile step: the system C++ compiler, the keyword
 * header (cuda_cpu.h, embedded in the program), and a cache of the shared
 * objects it makes, keyed by the content of the text, the header, the
 * compiler and the flags. Inside src/runtime/ only.
 *
 * A kernel file is untrusted (issue 27), and so is what the compiler makes
 * of it. The compile runs in the caller's process, never in the run's
 * child, which cannot write the cache:
 *   - the compiler (and readelf after it) runs in its own process group,
 *     killed with it at the wall-time limit, with limits on CPU time,
 *     address space, file size and descriptors, standard input from
 *     /dev/null, an environment of PATH, TMPDIR and LC_ALL only, its
 *     messages bounded (64 KiB), and Landlock letting it read the system's
 *     folders and its own prefix only and write its private work folder
 *     only (sandbox.h);
 *   - the .so it makes is checked (so_check.h) before it is cached;
 *   - a cache entry is k-KEY.so, k-KEY.lines and k-KEY.sum (KEY: the
 *     SHA-256 of the text, the runtime's header, the compiler and its
 *     flags), the .sum the SHA-256 of the other two, written last; an entry is used only when both match
 *     it and the .so passes the check again. */
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

/* A compiled kernel as the run's child gets it: the checked .so's bytes
 * and its line table's text ("ADDR LINE" lines). */
typedef struct sv_rt_built {
    unsigned char *so;
    size_t so_len;
    char *lines;
} sv_rt_built;
void sv_rt_built_free(sv_rt_built *b); /* frees what b holds; accepts NULL */

/* The compile's limits (the compiler's processes, each). */
#define SV_RT_COMPILE_LIMIT_MS 30000      /* wall time of one compile */
#define SV_RT_COMPILE_CPU_S 30            /* CPU seconds of each process */
#define SV_RT_COMPILE_AS_MB 1024          /* address space of each process */
#define SV_RT_COMPILE_FSIZE_MB 64         /* largest file it may write */
#define SV_RT_COMPILE_MESSAGES (64 * 1024) /* its messages kept */

/* Compiles text (sv_source_cpu_text of a kernel file) with -nostdinc and
 * -undef into the cache, or finds it there, and checks it: out gets the
 * .so and its line table. A compile error is a false return with *kind
 * SV_KFAIL_COMPILE, *line the first error's line in the kernel file and
 * *messages (malloc'd) the compiler's words; an object the check refuses
 * *kind SV_KFAIL_REFUSED with err the check's words; a compile past its
 * limits SV_KFAIL_COMPILE with err saying which; other failures *kind
 * SV_KFAIL_UNAVAILABLE or SV_KFAIL_INTERNAL with err. *cached says whether
 * it came from the cache. */
bool sv_rt_cpu_compile(const char *text, const char *path, sv_rt_built *out, bool *cached,
                       sv_kfail_kind *kind, int *line, char **messages, char *err, size_t errlen);
/* For the runtime's own tests of the walls after it: the compile of
 * sv_rt_cpu_compile (a kernel file's flags, its sandboxed compiler), but
 * neither cached nor checked. */
bool sv_rt_cpu_compile_unchecked(const char *text, const char *path, sv_rt_built *out,
                                 sv_kfail_kind *kind, int *line, char **messages, char *err,
                                 size_t errlen);
/* Parses a line table's text ("ADDR LINE" lines, hex and decimal). */
bool sv_rt_lines_parse(const char *text, sv_rt_lines *l);

#ifdef __cplusplus
}
#endif

#endif
