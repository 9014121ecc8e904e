/* Values in JSON, as every scanviz trace file writes and reads them
 * (docs/trace-format.md, "Values"): int32 integers, float32 numbers that read
 * back to the same bits, "inf"/"-inf"/"nan", null for a cell never written.
 * Shared by the chapter's trace file (trace_file.c) and the kernel trace's
 * (ktrace_file.c). */
#include "json_value.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

/* A float32 as a JSON number that reads back to the same bits (through a
 * double, as jansson reads it): the shortest such decimal, with ".0" added
 * to integral values so that -0.0 keeps its sign. Non-finite values are the
 * strings "inf", "-inf", "nan". */
void sv_json_put_value(FILE *f, sv_type type, sv_value v)
{
    char buf[48];
    sv_value_format(type, v, buf, sizeof buf);
    if (type != SV_TYPE_FLOAT32) {
        fputs(buf, f);
    } else if (isnan(v.f) || isinf(v.f)) {
        fprintf(f, "\"%s\"", buf);
    } else {
        fputs(buf, f);
        if (!strpbrk(buf, ".eE"))
            fputs(".0", f);
    }
}

/* An array of n values (null where written[i] is false), wrapped every
 * SV_JSON_VALUES_PER_LINE values at the given indent. */
void sv_json_put_values(FILE *f, sv_type type, const sv_value *v, const bool *written, size_t n,
                       int indent)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        if (i > 0) {
            fputc(',', f);
            if (i % SV_JSON_VALUES_PER_LINE == 0)
                fprintf(f, "\n%*s", indent + 1, "");
            else
                fputc(' ', f);
        }
        if (written && !written[i])
            fputs("null", f);
        else
            sv_json_put_value(f, type, v[i]);
    }
    fputc(']', f);
}

bool sv_json_bad(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    sv_errorf(err, errlen, "%s: %s", path, why);
    return false;
}

bool sv_json_get_int(const json_t *j, const char *path, long long lo, long long hi,
                     long long *out, char *err, size_t errlen)
{
    if (!json_is_integer(j))
        return sv_json_bad(err, errlen, path, "expected an integer, got %s", sv_json_kind_of(j));
    long long v = json_integer_value(j);
    if (v < lo || v > hi)
        return sv_json_bad(err, errlen, path, "%lld is out of range (%lld to %lld)", v, lo, hi);
    *out = v;
    return true;
}

const char *sv_json_kind_of(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a real number"; /* 8.0 and 8e0 too: not integers in jansson */
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "something else";
}

/* One cell: an int32, or a float32 (number or "inf"/"-inf"/"nan"); null
 * only when allow_null (then *is_null says so). */
bool sv_json_get_value(const json_t *j, const char *path, sv_type type, bool allow_null,
                       sv_value *out, bool *is_null, char *err, size_t errlen)
{
    const char *or_null = allow_null ? " or null" : "";
    if (is_null)
        *is_null = false;
    out->bits = 0;
    if (json_is_null(j) && allow_null) {
        *is_null = true;
        return true;
    }
    if (type == SV_TYPE_INT32) {
        if (!json_is_integer(j))
            return sv_json_bad(err, errlen, path, "expected an integer%s", or_null);
        json_int_t v = json_integer_value(j);
        if (v < INT32_MIN || v > INT32_MAX)
            return sv_json_bad(err, errlen, path, "%lld is out of int32 range", (long long)v);
        out->i = (int32_t)v;
        return true;
    }
    if (json_is_integer(j)) {
        out->f = (float)json_integer_value(j);
        return true;
    }
    if (json_is_real(j)) {
        double d = json_real_value(j);
        float f = (float)d;
        if (isinf(f))
            return sv_json_bad(err, errlen, path, "%g is out of float32 range", d);
        out->f = f;
        return true;
    }
    if (json_is_string(j)) {
        const char *s = json_string_value(j);
        if (strcmp(s, "inf") == 0) {
            out->f = INFINITY;
            return true;
        }
        if (strcmp(s, "-inf") == 0) {
            out->f = -INFINITY;
            return true;
        }
        if (strcmp(s, "nan") == 0) {
            out->bits = SV_CANONICAL_NAN_BITS;
            return true;
        }
    }
    return sv_json_bad(err, errlen, path, "expected a number, \"inf\", \"-inf\" or \"nan\"%s",
                       or_null);
}

/* An array of exactly n values at path. */
bool sv_json_get_values(const json_t *j, const char *path, sv_type type, size_t n,
                        bool allow_null, sv_value *vals, bool *written, char *err, size_t errlen)
{
    char p[96];
    if (!json_is_array(j))
        return sv_json_bad(err, errlen, path, "expected an array of %zu values, got %s", n,
                           sv_json_kind_of(j));
    if (json_array_size(j) != n)
        return sv_json_bad(err, errlen, path, "%zu values, expected n = %zu",
                           json_array_size(j), n);
    for (size_t i = 0; i < n; i++) {
        bool is_null = false;
        snprintf(p, sizeof p, "%s[%zu]", path, i);
        if (!sv_json_get_value(json_array_get(j, i), p, type, allow_null, &vals[i], &is_null, err,
                               errlen))
            return false;
        if (written)
            written[i] = !is_null;
    }
    return true;
}

const char *sv_json_too_many(const char *p, size_t max_tokens, size_t max_arrays,
                             size_t max_objects, char *why, size_t len)
{
    size_t tokens = 0, arrays = 0, objects = 0;
    while (*p) {
        char c = *p;
        if (c == '"') {
            tokens++;
            for (p++; *p && *p != '"'; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (*p)
                p++;
            continue;
        }
        if (c == '[' || c == '{') {
            tokens++;
            *(c == '[' ? &arrays : &objects) += 1;
        } else if ((c >= '0' && c <= '9') || c == '-' || (c >= 'a' && c <= 'z')) {
            tokens++;
            while ((p[1] >= '0' && p[1] <= '9') || (p[1] >= 'a' && p[1] <= 'z') ||
                   (p[1] >= 'A' && p[1] <= 'Z') || p[1] == '.' || p[1] == '+' || p[1] == '-')
                p++;
        }
        p++;
    }
    if (tokens > max_tokens)
        snprintf(why, len, "%zu JSON values, more than the %zu a trace may have", tokens,
                 max_tokens);
    else if (arrays > max_arrays)
        snprintf(why, len, "%zu JSON arrays, more than the %zu a trace may have", arrays,
                 max_arrays);
    else if (objects > max_objects)
        snprintf(why, len, "%zu JSON objects, more than the %zu a trace may have", objects,
                 max_objects);
    else
        return NULL;
    return why;
}
