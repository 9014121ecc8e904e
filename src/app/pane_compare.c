/* The compare view (pane_compare.h): Hillis-Steele's pane and Blelloch's,
 * side by side, each drawn by its own pane table (pane.h) in its column,
 * with its words and timeline under it, and the trade-off across both. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "kpane.h"
#include "pane_compare.h"
#include "util.h"
#include "words.h"

/* ---- words (pure) -------------------------------------------------------- */

/* Pane k's steps as drawn, at least 1. */
static int pane_steps(const sv_app_view *v, int k)
{
    int n = k == 0 ? sv_view_steps(v->trace) : v->cmp_ktrace ? sv_kpane_steps(v->cmp_ktrace) : 0;
    if (k == 1 && n == 0 && v->trace) /* not run: the model's, and the copy out */
        n = (int)sv_compare_nsteps(SV_COMPARE_BLELLOCH, v->trace->n) + 1;
    return n < 1 ? 1 : n;
}

static int pane_step(const sv_app_view *v, int k)
{
    return sv_clampi(v->cmp_step[k], 0, pane_steps(v, k) - 1);
}

/* Whether pane k steps with Right/Left now. */
static bool steps_now(const sv_app_view *v, int k)
{
    return v->cmp_focus == SV_CMP_BOTH || v->cmp_focus == (k == 0 ? SV_CMP_HS : SV_CMP_BLELLOCH);
}

/* Pane 0's trace (Hillis-Steele, maybe a mistake) counted as it ran, at
 * its step `step`: the ops of that step and up to it, and its depth (the
 * rounds so far that did an operation). */
static bool hs_counts(const sv_app_view *v, int step, size_t *now, size_t *total, int *depth)
{
    sv_app_view h = *v; /* with its lab fields: a mistake counts its own run */
    h.compare = false;
    h.step = h.from_step = step;
    int round;
    return sv_words_ops_at(&h, step, now, total, &round, depth);
}

/* The step after the model's last: Hillis-Steele's exclusive shift,
 * Blelloch's copy out. */
static void after_words(const sv_app_view *v, int k, sv_compare_algo a, size_t n,
                        sv_cmp_words *w)
{
    sv_compare_step s;
    sv_compare_step_at(a, n, sv_compare_nsteps(a, n) - 1, &s);
    bool exclusive = v->trace->scan == SV_SCAN_EXCLUSIVE;
    s.ops = 0; /* the shift and the exclusive output copy: no op */
    if (k == 1 && !exclusive) { /* out[i] = t[i] op in[i]: n more, as sv_compare_run counts */
        s.ops = n;
        s.total += n;
        s.depth += 1;
    }
    sv_compare_counters_of(&s, w->counters, sizeof w->counters);
    if (k == 0)
        snprintf(w->caption, sizeof w->caption, "the shift: out[i] takes cell i - 1, the "
                 "identity in front (the exclusive scan; no op)");
    else if (exclusive)
        snprintf(w->caption, sizeof w->caption, "the output: out[i] = t[i], the exclusive "
                 "scan (no op)");
    else
        snprintf(w->caption, sizeof w->caption, "the output: out[i] = t[i] %s in[i], the "
                 "inclusive scan (%zu more ops than the tree's)",
                 sv_op_symbol(v->trace->op), n);
}

bool sv_cmp_words_of(const sv_app_view *v, int k, sv_cmp_words *w)
{
    memset(w, 0, sizeof *w);
    if (!v || !v->trace || k < 0 || k > 1)
        return false;
    size_t n = v->trace->n;
    sv_compare_algo a = k == 0 ? SV_COMPARE_HILLIS_STEELE : SV_COMPARE_BLELLOCH;
    const sv_lab_record *lab = v->trace->lab;
    if (k == 0 && lab && lab->kernel != SV_KERNEL_CORRECT)
        snprintf(w->title, sizeof w->title, "Hillis-Steele: %s (a mistake)",
                 sv_kernel_name(lab->kernel));
    else
        snprintf(w->title, sizeof w->title, "%s", k == 0 ? "Hillis-Steele (the chapter's kernel)"
                                                         : "Blelloch (work-efficient, two sweeps)");
    if (steps_now(v, k))
        snprintf(w->stepping, sizeof w->stepping, "%s",
                 v->cmp_focus == SV_CMP_BOTH ? "stepping (both)" : "stepping");
    int step = pane_step(v, k), model = (int)sv_compare_nsteps(a, n);
    if (step < model) {
        sv_compare_caption(a, n, (size_t)step, sv_op_name(v->trace->op), w->caption,
                           sizeof w->caption);
        sv_compare_counters(a, n, (size_t)step, w->counters, sizeof w->counters);
    } else {
        after_words(v, k, a, n, w);
    }
    char run[sizeof w->run - 16];
    size_t now, total;
    int round;
    if (k == 0 && lab && lab->kernel != SV_KERNEL_CORRECT) {
        /* a mistake's step in its own words (the lab's), not the chapter's */
        sv_app_view h = *v;
        h.compare = false;
        h.step = h.from_step = step;
        sv_caption_words cw;
        if (sv_pane_of(&h)->caption(&h, &cw))
            snprintf(w->caption, sizeof w->caption, "%.255s", cw.line1);
    }
    if (k == 0 && hs_counts(v, step, &now, &total, &round)) {
        /* what this trace did, a mistake's own count included */
        sv_compare_counters_of(&(sv_compare_step){.ops = now, .total = total,
                                                  .depth = (size_t)round},
                               w->counters, sizeof w->counters);
    }
    if (k == 0 && hs_counts(v, pane_steps(v, 0) - 1, &now, &total, &round))
        snprintf(run, sizeof run, "%zu %s in %d %s", total,
                 sv_compare_noun(sv_op_name(v->trace->op)), round, round == 1 ? "round" : "rounds");
    else
        sv_compare_run_words(a, n, v->trace->scan != SV_SCAN_EXCLUSIVE,
                             sv_compare_noun(sv_op_name(v->trace->op)), run, sizeof run);
    snprintf(w->run, sizeof w->run, "whole run: %s", run);
    snprintf(w->step, sizeof w->step, "%s %d of %d", k == 0 ? "round" : "step", step,
             pane_steps(v, k) - 1);
    return true;
}

void sv_cmp_tradeoff_of(const sv_app_view *v, char *buf, size_t len)
{
    if (!v || !v->trace) {
        snprintf(buf, len, "no trace");
        return;
    }
    size_t now, total;
    int round;
    bool inclusive = v->trace->scan != SV_SCAN_EXCLUSIVE;
    if (hs_counts(v, pane_steps(v, 0) - 1, &now, &total, &round))
        sv_compare_tradeoff_counts(v->trace->n, inclusive, total, (size_t)round, buf, len);
    else
        sv_compare_tradeoff(v->trace->n, inclusive, buf, len);
}

void sv_cmp_pane_view(const sv_app_view *v, int k, sv_app_view *out)
{
    *out = *v;
    out->compare = false;
    out->anim = 1.0f;
    out->playing = false;
    out->phase = SV_PHASE_NONE;
    out->hover_row = out->hover_cell = out->pinned_row = out->pinned_cell = -1;
    out->hover_source = false;
    out->quiz = out->quiz_asking = false;
    out->overview = out->code = false;
    out->caption = NULL;
    out->help = out->editing = false;
    out->kcompare = NULL;
    out->kcompare_shown = false;
    out->kerror = "";
    out->kstale = false;
    out->ksource = NULL;
    out->lab = NULL;
    out->lab_reads = NULL;
    out->show_correct = false;
    if (k == 0) {
        out->ktrace = NULL;
        out->step = out->from_step = pane_step(v, 0);
    } else {
        out->ktrace = v->cmp_ktrace;
        out->kstep = pane_step(v, 1);
    }
}

/* ---- layout -------------------------------------------------------------- */

/* The dots of pane k's timeline in its box. */
static void place_dots(sv_cmp_layout *c, int k, float sp)
{
    sv_box b = c->timeline[k];
    int n = c->steps[k];
    c->dot_y[k] = b.y + 0.7f * sp;
    float x0 = b.x + 3.2f * sp, avail = b.w - 3.2f * sp - c->dot_r * 2.0f;
    float pitch = n > 1 ? fminf(2.6f * sp, avail / (float)(n - 1)) : 0.0f;
    for (int i = 0; i < n && i < SV_MAX_STEPS; i++)
        c->dot_x[k][i] = x0 + (float)i * pitch;
}

void sv_cmp_layout_compute(const sv_app_view *v, const sv_layout *f, sv_cmp_layout *c)
{
    memset(c, 0, sizeof *c);
    float W = (float)f->fb_w, H = (float)f->fb_h, m = f->margin, u = f->unit;
    float sp = f->small_px, lp = f->label_px;
    float top = f->header.y + f->header.h + 1.2f * u;
    float hint_h = v->clean ? 0.0f : 1.6f * sp;
    c->hint = (sv_box){ m, H - m - hint_h, W - 2 * m, hint_h };
    float trade_h = 3.0f * 1.4f * sp; /* the trade-off line: its claims need up to three */
    c->tradeoff = (sv_box){ m, c->hint.y - trade_h - 0.4f * u, W - 2 * m, trade_h };
    float gap = 2.5f * u, cw = (W - 2 * m - gap) / 2.0f;
    float bottom = c->tradeoff.y - 0.8f * u;
    c->dot_r = 0.42f * sp;
    for (int k = 0; k < 2; k++) {
        sv_box col = { m + (float)k * (cw + gap), top, cw, fmaxf(bottom - top, 1.0f) };
        c->col[k] = col;
        float p = 1.0f * u, x = col.x + p, w = col.w - 2 * p;
        c->title[k] = (sv_box){ x, col.y + 0.4f * u, w, 1.5f * lp };
        float y = col.y + col.h - p;
        c->timeline[k] = (sv_box){ x, y - 2.4f * sp, w, 2.4f * sp };
        y = c->timeline[k].y;
        c->run[k] = (sv_box){ x, y - 1.45f * sp, w, 1.45f * sp };
        c->counters[k] = (sv_box){ x, c->run[k].y - 1.45f * sp, w, 1.45f * sp };
        float cap_h = 2.0f * 1.35f * sp;
        c->caption[k] = (sv_box){ x, c->counters[k].y - cap_h - 0.2f * sp, w, cap_h };
        float ptop = c->title[k].y + c->title[k].h + 0.4f * u;
        sv_box area = { x, ptop, w, fmaxf(c->caption[k].y - 0.5f * u - ptop, 1.0f) };
        sv_app_view pv;
        sv_cmp_pane_view(v, k, &pv);
        sv_layout *pl = &c->pane[k];
        *pl = *f;
        pl->code_panel = (sv_box){ 0, 0, 0, 0 };
        pl->pane = sv_pane_of(&pv);
        if (k == 0 || pv.ktrace)
            pl->pane->layout(&pv, area, pl);
        else
            pl->rows_area = area;
        c->steps[k] = pane_steps(v, k);
        if (c->steps[k] > SV_MAX_STEPS)
            c->steps[k] = SV_MAX_STEPS;
        place_dots(c, k, sp);
    }
}

int sv_cmp_hit_step(const sv_cmp_layout *c, float x, float y, int *pane)
{
    for (int k = 0; k < 2; k++) {
        if (fabsf(y - c->dot_y[k]) > 2.0f * c->dot_r)
            continue;
        float half = c->steps[k] > 1 ? (c->dot_x[k][1] - c->dot_x[k][0]) / 2.0f : 2.0f * c->dot_r;
        half = fminf(half, 2.5f * c->dot_r);
        for (int i = 0; i < c->steps[k]; i++)
            if (fabsf(x - c->dot_x[k][i]) <= half) {
                if (pane)
                    *pane = k;
                return i;
            }
    }
    return -1;
}

/* ---- drawing ------------------------------------------------------------- */

/* Text wrapped into box at px, on at most max lines (the last one cut, and
 * then ending in an ellipsis: a sentence is never cut without a mark); too
 * long for them it is drawn smaller, but not below least. */
static void draw_wrapped(sv_gfx *g, sv_box b, float px, float least, sv_font font, sv_rgba col,
                         const char *text, int max)
{
    static char lines[4][SV_WRAP_MAX];
    if (max > 4)
        max = 4;
    int n = sv_scene_wrap(g, font, px, b.w, text, lines, max);
    if (n > max) { /* too long for its lines: smaller, then cut */
        px = fmaxf(fmaxf(px * 0.85f, fminf(least, px)), 1.0f);
        n = sv_scene_wrap(g, font, px, b.w, text, lines, max);
    }
    if (n > max) { /* the rest does not fit: say so where it stops */
        size_t u = strlen(lines[max - 1]);
        snprintf(lines[max - 1] + u, SV_WRAP_MAX - u, " \u2026");
    }
    float pitch = b.h / (float)max;
    for (int i = 0; i < n && i < max; i++) {
        char cut[SV_WRAP_MAX];
        sv_gfx_text_ellipsize(g, font, px, b.w, lines[i], cut, sizeof cut);
        sv_gfx_text(g, font, px, b.x, b.y + pitch * ((float)i + 0.5f), SV_ALIGN_LEFT, col, cut);
    }
}

static void draw_timeline(sv_gfx *g, const sv_cmp_layout *c, int k, int cur, float sp,
                          float least, const sv_theme *t)
{
    float y = c->dot_y[k], r = c->dot_r, u = sp / 2.5f;
    int n = c->steps[k];
    sv_gfx_text(g, SV_FONT_SANS, sp, c->timeline[k].x, y, SV_ALIGN_LEFT, t->text_dim, "step");
    if (n > 1)
        sv_gfx_line(g, c->dot_x[k][0], y, c->dot_x[k][n - 1], y, fmaxf(1.0f, 0.25f * u), t->grid);
    float lpx = fmaxf(sp * 0.85f, least); /* the labels, never below the legible size */
    bool labels = n < 2 || c->dot_x[k][1] - c->dot_x[k][0] >= 1.5f * lpx;
    for (int i = 0; i < n; i++) {
        float x = c->dot_x[k][i];
        if (i == cur) {
            sv_gfx_circle(g, x, y, r * 1.7f, t->bg, t->accent, fmaxf(1.5f, 0.3f * u));
            sv_gfx_circle(g, x, y, r, t->text, t->text, 0.0f);
        } else {
            sv_gfx_circle(g, x, y, r, i < cur ? t->text_dim : t->bg, t->text_dim,
                          i < cur ? 0.0f : fmaxf(1.0f, 0.22f * u));
        }
        if (labels || i == cur) {
            char lab[16];
            snprintf(lab, sizeof lab, "%d", i);
            sv_gfx_text(g, i == cur ? SV_FONT_SANS_BOLD : SV_FONT_SANS, lpx, x,
                        y + 1.3f * sp, SV_ALIGN_CENTER, i == cur ? t->text : t->text_dim, lab);
        }
    }
}

/* Pane k's column: frame, title, cells, words, timeline. */
static void draw_column(sv_gfx *g, const sv_app_view *v, const sv_cmp_layout *c, int k,
                        const sv_layout *f, const sv_theme *t)
{
    sv_cmp_words w;
    sv_cmp_words_of(v, k, &w);
    float u = f->unit, sp = f->small_px;
    bool on = w.stepping[0] != '\0';
    sv_gfx_rect(g, c->col[k], 0.8f * u, sv_rgba_alpha(t->bg, 0.0f), on ? t->accent : t->grid,
                fmaxf(1.0f, (on ? 0.3f : 0.15f) * u), SV_BORDER_SOLID);
    sv_box tb = c->title[k];
    float cy = tb.y + tb.h / 2.0f;
    /* The title left of "stepping (both)", never into it (issue 28): at the
     * label's size, fitted down to the legible size; past that without its
     * words in brackets ("Blelloch"), then cut. */
    float stepping_w = on && !v->clean
                           ? sv_gfx_text(g, SV_FONT_SANS_BOLD, sp, tb.x + tb.w, cy, SV_ALIGN_RIGHT,
                                         t->accent, w.stepping) + 1.2f * u
                           : 0.0f;
    float avail = fmaxf(tb.w - stepping_w, 1.0f), least = f->legible_px;
    char title[sizeof w.title];
    snprintf(title, sizeof title, "%s", w.title);
    char *paren = strstr(title, " (");
    if (paren && sv_scene_fit_px(g, SV_FONT_SANS_BOLD, f->label_px, avail, title) < least)
        *paren = '\0';
    sv_scene_text_fit(g, SV_FONT_SANS_BOLD, f->label_px, least, avail, tb.x, cy, SV_ALIGN_LEFT,
                      t->text, title);
    sv_app_view pv;
    sv_cmp_pane_view(v, k, &pv);
    const sv_layout *pl = &c->pane[k];
    if (k == 0 || pv.ktrace) {
        pl->pane->draw(g, &pv, pl, t);
    } else {
        sv_box a = pl->rows_area; /* Blelloch did not run: why, in its place */
        const char *why = v->cmp_error && v->cmp_error[0] ? v->cmp_error : "Blelloch did not run";
        draw_wrapped(g, (sv_box){ a.x, a.y + a.h / 2.0f - 1.4f * sp, a.w, 2.8f * sp }, sp,
                     f->legible_px, SV_FONT_SANS, t->error, why, 2);
    }
    sv_gfx_clip(g, NULL);
    draw_wrapped(g, c->caption[k], sp * 1.05f, f->legible_px, SV_FONT_SANS, t->text, w.caption,
                 2);
    sv_box b = c->counters[k];
    sv_scene_text_fit(g, SV_FONT_SANS_BOLD, sp, f->legible_px, b.w, b.x, b.y + b.h / 2.0f,
                      SV_ALIGN_LEFT, t->text, w.counters);
    b = c->run[k];
    sv_scene_text_fit(g, SV_FONT_SANS, sp, f->legible_px, b.w, b.x, b.y + b.h / 2.0f,
                      SV_ALIGN_LEFT, t->text_dim, w.run);
    draw_timeline(g, c, k, pane_step(v, k), sp, f->legible_px, t);
}

void sv_render_compare(sv_gfx *g, const sv_app_view *v, const sv_layout *f, const sv_theme *t)
{
    sv_cmp_layout c;
    sv_cmp_layout_compute(v, f, &c);
    for (int k = 0; k < 2; k++)
        draw_column(g, v, &c, k, f, t);
    char line[512];
    sv_cmp_tradeoff_of(v, line, sizeof line);
    draw_wrapped(g, c.tradeoff, f->small_px * 1.05f, f->legible_px, SV_FONT_SANS, t->text, line,
                 3);
    if (v->clean)
        return;
    static const char hint[] = "Right/Left step \u00b7 Tab: which pane steps \u00b7 "
                               "M the measured cost \u00b7 B back to the rounds \u00b7 H help";
    sv_box h = c.hint;
    sv_scene_text_fit(g, SV_FONT_SANS, f->small_px, f->legible_px, h.w, h.x + h.w,
                      h.y + h.h / 2.0f, SV_ALIGN_RIGHT, t->text_dim, hint);
}

float sv_render_compare_cost(sv_gfx *g, const sv_bench_table *table, const sv_layout *l,
                             float top, const sv_theme *t)
{
    char line[768];
    if (!table) /* the plot says there is no table */
        return 0.0f;
    bool ok = sv_compare_cost_words(table, NULL, line, sizeof line);
    float px = l->small_px * 1.05f, h = 3.0f * 1.4f * px;
    draw_wrapped(g, (sv_box){ l->margin, top, (float)l->fb_w - 2 * l->margin, h }, px,
                 l->legible_px, SV_FONT_SANS, ok ? t->text : t->text_dim, line, 3);
    return h + 0.6f * l->unit;
}
