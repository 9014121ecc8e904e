/* A kernel trace as text (ktrace_table.h): each step's arrays under their own
 * names (`?` for cells never written; the rows of a 2-row array as two rows),
 * the chapter's reading where it applies, then the diagnosis: the output
 * against the scan, the first step that breaks the invariant, the hazards,
 * the failure. Text from the kernel's file is escaped (sv_escape). */
#include "ktrace_table.h"

#include <inttypes.h>
#include <string.h>

#include "escape.h"
#include "ktrace_diverge.h"
#include "ktrace_reading.h"
#include "ktrace_shuffle.h"
#include "text_rows.h"

#define CELLS_PER_LINE 16
#define COL_BOLD "\x1b[1m"
#define COL_DIM "\x1b[2m"
#define COL_RESET "\x1b[0m"

typedef struct ktable {
    const sv_ktrace *t;
    FILE *f;
    bool colour;
    int width;           /* of every number column */
    size_t cols[SV_KTRACE_MAX_ARRAYS]; /* cells shown per row of each array */
} ktable;

static void on(const ktable *tb, const char *code)
{
    if (tb->colour)
        fputs(code, tb->f);
}

/* Columns per row: the first n cells, or up to the last cell any step
 * wrote when that is further (a padded or larger array). */
static void measure(ktable *tb)
{
    const sv_ktrace *t = tb->t;
    char v[48];
    int w = snprintf(v, sizeof v, "%zu", t->n - 1);
    w = w < 2 ? 2 : w;
    for (size_t a = 0; a < t->narrays; a++) {
        size_t rowlen = t->arrays[a].len / t->arrays[a].rows;
        size_t cols = rowlen < t->n ? rowlen : t->n;
        for (size_t k = 0; k < t->nsteps; k++)
            for (size_t c = 0; c < t->arrays[a].len; c++) {
                if (!t->steps[k].written[a][c])
                    continue;
                int len = (int)strlen(sv_value_format_as(t->type, t->steps[k].cells[a][c],
                                                         t->float_style, v, sizeof v));
                w = len > w ? len : w;
                if (c % rowlen + 1 > cols)
                    cols = c % rowlen + 1;
            }
        tb->cols[a] = cols;
    }
    for (size_t i = 0; i < t->n; i++) {
        int len = (int)strlen(sv_value_format_as(t->type, t->output[i], t->float_style, v,
                                                 sizeof v));
        if (t->output_written[i] && len > w)
            w = len;
        if (t->expected) {
            len = (int)strlen(sv_value_format_as(t->type, t->expected[i], t->float_style, v,
                                                 sizeof v));
            w = len > w ? len : w;
        }
    }
    tb->width = w;
}

static void value_row(const ktable *tb, const char *name, const sv_value *v, const bool *known,
                      size_t lo, size_t hi)
{
    char s[48];
    sv_rows_label(tb->f, name);
    for (size_t i = lo; i < hi; i++)
        fprintf(tb->f, " %*s", tb->width, known && !known[i] ? "?"
                                                             : sv_value_format_as(tb->t->type, v[i],
                                                                                  tb->t->float_style,
                                                                                  s, sizeof s));
    fputc('\n', tb->f);
}

/* "buf[1] pout", "s pin", "out": the label of row `row` of array a in step k. */
static void row_label(const ktable *tb, size_t k, size_t a, size_t row, char *buf, size_t len)
{
    const sv_ktrace *t = tb->t;
    char name[64];
    sv_escape(t->arrays[a].name, name, sizeof name);
    const sv_kreading *rd = t->readings ? &t->readings[k] : NULL;
    const char *role = "";
    if (rd && rd->fits && rd->pout_array == (int32_t)a && rd->pout_row == (int32_t)row)
        role = " pout";
    else if (rd && rd->fits && rd->pin_array == (int32_t)a && rd->pin_row == (int32_t)row)
        role = " pin";
    if (sv_ktrace_rows_named(t, (uint32_t)a) > 1)
        snprintf(buf, len, "%.40s[%zu]%s", name, row, role);
    else
        snprintf(buf, len, "%.40s%s", name, role);
}

/* The case of each cell of a read step, up to its first broken cell. */
static void case_row(const ktable *tb, const sv_kreading *rd, size_t lo, size_t hi)
{
    static const char marker[] = {'c', 'P', 'F'};
    sv_rows_label(tb->f, "case");
    for (size_t i = lo; i < hi && i < tb->t->n; i++) {
        char m = rd->round == 0 ? '=' : marker[sv_case_of(rd->round, i)];
        if (rd->broken && i > rd->first_broken)
            break; /* no case after the first broken cell */
        if (rd->broken && i == rd->first_broken)
            m = 'X';
        fprintf(tb->f, " %*c", tb->width, m);
    }
    fputc('\n', tb->f);
}

/* Where the step's warps diverged (ktrace_diverge.h): the first few lines. */
static void print_divergence(const ktable *tb, size_t k)
{
    enum { SHOWN = 6 };
    sv_kdiverge d[SHOWN];
    size_t n = sv_ktrace_divergence(tb->t, k, d, SHOWN);
    for (size_t i = 0; i < n && i < SHOWN; i++) {
        char ran[160], waited[160];
        sv_lanes_words(d[i].ran, ran, sizeof ran);
        sv_lanes_words(d[i].lanes & ~d[i].ran, waited, sizeof waited);
        fprintf(tb->f, "  divergence: warp %" PRIu32 " at line %" PRId32 ": %s ran it, %s "
                "waited\n", d[i].warp, d[i].line, ran, waited);
    }
    if (n > SHOWN)
        fprintf(tb->f, "  divergence: and %zu more lines of warps in this step\n", n - SHOWN);
}

static void print_step(const ktable *tb, size_t k)
{
    const sv_ktrace *t = tb->t;
    const sv_kstep *s = &t->steps[k];
    char words[512], lab[64];
    on(tb, COL_BOLD);
    const sv_klaunch *l = sv_ktrace_launch_of(t, k);
    char grid[48], block[48];
    if (l && l->shared)
        fprintf(tb->f, "Launch %zu · %s<<<%s, %s, %" PRIu32 ">>> at line %" PRId32,
                (size_t)(l - t->launches) + 1, l->kernel,
                sv_klaunch_grid_words(l, grid, sizeof grid),
                sv_klaunch_block_words(l, block, sizeof block), l->shared, l->line);
    else if (l)
        fprintf(tb->f, "Launch %zu · %s<<<%s, %s>>> at line %" PRId32,
                (size_t)(l - t->launches) + 1, l->kernel,
                sv_klaunch_grid_words(l, grid, sizeof grid),
                sv_klaunch_block_words(l, block, sizeof block), l->line);
    else if (s->barrier_line > 0)
        fprintf(tb->f, "Step %zu · up to the barrier of line %" PRId32, k + 1, s->barrier_line);
    else
        fprintf(tb->f, "Step %zu · up to the kernel's end", k + 1);
    on(tb, COL_RESET);
    sv_ktrace_reading_words(t, k, words, sizeof words);
    const char *reading = strchr(words, ':'); /* "step 3 (round 2): ..." -> "round 2: ..." */
    char line2[512];
    const sv_reading *rdg = sv_reading_of(t);
    if (rdg->step_words && rdg->step_words(t, k, words, sizeof words, line2, sizeof line2))
        fprintf(tb->f, " · %s\n  %s\n", words, line2); /* the reading's own words */
    else if (reading && t->readings[k].fits)
        fprintf(tb->f, " · round %d%s\n", t->readings[k].round, reading);
    else {
        size_t wrote = 0; /* cells, not writes: the GPU records no writes */
        for (size_t a = 0; a < t->narrays; a++)
            for (size_t c = 0; c < t->arrays[a].len; c++)
                wrote += s->wrote[a][c];
        if (wrote)
            fprintf(tb->f, " · %zu cell%s written, no chapter round\n", wrote,
                    wrote == 1 ? "" : "s");
        else
            fprintf(tb->f, " · no cell written (%zu read%s)\n", s->nreads,
                    s->nreads == 1 ? "" : "s");
    }
    size_t cols = 0;
    for (size_t a = 0; a < t->narrays; a++)
        if (t->arrays[a].touched && tb->cols[a] > cols)
            cols = tb->cols[a];
    const size_t all = cols;
    cols = cols > SV_KTRACE_TABLE_CELLS ? SV_KTRACE_TABLE_CELLS : cols;
    for (size_t lo = 0; lo < cols; lo += CELLS_PER_LINE) {
        size_t hi = lo + CELLS_PER_LINE < cols ? lo + CELLS_PER_LINE : cols;
        sv_rows_index(tb->f, tb->colour, tb->width, lo, hi);
        for (size_t a = 0; a < t->narrays; a++) {
            if (!t->arrays[a].touched)
                continue;
            size_t rowlen = t->arrays[a].len / t->arrays[a].rows;
            size_t end = hi < tb->cols[a] ? hi : tb->cols[a];
            /* one buffer: its first row only, the rest no step touched */
            size_t rows = sv_ktrace_rows_named(t, (uint32_t)a) > 1 ? t->arrays[a].rows : 1;
            for (size_t row = 0; row < rows && lo < end; row++) {
                row_label(tb, k, a, row, lab, sizeof lab);
                value_row(tb, lab, s->cells[a] + row * rowlen, s->written[a] + row * rowlen, lo,
                          end);
                const sv_kreading *rd = t->readings ? &t->readings[k] : NULL;
                if (rd && rd->fits && rd->pout_array == (int32_t)a && rd->pout_row == (int32_t)row)
                    case_row(tb, rd, lo, end);
            }
        }
    }
    if (all > cols)
        fprintf(tb->f, "  ... cells %zu to %zu not shown (--format json has every cell)\n", cols,
                all - 1);
    print_divergence(tb, k);
    fputc('\n', tb->f);
}

/* The output's cells lo .. hi - 1, against the expected scan's. */
static void output_lines(const ktable *tb, size_t lo, size_t end)
{
    const sv_ktrace *t = tb->t;
    for (; lo < end; lo += CELLS_PER_LINE) {
        size_t hi = lo + CELLS_PER_LINE < end ? lo + CELLS_PER_LINE : end;
        sv_rows_index(tb->f, tb->colour, tb->width, lo, hi);
        value_row(tb, "output", t->output, t->output_written, lo, hi);
        if (t->expected)
            value_row(tb, "expected", t->expected, NULL, lo, hi);
    }
}

static void print_output(const ktable *tb)
{
    const sv_ktrace *t = tb->t;
    on(tb, COL_BOLD);
    fprintf(tb->f, "Output · out[] after the kernel, against the sequential %s scan of %s\n",
            sv_scan_name(t->scan), sv_op_name(t->op));
    on(tb, COL_RESET);
    const size_t shown = t->n > SV_KTRACE_TABLE_CELLS ? SV_KTRACE_TABLE_CELLS : t->n;
    output_lines(tb, 0, shown);
    if (shown < t->n) {
        size_t w = t->first_wrong >= 0 ? (size_t)t->first_wrong : 0;
        size_t lo = w / CELLS_PER_LINE * CELLS_PER_LINE;
        if (w >= shown) { /* the first wrong cell's line too */
            if (lo > shown)
                fprintf(tb->f, "  ... cells %zu to %zu not shown\n", shown, lo - 1);
            output_lines(tb, lo, lo + CELLS_PER_LINE < t->n ? lo + CELLS_PER_LINE : t->n);
            lo += CELLS_PER_LINE;
        } else {
            lo = shown;
        }
        if (lo < t->n)
            fprintf(tb->f, "  ... cells %zu to %zu not shown (--format json has every cell)\n",
                    lo, t->n - 1);
    }
    fputc('\n', tb->f);
}

static void print_header(const ktable *tb, const char *note)
{
    const sv_ktrace *t = tb->t;
    char name[256], entry[128] = "", dev[128], sched[96];
    sv_escape(t->file ? t->file : t->kernel, name, sizeof name);
    if (t->entry) {
        strcpy(entry, " · ");
        sv_escape(t->entry, entry + strlen(entry), sizeof entry - strlen(entry));
    }
    on(tb, COL_BOLD);
    fprintf(tb->f, "Kernel %s%s · n = %zu · %s (%s) · %s · %s\n", name, entry, t->n,
            sv_op_name(t->op), sv_op_symbol(t->op), sv_type_name(t->type), sv_scan_name(t->scan));
    on(tb, COL_RESET);
    if (t->backend == SV_BACKEND_CUDA)
        fprintf(tb->f, "GPU runtime (NVRTC) · %s", t->device ? sv_escape(t->device, dev, sizeof dev)
                                                             : "GPU");
    else
        fprintf(tb->f, "CPU runtime (fibers) · schedule %s · %" PRIu64 " switches",
                t->schedule ? sv_escape(t->schedule, sched, sizeof sched) : "?", t->switches);
    if (t->runs > 1)
        fprintf(tb->f, " · %" PRIu32 " runs, %" PRIu32 " wrong, shown: run %" PRIu32, t->runs,
                t->wrong_runs, t->shown_run);
    fputc('\n', tb->f);
    if (t->sandbox) {
        char esc[1024];
        fprintf(tb->f, "sandbox: weaker on this machine: %s\n",
                sv_escape(t->sandbox, esc, sizeof esc));
    }
    if (note && note[0]) {
        char esc[1024];
        fprintf(tb->f, "%s\n", sv_escape(note, esc, sizeof esc));
    }
    fputc('\n', tb->f);
}

/* The kernel's printf calls, by step and thread (the first
 * SV_KTRACE_TABLE_PRINTS; the JSON lists them all). */
static void print_prints(const ktable *tb)
{
    const sv_ktrace *t = tb->t;
    if (!t->nprints && !t->prints_dropped)
        return;
    on(tb, COL_BOLD);
    fputs("printf\n", tb->f);
    on(tb, COL_RESET);
    char esc[4 * SV_KTRACE_MAX_PRINT + 64];
    for (size_t i = 0; i < t->nprints && i < SV_KTRACE_TABLE_PRINTS; i++) {
        const sv_kprint *p = &t->prints[i]; /* (from a file it may be anything: escaped again) */
        fprintf(tb->f, "  step %" PRIu32 ", thread %" PRIu32 ", line %" PRId32 ": %s\n", p->step,
                p->thread, p->line, sv_escape(p->text, esc, sizeof esc));
    }
    size_t more = (t->nprints > SV_KTRACE_TABLE_PRINTS ? t->nprints - SV_KTRACE_TABLE_PRINTS : 0) +
                  t->prints_dropped;
    if (more)
        fprintf(tb->f, "  ... and %zu more (%s)\n", more,
                t->prints_dropped ? "the trace keeps the first 4096" : "--format json lists them");
    fputc('\n', tb->f);
}

/* The diagnosis: output, invariant, hazards, failure. */
static void print_diagnosis(const ktable *tb, size_t max_hazards)
{
    const sv_ktrace *t = tb->t;
    char a[48], b[48], words[2048];
    on(tb, COL_BOLD);
    fputs("Diagnosis\n", tb->f);
    on(tb, COL_RESET);
    if (t->failure.kind != SV_KFAIL_NONE)
        fprintf(tb->f, "  failure: %s\n", sv_ktrace_failure_words(t, words, sizeof words));
    if (t->console) { /* (from a file it may be anything: escaped again) */
        char esc[4096];
        fprintf(tb->f, "  the kernel's process wrote: %s\n",
                sv_escape(t->console, esc, sizeof esc));
    }
    if (t->banks_counted) {
        fprintf(tb->f, "  bank conflicts: %" PRIu64 " in loads, %" PRIu64 " in stores (32 banks "
                "of 4 bytes, as ncu counts them)", t->bank_loads, t->bank_stores);
        const sv_kbank *most = NULL;
        for (size_t i = 0; i < t->nbanks; i++)
            if (!most || t->banks[i].loads + t->banks[i].stores > most->loads + most->stores)
                most = &t->banks[i];
        if (most)
            fprintf(tb->f, "; the most at line %" PRId32 " in step %" PRIu32 " (%" PRIu64
                    " in loads, %" PRIu64 " in stores)", most->line, most->step, most->loads,
                    most->stores);
        fputc('\n', tb->f);
        if (t->nbankcells) { /* the cells that collided: barred on the window's cells */
            unsigned ways = 0;
            for (size_t i = 0; i < t->nbankcells; i++)
                ways = t->bankcells[i].ways > ways ? t->bankcells[i].ways : ways;
            fprintf(tb->f, "  colliding cells: %zu%s over the steps, up to %u-way (the words one "
                    "bank served in one request)\n", t->nbankcells,
                    t->bankcells_dropped ? " kept" : "", ways);
        }
    }
    bool ran = t->failure.kind == SV_KFAIL_NONE;
    if (ran && t->first_wrong < 0 && t->output_round > 0)
        fprintf(tb->f, "  output: right (round %d's windows of %s, as asked)\n",
                (int)t->output_round, sv_op_name(t->op));
    else if (ran && t->first_wrong < 0)
        fprintf(tb->f, "  output: right (the %s scan of %s)\n", sv_scan_name(t->scan),
                sv_op_name(t->op));
    else if (ran)
        fprintf(tb->f, "  output: wrong from cell %" PRId32 ": %s, expected %s\n", t->first_wrong,
                t->output_written[t->first_wrong]
                    ? sv_value_format(t->type, t->output[t->first_wrong], a, sizeof a) : "?",
                sv_value_format(t->type, t->expected[t->first_wrong], b, sizeof b));
    sv_kverdict v = sv_ktrace_verdict(t);
    if (v != SV_KVERDICT_OK && v != SV_KVERDICT_WRONG && v != SV_KVERDICT_FAILED)
        return; /* it never ran: nothing more to say */
    if (t->runs > 1)
        fprintf(tb->f, "  runs: %" PRIu32 " of %" PRIu32 " wrong\n", t->wrong_runs, t->runs);
    size_t rounds = 0;
    for (size_t k = 0; t->readings && k < t->nsteps; k++)
        rounds += t->readings[k].fits;
    const sv_reading *rdg = sv_reading_of(t);
    if (rdg->summary && rdg->summary(t, words, sizeof words))
        fprintf(tb->f, "  %s\n", words); /* the reading's own: what the run did */
    else if (t->first_broken_step >= 0)
        fprintf(tb->f, "  invariant: broken first in %s\n",
                sv_ktrace_reading_words(t, (size_t)t->first_broken_step, words, sizeof words));
    else if (rounds)
        fprintf(tb->f, "  invariant: holds in every step read as a chapter round (%zu)\n", rounds);
    else if (t->nsteps && t->first_wrong < 0 && ran)
        fprintf(tb->f, "  invariant: the chapter's rounds do not apply: the output is the scan, "
                "made by steps that are not the chapter's rounds\n");
    else if (t->nsteps)
        fprintf(tb->f, "  invariant: no step is one of the chapter's rounds\n");
    for (size_t a = 0; a < t->narrays; a++) {
        const sv_kregrounds *g = sv_ktrace_reg_reading(t, (uint32_t)a);
        char name[64], hv[48], wv[48];
        if (!g)
            continue;
        sv_escape(t->arrays[a].name, name, sizeof name);
        if (g->broken_row < 0)
            fprintf(tb->f, "  registers: %s[0] to %s[%u] hold the chapter's rounds 0 to %u, each "
                    "lane's window within its warp (a shuffle scan is Hillis-Steele in "
                    "registers)\n", name, name, g->rows - 1, g->rows - 1);
        else
            fprintf(tb->f, "  registers: %s[%d][%u] breaks round %d: it holds %s, the round gives "
                    "%s\n", name, (int)g->broken_row, (unsigned)g->broken_cell, (int)g->broken_row,
                    sv_value_format(t->type, g->holds, hv, sizeof hv),
                    sv_value_format(t->type, g->want, wv, sizeof wv));
    }
    if (t->backend == SV_BACKEND_CUDA && t->nhazards == 0 && t->hazards_total == 0)
        fprintf(tb->f, "  hazards: not observed on the GPU (--racecheck runs compute-sanitizer)\n");
    else
        fprintf(tb->f, "  hazards: %" PRIu64 "%s\n", t->hazards_total,
                t->hazards_total ? " (the same cell in one step, touched by two threads, one writing)"
                                 : "");
    for (size_t h = 0; h < t->nhazards && h < max_hazards; h++)
        fprintf(tb->f, "    %s\n", sv_ktrace_hazard_words(t, &t->hazards[h], words, sizeof words));
    if (t->nhazards > max_hazards)
        fprintf(tb->f, "    ... and %" PRIu64 " more\n", t->hazards_total - max_hazards);
    else if (sv_ktrace_unkept_hazards_words(t, words, sizeof words)[0])
        fprintf(tb->f, "    %s\n", words); /* counted, none of them listed: say why */
    /* Reads of shared cells nothing wrote: a value that is no value of the
     * scan (0 here, garbage on a GPU), named rather than left silent. */
    size_t unwritten = sv_ktrace_unwritten_reads(t, SIZE_MAX, NULL), said = 0;
    if (unwritten)
        fprintf(tb->f, "  never written: %zu read%s of shared cells nothing had written\n",
                unwritten, unwritten == 1 ? "" : "s");
    for (size_t k = 0; k < t->nsteps && said < max_hazards; k++)
        for (size_t i = 0; i < t->steps[k].nreads && said < max_hazards; i++)
            if (sv_ktrace_read_unwritten(t, k, i)) {
                sv_ktrace_unwritten_words(t, (sv_kunwritten){k, i}, words, sizeof words);
                fprintf(tb->f, "    step %zu: %s\n", k + 1, words);
                said++;
            }
    if (unwritten > said)
        fprintf(tb->f, "    ... and %zu more\n", unwritten - said);
}

/* Text of many lines (a compiler's messages), each escaped on its own. */
static void print_lines(FILE *f, const char *text)
{
    char esc[1024];
    while (*text) {
        size_t len = strcspn(text, "\n");
        fprintf(f, "  %s\n", sv_escape_n(text, len, esc, sizeof esc));
        text += len + (text[len] == '\n');
    }
}

void sv_ktrace_print_table(const sv_ktrace *t, FILE *f, bool colour, const char *note)
{
    ktable tb = {.t = t, .f = f, .colour = colour};
    measure(&tb);
    print_header(&tb, note);
    /* An endless loop records thousands of steps: the first ones and the
     * last few say what happened (the trace file has them all). */
    size_t head = t->nsteps > SV_KTRACE_TABLE_STEPS ? SV_KTRACE_TABLE_STEPS - 4 : t->nsteps;
    for (size_t k = 0; k < head; k++)
        print_step(&tb, k);
    if (t->steps_dropped)
        fprintf(f, "... and %" PRIu32 " later steps, left out to keep the trace file within its "
                   "limit\n\n", t->steps_dropped);
    if (head < t->nsteps) {
        fprintf(f, "... steps %zu to %zu not shown (--format json has every step)\n\n", head + 1,
                t->nsteps - 4);
        for (size_t k = t->nsteps - 4; k < t->nsteps; k++)
            print_step(&tb, k);
    }
    if (t->failure.kind == SV_KFAIL_NONE)
        print_output(&tb);
    print_prints(&tb);
    print_diagnosis(&tb, SV_KTRACE_TABLE_HAZARDS);
    if (t->failure.kind == SV_KFAIL_COMPILE && t->failure.message) {
        fputs("\nThe compiler said:\n", f);
        print_lines(f, t->failure.message);
    }
    fputs("Legend: F full window · P partial window · c copy-through · = the input (round 0) · "
          "X the first cell breaking the round's invariant · ? never written\n", f);
}
