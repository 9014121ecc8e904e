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
    char so[4096], lp[4096];
    sv_rt_lines lines;
    bool cached;
    sv_kfail_kind kind;
    int line;
    char *messages = NULL;
    if (!text || !sv_rt_cpu_compile_ex(text, argv[1], extra, so, sizeof so, lp, sizeof lp, &lines,
                                       &cached, &kind, &line, &messages, err, sizeof err)) {
        fprintf(stderr, "sv-cpu-kernel: %s\n%s", err, messages ? messages : "");
        return 1;
    }
    sv_rt_lines_free(&lines);
    size_t n1 = 0, n2;
    char *sobytes = malloc(64u << 20);
    FILE *f = fopen(so, "rb");
    if (sobytes && f)
        n1 = fread(sobytes, 1, 64u << 20, f);
    if (f)
        fclose(f);
    if (n1 == 0) {
        free(sobytes);
        sobytes = NULL;
        snprintf(err, sizeof err, "%.1900s: cannot read the compiled kernel", so);
    }
    char *ltext = sv_read_bounded(lp, 64u << 20, "line table", &n2, err, sizeof err);
    if (!sobytes || !ltext || !sv_write_atomic(argv[2], sobytes, n1, err, sizeof err) ||
        !sv_write_atomic(argv[3], ltext, n2, err, sizeof err)) {
        fprintf(stderr, "sv-cpu-kernel: %s\n", err);
        return 1;
    }
    free(sobytes);
    free(ltext);
    free(text);
    free(src);
    free(messages);
    return 0;
}
