/* The one assertion kit of the C tests: a failed check prints file:line, the
 * condition and what differed, is counted in `failures`, and the test
 * carries on; main returns check_status() (non-zero when any failed), or
 * check_report("all ... passed") to say so on success.
 *   CHECK(cond)               the condition alone
 *   CHECK_MSG(cond, fmt, ...) with a printf message
 *   CHECK_INT(a, b)           two integers, both printed
 *   CHECK_STR(a, b)           two strings, both printed
 *   CHECK_CONTAINS(hay, needle)
 * Define CHECK_PRINT_LIMIT before including to print only the first few.
 * check_tmpdir() makes the test's scratch folder; check_temporaries() counts
 * the all-or-nothing writer's leftovers in one. */
#ifndef SV_TEST_EXPECT_H
#define SV_TEST_EXPECT_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CHECK_PRINT_LIMIT
#define CHECK_PRINT_LIMIT 1000000
#endif

static int failures;

#define CHECK_FAILED_(...)                                                          \
    do {                                                                            \
        if (failures < CHECK_PRINT_LIMIT) {                                         \
            fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                         \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
        }                                                                           \
        failures++;                                                                 \
    } while (0)

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond))                                                                \
            CHECK_FAILED_("check failed: %s", #cond);                               \
    } while (0)

#define CHECK_MSG(cond, ...)                                                        \
    do {                                                                            \
        if (!(cond)) {                                                              \
            if (failures < CHECK_PRINT_LIMIT) {                                     \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__,    \
                        #cond);                                                     \
                fprintf(stderr, __VA_ARGS__);                                       \
                fputc('\n', stderr);                                                \
            }                                                                       \
            failures++;                                                             \
        }                                                                           \
    } while (0)

#define CHECK_INT(a, b)                                                             \
    do {                                                                            \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);             \
        if (check_a_ != check_b_)                                                   \
            CHECK_FAILED_("%s == %s failed: %lld vs %lld", #a, #b, check_a_, check_b_); \
    } while (0)

#define CHECK_STR(a, b)                                                             \
    do {                                                                            \
        const char *check_a_ = (a), *check_b_ = (b);                                \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0)              \
            CHECK_FAILED_("%s == %s failed:\n  got      \"%s\"\n  expected \"%s\"", #a, #b, \
                          check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)"); \
    } while (0)

#define CHECK_CONTAINS(hay, needle)                                                 \
    do {                                                                            \
        const char *check_h_ = (hay), *check_n_ = (needle);                         \
        if (!check_h_ || !strstr(check_h_, check_n_))                               \
            CHECK_FAILED_("\"%s\" does not contain \"%s\"", check_h_ ? check_h_ : "(null)", \
                          check_n_);                                                \
    } while (0)

static inline int check_status(void)
{
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}

/* check_status(), printing passed on stdout when every check passed. */
static inline int check_report(const char *passed)
{
    if (!failures)
        printf("%s\n", passed);
    return check_status();
}

/* Makes a fresh folder $TMPDIR/NAME-XXXXXX (/tmp without TMPDIR) into dir;
 * exits 1 when it cannot (mkdtemp: _POSIX_C_SOURCE 200809, as meson.build
 * sets). */
static inline void check_tmpdir(char *dir, size_t len, const char *name)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, len, "%s/%s-XXXXXX", base, name);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
}

/* How many of folder's entries are the writer's temporary files (".tmp-" in
 * the name, core/fileio.c): 0 after every write, failed or not. */
static inline int check_temporaries(const char *folder)
{
    int n = 0;
    DIR *d = opendir(folder);
    for (struct dirent *e; d && (e = readdir(d));)
        n += strstr(e->d_name, ".tmp-") != NULL;
    if (d)
        closedir(d);
    return n;
}

#endif
