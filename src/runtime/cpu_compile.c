/* The CPU runtime's compile step (cpu_compile.h). */
#define _DEFAULT_SOURCE /* realpath */
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

#include "../core/error.h"
#include "../core/fileio.h"
#include "../core/spawn.h"

extern const unsigned char sv_rt_cuda_cpu_h[];
extern const size_t sv_rt_cuda_cpu_h_size;

static const char *const cxx_flags[] = {SV_RT_CXX_FLAGS, NULL};

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

/* Runs argv with stdout and stderr into *out (at most max bytes kept; no
 * time limit: a compile takes what it takes); returns the exit status (-1:
 * could not run, the reason in err). */
static int run_capture(char *const argv[], char **out, size_t max, char *err, size_t errlen)
{
    size_t len = 0;
    int st = 0;
    bool timed_out = false;
    *out = sv_spawn_output(argv, max, -1, &len, &st, &timed_out, err, errlen);
    if (!*out)
        return -1;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
        sv_errorf(err, errlen, "%s could not be run", argv[0]);
        return -1;
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* ---- The key -------------------------------------------------------------- */

typedef struct hash {
    uint64_t a, b;
} hash;

static void hash_add(hash *h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h->a = (h->a ^ p[i]) * 0x100000001b3ull;
        h->b = (h->b ^ p[i]) * 0x00000100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
    /* a separator, so that ("ab", "c") and ("a", "bc") differ */
    h->a = (h->a ^ 0xff) * 0x100000001b3ull;
    h->b = (h->b ^ 0xfe) * 0x100000001b3ull;
}

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

static bool lines_load(const char *file, sv_rt_lines *l)
{
    char err[256];
    size_t len = 0;
    memset(l, 0, sizeof *l);
    char *text = sv_read_bounded(file, 64u << 20, "line table", &len, err, sizeof err);
    if (!text)
        return false;
    bool ok = sv_rt_lines_parse(text, l);
    free(text);
    return ok;
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

static void rm_tmp(const char *tmp)
{
    const char *names[] = {"cuda_cpu.h", "kernel.cc", "kernel.o", "kernel.so"};
    char p[PATH_MAX + 32];
    for (size_t i = 0; i < 4; i++) {
        snprintf(p, sizeof p, "%s/%s", tmp, names[i]);
        unlink(p);
    }
    rmdir(tmp);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool sv_rt_cpu_compile(const char *text, const char *path, char *so_path, size_t so_len,
                       sv_rt_lines *lines, bool *cached, sv_kfail_kind *kind, int *line,
                       char **messages, char *err, size_t errlen)
{
    char lp[PATH_MAX + 64];
    return sv_rt_cpu_compile_ex(text, path, NULL, so_path, so_len, lp, sizeof lp, lines, cached,
                                kind, line, messages, err, errlen);
}

bool sv_rt_cpu_compile_ex(const char *text, const char *path, const char *const *extra,
                          char *so_path, size_t so_len, char *lines_path, size_t lines_len,
                          sv_rt_lines *lines, bool *cached, sv_kfail_kind *kind, int *line,
                          char **messages, char *err, size_t errlen)
{
    char cxx[PATH_MAX], dir[PATH_MAX], why[512];
    *messages = NULL;
    *line = 0;
    *cached = false;
    memset(lines, 0, sizeof *lines);
    if (!sv_rt_cxx_find(cxx, sizeof cxx, why, sizeof why)) {
        *kind = SV_KFAIL_UNAVAILABLE;
        sv_errorf(err, errlen, "%s", why);
        return false;
    }
    *kind = SV_KFAIL_INTERNAL;
    if (!sv_rt_cache_dir(dir, sizeof dir, err, errlen))
        return false;
    hash h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    hash_add(&h, text, strlen(text));
    hash_add(&h, sv_rt_cuda_cpu_h, sv_rt_cuda_cpu_h_size);
    char real[PATH_MAX];
    struct stat st;
    if (realpath(cxx, real) && stat(real, &st) == 0) {
        hash_add(&h, real, strlen(real));
        hash_add(&h, &st.st_size, sizeof st.st_size);
        hash_add(&h, &st.st_mtime, sizeof st.st_mtime);
    }
    hash_add(&h, cxx, strlen(cxx));
    for (size_t i = 0; cxx_flags[i]; i++)
        hash_add(&h, cxx_flags[i], strlen(cxx_flags[i]));
    for (size_t i = 0; extra && extra[i]; i++)
        hash_add(&h, extra[i], strlen(extra[i]));
    char key[40];
    snprintf(key, sizeof key, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
    snprintf(so_path, so_len, "%s/k-%s.so", dir, key);
    snprintf(lines_path, lines_len, "%s/k-%s.lines", dir, key);
    if (access(so_path, R_OK) == 0 && lines_load(lines_path, lines)) {
        *cached = true;
        return true;
    }
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s/tmp-XXXXXX", dir);
    if (!mkdtemp(tmp)) {
        sv_errorf(err, errlen, "%s: %s", tmp, strerror(errno));
        return false;
    }
    char hdr[PATH_MAX + 48], src[PATH_MAX + 48], obj[PATH_MAX + 48], so[PATH_MAX + 48];
    snprintf(hdr, sizeof hdr, "%s/cuda_cpu.h", tmp);
    snprintf(src, sizeof src, "%s/kernel.cc", tmp);
    snprintf(obj, sizeof obj, "%s/kernel.o", tmp);
    snprintf(so, sizeof so, "%s/kernel.so", tmp);
    bool ok = false;
    char *out = NULL;
    if (!write_file(hdr, sv_rt_cuda_cpu_h, sv_rt_cuda_cpu_h_size) ||
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
        int rc = run_capture((char *const *)argv, &out, 64 * 1024, err, errlen);
        if (rc < 0)
            goto done;
        if (rc != 0) {
            *kind = SV_KFAIL_COMPILE;
            *line = first_error_line(out ? out : "", base_name(path));
            *messages = out;
            out = NULL;
            sv_errorf(err, errlen, "%s does not compile", path);
            goto done;
        }
        free(out);
        out = NULL;
        /* linked without -fsanitize: no libtsan; the hooks are in the object */
        const char *largv[] = {cxx, "-shared", "-o", so, obj, NULL};
        rc = run_capture((char *const *)largv, &out, 64 * 1024, err, errlen);
        if (rc != 0) {
            if (rc > 0)
                sv_errorf(err, errlen, "linking the kernel failed: %s", out ? out : "");
            goto done;
        }
        free(out);
        out = NULL;
        char readelf[PATH_MAX];
        const char *rargv[] = {readelf, "-W", "--debug-dump=decodedline", so, NULL};
        char *ltext = NULL;
        if (on_path("readelf", readelf, sizeof readelf) &&
            run_capture((char *const *)rargv, &out, 64u << 20, err, errlen) == 0)
            ltext = lines_text_from_readelf(out, base_name(path));
        if (!sv_write_atomic(lines_path, ltext ? ltext : "", ltext ? strlen(ltext) : 0, err,
                             errlen)) {
            free(ltext);
            goto done;
        }
        free(ltext);
        if (rename(so, so_path) != 0) {
            sv_errorf(err, errlen, "%s: %s", so_path, strerror(errno));
            goto done;
        }
        lines_load(lines_path, lines);
        ok = true;
    }
done:
    free(out);
    rm_tmp(tmp);
    return ok;
}
