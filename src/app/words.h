/* The scan view's words as pure functions of a view (words.c): the caption,
 * the phase words, a cell's tooltip, the mistakes lab's verdict and words,
 * the counters, the key hints and the small labels the cells carry. Nothing
 * here draws; the renderers place and colour the strings, tests read them
 * without a window. Every function fills the caller's buffers (NUL-terminated,
 * cut to their size) and keeps no state. */
#ifndef SV_WORDS_H
#define SV_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scene.h"

#define SV_WORDS_MAX 512 /* a caption line's buffer */
#define SV_TIP_LINES 6   /* the most lines a tooltip has */
#define SV_TIP_MAX 256   /* a tooltip line's buffer */

/* The caption of the current step (s->step), two lines and the warps line. */
typedef struct sv_caption_words {
    char line1[SV_WORDS_MAX]; /* bold: what the step does (a script's caption
                                 replaces it; an open question asks instead) */
    char line2[SV_WORDS_MAX]; /* the small line under it; "" none */
    bool line2_error;         /* line2 says what went wrong in the hovered
                                 cell (the lab): drawn in the error colour */
    char warps[SV_WORDS_MAX]; /* n > SV_WARP: what runs in lockstep; "" else */
} sv_caption_words;

/* Fills out for view s; false (out empty) without a trace. */
bool sv_words_caption(const sv_app_view *s, sv_caption_words *out);

/* The colour a tooltip's frame and case line take: the cell's case, or the
 * error colour of a cell wrong in some run of the lab. */
typedef enum sv_words_tone {
    SV_TONE_TEXT,
    SV_TONE_FULL,
    SV_TONE_PARTIAL,
    SV_TONE_COPY,
    SV_TONE_ERROR
} sv_words_tone;

/* A cell's tooltip: line 0 names the cell and its value (bold), line 1 is
 * the formula (mono), the rest explain it. */
typedef struct sv_tip_words {
    int n;                                 /* lines used, 1 .. SV_TIP_LINES */
    char line[SV_TIP_LINES][SV_TIP_MAX];
    bool emph[SV_TIP_LINES];               /* drawn in the accent: the case line, or a
                                              mistake's faulty read (its correct read
                                              stays plain) */
    sv_words_tone accent;
} sv_tip_words;

/* The tooltip of cell (row 0..3, i) at the current step; false without a
 * trace or for a cell that is not there. */
bool sv_words_tooltip(const sv_app_view *s, int row, int i, sv_tip_words *out);

/* The operations step `step` of s's trace did (*now) and did up to it
 * (*total), its round, and the depth so far (*depth: the rounds up to it
 * that did an operation): a mistake's from its shown run (the lab's
 * reads), else the trace's rounds; false without that step. The counters
 * here and the compare view's Hillis-Steele pane count with it. */
bool sv_words_ops_at(const sv_app_view *s, int step, size_t *now, size_t *total, int *round,
                     int *depth);

/* The counters line ("ops this round 2 · total ...") into line, and its
 * note (overflow, float32 rounding, the lab's verdict) into note ("" none);
 * false without a trace. */
bool sv_words_counters(const sv_app_view *s, char *line, size_t n1, char *note, size_t n2);
/* The lab's verdict: "in-place · ...: output wrong in 87 of 100 runs · ..."
 * with racecheck's counts when the trace has them; "" without a lab. */
void sv_words_lab_verdict(const sv_app_view *s, char *note, size_t len);
/* The overview's counters: the whole run's operations and depth. */
void sv_words_overview_counters(const sv_trace *t, char *line, size_t len);
/* The key hints right of the timeline (predict mode: its score); "" under
 * --clean. Returns buf or a constant string. */
const char *sv_words_hint(const sv_app_view *s, char *buf, size_t len);
/* Step k's label on the timeline: "0", "1", ..., "shift". */
void sv_words_step_label(const sv_trace *t, int k, char *buf, size_t len);
/* The label of the input window [lo, hi]: "window [2, 5]". */
void sv_words_window(int lo, int hi, char *buf, size_t len);
/* The barrier phase's label: "__syncthreads(): all 8 threads wait here". */
void sv_words_barrier(const sv_trace *t, char *buf, size_t len);
/* The empty output row's band: when it will be written. */
const char *sv_words_output_pending(const sv_trace *t);
/* The three cases' conditions at the current step, for the legend: full
 * "i ≥ 3" (i ≥ 2^r − 1), partial "2 ≤ i < 3" (2^(r−1) ≤ i < 2^r − 1, "none"
 * in round 1), copy-through "i < 2" (i < 2^(r−1)); in the overview, which
 * shows every round, the conditions in r. false (all "") outside rounds 1
 * and up. */
bool sv_words_case_conditions(const sv_app_view *s, char out[3][48]);
/* The same conditions for the round of stride st (0: the overview's, in r);
 * true. Both panes' (the kernel pane's where its step reads as a round). */
bool sv_words_conditions_of(uint32_t st, char out[3][48]);
/* A case band of narrow cells: "full 4–7". */
void sv_words_case_band(sv_case cs, int lo, int hi, char *buf, size_t len);
/* The header: *title ("Hillis-Steele scan", "Measure") and the rest of the
 * line ("  ·  n = 8  ·  sum  ·  inclusive"). */
void sv_words_header(const sv_app_view *s, const char **title, char *rest, size_t len);
/* The trace's source, short for a clean slide: "CUDA · H200", "CPU emulator". */
void sv_words_short_source(const char *source, char *out, size_t len);

#endif
