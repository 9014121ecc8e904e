/* Predict mode on a kernel trace (kpane.h): the question at a step is what
 * the cells it writes will hold, in the row it writes most, checked against
 * the trace (the app's app_quiz.c scores it); its words. Pure. */
#include <stdio.h>
#include <string.h>

#include "kpane.h"

/* Cells of row r written in step k. */
static uint32_t row_writes(const sv_ktrace *t, size_t k, const sv_krow *r)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < r->count; c++)
        n += sv_kpane_wrote(t, k, r, c);
    return n;
}

int sv_kquiz_row_of(const sv_ktrace *t, const sv_krows *rows, size_t k)
{
    if (!t || k >= t->nsteps)
        return -1;
    int best = -1;
    uint32_t most = 0;
    for (int r = 0; r < rows->n; r++) {
        if (rows->row[r].kind == SV_KROW_INPUT)
            continue;
        uint32_t w = row_writes(t, k, &rows->row[r]);
        if (w > most) {
            most = w;
            best = r;
        }
    }
    return best;
}

int sv_kquiz_row(const sv_ktrace *t, size_t k)
{
    sv_krows rows;
    return sv_kpane_rows(t, &rows) ? sv_kquiz_row_of(t, &rows, k) : -1;
}

bool sv_kquiz_truth(const sv_ktrace *t, size_t k, uint32_t col, sv_value *out)
{
    sv_krows rows;
    if (!sv_kpane_rows(t, &rows))
        return false;
    int r = sv_kquiz_row_of(t, &rows, k);
    if (r < 0 || col >= rows.row[r].count || !sv_kpane_wrote(t, k, &rows.row[r], col))
        return false;
    return sv_kpane_value(t, k, &rows.row[r], col, out);
}

bool sv_kquiz_hidden(const sv_app_view *v, int row, uint32_t col)
{
    if (!v->ktrace || !v->quiz || !v->quiz_asking)
        return false;
    size_t k = (size_t)sv_kpane_step(v);
    sv_krows rows;
    if (!sv_kpane_rows(v->ktrace, &rows) || row != sv_kquiz_row_of(v->ktrace, &rows, k) ||
        col >= rows.row[row].count)
        return false;
    return sv_kpane_wrote(v->ktrace, k, &rows.row[row], col);
}

bool sv_kwords_quiz(const sv_app_view *v, sv_caption_words *out)
{
    const sv_ktrace *t = v->ktrace;
    if (!t || !v->quiz || t->nsteps == 0)
        return false;
    size_t k = (size_t)sv_kpane_step(v);
    sv_krows rows;
    int r = sv_kpane_rows(t, &rows) ? sv_kquiz_row_of(t, &rows, k) : -1;
    if (r < 0)
        return false;
    const sv_krow *row = &rows.row[r];
    uint32_t asked = row_writes(t, k, row);
    char *l1 = out->line1, *l2 = out->line2;
    size_t n1 = sizeof out->line1, n2 = sizeof out->line2;
    if (v->quiz_asking) {
        snprintf(l1, n1, "Predict step %zu: what will the %u cell%s of %s that it writes hold?",
                 k + 1, (unsigned)asked, asked == 1 ? "" : "s", row->name);
        char lines[96] = "";
        int ln[SV_KPHASE_MAX_LINES];
        int nl = sv_kphase_lines(t, k, SV_PHASE_OP, ln, SV_KPHASE_MAX_LINES);
        if (nl == 0)
            nl = sv_kphase_lines(t, k, row->kind == SV_KROW_OUT ? SV_PHASE_COPY_BACK
                                                                 : SV_PHASE_LOAD,
                                 ln, SV_KPHASE_MAX_LINES);
        if (nl > 0)
            snprintf(lines, sizeof lines, " (line %d of your file writes them)", ln[0]);
        snprintf(l2, n2, "The cells marked ? are this step's writes%s. Select one (click, or "
                 "Tab / Shift+Tab), type a number, Return. Right or Page Down reveals.", lines);
        return true;
    }
    if (!v->quiz_scored || v->quiz_step != v->step || !v->quiz_result)
        return false;
    int right = 0, answered = 0;
    for (size_t i = 0; i < t->n && i < SV_MAX_N; i++) {
        answered += v->quiz_result[i] != SV_QUIZ_UNASKED;
        right += v->quiz_result[i] == SV_QUIZ_RIGHT;
    }
    if (answered == 0)
        return false;
    snprintf(l1, n1, "Step %zu revealed: %d of %d right \u00b7 score %d of %d", k + 1, right,
             answered, v->quiz_right, v->quiz_total);
    size_t at = 0;
    l2[0] = '\0';
    for (uint32_t c = 0; c < row->count && c < t->n && c < SV_MAX_N && at + 80 < n2; c++) {
        if (v->quiz_result[c] != SV_QUIZ_WRONG)
            continue;
        sv_value got;
        char want[48] = "?", you[48];
        if (sv_kpane_value(t, k, row, c, &got))
            sv_value_format(t->type, got, want, sizeof want);
        sv_value_format(t->type, v->quiz_value[c], you, sizeof you);
        at += (size_t)snprintf(l2 + at, n2 - at, "%s%s[%u] holds %s (you: %s)", at ? " \u00b7 " : "",
                               row->name, (unsigned)c, want, you);
    }
    return true;
}
