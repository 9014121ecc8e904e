/* The benchmark's algorithms: one registry of what scanviz-bench races, its
 * CSV names, and how the Measure view draws each one. Adding an algorithm is
 * one enum value and one row here, plus its entry point in kernels/
 * bench_scans.cu's table (indexed by the same enum). libc only. */
#ifndef SV_ALGO_H
#define SV_ALGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The GPU scans first, then the CPU scan (scanviz-bench runs it itself). */
typedef enum sv_algo {
    SV_ALGO_COPY,     /* device-to-device copy of the same bytes: the bound */
    SV_ALGO_CUB,      /* cub::DeviceScan::InclusiveSum: the reference */
    SV_ALGO_HS,       /* production Hillis-Steele: warp shuffles, look-back, bulk-copy pipeline */
    SV_ALGO_HS_LOOKBACK, /* the first one-pass hs: one tile per block, in registers */
    SV_ALGO_HS_NAIVE, /* the chapter's block kernel, scaled by scanning block totals */
    SV_ALGO_BLELLOCH, /* work-efficient up-sweep/down-sweep */
    SV_ALGO_CPU,      /* the sequential scan on one CPU core */
    SV_ALGO_COUNT
} sv_algo;

/* The GPU scans are 0 .. SV_ALGO_GPU_COUNT - 1. */
#define SV_ALGO_GPU_COUNT SV_ALGO_CPU

/* How the plot tells a series apart without colour. */
typedef enum sv_algo_marker {
    SV_MARKER_SQUARE, SV_MARKER_DIAMOND, SV_MARKER_CIRCLE, SV_MARKER_TRIANGLE,
    SV_MARKER_TRIANGLE_DOWN, SV_MARKER_CROSS
} sv_algo_marker;

typedef enum sv_algo_dash { SV_DASH_SOLID, SV_DASH_DASHED, SV_DASH_DOTTED, SV_DASH_DASHDOT } sv_algo_dash;

typedef struct sv_algo_info {
    const char *name;    /* in --algo and the CSV: "copy", "hs-naive" */
    const char *label;   /* in the plot's legend: "copy (the bound)" */
    uint32_t rgb;        /* 0xRRGGBB, Okabe-Ito; 0: the theme's text colour */
    uint32_t rgb_light;  /* on a light background, where rgb is too pale */
    sv_algo_marker marker;
    sv_algo_dash dash;
} sv_algo_info;

/* The row of a (NULL when a is out of range). */
const sv_algo_info *sv_algo_get(sv_algo a);
const char *sv_algo_name(sv_algo a); /* NULL when out of range */
bool sv_algo_from_name(const char *name, sv_algo *out);
bool sv_algo_is_gpu(sv_algo a);
/* "copy, cub, hs, hs-lookback, hs-naive, blelloch or cpu" (sep before the last: " or "
 * or ", "), for messages. */
void sv_algo_list(char *buf, size_t len, const char *last_sep);

#ifdef __cplusplus
}
#endif

#endif
