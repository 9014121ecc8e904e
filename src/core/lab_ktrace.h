/* The lab's reading of a kernel trace: one run of a shipped kernel (the
 * chapter's or a mistake) as the runtime recorded it (ktrace.h), turned into
 * the chapter-shaped rounds the lab draws and summarizes (each thread's own
 * cells after each round, `?` where never written) and into what every read
 * saw (lab_reads.h). Capture runs the kernels (src/capture/lab_capture.c);
 * this file only reads their traces, so core stays free of the runtime.
 *
 * Rounds from steps. The kernels keep one rule the lab relies on: thread i
 * writes only cell i of each buffer, at most once a round. A step (barrier
 * interval) holds one round where the kernel has its barrier, and all of
 * the loop's rounds where it has none; so thread i's j-th write to the
 * buffers in a step is round base + j, where base counts the rounds of the
 * steps before (a step's rounds: the most writes any thread made in it). A
 * read belongs to the round of the thread's next write (the reads behind a
 * write, ktrace.h); its slot is SELF when it read the thread's own cell i,
 * LEFT otherwise. Which write it saw comes from the accesses' order.
 *
 * A GPU run (the GPU runtime) has no accesses, only the state at each
 * barrier: the k-th step that wrote the buffers is round k; a kernel
 * without its barrier shows its last round only, the rounds between `?`. */
#ifndef SV_LAB_KTRACE_H
#define SV_LAB_KTRACE_H

#include "ktrace.h"
#include "lab_reads.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Hazard h of run (a CPU runtime run of lab kernel k at n cells) in the
 * lab's names: "thread 2 read buf[1] while thread 1 wrote it, in round 2
 * (lines 44 and 44, WAR)"; a kernel without its barrier names no round
 * ("in one barrier interval"). Returns buf. */
char *sv_lab_hazard_words(const sv_ktrace *run, sv_kernel k, const sv_khazard *h, char *buf,
                          size_t len);

/* Fills t (from sv_trace_create: op, type, scan, n and input those of run)
 * with run's rounds: both buffers' cells after each round, written where
 * known; pin == pout == 0 for a one-buffer kernel (k's row). Does not call
 * sv_trace_finish(). When reads is not NULL, *reads gets what every read
 * saw, with want_* from lockstep (the same kernel's run under the lockstep
 * schedule; run itself when NULL) and correct from the chapter's kernel
 * (correct: its finished trace of the same input). kernel_out and out_known
 * (n each, may be NULL) get out[] as the kernel wrote it. A GPU run takes
 * no reads (reads must be NULL). A run that stopped
 * at a read out of range (no-guard) gives the rounds up to there, that read
 * marked out of range, and stopped_round set. False with err filled when
 * run has no buffer the lab can read (no shared writes of n cells), on a
 * failure other than out of range, or on allocation failure. */
bool sv_lab_from_ktrace(sv_trace *t, sv_kernel k, const sv_ktrace *run,
                        const sv_ktrace *lockstep, const sv_trace *correct, sv_lab_reads **reads,
                        sv_value *kernel_out, bool *out_known, char *err, size_t errlen);

/* The chapter's kernel's finished trace of t's input, op, type and scan: the
 * correct values a lab run is summarized against. Its rounds are the
 * chapter's reading's windows (sv_kround_windows: each round's values in the
 * kernel's own order of operations, bit for bit what the chapter's kernel
 * computes) in the kernel's double buffer, as a lockstep run leaves it. NULL
 * with err filled on allocation failure. */
sv_trace *sv_lab_correct_trace(const sv_trace *t, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif
