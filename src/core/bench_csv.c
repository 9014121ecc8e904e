/* The benchmark CSV (bench_csv.h): a strict reader that names the line,
 * column and field of the first thing wrong, and the writer scanviz-bench
 * uses, so that what one writes the other reads back unchanged. */
#include "bench_csv.h"
#include "algo.h"
#include "error.h"
#include "fileio.h"
#include "free_all.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum {
    COL_ALGO, COL_TYPE, COL_N, COL_MEDIAN_US, COL_GB_PER_S, COL_FRAC_OF_COPY,
    COL_RATIO_TO_CUB, COL_OPS, COL_REPS, COL_COUNT
};

static const char *const col_names[COL_COUNT] = {
    "algo", "type", "n", "median_us", "gb_per_s", "frac_of_copy",
    "ratio_to_cub", "ops", "reps",
};

/* Fields that may be left empty (read as NAN): copy or cub not run, or a
 * figure the benchmark does not have. */
static const bool col_optional[COL_COUNT] = {
    [COL_FRAC_OF_COPY] = true, [COL_RATIO_TO_CUB] = true, [COL_OPS] = true,
};

static const char *const type_names[] = { "int32", "float32" };

#define MAX_FIELDS 32

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}

/* Trims ASCII spaces and tabs in place; returns the start. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

/* Splits line at commas in place. Returns the number of fields, or
 * MAX_FIELDS + 1 when there are more than MAX_FIELDS. */
static int split(char *line, char **fields)
{
    int n = 0;
    char *p = line;
    for (;;) {
        char *comma = strchr(p, ',');
        if (n == MAX_FIELDS)
            return MAX_FIELDS + 1;
        if (comma)
            *comma = '\0';
        fields[n++] = trim(p);
        if (!comma)
            return n;
        p = comma + 1;
    }
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* "# key: value": fills the known keys; other comment lines are ignored. */
static void parse_meta(sv_bench_table *t, char *line)
{
    char *p = trim(line + 1);
    char *colon = strchr(p, ':');
    if (!colon)
        return;
    *colon = '\0';
    char *key = trim(p);
    char *value = trim(colon + 1);
    if (strcmp(key, "gpu") == 0)
        copy_str(t->gpu, sizeof t->gpu, value);
    else if (strcmp(key, "cuda") == 0)
        copy_str(t->cuda, sizeof t->cuda, value);
    else if (strcmp(key, "date") == 0)
        copy_str(t->date, sizeof t->date, value);
    else if (strcmp(key, "command") == 0)
        copy_str(t->command, sizeof t->command, value);
}

/* A number field: finite and not negative; empty gives NAN when optional. */
static bool parse_number(const char *s, int col, bool optional, double *out,
                         int lineno, int colno, char *err, size_t errlen)
{
    if (*s == '\0') {
        if (optional) {
            *out = NAN;
            return true;
        }
        sv_errorf(err, errlen, "line %d, column %d (%s): the field is empty", lineno,
                colno, col_names[col]);
        return false;
    }
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    /* strtod also takes "nan", "inf" and hex: only plain decimals here. */
    bool plain = true;
    for (const char *c = s; *c; c++)
        if (!(isdigit((unsigned char)*c) || *c == '.' || *c == '-' || *c == '+' ||
              *c == 'e' || *c == 'E'))
            plain = false;
    /* ERANGE with a finite result is an underflow (1e-320 is a subnormal
     * double, 1e-400 rounds to 0): a plain decimal, kept as strtod rounds it. */
    if (!plain || end == s || *end != '\0' || !isfinite(v)) {
        sv_errorf(err, errlen, "line %d, column %d (%s): \"%s\" is not a number", lineno,
                colno, col_names[col], s);
        return false;
    }
    if (v < 0) {
        sv_errorf(err, errlen, "line %d, column %d (%s): %s is negative", lineno, colno,
                col_names[col], s);
        return false;
    }
    *out = v;
    return true;
}

/* A whole number >= min (n, reps). */
static bool parse_count(const char *s, int col, double min, double *out, int lineno,
                        int colno, char *err, size_t errlen)
{
    if (!parse_number(s, col, false, out, lineno, colno, err, errlen))
        return false;
    if (*out != floor(*out) || *out < min) {
        sv_errorf(err, errlen, "line %d, column %d (%s): %s is not a whole number >= %.0f",
                lineno, colno, col_names[col], s, min);
        return false;
    }
    return true;
}

static bool parse_row(char **fields, const int *col_of, int lineno, sv_bench_row *r,
                      char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    for (int f = 0; f < COL_COUNT; f++) {
        int col = col_of[f];
        const char *s = fields[f];
        int colno = f + 1;
        double v = 0;
        switch (col) {
        case COL_ALGO:
            if (!sv_algo_from_name(s, NULL)) {
                char names[160];
                sv_algo_list(names, sizeof names, " or ");
                sv_errorf(err, errlen,
                        "line %d, column %d (algo): unknown algorithm \"%s\" (expected %s)",
                        lineno, colno, s, names);
                return false;
            }
            copy_str(r->algo, sizeof r->algo, s);
            break;
        case COL_TYPE:
            if (!in_list(s, type_names, sizeof type_names / sizeof *type_names)) {
                sv_errorf(err, errlen,
                        "line %d, column %d (type): unknown type \"%s\" (expected int32 or "
                        "float32)", lineno, colno, s);
                return false;
            }
            copy_str(r->type, sizeof r->type, s);
            break;
        case COL_N:
            if (!parse_count(s, col, 1, &r->n, lineno, colno, err, errlen))
                return false;
            break;
        case COL_REPS:
            if (!parse_count(s, col, 1, &v, lineno, colno, err, errlen))
                return false;
            if (v > 1e9) {
                sv_errorf(err, errlen, "line %d, column %d (reps): %s is too large", lineno,
                        colno, s);
                return false;
            }
            r->reps = (int)v;
            break;
        default: {
            double *dst = col == COL_MEDIAN_US     ? &r->median_us
                          : col == COL_GB_PER_S     ? &r->gb_per_s
                          : col == COL_FRAC_OF_COPY ? &r->frac_of_copy
                          : col == COL_RATIO_TO_CUB ? &r->ratio_to_cub
                                                    : &r->ops;
            if (!parse_number(s, col, col_optional[col], dst, lineno, colno, err, errlen))
                return false;
        }
        }
    }
    return true;
}

/* Reads the header line into col_of (field index -> column). Every column
 * must be there exactly once; the order is free. */
static bool parse_header(char *line, int lineno, int *col_of, char *err, size_t errlen)
{
    char *fields[MAX_FIELDS];
    int nf = split(line, fields);
    bool seen[COL_COUNT] = { false };
    if (nf > MAX_FIELDS) {
        sv_errorf(err, errlen, "line %d: the header has more than %d columns", lineno,
                MAX_FIELDS);
        return false;
    }
    for (int f = 0; f < nf; f++) {
        int col = -1;
        for (int c = 0; c < COL_COUNT; c++)
            if (strcmp(fields[f], col_names[c]) == 0)
                col = c;
        if (col < 0) {
            sv_errorf(err, errlen, "line %d, column %d: unknown header column \"%s\"", lineno,
                    f + 1, fields[f]);
            return false;
        }
        if (seen[col]) {
            sv_errorf(err, errlen, "line %d, column %d: header column \"%s\" appears twice",
                    lineno, f + 1, fields[f]);
            return false;
        }
        seen[col] = true;
        col_of[f] = col;
    }
    for (int c = 0; c < COL_COUNT; c++)
        if (!seen[c]) {
            sv_errorf(err, errlen, "line %d: the header lacks the column \"%s\"", lineno,
                    col_names[c]);
            return false;
        }
    return true;
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            return false;
    return true;
}

sv_bench_table *sv_bench_table_parse(const char *text, char *err, size_t errlen)
{
    if (!text) {
        sv_errorf(err, errlen, "no CSV text");
        return NULL;
    }
    sv_bench_table *t = calloc(1, sizeof *t);
    char *buf = strdup(text);
    size_t cap = 0;
    int col_of[COL_COUNT];
    bool have_header = false;
    if (!t || !buf) {
        sv_errorf(err, errlen, "out of memory");
        goto fail;
    }
    int lineno = 0;
    char *next = buf;
    while (next) {
        char *line = next;
        char *nl = strchr(line, '\n');
        next = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        size_t len = strlen(line);
        while (len > 0 && line[len - 1] == '\r') /* CR LF, and CR CR LF */
            line[--len] = '\0';
        lineno++;
        if (blank(line))
            continue;
        if (line[0] == '#') {
            parse_meta(t, line);
            continue;
        }
        if (!have_header) {
            if (!parse_header(line, lineno, col_of, err, errlen))
                goto fail;
            have_header = true;
            continue;
        }
        char *fields[MAX_FIELDS];
        int nf = split(line, fields);
        if (nf != COL_COUNT) {
            sv_errorf(err, errlen, "line %d: %s%d column%s, expected %d as in the header",
                    lineno, nf > MAX_FIELDS ? "more than " : "",
                    nf > MAX_FIELDS ? MAX_FIELDS : nf, nf == 1 ? "" : "s", COL_COUNT);
            goto fail;
        }
        if (t->nrows == cap) {
            size_t ncap = cap ? cap * 2 : 64;
            sv_bench_row *rows = realloc(t->rows, ncap * sizeof *rows);
            if (!rows) {
                sv_errorf(err, errlen, "out of memory");
                goto fail;
            }
            t->rows = rows;
            cap = ncap;
        }
        if (!parse_row(fields, col_of, lineno, &t->rows[t->nrows], err, errlen))
            goto fail;
        t->nrows++;
    }
    if (!have_header) {
        sv_errorf(err, errlen,
                "no header line: expected algo,type,n,median_us,gb_per_s,frac_of_copy,"
                "ratio_to_cub,ops,reps");
        goto fail;
    }
    free(buf);
    return t;
fail:
    free(buf);
    sv_bench_table_destroy(t);
    return NULL;
}

sv_bench_table *sv_bench_table_load(const char *path, char *err, size_t errlen)
{
    char inner[384];
    char *text = sv_read_bounded(path, SV_LIMIT_BENCH_CSV, "a benchmark table", NULL, err,
                                 errlen);
    if (!text)
        return NULL; /* err names the file */
    sv_bench_table *t = sv_bench_table_parse(text, inner, sizeof inner);
    if (!t)
        sv_errorf(err, errlen, "%s: %s", sv_path_name(path), inner);
    free(text);
    return t;
}

void sv_bench_table_destroy(sv_bench_table *t)
{
    if (!t)
        return;
    SV_FREE_ALL(t->rows, t);
}

/* A metadata value on one line: newlines would end the comment early. */
static void write_meta(FILE *f, const char *key, const char *value)
{
    if (!value[0])
        return;
    fprintf(f, "# %s: ", key);
    for (const char *c = value; *c; c++)
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
    fputc('\n', f);
}

/* Empty for NAN, else fixed decimals so the file reads as a table. */
static void write_opt(FILE *f, double v, const char *fmt)
{
    fputc(',', f);
    if (!isnan(v))
        fprintf(f, fmt, v);
}

bool sv_bench_table_write_head(const sv_bench_table *t, FILE *f)
{
    write_meta(f, "gpu", t->gpu);
    write_meta(f, "cuda", t->cuda);
    write_meta(f, "date", t->date);
    write_meta(f, "command", t->command);
    for (int c = 0; c < COL_COUNT; c++)
        fprintf(f, "%s%s", c ? "," : "", col_names[c]);
    fputc('\n', f);
    return !ferror(f);
}

bool sv_bench_row_write(const sv_bench_row *r, FILE *f)
{
    fprintf(f, "%s,%s,%.0f", r->algo, r->type, r->n);
    write_opt(f, r->median_us, "%.3f");
    write_opt(f, r->gb_per_s, "%.2f");
    write_opt(f, r->frac_of_copy, "%.4f");
    write_opt(f, r->ratio_to_cub, "%.4f");
    write_opt(f, r->ops, "%.0f");
    fprintf(f, ",%d\n", r->reps);
    return !ferror(f);
}

bool sv_bench_table_write(const sv_bench_table *t, FILE *f, char *err, size_t errlen)
{
    if (!t || !f) {
        sv_errorf(err, errlen, "no table or no file to write");
        return false;
    }
    sv_bench_table_write_head(t, f);
    for (size_t i = 0; i < t->nrows; i++)
        sv_bench_row_write(&t->rows[i], f);
    if (fflush(f) != 0 || ferror(f)) {
        sv_errorf(err, errlen, "write error: %s", strerror(errno));
        return false;
    }
    return true;
}

void sv_bench_describe(const sv_bench_table *t, const char *note, char *out, size_t outlen)
{
    if (!out || outlen == 0)
        return;
    out[0] = '\0';
    if (!t) {
        snprintf(out, outlen, "%s", note ? note : "");
        return;
    }
    size_t len = 0;
    len += (size_t)snprintf(out, outlen, "%s", t->gpu[0] ? t->gpu : "unknown GPU");
    if (t->cuda[0] && len < outlen)
        len += (size_t)snprintf(out + len, outlen - len, " · CUDA %s", t->cuda);
    if (t->date[0] && len < outlen)
        len += (size_t)snprintf(out + len, outlen - len, " · %s", t->date);
    if (note && note[0] && len < outlen)
        snprintf(out + len, outlen - len, " (%s)", note);
}
