/* The compare view (issue 20: --compare blelloch, key B): two panes of the
 * frame side by side on the same input, each with its own title, cells,
 * caption, counters and timeline:
 *   - pane 0, Hillis-Steele: the chapter's pane (pane_rows.c,
 *     render_cells.c) drawing view.trace at view.cmp_step[0];
 *   - pane 1, Blelloch: the kernel pane (pane_kernel.c) drawing
 *     view.cmp_ktrace, the CPU runtime's trace of kernels/blelloch.cu, at
 *     view.cmp_step[1];
 * and under both the chapter's trade-off with this input's numbers
 * (compare.h). The counts are the model's (compare.h), which
 * tests/runtime/test_blelloch checks against the runtime's trace. The
 * frame (frame.c) gives the header, units and input box; this file places
 * and draws the rest. Reads the view, never changes it. */
#ifndef SV_PANE_COMPARE_H
#define SV_PANE_COMPARE_H

#include "pane.h"

/* What the compare view says about pane k (0 Hillis-Steele, 1 Blelloch). */
typedef struct sv_cmp_words {
    char title[96];     /* "Hillis-Steele (the chapter's kernel)" */
    char stepping[48];  /* "steps with Right/Left" when it steps; "" when not */
    char caption[256];  /* the step in words (compare.h's captions) */
    char counters[96];  /* "ops this step 6 · total 13 · depth 2" */
    char run[96];       /* "whole run: 17 ops in 3 rounds" */
    char step[48];      /* "round 2 of 3", "step 5 of 8" */
} sv_cmp_words;

/* Fills out for pane k of v (v->compare with a trace); false without. */
bool sv_cmp_words_of(const sv_app_view *v, int k, sv_cmp_words *out);
/* The line under both panes: sequential's count and the trade-off. */
void sv_cmp_tradeoff_of(const sv_app_view *v, char *buf, size_t len);

/* The view pane k draws: v's copy with that pane's trace and step,
 * settled, without hover, quiz or overlays. */
void sv_cmp_pane_view(const sv_app_view *v, int k, sv_app_view *out);

/* Where the compare view's parts are (framebuffer pixels). */
typedef struct sv_cmp_layout {
    sv_box col[2];          /* each pane's column, framed */
    sv_box title[2];
    sv_layout pane[2];      /* each pane's layout: the frame's units, its own cells */
    sv_box caption[2], counters[2], run[2], timeline[2];
    float dot_x[2][SV_MAX_STEPS]; /* each step's dot */
    int steps[2];
    float dot_y[2], dot_r;
    sv_box tradeoff;        /* the trade-off line, across both */
    sv_box hint;            /* the keys (none with --clean) */
} sv_cmp_layout;

/* The compare view's layout inside frame (sv_layout_compute's, of v). */
void sv_cmp_layout_compute(const sv_app_view *v, const sv_layout *frame, sv_cmp_layout *out);
/* The timeline dot under (x, y): its step, *pane set; -1 none. */
int sv_cmp_hit_step(const sv_cmp_layout *c, float x, float y, int *pane);
/* Draws the compare view (both panes, their words, the trade-off line). */
void sv_render_compare(sv_gfx *g, const sv_app_view *v, const sv_layout *frame,
                       const sv_theme *t);

/* The Measure view opened from the compare view: the sentence on where the
 * extra work costs time on the table's GPU (compare.h), wrapped on two
 * lines from top; returns the height it took (0 without a table). */
float sv_render_compare_cost(sv_gfx *g, const sv_bench_table *table, const sv_layout *l,
                             float top, const sv_theme *t);

#endif
