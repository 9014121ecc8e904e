/* Values in JSON, the one writer and reader of a trace file's cells
 * (docs/trace-format.md, "Values"), for trace_file.c and ktrace_file.c. */
#ifndef SV_JSON_VALUE_H
#define SV_JSON_VALUE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Long arrays are wrapped every this many values. */
#define SV_JSON_VALUES_PER_LINE 16

/* One value: an integer, a float32 number with the fewest digits that read
 * back to its bits (".0" on integral values, so -0.0 keeps its sign), or
 * "inf", "-inf", "nan". */
void sv_json_put_value(FILE *f, sv_type type, sv_value v);
/* An array of n values, null where written[i] is false (written may be
 * NULL: all written), wrapped every SV_JSON_VALUES_PER_LINE values with
 * indent + 1 spaces. */
void sv_json_put_values(FILE *f, sv_type type, const sv_value *v, const bool *written, size_t n,
                        int indent);

/* "an object", "an integer", ...: what a JSON value is, for messages. */
const char *sv_json_kind_of(const json_t *j);

/* What the file readers report with: err = "PATH: reason", the reason from
 * fmt; returns false. */
__attribute__((format(printf, 4, 5)))
bool sv_json_bad(char *err, size_t errlen, const char *path, const char *fmt, ...);

/* An integer in [lo, hi] at path; false with err = "PATH: expected an
 * integer, got ..." or "PATH: V is out of range (LO to HI)". */
bool sv_json_get_int(const json_t *j, const char *path, long long lo, long long hi,
                     long long *out, char *err, size_t errlen);

/* One value of type at path (for messages); null only when allow_null
 * (*is_null says so; is_null may be NULL otherwise). false with err =
 * "PATH: reason". */
bool sv_json_get_value(const json_t *j, const char *path, sv_type type, bool allow_null,
                       sv_value *out, bool *is_null, char *err, size_t errlen);
/* An array of exactly n values at path; written[i] (may be NULL) = not null. */
bool sv_json_get_values(const json_t *j, const char *path, sv_type type, size_t n,
                        bool allow_null, sv_value *vals, bool *written, char *err,
                        size_t errlen);

/* Counts the JSON values (strings and keys included), arrays and objects
 * of text without parsing it: jansson's tree costs far more than the text
 * (docs/reliability.md, "Memory while reading a trace"), so a reader refuses
 * a file over its limits before building it. Returns NULL, or why (filled:
 * "8299391 JSON values, more than the 2097152 a trace may have"). */
const char *sv_json_too_many(const char *text, size_t max_tokens, size_t max_arrays,
                             size_t max_objects, char *why, size_t len);

#ifdef __cplusplus
}
#endif

#endif
