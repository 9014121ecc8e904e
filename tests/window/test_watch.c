/* The kernel file's watch (src/app/watch.c) and --new-kernel, without a
 * window: a write in place, a rename over the file (as vim saves), another
 * file in the folder (not a save), the file deleted and created again, a
 * slow write in place (one save, seen whole); with inotify and with the
 * polling fallback. And the starting file written all or nothing, never
 * over an existing file. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app.h"
#include "watch.h"

#include "../expect.h"

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* A write in place in three parts, 30 ms apart, by another process: opened
 * and truncated, the first half, the rest. */
static void put_slowly(const char *path, const char *first, const char *rest)
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        exit(1);
    }
    if (pid > 0)
        return;
    FILE *f = fopen(path, "w");
    if (!f)
        _exit(1);
    setvbuf(f, NULL, _IONBF, 0);
    pause_ms(30);
    fputs(first, f);
    pause_ms(30);
    fputs(rest, f);
    fclose(f);
    _exit(0);
}

static void read_all(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
}

static void watch_one(const char *dir, bool poll)
{
    char path[512], tmp[512], other[512], err[256];
    snprintf(path, sizeof path, "%s/scan.cu", dir);
    snprintf(tmp, sizeof tmp, "%s/.scan.cu.swp", dir);
    snprintf(other, sizeof other, "%s/notes.txt", dir);
    put(path, "one\n");
    sv_watch *w = sv_watch_open(path, poll, err, sizeof err);
    CHECK_MSG(w != NULL, "%s", err);
    if (!w)
        return;
    CHECK_STR(sv_watch_method(w), poll ? "polling" : "inotify");
    CHECK(!sv_watch_wait(w, 120)); /* nothing yet */
    pause_ms(20);                  /* a new modification time for polling */
    put(path, "two, a longer text\n");
    CHECK_MSG(sv_watch_wait(w, 2000), "a write in place is a save (%s)", sv_watch_method(w));
    CHECK(!sv_watch_wait(w, 120));
    pause_ms(20);
    put(tmp, "three\n");
    CHECK_MSG(rename(tmp, path) == 0, "rename");
    CHECK_MSG(sv_watch_wait(w, 2000), "a rename over the file is a save (%s)", sv_watch_method(w));
    put(other, "not the kernel\n");
    CHECK_MSG(!sv_watch_wait(w, 200), "another file in the folder is no save (%s)",
              sv_watch_method(w));
    unlink(path);
    CHECK_MSG(!sv_watch_wait(w, 200), "a deletion is no save (%s)", sv_watch_method(w));
    put(path, "four, again\n");
    CHECK_MSG(sv_watch_wait(w, 2000), "the file created again is a save (%s)",
              sv_watch_method(w));
    /* A slow write in place is one save, seen whole: when the wait says
     * saved, the file holds all of it. */
    put_slowly(path, "five, the first half; ", "and the rest\n");
    CHECK_MSG(sv_watch_wait(w, 2000), "a slow write in place is a save (%s)", sv_watch_method(w));
    char buf[128];
    read_all(path, buf, sizeof buf);
    CHECK_MSG(strcmp(buf, "five, the first half; and the rest\n") == 0,
              "the save is seen whole (%s): \"%s\"", sv_watch_method(w), buf);
    while (wait(NULL) > 0)
        ;
    CHECK_MSG(!sv_watch_wait(w, 200), "a slow write in place is one save (%s)", sv_watch_method(w));
    sv_watch_close(w);
    unlink(path);
    unlink(other);
}

static void new_kernel(const char *dir)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/mine.cu", dir);
    unlink(path);
    CHECK_MSG(sv_app_new_kernel(path, err, sizeof err), "%s", err);
    /* the chapter's kernel, byte for byte */
    static char got[1 << 16], want[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t ng = f ? fread(got, 1, sizeof got, f) : 0;
    if (f)
        fclose(f);
    f = fopen(SV_SOURCE_ROOT "/kernels/hillis_steele.cu", "rb");
    size_t nw = f ? fread(want, 1, sizeof want, f) : 0;
    if (f)
        fclose(f);
    CHECK_MSG(nw > 0 && ng == nw && memcmp(got, want, nw) == 0,
              "the starting file is kernels/hillis_steele.cu (%zu of %zu bytes)", ng, nw);
    char buf[256] = "";
    put(path, "my own work\n");
    CHECK(!sv_app_new_kernel(path, err, sizeof err));
    CHECK_MSG(strstr(err, "mine.cu") && strstr(err, "exists"), "names the file: %s", err);
    f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    CHECK_STR(buf, "my own work\n"); /* never overwritten */
    unlink(path);
}

int main(void)
{
    char dir[] = "/tmp/sv-test-watch-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    watch_one(dir, false);
    watch_one(dir, true);
    new_kernel(dir);
    rmdir(dir);
    return check_report("watch: all checks passed");
}
