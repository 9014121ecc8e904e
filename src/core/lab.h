/* The mistakes lab, all of it: the registry of kernels (lab_registry.h), the
 * named schedules (lab_schedule.h), what every read of a run saw and its
 * words (lab_reads.h), a runtime's run read as rounds (lab_ktrace.h), the record a lab trace carries and its per-cell
 * summary (lab_record.h), summaries made from runs (lab_summary.h), and the
 * lab's part of the text table (lab_table.c). Include the part you use where
 * that is enough; this header is for the front ends that use them all. */
#ifndef SV_LAB_H
#define SV_LAB_H

#include <stdio.h>

#include "lab_ktrace.h"
#include "lab_reads.h"
#include "lab_record.h"
#include "lab_registry.h"
#include "lab_schedule.h"
#include "lab_summary.h"
#include "racecheck.h"
#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Prints t->lab as text: the kernel, how it ran, wrong runs and distinct
 * outputs, every divergent cell with its values and counts (the first
 * SV_LAB_TABLE_CELLS), in words why (emulated) and the racecheck hazards. */
#define SV_LAB_TABLE_CELLS 64
void sv_lab_print_table(const sv_trace *t, FILE *f);

#ifdef __cplusplus
}
#endif

#endif
