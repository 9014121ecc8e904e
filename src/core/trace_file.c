/* Trace files (being written). */
#include "trace_file.h"

bool sv_trace_write(const sv_trace *t, FILE *f, char *err, size_t errlen)
{
    (void)t; (void)f;
    snprintf(err, errlen, "trace files: not written yet");
    return false;
}

bool sv_trace_save(const sv_trace *t, const char *path, char *err, size_t errlen)
{
    (void)t; (void)path;
    snprintf(err, errlen, "trace files: not written yet");
    return false;
}

sv_trace *sv_trace_parse(const char *json, char *err, size_t errlen)
{
    (void)json;
    snprintf(err, errlen, "trace files: not written yet");
    return NULL;
}

sv_trace *sv_trace_load(const char *path, char *err, size_t errlen)
{
    (void)path;
    snprintf(err, errlen, "trace files: not written yet");
    return NULL;
}
