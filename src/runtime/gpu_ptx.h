/* The GPU runtime's write recording (gpu_run.c): NVRTC's PTX rewritten so
 * that every store the kernel makes to shared memory or out[] also marks,
 * in a device buffer, the word it wrote in the current step, and every
 * load of shared memory, in[] or out[] marks that word as read (what the
 * CPU runtime's "a step with accesses" rule needs). Inside src/runtime/.
 *
 * The marks of one run are rows of bytes, one row per step (the rows of
 * the snapshot, gpu_prelude.h), each laid out as
 *   [wwords: a shared window word written][n: out[i] written][4 spare]
 *   [wwords: a window word read][n: out[i] read][4 spare][1: in[] read]
 * a byte 1 where it happened. The rewritten code reads where the row is,
 * which row, the window and out[]'s and in[]'s ranges from the prelude's
 * shared record sv_rt_mk, at these byte offsets (the launcher fills it
 * with inline asm after its poison, before the barrier the kernel starts
 * after; sv_gpu_sync moves the
 * row between its two real barriers, so no thread can store into step
 * s + 1 before the row says s + 1). */
#ifndef SV_RUNTIME_GPU_PTX_H
#define SV_RUNTIME_GPU_PTX_H

#include <stdbool.h>
#include <stddef.h>

#define SV_MK_BASE 0     /* u64: this run's marks (generic address) */
#define SV_MK_OUT 8      /* u64: out[], generic */
#define SV_MK_OUTG 16    /* u64: out[], global */
#define SV_MK_IN 24      /* u64: in[], generic */
#define SV_MK_ING 32     /* u64: in[], global */
#define SV_MK_ROW 40     /* u32: byte offset of the current step's row */
#define SV_MK_W0 44      /* u32: the shared window's first byte (a shared address) */
#define SV_MK_WWORDS 48  /* u32: the window's words */
#define SV_MK_IOBYTES 52 /* u32: 4 n, the bytes of in[] and of out[] */
#define SV_MK_READ 56    /* u32: where a row's read marks start (wwords + n + 4) */
#define SV_MK_INREAD 60  /* u32: the byte of a row that says in[] was read */
#define SV_MK_BYTES 64

/* A row's length in bytes for a window of wwords words and n cells. */
#define SV_MK_ROW_BYTES(wwords, n) ((((size_t)(wwords) + (n) + 4) * 2 + 1 + 3) & ~(size_t)3)

/* What a rewrite saw and did, by kind: the stores and loads of the
 * kernel's code (inline asm excepted) and the marks put beside them; each
 * access counted has a "// sv-mark" comment line before it. */
typedef struct sv_gpu_ptx_counts {
    unsigned st_shared, st_generic, st_global; /* stores seen (st.local, st.param: not) */
    unsigned ld_shared, ld_generic, ld_global; /* loads seen (ld.local, .param, .const: not) */
    unsigned atom_shared, atom_generic, atom_global; /* atom.* / red.* seen (each two marks:
                                                        a read's and a write's) */
    unsigned marks;                            /* mark sequences put in */
    unsigned skipped;                          /* accesses by the name of the prelude's own
                                                  variables or of a __device__ variable:
                                                  nothing to mark (marks + skipped: all) */
    unsigned functions;                        /* function bodies given scratch registers */
} sv_gpu_ptx_counts;

/* Rewrites NVRTC's PTX (NUL-terminated) for write recording: returns the
 * new text (malloc'd; the caller frees it) and fills counts (may be NULL).
 * NULL with err when the text is not what NVRTC writes (no function body,
 * no .address_size 64, an address it cannot read) or on allocation
 * failure. */
char *sv_gpu_ptx_mark(const char *ptx, sv_gpu_ptx_counts *counts, char *err, size_t errlen);

#endif
