/* scanviz-trace's kernel-file command: --kernel-file FILE.cu runs a student's
 * kernel through the runtime (src/runtime/runtime.h) and prints its trace
 * and diagnosis; --open of a kernel trace file (version 3) prints it. The
 * main parses the options (core/options.def) into sv_kernel_cmd and calls
 * these; they print (stdout, stderr) and return the exit status. */
#ifndef SV_KERNEL_CMD_H
#define SV_KERNEL_CMD_H

#include <stdbool.h>
#include <stdint.h>

#include "../capture/capture.h"
#include "../core/input.h"
#include "../core/lab.h"

/* Exit statuses of a kernel file (scanviz-trace(1), EXIT STATUS). */
enum {
    SV_KEXIT_OK = 0,          /* the output equals the scan and no hazard was found */
    SV_KEXIT_FAILED = 1,      /* the runtime itself failed, or output could not be written */
    SV_KEXIT_REFUSED = 2,     /* it does not compile or its signature is wrong (and bad usage) */
    SV_KEXIT_UNAVAILABLE = 3, /* no C++ compiler / no GPU for the backend asked for */
    SV_KEXIT_WRONG = 4,       /* it ran, but the output is wrong or hazards were found */
    SV_KEXIT_RUN = 5          /* it failed while running: crash, out of range, deadlock,
                                 time or memory limit */
};

typedef struct sv_kernel_cmd {
    const char *prog;          /* for messages: "scanviz-trace" */
    const char *path;          /* --kernel-file */
    const char *builtin;       /* --kernel blelloch: a shipped file run by the runtime
                                  (sv_option_runtime_kernel); path is then that file */
    const char *entry;         /* --entry NAME, NULL: the only __global__ */
    const sv_input *input;     /* the usual input options */
    sv_op op;
    sv_type type;
    sv_scan scan;
    sv_backend_choice backend; /* auto: the GPU where the runtime can use one, else the CPU */
    bool has_schedule;         /* --schedule given (else lockstep) */
    sv_schedule schedule;      /* ... parsed where the option was taken */
    uint32_t runs;             /* --runs, 0: 1 (SV_LAB_DEFAULT_RUNS for random / warps) */
    bool shake;                /* --shake / --shake-seed (GPU) */
    uint64_t shake_seed;
    bool racecheck;            /* --racecheck (GPU) */
    uint32_t time_limit_ms;    /* --time-limit, 0: the runtime's default */
    bool json;                 /* --format json */
    const char *out_path;      /* -o, NULL: stdout */
} sv_kernel_cmd;

/* Runs --kernel-file. */
int sv_kernel_cmd_run(const sv_kernel_cmd *k);

/* --open PATH of a kernel trace: prints it as k->json and k->out_path say
 * and returns 0 (opened and printed; its diagnosis is in the table).
 * Returns -1 when the file is not a kernel trace; then *text (the caller
 * frees it) holds the file as read, for the chapter's reader. A file that
 * cannot be read or is a broken kernel trace: its message, and 2. */
int sv_kernel_cmd_open(const sv_kernel_cmd *k, const char *path, char **text);

#endif
