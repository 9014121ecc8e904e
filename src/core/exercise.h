/* Exercises (issue 19): the chapter as a sequence of kernels to write, each
 * a folder as the build writes it from assets/exercises/NAME/ (into the
 * build tree, and installed under share/scanviz/exercises):
 *   statement.txt  a few lines in the chapter's words
 *   start.cu       the starting kernel file, the part to write marked
 *   check.txt      the check's specification (below)
 *   hint-1.txt ..  hints, gentle to explicit (up to SV_EXERCISE_MAX_HINTS)
 *   solution.cu    a reference solution
 * and `sequence` lists the names in the chapter's order.
 *
 * check.txt, one key a line, '#' starts a comment:
 *   title TEXT
 *   op sum|max|min|product|xor      type int32|float32
 *   scan inclusive|exclusive
 *   output scan | output round R    what out[] must hold: the scan, or the
 *                                   windows of round R (out[i] = op over
 *                                   in[max(0, i - 2^R + 1) .. i])
 *   rounds chapter | rounds any     chapter: every step read as a round must
 *                                   hold its invariant (no broken reading)
 *   input V V V ...                 an input set (repeatable)
 *   random N N ...                  seeded random inputs of these sizes
 *   seed S                          their seed (default 1)
 *   schedules lockstep reverse random:1 warps:1 ...
 *   runs R                          runs of each seeded schedule (default 2)
 *   time-limit SECONDS              per run (default 2)
 *   bank-conflicts N                at most N shared-memory bank conflicts in
 *                                   a run, loads and stores together, as ncu
 *                                   counts them (judged where the run counted
 *                                   them: the CPU runtime)
 *
 * This module is the model: the spec, where exercises are, and the judgement
 * of one analyzed kernel trace against a spec, in words a student can act
 * on. Running the kernel is capture's (src/capture/exercise_run.h).
 * Nothing here prints or exits. */
#ifndef SV_EXERCISE_H
#define SV_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ktrace.h"
#include "lab_schedule.h"
#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SV_EXERCISE_MAX_NAME 48
#define SV_EXERCISE_MAX_INPUTS 24
#define SV_EXERCISE_MAX_SCHEDULES 8
#define SV_EXERCISE_MAX_HINTS 3
#define SV_EXERCISE_MAX_LIST 64
#define SV_EXERCISE_MAX_FILE (64 * 1024) /* statement, hint, check: bytes */

typedef struct sv_exercise_input {
    sv_value *values;
    size_t n;
    bool random;       /* seeded: --random n --seed seed */
    uint64_t seed;
} sv_exercise_input;

typedef struct sv_exercise_spec {
    char name[SV_EXERCISE_MAX_NAME];
    char title[128];
    sv_op op;
    sv_type type;
    sv_scan scan;
    int output_round;      /* 0: the scan; R >= 1: round R's windows */
    bool rounds;           /* rounds chapter */
    size_t ninputs;
    sv_exercise_input inputs[SV_EXERCISE_MAX_INPUTS];
    size_t nschedules;
    sv_schedule schedules[SV_EXERCISE_MAX_SCHEDULES];
    uint32_t runs;         /* per seeded schedule */
    uint32_t time_limit_ms;
    bool banks;            /* bank-conflicts N given */
    uint64_t max_banks;
} sv_exercise_spec;

/* Parses check.txt's text into spec (name copied). false with err naming
 * the line and the word. Frees nothing of a previous spec. */
bool sv_exercise_spec_parse(const char *name, const char *text, sv_exercise_spec *spec,
                            char *err, size_t errlen);
void sv_exercise_spec_free(sv_exercise_spec *spec);

/* ---- Where exercises are ---------------------------------------------- */

/* Whether name is an exercise's name in form: 1..47 of [a-z0-9-]. */
bool sv_exercise_name_ok(const char *name);
/* The exercises' folder: $SCANVIZ_EXERCISES, else the first of dirs[] (the
 * install's and the build tree's, given by the caller) holding `sequence`.
 * false with err when none does. */
bool sv_exercise_root(const char *const *dirs, size_t ndirs, char *root, size_t len, char *err,
                      size_t errlen);
/* sv_exercise_root over the install's folder (share/scanviz/exercises) and
 * the source tree's, as the build names them. */
bool sv_exercise_find_root(char *root, size_t len, char *err, size_t errlen);
/* The names of root/sequence in order; returns the count (0 with err on
 * failure). */
size_t sv_exercise_list(const char *root, char names[][SV_EXERCISE_MAX_NAME], size_t max,
                        char *err, size_t errlen);
/* root/name/file read whole (at most limit bytes), NUL-terminated; the
 * caller frees. NULL with err when name is not an exercise or the file is
 * missing. */
char *sv_exercise_read(const char *root, const char *name, const char *file, size_t limit,
                       char *err, size_t errlen);
/* Loads root/name/check.txt. */
bool sv_exercise_load(const char *root, const char *name, sv_exercise_spec *spec, char *err,
                      size_t errlen);
/* How many hint-K.txt files the exercise has. */
unsigned sv_exercise_hint_count(const char *root, const char *name);

/* ---- The judgement ----------------------------------------------------- */

typedef enum sv_exercise_verdict {
    SV_EXERCISE_PASSED,
    SV_EXERCISE_RACE,        /* a hazard was found */
    SV_EXERCISE_ROUND,       /* a step broke its round's invariant */
    SV_EXERCISE_OUTPUT,      /* out[] is not what the exercise asks */
    SV_EXERCISE_REFUSED,     /* does not compile, wrong signature, #include */
    SV_EXERCISE_RUN,         /* crash, out of range, deadlock, time, memory */
    SV_EXERCISE_UNAVAILABLE, /* no C++ compiler */
    SV_EXERCISE_INTERNAL,
    SV_EXERCISE_BANKS        /* more bank conflicts than bank-conflicts N allows */
} sv_exercise_verdict;

/* "passed", "race", "round", "output", "does not compile", "failed while
 * running", "unavailable", "internal", "bank conflicts". */
const char *sv_exercise_verdict_name(sv_exercise_verdict v);
/* scanviz-trace's exit status for v: 0, 4, 4, 4, 2, 5, 3, 1, 4. */
int sv_exercise_exit_status(sv_exercise_verdict v);

/* Judges trace t (analyzed; run on spec->inputs[input]) against spec, in the
 * order a student should fix things: a failure, then a race, then a broken
 * round (rounds chapter), then the output, then the bank conflicts. words gets the first failure
 * ("race: thread 33 read s[32] while thread 32 wrote it (lines 14 and 14)",
 * "round 2, cell 5 holds 12; the window [2, 5] sums to 16", "thread 0 read
 * buf[-1] ...") followed by the input and schedule that show it, as options
 * to scanviz-trace. Escaped (names and messages come from files). */
sv_exercise_verdict sv_exercise_judge(const sv_exercise_spec *spec, size_t input,
                                      const sv_ktrace *t, char *words, size_t len);

/* The input as scanviz-trace options: --input "3 1 7" or --random 13 --seed 1. */
char *sv_exercise_input_words(const sv_exercise_spec *spec, size_t input, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
