/* SDL's events into the state: the window's (minimised, shown, left,
 * focus), keys (app_keys.c), typed text for the input box, and the mouse:
 * click (the [?], the timeline, a cell to pin), hover, drag and wheel. */
#include <math.h>

#include "app_internal.h"
#include "util.h"
#include "wake.h"

static void to_fb(const sv_app_state *s, float wx, float wy, float *x, float *y)
{
    float rx = s->win_w > 0 ? (float)s->fb_w / (float)s->win_w : 1.0f;
    float ry = s->win_h > 0 ? (float)s->fb_h / (float)s->win_h : 1.0f;
    *x = wx * rx;
    *y = wy * ry;
}

static bool in_box(const sv_box *b, float x, float y)
{
    return x >= b->x && x < b->x + b->w && y >= b->y && y < b->y + b->h;
}

/* Whether the mouse is over the exercise's panel (the wheel scrolls it). */
static bool over_exercise_panel(const sv_app_state *s)
{
    if (!s->ex)
        return false;
    sv_layout l;
    sv_app_layout_of(s, &l);
    return l.exercise_panel.w > 0.0f && in_box(&l.exercise_panel, s->mouse_x, s->mouse_y);
}

static void click(sv_app_state *s, float x, float y)
{
    sv_layout l;
    sv_app_layout_of(s, &l);
    /* The [?] in the header opens the help; a click anywhere closes it. */
    if (s->help) {
        s->help = false;
        return;
    }
    if (!s->editing && !s->clean && in_box(&l.help_hint, x, y)) { /* --clean hides it */
        s->help = true;
        return;
    }
    if (s->view != SV_VIEW_SCAN || !s->trace)
        return;
    if (s->compare) { /* two timelines, no tooltips */
        sv_app_compare_click(s, x, y);
        return;
    }
    int k = sv_layout_hit_step(&l, x, y);
    if (k >= 0) {
        sv_app_go_step(s, k);
        return;
    }
    int row, cell;
    if (sv_layout_hit_cell(&l, x, y, &row, &cell)) {
        /* A question: a click on the asked row selects the cell (and
         * cycles its mark when the question is about cases). */
        if (s->quiz_asking && row == sv_app_quiz_row(s, s->step)) {
            sv_app_quiz_select(s, cell);
            if (sv_app_quiz_kind_at(s, s->step) != SV_QUIZ_VALUES)
                sv_app_quiz_cycle_mark(s, cell);
            return;
        }
        if (s->pinned_row == row && s->pinned_cell == cell)
            s->pinned_row = s->pinned_cell = -1;
        else {
            s->pinned_row = row;
            s->pinned_cell = cell;
        }
    } else {
        s->pinned_row = s->pinned_cell = -1;
    }
}

static void hover(sv_app_state *s)
{
    s->hover_row = s->hover_cell = -1;
    s->hover_source = false;
    if (s->view != SV_VIEW_SCAN || !s->trace || s->dragging || s->compare)
        return;
    sv_layout l;
    sv_app_layout_of(s, &l);
    const sv_box *b = &l.source_box;
    s->hover_source = s->mouse_x >= b->x && s->mouse_x < b->x + b->w &&
                      s->mouse_y >= b->y && s->mouse_y < b->y + b->h;
    int row, cell;
    if (sv_layout_hit_cell(&l, s->mouse_x, s->mouse_y, &row, &cell)) {
        s->hover_row = row;
        s->hover_cell = cell;
    }
}

void sv_app_event(sv_app_state *s, const SDL_Event *e)
{
    if (sv_wake_is(e)) { /* a worker is done: the background capture's result */
        sv_app_bg_finish(s);
        return;
    }
    switch (e->type) {
    case SDL_QUIT:
        s->quit = true;
        break;
    case SDL_WINDOWEVENT:
        switch (e->window.event) {
        case SDL_WINDOWEVENT_MINIMIZED:
        case SDL_WINDOWEVENT_HIDDEN:
            sv_app_set_minimised(s, true);
            break;
        case SDL_WINDOWEVENT_RESTORED:
        case SDL_WINDOWEVENT_MAXIMIZED:
        case SDL_WINDOWEVENT_SHOWN:
        case SDL_WINDOWEVENT_EXPOSED:
            s->minimised = false;
            break;
        case SDL_WINDOWEVENT_LEAVE:
            s->hover_row = s->hover_cell = -1;
            break;
        case SDL_WINDOWEVENT_FOCUS_LOST:
            s->dragging = false;
            s->press_on_canvas = false;
            break;
        default:
            break;
        }
        break;
    case SDL_KEYDOWN: {
        uint64_t before = s->editing ? sv_app_edit_hash(s) : 0;
        sv_app_key(s, &e->key);
        if (s->editing && sv_app_edit_hash(s) != before)
            sv_app_edit_revalidate(s);
        break;
    }
    case SDL_TEXTINPUT:
        if (s->editing) {
            uint64_t before = sv_app_edit_hash(s);
            sv_app_edit_insert(s, e->text.text);
            if (sv_app_edit_hash(s) != before)
                sv_app_edit_revalidate(s);
        }
        break;
    case SDL_MOUSEMOTION: {
        float x, y;
        to_fb(s, (float)e->motion.x, (float)e->motion.y, &x, &y);
        float dx = x - s->mouse_x;
        s->mouse_x = x;
        s->mouse_y = y;
        if (s->press_on_canvas && s->view == SV_VIEW_SCAN) {
            if (!s->dragging && (fabsf(x - s->press_x) > SV_DRAG_PX ||
                                 fabsf(y - s->press_y) > SV_DRAG_PX))
                s->dragging = true;
            if (s->dragging) {
                sv_layout l;
                sv_app_layout_of(s, &l);
                if (l.cell_pitch > 0.0f)
                    sv_app_pan_by(s, -dx / l.cell_pitch);
            }
        }
        hover(s);
        break;
    }
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT) {
            float x, y;
            to_fb(s, (float)e->button.x, (float)e->button.y, &x, &y);
            s->mouse_x = s->press_x = x;
            s->mouse_y = s->press_y = y;
            s->press_on_canvas = true;
            s->dragging = false;
        }
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT) {
            float x, y;
            to_fb(s, (float)e->button.x, (float)e->button.y, &x, &y);
            if (s->press_on_canvas && !s->dragging)
                click(s, x, y);
            s->press_on_canvas = false;
            s->dragging = false;
            s->mouse_x = x;
            s->mouse_y = y;
            hover(s);
        }
        break;
    case SDL_MOUSEWHEEL:
        if (s->view == SV_VIEW_SCAN && !s->editing) {
            int dy = e->wheel.y, dx = e->wheel.x;
            if (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED) {
                dy = -dy;
                dx = -dx;
            }
            if (dy && over_exercise_panel(s)) /* the panel's text, not the cells */
                sv_app_exercise_scroll(s, -3 * sv_clampi(dy, -4, 4));
            else if (dy)
                sv_app_zoom_at(s, powf(1.25f, (float)sv_clampi(dy, -4, 4)), s->mouse_x);
            if (dx)
                sv_app_pan_by(s, (float)sv_clampi(dx, -4, 4));
        }
        break;
    default:
        break;
    }
}
