/* nvcc_driver.cu: runs one kernel file as nvcc builds it, the independent
 * check of tests/gpu/nvcc_agree.py (what the H200 itself gives, with no
 * scanviz code between the kernel and the hardware but the scan's operator,
 * scan_ops.h, which every kernel file is given).
 *
 *   nvcc -arch=sm_90 -lineinfo -I src/runtime -DSV_KFILE='"k.cu"'
 *        -DSV_ENTRY='name' (or 'name<int>') -DSV_T=int -DSV_SCAN_OP=0
 *        -DSV_SCAN_EXCLUSIVE=0 -o k tests/gpu/nvcc_driver.cu
 *   ./k VALUES-FILE   (each value's 32 bits in hex, one a line)
 *
 * Launches the entry once, as scanviz does: one block of n threads (n = the
 * values' count, 1 .. 1024), 2 * n * sizeof(T) bytes of dynamic shared
 * memory. The kernel's printf comes first (the device's buffer, flushed at
 * the synchronization); then "sv-out" and out[] one value a line (its 32
 * bits in hex). Exit 5 when the launch fails. */
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "scan_ops.h"
using sv_scan::Op;
#include SV_KFILE

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    FILE *f = fopen(argv[1], "r");
    if (!f) return 2;
    static SV_T v[1024];
    int n = 0;
    unsigned bits;
    while (n < 1024 && fscanf(f, "%x", &bits) == 1) memcpy(&v[n++], &bits, 4);
    fclose(f);
    if (n < 1) return 2;
    SV_T *din, *dout;
    cudaMalloc(&din, n * sizeof(SV_T));
    cudaMalloc(&dout, n * sizeof(SV_T));
    cudaMemcpy(din, v, n * sizeof(SV_T), cudaMemcpyHostToDevice);
    cudaMemset(dout, 0, n * sizeof(SV_T));
    SV_ENTRY<<<1, n, 2 * n * sizeof(SV_T)>>>(din, dout, n);
    cudaError_t e = cudaDeviceSynchronize();
    fflush(stdout);
    if (e != cudaSuccess) {
        printf("sv-fail %s\n", cudaGetErrorString(e));
        return 5;
    }
    cudaMemcpy(v, dout, n * sizeof(SV_T), cudaMemcpyDeviceToHost);
    printf("sv-out\n");
    for (int i = 0; i < n; i++) {
        unsigned u;
        memcpy(&u, &v[i], 4);
        printf("%08x\n", u);
    }
    return 0;
}
