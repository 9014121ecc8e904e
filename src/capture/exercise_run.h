/* The check of an exercise (issue 19): a student's kernel file run through
 * the runtime on every input of the exercise's spec (core/exercise.h) under
 * every schedule of it, on the CPU (where hazards are seen), and judged; it
 * stops at the first failure. Each run is a kernel run (kernel_run.h): the
 * runtime isolates it in a child process with the spec's time limit. */
#ifndef SV_EXERCISE_RUN_H
#define SV_EXERCISE_RUN_H

#include "../core/exercise.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_exercise_result {
    sv_exercise_verdict verdict;
    char words[2048];        /* "passed", or the first failure and its input */
    uint64_t hazards;        /* hazards found over every run done */
    size_t checks;           /* runtime calls made (input x schedule) */
    size_t ninputs, nschedules;
    double seconds;          /* wall time of the whole check */
    size_t input;            /* a failure: the spec's input that shows it */
    size_t schedule;         /* ... and the index of its schedule in the spec */
} sv_exercise_result;

/* Checks source (the file's text; path for messages and the compile cache)
 * against spec. time_limit_ms 0: the spec's. Returns false only when the
 * check itself could not run (err filled); a kernel's failure is a verdict. */
bool sv_exercise_check(const sv_exercise_spec *spec, const char *path, const char *source,
                       uint32_t time_limit_ms, sv_exercise_result *res, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
