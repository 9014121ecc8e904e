/* Private to the bench_*.cu files: each device-wide scan technique's
 * launcher, its scratch size and its operation count. bench_scans.cu owns the
 * scanner and calls these; they enqueue on the stream given and report launch
 * errors through the returned cudaError_t (the caller adds file:line). */
#ifndef SV_BENCH_SCANS_CUH
#define SV_BENCH_SCANS_CUH

#include "scan_cuda.h"

#include <cuda_runtime.h>
#include <cstddef>

namespace sv {

/* ---- hs: one pass, decoupled look-back (bench_hs.cu) -------------------- */

/* Elements per tile of hs variant v (0 <= v < sv_cuda_hs_variant_count()). */
size_t hs_tile(int variant);
/* Words (8 bytes each) of tile-status scratch that hs needs for n elements
 * with any variant: one status word per tile plus the tile counter. */
size_t hs_status_words(size_t max_n);
/* Resets the tile status (when more than one tile) and runs the scan. */
cudaError_t hs_launch(sv_type type, int variant, const void *in, void *out, size_t n,
                      unsigned long long *status, cudaStream_t stream);
double hs_ops(int variant, size_t n);

/* ---- hs-naive: the chapter's block kernel, scaled (bench_hs_naive.cu) ---- */

size_t hs_naive_scratch(size_t max_n); /* elements of block-total scratch */
cudaError_t hs_naive_launch(sv_type type, const void *in, void *out, size_t n,
                            void *scratch, cudaStream_t stream);
double hs_naive_ops(size_t n);

/* ---- blelloch: up-sweep / down-sweep, scaled (bench_blelloch.cu) -------- */

size_t blelloch_scratch(size_t max_n);
cudaError_t blelloch_launch(sv_type type, const void *in, void *out, size_t n,
                            void *scratch, cudaStream_t stream);
double blelloch_ops(size_t n);

/* ---- Shared by the two block-recursive scans ------------------------------ */

/* out[i] += sums[i / block - 1] for i >= block: each block gets the scanned
 * total of the blocks before it. One launch, one thread per element. */
cudaError_t add_block_prefix(sv_type type, void *out, size_t n, const void *sums,
                             unsigned block, cudaStream_t stream);

inline size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

} // namespace sv

#endif
