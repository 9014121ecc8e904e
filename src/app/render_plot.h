/* The Measure view's pieces beyond sv_render_plot (render.h): where its
 * panels are, the colour of each algorithm, and the live-run progress bar.
 * Tests use the layout and colours to look at exactly what was drawn. */
#ifndef SV_RENDER_PLOT_H
#define SV_RENDER_PLOT_H

#include "../core/algo.h"
#include "gfx.h"
#include "theme.h"

typedef struct sv_plot_layout {
    sv_box header;      /* title and source lines */
    sv_box legend;
    sv_box panel[2];    /* 0: throughput, 1: operations; titles, ticks and all */
    sv_box area[2];     /* the plotting areas inside them (lines and markers) */
    bool side_by_side;  /* panels left and right (wide box) or stacked */
} sv_plot_layout;

/* unit is the layout unit (sv_layout.unit: a hundredth of a landscape
 * framebuffer's height, times ui_scale); the plot's body text is this many
 * units tall, and every other size follows from it. */
#define SV_PLOT_TEXT_UNITS 2.4f

/* The layout sv_render_plot uses for box and unit. g measures the legend's
 * labels (NULL: estimated from their length). */
void sv_plot_layout_compute(sv_gfx *g, sv_box box, float unit, sv_plot_layout *out);

/* The algorithms in legend order: the registry's (src/core/algo.h). */
#define SV_PLOT_NALGOS SV_ALGO_COUNT
const char *sv_plot_algo_name(int i);
/* An algorithm's line colour in theme (Okabe-Ito; copy takes the theme's
 * text colour, as the ceiling). Unknown names give text_dim. */
sv_rgba sv_plot_algo_color(const char *algo, const sv_theme *theme);

/* A progress bar with a label along the bottom of box, drawn over the plot
 * while a live run goes (progress 0 .. 1). */
void sv_render_plot_progress(sv_gfx *g, sv_box box, const sv_theme *theme, float unit,
                             float progress, const char *label);

#endif
