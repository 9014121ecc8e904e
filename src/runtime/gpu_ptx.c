/* The PTX rewrite that records the GPU kernel's writes and reads
 * (gpu_ptx.h): a line-by-line pass over NVRTC's PTX that puts a mark
 * sequence before every st / ld of the kernel's code.
 *
 * UNDER THE HOOD
 * - What is an access: an instruction st.* or ld.* (ld.global.nc too),
 *   or an atomic, atom.* or red.* (marked as a read, then a write, of its
 *   words; shfl, vote and bar.red touch no memory and pass through),
 *   whose state space is .shared (or .shared::cta), .global or none (a
 *   generic address); .local, .param, .const and the rest are the
 *   compiler's own. Its one [address] operand is a register (32- or 64-bit,
 *   by the function's .reg declarations), a symbol or a number, with an
 *   optional +offset.
 * - What is not the kernel's: the text between "// begin inline asm" and
 *   "// end inline asm" (the prelude's poison, snapshot and record stores
 *   are inline asm, gpu_prelude.h), and a load by the name of one of the
 *   prelude's own shared variables (sv_cs, sv_nstep, sv_rt_mk). The
 *   prelude's other accesses (its state words, the run's header, the
 *   snapshot) fall outside the window, in[] and out[] and mark nothing, or
 *   mark words of its own variables, which no traced array holds.
 * - The mark: the address into a 64-bit scratch register; for shared, its
 *   word in the window (below w0 wraps past wwords: not marked); for
 *   global, its cell of out[] (stores) or in[] / out[] (loads); a generic
 *   address is tested with isspacep.shared and then taken as one or the
 *   other. The result is the byte of the current row to set; the store of
 *   that byte carries the access's own predicate (setp ... .and with the
 *   guard), so a predicated-off access marks nothing. A vector or 64-bit
 *   access marks every word it covers (PTX requires natural alignment).
 *   Marks go before the access: a load may overwrite its own address
 *   register.
 * - Scratch registers (%svd, %svr, %svh, %svp) are declared at the top of
 *   every function body; sv_rt_mk is declared at module scope (NVVM
 *   "demotes" a shared variable used by one function into it, and a
 *   kernel's helper function must see it too). */
#include "gpu_ptx.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"

typedef struct outbuf {
    char *s;
    size_t len, cap;
    bool oom;
} outbuf;

static void put(outbuf *o, const char *s, size_t n)
{
    if (o->oom)
        return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (o->len + n + 1 > cap)
            cap *= 2;
        char *p = realloc(o->s, cap);
        if (!p) {
            o->oom = true;
            return;
        }
        o->s = p;
        o->cap = cap;
    }
    memcpy(o->s + o->len, s, n);
    o->len += n;
    o->s[o->len] = '\0';
}

static void putf(outbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(outbuf *o, const char *fmt, ...)
{
    char b[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (k > 0)
        put(o, b, (size_t)k < sizeof b ? (size_t)k : sizeof b - 1);
}

/* The widths of one function's register names by prefix ("%rd" -> 64). */
#define MAX_REGKINDS 32
typedef struct regkinds {
    size_t n;
    char prefix[MAX_REGKINDS][16];
    int bits[MAX_REGKINDS];
} regkinds;

static int reg_bits(const regkinds *k, const char *name, size_t len)
{
    size_t pl = len;
    while (pl > 1 && isdigit((unsigned char)name[pl - 1]))
        pl--;
    for (size_t i = 0; i < k->n; i++)
        if (strlen(k->prefix[i]) == pl && !strncmp(k->prefix[i], name, pl))
            return k->bits[i];
    return 0;
}

/* A ".reg .b64 %rd<222>;" line into k. */
static void reg_decl(regkinds *k, const char *line)
{
    const char *p = strstr(line, ".reg");
    if (!p || k->n >= MAX_REGKINDS)
        return;
    p += 4;
    while (*p == ' ' || *p == '\t')
        p++;
    int bits = 0;
    if (!strncmp(p, ".b64", 4) || !strncmp(p, ".u64", 4) || !strncmp(p, ".s64", 4))
        bits = 64;
    else if (!strncmp(p, ".b32", 4) || !strncmp(p, ".u32", 4) || !strncmp(p, ".s32", 4))
        bits = 32;
    if (!bits)
        return;
    const char *r = strchr(p, '%');
    if (!r)
        return;
    size_t l = strcspn(r, "<;, \t");
    if (l == 0 || l >= sizeof k->prefix[0])
        return;
    /* "%rd<222>" declares %rd0.. (the prefix); "%SP" one register */
    memcpy(k->prefix[k->n], r, l);
    k->prefix[k->n][l] = '\0';
    k->bits[k->n++] = bits;
}

typedef enum space { SP_NONE, SP_SHARED, SP_GLOBAL, SP_GENERIC } space;

/* The access an instruction makes: its guard ("%p1", negated), its
 * space, whether it stores, its bytes and its address operand. */
typedef struct access {
    char guard[32];
    bool guard_not;
    space sp;
    bool store;
    bool atomic; /* atom.* / red.*: a read and a write of its words (store set) */
    unsigned bytes;
    const char *addr;
    size_t addr_len;
} access;

static unsigned type_bytes(const char *t, size_t l)
{
    static const struct { const char *name; unsigned bytes; } k[] = {
        {"u8", 1},   {"s8", 1},   {"b8", 1},   {"u16", 2},   {"s16", 2},    {"b16", 2},
        {"f16", 2},  {"bf16", 2}, {"u32", 4},  {"s32", 4},   {"b32", 4},    {"f32", 4},
        {"f16x2", 4}, {"bf16x2", 4}, {"u64", 8}, {"s64", 8},  {"b64", 8},    {"f64", 8},
        {"b128", 16}};
    for (size_t i = 0; i < sizeof k / sizeof *k; i++)
        if (strlen(k[i].name) == l && !strncmp(k[i].name, t, l))
            return k[i].bytes;
    return 0;
}

/* Whether line is a load or store of the kernel's (a filled access). */
static bool access_of(const char *line, access *a)
{
    memset(a, 0, sizeof *a);
    const char *p = line;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '@') {
        p++;
        if (*p == '!') {
            a->guard_not = true;
            p++;
        }
        size_t l = strcspn(p, " \t");
        if (l == 0 || l >= sizeof a->guard)
            return false;
        memcpy(a->guard, p, l);
        p += l;
        while (*p == ' ' || *p == '\t')
            p++;
    }
    if (!strncmp(p, "st.", 3))
        a->store = true;
    else if (!strncmp(p, "atom.", 5) || !strncmp(p, "red.", 4))
        a->store = a->atomic = true;
    else if (strncmp(p, "ld.", 3) != 0)
        return false;
    size_t ol = strcspn(p, " \t");
    a->sp = SP_GENERIC;
    unsigned vec = 1, tb = 0;
    for (const char *q = p + strcspn(p, "."); q < p + ol && *q == '.';) {
        const char *t = q + 1;
        size_t tl = 0;
        while (t + tl < p + ol && t[tl] != '.')
            tl++;
        /* "::" qualifiers (shared::cta, L2::cache_hint) hold no '.' */
#define IS(s) (tl == sizeof(s) - 1 && !strncmp(t, s, tl))
        if (IS("shared") || IS("shared::cta"))
            a->sp = SP_SHARED;
        else if (IS("global"))
            a->sp = SP_GLOBAL;
        else if (IS("local") || IS("param") || IS("const") || IS("shared::cluster") ||
                 IS("async") || IS("bulk") || (tl > 5 && !strncmp(t, "param", 5)))
            return false; /* the compiler's own, or not a plain access */
        else if (IS("v2"))
            vec = 2;
        else if (IS("v4"))
            vec = 4;
        else if (IS("v8"))
            vec = 8;
        else if (type_bytes(t, tl))
            tb = type_bytes(t, tl);
#undef IS
        q = t + tl;
    }
    if (!tb)
        return false;
    a->bytes = vec * tb;
    if (a->atomic && vec > 1)
        return false; /* (no vector atomics outside .global f16/bf16: none in a kernel file) */
    const char *lb = strchr(p + ol, '[');
    const char *rb = lb ? strchr(lb, ']') : NULL;
    if (!lb || !rb)
        return false;
    a->addr = lb + 1;
    a->addr_len = (size_t)(rb - lb - 1);
    return true;
}

/* One of the prelude's own shared variables, by its PTX name. */
static bool prelude_symbol(const char *s, size_t l)
{
    return (l == 5 && !strncmp(s, "sv_cs", 5)) || (l > 7 && !strncmp(s, "sv_cs_$", 7)) ||
           (l == 8 && !strncmp(s, "sv_nstep", 8)) || (l >= 6 && !strncmp(s, "sv_rt_", 6));
}

/* The address into %svd0; false when it cannot be read. *skip: it names
 * one of the prelude's variables or a __device__ one (nothing to mark). */
static bool address(outbuf *o, const access *a, const regkinds *rk, bool *skip)
{
    const char *s = a->addr, *e = a->addr + a->addr_len;
    while (s < e && isspace((unsigned char)*s))
        s++;
    while (e > s && isspace((unsigned char)e[-1]))
        e--;
    const char *plus = memchr(s, '+', (size_t)(e - s));
    const char *be = plus ? plus : e;
    while (be > s && isspace((unsigned char)be[-1]))
        be--;
    long long off = 0;
    if (plus) {
        char num[32];
        size_t nl = (size_t)(e - plus - 1);
        if (nl == 0 || nl >= sizeof num)
            return false;
        memcpy(num, plus + 1, nl);
        num[nl] = '\0';
        char *end;
        off = strtoll(num, &end, 0);
        while (*end && isspace((unsigned char)*end))
            end++;
        if (*end)
            return false;
    }
    size_t bl = (size_t)(be - s);
    *skip = false;
    if (bl == 0)
        return false;
    if (*s == '%') {
        int bits = reg_bits(rk, s, bl);
        if (bits == 64)
            putf(o, "\tmov.b64 %%svd0, %.*s;\n", (int)bl, s);
        else if (bits == 32)
            putf(o, "\tcvt.u64.u32 %%svd0, %.*s;\n", (int)bl, s);
        else
            return false;
    } else if (isdigit((unsigned char)*s) || *s == '-') {
        char num[32];
        if (bl >= sizeof num)
            return false;
        memcpy(num, s, bl);
        num[bl] = '\0';
        putf(o, "\tmov.u64 %%svd0, %lld;\n", strtoll(num, NULL, 0) + off);
        return true;
    } else {
        if (a->sp != SP_SHARED) {
            *skip = true; /* a __device__ variable: neither in[] nor out[] */
            return true;
        }
        if (prelude_symbol(s, bl)) {
            *skip = true;
            return true;
        }
        putf(o, "\tmov.u64 %%svd0, %.*s;\n", (int)bl, s);
    }
    if (off)
        putf(o, "\tadd.s64 %%svd0, %%svd0, %lld;\n", off);
    return true;
}

/* %svr0 = the window word of the shared address in %svd1 (low 32 bits),
 * %svr1 = wwords; pred = word < wwords (and `and` when given). */
static void window_word(outbuf *o, const char *pred, const char *and_pred)
{
    putf(o, "\tcvt.u32.u64 %%svr0, %%svd1;\n"
            "\tld.shared.u32 %%svr1, [sv_rt_mk+%d];\n"
            "\tsub.u32 %%svr0, %%svr0, %%svr1;\n"
            "\tshr.u32 %%svr0, %%svr0, 2;\n"
            "\tld.shared.u32 %%svr1, [sv_rt_mk+%d];\n",
         SV_MK_W0, SV_MK_WWORDS);
    if (and_pred)
        putf(o, "\tsetp.lt.and.u32 %s, %%svr0, %%svr1, %s;\n", pred, and_pred);
    else
        putf(o, "\tsetp.lt.u32 %s, %%svr0, %%svr1;\n", pred);
}

/* pred = the address in %svd0 is in the io array at field (and `and`);
 * %svr2 = its cell + wwords (needs %svr1 = wwords). */
static void io_cell(outbuf *o, int field, const char *pred, const char *and_pred)
{
    putf(o, "\tld.shared.u64 %%svd1, [sv_rt_mk+%d];\n"
            "\tsub.s64 %%svd1, %%svd0, %%svd1;\n"
            "\tld.shared.u32 %%svr2, [sv_rt_mk+%d];\n"
            "\tcvt.u64.u32 %%svd2, %%svr2;\n",
         field, SV_MK_IOBYTES);
    if (and_pred)
        putf(o, "\tsetp.lt.and.u64 %s, %%svd1, %%svd2, %s;\n", pred, and_pred);
    else
        putf(o, "\tsetp.lt.u64 %s, %%svd1, %%svd2;\n", pred);
    putf(o, "\tshr.u64 %%svd1, %%svd1, 2;\n"
            "\tcvt.u32.u64 %%svr2, %%svd1;\n"
            "\tadd.u32 %%svr2, %%svr2, %%svr1;\n");
}

static void count(const access *a, sv_gpu_ptx_counts *c)
{
    if (a->store)
        *(a->sp == SP_SHARED ? &c->st_shared : a->sp == SP_GLOBAL ? &c->st_global
                                                                   : &c->st_generic) += 1;
    else
        *(a->sp == SP_SHARED ? &c->ld_shared : a->sp == SP_GLOBAL ? &c->ld_global
                                                                   : &c->ld_generic) += 1;
}

/* The mark sequence for a; false when its address cannot be read. */
static void count_atomic(const access *a, sv_gpu_ptx_counts *c)
{
    *(a->sp == SP_SHARED ? &c->atom_shared : a->sp == SP_GLOBAL ? &c->atom_global
                                                                 : &c->atom_generic) += 1;
}

static bool mark(outbuf *o, const access *a, const regkinds *rk, sv_gpu_ptx_counts *c)
{
    outbuf m = {NULL, 0, 0, false};
    bool skip = false;
    if (!address(&m, a, rk, &skip)) {
        free(m.s);
        return false;
    }
    const char *kind = a->sp == SP_SHARED ? "shared" : a->sp == SP_GLOBAL ? "global" : "generic";
    if (skip) {
        free(m.s);
        putf(o, "\t// sv-mark %s.%s: none (not the kernel's memory)\n", a->store ? "st" : "ld",
             kind);
        c->skipped++;
        if (!a->atomic)
            count(a, c);
        return true;
    }
    putf(o, "\t// sv-mark %s.%s\n", a->store ? "st" : "ld", kind);
    put(o, m.s ? m.s : "", m.len);
    free(m.s);
    /* %svp0: marked; %svr0: the byte's index in the row's half (the
     * window word, or wwords + the out[] cell); %svp1: in[] (loads) */
    bool in_flag = false;
    if (a->sp == SP_SHARED) {
        putf(o, "\tmov.b64 %%svd1, %%svd0;\n");
        window_word(o, "%svp0", NULL);
    } else if (a->sp == SP_GLOBAL) {
        putf(o, "\tld.shared.u32 %%svr1, [sv_rt_mk+%d];\n", SV_MK_WWORDS);
        io_cell(o, SV_MK_OUTG, "%svp0", NULL);
        putf(o, "\tmov.b32 %%svr0, %%svr2;\n");
        if (!a->store) {
            io_cell(o, SV_MK_ING, "%svp1", NULL);
            in_flag = true;
        }
    } else {
        putf(o, "\tisspacep.shared %%svp2, %%svd0;\n"
                "\tcvta.to.shared.u64 %%svd1, %%svd0;\n");
        window_word(o, "%svp0", "%svp2");
        io_cell(o, SV_MK_OUT, "%svp1", "!%svp2");
        putf(o, "\tselp.b32 %%svr0, %%svr2, %%svr0, %%svp1;\n"
                "\tor.pred %%svp0, %%svp0, %%svp1;\n");
        if (!a->store) {
            io_cell(o, SV_MK_IN, "%svp1", "!%svp2");
            in_flag = true;
        }
    }
    /* the access's own guard on both marks */
    if (a->guard[0]) {
        putf(o, "\tselp.u32 %%svr2, 1, 0, %%svp0;\n"
                "\tsetp.ne.and.u32 %%svp0, %%svr2, 0, %s%s;\n",
             a->guard_not ? "!" : "", a->guard);
        if (in_flag)
            putf(o, "\tselp.u32 %%svr2, 1, 0, %%svp1;\n"
                    "\tsetp.ne.and.u32 %%svp1, %%svr2, 0, %s%s;\n",
                 a->guard_not ? "!" : "", a->guard);
    }
    /* the row: base + row offset (+ the read half for a load) */
    putf(o, "\tld.shared.u32 %%svr1, [sv_rt_mk+%d];\n", SV_MK_ROW);
    if (!a->store)
        putf(o, "\tld.shared.u32 %%svr2, [sv_rt_mk+%d];\n"
                "\tadd.u32 %%svr1, %%svr1, %%svr2;\n", SV_MK_READ);
    putf(o, "\tadd.u32 %%svr3, %%svr1, %%svr0;\n"
            "\tld.shared.u64 %%svd1, [sv_rt_mk+%d];\n"
            "\tcvt.u64.u32 %%svd2, %%svr3;\n"
            "\tadd.s64 %%svd2, %%svd1, %%svd2;\n"
            "\tmov.u16 %%svh0, 1;\n",
         SV_MK_BASE);
    unsigned words = a->bytes >= 4 ? a->bytes / 4 : 1;
    for (unsigned w = 0; w < words; w++)
        putf(o, "\t@%%svp0 st.u8 [%%svd2+%u], %%svh0;\n", w);
    if (in_flag) {
        putf(o, "\tld.shared.u32 %%svr3, [sv_rt_mk+%d];\n"
                "\tld.shared.u32 %%svr2, [sv_rt_mk+%d];\n"
                "\tsub.u32 %%svr1, %%svr1, %%svr2;\n" /* back to the row's start */
                "\tadd.u32 %%svr3, %%svr3, %%svr1;\n"
                "\tcvt.u64.u32 %%svd2, %%svr3;\n"
                "\tadd.s64 %%svd2, %%svd1, %%svd2;\n"
                "\t@%%svp1 st.u8 [%%svd2], %%svh0;\n",
             SV_MK_INREAD, SV_MK_READ);
    }
    c->marks++;
    if (!a->atomic)
        count(a, c);
    return true;
}

/* Whether t (a trimmed line) declares sv_rt_mk, at module scope or demoted
 * into a body: ".shared .align 8 .b8 sv_rt_mk[64];". */
static bool mk_decl(const char *t)
{
    const char *p = strstr(t, "sv_rt_mk");
    return !strncmp(t, ".shared", 7) && p && (p[8] == '[' || p[8] == ';');
}

char *sv_gpu_ptx_mark(const char *ptx, sv_gpu_ptx_counts *counts, char *err, size_t errlen)
{
    sv_gpu_ptx_counts c;
    memset(&c, 0, sizeof c);
    outbuf o = {NULL, 0, 0, false};
    regkinds rk;
    memset(&rk, 0, sizeof rk);
    bool in_asm = false, addr64 = false;
    bool header = false; /* a function's header seen, its body not yet */
    bool in_fn = false;  /* the outermost block is a function's body (not a .section's) */
    int depth = 0;
    const char *p = ptx;
    char line[4096];
    while (*p) {
        size_t l = strcspn(p, "\n");
        if (l >= sizeof line) {
            sv_errorf(err, errlen, "PTX line of %zu bytes", l);
            free(o.s);
            return NULL;
        }
        memcpy(line, p, l);
        line[l] = '\0';
        p += l + (p[l] == '\n');
        const char *t = line;
        while (*t == ' ' || *t == '\t')
            t++;
        if (!strncmp(t, ".address_size", 13)) {
            addr64 = strstr(t, "64") != NULL;
            put(&o, line, l);
            put(&o, "\n", 1);
            /* module scope, before any function that could use it */
            putf(&o, ".shared .align 8 .b8 sv_rt_mk[%d];\n", SV_MK_BYTES);
            continue;
        }
        if (mk_decl(t))
            continue; /* declared above */
        if (!strncmp(t, "// begin inline asm", 19))
            in_asm = true;
        else if (!strncmp(t, "// end inline asm", 17))
            in_asm = false;
        if (depth == 0 && (strstr(t, ".entry ") || strstr(t, ".func ") || strstr(t, ".func\t")))
            header = true;
        if (t[0] == '{' && (t[1] == '\0' || isspace((unsigned char)t[1]))) {
            if (depth == 0 && header) {
                header = false;
                in_fn = true;
                memset(&rk, 0, sizeof rk);
                put(&o, line, l);
                put(&o, "\n", 1);
                c.functions++;
                static const char regs[] = "\t.reg .pred %svp<3>;\n\t.reg .b16 %svh<1>;\n"
                                           "\t.reg .b32 %svr<4>;\n\t.reg .b64 %svd<3>;\n";
                put(&o, regs, sizeof regs - 1);
                depth++;
                continue;
            }
            depth++;
        } else if (t[0] == '}') {
            if (--depth == 0)
                in_fn = false;
        } else if (depth == 0 && header && strchr(t, ';')) {
            header = false; /* a declaration ("... name(...);"), no body */
        }
        if (in_fn && !strncmp(t, ".reg", 4))
            reg_decl(&rk, t);
        access a;
        if (in_fn && !in_asm && access_of(t, &a)) {
            /* an atomic: marked as a read of its words, then as a write */
            access rd = a;
            rd.store = false;
            if (a.atomic)
                count_atomic(&a, &c);
            if ((a.atomic && !mark(&o, &rd, &rk, &c)) || !mark(&o, &a, &rk, &c)) {
                sv_errorf(err, errlen, "PTX: cannot read the address of `%.200s`", t);
                free(o.s);
                return NULL;
            }
        }
        put(&o, line, l);
        put(&o, "\n", 1);
    }
    if (!o.oom && (!addr64 || c.functions == 0)) {
        sv_errorf(err, errlen, "PTX: %s", !addr64 ? "not .address_size 64" : "no function body");
        free(o.s);
        return NULL;
    }
    if (o.oom) {
        sv_errorf(err, errlen, "out of memory rewriting the PTX");
        free(o.s);
        return NULL;
    }
    if (counts)
        *counts = c;
    return o.s;
}
