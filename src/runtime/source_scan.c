/* The source scan of a kernel file (source_scan.h): a tokenizer that reads
 * the file as the preprocessor does, the refusals of what a kernel file may
 * not contain, and the few declarations the runtimes need. */
#include "source_scan.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"
#include "../core/escape.h"
#include "print_format.h"

static const char *const allowed_includes[] = {
    "cuda_runtime.h", "cuda.h", "device_launch_parameters.h", "cuda_runtime_api.h",
    "device_functions.h", NULL,
};

const char *sv_source_allowed_includes(void)
{
    return "cuda_runtime.h, cuda.h, device_launch_parameters.h, cuda_runtime_api.h, "
           "device_functions.h";
}

char *sv_source_line_name(const char *path, char *buf, size_t len)
{
    size_t u = 0;
    for (const unsigned char *c = (const unsigned char *)path; *c && u + 1 < len; c++)
        buf[u++] = *c < 0x20 || *c >= 0x7f || *c == '"' || *c == '\\' ? '_' : (char)*c;
    if (len)
        buf[u] = '\0';
    return buf;
}

const char *sv_source_ctype(sv_type type)
{
    return type == SV_TYPE_FLOAT32 ? "float" : "int";
}

/* ---- What a kernel file may name (issue 27, layer 1) ------------------------
 * Names beginning with __ belong to the compiler and the runtime: a kernel
 * file may use only the CUDA ones both runtimes provide. */
static const char *const allowed_reserved[] = {
    "__global__", "__device__", "__host__", "__shared__", "__syncthreads", "__forceinline__",
    "__noinline__", "__launch_bounds__", "__restrict__", "__restrict", "__align__",
    "__int_as_float", "__float_as_int", "__uint_as_float", "__float_as_uint", "__inline__",
    "__LINE__", "__FILE__", "__func__", "__cplusplus", "__VA_ARGS__", "__VA_OPT__",
    "__CUDA_ARCH__", "__CUDACC__", "__CUDACC_RTC__",
    /* warp-level CUDA (issue 30): both runtimes have these */
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync",
    "__any_sync", "__all_sync", "__activemask", "__syncwarp", "__syncthreads_count",
    "__syncthreads_and", "__syncthreads_or", "__popc", "__popcll", "__clz", "__clzll", "__ffs",
    "__ffsll", "__brev", "__brevll", "__threadfence", "__threadfence_block", "__ldg", "__constant__",
    "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
    "__reduce_or_sync", "__reduce_xor_sync", "__umulhi", "__mulhi", "__umul64hi", "__mul64hi",
    "__mul24", "__umul24", "__sad", "__usad", "__hadd", "__rhadd", "__uhadd", "__urhadd",
    "__byte_perm", "__funnelshift_l", "__funnelshift_lc", "__funnelshift_r", "__funnelshift_rc",
    "__saturatef", NULL,
};

/* The CUDA host API a host function scan (issue 31) may call: scratch
 * memory and the launches' errors; nothing that reads device memory on the
 * host (so that the launches depend on n alone). */
static const char *const host_api[] = {
    "cudaMalloc", "cudaFree", "cudaMemset", "cudaDeviceSynchronize", "cudaGetLastError",
    "cudaPeekAtLastError", "cudaError_t", "cudaSuccess", "cudaMemcpy", "cudaMemcpyKind",
    "cudaMemcpyDeviceToDevice", "cudaMemcpyDefault", "cudaMemcpyHostToDevice",
    "cudaMemcpyDeviceToHost", "cudaMemcpyHostToHost", NULL,
};

/* What both runtimes define as macros, or the CPU runtime does where NVRTC
 * has keywords: a kernel file may use them but not test, define or undefine
 * them (`#ifdef __global__` would tell one runtime from the other). */
static const char *const runtime_macros[] = {
    "__global__", "__device__", "__host__", "__shared__", "__forceinline__", "__noinline__",
    "__launch_bounds__", "__align__", "__syncthreads", "threadIdx", "blockDim", "blockIdx",
    "gridDim", "warpSize", "malloc", "free", "INFINITY", "NAN", "INT_MAX", "INT_MIN",
    "FLT_MAX", "__restrict__", "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
    "__shfl_xor_sync", "__ballot_sync", "__any_sync", "__all_sync", "__activemask",
    "__syncwarp", "__constant__", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or", "__ldg",
    "__reduce_add_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
    "__reduce_or_sync", "__reduce_xor_sync", "assert", "printf", "cudaMalloc", "cudaFree",
    "cudaMemset", "cudaMemcpy", "__threadfence", NULL,
};

/* CUDA that neither runtime provides yet, named in words instead of the
 * compiler's "was not declared" (issue 28); the user guide lists it. */
typedef struct unsupported {
    const char *prefix; /* a name, or a prefix ending in '*' */
    const char *what;
} unsupported;
static const unsupported unsupported_names[] = {
    {"__shfl", "the warp shuffles without _sync (use __shfl_sync, ...)"},
    {"__shfl_up", "the warp shuffles without _sync (use __shfl_up_sync, ...)"},
    {"__shfl_down", "the warp shuffles without _sync (use __shfl_down_sync, ...)"},
    {"__shfl_xor", "the warp shuffles without _sync (use __shfl_xor_sync, ...)"},
    {"__ballot", "the warp votes without _sync (use __ballot_sync, ...)"},
    {"__any", "the warp votes without _sync (use __any_sync)"},
    {"__all", "the warp votes without _sync (use __all_sync)"},
    {"__match*", "warp matches"},
    {"__threadfence_system", "system-wide memory fences"},
    {"__ldca", "cache-hinted loads"}, {"__ldcg", "cache-hinted loads"},
    {"__ldcs", "cache-hinted loads"}, {"__ldlu", "cache-hinted loads"},
    {"__ldcv", "cache-hinted loads"}, {"__st*", "cache-hinted stores"},
    {"atomic*_block", "scoped atomics"}, {"atomic*_system", "scoped atomics"},
    {"__managed__", "managed memory"},
    {"__nanosleep", "clocks and sleeps"}, {"clock", "clocks"}, {"clock64", "clocks"},
    {"__globaltimer", "clocks"}, {"std", "the C++ standard library (std::) beyond std::min, "
     "std::max and the float math the user guide lists"},
    {"cuda*", "the CUDA host API (a kernel file is its kernel only)"},
    {"__f*_r?", "rounding-mode intrinsics"}, {"__fdividef", "fast-math intrinsics"},
    {"__expf", "fast-math intrinsics"}, {"__logf", "fast-math intrinsics"},
    {"__sinf", "fast-math intrinsics"}, {"__cosf", "fast-math intrinsics"},
    {"__powf", "fast-math intrinsics"},
    {"__half*", "half precision"}, {"half", "half precision"},
    {"tex*", "textures"}, {"surf*", "surfaces"},
};

static bool in_list(const char *const *list, const char *s, size_t len)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
            return true;
    return false;
}

/* Whether name (len bytes) matches pattern: a name, or one ending in '*'
 * (any rest) or "_r?" (any one character). */
static bool name_matches(const char *pat, const char *s, size_t len)
{
    size_t pl = strlen(pat);
    if (pl && pat[pl - 1] == '*')
        return len >= pl - 1 && memcmp(pat, s, pl - 1) == 0;
    if (pl >= 3 && strcmp(pat + pl - 3, "_r?") == 0) /* __fadd_rn, __fmul_rz ... */
        return len > 4 && s[0] == '_' && s[1] == '_' && s[2] == 'f' &&
               memcmp(s + len - 3, "_r", 2) == 0;
    return pl == len && memcmp(pat, s, len) == 0;
}

static const char *unsupported_what(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof unsupported_names / sizeof *unsupported_names; i++)
        if (name_matches(unsupported_names[i].prefix, s, len))
            return unsupported_names[i].what;
    return NULL;
}

/* ---- Tokens ---------------------------------------------------------------- *
 * The scan reads the file as the preprocessor does: line splices (a
 * backslash at the end of a line, spaces after it too) are removed first,
 * then comments become spaces, then directives are the lines whose first
 * token is '#'. It works on that logical text (lg) and keeps, for every
 * logical character, its offset in the file (map) and its line (lines), so
 * that what it refuses names the file's own line and what it rewrites is
 * cut from the file's own bytes. */

typedef struct tok {
    size_t off, len; /* in the logical text */
    int line;
} tok;

typedef struct lexer {
    const char *src;   /* the file */
    size_t srclen;
    char *lg;          /* the logical text (splices removed) */
    size_t len;
    size_t *map;       /* [len + 1]: lg[i] is src[map[i]]; map[len] = srclen */
    int *lines;        /* [len + 1]: the file's line of lg[i] */
    tok *toks;
    size_t ntoks, cap;
    sv_source_scan *out;
    size_t start;      /* where the text starts: after a UTF-8 byte-order mark */
    const char *path;
    sv_kfail_kind *kind;
    int *fline;
    char *err;
    size_t errlen;
} lexer;

#define TXT(lx, i) ((lx)->lg + (lx)->toks[i].off)

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

/* The file offset of logical offset p, and of the end of a span ending at p. */
static size_t orig(const lexer *lx, size_t p)
{
    return lx->map[p < lx->len ? p : lx->len];
}

static size_t orig_end(const lexer *lx, size_t p)
{
    return p == 0 ? 0 : p > lx->len ? lx->srclen : lx->map[p - 1] + 1;
}

/* Phase 2: the logical text. False on allocation failure. */
static bool splice(lexer *lx)
{
    const char *s = lx->src;
    size_t n = lx->srclen;
    lx->lg = malloc(n + 1);
    lx->map = malloc((n + 1) * sizeof *lx->map);
    lx->lines = malloc((n + 1) * sizeof *lx->lines);
    if (!lx->lg || !lx->map || !lx->lines)
        return false;
    size_t u = 0;
    int line = 1;
    for (size_t p = 0; p < n;) {
        if (s[p] == '\\') {
            size_t q = p + 1;
            while (q < n && (s[q] == ' ' || s[q] == '\t'))
                q++;
            if (q < n && s[q] == '\r' && q + 1 < n && s[q + 1] == '\n')
                q++;
            if (q < n && s[q] == '\n') {
                line++;
                p = q + 1;
                continue;
            }
        }
        lx->lg[u] = s[p];
        lx->map[u] = p;
        lx->lines[u] = line;
        if (s[p] == '\n')
            line++;
        u++;
        p++;
    }
    lx->lg[u] = '\0';
    lx->map[u] = n;
    lx->lines[u] = line;
    lx->len = u;
    return true;
}

/* A refusal: kind, line and "FILE:LINE: words". Returns false. */
static bool refuse(lexer *lx, sv_kfail_kind kind, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool refuse(lexer *lx, sv_kfail_kind kind, int line, const char *fmt, ...)
{
    char words[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(words, sizeof words, fmt, ap);
    va_end(ap);
    *lx->kind = kind;
    *lx->fline = line;
    sv_errorf(lx->err, lx->errlen, "%s:%d: %s", lx->path, line, words);
    return false;
}

/* What std:: may name in a kernel file: both runtimes have these (cuda_cpu.h
 * and the GPU prelude bring them into std). */
static const char *const std_names[] = {
    "min", "max", "abs", "fabs", "sqrt", "exp", "exp2", "log", "log2", "log10", "pow", "sin",
    "cos", "tan", "tanh", "floor", "ceil", "round", "trunc", "fmin", "fmax", "fma", NULL,
};

/* Whether the identifier s (len bytes) is `std` followed, in the logical
 * text rest, by `::` and one of std_names (spaces between allowed). */
static bool std_allowed(const char *s, size_t len, const char *rest, size_t restlen)
{
    if (len != 3 || memcmp(s, "std", 3) != 0)
        return false;
    size_t i = 0;
    while (i < restlen && (rest[i] == ' ' || rest[i] == '\t'))
        i++;
    if (i + 2 > restlen || rest[i] != ':' || rest[i + 1] != ':')
        return false;
    i += 2;
    while (i < restlen && (rest[i] == ' ' || rest[i] == '\t'))
        i++;
    size_t b = i;
    while (i < restlen && is_ident(rest[i]))
        i++;
    return i > b && in_list(std_names, rest + b, i - b);
}

/* What a kernel file may not name: NULL when name may be used. in_pp: the
 * name is tested, defined or undefined by a directive. */
static bool check_ident(lexer *lx, const char *s, size_t len, int line, bool in_pp)
{
    char name[SV_SCAN_NAME + 8];
    size_t k = len < SV_SCAN_NAME ? len : SV_SCAN_NAME;
    memcpy(name, s, k);
    name[k] = '\0';
    if (len > SV_SCAN_NAME)
        strcat(name, "...");
    if (in_pp && in_list(runtime_macros, s, len))
        return refuse(lx, SV_KFAIL_REFUSED, line,
                      "%s is the runtime's own: a kernel file may use it, but not test, define "
                      "or undefine it", name);
    if ((len == 3 && memcmp(s, "asm", 3) == 0))
        return refuse(lx, SV_KFAIL_REFUSED, line,
                      "asm is refused: a kernel file is C++ and CUDA, not assembly");
    if (len == 7 && memcmp(s, "_Pragma", 7) == 0)
        return refuse(lx, SV_KFAIL_REFUSED, line,
                      "_Pragma is refused: the only pragma a kernel file may use is "
                      "#pragma unroll");
    if (len == 12 && memcmp(s, "thread_local", 12) == 0)
        return refuse(lx, SV_KFAIL_REFUSED, line, "thread_local is refused: a CUDA thread's "
                      "locals are its own already");
    if ((len >= 6 && (memcmp(s, "sv_rt_", 6) == 0 || memcmp(s, "SV_RT_", 6) == 0)) ||
        (len >= 7 && memcmp(s, "SV_CUDA", 7) == 0))
        return refuse(lx, SV_KFAIL_REFUSED, line,
                      "%s is the runtime's own name: a kernel file may not use it", name);
    if (in_list(allowed_reserved, s, len) || in_list(host_api, s, len))
        return true;
    const char *what = unsupported_what(s, len);
    if (what)
        return refuse(lx, SV_KFAIL_REFUSED, line,
                      "%s is not supported in a kernel file yet (%s): the user guide's \"Your "
                      "own kernel\" lists what is", name, what);
    if (len >= 2 && s[0] == '_' && s[1] == '_')
        return refuse(lx, SV_KFAIL_REFUSED, line,
                      "%s is refused: names that begin with __ are the compiler's and the "
                      "runtime's, and a kernel file may use only the CUDA ones it lists", name);
    return true;
}

/* Skips spaces, tabs and block comments (which may span lines) from p on
 * a directive's line; returns the new offset, or (size_t)-1 after a
 * refusal (an unclosed comment). */
static size_t pp_space(lexer *lx, size_t p)
{
    const char *s = lx->lg;
    for (;;) {
        while (p < lx->len && (s[p] == ' ' || s[p] == '\t' || s[p] == '\r' || s[p] == '\f' ||
                               s[p] == '\v'))
            p++;
        if (p + 1 < lx->len && s[p] == '/' && s[p + 1] == '*') {
            size_t q = p + 2;
            while (q + 1 < lx->len && !(s[q] == '*' && s[q + 1] == '/'))
                q++;
            if (q + 1 >= lx->len) {
                refuse(lx, SV_KFAIL_COMPILE, lx->lines[p], "a comment /* is never closed");
                return (size_t)-1;
            }
            p = q + 2;
            continue;
        }
        return p;
    }
}

/* One token at p, outside comments: its end, or (size_t)-1 after a
 * refusal. Strings and character literals must close on their line; raw
 * strings, digraphs, trigraphs, token pasting, backslashes (universal
 * character names) and bytes outside ASCII are refused. *ident says
 * whether it is an identifier. */
static size_t one_token(lexer *lx, size_t p, bool *ident)
{
    const char *s = lx->lg;
    size_t n = lx->len;
    int line = lx->lines[p];
    char c = s[p];
    *ident = false;
    if ((unsigned char)c >= 0x80)
        return refuse(lx, SV_KFAIL_REFUSED, line, "a byte outside ASCII outside a string or "
                      "comment is refused (identifiers are ASCII in a kernel file)"),
               (size_t)-1;
    if (c == '\\')
        return refuse(lx, SV_KFAIL_REFUSED, line, "a backslash outside a string is refused "
                      "(universal character names are not needed in a kernel file)"),
               (size_t)-1;
    if (is_ident_start(c)) {
        size_t q = p + 1;
        while (q < n && is_ident(s[q]))
            q++;
        /* a string prefix: u8"", u"", U"", L""; R"( raw strings are refused */
        if (q < n && (s[q] == '"' || s[q] == '\'')) {
            size_t k = q - p;
            bool prefix = (k == 1 && (c == 'u' || c == 'U' || c == 'L')) ||
                          (k == 2 && c == 'u' && s[p + 1] == '8');
            bool raw = s[q - 1] == 'R' && k <= 3;
            if (raw && s[q] == '"')
                return refuse(lx, SV_KFAIL_REFUSED, line, "a raw string literal (R\"...\") is "
                              "refused in a kernel file"),
                       (size_t)-1;
            if (prefix)
                return one_token(lx, q, ident) == (size_t)-1 ? (size_t)-1
                       : one_token(lx, q, ident);
        }
        *ident = true;
        return q;
    }
    if (c == '"' || c == '\'') {
        size_t q = p + 1;
        while (q < n && s[q] != c && s[q] != '\n') {
            if (s[q] == '\\' && q + 1 < n && s[q + 1] != '\n')
                q++;
            q++;
        }
        if (q >= n || s[q] != c)
            return refuse(lx, SV_KFAIL_COMPILE, line, "a %s is never closed",
                          c == '"' ? "string" : "character literal"),
                   (size_t)-1;
        return q + 1;
    }
    if (isdigit((unsigned char)c) || (c == '.' && p + 1 < n && isdigit((unsigned char)s[p + 1]))) {
        /* a pp-number: digits, letters, '.', digit separators, e+ e- p+ p- */
        size_t q = p + 1;
        while (q < n) {
            if (is_ident(s[q]) || s[q] == '.')
                q++;
            else if ((s[q] == '+' || s[q] == '-') && strchr("eEpP", s[q - 1]))
                q++;
            else if (s[q] == '\'' && q + 1 < n && is_ident(s[q + 1]))
                q += 2;
            else
                break;
        }
        return q;
    }
    if (c == '?' && p + 2 < n && s[p + 1] == '?' && strchr("=/'()!<>-", s[p + 2]))
        return refuse(lx, SV_KFAIL_REFUSED, line, "a trigraph (??%c) is refused", s[p + 2]),
               (size_t)-1;
    if ((c == '%' && p + 1 < n && (s[p + 1] == ':' || s[p + 1] == '>')) ||
        (c == '<' && p + 1 < n && (s[p + 1] == '%' ||
                                   (s[p + 1] == ':' && !(p + 2 < n && s[p + 2] == ':')))) ||
        (c == ':' && p + 1 < n && s[p + 1] == '>'))
        return refuse(lx, SV_KFAIL_REFUSED, line, "a digraph (%c%c) is refused in a kernel "
                      "file", c, s[p + 1]),
               (size_t)-1;
    if (c == '#' && p + 1 < n && s[p + 1] == '#')
        return refuse(lx, SV_KFAIL_REFUSED, line, "token pasting (##) is refused in a kernel "
                      "file"),
               (size_t)-1;
    if (c == ':' && p + 1 < n && s[p + 1] == ':')
        return p + 2;
    return p + 1;
}

/* The include directive's operand at p (after "include"): the header
 * name, or a refusal. Records the line to blank in the CPU text. */
static bool pp_include(lexer *lx, size_t start, size_t p, size_t e, const char *word)
{
    const char *s = lx->lg;
    int line = lx->lines[start];
    char name[SV_SCAN_TYPE] = "";
    if (p < e && (s[p] == '<' || s[p] == '"')) {
        char close = s[p] == '<' ? '>' : '"';
        size_t a = p + 1, b = a;
        while (b < e && s[b] != close)
            b++;
        size_t k = b - a < sizeof name - 1 ? b - a : sizeof name - 1;
        memcpy(name, s + a, k);
        name[k] = '\0';
        size_t after = b < e ? pp_space(lx, b + 1) : e;
        if (after == (size_t)-1)
            return false;
        if (strcmp(word, "include") == 0 && b < e && after >= e &&
            in_list(allowed_includes, name, strlen(name))) {
            sv_source_scan *o = lx->out;
            if (o->nblank < SV_SCAN_MAX_SHARED) {
                o->blank_start[o->nblank] = orig(lx, start);
                o->blank_end[o->nblank++] = orig_end(lx, e);
            }
            return true;
        }
    }
    char esc[SV_SCAN_TYPE * 4];
    sv_escape(name[0] ? name : "?", esc, sizeof esc);
    bool io = strcmp(name, "cstdio") == 0 || strcmp(name, "stdio.h") == 0;
    return refuse(lx, SV_KFAIL_INCLUDE, line,
                  "#%s <%s> is refused: a kernel file may include only the CUDA built-ins (%s), "
                  "which both runtimes provide%s", word, esc, sv_source_allowed_includes(),
                  io ? "; printf in device code needs no #include" : "");
}

/* The tokens of a directive's line from p to e, with their names checked
 * (in_pp: tested or defined names too); pushes nothing. */
static bool pp_tokens(lexer *lx, size_t p, size_t e, bool names_tested)
{
    bool after_defined = false;
    while (p < e) {
        p = pp_space(lx, p);
        if (p == (size_t)-1)
            return false;
        if (p >= e)
            break;
        if (lx->lg[p] == '/' && p + 1 < e && lx->lg[p + 1] == '/')
            break;
        bool ident;
        size_t q = one_token(lx, p, &ident);
        if (q == (size_t)-1)
            return false;
        if (ident) {
            bool tested = names_tested || after_defined;
            if (!check_ident(lx, lx->lg + p, q - p, lx->lines[p], tested))
                return false;
            after_defined = q - p == 7 && memcmp(lx->lg + p, "defined", 7) == 0;
        } else if (!(lx->lg[p] == '(' && after_defined)) {
            after_defined = false;
        }
        p = q;
    }
    return true;
}

/* A directive starting at the '#' at p: checked (issue 27: the allowed
 * directives, includes of the CUDA built-ins only, #pragma unroll only).
 * Returns the offset of its line's end (comments and splices followed),
 * or (size_t)-1 after a refusal. */
static size_t directive(lexer *lx, size_t p)
{
    const char *s = lx->lg;
    size_t start = p;
    int line = lx->lines[p];
    /* the directive's end: the first newline outside a block comment */
    size_t e = p + 1;
    while (e < lx->len && s[e] != '\n') {
        if (s[e] == '/' && e + 1 < lx->len && s[e + 1] == '*') {
            size_t q = pp_space(lx, e);
            if (q == (size_t)-1)
                return (size_t)-1;
            e = q;
            continue;
        }
        if (s[e] == '/' && e + 1 < lx->len && s[e + 1] == '/') {
            while (e < lx->len && s[e] != '\n')
                e++;
            break;
        }
        if (s[e] == '"' || s[e] == '\'') {
            /* a quote in a directive's text: skip its literal on this line */
            size_t q = e + 1;
            while (q < lx->len && s[q] != s[e] && s[q] != '\n')
                q += s[q] == '\\' && q + 1 < lx->len && s[q + 1] != '\n' ? 2 : 1;
            e = q < lx->len && s[q] != '\n' ? q + 1 : q;
            continue;
        }
        e++;
    }
    size_t q = pp_space(lx, p + 1);
    if (q == (size_t)-1)
        return (size_t)-1;
    size_t w = q;
    while (q < e && is_ident(s[q]))
        q++;
    char word[32] = "";
    if (q - w < sizeof word)
        memcpy(word, s + w, q - w), word[q - w] = '\0';
    if (w == q) {
        if (w >= e || (w < e && s[w] == '/'))
            return e; /* the null directive */
        return refuse(lx, SV_KFAIL_REFUSED, line, "this directive is refused: a kernel file's "
                      "directives are #define, #undef, #if, #ifdef, #ifndef, #elif, #else, "
                      "#endif, #error, #warning, #pragma unroll and #include of the CUDA "
                      "built-ins"), (size_t)-1;
    }
    size_t body = pp_space(lx, q);
    if (body == (size_t)-1)
        return (size_t)-1;
    if (!strcmp(word, "include") || !strcmp(word, "import") || !strcmp(word, "include_next"))
        return pp_include(lx, start, body, e, word) ? e : (size_t)-1;
    if (!strcmp(word, "pragma")) {
        size_t a = body, b = a;
        while (b < e && is_ident(s[b]))
            b++;
        if ((b - a == 6 && memcmp(s + a, "unroll", 6) == 0) ||
            (b - a == 4 && memcmp(s + a, "once", 4) == 0))
            return pp_tokens(lx, b, e, false) ? e : (size_t)-1;
        char esc[64];
        char what[32] = "";
        memcpy(what, s + a, b - a < sizeof what - 1 ? b - a : sizeof what - 1);
        sv_escape(what, esc, sizeof esc);
        return refuse(lx, SV_KFAIL_REFUSED, line, "#pragma %s is refused: the only pragma a "
                      "kernel file may use is #pragma unroll", esc[0] ? esc : "(empty)"),
               (size_t)-1;
    }
    if (!strcmp(word, "error") || !strcmp(word, "warning"))
        return e; /* free text */
    if (!strcmp(word, "define") || !strcmp(word, "undef") || !strcmp(word, "ifdef") ||
        !strcmp(word, "ifndef") || !strcmp(word, "elifdef") || !strcmp(word, "elifndef")) {
        /* the name it defines or tests, then (define) the body */
        size_t a = body, b = a;
        while (b < e && is_ident(s[b]))
            b++;
        if (b > a && !check_ident(lx, s + a, b - a, line, true))
            return (size_t)-1;
        return pp_tokens(lx, b, e, false) ? e : (size_t)-1;
    }
    if (!strcmp(word, "if") || !strcmp(word, "elif"))
        return pp_tokens(lx, body, e, false) ? e : (size_t)-1;
    if (!strcmp(word, "else") || !strcmp(word, "endif"))
        return e;
    char esc[64];
    sv_escape(word, esc, sizeof esc);
    return refuse(lx, SV_KFAIL_REFUSED, line, "#%s is refused: a kernel file's directives are "
                  "#define, #undef, #if, #ifdef, #ifndef, #elif, #else, #endif, #error, "
                  "#warning, #pragma unroll and #include of the CUDA built-ins", esc),
           (size_t)-1;
}

static bool lex(lexer *lx)
{
    const char *s = lx->lg;
    size_t p = lx->start;
    bool line_start = true;
    while (p < lx->len) {
        char c = s[p];
        if (c == '\n') {
            p++;
            line_start = true;
            continue;
        }
        if (isspace((unsigned char)c)) {
            p++;
            continue;
        }
        if (c == '/' && p + 1 < lx->len && s[p + 1] == '*') {
            /* a comment is a space: it keeps the line's start */
            size_t q = pp_space(lx, p);
            if (q == (size_t)-1)
                return false;
            p = q;
            continue;
        }
        if (c == '/' && p + 1 < lx->len && s[p + 1] == '/') {
            while (p < lx->len && s[p] != '\n')
                p++;
            continue;
        }
        if (c == '#' && line_start) {
            size_t e = directive(lx, p);
            if (e == (size_t)-1)
                return false;
            p = e;
            continue;
        }
        line_start = false;
        bool ident = false;
        size_t q;
        q = one_token(lx, p, &ident);
        if (q == (size_t)-1)
            return false;
        if (ident && !std_allowed(s + p, q - p, s + q, lx->len - q) &&
            !check_ident(lx, s + p, q - p, lx->lines[p], false))
            return false;
        if (!push(lx, p, q - p, lx->lines[p])) {
            refuse(lx, SV_KFAIL_INTERNAL, lx->lines[p], "out of memory scanning the file");
            return false;
        }
        p = q;
    }
    return true;
}

static bool is(const lexer *lx, size_t i, const char *w)
{
    if (i >= lx->ntoks)
        return false;
    size_t n = strlen(w);
    return lx->toks[i].len == n && memcmp(TXT(lx, i), w, n) == 0;
}

/* The bytes a string literal token (with its quotes) stands for, escapes
 * decoded, appended to buf (at most cap - 1 bytes; *len counts them).
 * False when the token is no plain "..." literal. */
static bool literal_bytes(const char *s, size_t n, char *buf, size_t cap, size_t *len)
{
    if (n < 2 || s[0] != '"' || s[n - 1] != '"')
        return false;
    for (size_t i = 1; i + 1 < n; i++) {
        unsigned v = (unsigned char)s[i];
        if (s[i] == '\\' && i + 2 < n) {
            char c = s[++i];
            static const char simple[] = "n\nt\tr\ra\ab\bf\fv\v";
            const char *m = strchr(simple, c);
            if (c == 'x') {
                v = 0;
                while (i + 2 < n && isxdigit((unsigned char)s[i + 1]))
                    v = v * 16 + (unsigned)(isdigit((unsigned char)s[i + 1])
                                                ? s[i + 1] - '0'
                                                : (tolower((unsigned char)s[i + 1]) - 'a' + 10)),
                    i++;
            } else if (c >= '0' && c <= '7') {
                v = (unsigned)(c - '0');
                for (int k = 0; k < 2 && i + 2 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; k++)
                    v = v * 8 + (unsigned)(s[++i] - '0');
            } else if (m && ((m - simple) % 2) == 0) {
                v = (unsigned char)m[1];
            } else {
                v = (unsigned char)c; /* \\ \" \' \? */
            }
        }
        if (*len + 1 < cap)
            buf[(*len)++] = (char)(v & 0xff);
    }
    return true;
}

/* printf (issue 30): a call whose format is a string literal (adjacent
 * literals joined) of numbers and characters (print_format.h), so that
 * the runtimes can read it: the CPU runtime formats it, the GPU's prelude
 * puts its record's head before it. */
static bool check_printf(lexer *lx)
{
    for (size_t i = 0; i < lx->ntoks; i++) {
        if (!is(lx, i, "printf"))
            continue;
        int line = lx->toks[i].line;
        char fmt[1024], why[320];
        size_t len = 0, k = i + 2;
        bool lit = is(lx, i + 1, "(");
        for (; lit && k < lx->ntoks && *TXT(lx, k) == '"'; k++)
            lit = literal_bytes(TXT(lx, k), lx->toks[k].len, fmt, sizeof fmt, &len);
        if (!lit || k == i + 2 || !(is(lx, k, ",") || is(lx, k, ")")))
            return refuse(lx, SV_KFAIL_REFUSED, line,
                          "printf is supported in a kernel file as a call whose format is a "
                          "string literal: printf(\"x = %%d\\n\", x)");
        if (!sv_print_format_ok(fmt, len, why, sizeof why))
            return refuse(lx, SV_KFAIL_REFUSED, line, "%s", why);
        i = k;
    }
    return true;
}

/* Attributes ([[...]]) a kernel file may use: the standard's that change
 * no code. [[gnu::constructor]], [[gnu::section]], ... are refused. */
static bool check_attributes(lexer *lx)
{
    static const char *const ok[] = {"maybe_unused", "nodiscard", "likely", "unlikely",
                                     "fallthrough", "noreturn", "deprecated", NULL};
    for (size_t i = 0; i + 1 < lx->ntoks; i++) {
        if (!is(lx, i, "[") || !is(lx, i + 1, "["))
            continue;
        size_t k = i + 2;
        int depth = 0;
        for (; k < lx->ntoks; k++) {
            if (is(lx, k, "(") || is(lx, k, "["))
                depth++;
            else if ((is(lx, k, ")") || is(lx, k, "]")) && depth > 0)
                depth--;
            else if (is(lx, k, "]"))
                break;
            else if (depth == 0 && is_ident_start(*TXT(lx, k)) &&
                     !in_list(ok, TXT(lx, k), lx->toks[k].len)) {
                char name[SV_SCAN_NAME];
                size_t n = lx->toks[k].len < sizeof name - 1 ? lx->toks[k].len : sizeof name - 1;
                memcpy(name, TXT(lx, k), n);
                name[n] = '\0';
                return refuse(lx, SV_KFAIL_REFUSED, lx->toks[k].line,
                              "the attribute [[%s]] is refused: a kernel file may use "
                              "[[maybe_unused]], [[nodiscard]], [[likely]], [[unlikely]], "
                              "[[fallthrough]], [[noreturn]] and [[deprecated]]", name);
            }
        }
        i = k;
    }
    return true;
}

static bool tok_ident(const lexer *lx, size_t i)
{
    return i < lx->ntoks && is_ident_start(*TXT(lx, i));
}

static void tok_copy(const lexer *lx, size_t i, char *buf, size_t len)
{
    size_t n = lx->toks[i].len < len - 1 ? lx->toks[i].len : len - 1;
    memcpy(buf, TXT(lx, i), n);
    buf[n] = '\0';
}

/* Index of the token closing the bracket at i ("(" / "[" / "{" / "<"), or ntoks. */
static size_t match(const lexer *lx, size_t i)
{
    char open = *TXT(lx, i);
    char close = open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
    int depth = 0;
    for (size_t k = i; k < lx->ntoks; k++) {
        char c = *TXT(lx, k);
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

/* The parameters between the parentheses at open and close into kr. */
static void params_of(const lexer *lx, size_t open, size_t close, sv_scan_kernel *kr)
{
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
}

static void stamp_sites(lexer *lx); /* below: the GPU's tile timestamps */

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
    params_of(lx, open, close, kr);
    size_t b = close + 1;
    while (b < lx->ntoks && !is(lx, b, "{") && !is(lx, b, ";"))
        b++;
    if (is(lx, b, "{"))
        kr->body_at = orig_end(lx, lx->toks[b].off + 1);
    o->nkernels++;
    return true;
}

/* The host function scan at token i ("scan" followed by "("), at file
 * scope: a definition of void scan(...) that is not __global__ or
 * __device__. Anything else named scan is left to the compiler. */
static void host_parse(lexer *lx, size_t i)
{
    sv_source_scan *o = lx->out;
    size_t v = i;
    if (v == 0 || !is(lx, v - 1, "void"))
        return;
    v--;
    for (size_t b = v; b > 0 && b + 4 > v; b--)
        if (is(lx, b - 1, "__global__") || is(lx, b - 1, "__device__"))
            return;
    size_t close = match(lx, i + 1);
    if (close >= lx->ntoks || !is(lx, close + 1, "{") || o->has_host)
        return;
    sv_scan_kernel *h = &o->host;
    memset(h, 0, sizeof *h);
    snprintf(h->name, sizeof h->name, "scan");
    h->line = lx->toks[i].line;
    size_t head = v;
    while (head > 0 && (is(lx, head - 1, "static") || is(lx, head - 1, "inline") ||
                        is(lx, head - 1, "__host__")))
        head--;
    template_param(lx, head, h->tparam, sizeof h->tparam);
    params_of(lx, i + 1, close, h);
    size_t end = match(lx, close + 1);
    if (end >= lx->ntoks)
        return;
    o->host_body_at = orig(lx, lx->toks[close + 1].off) + 1;
    o->host_body_end = orig(lx, lx->toks[end].off);
    o->has_host = true;
}

/* Whether tokens i, i+1, i+2 are c c c, next to each other ("<<<"). */
static bool triple(const lexer *lx, size_t i, const char *c)
{
    return is(lx, i, c) && is(lx, i + 1, c) && is(lx, i + 2, c) &&
           lx->toks[i + 1].off == lx->toks[i].off + 1 && lx->toks[i + 2].off == lx->toks[i].off + 2;
}

/* A launch NAME<<<config>>>(args) or NAME<T><<<...>>>(...) whose "<<<" is
 * at token i: recorded for the CPU text; refused where it is no launch of
 * the file's kernels. Returns the token after its ">>>", or 0 on a refusal. */
static size_t launch_parse(lexer *lx, size_t i)
{
    sv_source_scan *o = lx->out;
    int line = lx->toks[i].line;
    size_t c = i; /* the callee's first token */
    if (c > 0 && is(lx, c - 1, ">")) { /* template arguments: back to their "<" */
        int depth = 0;
        while (c > 0) {
            c--;
            if (is(lx, c, ">"))
                depth++;
            else if (is(lx, c, "<") && --depth == 0)
                break;
        }
    }
    if (c == 0 || !tok_ident(lx, c - 1)) {
        refuse(lx, SV_KFAIL_REFUSED, line, "a launch (<<<...>>>) names a __global__ function "
               "of the file before its <<<");
        return 0;
    }
    c--;
    size_t k = i + 3;
    int depth = 0;
    while (k < lx->ntoks && !(depth == 0 && triple(lx, k, ">"))) {
        if (is(lx, k, "(") || is(lx, k, "["))
            depth++;
        else if (is(lx, k, ")") || is(lx, k, "]"))
            depth--;
        else if (is(lx, k, ";") || is(lx, k, "{") || is(lx, k, "}"))
            break;
        k++;
    }
    if (k >= lx->ntoks || !triple(lx, k, ">") || !is(lx, k + 3, "(")) {
        refuse(lx, SV_KFAIL_REFUSED, line, "a launch NAME<<<grid, block[, shared]>>>(args) "
               "is not complete here");
        return 0;
    }
    if (o->nlaunches == SV_SCAN_MAX_LAUNCHES) {
        refuse(lx, SV_KFAIL_REFUSED, line, "more than %d launches in a kernel file",
               SV_SCAN_MAX_LAUNCHES);
        return 0;
    }
    sv_scan_launch *l = &o->launches[o->nlaunches++];
    tok_copy(lx, c, l->kernel, sizeof l->kernel);
    l->line = line;
    l->callee_at = orig(lx, lx->toks[c].off);
    l->open_at = orig(lx, lx->toks[i].off);
    l->close_at = orig(lx, lx->toks[k].off);
    return k + 3;
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
        sh->kw_at = orig(lx, lx->toks[i].off);
        {
            size_t d = i;
            while (d > 0 && (is(lx, d - 1, "extern") || is(lx, d - 1, "static") ||
                             is(lx, d - 1, "volatile")))
                d--;
            sh->decl_at = orig(lx, lx->toks[d].off);
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
        sh->name_end = orig_end(lx, lx->toks[k - 1].off + lx->toks[k - 1].len);
        sh->end = semi < lx->ntoks ? orig_end(lx, lx->toks[semi].off + 1) : lx->srclen;
        while (k < semi && !is(lx, k, ","))
            k++;
        q = k + 1;
    }
    return true;
}

/* Whether the '{' at token i opens a namespace or an extern "C" block
 * (whose declarations are still at namespace scope). */
/* A __constant__ declaration (issue 30): at file scope, as CUDA has it. The
 * CPU runtime makes it a static const object (cuda_cpu.h), so a `static` or
 * `const` of the declaration's own beside the keyword is blanked in the CPU
 * text (C++ takes neither twice); a write to it is then the compiler's error, as a
 * store to constant memory is none of a kernel's on the GPU. */
static bool constant_decl(lexer *lx, size_t i, bool file_scope)
{
    if (!file_scope)
        return refuse(lx, SV_KFAIL_REFUSED, lx->toks[i].line,
                      "__constant__ memory is declared at file scope, outside every function");
    /* the specifiers next to it, on either side: its own static and const go */
    size_t lo = i, hi = i;
    while (lo > 0 && (is(lx, lo - 1, "static") || is(lx, lo - 1, "const")))
        lo--;
    while (hi + 1 < lx->ntoks && (is(lx, hi + 1, "static") || is(lx, hi + 1, "const")))
        hi++;
    for (size_t k = lo; k <= hi; k++) {
        if (k == i)
            continue;
        sv_source_scan *o = lx->out;
        if (o->nblank >= SV_SCAN_MAX_SHARED)
            return refuse(lx, SV_KFAIL_REFUSED, lx->toks[k].line,
                          "more than %d __constant__ const declarations and #includes: write "
                          "__constant__ without const", SV_SCAN_MAX_SHARED);
        o->blank_start[o->nblank] = orig(lx, lx->toks[k].off);
        o->blank_end[o->nblank++] = orig_end(lx, lx->toks[k].off + lx->toks[k].len);
    }
    return true;
}

static bool namespace_brace(const lexer *lx, size_t i)
{
    if (i >= 1 && is(lx, i - 1, "namespace"))
        return true;
    if (i >= 2 && is(lx, i - 2, "namespace") && tok_ident(lx, i - 1))
        return true;
    return i >= 2 && is(lx, i - 2, "extern") && *TXT(lx, i - 1) == '"';
}

static bool scan(const char *src, const char *path, sv_source_scan *out,
                 sv_kfail_kind *kind, int *line, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->entry = -1;
    *kind = SV_KFAIL_NONE;
    *line = 0;
    lexer lx;
    memset(&lx, 0, sizeof lx);
    lx.src = src;
    lx.srclen = strlen(src);
    lx.out = out;
    lx.path = path;
    lx.kind = kind;
    lx.fline = line;
    lx.err = err;
    lx.errlen = errlen;
    bool ok = splice(&lx);
    if (!ok) {
        *kind = SV_KFAIL_INTERNAL;
        sv_errorf(err, errlen, "out of memory scanning %s", path);
    }
    /* a UTF-8 byte-order mark (an editor's) is not part of the text: blanked */
    if (ok && lx.len >= 3 && memcmp(lx.lg, "\xef\xbb\xbf", 3) == 0) {
        lx.start = 3;
        out->blank_start[out->nblank] = 0;
        out->blank_end[out->nblank++] = orig_end(&lx, 3);
    }
    ok = ok && lex(&lx) && check_attributes(&lx) && check_printf(&lx);
    /* the braces around each declaration: a __shared__ array outside every
     * function is at file scope (its CPU text needs no code to run at load) */
    uint64_t fn_depth = 0; /* braces that are not namespaces' */
    uint64_t stack = 0;    /* bit k: brace k is a namespace's (64 levels) */
    unsigned depth = 0;
    for (size_t i = 0; ok && i < lx.ntoks; i++) {
        if (is(&lx, i, "{")) {
            bool ns = namespace_brace(&lx, i);
            if (depth < 64 && ns)
                stack |= 1ull << depth;
            else if (depth < 64)
                stack &= ~(1ull << depth);
            fn_depth += !ns;
            depth++;
        } else if (is(&lx, i, "}") && depth > 0) {
            depth--;
            fn_depth -= depth < 64 && (stack >> depth & 1) ? 0 : 1;
        } else if (is(&lx, i, "Op") && fn_depth == 0 && i > 0 &&
                   (is(&lx, i - 1, "struct") || is(&lx, i - 1, "class") ||
                    is(&lx, i - 1, "union") || is(&lx, i - 1, "enum") ||
                    is(&lx, i - 1, "using") || (i + 1 < lx.ntoks && is(&lx, i + 1, ";")))) {
            out->own_op = true;
        } else if (is(&lx, i, "__global__")) {
            ok = kernel_parse(&lx, i, path, kind, line, err, errlen);
        } else if (fn_depth == 0 && is(&lx, i, "scan") && is(&lx, i + 1, "(")) {
            host_parse(&lx, i);
        } else if (triple(&lx, i, "<")) {
            size_t next = launch_parse(&lx, i);
            ok = next != 0;
            if (ok)
                i = next - 1;
        } else if (is(&lx, i, "__constant__")) {
            ok = constant_decl(&lx, i, fn_depth == 0);
        } else if (is(&lx, i, "__shared__")) {
            size_t first = out->nshared;
            ok = shared_parse(&lx, i, path, kind, line, err, errlen);
            for (size_t k = first; k < out->nshared; k++)
                out->shared[k].file_scope = fn_depth == 0;
        }
    }
    if (ok)
        stamp_sites(&lx);
    free(lx.toks);
    free(lx.lg);
    free(lx.map);
    free(lx.lines);
    return ok;
}

/* ---- The GPU's tile timestamps (issue 31) --------------------------------- */

/* Tokens i and i + 1 touch (no space between): "+=" is "+" "=". */
static bool touch(const lexer *lx, size_t i)
{
    return i + 1 < lx->ntoks && lx->toks[i].off + lx->toks[i].len == lx->toks[i + 1].off;
}

/* Whether tokens a .. b - 1 can be evaluated again with nothing changed:
 * names, numbers, subscripts, members and arithmetic; no call, cast,
 * assignment, ++ or --. */
static bool pure_span(const lexer *lx, size_t a, size_t b)
{
    if (a >= b)
        return false;
    for (size_t k = a; k < b; k++) {
        const char c = TXT(lx, k)[0];
        if (tok_ident(lx, k) || isdigit((unsigned char)c) || strchr("[].*&+->/%<", c)) {
            if ((c == '+' || c == '-') && k + 1 < b && touch(lx, k) && TXT(lx, k + 1)[0] == c)
                return false; /* ++ -- */
            if (tok_ident(lx, k) && k + 1 < b && tok_ident(lx, k + 1))
                return false; /* a declaration: "int x", "unsigned long long *p" */
            if (tok_ident(lx, k) && (is(lx, k, "sizeof") || is(lx, k, "new") ||
                                     is(lx, k, "delete") || is(lx, k, "this")))
                return false;
            continue;
        }
        return false;
    }
    return true;
}

/* A cast "( volatile int * )" at token k before b: the index past its ')',
 * 0 when it is none (type words, then at least one '*'). */
static size_t cast_at(const lexer *lx, size_t k, size_t b)
{
    if (!is(lx, k, "("))
        return 0;
    size_t m = match(lx, k);
    if (m >= b || m < k + 3 || !tok_ident(lx, k + 1) || !is(lx, m - 1, "*"))
        return 0;
    for (size_t j = k + 1; j < m; j++)
        if (!tok_ident(lx, j) && !is(lx, j, "*"))
            return 0;
    return m + 1;
}

/* Whether tokens a .. b - 1 are an lvalue that can be evaluated again with
 * nothing changed: a name (or a cast name: "((volatile int *)flags)[b]",
 * "*(volatile int *)p") with subscripts of pure_span, members (. ->) and
 * leading derefs. */
static bool lvalue_span(const lexer *lx, size_t a, size_t b)
{
    size_t k = a, derefs = 0, c;
    while (k < b && is(lx, k, "*"))
        k++, derefs++;
    bool need_suffix = false;
    if (k < b && tok_ident(lx, k)) {
        k++;
    } else if (k < b && is(lx, k, "(") && (c = cast_at(lx, k + 1, b)) != 0 && c + 1 < b &&
               tok_ident(lx, c) && is(lx, c + 1, ")") && match(lx, k) == c + 1) {
        k = c + 2; /* ( (T *) name ) */
        need_suffix = derefs == 0;
    } else if (derefs > 0 && (c = cast_at(lx, k, b)) != 0 && c < b && tok_ident(lx, c)) {
        k = c + 1; /* *(T *) name */
    } else {
        return false;
    }
    if (is(lx, k - 1, "sizeof") || is(lx, k - 1, "this"))
        return false;
    bool suffix = false;
    for (; k < b; k++, suffix = true) {
        if (is(lx, k, "[")) {
            size_t m = match(lx, k);
            if (m >= b || !pure_span(lx, k + 1, m))
                return false;
            k = m;
        } else if (is(lx, k, ".") && k + 1 < b && tok_ident(lx, k + 1)) {
            k++;
        } else if (is(lx, k, "-") && touch(lx, k) && is(lx, k + 1, ">") && k + 2 < b &&
                   tok_ident(lx, k + 2)) {
            k += 2;
        } else {
            return false;
        }
    }
    return suffix || !need_suffix;
}

/* The statement at token i (a statement starts it): its assignment's left
 * side and its atomics' first arguments as stamps. */
static void stamp_statement(lexer *lx, size_t i)
{
    static const char *const control[] = {"if", "for", "while", "switch", "return", "do", "else",
                                          "case", "default", "goto", "break", "continue",
                                          "template", "typedef", "using", "struct", "class",
                                          "static_assert", "asm", "__syncthreads"};
    for (size_t c = 0; c < sizeof control / sizeof *control; c++)
        if (is(lx, i, control[c]))
            return;
    sv_source_scan *o = lx->out;
    int depth = 0;
    size_t end = i, assign = 0;
    for (; end < lx->ntoks; end++) {
        const char c = TXT(lx, end)[0];
        if (lx->toks[end].len != 1 && !tok_ident(lx, end))
            continue;
        if (c == '(' || c == '[')
            depth++;
        else if (c == ')' || c == ']') {
            if (--depth < 0)
                return; /* a for's header, a condition */
        } else if (c == '{' || c == '}' || c == '#') {
            return;
        } else if (c == ';' && depth == 0) {
            break;
        } else if (c == '=' && depth == 0 && !assign) {
            const bool eq_next = touch(lx, end) && is(lx, end + 1, "=");
            const char before = end > i && touch(lx, end - 1) ? TXT(lx, end - 1)[0] : ' ';
            if (eq_next || before == '=' || before == '!') {
                if (eq_next)
                    end++;
                continue; /* == != */
            }
            size_t lv = end;
            if (strchr("+-*/%&|^", before))
                lv = end - 1;
            else if (before == '<' || before == '>') {
                if (!(end >= i + 2 && touch(lx, end - 2) && TXT(lx, end - 2)[0] == before))
                    continue; /* <= >= */
                lv = end - 2;
            }
            assign = lv;
        }
    }
    if (end >= lx->ntoks || end == i)
        return;
    const size_t at = orig(lx, lx->toks[i].off), stop = orig_end(lx, lx->toks[end].off + 1);
    if (o->has_host && at >= o->host_body_at && at < o->host_body_end)
        return;
    /* a bare name (a local, a __shared__ scalar) is never device memory:
     * its address is not taken, so that it stays in a register */
    const bool lv = assign > i + 1 && lvalue_span(lx, i, assign);
    /* a declaration ("int old = atomicAdd(p, 1);", "T *q = ..."): its names stay in scope */
    const bool decl = !lv && assign > i && tok_ident(lx, i) &&
                      (tok_ident(lx, i + 1) || is(lx, i + 1, "*") || is(lx, i + 1, "&"));
    if (assign > i + 1 && !lv && !decl)
        return;
    if (lv && o->nstamps < SV_SCAN_MAX_STAMPS)
        o->stamps[o->nstamps++] = (sv_scan_stamp){
            lx->toks[i].line, at, stop, at,
            orig_end(lx, lx->toks[assign - 1].off + lx->toks[assign - 1].len), false, true };
    for (size_t k = i; k + 1 < end; k++) {
        if (!tok_ident(lx, k) || strncmp(TXT(lx, k), "atomic", 6) != 0 || !is(lx, k + 1, "("))
            continue;
        size_t a = k + 2, b = a;
        int d = 0;
        for (; b < end; b++) {
            if (is(lx, b, "(") || is(lx, b, "["))
                d++;
            else if ((is(lx, b, ")") || is(lx, b, "]")) && d-- == 0)
                break;
            else if (is(lx, b, ",") && d == 0)
                break;
        }
        if (b < end && pure_span(lx, a, b) && o->nstamps < SV_SCAN_MAX_STAMPS)
            o->stamps[o->nstamps++] = (sv_scan_stamp){
                lx->toks[i].line, at, stop, orig(lx, lx->toks[a].off),
                orig_end(lx, lx->toks[b - 1].off + lx->toks[b - 1].len), true, !decl };
    }
}

/* Whether the ')' at token i closes an if, for, while or switch's
 * parentheses (a statement follows it), not a cast's or a call's. */
static bool control_close(const lexer *lx, size_t i)
{
    int depth = 0;
    for (size_t k = i + 1; k-- > 0;) {
        if (is(lx, k, ")"))
            depth++;
        else if (is(lx, k, "(") && --depth == 0)
            return k > 0 && (is(lx, k - 1, "if") || is(lx, k - 1, "for") ||
                             is(lx, k - 1, "while") || is(lx, k - 1, "switch"));
    }
    return false;
}

/* Every statement in a function body that may write device memory. */
static void stamp_sites(lexer *lx)
{
    unsigned depth = 0;
    for (size_t i = 0; i < lx->ntoks; i++) {
        if (is(lx, i, "{"))
            depth++;
        else if (is(lx, i, "}") && depth > 0)
            depth--;
        if (depth == 0 || i == 0 || is(lx, i, "{") || is(lx, i, "}") || is(lx, i, ";"))
            continue;
        const bool start = is(lx, i - 1, ";") || is(lx, i - 1, "{") || is(lx, i - 1, "}") ||
                           is(lx, i - 1, "else") || (is(lx, i - 1, ")") && control_close(lx, i - 1));
        if (start && (tok_ident(lx, i) || is(lx, i, "*") || is(lx, i, "(")))
            stamp_statement(lx, i);
    }
}

bool sv_source_scan_text(const char *src, const char *path, sv_source_scan *out,
                         sv_kfail_kind *kind, int *line, char *err, size_t errlen)
{
    if (!scan(src, path, out, kind, line, err, errlen))
        return false;
    for (size_t i = 0; i < out->nshared; i++) {
        const sv_scan_shared *sh = &out->shared[i];
        if (sh->is_extern && sh->file_scope) {
            *kind = SV_KFAIL_REFUSED;
            *line = sh->line;
            sv_errorf(err, errlen, "%s:%d: extern __shared__ %s[] outside a function is not "
                      "supported: declare it inside the kernel", path, sh->line, sh->name);
            return false;
        }
    }
    for (size_t i = 0; i < out->nlaunches; i++) {
        const sv_scan_launch *l = &out->launches[i];
        bool known = false;
        for (size_t k = 0; k < out->nkernels; k++)
            known = known || strcmp(out->kernels[k].name, l->kernel) == 0;
        if (!out->has_host || !known) {
            *kind = SV_KFAIL_REFUSED;
            *line = l->line;
            if (!out->has_host)
                sv_errorf(err, errlen, "%s:%d: a launch (%s<<<...>>>) is made by a host "
                          "function void scan(const T *in, T *out, int n), which this file "
                          "does not define", path, l->line, l->kernel);
            else
                sv_errorf(err, errlen, "%s:%d: %s<<<...>>> launches no __global__ function of "
                          "this file", path, l->line, l->kernel);
            return false;
        }
    }
    return true;
}

const sv_scan_kernel *sv_source_entry(const sv_source_scan *s)
{
    if (s->entry == SV_SCAN_ENTRY_HOST)
        return &s->host;
    return &s->kernels[s->entry >= 0 ? s->entry : 0];
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

/* Appends item to the ", "-separated list in buf (used bytes so far); the
 * new length (a list that does not fit stops where it was cut). */
static size_t list_add(char *buf, size_t len, size_t used, const char *item)
{
    int m = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", item);
    return m < 0 || (size_t)m >= len - used ? len - 1 : used + (size_t)m;
}

static void params_text(const sv_scan_kernel *k, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < k->nparams; i++)
        used = list_add(buf, len, used, k->params[i].type);
}

static void names_text(const sv_source_scan *s, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < s->nkernels; i++)
        used = list_add(buf, len, used, s->kernels[i].name);
}

bool sv_source_check_entry(sv_source_scan *s, const char *entry, sv_type type, int *line,
                           char *err, size_t errlen)
{
    char names[512];
    names_text(s, names, sizeof names);
    *line = 0;
    s->entry = -1;
    if (s->has_host && (!entry || strcmp(entry, "scan") == 0)) {
        *line = s->host.line;
        if (s->nkernels == 0) {
            sv_errorf(err, errlen, "line %d: scan launches kernels, and this file defines no "
                      "__global__ function", s->host.line);
            return false;
        }
        if (!contract_ok(&s->host, type)) {
            char have[512];
            params_text(&s->host, have, sizeof have);
            const char *T = sv_source_ctype(type);
            sv_errorf(err, errlen, "line %d: the host function scan takes (const %s *in, %s "
                      "*out, int n) for --type %s; its parameters are (%s)",
                      s->host.line, T, T, sv_type_name(type), have);
            return false;
        }
        s->entry = SV_SCAN_ENTRY_HOST;
        return true;
    }
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
            m = snprintf(e->text + u, sizeof e->text - u, "%s(%s, %s, %s, \"%s\", %d);",
                         d->file_scope ? "SV_RT_FSTATIC" : "SV_RT_STATIC", d->elem, d->name,
                         dims, d->name, d->line);
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
    edit *ed = malloc((2 * SV_SCAN_MAX_SHARED + 3 * SV_SCAN_MAX_LAUNCHES) * sizeof *ed);
    size_t ne = 0;
    if (!ed)
        return NULL;
    for (size_t i = 0; i < s->nblank; i++) {
        ed[ne].at = s->blank_start[i];
        ed[ne].cut = s->blank_end[i] - s->blank_start[i];
        ed[ne++].text[0] = '\0';
    }
    /* NAME<<<c>>>(a) -> sv_rt_launcher(L, "NAME", NAME)(sv_rt_cfg(c))(a) */
    for (size_t i = 0; i < s->nlaunches; i++) {
        const sv_scan_launch *l = &s->launches[i];
        ed[ne].at = l->callee_at;
        ed[ne].cut = 0;
        snprintf(ed[ne++].text, sizeof ed[0].text, "sv_rt_launcher(%d, \"%s\", ", l->line,
                 l->kernel);
        ed[ne].at = l->open_at;
        ed[ne].cut = 3;
        snprintf(ed[ne++].text, sizeof ed[0].text, ")(sv_rt_cfg(");
        ed[ne].at = l->close_at;
        ed[ne].cut = 3;
        snprintf(ed[ne++].text, sizeof ed[0].text, "))");
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
    /* the path in #line, made safe */
    char qp[1024];
    sv_source_line_name(path, qp, sizeof qp);
    /* the run's operator (scan_ops.h), unless the file has an Op of its own */
    if (!s->own_op)
        u += (size_t)sprintf(o + u, "using sv_scan::Op;\n");
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
    const sv_scan_kernel *k = sv_source_entry(s);
    const char *head = "\n#line 1 \"<scanviz launcher>\"\n"
                       "extern \"C\" __attribute__((visibility(\"default\"))) void "
                       "sv_rt_entry(const void *in, void *out, int n)\n";
    if (type == SV_TYPE_COUNT && k->tparam[0]) {
        /* every type in one build (the shipped kernels): the run's type picks */
        u += (size_t)sprintf(o + u,
                             "%s{ if (sv_rt_scan[2] == %d) %s<float>((const float *)in, "
                             "(float *)out, n);\n  else %s<int>((const int *)in, (int *)out, n); }\n",
                             head, (int)SV_TYPE_FLOAT32, k->name, k->name);
        o[u] = '\0';
        return o;
    }
    if (s->entry == SV_SCAN_ENTRY_HOST) { /* the runtime runs it as the host side */
        static const char host[] = "\n#line 1 \"<scanviz launcher>\"\nextern \"C\" "
                                   "__attribute__((visibility(\"default\"))) const int "
                                   "sv_rt_host = 1;\n";
        memcpy(o + u, host, sizeof host - 1);
        u += sizeof host - 1;
    }
    if (type == SV_TYPE_COUNT)
        type = strstr(k->params[0].type, "float") ? SV_TYPE_FLOAT32 : SV_TYPE_INT32;
    const char *T = sv_source_ctype(type);
    char inst[SV_SCAN_NAME + 16] = "";
    if (k->tparam[0])
        snprintf(inst, sizeof inst, "<%s>", T);
    u += (size_t)sprintf(o + u, "%s{ %s%s((const %s *)in, (%s *)out, n); }\n", head, k->name, inst,
                         T, T);
    o[u] = '\0';
    return o;
}

char *sv_source_gpu_kernels(const sv_source_scan *s, const char *src)
{
    size_t len = strlen(src);
    char *o = malloc(len + 1);
    if (!o)
        return NULL;
    memcpy(o, src, len + 1);
    for (size_t i = 0; i < s->nblank; i++)
        for (size_t c = s->blank_start[i]; c < s->blank_end[i] && c < len; c++)
            if (o[c] != '\n')
                o[c] = ' ';
    if (s->has_host)
        for (size_t c = s->host_body_at; c < s->host_body_end && c < len; c++)
            if (o[c] != '\n')
                o[c] = ' ';
    return o;
}

typedef struct insert_at {
    size_t at;
    int order;  /* at one offset: a statement's end, a body's guard, a statement's start */
    size_t k;   /* the kernel or the stamp */
} insert_at;

static int by_offset(const void *a, const void *b)
{
    const insert_at *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    if (x->order != y->order)
        return x->order - y->order;
    return x->k < y->k ? -1 : x->k > y->k;
}

/* A stamp's span on one line (its newlines as spaces). */
static void put_span(char *o, size_t *u, const char *src, size_t a, size_t b)
{
    for (size_t c = a; c < b; c++)
        o[(*u)++] = src[c] == '\n' || src[c] == '\r' || src[c] == '\\' ? ' ' : src[c];
}

char *sv_source_gpu_stamped(const sv_source_scan *s, const char *src)
{
    char *base = sv_source_gpu_kernels(s, src);
    if (!base)
        return NULL;
    const size_t len = strlen(base);
    insert_at *ins = calloc(SV_SCAN_MAX_KERNELS + 2 * SV_SCAN_MAX_STAMPS, sizeof *ins);
    size_t ni = 0, extra = 0;
    if (!ins) {
        free(base);
        return NULL;
    }
    for (size_t k = 0; k < s->nkernels; k++)
        if (s->kernels[k].body_at && s->kernels[k].body_at <= len) {
            ins[ni++] = (insert_at){ s->kernels[k].body_at, 1, k };
            extra += 40;
        }
    for (size_t k = 0; k < s->nstamps; k++) {
        const sv_scan_stamp *x = &s->stamps[k];
        if (x->end > len || x->span_end > len)
            continue;
        if (x->braces && (k == 0 || x->at != s->stamps[k - 1].at))
            ins[ni++] = (insert_at){ x->at, 2, k };
        ins[ni++] = (insert_at){ x->end, 0, k };
        extra += 48 + (x->span_end - x->span_at);
    }
    qsort(ins, ni, sizeof *ins, by_offset);
    char *o = malloc(len + extra + 1);
    if (!o) {
        free(ins);
        free(base);
        return NULL;
    }
    size_t u = 0, from = 0;
    for (size_t i = 0; i < ni; i++) {
        memcpy(o + u, base + from, ins[i].at - from);
        u += ins[i].at - from;
        from = ins[i].at;
        if (ins[i].order == 1) {
            u += (size_t)sprintf(o + u, " sv_tile_guard sv_tile_guard_;");
        } else if (ins[i].order == 2) {
            o[u++] = '{';
            o[u++] = ' ';
        } else {
            const sv_scan_stamp *x = &s->stamps[ins[i].k];
            u += (size_t)sprintf(o + u, " sv_stamp(%d, %s", x->line, x->pointer ? "(" : "&(");
            put_span(o, &u, src, x->span_at, x->span_end);
            u += (size_t)sprintf(o + u, "));");
            /* the statement's last stamp closes its braces */
            if (x->braces && (ins[i].k + 1 >= s->nstamps || s->stamps[ins[i].k + 1].at != x->at))
                u += (size_t)sprintf(o + u, " }");
        }
    }
    memcpy(o + u, base + from, len - from);
    u += len - from;
    o[u] = '\0';
    free(ins);
    free(base);
    return o;
}

bool sv_source_launch_callee(const sv_source_scan *s, const char *src, int line, const char *ctype,
                             char *buf, size_t len)
{
    const sv_scan_launch *l = NULL;
    for (size_t i = 0; i < s->nlaunches && !l; i++)
        if (s->launches[i].line == line)
            l = &s->launches[i];
    if (!l || l->open_at <= l->callee_at || len == 0)
        return false;
    size_t u = 0;
    const char *tp = s->host.tparam;
    size_t tl = strlen(tp);
    for (size_t c = l->callee_at; c < l->open_at && u + 1 < len;) {
        char ch = src[c];
        bool word_start = c == l->callee_at || !(isalnum((unsigned char)src[c - 1]) ||
                                                 src[c - 1] == '_');
        if (tl && word_start && strncmp(src + c, tp, tl) == 0 &&
            !(isalnum((unsigned char)src[c + tl]) || src[c + tl] == '_')) {
            int m = snprintf(buf + u, len - u, "%s", ctype);
            u = m > 0 && (size_t)m < len - u ? u + (size_t)m : len - 1;
            c += tl;
            continue;
        }
        if (ch != ' ' && ch != '\t' && ch != '\n' && ch != '\r')
            buf[u++] = ch;
        c++;
    }
    buf[u] = '\0';
    return u > 0;
}
