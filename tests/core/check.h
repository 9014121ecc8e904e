/* A tiny assertion kit for the core tests: each failure prints file:line and
 * what differed, the test carries on, and main returns check_status(). */
#ifndef SV_TEST_CHECK_H
#define SV_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;

#define CHECK(cond) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            check_failures++; \
        } \
    } while (0)

#define CHECK_MSG(cond, ...) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__); \
            fputc('\n', stderr); \
            check_failures++; \
        } \
    } while (0)

#define CHECK_INT(a, b) \
    do { \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
        if (check_a_ != check_b_) { \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld vs %lld\n", __FILE__, __LINE__, \
                    #a, #b, check_a_, check_b_); \
            check_failures++; \
        } \
    } while (0)

#define CHECK_STR(a, b) \
    do { \
        const char *check_a_ = (a), *check_b_ = (b); \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) { \
            fprintf(stderr, "%s:%d: %s == %s failed:\n  got      \"%s\"\n  expected \"%s\"\n", \
                    __FILE__, __LINE__, #a, #b, check_a_ ? check_a_ : "(null)", \
                    check_b_ ? check_b_ : "(null)"); \
            check_failures++; \
        } \
    } while (0)

/* Whether haystack contains needle; prints both when not. */
#define CHECK_CONTAINS(hay, needle) \
    do { \
        const char *check_h_ = (hay), *check_n_ = (needle); \
        if (!check_h_ || !strstr(check_h_, check_n_)) { \
            fprintf(stderr, "%s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__, \
                    check_h_ ? check_h_ : "(null)", check_n_); \
            check_failures++; \
        } \
    } while (0)

static int check_status(void)
{
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures ? 1 : 0;
}

#endif
