/* The one place that decides GPU or emulator, and says why. scanviz-trace
 * and the visualizer call this and never probe CUDA themselves (scanviz-bench,
 * which needs a GPU and has no emulator, calls nvcc's sv_cuda_probe). */
#ifndef SV_CAPTURE_H
#define SV_CAPTURE_H

#include "../core/lab_reads.h"
#include "../core/trace.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sv_backend_choice {
    SV_CHOOSE_AUTO, /* the GPU when one is usable, else the emulator */
    SV_CHOOSE_CUDA, /* the GPU or fail */
    SV_CHOOSE_CPU   /* the emulator */
} sv_backend_choice;

bool sv_backend_choice_from_name(const char *name, sv_backend_choice *out);

/* Whether the kernel runtime's GPU backend has a usable device here (the
 * driver and NVRTC, loaded at run time: no nvcc needed at build time). On
 * true, device (if not NULL) gets the GPU's name and *max_n the largest n
 * it takes (min(SV_MAX_N, maxThreadsPerBlock)). On false, why says why there
 * is none: "no CUDA driver (...)", "no CUDA device", "no NVIDIA GPU (...)",
 * "no NVRTC (...)", or the driver's error. Probes once and caches the
 * answer; thread-safe. */
bool sv_capture_cuda_available(char *device, size_t devlen, size_t *max_n,
                               char *why, size_t whylen);

typedef enum sv_capture_status {
    SV_CAPTURE_OK,
    SV_CAPTURE_BAD_INPUT,   /* n out of range, op not defined on type, unknown kernel */
    SV_CAPTURE_UNAVAILABLE, /* SV_CHOOSE_CUDA and no usable GPU: err says why */
    SV_CAPTURE_FAILED       /* the backend failed while running, or its trace
                               broke the invariant */
} sv_capture_status;

/* What to capture. Zero it, then set the scan; the defaults are the chapter's
 * kernel, SV_CHOOSE_AUTO, no fallback past "no GPU", waiting for the probe.
 * The lab's fields below are zero for the chapter's kernel. */
typedef struct sv_capture_request {
    sv_op op;
    sv_type type;
    sv_scan scan;
    const sv_value *input; /* n values, copied */
    size_t n;
    sv_backend_choice choice;
    sv_kernel kernel;      /* a shipped row of the registry (lab_registry.h):
                              SV_KERNEL_CORRECT (0, the default) the chapter's
                              kernel, or a mistake of the lab; the front ends
                              parse the user's name once (sv_kernel_parse) */
    /* The window's policy, always show something: when the GPU asked for is
     * unavailable (even with SV_CHOOSE_CUDA) or fails while running, run the
     * emulator instead and say why in the source's reason. Without it, only
     * SV_CHOOSE_AUTO with no usable GPU falls back. */
    bool fallback;
    /* Do not wait for a probe another thread is running: use the emulator
     * now (reason "looking for a CUDA device…"). */
    bool no_wait;
    /* The mistakes lab. A capture is a lab capture when kernel is a mistake
     * or any of these is set; its trace carries a record (trace->lab): */
    bool has_schedule;     /* --schedule was given: */
    sv_schedule schedule;  /* the emulator's schedule (lab_schedule.h, parsed by
                              the front end); with SV_CHOOSE_AUTO it picks the
                              emulator. Without it: emulate_schedule */
    bool has_emulate_schedule; /* the window's schedule: */
    sv_schedule emulate_schedule; /* the schedule when the emulator runs a lab
                              capture without .schedule (no GPU, --backend
                              cpu, a fallback); it does not pick the
                              emulator. Without it: SV_LAB_DEFAULT_SCHEDULE (bounds.h) */
    uint32_t runs;         /* runs to summarize; 0: 100 on the GPU and for a seeded
                              schedule (random:S, warps:S), else 1 */
    bool shake;            /* GPU: seeded per-warp delays before each round's reads */
    uint64_t shake_seed;   /* 0 means 1 */
    bool racecheck;        /* GPU: also run the kernel once under compute-sanitizer
                              racecheck (the GPU runtime's racecheck run) */
    /* Emulated lab runs: called on the capturing thread as runs complete (done
     * of runs; the window's "running 37 / 100 runs" line); returning false
     * stops the capture, which then fails ("stopped"). NULL: none. */
    bool (*progress)(void *ctx, uint32_t done, uint32_t runs);
    void *progress_ctx;
} sv_capture_request;

/* Why the emulator ran in place of the GPU (auto prefers the GPU). */
typedef enum sv_capture_fallback {
    SV_FALLBACK_NONE,      /* the backend asked for (or auto's GPU) ran */
    SV_FALLBACK_NO_GPU,    /* no usable GPU (no driver, device or NVRTC) */
    SV_FALLBACK_PROBING,   /* no_wait and the probe had not finished */
    SV_FALLBACK_GPU_FAILED /* fallback and the GPU failed on this input */
} sv_capture_fallback;

/* Where a trace came from, for people: which backend, on which device, and
 * why that one. */
typedef struct sv_capture_source {
    sv_backend backend;
    sv_capture_fallback fallback;
    char device[256];  /* the GPU's name; "" for the emulator */
    char reason[256];  /* why the emulator ran, in words: "--backend cpu",
                          "no CUDA device", "looking for a CUDA device…",
                          "GPU capture failed: ..."; "" when the GPU ran */
    char label[300];   /* short: "CUDA · NVIDIA H200" or "CPU emulator" */
} sv_capture_source;

/* What both front ends say when --shake was asked and the run is not on the
 * GPU (scanviz-trace on stderr, the window in its status and source line):
 * a shake delays the GPU's warps; the emulator has no warps to delay. */
#define SV_CAPTURE_SHAKE_IGNORED \
    "--shake ignored: it delays the GPU's warps, and these runs are emulated on the CPU"
/* What scanviz-trace adds to it. */
#define SV_CAPTURE_SHAKE_HINT " (a seeded --schedule random:S or warps:S varies the emulated order)"

/* Captures the finished, checked trace of req. Both backends only fill
 * buffers; capture finishes the trace (sv_trace_finish) and checks the
 * chapter's invariant (sv_trace_check) whichever ran. On success *out is
 * the trace (the caller destroys it) and *src (may be NULL) says where it
 * came from; on failure *out is NULL and err says why. */
sv_capture_status sv_capture(const sv_capture_request *req, sv_trace **out,
                             sv_capture_source *src, char *err, size_t errlen);

/* Whether req asks for the mistakes lab (a mistake, a schedule, runs,
 * shake or racecheck). */
bool sv_capture_is_lab(const sv_capture_request *req);

/* One run of shipped kernel k (the chapter's or a mistake) under schedule s
 * on t's input (t from sv_trace_create) through the CPU runtime, its own
 * code on fibers: fills t's rounds as the lab reads them (lab_ktrace.h;
 * sv_trace_finish() not called), and when reads is not NULL what every read
 * saw (*reads, the caller destroys it; lockstep is run too for want_*).
 * kernel_out and out_known (may be NULL) get out[] as the kernel wrote it.
 * No-guard stops at its read out of range: the rounds up to there. False
 * with err filled when the runtime cannot run it. */
bool sv_capture_lab_run(sv_trace *t, sv_kernel k, sv_schedule s, sv_lab_reads **reads,
                        sv_value *kernel_out, bool *out_known, char *err, size_t errlen);

/* Gives an emulated lab trace without reads (one read from a file: files do
 * not carry them) the reads of its shown run, run again (the schedules are
 * deterministic). True when there is nothing to do; false with err filled
 * when the run failed (the trace keeps no reads). */
bool sv_capture_lab_reads(sv_trace *t, char *err, size_t errlen);

/* The source of a trace read from a file: its backend and device, no reason. */
void sv_capture_source_of_trace(const sv_trace *t, sv_capture_source *src);

/* One line for people: the label, then ": reason" when there is one
 * ("CPU emulator: no CUDA driver (CUDA driver version is insufficient for
 * CUDA runtime version)", "CUDA · NVIDIA H200"): the full reason, for
 * scanviz-trace and the state line. The window's header says a reason that
 * means no NVIDIA GPU at all (sv_capture_reason_is_no_gpu) in words:
 * "CPU emulator (no NVIDIA GPU found)". */
void sv_capture_source_line(const sv_capture_source *src, char *buf, size_t len);

/* Whether a probe's reason means there is no NVIDIA GPU at all (no CUDA
 * driver, no CUDA device), as opposed to a GPU that failed. */
bool sv_capture_reason_is_no_gpu(const char *reason);

#ifdef __cplusplus
}
#endif

#endif
