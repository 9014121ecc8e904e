/* An exercise's files as sv_exercise_read finds them: a whole file is read;
 * a kernel file a source tree keeps only as its diff (start.diff: the build
 * writes start.cu, assets/exercises/meson.build) is refused with words that
 * say so, and a file that is simply missing says it cannot be opened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../expect.h"
#include "exercise.h"

static void put(const char *dir, const char *file, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "w");
    CHECK_MSG(f != NULL, "cannot write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

int main(void)
{
    char root[512], dir[600], err[1024], path[1024];
    check_tmpdir(root, sizeof root, "sv-exercise-files");
    snprintf(dir, sizeof dir, "%s/guard", root);
    CHECK(mkdir(dir, 0700) == 0);
    put(root, "sequence", "guard\n");
    put(dir, "solution.cu", "__global__ void scan(const int *in, int *out, int n) {}\n");
    put(dir, "start.diff", "/* Exercise guard */\n--- a/starter.cu\n+++ b/start.cu\n");

    char *text = sv_exercise_read(root, "guard", "solution.cu", 4096, err, sizeof err);
    CHECK(text && strstr(text, "__global__"));
    free(text);
    text = sv_exercise_read(root, "guard", "start.cu", 4096, err, sizeof err);
    CHECK(text == NULL);
    CHECK_CONTAINS(err, "exercise guard's start.cu is written by the build");
    free(text);
    text = sv_exercise_read(root, "guard", "hint-1.txt", 4096, err, sizeof err);
    CHECK(text == NULL);
    CHECK_CONTAINS(err, "hint-1.txt");
    CHECK_MSG(!strstr(err, "written by the build"), "a missing text is not a built file: %s", err);
    free(text);

    const char *files[] = {"sequence", "guard/solution.cu", "guard/start.diff"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        unlink(path);
    }
    rmdir(dir);
    rmdir(root);
    return check_report("all exercise file checks passed");
}
