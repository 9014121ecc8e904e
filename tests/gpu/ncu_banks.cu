/* The bank-conflict patterns of tests/cli/test_banks.py as a CUDA program, to
 * compare the CPU runtime's counts with ncu's on a GPU by hand (the suite's
 * check is nvcc_agree.py, with ho_stride.cu and Blelloch). On the GPU machine:
 *   nvcc -arch=sm_90 -O3 -lineinfo -o /tmp/banks tests/gpu/ncu_banks_main.cu
 *   ncu --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,\
 *       l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum /tmp/banks
 * and against: scanviz-trace --kernel-file tests/gpu/ncu_banks.cu --random N
 * --format json (its "bank_conflicts"), for the three launches' N. This file
 * is the kernel (the test's, a kernel file as any); ncu_banks_main.cu, which
 * includes it, launches it. */
__global__ void banks(const int *in, int *out, int n)
{
    __shared__ int s[2048];
    __shared__ long long d[1024];
    int i = threadIdx.x;
    s[i] = in[i];                      // A: stride 1
    s[(2 * i) % 2048] = in[i];         // B: stride 2
    s[(32 * i) % 2048] = in[i];        // C: stride 32
    s[(33 * i) % 2048] = in[i];        // D: stride 33 (odd: none)
    d[i] = in[i];                      // E: 8 bytes, stride 1
    __syncthreads();
    int v = s[0] + s[i / 4];           // F: a broadcast, then four lanes a word
    v += s[(2 * i) % 2048];            // G: stride 2
    v += (int)d[(2 * i) % 1024];       // H: 8 bytes, stride 2
    v += s[(64 * i + (i & 1)) % 2048]; // I: two words per bank... every lane its own
    out[i] = v;
}
