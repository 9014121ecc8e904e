// A scan whose staging has bank conflicts (issue 30): thread i stores its
// value into t[i & 1][i / 2], so at n = 8 the even threads write t[0][0..3]
// (banks 0..3) and the odd ones t[1][0..3], 32 words further: the same
// banks 0..3, two words each: the store takes two wavefronts, one conflict
// as ncu counts them, and all 8 cells are drawn barred, 2-way. Then each
// thread sums t's cells up to its own, every lane reading the same word at
// once (a broadcast: no conflict). Exit 0, the scan, no hazard. tests/render/test_kpane.c draws it.
__global__ void bank_pairs(const int *in, int *out, int n)
{
    __shared__ int t[2][32];
    int i = threadIdx.x;
    t[i & 1][i / 2] = in[i]; // MARK: store
    __syncthreads();
    int sum = 0;
    for (int j = 0; j <= i; j++)
        sum += t[j & 1][j / 2];
    out[i] = sum;
}
