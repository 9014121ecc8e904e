/* Watching one file for saves (issue 18: a kernel file re-runs on every
 * save). The folder is watched, not the file: editors such as vim save by
 * writing a new file and renaming it over the old one, which silences a
 * watch on the file itself. With inotify: IN_CLOSE_WRITE | IN_MOVED_TO on
 * the folder, filtered by the file's name (a write in place ends with a
 * close after writing, a rename-into is a move to the name). Without
 * inotify (another system, or inotify_init failing: no more instances),
 * the file's modification time, size and inode are polled, and a change
 * counts once the file has stood still for one poll (a write in place
 * caught between its truncation and its last write is one save, seen
 * whole). Either way the
 * watch survives the file being deleted and created again.
 *
 * No SDL, no threads: the caller waits in sv_watch_wait (app_kfile.c does,
 * in its worker thread). Library code: it never prints. */
#ifndef SV_WATCH_H
#define SV_WATCH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sv_watch sv_watch;

/* Watches path (its folder must exist; the file need not); poll: poll even
 * where inotify works (the tests of the fallback). NULL with err filled
 * when the folder cannot be watched or polled. */
sv_watch *sv_watch_open(const char *path, bool poll, char *err, size_t errlen);
/* Waits up to timeout_ms (0: only checks) for a save of the file: true
 * when it was written (closed after writing) or renamed or created into
 * place since the last call. Several saves in one wait are one change. */
bool sv_watch_wait(sv_watch *w, int timeout_ms);
/* "inotify" or "polling": how the file is watched (for the state line). */
const char *sv_watch_method(const sv_watch *w);
void sv_watch_close(sv_watch *w); /* accepts NULL */

#endif
