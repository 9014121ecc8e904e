/* ballot_popc.cu: votes and bit intrinsics (issue 30). Each lane votes
 * in[i] > 0 with __ballot_sync; out[i] is the number of positive values in
 * its warp at lanes up to its own (__popc of the ballot under a lane mask),
 * plus 1000 when the whole warp is positive (__all_sync), plus 2000 when
 * any is (__any_sync), plus 10000 * (__ffs of the ballot), with __activemask
 * checked against the lanes that exist. The full mask is used in a partial
 * last warp: its missing lanes are not active.
 *
 * Must give: exactly that (the test's own computation), exit 0. */
__global__ void ballot_popc(const int *in, int *out, int n)
{
    int i = threadIdx.x, lane = i % 32;
    unsigned b = __ballot_sync(0xffffffffu, in[i] > 0);
    unsigned upto = lane == 31 ? 0xffffffffu : (1u << (lane + 1)) - 1;
    int r = __popc(b & upto);
    if (__all_sync(0xffffffffu, in[i] > 0))
        r += 1000;
    if (__any_sync(0xffffffffu, in[i] > 0))
        r += 2000;
    r += 10000 * __ffs((int)b);
    int base = i - lane, lanes = n - base < 32 ? n - base : 32;
    unsigned want = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    unsigned act = __activemask();
    if (!(act >> lane & 1) || (act & ~want))
        r = -1;
    out[i] = r;
}
