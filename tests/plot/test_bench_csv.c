/* The benchmark CSV reader and writer (src/core/bench_csv.c), without GL:
 * a good file field by field, every kind of bad file with its exact
 * message, CRLF and loose spacing, and the write/read round trip.
 * usage: test_bench_csv FIXTURE.csv */
#include "bench_csv.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "../expect.h"

#define HEADER "algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\n"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

/* Parsing text must fail with exactly want. */
#define CHECK_BAD(text, want)                                              \
    do {                                                                   \
        char err_[512] = "";                                               \
        sv_bench_table *t_ = sv_bench_table_parse((text), err_, sizeof err_); \
        CHECK_MSG(t_ == NULL, "parsed although bad: %s", #text);           \
        CHECK_STR(err_, (want));                                           \
        sv_bench_table_destroy(t_);                                        \
    } while (0)

/* t (read; err the reader's message) must exist, with this metadata and
 * this many rows (date NULL: not checked). */
static bool check_table(const sv_bench_table *t, const char *err, const char *gpu,
                        const char *cuda, const char *date, int nrows)
{
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return false;
    CHECK_STR(t->gpu, gpu);
    CHECK_STR(t->cuda, cuda);
    if (date)
        CHECK_STR(t->date, date);
    CHECK_INT(t->nrows, nrows);
    return true;
}

static void test_fixture(const char *path)
{
    char err[512] = "";
    sv_bench_table *t = sv_bench_table_load(path, err, sizeof err);
    if (!check_table(t, err, "Test fixture (synthetic numbers, not a measurement)", "0.0",
                     "2000-01-01", 70))
        return;
    CHECK_STR(t->command, "written by hand for tests/plot");
    const sv_bench_row *r = &t->rows[0];
    CHECK_STR(r->algo, "copy");
    CHECK_STR(r->type, "int32");
    CHECK(r->n == 1024);
    CHECK(fabs(r->median_us - 0.495) < 1e-12);
    CHECK(fabs(r->gb_per_s - 16.54) < 1e-12);
    CHECK(r->frac_of_copy == 1.0);
    CHECK(isnan(r->ops)); /* copy's ops are left empty */
    CHECK_INT(r->reps, 10);
    const sv_bench_row *last = &t->rows[69];
    CHECK_STR(last->algo, "cpu");
    CHECK(last->n == 268435456.0);
    CHECK(last->ops == 268435455.0);
    sv_bench_table_destroy(t);
}

/* Issue 7, defect 12: CR CR LF ends a line like CR LF; a subnormal (1e-320)
 * or underflowing (1e-400) decimal is a number. */
static void test_line_ends_and_subnormals(void)
{
    char err[512] = "";
    sv_bench_table *t = sv_bench_table_parse(
        HEADER "hs,int32,1,1e-320,1e-400,,,,1\r\r\n", err, sizeof err);
    CHECK_MSG(t && t->nrows == 1 && t->rows[0].reps == 1 && t->rows[0].median_us > 0 &&
              t->rows[0].median_us < 1e-300 && t->rows[0].gb_per_s == 0, "%s", err);
    sv_bench_table_destroy(t);
    CHECK_BAD(HEADER "hs,int32,1,1e999,1,,,,1\n", "line 2, column 4 (median_us): \"1e999\" is not a number");
}

static void test_loose_but_valid(void)
{
    char err[512] = "";
    /* CRLF, blank lines, spaces around fields, no trailing newline, columns
     * in another order, empty optional fields, unknown metadata ignored. */
    const char *text =
        "# gpu:   NVIDIA H200  \r\n"
        "# note: anything\r\n"
        "\r\n"
        "n,algo,type,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\r\n"
        " 1024 , hs , int32 , 3.5 , 2.5 , , , 10240 , 5 \r\n"
        "\r\n"
        "2048,cpu,float32,1e2,0,,,2047,1";
    sv_bench_table *t = sv_bench_table_parse(text, err, sizeof err);
    if (!check_table(t, err, "NVIDIA H200", "", NULL, 2))
        return;
    CHECK_STR(t->rows[0].algo, "hs");
    CHECK(t->rows[0].n == 1024);
    CHECK(t->rows[0].median_us == 3.5);
    CHECK(isnan(t->rows[0].frac_of_copy));
    CHECK(isnan(t->rows[0].ratio_to_cub));
    CHECK(t->rows[0].ops == 10240);
    CHECK_INT(t->rows[0].reps, 5);
    CHECK_STR(t->rows[1].type, "float32");
    CHECK(t->rows[1].median_us == 100);
    sv_bench_table_destroy(t);

    /* Only metadata and the header: a valid table with no rows (what the
     * shipped file holds before the H200 run). */
    t = sv_bench_table_parse("# gpu: NVIDIA H200\n" HEADER, err, sizeof err);
    check_table(t, err, "NVIDIA H200", "", NULL, 0);
    sv_bench_table_destroy(t);
}

static void test_bad(void)
{
    CHECK_BAD("# gpu: x\n# date: y\n" HEADER
              "copy,int32,1024,1,1,,,1,1\n"
              "\n"
              "hs,int32,1024,1,1,,,1,1\n"
              "cub,int32,1024,abc,1,,,1,1\n",
              "line 7, column 4 (median_us): \"abc\" is not a number");
    CHECK_BAD("algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps,speed\n",
              "line 1, column 10: unknown header column \"speed\"");
    CHECK_BAD("algo,type,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,reps\n",
              "line 1: the header lacks the column \"ops\"");
    CHECK_BAD("algo,type,n,n,median_us,gb_per_s,frac_of_copy,ratio_to_cub,ops,reps\n",
              "line 1, column 4: header column \"n\" appears twice");
    CHECK_BAD(HEADER "hs,int32,1024,1,1,,,1\n",
              "line 2: 8 columns, expected 9 as in the header");
    CHECK_BAD(HEADER "hs,int32,1024,1,1,,,1,1,1\n",
              "line 2: 10 columns, expected 9 as in the header");
    CHECK_BAD(HEADER "thrust,int32,1024,1,1,,,1,1\n",
              "line 2, column 1 (algo): unknown algorithm \"thrust\" (expected copy, cub, hs, "
              "hs-lookback, hs-naive, blelloch or cpu)");
    CHECK_BAD(HEADER "hs,int64,1024,1,1,,,1,1\n",
              "line 2, column 2 (type): unknown type \"int64\" (expected int32 or float32)");
    CHECK_BAD(HEADER "hs,int32,1024,-2.5,1,,,1,1\n",
              "line 2, column 4 (median_us): -2.5 is negative");
    CHECK_BAD(HEADER "hs,int32,1024,1,1,-0.5,,1,1\n",
              "line 2, column 6 (frac_of_copy): -0.5 is negative");
    CHECK_BAD(HEADER "hs,int32,1024,1,,,,1,1\n",
              "line 2, column 5 (gb_per_s): the field is empty");
    CHECK_BAD(HEADER "hs,int32,1000.5,1,1,,,1,1\n",
              "line 2, column 3 (n): 1000.5 is not a whole number >= 1");
    CHECK_BAD(HEADER "hs,int32,0,1,1,,,1,1\n",
              "line 2, column 3 (n): 0 is not a whole number >= 1");
    CHECK_BAD(HEADER "hs,int32,1024,1,1,,,1,0\n",
              "line 2, column 9 (reps): 0 is not a whole number >= 1");
    CHECK_BAD(HEADER "hs,int32,1024,nan,1,,,1,1\n",
              "line 2, column 4 (median_us): \"nan\" is not a number");
    CHECK_BAD(HEADER "hs,int32,1024,1,inf,,,1,1\n",
              "line 2, column 5 (gb_per_s): \"inf\" is not a number");
    CHECK_BAD(HEADER "hs,int32,0x400,1,1,,,1,1\n",
              "line 2, column 3 (n): \"0x400\" is not a number");
    CHECK_BAD(HEADER "hs,int32,1024,1,1,,,1e999,1\n",
              "line 2, column 8 (ops): \"1e999\" is not a number");
    CHECK_BAD("\r\n" HEADER "hs,int32,1024,1,1,,,12 3,1\r\n",
              "line 3, column 8 (ops): \"12 3\" is not a number");
    CHECK_BAD("# gpu: x\n\n", "no header line: expected algo,type,n,median_us,gb_per_s,"
                              "frac_of_copy,ratio_to_cub,ops,reps");
    CHECK_BAD("", "no header line: expected algo,type,n,median_us,gb_per_s,"
                  "frac_of_copy,ratio_to_cub,ops,reps");

    char err[512] = "";
    sv_bench_table *t = sv_bench_table_load("/nonexistent/dir/x.csv", err, sizeof err);
    CHECK(t == NULL);
    CHECK_STR(err, "/nonexistent/dir/x.csv: cannot open: No such file or directory");
    /* A load error names the file before the line. */
    char path[] = "/tmp/test_bench_csv-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        FILE *f = fdopen(fd, "w");
        fputs(HEADER "hs,int32,1024,1,1,,,x,1\n", f);
        fclose(f);
        t = sv_bench_table_load(path, err, sizeof err);
        CHECK(t == NULL);
        char want[600];
        snprintf(want, sizeof want, "%s: line 2, column 8 (ops): \"x\" is not a number", path);
        CHECK_STR(err, want);
        unlink(path);
    }
    /* A tiny error buffer is filled, truncated, never overrun. */
    char small[8];
    memset(small, 'Z', sizeof small);
    t = sv_bench_table_parse("nope\n", small, 6);
    CHECK(t == NULL);
    CHECK_INT(strlen(small), 5);
    CHECK(small[6] == 'Z' && small[7] == 'Z');
}

/* Writes t to a temporary file and returns the text. */
static char *write_text(const sv_bench_table *t)
{
    char path[] = "/tmp/test_bench_csv-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    char err[256] = "";
    bool ok = sv_bench_table_write(t, f, err, sizeof err);
    CHECK_MSG(ok, "%s", err);
    fclose(f);
    char *s = slurp(path);
    unlink(path);
    return s;
}

static void test_round_trip(const char *fixture)
{
    char err[512] = "";
    char *orig = slurp(fixture);
    CHECK(orig != NULL);
    sv_bench_table *a = sv_bench_table_load(fixture, err, sizeof err);
    CHECK_MSG(a != NULL, "%s", err);
    if (!a || !orig) {
        free(orig);
        sv_bench_table_destroy(a);
        return;
    }
    /* The fixture is written in the writer's own precision: byte for byte. */
    char *text = write_text(a);
    CHECK(text != NULL);
    CHECK_MSG(text && strcmp(text, orig) == 0, "writer output differs from the fixture:\n%s",
              text ? text : "(null)");
    sv_bench_table *b = text ? sv_bench_table_parse(text, err, sizeof err) : NULL;
    CHECK_MSG(b != NULL, "%s", err);
    if (b) {
        CHECK_INT(b->nrows, a->nrows);
        CHECK_STR(b->gpu, a->gpu);
        CHECK_STR(b->date, a->date);
        for (size_t i = 0; i < a->nrows && i < b->nrows; i++) {
            const sv_bench_row *x = &a->rows[i], *y = &b->rows[i];
            CHECK_STR(x->algo, y->algo);
            CHECK(x->n == y->n && x->median_us == y->median_us && x->gb_per_s == y->gb_per_s);
            CHECK((isnan(x->ops) && isnan(y->ops)) || x->ops == y->ops);
            CHECK((isnan(x->frac_of_copy) && isnan(y->frac_of_copy)) ||
                  x->frac_of_copy == y->frac_of_copy);
            CHECK(x->reps == y->reps);
        }
    }
    /* A table built in memory, as scanviz-bench builds it: NAN fields are
     * written empty and read back as NAN; a newline in the metadata cannot
     * break the file. */
    sv_bench_row rows[2] = {
        { "cub", "float32", 1 << 20, 12.25, 685.12, NAN, 1.0, 2097152, 50 },
        { "blelloch", "float32", 1 << 20, 30.5, 275.03, NAN, 2.4898, NAN, 50 },
    };
    sv_bench_table c = { .rows = rows, .nrows = 2 };
    snprintf(c.gpu, sizeof c.gpu, "GPU\nwith newline");
    snprintf(c.command, sizeof c.command, "scanviz-bench --csv out.csv");
    char *ctext = write_text(&c);
    CHECK(ctext != NULL);
    sv_bench_table *d = ctext ? sv_bench_table_parse(ctext, err, sizeof err) : NULL;
    CHECK_MSG(d != NULL, "%s\n%s", err, ctext ? ctext : "");
    if (d) {
        CHECK_STR(d->gpu, "GPU with newline");
        CHECK_STR(d->command, "scanviz-bench --csv out.csv");
        CHECK_STR(d->date, "");
        CHECK_INT(d->nrows, 2);
        CHECK(isnan(d->rows[0].frac_of_copy) && d->rows[0].ratio_to_cub == 1.0);
        CHECK(d->rows[1].ratio_to_cub == 2.4898 && isnan(d->rows[1].ops));
        CHECK(d->rows[1].gb_per_s == 275.03);
    }
    CHECK(!sv_bench_table_write(NULL, stdout, err, sizeof err));
    sv_bench_table_destroy(NULL);
    free(ctext);
    sv_bench_table_destroy(d);
    free(text);
    free(orig);
    sv_bench_table_destroy(a);
    sv_bench_table_destroy(b);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FIXTURE.csv\n", argv[0]);
        return 2;
    }
    test_fixture(argv[1]);
    test_loose_but_valid();
    test_line_ends_and_subnormals();
    test_bad();
    test_round_trip(argv[1]);
    return check_status();
}
