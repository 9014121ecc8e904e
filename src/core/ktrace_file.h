/* Kernel trace files: version 3 of docs/trace-format.md, through jansson. */
#ifndef SV_KTRACE_FILE_H
#define SV_KTRACE_FILE_H

#include <jansson.h>
#include <stdio.h>

#include "ktrace.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SV_KTRACE_FILE_VERSION 3

/* What a kernel trace file may hold, counted before parsing (json_value.h,
 * sv_json_too_many): the largest of n = 1024 (a race's 10000 hazards, 11
 * steps of reads and writes) has about 600,000 values and 62,000 objects; a
 * host function's hierarchical scan of n = 2^20 (three launches) 9.6
 * million values and 98,000 objects. These bound the tree near 1 GB. */
#define SV_KTRACE_FILE_MAX_TOKENS ((size_t)1 << 24)
#define SV_KTRACE_FILE_MAX_ARRAYS ((size_t)1 << 18)
#define SV_KTRACE_FILE_MAX_OBJECTS ((size_t)1 << 18)

/* Writes t as JSON to a stream / a path ("-" is stdout; all or nothing
 * through sv_file_begin/commit). Cells never written are null everywhere,
 * the output included. false with err filled on failure. */
bool sv_ktrace_write(const sv_ktrace *t, FILE *f, char *err, size_t errlen);
/* The same without the steps' accesses (reads, writes and the divergence
 * they give): their cells, written flags and readings, as a GPU run has
 * them. A chapter's trace file carries its run so (trace_file.c). */
bool sv_ktrace_write_cells(const sv_ktrace *t, FILE *f, char *err, size_t errlen);
bool sv_ktrace_save(const sv_ktrace *t, const char *path, char *err, size_t errlen);

/* How many bytes a trace file at path may take: SV_LIMIT_TRACE, or, for a
 * regular file whose first 4 KiB say it is a kernel trace of n > SV_MAX_N
 * values (only a host function's run has that many: `"algorithm":
 * "kernel"` and `"n": N`), sv_ktrace_file_budget(n) and 16 MiB more (in whole MiB), at most
 * SV_LIMIT_TRACE_BLOCKS. Standard input, pipes and devices: SV_LIMIT_TRACE. */
size_t sv_trace_read_limit(const char *path);
/* What the reader takes of a kernel trace file of n values from a regular
 * file: SV_LIMIT_TRACE for n <= SV_MAX_N, else as above. */
size_t sv_ktrace_file_limit(size_t n);

/* Reads and validates a kernel trace (a string / a path, "-" stdin, at most
 * SV_LIMIT_TRACE bytes / a parsed document): every field's presence, type
 * and range, array sizes, the steps' consistency (a written cell stays
 * written; only the cells in `wrote` change), each access's thread, array
 * and cell. NULL with err naming the field and position
 * (`steps[2].cells[0][5]: expected an integer or null`). The trace comes
 * back analyzed (sv_ktrace_analyze); the caller destroys it. */
sv_ktrace *sv_ktrace_parse(const char *json, char *err, size_t errlen);
sv_ktrace *sv_ktrace_load(const char *path, char *err, size_t errlen);
sv_ktrace *sv_ktrace_from_json(const json_t *root, char *err, size_t errlen);

/* For the chapter's trace reader (trace_file.c): whether a parsed file is a
 * kernel trace (version 3 without "reading": a chapter's file names its
 * reading and holds its run as "run"), and its chapter-shaped trace (sv_ktrace_chapter_trace), or
 * NULL with err saying why not (not the chapter's rounds). */
bool sv_trace_file_is_kernel(const json_t *root);
/* Whether text is over those limits: NULL, or why (filled). */
const char *sv_ktrace_too_large(const char *text, char *why, size_t len);
sv_trace *sv_ktrace_chapter_from_json(const json_t *root, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
