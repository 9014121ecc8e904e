/* The presenter script (--script FILE): a small plain-text list of steps,
 * each saying what to show and what the presenter says. The arrow keys walk
 * it. The format (docs/user-guide.md, "Presenter scripts"):
 *
 *     # comment
 *     round 2 view scan : Stride 2: each cell adds the value two to its left.
 *     round 2 move      : Watch pin[i-2] and pin[i] travel into pout[i].
 *     shift             : The exclusive scan shifts right by one.
 *     view overview     : All the rounds at once.
 *
 * One step a line. Before the colon, words: `round R` (settled on round R),
 * `move` (play the move into that round when the step is reached), `shift`
 * (the exclusive shift step), `view scan|overview|measure`, `kernel NAME`,
 * `kernel-file PATH` (a kernel file, as --kernel-file: run, watched, its
 * steps for `round`; PATH relative to the script's folder, no spaces),
 * `exercise NAME` (opens that exercise, as --exercise NAME: its starting
 * file copied into --into unless the student's file is there, watched and
 * checked on every save; it stays open when the script walks back),
 * `phase load|guard|op|barrier|swap|copy-back` (that phase of the round, as
 * Down/Up show it), `code on|off` (the source panel, as C), `correct on|off`
 * (the correct values beside a mistake's, as D), `quiz values|cases|outcome`
 * (predict mode asks that question about the round; the next step on the
 * same round reveals it).
 * After the colon, the caption, shown in place of the round's own caption.
 * A step that names no round keeps the one before (the first: round 0); one
 * that names no kernel keeps the kernel the script last named (before the
 * first: the kernel the window started with), so walking back past a
 * `kernel` step restores the kernel before it; `code` and `correct` keep
 * the same way. A phase and a question belong to their step alone. */
#ifndef SV_SCRIPT_H
#define SV_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "view.h" /* sv_phase, sv_quiz_kind */
#include "../core/lab_registry.h"

#define SV_SCRIPT_MAX_BYTES 65536  /* a longer file is refused */
#define SV_SCRIPT_MAX_STEPS 256
#define SV_SCRIPT_CAPTION 240      /* bytes of a caption, NUL included */

typedef enum sv_script_view {
    SV_SCRIPT_VIEW_KEEP,     /* the view of the step before */
    SV_SCRIPT_VIEW_SCAN,
    SV_SCRIPT_VIEW_OVERVIEW,
    SV_SCRIPT_VIEW_MEASURE
} sv_script_view;

typedef struct sv_script_step {
    int round;               /* settled round, resolved (never -1 after parsing) */
    bool shift;              /* the exclusive shift step */
    bool move;               /* animate into this round when reached */
    sv_script_view view;     /* resolved: never KEEP after parsing */
    char kernel[32];         /* "" when the step names none */
    /* ... the name, looked up once when parsed: a lab kernel (kernel_ok, kernel_id)
       or a shipped kernel beyond the chapter (beyond); neither: unknown, which
       sv_script_check refuses */
    bool kernel_ok;
    sv_kernel kernel_id;
    const sv_kernel_beyond *beyond;
    char kfile[512];         /* `kernel-file PATH` (issue 18): a kernel file shown from
                                this step on, relative to the script's folder once
                                loaded; "" when the step names none */
    char exercise[48];       /* `exercise NAME` (issue 19): the exercise opened at this
                                step (as --exercise NAME); "" when the step names none */
    sv_phase phase;          /* SV_PHASE_NONE: the whole round */
    signed char code;        /* the source panel: 1 on, 0 off, -1 as the step before */
    signed char correct;     /* D's correct values: 1 on, 0 off, -1 as the step before */
    bool quiz;               /* predict mode asks quiz_kind about this step */
    sv_quiz_kind quiz_kind;
    char caption[SV_SCRIPT_CAPTION]; /* UTF-8, no control bytes; "" for the round's own */
    int line;                /* line in the file, for messages */
} sv_script_step;

typedef struct sv_script {
    sv_script_step *steps;   /* owned */
    int n;
} sv_script;

/* Parses text (len bytes) named name (for messages). On failure returns
 * false, *out empty, err like `talk.txt:4: "rond": expected round, move,
 * shift, view, kernel or ":"`. Free with sv_script_finish. */
bool sv_script_parse(const char *text, size_t len, const char *name, sv_script *out,
                     char *err, size_t errlen);
/* Reads path (at most SV_SCRIPT_MAX_BYTES) and parses it. */
bool sv_script_load(const char *path, sv_script *out, char *err, size_t errlen);
/* Checks every step against a trace of nrounds rounds (exclusive: a shift
 * step exists) and its kernel names against the lab's registry; err names
 * the line of the first step out of range or unknown kernel. */
bool sv_script_check(const sv_script *s, int nrounds, bool exclusive, char *err, size_t errlen);
/* Checks each step's phase against the phases its step of t has (source.h:
 * sv_phases_of); err names the line and the phases the round has. Call
 * after sv_script_check. */
bool sv_script_check_phases(const sv_script *s, const sv_trace *t, char *err, size_t errlen);
void sv_script_finish(sv_script *s); /* accepts an empty or zeroed script */

#endif
