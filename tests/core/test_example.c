/* The chapter's example, [3 1 7 0 4 1 6 3], round by round: every buffer
 * (the ? cells of buf[1] included) and every case, as the figures show them. */
#include <stdlib.h>

#include "../expect.h"
#include "emulate.h"
#include "parse.h"
#include "trace.h"

#define U 9999 /* an unwritten cell (?) in the tables below */

/* buf[round][buffer][cell], from the chapter's figures. */
static const int32_t want_buf[4][2][8] = {
    /* round 0: staging; buf[1] uninitialized */
    {{3, 1, 7, 0, 4, 1, 6, 3}, {U, U, U, U, U, U, U, U}},
    /* round 1, stride 1: pin buf[0], pout buf[1] */
    {{3, 1, 7, 0, 4, 1, 6, 3}, {3, 4, 8, 7, 4, 5, 7, 9}},
    /* round 2, stride 2: pin buf[1], pout buf[0]. Each cell is the sum of
     * input[i-3..i]: cells 5..7 are 7+0+4+1 = 12, 0+4+1+6 = 11, 4+1+6+3 = 14.
     * (DESIGN.md's sketch shows 9 14 16 there; those would make round 3
     * give 13 and 25 at cells 5 and 6, not the chapter's 16 and 22.) */
    {{3, 4, 11, 11, 12, 12, 11, 14}, {3, 4, 8, 7, 4, 5, 7, 9}},
    /* round 3, stride 4: pin buf[0], pout buf[1] */
    {{3, 4, 11, 11, 12, 12, 11, 14}, {3, 4, 11, 11, 15, 16, 22, 25}},
};

#define C SV_CASE_COPY
#define P SV_CASE_PARTIAL
#define F SV_CASE_FULL
/* Cases of rounds 1..3 from the case figures. */
static const sv_case want_cases[3][8] = {
    {C, F, F, F, F, F, F, F}, /* round 1: position 0 copies, 1..7 full */
    {C, C, P, F, F, F, F, F}, /* round 2: 0,1 copy, 2 partial, 3..7 full */
    {C, C, C, C, P, P, P, F}, /* round 3: 0..3 copy, 4..6 partial, 7 full */
};

int main(void)
{
    char err[256];
    sv_value *in = NULL;
    size_t n = 0;
    CHECK_MSG(sv_parse_values("3 1 7 0 4 1 6 3", SV_TYPE_INT32, SV_MAX_N, &in, &n, err, sizeof err),
              "%s", err);
    CHECK_INT(n, 8);
    sv_trace *t = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, in, n,
                                  SV_BACKEND_CPU, NULL, err, sizeof err);
    CHECK_MSG(t != NULL, "%s", err);
    if (!t)
        return check_status();
    CHECK_MSG(sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err), "%s", err);
    CHECK_INT(t->nrounds, 4);

    static const int want_stride[4] = {0, 1, 2, 4};
    static const int want_pin[4] = {-1, 0, 1, 0};
    static const int want_pout[4] = {-1, 1, 0, 1};
    for (int r = 0; r < 4; r++) {
        const sv_round *rd = &t->rounds[r];
        CHECK_INT(rd->round, r);
        CHECK_INT(rd->stride, want_stride[r]);
        CHECK_INT(rd->pin, want_pin[r]);
        CHECK_INT(rd->pout, want_pout[r]);
        for (int b = 0; b < 2; b++) {
            for (int i = 0; i < 8; i++) {
                int32_t w = want_buf[r][b][i];
                CHECK_MSG(rd->written[b][i] == (w != U), "round %d buf[%d][%d] written=%d", r, b, i,
                          rd->written[b][i]);
                if (w != U)
                    CHECK_MSG(rd->buf[b][i].i == w, "round %d buf[%d][%d] = %d, expected %d", r, b, i,
                              rd->buf[b][i].i, w);
            }
        }
        if (r == 0) {
            CHECK(rd->cases == NULL);
            continue;
        }
        CHECK_INT(rd->ops, 8 - want_stride[r]);
        for (int i = 0; i < 8; i++) {
            CHECK_MSG(rd->cases[i] == want_cases[r - 1][i], "round %d cell %d: case %s, expected %s", r,
                      i, sv_case_name(rd->cases[i]), sv_case_name(want_cases[r - 1][i]));
            CHECK_INT(sv_case_of(r, (size_t)i), want_cases[r - 1][i]);
            /* the window: after round r, cell i holds input[max(0, i-2^r+1) .. i] */
            int lo = i - (1 << r) + 1;
            CHECK_INT(rd->window_lo[i], lo < 0 ? 0 : lo);
        }
    }
    static const int32_t want_out[8] = {3, 4, 11, 11, 15, 16, 22, 25};
    for (int i = 0; i < 8; i++) {
        CHECK_INT(t->output[i].i, want_out[i]);
        CHECK_INT(t->inclusive[i].i, want_out[i]);
    }
    CHECK_INT(t->total_ops, 7 + 6 + 4);
    CHECK_INT(t->overflow_count, 0);
    CHECK_MSG(sv_trace_check(t, err, sizeof err), "%s", err);
    sv_trace_destroy(t);

    /* Exclusive: the inclusive result shifted right, identity 0 in front. */
    t = sv_trace_create(SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, in, n, SV_BACKEND_CPU, NULL,
                        err, sizeof err);
    CHECK(t && sv_emulate(t, err, sizeof err) && sv_trace_finish(t, err, sizeof err));
    static const int32_t want_excl[8] = {0, 3, 4, 11, 11, 15, 16, 22};
    for (int i = 0; t && i < 8; i++)
        CHECK_INT(t->output[i].i, want_excl[i]);
    CHECK_MSG(t && sv_trace_check(t, err, sizeof err), "%s", err);
    sv_trace_destroy(t);
    free(in);
    return check_status();
}
