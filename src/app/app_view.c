/* What the state shows, read without changing anything but the message
 * lines: the view handed to the renderers (sv_app_view_of), its layout for
 * hit tests, the question predict mode asks at a step, values as text; and
 * the status and source lines, and which screen is up (sv_app_show). The
 * bottom of the app's files: it calls none of the others (app_internal.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../core/escape.h"
#include "app_internal.h"
#include "kpane.h"

/* The chapter kernel's run on the shown input, which the shown trace
 * carries (its run), beside a kernel file's; NULL: none (no kernel file, a
 * mistake shown, or a trace built without its run). */
const sv_ktrace *sv_app_kcompare(const sv_app_state *s)
{
    return s->kf && s->trace && !s->trace->lab ? s->trace->run : NULL;
}

/* The view's text holds the input box's whole text. */
_Static_assert(SV_EDIT_MAX <= SV_VIEW_TEXT_MAX, "the input box outgrows the view");

int sv_state_steps(const sv_app_state *s)
{
    return s ? sv_view_steps(s->trace) : 0;
}

void sv_app_view_of(const sv_app_state *s, sv_app_view *v)
{
    memset(v, 0, sizeof *v);
    v->trace = s->trace;
    v->source = s->source;
    v->view = s->view;
    v->step = s->step;
    v->from_step = s->from_step;
    v->anim = s->anim;
    v->playing = s->playing;
    v->theme = s->theme;
    v->ui_scale = s->ui_scale;
    v->zoom = s->zoom;
    v->pan = s->pan;
    v->fb_w = s->fb_w;
    v->fb_h = s->fb_h;
    v->hover_row = s->hover_row;
    v->hover_source = s->hover_source;
    v->hover_cell = s->hover_cell;
    v->pinned_row = s->pinned_row;
    v->pinned_cell = s->pinned_cell;
    v->help = s->help;
    v->editing = s->editing;
    v->edit_text = s->edit_text;
    v->edit_cursor = s->edit_cursor;
    v->edit_all = s->edit_all;
    v->edit_error = s->edit_error;
    v->status = s->status;
    v->status_time = s->status_time;
    v->bench = s->bench;
    v->bench_source = s->bench_source;
    v->bench_running = s->bench_running;
    v->bench_progress = s->bench_progress;
    v->timeline = s->timeline;
    v->timeline_on = s->timeline && s->timeline_on;
    v->tl_first = s->tl_first;
    v->tl_rows = s->tl_rows;
    v->tl_cursor = s->tl_cursor;
    v->compare = s->compare && s->trace;
    v->cmp_ktrace = s->cmp_ktrace;
    v->cmp_error = s->cmp_error;
    v->cmp_step[0] = s->cmp_step[0];
    v->cmp_step[1] = s->cmp_step[1];
    v->cmp_focus = s->cmp_focus;
    v->cmp_measure = s->cmp_measure && s->view == SV_VIEW_MEASURE;
    if (s->quiz && s->trace) {
        v->quiz = true;
        v->quiz_asking = s->quiz_asking;
        v->quiz_kind = sv_app_quiz_kind_at(s, s->step);
        v->quiz_step = s->quiz_step;
        v->quiz_sel = s->quiz_sel;
        v->quiz_text = s->quiz_text;
        v->quiz_has = s->quiz_has;
        v->quiz_value = s->quiz_value;
        v->quiz_mark = s->quiz_mark;
        v->quiz_result = s->quiz_result;
        v->quiz_scored = s->quiz_scored;
        v->quiz_right = s->quiz_right;
        v->quiz_total = s->quiz_total;
    } else {
        v->quiz_sel = -1;
        v->quiz_text = "";
    }
    v->clean = s->clean;
    v->overview = s->overview;
    v->caption = s->caption_override;
    v->code = s->code;
    v->phase = s->phase;
    v->source_kernel = s->source_kernel;
    const sv_kernel_info *ki = sv_kernel_get(s->kernel);
    v->kernel = (int)s->kernel;
    v->kernel_file = ki && s->kernel != SV_KERNEL_CORRECT ? ki->file : "";
    v->kernel_embedded = s->kernel == SV_KERNEL_CORRECT || s->source_kernel > 0;
    v->lab_note = s->lab_note;
    v->lab = s->lab;
    v->lab_reads = s->lab_reads;
    v->show_correct = s->show_correct;
    v->outcome_hidden = s->lab && s->quiz && s->quiz_asking && s->trace;
    v->ktrace = s->ktrace;
    v->kstep = s->ktrace ? s->step : 0;
    v->kcompare = sv_app_kcompare(s);
    v->kcompare_shown = s->kcompare_shown && v->kcompare;
    v->kerror = s->kerror;
    v->kerror_line = s->kerror_line;
    v->kstale = s->kstale;
    v->krunning = sv_app_kfile_progress(s, &v->krun);
    v->ktile_lo = s->ktrace ? s->ktile_lo : -1;
    v->ktile_hi = s->ktile_hi;
    v->ktile_launch = s->ktile_launch;
    v->ksource = s->kstale ? s->ksource : NULL;
    v->kread_only = s->kread_only && s->ktrace;
    v->script_steps = s->script.n;
    v->script_step = s->script.n > 0 ? s->script_at + 1 : 0;
    v->exercise = s->ex && s->exv.name ? &s->exv : NULL;
}

void sv_app_layout_of(const sv_app_state *s, sv_layout *l)
{
    sv_app_view v;
    sv_app_view_of(s, &v);
    sv_layout_compute(&v, s->fb_w, s->fb_h, l);
}

int sv_app_steps_of(const sv_app_state *s)
{
    if (s->ktrace) { /* a kernel file: the kernel pane's steps (kpane.h) */
        int k = sv_kpane_steps(s->ktrace);
        return k < 1 ? 1 : k;
    }
    if (!s->trace)
        return 1;
    int n = sv_state_steps(s);
    return n < 1 ? 1 : n;
}

/* Copies src into dst[len], cutting it short (at a UTF-8 boundary) if needed. */
void sv_app_copy_text(char *dst, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n >= len) {
        n = len - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memmove(dst, src, n);
    dst[n] = '\0';
}

/* The current folder with a slash after it ("" when unknown or "/": then
 * every path is shown as given). */
static const char *cwd_prefix(char *buf, size_t len)
{
    if (!getcwd(buf, len - 1) || buf[0] != '/' || buf[1] == '\0') {
        buf[0] = '\0';
        return buf;
    }
    size_t n = strlen(buf);
    buf[n] = '/';
    buf[n + 1] = '\0';
    return buf;
}

/* Whether a path may start at p in a message: at its start, or after a
 * space, a quote, a parenthesis, a colon or an equals sign. */
static bool path_may_start(const char *msg, const char *p)
{
    return p == msg || strchr(" \"'(:=", p[-1]) != NULL;
}

/* msg into out[len] with every path under the current folder written
 * relative to it ("/home/ana/ex/guard.cu" from /home/ana: "ex/guard.cu"),
 * not escaped. */
void sv_app_paths_relative(const char *msg, char *out, size_t len)
{
    char cwd[4096];
    const char *pre = cwd_prefix(cwd, sizeof cwd);
    size_t plen = strlen(pre), j = 0;
    for (const char *p = msg; *p && j + 1 < len;) {
        if (plen && strncmp(p, pre, plen) == 0 && path_may_start(msg, p) && p[plen] &&
            p[plen] != ' ' && p[plen] != '/') {
            p += plen;
            continue;
        }
        out[j++] = *p++;
    }
    out[j] = '\0';
}

char *sv_app_paths_shown(const char *text, char *out, size_t len)
{
    char rel[4096];
    sv_app_paths_relative(text, rel, sizeof rel);
    return sv_escape(rel, out, len);
}

void sv_app_set_status(sv_app_state *s, const char *msg)
{
    /* Messages name files: shown relative to the current folder where
     * they are under it, and escaped (a file name is text from outside). */
    char rel[sizeof s->status];
    sv_app_paths_relative(msg, rel, sizeof rel);
    sv_escape(rel, s->status, sizeof s->status);
    /* A long message stays longer: about 25 characters a second. */
    float need = (float)strlen(s->status) / 25.0f;
    s->status_time = need > SV_STATUS_S ? (need < SV_STATUS_LONG_S ? need : SV_STATUS_LONG_S)
                                        : SV_STATUS_S;
}

void sv_app_shake_notice(sv_app_state *s)
{
    if (!s->lab_shake)
        return;
    if (s->status_time > 0.0f && s->status[0] && !strstr(s->status, "--shake")) {
        char both[sizeof s->status + sizeof SV_CAPTURE_SHAKE_IGNORED + 8];
        snprintf(both, sizeof both, "%s \u00b7 %s", s->status, SV_CAPTURE_SHAKE_IGNORED);
        sv_app_set_status(s, both);
    } else {
        sv_app_set_status(s, SV_CAPTURE_SHAKE_IGNORED);
    }
}

/* The source line: where the shown trace came from (capture says), and the
 * file it was read from. */
void sv_app_set_source(sv_app_state *s, const sv_capture_source *src, const char *file)
{
    char what[sizeof s->source];
    sv_capture_source_line(src, what, sizeof what);
    if (s->lab_note[0]) { /* a mistake: how it ran ("... · in-place · 100 GPU runs ...") */
        size_t at = strlen(what);
        snprintf(what + at, sizeof what - at, " \u00b7 %s", s->lab_note);
    }
    if (!file && s->lab_shake && src->backend == SV_BACKEND_CPU &&
        src->fallback != SV_FALLBACK_PROBING) { /* not silently: the GPU's only */
        size_t at = strlen(what);
        snprintf(what + at, sizeof what - at, " \u00b7 --shake ignored (GPU only)");
    }
    /* The device name and the file name come from outside: escaped, so the
     * window, the state line and the terminal show them as text. */
    char raw[sizeof s->source];
    if (file) {
        const char *base = strrchr(file, '/');
        snprintf(raw, sizeof raw, "%.200s (file %s)", what, base ? base + 1 : file);
    } else {
        sv_app_copy_text(raw, sizeof raw, what);
    }
    sv_escape(raw, s->source, sizeof s->source);
}

/* The question predict mode asks at step k: cases, and a mistake's "will
 * it be right?", only where the step has them (rounds >= 1; not round 0's
 * staging, not the exclusive shift); values otherwise. */
sv_quiz_kind sv_app_quiz_kind_at(const sv_app_state *s, int k)
{
    if (s->ktrace) /* a kernel trace: the values of the cells its step writes */
        return SV_QUIZ_VALUES;
    sv_step_view v;
    if (!sv_steps_at(s->trace, k, &v) || v.round == 0 || v.shift)
        return SV_QUIZ_VALUES;
    if (s->quiz_kind == SV_QUIZ_OUTCOME) /* the summary covers every round and cell */
        return s->lab && s->lab->n == s->trace->n && s->lab->nrounds == s->trace->nrounds
                   ? SV_QUIZ_OUTCOME : SV_QUIZ_VALUES;
    return s->quiz_kind;
}

const char *sv_app_quiz_kind_name(sv_quiz_kind k)
{
    return k == SV_QUIZ_CASES ? "cases" : k == SV_QUIZ_OUTCOME ? "outcome" : "values";
}

void sv_app_format_values(sv_type type, const sv_value *v, size_t n, char sep,
                          const sv_trace *output_of, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && at + 1 < len; i++) {
        char one[48] = "?";
        if (!output_of || !sv_steps_output_unwritten(output_of, i))
            sv_value_format(type, v[i], one, sizeof one);
        int w = snprintf(buf + at, len - at, "%s%s", i ? (char[]){sep, 0} : "", one);
        if (w < 0 || (size_t)w >= len - at) {
            buf[at] = '\0';
            break;
        }
        at += (size_t)w;
    }
}

void sv_app_show(sv_app_state *s, sv_view view)
{
    s->view = view == SV_VIEW_MEASURE ? SV_VIEW_MEASURE : SV_VIEW_SCAN;
    s->cmp_measure = false; /* the compare view's M sets it again (app_compare.c) */
    s->hover_row = s->hover_cell = -1;
}

