/* sv-cpu-kernel: the build's tool for the shipped kernels (the chapter's and
 * the mistakes): the same scan, rewriting, header, compiler, flags and line
 * table as a student's kernel at run time (source_scan.c, cpu_compile.c),
 * ahead of time, so that running them needs no compiler.
 *   sv-cpu-kernel SRC.cu OUT.so OUT.lines
 * The kernels are kernel files in the students' contract: the same walls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_compile.h"
#include "source_scan.h"

#include "../core/fileio.h"

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: sv-cpu-kernel SRC.cu OUT.so OUT.lines\n");
        return 2;
    }
    char err[2048];
    size_t len;
    char *src = sv_read_bounded(argv[1], 1 << 20, "kernel", &len, err, sizeof err);
    static sv_source_scan scan;
    sv_kfail_kind kind;
    int line;
    if (!src || !sv_source_scan_text(src, argv[1], &scan, &kind, &line, err, sizeof err) ||
        !sv_source_check_entry(&scan, NULL, SV_TYPE_INT32, &line, err, sizeof err)) {
        fprintf(stderr, "sv-cpu-kernel: %s\n", err);
        return 1;
    }
    /* a kernel file like any other, built for both types */
    char *text = sv_source_cpu_text(&scan, src, argv[1], SV_TYPE_COUNT);
    sv_rt_built b;
    bool cached;
    char *messages = NULL;
    if (!text || !sv_rt_cpu_compile(text, argv[1], &b, &cached, &kind, &line, &messages, err,
                                    sizeof err)) {
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
