/* The core tests' old name for the assertion kit: test_lab.c (from the lab
 * branch) still includes it. tests/expect.h is the one kit; drop this file
 * once test_lab.c includes "../expect.h". */
#ifndef SV_TEST_CHECK_H
#define SV_TEST_CHECK_H
#include "../expect.h"
#define check_failures failures
#endif
