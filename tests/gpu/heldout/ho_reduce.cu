/* ho_reduce.cu: the sm_80 warp reductions, __reduce_add/min/max_sync on int
 * and unsigned and __reduce_and/or/xor_sync, over full and partial masks
 * (exit 4). */
__global__ void ho_reduce(const int *in, int *out, int n)
{
    int i = threadIdx.x, lane = i & 31;
    int v = in[i];
    int s = __reduce_add_sync(0xffffffff, v);
    int mn = __reduce_min_sync(0xffffffff, v);
    unsigned mx = __reduce_max_sync(0xffffffff, (unsigned)v);
    unsigned x = __reduce_xor_sync(0xffffffff, (unsigned)v) ^ __reduce_or_sync(0xffffffff, (unsigned)i);
    unsigned a = __reduce_and_sync(0xffffffff, (unsigned)v | 0x100u);
    int part = 0;
    if (lane < 8)
        part = __reduce_max_sync(0xffu, v);
    out[i] = s + 1000 * mn + (int)(mx & 0xff) + (int)x + (int)a + 7 * part;
}
