/* The trace as aligned text rows for terminals and logs: each round's two
 * buffers, a row of case markers under pout that reads without colour, and
 * optional ANSI 256-colour (Okabe-Ito-like: blue full, orange partial, grey copy). */
#include "table.h"
#include "escape.h"
#include "text_rows.h"
#include "lab.h"

#include <math.h>
#include <string.h>

#define CELLS_PER_LINE 16

/* ANSI 256-colour codes nearest the design's palette. */
#define COL_FULL "\x1b[38;5;32m"     /* #0087d7 ~ #0072B2 blue */
#define COL_PARTIAL "\x1b[38;5;214m" /* #ffaf00 ~ #E69F00 orange */
#define COL_COPY "\x1b[38;5;246m"    /* #949494 ~ #999999 grey */
#define COL_WRAP "\x1b[38;5;166m"    /* #d75f00 ~ #D55E00 vermillion */
#define COL_DIM "\x1b[2m"
#define COL_BOLD "\x1b[1m"
#define COL_RESET "\x1b[0m"

static const char case_marker[] = {'c', 'P', 'F'}; /* by sv_case */
static const char *const case_colour[] = {COL_COPY, COL_PARTIAL, COL_FULL};

typedef struct table {
    const sv_trace *t;
    FILE *f;
    bool colour;
    int width; /* of every number column */
    sv_float_style style; /* one notation for every value of the trace */
} table;

/* table.h: positional unless some value needs an exponent, then all. */
sv_float_style sv_trace_float_style(const sv_trace *t)
{
    if (t->type != SV_TYPE_FLOAT32)
        return SV_FLOAT_SHORTEST;
    if (sv_float_style_of(t->type, t->input, t->n) == SV_FLOAT_EXPONENT ||
        (t->output && sv_float_style_of(t->type, t->output, t->n) == SV_FLOAT_EXPONENT))
        return SV_FLOAT_EXPONENT;
    for (size_t r = 0; r < t->nrounds; r++)
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < t->n; i++)
                if (t->rounds[r].written[b][i] &&
                    sv_float_style_of(t->type, &t->rounds[r].buf[b][i], 1) == SV_FLOAT_EXPONENT)
                    return SV_FLOAT_EXPONENT;
    return SV_FLOAT_POSITIONAL;
}

static void on(const table *tb, const char *code)
{
    if (tb->colour)
        fputs(code, tb->f);
}

static int cell_width(const sv_trace *t, sv_float_style style)
{
    char v[48];
    int w = 2;
    for (size_t r = 0; r < t->nrounds; r++)
        for (int b = 0; b < 2; b++)
            for (size_t i = 0; i < t->n; i++) {
                int len = (int)strlen(sv_value_format_as(t->type, t->rounds[r].buf[b][i], style, v,
                                                         sizeof v));
                if (t->rounds[r].written[b][i] && len > w)
                    w = len;
            }
    for (size_t i = 0; t->output && i < t->n; i++) {
        int len = (int)strlen(sv_value_format_as(t->type, t->output[i], style, v, sizeof v));
        if (len > w)
            w = len;
    }
    char idx[32];
    int len = snprintf(idx, sizeof idx, "%zu", t->n - 1);
    return len > w ? len : w;
}

/* One buffer's cells [lo, hi); cases colours the values (pout rows). */
static void value_row(const table *tb, const char *name, const sv_value *vals, const bool *written,
                      const sv_case *cases, size_t lo, size_t hi)
{
    char v[48];
    sv_rows_label(tb->f, name);
    for (size_t i = lo; i < hi; i++) {
        fputc(' ', tb->f);
        if (written && !written[i]) {
            on(tb, COL_DIM);
            fprintf(tb->f, "%*s", tb->width, "?");
            on(tb, COL_RESET);
            continue;
        }
        if (cases)
            on(tb, case_colour[cases[i]]);
        fprintf(tb->f, "%*s", tb->width,
                sv_value_format_as(tb->t->type, vals[i], tb->style, v, sizeof v));
        if (cases)
            on(tb, COL_RESET);
    }
    fputc('\n', tb->f);
}

/* The markers under pout: F / P / c, with ! where an int32 op wrapped. */
static void case_row(const table *tb, const sv_round *rd, size_t lo, size_t hi)
{
    sv_rows_label(tb->f, "case");
    for (size_t i = lo; i < hi; i++) {
        bool wrapped = rd->overflow && rd->overflow[i];
        fprintf(tb->f, " %*s", tb->width - 1 - (int)wrapped, "");
        on(tb, case_colour[rd->cases[i]]);
        fputc(case_marker[rd->cases[i]], tb->f);
        on(tb, COL_RESET);
        if (wrapped) {
            on(tb, COL_WRAP);
            fputc('!', tb->f);
            on(tb, COL_RESET);
        }
    }
    fputc('\n', tb->f);
}

/* Starts the block of cells lo .. hi-1 (a blank line between blocks, then
 * the index row) and returns hi: long traces wrap every CELLS_PER_LINE. */
static size_t begin_line(const table *tb, size_t lo)
{
    size_t n = tb->t->n;
    size_t hi = lo + CELLS_PER_LINE < n ? lo + CELLS_PER_LINE : n;
    if (lo > 0)
        fputc('\n', tb->f);
    sv_rows_index(tb->f, tb->colour, tb->width, lo, hi);
    return hi;
}

/* The operations round rd did: a mistake's shown run's, from its reads
 * (no-guard's stopped run did none), else the chapter's count. */
static size_t round_ops(const sv_trace *t, const sv_round *rd)
{
    if (t->lab && t->lab->reads)
        return sv_lab_reads_ops(t->lab->reads, (size_t)rd->round);
    return rd->ops;
}

static void print_round(const table *tb, const sv_round *rd)
{
    const sv_trace *t = tb->t;
    on(tb, COL_BOLD);
    if (rd->round == 0)
        fprintf(tb->f, "Round 0 · staging · input → buf[0], buf[1] uninitialized\n");
    else
        fprintf(tb->f, "Round %d · stride %u · pin buf[%d] → pout buf[%d] · %zu ops\n", rd->round,
                (unsigned)rd->stride, rd->pin, rd->pout, round_ops(t, rd));
    on(tb, COL_RESET);
    for (size_t lo = 0; lo < t->n; lo += CELLS_PER_LINE) {
        size_t hi = begin_line(tb, lo);
        for (int b = 0; b < 2; b++) {
            char name[32];
            const char *role = rd->round == 0 ? "" : b == rd->pout ? " pout"
                               : b == rd->pin ? " pin" : ""; /* one-buffer mistakes: buf[1] unused */
            snprintf(name, sizeof name, "buf[%d]%s", b, role);
            bool is_pout = rd->round > 0 && b == rd->pout;
            value_row(tb, name, rd->buf[b], rd->written[b], is_pout ? rd->cases : NULL, lo, hi);
            if (is_pout && rd->cases)
                case_row(tb, rd, lo, hi);
        }
    }
    fputc('\n', tb->f);
}

static void print_output(const table *tb)
{
    const sv_trace *t = tb->t;
    char v[48];
    on(tb, COL_BOLD);
    if (t->scan == SV_SCAN_EXCLUSIVE)
        fprintf(tb->f, "Output · exclusive: the inclusive result shifted right, identity %s in front\n",
                sv_value_format(t->type, sv_op_identity(t->op, t->type), v, sizeof v));
    else
        fprintf(tb->f, "Output · inclusive scan\n");
    on(tb, COL_RESET);
    /* A lab mistake can leave output cells never written: show them as ?
     * (inclusive: the last round's pout as it is). */
    const sv_round *last = &t->rounds[t->nrounds - 1];
    const bool *known = t->lab ? last->written[t->nrounds > 1 ? last->pout : 0] : NULL;
    for (size_t lo = 0; lo < t->n; lo += CELLS_PER_LINE) {
        size_t hi = begin_line(tb, lo);
        if (t->scan == SV_SCAN_EXCLUSIVE)
            value_row(tb, "inclusive", t->inclusive, known, NULL, lo, hi);
        value_row(tb, "output", t->output, t->scan == SV_SCAN_EXCLUSIVE ? NULL : known, NULL, lo,
                  hi);
    }
    fputc('\n', tb->f);
}

static void print_notes(const table *tb)
{
    const sv_trace *t = tb->t;
    char v[48];
    size_t ops = t->total_ops, depth = t->nrounds - 1;
    if (t->lab && t->lab->reads) { /* what the shown run did: rounds that did an op */
        ops = depth = 0;
        for (size_t r = 1; r < t->nrounds; r++) {
            size_t k = round_ops(t, &t->rounds[r]);
            ops += k;
            depth += k > 0;
        }
    }
    fprintf(tb->f, "Work: %zu ops in %zu round%s (a sequential scan: n-1 = %zu ops in %zu steps)\n",
            ops, depth, depth == 1 ? "" : "s", t->n - 1, t->n - 1);
    if (t->overflow_count > 0) {
        on(tb, COL_WRAP);
        fprintf(tb->f, "Overflow: int32 %s wrapped modulo 2^32 (as on the GPU) in %zu cell%s:",
                sv_op_name(t->op), t->overflow_count, t->overflow_count == 1 ? "" : "s");
        size_t shown = 0;
        for (size_t r = 1; r < t->nrounds; r++)
            for (size_t i = 0; i < t->n; i++)
                if (t->rounds[r].overflow && t->rounds[r].overflow[i] && shown++ < 8)
                    fprintf(tb->f, "%s round %zu cell %zu", shown > 1 ? "," : "", r, i);
        if (shown > 8)
            fprintf(tb->f, ", ...");
        fputc('\n', tb->f);
        on(tb, COL_RESET);
    }
    if (t->type == SV_TYPE_FLOAT32) {
        size_t nonfinite = 0;
        for (size_t i = 0; t->output && i < t->n; i++)
            nonfinite += !isfinite(t->output[i].f);
        if (nonfinite)
            fprintf(tb->f, "float32: %zu output value%s overflowed to inf or nan\n", nonfinite,
                    nonfinite == 1 ? "" : "s");
        if (t->max_abs_diff == 0.0)
            fprintf(tb->f, "float32: the output is bit-identical to a sequential scan\n");
        else
            fprintf(tb->f, "float32: largest difference from a sequential scan %.3g at output[%zu] "
                    "(%s): Hillis-Steele combines in a different order, so rounding differs\n",
                    t->max_abs_diff, t->max_diff_index,
                    sv_value_format(t->type, t->output[t->max_diff_index], v, sizeof v));
    }
}

/* One legend entry: the name in its colour, then the plain explanation. */
static void legend_item(const table *tb, const char *colour, const char *name, const char *rest)
{
    on(tb, colour);
    fputs(name, tb->f);
    on(tb, COL_RESET);
    fputs(rest, tb->f);
}

static void print_legend(const table *tb)
{
    fprintf(tb->f, "Legend: ");
    legend_item(tb, COL_FULL, "F full window", " (i >= 2^r - 1) · ");
    legend_item(tb, COL_PARTIAL, "P partial window",
                " (2^(r-1) <= i < 2^r - 1, reaches cell 0)\n        ");
    legend_item(tb, COL_COPY, "c copy-through", " (i < 2^(r-1), no left neighbour) · ");
    fprintf(tb->f, "? never written");
    if (tb->t->overflow_count > 0)
        fprintf(tb->f, " · ! int32 wrapped");
    fputc('\n', tb->f);
}

void sv_trace_print_table(const sv_trace *t, FILE *f, bool colour, const char *note)
{
    sv_float_style style = sv_trace_float_style(t);
    table tb = {t, f, colour, cell_width(t, style), style};
    on(&tb, COL_BOLD);
    fprintf(f, "Hillis-Steele scan · n = %zu · %s (%s) · %s · %s · ", t->n, sv_op_name(t->op),
            sv_op_symbol(t->op), sv_type_name(t->type), sv_scan_name(t->scan));
    if (t->backend == SV_BACKEND_CUDA) {
        /* The device name may come from a file: escaped (no terminal
         * sequences, no fake lines). */
        char dev[512];
        fprintf(f, "CUDA · %s\n", t->device ? sv_escape(t->device, dev, sizeof dev) : "unknown GPU");
    } else {
        fprintf(f, "CPU emulator\n");
    }
    on(&tb, COL_RESET);
    if (note && *note) {
        char esc[1024];
        fprintf(f, "%s\n", sv_escape(note, esc, sizeof esc));
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->nrounds; r++)
        print_round(&tb, &t->rounds[r]);
    if (t->output && t->inclusive)
        print_output(&tb);
    print_notes(&tb);
    if (t->lab)
        sv_lab_print_table(t, f); /* the mistakes lab's summary (lab_table.c) */
    print_legend(&tb);
}
