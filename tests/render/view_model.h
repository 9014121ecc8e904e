/* What the scan view's tests build without a window: a trace from the
 * emulator and a view of it as app.c hands it out. Header-only, no GL;
 * view_test.h adds the context and the frames (test_words.c uses this
 * alone). */
#ifndef SV_TEST_VIEW_MODEL_H
#define SV_TEST_VIEW_MODEL_H

#include "emulate.h"
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The emulator's finished trace of v[0..n); exits on failure. */
static inline sv_trace *view_trace(const sv_value *v, size_t n, sv_type type, sv_op op,
                                   sv_scan scan)
{
    char err[256];
    sv_trace *t = sv_trace_create(op, type, scan, v, n, SV_BACKEND_CPU, NULL, err, sizeof err);
    if (!t || !sv_emulate(t, err, sizeof err) || !sv_trace_finish(t, err, sizeof err)) {
        fprintf(stderr, "%s:%d: FAIL: trace: %s\n", __FILE__, __LINE__, err);
        exit(1);
    }
    return t;
}

/* view_trace of int32 values (type int32). */
static inline sv_trace *view_trace_i32(const int32_t *in, size_t n, sv_op op, sv_scan scan)
{
    sv_value *v = calloc(n ? n : 1, sizeof *v);
    if (!v) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        v[i].i = in[i];
    sv_trace *t = view_trace(v, n, SV_TYPE_INT32, op, scan);
    free(v);
    return t;
}

/* A view of t as app.c would hand it out: settled at round 0, dark theme,
 * nothing open or hovered, every string empty but the source line. */
static inline void view_of(sv_app_view *s, const sv_trace *t)
{
    memset(s, 0, sizeof *s);
    s->trace = t;
    s->source = "CPU emulator: no CUDA device (test)";
    s->edit_text = s->edit_error = s->status = s->bench_source = "";
    s->kernel_file = s->lab_note = "";
    s->anim = 1.0f;
    s->view = SV_VIEW_SCAN;
    s->theme = SV_THEME_DARK;
    s->ui_scale = 1.0f;
    s->zoom = 1.0f;
    s->hover_row = s->hover_cell = -1;
    s->pinned_row = s->pinned_cell = -1;
}

/* The chapter's example (3 1 7 0 4 1 6 3, sum, inclusive) and a view of it
 * in s; the caller destroys the trace. */
static inline sv_trace *view_example(sv_app_view *s)
{
    static const int32_t ex[8] = {3, 1, 7, 0, 4, 1, 6, 3};
    sv_trace *t = view_trace_i32(ex, 8, SV_OP_SUM, SV_SCAN_INCLUSIVE);
    view_of(s, t);
    return t;
}

/* A view of kernel trace t at step `step`, as the app hands one out for a
 * kernel file (dark theme, scale 1, nothing hovered). */
static inline void view_of_ktrace(sv_app_view *v, const sv_ktrace *t, int step)
{
    memset(v, 0, sizeof *v);
    v->ktrace = t;
    v->kstep = step;
    v->anim = 1.0f;
    v->theme = SV_THEME_DARK;
    v->ui_scale = 1.0f;
    v->zoom = 1.0f;
    v->hover_row = v->hover_cell = v->pinned_row = v->pinned_cell = -1;
    v->source = "CPU runtime";
    v->edit_text = v->edit_error = v->status = v->kernel_file = v->lab_note = "";
    v->kerror = "";
}

#endif
