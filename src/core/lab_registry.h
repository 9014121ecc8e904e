/* The mistakes lab's registry of kernels: one row per kernel file (name,
 * file, label, what it teaches, and the kernel's shape that
 * lab_reads.c and the GPU's rounds use), read from the files themselves: the build generates
 * lab_kernels.h from the registry fields of kernels/hillis_steele.row and of
 * each kernels/mistakes/NAME.diff (kernels/mistakes/apply.py), the chapter's
 * kernel first, then the mistakes in the K key's order. A kernel file given
 * at run time (a student's) is a row like any other, added after the
 * shipped ones (sv_kernel_add_file). Names are what --kernel, trace files
 * and K use. */
#ifndef SV_LAB_REGISTRY_H
#define SV_LAB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#include "lab_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Another name of the chapter's kernel (kernels/hillis_steele.cu), which
 * every capture runs through the kernel runtime, on the CPU or the GPU:
 * --kernel hillis-steele is --kernel correct (the alias of its row; a test
 * checks they agree). */
#define SV_KERNEL_TEACHING "hillis-steele"

/* A row's index: SV_KERNEL_CORRECT, SV_KERNEL_IN_PLACE, ... for the shipped
 * rows (one constant per row of lab_kernels.h, ID from its name), then
 * SV_KERNEL_COUNT .. sv_kernel_count() - 1 for rows added at run time. */
#define SV_KERNEL_MAX_ADDED 16 /* rows that may be added at run time */
typedef enum sv_kernel {
#define SV_KERNEL_ENUM_(id, ...) SV_KERNEL_##id,
    SV_KERNEL_ROWS(SV_KERNEL_ENUM_)
#undef SV_KERNEL_ENUM_
    SV_KERNEL_COUNT,      /* the shipped rows */
    SV_KERNEL_LIMIT = SV_KERNEL_COUNT + SV_KERNEL_MAX_ADDED /* past the last possible row */
} sv_kernel;

typedef struct sv_kernel_info {
    const char *name;    /* "in-place": the --kernel name */
    const char *alias;   /* another name ("hillis-steele"), NULL for most */
    const char *file;    /* source file: relative to the project root for the
                          * shipped rows (a mistake's kernels/mistakes/NAME.cu
                          * is generated into the build tree from
                          * kernels/mistakes/NAME.diff), the path as given for
                          * an added one */
    const char *label;   /* one line for captions: what was changed */
    const char *teaches; /* what the kernel teaches, in a sentence ("" added) */
    /* The kernel's shape (the lab's words, the GPU's rounds), for rows with emulated set: */
    bool emulated;       /* false: no model (an added file); it runs only
                          * through the runtime (src/runtime/) */
    bool double_buffer;  /* false: pin and pout are the same buffer (buf[0]) */
    bool barrier;        /* the barrier at the end of each round */
    bool has_else;       /* the else branch copies pin[i] into pout[i] */
    bool guard;          /* the add is guarded; false: every thread adds, and
                          * thread i < stride reads pin[i - stride], out of range */
    int guard_offset;    /* the guard is i >= stride + guard_offset (1: i > stride) */
    bool self_from_pout; /* the add reads the thread's own cell of pout, not pin */
    bool racy;           /* the outcome depends on the schedule */
} sv_kernel_info;

/* The row of k; NULL when k is not a row. Rows never change once there. */
const sv_kernel_info *sv_kernel_get(sv_kernel k);
const char *sv_kernel_name(sv_kernel k); /* "correct", ...; NULL when not a row */
/* Rows now: SV_KERNEL_COUNT shipped ones and those added. */
size_t sv_kernel_count(void);
/* The row named name (its name or alias), shipped or added. */
bool sv_kernel_from_name(const char *name, sv_kernel *out);

/* Parses a kernel name as sv_kernel_from_name() does. err names the
 * accepted names (the shipped ones) on failure. */
bool sv_kernel_parse(const char *name, sv_kernel *out, char *err, size_t errlen);

/* "correct, in-place, ..., pout-accumulate or no-guard": every shipped
 * name, for messages. */
const char *sv_kernel_list(void);

/* Adds a row for the kernel file at path (a student's .cu file): its name
 * is the file's name ("my_scan.cu"), its label "your kernel, my_scan.cu",
 * no statement model. Adding the same path again gives the same row. False
 * with err filled when the path is empty or too long, its file name is a
 * row's name already, or SV_KERNEL_MAX_ADDED rows were added. */
bool sv_kernel_add_file(const char *path, sv_kernel *out, char *err, size_t errlen);

/* ---- Kernels beyond the chapter ---------------------------------------------
 * A shipped kernel of another algorithm (kernels/blelloch.cu, issue 20): a
 * row of the same generated registry (lab_kernels.h's SV_KERNEL_BEYOND_ROWS,
 * from kernels/NAME.row) with no statement model, run only through the
 * kernel runtime (src/runtime/, as a shipped build) and drawn by the kernel
 * pane. Kept apart from the lab's rows: K and the lab's captures walk those
 * alone; --kernel, scripts and the window take both. */
typedef enum sv_algorithm {
    SV_ALGORITHM_HILLIS_STEELE, /* every lab row's: the chapter's rounds */
    SV_ALGORITHM_BLELLOCH       /* the work-efficient tree: up-sweep, root cleared, down-sweep */
} sv_algorithm;

typedef struct sv_kernel_beyond {
    const char *name;      /* "blelloch": the --kernel name */
    const char *file;      /* "kernels/blelloch.cu": the runtime's builtin */
    const char *label;     /* one line for captions */
    const char *teaches;   /* what it teaches, in a sentence */
    sv_algorithm algorithm;
} sv_kernel_beyond;

/* The i-th kernel beyond the chapter (0 ..), NULL past the last. */
const sv_kernel_beyond *sv_kernel_beyond_get(size_t i);
/* The one named name, NULL when none is (a lab row's name included). */
const sv_kernel_beyond *sv_kernel_beyond_find(const char *name);
/* The one whose file is file ("kernels/blelloch.cu"), NULL when none. */
const sv_kernel_beyond *sv_kernel_beyond_of_file(const char *file);

/* Whether thread i writes its pout cell in round r >= 1 under kernel k (the
 * guard and the else branch; independent of the schedule). Round 0: true.
 * False for a row without a statement model. */
bool sv_kernel_writes(sv_kernel k, int round, size_t i);

#ifdef __cplusplus
}
#endif

#endif
