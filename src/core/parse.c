/* Input arrays from text (tokens separated by whitespace and commas, '#'
 * comments), whole files or stdin into memory, and seeded random arrays.
 *
 * Random values (sv_random_values) come from splitmix64 (Steele, Lea and
 * Flood 2014): state += 0x9e3779b97f4a7c15, then two xor-shift-multiply
 * rounds. It is 64-bit integer arithmetic only, so the same seed gives the
 * same array on every machine. Each value takes one draw, mapped to a small
 * range with (draw >> 11) % k, chosen so cells stay readable and scans stay
 * interesting:
 *   int32   sum      0 .. 9            (the chapter's example looks like this)
 *   int32   max/min  -99 .. 99
 *   int32   product  1, -1 or 2 (weights 5:2:1): twos are rare, so a long
 *                    array wraps only after ~32 of them, late in the array
 *   int32   xor      0 .. 255
 *   float32 sum      k/100 for k in 0 .. 999 (0 .. 9.99, not exact in binary,
 *                    so the rounding difference from a sequential scan shows)
 *   float32 max/min  k/10 for k in -999 .. 999
 *   float32 product  one of 0.5, 0.8, 1, 1.25, 2, -1, -0.8, -1.25: log2|x|
 *                    has mean 0, so 1024 products stay far inside float range.
 * k/100 is computed as (float)k / 100.0f, the correctly rounded float nearest
 * k/100: the value strtof("0.37") gives. */
#include "parse.h"
#include "fileio.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_separator(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f' || c == ',';
}

/* Parses one token (not NUL-terminated: [tok, tok+len)). Returns NULL on
 * success, else the reason. */
static const char *parse_token(const char *tok, size_t len, sv_type type, sv_value *out)
{
    char buf[128];
    if (len >= sizeof buf)
        return type == SV_TYPE_INT32 ? "not an integer (too long)" : "not a number (too long)";
    memcpy(buf, tok, len);
    buf[len] = '\0';

    if (type == SV_TYPE_INT32) {
        /* Optional sign, then decimal digits only: "1.5", "0x10", "1e3" are
         * not integers. */
        size_t k = (buf[0] == '+' || buf[0] == '-') ? 1 : 0;
        if (buf[k] == '\0')
            return "not an integer";
        for (size_t j = k; buf[j]; j++)
            if (buf[j] < '0' || buf[j] > '9')
                return "not an integer";
        errno = 0;
        long long v = strtoll(buf, NULL, 10);
        if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
            return "out of int32 range";
        out->i = (int32_t)v;
        return NULL;
    }

    /* Decimal only: strtof would also read hex ("0x10", "0x1p-3"), which
     * the int32 parser refuses too. */
    if (strpbrk(buf, "xX"))
        return "not a number";
    char *end = NULL;
    errno = 0;
    float f = strtof(buf, &end);
    if (end == buf || *end != '\0')
        return "not a number";
    if (isnan(f) || (isinf(f) && errno != ERANGE))
        return "not a finite number";
    if (isinf(f))
        return "out of float32 range";
    /* Underflow (e.g. 1e-50) rounds to a subnormal or zero: accepted, as
     * a float32 can only hold that. */
    out->f = f;
    return NULL;
}

bool sv_parse_values(const char *text, sv_type type, size_t max_n,
                     sv_value **out, size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    if (!text) {
        snprintf(err, errlen, "no values");
        return false;
    }
    if (strncmp(text, "\xEF\xBB\xBF", 3) == 0)
        text += 3; /* a UTF-8 byte order mark (editors on Windows write one) */
    size_t cap = 0, count = 0;
    sv_value *vals = NULL;
    size_t line = 1;
    const char *line_start = text;
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            line++;
            line_start = ++p;
            continue;
        }
        if (is_separator(*p)) {
            p++;
            continue;
        }
        if (*p == '#') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        const char *tok = p;
        while (*p && !is_separator(*p) && *p != '#')
            p++;
        size_t len = (size_t)(p - tok);
        count++;
        sv_value v;
        const char *why = parse_token(tok, len, type, &v);
        if (why) {
            int shown = len > 40 ? 40 : (int)len;
            snprintf(err, errlen, "token %zu \"%.*s%s\" (line %zu, column %zu): %s",
                     count, shown, tok, len > 40 ? "..." : "", line,
                     (size_t)(tok - line_start) + 1, why);
            goto fail;
        }
        if (count > max_n)
            continue; /* keep counting (and checking) to say how many there were */
        if (count > cap) {
            size_t ncap = cap ? cap * 2 : 64;
            sv_value *nv = realloc(vals, ncap * sizeof *nv);
            if (!nv) {
                snprintf(err, errlen, "out of memory reading values");
                goto fail;
            }
            vals = nv;
            cap = ncap;
        }
        vals[count - 1] = v;
    }
    if (!sv_count_valid(count, max_n, err, errlen))
        goto fail;
    *out = vals;
    *n = count;
    return true;
fail:
    free(vals);
    return false;
}

char *sv_read_file(const char *path, char *err, size_t errlen)
{
    return sv_read_bounded(path, SV_LIMIT_VALUES, "values", NULL, err, errlen);
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

sv_value *sv_random_values(sv_op op, sv_type type, size_t n, uint64_t seed)
{
    static const float float_products[8] = {0.5f, 0.8f, 1.0f, 1.25f, 2.0f, -1.0f, -0.8f, -1.25f};
    static const int32_t int_products[8] = {1, 1, 1, 1, 1, -1, -1, 2};
    sv_value *v = calloc(n ? n : 1, sizeof *v);
    if (!v)
        return NULL;
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t d = splitmix64(&state) >> 11; /* 53 well-mixed bits */
        if (type == SV_TYPE_FLOAT32) {
            switch (op) {
            case SV_OP_SUM: v[i].f = (float)(int)(d % 1000) / 100.0f; break;
            case SV_OP_PRODUCT: v[i].f = float_products[d % 8]; break;
            default: v[i].f = (float)((int)(d % 1999) - 999) / 10.0f; break;
            }
        } else {
            switch (op) {
            case SV_OP_SUM: v[i].i = (int32_t)(d % 10); break;
            case SV_OP_PRODUCT: v[i].i = int_products[d % 8]; break;
            case SV_OP_XOR: v[i].i = (int32_t)(d % 256); break;
            default: v[i].i = (int32_t)(d % 199) - 99; break;
            }
        }
    }
    return v;
}
