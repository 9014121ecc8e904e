/* syntax_error.cu: a missing semicolon.
 *
 * Must give: exit 2; failure compile, with the compiler's message at the
 * file's own line (the marked line, or the next one, where compilers notice
 * it). */
__global__ void scan_syntax(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    buf[i] = in[i] /* MARK: syntax */
    __syncthreads();
    out[i] = buf[i];
}
