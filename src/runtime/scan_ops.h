/* scan_ops.h: the scan a run asks for, as every kernel file sees it on both
 * runtimes (the CPU's after cuda_cpu.h, the GPU's after its prelude):
 *
 *   Op::apply(a, b)     a op b for --op (sum, max, min, product, xor), int or
 *                       float, bit for bit core's sv_op_apply (src/core/op.c):
 *                       int sum and product wrap modulo 2^32, float max/min
 *                       are fmaxf/fminf with max(-0, +0) = +0 and
 *                       min(-0, +0) = -0, every NaN is 0x7fffffff
 *   Op::identity(T())   what an exclusive scan puts in front (0, INT_MIN,
 *                       INT_MAX, 1, 0; -inf, inf for float)
 *   scan_exclusive      true for --exclusive
 *
 * So one kernel file (kernels/hillis_steele.cu) runs every operator, type
 * and scan; a file that writes its own + ignores them. The side that
 * includes this defines SV_SCAN_OP (core's sv_op: 0 sum, 1 max, 2 min,
 * 3 product, 4 xor) and SV_SCAN_EXCLUSIVE (0 or 1), a constant on the GPU
 * (NVRTC compiles every run) and the run's configuration on the CPU (one
 * build serves every operator). Xor on float is refused before any run. */
#ifndef SV_SCAN_OPS_H
#define SV_SCAN_OPS_H

/* In a namespace, brought in by the text the compilers get (source_scan.c:
 * `using sv_scan::Op;` before the file) unless the file declares an Op of
 * its own at file scope, which then compiles as it did before. */
namespace sv_scan {
struct Op {
    __device__ static int apply(int a, int b)
    {
        switch (SV_SCAN_OP) {
        case 1: return a > b ? a : b;
        case 2: return a < b ? a : b;
        case 3: return (int)((unsigned)a * (unsigned)b);
        case 4: return a ^ b;
        default: return (int)((unsigned)a + (unsigned)b);
        }
    }
    __device__ static float apply(float a, float b)
    {
        float r;
        switch (SV_SCAN_OP) {
        case 1:
            r = (a == 0.0f && b == 0.0f) ? (__float_as_int(a) < 0 ? b : a) : fmaxf(a, b);
            break;
        case 2:
            r = (a == 0.0f && b == 0.0f) ? (__float_as_int(a) < 0 ? a : b) : fminf(a, b);
            break;
        case 3: r = a * b; break;
        case 4: r = a; break; /* (refused before the run) */
        default: r = a + b; break;
        }
        return r != r ? __int_as_float(0x7fffffff) : r;
    }
    __device__ static int identity(int)
    {
        switch (SV_SCAN_OP) {
        case 1: return -2147483647 - 1;
        case 2: return 2147483647;
        case 3: return 1;
        default: return 0;
        }
    }
    __device__ static float identity(float)
    {
        switch (SV_SCAN_OP) {
        case 1: return -__int_as_float(0x7f800000);
        case 2: return __int_as_float(0x7f800000);
        case 3: return 1.0f;
        default: return 0.0f;
        }
    }
};
} /* namespace sv_scan */

#define scan_exclusive (SV_SCAN_EXCLUSIVE != 0)

#endif
