/* The scan view's words without a window (words.h): captions, phase words,
 * tooltips, counters, hints and the lab's verdict, from views of emulator
 * traces and of a recorded lab trace, checked as strings. No GL context is
 * opened: the words are pure functions of a view. */
#include "app.h"
#include "trace_file.h"
#include "words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../expect.h"
#include "view_model.h"

/* A view of t at step, as app.c hands it out. */
static void view_at(sv_app_view *s, const sv_trace *t, int step)
{
    view_of(s, t);
    s->step = s->from_step = step;
}

static sv_trace *trace_of(const int32_t *in, size_t n, sv_scan scan)
{
    return view_trace_i32(in, n, SV_OP_SUM, scan);
}

static const int32_t chapter[8] = { 3, 1, 7, 0, 4, 1, 6, 3 };

static void test_captions(void)
{
    sv_trace *t = trace_of(chapter, 8, SV_SCAN_INCLUSIVE);
    sv_app_view s;
    sv_caption_words c;
    view_at(&s, t, 0);
    CHECK(sv_words_caption(&s, &c));
    CHECK_CONTAINS(c.line1, "Round 0: stage the input into buf[0]");
    CHECK_CONTAINS(c.line2, "no addition happens yet");
    CHECK_STR(c.warps, "");
    view_at(&s, t, 2);
    CHECK(sv_words_caption(&s, &c));
    CHECK_STR(c.line1, "Round 2, stride 2: each position i \u2265 2 adds the value 2 positions "
                       "to its left; positions 0\u20131 copy through.");
    CHECK_CONTAINS(c.line2, "holds the sum of up to 4 inputs ending there");
    CHECK(!c.line2_error);
    view_at(&s, t, 3);
    CHECK(sv_words_caption(&s, &c));
    CHECK_CONTAINS(c.line2, "Last round: every window reaches position 0");
    /* a script's caption replaces the round's own */
    s.caption = "Look at cell 5";
    CHECK(sv_words_caption(&s, &c));
    CHECK_STR(c.line1, "Look at cell 5");
    CHECK_STR(c.line2, "");
    /* phases */
    view_at(&s, t, 1);
    s.phase = SV_PHASE_BARRIER;
    CHECK(sv_words_caption(&s, &c));
    CHECK_CONTAINS(c.line1, "__syncthreads(): every thread waits here until all 8 have");
    s.phase = SV_PHASE_OP;
    CHECK(sv_words_caption(&s, &c));
    CHECK_CONTAINS(c.line1, "Round 1: thread i \u2265 1 reads pin[i\u22121] and pin[i], adds");
    /* no trace: no caption */
    view_at(&s, NULL, 0);
    CHECK(!sv_words_caption(&s, &c));
    sv_trace_destroy(t);

    int32_t big[64];
    for (int i = 0; i < 64; i++)
        big[i] = i % 5;
    t = trace_of(big, 64, SV_SCAN_INCLUSIVE);
    view_at(&s, t, 1);
    CHECK(sv_words_caption(&s, &c));
    CHECK_CONTAINS(c.warps, "the 32 threads of a warp (lanes 32k \u2026 32k+31)");
    CHECK_CONTAINS(c.warps, "the 2 warps run independently");
    sv_trace_destroy(t);
}

static void test_tooltips(void)
{
    sv_trace *t = trace_of(chapter, 8, SV_SCAN_INCLUSIVE);
    sv_app_view s;
    sv_tip_words tip;
    view_at(&s, t, 2);
    int pout = t->rounds[2].pout;
    char name[32];
    snprintf(name, sizeof name, "buf[%d][5] = 12  (pout)", pout);
    CHECK(sv_words_tooltip(&s, 1 + pout, 5, &tip));
    CHECK_INT(tip.n, 5);
    CHECK_STR(tip.line[0], name);
    CHECK_STR(tip.line[1], "pin[3] + pin[5] = 7 + 5 = 12");
    CHECK_STR(tip.line[2], "full (i \u2265 2^r \u2212 1 = 3): a whole window of 2^2 = 4 "
                           "elements, [2, 5]");
    CHECK_STR(tip.line[3], "pin[3] holds input[2..3], pin[5] holds input[4..5]: side by side, "
                           "input[2..5]");
    CHECK_STR(tip.line[4], "holds the sum of input[2..5]");
    CHECK(tip.accent == SV_TONE_FULL);
    CHECK(sv_words_tooltip(&s, 1 + pout, 1, &tip));
    CHECK_CONTAINS(tip.line[1], "copied from pin[1] = 4");
    CHECK(tip.accent == SV_TONE_COPY);
    CHECK(sv_words_tooltip(&s, 0, 4, &tip));
    CHECK_STR(tip.line[0], "input[4] = 4");
    CHECK(sv_words_tooltip(&s, 3, 2, &tip));
    CHECK_STR(tip.line[0], "output[2]: not written yet");
    CHECK(!sv_words_tooltip(&s, 1, 8, &tip));
    CHECK(!sv_words_tooltip(&s, 4, 0, &tip));
    sv_trace_destroy(t);
}

static void test_counters_and_hints(void)
{
    sv_trace *t = trace_of(chapter, 8, SV_SCAN_EXCLUSIVE);
    sv_app_view s;
    char line[256], note[256], buf[200];
    view_at(&s, t, 2);
    CHECK(sv_words_counters(&s, line, sizeof line, note, sizeof note));
    CHECK_STR(line, "ops this round 6 \u00b7 total 13 \u00b7 sequential n\u22121 = 7 \u00b7 "
                    "depth 2 of 3");
    CHECK_STR(note, "");
    CHECK_STR(sv_words_hint(&s, buf, sizeof buf),
              "\u25c4 \u25ba step \u00b7 Space play \u00b7 E edit \u00b7 H help");
    s.clean = true;
    CHECK_STR(sv_words_hint(&s, buf, sizeof buf), "");
    sv_words_step_label(t, 4, buf, sizeof buf);
    CHECK_STR(buf, "shift");
    sv_words_step_label(t, 3, buf, sizeof buf);
    CHECK_STR(buf, "3");
    char cond[3][48];
    CHECK(sv_words_case_conditions(&s, cond));
    CHECK_STR(cond[0], "i \u2265 3");
    CHECK_STR(cond[1], "2 \u2264 i < 3");
    CHECK_STR(cond[2], "i < 2");
    s.step = 1;
    CHECK(sv_words_case_conditions(&s, cond));
    CHECK_STR(cond[1], "none");
    s.step = 0;
    CHECK(!sv_words_case_conditions(&s, cond));
    s.overview = true;
    CHECK(sv_words_case_conditions(&s, cond));
    CHECK_STR(cond[0], "i \u2265 2^r\u22121");
    s.overview = false;
    s.step = 2;
    sv_words_window(2, 5, buf, sizeof buf);
    CHECK_STR(buf, "window [2, 5]");
    sv_words_overview_counters(t, buf, sizeof buf);
    CHECK_STR(buf, "17 ops in 3 rounds (depth 3) \u00b7 sequential n\u22121 = 7");
    const char *title;
    sv_words_header(&s, &title, buf, sizeof buf);
    CHECK_STR(title, "Hillis-Steele scan");
    CHECK_STR(buf, "  \u00b7  n = 8  \u00b7  sum  \u00b7  exclusive");
    sv_words_short_source("CUDA \u00b7 NVIDIA H200 (file t.json)", buf, sizeof buf);
    CHECK_STR(buf, "CUDA \u00b7 H200");
    sv_words_short_source("CPU emulator: no CUDA driver", buf, sizeof buf);
    CHECK_STR(buf, "CPU emulator");
    sv_trace_destroy(t);
}

/* The lab's words from the H200's recorded file, through the app's view. */
static void test_lab(void)
{
    char err[512];
    const char *path = SV_TEST_DATA "/in-place-64-h200-shaken.scanviz.json";
    sv_trace *t = sv_trace_load(path, err, sizeof err);
    CHECK_MSG(t && t->lab, "load %s: %s", path, err);
    if (!t || !t->lab) {
        sv_trace_destroy(t);
        return;
    }
    sv_app_config cfg = { .trace = t, .trace_path = path, .round = 3, .theme = SV_THEME_DARK,
                          .speed = 1.0f, .backend = SV_CHOOSE_CPU };
    static sv_app_state st;
    if (sv_app_init(&st, &cfg, err, sizeof err) != SV_APP_OK) {
        CHECK_MSG(false, "sv_app_init: %s", err);
        return;
    }
    sv_app_view v;
    sv_app_view_of(&st, &v);
    char line[256], note[256];
    CHECK(sv_words_counters(&v, line, sizeof line, note, sizeof note));
    CHECK_CONTAINS(note, "output wrong in ");
    CHECK_CONTAINS(note, " of 100 runs");
    CHECK_CONTAINS(note, "racecheck 124 errors");
    char verdict[256];
    sv_words_lab_verdict(&v, verdict, sizeof verdict);
    CHECK_STR(verdict, note);
    sv_app_cleanup(&st);
}

int main(void)
{
    test_captions();
    test_tooltips();
    test_counters_and_hints();
    test_lab();
    return check_report("all words checks passed");
}
