/* All-or-nothing file writes (git's lockfile pattern): PATH.XXXXXX in the
 * same folder, written, flushed, fsynced, closed, then renamed over PATH. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

bool sv_outfile_write(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 8);
    if (!tmp) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create a temporary file beside %s: %s", path,
                 strerror(errno));
        free(tmp);
        return false;
    }
    /* mkstemp makes the file 0600; give it what a plain fopen would. */
    mode_t um = umask(0);
    umask(um);
    if (fchmod(fd, 0666 & ~um) != 0) {
        snprintf(err, errlen, "cannot write %s: chmod: %s", path, strerror(errno));
        goto fail;
    }
    const unsigned char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(err, errlen, "cannot write %s: %s", path, w < 0 ? strerror(errno) : "no space");
            goto fail;
        }
        p += w;
        left -= (size_t)w;
    }
    if (fsync(fd) != 0) {
        snprintf(err, errlen, "cannot write %s: fsync: %s", path, strerror(errno));
        goto fail;
    }
    if (close(fd) != 0) {
        fd = -1;
        snprintf(err, errlen, "cannot write %s: close: %s", path, strerror(errno));
        goto fail;
    }
    fd = -1;
    if (rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write %s: rename: %s", path, strerror(errno));
        goto fail;
    }
    free(tmp);
    return true;
fail:
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    return false;
}
