/* Input arrays from text: integers or floats separated by spaces, commas or
 * newlines, with '#' comments to the end of a line. */
#ifndef SV_PARSE_H
#define SV_PARSE_H

#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parses text into a newly allocated array of *n values of type. On failure
 * returns false, leaves *out NULL, and err names the token, its position and
 * the reason, e.g. `token 3 "x7" (line 1, column 5): not an integer`.
 * Refuses an empty array and more than max_n values. The caller frees *out. */
bool sv_parse_values(const char *text, sv_type type, size_t max_n,
                     sv_value **out, size_t *n, char *err, size_t errlen);

/* Reads a whole file of values (or stdin when path is "-") into a
 * NUL-terminated string: sv_read_bounded() with the limit SV_LIMIT_VALUES.
 * Returns NULL with err ("NAME: reason") filled on failure; the caller frees
 * the result. */
char *sv_read_file(const char *path, char *err, size_t errlen);

/* n values drawn from a seeded generator (same seed, same array on every
 * machine): small numbers that fit a cell, chosen per op and type (parse.c
 * documents the ranges). The caller frees the result. */
sv_value *sv_random_values(sv_op op, sv_type type, size_t n, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif
