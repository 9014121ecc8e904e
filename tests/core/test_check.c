/* The invariant check can fail: traces broken on purpose (a corrupted cell,
 * a written flag, swapped buffers, a changed pin, a wrong copy, a wrong
 * output, wrong metadata) are each reported at the right round and cell. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "../expect.h"
#include "emulate.h"
#include "parse.h"
#include "trace.h"

static sv_trace *example(sv_scan scan)
{
    char err[256];
    static const sv_value in[8] = {{.i = 3}, {.i = 1}, {.i = 7}, {.i = 0},
                                   {.i = 4}, {.i = 1}, {.i = 6}, {.i = 3}};
    sv_trace *t = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, scan, in, 8, SV_BACKEND_CPU, NULL, err, sizeof err);
    if (!t || !(sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err))) {
        fprintf(stderr, "cannot build the example: %s\n", err);
        exit(1);
    }
    return t;
}

/* Asserts that t fails the check with a message starting with want_prefix
 * and containing want_detail, located at (round, buf, cell). */
#define EXPECT_BROKEN(t, round_, buf_, cell_, want_prefix, want_detail) \
    do { \
        char err_[512] = ""; \
        sv_check_loc loc_ = {99, 99, 99, false}; \
        CHECK(!sv_trace_check_at((t), err_, sizeof err_, &loc_)); \
        CHECK_MSG(strncmp(err_, want_prefix, strlen(want_prefix)) == 0, "message \"%s\"", err_); \
        CHECK_CONTAINS(err_, want_detail); \
        CHECK_INT(loc_.round, round_); \
        CHECK_INT(loc_.buf, buf_); \
        CHECK_INT(loc_.cell, cell_); \
        /* the plain check agrees */ \
        CHECK(!sv_trace_check((t), err_, sizeof err_)); \
    } while (0)

/* One cell of the example broken on purpose (a value changed, or a written
 * flag set or cleared) and what the check must say about it. */
typedef struct broken_cell {
    int round, buf, cell;
    enum { SET_VALUE, SET_WRITTEN, CLEAR_WRITTEN } how;
    int32_t value; /* SET_VALUE */
    const char *prefix, *detail;
} broken_cell;

static const broken_cell broken_cells[] = {
    /* A corrupted pout cell (a full window): round 2 cell 5 holds input[2..5] = 12. */
    { 2, 0, 5, SET_VALUE, 13,
      "round 2, buf[0] (pout), cell 5 (full): expected 12 (sum over input[2..5]), got 13", "got 13" },
    /* A partial window: round 3 cell 4 holds input[0..4] = 15. */
    { 3, 1, 4, SET_VALUE, 14,
      "round 3, buf[1] (pout), cell 4 (partial): expected 15 (sum over input[0..4])", "got 14" },
    /* A pout cell left unwritten. */
    { 1, 1, 3, CLEAR_WRITTEN, 0, "round 1, buf[1] (pout), cell 3: never written", "every pout cell" },
    /* buf[1] written during staging. */
    { 0, 1, 2, SET_WRITTEN, 0, "round 0, buf[1] (uninitialized), cell 2: written",
      "before any round ran" },
    /* Staging that does not hold the input. */
    { 0, 0, 6, SET_VALUE, 5, "round 0, buf[0] (staging), cell 6: expected the input value 6, got 5",
      "" },
    /* pin changed in the last round. */
    { 3, 0, 6, SET_VALUE, 99,
      "round 3, buf[0] (pin), cell 6: changed during the round: was 11, now 99", "" },
    /* A copy cell that does not copy (and whose value is also off). */
    { 3, 1, 2, SET_VALUE, 99,
      "round 3, buf[1] (pout), cell 2: copy cell: expected pin buf[0][2] = 11, got 99", "" },
};

int main(void)
{
    char err[512];
    sv_trace *t = example(SV_SCAN_INCLUSIVE);
    CHECK_MSG(sv_trace_check(t, err, sizeof err), "%s", err);

    sv_trace_destroy(t);

    /* One cell broken at a time, each reported at its round and cell. */
    for (size_t k = 0; k < sizeof broken_cells / sizeof broken_cells[0]; k++) {
        const broken_cell *b = &broken_cells[k];
        t = example(SV_SCAN_INCLUSIVE);
        sv_round *rd = &t->rounds[b->round];
        if (b->how == SET_VALUE)
            rd->buf[b->buf][b->cell].i = b->value;
        else
            rd->written[b->buf][b->cell] = b->how == SET_WRITTEN;
        EXPECT_BROKEN(t, b->round, b->buf, b->cell, b->prefix, b->detail);
        sv_trace_destroy(t);
    }

    /* Swapped buffers in round 2 (a kernel writing into pin): pin buf[1]
     * differs from round 1 first at cell 2 (8 became 11). */
    t = example(SV_SCAN_INCLUSIVE);
    {
        sv_value *b = t->rounds[2].buf[0];
        t->rounds[2].buf[0] = t->rounds[2].buf[1];
        t->rounds[2].buf[1] = b;
    }
    EXPECT_BROKEN(t, 2, 1, 2, "round 2, buf[1] (pin), cell 2: changed during the round: was 8, now 11", "");
    sv_trace_destroy(t);

    /* Round metadata. */
    t = example(SV_SCAN_INCLUSIVE);
    t->rounds[2].stride = 3;
    EXPECT_BROKEN(t, 2, -1, 0, "round 2: metadata round 2, stride 3, pin 1, pout 0; expected round 2, stride 2", "");
    sv_trace_destroy(t);

    /* Output inconsistent with the buffers: inclusive, then exclusive. */
    t = example(SV_SCAN_INCLUSIVE);
    t->output[3].i = 12;
    EXPECT_BROKEN(t, -1, -1, 3, "output[3]: expected 11 (the inclusive result), got 12", "");
    sv_trace_destroy(t);
    t = example(SV_SCAN_EXCLUSIVE);
    CHECK_MSG(sv_trace_check(t, err, sizeof err), "%s", err);
    t->output[0].i = 3;
    EXPECT_BROKEN(t, -1, -1, 0, "output[0]: expected 0 (the identity), got 3", "");
    sv_trace_destroy(t);

    /* sv_trace_equal: bit-identity, naming the first difference; values of
     * unwritten cells do not count. sv_trace_finish is idempotent. */
    {
        sv_trace *a = example(SV_SCAN_INCLUSIVE), *b = example(SV_SCAN_INCLUSIVE);
        CHECK_MSG(sv_trace_equal(a, b, err, sizeof err), "%s", err);
        b->rounds[0].buf[1][4].i = 77; /* unwritten: no value to compare */
        CHECK_MSG(sv_trace_equal(a, b, err, sizeof err), "%s", err);
        b->rounds[2].buf[0][5].i = 13;
        CHECK(!sv_trace_equal(a, b, err, sizeof err));
        CHECK_STR(err, "round 2, buf[0], cell 5: 12 (bits 0000000c) vs 13 (bits 0000000d)");
        b->rounds[2].buf[0][5].i = 12;
        b->rounds[0].written[1][4] = true;
        CHECK(!sv_trace_equal(a, b, err, sizeof err));
        CHECK_STR(err, "round 0, buf[1], cell 4: ? (bits 00000000) vs 77 (bits 0000004d)");
        sv_trace_destroy(b);
        b = example(SV_SCAN_EXCLUSIVE);
        CHECK(!sv_trace_equal(a, b, err, sizeof err));
        CHECK_STR(err, "different scans: sum int32 inclusive vs sum int32 exclusive");
        CHECK(sv_trace_finish(a, err, sizeof err) && sv_trace_finish(a, err, sizeof err));
        CHECK_INT(a->total_ops, 17);
        CHECK_INT(a->output[7].i, 25);
        CHECK_MSG(sv_trace_check(a, err, sizeof err), "%s", err);
        sv_trace_destroy(a);
        sv_trace_destroy(b);
        sv_trace_destroy(NULL);
    }

    /* Every cell of a random int32 trace: corrupting any one pout cell is
     * caught at exactly that round and cell. */
    for (int op = 0; op < SV_OP_COUNT; op++) {
        size_t n = 100;
        sv_value *in = sv_random_values((sv_op)op, SV_TYPE_INT32, n, 42);
        sv_trace *u = sv_trace_create((sv_op)op, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, n, SV_BACKEND_CPU,
                                      NULL, err, sizeof err);
        CHECK(u && sv_emulate(u, err, sizeof err) && sv_trace_finish(u, err, sizeof err));
        for (size_t r = 1; u && r < u->nrounds; r++) {
            int pout = u->rounds[r].pout;
            for (size_t i = 0; i < n; i += 7) {
                sv_value keep = u->rounds[r].buf[pout][i];
                u->rounds[r].buf[pout][i].bits ^= 0x10; /* flip one bit */
                sv_check_loc loc;
                CHECK_MSG(!sv_trace_check_at(u, err, sizeof err, &loc), "%s round %zu cell %zu not caught",
                          sv_op_name((sv_op)op), r, i);
                CHECK_INT(loc.round, r);
                CHECK_INT(loc.buf, pout);
                CHECK_INT(loc.cell, i);
                u->rounds[r].buf[pout][i] = keep;
            }
        }
        CHECK_MSG(u && sv_trace_check(u, err, sizeof err), "%s", err);
        sv_trace_destroy(u);
        free(in);
    }

    /* float32: max is exact (one ulp off is caught); so is a sum: every cell
     * is one binary32 operation, checked bit for bit (issue 7, defect 11). */
    {
        size_t n = 64;
        sv_value *in = sv_random_values(SV_OP_MAX, SV_TYPE_FLOAT32, n, 3);
        sv_trace *u = sv_trace_create(SV_OP_MAX, SV_TYPE_FLOAT32, SV_SCAN_INCLUSIVE, in, n, SV_BACKEND_CPU,
                                      NULL, err, sizeof err);
        CHECK(u && sv_emulate(u, err, sizeof err) && sv_trace_finish(u, err, sizeof err));
        u->rounds[2].buf[0][40].f = nextafterf(u->rounds[2].buf[0][40].f, INFINITY);
        EXPECT_BROKEN(u, 2, 0, 40, "round 2, buf[0] (pout), cell 40 (full): expected ", "max over input[37..40]");
        sv_trace_destroy(u);
        free(in);

        in = sv_random_values(SV_OP_SUM, SV_TYPE_FLOAT32, n, 3);
        u = sv_trace_create(SV_OP_SUM, SV_TYPE_FLOAT32, SV_SCAN_INCLUSIVE, in, n, SV_BACKEND_CPU, NULL, err,
                            sizeof err);
        CHECK(u && sv_emulate(u, err, sizeof err) && sv_trace_finish(u, err, sizeof err));
        CHECK_MSG(sv_trace_check(u, err, sizeof err), "%s", err);
        /* last round: one ulp off is caught, with both bit patterns shown */
        size_t last = u->nrounds - 1;
        int pout = u->rounds[last].pout;
        sv_value keep = u->rounds[last].buf[pout][60];
        u->rounds[last].buf[pout][60].f = nextafterf(keep.f, INFINITY);
        sv_trace_finish(u, err, sizeof err);
        EXPECT_BROKEN(u, (int)last, pout, 60, "round 6, buf[0] (pout), cell 60 (partial): expected ",
                      "one binary32 operation; bits ");
        sv_trace_destroy(u);
        free(in);
    }
    /* The wrong float32 traces, each one cell changed from the
     * emulator's: all must be refused at that cell. */
    {
        static const struct {
            sv_op op;
            size_t n;
            float in[5];
            int round; /* -1: the last round */
            size_t cell;
            float bad;
        } cases[] = {
            {SV_OP_SUM, 2, {INFINITY, 1}, -1, 1, 42.0f},
            {SV_OP_SUM, 4, {3e38f, -3e38f, 1, 1}, -1, 3, 12345.0f},
            {SV_OP_PRODUCT, 5, {1e30f, 1e30f, 1e-30f, 1e-30f, 2}, -1, 4, -777.0f},
        };
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            sv_value in[5];
            for (size_t i = 0; i < cases[k].n; i++)
                in[i].f = cases[k].in[i];
            sv_trace *u = sv_trace_create(cases[k].op, SV_TYPE_FLOAT32, SV_SCAN_INCLUSIVE, in,
                                          cases[k].n, SV_BACKEND_CPU, NULL, err, sizeof err);
            CHECK(u && sv_emulate(u, err, sizeof err) && sv_trace_finish(u, err, sizeof err));
            CHECK_MSG(sv_trace_check(u, err, sizeof err), "case %zu: %s", k, err);
            size_t r = u->nrounds - 1;
            int po = u->rounds[r].pout;
            u->rounds[r].buf[po][cases[k].cell].f = cases[k].bad;
            sv_trace_finish(u, err, sizeof err);
            sv_check_loc loc;
            CHECK_MSG(!sv_trace_check_at(u, err, sizeof err, &loc), "case %zu: wrong cell accepted", k);
            CHECK_MSG(loc.round == (int)r && loc.buf == po && loc.cell == cases[k].cell,
                      "case %zu: found at round %d buf %d cell %zu: %s", k, loc.round, loc.buf,
                      loc.cell, err);
            sv_trace_destroy(u);
        }
    }
    return check_status();
}
