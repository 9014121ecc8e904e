// hs_lab: the development harness behind docs/performance.md's design
// measurements: every hs variant against hs-lookback, cub and copy at
// 2^20 .. 2^28, 2^28 - 1 and 123456789, int32 and float32 (each output
// checked on the GPU against cub's, cub's against the CPU), the odd sizes
// for compute-sanitizer, and one launch of each for ncu. Not built by Meson;
// from the repository root, with nvcc on the PATH:
//   nvcc -O3 -std=c++17 --expt-relaxed-constexpr -gencode arch=compute_90,code=sm_90 \
//     -o hs_lab tests/bench/hs_lab.cu kernels/bench_hs.cu kernels/bench_hs_lookback.cu
// usage: hs_lab bench REPS [variant...]   the table (two rounds, both medians)
//        hs_lab check MAXN                 odd sizes up to MAXN against the CPU
//        hs_lab prof N variant...          cub, hs-lookback, the variants, twice
#include "../../kernels/scan_cuda.h"
#include "../../kernels/bench_scans.cuh"
#include <cub/device/device_scan.cuh>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>
#include <string>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static uint64_t rng(uint64_t &s) { s ^= s >> 12; s ^= s << 25; s ^= s >> 27; return s * 0x2545F4914F6CDD1DULL; }
static void fill(bool flt, void *buf, size_t n, uint64_t seed) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
  if (!flt) { int32_t *p = (int32_t*)buf; for (size_t i = 0; i < n; i++) { int32_t v = (int32_t)(rng(s) % 2000) - 1000; p[i] = v >= 0 ? v + 1 : v; } }
  else { float *p = (float*)buf; for (size_t i = 0; i < n; i++) { float v = (float)(rng(s) >> 40) * (2.0f / 16777216.0f) - 1.0f; p[i] = v != 0.0f ? v : 0.5f; } }
}
static size_t host_check(bool flt, const void *in, const void *out, size_t n) {
  if (!flt) { const int32_t *x = (const int32_t*)in, *y = (const int32_t*)out; uint32_t a = 0;
    for (size_t i = 0; i < n; i++) { a += (uint32_t)x[i]; if ((uint32_t)y[i] != a) return i; } return n; }
  const float *x = (const float*)in, *y = (const float*)out; double a = 0, sc = 0;
  for (size_t i = 0; i < n; i++) { a += x[i]; sc += fabs((double)x[i]); if (!(fabs((double)y[i] - a) / sc <= 1e-5)) return i; } return n;
}
__global__ void absk(const float *x, float *y, size_t n) { for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) y[i] = fabsf(x[i]); }
__global__ void cmpk(bool flt, const void *a, const void *b, const float *absp, size_t n, unsigned long long *bad) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    bool ok;
    if (!flt) ok = ((const int32_t*)a)[i] == ((const int32_t*)b)[i];
    else { float u = ((const float*)a)[i], v = ((const float*)b)[i]; ok = fabsf(u - v) <= 2e-5f * absp[i] + 1e-6f; }
    if (!ok) atomicMin(bad, (unsigned long long)i);
  }
}

struct Ctx { bool flt; size_t maxn; void *in, *out, *ref; float *absp; void *cubtmp; size_t cubbytes; sv::HsStatus status; unsigned long long *bad; cudaStream_t st; };
enum { A_COPY = -3, A_CUB = -2, A_LB = -1 };
static std::string aname(int a) { if (a == A_COPY) return "copy"; if (a == A_CUB) return "cub"; if (a == A_LB) return "hs-lookback"; return "hs" + std::to_string(a); }
static cudaError_t enq(Ctx &c, int a, size_t n) {
  if (a == A_COPY) return cudaMemcpyAsync(c.out, c.in, n * 4, cudaMemcpyDeviceToDevice, c.st);
  if (a == A_CUB) { size_t b = c.cubbytes; return c.flt ? cub::DeviceScan::InclusiveSum(c.cubtmp, b, (const float*)c.in, (float*)c.out, (int)n, c.st) : cub::DeviceScan::InclusiveSum(c.cubtmp, b, (const int32_t*)c.in, (int32_t*)c.out, (int)n, c.st); }
  if (a == A_LB) return sv::hs_lookback_launch(c.flt ? SV_TYPE_FLOAT32 : SV_TYPE_INT32, c.in, c.out, n, c.status, c.st);
  return sv::hs_launch(c.flt ? SV_TYPE_FLOAT32 : SV_TYPE_INT32, a, c.in, c.out, n, c.status, c.st);
}
static Ctx make(bool flt, size_t maxn) {
  Ctx c{}; c.flt = flt; c.maxn = maxn; CK(cudaStreamCreateWithFlags(&c.st, cudaStreamNonBlocking));
  CK(cudaMalloc(&c.in, maxn * 4)); CK(cudaMalloc(&c.out, maxn * 4)); CK(cudaMalloc(&c.ref, maxn * 4)); CK(cudaMalloc(&c.absp, maxn * 4));
  c.cubbytes = 0; if (flt) CK(cub::DeviceScan::InclusiveSum(nullptr, c.cubbytes, (const float*)nullptr, (float*)nullptr, (int)maxn)); else CK(cub::DeviceScan::InclusiveSum(nullptr, c.cubbytes, (const int*)nullptr, (int*)nullptr, (int)maxn));
  CK(cudaMalloc(&c.cubtmp, c.cubbytes + 16)); c.status.count = sv::hs_status_words(maxn); CK(cudaMalloc(&c.status.words, c.status.count * 8)); CK(sv::hs_status_init(c.status, c.st)); CK(cudaMalloc(&c.bad, 8)); return c;
}
static void destroy(Ctx &c) { cudaFree(c.in); cudaFree(c.out); cudaFree(c.ref); cudaFree(c.absp); cudaFree(c.cubtmp); cudaFree(c.status.words); cudaFree(c.bad); cudaStreamDestroy(c.st); }

static int failures = 0;
// device compare of out with ref (ref valid); returns true if equal
static bool dev_check(Ctx &c, size_t n) {
  unsigned long long init = ~0ull; CK(cudaMemcpyAsync(c.bad, &init, 8, cudaMemcpyHostToDevice, c.st));
  cmpk<<<1024, 256, 0, c.st>>>(c.flt, c.out, c.ref, c.absp, n, c.bad); CK(cudaGetLastError());
  unsigned long long b; CK(cudaMemcpyAsync(&b, c.bad, 8, cudaMemcpyDeviceToHost, c.st)); CK(cudaStreamSynchronize(c.st));
  if (b != ~0ull) { printf("WRONG at %llu\n", b); failures++; return false; } return true;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage\n"); return 2; }
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  int rt = 0, drv = 0; cudaRuntimeGetVersion(&rt); cudaDriverGetVersion(&drv);
  printf("# %s, %d SMs, L2 %d MB, smem/SM %zu, runtime %d driver %d\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20, p.sharedMemPerMultiprocessor, rt, drv);
  const int nvar = sv_cuda_hs_variant_count();
  if (!strcmp(argv[1], "check")) {
    size_t maxn = strtoull(argv[2], 0, 10);
    const size_t sz[] = {1, 5, 31, 4095, 4096, 4097, 8191, 8193, 12289, 16385, 24577, 40961, 49153, 70001, 123457, 262147, 1000003};
    for (int t = 0; t < 2; t++) {
      Ctx c = make(t, maxn); std::vector<char> hin(maxn * 4), hout(maxn * 4);
      for (size_t n : sz) { if (n > maxn) continue; fill(t, hin.data(), n, 7 + n);
        CK(cudaMemcpy(c.in, hin.data(), n * 4, cudaMemcpyHostToDevice));
        for (int a = A_LB; a < nvar; a++) for (int rep = 0; rep < 2; rep++) {
          CK(cudaMemsetAsync(c.out, 0xA5, maxn * 4, c.st)); CK(enq(c, a, n)); if (rep) CK(enq(c, a, n));
          CK(cudaStreamSynchronize(c.st)); CK(cudaGetLastError());
          CK(cudaMemcpy(hout.data(), c.out, n * 4, cudaMemcpyDeviceToHost));
          size_t b = host_check(t, hin.data(), hout.data(), n);
          if (b != n) { printf("WRONG %s %s n=%zu at %zu\n", aname(a).c_str(), t ? "f32" : "i32", n, b); failures++; }
        } }
      destroy(c); printf("check %s done\n", t ? "float32" : "int32");
    }
    printf("check: %d failures\n", failures); return failures ? 1 : 0;
  }
  if (!strcmp(argv[1], "prof")) { // prof N variant...: cub then each hs variant, once each after one warm-up, int32
    size_t n = strtoull(argv[2], 0, 10); Ctx c = make(false, n); std::vector<char> hin(n * 4); fill(false, hin.data(), n, 5);
    CK(cudaMemcpy(c.in, hin.data(), n * 4, cudaMemcpyHostToDevice));
    std::vector<int> al = {A_CUB, A_LB}; for (int i = 3; i < argc; i++) al.push_back(atoi(argv[i]));
    for (int a : al) { CK(enq(c, a, n)); CK(cudaStreamSynchronize(c.st)); }
    for (int a : al) { CK(enq(c, a, n)); CK(cudaStreamSynchronize(c.st)); }
    CK(cudaGetLastError()); destroy(c); printf("prof done\n"); return 0;
  }
  int reps = atoi(argv[2]);
  std::vector<int> algos = {A_COPY, A_CUB, A_LB}; for (int v = 0; v < nvar; v++) algos.push_back(v);
  if (argc > 3) { algos = {A_COPY, A_CUB, A_LB}; for (int i = 3; i < argc; i++) algos.push_back(atoi(argv[i])); }
  const size_t sizes[] = {1u << 20, 1u << 22, 1u << 24, 1u << 26, 123456789, (1u << 28) - 1, 1u << 28};
  const size_t maxn = 1u << 28;
  std::vector<cudaEvent_t> ev(2 * reps); for (auto &e : ev) CK(cudaEventCreate(&e));
  std::vector<double> tm(reps);
  printf("%-7s %10s %-12s %9s %9s %8s %7s %7s\n", "type", "n", "algo", "med_us", "med2_us", "GB/s", "ofcopy", "vscub");
  for (int t = 0; t < 2; t++) {
    Ctx c = make(t, maxn); std::vector<char> hin(maxn * 4), hout(maxn * 4);
    for (size_t n : sizes) {
      fill(t, hin.data(), n, 1234 + n + t);
      CK(cudaMemcpy(c.in, hin.data(), n * 4, cudaMemcpyHostToDevice));
      CK(enq(c, A_CUB, n)); CK(cudaStreamSynchronize(c.st));
      CK(cudaMemcpy(hout.data(), c.out, n * 4, cudaMemcpyDeviceToHost));
      size_t b = host_check(t, hin.data(), hout.data(), n);
      if (b != n) { printf("CUB WRONG n=%zu at %zu\n", n, b); failures++; }
      CK(cudaMemcpy(c.ref, c.out, n * 4, cudaMemcpyDeviceToDevice));
      if (t) { absk<<<1024, 256, 0, c.st>>>((const float*)c.in, (float*)c.out, n); size_t bb = c.cubbytes; CK(cub::DeviceScan::InclusiveSum(c.cubtmp, bb, (const float*)c.out, c.absp, (int)n, c.st)); CK(cudaStreamSynchronize(c.st)); }
      std::vector<double> med(algos.size() * 2, 0);
      for (int round = 0; round < 2; round++)
        for (size_t ai = 0; ai < algos.size(); ai++) {
          int a = algos[ai];
          if (round == 0 && a != A_COPY) { CK(cudaMemsetAsync(c.out, 0xA5, n * 4, c.st)); CK(enq(c, a, n)); CK(cudaStreamSynchronize(c.st)); CK(cudaGetLastError()); if (!dev_check(c, n)) printf("  ^ %s %s n=%zu\n", aname(a).c_str(), t ? "f32" : "i32", n); }
          for (int w = 0; w < 3; w++) CK(enq(c, a, n));
          for (int r = 0; r < reps; r++) { CK(cudaEventRecord(ev[2 * r], c.st)); CK(enq(c, a, n)); CK(cudaEventRecord(ev[2 * r + 1], c.st)); }
          CK(cudaStreamSynchronize(c.st)); CK(cudaGetLastError());
          for (int r = 0; r < reps; r++) { float ms; CK(cudaEventElapsedTime(&ms, ev[2 * r], ev[2 * r + 1])); tm[r] = ms * 1e3; }
          std::sort(tm.begin(), tm.end()); med[ai * 2 + round] = tm[reps / 2];
          if (a != A_COPY && a != A_CUB && round == 1 && !dev_check(c, n)) printf("  ^ timed %s n=%zu\n", aname(a).c_str(), n);
        }
      double cp = std::min(med[0], med[1]), cb = std::min(med[2], med[3]);
      for (size_t ai = 0; ai < algos.size(); ai++) {
        double m = std::min(med[ai * 2], med[ai * 2 + 1]);
        printf("%-7s %10zu %-12s %9.2f %9.2f %8.1f %7.3f %7.3f\n", t ? "float32" : "int32", n, aname(algos[ai]).c_str(), med[ai * 2], med[ai * 2 + 1], 8.0 * n / m / 1e3, cp / m, m / cb);
      }
      fflush(stdout);
    }
    destroy(c);
  }
  printf("failures: %d\n", failures);
  return failures ? 1 : 0;
}
