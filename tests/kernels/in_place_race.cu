/* in_place_race.cu: one buffer and one barrier per round, the race of the
 * chapter's "common mistakes" (and of mojo-gpu-puzzles #26): thread i reads
 * s[i - stride] while thread i - stride writes it, in the same interval.
 *
 * Must give: exit 4 under every schedule (hazards are found even when the
 * output happens to be right); in each round of stride t, cell c is written
 * by thread c and read by thread c + t for t <= c < n - t: n - 2t hazards per
 * round (t < n / 2), 10 at n = 8 (6 + 4 + 0), 8194 at n = 1024. Under
 * `sequential` thread i sees thread i - t's new value: the output is wrong
 * (3 4 11 11 15 16 22 25 expected; cell 2 holds 11 after round 1). */
__global__ void scan_race(const int *in, int *out, int n)
{
    __shared__ int s[1024];
    int i = threadIdx.x;
    s[i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        if (i >= stride)
            s[i] = s[i - stride] + s[i]; /* MARK: race */
        __syncthreads();
    }
    out[i] = s[i];
}
