/* forbidden_include.cu: a kernel that includes a header. Only the CUDA
 * built-ins are available; #include is refused before compiling.
 *
 * Must give: exit 2; failure include, at the marked line, naming the header. */
#include <stdio.h> /* MARK: include */

__global__ void scan_include(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    out[i] = in[i];
}
