/* Private to the bench_*.cu files: each device-wide scan technique's
 * launcher, its scratch size and its operation count. bench_scans.cu owns the
 * scanner and calls these; they enqueue on the stream given and report launch
 * errors through the returned cudaError_t (the caller adds file:line). */
#ifndef SV_BENCH_SCANS_CUH
#define SV_BENCH_SCANS_CUH

#include "scan_cuda.h"

#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

namespace sv {

/* ---- hs: one pass, persistent, bulk-copy pipeline (bench_hs.cu) --------- */

/* Elements per tile of hs variant v (SV_CUDA_HS_AUTO: the default's, or
 * 0 <= v < sv_cuda_hs_variant_count()). */
size_t hs_tile(int variant);
/* Words (8 bytes each) of tile-status scratch that hs needs for n elements
 * with any variant: one status word per tile plus the tile counter. */
size_t hs_status_words(size_t max_n);
/* Resets the tile status (when more than one tile) and runs the scan. */
cudaError_t hs_launch(sv_type type, int variant, const void *in, void *out, size_t n,
                      unsigned long long *status, cudaStream_t stream);
double hs_ops(int variant, size_t n);

/* ---- hs-lookback: one pass, one tile per block (bench_hs_lookback.cu) ---- */

/* Status words (one per tile plus the counter); never more than hs's. */
size_t hs_lookback_status_words(size_t max_n);
cudaError_t hs_lookback_launch(sv_type type, const void *in, void *out, size_t n,
                               unsigned long long *status, cudaStream_t stream);
double hs_lookback_ops(size_t n);

/* ---- hs-naive: the chapter's block kernel, scaled (bench_hs_naive.cu) ---- */

struct BlockScan;
extern const BlockScan hs_naive_scan; /* run through scan_by_blocks */
double hs_naive_ops(size_t n);

/* ---- blelloch: up-sweep / down-sweep, scaled (bench_blelloch.cu) -------- */

extern const BlockScan blelloch_scan; /* run through scan_by_blocks */
double blelloch_ops(size_t n);

/* ---- Shared by the two block-recursive scans (bench_blocks.cu) ---------- */

inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

/* int32 adds wrap modulo 2^32 (in uint32, as the core does); float32 adds. */
__device__ __forceinline__ int32_t add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
__device__ __forceinline__ float add(float a, float b) { return a + b; }

/* A block scan kernel, as both techniques write it: block b scans its
 * `block` elements of in[0..n) into out and, when sums is not NULL, writes
 * its total to sums[b]. Its two instantiations, int32_t and float, of
 *   template <typename T> __global__ void k(const T *in, T *out, size_t n, T *sums)
 * are launched through cudaLaunchKernel. */
struct BlockScan {
    unsigned block;          /* elements per block */
    unsigned threads;        /* threads per block */
    const void *int32_kernel, *float_kernel;
};

/* The block-recursive driver of hs-naive and blelloch: scan each block with
 * bs, scan the block totals the same way one level up (in place, in
 * scratch), then add each block's prefix back (out[i] += sums[i / block - 1]
 * for i >= block). */
cudaError_t scan_by_blocks(sv_type type, const void *in, void *out, size_t n, void *scratch,
                           const BlockScan &bs, cudaStream_t stream);

/* Elements of scratch scan_by_blocks needs for up to max_n elements. */
size_t block_scratch(size_t max_n, unsigned block);

} // namespace sv

#endif
