/* The shipped kernels' table (shipped.h), from the build's embedded files. */
#define _GNU_SOURCE /* memfd_create */
#include "shipped.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../core/error.h"
#include "shipped_list.h"

#define SV_RT_SHIPPED(i, stem)                                                   \
    extern const unsigned char sv_rt_shipped_so_##i[], sv_rt_shipped_lines_##i[], \
        sv_rt_shipped_src_##i[];                                                  \
    extern const size_t sv_rt_shipped_so_##i##_size;
SV_RT_SHIPPED_ALL
#undef SV_RT_SHIPPED

static const sv_rt_shipped *table(size_t *n)
{
#define SV_RT_SHIPPED(i, stem)                                                        \
    {stem, sv_rt_shipped_so_##i, 0, (const char *)sv_rt_shipped_lines_##i,             \
     (const char *)sv_rt_shipped_src_##i},
    static sv_rt_shipped t[] = {SV_RT_SHIPPED_ALL};
#undef SV_RT_SHIPPED
    static bool sized;
    if (!sized) {
        size_t k = 0;
#define SV_RT_SHIPPED(i, stem) t[k++].so_size = sv_rt_shipped_so_##i##_size;
        SV_RT_SHIPPED_ALL
#undef SV_RT_SHIPPED
        sized = true;
    }
    *n = sizeof t / sizeof *t;
    return t;
}

const sv_rt_shipped *sv_rt_shipped_find(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    size_t len = strcspn(base, ".");
    size_t n;
    const sv_rt_shipped *t = table(&n);
    for (size_t i = 0; i < n; i++)
        if (strlen(t[i].stem) == len && strncmp(t[i].stem, base, len) == 0)
            return &t[i];
    return NULL;
}

bool sv_rt_shipped_path(const sv_rt_shipped *k, char *path, size_t len, char *err,
                        size_t errlen)
{
    int fd = memfd_create("scanviz-kernel", MFD_CLOEXEC);
    if (fd < 0) {
        sv_errorf(err, errlen, "memfd_create: %s", strerror(errno));
        return false;
    }
    size_t off = 0;
    while (off < k->so_size) {
        ssize_t w = write(fd, k->so + off, k->so_size - off);
        if (w <= 0) {
            sv_errorf(err, errlen, "writing the kernel %s: %s", k->stem, strerror(errno));
            close(fd);
            return false;
        }
        off += (size_t)w;
    }
    snprintf(path, len, "/proc/self/fd/%d", fd); /* open for the process's life */
    return true;
}
