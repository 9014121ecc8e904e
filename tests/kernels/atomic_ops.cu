/* atomic_ops.cu: what each atomic returns and leaves (issue 30). Thread i
 * (i < 16) alone uses word w[i] of a shared array: it stores in[i], applies
 * atomic i to it with the operand in[i + 16] (n >= 32), and writes the old
 * value it got to out[i] and what the word holds then to out[i + 16]. The
 * other threads write in[i]. The float add works on the bits of the word.
 *
 * Must give: CUDA's results (the test's own computation), exit 0, no hazard. */
__global__ void atomic_ops(const int *in, int *out, int n)
{
    __shared__ int w[16];
    int i = threadIdx.x;
    if (i < 16) {
        int a = in[i], b = in[i + 16], old = 0;
        w[i] = a;
        unsigned *u = (unsigned *)&w[i];
        switch (i) {
        case 0: old = atomicAdd(&w[i], b); break;
        case 1: old = atomicSub(&w[i], b); break;
        case 2: old = atomicMin(&w[i], b); break;
        case 3: old = atomicMax(&w[i], b); break;
        case 4: old = atomicExch(&w[i], b); break;
        case 5: old = atomicCAS(&w[i], a, b); break;
        case 6: old = atomicCAS(&w[i], a + 1, b); break;
        case 7: old = atomicAnd(&w[i], b); break;
        case 8: old = atomicOr(&w[i], b); break;
        case 9: old = atomicXor(&w[i], b); break;
        case 10: old = (int)atomicInc(u, (unsigned)b); break;
        case 11: old = (int)atomicDec(u, (unsigned)b); break;
        case 12: old = (int)atomicMin(u, (unsigned)b); break;
        case 13: old = (int)atomicMax(u, (unsigned)b); break;
        case 14: old = __float_as_int(atomicAdd((float *)&w[i], __int_as_float(b))); break;
        default: old = (int)atomicAdd(u, (unsigned)b); break;
        }
        out[i] = old;
        out[i + 16] = w[i];
    } else if (i >= 32) {
        out[i] = in[i];
    }
}
