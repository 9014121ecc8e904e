/* The renderers: draw a view (view.h) through sv_gfx, reading the view, the
 * trace and the bench table only, never changing them. The same calls draw
 * the window and the offscreen export. */
#ifndef SV_RENDER_H
#define SV_RENDER_H

#include "gfx.h"
#include "view.h"

/* Where things are on screen for a view and a framebuffer size, so that
 * event handling can hit-test exactly what was drawn. All in framebuffer
 * pixels. Two parts: the frame's (frame.c: header, bottom band, input box,
 * source panel, units) and the pane's (pane.h: for the Hillis-Steele pane,
 * pane_rows.c: the four rows and their cells), which the pane's layout
 * fills in the area the frame leaves it. */
/* The most rows a pane lays out (the kernel pane: input, its arrays' rows, out). */
#define SV_LAYOUT_ROWS 12
struct sv_pane_fns;
typedef struct sv_layout {
    /* The frame (frame.c). */
    float unit;              /* geometry: cells, margins, gaps (height / 100, narrowed by
                                a tall window, times ui_scale) */
    float text_u;            /* text: height / 100 times ui_scale (capped) */
    int fb_w, fb_h;          /* the framebuffer this layout is for */
    float margin;
    float title_px, label_px, small_px, caption_px;
    float legible_px;        /* the least text size anything that must be read takes:
                                2.1 % of the height (docs/user-guide.md) */
    sv_box header, caption, legend, counters, timeline, input_box;
    /* The input box's rows (render_overlay.c draws them), as offsets from its
     * top: the title line's middle, the field's top and height, the error
     * line's and the hint's middles; hint false when the box has no room
     * for it (the error, when there is one, comes first). */
    struct { float title_y, field_y, field_h, error_y, hint_y; bool hint; } input_rows;
    int legend_lines;        /* the legend's lines: 1, or 2 where its terse words would not
                                fit one at the legible size (render_overlay.c flows them) */
    int caption_bold;        /* the caption's bold lines (it wraps onto them) */
    sv_box verdict;          /* the lab's verdict, its own lines above the counters;
                                h = 0 without a lab */
    sv_box help_hint;        /* the [?] in the header */
    sv_box source_box;       /* the header's source line (right half, left of the [?]):
                                hovering it shows the whole line */
    sv_box code_panel;       /* the source panel (view.code); w = 0 when off */
    sv_box exercise_panel;   /* the exercise's panel (view.exercise); w = 0 when off */
    float timeline_x[SV_MAX_STEPS];    /* centre of each step's dot */
    int steps;
    float timeline_y, timeline_r;
    const struct sv_pane_fns *pane; /* the pane that draws the trace (pane.h) */
    float ui_scale;          /* the UI scale this layout is for (above 1 the pane packs
                                its rows tighter and its numbers larger) */

    /* The pane: the Hillis-Steele rows (pane_rows.c). */
    sv_box rows_area;        /* the pane's rows, with their labels */
    float row_y[SV_LAYOUT_ROWS]; /* vertical centre of each row: the Hillis-Steele pane's
                                    input, buf[0], buf[1], output; the kernel pane's rows */
    int nrows;               /* rows laid out (0 counts as the Hillis-Steele pane's 4) */
    float cell_x0;           /* left edge of cell 0 (after zoom and pan) */
    float cell_pitch;        /* distance between cell origins */
    float cell_w, cell_h;
    int n;                   /* cells per row (0 without a trace) */
    sv_box cells_clip;       /* where cells are drawn: right of the labels */
    sv_box label_col;        /* the row labels */
    sv_box tag[4];           /* the pin/pout tag of rows 1 and 2 (0 and 3 unused) */
    int first_cell, last_cell; /* cells in view (culling); last < first when none */
    float num_px;            /* the numbers' text size; 0 when they do not fit */
    sv_float_style num_style; /* one float32 notation for the trace's cells (core/table.h) */
    float radius, border_w;  /* cells' corner radius and border width */
    float row_label_px, row_sub_px; /* the row labels' name and memory lines */
    float row_label_dy, row_sub_dy; /* how far above / below a row's centre they sit */
    float tag_px;            /* the pin/pout tags' word */
    float index_y, index_px; /* the index line under the output row */
    float warp_label_y;      /* n > SV_WARP: the "warp k" labels' centre line, above the input row */
} sv_layout;

/* Where the source panel's lines are drawn (render_source.c), so that tests
 * can find the highlighted line's pixels. Lines are 1-based. */
struct sv_source_file;
typedef struct sv_code_geo {
    const struct sv_source_file *file;
    int nlines;
    int first, count;        /* the first line shown and how many rows fit */
    int cols;                /* characters a row holds: a longer line wraps onto
                              * more rows, each continuation marked in the gutter */
    float px, pitch;         /* text size (the small text's, following the UI
                              * scale) and row pitch */
    float y0;                /* centre of the first shown line */
    float title_y;
    float gutter_x, text_x;  /* right edge of the line numbers; left edge of the code */
    int hl_lo, hl_hi;        /* the phase's lines; 0 when none */
} sv_code_geo;

/* Fills out for view v drawn with layout l; false when the panel is off. */
bool sv_code_geometry(const sv_app_view *v, const sv_layout *l, sv_code_geo *out);
/* The centre y of the first row of line (1-based) in the panel. */
float sv_code_line_y(const sv_code_geo *g, int line);
/* How many rows line (1-based) takes in the panel (1, or more when wrapped). */
int sv_code_line_rows(const sv_code_geo *g, int line);

/* The box of cell i in row (0..3), as drawn (pane_rows.c). */
sv_box sv_layout_cell(const sv_layout *l, int row, int i);

/* Fills out for view v drawn at fb_w x fb_h: the frame, then the pane (frame.c). */
void sv_layout_compute(const sv_app_view *v, int fb_w, int fb_h, sv_layout *out);

/* The cell under (x, y), asked of the pane: true with *row (0..3) and *cell set. */
bool sv_layout_hit_cell(const sv_layout *l, float x, float y, int *row, int *cell);
/* The timeline step under (x, y), or -1. */
int sv_layout_hit_step(const sv_layout *l, float x, float y);

/* Draws one whole frame of the scan view (or the Measure view when
 * v->view says so) into the bound framebuffer of fb_w x fb_h. */
void sv_render_frame(sv_gfx *g, const sv_app_view *v, int fb_w, int fb_h);
/* The most lines the exercise's panel (v->exercise) can scroll at this
 * size: 0 when its text all fits (or no panel shows); *page: the lines its
 * body shows at once. The main loop gives both to the app after each frame
 * (sv_app_exercise_scroll_room), so that the scroll keys stop where the
 * text ends. */
int sv_render_exercise_scroll_max(sv_gfx *g, const sv_app_view *v, int fb_w, int fb_h,
                                  int *page);

/* The Measure view alone, in box: throughput against n (log scale, one line
 * per algorithm, the copy bound as the ceiling) and operations against n.
 * Shows a placeholder message when table is NULL. (render_plot.c) */
/* The same with the curves of the NULL-ended algorithm names in focus drawn
 * as ever and the rest pale (focus NULL: all as ever); the compare view's
 * M shows hs-naive and blelloch so. */
void sv_render_plot_focus(sv_gfx *g, const sv_bench_table *table, const char *source,
                          sv_box box, const sv_theme *theme, float unit,
                          const char *const *focus);
void sv_render_plot(sv_gfx *g, const sv_bench_table *table, const char *source,
                    sv_box box, const sv_theme *theme, float unit);

#endif
