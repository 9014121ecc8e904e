/* What a kernel file's printf format may hold, checked twice: by the source
 * scan (source_scan.c, on the literal, with the file's line) and by the CPU
 * runtime's hook (cpu_exec.cc, before the C library's vsnprintf formats it).
 * Numbers and characters only: %d %i %u %x %X %o %c %e %E %f %F %g %G %a %A
 * %p and %%, with flags (-+ #0), a width and a precision in digits and the
 * length modifiers hh h l ll z j t. Refused: %s (a string the kernel would
 * point at), %n (a write), * (a width from the arguments) and anything else.
 * Header-only, C and C++. */
#ifndef SV_RUNTIME_PRINT_FORMAT_H
#define SV_RUNTIME_PRINT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether fmt[0..len) is such a format; why (when not NULL) says which
 * conversion is refused and why. */
static inline bool sv_print_format_ok(const char *fmt, size_t len, char *why, size_t whylen)
{
    for (size_t i = 0; i < len; i++) {
        if (fmt[i] != '%')
            continue;
        size_t at = i++;
        while (i < len && (fmt[i] == '-' || fmt[i] == '+' || fmt[i] == ' ' || fmt[i] == '#' ||
                           fmt[i] == '0'))
            i++;
        while (i < len && fmt[i] >= '0' && fmt[i] <= '9')
            i++;
        if (i < len && fmt[i] == '.') {
            i++;
            while (i < len && fmt[i] >= '0' && fmt[i] <= '9')
                i++;
        }
        if (i < len && (fmt[i] == 'h' || fmt[i] == 'l')) {
            char c = fmt[i++];
            if (i < len && fmt[i] == c)
                i++;
        } else if (i < len && (fmt[i] == 'z' || fmt[i] == 'j' || fmt[i] == 't')) {
            i++;
        }
        char c = i < len ? fmt[i] : '\0';
        const char *refused = NULL;
        if (c == 's')
            refused = "%s (a string printf would read through a pointer) is not supported: "
                      "print numbers and characters";
        else if (c == 'n')
            refused = "%n (printf writing memory) is refused";
        else if (c == '*')
            refused = "a width or precision from the arguments (*) is not supported";
        else if (c == '\0' || !__builtin_strchr("diuxXocfFeEgGaAp%", c))
            refused = "this conversion is not one printf in a kernel file takes (%d %i %u %x "
                      "%X %o %c %f %e %g %a %p %%)";
        if (refused) {
            size_t k = i < len ? i + 1 - at : len - at; /* the conversion, shown when printable */
            for (size_t j = at; j < at + k; j++)
                if (fmt[j] < 0x20 || fmt[j] > 0x7e)
                    k = 0;
            if (why && whylen)
                snprintf(why, whylen, "printf's format%s%.*s%s: %s", k ? " at \"" : "",
                         (int)(k > 12 ? 12 : k), fmt + at, k ? "\"" : "", refused);
            return false;
        }
    }
    return true;
}

#endif
