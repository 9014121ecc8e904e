/* Names to values: every "--op sum", "--theme dark", "--kernel no-else" is
 * looked up the same way, in the table that defines the names. */
#ifndef SV_NAMES_H
#define SV_NAMES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The row of a table whose name is key: 0 .. count-1, or -1 when no row's
 * is (or key is NULL). Each of the count rows is stride bytes, with its
 * `const char *` name at offset; a NULL name matches nothing. The macros
 * below fill in stride and offset. */
int sv_name_index(const char *key, const void *rows, size_t count, size_t stride,
                  size_t offset);

/* A table of structs with a `name` field. */
#define SV_NAME_INDEX(key, rows, count)                                     \
    sv_name_index((key), (rows), (count), sizeof *(rows),                   \
                  (size_t)((const char *)&(rows)[0].name - (const char *)&(rows)[0]))

/* An array of strings. */
#define SV_STRING_INDEX(key, strings, count) \
    sv_name_index((key), (strings), (count), sizeof *(strings), 0)

#ifdef __cplusplus
}
#endif

#endif
