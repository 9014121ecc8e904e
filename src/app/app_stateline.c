/* The state line (F12, SIGUSR1): the whole state on one line of key=value
 * words for tests and scripts (docs/user-guide.md "The state line"). */
#include <stdio.h>
#include <stdlib.h>

#include "../core/escape.h"
#include "../core/timeline.h"
#include "app_internal.h"
#include "kpane.h"
#include "source.h"

static void quoted(char *dst, size_t len, const char *src)
{
    size_t j = 0;
    for (size_t i = 0; src[i] && j + 1 < len; i++)
        dst[j++] = src[i] == '"' ? '\'' : (src[i] == '\n' ? ' ' : src[i]);
    dst[j] = '\0';
}

/* Where the timeline dots and the cells are, in window points, so that
 * scripts can click what is drawn; and the [?] button's centre. */
static void geometry(const sv_app_state *s, char *geo, size_t geo_len, char *helpbtn,
                     size_t help_len)
{
    sv_layout l;
    sv_app_layout_of(s, &l);
    float rx = s->fb_w > 0 ? (float)s->win_w / (float)s->fb_w : 1.0f;
    float ry = s->fb_h > 0 ? (float)s->win_h / (float)s->fb_h : 1.0f;
    snprintf(helpbtn, help_len, "helpbtn=%.0f,%.0f",
             (double)((l.help_hint.x + l.help_hint.w / 2.0f) * rx),
             (double)((l.help_hint.y + l.help_hint.h / 2.0f) * ry));
    geo[0] = '\0';
    if (!s->trace)
        return;
    size_t at = 0;
    at += (size_t)snprintf(geo + at, geo_len - at, "timeline=");
    for (int i = 0; i < l.steps && i < SV_MAX_STEPS && at < geo_len - 64; i++)
        at += (size_t)snprintf(geo + at, geo_len - at, "%s%.0f", i ? "," : "",
                               (double)(l.timeline_x[i] * rx));
    if (at < geo_len - 200)
        snprintf(geo + at, geo_len - at, "@%.0f cells=%.1f+%.2f@%.0f,%.0f,%.0f,%.0f",
                 (double)(l.timeline_y * ry), (double)(l.cell_x0 * rx + l.cell_w * rx / 2),
                 (double)(l.cell_pitch * rx), (double)(l.row_y[0] * ry),
                 (double)(l.row_y[1] * ry), (double)(l.row_y[2] * ry),
                 (double)(l.row_y[3] * ry));
}

/* A kernel file (--kernel-file): kfile=NAME ksteps kout (the shown trace's
 * output, `?` unwritten) kverdict kfail kerror kerror_line kstale kruns
 * (results taken) kms (the last save to its result) kwatch kcompare
 * kschedule khazards kwrong, kruns_made and kshown (the trace's runs and the
 * one it shows: W steps it), kread_only (the kernel trace came from a
 * --trace file: kfile is ""); "kfile=-" without either. Returns a malloc'd
 * string (NULL: out of memory). */
static char *kfile_words(const sv_app_state *s)
{
    const sv_ktrace *t = s->ktrace;
    size_t len = (t ? t->n * 24 : 0) + sizeof s->kerror * 4 + sizeof s->kfile * 4 + 512;
    char *w = malloc(len);
    if (!w)
        return NULL;
    if (!s->kf && !s->ktrace) {
        snprintf(w, len, "kfile=-");
        return w;
    }
    char *esc = malloc(sizeof s->kerror * 4);
    char *name = malloc(sizeof s->kfile * 4);
    if (!esc || !name) {
        free(esc);
        free(name);
        free(w);
        return NULL;
    }
    char err[sizeof s->kerror], file[sizeof s->kfile], sched[48];
    /* a run going on: "launch:K:E/G" (a host function's launch K started,
     * E of its G blocks ended), or "1"; "0" none */
    char running[32] = "0";
    sv_app_krun kr;
    char tile[48] = "-"; /* Tab's tile: the cells of out[] it wrote */
    if (t && s->ktile_lo >= 0)
        snprintf(tile, sizeof tile, "%lld-%lld", (long long)s->ktile_lo, (long long)s->ktile_hi);
    if (sv_app_kfile_progress(s, &kr))
        snprintf(running, sizeof running, kr.launched ? "launch:%u:%u/%u" : "1",
                 (unsigned)kr.launched, (unsigned)kr.ended, (unsigned)kr.grid);
    quoted(err, sizeof err, sv_escape(s->kerror, esc, sizeof s->kerror * 4));
    quoted(file, sizeof file, sv_escape(s->kfile, name, sizeof s->kfile * 4));
    sv_schedule_format(s->kschedule, sched, sizeof sched);
    static const char *verdicts[] = {"ok", "wrong", "refused", "failed", "unavailable",
                                     "internal"};
    size_t at = (size_t)snprintf(
        w, len, "kfile=\"%s\" kread_only=%d ksteps=%zu kverdict=%s kfail=%s kerror_line=%d kstale=%d "
        "kruns=%u kms=%.1f kwatch=%s kcompare=%d kschedule=%s kwrong=%u kruns_made=%u "
        "kshown=%u khazards=%llu krunning=%s ktile=%s kerror=\"%s\" kout=", file, s->kread_only ? 1 : 0, t ? t->nsteps : (size_t)0,
        t ? verdicts[sv_ktrace_verdict(t)] : "none",
        t ? sv_kfail_kind_name(t->failure.kind) : "none", s->kerror_line, s->kstale ? 1 : 0,
        s->kfile_taken, s->kfile_ms, sv_app_kfile_method(s),
        s->kcompare_shown && sv_app_kcompare(s) ? 1 : 0, sched, t ? t->wrong_runs : 0u,
        t ? t->runs : 0u, t ? t->shown_run : 0u,
        t ? (unsigned long long)t->hazards_total : 0ull, running, tile, err);
    for (size_t i = 0; t && i < t->n && at + 32 < len; i++) {
        char v[40];
        at += (size_t)snprintf(w + at, len - at, "%s%s", i ? "," : "",
                               t->output_written[i] ? sv_value_format(t->type, t->output[i], v,
                                                                      sizeof v)
                                                    : "?");
    }
    if (!t)
        snprintf(w + at, len - at, "-");
    free(esc);
    free(name);
    return w;
}

/* Predict mode: the question, its answers (cell:value or cell:case), the
 * verdicts after Reveal (cell:right or cell:wrong) and the score. */
static void quiz_words(const sv_app_state *s, char *quiz, size_t len)
{
    quiz[0] = '\0';
    if (!s->trace)
        return;
    sv_quiz_kind kind = sv_app_quiz_kind_at(s, s->step);
    size_t at = (size_t)snprintf(quiz, len,
        "quiz=%d quiz_kind=%s quiz_phase=%s quiz_step=%d quiz_sel=%d quiz_text=\"%s\" "
        "quiz_score=%d/%d quiz_answers=", s->quiz ? 1 : 0,
        sv_app_quiz_kind_name(kind),
        !s->quiz ? "off" : s->quiz_asking ? "ask" : "shown", s->quiz_step, s->quiz_sel,
        s->quiz_text, s->quiz_right, s->quiz_total);
    const char *sep = "";
    for (size_t i = 0; i < s->trace->n && i < SV_MAX_N && at < len - 600; i++) {
        char one[48];
        if (kind == SV_QUIZ_CASES && s->quiz_mark[i])
            at += (size_t)snprintf(quiz + at, len - at, "%s%zu:%s", sep, i,
                                   sv_case_name((sv_case)(s->quiz_mark[i] - 1)));
        else if (kind == SV_QUIZ_OUTCOME && s->quiz_mark[i])
            at += (size_t)snprintf(quiz + at, len - at, "%s%zu:%s", sep, i,
                                   s->quiz_mark[i] == SV_QUIZ_RIGHT ? "right" : "wrong");
        else if (kind == SV_QUIZ_VALUES && s->quiz_has[i])
            at += (size_t)snprintf(quiz + at, len - at, "%s%zu:%s", sep, i,
                                   sv_value_format(s->trace->type, s->quiz_value[i], one,
                                                   sizeof one));
        else
            continue;
        sep = ",";
    }
    at += (size_t)snprintf(quiz + at, len - at, " quiz_results=");
    sep = "";
    for (size_t i = 0; s->quiz_scored && i < s->trace->n && i < SV_MAX_N && at < len - 40; i++) {
        if (s->quiz_result[i] == SV_QUIZ_UNASKED)
            continue;
        at += (size_t)snprintf(quiz + at, len - at, "%s%zu:%s", sep, i,
                               s->quiz_result[i] == SV_QUIZ_RIGHT ? "right" : "wrong");
        sep = ",";
    }
}

/* An exercise (--exercise): exercise=NAME excheck=none|running|passed|failed
 * exstale exresult exhints=SHOWN/COUNT exasks (reveal asks) exsolution
 * exnext exchecks (results taken) exscroll=LINE/MAX (the panel's body; MAX
 * -1 before a frame) expanel=X,Y,W,H (the panel in window points) exfile
 * exnote; "exercise=-" without one. */
static void exercise_words(const sv_app_state *s, char *w, size_t len)
{
    const sv_exercise_view *v = &s->exv;
    if (!s->ex || !v->name) {
        snprintf(w, len, "exercise=-");
        return;
    }
    static const char *checks[] = {"none", "running", "passed", "failed"};
    char esc[4096], result[2048], file[1100], note[1500];
    quoted(result, sizeof result, sv_escape(v->result, esc, sizeof esc));
    quoted(file, sizeof file, sv_escape(v->file, esc, sizeof esc));
    quoted(note, sizeof note, sv_escape(v->note, esc, sizeof esc));
    sv_layout l;
    sv_app_layout_of(s, &l);
    float rx = s->fb_w > 0 ? (float)s->win_w / (float)s->fb_w : 1.0f;
    float ry = s->fb_h > 0 ? (float)s->win_h / (float)s->fb_h : 1.0f;
    const sv_box *b = &l.exercise_panel;
    snprintf(w, len, "exercise=%s exindex=%d/%d excheck=%s exstale=%d exhints=%u/%u exasks=%u "
             "exsolution=%d exnext=%s exchecks=%u exscroll=%d/%d expanel=%.0f,%.0f,%.0f,%.0f "
             "exfile=\"%s\" exnote=\"%s\" exresult=\"%s\"",
             v->name, v->index, v->count, checks[v->check], v->stale ? 1 : 0, v->hints_shown,
             v->hint_count, s->ex_reveal_asks, v->solution[0] ? 1 : 0,
             v->next[0] ? v->next : "-", s->ex_checks, v->scroll, s->ex_scroll_max,
             (double)(b->x * rx), (double)(b->y * ry), (double)(b->w * rx), (double)(b->h * ry),
             file, note, result);
}

size_t sv_app_state_values(const sv_app_state *s)
{
    size_t n = SV_MAX_N;
    if (s->trace && s->trace->n > n)
        n = s->trace->n;
    if (s->ktrace && s->ktrace->n > n)
        n = s->ktrace->n;
    return n;
}

void sv_app_state_line(const sv_app_state *s, char *buf, size_t len)
{
    if (len == 0)
        return;
    /* The arrays (2 x 48 bytes a value: 48 KB each at SV_MAX_N) on the heap,
     * the rest on the stack: reentrant, and nothing kept between calls. */
    const size_t VALUES_MAX = sv_app_state_values(s) * 48;
    char *in = malloc(VALUES_MAX), *out = malloc(VALUES_MAX);
    char *text = malloc(SV_EDIT_MAX);
    char err[300], src[300];
    if (!in || !out || !text) {
        snprintf(buf, len, "state error=\"out of memory\"");
        free(in);
        free(out);
        free(text);
        return;
    }
    in[0] = out[0] = '\0';
    if (s->trace) {
        sv_app_format_values(s->trace->type, s->trace->input, s->trace->n, ',', NULL, in,
                             VALUES_MAX);
        /* `?` where a mistake left the copied cell unwritten, as the window draws it */
        sv_app_format_values(s->trace->type, s->trace->output, s->trace->n, ',',
                             s->lab ? s->trace : NULL, out, VALUES_MAX);
    }
    char geo[1024], quiz[2048], helpbtn[64];
    geometry(s, geo, sizeof geo, helpbtn, sizeof helpbtn);
    quiz_words(s, quiz, sizeof quiz);
    /* The source lines the phase highlights (0-0: none). */
    int hl_lo = 0, hl_hi = 0;
    const sv_source_file *sf = sv_source_get(s->source_kernel);
    if (s->ktrace && s->kstale && s->ksource) {
        /* a failed save's text is shown: the picture's lines are not its */
    } else if (s->ktrace && s->phase != SV_PHASE_NONE) { /* a kernel's own lines (kphase.c) */
        int kl[SV_KPHASE_MAX_LINES];
        int nk = sv_kphase_lines(s->ktrace, (size_t)s->step, s->phase, kl, SV_KPHASE_MAX_LINES);
        hl_lo = nk > 0 ? kl[0] : 0;
        hl_hi = nk > 0 ? kl[nk - 1] : 0;
    } else if (sf && s->phase != SV_PHASE_NONE) {
        sv_source_phase_lines(sf, s->phase, s->step, &hl_lo, &hl_hi);
    }
    /* The schedule the shown outcome ran under: "gpu" for GPU runs. */
    char sched[48];
    const sv_lab_record *rec = s->trace ? s->trace->lab : NULL;
    if (rec && !rec->emulated)
        snprintf(sched, sizeof sched, "gpu");
    else
        sv_schedule_format(rec ? rec->schedule : s->schedule, sched, sizeof sched);
    /* racecheck: errors/warnings, "not-run" when asked for but it could
     * not run, "-" when not asked for. */
    char race[48] = "-";
    if (rec && rec->racecheck && rec->racecheck->ran)
        snprintf(race, sizeof race, "%llu/%llu", (unsigned long long)rec->racecheck->errors,
                 (unsigned long long)rec->racecheck->warnings);
    else if (rec && rec->racecheck)
        snprintf(race, sizeof race, "not-run");
    /* Escaped first (control characters, invalid UTF-8 from a paste or a
     * file never reach the terminal raw), then quoted. */
    size_t esc_len = (size_t)SV_EDIT_MAX * 4;
    char *esc = malloc(esc_len);
    if (!esc) {
        snprintf(buf, len, "state error=\"out of memory\"");
        free(in);
        free(out);
        free(text);
        return;
    }
    char *kf = kfile_words(s);
    char exw[8192];
    exercise_words(s, exw, sizeof exw);
    char labjob[48]; /* the lab's worker: idle, or running:made/runs */
    sv_app_labjob_words(s, labjob, sizeof labjob);
    char cmp[64] = "compare=off"; /* the compare view: each pane's step, which steps */
    /* The look-back timeline: none, off (the plots shown), or the tiles
     * shown and how many there are: "0-31/1024". */
    char tl[48] = "none";
    if (s->timeline && !s->timeline_on)
        snprintf(tl, sizeof tl, "off");
    else if (s->timeline)
        snprintf(tl, sizeof tl, "%d-%d/%u", s->tl_first, s->tl_first + s->tl_rows - 1,
                 (unsigned)s->timeline->ntiles);
    if (s->compare)
        snprintf(cmp, sizeof cmp, "compare=%d,%d:%s", s->cmp_step[0], s->cmp_step[1],
                 s->cmp_focus == SV_CMP_HS ? "hs" : s->cmp_focus == SV_CMP_BLELLOCH ? "blelloch"
                                                                                  : "both");
    quoted(err, sizeof err, sv_escape(s->edit_error, esc, esc_len));
    quoted(src, sizeof src, sv_escape(s->source, esc, esc_len));
    char status[sizeof s->status]; /* the whole message (the window wraps a long one) */
    quoted(status, sizeof status, s->status[0] ? sv_escape(s->status, esc, esc_len) : "");
    quoted(text, SV_EDIT_MAX, sv_escape(s->edit_text, esc, esc_len));
    free(esc);
    snprintf(buf, len,
             "state step=%d steps=%d n=%zu op=%s type=%s scan=%s input=%s output=%s "
             "editing=%d text=\"%s\" error=\"%s\" theme=%s view=%s playing=%d speed=%g "
             "anim=%.2f zoom=%.2f pan=%.2f ui_scale=%.2f fullscreen=%d help=%d "
             "hover=%d,%d pinned=%d,%d backend=%s win=%dx%d fb=%dx%d bench=%s lookback=%s code=%d "
             "phase=%s code_lines=%d-%d kernel=%s schedule=%s correct=%d lab_runs=%u "
             "lab_wrong=%u first_wrong_round=%d racecheck=%s %s %s %s overview=%d clean=%d script=%d/%d "
             "script_kernel=%s deck=%d/%d quit_armed=%d %s %s %s %s status=\"%s\" source=\"%s\"",
             s->step, sv_app_steps_of(s), s->trace ? s->trace->n : (size_t)0,
             sv_op_name(s->op), sv_type_name(s->type), sv_scan_name(s->scan), in, out,
             s->editing ? 1 : 0, s->editing ? text : "", err, sv_theme_get(s->theme)->name,
             s->view == SV_VIEW_MEASURE ? "measure" : "scan", s->playing ? 1 : 0,
             (double)s->speed, (double)s->anim, (double)s->zoom, (double)s->pan,
             (double)s->ui_scale, s->fullscreen ? 1 : 0, s->help ? 1 : 0, s->hover_row,
             s->hover_cell, s->pinned_row, s->pinned_cell,
             s->trace ? sv_backend_name(s->trace->backend) : "none", s->win_w, s->win_h,
             s->fb_w, s->fb_h, s->bench_running ? "running" : (s->bench ? "table" : "none"), tl,
             s->code ? 1 : 0, s->phase ? sv_phase_name(s->phase) : "none", hl_lo, hl_hi,
             sv_kernel_name(s->kernel), sched, s->show_correct ? 1 : 0,
             s->lab ? (unsigned)s->lab->runs : 0u, s->lab ? (unsigned)s->lab->wrong_runs : 0u,
             s->lab ? s->lab->first_wrong_round : -1, race, geo, helpbtn, quiz,
             s->overview ? 1 : 0, s->clean ? 1 : 0, s->script_at + 1, s->script.n,
             (s->script_at >= 0 && s->script.steps[s->script_at].kernel[0])
                 ? s->script.steps[s->script_at].kernel : "-",
             s->deck_n ? s->deck_at + 1 : 0, s->deck_n, s->quit_armed > 0.0f ? 1 : 0,
             kf ? kf : "kfile=-", exw, cmp, labjob, status, src);
    free(kf);
    free(in);
    free(out);
    free(text);
}
