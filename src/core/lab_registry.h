/* The mistakes lab's registry of kernels: the chapter's kernel and its broken
 * variants in kernels/mistakes/, one row each (name, file, label, and the
 * statement model the emulator runs, lab_emulate.h). Names are what
 * --kernel, trace files and the K key use; the order is K's. */
#ifndef SV_LAB_REGISTRY_H
#define SV_LAB_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Another name of the chapter's kernel (kernels/hillis_steele.cu), which the
 * CUDA backend runs and sv_emulate() emulates: --kernel hillis-steele is
 * --kernel correct. */
#define SV_KERNEL_TEACHING "hillis-steele"

typedef enum sv_kernel {
    SV_KERNEL_CORRECT,             /* the chapter's kernel, kernels/hillis_steele.cu */
    SV_KERNEL_IN_PLACE,            /* one buffer, barrier kept */
    SV_KERNEL_NO_BARRIER,          /* double buffer, the loop's barrier removed */
    SV_KERNEL_IN_PLACE_NO_BARRIER, /* one buffer and no barrier */
    SV_KERNEL_NO_ELSE,             /* the else copy removed */
    SV_KERNEL_OFF_BY_ONE,          /* the guard written i > stride */
    SV_KERNEL_POUT_ACCUMULATE,     /* pout[i] = pin[i - stride] op pout[i]: GPU Gems 3's
                                      "temp[pout*n+thid] += temp[pin*n+thid - offset]" */
    SV_KERNEL_COUNT
} sv_kernel;

typedef struct sv_kernel_info {
    const char *name;    /* "in-place": the --kernel name */
    const char *file;    /* source file, relative to the project root (a mistake's
                          * kernels/mistakes/NAME.cu is generated into the build
                          * tree from kernels/mistakes/NAME.diff) */
    const char *label;   /* one line for captions: what was changed */
    bool double_buffer;  /* false: pin and pout are the same buffer (buf[0]) */
    bool barrier;        /* the barrier at the end of each round */
    bool has_else;       /* the else branch copies pin[i] into pout[i] */
    int guard_offset;    /* the guard is i >= stride + guard_offset (1: i > stride) */
    bool self_from_pout; /* the add reads the thread's own cell of pout, not pin */
    bool racy;           /* the outcome depends on the schedule */
} sv_kernel_info;

/* The registry entry of k; NULL when k is out of range. */
const sv_kernel_info *sv_kernel_get(sv_kernel k);
const char *sv_kernel_name(sv_kernel k); /* "correct", ...; NULL out of range */
bool sv_kernel_from_name(const char *name, sv_kernel *out);

/* Parses a kernel name: the registry's names, and SV_KERNEL_TEACHING
 * ("hillis-steele") for correct. err names the accepted names on failure. */
bool sv_kernel_parse(const char *name, sv_kernel *out, char *err, size_t errlen);

/* "correct, in-place, ..., off-by-one or pout-accumulate": every name, for
 * messages. */
const char *sv_kernel_list(void);

/* Whether thread i writes its pout cell in round r >= 1 under kernel k (the
 * guard and the else branch; independent of the schedule). */
bool sv_kernel_writes(sv_kernel k, int round, size_t i);

#ifdef __cplusplus
}
#endif

#endif
