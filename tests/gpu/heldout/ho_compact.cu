/* ho_compact.cu: stream compaction's first step in a warp: __ballot_sync of the positive values and each one's rank by __popc (exit 4). */
__global__ void ho_compact(const int *in, int *out, int n)
{
    int i = threadIdx.x, lane = i % warpSize;
    bool keep = in[i] > 0;
    unsigned m = __ballot_sync(0xffffffff, keep);
    unsigned below = m & ((1u << lane) - 1u);
    out[i] = keep ? __popc(below) : -1 - __popc(m);
}
