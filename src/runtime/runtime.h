/* The kernel runtime: runs one single-block scan kernel file, traced at every
 * barrier, on the CPU (the system C++ compiler, one Boost.Context fiber per
 * CUDA thread, every shared access observed) or on the GPU (NVRTC, loaded
 * with dlopen), always in a child process with a time and a memory limit.
 * The result is a kernel trace (core/ktrace.h) or a failure inside it; the
 * caller's process never runs the kernel's code.
 *
 * The kernel file's contract (docs/user-guide.md, "Your own kernel"): one
 * __global__ function (const T *in, T *out, int n), launched as one block of
 * n threads with 2 * n * sizeof(T) bytes of dynamic shared memory. The
 * shipped kernels (the chapter's and the mistakes) are rows of the same
 * registry and go through the same code. */
#ifndef SV_RUNTIME_H
#define SV_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/ktrace.h"
#include "../core/lab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SV_RUNTIME_DEFAULT_TIME_LIMIT_MS 5000   /* --time-limit */
#define SV_RUNTIME_DEFAULT_MEMORY_MB 1024       /* the child's address-space limit */
/* A host function's run takes about 5 us a value on the CPU runtime (2^20
 * values: 5 s): past 250,000 values the default limit is 20 us a value. */
#define SV_RUNTIME_TIME_LIMIT_US_PER_VALUE 20

typedef enum sv_runtime_backend {
    SV_RUNTIME_CPU,
    SV_RUNTIME_GPU
} sv_runtime_backend;

typedef struct sv_runtime_request {
    /* The kernel: a file's text (path for messages and the cache) ... */
    const char *path;        /* "my_scan.cu" as the user gave it */
    const char *source;      /* its text; NUL-terminated */
    const char *entry;       /* --entry NAME, NULL: the only __global__ */
    /* A shipped kernel instead (a registry row's file, "kernels/hillis_steele.cu",
     * "kernels/mistakes/in_place.cu"): on the CPU its build made ahead of time
     * runs (no compiler needed), on the GPU NVRTC compiles its embedded text
     * as a kernel file's; its own text is the trace's source, so source may
     * be NULL. NULL: the kernel file in source. */
    const char *builtin;
    /* ... the input */
    sv_op op;
    sv_type type;
    sv_scan scan;
    const sv_value *input;
    size_t n;                /* 1 .. SV_MAX_N (SV_MAX_N_BLOCKS: a host function) */
    int output_round;        /* what out[] must hold: 0 the scan, R >= 1 round R's
                                windows (an exercise's output round: the wrong runs,
                                the trace's verdict judge that) */
    /* ... how */
    sv_runtime_backend backend;
    sv_schedule schedule;    /* CPU: the schedule of run 0 (run k of random:S / warps:S uses S + k) */
    uint32_t runs;           /* >= 1 */
    bool each_run;           /* sv_runtime_run_each: every run recorded and sent back */
    bool shake;              /* GPU: a seeded per-warp sleep before each barrier's next reads */
    uint64_t shake_seed;
    bool racecheck;          /* GPU: under compute-sanitizer's racecheck */
    uint32_t time_limit_ms;  /* 0: sv_runtime_time_limit_ms's default */
    uint32_t memory_mb;      /* 0: SV_RUNTIME_DEFAULT_MEMORY_MB */
    /* The runtime's own (issue 31): on the GPU, a host function's launches
     * as the CPU runtime ran them (sv_ktrace.plan), which the GPU replays;
     * sv_runtime_run sets it. NULL for callers. */
    const char *plan;
    /* With runs > 1: called in the caller's process as runs complete (done of
     * runs), e.g. for a progress line on a terminal; NULL: none. */
    void (*progress)(void *ctx, uint32_t done, uint32_t runs);
    /* A host function's launches (issue 31), as the CPU runtime runs them:
     * launch k (from 1) of grid blocks has ended `ended` of them (0 as it
     * starts; about 64 calls a launch at most); NULL: none. Called with
     * progress_ctx, in the caller's process (the app's worker thread). */
    void (*launched)(void *ctx, uint32_t k, uint32_t ended, uint32_t grid);
    void *progress_ctx;
} sv_runtime_request;

/* The request's time limit in ms: its own, else SV_RUNTIME_DEFAULT_TIME_LIMIT_MS
 * or SV_RUNTIME_TIME_LIMIT_US_PER_VALUE a value, whichever is longer. */
static inline uint32_t sv_runtime_time_limit_ms(const sv_runtime_request *req)
{
    if (req->time_limit_ms)
        return req->time_limit_ms;
    unsigned long long ms = (unsigned long long)req->n * SV_RUNTIME_TIME_LIMIT_US_PER_VALUE / 1000;
    return ms > SV_RUNTIME_DEFAULT_TIME_LIMIT_MS ? (uint32_t)ms : SV_RUNTIME_DEFAULT_TIME_LIMIT_MS;
}

/* Runs the request. Returns a trace (never NULL unless allocation failed,
 * err filled): a kernel that does not compile, crashes, deadlocks or runs
 * out of time comes back as a trace whose failure says so, holding the steps
 * that completed. With runs > 1 the trace is the shown run (the first wrong
 * one, else run 0) and wrong_runs counts the others. */
sv_ktrace *sv_runtime_run(const sv_runtime_request *req, char *err, size_t errlen);

/* Whether a kernel file's text defines a host function scan that launches
 * its kernels (issue 31: it may then take n up to SV_MAX_N_BLOCKS on the CPU
 * runtime). False for a text the source scan refuses (its run says why). */
bool sv_runtime_file_launches(const char *source);

/* A runtime's runs one by one (the mistakes lab): all req->runs runs in
 * one child (on the CPU run k of random:S / warps:S with seed S + k; on
 * the GPU R launches, shaken with --shake), each recorded in full;
 * each(ctx, k, trace) takes run k's trace (runs 1, its own schedule) in
 * order, returning false to stop taking. A run that fails (other than an
 * index out of range) ends the runs: it comes last, with its failure.
 * False with err when no child ran or a trace could not be made. */
bool sv_runtime_run_each(const sv_runtime_request *req,
                         bool (*each)(void *ctx, uint32_t run, sv_ktrace *t), void *ctx,
                         char *err, size_t errlen);

/* Whether a backend can run here, and why not in words ("no C++ compiler
 * found (tried $CXX, c++, g++, clang++)", "no CUDA driver (libcuda.so.1
 * not found)"). */
bool sv_runtime_available(sv_runtime_backend b, char *why, size_t whylen);

/* The GPU the GPU backend would run on (device 0 of those visible), asked
 * of the driver in the caller's process (the runtime's children are fresh
 * programs, so a CUDA context here is no obstacle to theirs): what needs
 * no nvcc at build time, only the driver and NVRTC at run time. False with
 * why in words: "no CUDA driver (...)", "no CUDA device", "no NVRTC (...)",
 * "no NVIDIA GPU (/dev/nvidiactl is missing)". */
typedef struct sv_runtime_gpu_device {
    char name[256];
    int cc_major, cc_minor, sm_count;
    size_t max_threads_per_block;
} sv_runtime_gpu_device;
bool sv_runtime_gpu_probe(sv_runtime_gpu_device *d, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif

#endif
