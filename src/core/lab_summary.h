/* Summaries of lab runs (lab_record.h's sv_lab_summary) made from raw runs,
 * the raw form of a trace, and a trace rebuilt from one raw run: what a lab
 * capture and the trace reader do with the rounds a kernel dumped. */
#ifndef SV_LAB_SUMMARY_H
#define SV_LAB_SUMMARY_H

#include "lab_record.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Raw runs: pout bits after every round of every run, [(run * nrounds + r)
 * * n + i] (round 0: buf[0]), and known flags of the same shape (NULL: all
 * known). correct is a finished trace of the chapter's kernel on the same
 * input. Returns NULL with err filled on failure; free with
 * sv_lab_summary_destroy(). */
sv_lab_summary *sv_lab_summarize(const sv_trace *correct, uint32_t runs, const uint32_t *bits,
                                 const bool *known, char *err, size_t errlen);

/* The raw form of one trace (its pout cells per round, as sv_lab_summarize
 * reads them) appended at run index run of bits/known (sized by the caller). */
void sv_lab_raw_from_trace(const sv_trace *t, uint32_t run, uint32_t *bits, bool *known);

/* A summary of runs in which every cell held the correct kernel's value
 * (correct is its finished trace): the start the trace reader fills. */
sv_lab_summary *sv_lab_summary_all_correct(const sv_trace *correct, uint32_t runs, char *err,
                                           size_t errlen);

/* Fills trace t (from sv_trace_create) with one run's raw rounds as the lab
 * kernels dump them (bits[r * n + i]: thread i's pout cell after round r):
 * each thread's own cells, written where kernel k writes (sv_kernel_writes),
 * pin == pout == 0 for one-buffer kernels. Cells no round has written are
 * unwritten (`?`); known, when not NULL, clears further cells the emulator
 * knows to be `?`. */
void sv_lab_trace_from_raw(sv_trace *t, sv_kernel k, const uint32_t *bits, const bool *known);

#ifdef __cplusplus
}
#endif

#endif
