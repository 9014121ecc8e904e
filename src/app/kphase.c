/* A kernel trace's phases (kpane.h, Down/Up): inside one step (a barrier
 * interval) the writes it made, by what they wrote, then the barrier that
 * ended it, each with the kernel file's own lines: the runtime records the
 * line of every write and each step's __syncthreads() line, so nothing here
 * searches the code. Pure: tests read it without a window. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/escape.h"
#include "kpane.h"

/* The phase of one write: out[] is the copy back, a shared cell written
 * from in[] the load, any other shared cell the step's op. */
static sv_phase write_phase(const sv_ktrace *t, const sv_kstep *s, const sv_kwrite *w)
{
    if (w->at.array == SV_KARRAY_IN || w->at.array >= t->narrays)
        return SV_PHASE_NONE;
    if (t->arrays[w->at.array].kind == SV_KARRAY_OUT)
        return SV_PHASE_COPY_BACK;
    for (uint32_t r = 0; r < w->nreads && w->first_read + r < s->nreads; r++)
        if (s->reads[w->first_read + r].array == SV_KARRAY_IN)
            return SV_PHASE_LOAD;
    return SV_PHASE_OP;
}

/* Which write phases step s has: has[p] for p of write_phase. A trace with
 * no writes recorded (the GPU's snapshots) has the cells' wrote flags:
 * shared cells are the op, out[] the copy back. */
static void write_phases(const sv_ktrace *t, const sv_kstep *s, bool has[SV_PHASE_COUNT])
{
    memset(has, 0, SV_PHASE_COUNT * sizeof *has);
    for (size_t w = 0; w < s->nwrites; w++)
        has[write_phase(t, s, &s->writes[w])] = true;
    if (s->nwrites > 0 || !s->wrote)
        return;
    for (size_t a = 0; a < t->narrays; a++)
        for (uint32_t c = 0; c < t->arrays[a].len; c++)
            if (s->wrote[a][c]) {
                has[t->arrays[a].kind == SV_KARRAY_OUT ? SV_PHASE_COPY_BACK : SV_PHASE_OP] = true;
                break;
            }
}

int sv_kphases_of(const sv_ktrace *t, size_t k, sv_phase *out)
{
    if (!t || k >= t->nsteps)
        return 0;
    const sv_kstep *s = &t->steps[k];
    bool has[SV_PHASE_COUNT];
    write_phases(t, s, has);
    static const sv_phase order[] = { SV_PHASE_LOAD, SV_PHASE_OP, SV_PHASE_COPY_BACK };
    int n = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (has[order[i]])
            out[n++] = order[i];
    if (s->barrier_line > 0)
        out[n++] = SV_PHASE_BARRIER;
    return n;
}

/* Adds line to the ascending, distinct lines[0 .. *n), keeping the max
 * smallest: a full list still takes a smaller line, dropping its largest
 * (so that lines[0] is the step's first line in the file whatever max a
 * caller asks for: the overview asked for 1 and got the first write's line,
 * 46, where predict mode named 44). */
static void add_line(int *lines, int *n, int max, int line)
{
    int i = 0;
    while (i < *n && lines[i] < line)
        i++;
    if ((i < *n && lines[i] == line) || i >= max)
        return;
    if (*n >= max)
        (*n)--; /* the largest goes */
    memmove(lines + i + 1, lines + i, (size_t)(*n - i) * sizeof *lines);
    lines[i] = line;
    (*n)++;
}

int sv_kphase_lines(const sv_ktrace *t, size_t k, sv_phase p, int *lines, int max)
{
    int n = 0;
    if (!t || k >= t->nsteps || p == SV_PHASE_NONE || max < 1)
        return 0;
    const sv_kstep *s = &t->steps[k];
    if (p == SV_PHASE_BARRIER) {
        if (s->barrier_line > 0)
            lines[n++] = s->barrier_line;
        return n;
    }
    for (size_t w = 0; w < s->nwrites; w++)
        if (s->writes[w].at.line > 0 && write_phase(t, s, &s->writes[w]) == p)
            add_line(lines, &n, max, s->writes[w].at.line);
    return n;
}

bool sv_kphase_marks(const sv_ktrace *t, size_t k, sv_phase p, int line)
{
    int lines[SV_KPHASE_MAX_LINES];
    int n = sv_kphase_lines(t, k, p, lines, SV_KPHASE_MAX_LINES);
    for (int i = 0; i < n; i++)
        if (lines[i] == line)
            return true;
    return false;
}

/* Line `line` of the trace's source, its leading blanks and a trailing
 * comment dropped, escaped; "" when there is none. */
static void source_line(const sv_ktrace *t, int line, char *buf, size_t len)
{
    buf[0] = '\0';
    const char *c = t->source;
    for (int l = 1; c && *c && l < line; l++) {
        c = strchr(c, '\n');
        c = c ? c + 1 : NULL;
    }
    if (!c || !*c || line < 1)
        return;
    while (*c == ' ' || *c == '\t')
        c++;
    size_t n = strcspn(c, "\n");
    const char *cm = strstr(c, "/*"), *cm2 = strstr(c, "//");
    if (cm2 && (!cm || cm2 < cm))
        cm = cm2;
    if (cm && (size_t)(cm - c) < n)
        n = (size_t)(cm - c);
    while (n > 0 && (c[n - 1] == ' ' || c[n - 1] == '\t' || c[n - 1] == '\r'))
        n--;
    char raw[160];
    if (n >= sizeof raw)
        n = sizeof raw - 1;
    memcpy(raw, c, n);
    raw[n] = '\0';
    sv_escape(raw, buf, len);
}

/* How many cells of the step the writes of phase p wrote (distinct cells
 * are not needed: a cell is one write's at most times it was written). */
static size_t phase_writes(const sv_ktrace *t, const sv_kstep *s, sv_phase p)
{
    size_t n = 0;
    for (size_t w = 0; w < s->nwrites; w++)
        n += write_phase(t, s, &s->writes[w]) == p;
    return n;
}

void sv_kwords_phase(const sv_ktrace *t, size_t k, sv_phase p, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!t || k >= t->nsteps || p == SV_PHASE_NONE)
        return;
    const sv_kstep *s = &t->steps[k];
    int lines[SV_KPHASE_MAX_LINES];
    int nl = sv_kphase_lines(t, k, p, lines, SV_KPHASE_MAX_LINES);
    char code[200] = "";
    if (nl > 0)
        source_line(t, lines[0], code, sizeof code);
    if (p == SV_PHASE_BARRIER) {
        snprintf(buf, len, "Step %zu, barrier: __syncthreads() at line %" PRId32 ": all %zu "
                 "threads wait here%s", k + 1, s->barrier_line, t->n,
                 k + 1 < t->nsteps ? "; the next step starts when the last one arrives"
                                   : "");
        return;
    }
    const char *what = p == SV_PHASE_LOAD ? "the load from in[]"
                     : p == SV_PHASE_COPY_BACK ? "the copy to out[]" : "the writes";
    size_t nw = phase_writes(t, s, p);
    if (nl == 0) {
        snprintf(buf, len, "Step %zu, %s: its lines are not recorded (no writes from the GPU)",
                 k + 1, what);
        return;
    }
    char at[64] = "";
    size_t o = 0;
    for (int i = 0; i < nl && o + 12 < sizeof at; i++)
        o += (size_t)snprintf(at + o, sizeof at - o, "%s%d", i ? ", " : "", lines[i]);
    snprintf(buf, len, "Step %zu, %s: %zu write%s from line%s %s%s%s%s", k + 1, what, nw,
             nw == 1 ? "" : "s", nl == 1 ? "" : "s", at, code[0] ? " (" : "", code,
             code[0] ? (nl > 1 ? ", ...)" : ")") : "");
}
