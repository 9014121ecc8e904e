/* Watching one file for saves: the folder through inotify, else polling
 * (watch.h). */
#define _GNU_SOURCE
#include "watch.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "../core/error.h"

#define SV_WATCH_POLL_MS 50 /* how often the fallback looks at the file */
/* Polling sees a write in place part-way (opened and truncated, then
 * written): a change counts once the file has looked the same for one poll,
 * or after this long when it keeps changing. */
#define SV_WATCH_SETTLE_MAX_MS 1000

struct sv_watch {
    char *path;        /* the file as given */
    char *name;        /* its name in the folder (points into path) */
    int fd;            /* inotify; -1: polling */
    /* polling: the file as last seen (exists false: absent) */
    bool exists;
    struct timespec mtime;
    off_t size;
    ino_t ino;
};

/* The file's state now, for polling. */
static void look(const char *path, bool *exists, struct timespec *mtime, off_t *size, ino_t *ino)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        *exists = false;
        memset(mtime, 0, sizeof *mtime);
        *size = 0;
        *ino = 0;
        return;
    }
    *exists = true;
    *mtime = st.st_mtim;
    *size = st.st_size;
    *ino = st.st_ino;
}

sv_watch *sv_watch_open(const char *path, bool poll_only, char *err, size_t errlen)
{
    if (!path || !*path)
        return sv_errorf(err, errlen, "no file to watch"), NULL;
    sv_watch *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        free(w);
        return sv_errorf(err, errlen, "out of memory"), NULL;
    }
    char *slash = strrchr(w->path, '/');
    w->name = slash ? slash + 1 : w->path;
    w->fd = -1;
    if (!*w->name) {
        sv_watch_close(w);
        return sv_errorf(err, errlen, "\"%s\" names a folder, not a file", path), NULL;
    }
    /* The folder: "." for a bare name, "/" for "/name". */
    char dir[PATH_MAX];
    size_t dlen = slash ? (size_t)(slash - w->path) : 0;
    if (!slash)
        strcpy(dir, ".");
    else if (dlen == 0)
        strcpy(dir, "/");
    else if (dlen < sizeof dir) {
        memcpy(dir, w->path, dlen);
        dir[dlen] = '\0';
    } else {
        sv_watch_close(w);
        return sv_errorf(err, errlen, "\"%s\": the path is too long", path), NULL;
    }
    struct stat st;
    int e = stat(dir, &st) != 0 ? errno : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
    if (e) {
        sv_watch_close(w);
        return sv_errorf(err, errlen, "cannot watch the folder \"%s\": %s", dir,
                         strerror(e)), NULL;
    }
#ifdef __linux__
    if (!poll_only) {
        w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (w->fd >= 0 && inotify_add_watch(w->fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
            close(w->fd);
            w->fd = -1; /* e.g. the folder's file system has no inotify: poll */
        }
    }
#else
    (void)poll_only;
#endif
    look(w->path, &w->exists, &w->mtime, &w->size, &w->ino);
    return w;
}

const char *sv_watch_method(const sv_watch *w)
{
    return w && w->fd >= 0 ? "inotify" : "polling";
}

/* Polling: whether the file differs from when last seen (created, or a new
 * modification time, size or inode). A deletion is no save: the next file
 * there is. */
static bool poll_changed(sv_watch *w)
{
    bool exists;
    struct timespec mtime;
    off_t size;
    ino_t ino;
    look(w->path, &exists, &mtime, &size, &ino);
    bool changed = exists && (!w->exists || mtime.tv_sec != w->mtime.tv_sec ||
                              mtime.tv_nsec != w->mtime.tv_nsec || size != w->size ||
                              ino != w->ino);
    w->exists = exists;
    w->mtime = mtime;
    w->size = size;
    w->ino = ino;
    return changed;
}

#ifdef __linux__
/* Reads every pending event: whether one was about the file. */
static bool drain(sv_watch *w)
{
    bool hit = false;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (;;) {
        ssize_t len = read(w->fd, buf, sizeof buf);
        if (len <= 0)
            return hit; /* EAGAIN: nothing more */
        for (char *p = buf; p < buf + len;) {
            const struct inotify_event *ev = (const struct inotify_event *)p;
            if (ev->len > 0 && strcmp(ev->name, w->name) == 0)
                hit = true;
            if (ev->mask & IN_Q_OVERFLOW)
                hit = true; /* events were lost: assume a save */
            p += sizeof *ev + ev->len;
        }
    }
}
#endif

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Polling, a change just seen: waits until the file has looked the same
 * for one poll (at most SV_WATCH_SETTLE_MAX_MS), so that a write in place
 * seen between its truncation and its last write is one save, seen whole.
 * True: the save stands (a file deleted meanwhile is no save). */
static bool settle(sv_watch *w)
{
    long end = now_ms() + SV_WATCH_SETTLE_MAX_MS;
    do
        sleep_ms(SV_WATCH_POLL_MS);
    while (poll_changed(w) && now_ms() < end);
    return w->exists;
}

bool sv_watch_wait(sv_watch *w, int timeout_ms)
{
    if (!w)
        return false;
#ifdef __linux__
    if (w->fd >= 0) {
        struct pollfd p = {.fd = w->fd, .events = POLLIN};
        if (poll(&p, 1, timeout_ms < 0 ? 0 : timeout_ms) > 0 && drain(w))
            return true;
        return false;
    }
#endif
    long end = now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
    for (;;) {
        if (poll_changed(w))
            return settle(w);
        long left = end - now_ms();
        if (left <= 0)
            return false;
        sleep_ms(left < SV_WATCH_POLL_MS ? left : SV_WATCH_POLL_MS);
    }
}

void sv_watch_close(sv_watch *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        close(w->fd);
    free(w->path);
    free(w);
}
