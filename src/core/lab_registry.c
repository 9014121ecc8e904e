/* The mistakes lab's registry of kernels: the shipped rows, as the build
 * generated them from the kernel files (lab_kernels.h), the rows added at
 * run time, lookup by name, and which cells a kernel's threads write (its
 * guard and else). */
#include "lab_registry.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

/* ---- The rows ------------------------------------------------------------ */

#define SV_KERNEL_ROW_(id, name, alias, file, label, teaches, double_buffer, barrier,         \
                       has_else, guard, guard_offset, self_from_pout, racy)                   \
    [SV_KERNEL_##id] = {name, alias, file, label, teaches, true, double_buffer, barrier,     \
                        has_else, guard, guard_offset, self_from_pout, racy},
static const sv_kernel_info shipped[SV_KERNEL_COUNT] = {SV_KERNEL_ROWS(SV_KERNEL_ROW_)};
#undef SV_KERNEL_ROW_

#define SV_KERNEL_BEYOND_ROW_(id, name, file, label, teaches, algorithm)                  \
    {name, file, label, teaches, algorithm},
static const sv_kernel_beyond beyond[] = {SV_KERNEL_BEYOND_ROWS(SV_KERNEL_BEYOND_ROW_)};
#undef SV_KERNEL_BEYOND_ROW_
#define NBEYOND (sizeof beyond / sizeof beyond[0])

const sv_kernel_beyond *sv_kernel_beyond_get(size_t i)
{
    return i < NBEYOND ? &beyond[i] : NULL;
}

const sv_kernel_beyond *sv_kernel_beyond_find(const char *name)
{
    for (size_t i = 0; name && i < NBEYOND; i++)
        if (strcmp(beyond[i].name, name) == 0)
            return &beyond[i];
    return NULL;
}

const sv_kernel_beyond *sv_kernel_beyond_of_file(const char *file)
{
    for (size_t i = 0; file && i < NBEYOND; i++)
        if (strcmp(beyond[i].file, file) == 0)
            return &beyond[i];
    return NULL;
}

/* A row added at run time owns its text. Rows are only ever appended, and
 * never change once counted, so a pointer to one stays valid. */
typedef struct added_row {
    sv_kernel_info info;
    char name[64];
    char label[96];
    char file[4096];
} added_row;

static added_row added[SV_KERNEL_MAX_ADDED];
static size_t nadded;
static pthread_mutex_t added_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t added_count(void)
{
    pthread_mutex_lock(&added_lock);
    size_t n = nadded;
    pthread_mutex_unlock(&added_lock);
    return n;
}

const sv_kernel_info *sv_kernel_get(sv_kernel k)
{
    if ((unsigned)k < SV_KERNEL_COUNT)
        return &shipped[k];
    size_t j = (size_t)(unsigned)k - SV_KERNEL_COUNT;
    return (unsigned)k < SV_KERNEL_LIMIT && j < added_count() ? &added[j].info : NULL;
}

const char *sv_kernel_name(sv_kernel k)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    return info ? info->name : NULL;
}

size_t sv_kernel_count(void)
{
    return SV_KERNEL_COUNT + added_count();
}

/* The row named key by its name or alias, or -1; with the lock held for
 * the added rows. */
static int find(const char *key)
{
    if (!key)
        return -1;
    for (int k = 0; k < SV_KERNEL_COUNT; k++)
        if (strcmp(shipped[k].name, key) == 0 ||
            (shipped[k].alias && strcmp(shipped[k].alias, key) == 0))
            return k;
    for (size_t j = 0; j < nadded; j++)
        if (strcmp(added[j].name, key) == 0)
            return SV_KERNEL_COUNT + (int)j;
    return -1;
}

bool sv_kernel_from_name(const char *name, sv_kernel *out)
{
    pthread_mutex_lock(&added_lock);
    int k = find(name);
    pthread_mutex_unlock(&added_lock);
    if (k >= 0 && out)
        *out = (sv_kernel)k;
    return k >= 0;
}

/* Built once from the shipped rows, so that a kernel added to the files is
 * named in every message, the help overlay and --help's checks alike. */
static char kernel_list[SV_KERNEL_COUNT * 32];
static pthread_once_t kernel_list_once = PTHREAD_ONCE_INIT;

static void kernel_list_build(void)
{
    size_t at = 0;
    for (int k = 0; k < SV_KERNEL_COUNT && at < sizeof kernel_list; k++)
        at += (size_t)snprintf(kernel_list + at, sizeof kernel_list - at, "%s%s",
                               k == 0 ? "" : k + 1 == SV_KERNEL_COUNT ? " or " : ", ",
                               shipped[k].name);
}

const char *sv_kernel_list(void)
{
    pthread_once(&kernel_list_once, kernel_list_build);
    return kernel_list;
}

/* text with every byte outside printable ASCII as '?', at most len - 1. */
static void printable(char *buf, size_t len, const char *text)
{
    size_t j = 0;
    for (const char *p = text; *p && j + 1 < len; p++)
        buf[j++] = (*p >= 32 && *p < 127) ? *p : '?';
    buf[j] = '\0';
}

bool sv_kernel_parse(const char *name, sv_kernel *out, char *err, size_t errlen)
{
    if (sv_kernel_from_name(name, out))
        return true;
    char shown[41];
    printable(shown, sizeof shown, name ? name : "");
    sv_errorf(err, errlen, "unknown kernel \"%s\" (expected %s)", shown, sv_kernel_list());
    return false;
}

bool sv_kernel_add_file(const char *path, sv_kernel *out, char *err, size_t errlen)
{
    size_t len = path ? strlen(path) : 0;
    if (len == 0 || len >= sizeof added[0].file) {
        sv_errorf(err, errlen, "kernel file: %s", len ? "the path is too long" : "no path");
        return false;
    }
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char name[sizeof added[0].name];
    printable(name, sizeof name, base);
    bool ok = false;
    pthread_mutex_lock(&added_lock);
    int k = find(name);
    if (k >= SV_KERNEL_COUNT && strcmp(added[k - SV_KERNEL_COUNT].file, path) == 0) {
        ok = true; /* the same file again */
    } else if (!*base || k >= 0) {
        sv_errorf(err, errlen, "kernel file \"%s\": %s", name,
                  *base ? "its file name is already a kernel's name" : "names a folder");
    } else if (nadded == SV_KERNEL_MAX_ADDED) {
        sv_errorf(err, errlen, "kernel file \"%s\": at most %d kernel files in one process",
                  name, SV_KERNEL_MAX_ADDED);
    } else {
        added_row *a = &added[nadded];
        memcpy(a->name, name, sizeof name);
        snprintf(a->label, sizeof a->label, "your kernel, %s", name);
        memcpy(a->file, path, len + 1);
        a->info = (sv_kernel_info){.name = a->name, .file = a->file, .label = a->label,
                                   .teaches = ""};
        k = SV_KERNEL_COUNT + (int)nadded++;
        ok = true;
    }
    pthread_mutex_unlock(&added_lock);
    if (ok && out)
        *out = (sv_kernel)k;
    return ok;
}

/* ---- What a kernel writes ------------------------------------------------ */

static size_t stride_of(int round)
{
    return round >= 1 ? (size_t)1 << (round - 1) : 0;
}

bool sv_kernel_writes(sv_kernel k, int round, size_t i)
{
    const sv_kernel_info *info = sv_kernel_get(k);
    if (round < 1)
        return round == 0;
    if (!info || !info->emulated)
        return false;
    bool taken = !info->guard || i >= stride_of(round) + (size_t)info->guard_offset;
    return taken || info->has_else;
}
