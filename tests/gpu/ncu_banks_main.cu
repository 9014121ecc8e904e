/* Launches ncu_banks.cu's kernel at n = 32, 64 and 1024 for ncu (see there). */
#include <cstdio>
#include "ncu_banks.cu"

int main()
{
    int *in, *out;
    cudaMalloc(&in, 4096 * 4);
    cudaMalloc(&out, 4096 * 4);
    cudaMemset(in, 0, 4096 * 4);
    const int ns[3] = {32, 64, 1024};
    for (int k = 0; k < 3; k++) {
        banks<<<1, ns[k]>>>(in, out, ns[k]);
        cudaDeviceSynchronize();
    }
    printf("ran: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
