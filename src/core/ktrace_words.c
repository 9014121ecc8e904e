/* A kernel trace in words (ktrace.h): cells by their arrays' own names, a
 * hazard, the failure, a step's chapter reading. Names and messages come
 * from the kernel's file or a trace file: everything is escaped (sv_escape). */
#include "ktrace.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

char *sv_ktrace_cell_name(const sv_ktrace *t, uint32_t a, int64_t cell, char *buf, size_t len)
{
    char name[96];
    if (a == SV_KARRAY_IN || a >= t->narrays) {
        snprintf(buf, len, "%s[%" PRId64 "]", a == SV_KARRAY_IN ? "in" : "?", cell);
        return buf;
    }
    const sv_karray *arr = &t->arrays[a];
    sv_escape(arr->name, name, sizeof name);
    int64_t rowlen = arr->len / arr->rows;
    if (sv_ktrace_rows_named(t, a) > 1 && cell >= 0 && cell < (int64_t)arr->len)
        snprintf(buf, len, "%s[%" PRId64 "][%" PRId64 "]", name, cell / rowlen, cell % rowlen);
    else
        snprintf(buf, len, "%s[%" PRId64 "]", name, cell);
    return buf;
}

char *sv_ktrace_hazard_words(const sv_ktrace *t, const sv_khazard *h, char *buf, size_t len)
{
    char cell[128];
    sv_ktrace_cell_name(t, h->array, h->cell, cell, sizeof cell);
    const char *first = h->kind == SV_KHAZARD_WAR ? "read" : "wrote";
    const char *second = h->kind == SV_KHAZARD_RAW ? "read" : "wrote";
    /* The reader first, as racecheck and the chapter put it: "thread 5
     * read s[4], thread 4 wrote it" ("block 1 thread 0" in a launch). */
    char a[48], b[48];
    sv_ktrace_thread_name(t, h->step, h->first.thread, a, sizeof a);
    sv_ktrace_thread_name(t, h->step, h->second.thread, b, sizeof b);
    if (h->kind == SV_KHAZARD_RAW)
        snprintf(buf, len, "step %" PRIu32 ": %s read %s, %s wrote it, lines %" PRId32 " and %"
                 PRId32 " (%s)", h->step + 1, b, cell, a, h->second.line, h->first.line,
                 sv_khazard_kind_name(h->kind));
    else
        snprintf(buf, len, "step %" PRIu32 ": %s %s %s, %s %s it, lines %" PRId32 " and %" PRId32
                 " (%s)", h->step + 1, a, first, cell, b, second, h->first.line,
                 h->second.line, sv_khazard_kind_name(h->kind));
    return buf;
}

bool sv_ktrace_read_unwritten(const sv_ktrace *t, size_t k, size_t i)
{
    if (!t || k >= t->nsteps || i >= t->steps[k].nreads)
        return false;
    const sv_kstep *s = &t->steps[k];
    const sv_kaccess *x = &s->reads[i];
    if (x->array == SV_KARRAY_IN || x->array >= t->narrays ||
        t->arrays[x->array].kind != SV_KARRAY_SHARED || x->cell >= t->arrays[x->array].len)
        return false;
    if (k > 0 && t->steps[k - 1].written[x->array][x->cell])
        return false; /* a step before wrote it */
    if (!s->wrote[x->array][x->cell])
        return true;
    if (x->order == 0)
        return false; /* written in this step, and no order to tell whether before */
    for (size_t w = 0; w < s->nwrites; w++) {
        const sv_kaccess *a = &s->writes[w].at;
        if (a->array == x->array && a->cell == x->cell && (a->order == 0 || a->order < x->order))
            return false;
    }
    return true;
}

size_t sv_ktrace_unwritten_reads(const sv_ktrace *t, size_t k, sv_kunwritten *first)
{
    size_t count = 0;
    for (size_t j = k == SIZE_MAX ? 0 : k; t && j < t->nsteps && (k == SIZE_MAX || j == k); j++)
        for (size_t i = 0; i < t->steps[j].nreads; i++)
            if (sv_ktrace_read_unwritten(t, j, i)) {
                if (count++ == 0 && first)
                    *first = (sv_kunwritten){j, i};
            }
    return count;
}

char *sv_ktrace_unkept_hazards_words(const sv_ktrace *t, char *buf, size_t len)
{
    static const char *const what[SV_KFAIL_COUNT] = {
        [SV_KFAIL_CRASH] = "crash", [SV_KFAIL_OUT_OF_RANGE] = "access out of range",
        [SV_KFAIL_DEADLOCK] = "deadlock", [SV_KFAIL_TIME] = "time limit",
        [SV_KFAIL_MEMORY] = "memory limit",
    };
    snprintf(buf, len, "%s", "");
    if (!t || t->hazards_total <= t->nhazards)
        return buf;
    unsigned long long more = (unsigned long long)(t->hazards_total - t->nhazards);
    const sv_kfailure *f = &t->failure;
    if (t->nhazards >= SV_KTRACE_MAX_HAZARDS)
        snprintf(buf, len, "%llu more past the %d kept", more, SV_KTRACE_MAX_HAZARDS);
    else if ((unsigned)f->kind < SV_KFAIL_COUNT && what[f->kind] && f->step >= 0)
        snprintf(buf, len, "%llu hazard%s in step %d, which the %s left unfinished: counted, but "
                 "the runtime keeps no access of that step, so %s cannot be named", more,
                 more == 1 ? "" : "s", (int)f->step + 1, what[f->kind],
                 more == 1 ? "it" : "they");
    else
        snprintf(buf, len, "%llu hazard%s counted but not kept in the trace", more,
                 more == 1 ? "" : "s");
    return buf;
}

char *sv_ktrace_unwritten_words(const sv_ktrace *t, sv_kunwritten u, char *buf, size_t len)
{
    if (!t || u.step >= t->nsteps || u.read >= t->steps[u.step].nreads) {
        snprintf(buf, len, "%s", "");
        return buf;
    }
    const sv_kaccess *x = &t->steps[u.step].reads[u.read];
    char cell[128], v[48], at[32] = "";
    sv_ktrace_cell_name(t, x->array, x->cell, cell, sizeof cell);
    sv_value_format_as(t->type, x->value, t->float_style, v, sizeof v);
    if (x->line > 0)
        snprintf(at, sizeof at, ", at line %" PRId32, x->line);
    snprintf(buf, len, "thread %" PRIu32 " read %s, never written%s (it held %s)", x->thread,
             cell, at, v);
    return buf;
}

/* "threads 1 .. 7 (7)" or "thread 0". */
static void threads_words(const sv_kwait *w, char *buf, size_t len)
{
    if (w->count == 1)
        snprintf(buf, len, "thread %" PRIu32, w->first_thread);
    else
        snprintf(buf, len, "%" PRIu32 " threads from thread %" PRIu32, w->count,
                 w->first_thread);
}

static void deadlock_words(const sv_kfailure *f, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "deadlock:");
    if (used >= len)
        return;
    for (size_t k = 0; k < f->nwaits && used < len; k++) {
        char who[96];
        threads_words(&f->waits[k], who, sizeof who);
        if (f->waits[k].line > 0)
            used += (size_t)snprintf(buf + used, len - used, "%s %s %s at the barrier of line %"
                                     PRId32, k ? ";" : "", who,
                                     f->waits[k].count == 1 ? "waits" : "wait", f->waits[k].line);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s %s %s ended", k ? ";" : "", who,
                                     f->waits[k].count == 1 ? "has" : "have");
    }
    if (f->nwaits == 0 && used < len)
        snprintf(buf + used, len - used, " threads wait at a barrier that others never reach");
}

/* The line of a compiler's messages to say first: the first with "error:",
 * else the first. */
static void headline(const char *msg, char *out, size_t len)
{
    const char *line = msg, *p = msg;
    while (*p) {
        size_t l = strcspn(p, "\n");
        const char *e = strstr(p, "error:");
        if (e && e < p + l) {
            line = p;
            break;
        }
        p += l + (p[l] == '\n');
    }
    sv_escape_n(line, strcspn(line, "\n"), out, len);
}

char *sv_ktrace_failure_words(const sv_ktrace *t, char *buf, size_t len)
{
    static const char *const labels[SV_KFAIL_COUNT] = {
        [SV_KFAIL_COMPILE] = "does not compile", [SV_KFAIL_SIGNATURE] = "wrong signature",
        [SV_KFAIL_INCLUDE] = "#include refused", [SV_KFAIL_CRASH] = "crashed",
        [SV_KFAIL_OUT_OF_RANGE] = "out of range", [SV_KFAIL_DEADLOCK] = "deadlock",
        [SV_KFAIL_TIME] = "time limit", [SV_KFAIL_MEMORY] = "memory limit",
        [SV_KFAIL_UNAVAILABLE] = "unavailable", [SV_KFAIL_INTERNAL] = "the runtime failed",
        [SV_KFAIL_REFUSED] = "refused", [SV_KFAIL_SYSCALL] = "system call refused",
    };
    const sv_kfailure *f = &t->failure;
    char msg[1024] = "", cell[128];
    if (f->message) /* its first line (a compiler's error line): the table prints the rest */
        headline(f->message, msg, sizeof msg);
    if (f->kind == SV_KFAIL_NONE || (unsigned)f->kind >= SV_KFAIL_COUNT) {
        snprintf(buf, len, "none");
    } else if (f->kind == SV_KFAIL_DEADLOCK && f->nwaits) {
        deadlock_words(f, buf, len);
    } else if (msg[0]) {
        snprintf(buf, len, "%s: %s", labels[f->kind], msg);
    } else if (f->kind == SV_KFAIL_OUT_OF_RANGE) {
        sv_ktrace_cell_name(t, f->array < 0 ? UINT32_MAX : (uint32_t)f->array, f->index, cell,
                            sizeof cell);
        snprintf(buf, len, "out of range: thread %" PRId32 " accessed %s at line %" PRId32,
                 f->thread, cell, f->line);
    } else if (f->line > 0) {
        snprintf(buf, len, "%s at line %" PRId32, labels[f->kind], f->line);
    } else {
        snprintf(buf, len, "%s", labels[f->kind]);
    }
    return buf;
}

char *sv_ktrace_reading_words(const sv_ktrace *t, size_t step, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!t->readings || step >= t->nsteps || !t->readings[step].fits)
        return buf;
    const sv_kreading *rd = &t->readings[step];
    char row[128], holds[48], want[48];
    const sv_karray *a = &t->arrays[rd->pout_array];
    bool rows = sv_ktrace_rows_named(t, (uint32_t)rd->pout_array) > 1;
    if (rows)
        sv_ktrace_cell_name(t, (uint32_t)rd->pout_array,
                            (int64_t)rd->pout_row * (a->len / a->rows), row, sizeof row);
    else
        sv_escape(a->name, row, sizeof row);
    if (rows) /* "buf[1][0]" -> "buf[1]": the row */
        *strrchr(row, '[') = '\0';
    if (!rd->broken && rd->round != rd->expected_round) {
        snprintf(buf, len, "step %zu (round %d): %s holds round %d's windows already, where "
                 "the chapter's kernel has round %d's", step + 1, rd->round, row, rd->round,
                 rd->expected_round);
        return buf;
    }
    if (!rd->broken) {
        snprintf(buf, len, "step %zu (round %d): %s holds %s", step + 1, rd->round, row,
                 rd->round == 0 ? "the input (the staging)" : "the round's windows");
        return buf;
    }
    if (rd->holds_known)
        sv_value_format(t->type, rd->holds, holds, sizeof holds);
    else
        snprintf(holds, sizeof holds, "?");
    sv_value_format(t->type, rd->window_value, want, sizeof want);
    char what[96];
    if (rd->window_lo == rd->window_hi)
        snprintf(what, sizeof what, "is in[%" PRIu32 "] = %s", rd->window_lo, want);
    else if (t->op == SV_OP_SUM)
        snprintf(what, sizeof what, "sums to %s", want);
    else
        snprintf(what, sizeof what, "gives %s under %s", want, sv_op_name(t->op));
    snprintf(buf, len, "step %zu (round %d): cell %" PRIu32 " holds %s; the window [%" PRIu32
             ", %" PRIu32 "] %s (in %s)", step + 1, rd->round, rd->first_broken, holds,
             rd->window_lo, rd->window_hi, what, row);
    return buf;
}
