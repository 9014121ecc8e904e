/* The check of the test programs outside tests/core: a failed CHECK prints
 * file:line, the condition and a message, is counted in `failures`, and the
 * test carries on; main reports and returns non-zero when failures > 0.
 * Define CHECK_PRINT_LIMIT before including to print only the first few. */
#ifndef SV_TEST_EXPECT_H
#define SV_TEST_EXPECT_H

#include <stdio.h>

#ifndef CHECK_PRINT_LIMIT
#define CHECK_PRINT_LIMIT 1000000
#endif

static int failures;

#define CHECK(cond, ...)                                                            \
    do {                                                                            \
        if (!(cond)) {                                                              \
            if (failures < CHECK_PRINT_LIMIT) {                                     \
                fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                                       \
                fputc('\n', stderr);                                                \
            }                                                                       \
            failures++;                                                             \
        }                                                                           \
    } while (0)

#endif
