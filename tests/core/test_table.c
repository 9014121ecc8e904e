/* The table: the chapter's example as aligned rows with case markers and ?
 * cells, no escape codes unless colour is asked for, and long arrays wrapped
 * at 16 cells with index headers. */
#include <stdlib.h>

#include "../expect.h"
#include "emulate.h"
#include "parse.h"
#include "table.h"

static char *table_of(const char *input, sv_type type, sv_op op, sv_scan scan, bool colour, const char *note)
{
    char err[256];
    sv_value *in = NULL;
    size_t n = 0;
    char *text = NULL;
    size_t len = 0;
    CHECK_MSG(sv_parse_values(input, type, SV_MAX_N, &in, &n, err, sizeof err), "%s", err);
    sv_trace *t = in ? sv_trace_create(op, type, scan, in, n, SV_BACKEND_CPU, NULL, err, sizeof err) : NULL;
    CHECK_MSG(t && sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err), "%s", err);
    FILE *f = open_memstream(&text, &len);
    if (t && f)
        sv_trace_print_table(t, f, colour, note);
    if (f)
        fclose(f);
    sv_trace_destroy(t);
    free(in);
    return text;
}

int main(void)
{
    char *s = table_of("3 1 7 0 4 1 6 3", SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, false,
                       "CPU emulator: built without CUDA");
    CHECK_CONTAINS(s, "Hillis-Steele scan · n = 8 · sum (+) · int32 · inclusive · CPU emulator\n"
                      "CPU emulator: built without CUDA\n");
    /* Round 0: buf[1] is all ?. */
    CHECK_CONTAINS(s, "Round 0 · staging · input → buf[0], buf[1] uninitialized\n"
                      "  cell            0  1  2  3  4  5  6  7\n"
                      "  buf[0]          3  1  7  0  4  1  6  3\n"
                      "  buf[1]          ?  ?  ?  ?  ?  ?  ?  ?\n");
    /* Each round: the header, pin and pout rows, and the cases under pout. */
    CHECK_CONTAINS(s, "Round 1 · stride 1 · pin buf[0] → pout buf[1] · 7 ops\n"
                      "  cell            0  1  2  3  4  5  6  7\n"
                      "  buf[0] pin      3  1  7  0  4  1  6  3\n"
                      "  buf[1] pout     3  4  8  7  4  5  7  9\n"
                      "  case            c  F  F  F  F  F  F  F\n");
    CHECK_CONTAINS(s, "Round 2 · stride 2 · pin buf[1] → pout buf[0] · 6 ops\n"
                      "  cell            0  1  2  3  4  5  6  7\n"
                      "  buf[0] pout     3  4 11 11 12 12 11 14\n"
                      "  case            c  c  P  F  F  F  F  F\n"
                      "  buf[1] pin      3  4  8  7  4  5  7  9\n");
    CHECK_CONTAINS(s, "Round 3 · stride 4 · pin buf[0] → pout buf[1] · 4 ops\n"
                      "  cell            0  1  2  3  4  5  6  7\n"
                      "  buf[0] pin      3  4 11 11 12 12 11 14\n"
                      "  buf[1] pout     3  4 11 11 15 16 22 25\n"
                      "  case            c  c  c  c  P  P  P  F\n");
    CHECK_CONTAINS(s, "  output          3  4 11 11 15 16 22 25\n");
    CHECK_CONTAINS(s, "Work: 17 ops in 3 rounds (a sequential scan: n-1 = 7 ops in 7 steps)\n");
    CHECK_CONTAINS(s, "Legend: F full window");
    CHECK_MSG(s && !strchr(s, '\x1b'), "escape codes without colour");
    free(s);

    /* Colour: the same rows with 256-colour codes for the cases. */
    s = table_of("3 1 7 0 4 1 6 3", SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, true, NULL);
    CHECK_CONTAINS(s, "\x1b[38;5;32mF\x1b[0m");   /* full: blue */
    CHECK_CONTAINS(s, "\x1b[38;5;214mP\x1b[0m");  /* partial: orange */
    CHECK_CONTAINS(s, "\x1b[38;5;246mc\x1b[0m");  /* copy: grey */
    free(s);

    /* Exclusive: the inclusive row and the shifted output. */
    s = table_of("3 1 7 0 4 1 6 3", SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_EXCLUSIVE, false, NULL);
    CHECK_CONTAINS(s, "identity 0 in front");
    CHECK_CONTAINS(s, "  inclusive       3  4 11 11 15 16 22 25\n"
                      "  output          0  3  4 11 11 15 16 22\n");
    free(s);

    /* Overflow: flagged with ! under the cell and listed. */
    s = table_of("2147483647 1", SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, false, NULL);
    CHECK_CONTAINS(s, "  case                     c          F!\n");
    CHECK_CONTAINS(s, "Overflow: int32 sum wrapped modulo 2^32 (as on the GPU) in 1 cell: round 1 cell 1\n");
    free(s);

    /* float32: the difference from a sequential scan is reported. */
    s = table_of("0.1 0.2 0.3 1e8 -1e8 0.7", SV_TYPE_FLOAT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, false, NULL);
    CHECK_CONTAINS(s, "float32: ");
    free(s);

    /* 40 cells: rows wrap at 16 cells, each chunk with its own index header,
     * all columns the same width. */
    char big[256] = "";
    for (int i = 0; i < 40; i++)
        strcat(big, "1 ");
    s = table_of(big, SV_TYPE_INT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, false, NULL);
    CHECK_CONTAINS(s, "  cell            0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15\n");
    CHECK_CONTAINS(s, "  cell           16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31\n");
    CHECK_CONTAINS(s, "  cell           32 33 34 35 36 37 38 39\n");
    CHECK_CONTAINS(s, "  buf[0] pout    33 34 35 36 37 38 39 40\n");
    free(s);
    /* Issue 21 item 15d: one notation per trace. 10 is "10", not "1e+01",
     * beside 16777222; a trace with a value past 1e9 writes all in exponent
     * form, with the same digits. */
    s = table_of("16777216 6 4 0", SV_TYPE_FLOAT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, false, NULL);
    CHECK_CONTAINS(s, "  buf[1] pout    16777216 16777222       10        4\n");
    CHECK(!strstr(s, "e+"));
    free(s);
    s = table_of("3e9 0.5 2", SV_TYPE_FLOAT32, SV_OP_SUM, SV_SCAN_INCLUSIVE, false, NULL);
    CHECK_CONTAINS(s, "  buf[0]           3e+09   5e-01   2e+00\n");
    free(s);
    {
        char a[48], b[48];
        sv_value v = {.f = 16777220.0f}, w = {.f = 0.1f};
        CHECK_STR(sv_value_format(SV_TYPE_FLOAT32, v, a, sizeof a), "16777220");
        CHECK_STR(sv_value_format_as(SV_TYPE_FLOAT32, v, SV_FLOAT_EXPONENT, b, sizeof b),
                  "1.677722e+07");
        CHECK_STR(sv_value_format_as(SV_TYPE_FLOAT32, v, SV_FLOAT_POSITIONAL, b, sizeof b),
                  "16777220");
        CHECK_STR(sv_value_format_as(SV_TYPE_FLOAT32, w, SV_FLOAT_POSITIONAL, b, sizeof b), "0.1");
        CHECK_STR(sv_value_format_as(SV_TYPE_FLOAT32, w, SV_FLOAT_EXPONENT, b, sizeof b), "1e-01");
    }
    return check_status();
}
