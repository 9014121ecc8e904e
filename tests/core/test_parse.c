/* Input parsing: separators, comments, every kind of bad input with its exact
 * message, reading files, and the seeded random arrays (pinned values, so a
 * change of generator or range is noticed). */
#include <math.h>
#include <stdlib.h>

#include "../expect.h"
#include "parse.h"

/* Parses text expecting failure with exactly want. */
#define EXPECT_ERROR(text, type, max_n, want) \
    do { \
        char err_[256] = ""; \
        sv_value *v_ = (sv_value *)1; \
        size_t n_ = 99; \
        CHECK(!sv_parse_values((text), (type), (max_n), &v_, &n_, err_, sizeof err_)); \
        CHECK(v_ == NULL); \
        CHECK_INT(n_, 0); \
        CHECK_STR(err_, want); \
    } while (0)

/* Text the parser must refuse, and the whole message it must give. */
typedef struct bad_text {
    const char *text, *want;
} bad_text;

/* Bad int32 tokens name their number, text, line, column and reason. */
static const bad_text bad_int32[] = {
    { "3 1 x7",
      "token 3 \"x7\" (line 1, column 5): not an integer" },
    { "1 2\n  3 4.5",
      "token 4 \"4.5\" (line 2, column 5): not an integer" },
    { "1e3",
      "token 1 \"1e3\" (line 1, column 1): not an integer" },
    { "0x10",
      "token 1 \"0x10\" (line 1, column 1): not an integer" },
    { "1 - 2",
      "token 2 \"-\" (line 1, column 3): not an integer" },
    { "# c\n1,2,2147483648",
      "token 3 \"2147483648\" (line 2, column 5): out of int32 range" },
    { "-2147483649",
      "token 1 \"-2147483649\" (line 1, column 1): out of int32 range" },
    { "99999999999999999999999",
      "token 1 \"99999999999999999999999\" (line 1, column 1): out of int32 range" },
    { "1 2 0123456789012345678901234567890123456789xyz",
      "token 3 \"0123456789012345678901234567890123456789...\" (line 1, column 5): not an integer" },
};

/* Bad float32 tokens likewise. */
static const bad_text bad_float32[] = {
    { "1 inf",
      "token 2 \"inf\" (line 1, column 3): not a finite number" },
    { "nan",
      "token 1 \"nan\" (line 1, column 1): not a finite number" },
    { "-Infinity",
      "token 1 \"-Infinity\" (line 1, column 1): not a finite number" },
    { "1e39",
      "token 1 \"1e39\" (line 1, column 1): out of float32 range" },
    { "1.5 x",
      "token 2 \"x\" (line 1, column 5): not a number" },
    { "1.5.2",
      "token 1 \"1.5.2\" (line 1, column 1): not a number" },
    { "1 0x10",
      "token 2 \"0x10\" (line 1, column 3): not a number" },
    { "0x1p-3",
      "token 1 \"0x1p-3\" (line 1, column 1): not a number" },
    { "",
      "no values" },
};

static size_t parse_ok(const char *text, sv_type type, sv_value **v)
{
    char err[256];
    size_t n = 0;
    CHECK_MSG(sv_parse_values(text, type, SV_MAX_N, v, &n, err, sizeof err), "\"%s\": %s", text, err);
    return n;
}

int main(void)
{
    sv_value *v = NULL;
    size_t n;

    /* Separators: spaces, tabs, commas, newlines (LF and CRLF), comments. */
    n = parse_ok("3 1 7 0 4 1 6 3", SV_TYPE_INT32, &v);
    CHECK_INT(n, 8);
    CHECK(v && v[2].i == 7 && v[7].i == 3);
    free(v);
    n = parse_ok("# the chapter's example\n3,1,\t7 ,0\r\n4 1 # and more\n6,3 # end", SV_TYPE_INT32, &v);
    CHECK_INT(n, 8);
    static const int32_t want8[8] = {3, 1, 7, 0, 4, 1, 6, 3};
    for (size_t i = 0; v && i < 8; i++)
        CHECK_INT(v[i].i, want8[i]);
    free(v);
    n = parse_ok("5#comment right after a token\n+6 -7", SV_TYPE_INT32, &v);
    CHECK_INT(n, 3);
    CHECK(v && v[0].i == 5 && v[1].i == 6 && v[2].i == -7);
    free(v);
    n = parse_ok("2147483647 -2147483648", SV_TYPE_INT32, &v);
    CHECK(n == 2 && v[0].i == INT32_MAX && v[1].i == INT32_MIN);
    free(v);

    /* Bad tokens name their number, text, line, column and reason. */
    for (size_t k = 0; k < sizeof bad_int32 / sizeof bad_int32[0]; k++)
        EXPECT_ERROR(bad_int32[k].text, SV_TYPE_INT32, SV_MAX_N, bad_int32[k].want);

    /* Empty input, comments only, too many values. */
    EXPECT_ERROR("", SV_TYPE_INT32, SV_MAX_N, "no values");
    EXPECT_ERROR(" ,, \n\t# nothing here\n", SV_TYPE_INT32, SV_MAX_N, "no values");
    {
        char *big = malloc(1025 * 2 + 1);
        for (int i = 0; i < 1025; i++) {
            big[2 * i] = '1';
            big[2 * i + 1] = ' ';
        }
        big[2 * 1025] = '\0';
        EXPECT_ERROR(big, SV_TYPE_INT32, SV_MAX_N, "1025 values: more than the block limit of 1024");
        big[2 * 1024] = '\0';
        n = parse_ok(big, SV_TYPE_INT32, &v);
        CHECK_INT(n, 1024);
        free(v);
        free(big);
    }
    EXPECT_ERROR("1 2 3 4 5 6 7 8 9", SV_TYPE_INT32, 8, "9 values: more than the block limit of 8");

    /* float32 */
    n = parse_ok("0.1 -0 1e-30, 3.4028235e38 2.5", SV_TYPE_FLOAT32, &v);
    CHECK_INT(n, 5);
    if (v) {
        CHECK(v[0].f == 0.1f);
        CHECK_INT(v[1].bits, 0x80000000u);
        CHECK(v[2].f == 1e-30f);
        CHECK(v[3].f == 3.4028235e38f);
    }
    free(v);
    for (size_t k = 0; k < sizeof bad_float32 / sizeof bad_float32[0]; k++)
        EXPECT_ERROR(bad_float32[k].text, SV_TYPE_FLOAT32, SV_MAX_N, bad_float32[k].want);

    /* Files. */
    {
        char err[256];
        char *text = sv_read_file("/nonexistent/scanviz-input.txt", err, sizeof err);
        CHECK(text == NULL);
        CHECK_STR(err, "/nonexistent/scanviz-input.txt: cannot open: No such file or directory");
        char path[] = "/tmp/sv-parse-XXXXXX";
        FILE *f = NULL;
        int fd = mkstemp(path);
        if (fd >= 0)
            f = fdopen(fd, "w");
        CHECK(f != NULL);
        if (f) {
            fputs("# saved input\n3 1 7 0\n4 1 6 3\n", f);
            fclose(f);
            text = sv_read_file(path, err, sizeof err);
            CHECK_MSG(text != NULL, "%s", err);
            CHECK_STR(text, "# saved input\n3 1 7 0\n4 1 6 3\n");
            n = text ? parse_ok(text, SV_TYPE_INT32, &v) : 0;
            CHECK_INT(n, 8);
            free(v);
            free(text);
            remove(path);
        }
    }

    /* Random arrays: deterministic, within the documented ranges, and pinned
     * (splitmix64; parse.c documents the mapping). */
    for (int ty = 0; ty < SV_TYPE_COUNT; ty++) {
        for (int op = 0; op < SV_OP_COUNT; op++) {
            char err[128];
            if (!sv_op_valid((sv_op)op, (sv_type)ty, err, sizeof err))
                continue;
            sv_value *a = sv_random_values((sv_op)op, (sv_type)ty, 1000, 7);
            sv_value *b = sv_random_values((sv_op)op, (sv_type)ty, 1000, 7);
            sv_value *c = sv_random_values((sv_op)op, (sv_type)ty, 1000, 8);
            CHECK(a && b && c);
            if (!a || !b || !c)
                continue;
            CHECK(memcmp(a, b, 1000 * sizeof *a) == 0);
            CHECK(memcmp(a, c, 1000 * sizeof *a) != 0);
            for (int i = 0; i < 1000; i++) {
                if (ty == SV_TYPE_INT32) {
                    int32_t x = a[i].i;
                    switch (op) {
                    case SV_OP_SUM: CHECK(x >= 0 && x <= 9); break;
                    case SV_OP_PRODUCT: CHECK(x == 1 || x == -1 || x == 2); break;
                    case SV_OP_XOR: CHECK(x >= 0 && x <= 255); break;
                    default: CHECK(x >= -99 && x <= 99); break;
                    }
                } else {
                    float x = a[i].f;
                    switch (op) {
                    case SV_OP_SUM: CHECK(x >= 0.0f && x <= 9.99f); break;
                    case SV_OP_PRODUCT: CHECK(fabsf(x) >= 0.5f && fabsf(x) <= 2.0f); break;
                    default: CHECK(x >= -99.9f && x <= 99.9f); break;
                    }
                }
            }
            free(a);
            free(b);
            free(c);
        }
    }
    {
        /* seed 7: the values every machine must produce */
        static const int32_t pinned_sum[8] = {9, 0, 9, 3, 0, 7, 4, 9};
        sv_value *a = sv_random_values(SV_OP_SUM, SV_TYPE_INT32, 8, 7);
        for (int i = 0; a && i < 8; i++)
            CHECK_INT(a[i].i, pinned_sum[i]);
        free(a);
        static const float pinned_fsum[4] = {7.29f, 3.8f, 3.09f, 4.53f};
        a = sv_random_values(SV_OP_SUM, SV_TYPE_FLOAT32, 4, 7);
        for (int i = 0; a && i < 4; i++)
            CHECK_MSG(a[i].f == pinned_fsum[i], "float sum value %d: %.9g", i, (double)a[i].f);
        free(a);
    }
    return check_status();
}
