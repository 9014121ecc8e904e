/* The second wall around a kernel file (issue 27, layer 2): what its
 * compiled .so may hold, read with libelf before it is cached or loaded.
 *   - its dynamic imports: only a fixed list of math functions (libm's) and
 *     what the compiler's own start files name (__cxa_finalize, ...); the
 *     runtime's hooks come through a table (cuda_cpu.h), so any other
 *     import is a call a kernel cannot make ("the kernel calls `open`");
 *   - the code that would run when it is loaded: only the compiler's own
 *     (frame_dummy, the sanitizer's module constructor), so a constructor
 *     or a dynamic initializer of the file's is refused;
 *   - the libraries it needs: the C and C++ runtimes, nothing else.
 * Inside src/runtime/ only. */
#ifndef SV_RUNTIME_SO_CHECK_H
#define SV_RUNTIME_SO_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Checks the .so in bytes[0 .. len). False with err in words (a sentence
 * naming the import or the initializer) when it holds what a kernel may
 * not, or when it is not an ELF shared object this check can read. */
bool sv_rt_so_check(const void *bytes, size_t len, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
