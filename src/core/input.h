/* The input of a scan, as both programs and the app's input box take it:
 * one of --input TEXT, --file PATH, - (stdin), --random N [--seed S], or
 * else the chapter's example. scanviz-trace and scanviz fill an sv_input
 * from their flags and read it here, so they agree on every rule:
 *   - at most one source; a second is refused naming both;
 *   - --random N: a whole decimal number 1 <= N <= SV_MAX_N (max_n: up to
 *     SV_MAX_N_BLOCKS for a kernel file with a host function);
 *   - --seed S: a whole decimal number 0 .. 2^64-1 (no sign, no hex), and
 *     only with --random (it seeds nothing else: refused without it);
 *   - text (--input, a file, stdin, the input box) is at most
 *     SV_LIMIT_VALUES bytes and SV_MAX_N values (parse.h's syntax).
 * Messages name the flag, its value and its argv position. */
#ifndef SV_INPUT_H
#define SV_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The chapter's example: the default input, the first preset. */
#define SV_CHAPTER_EXAMPLE "3 1 7 0 4 1 6 3"

/* The input box's presets (Ctrl+1 .. Ctrl+3); the first is the chapter's
 * example. */
#define SV_INPUT_PRESETS 3
extern const char *const sv_input_presets[SV_INPUT_PRESETS];

typedef enum sv_input_kind {
    SV_INPUT_EXAMPLE, /* nothing given */
    SV_INPUT_TEXT,    /* --input TEXT */
    SV_INPUT_FILE,    /* --file PATH */
    SV_INPUT_STDIN,   /* - */
    SV_INPUT_RANDOM   /* --random N [--seed S] */
} sv_input_kind;

typedef enum sv_input_status {
    SV_INPUT_OK,
    SV_INPUT_BAD,   /* bad input or usage: exit 2 */
    SV_INPUT_FAILED /* out of memory: exit 1 */
} sv_input_status;

typedef struct sv_input {
    sv_input_kind kind;
    const char *text;   /* SV_INPUT_TEXT (not copied: argv outlives it) */
    const char *path;   /* SV_INPUT_FILE */
    size_t random_n;    /* SV_INPUT_RANDOM */
    size_t max_n;       /* --random's limit: SV_MAX_N, or SV_MAX_N_BLOCKS for a kernel
                           file with a host function (sv_input_init: SV_MAX_N) */
    uint64_t seed;      /* 1 unless --seed */
    bool have_seed;
    int seed_arg;
    int sources;        /* sources given; more than one is refused */
    const char *first;  /* the first source's flag, and its argv index */
    int first_arg;
} sv_input;

void sv_input_init(sv_input *in);

/* One flag each. value is the flag's argument, argi its argv index (for the
 * message). Return false with err filled on a bad value. */
bool sv_input_set_text(sv_input *in, const char *value, int argi, char *err, size_t errlen);
bool sv_input_set_file(sv_input *in, const char *value, int argi, char *err, size_t errlen);
bool sv_input_set_stdin(sv_input *in, int argi, char *err, size_t errlen);
bool sv_input_set_random(sv_input *in, const char *value, int argi, char *err, size_t errlen);
bool sv_input_set_seed(sv_input *in, const char *value, int argi, char *err, size_t errlen);

/* The same by the flag's long name without dashes ("input", "file",
 * "random", "seed"), for the option table's rows (core/options.def, whose
 * ranges for --random and --seed are these): core/args.c calls it. */
bool sv_input_set_option(sv_input *in, const char *name, const char *value, int argi,
                         char *err, size_t errlen);

/* After all flags: one source at most, --seed only with --random. */
bool sv_input_validate(const sv_input *in, char *err, size_t errlen);

/* Where the values come from, for messages: "--input", the file's path,
 * "stdin", "--random", "the chapter's example". */
const char *sv_input_name(const sv_input *in);

/* Reads (bounded) and parses the input as values of type, or draws the
 * random values for op and type. On success *vals (the caller frees it) and
 * *n. On failure err = "SOURCE: reason" (the source named once), and the
 * status says which exit it deserves. */
sv_input_status sv_input_read(const sv_input *in, sv_op op, sv_type type, sv_value **vals,
                              size_t *n, char *err, size_t errlen);

/* The input box's text: at most SV_LIMIT_VALUES bytes and SV_MAX_N values.
 * len is the text's length in bytes (text need not be NUL-terminated): a
 * NUL byte inside it is refused (naming its position), never taken as the
 * end. */
sv_input_status sv_input_parse_text(const char *text, size_t len, sv_type type,
                                    sv_value **vals, size_t *n, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
