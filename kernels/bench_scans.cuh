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

/* ---- hs and hs-lookback: one pass, decoupled look-back ------------------ */

/* The tile-status scratch of the one-pass scans and the epoch of its last
 * launch (bench_hs_common.cuh: words are tagged with the launch's epoch, so
 * they need no reset between runs). Zero the words once (hs_status_init)
 * before the first launch; one HsStatus per buffer, used by one stream. */
struct HsStatus {
    unsigned long long *words;
    size_t count;   /* words in the buffer */
    unsigned epoch; /* of the last launch that used it; 0: none yet */
};
/* Zeroes st's words and its epoch (enqueued on stream). */
cudaError_t hs_status_init(HsStatus &st, cudaStream_t stream);
/* The epoch of the next launch on st (re-zeroing the words when 2^30 - 1
 * epochs are used up). */
cudaError_t hs_status_next(HsStatus &st, cudaStream_t stream, unsigned *epoch);

/* ---- hs: one pass, persistent, bulk-copy pipeline (bench_hs.cu) --------- */

/* Elements per tile of hs variant v (SV_CUDA_HS_AUTO: the default's, or
 * 0 <= v < sv_cuda_hs_variant_count()), for n elements (the default's tile
 * depends on n). */
size_t hs_tile(int variant, size_t n);
/* Words (8 bytes each) of tile-status scratch that hs or hs-lookback needs
 * for n elements with any variant: the two tile counters, then one status
 * word per tile. */
size_t hs_status_words(size_t max_n);
/* Runs the scan (variant SV_CUDA_HS_AUTO: the one picked for n); rec not
 * NULL: also records every tile there (the variants hs_can_record). */
cudaError_t hs_launch(sv_type type, int variant, const void *in, void *out, size_t n,
                      HsStatus &status, cudaStream_t stream,
                      sv_cuda_tile_record *rec = nullptr);
/* The variant hs runs at n (SV_CUDA_HS_AUTO resolved), and whether it can
 * record its tiles. */
int hs_variant_at(int variant, size_t n, sv_type type);
bool hs_can_record(int variant);
double hs_ops(int variant, size_t n);

/* ---- hs-lookback: one pass, one tile per block (bench_hs_lookback.cu) ---- */

cudaError_t hs_lookback_launch(sv_type type, const void *in, void *out, size_t n,
                               HsStatus &status, cudaStream_t stream);
double hs_lookback_ops(size_t n);

/* The one-tile-per-block kernel of hs-lookback in other shapes, for hs's
 * size-dependent choice: config c of hs_regs_count(), its tile, its name
 * and its operation count. */
int hs_regs_count();
size_t hs_regs_tile(int config);
const char *hs_regs_name(int config);
cudaError_t hs_regs_launch(int config, sv_type type, const void *in, void *out, size_t n,
                           HsStatus &status, cudaStream_t stream);
double hs_regs_ops(int config, size_t n);

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
