/* What a frame shows: the read-only view the renderers (layout.c,
 * render_*.c), the export and the frame benchmark draw from.
 *
 * Contract:
 *  - Only app.c fills a view, from its state, with sv_app_view_of() (app.h).
 *    Everyone else only reads it. A renderer includes this header, render.h
 *    or scene.h and core's headers, never app.h, state.h, SDL or bench_live.h.
 *  - A view is plain data, small enough to copy: numbers by value, text and
 *    tables by borrowed pointer. The pointers stay valid until the next call
 *    that changes the state it was taken from (sv_app_event, sv_app_update,
 *    sv_app_resize, sv_app_cleanup, ...): take a fresh view for every frame.
 *  - A copy may be changed to draw something the state does not show (the
 *    export draws every step settled from a copy); the state never sees it.
 *  - Text pointers are never NULL (an empty string is "none") and are
 *    NUL-terminated; edit_text is shorter than SV_VIEW_TEXT_MAX.
 *
 * Adding a mode (a panel, a quiz, an overview, an export option): add its
 * fields in the "modes" group below with their meaning and their "off"
 * value (a zeroed field must mean "off", so that tests and older callers
 * that build a view by hand keep drawing what they drew), give the state
 * what it needs in state.h, copy it across in sv_app_view_of(), change it
 * only from the app's event handling (app_*.c) (and a function in app.h when main.c
 * must set it, e.g. from a flag), and draw it from the view. */
#ifndef SV_VIEW_H
#define SV_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/trace.h"
#include "../core/bench_csv.h"
#include "../core/ktrace.h"
#include "../core/lab.h"
#include "steps.h" /* sv_view_steps */
#include "theme.h"
#include "util.h"

/* The longest input-box text a view may hold, NUL included. */
#define SV_VIEW_TEXT_MAX 32768 /* SV_EDIT_MAX: 1024 values of up to 31 characters */

/* Predict mode's questions (key Q). */
typedef enum sv_quiz_kind {
    SV_QUIZ_VALUES, /* "what value will cell i hold?" */
    SV_QUIZ_CASES,  /* "which cells are full windows / partial / copy-through?" */
    SV_QUIZ_OUTCOME /* a mistake of the lab: "will cell i be right?", marked with
                       SV_QUIZ_RIGHT / SV_QUIZ_WRONG in quiz_mark; right means
                       right in every run (a race is the code's, not a run's) */
} sv_quiz_kind;

/* A predicted cell's verdict after Reveal. */
enum { SV_QUIZ_UNASKED = 0, SV_QUIZ_RIGHT = 1, SV_QUIZ_WRONG = 2 };
/* The animation's timing at speed 1 (app.c animates with it; the GIF
 * export plays it): one move along the arrows, and how long autoplay holds
 * a settled round so its caption can be read. */
#define SV_MOVE_S 0.35f
#define SV_HOLD_S 1.6f
/* A phase inside a round (Down/Up step through them; source.h maps each to
 * the kernel's lines). NONE, the zero, shows the whole round at once. */
typedef enum sv_phase {
    SV_PHASE_NONE,
    SV_PHASE_LOAD,      /* round 0: buf[0][i] = in[i] */
    SV_PHASE_GUARD,     /* if (i >= stride): the threads coloured by branch */
    SV_PHASE_OP,        /* the add (or the else copy): reads, then writes */
    SV_PHASE_BARRIER,   /* __syncthreads(): every thread waits */
    SV_PHASE_SWAP,      /* pout = 1 - pout; pin = 1 - pout: the tags swap */
    SV_PHASE_COPY_BACK, /* after the last round: out[i] = buf[pout][i] */
    SV_PHASE_COUNT
} sv_phase;

/* Which screen is up. */
typedef enum sv_view {
    SV_VIEW_SCAN,    /* the rounds */
    SV_VIEW_MEASURE  /* throughput and work against n (key M) */
} sv_view;

/* An exercise open in the window (--exercise NAME, app_exercise.c): what
 * its panel (render_exercise.c) shows. Strings are never NULL while the
 * view's exercise is set; "" means none. */
typedef enum sv_exercise_check_state {
    SV_EXCHECK_NONE,     /* no check yet */
    SV_EXCHECK_RUNNING,  /* a check runs (at opening or after a save) */
    SV_EXCHECK_PASSED,
    SV_EXCHECK_FAILED
} sv_exercise_check_state;

typedef struct sv_exercise_view {
    const char *name, *title;     /* "guard", "The left-edge guard" */
    const char *statement;        /* the statement's text */
    const char *file;             /* the student's file, as given */
    int index, count;             /* its place in the sequence, 1-based, and the length */
    sv_exercise_check_state check;
    const char *result;           /* the latest check's words ("" none yet) */
    bool stale;                   /* result is of an earlier save (a check runs) */
    const char *hint;             /* the last hint shown ("" none) */
    const char *hint_file;        /* its file, shown: relative to the current folder where
                                     it is under it, escaped ("" none) */
    unsigned hints_shown, hint_count;
    const char *solution;         /* the revealed solution's text ("" hidden) */
    const char *solution_file;    /* its file, shown as hint_file is ("" hidden) */
    int scroll;                   /* the panel's body lines scrolled off its top (the
                                     renderer clamps it to what the text needs) */
    const char *next;             /* the next exercise offered after a pass ("" none) */
    const char *note;             /* a line about the progress file ("" none) */
} sv_exercise_view;

/* A kernel file's run going on (app_kfile.c): for how long, its time
 * limit, and a host function's launches started so far (0: none yet, or a
 * single block's file), the last one's blocks ended of its grid. */
typedef struct sv_app_krun {
    double seconds, limit_s;
    uint32_t launched, ended, grid;
} sv_app_krun;

typedef struct sv_app_view {
    /* What is shown. */
    const sv_trace *trace;       /* NULL: no trace yet ("no trace yet" is drawn) */
    const char *source;          /* where the trace came from, for the header */
    sv_view view;                /* the screen */

    /* Where we are on the timeline. step is 0 .. steps-1 (sv_view_steps);
     * anim runs 0 -> 1 while values move along their arrows from from_step's
     * pout into step's (1 = settled; from_step == step when settled). */
    int step;
    int from_step;
    float anim;
    bool playing;                /* autoplay is on (the hint line says so) */

    /* Look. Every size derives from the framebuffer and ui_scale. */
    sv_theme_id theme;
    float ui_scale;              /* 0.5 .. 3, 1 = default */
    float zoom;                  /* 1 = all cells fit, up to n / 4 */
    float pan;                   /* cells scrolled off on the left (zoom > 1) */
    int fb_w, fb_h;              /* the window's drawable in pixels; a renderer
                                    draws at the size it is given, which the
                                    export may choose differently */

    /* Pointer: a cell as (row, index), row 0 input, 1 buf[0], 2 buf[1],
     * 3 output; -1 = none. The tooltip is about the pinned cell, else the
     * hovered one. */
    int hover_row, hover_cell;
    bool hover_source;           /* the pointer is on the header's source line */
    int pinned_row, pinned_cell;

    /* Overlays. */
    bool help;                   /* the help overlay (help.h lists the keys) */
    bool editing;                /* the input box is open */
    const char *edit_text;       /* its text (UTF-8) */
    size_t edit_cursor;          /* byte offset into edit_text */
    bool edit_all;               /* the whole text is selected: draw it highlighted */
    const char *edit_error;      /* names the bad token; "" when the text is fine */
    const char *status;          /* a transient message; "" none */
    float status_time;           /* seconds it has left (it fades out at the end) */

    /* The Measure view. */
    const sv_bench_table *bench; /* NULL: nothing measured (a placeholder is drawn) */
    const char *bench_source;    /* "NVIDIA H200 · CUDA 12.8 · 2026-11-29 (shipped)" */
    bool bench_running;          /* a live run is going */
    float bench_progress;        /* 0 .. 1 while it runs */
    const struct sv_timeline *timeline; /* --timeline's; NULL: none */
    bool timeline_on;            /* the Measure view draws it instead of the plots */
    int tl_first, tl_rows;       /* its tiles shown */
    uint64_t tl_cursor;          /* step by time, SV_TL_NO_CURSOR none */

    /* Modes: each added by the feature that draws it (see the note above);
     * zero is "off". */

    /* Predict mode (key P, --quiz). quiz_asking: the current step is a
     * question: its destination row (pout; buf[0] in round 0; the output at
     * the shift, and the output too when it is filled at this step) shows `?`
     * cells, with no case colours or diagonal arrows, until Reveal. The
     * arrays have trace->n entries; NULL when quiz is false. */
    bool quiz;
    bool quiz_asking;
    sv_quiz_kind quiz_kind;      /* the question of this step (cases only where
                                    the step has cases: rounds >= 1) */
    int quiz_step;               /* the step the answers and verdicts are about */
    int quiz_sel;                /* the selected cell of the asked row; -1 none */
    const char *quiz_text;       /* the number being typed into quiz_sel; "" none */
    const bool *quiz_has;        /* SV_QUIZ_VALUES: cell i has an answer ... */
    const sv_value *quiz_value;  /* ... and this is it */
    const unsigned char *quiz_mark; /* SV_QUIZ_CASES: 0 none, else 1 + sv_case;
                                       SV_QUIZ_OUTCOME: 0 none, SV_QUIZ_RIGHT, SV_QUIZ_WRONG */
    const unsigned char *quiz_result; /* after Reveal: SV_QUIZ_RIGHT / _WRONG / _UNASKED */
    bool quiz_scored;            /* quiz_result holds the verdicts of quiz_step */
    int quiz_right, quiz_total;  /* the running score since P */
    /* Slides (issue 10, section 2). */
    bool clean;                  /* --clean: no key hints, no [?], the source short
                                    ("CUDA · H200", "CPU emulator") */
    bool overview;               /* key V / --overview: every round stacked in one
                                    picture instead of the current round */
    const char *caption;         /* a presenter script's caption, drawn in place of
                                    the round's own; NULL or "" none */
    /* The kernel on screen (key C, --code): the source panel beside the
     * cells, showing source (source.h: sv_source_get(source_kernel)); the
     * phase inside the current step (Down/Up), whose lines the panel
     * highlights and whose reads, writes or wait the cells show. */
    bool code;
    sv_phase phase;
    int source_kernel;           /* 0: the chapter's kernel */

    /* The mistakes lab (K cycles kernels, D the correct values beside).
     * kernel 0 (SV_KERNEL_CORRECT) with lab NULL is the plain scan. */
    int kernel;                  /* sv_kernel of the trace shown */
    const char *kernel_file;     /* its source file (lab.h's registry); "" for none */
    bool kernel_embedded;        /* source_kernel is that file (else the chapter's is shown) */
    const char *lab_note;        /* "in-place · sequential · emulated"; "" for none */
    const sv_lab_summary *lab;   /* every round's and cell's outcome over the runs; NULL: none */
    const sv_lab_reads *lab_reads; /* what each read of the shown run saw; NULL: unknown (GPU) */
    bool show_correct;           /* D: the correct kernel's values beside the mistake's */
    /* Predict mode asks about a step of a mistake: what the outcome would
     * give away (the timeline's "first wrong" ring, the legend's hatch, the
     * verdict) stays hidden until Reveal. false: shown. */
    bool outcome_hidden;
    /* A kernel trace (issue 18: --kernel-file, and any kernel the runtime
     * ran): with ktrace set, the kernel pane (pane_kernel.c) draws it instead
     * of the Hillis-Steele rows: the kernel's own arrays as rows, one step per
     * barrier interval, arrows from the reads it recorded, borders where the
     * chapter's reading fits, hazards and the failure on their cells.
     *  - ktrace: analyzed (sv_ktrace_analyze: readings filled); NULL: off.
     *    `trace` may stay set too (its chapter reading), the pane ignores it.
     *  - kstep: the step shown, 0 .. ktrace->nsteps - 1 (the state after
     *    barrier interval kstep + 1 in words); clamped when drawn. With
     *    ktrace set the timeline has sv_kpane_steps(ktrace) dots and a hit on
     *    it names a kstep (sv_layout_hit_step).
     *  - hover_row/pinned_row count the kernel pane's rows (sv_kpane_row_*,
     *    kpane.h: 0 the input, then each touched array row, last the output).
     *  - kcompare: the chapter kernel's trace on the same input (analyzed),
     *    NULL none; kcompare_shown draws its values as a ghost row under each
     *    of the student's rows it matches (same array shape), each differing
     *    cell marked, and the first difference in the caption.
     *  - kerror: the latest save's failure in words ("" none: the shown trace
     *    is the latest); kerror_line its line in the file (0 unknown);
     *    kstale: the shown trace is from the previous version (the header
     *    says so). The source panel shows ktrace->source and marks
     *    kerror_line, and the hovered hazard's two lines. */
    const sv_ktrace *ktrace;
    int kstep;
    const sv_ktrace *kcompare;
    bool kcompare_shown;
    const char *kerror;
    int kerror_line;
    bool kstale;
    /* (watch) With kstale, the failing version's text: the source panel shows
     * it, kerror_line marked, instead of ktrace->source. NULL otherwise. */
    const char *ksource;
    /* ktrace came from a trace file (--trace, version 3): nothing runs it
     * again (the header says so). false: a kernel file's run. */
    bool kread_only;
    /* A run of the kernel file is going on (the header says so, with krun;
     * before the first one's trace the pane says what runs). */
    bool krunning;
    sv_app_krun krun;
    /* The tile Tab zoomed in on (its bracket drawn in the accent colour): the
     * cells of out[] of launch ktile_launch; ktile_lo -1 none. */
    int64_t ktile_lo, ktile_hi;
    uint32_t ktile_launch;
    /* The presenter script (--script): the step shown, 1-based, of
     * script_steps; both 0 without a script. The corner says "6 / 12"
     * (not on a --clean slide). */
    int script_step, script_steps;
    /* An exercise (--exercise NAME): its panel beside the cells; NULL off. */
    const sv_exercise_view *exercise;
    /* The compare view (issue 20: --compare blelloch, key B; pane_compare.c
     * draws it): the shown trace (Hillis-Steele, the chapter's pane) beside
     * Blelloch's on the same input, its trace from the CPU runtime drawn
     * through the kernel pane, each with its own step and timeline.
     *  - compare: on (the scan view draws the two panes; the fields below
     *    mean nothing when off). cmp_ktrace: Blelloch's trace (analyzed),
     *    NULL when it could not run (cmp_error says why; "" none).
     *  - cmp_step[0]: the Hillis-Steele pane's step (0 .. sv_view_steps of
     *    trace - 1); cmp_step[1]: Blelloch's (0 .. sv_kpane_steps - 1).
     *  - cmp_focus: which pane Right/Left step (SV_CMP_BOTH, SV_CMP_HS,
     *    SV_CMP_BLELLOCH); the stepping panes are marked.
     *  - cmp_measure: the Measure view was opened from the compare view: it
     *    says where the extra work costs time (compare.h's cost words). */
    bool compare;
    const sv_ktrace *cmp_ktrace;
    const char *cmp_error;
    int cmp_step[2];
    int cmp_focus;
    bool cmp_measure;
} sv_app_view;

/* The compare view's stepping panes (cmp_focus). */
enum { SV_CMP_BOTH = 0, SV_CMP_HS = 1, SV_CMP_BLELLOCH = 2 };

#endif
