/* A runtime request (runtime.h) as bytes, for the runtime's child, which
 * process.c starts as a fresh program (this one again, with a hidden flag)
 * rather than a bare fork of the caller: the request goes over a memory
 * file, everything but the progress callback (the child sends progress
 * records instead). Inside src/runtime/ only. */
#ifndef SV_RUNTIME_REQUEST_H
#define SV_RUNTIME_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "runtime.h"

/* What the caller's process prepared for the child besides the request
 * (process.c): for a kernel file on the CPU the compiled .so comes as a
 * sealed memory file (a descriptor), and these with it. */
#define SV_RT_KEY_BYTES 16
#define SV_RT_MAX_LINES ((size_t)8 << 20) /* a line table's text */
typedef struct sv_rt_prep {
    const char *lines;  /* the .so's line table ("ADDR LINE" lines); NULL: none */
    const char *dyn;    /* its extern __shared__ array's name; NULL: none */
    const char *entry;  /* the __global__ function run; NULL: not prepared */
    /* The run's key (getrandom, in the caller): the child's trace stream
     * starts and ends with it, so that bytes the kernel's own code might
     * write on the pipe are not taken for the runtime's (wire.h). */
    unsigned char key[SV_RT_KEY_BYTES];
} sv_rt_prep;

/* Writes req and prep to fd (from its start). False when a write failed. */
bool sv_rt_request_write(int fd, const sv_runtime_request *req, const sv_rt_prep *prep);

/* A request read back: req's and prep's strings and input point into the
 * storage it owns (sv_rt_request_free). */
typedef struct sv_rt_request_copy {
    sv_runtime_request req;
    sv_rt_prep prep;
    unsigned char *bytes;
    sv_value *input;
} sv_rt_request_copy;

/* Reads a request from fd (bounded: the source's and input's limits).
 * False with err when it is cut short or broken. */
bool sv_rt_request_read(int fd, sv_rt_request_copy *out, char *err, size_t errlen);
void sv_rt_request_free(sv_rt_request_copy *c);

/* How this process was started, for the constructors that take a child's
 * start (process.c's --sv-rt-child, gpu_run.c's): /proc/self/cmdline into
 * args (cap bytes, NUL-separated, *len bytes); returns argv[1] in it, NULL
 * when there is none. */
const char *sv_rt_start_args(char *args, size_t cap, size_t *len);

#endif
