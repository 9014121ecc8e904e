/* ho_intops.cu: CUDA's integer intrinsics on every value: __umulhi, __mulhi,
 * __mul24, __umul24, __sad, __usad, __hadd, __rhadd, __uhadd, __urhadd,
 * __byte_perm, the funnel shifts, __umul64hi, __mul64hi, and __saturatef
 * (exit 4). */
__global__ void ho_intops(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    int v = in[i] * 40503 - 1000000;
    unsigned u = (unsigned)v;
    unsigned r = __umulhi(u, 0x9e3779b9u) ^ (unsigned)__mulhi(v, -77777);
    r += (unsigned)__mul24(v, -3000) ^ __umul24(u, 0xfffff1u);
    r += __sad(v, -5, 1u) ^ __usad(u, 123456u, 2u);
    r += (unsigned)__hadd(v, 2147483000) ^ (unsigned)__rhadd(v, -2147483000) ^ __uhadd(u, 0xfffffff0u) ^ __urhadd(u, 3u);
    r += __byte_perm(u, 0x11223344u, 0x7531u + (unsigned)i) ^ __byte_perm(u, ~u, 0x3210u);
    r += __funnelshift_l(u, 0xabcdu, (unsigned)i) ^ __funnelshift_r(u, 0xabcdu, (unsigned)i * 3u);
    r += __funnelshift_lc(u, 0x1234u, (unsigned)i * 2u) ^ __funnelshift_rc(u, 0x1234u, (unsigned)i * 2u);
    r += (unsigned)(__umul64hi(0xfedcba9876543210ull, (unsigned long long)u * 977ull) >> 7);
    r += (unsigned)__mul64hi(-0x123456789abcdll, (long long)v * 31);
    r += (unsigned)(__saturatef((float)in[i] / 50.0f - 0.5f) * 1000.0f);
    out[i] = (int)r;
}
