/* What the libFuzzer harnesses share: the input as a C string, the rule
 * that a refusal has a message, and writing an accepted object to memory.
 * Header-only: run.sh builds each harness as one file with src/core. */
#ifndef SV_FUZZ_H
#define SV_FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fuzzer's bytes, NUL-terminated (the caller frees), or NULL. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

/* A refusal must say why: aborts on an empty message. */
static inline void fuzz_refused(const char *err)
{
    if (!err[0]) {
        fprintf(stderr, "refused without a message\n");
        abort();
    }
}

/* Defines static char *NAME(const TYPE *obj, size_t *len): what WRITER
 * (sv_trace_write, sv_bench_table_write) writes of obj, in memory (the caller
 * frees it). What the reader accepted must write: else it aborts. */
#define FUZZ_WRITER(name, type, writer)                                        \
    static char *name(const type *obj, size_t *len)                            \
    {                                                                          \
        char *buf = NULL, err[256];                                            \
        FILE *f = open_memstream(&buf, len);                                   \
        if (!f)                                                                \
            abort();                                                           \
        if (!writer(obj, f, err, sizeof err)) {                                \
            fprintf(stderr, "cannot write what was accepted (%s): %s\n", #writer, err); \
            abort();                                                           \
        }                                                                      \
        fclose(f);                                                             \
        return buf;                                                            \
    }

#endif
