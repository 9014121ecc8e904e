/* The all-or-nothing writer and the bounded reader (fileio.h).
 *
 * Under the hood: the temporary file is made with mkstemp() in the target's
 * folder (a rename is atomic only within one file system), named
 * "PATH.tmp-XXXXXX", so a crash can leave at most such a file beside the
 * target, never a cut-off target. fsync before the rename makes the data
 * reach the disk before the name does (ext4 and others may otherwise show
 * an empty file after a power cut). The new file gets mode 0666 & ~umask,
 * as fopen would have given it, or the old file's mode when it replaces one. */
/* realpath() and readlink() are X/Open / POSIX (glibc declares them under
 * _XOPEN_SOURCE >= 500). */
#define _XOPEN_SOURCE 700
#include "fileio.h"
#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct sv_file {
    FILE *f;
    char *path;  /* the target; NULL for stdout */
    char *tmp;   /* the temporary file; NULL when written in place */
    bool finished;
};

const char *sv_path_name(const char *path)
{
    return path && strcmp(path, "-") == 0 ? "stdin" : path ? path : "(no path)";
}

const char *sv_file_name(const sv_file *f)
{
    return f->path ? f->path : "stdout";
}

FILE *sv_file_stream(sv_file *f)
{
    return f->f;
}

static void file_free(sv_file *f)
{
    free(f->path);
    free(f->tmp);
    free(f);
}

/* Whether a symbolic link owned by uid may be followed when writing: only
 * a link of the user running scanviz, or of root (who can write anywhere
 * anyway: /dev/stdout, /dev/fd/N, links an administrator made). A link
 * another user planted in a shared folder is not: it would make scanviz
 * replace whatever that user points it at (the rule of the kernel's
 * fs.protected_symlinks, applied in every folder, not only sticky ones). */
static bool link_trusted(uid_t uid)
{
    return uid == geteuid() || uid == 0;
}

static void link_refused(const char *path, const char *link, uid_t uid, char *err, size_t errlen)
{
    const struct passwd *pw = getpwuid(uid);
    char who[96];
    if (pw && pw->pw_name)
        sv_errorf(who, sizeof who, "%s (uid %lu)", pw->pw_name, (unsigned long)uid);
    else
        sv_errorf(who, sizeof who, "uid %lu", (unsigned long)uid);
    if (strcmp(path, link) == 0)
        sv_errorf(err, errlen, "%s: a symbolic link owned by %s, not by you: not followed "
                  "(another user's link could point anywhere; remove it or write elsewhere)",
                  path, who);
    else
        sv_errorf(err, errlen, "%s: the symbolic link %s is owned by %s, not by you: not "
                  "followed (another user's link could point anywhere; remove it or write "
                  "elsewhere)", path, link, who);
}

/* size bytes for a path's working copy, or NULL with err = "NAME: out of
 * memory". */
static char *path_buffer(const char *name, size_t size, char *err, size_t errlen)
{
    char *buf = malloc(size);
    if (!buf)
        sv_errorf(err, errlen, "%s: out of memory", name);
    return buf;
}

/* Checks every symbolic link that writing to path would follow (the
 * folders on the way and the file itself, and the links they lead to, at
 * most 40 as the kernel allows) against link_trusted(). Returns false with
 * err filled for an untrusted link or a loop. */
static bool links_trusted(const char *orig, const char *path, int depth, char *err, size_t errlen)
{
    if (depth > 40) {
        sv_errorf(err, errlen, "%s: %s", orig, strerror(ELOOP));
        return false;
    }
    size_t len = strlen(path);
    char *buf = path_buffer(orig, len + 1, err, errlen);
    if (!buf)
        return false;
    bool ok = true;
    for (size_t end = 1; end <= len && ok; end++) {
        if (end < len && path[end] != '/')
            continue;
        memcpy(buf, path, end);
        buf[end] = '\0';
        struct stat lst;
        if (lstat(buf, &lst) != 0 || !S_ISLNK(lst.st_mode))
            continue; /* not there (yet) or not a link: stat() reports the rest */
        if (!link_trusted(lst.st_uid)) {
            link_refused(orig, buf, lst.st_uid, err, errlen);
            ok = false;
            break;
        }
        char target[PATH_MAX];
        ssize_t tl = readlink(buf, target, sizeof target - 1);
        if (tl < 0)
            break;
        target[tl] = '\0';
        /* The rest of the path, resolved from where the link points. */
        const char *slash = strrchr(buf, '/');
        size_t dirlen = target[0] == '/' || !slash ? 0 : (size_t)(slash - buf) + 1;
        size_t nl = dirlen + (size_t)tl + (len - end) + 1;
        char *next = path_buffer(orig, nl, err, errlen);
        if (!next) {
            ok = false;
            break;
        }
        snprintf(next, nl, "%.*s%s%s", (int)dirlen, buf, target, path + end);
        ok = links_trusted(orig, next, depth + 1, err, errlen);
        free(next);
        break;
    }
    free(buf);
    return ok;
}

/* fd, opened O_NONBLOCK (a named pipe), as a blocking stream of mode; NULL
 * with err filled (fd closed) when fdopen fails. */
static FILE *blocking_stream(int fd, const char *mode, const char *path, char *err, size_t errlen)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, mode);
    if (!f) {
        sv_errorf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

/* A named pipe to write: opening one that nothing reads would wait forever,
 * so it is opened without blocking (ENXIO while there is no reader), tried
 * for SV_FIFO_WAIT_MS, then written as usual. NULL with err filled. */
static FILE *open_fifo_out(const char *path, char *err, size_t errlen)
{
    int fd = -1;
    for (int waited = 0;; waited += 50) {
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0 || errno != ENXIO || waited >= SV_FIFO_WAIT_MS)
            break;
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (fd < 0) {
        if (errno == ENXIO)
            sv_errorf(err, errlen, "%s: a named pipe that nothing reads: waited %d s for a "
                      "reader (start the program that reads it first, or give a file)", path,
                      SV_FIFO_WAIT_MS / 1000);
        else
            sv_errorf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    return blocking_stream(fd, "w", path, err, errlen);
}

sv_file *sv_file_begin(const char *path, char *err, size_t errlen)
{
    sv_file *f = calloc(1, sizeof *f);
    if (!f) {
        sv_errorf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    if (strcmp(path, "-") == 0) {
        f->f = stdout;
        return f;
    }
    /* A symbolic link: its target is what is replaced (the temporary file
     * goes beside the target, so the rename stays on one file system), when
     * every link on the way is the user's own or root's (links_trusted). */
    if (!links_trusted(path, path, 0, err, errlen)) {
        free(f);
        return NULL;
    }
    struct stat lst;
    char *real = NULL;
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
        real = realpath(path, NULL);
    f->path = real ? real : strdup(path);
    if (!f->path)
        goto fail_oom;
    path = f->path;
    struct stat st;
    mode_t mode = 0;
    bool have_mode = false;
    if (stat(path, &st) == 0) {
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            /* A device or a pipe: written in place, as a stream. */
            if (!(f->f = S_ISFIFO(st.st_mode) ? open_fifo_out(path, err, errlen)
                                              : fopen(path, "w"))) {
                if (!S_ISFIFO(st.st_mode))
                    sv_errorf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
                goto fail;
            }
            return f;
        }
        if (!S_ISREG(st.st_mode)) {
            sv_errorf(err, errlen, "%s: not a regular file (%s); only a regular file or a new "
                      "path is replaced", path, S_ISDIR(st.st_mode) ? "a directory" : "a special file");
            goto fail;
        }
        mode = st.st_mode & 07777;
        have_mode = true;
    } else if (errno != ENOENT) {
        sv_errorf(err, errlen, "%s: %s", path, strerror(errno));
        goto fail;
    }
    size_t len = strlen(path);
    if (!(f->tmp = malloc(len + 16)))
        goto fail_oom;
    memcpy(f->tmp, path, len);
    memcpy(f->tmp + len, ".tmp-XXXXXX", 12);
    int fd = mkstemp(f->tmp);
    if (fd < 0) {
        sv_errorf(err, errlen, "%s: cannot create a temporary file beside it: %s", path,
                  strerror(errno));
        goto fail;
    }
    if (!have_mode) {
        mode_t um = umask(0);
        umask(um);
        mode = 0666 & ~um;
    }
    (void)fchmod(fd, mode); /* mkstemp gives 0600 */
    if (!(f->f = fdopen(fd, "w"))) {
        sv_errorf(err, errlen, "%s: %s", path, strerror(errno));
        close(fd);
        unlink(f->tmp);
        goto fail;
    }
    return f;
fail_oom:
    sv_errorf(err, errlen, "%s: out of memory", path);
fail:
    file_free(f);
    return NULL;
}

bool sv_stdout_check(char *err, size_t errlen)
{
    /* ferror first: a failed write earlier leaves the error flag set and
     * errno may since have changed; fflush then reports what it can. */
    int bad = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0 || bad || ferror(stdout)) {
        sv_errorf(err, errlen, "stdout: write failed: %s", errno ? strerror(errno) : "I/O error");
        return false;
    }
    return true;
}

bool sv_file_finish(sv_file *f, char *err, size_t errlen)
{
    if (!f->path) {
        bool ok = sv_stdout_check(err, errlen);
        f->f = NULL;
        f->finished = true;
        return ok;
    }
    const char *name = f->path;
    int bad = ferror(f->f);
    errno = 0;
    bool ok = !bad && fflush(f->f) == 0 && !ferror(f->f);
    int e = errno;
    if (ok && f->tmp && fsync(fileno(f->f)) != 0) {
        ok = false;
        e = errno;
    }
    if (fclose(f->f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    f->f = NULL;
    if (!ok) {
        sv_errorf(err, errlen, "%s: write failed: %s%s", name, e ? strerror(e) : "I/O error",
                  f->tmp ? " (the file was left as it was)" : "");
        return false;
    }
    f->finished = true;
    return true;
}

bool sv_file_publish(sv_file *f, char *err, size_t errlen)
{
    bool ok = true;
    if (f->tmp && rename(f->tmp, f->path) != 0) {
        sv_errorf(err, errlen, "%s: cannot replace it: %s", f->path, strerror(errno));
        unlink(f->tmp);
        ok = false;
    }
    file_free(f);
    return ok;
}

bool sv_file_commit(sv_file *f, char *err, size_t errlen)
{
    if (!sv_file_finish(f, err, errlen)) {
        sv_file_abort(f);
        return false;
    }
    return sv_file_publish(f, err, errlen);
}

void sv_file_abort(sv_file *f)
{
    if (!f)
        return;
    if (f->f && f->path)
        fclose(f->f);
    if (f->tmp)
        unlink(f->tmp);
    file_free(f);
}

bool sv_stream_written(FILE *f, char *err, size_t errlen)
{
    if (!ferror(f))
        return true;
    sv_errorf(err, errlen, "write failed: %s", strerror(errno));
    return false;
}

bool sv_file_save(const char *path, sv_file_writer write, const void *obj, char *err,
                  size_t errlen)
{
    char why[256];
    sv_file *f = sv_file_begin(path, err, errlen);
    if (!f)
        return false;
    if (!write(obj, sv_file_stream(f), why, sizeof why)) {
        sv_errorf(err, errlen, "%s: %s", sv_file_name(f), why);
        sv_file_abort(f);
        return false;
    }
    return sv_file_commit(f, err, errlen);
}

bool sv_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen)
{
    sv_file *f = sv_file_begin(path, err, errlen);
    if (!f)
        return false;
    if (len && fwrite(data, 1, len, f->f) != len) {
        sv_errorf(err, errlen, "%s: write failed: %s", sv_file_name(f), strerror(errno));
        sv_file_abort(f);
        return false;
    }
    return sv_file_commit(f, err, errlen);
}

/* "1 MiB", "16 MiB", "512 KiB", "100 bytes". */
static void format_size(size_t n, char *buf, size_t len)
{
    if (n >= (1u << 20) && n % (1u << 20) == 0)
        sv_errorf(buf, len, "%zu MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        sv_errorf(buf, len, "%zu KiB", n >> 10);
    else
        sv_errorf(buf, len, "%zu bytes", n);
}

/* Opens path for reading. A named pipe is opened without blocking and
 * given SV_FIFO_WAIT_MS for a writer to appear (open() of a FIFO with no
 * writer would wait forever, and so would a read); then read as usual. */
static FILE *open_input(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        sv_errorf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        int r;
        do
            r = poll(&pf, 1, SV_FIFO_WAIT_MS);
        while (r < 0 && errno == EINTR);
        if (r <= 0) {
            sv_errorf(err, errlen, "%s: a named pipe that nothing writes to: waited %d s for "
                      "a writer (start the program that writes it first, or give a file)",
                      path, SV_FIFO_WAIT_MS / 1000);
            close(fd);
            return NULL;
        }
    }
    /* Blocking reads from here on (a file, a device, a pipe with a writer). */
    return blocking_stream(fd, "rb", path, err, errlen);
}

char *sv_read_bounded(const char *path, size_t limit, const char *what, size_t *len_out,
                      char *err, size_t errlen)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = sv_path_name(path);
    FILE *f = is_stdin ? stdin : open_input(path, err, errlen);
    char *data = NULL;
    size_t len = 0, cap = 0;
    if (!f)
        return NULL;
    for (;;) {
        /* Room for limit + 1 bytes (one past the limit shows it is longer)
         * and the NUL: never more, however long the stream. */
        if (len + 1 >= cap) {
            size_t ncap = cap ? cap * 2 : 8192;
            if (ncap > limit + 2)
                ncap = limit + 2;
            char *nd = realloc(data, ncap);
            if (!nd) {
                sv_errorf(err, errlen, "%s: out of memory", name);
                goto fail;
            }
            data = nd;
            cap = ncap;
        }
        size_t want = cap - 1 - len;
        size_t got = fread(data + len, 1, want, f);
        len += got;
        if (len > limit) {
            char sz[32];
            format_size(limit, sz, sizeof sz);
            sv_errorf(err, errlen, "%s: longer than the limit of %s for %s", name, sz, what);
            goto fail;
        }
        if (got < want)
            break;
    }
    if (ferror(f)) {
        sv_errorf(err, errlen, "%s: cannot read: %s", name, strerror(errno));
        goto fail;
    }
    if (memchr(data, '\0', len)) {
        sv_errorf(err, errlen, "%s: not a text file (contains a NUL byte)", name);
        goto fail;
    }
    data[len] = '\0';
    if (!is_stdin)
        fclose(f);
    if (len_out)
        *len_out = len;
    return data;
fail:
    free(data);
    if (!is_stdin)
        fclose(f);
    return NULL;
}

/* ---- New files and private folders ---------------------------------------- */

static bool write_all(int fd, const unsigned char *data, size_t len)
{
    size_t at = 0;
    while (at < len) {
        ssize_t w = write(fd, data + at, len - at);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        at += (size_t)w;
    }
    return true;
}

bool sv_write_new(const char *path, const void *data, size_t len, bool *existed, char *err,
                  size_t errlen)
{
    if (existed)
        *existed = false;
    if (!links_trusted(path, path, 0, err, errlen))
        return false;
    size_t plen = strlen(path);
    char *tmp = path_buffer(path, plen + 16, err, errlen);
    if (!tmp)
        return false;
    snprintf(tmp, plen + 16, "%s.new-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        sv_errorf(err, errlen, "%s: %s", path, strerror(errno));
        free(tmp);
        return false;
    }
    mode_t mask = umask(0);
    umask(mask);
    bool ok = write_all(fd, data, len) && fchmod(fd, 0666 & ~mask) == 0 && fsync(fd) == 0;
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok && link(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    unlink(tmp);
    free(tmp);
    if (!ok) {
        if (e == EEXIST && existed)
            *existed = true;
        sv_errorf(err, errlen, "%s: %s", path, e == EEXIST ? "the file exists" : strerror(e));
    }
    return ok;
}

bool sv_private_dir(const char *dir, const char *what, char *err, size_t errlen)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        sv_errorf(err, errlen, "%s: %s", dir, strerror(errno));
        return false;
    }
    struct stat st;
    if (lstat(dir, &st) != 0) {
        sv_errorf(err, errlen, "%s: %s", dir, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid()) {
        sv_errorf(err, errlen, "%s: refused as %s: it is %s", dir, what,
                  S_ISLNK(st.st_mode) ? "a symbolic link" : !S_ISDIR(st.st_mode)
                                                              ? "not a folder"
                                                              : "another user's");
        return false;
    }
    return true;
}

bool sv_xdg_base(const char *var, const char *home_rel, const char *what, char *base,
                 size_t len, char *err, size_t errlen)
{
    const char *xdg = getenv(var), *home = getenv("HOME");
    int m = -1;
    if (xdg && xdg[0] == '/')
        m = snprintf(base, len, "%s", xdg);
    else if (home && home[0] == '/')
        m = snprintf(base, len, "%s/%s", home, home_rel);
    else
        sv_errorf(err, errlen, "no %s: neither $%s nor $HOME is set", what, var);
    if (m >= 0 && (size_t)m >= len)
        sv_errorf(err, errlen, "no %s: the path is too long", what);
    return m >= 0 && (size_t)m < len;
}

bool sv_mkdir_parents(const char *dir, unsigned mode, char *err, size_t errlen)
{
    char *p = strdup(dir);
    if (!p) {
        sv_errorf(err, errlen, "%s: out of memory", dir);
        return false;
    }
    bool ok = true;
    for (char *c = p + 1; ok; c++) {
        if (*c != '/' && *c != '\0')
            continue;
        char keep = *c;
        *c = '\0';
        if (mkdir(p, (mode_t)mode) != 0 && errno != EEXIST) {
            sv_errorf(err, errlen, "%s: cannot create it: %s", p, strerror(errno));
            ok = false;
        }
        *c = keep;
        if (!keep)
            break;
    }
    free(p);
    return ok;
}

char *sv_read_regular(const char *path, size_t limit, const char *what, bool text, size_t *len_out,
                      char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        sv_errorf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    return sv_read_regular_fd(fd, path, limit, what, text, len_out, err, errlen);
}

char *sv_read_regular_fd(int fd, const char *path, size_t limit, const char *what, bool text,
                         size_t *len_out, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const char *kind = S_ISFIFO(st.st_mode)  ? "a named pipe"
                           : S_ISDIR(st.st_mode) ? "a folder"
                           : S_ISCHR(st.st_mode) ? "a device"
                           : S_ISBLK(st.st_mode) ? "a device"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "not a file";
        sv_errorf(err, errlen, "%s: not a regular file (%s), refused as %s", path, kind, what);
        close(fd);
        return NULL;
    }
    if ((unsigned long long)st.st_size > limit) {
        char sz[32];
        format_size(limit, sz, sizeof sz);
        sv_errorf(err, errlen, "%s: longer than the limit of %s for %s", path, sz, what);
        close(fd);
        return NULL;
    }
    size_t cap = (size_t)st.st_size + 2, len = 0;
    char *data = malloc(cap);
    if (!data) {
        sv_errorf(err, errlen, "%s: out of memory", path);
        close(fd);
        return NULL;
    }
    for (;;) {
        if (len + 1 >= cap) { /* it grew while read: bounded all the same */
            size_t ncap = cap * 2 > limit + 2 ? limit + 2 : cap * 2;
            char *nd = ncap > cap ? realloc(data, ncap) : NULL;
            if (!nd) {
                sv_errorf(err, errlen, "%s: longer than the limit for %s", path, what);
                goto fail;
            }
            data = nd;
            cap = ncap;
        }
        ssize_t got = read(fd, data + len, cap - 1 - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            sv_errorf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
            goto fail;
        }
        if (got == 0)
            break;
        len += (size_t)got;
        if (len > limit) {
            sv_errorf(err, errlen, "%s: longer than the limit for %s", path, what);
            goto fail;
        }
    }
    if (text && memchr(data, '\0', len)) {
        sv_errorf(err, errlen, "%s: not a text file (contains a NUL byte)", path);
        goto fail;
    }
    data[len] = '\0';
    close(fd);
    if (len_out)
        *len_out = len;
    return data;
fail:
    free(data);
    close(fd);
    return NULL;
}
