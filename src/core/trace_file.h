/* Trace files: the JSON format of docs/trace-format.md, through jansson. */
#ifndef SV_TRACE_FILE_H
#define SV_TRACE_FILE_H

#include <stdio.h>
#include "ktrace.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes t as JSON to a stream / a path ("-" is stdout): version 3, the
 * rounds (the chapter's reading) and last, as "run", the kernel trace they
 * read (t->run, or for a trace from an old file the run its rounds imply).
 * Return false with err filled on failure. sv_trace_save writes all or nothing through
 * sv_file_begin/commit (fileio.h): on failure the old file is untouched and
 * err says "PATH: reason" ("stdout: reason" for "-"). */
bool sv_trace_write(const sv_trace *t, FILE *f, char *err, size_t errlen);
bool sv_trace_save(const sv_trace *t, const char *path, char *err, size_t errlen);

/* Reads and validates a trace (from a string / a path, "-" is stdin):
 * every field's presence, type and range, buffer sizes, the round metadata,
 * and sv_trace_check(). Returns NULL on failure with err naming the field
 * (e.g. `rounds[2].buf[1][5]: expected an integer`) and the reason. A text
 * of more JSON values, arrays or objects than any trace has (2^21, 2^19,
 * 2^16) is refused before it is parsed, so memory stays bounded
 * (docs/reliability.md). The returned trace is finished; the caller
 * destroys it. */
sv_trace *sv_trace_parse(const char *json, char *err, size_t errlen);
sv_trace *sv_trace_load(const char *path, char *err, size_t errlen); /* at most SV_LIMIT_TRACE bytes */

/* Any trace file, as the window opens it: a chapter trace (versions 1 and 2,
 * and 3 with "reading") into *trace as sv_trace_parse reads it, its run in
 * trace->run, or a kernel trace (version 3 without "reading") into
 * *ktrace, whole and analyzed, as sv_ktrace_parse reads it (ktrace_file.h),
 * whatever its shape; the other is NULL. false with err naming the field
 * (and, from a path, the file). */
bool sv_trace_file_parse_any(const char *json, sv_trace **trace, sv_ktrace **ktrace,
                             char *err, size_t errlen);
bool sv_trace_file_load_any(const char *path, sv_trace **trace, sv_ktrace **ktrace,
                            char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
