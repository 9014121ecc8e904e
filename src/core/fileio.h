/* Files and faults: the one all-or-nothing writer and the one bounded reader
 * that every file scanviz writes or reads goes through.
 *
 * Writing (git's lockfile pattern):
 *     sv_file *f = sv_file_begin(path, err, errlen);   // PATH.tmp-XXXXXX beside it
 *     ... fprintf(sv_file_stream(f), ...) ...
 *     if (!sv_file_commit(f, err, errlen))             // fflush, ferror, fsync,
 *         ...                                          // fclose, rename; or undo
 * On any failure the target is untouched, the temporary file is removed and
 * err says "PATH: reason" with strerror. sv_file_abort() drops a file that
 * was begun (after an error of the caller's own).
 *
 * What a path may be:
 *   "-"              standard output; commit flushes it and checks ferror, so a
 *                    full disk or a closed pipe is reported as "stdout: ..."
 *   a regular file   replaced whole by rename, or left as it was
 *   nothing yet      created by rename
 *   a character device or a FIFO (/dev/null, /dev/stdout, a pipe; a named
 *                    pipe nothing reads is refused after SV_FIFO_WAIT_MS)
 *                    written in place as a stream and checked like stdout;
 *                    never created, renamed over or removed
 *   anything else    (a directory, a socket, a block device) refused
 * A symbolic link is followed (its target is what is replaced) only when it
 * is owned by the user running scanviz or by root; another user's link, on
 * the path or the file itself, is refused naming the link and its owner.
 *
 * Reading: sv_read_bounded() reads a whole file, or stdin for "-", and
 * refuses it as soon as it is longer than the limit given, so endless input
 * (/dev/zero, `yes`) is refused at once with small memory. The limits for
 * each kind of input are below; docs/reliability.md explains them. */
#ifndef SV_FILEIO_H
#define SV_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest accepted inputs. SV_MAX_N = 1024 values: even 1024 tokens of 128
 * characters (the longest token the value parser reads) with comments fit in
 * 1 MiB; a trace of n = 1024 as scanviz-trace writes it is about 0.5 MiB,
 * so 16 MiB leaves room for any reformatting; a benchmark table is a few
 * hundred rows. */
#define SV_LIMIT_VALUES (1u << 20)      /* --input/--file/stdin/the input box text */
/* The same for a kernel file whose host function takes up to SV_MAX_N_BLOCKS
 * = 2^20 values: 32 bytes a value. */
#define SV_LIMIT_VALUES_BLOCKS (32u << 20)
#define SV_LIMIT_TRACE (16u << 20)      /* trace JSON: --open, --trace */
/* A kernel trace of a host function's 2^20 values is about 100 MiB as JSON
 * (sv_ktrace_file_budget): a regular file that says it is one of n > 1024
 * may take up to this (sv_trace_read_limit). */
#define SV_LIMIT_TRACE_BLOCKS (128u << 20)
#define SV_LIMIT_BENCH_CSV (4u << 20)   /* --bench-csv */
/* How long sv_read_bounded waits for a writer on a named pipe. */
#define SV_FIFO_WAIT_MS 5000

typedef struct sv_file sv_file;

/* Starts writing path (see above). Returns NULL with err filled when the
 * temporary file cannot be created or path is not something it replaces. */
sv_file *sv_file_begin(const char *path, char *err, size_t errlen);
FILE *sv_file_stream(sv_file *f);
/* The name messages use: "stdout" for "-", else the path. */
const char *sv_file_name(const sv_file *f);
/* Flushes and checks everything, fsyncs, closes, renames over the target.
 * Frees f in every case. Returns false with err = "PATH: reason". */
bool sv_file_commit(sv_file *f, char *err, size_t errlen);
/* Drops what was written: the temporary file is removed, the target is left
 * as it was. Frees f; accepts NULL. */
void sv_file_abort(sv_file *f);

/* Commit in two steps, for several files that should all replace their
 * targets or none (a round export): sv_file_finish() does everything but
 * the rename; sv_file_publish() renames (and frees f); sv_file_abort() still
 * drops a finished file. */
bool sv_file_finish(sv_file *f, char *err, size_t errlen);
bool sv_file_publish(sv_file *f, char *err, size_t errlen);

/* Whether every write to f so far went through: false with err = "write
 * failed: strerror" when one failed (a full disk). */
bool sv_stream_written(FILE *f, char *err, size_t errlen);

/* Writes path all or nothing through write(obj, stream, why, whylen), which
 * returns false with why filled when it fails: then the target is left as it
 * was and err = "NAME: why". */
typedef bool (*sv_file_writer)(const void *obj, FILE *f, char *why, size_t whylen);
bool sv_file_save(const char *path, sv_file_writer write, const void *obj, char *err,
                  size_t errlen);

/* Defines `bool NAME(const TYPE *obj, const char *path, char *err, size_t
 * errlen)`, the save of one kind of file: WRITE (bool WRITE(const TYPE *,
 * FILE *, char *why, size_t whylen)) through sv_file_save. One line in each
 * file format's module (trace_file.c, ktrace_file.c). */
#define SV_FILE_SAVER(NAME, TYPE, WRITE)                                            \
    static bool NAME##_write_any(const void *obj, FILE *f, char *why, size_t whylen) \
    {                                                                               \
        return WRITE((const TYPE *)obj, f, why, whylen);                            \
    }                                                                               \
    bool NAME(const TYPE *obj, const char *path, char *err, size_t errlen)          \
    {                                                                               \
        return sv_file_save(path, NAME##_write_any, obj, err, errlen);              \
    }

/* Writes len bytes to path all or nothing. */
bool sv_write_atomic(const char *path, const void *data, size_t len, char *err, size_t errlen);

/* Writes len bytes to a new file at path, all or nothing, never over
 * anything that is there (a file, a symbolic link, a dangling one): the
 * bytes go to a temporary file beside it, synced, then link(2) gives it the
 * name, which fails when the name exists. The file gets 0666 & ~umask.
 * false with err = "PATH: the file exists" (*existed set) or the reason. */
bool sv_write_new(const char *path, const void *data, size_t len, bool *existed, char *err,
                  size_t errlen);

/* Creates dir (mode 0700) when it is missing, and checks that it is a
 * folder of the user's own and not a symbolic link (another user's folder
 * or link could be read or replaced). what names it in err ("%s: refused
 * as the kernel cache: it is a symbolic link"). */
bool sv_private_dir(const char *dir, const char *what, char *err, size_t errlen);

/* An XDG base folder: $var when it is an absolute path, else
 * $HOME/home_rel (".cache", ".local/state"). false with err = "no WHAT:
 * neither $VAR nor $HOME is set" (or the path is too long). */
bool sv_xdg_base(const char *var, const char *home_rel, const char *what, char *base,
                 size_t len, char *err, size_t errlen);

/* Creates dir and the folders above it that are missing, each with mode. */
bool sv_mkdir_parents(const char *dir, unsigned mode, char *err, size_t errlen);

/* Flushes stdout and checks it: false with err = "stdout: strerror" when a
 * write or the flush failed (a full disk, a closed pipe). */
bool sv_stdout_check(char *err, size_t errlen);

/* Reads the whole of path ("-": stdin) as text, NUL-terminated, *len (may be
 * NULL) bytes. Refuses more than limit bytes as soon as byte limit + 1 is read,
 * and a NUL byte. A named pipe nothing writes to is refused after
 * SV_FIFO_WAIT_MS instead of waiting forever. Returns NULL with err =
 * "NAME: reason", NAME "stdin" for "-", e.g. "/dev/zero: longer than the
 * limit of 1 MiB for values". what names the kind of input in that message.
 * The caller frees the result. */
char *sv_read_bounded(const char *path, size_t limit, const char *what, size_t *len,
                      char *err, size_t errlen);

/* Reads the whole of path, which must be a regular file: a named pipe, a
 * device, a folder or a socket is refused at once ("PATH: not a regular
 * file (a named pipe)"), never waited on; so is a file longer than limit.
 * text: a NUL byte is refused too. The result is NUL-terminated either way
 * (*len bytes before it); the caller frees it. NULL with err. */
char *sv_read_regular(const char *path, size_t limit, const char *what, bool text, size_t *len,
                      char *err, size_t errlen);
/* The same for a file opened already (fd, which it closes; name for the
 * messages): what a caller that opens with openat(..., O_NOFOLLOW) reads. */
char *sv_read_regular_fd(int fd, const char *name, size_t limit, const char *what, bool text,
                         size_t *len, char *err, size_t errlen);

/* The name messages use for path: "stdin" for "-", else path. */
const char *sv_path_name(const char *path);

#ifdef __cplusplus
}
#endif

#endif
