/* Error messages into a caller's buffer: the one way library code reports
 * what went wrong (it never prints). */
#ifndef SV_ERROR_H
#define SV_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* printf-style into err[0..errlen); does nothing when err is NULL or errlen
 * is 0. Truncates, always NUL-terminated. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
void sv_errorf(char *err, size_t errlen, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif
