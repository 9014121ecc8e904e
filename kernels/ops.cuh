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
#include <type_traits>

#include "../src/core/op.h" /* sv_value, SV_CANONICAL_NAN_BITS */

namespace sv {

/* v's bits as a To of the same size, on either side (memcpy is the defined
 * way in C++17; on the device it is one register move, as __float_as_uint). */
template <typename To, typename From>
__host__ __device__ inline To bit_cast(From v)
{
    static_assert(sizeof(To) == sizeof(From), "a bit cast keeps the size");
    To r;
    memcpy(&r, &v, sizeof r);
    return r;
}

/* Every NaN becomes SV_CANONICAL_NAN_BITS (what the GPU's arithmetic gives;
 * the core forces the same on the CPU, where x86 would differ). */
__host__ __device__ inline float canonical(float r)
{
    return r != r ? bit_cast<float>(uint32_t(SV_CANONICAL_NAN_BITS)) : r;
}

__host__ __device__ inline bool negative_bit(float f) { return (bit_cast<uint32_t>(f) >> 31) != 0; }

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
 * dispatch (dispatch_op below) never instantiates it with float. */
struct OpXor {
    __host__ __device__ static int32_t apply(int32_t a, int32_t b) { return a ^ b; }
    __host__ __device__ static int32_t identity(int32_t) { return 0; }
};

/* The host's one dispatch over core's operator and type: calls
 * f(Op{}, T{}) with the operator and element type that (op, type) name and
 * returns true; returns false, calling nothing, for a pair that is not
 * defined (xor on float32, or a value out of range). The launches of
 * trace_capture.cu and lab_runs.cu instantiate their kernels through it. */
template <typename T, typename F>
bool dispatch_op(sv_op op, F &f)
{
    switch (op) {
    case SV_OP_SUM: f(OpSum{}, T{}); return true;
    case SV_OP_MAX: f(OpMax{}, T{}); return true;
    case SV_OP_MIN: f(OpMin{}, T{}); return true;
    case SV_OP_PRODUCT: f(OpProduct{}, T{}); return true;
    case SV_OP_XOR:
        if constexpr (std::is_same_v<T, int32_t>) {
            f(OpXor{}, T{});
            return true;
        }
        return false;
    default: return false;
    }
}

template <typename F>
bool dispatch_op(sv_op op, sv_type type, F &&f)
{
    if (type == SV_TYPE_INT32)
        return dispatch_op<int32_t>(op, f);
    if (type == SV_TYPE_FLOAT32)
        return dispatch_op<float>(op, f);
    return false;
}

} // namespace sv

#endif
