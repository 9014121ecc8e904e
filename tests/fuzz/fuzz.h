/* What the libFuzzer harnesses share: the input as a C string, the rule
 * that a refusal has a message, reading the input with a parser, and
 * writing an accepted object to memory.
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

/* Defines static TYPE *NAME(const uint8_t *data, size_t size): the fuzzer's
 * bytes as text, read by READER (sv_trace_parse, sv_bench_table_parse:
 * text, error buffer, its size); NULL when refused, which must say why
 * (fuzz_refused). */
#define FUZZ_READER(name, type, reader)                                        \
    static type *name(const uint8_t *data, size_t size)                        \
    {                                                                          \
        char err[512];                                                         \
        char *text = fuzz_text(data, size);                                    \
        if (!text)                                                             \
            return NULL;                                                       \
        err[0] = '\0';                                                         \
        type *obj = reader(text, err, sizeof err);                             \
        free(text);                                                            \
        if (!obj)                                                              \
            fuzz_refused(err);                                                 \
        return obj;                                                            \
    }

/* Defines static TYPE *NAME(const char *text): what the writer wrote of an
 * accepted object (a WHAT: "table", "trace"), read again by READER; a
 * refusal aborts, printing the message and the text. */
#define FUZZ_REREAD(name, type, reader, what)                                  \
    static type *name(const char *text)                                        \
    {                                                                          \
        char err[512] = "";                                                    \
        type *obj = reader(text, err, sizeof err);                             \
        if (!obj) {                                                            \
            fprintf(stderr, "an accepted %s, written, is refused: %s\n%s\n", what, err, \
                    text);                                                     \
            abort();                                                           \
        }                                                                      \
        return obj;                                                            \
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

/* The whole harness of a format with a reader and a writer:
 * LLVMFuzzerTestOneInput reads the fuzzer's bytes as TYPE with READER
 * (a refusal must say why); what it accepts, WRITER writes and READER
 * accepts again, SAME(t, u) (aborts when the re-read u is not t) holds, and
 * writing is stable: with EXACT the re-read object writes the same bytes
 * as the first writing, without it (a writer that rounds once) from the
 * second writing on. DESTROY frees a TYPE; WHAT names it in messages. */
#define FUZZ_ROUND_TRIP(type, reader, writer, destroy, what, same, exact)      \
    FUZZ_READER(fuzz_read_, type, reader)                                      \
    FUZZ_REREAD(fuzz_reread_, type, reader, what)                              \
    FUZZ_WRITER(fuzz_write_, type, writer)                                     \
    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)               \
    {                                                                          \
        type *t = fuzz_read_(data, size);                                      \
        if (!t)                                                                \
            return 0;                                                          \
        size_t l1 = 0, l2 = 0, l3 = 0;                                         \
        char *c1 = fuzz_write_(t, &l1);                                        \
        type *u = fuzz_reread_(c1);                                            \
        same(t, u);                                                            \
        char *c2 = fuzz_write_(u, &l2);                                        \
        type *v = fuzz_reread_(c2);                                            \
        char *c3 = fuzz_write_(v, &l3);                                        \
        if ((exact && (l1 != l2 || memcmp(c1, c2, l1) != 0)) || l2 != l3 ||    \
            memcmp(c2, c3, l2) != 0) {                                         \
            fprintf(stderr, "writing the %s again gives other bytes:\n%s\n---\n%s\n", \
                    what, exact ? c1 : c2, exact ? c2 : c3);                   \
            abort();                                                           \
        }                                                                      \
        free(c1);                                                              \
        free(c2);                                                              \
        free(c3);                                                              \
        destroy(t);                                                            \
        destroy(u);                                                            \
        destroy(v);                                                            \
        return 0;                                                              \
    }

#endif
