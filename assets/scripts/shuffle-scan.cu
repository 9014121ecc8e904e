/* shuffle-scan.cu: the chapter's scan in one warp's registers, for the
 * presenter script shuffle-scan.txt (beside it). At stride d, lane i adds
 * the v of lane i - d, which __shfl_up_sync hands it: the chapter's rounds,
 * with no shared memory between them. n is at most 32 (one warp).
 *
 * The scan needs no shared memory at all: `row` is only there to be drawn.
 * After each round every lane stores its v into one of two rows (round r
 * into row r % 2, as the chapter's pout) and the barrier ends the round, so
 * the window shows each round's registers as a row of cells. No cell is
 * read: the values travel by shuffle, so no arrow is drawn. */
__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int row[]; /* the picture's rows, not the scan's memory */
    int i = threadIdx.x;
    unsigned lanes = n >= 32 ? 0xffffffffu : (1u << n) - 1u; /* the lanes that exist */
    int v = in[i];
    row[i] = v; /* round 0: the input, in registers */
    __syncthreads();
    for (int d = 1, r = 1; d < n; d *= 2, r++) {
        int up = __shfl_up_sync(lanes, v, d); /* lane i - d's v, or its own */
        if (i >= d) /* the chapter's guard: lanes left of d copy through */
            v += up;
        row[(r % 2) * n + i] = v;
        __syncthreads();
    }
    out[i] = v;
}
