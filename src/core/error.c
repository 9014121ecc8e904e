/* sv_errorf: formatted error messages into the caller's buffer. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

void sv_errorf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}
