/* The scan operators on the GPU, mirroring sv_op_apply() and sv_op_identity()
 * of src/core/op.c bit for bit, so that the CUDA trace and the CPU emulator's
 * trace are identical: int32 sum and product wrap modulo 2^32 (computed in
 * uint32 arithmetic, as the core does), float32 is IEEE single precision with
 * no fused operations, max/min of floats are fmaxf/fminf with the core's rule
 * for zeros of opposite sign (max(-0, +0) = +0, min(-0, +0) = -0, in either
 * order), and every NaN result is the canonical NaN 0x7fffffff. */
#ifndef SV_OPS_CUH
#define SV_OPS_CUH

#include <cstdint>
#include <cstring>
#include <cmath>

#include "../src/core/op.h" /* sv_value, SV_CANONICAL_NAN_BITS */

namespace sv {

__host__ __device__ inline uint32_t float_bits(float f)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(f);
#else
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
#endif
}

__host__ __device__ inline float bits_float(uint32_t u)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
#endif
}

/* Every NaN becomes SV_CANONICAL_NAN_BITS (what the GPU's arithmetic gives;
 * the core forces the same on the CPU, where x86 would differ). */
__host__ __device__ inline float canonical(float r)
{
    return r != r ? bits_float(SV_CANONICAL_NAN_BITS) : r;
}

__host__ __device__ inline bool negative_bit(float f) { return (float_bits(f) >> 31) != 0; }

/* Each operator: apply(a, b) is "a op b" with a = pin[i - stride] (the left
 * neighbour) and b = pin[i], in that order; identity() is what an exclusive
 * scan puts in front. Overloaded on the element type. */
struct OpSum {
    __host__ __device__ static int32_t apply(int32_t a, int32_t b)
    { return (int32_t)((uint32_t)a + (uint32_t)b); }
    __host__ __device__ static float apply(float a, float b) { return canonical(a + b); }
    __host__ __device__ static int32_t identity(int32_t) { return 0; }
    __host__ __device__ static float identity(float) { return 0.0f; }
};

struct OpProduct {
    __host__ __device__ static int32_t apply(int32_t a, int32_t b)
    { return (int32_t)((uint32_t)a * (uint32_t)b); }
    __host__ __device__ static float apply(float a, float b) { return canonical(a * b); }
    __host__ __device__ static int32_t identity(int32_t) { return 1; }
    __host__ __device__ static float identity(float) { return 1.0f; }
};

struct OpMax {
    __host__ __device__ static int32_t apply(int32_t a, int32_t b) { return a > b ? a : b; }
    __host__ __device__ static float apply(float a, float b)
    {
        if (a == 0.0f && b == 0.0f)
            return negative_bit(a) ? b : a;
        return canonical(fmaxf(a, b));
    }
    __host__ __device__ static int32_t identity(int32_t) { return INT32_MIN; }
    __host__ __device__ static float identity(float) { return -INFINITY; }
};

struct OpMin {
    __host__ __device__ static int32_t apply(int32_t a, int32_t b) { return a < b ? a : b; }
    __host__ __device__ static float apply(float a, float b)
    {
        if (a == 0.0f && b == 0.0f)
            return negative_bit(a) ? a : b;
        return canonical(fminf(a, b));
    }
    __host__ __device__ static int32_t identity(int32_t) { return INT32_MAX; }
    __host__ __device__ static float identity(float) { return INFINITY; }
};

/* Defined on int32 only: sv_op_valid() refuses xor on float32, and the host
 * dispatch in hillis_steele.cu never instantiates it with float. */
struct OpXor {
    __host__ __device__ static int32_t apply(int32_t a, int32_t b) { return a ^ b; }
    __host__ __device__ static int32_t identity(int32_t) { return 0; }
};

} // namespace sv

#endif
