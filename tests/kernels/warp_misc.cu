/* warp_misc.cu: the other shuffles with widths, the bit intrinsics,
 * std::min / std::max, __ldg and the fences (issue 30). out[i] mixes
 * __shfl_sync (lane 3 of each 8), __shfl_down_sync by 2 in 16-lane
 * segments, __shfl_xor_sync by 5 and __shfl_xor_sync by 1 of a float in
 * 4-lane segments, and the bit intrinsics of in[i] (see the test's own
 * computation, warp_misc_want). The full mask in a partial warp; lanes whose
 * shuffles would read a lane that does not exist take their own value.
 *
 * Must give: exactly that, exit 0, every n from 1 to 1024. */
__global__ void warp_misc(const int *in, int *out, int n)
{
    int i = threadIdx.x, lane = i % 32, base = i - lane;
    int lanes = n - base < 32 ? n - base : 32;
    int x = __ldg(&in[i]);
    __threadfence_block();
    int a = lanes == 32 ? __shfl_sync(0xffffffffu, x, 3, 8) : x;
    int b = lanes == 32 ? __shfl_down_sync(0xffffffffu, x, 2, 16) : x;
    int c = lanes == 32 ? __shfl_xor_sync(0xffffffffu, x, 5) : x;
    float f = lanes == 32 ? __shfl_xor_sync(0xffffffffu, (float)x * 0.5f, 1, 4) : x * 0.5f;
    __threadfence();
    unsigned u = (unsigned)x * 2654435761u;
    int bits = __popc(u) + 33 * __clz((int)(u >> (x & 31))) + 33 * 65 * __ffs((int)(u << (x & 7)));
    unsigned r = __brev(u) ^ (unsigned)(__brevll((unsigned long long)u) >> 32);
    int m = std::max(std::min(a, b), c) + (int)std::sqrt(f * f);
    out[i] = bits + 7 * m + (int)(r & 0xffu) * 100003 + __popcll((unsigned long long)u << 31) +
             __clzll((long long)u) + __ffsll((long long)((unsigned long long)u << 30));
}
