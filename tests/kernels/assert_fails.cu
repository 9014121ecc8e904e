/* assert_fails.cu: assert(expr) in a kernel (issue 30): the test's input
 * has in[3] = 1000 and every other value below 100, so the assertion fails
 * in thread 3 alone. n >= 4.
 *
 * Must give: a failure, "thread 3: assert(in[i] < 100) failed at line N"
 * (the MARK's line), exit 5. */
__global__ void assert_fails(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    assert(in[i] < 100); /* MARK: assert */
    out[i] = in[i];
}
