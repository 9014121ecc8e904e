/* Private to the scene (layout.c, frame.c, pane_rows.c, words.c, render_*.c):
 * what a step shows (layout.c), and the pieces of the frame each file draws.
 * Not part of the app's contract. */
#ifndef SV_SCENE_H
#define SV_SCENE_H

#include "render.h"
#include "theme.h"

/* sv_step_view, what one step of the timeline is: steps.h (view.h includes it). */

/* The step view of step k of view s (clamped to the trace); false without a trace. */
bool sv_scene_step(const sv_app_view *s, int k, sv_step_view *out);

/* The ease-in-out curve of the step animation, t in [0, 1]. */
float sv_scene_ease(float t);

/* Whether s is animating a move from from_step to step (one step forward). */
bool sv_scene_moving(const sv_app_view *s);

/* The output row (row 3) at step v: the cell of the last round that output
 * cell i holds, or -1 when it holds none yet (before the last step) or ever
 * (cell 0 of an exclusive scan). */
int sv_scene_output_source(const sv_trace *t, const sv_step_view *v, int i);

/* The value of a cell as the current step shows it: false where the cell is
 * empty (unwritten buffer cell, output before it is written). */
bool sv_scene_value(const sv_app_view *s, const sv_step_view *v, int row, int i,
                    sv_value *out);

/* Whether cell (row, i) shows `?` at step v: a buffer cell never written,
 * or an output cell copied from one (a mistake that writes no else). */
bool sv_scene_unknown(const sv_app_view *s, const sv_step_view *v, int row, int i);

/* Predict mode: the row a question at step v asks about (the destination
 * row: buf[0] in round 0, pout in a round, the output at the shift); -1
 * when no question is open (s->quiz_asking false). */
int sv_scene_quiz_row(const sv_app_view *s, const sv_step_view *v);

/* Whether cell (row, i) is hidden as `?` by an open question: the asked
 * row, and the output row when this step fills it. */
bool sv_scene_hidden(const sv_app_view *s, const sv_step_view *v, int row);

/* Each file's part of the frame. */
void sv_render_header(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t);
/* A kernel file's run going on, in words: "running… · launch 1: 384 of
 * 1024 blocks · 1.2 s of at most 21 s" (the header, and the pane before the
 * first trace). */
void sv_render_krun_words(const sv_app_krun *r, char *buf, size_t len);
void sv_render_cells(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t);
/* The kernel pane's drawing (pane_kernel.c). */
void sv_render_kernel(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t);
void sv_render_overlay(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t);
/* The overview (render_overview.c): every round stacked, in area. */
void sv_render_overview(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t,
                        sv_box area);
/* A kernel trace's overview (pane_kernel_overview.c): every step stacked,
 * each as the row it wrote, in area. */
void sv_render_kernel_overview(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                               const sv_theme *t, sv_box area);
/* Where the overview goes in layout l: from the rows' top to above the
 * legend, leaving room for a script's caption when there is one. */
sv_box sv_scene_overview_area(const sv_app_view *s, const sv_layout *l);
void sv_render_source(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t);
/* The exercise's panel (render_exercise.c), when view.exercise is set. */
void sv_render_exercise(sv_gfx *g, const sv_app_view *s, const sv_layout *l, const sv_theme *t);
/* A kernel trace's own source (view.ktrace), its marked lines (render_source.c). */
void sv_render_kernel_source(sv_gfx *g, const sv_app_view *s, const sv_layout *l,
                             const sv_theme *t);

/* The input window [*lo, i] whose op a shown cell holds;
 * false when the cell holds none (unwritten, empty output, output[0] of an
 * exclusive scan). */
bool sv_scene_window(const sv_app_view *s, const sv_step_view *v, int row, int i,
                     int *lo);

/* The two operands' windows of pout[i] in round v (>= 1, a cell that
 * combines): pin[i-s] holds input[*left_lo .. i-s], pin[i] holds
 * input[*right_lo .. i]; side by side they make pout[i]'s window. */
void sv_scene_operand_windows(const sv_step_view *v, int i, int *left_lo, int *right_lo);

/* The cell the tooltip is about: the pinned one, else the hovered one. */
bool sv_scene_tooltip_target(const sv_app_view *s, int *row, int *cell);

/* The drawing helpers (scene_draw.c). Text px that makes utf8 at most
 * max_w wide (px itself when it fits). */
float sv_scene_fit_px(sv_gfx *g, sv_font font, float px, float max_w, const char *utf8);

/* Draws utf8 at the px that makes it at most max_w wide (sv_scene_fit_px),
 * but never below least: there it is cut with an ellipsis instead (the
 * first SV_WRAP_MAX - 1 bytes at most). Returns the advance drawn. */
float sv_scene_text_fit(sv_gfx *g, sv_font font, float px, float least, float max_w,
                        float x, float y, sv_align align, sv_rgba col, const char *utf8);

/* Splits utf8 at spaces into lines that each fit max_w at px (a word wider
 * than that goes alone on its line), keeping the first max of them in out;
 * returns how many lines it needs, which may be more than max. */
#define SV_WRAP_MAX 512
int sv_scene_wrap(sv_gfx *g, sv_font font, float px, float max_w, const char *utf8,
                  char (*out)[SV_WRAP_MAX], int max);

/* The mistakes lab's outcome for a cell as step v shows it: the summary
 * cell of the round that wrote the shown value (*round, when not NULL);
 * NULL without a lab or for a cell no round of the kernel wrote. */
const sv_lab_cell *sv_scene_lab_cell(const sv_app_view *s, const sv_step_view *v, int row,
                                     int i, int *round);

/* The mistakes lab, from the shown run rather than the chapter's rules:
 * the first pout cell of round v whose value is not the chapter kernel's
 * (or unwritten), -1 none or without a lab; the read thread i made in slot
 * (NULL: it made none, or no reads are known: a GPU run); the operations
 * the shown run did in round v (threads that read both operands). */
int sv_scene_lab_first_broken(const sv_app_view *s, const sv_step_view *v);
const sv_lab_read *sv_scene_lab_read(const sv_app_view *s, const sv_step_view *v, int i,
                                     sv_read_slot slot);
size_t sv_scene_lab_ops(const sv_app_view *s, const sv_step_view *v);

/* Diagonal hatch lines across b, gap apart, w wide: the
 * pattern of a divergent cell. */
void sv_scene_hatch(sv_gfx *g, sv_box b, float gap, float w, sv_rgba col);

/* The op's verb for captions ("adds", "takes the max with", ...). */
const char *sv_scene_op_verb(sv_op op);

#endif
