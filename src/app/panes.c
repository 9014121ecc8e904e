/* The pane table: which functions draw, place, hit-test and word each kind
 * of trace. Only the frame (frame.c) asks for a pane; a pane's own files
 * never call back up into the frame. */
#include "pane.h"

const sv_pane_fns sv_pane_hillis_steele = {
    .name = "hillis-steele",
    .caption_room = sv_rows_caption_room,
    .layout = sv_rows_layout,
    .draw = sv_render_cells,
    .hit = sv_rows_hit,
    .caption = sv_words_caption,
    .tooltip = sv_words_tooltip,
};

const sv_pane_fns *sv_pane_of(const sv_app_view *v)
{
    (void)v; /* one algorithm so far: every trace is a Hillis-Steele run */
    return &sv_pane_hillis_steele;
}
