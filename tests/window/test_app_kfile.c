/* A kernel file over many runs in the app's logic (issue 18, section 3),
 * without a window: --kernel-file with --schedule random:1 --runs 16 (run
 * on the calling thread, as for exports), a cell hovered, and W / Shift+W
 * stepping through the runs in which that cell was wrong. Each step runs
 * that run again alone and shows it: the shown run is the listed one, the
 * cell is wrong in it, the runs' counts stay, the status says which run.
 *
 * usage: test_app_kfile TEST_KERNELS_DIR */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_test.h"
#include "../../src/core/bounds.h"
#include "kpane.h"
#include "state.h"

static const sv_value chapter[8] = {{3}, {1}, {7}, {0}, {4}, {1}, {6}, {3}};

/* A cell (step, pane row, column) wrong in at least 3 listed runs, one of
 * them not the shown run. */
static bool pick_cell(const sv_ktrace *t, size_t *step, int *row, uint32_t *col)
{
    sv_krows rows;
    sv_kpane_rows(t, &rows);
    for (size_t k = 0; k < t->nsteps; k++)
        for (int r = 1; r < rows.n; r++)
            for (uint32_t c = 0; c < rows.row[r].count; c++) {
                uint32_t wrong = 0;
                const uint32_t *which = NULL;
                if (sv_kpane_cell_runs(t, k, &rows.row[r], c, &wrong, &which) && wrong >= 3 &&
                    which[0] != t->shown_run) {
                    *step = k;
                    *row = r;
                    *col = c;
                    return true;
                }
            }
    return false;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_app_kfile TEST_KERNELS_DIR\n");
        return 2;
    }
    char path[1024], err[128];
    snprintf(path, sizeof path, "%s/in_place_race.cu", argv[1]);
    sv_app_state s;
    sv_app_config c = config(chapter, 8, SV_TYPE_INT32);
    c.animations = false;
    c.kernel_file = path;
    CHECK(sv_schedule_parse("random:1", &c.schedule, err, sizeof err));
    c.schedule_given = true;
    c.runs = 16;
    if (!start_app(&s, &c))
        return check_report("");
    const sv_ktrace *t = s.ktrace;
    CHECK(t && t->runs == 16 && t->ncellruns > 0);
    size_t k = 0;
    int r = 0;
    uint32_t col = 0;
    CHECK(t && pick_cell(t, &k, &r, &col));
    if (!t || !pick_cell(t, &k, &r, &col))
        return check_report("");
    /* W over the input row: no runs are counted there */
    key(&s, SDLK_HOME, 0);
    sv_layout l;
    layout(&s, &l);
    sv_box in0 = sv_layout_cell(&l, 0, 0);
    mouse(&s, SDL_MOUSEMOTION, (int)(in0.x + in0.w / 2), (int)(in0.y + in0.h / 2), 0);
    key(&s, SDLK_w, 0);
    CHECK_CONTAINS(s.status, "in[0]: no runs counted here");
    /* the step, the cell hovered */
    while ((size_t)s.step < k)
        key(&s, SDLK_RIGHT, 0);
    run(&s, 0.5f);
    CHECK_INT(s.step, (int)k);
    layout(&s, &l);
    sv_box b = sv_layout_cell(&l, r, (int)col);
    mouse(&s, SDL_MOUSEMOTION, (int)(b.x + b.w / 2), (int)(b.y + b.h / 2), 0);
    CHECK_INT(s.hover_row, r);
    CHECK_INT(s.hover_cell, (int)col);
    sv_krows rows;
    sv_kpane_rows(s.ktrace, &rows);
    uint32_t wrong = 0;
    const uint32_t *which0 = NULL;
    sv_kpane_cell_runs(s.ktrace, k, &rows.row[r], col, &wrong, &which0);
    uint32_t which[SV_KTRACE_CELL_RUNS], m = 0;
    for (; m < SV_KTRACE_CELL_RUNS && which0[m] != SV_KTRACE_NO_RUN; m++)
        which[m] = which0[m];
    uint32_t wrong_runs = s.ktrace->wrong_runs;
    /* W: the next listed run after the shown one, each wrong at the cell */
    uint32_t seen = 0;
    for (uint32_t step = 0; step < m + 1; step++) {
        uint32_t before = s.ktrace->shown_run, want = which[0];
        for (uint32_t j = 0; j < m; j++)
            if (which[j] > before) {
                want = which[j];
                break;
            }
        key(&s, SDLK_w, 0);
        const sv_ktrace *u = s.ktrace;
        CHECK_MSG(u->shown_run == want, "W from run %u: shows run %u, want %u", before,
                  u->shown_run, want);
        CHECK_INT(u->runs, 16);
        CHECK_INT(u->wrong_runs, wrong_runs);
        CHECK(u->ncellruns > 0);
        sv_kpane_rows(u, &rows);
        CHECK_MSG(sv_kpane_verdict(u, k, &rows.row[r], col) == SV_KCELL_WRONG,
                  "run %u: %s[%u] at step %zu is not wrong", u->shown_run, rows.row[r].name,
                  col, k + 1);
        char st[64];
        snprintf(st, sizeof st, "run %u of 16 shown (random:%u)", want, want + 1);
        CHECK_CONTAINS(s.status, st);
        CHECK_INT(s.step, (int)k);
        snprintf(st, sizeof st, "kruns_made=16 kshown=%u ", want);
        CHECK(line_has(&s, st));
        seen++;
    }
    CHECK(seen == m + 1);
    /* Shift+W: back to the one before */
    uint32_t before = s.ktrace->shown_run, want = which[m - 1];
    for (uint32_t j = m; j-- > 0;)
        if (which[j] < before) {
            want = which[j];
            break;
        }
    key(&s, SDLK_w, KMOD_LSHIFT);
    CHECK_INT(s.ktrace->shown_run, want);
    sv_app_cleanup(&s);
    /* a given random:S without --runs: as many runs as scanviz-trace
     * --kernel-file makes (kernel_cmd.c), SV_LAB_DEFAULT_RUNS */
    c.runs = 0;
    if (start_app(&s, &c)) {
        CHECK(s.ktrace && s.ktrace->runs == SV_LAB_DEFAULT_RUNS);
        sv_app_cleanup(&s);
    }
    return check_report("kernel file runs: W and Shift+W step through a cell's wrong runs");
}
