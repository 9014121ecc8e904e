/* The pane table: which functions draw, place, hit-test and word each kind
 * of trace. Only the frame (frame.c) asks for a pane; a pane's own files
 * never call back up into the frame. */
#include "kpane.h"

const sv_pane_fns sv_pane_hillis_steele = {
    .name = "hillis-steele",
    .caption_room = sv_rows_caption_room,
    .layout = sv_rows_layout,
    .draw = sv_render_cells,
    .hit = sv_rows_hit,
    .caption = sv_words_caption,
    .tooltip = sv_words_tooltip,
    .conditions = sv_words_case_conditions,
    .counters = sv_words_counters,
    .header = sv_words_header,
};

const sv_pane_fns *sv_pane_of(const sv_app_view *v)
{
    /* A kernel trace (issue 18) draws as what the kernel did; the chapter's
     * round-shaped trace as the Hillis-Steele rows. */
    if (v && v->ktrace)
        return &sv_pane_kernel;
    return &sv_pane_hillis_steele;
}
