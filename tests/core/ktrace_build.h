/* Hand-built kernel traces for the tests of core/ktrace (no runtime needed):
 * the chapter's rounds as a CPU runtime would record them, one thread at a
 * time, in a few styles and with the chapter's mistakes. Header-only. */
#ifndef SV_TEST_KTRACE_BUILD_H
#define SV_TEST_KTRACE_BUILD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/ktrace.h"

typedef enum kb_style {
    KB_DOUBLE,     /* extern buf[2n], buf[pout * n + i], the chapter's kernel */
    KB_IN_PLACE,   /* s[n], one barrier per round, threads in order (`sequential`):
                      thread i reads s[i - stride] after thread i - stride wrote it */
    KB_NO_ELSE,    /* the double buffer without the else copy */
    KB_TWO_BARRIER /* s[n], read, barrier, write, barrier */
} kb_style;

#define KB_CHECK(x)                                                         \
    do {                                                                    \
        if (!(x)) {                                                         \
            fprintf(stderr, "%s:%d: building a ktrace: %s\n", __FILE__, __LINE__, err); \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

/* One thread's read of cell c of array a (value as the step holds it now). */
static inline sv_kaccess kb_read(sv_ktrace *t, sv_kstep *s, uint16_t a, uint32_t c,
                                 uint32_t thread, int32_t line)
{
    char err[256];
    sv_kaccess r = {.thread = thread, .array = a, .cell = c, .line = line};
    r.value = a == SV_KARRAY_IN ? t->input[c] : s->cells[a][c];
    KB_CHECK(sv_kstep_add_read(t, s, &r, err, sizeof err));
    return r;
}

static inline void kb_write(sv_ktrace *t, sv_kstep *s, uint16_t a, uint32_t c, uint32_t thread,
                            sv_value v, int32_t line, uint32_t first_read)
{
    char err[256];
    sv_kaccess w = {.thread = thread, .array = a, .cell = c, .value = v, .line = line};
    KB_CHECK(sv_kstep_add_write(t, s, &w, first_read, (uint32_t)s->nreads - first_read, err,
                                sizeof err));
}

/* A trace of the chapter's sum scan of input[0..n) in the given style,
 * threads run in order within each step, lines 10 (staging), 12 (the
 * round's statement), 13 (its barrier), 20 (the copy back). Not analyzed. */
static inline sv_ktrace *kb_chapter(kb_style style, const int32_t *in, size_t n)
{
    char err[256];
    sv_value input[1024];
    for (size_t i = 0; i < n; i++)
        input[i].i = in[i];
    sv_ktrace *t = sv_ktrace_create("test", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, input, n,
                                    err, sizeof err);
    KB_CHECK(t);
    bool two_rows = style == KB_DOUBLE || style == KB_NO_ELSE;
    uint16_t A = (uint16_t)sv_ktrace_add_array(t, two_rows ? "buf" : "s", SV_KARRAY_SHARED,
                                               (uint32_t)(two_rows ? 2 * n : n),
                                               two_rows ? 2 : 1, err, sizeof err);
    uint16_t O = (uint16_t)sv_ktrace_add_array(t, "out", SV_KARRAY_OUT, (uint32_t)n, 1, err,
                                               sizeof err);
    KB_CHECK(A == 0 && O == 1);
    sv_kstep *s = sv_ktrace_add_step(t, 11, err, sizeof err);
    KB_CHECK(s);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = (uint32_t)s->nreads;
        kb_read(t, s, SV_KARRAY_IN, i, i, 10);
        kb_write(t, s, A, i, i, input[i], 10, f);
    }
    int pout = 0;
    for (size_t stride = 1; stride < n; stride *= 2) {
        int pin = two_rows ? pout : 0;
        pout = two_rows ? 1 - pout : 0;
        sv_value v[1024];
        if (style == KB_TWO_BARRIER) { /* the read step */
            s = sv_ktrace_add_step(t, 13, err, sizeof err);
            KB_CHECK(s);
            for (uint32_t i = 0; i < n; i++) {
                v[i] = kb_read(t, s, A, i, i, 11).value;
                if (i >= stride)
                    v[i] = sv_op_apply(SV_OP_SUM, SV_TYPE_INT32,
                                       kb_read(t, s, A, (uint32_t)(i - stride), i, 12).value, v[i],
                                       NULL);
            }
        }
        s = sv_ktrace_add_step(t, style == KB_TWO_BARRIER ? 15 : 13, err, sizeof err);
        KB_CHECK(s);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t f = (uint32_t)s->nreads;
            uint32_t pi = (uint32_t)(pin * n), po = (uint32_t)(pout * n);
            if (style == KB_TWO_BARRIER) {
                kb_write(t, s, A, i, i, v[i], 14, f);
            } else if (i >= stride) {
                sv_value a = kb_read(t, s, A, pi + i - (uint32_t)stride, i, 12).value;
                sv_value b = kb_read(t, s, A, pi + i, i, 12).value;
                kb_write(t, s, A, po + i, i, sv_op_apply(SV_OP_SUM, SV_TYPE_INT32, a, b, NULL), 12,
                         f);
            } else if (style != KB_NO_ELSE) {
                kb_write(t, s, A, po + i, i, kb_read(t, s, A, pi + i, i, 12).value, 12, f);
            }
        }
    }
    s = sv_ktrace_add_step(t, 0, err, sizeof err);
    KB_CHECK(s);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t f = (uint32_t)s->nreads;
        uint32_t c = (uint32_t)(pout * n) + i;
        if (!s->written[A][c])
            continue;
        sv_value v = kb_read(t, s, A, c, i, 20).value;
        kb_write(t, s, O, i, i, v, 20, f);
        sv_ktrace_set_output(t, i, v);
    }
    return t;
}

#endif
