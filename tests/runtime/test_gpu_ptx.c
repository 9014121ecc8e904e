/* The GPU runtime's text and its PTX rewrite (src/runtime/gpu_run.c,
 * gpu_ptx.c), where there is NVRTC but no GPU: the shipped kernels (the
 * chapter's, the mistakes, Blelloch, from their embedded text as a GPU run
 * compiles them) for every operator, both types and both scans, and a
 * kernel with __noinline__ helpers taking pointers and a 2-D static
 * __shared__ array, go through sv_rt_gpu_text and NVRTC; the rewrite must
 * put a mark before every store and load of the kernel's code it should
 * (counted here independently of it, by state space), leave every line of
 * NVRTC's text in place, use no fused multiply-add, and give PTX that
 * ptxas -arch=sm_90 accepts (when ptxas is found).
 * Usage: test_gpu_ptx STEM...  (the shipped kernels' stems). Exits 77 when
 * libnvrtc cannot be loaded. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/core/spawn.h"
#include "../../src/runtime/gpu_ptx.h"
#include "../../src/runtime/gpu_run.h"
#include "../../src/runtime/shipped.h"
#include "../../src/runtime/source_scan.h"
#include "../expect.h"

static const char kHelper[] =
    "/* helpers that take pointers (kept functions of their own: generic\n"
    " * stores and loads in a .func) and a 2-D static __shared__ array */\n"
    "__device__ __noinline__ void put(int *p, int v) { *p = v; }\n"
    "__device__ __noinline__ int get(const int *p) { return *p; }\n"
    "__global__ void helper2d(const int *in, int *out, int n)\n"
    "{\n"
    "    __shared__ int t[2][1024];\n"
    "    int i = threadIdx.x, p = 0;\n"
    "    put(&t[0][i], in[i]);\n"
    "    __syncthreads();\n"
    "    for (int s = 1; s < n; s *= 2) {\n"
    "        int v = t[p][i];\n"
    "        if (i >= s)\n"
    "            v = Op::apply(get(&t[p][i - s]), v);\n"
    "        put(&t[1 - p][i], v);\n"
    "        p = 1 - p;\n"
    "        __syncthreads();\n"
    "    }\n"
    "    put(&out[i], t[p][i]);\n"
    "}\n";

/* printf in a kernel (issue 30): the prelude's macro puts the record's
 * head and end around the literal format, in the same device printf; and a
 * __constant__ table (its own static const blanked by the scan). */
static const char kPrint[] =
    "static __constant__ const float w[2] = {1.0f, 2.0f};\n"
    "__global__ void printing(const float *in, float *out, int n)\n"
    "{\n"
    "    int i = threadIdx.x;\n"
    "    if (i < 2) printf(\"thread %d: %5.2f\\n\", i, in[i] * w[i & 1]);\n"
    "    __syncthreads();\n"
    "    printf(\"done\\n\");\n"
    "    out[i] = in[i];\n"
    "}\n";

static const char kWarp[] =
    "/* warp-level CUDA (issue 30): shuffles, votes, __syncwarp, the counting\n"
    " * barriers, atomics on shared and global memory, bit intrinsics */\n"
    "__global__ void warpy(const int *in, int *out, int n)\n"
    "{\n"
    "    __shared__ int tot[32];\n"
    "    __shared__ unsigned bins[8];\n"
    "    int i = threadIdx.x, lane = i % 32;\n"
    "    if (i < 8) bins[i] = 0;\n"
    "    int v = __ldg(&in[i]);\n"
    "    for (int d = 1; d < 32; d *= 2) {\n"
    "        int up = __shfl_up_sync(0xffffffffu, v, d);\n"
    "        if (lane >= d) v += up;\n"
    "    }\n"
    "    v += __shfl_xor_sync(0xffffffffu, v, 1, 16) + __shfl_down_sync(0xffffffffu, v, 2);\n"
    "    v += __shfl_sync(0xffffffffu, v, 0);\n"
    "    unsigned b = __ballot_sync(0xffffffffu, v > 0);\n"
    "    v += __popc(b) + __clz(v) + __ffs(v) + (int)__brev((unsigned)v) + __popcll(b) + __activemask();\n"
    "    if (__any_sync(0xffffffffu, v > 3) && __all_sync(0xffffffffu, v < 9)) v++;\n"
    "    tot[lane] = v;\n"
    "    __syncwarp();\n"
    "    v += tot[31 - lane];\n"
    "    __syncwarp(0xffffffffu);\n"
    "    int c = __syncthreads_count(v > 0) + __syncthreads_and(v > 1) + __syncthreads_or(v > 2);\n"
    "    atomicAdd(&bins[v & 7], 1u);\n"
    "    atomicMax((int *)&tot[0], v);\n"
    "    int old = atomicCAS(&tot[1], 0, v) + atomicExch(&tot[2], v) + atomicOr(&tot[3], v);\n"
    "    atomicInc(&bins[0], 9u);\n"
    "    __threadfence_block();\n"
    "    __syncthreads();\n"
    "    atomicAdd(&out[0], c + old);\n"
    "    __threadfence();\n"
    "    assert(i < n);\n"
    "    if (i > 0) out[i] = std::min(v, (int)bins[i % 8]) + std::max(tot[0], 0);\n"
    "}\n";

/* The accesses of the kernel's code in ptx, counted here by their own
 * reading: st. / ld. lines inside function bodies, outside inline asm, by
 * state space (none: generic); .local, .param, .const not counted. */
typedef struct tally {
    unsigned st[3], ld[3], atom[3]; /* shared, generic, global */
} tally;

static void count_accesses(const char *ptx, tally *t)
{
    memset(t, 0, sizeof *t);
    bool in_asm = false;
    int depth = 0;
    for (const char *p = ptx; *p;) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char line[4096];
        snprintf(line, sizeof line, "%.*s", (int)(l < sizeof line ? l : sizeof line - 1), p);
        p += l + (e != NULL);
        char *s = line + strspn(line, " \t");
        if (!strncmp(s, "// begin inline asm", 19))
            in_asm = true;
        if (!strncmp(s, "// end inline asm", 17))
            in_asm = false;
        if (s[0] == '{')
            depth++;
        if (s[0] == '}')
            depth--;
        if (depth == 0 || in_asm)
            continue;
        if (s[0] == '@')
            s += strcspn(s, " \t"), s += strspn(s, " \t");
        bool st = !strncmp(s, "st.", 3), ld = !strncmp(s, "ld.", 3);
        bool atom = !strncmp(s, "atom.", 5) || !strncmp(s, "red.", 4);
        if (!st && !ld && !atom)
            continue;
        char op[128];
        snprintf(op, sizeof op, "%.*s.", (int)strcspn(s, " \t"), s);
        if (strstr(op, ".local.") || strstr(op, ".param") || strstr(op, ".const."))
            continue;
        int k = strstr(op, ".shared.") || strstr(op, ".shared::cta.") ? 0
                : strstr(op, ".global.")                              ? 2
                                                                      : 1;
        (atom ? t->atom : st ? t->st : t->ld)[k]++;
    }
}

/* Lines of text containing needle. */
static unsigned lines_with(const char *text, const char *needle)
{
    unsigned n = 0;
    for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Whether out is ptx with only the rewrite's lines added (and sv_rt_mk's
 * declaration moved): every line of NVRTC's text kept, in order. */
static bool kept_in_order(const char *ptx, const char *out)
{
    const char *a = ptx, *b = out;
    for (;;) {
        size_t la = strcspn(a, "\n");
        /* NVRTC's own declaration of sv_rt_mk (module or demoted): moved */
        while (*a && strstr(a, "sv_rt_mk[") && strstr(a, "sv_rt_mk[") < a + la &&
               strstr(a, ".shared") < a + la) {
            a += la + (a[la] == '\n');
            la = strcspn(a, "\n");
        }
        if (!*a)
            return true;
        for (;;) {
            if (!*b)
                return false;
            size_t lb = strcspn(b, "\n");
            bool same = la == lb && !strncmp(a, b, la);
            b += lb + (b[lb] == '\n');
            if (same)
                break;
        }
        a += la + (a[la] == '\n');
    }
}

static char ptxas[600];
static unsigned ptxas_runs;

/* ptxas -arch=sm_90 on ptx: true when it accepts it. */
static bool ptxas_ok(const char *ptx, const char *what)
{
    char file[] = "/tmp/sv-test-ptx-XXXXXX";
    int fd = mkstemp(file);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f || fputs(ptx, f) < 0 || fclose(f) != 0) {
        CHECK_MSG(0, "%s: cannot write %s", what, file);
        unlink(file);
        return false;
    }
    char *argv[] = {ptxas, "-arch=sm_90", file, "-o", "/dev/null", NULL};
    size_t len = 0;
    int status = 0;
    bool timed_out = false;
    char why[256];
    char *text = sv_spawn_output(argv, 1 << 16, 120000, &len, &status, &timed_out, why,
                                 sizeof why);
    if (!getenv("SV_TEST_KEEP_PTX"))
        unlink(file);
    bool ok = text && !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    CHECK_MSG(ok, "%s: ptxas refused the rewritten PTX: %s", what, text ? text : why);
    free(text);
    ptxas_runs++;
    return ok;
}

/* One kernel through the whole path; validate: also run ptxas. */
static void check_one(const char *src, const char *path, sv_op op, sv_type type, sv_scan scan,
                      bool validate)
{
    char what[256], msg[2048], err[1024];
    snprintf(what, sizeof what, "%s %s %s %s", path, sv_op_name(op), sv_type_name(type),
             scan == SV_SCAN_EXCLUSIVE ? "exclusive" : "inclusive");
    sv_source_scan *sc = calloc(1, sizeof *sc);
    sv_kfail_kind kind;
    int line = 0;
    if (!sc || !sv_source_scan_text(src, path, sc, &kind, &line, msg, sizeof msg) ||
        !sv_source_check_entry(sc, NULL, type, &line, msg, sizeof msg)) {
        CHECK_MSG(0, "%s: the scan refused it: %s", what, msg);
        free(sc);
        return;
    }
    char *text = sv_rt_gpu_text(sc, src, path, type, op, scan);
    CHECK_MSG(text, "%s: no text", what);
    char def[96];
    snprintf(def, sizeof def, "#define SV_SCAN_OP %d\n#define SV_SCAN_EXCLUSIVE %d\n", (int)op,
             scan == SV_SCAN_EXCLUSIVE);
    CHECK_MSG(text && strstr(text, def) && strstr(text, "struct Op {"),
              "%s: the text defines the scan and has scan_ops.h", what);
    const sv_scan_kernel *k = &sc->kernels[sc->entry];
    if (text && k->tparam[0]) {
        char inst[128];
        snprintf(inst, sizeof inst, "%s<%s>(in, out, n);", k->name, sv_source_ctype(type));
        CHECK_MSG(strstr(text, inst), "%s: the launcher calls %s", what, inst);
    }
    char *ptx = NULL, *log = NULL;
    bool ran = text && sv_rt_gpu_nvrtc(text, path, 90, &ptx, &log, err, sizeof err);
    CHECK_MSG(ran, "%s: NVRTC: %s", what, err);
    CHECK_MSG(!log, "%s: NVRTC refused it:\n%s", what, log ? log : "");
    if (ptx) {
        tally t;
        count_accesses(ptx, &t);
        sv_gpu_ptx_counts c;
        char *out = sv_gpu_ptx_mark(ptx, &c, err, sizeof err);
        CHECK_MSG(out, "%s: the rewrite failed: %s", what, err);
        if (out) {
            CHECK_MSG(c.st_shared == t.st[0] && c.st_generic == t.st[1] &&
                          c.st_global == t.st[2] && c.ld_shared == t.ld[0] &&
                          c.ld_generic == t.ld[1] && c.ld_global == t.ld[2],
                      "%s: the rewrite saw stores %u %u %u loads %u %u %u (shared, generic, "
                      "global), the PTX has %u %u %u and %u %u %u", what, c.st_shared,
                      c.st_generic, c.st_global, c.ld_shared, c.ld_generic, c.ld_global,
                      t.st[0], t.st[1], t.st[2], t.ld[0], t.ld[1], t.ld[2]);
            CHECK_MSG(c.atom_shared == t.atom[0] && c.atom_generic == t.atom[1] &&
                          c.atom_global == t.atom[2],
                      "%s: the rewrite saw atomics %u %u %u, the PTX has %u %u %u", what,
                      c.atom_shared, c.atom_generic, c.atom_global, t.atom[0], t.atom[1],
                      t.atom[2]);
            /* an atomic: two marks, a read's and a write's */
            unsigned all = t.st[0] + t.st[1] + t.st[2] + t.ld[0] + t.ld[1] + t.ld[2] +
                           2 * (t.atom[0] + t.atom[1] + t.atom[2]);
            CHECK_MSG(c.marks + c.skipped == all && lines_with(out, "// sv-mark ") == all &&
                          lines_with(out, ": none (not the kernel's memory)") == c.skipped,
                      "%s: %u accesses, %u marked, %u skipped, %u mark comments", what, all,
                      c.marks, c.skipped, lines_with(out, "// sv-mark "));
            /* every mark sequence ends in its byte stores: a word a store covers, one
             * byte for the read marks (and one for in[]) */
            CHECK_MSG(lines_with(out, "@%svp0 st.u8 [%svd2") >= c.marks,
                      "%s: %u marks, %u mark stores", what, c.marks,
                      lines_with(out, "@%svp0 st.u8 [%svd2"));
            /* the kernel's own stores are all marked: the shared rows and out[] */
            CHECK_MSG(t.st[0] + t.st[1] > 0 && t.st[1] + t.st[2] > 0,
                      "%s: stores to shared and to out[] seen", what);
            CHECK_MSG(kept_in_order(ptx, out), "%s: the rewrite lost or moved a line of "
                      "NVRTC's", what);
            CHECK_MSG(lines_with(out, ".shared .align 8 .b8 sv_rt_mk[") == 1,
                      "%s: sv_rt_mk declared once", what);
            CHECK_MSG(c.functions >= 1, "%s: no function body", what);
            if (type == SV_TYPE_FLOAT32)
                CHECK_MSG(!strstr(out, "fma.rn.f32"), "%s: a fused multiply-add (--fmad=false "
                          "keeps the CPU runtime's rounding)", what);
            if (!strcmp(path, "warpy.cu")) {
                CHECK_MSG(t.atom[0] > 0 && t.atom[1] + t.atom[2] > 0,
                          "%s: atomics on shared (%u) and global (%u) seen", what, t.atom[0],
                          t.atom[1] + t.atom[2]);
                static const char *const through[] = {"shfl.sync", "vote.sync", "bar.red"};
                for (size_t k = 0; k < 3; k++)
                    CHECK_MSG(lines_with(ptx, through[k]) > 0 &&
                                  lines_with(out, through[k]) == lines_with(ptx, through[k]),
                              "%s: %s in NVRTC's PTX %u times, after the rewrite %u", what,
                              through[k], lines_with(ptx, through[k]),
                              lines_with(out, through[k]));
            }
            if (validate && ptxas[0])
                ptxas_ok(out, what);
            free(out);
        }
    }
    free(ptx);
    free(log);
    free(text);
    free(sc);
}

/* A file with a host function (issue 31): its kernels with the tile
 * timestamps stamped in compile through NVRTC as the GPU's replay compiles
 * them, the stamps keep every line where it was, and each __global__ body
 * opens with the guard. */
static void check_stamped(const char *path)
{
    char err[1024], msg[1024];
    FILE *f = fopen(path, "rb");
    static char src[1 << 18];
    size_t len = f ? fread(src, 1, sizeof src - 1, f) : 0;
    if (f)
        fclose(f);
    src[len] = '\0';
    CHECK_MSG(len > 0, "%s: cannot read it", path);
    sv_source_scan *sc = calloc(1, sizeof *sc);
    sv_kfail_kind kind;
    int line = 0;
    if (!sc || !sv_source_scan_text(src, path, sc, &kind, &line, msg, sizeof msg) ||
        !sc->has_host) {
        CHECK_MSG(0, "%s: no host function scan (%s)", path, sc ? msg : "out of memory");
        free(sc);
        return;
    }
    char *text = sv_source_gpu_stamped(sc, src);
    size_t lines_in = 0, lines_out = 0, guards = 0;
    for (const char *c = src; *c; c++)
        lines_in += *c == '\n';
    for (const char *c = text; c && *c; c++)
        lines_out += *c == '\n';
    for (const char *c = text; c && (c = strstr(c, "sv_tile_guard sv_tile_guard_;")); c++)
        guards++;
    CHECK_MSG(text && lines_in == lines_out && guards == sc->nkernels && sc->nstamps > 0,
              "%s: %zu lines stamped from %zu, %zu guards for %zu kernels, %zu stamps", path,
              lines_out, lines_in, guards, sc->nkernels, sc->nstamps);
    free(text);
    char *log = NULL;
    bool ok = sv_rt_gpu_plan_stamped(sc, src, path, SV_OP_SUM, SV_SCAN_INCLUSIVE, SV_TYPE_INT32,
                                     90, &log, err, sizeof err);
    CHECK_MSG(ok && !log, "%s: the stamped kernels: %s%s", path, ok ? "" : err, log ? log : "");
    free(log);
    free(sc);
}

/* What the stamps take and leave (a file of one host function and one
 * kernel of each kind of statement). */
static void check_stamp_rules(void)
{
    static const char src[] =
        "__global__ void k(const int *in, int *out, int *flags, unsigned *next, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                 /* 3: a declaration */
        "    if (i < n)\n"
        "        out[i] = in[i];\n"                                           /* 5: braced */
        "    int old = atomicAdd(next, 1u);\n"                                /* 6: no braces */
        "    for (int d = 1; d < 4; d *= 2) flags[d] += 1;\n"                 /* 7 */
        "    flags[i++] = 3;\n"                                               /* 8: impure */
        "    *flags = old; flags[0] <<= 1; if (flags[1] <= 2) { }\n"          /* 9 */
        "    while ((old = flags[2]) == 0) { }\n"                             /* 10 */
        "    ((volatile int *)flags)[i] = 1; *(volatile int *)flags = 2;\n"    /* 11: casts */
        "    ((int)old) = 3; (flags)[1] = 4;\n"                               /* 12: not */
        "    old = atomicAdd(next, 2u); old += 1;\n"          /* 13: a name: only the atomic */
        "}\n"
        "void scan(const int *in, int *out, int n)\n"
        "{\n"
        "    int *f; unsigned *x;\n"
        "    cudaMalloc(&f, 64); cudaMalloc(&x, 4);\n"
        "    k<<<1, 32>>>(in, out, f, x, n);\n"
        "}\n";
    sv_source_scan *sc = calloc(1, sizeof *sc);
    sv_kfail_kind kind;
    int line = 0;
    char msg[512];
    CHECK_MSG(sc && sv_source_scan_text(src, "rules.cu", sc, &kind, &line, msg, sizeof msg),
              "rules.cu: %s", msg);
    char *t = sc ? sv_source_gpu_stamped(sc, src) : NULL;
    static const char *const want[] = {
        "{ sv_tile_guard sv_tile_guard_;\n",
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n",
        "        { out[i] = in[i]; sv_stamp(5, &(out[i])); }\n",
        "    int old = atomicAdd(next, 1u); sv_stamp(6, (next));\n",
        "    for (int d = 1; d < 4; d *= 2) { flags[d] += 1; sv_stamp(7, &(flags[d])); }\n",
        "    flags[i++] = 3;\n",
        "    { *flags = old; sv_stamp(9, &(*flags)); } { flags[0] <<= 1; sv_stamp(9, "
        "&(flags[0])); } if (flags[1] <= 2) { }\n",
        "    while ((old = flags[2]) == 0) { }\n",
        "    { ((volatile int *)flags)[i] = 1; sv_stamp(11, &(((volatile int *)flags)[i])); } "
        "{ *(volatile int *)flags = 2; sv_stamp(11, &(*(volatile int *)flags)); }\n",
        "    ((int)old) = 3; (flags)[1] = 4;\n",
        "    { old = atomicAdd(next, 2u); sv_stamp(13, (next)); } old += 1;\n",
    };
    for (size_t w = 0; w < sizeof want / sizeof *want; w++)
        CHECK_MSG(t && strstr(t, want[w]), "rules.cu: the stamped text lacks \"%s\":\n%s",
                  want[w], t ? t : "");
    CHECK_MSG(t && !strstr(t, "cudaMalloc"), "rules.cu: the host function's body is left out");
    free(t);
    free(sc);
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
                                        "/usr/local/cuda/lib64/libnvrtc.so.13",
                                        "/usr/local/cuda/lib64/libnvrtc.so.12"};
    void *h = NULL;
    for (size_t i = 0; i < sizeof names / sizeof *names && !h; i++)
        h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("skip: libnvrtc cannot be loaded\n");
        return 77;
    }
    static const char *const fixed[] = {"/usr/local/cuda/bin/ptxas", NULL};
    if (!sv_spawn_find("ptxas", fixed, ptxas, sizeof ptxas)) {
        ptxas[0] = '\0';
        printf("ptxas not found: the rewritten PTX is not validated\n");
    }
    check_stamp_rules();
    unsigned cases = 0, stamped = 0;
    for (int a = 1; a < argc; a++) {
        const size_t al = strlen(argv[a]);
        if (al > 3 && strcmp(argv[a] + al - 3, ".cu") == 0) {
            check_stamped(argv[a]);
            stamped++;
            continue;
        }
        const sv_rt_shipped *k = sv_rt_shipped_find(argv[a]);
        CHECK_MSG(k, "%s: not a shipped kernel", argv[a]);
        if (!k)
            continue;
        for (int op = 0; op < SV_OP_COUNT; op++)
            for (int ty = 0; ty < 2; ty++)
                for (int sc = 0; sc < 2; sc++) {
                    sv_type type = ty ? SV_TYPE_FLOAT32 : SV_TYPE_INT32;
                    if (op == SV_OP_XOR && type == SV_TYPE_FLOAT32)
                        continue; /* refused before any run */
                    /* ptxas on two of each kernel's texts (it takes a while) */
                    bool validate = (op == SV_OP_SUM && ty == 0 && sc == 0) ||
                                    (op == SV_OP_MAX && ty == 1 && sc == 1);
                    check_one(k->source, argv[a], (sv_op)op, type,
                              sc ? SV_SCAN_EXCLUSIVE : SV_SCAN_INCLUSIVE, validate);
                    cases++;
                }
    }
    check_one(kHelper, "helper2d.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, true);
    check_one(kHelper, "helper2d.cu", SV_OP_PRODUCT, SV_TYPE_INT32, SV_SCAN_EXCLUSIVE, false);
    check_one(kPrint, "printing.cu", SV_OP_SUM, SV_TYPE_FLOAT32, SV_SCAN_INCLUSIVE, true);
    /* warp-level CUDA: atomics marked (shared and global), shuffles, votes and
     * bar.red through untouched, ptxas accepting the result */
    check_one(kWarp, "warpy.cu", SV_OP_SUM, SV_TYPE_INT32, SV_SCAN_INCLUSIVE, true);
    printf("%u shipped-kernel texts and the helper kernel rewritten; ptxas ran on %u; %u files "
           "of many blocks stamped\n", cases, ptxas_runs, stamped);
    return check_report("the GPU text and its PTX rewrite: all checks passed");
}
