/* The CPU runtime's compile step (cpu_compile.h). */
#define _GNU_SOURCE /* realpath, strsignal */
#include "cpu_compile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nettle/sha2.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "sandbox.h"
#include "so_check.h"
#include "source_scan.h"

#include "../core/error.h"
#include "../core/fileio.h"
#include "../core/spawn.h"

extern const unsigned char sv_rt_cuda_cpu_h[], sv_rt_scan_ops_h[];
extern const size_t sv_rt_cuda_cpu_h_size, sv_rt_scan_ops_h_size;

static const char *const cxx_flags[] = {SV_RT_CXX_FLAGS, NULL};

/* Every load the kernel's source makes is recorded, as nvcc's code makes
 * it (so its hazards and bank conflicts are the GPU's; docs/gpu-runs.md):
 * - GCC's full redundancy elimination proves redundant a load that reads a
 *   word back after a store that left it as it was, where nvcc's NVVM does
 *   not and the GPU runs it (GPU Gems 3's down-sweep, `t = temp[ai];
 *   temp[ai] = temp[bi]; temp[bi] += t;`, reads temp[bi] twice, and ncu
 *   counts both): -fno-tree-fre;
 * - clang's ThreadSanitizer pass leaves a load unrecorded where a store to
 *   the same address follows it (`s[i] += x`: the store's check covers the
 *   race): -tsan-instrument-read-before-write.
 * And a volatile access calls a hook of its own (the flags of many blocks,
 * issue 31, are no race): tsan-distinguish-volatile.
 * The compiler is clang when the name of its real path says so, else GCC's
 * flags (clang rejects -fno-tree-fre). */
static const char *const clang_flags[] = {"-mllvm", "-tsan-instrument-read-before-write",
                                          "-mllvm", "-tsan-distinguish-volatile", NULL};
static const char *const gcc_flags[] = {"-fno-tree-fre", "--param=tsan-distinguish-volatile=1",
                                        NULL};

static const char *const *family_flags(const char *cxx)
{
    char real[PATH_MAX];
    const char *p = realpath(cxx, real) ? real : cxx;
    const char *b = strrchr(p, '/');
    return strstr(b ? b + 1 : p, "clang") ? clang_flags : gcc_flags;
}

/* ---- Finding the compiler ------------------------------------------------- */

static bool on_path(const char *name, char *out, size_t len)
{
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0)
            return false;
        snprintf(out, len, "%s", name);
        return true;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *c = strchr(path, ':');
        size_t k = c ? (size_t)(c - path) : strlen(path);
        if (k > 0) {
            int m = snprintf(out, len, "%.*s/%s", (int)k, path, name);
            if (m > 0 && (size_t)m < len && access(out, X_OK) == 0)
                return true;
        }
        path += k + (c ? 1 : 0);
    }
    return false;
}

bool sv_rt_cxx_find(char *path, size_t len, char *why, size_t whylen)
{
    const char *env = getenv("CXX");
    if (env && *env) {
        char first[PATH_MAX];
        size_t k = strcspn(env, " \t");
        snprintf(first, sizeof first, "%.*s", (int)k, env);
        if (on_path(first, path, len))
            return true;
        sv_errorf(why, whylen, "no C++ compiler found: $CXX is \"%s\", which is not an "
                               "executable on PATH", first);
        return false;
    }
    const char *names[] = {"c++", "g++", "clang++"};
    for (size_t i = 0; i < 3; i++)
        if (on_path(names[i], path, len))
            return true;
    sv_errorf(why, whylen, "no C++ compiler found (tried $CXX, c++, g++, clang++): the CPU "
                           "runtime compiles kernel files with one (Debian: apt-get install g++)");
    return false;
}

/* ---- The cache folder ----------------------------------------------------- */

bool sv_rt_cache_dir(char *dir, size_t len, char *err, size_t errlen)
{
    char base[PATH_MAX];
    if (!sv_xdg_base("XDG_CACHE_HOME", ".cache", "cache folder", base, sizeof base, err, errlen))
        return false;
    if (mkdir(base, 0700) != 0 && errno != EEXIST) {
        sv_errorf(err, errlen, "%s: %s", base, strerror(errno));
        return false;
    }
    int m = snprintf(dir, len, "%s/scanviz", base);
    if (m < 0 || (size_t)m >= len) {
        sv_errorf(err, errlen, "%s: path too long", base);
        return false;
    }
    return sv_private_dir(dir, "the kernel cache", err, errlen);
}

/* ---- Running the compiler ------------------------------------------------- */

/* The compiler's walls (cpu_compile.h), put up between fork and exec. */
typedef struct jail {
    int ruleset; /* Landlock, -1 none */
    bool landlock_failed;
} jail;

static bool jail_enter(void *ctx)
{
    jail *j = ctx;
    struct rlimit cpu = {SV_RT_COMPILE_CPU_S, SV_RT_COMPILE_CPU_S + 1};
    struct rlimit as = {(rlim_t)SV_RT_COMPILE_AS_MB << 20, (rlim_t)SV_RT_COMPILE_AS_MB << 20};
    struct rlimit fsz = {(rlim_t)SV_RT_COMPILE_FSIZE_MB << 20, (rlim_t)SV_RT_COMPILE_FSIZE_MB << 20};
    struct rlimit core = {0, 0}, nofile = {256, 256};
    if (setrlimit(RLIMIT_CPU, &cpu) != 0 || setrlimit(RLIMIT_AS, &as) != 0 ||
        setrlimit(RLIMIT_FSIZE, &fsz) != 0 || setrlimit(RLIMIT_CORE, &core) != 0 ||
        setrlimit(RLIMIT_NOFILE, &nofile) != 0)
        return false;
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* (a compile outlives no one) */
    return j->ruleset < 0 || sv_sandbox_restrict(j->ruleset);
}

/* The folders a compiler reads: the system's, and its own prefix (the
 * folder above its bin/) when it lives elsewhere. */
static int compiler_ruleset(const char *cxx, const char *work, char *err, size_t errlen)
{
    char real[PATH_MAX], prefix[PATH_MAX] = "";
    if (realpath(cxx, real)) {
        char *slash = strrchr(real, '/');
        if (slash) {
            *slash = '\0';
            slash = strrchr(real, '/');
            if (slash && slash != real)
                *slash = '\0';
            snprintf(prefix, sizeof prefix, "%s", real);
        }
    }
    const char *ro[] = {"/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin",
                        "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                        "/etc/alternatives", prefix[0] ? prefix : "/usr", NULL};
    const char *rw[] = {work, "/dev/null", NULL};
    return sv_sandbox_ruleset_paths(ro, rw, NULL, err, errlen);
}

/* Runs argv (a compiler, readelf) in its walls with stdout and stderr into
 * *out (at most max bytes kept); returns the exit status, -1: could not run
 * (the reason in err), -2: past its wall time (err says so). */
static int run_jailed(char *const argv[], const char *work, char **out,
                      size_t max, char *err, size_t errlen)
{
    char tmpdir[PATH_MAX + 16];
    snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", work);
    const char *path = getenv("PATH");
    char pathv[8192];
    snprintf(pathv, sizeof pathv, "PATH=%s", path ? path : "/usr/bin:/bin");
    char *envp[] = {pathv, tmpdir, (char *)"LC_ALL=C", NULL};
    char lerr[256];
    jail j = {compiler_ruleset(argv[0], work, lerr, sizeof lerr), false};
    sv_spawn_opts o = {envp, true, work, jail_enter, &j};
    size_t len = 0;
    int st = 0;
    bool timed_out = false;
    *out = sv_spawn_run(argv, &o, max, SV_RT_COMPILE_LIMIT_MS, &len, &st, &timed_out, err, errlen);
    if (j.ruleset >= 0)
        close(j.ruleset);
    if (!*out)
        return -1;
    if (timed_out) {
        sv_errorf(err, errlen, "%s ran past its limit of %d s and was stopped", argv[0],
                  SV_RT_COMPILE_LIMIT_MS / 1000);
        return -2;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
        sv_errorf(err, errlen, "%s could not be run", argv[0]);
        return -1;
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 126) {
        sv_errorf(err, errlen, "%s could not be given its limits", argv[0]);
        return -1;
    }
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        sv_errorf(err, errlen, "%s was ended by signal %d (%s)%s", argv[0], sig, strsignal(sig),
                  sig == SIGXCPU || sig == SIGKILL ? ": past its CPU or memory limit" : "");
        return -2;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* ---- The key -------------------------------------------------------------- */

/* ---- The line table ------------------------------------------------------- */

void sv_rt_lines_free(sv_rt_lines *l)
{
    if (!l)
        return;
    free(l->addr);
    free(l->line);
    l->addr = NULL;
    l->line = NULL;
    l->n = 0;
}

int32_t sv_rt_lines_at(const sv_rt_lines *l, uint64_t pc)
{
    if (!l || l->n == 0 || pc == 0)
        return 0;
    uint64_t a = pc - 1;
    size_t lo = 0, hi = l->n; /* the last entry with addr <= a */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->addr[mid] <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == 0 ? 0 : l->line[lo - 1];
}

static int cmp_pair(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* Parses readelf --debug-dump=decodedline: "FILE LINE 0xADDR ...". Lines of
 * cuda_cpu.h and the launcher map to 0. Writes "ADDR LINE\n" pairs. */
static char *lines_text_from_readelf(const char *dump, const char *kernel_base)
{
    size_t cap = 4096, used = 0, cnt = 0;
    uint64_t *pairs = malloc(cap * 2 * sizeof *pairs);
    if (!pairs)
        return NULL;
    for (const char *p = dump; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t k = e ? (size_t)(e - p) : strlen(p);
        char ln[1024];
        snprintf(ln, sizeof ln, "%.*s", (int)(k < sizeof ln - 1 ? k : sizeof ln - 1), p);
        char file[512];
        unsigned long line;
        char addr[64];
        if (sscanf(ln, "%511s %lu %63s", file, &line, addr) == 3 && strncmp(addr, "0x", 2) == 0) {
            if (cnt == cap) {
                cap *= 2;
                uint64_t *np = realloc(pairs, cap * 2 * sizeof *pairs);
                if (!np) {
                    free(pairs);
                    return NULL;
                }
                pairs = np;
            }
            size_t fl = strlen(file), bl = strlen(kernel_base);
            bool ours = fl >= bl && strcmp(file + fl - bl, kernel_base) == 0;
            pairs[2 * cnt] = strtoull(addr, NULL, 16);
            pairs[2 * cnt + 1] = ours ? line : 0;
            cnt++;
        }
        p = e ? e + 1 : NULL;
    }
    qsort(pairs, cnt, 2 * sizeof *pairs, cmp_pair);
    char *out = malloc(cnt * 40 + 1);
    if (out) {
        for (size_t i = 0; i < cnt; i++)
            used += (size_t)sprintf(out + used, "%llx %llu\n", (unsigned long long)pairs[2 * i],
                                    (unsigned long long)pairs[2 * i + 1]);
        out[used] = '\0';
    }
    free(pairs);
    return out;
}

bool sv_rt_lines_parse(const char *text, sv_rt_lines *l)
{
    size_t len = strlen(text);
    memset(l, 0, sizeof *l);
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    l->addr = malloc((n + 1) * sizeof *l->addr);
    l->line = malloc((n + 1) * sizeof *l->line);
    if (!l->addr || !l->line) {
        sv_rt_lines_free(l);
        return false;
    }
    for (char *p = (char *)text; *p && l->n < n;) {
        char *e;
        unsigned long long a = strtoull(p, &e, 16);
        if (e == p)
            break;
        long ln = strtol(e, &p, 10);
        l->addr[l->n] = a;
        l->line[l->n++] = (int32_t)ln;
        while (*p == '\n')
            p++;
    }
    return true;
}

/* ---- Compile -------------------------------------------------------------- */

void sv_rt_built_free(sv_rt_built *b)
{
    if (!b)
        return;
    free(b->so);
    free(b->lines);
    b->so = NULL;
    b->lines = NULL;
    b->so_len = 0;
}

static int first_error_line(const char *msgs, const char *base)
{
    /* "BASE:LINE:COL: error" (gcc and clang), the kernel file's own numbering */
    size_t bl = strlen(base);
    for (const char *p = msgs; p && (p = strstr(p, base)) != NULL; p += bl) {
        if (p[bl] != ':')
            continue;
        char *e;
        long line = strtol(p + bl + 1, &e, 10);
        if (e != p + bl + 1 && *e == ':' && strstr(e, "error") &&
            (strchr(e, '\n') == NULL || strstr(e, "error") < strchr(e, '\n')))
            return (int)line;
    }
    return 0;
}

static bool write_file(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (fd < 0)
        return false;
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w <= 0) {
            close(fd);
            return false;
        }
        p += w;
        len -= (size_t)w;
    }
    return close(fd) == 0;
}

/* Removes the work folder: the files this step made there, then the
 * folder (a file the compiler left under another name keeps it, and it
 * says so nowhere: the folder is private to the user). */
static void rm_tmp(const char *tmp)
{
    const char *names[] = {"cuda_cpu.h", "scan_ops.h", "kernel.cc", "kernel.o", "kernel.so", NULL};
    char p[PATH_MAX + 32];
    for (size_t i = 0; names[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", tmp, names[i]);
        unlink(p);
    }
    rmdir(tmp);
}

/* c's digest in hex (c is reset). */
static void digest_hex(struct sha256_ctx *c, char hex[65])
{
    uint8_t d[SHA256_DIGEST_SIZE];
    sha256_digest(c, sizeof d, d);
    for (size_t i = 0; i < sizeof d; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static void sha256_hex(const void *data, size_t len, char hex[65])
{
    struct sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, len, data);
    digest_hex(&c, hex);
}

#define SO_MAX ((size_t)64 << 20)

/* A cache entry, read and checked against its sums: true with out filled. */
static bool cache_take(const char *so_path, const char *lines_path, const char *sum_path,
                       sv_rt_built *out)
{
    char err[256], want[160], got_so[65], got_lines[65];
    size_t sl = 0, ll = 0, ml = 0;
    char *sum = sv_read_regular(sum_path, 256, "a cache sum", true, &ml, err, sizeof err);
    if (!sum)
        return false;
    unsigned char *so = (unsigned char *)sv_read_regular(so_path, SO_MAX, "a cached kernel", false,
                                                         &sl, err, sizeof err);
    char *lines = sv_read_regular(lines_path, SO_MAX, "a line table", true, &ll, err, sizeof err);
    bool ok = so && lines;
    if (ok) {
        sha256_hex(so, sl, got_so);
        sha256_hex(lines, ll, got_lines);
        snprintf(want, sizeof want, "sha256 %s %s\n", got_so, got_lines);
        ok = strcmp(sum, want) == 0 && sv_rt_so_check(so, sl, err, sizeof err);
    }
    free(sum);
    if (!ok) {
        free(so);
        free(lines);
        return false;
    }
    out->so = so;
    out->so_len = sl;
    out->lines = lines;
    return true;
}

/* Stores an entry: the .so, its lines, then their sums (the entry counts
 * from then on). A failure leaves no entry and is not the compile's. */
static void cache_put(const char *so_path, const char *lines_path, const char *sum_path,
                      const sv_rt_built *b)
{
    char err[256], hs[65], hl[65], sum[160];
    sha256_hex(b->so, b->so_len, hs);
    sha256_hex(b->lines, strlen(b->lines), hl);
    snprintf(sum, sizeof sum, "sha256 %s %s\n", hs, hl);
    /* the old sums first (this private folder's, written by this code):
     * until the new ones are written last, the entry does not count */
    unlink(sum_path);
    if (sv_write_atomic(so_path, b->so, b->so_len, err, sizeof err) &&
        sv_write_atomic(lines_path, b->lines, strlen(b->lines), err, sizeof err))
        sv_write_atomic(sum_path, sum, strlen(sum), err, sizeof err);
}

/* The compile itself in a private work folder of dir: compile, link,
 * readelf; out filled on success. */
static bool build(const char *cxx, const char *dir, const char *text, const char *path,
                  const char *const *extra, sv_rt_built *out,
                  sv_kfail_kind *kind, int *line, char **messages, char *err, size_t errlen)
{
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s/tmp-XXXXXX", dir);
    if (!mkdtemp(tmp)) {
        sv_errorf(err, errlen, "%s: %s", tmp, strerror(errno));
        return false;
    }
    char hdr[PATH_MAX + 48], ops[PATH_MAX + 48], src[PATH_MAX + 48], obj[PATH_MAX + 48],
        so[PATH_MAX + 48];
    snprintf(hdr, sizeof hdr, "%s/cuda_cpu.h", tmp);
    snprintf(ops, sizeof ops, "%s/scan_ops.h", tmp);
    snprintf(src, sizeof src, "%s/kernel.cc", tmp);
    snprintf(obj, sizeof obj, "%s/kernel.o", tmp);
    snprintf(so, sizeof so, "%s/kernel.so", tmp);
    bool ok = false;
    char *msgs = NULL, name[512];
    sv_source_line_name(path, name, sizeof name);
    if (!write_file(hdr, sv_rt_cuda_cpu_h, sv_rt_cuda_cpu_h_size) ||
        !write_file(ops, sv_rt_scan_ops_h, sv_rt_scan_ops_h_size) ||
        !write_file(src, text, strlen(text))) {
        sv_errorf(err, errlen, "%s: %s", tmp, strerror(errno));
        goto done;
    }
    {
        const char *argv[48];
        size_t a = 0;
        argv[a++] = cxx;
        for (size_t i = 0; cxx_flags[i]; i++)
            argv[a++] = cxx_flags[i];
        for (const char *const *f = family_flags(cxx); *f; f++)
            argv[a++] = *f;
        for (size_t i = 0; extra && extra[i] && a < 32; i++)
            argv[a++] = extra[i];
        argv[a++] = "-include";
        argv[a++] = hdr;
        argv[a++] = "-x";
        argv[a++] = "c++";
        argv[a++] = "-c";
        argv[a++] = src;
        argv[a++] = "-o";
        argv[a++] = obj;
        argv[a] = NULL;
        int rc = run_jailed((char *const *)argv, tmp, &msgs, SV_RT_COMPILE_MESSAGES,
                            err, errlen);
        if (rc == -1)
            goto done;
        if (rc != 0) {
            *kind = SV_KFAIL_COMPILE;
            *line = rc == -2 ? 0 : first_error_line(msgs ? msgs : "", name);
            if (rc == -2) {
                char why[512];
                snprintf(why, sizeof why, "%s", err);
                sv_errorf(err, errlen, "%s does not compile within its limits: %s", path, why);
                free(msgs);
                msgs = NULL;
            } else {
                sv_errorf(err, errlen, "%s does not compile", path);
            }
            *messages = msgs;
            msgs = NULL;
            goto done;
        }
        free(msgs);
        msgs = NULL;
        /* linked without -fsanitize: no libtsan; the hooks are in the object.
         * -Bsymbolic: its own memcpy and the rest bind to its own. */
        const char *largv[] = {cxx, "-shared", "-Wl,-Bsymbolic", "-o", so, obj, NULL};
        rc = run_jailed((char *const *)largv, tmp, &msgs, SV_RT_COMPILE_MESSAGES, err,
                        errlen);
        if (rc != 0) {
            if (rc > 0)
                sv_errorf(err, errlen, "linking the kernel failed: %s", msgs ? msgs : "");
            goto done;
        }
        free(msgs);
        msgs = NULL;
        size_t sl = 0;
        char rerr[256];
        out->so = (unsigned char *)sv_read_regular(so, SO_MAX, "the compiled kernel", false, &sl,
                                                   rerr, sizeof rerr);
        if (!out->so) {
            sv_errorf(err, errlen, "%s", rerr);
            goto done;
        }
        out->so_len = sl;
        char readelf[PATH_MAX];
        const char *rargv[] = {readelf, "-W", "--debug-dump=decodedline", so, NULL};
        char *ltext = NULL;
        if (on_path("readelf", readelf, sizeof readelf) &&
            run_jailed((char *const *)rargv, tmp, &msgs, 64u << 20, err, errlen) == 0)
            ltext = lines_text_from_readelf(msgs, strrchr(name, '/') ? strrchr(name, '/') + 1
                                                                      : name);
        out->lines = ltext ? ltext : calloc(1, 1);
        if (!out->lines) {
            sv_errorf(err, errlen, "out of memory");
            goto done;
        }
        ok = true;
    }
done:
    free(msgs);
    if (!ok)
        sv_rt_built_free(out);
    rm_tmp(tmp);
    return ok;
}

/* One field of a cache key: its length, then its bytes (so that ("ab",
 * "c") and ("a", "bc") differ). */
static void key_add(struct sha256_ctx *c, const void *data, size_t len)
{
    uint64_t l = len;
    sha256_update(c, sizeof l, (const uint8_t *)&l);
    sha256_update(c, len, data);
}

/* The cache key of text compiled by cxx with the flags (extra too): a
 * SHA-256, so that no file can be made to take another file's entry. */
static void cache_key(const char *cxx, const char *text, const char *const *extra, char key[65])
{
    struct sha256_ctx c;
    sha256_init(&c);
    key_add(&c, text, strlen(text));
    key_add(&c, sv_rt_cuda_cpu_h, sv_rt_cuda_cpu_h_size);
    key_add(&c, sv_rt_scan_ops_h, sv_rt_scan_ops_h_size);
    char real[PATH_MAX];
    struct stat st;
    if (realpath(cxx, real) && stat(real, &st) == 0) {
        key_add(&c, real, strlen(real));
        key_add(&c, &st.st_size, sizeof st.st_size);
        key_add(&c, &st.st_mtime, sizeof st.st_mtime);
    }
    key_add(&c, cxx, strlen(cxx));
    for (size_t i = 0; cxx_flags[i]; i++)
        key_add(&c, cxx_flags[i], strlen(cxx_flags[i]));
    for (const char *const *f = family_flags(cxx); *f; f++)
        key_add(&c, *f, strlen(*f));
    for (size_t i = 0; extra && extra[i]; i++)
        key_add(&c, extra[i], strlen(extra[i]));
    key_add(&c, "-Wl,-Bsymbolic", 14);
    digest_hex(&c, key);
}

/* A kernel file's own flags: no system headers, no predefined macros but
 * the standard's (so it cannot tell the compiler, the machine or the
 * runtime apart by a macro). */
static const char *const file_flags[] = {"-nostdinc", "-undef", NULL};

/* What every compile starts with: the outputs cleared, the compiler found
 * (else *kind UNAVAILABLE) and the cache folder (else INTERNAL). */
static bool compile_start(char *cxx, char *dir, sv_rt_built *out, sv_kfail_kind *kind, int *line,
                          char **messages, char *err, size_t errlen)
{
    char why[512];
    *messages = NULL;
    *line = 0;
    memset(out, 0, sizeof *out);
    if (!sv_rt_cxx_find(cxx, PATH_MAX, why, sizeof why)) {
        *kind = SV_KFAIL_UNAVAILABLE;
        sv_errorf(err, errlen, "%s", why);
        return false;
    }
    *kind = SV_KFAIL_INTERNAL;
    return sv_rt_cache_dir(dir, PATH_MAX, err, errlen);
}

bool sv_rt_cpu_compile(const char *text, const char *path, sv_rt_built *out, bool *cached,
                       sv_kfail_kind *kind, int *line, char **messages, char *err, size_t errlen)
{
    char cxx[PATH_MAX], dir[PATH_MAX];
    *cached = false;
    if (!compile_start(cxx, dir, out, kind, line, messages, err, errlen))
        return false;
    char key[65], so_path[PATH_MAX + 96], lines_path[PATH_MAX + 96], sum_path[PATH_MAX + 96];
    cache_key(cxx, text, file_flags, key);
    snprintf(so_path, sizeof so_path, "%s/k-%s.so", dir, key);
    snprintf(lines_path, sizeof lines_path, "%s/k-%s.lines", dir, key);
    snprintf(sum_path, sizeof sum_path, "%s/k-%s.sum", dir, key);
    if (cache_take(so_path, lines_path, sum_path, out)) {
        *cached = true;
        return true;
    }
    if (!build(cxx, dir, text, path, file_flags, out, kind, line, messages, err, errlen))
        return false;
    if (!sv_rt_so_check(out->so, out->so_len, err, errlen)) {
        *kind = SV_KFAIL_REFUSED;
        sv_rt_built_free(out);
        return false;
    }
    cache_put(so_path, lines_path, sum_path, out);
    return true;
}

bool sv_rt_cpu_compile_unchecked(const char *text, const char *path, sv_rt_built *out,
                                 sv_kfail_kind *kind, int *line, char **messages, char *err,
                                 size_t errlen)
{
    char cxx[PATH_MAX], dir[PATH_MAX];
    return compile_start(cxx, dir, out, kind, line, messages, err, errlen) &&
           build(cxx, dir, text, path, file_flags, out, kind, line, messages, err, errlen);
}
