/* The walls of a kernel's run alone (issue 27, layers 3, 4 and 6): hostile
 * kernels compiled without the source scan's refusals and the object's
 * check (sv_rt_cpu_compile_unchecked) and run behind the child's walls
 * (sv_rt_run_object), each a correct scan whose thread 0 first tries one
 * thing a kernel may not do. Each must end in the failure that names it,
 * with nothing outside the run changed: no marker file, no signal to this
 * process, no secret in any message; a stream the kernel writes on the
 * trace's pipe is not taken for the runtime's; its output floods are cut;
 * the compiler cannot read a file outside its folders and stops at its
 * limits.
 *   test_sandbox */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../expect.h"

#include "core/ktrace.h"
#include "backend.h"
#include "cpu_compile.h"
#include "need_cpu.h"
#include "sandbox.h"
#include "source_scan.h"

static char tmp[512];
static volatile sig_atomic_t signalled;

static void on_term(int sig)
{
    (void)sig;
    signalled = 1;
}

/* The libc calls the payloads make, declared by hand (a kernel file has no
 * headers). */
static const char *const decls =
    "extern \"C\" int open(const char *, int, ...);\n"
    "extern \"C\" long write(int, const void *, unsigned long);\n"
    "extern \"C\" long read(int, void *, unsigned long);\n"
    "extern \"C\" int socket(int, int, int);\n"
    "extern \"C\" int fork();\n"
    "extern \"C\" int kill(int, int);\n"
    "extern \"C\" int getpid();\n"
    "extern \"C\" int getppid();\n"
    "extern \"C\" void *signal(int, void *);\n"
    "extern \"C\" int execve(const char *, char *const *, char *const *);\n"
    "extern \"C\" void *mmap(void *, unsigned long, int, int, int, long);\n";

/* The chapter's scan with PAYLOAD first in thread 0 (at line 4 after the
 * declarations' 11 lines: PAYLOAD_LINE). */
#define PAYLOAD_LINE 15
static char *kernel_with(const char *payload)
{
    const char *fmt =
        "%s"
        "__global__ void scan(const int *in, int *out, int n)\n"
        "{\n"
        "    if (threadIdx.x == 0) {\n"
        "        %s\n"
        "    }\n"
        "    extern __shared__ int buf[];\n"
        "    int i = threadIdx.x, pout = 0, pin = 1;\n"
        "    buf[i] = in[i];\n"
        "    __syncthreads();\n"
        "    for (int stride = 1; stride < n; stride *= 2) {\n"
        "        pout = 1 - pout;\n"
        "        pin = 1 - pout;\n"
        "        buf[pout * n + i] = i >= stride ? buf[pin * n + i - stride] + buf[pin * n + i]\n"
        "                                        : buf[pin * n + i];\n"
        "        __syncthreads();\n"
        "    }\n"
        "    out[i] = buf[pout * n + i];\n"
        "}\n";
    size_t len = strlen(fmt) + strlen(decls) + strlen(payload) + 1;
    char *s = malloc(len);
    CHECK(s != NULL);
    snprintf(s, len, fmt, decls, payload);
    return s;
}

static const sv_value chapter[8] = {{.bits = 3}, {.bits = 1}, {.bits = 7}, {.bits = 0},
                                    {.bits = 4}, {.bits = 1}, {.bits = 6}, {.bits = 3}};

/* Compiles src unchecked (the CPU text of the source scan when cpu_text is
 * NULL) and runs it behind the walls; the trace (NULL: the test failed). */
static sv_ktrace *run_text(const char *name, const char *src, const char *cpu_text,
                           uint32_t limit_ms)
{
    char err[2048] = "", msg[2048] = "";
    sv_source_scan *scan = calloc(1, sizeof *scan);
    sv_kfail_kind kind;
    int line;
    char *text = NULL;
    const char *dyn = NULL;
    if (!cpu_text) {
        bool ok = sv_source_scan_text(src, name, scan, &kind, &line, msg, sizeof msg) &&
                  sv_source_check_entry(scan, NULL, SV_TYPE_INT32, &line, msg, sizeof msg);
        CHECK_MSG(ok, "%s: %s", name, msg);
        if (!ok) {
            free(scan);
            return NULL;
        }
        text = sv_source_cpu_text(scan, src, name, SV_TYPE_INT32);
        for (size_t i = 0; i < scan->nshared; i++)
            if (scan->shared[i].is_extern)
                dyn = scan->shared[i].name;
    }
    sv_rt_built b;
    char *messages = NULL;
    bool built = sv_rt_cpu_compile_unchecked(cpu_text ? cpu_text : text, name, &b, &kind, &line,
                                             &messages, err, sizeof err);
    CHECK_MSG(built, "%s: %s %s", name, err, messages ? messages : "");
    free(messages);
    free(text);
    sv_ktrace *t = NULL;
    if (built) {
        sv_runtime_request req = {
            .path = name, .source = src, .op = SV_OP_SUM, .type = SV_TYPE_INT32,
            .scan = SV_SCAN_INCLUSIVE, .input = chapter, .n = 8, .backend = SV_RUNTIME_CPU,
            .schedule = {SV_SCHEDULE_LOCKSTEP, 0}, .runs = 1, .time_limit_ms = limit_ms,
        };
        t = sv_rt_run_object(&req, b.so, b.so_len, b.lines, "scan", dyn ? dyn : NULL, err,
                             sizeof err);
        CHECK_MSG(t != NULL, "%s: %s", name, err);
    }
    sv_rt_built_free(&b);
    free(scan);
    return t;
}

static bool exists(const char *name)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    struct stat st;
    return stat(p, &st) == 0;
}

/* A payload that a system call ends: failure syscall naming call, in
 * thread 0 at the payload's line, the marker absent. */
static void refused_call(const char *name, const char *payload, const char *call,
                         const char *marker)
{
    char *src = kernel_with(payload);
    sv_ktrace *t = run_text(name, src, NULL, 2000);
    if (t) {
        char want[96];
        snprintf(want, sizeof want, "(`%s`)", call);
        CHECK_MSG(t->failure.kind == SV_KFAIL_SYSCALL, "%s: failure %s: %s", name,
                  sv_kfail_kind_name(t->failure.kind), t->failure.message ? t->failure.message : "");
        CHECK_CONTAINS(t->failure.message ? t->failure.message : "", want);
        CHECK_CONTAINS(t->failure.message ? t->failure.message : "", "that a kernel cannot make");
        /* (at -O1 a call the compiler moves onto its branch may carry the
         * line of the `if` that guards it) */
        CHECK_MSG(t->failure.thread == 0 && (t->failure.line == PAYLOAD_LINE ||
                                             t->failure.line == PAYLOAD_LINE - 1),
                  "%s: thread %d line %d", name, (int)t->failure.thread, (int)t->failure.line);
    }
    if (marker)
        CHECK_MSG(!exists(marker), "%s: %s was made", name, marker);
    sv_ktrace_destroy(t);
    free(src);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
    need_cpu_runtime(77);
    check_tmpdir(tmp, sizeof tmp, "sandbox");
    signal(SIGTERM, on_term);
    char secret[600], payload[2048];
    snprintf(secret, sizeof secret, "%s/secret.txt", tmp);
    FILE *f = fopen(secret, "w");
    CHECK(f != NULL);
    fputs("lecturer-secret-0451\n", f);
    fclose(f);

    /* files, network, processes, signals, exec, executable memory */
    snprintf(payload, sizeof payload, "open(\"%s/m-open\", 65, 0644);", tmp);
    refused_call("open.cu", payload, "openat", "m-open");
    refused_call("socket.cu", "socket(2, 1, 0);", "socket", NULL);
    refused_call("fork.cu", "fork();", "clone", NULL);
    refused_call("kill_all.cu", "kill(-1, 9);", "kill", NULL);
    refused_call("kill_parent.cu", "kill(getppid(), 15);", "getppid", NULL);
    refused_call("sigstop.cu", "kill(getpid(), 19);", "kill", NULL);
    refused_call("ignore_alarm.cu", "signal(14, (void *)1); for (;;) {}", "rt_sigaction", NULL);
    refused_call("execve.cu", "execve(\"/bin/sh\", 0, 0);", "execve", NULL);
    refused_call("mmap_exec.cu", "mmap(0, 4096, 5, 0x22, -1, 0);", "mmap", NULL);
    CHECK_MSG(!signalled, "a kernel's signal reached the test");

    /* the runtime's memory (the table of hooks is the runtime's) */
    {
        char *src = kernel_with("long v = *(volatile long *)(void *)&getpid; (void)v;");
        sv_ktrace *t = run_text("foreign.cu", src, NULL, 2000);
        if (t) {
            CHECK_MSG(t->failure.kind == SV_KFAIL_OUT_OF_RANGE, "foreign: %s",
                      sv_kfail_kind_name(t->failure.kind));
            CHECK_CONTAINS(t->failure.message ? t->failure.message : "",
                           "memory that is not the kernel's");
            CHECK_INT(t->failure.line, PAYLOAD_LINE);
        }
        sv_ktrace_destroy(t);
        free(src);
    }

    /* a stream forged on the trace's pipe (fd 4) is not the runtime's */
    {
        char *src = kernel_with("static const unsigned m[4] = {0x53565254u, 0, 0, 0}; "
                                "write(4, m, 16);");
        sv_ktrace *t = run_text("forge.cu", src, NULL, 2000);
        if (t) {
            CHECK_MSG(t->failure.kind == SV_KFAIL_INTERNAL, "forge: %s",
                      sv_kfail_kind_name(t->failure.kind));
            CHECK_CONTAINS(t->failure.message ? t->failure.message : "", "not the runtime's");
        }
        sv_ktrace_destroy(t);
        free(src);
    }

    /* output: 96 MiB on stdout is cut at 64 KiB, escaped, and the run goes on */
    {
        char *src = kernel_with("static char b[65536]; for (int k = 0; k < 65536; k++) "
                                "b[k] = k % 64 == 63 ? '\\n' : (k % 64 == 0 ? 27 : 'x'); "
                                "for (int k = 0; k < 1536; k++) write(1, b, 65536);");
        double t0 = now_s();
        sv_ktrace *t = run_text("flood.cu", src, NULL, 10000);
        if (t) {
            CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "flood: %s %s",
                      sv_kfail_kind_name(t->failure.kind),
                      t->failure.message ? t->failure.message : "");
            CHECK(t->console != NULL);
            if (t->console) {
                CHECK_MSG(strlen(t->console) <= 4 * SV_KTRACE_MAX_CONSOLE + 64, "console %zu bytes",
                          strlen(t->console));
                CHECK(strchr(t->console, 27) == NULL && strchr(t->console, '\n') == NULL);
                CHECK_CONTAINS(t->console, "cut at 64 KiB");
            }
            CHECK_INT((int)t->output[7].bits, 25);
        }
        CHECK_MSG(now_s() - t0 < 30, "flood took %.1f s", now_s() - t0);
        sv_ktrace_destroy(t);
        free(src);
    }

    /* an endless writer: stopped at its time limit, reported within a second more */
    {
        char *src = kernel_with("for (;;) write(2, \"x\", 1);");
        double t0 = now_s();
        sv_ktrace *t = run_text("writer.cu", src, NULL, 1000);
        double took = now_s() - t0;
        if (t)
            CHECK_MSG(t->failure.kind == SV_KFAIL_TIME, "writer: %s",
                      sv_kfail_kind_name(t->failure.kind));
        CHECK_MSG(took < 1.0 + 2.5, "the endless writer took %.1f s", took);
        sv_ktrace_destroy(t);
        free(src);
    }

    /* a constructor runs behind Landlock already: it can open nothing */
    {
        snprintf(payload, sizeof payload,
                 "#line 1 \"ctor.cu\"\n%s"
                 "static int got = 0;\n"
                 "__attribute__((constructor)) static void steal() {\n"
                 "    int fd = open(\"%s\", 0); char c = 0;\n"
                 "    if (fd >= 0 && read(fd, &c, 1) == 1) got = c; else got = -1;\n"
                 "    open(\"%s/m-ctor\", 65, 0644); }\n"
                 "__global__ void scan(const int *in, int *out, int n)\n"
                 "{ out[threadIdx.x] = got; }\n"
                 "extern \"C\" __attribute__((visibility(\"default\"))) void "
                 "sv_rt_entry(const void *in, void *out, int n)\n"
                 "{ scan((const int *)in, (int *)out, n); }\n",
                 decls, secret, tmp);
        sv_ktrace *t = run_text("ctor.cu", "/* hand-made */", payload, 2000);
        if (t && sv_sandbox_landlock_abi() > 0) {
            CHECK_MSG(t->failure.kind == SV_KFAIL_NONE, "ctor: %s",
                      sv_kfail_kind_name(t->failure.kind));
            CHECK_MSG((int)t->output[0].bits == -1, "the constructor read the secret: %d",
                      (int)t->output[0].bits);
            CHECK(!exists("m-ctor"));
        }
        sv_ktrace_destroy(t);
    }

    /* the compiler behind its walls: no file outside its folders, limits */
    {
        char text[1024], err[1024];
        snprintf(text, sizeof text, "#include \"%s\"\nint x;\n", secret);
        sv_rt_built b;
        sv_kfail_kind kind;
        int line;
        char *messages = NULL;
        bool ok = sv_rt_cpu_compile_unchecked(text, "peek.cu", &b, &kind, &line, &messages, err,
                                              sizeof err);
        if (sv_sandbox_landlock_abi() > 0) {
            CHECK_MSG(!ok && kind == SV_KFAIL_COMPILE, "the compiler read %s", secret);
            CHECK(!messages || !strstr(messages, "lecturer-secret"));
        }
        sv_rt_built_free(&b);
        free(messages);
        /* 2^40 tokens: the compiler's address space or time limit ends it */
        char bomb[4096];
        size_t u = (size_t)snprintf(bomb, sizeof bomb, "#define A0 x x\n");
        for (int k = 1; k <= 40; k++)
            u += (size_t)snprintf(bomb + u, sizeof bomb - u, "#define A%d A%d A%d\n", k, k - 1,
                                  k - 1);
        snprintf(bomb + u, sizeof bomb - u, "int y = sizeof(\"A40\"); A40\n");
        double t0 = now_s();
        ok = sv_rt_cpu_compile_unchecked(bomb, "bomb.cu", &b, &kind, &line, &messages, err,
                                         sizeof err);
        double took = now_s() - t0;
        CHECK_MSG(!ok && kind == SV_KFAIL_COMPILE, "the macro bomb compiled: %s", err);
        CHECK_MSG(took < SV_RT_COMPILE_LIMIT_MS / 1000.0 + 5, "the bomb took %.1f s", took);
        sv_rt_built_free(&b);
        free(messages);
    }
    /* what a machine without a wall is told (the header, the CSV, --grade) */
    {
        char w[256];
        CHECK_STR(sv_sandbox_missing_words(7, true, w, sizeof w), "");
        CHECK_CONTAINS(sv_sandbox_missing_words(0, true, w, sizeof w), "no Landlock");
        CHECK_CONTAINS(sv_sandbox_missing_words(5, true, w, sizeof w), "signals are not scoped");
        CHECK_CONTAINS(sv_sandbox_missing_words(3, false, w, sizeof w), "nor TCP; no seccomp");
        CHECK_STR(sv_sandbox_missing(), sv_sandbox_missing_words(sv_sandbox_landlock_abi(),
                                                                 sv_sandbox_seccomp_available(),
                                                                 w, sizeof w));
    }
    return check_report("sandbox: all checks passed");
}
