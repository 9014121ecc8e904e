/* The source scan of a kernel file (source_scan.h): a small tokenizer and
 * the few declarations the runtimes need. */
#include "source_scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"

static const char *const allowed_includes[] = {
    "cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "cuda_runtime_api.h",
    "device_functions.h", NULL,
};

const char *sv_source_allowed_includes(void)
{
    return "cuda_runtime.h, cuda.h, device_launch_parameters.h, cuda_runtime_api.h, "
           "device_functions.h";
}

const char *sv_source_ctype(sv_type type)
{
    return type == SV_TYPE_FLOAT32 ? "float" : "int";
}

/* ---- Tokens ---------------------------------------------------------------- */

typedef struct tok {
    size_t off, len;
    int line;
} tok;

typedef struct lexer {
    const char *src;
    size_t len;
    tok *toks;
    size_t ntoks, cap;
    sv_source_scan *out;
    bool any_include; /* a shipped kernel's own headers */
} lexer;

static bool push(lexer *lx, size_t off, size_t len, int line)
{
    if (lx->ntoks == lx->cap) {
        size_t cap = lx->cap ? lx->cap * 2 : 1024;
        tok *t = realloc(lx->toks, cap * sizeof *t);
        if (!t)
            return false;
        lx->toks = t;
        lx->cap = cap;
    }
    lx->toks[lx->ntoks++] = (tok){off, len, line};
    return true;
}

static bool is_ident_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* A preprocessor line starting at p (the '#'): checks #include. Returns the
 * offset of the line's end (continuations followed), or (size_t)-1 with err. */
static size_t directive(lexer *lx, size_t p, int *line, sv_kfail_kind *kind, int *fline,
                        const char *path, char *err, size_t errlen)
{
    const char *s = lx->src;
    size_t start = p, q = p + 1;
    while (q < lx->len && (s[q] == ' ' || s[q] == '\t'))
        q++;
    size_t w = q;
    while (q < lx->len && is_ident(s[q]))
        q++;
    bool include = q - w == 7 && strncmp(s + w, "include", 7) == 0;
    size_t e = q;
    int l0 = *line;
    while (e < lx->len && s[e] != '\n') {
        if (s[e] == '\\' && e + 1 < lx->len && s[e + 1] == '\n') {
            (*line)++;
            e++;
        }
        e++;
    }
    if (!include)
        return e;
    while (q < e && (s[q] == ' ' || s[q] == '\t'))
        q++;
    char name[SV_SCAN_TYPE] = "";
    if (q < e && (s[q] == '<' || s[q] == '"')) {
        char close = s[q] == '<' ? '>' : '"';
        size_t a = q + 1, b = a;
        while (b < e && s[b] != close)
            b++;
        size_t k = b - a < sizeof name - 1 ? b - a : sizeof name - 1;
        memcpy(name, s + a, k);
        name[k] = '\0';
    }
    if (lx->any_include)
        return e;
    for (size_t i = 0; allowed_includes[i]; i++) {
        if (strcmp(name, allowed_includes[i]) == 0) {
            sv_source_scan *o = lx->out;
            if (o->nblank < SV_SCAN_MAX_SHARED) {
                o->blank_start[o->nblank] = start;
                o->blank_end[o->nblank++] = e;
            }
            return e;
        }
    }
    *kind = SV_KFAIL_INCLUDE;
    *fline = l0;
    sv_errorf(err, errlen,
              "%s:%d: #include <%s> is refused: a kernel file may include only the CUDA "
              "built-ins (%s), which both runtimes provide",
              path, l0, name[0] ? name : "?", sv_source_allowed_includes());
    return (size_t)-1;
}

static bool lex(lexer *lx, const char *path, sv_kfail_kind *kind, int *fline, char *err,
                size_t errlen)
{
    const char *s = lx->src;
    size_t p = 0;
    int line = 1;
    bool line_start = true;
    while (p < lx->len) {
        char c = s[p];
        if (c == '\n') {
            line++;
            p++;
            line_start = true;
            continue;
        }
        if (isspace((unsigned char)c)) {
            p++;
            continue;
        }
        if (c == '#' && line_start) {
            size_t e = directive(lx, p, &line, kind, fline, path, err, errlen);
            if (e == (size_t)-1)
                return false;
            p = e;
            continue;
        }
        line_start = false;
        if (c == '/' && p + 1 < lx->len && s[p + 1] == '/') {
            while (p < lx->len && s[p] != '\n')
                p++;
            continue;
        }
        if (c == '/' && p + 1 < lx->len && s[p + 1] == '*') {
            int l0 = line;
            p += 2;
            while (p + 1 < lx->len && !(s[p] == '*' && s[p + 1] == '/')) {
                if (s[p] == '\n')
                    line++;
                p++;
            }
            if (p + 1 >= lx->len) {
                *kind = SV_KFAIL_COMPILE;
                *fline = l0;
                sv_errorf(err, errlen, "%s:%d: a comment /* is never closed", path, l0);
                return false;
            }
            p += 2;
            continue;
        }
        if (c == '"' || c == '\'') {
            int l0 = line;
            size_t q = p + 1;
            while (q < lx->len && s[q] != c && s[q] != '\n') {
                if (s[q] == '\\')
                    q++;
                q++;
            }
            if (q >= lx->len || s[q] != c) {
                *kind = SV_KFAIL_COMPILE;
                *fline = l0;
                sv_errorf(err, errlen, "%s:%d: a %s is never closed", path, l0,
                          c == '"' ? "string" : "character literal");
                return false;
            }
            if (!push(lx, p, q + 1 - p, line))
                goto oom;
            p = q + 1;
            continue;
        }
        size_t q = p + 1;
        if (is_ident_start(c)) {
            while (q < lx->len && is_ident(s[q]))
                q++;
        } else if (isdigit((unsigned char)c)) {
            while (q < lx->len && (is_ident(s[q]) || s[q] == '.'))
                q++;
        } else if (c == ':' && q < lx->len && s[q] == ':') {
            q++;
        }
        if (!push(lx, p, q - p, line))
            goto oom;
        p = q;
    }
    return true;
oom:
    *kind = SV_KFAIL_INTERNAL;
    sv_errorf(err, errlen, "out of memory scanning %s", path);
    return false;
}

static bool is(const lexer *lx, size_t i, const char *w)
{
    if (i >= lx->ntoks)
        return false;
    size_t n = strlen(w);
    return lx->toks[i].len == n && memcmp(lx->src + lx->toks[i].off, w, n) == 0;
}

static bool tok_ident(const lexer *lx, size_t i)
{
    return i < lx->ntoks && is_ident_start(lx->src[lx->toks[i].off]);
}

static void tok_copy(const lexer *lx, size_t i, char *buf, size_t len)
{
    size_t n = lx->toks[i].len < len - 1 ? lx->toks[i].len : len - 1;
    memcpy(buf, lx->src + lx->toks[i].off, n);
    buf[n] = '\0';
}

/* Index of the token closing the bracket at i ("(" / "[" / "{" / "<"), or ntoks. */
static size_t match(const lexer *lx, size_t i)
{
    char open = lx->src[lx->toks[i].off];
    char close = open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
    int depth = 0;
    for (size_t k = i; k < lx->ntoks; k++) {
        char c = lx->src[lx->toks[k].off];
        if (lx->toks[k].len != 1)
            continue;
        if (c == open)
            depth++;
        else if (c == close && --depth == 0)
            return k;
    }
    return lx->ntoks;
}

/* Appends tokens a..b-1 as normalized text ("const int *"). */
static void join(const lexer *lx, size_t a, size_t b, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = a; k < b; k++) {
        if (is(lx, k, "__restrict__") || is(lx, k, "__restrict") || is(lx, k, "restrict"))
            continue;
        char w[SV_SCAN_TYPE];
        tok_copy(lx, k, w, sizeof w);
        int m = snprintf(buf + used, len - used, "%s%s", used ? " " : "", w);
        if (m < 0 || (size_t)m >= len - used)
            return;
        used += (size_t)m;
    }
}

/* ---- Declarations ---------------------------------------------------------- */

static void param_parse(const lexer *lx, size_t a, size_t b, sv_scan_param *p)
{
    p->name[0] = '\0';
    size_t end = b;
    bool array = false;
    if (end > a && is(lx, end - 1, "]")) { /* T name[] */
        while (end > a && !is(lx, end - 1, "["))
            end--;
        if (end > a)
            end--;
        array = true;
    }
    if (end - a >= 2 && tok_ident(lx, end - 1) && !is(lx, end - 1, "const") &&
        !is(lx, end - 2, "::")) {
        tok_copy(lx, end - 1, p->name, sizeof p->name);
        end--;
    }
    join(lx, a, end, p->type, sizeof p->type);
    if (array)
        strncat(p->type, " *", sizeof p->type - strlen(p->type) - 1);
}

/* A template <typename X> (or <class X>) right before token i: X. */
static void template_param(const lexer *lx, size_t i, char *buf, size_t len)
{
    buf[0] = '\0';
    if (i == 0 || !is(lx, i - 1, ">"))
        return;
    size_t k = i - 1;
    while (k > 0 && !is(lx, k, "<"))
        k--;
    if (k == 0 || !is(lx, k - 1, "template"))
        return;
    if (k + 3 == i - 1 && (is(lx, k + 1, "typename") || is(lx, k + 1, "class")))
        tok_copy(lx, k + 2, buf, len);
}

static bool kernel_parse(lexer *lx, size_t g, const char *path, sv_kfail_kind *kind, int *fline,
                         char *err, size_t errlen)
{
    sv_source_scan *o = lx->out;
    size_t k = g + 1;
    while (k < lx->ntoks) {
        if (is(lx, k, "__launch_bounds__") && is(lx, k + 1, "(")) {
            k = match(lx, k + 1) + 1;
            continue;
        }
        if (tok_ident(lx, k) && is(lx, k + 1, "("))
            break;
        if (is(lx, k, ";") || is(lx, k, "{"))
            return true; /* not a function definition we understand */
        k++;
    }
    if (k >= lx->ntoks)
        return true;
    if (o->nkernels == SV_SCAN_MAX_KERNELS) {
        *kind = SV_KFAIL_SIGNATURE;
        *fline = lx->toks[k].line;
        sv_errorf(err, errlen, "%s:%d: more than %d __global__ functions", path, *fline,
                  SV_SCAN_MAX_KERNELS);
        return false;
    }
    sv_scan_kernel *kr = &o->kernels[o->nkernels];
    memset(kr, 0, sizeof *kr);
    tok_copy(lx, k, kr->name, sizeof kr->name);
    kr->line = lx->toks[k].line;
    /* template <typename T> template-head before the __global__ (or before
     * its leading specifiers). */
    size_t h = g;
    while (h > 0 && (is(lx, h - 1, "static") || is(lx, h - 1, "inline") ||
                     is(lx, h - 1, "\"C\"") || is(lx, h - 1, "extern")))
        h--;
    template_param(lx, h, kr->tparam, sizeof kr->tparam);
    size_t open = k + 1, close = match(lx, open);
    if (close >= lx->ntoks)
        return true;
    size_t a = open + 1;
    int depth = 0;
    for (size_t q = open + 1; q <= close; q++) {
        if (is(lx, q, "(") || is(lx, q, "<") || is(lx, q, "["))
            depth++;
        else if ((is(lx, q, ")") || is(lx, q, ">") || is(lx, q, "]")) && q != close)
            depth--;
        if ((q == close || (is(lx, q, ",") && depth == 0)) && q > a) {
            if (kr->nparams < SV_SCAN_MAX_PARAMS)
                param_parse(lx, a, q, &kr->params[kr->nparams++]);
            a = q + 1;
        } else if (is(lx, q, ",") && depth == 0) {
            a = q + 1;
        }
    }
    if (kr->nparams == 1 && strcmp(kr->params[0].type, "void") == 0)
        kr->nparams = 0;
    o->nkernels++;
    return true;
}

static bool shared_parse(lexer *lx, size_t i, const char *path, sv_kfail_kind *kind, int *fline,
                         char *err, size_t errlen)
{
    sv_source_scan *o = lx->out;
    bool ext = i > 0 && is(lx, i - 1, "extern");
    size_t a = i + 1, semi = a;
    while (semi < lx->ntoks && !is(lx, semi, ";") && !is(lx, semi, "=") && !is(lx, semi, "{"))
        semi++;
    if (semi >= lx->ntoks)
        return true;
    /* the declarators: [type ...] name [dims] {, name [dims]} */
    size_t q = a;
    size_t type_end = a;
    /* the first declarator's name: the last identifier before the first '[' or ',' or end */
    size_t first_bracket = semi;
    for (size_t k = a; k < semi; k++) {
        if (is(lx, k, "(")) { /* __align__(8) and attributes */
            k = match(lx, k);
            continue;
        }
        if (is(lx, k, "[") || is(lx, k, ",")) {
            first_bracket = k;
            break;
        }
    }
    if (first_bracket == a || !tok_ident(lx, first_bracket - 1))
        return true;
    type_end = first_bracket - 1;
    char elem[SV_SCAN_TYPE];
    /* the element type without __align__(...) and volatile */
    elem[0] = '\0';
    {
        size_t used = 0;
        for (size_t k = a; k < type_end; k++) {
            if (is(lx, k, "__align__") && is(lx, k + 1, "(")) {
                k = match(lx, k + 1);
                continue;
            }
            if (is(lx, k, "__attribute__") && is(lx, k + 1, "(")) {
                k = match(lx, k + 1);
                continue;
            }
            if (is(lx, k, "volatile") || is(lx, k, "static"))
                continue;
            char w[SV_SCAN_NAME];
            tok_copy(lx, k, w, sizeof w);
            int m = snprintf(elem + used, sizeof elem - used, "%s%s", used ? " " : "", w);
            if (m > 0 && (size_t)m < sizeof elem - used)
                used += (size_t)m;
        }
    }
    q = type_end;
    while (q < semi) {
        if (!tok_ident(lx, q))
            break;
        if (o->nshared == SV_SCAN_MAX_SHARED) {
            *kind = SV_KFAIL_SIGNATURE;
            *fline = lx->toks[q].line;
            sv_errorf(err, errlen, "%s:%d: more than %d __shared__ arrays", path, *fline,
                      SV_SCAN_MAX_SHARED);
            return false;
        }
        sv_scan_shared *sh = &o->shared[o->nshared++];
        memset(sh, 0, sizeof *sh);
        tok_copy(lx, q, sh->name, sizeof sh->name);
        snprintf(sh->elem, sizeof sh->elem, "%s", elem);
        sh->is_extern = ext;
        sh->kw_at = lx->toks[i].off;
        {
            size_t d = i;
            while (d > 0 && (is(lx, d - 1, "extern") || is(lx, d - 1, "static") ||
                             is(lx, d - 1, "volatile")))
                d--;
            sh->decl_at = lx->toks[d].off;
        }
        sh->line = lx->toks[q].line;
        size_t k = q + 1;
        while (k < semi && is(lx, k, "[")) {
            size_t c = match(lx, k);
            if (sh->ndims < 2)
                join(lx, k + 1, c, sh->dims[sh->ndims], sizeof sh->dims[0]);
            sh->ndims++;
            k = c + 1;
        }
        sh->name_end = lx->toks[k - 1].off + lx->toks[k - 1].len;
        sh->end = semi < lx->ntoks ? lx->toks[semi].off + 1 : lx->len;
        while (k < semi && !is(lx, k, ","))
            k++;
        q = k + 1;
    }
    return true;
}

static bool scan(const char *src, const char *path, bool shipped, sv_source_scan *out,
                 sv_kfail_kind *kind, int *line, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->entry = -1;
    *kind = SV_KFAIL_NONE;
    *line = 0;
    lexer lx = {src, strlen(src), NULL, 0, 0, out, shipped};
    bool ok = lex(&lx, path, kind, line, err, errlen);
    for (size_t i = 0; ok && i < lx.ntoks; i++) {
        if (is(&lx, i, "__global__"))
            ok = kernel_parse(&lx, i, path, kind, line, err, errlen);
        else if (is(&lx, i, "__shared__"))
            ok = shared_parse(&lx, i, path, kind, line, err, errlen);
    }
    free(lx.toks);
    return ok;
}

bool sv_source_scan_text(const char *src, const char *path, sv_source_scan *out,
                         sv_kfail_kind *kind, int *line, char *err, size_t errlen)
{
    return scan(src, path, false, out, kind, line, err, errlen);
}

bool sv_source_scan_shipped(const char *src, const char *path, sv_source_scan *out,
                            char *err, size_t errlen)
{
    sv_kfail_kind kind;
    int line;
    if (!scan(src, path, true, out, &kind, &line, err, errlen))
        return false;
    if (out->nkernels != 1) {
        sv_errorf(err, errlen, "%s: %zu __global__ functions, a shipped kernel has one", path,
                  out->nkernels);
        return false;
    }
    out->entry = 0;
    return true;
}

/* ---- The contract ---------------------------------------------------------- */

static void strip_const_suffix(char *t)
{
    /* "int const *" -> "const int *" */
    char *p = strstr(t, " const *");
    if (p && strncmp(t, "const ", 6) != 0) {
        size_t base = (size_t)(p - t);
        char tmp[SV_SCAN_TYPE];
        snprintf(tmp, sizeof tmp, "const %.*s *", (int)base, t);
        snprintf(t, SV_SCAN_TYPE, "%s", tmp);
    }
}

static bool type_is(const char *have, const char *want_fmt, const char *T, const char *alt)
{
    char w[SV_SCAN_TYPE], h[SV_SCAN_TYPE];
    snprintf(h, sizeof h, "%s", have);
    strip_const_suffix(h);
    snprintf(w, sizeof w, want_fmt, T);
    if (strcmp(h, w) == 0)
        return true;
    if (alt) {
        snprintf(w, sizeof w, want_fmt, alt);
        return strcmp(h, w) == 0;
    }
    return false;
}

static bool contract_ok(const sv_scan_kernel *k, sv_type type)
{
    if (k->nparams != 3)
        return false;
    const char *T = k->tparam[0] && (strstr(k->params[0].type, k->tparam) != NULL)
                        ? k->tparam
                        : sv_source_ctype(type);
    const char *alt = type == SV_TYPE_INT32 && !k->tparam[0] ? "int32_t" : NULL;
    return type_is(k->params[0].type, "const %s *", T, alt) &&
           type_is(k->params[1].type, "%s *", T, alt) &&
           (strcmp(k->params[2].type, "int") == 0 || strcmp(k->params[2].type, "const int") == 0);
}

static void params_text(const sv_scan_kernel *k, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < k->nparams; i++) {
        int m = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", k->params[i].type);
        if (m < 0 || (size_t)m >= len - used)
            return;
        used += (size_t)m;
    }
}

static void names_text(const sv_source_scan *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->nkernels; i++) {
        int m = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", s->kernels[i].name);
        if (m < 0 || (size_t)m >= len - used)
            return;
        used += (size_t)m;
    }
}

bool sv_source_check_entry(sv_source_scan *s, const char *entry, sv_type type, int *line,
                           char *err, size_t errlen)
{
    char names[512];
    names_text(s, names, sizeof names);
    *line = 0;
    s->entry = -1;
    if (s->nkernels == 0) {
        sv_errorf(err, errlen, "no __global__ function: a kernel file defines one "
                               "__global__ void NAME(const %s *in, %s *out, int n)",
                  sv_source_ctype(type), sv_source_ctype(type));
        return false;
    }
    if (entry) {
        for (size_t i = 0; i < s->nkernels; i++)
            if (strcmp(s->kernels[i].name, entry) == 0)
                s->entry = (int)i;
        if (s->entry < 0) {
            sv_errorf(err, errlen, "--entry %s: no __global__ function of that name (there %s %s)",
                      entry, s->nkernels == 1 ? "is" : "are", names);
            return false;
        }
    } else if (s->nkernels > 1) {
        sv_errorf(err, errlen, "%zu __global__ functions (%s): pick one with --entry NAME",
                  s->nkernels, names);
        *line = s->kernels[1].line;
        return false;
    } else {
        s->entry = 0;
    }
    const sv_scan_kernel *k = &s->kernels[s->entry];
    *line = k->line;
    if (!contract_ok(k, type)) {
        char have[512];
        params_text(k, have, sizeof have);
        const char *T = sv_source_ctype(type);
        sv_errorf(err, errlen,
                  "line %d: %s: a kernel takes (const %s *in, %s *out, int n) for --type %s; "
                  "its parameters are (%s)",
                  k->line, k->name, T, T, sv_type_name(type), have);
        s->entry = -1;
        return false;
    }
    return true;
}

/* ---- The CPU text ---------------------------------------------------------- */

typedef struct edit {
    size_t at, cut; /* replace src[at .. at+cut) */
    char text[4 * SV_SCAN_TYPE + 128];
} edit;

static int cmp_edit(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* One declaration's replacement: SV_RT_EXTERN(T, name) or
 * SV_RT_STATIC(T, name, [dims], "name", line) for each of its declarators. */
static void shared_edit(const sv_source_scan *s, size_t first, size_t last, edit *e)
{
    const sv_scan_shared *sh = &s->shared[first];
    e->at = sh->decl_at;
    e->cut = sh->end - sh->decl_at;
    size_t u = 0;
    e->text[0] = '\0';
    for (size_t k = first; k <= last; k++) {
        const sv_scan_shared *d = &s->shared[k];
        char dims[2 * SV_SCAN_TYPE + 8] = "";
        for (int j = 0; j < d->ndims && j < 2; j++) {
            size_t dl = strlen(dims);
            snprintf(dims + dl, sizeof dims - dl, "[%s]", d->dims[j]);
        }
        int m;
        if (d->is_extern)
            m = snprintf(e->text + u, sizeof e->text - u, "SV_RT_EXTERN(%s, %s);", d->elem,
                         d->name);
        else
            m = snprintf(e->text + u, sizeof e->text - u, "SV_RT_STATIC(%s, %s, %s, \"%s\", %d);",
                         d->elem, d->name, dims, d->name, d->line);
        if (m < 0 || (size_t)m >= sizeof e->text - u)
            break;
        u += (size_t)m;
    }
}

/* Appends the file with its line structure intact: an edit never adds or
 * removes a newline. */
static char *cpu_body(const sv_source_scan *s, const char *src, const char *path, size_t extra_out,
                      size_t *used)
{
    edit *ed = malloc(2 * SV_SCAN_MAX_SHARED * sizeof *ed);
    size_t ne = 0;
    if (!ed)
        return NULL;
    for (size_t i = 0; i < s->nblank; i++) {
        ed[ne].at = s->blank_start[i];
        ed[ne].cut = s->blank_end[i] - s->blank_start[i];
        ed[ne++].text[0] = '\0';
    }
    for (size_t i = 0; i < s->nshared;) {
        size_t j = i;
        while (j + 1 < s->nshared && s->shared[j + 1].decl_at == s->shared[i].decl_at)
            j++;
        shared_edit(s, i, j, &ed[ne++]);
        i = j + 1;
    }
    qsort(ed, ne, sizeof ed[0], cmp_edit);
    size_t len = strlen(src), extra = 4096 + extra_out + strlen(path) * 2;
    for (size_t i = 0; i < ne; i++)
        extra += strlen(ed[i].text);
    char *o = malloc(len + extra);
    if (!o) {
        free(ed);
        return NULL;
    }
    size_t u = 0, p = 0;
    /* the path in #line: quotes and backslashes escaped */
    char qp[1024];
    size_t qn = 0;
    for (const char *c = path; *c && qn + 2 < sizeof qp; c++) {
        if (*c == '"' || *c == '\\')
            qp[qn++] = '\\';
        if (*c == '\n')
            continue;
        qp[qn++] = *c;
    }
    qp[qn] = '\0';
    u += (size_t)sprintf(o + u, "#line 1 \"%s\"\n", qp);
    for (size_t i = 0; i < ne; i++) {
        memcpy(o + u, src + p, ed[i].at - p);
        u += ed[i].at - p;
        size_t tl = strlen(ed[i].text);
        memcpy(o + u, ed[i].text, tl);
        u += tl;
        /* a replaced text keeps its newlines (continuations, long declarations) */
        for (size_t c = ed[i].at; c < ed[i].at + ed[i].cut; c++)
            if (src[c] == '\n')
                o[u++] = '\n';
        p = ed[i].at + ed[i].cut;
    }
    memcpy(o + u, src + p, len - p);
    u += len - p;
    free(ed);
    o[u] = '\0';
    *used = u;
    return o;
}

char *sv_source_cpu_text(const sv_source_scan *s, const char *src, const char *path,
                         sv_type type)
{
    size_t u;
    char *o = cpu_body(s, src, path, 0, &u);
    if (!o)
        return NULL;
    const sv_scan_kernel *k = s->entry >= 0 ? &s->kernels[s->entry] : &s->kernels[0];
    const char *T = sv_source_ctype(type);
    char inst[SV_SCAN_NAME + 16] = "";
    if (k->tparam[0])
        snprintf(inst, sizeof inst, "<%s>", T);
    u += (size_t)sprintf(o + u,
                         "\n#line 1 \"<scanviz launcher>\"\n"
                         "extern \"C\" __attribute__((visibility(\"default\"))) void "
                         "sv_rt_entry(const void *in, void *out, int n)\n"
                         "{ %s%s((const %s *)in, (%s *)out, n); }\n",
                         k->name, inst, T, T);
    o[u] = '\0';
    return o;
}

char *sv_source_cpu_text_shipped(const sv_source_scan *s, const char *src, const char *path)
{
    size_t u;
    char *o = cpu_body(s, src, path, 0, &u);
    if (!o)
        return NULL;
    const sv_scan_kernel *k = &s->kernels[s->entry >= 0 ? s->entry : 0];
    u += (size_t)sprintf(o + u,
        "\n#line 1 \"<scanviz launcher>\"\n"
        "static int sv_rt_op, sv_rt_type, sv_rt_exclusive;\n"
        "extern \"C\" __attribute__((visibility(\"default\"))) void\n"
        "sv_rt_configure(int op, int type, int exclusive)\n"
        "{ sv_rt_op = op; sv_rt_type = type; sv_rt_exclusive = exclusive; }\n"
        "namespace {\n"
        "struct sv_rt_launch {\n"
        "    const void *in; void *out; int n;\n"
        "    template <typename Op, typename T> void operator()(Op, T) const {\n"
        "        %s<Op, T, sv::NoTrace<T>>((const T *)in, (T *)out, n, sv_rt_exclusive != 0,\n"
        "            typename sv::NoTrace<T>::Buffers{});\n"
        "    }\n"
        "};\n"
        "}\n"
        "extern \"C\" __attribute__((visibility(\"default\"))) void\n"
        "sv_rt_entry(const void *in, void *out, int n)\n"
        "{ sv::dispatch_op((sv_op)sv_rt_op, (sv_type)sv_rt_type, sv_rt_launch{in, out, n}); }\n",
        k->name);
    o[u] = '\0';
    return o;
}
