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

/* A stream into *buf (the caller frees it after fuzz_written). */
static inline FILE *fuzz_memstream(char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);
    if (!f)
        abort();
    return f;
}

/* Closes f after a writer ran; what was accepted must write (ok), else
 * aborts naming what and the writer's err. */
static inline void fuzz_written(FILE *f, bool ok, const char *what, const char *err)
{
    if (!ok) {
        fprintf(stderr, "cannot write an accepted %s: %s\n", what, err);
        abort();
    }
    fclose(f);
}

#endif
