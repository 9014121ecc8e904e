/* Panes: the part of the scan view that draws one trace. The frame
 * (frame.c, render_frame.c, render_overlay.c: header, caption, legend,
 * counters, timeline, tooltip box) gives a pane its area and draws around
 * it; the pane says where its cells are, draws them, hit-tests them and
 * words them, through a small table of functions (mpv's ra_fns idea). A
 * second algorithm beside Hillis-Steele (Blelloch's tree, a student's own
 * kernel) is a new table and its files, not a fork of the frame.
 *
 * A pane's layout fills the pane fields of sv_layout (render.h: "the
 * pane"), and may read the frame fields, already set. Its functions read the
 * view and never change it. */
#ifndef SV_PANE_H
#define SV_PANE_H

#include "scene.h"
#include "words.h"

/* How many caption lines a pane's captions take (the frame makes room). */
typedef struct sv_caption_room {
    int bold;   /* the bold line's wrapped lines: 2 .. SV_CAPTION_BOLD_MAX */
    int small;  /* the small lines under it: 1 .. SV_CAPTION_SMALL_MAX */
} sv_caption_room;
#define SV_CAPTION_BOLD_MAX 3
#define SV_CAPTION_SMALL_MAX 4

typedef struct sv_pane_fns {
    const char *name;  /* "hillis-steele" */
    /* The caption lines the pane's captions wrap onto at width w, with bold
     * text of bold_px and small text of small_px: the most over the steps,
     * so that the cells do not jump from step to step. */
    sv_caption_room (*caption_room)(const sv_app_view *v, float w, float bold_px,
                                    float small_px);
    /* Fills l's pane fields for view v in area (the frame's fields are set). */
    void (*layout)(const sv_app_view *v, sv_box area, sv_layout *l);
    /* Draws the pane as l places it. */
    void (*draw)(sv_gfx *g, const sv_app_view *v, const sv_layout *l, const sv_theme *t);
    /* The cell under (x, y): true with *row and *cell set (either may be NULL). */
    bool (*hit)(const sv_layout *l, float x, float y, int *row, int *cell);
    /* The caption of the current step; false without a trace. */
    bool (*caption)(const sv_app_view *v, sv_caption_words *out);
    /* The tooltip of cell (row, cell); false when there is none. */
    bool (*tooltip)(const sv_app_view *v, int row, int cell, sv_tip_words *out);
    /* The three cases' conditions at the current step, for the legend ("i ≥ 3",
     * "2 ≤ i < 3", "i < 2"); false (all "") where the step is no round. */
    bool (*conditions)(const sv_app_view *v, char out[3][48]);
    /* The counters line and its note ("" none); false without a trace. */
    bool (*counters)(const sv_app_view *v, char *line, size_t n1, char *note, size_t n2);
    /* The header's title and the rest of its line. */
    void (*header)(const sv_app_view *v, const char **title, char *rest, size_t len);
} sv_pane_fns;

/* The four rows of the Hillis-Steele scan (pane_rows.c, render_cells.c). */
extern const sv_pane_fns sv_pane_hillis_steele;

/* The pane that draws view v's trace (panes.c); never NULL. */
const sv_pane_fns *sv_pane_of(const sv_app_view *v);

/* The caption lines view v's captions take over its steps 0 .. steps - 1
 * (at(c, k) makes copy c show step k; caption words it), at least room:
 * what a pane's caption_room returns (pane_rows.c). */
sv_caption_room sv_caption_room_over(const sv_app_view *v, int steps,
                                     void (*at)(sv_app_view *c, int k),
                                     bool (*caption)(const sv_app_view *c, sv_caption_words *out),
                                     sv_caption_room room, float w, float bold_px, float small_px);
/* Places l's n cells across l->cells_clip, each pane's row of cells: as wide
 * as fit (at most 22 units), times zoom, panned by pan cells when wider than
 * the clip; sets the pitch, width, first x, the cells in view, the corner
 * radius and the border (pane_rows.c). */
void sv_rows_place_cells(sv_layout *l, float zoom, float pan);
/* The row labels' sizes and offsets in l from its cell height: the name at
 * most name_share of the cell, the memory line at most a quarter, neither
 * below l->legible_px; the two lines' distances from the row's centre,
 * apart as far as their sizes need (pane_rows.c; both panes). */
void sv_rows_place_labels(sv_layout *l, float name_share);
/* The Hillis-Steele pane's geometry (pane_rows.c). */
sv_caption_room sv_rows_caption_room(const sv_app_view *v, float w, float bold_px,
                                     float small_px);
void sv_rows_layout(const sv_app_view *v, sv_box area, sv_layout *l);
bool sv_rows_hit(const sv_layout *l, float x, float y, int *row, int *cell);

#endif
