/* The embedded kernel sources (source.h): split into lines, lexed for
 * colour, compared with the chapter's kernel, and searched for the code of
 * each phase.
 *
 * Under the hood: the phase map is found, not written down. Each line gets a
 * "code" copy with comments blanked (a block comment may span lines), and
 * the phases are the lines whose code matches: the load `= in[i]`, the
 * guard `if (i >= stride)` (or `>`), the statements under it up to the end
 * of the else branch, the `__syncthreads()` after the load and after the
 * guard, the `pout = 1 - pout` / `pin = 1 - pout` pair (a one-buffer
 * mistake's `pout = pin = 0`), and the copy back
 * from `if (scan_exclusive)` to the last `out[i] =`. A rewritten file (a
 * mistake's variant, a student's own) keeps working as
 * long as it keeps these statements; a phase whose code is gone (no barrier
 * in a mistake) maps to no line, and the panel says so. */
#include "source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* src/embed.py writes this table from kernels/ (src/app/meson.build): the
 * chapter's kernel first, then the mistakes as the build generated them
 * (kernels/mistakes/meson.build). */
typedef struct sv_embed_entry {
    const char *path;           /* relative to kernels/ */
    const unsigned char *data;
    size_t size;
} sv_embed_entry;
extern const sv_embed_entry sv_kernel_sources[];

#define MAX_FILES 16

typedef struct embedded {
    char path[128];             /* "kernels/hillis_steele.cu" */
    const unsigned char *data;
    size_t size;
} embedded;

static embedded files[MAX_FILES];
static int nfiles = -1;

static void list_files(void)
{
    if (nfiles >= 0)
        return;
    nfiles = 0;
    /* the chapter's kernel first, whatever the table's order */
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; sv_kernel_sources[k].path && nfiles < MAX_FILES; k++) {
            bool main_kernel = strcmp(sv_kernel_sources[k].path, "hillis_steele.cu") == 0;
            if (main_kernel != (pass == 0))
                continue;
            embedded *e = &files[nfiles++];
            snprintf(e->path, sizeof e->path, "kernels/%s", sv_kernel_sources[k].path);
            e->data = sv_kernel_sources[k].data;
            e->size = sv_kernel_sources[k].size;
        }
}
#define NFILES MAX_FILES

/* A parsed file plus what the phase search needs: each line's code with
 * comments blanked, NUL-terminated. */
typedef struct parsed {
    sv_source_file f;
    sv_source_line *lines;
    sv_source_span *spans;
    char **code;
    bool done, failed;
} parsed;

static parsed cache[NFILES];

static bool is_ident(int c)
{
    return isalnum(c) || c == '_';
}

static bool word_in(const char *w, size_t n, const char *const *list)
{
    for (size_t k = 0; list[k]; k++)
        if (strlen(list[k]) == n && memcmp(list[k], w, n) == 0)
            return true;
    return false;
}

static const char *const keywords[] = {
    "if", "else", "for", "while", "do", "return", "break", "continue", "switch", "case",
    "default", "template", "typename", "struct", "class", "namespace", "static", "const",
    "constexpr", "extern", "inline", "sizeof", "reinterpret_cast", "static_cast", "true",
    "false", "nullptr", "__global__", "__device__", "__host__", "__shared__",
    "__syncthreads", "__syncwarp", "__align__", "__nanosleep", "threadIdx", "blockIdx",
    "blockDim", NULL
};
static const char *const types[] = {
    "void", "int", "unsigned", "char", "bool", "float", "double", "long", "short", "size_t",
    "int32_t", "uint32_t", "uint64_t", "T", "Op", "Trace", "auto", NULL
};

/* Where a block comment ends: just past its closing star-slash, the first at
 * or after from, else len with the comment still open (*in_comment says). */
static size_t comment_end(const char *s, size_t len, size_t from, bool *in_comment)
{
    for (size_t k = from; k + 1 < len; k++)
        if (s[k] == '*' && s[k + 1] == '/') {
            *in_comment = false;
            return k + 2;
        }
    *in_comment = true;
    return len;
}

/* Lexes one line into spans (appending to *spans), blanking comments in code;
 * *in_comment carries a block comment across lines. */
static bool lex_line(const char *s, size_t len, bool *in_comment, sv_source_span **spans,
                     size_t *nspans, size_t *cap, size_t line_first, char *code)
{
    size_t i = 0;
    memcpy(code, s, len);
    code[len] = '\0';
    while (i < len) {
        sv_tok tok = SV_TOK_PLAIN;
        size_t j = i;
        if (*in_comment || (s[i] == '/' && i + 1 < len && s[i + 1] == '*')) {
            /* in a block comment, or opening one (whose slash-star cannot close it) */
            j = comment_end(s, len, *in_comment ? i : i + 2, in_comment);
            tok = SV_TOK_COMMENT;
        } else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
            j = len;
            tok = SV_TOK_COMMENT;
        } else if (s[i] == '#') {
            j = len;
            tok = SV_TOK_PREPROC;
        } else if (s[i] == '"' || s[i] == '\'') {
            char q = s[i];
            j = i + 1;
            while (j < len && s[j] != q) {
                if (s[j] == '\\' && j + 1 < len)
                    j++;
                j++;
            }
            if (j < len)
                j++;
            tok = SV_TOK_STRING;
        } else if (isdigit((unsigned char)s[i])) {
            while (j < len && (is_ident((unsigned char)s[j]) || s[j] == '.'))
                j++;
            tok = SV_TOK_NUMBER;
        } else if (is_ident((unsigned char)s[i])) {
            while (j < len && is_ident((unsigned char)s[j]))
                j++;
            tok = word_in(s + i, j - i, keywords) ? SV_TOK_KEYWORD
                : word_in(s + i, j - i, types) ? SV_TOK_TYPE : SV_TOK_PLAIN;
        } else {
            while (j < len && !is_ident((unsigned char)s[j]) && s[j] != '/' && s[j] != '"' &&
                   s[j] != '\'' && s[j] != '#')
                j++;
            if (j == i)
                j = i + 1;
        }
        if (tok == SV_TOK_COMMENT)
            memset(code + i, ' ', j - i);
        /* Merge with the previous span of the same kind. */
        if (*nspans > line_first && (*spans)[*nspans - 1].tok == tok) {
            (*spans)[*nspans - 1].len += j - i;
        } else {
            if (*nspans == *cap) {
                size_t nc = *cap ? *cap * 2 : 256;
                sv_source_span *ns = realloc(*spans, nc * sizeof *ns);
                if (!ns)
                    return false;
                *spans = ns;
                *cap = nc;
            }
            (*spans)[(*nspans)++] = (sv_source_span){ i, j - i, tok };
        }
        i = j;
    }
    return true;
}

/* The line's code trimmed, for comparing two files. */
static void trimmed(const char *code, const char **b, size_t *n)
{
    const char *s = code, *e = code + strlen(code);
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    *b = s;
    *n = (size_t)(e - s);
}

static bool parse(parsed *p, const embedded *e)
{
    const char *text = (const char *)e->data;
    size_t size = e->size;
    int n = 0;
    for (size_t i = 0; i < size; i++)
        if (text[i] == '\n')
            n++;
    if (size > 0 && text[size - 1] != '\n')
        n++;
    p->lines = calloc((size_t)n + 1, sizeof *p->lines);
    p->code = calloc((size_t)n + 1, sizeof *p->code);
    if (!p->lines || !p->code)
        return false;
    size_t nspans = 0, cap = 0;
    bool in_comment = false;
    size_t at = 0;
    for (int k = 0; k < n; k++) {
        size_t end = at;
        while (end < size && text[end] != '\n')
            end++;
        size_t len = end - at;
        if (len > 0 && text[at + len - 1] == '\r')
            len--;
        p->code[k] = malloc(len + 1);
        if (!p->code[k])
            return false;
        p->lines[k].text = text + at;
        p->lines[k].len = len;
        p->lines[k].first_span = nspans;
        if (!lex_line(text + at, len, &in_comment, &p->spans, &nspans, &cap, nspans,
                      p->code[k]))
            return false;
        p->lines[k].nspans = nspans - p->lines[k].first_span;
        at = end + 1;
    }
    p->f.path = e->path;
    p->f.nlines = n;
    p->f.lines = p->lines;
    p->f.spans = p->spans;
    p->f.kernel_line = 1;
    for (int k = 0; k < n; k++)
        if (strstr(p->code[k], "__global__")) {
            /* start at its template line when there is one */
            p->f.kernel_line = (k > 0 && strstr(p->code[k - 1], "template")) ? k : k + 1;
            break;
        }
    return true;
}

static const parsed *get(int k)
{
    list_files();
    if (k < 0 || k >= nfiles)
        return NULL;
    parsed *p = &cache[k];
    if (!p->done) {
        p->done = true;
        if (!parse(p, &files[k])) {
            p->failed = true;
            p->f.path = files[k].path;
            p->f.nlines = 0;
            p->f.lines = NULL;
            p->f.spans = NULL;
            p->f.kernel_line = 1;
        }
        /* Mark the changed lines: those with a "MISTAKE:" comment (how the
         * lab's files mark their one change), else those whose code the
         * chapter's kernel does not have. */
        bool marked = false;
        for (int a = 0; k > 0 && !p->failed && a < p->f.nlines; a++) {
            const sv_source_line *ln = &p->lines[a];
            for (size_t c = 0; c + 8 <= ln->len; c++)
                if (memcmp(ln->text + c, "MISTAKE:", 8) == 0) {
                    p->lines[a].changed = true;
                    marked = true;
                    break;
                }
        }
        if (k > 0 && !p->failed && !marked) {
            const parsed *c = get(0);
            for (int a = 0; c && a < p->f.nlines; a++) {
                const char *sa;
                size_t na;
                trimmed(p->code[a], &sa, &na);
                if (na == 0)
                    continue;
                bool found = false;
                for (int b = 0; b < c->f.nlines && !found; b++) {
                    const char *sb;
                    size_t nb;
                    trimmed(c->code[b], &sb, &nb);
                    found = na == nb && memcmp(sa, sb, na) == 0;
                }
                p->lines[a].changed = !found;
            }
        }
    }
    return p;
}

const sv_source_file *sv_source_get(int k)
{
    const parsed *p = get(k);
    return p ? &p->f : NULL;
}

int sv_source_find(const char *path)
{
    list_files();
    for (int k = 0; path && k < nfiles; k++)
        if (strcmp(files[k].path, path) == 0)
            return k;
    return -1;
}

/* ---- phases -------------------------------------------------------------- */

/* The first line at or after from (0-based) whose code holds all of the
 * needles (NULL-terminated), or -1. */
static int find(const parsed *p, int from, const char *const *needles)
{
    for (int k = from < 0 ? 0 : from; k < p->f.nlines; k++) {
        bool all = true;
        for (size_t j = 0; needles[j] && all; j++)
            all = strstr(p->code[k], needles[j]) != NULL;
        if (all)
            return k;
    }
    return -1;
}

/* Compacts spaces away, so that `i>=stride` and `i >= stride` match alike. */
static bool code_has(const char *code, const char *want)
{
    char a[512];
    size_t n = 0;
    for (size_t i = 0; code[i] && n + 1 < sizeof a; i++)
        if (!isspace((unsigned char)code[i]))
            a[n++] = code[i];
    a[n] = '\0';
    return strstr(a, want) != NULL;
}

static int find_compact(const parsed *p, int from, const char *want)
{
    for (int k = from < 0 ? 0 : from; k < p->f.nlines; k++)
        if (code_has(p->code[k], want))
            return k;
    return -1;
}

static bool blank(const char *code)
{
    for (; *code; code++)
        if (!isspace((unsigned char)*code))
            return false;
    return true;
}

/* The last line of the statement that starts at or after line k: the first
 * non-blank line's statement, ended by ';' (or a '{' block's '}'). */
static int statement_end(const parsed *p, int k)
{
    while (k < p->f.nlines && blank(p->code[k]))
        k++;
    for (; k < p->f.nlines; k++)
        if (strchr(p->code[k], ';') || strchr(p->code[k], '}'))
            return k;
    return p->f.nlines - 1;
}

static int next_code(const parsed *p, int k)
{
    while (k < p->f.nlines && blank(p->code[k]))
        k++;
    return k < p->f.nlines ? k : -1;
}

bool sv_source_phase_lines(const sv_source_file *f, sv_phase ph, int round, int *lo, int *hi)
{
    *lo = *hi = 0;
    const parsed *p = NULL;
    for (int k = 0; k < nfiles; k++)
        if (f == &cache[k].f)
            p = &cache[k];
    if (!p || p->f.nlines == 0)
        return false;
    int load = find_compact(p, 0, "=in[i]");
    int loop = find(p, 0, (const char *const[]){ "for", "stride", NULL });
    int guard = find_compact(p, loop, "if(i>=stride");
    if (guard < 0)
        guard = find_compact(p, loop, "if(i>stride");
    int a = -1, b = -1;
    switch (ph) {
    case SV_PHASE_LOAD:
        a = b = load;
        break;
    case SV_PHASE_GUARD:
        a = b = guard;
        break;
    case SV_PHASE_OP: {
        if (guard < 0) { /* no guard (no-guard): the add alone */
            a = find_compact(p, loop, "=Op::apply(");
            b = a < 0 ? -1 : statement_end(p, a);
            break;
        }
        a = guard + 1;
        b = statement_end(p, a);
        int e = next_code(p, b + 1);
        if (e >= 0 && code_has(p->code[e], "else"))
            b = strchr(p->code[e], ';') ? e : statement_end(p, e + 1);
        break;
    }
    case SV_PHASE_BARRIER: {
        int from = round == 0 ? load : guard >= 0 ? guard : loop;
        if (from < 0)
            break;
        int bar = find(p, from, (const char *const[]){ "__syncthreads", NULL });
        /* round 0's barrier comes before the loop; a loop barrier after the
         * loop's end (the one for the copy back) is not the round's */
        if (bar >= 0 && round == 0 && loop >= 0 && bar > loop)
            bar = -1;
        /* and a barrier after the loop (before the copy back) is not a round's */
        int back = find_compact(p, guard, "out[i]=");
        if (bar >= 0 && round > 0 && back >= 0 && bar > back)
            bar = -1;
        a = b = bar;
        break;
    }
    case SV_PHASE_SWAP:
        a = find_compact(p, loop, "pout=1-pout");
        b = find_compact(p, loop, "pin=1-pout");
        if (a < 0) a = b;
        if (b < 0) b = a;
        if (a < 0) /* one buffer: the line that replaced the swap */
            a = b = find_compact(p, loop, "pout=pin=");
        break;
    case SV_PHASE_COPY_BACK: {
        int last = -1;
        for (int k = p->f.nlines - 1; k >= 0 && last < 0; k--)
            if (code_has(p->code[k], "out[i]="))
                last = k;
        if (last < 0)
            break;
        int ex = find_compact(p, loop, "if(scan_exclusive)");
        a = (ex >= 0 && ex <= last) ? ex : last;
        b = last;
        break;
    }
    default:
        break;
    }
    if (a < 0 || b < 0 || b < a)
        return false;
    *lo = a + 1;
    *hi = b + 1;
    return true;
}

int sv_phases_of(const sv_trace *t, int step, sv_phase *out)
{
    if (!t || t->nrounds == 0)
        return 0;
    int last = (int)t->nrounds - 1;
    bool excl = t->scan == SV_SCAN_EXCLUSIVE;
    int n = 0;
    if (step > last) { /* the exclusive shift: the copy back */
        out[n++] = SV_PHASE_COPY_BACK;
        return n;
    }
    if (step == 0) {
        out[n++] = SV_PHASE_LOAD;
    } else {
        out[n++] = SV_PHASE_GUARD;
        out[n++] = SV_PHASE_OP;
    }
    out[n++] = SV_PHASE_BARRIER;
    if (step < last)
        out[n++] = SV_PHASE_SWAP;
    else if (!excl)
        out[n++] = SV_PHASE_COPY_BACK;
    return n;
}

const char *sv_phase_name(sv_phase p)
{
    switch (p) {
    case SV_PHASE_LOAD: return "load";
    case SV_PHASE_GUARD: return "guard";
    case SV_PHASE_OP: return "op";
    case SV_PHASE_BARRIER: return "barrier";
    case SV_PHASE_SWAP: return "swap";
    case SV_PHASE_COPY_BACK: return "copy-back";
    default: return "";
    }
}
