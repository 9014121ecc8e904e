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

/* ---- blelloch: up-sweep / down-sweep, scaled (bench_blelloch.cu) -------- */

extern const BlockScan blelloch_scan; /* run through scan_by_blocks */

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
    /* The combining operations one block executes on len elements (the
     * last block's len may be short; 0 for len == 0), counted per thread as
     * the chapter counts them. */
    double (*block_ops)(size_t len);
};

/* The BlockScan of a kernel's two instantiations, their signature checked. */
inline BlockScan block_scan(unsigned block, unsigned threads,
                            void (*int32_kernel)(const int32_t *, int32_t *, size_t, int32_t *),
                            void (*float_kernel)(const float *, float *, size_t, float *),
                            double (*block_ops)(size_t len))
{
    return {block, threads, reinterpret_cast<const void *>(int32_kernel),
            reinterpret_cast<const void *>(float_kernel), block_ops};
}

/* The block-recursive driver of hs-naive and blelloch: scan each block with
 * bs, scan the block totals the same way one level up (in place, in
 * scratch), then add each block's prefix back (out[i] += sums[i / block - 1]
 * for i >= block). */
cudaError_t scan_by_blocks(sv_type type, const void *in, void *out, size_t n, void *scratch,
                           const BlockScan &bs, cudaStream_t stream);

/* The combining operations scan_by_blocks executes on n elements: at each
 * level the blocks' own (bs.block_ops), then one add per element past the
 * first block (the add-back), then the level above on the block totals. */
double by_blocks_ops(size_t n, const BlockScan &bs);

/* Elements of scratch scan_by_blocks needs for up to max_n elements. */
size_t block_scratch(size_t max_n, unsigned block);

} // namespace sv

#endif
