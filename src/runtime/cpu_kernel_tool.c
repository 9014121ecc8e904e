/* sv-cpu-kernel: the build's tool for the shipped kernels (the chapter's and
 * the mistakes): the same scan, rewriting, header, compiler, flags and line
 * table as a student's kernel at run time (source_scan.c, cpu_compile.c),
 * ahead of time, so that running them needs no compiler.
 *   sv-cpu-kernel SRC.cu OUT.so OUT.lines INCLUDE_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_compile.h"
#include "source_scan.h"

#include "../core/fileio.h"

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: sv-cpu-kernel SRC.cu OUT.so OUT.lines INCLUDE_DIR\n");
        return 2;
    }
    char err[2048];
    size_t len;
    char *src = sv_read_bounded(argv[1], 1 << 20, "kernel", &len, err, sizeof err);
    static sv_source_scan scan;
    if (!src || !sv_source_scan_shipped(src, argv[1], &scan, err, sizeof err)) {
        fprintf(stderr, "sv-cpu-kernel: %s\n", err);
        return 1;
    }
    char *text = sv_source_cpu_text_shipped(&scan, src, argv[1]);
    const char *extra[] = {"-DSV_RT_HOSTED", "-I", argv[4], NULL};
    sv_rt_built b;
    sv_kfail_kind kind;
    int line;
    char *messages = NULL;
    if (!text || !sv_rt_cpu_compile_shipped(text, argv[1], extra, argv[4], &b, &kind, &line,
                                            &messages, err, sizeof err)) {
        fprintf(stderr, "sv-cpu-kernel: %s\n%s", err, messages ? messages : "");
        return 1;
    }
    if (!sv_write_atomic(argv[2], b.so, b.so_len, err, sizeof err) ||
        !sv_write_atomic(argv[3], b.lines, strlen(b.lines), err, sizeof err)) {
        fprintf(stderr, "sv-cpu-kernel: %s\n", err);
        return 1;
    }
    sv_rt_built_free(&b);
    free(text);
    free(src);
    free(messages);
    return 0;
}
