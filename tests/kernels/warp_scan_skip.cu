/* warp_scan_skip.cu: warp_scan.cu with its first round skipped (the loop
 * starts at d = 2), the bug a standard library's warp prefix sum shipped
 * (issue 30, modular PR #4508). For n <= 32 only (one warp).
 *
 * Must give: exit 4 (the output is wrong from cell 1: 1, expected 4); its
 * shuffle's registers are drawn as rows, row 0 the input and row 1 broken
 * at lane 1 (it holds 1, round 1 gives 4); no hazard. */
__global__ void warp_scan_skip(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int v = in[i];
    for (int d = 2; d < 32; d *= 2) {
        int up = __shfl_up_sync(0xffffffffu, v, d); // MARK: shuffle
        if ((i & 31) >= d)
            v += up;
    }
    out[i] = v;
}
