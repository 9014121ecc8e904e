/* wrong_signature.cu: a scan in place over one pointer, which is not the
 * contract's (const T *in, T *out, int n).
 *
 * Must give: exit 2; failure signature, the message naming the contract's
 * parameters (const int *, int *, int) and the kernel's (int *, int). */
__global__ void scan_one_pointer(int *data, int n)
{
    int i = threadIdx.x;
    if (i > 0 && i < n)
        data[i] += data[i - 1];
}
