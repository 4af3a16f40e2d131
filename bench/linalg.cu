// Linear algebra on the GPU: the workloads of bench/cupy_linalg.py. Each
// row has cupp's call and the raw vendor call(s) doing the same work,
// timed with CUDA events in the same run (median of repeated loops after a
// warm-up; few repetitions for the slow rows), and cupp's result is
// checked once against the vendor's.
//
//   matmul.8192.f16            matmul of 8192² float16 (cublasGemmEx, float32 accumulation)
//   matmul.8192.f32            8192² float32 (cublasSgemm, no TF32)
//   matmul.4096.f64            4096² float64 (cublasDgemm)
//   matmul.4096.c64            4096² complex64 (cublasCgemm)
//   matmul.65536x8x8.f32       65,536 stacked 8x8 float32 (cublasSgemmStridedBatched); GB/s
//                              of A and B read and C written, against copy.65536x8x8, a
//                              cudaMemcpyAsync moving the same bytes. The calls cycle
//                              through operand sets spanning 4x the L2, so none is cached.
//   matmul.4096.f32            one 4096² float32 product (cublasSgemm)
//   matmul_2aa_c.4096.f32      2 * matmul(a, a) + c (cublasSgemm with alpha 2, beta 1 into a
//                              copy of c: the one-gemm floor)
//   matmul_tf32.8192.f32       8192² float32 with TF32 allowed (cupp::cuda::set_allow_tf32,
//                              cublasSgemm under CUBLAS_TF32_TENSOR_OP_MATH)
//   inv.100000x4x4.f32         inv of 100,000 stacked 4x4 float32 (cublas getrfBatched +
//                              getriBatched, and matinvBatched); unchecked and checked
//   solve.100000x4x4.f32       solve with (100000, 4, 1) right sides (getrfBatched +
//                              getrsBatched); unchecked and checked
//   svd.1000.f64               svd of 1000² float64, full matrices (cusolverDnXgesvd 'A',
//                              cusolverDnXgesvdp); ||U S Vh - A|| / ||A|| printed beside it
//   norm2.1000.f64             norm(a, 2) (Xgesvd without vectors)
//   svdvals.1000.f64           svdvals (Xgesvd without vectors, Xgesvdp without vectors)
//   qr.1000.f64                qr, reduced (Xgeqrf + Dorgqr)
//   det.1000.f64               det (Xgetrf + a product of the diagonal)
//   inv.1000.f64               inv (Xgetrf + Xgetrs of the identity)
//   eigh.1000.f64              eigh of a symmetric positive definite matrix (Xsyevd)
//   cholesky.1000.f64          cholesky, lower (Xpotrf)
//   solve.1000.f64.vector      solve with a (1000,) right side, and with (1000, 1)
//   solve.1000.f64.column      (Xgetrf + Xgetrs)
//
// Unless a row says "checked", cupp's timed calls run in a
// cupp::linalg::unchecked scope: CuPy's default does not read the solvers'
// status either. The vendor figures include the copy of the input that a
// routine overwriting it needs (cupp and CuPy copy too); their workspaces
// are allocated once, before the timing.
//
// Inputs, the same in cupp_linalg.py: element k of a matrix of side n is
// scale * u(k) (+ 1 on the diagonal), u a splitmix64 hash of (seed, k) in
// [-0.5, 0.5) computed in float64 and rounded to the dtype; the symmetric
// matrices hash (seed, the upper triangle's index). Square matrices are
// I + (0.5 / sqrt(n)) u: condition number about 2, determinant well inside
// float64's range.
//
//   bench_linalg [--runs 7] [--loop-ms 20] [--only SUBSTRING] [--json FILE]
#include <cupp/cupp.hpp>
#include <cupp/cuda/blas.hpp>
#include <cupp/cuda/solver.hpp>
#include <cupp/linalg/eigen.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/linalg/norms.hpp>
#include <cupp/linalg/qr.hpp>
#include <cupp/linalg/solve.hpp>
#include <cupp/linalg/svd.hpp>

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cusolverDn.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "bench_rows.hpp"

namespace {

using cupp::index_t;

using namespace bench_rows;

// Each row is checked once: a wrong answer fails the run.
void expect_close(const std::string& name, double got, double want, double tol) {
  if (!(std::abs(got - want) <= tol * (1 + std::abs(want))))
    throw std::runtime_error(name + ": wrong result " + std::to_string(got) + ", expected " +
                             std::to_string(want));
}

template <class X>
double scalar_of(const X& x) {
  if constexpr (std::is_arithmetic_v<X>)
    return static_cast<double>(x);
  else
    return static_cast<double>(x.item());
}

template <class T>
double as_double(T v) {
  if constexpr (std::is_same_v<T, __half>)
    return static_cast<double>(__half2float(v));
  else if constexpr (cupp::detail::is_complex_type_v<T>)
    return static_cast<double>(v.real());
  else
    return static_cast<double>(v);
}

// ---- inputs ------------------------------------------------------------------

struct fill_spec {
  std::uint64_t seed;
  std::int64_t side;  // 0: a plain array, no diagonal
  double scale;
  bool symmetric;
};

__device__ double fill_value(const fill_spec& s, std::int64_t k) {
  std::int64_t at = k;
  double diagonal = 0;
  if (s.side > 0) {
    const std::int64_t per = s.side * s.side, local = k % per;
    const std::int64_t r = local / s.side, c = local % s.side;
    if (s.symmetric && c < r) at = k - local + c * s.side + r;
    diagonal = r == c ? 1.0 : 0.0;
  }
  std::uint64_t z = s.seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(at);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return s.scale * (static_cast<double>(z >> 11) * 0x1.0p-53 - 0.5) + diagonal;
}

template <class T>
__global__ void fill_kernel(T* x, std::int64_t n, fill_spec s) {
  for (std::int64_t k = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; k < n;
       k += std::int64_t{gridDim.x} * blockDim.x) {
    if constexpr (std::is_same_v<T, __half>)
      x[k] = __float2half_rn(static_cast<float>(fill_value(s, k)));
    else if constexpr (cupp::detail::is_complex_type_v<T>)  // a plain array's 2k and 2k + 1
      x[k] =
          T(static_cast<float>(fill_value(s, 2 * k)), static_cast<float>(fill_value(s, 2 * k + 1)));
    else
      x[k] = static_cast<T>(fill_value(s, k));
  }
}

template <class T>
cupp::ndarray<T> filled(const cupp::shape_t& shape, fill_spec s) {
  cupp::ndarray<T> x = cupp::empty<T>(shape);
  fill_kernel<T><<<1024, 256, 0, stream()>>>(x.data(), x.size(), s);
  BENCH_CHECK(cudaGetLastError());
  return x;
}

// A square (or stacked square) matrix of side n: I + (0.5 / sqrt(n)) u.
template <class T>
cupp::ndarray<T> well_conditioned(const cupp::shape_t& shape, std::uint64_t seed,
                                  bool symmetric = false) {
  const index_t n = shape[shape.size() - 1];
  return filled<T>(shape, {seed, n, 0.5 / std::sqrt(static_cast<double>(n)), symmetric});
}

template <class T>
cupp::ndarray<T> plain(const cupp::shape_t& shape, std::uint64_t seed) {
  return filled<T>(shape, {seed, 0, 1.0, false});
}

// A column-major copy of each matrix of a stack (what the vendor routines
// read): the stack's transpose, C-contiguous.
template <class T>
cupp::ndarray<T> column_major(const cupp::ndarray<T>& x) {
  return cupp::ascontiguousarray(x.swapaxes(-1, -2));
}

void copy_async(void* to, const void* from, std::size_t bytes) {
  BENCH_CHECK(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream()));
}

// ---- the vendor side -----------------------------------------------------------

#define BENCH_VENDOR(call) cupp::cuda::check((call), #call)

// Handles of the bench's own (not cupp's), on cupp's current stream.
struct vendor {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  cusolverDnParams_t params = nullptr;
  vendor() {
    BENCH_VENDOR(cublasCreate(&blas));
    BENCH_VENDOR(cublasSetStream(blas, stream()));
    BENCH_VENDOR(cublasSetMathMode(blas, CUBLAS_DEFAULT_MATH));
    BENCH_VENDOR(cusolverDnCreate(&solver));
    BENCH_VENDOR(cusolverDnSetStream(solver, stream()));
    BENCH_VENDOR(cusolverDnCreateParams(&params));
  }
  ~vendor() {
    (void)cusolverDnDestroyParams(params);
    (void)cusolverDnDestroy(solver);
    (void)cublasDestroy(blas);
  }
  vendor(const vendor&) = delete;
  vendor& operator=(const vendor&) = delete;
};

// Device and host workspace of one cuSOLVER routine, sized once.
struct workspace {
  cupp::ndarray<std::uint8_t> device;
  std::vector<std::uint8_t> host;
  std::size_t device_bytes, host_bytes;
  workspace(std::size_t d, std::size_t h)
      : device(cupp::empty<std::uint8_t>({static_cast<index_t>(std::max<std::size_t>(d, 1))})),
        host(std::max<std::size_t>(h, 1)),
        device_bytes(d),
        host_bytes(h) {}
};

// Row-major C = A B through column-major cuBLAS: C^T = B^T A^T.
void vendor_gemm(cublasHandle_t h, int n, const float* a, const float* b, float* c, float alpha = 1,
                 float beta = 0) {
  BENCH_VENDOR(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b, n, a, n, &beta, c, n));
}
void vendor_gemm(cublasHandle_t h, int n, const double* a, const double* b, double* c) {
  const double one = 1, zero = 0;
  BENCH_VENDOR(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n));
}
void vendor_gemm(cublasHandle_t h, int n, const cupp::complex64* a, const cupp::complex64* b,
                 cupp::complex64* c) {
  const cuComplex one{1, 0}, zero{0, 0};
  BENCH_VENDOR(cublasCgemm(
      h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, reinterpret_cast<const cuComplex*>(b), n,
      reinterpret_cast<const cuComplex*>(a), n, &zero, reinterpret_cast<cuComplex*>(c), n));
}
void vendor_gemm(cublasHandle_t h, int n, const __half* a, const __half* b, __half* c) {
  const float one = 1, zero = 0;
  BENCH_VENDOR(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, CUDA_R_16F, n, a,
                            CUDA_R_16F, n, &zero, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
                            CUBLAS_GEMM_DEFAULT));
}
const char* vendor_gemm_name(const float*) {
  return "cublasSgemm";
}
const char* vendor_gemm_name(const double*) {
  return "cublasDgemm";
}
const char* vendor_gemm_name(const cupp::complex64*) {
  return "cublasCgemm";
}
const char* vendor_gemm_name(const __half*) {
  return "cublasGemmEx";
}

// The determinant from an LU factorisation: the diagonal's product, negated
// once per row interchange (one block).
__global__ void lu_determinant(const double* lu, const std::int64_t* ipiv, std::int64_t n,
                               double* out) {
  __shared__ double part[256];
  double p = 1;
  for (std::int64_t i = threadIdx.x; i < n; i += 256)
    p *= ipiv[i] != i + 1 ? -lu[i * n + i] : lu[i * n + i];
  part[threadIdx.x] = p;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] *= part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = part[0];
}

// Pointers to the matrices of a contiguous stack (the batched cuBLAS calls
// take arrays of them).
template <class T>
__global__ void stack_pointers(T** p, T* base, std::int64_t stride, std::int64_t count) {
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    p[i] = base + i * stride;
}

template <class T>
T** pointers_into(cupp::ndarray<std::uint64_t>& storage, T* base, index_t stride, index_t count) {
  storage = cupp::empty<std::uint64_t>({count});
  T** p = reinterpret_cast<T**>(storage.data());
  stack_pointers<<<256, 256, 0, stream()>>>(p, base, stride, count);
  BENCH_CHECK(cudaGetLastError());
  return p;
}

// ||U diag(S) V' - A||_F / ||A||_F for column-major n x n matrices, V' = V
// (op N) or its transpose (op T), computed with cuBLAS in float64.
double reconstruction_error(const vendor& v, index_t n, const double* u, const double* s,
                            const double* vt, cublasOperation_t op, const double* a) {
  const int m = static_cast<int>(n);
  cupp::ndarray<double> w = cupp::empty<double>({n, n}), r = cupp::empty<double>({n, n});
  BENCH_VENDOR(cublasDdgmm(v.blas, CUBLAS_SIDE_RIGHT, m, m, u, m, s, 1, w.data(), m));
  copy_async(r.data(), a, sizeof(double) * n * n);
  const double one = 1, minus_one = -1;
  BENCH_VENDOR(cublasDgemm(v.blas, CUBLAS_OP_N, op, m, m, m, &one, w.data(), m, vt, m, &minus_one,
                           r.data(), m));
  double num = 0, den = 0;
  BENCH_VENDOR(cublasDnrm2(v.blas, m * m, r.data(), 1, &num));
  BENCH_VENDOR(cublasDnrm2(v.blas, m * m, a, 1, &den));
  return num / den;
}

// ---- products --------------------------------------------------------------------

// ---- the large products, every way of making the call ----------------------------
//
// For float16, float32 and float64 the product is timed, in alternation, as
// cupp makes it (cupp::matmul), as the bench's raw call makes it, as cupp
// calls cuBLAS (strided batched with one matrix, cupp's handle and its 32
// MiB workspace from the pool), as CuPy 14.2 calls cuBLAS (cublasGemmEx on
// a handle of its own with cuBLAS's default workspace, algorithm
// CUBLAS_GEMM_DEFAULT_TENSOR_OP, compute type 32F for float16 and float32,
// 64F for float64), and through cuBLASLt (its first heuristic, and the
// fastest of its first eight, 32 MiB workspace). Each way's result is
// compared with cupp's bit for bit: the same bits mean the same kernel.

template <class T>
constexpr cudaDataType_t cuda_type() {
  if constexpr (std::is_same_v<T, __half>)
    return CUDA_R_16F;
  else if constexpr (std::is_same_v<T, float>)
    return CUDA_R_32F;
  else
    return CUDA_R_64F;
}
template <class T>
constexpr cublasComputeType_t compute_type() {
  return std::is_same_v<T, double> ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
}
template <class T>
using scale_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Row-major C = A B (n x n) as cupp calls cuBLAS for one product.
template <class T>
void cupp_style_gemm(cublasHandle_t h, int n, const T* a, const T* b, T* c) {
  const scale_t<T> one = 1, zero = 0;
  const long long s = static_cast<long long>(n) * n;
  if constexpr (std::is_same_v<T, float>)
    BENCH_VENDOR(cublasSgemmStridedBatched_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, s,
                                              a, n, s, &zero, c, n, s, 1));
  else if constexpr (std::is_same_v<T, double>)
    BENCH_VENDOR(cublasDgemmStridedBatched_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, s,
                                              a, n, s, &zero, c, n, s, 1));
  else
    BENCH_VENDOR(cublasGemmStridedBatchedEx_64(
        h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, CUDA_R_16F, n, s, a, CUDA_R_16F, n, s, &zero,
        c, CUDA_R_16F, n, s, 1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

// The same as CuPy 14.2's tensordot_core_v11 calls it.
template <class T>
void cupy_style_gemm(cublasHandle_t h, int n, const T* a, const T* b, T* c) {
  const scale_t<T> one = 1, zero = 0;
  BENCH_VENDOR(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, cuda_type<T>(), n, a,
                            cuda_type<T>(), n, &zero, c, cuda_type<T>(), n, compute_type<T>(),
                            CUBLAS_GEMM_DEFAULT_TENSOR_OP));
}

// A cuBLASLt product of n x n matrices and the algorithms its heuristic
// offers for it.
template <class T>
struct lt_product {
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t layout = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  std::vector<cublasLtMatmulHeuristicResult_t> algos;
  cupp::ndarray<std::uint8_t> workspace;
  std::size_t workspace_bytes = std::size_t{32} << 20;
  lt_product(int n) : workspace(cupp::empty<std::uint8_t>({index_t{32} << 20})) {
    BENCH_VENDOR(cublasLtCreate(&lt));
    BENCH_VENDOR(cublasLtMatmulDescCreate(&op, compute_type<T>(),
                                          std::is_same_v<T, double> ? CUDA_R_64F : CUDA_R_32F));
    BENCH_VENDOR(cublasLtMatrixLayoutCreate(&layout, cuda_type<T>(), n, n, n));
    BENCH_VENDOR(cublasLtMatmulPreferenceCreate(&pref));
    BENCH_VENDOR(cublasLtMatmulPreferenceSetAttribute(
        pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes, sizeof workspace_bytes));
    algos.resize(8);
    int found = 0;
    BENCH_VENDOR(cublasLtMatmulAlgoGetHeuristic(lt, op, layout, layout, layout, layout, pref, 8,
                                                algos.data(), &found));
    algos.resize(static_cast<std::size_t>(found));
  }
  ~lt_product() {
    (void)cublasLtMatmulPreferenceDestroy(pref);
    (void)cublasLtMatrixLayoutDestroy(layout);
    (void)cublasLtMatmulDescDestroy(op);
    (void)cublasLtDestroy(lt);
  }
  lt_product(const lt_product&) = delete;
  lt_product& operator=(const lt_product&) = delete;
  void run(std::size_t algo, const T* a, const T* b, T* c) {
    const scale_t<T> one = 1, zero = 0;
    BENCH_VENDOR(cublasLtMatmul(lt, op, &one, b, layout, a, layout, &zero, c, layout, c, layout,
                                &algos[algo].algo, workspace.data(), workspace_bytes, stream()));
  }
};

// Calls timed in alternation (a loop of each, `runs` times; medians), as
// time_pair does for two.
void time_group(row& r, const options& o,
                const std::vector<std::pair<std::string, std::function<void()>>>& calls) {
  for (const auto& c : calls) c.second();
  BENCH_CHECK(cudaStreamSynchronize(stream()));
  const auto t0 = bench::clock_type::now();
  calls[0].second();
  BENCH_CHECK(cudaStreamSynchronize(stream()));
  const double once = bench::seconds_since(t0) * 1e3;
  const int reps = std::clamp(static_cast<int>(o.loop_ms / std::max(once, 1e-3)), 1, 50);
  std::vector<std::vector<double>> t(calls.size());
  for (int run = 0; run < o.runs; ++run)
    for (std::size_t k = 0; k < calls.size(); ++k)
      t[k].push_back(bench::median_ms_per_call(stream(), 1, reps, calls[k].second));
  for (std::size_t k = 0; k < calls.size(); ++k) {
    std::sort(t[k].begin(), t[k].end());
    r.figures.push_back({calls[k].first, t[k][t[k].size() / 2]});
    std::printf("  %-34s %10.4f ms\n", calls[k].first.c_str(), t[k][t[k].size() / 2]);
  }
}

// How many elements of two device buffers differ, bit for bit, and by how
// much at most.
template <class T>
std::pair<std::size_t, double> compare_bits(const T* x, const T* y, std::size_t n) {
  std::vector<T> hx(n), hy(n);
  BENCH_CHECK(cudaStreamSynchronize(stream()));
  BENCH_CHECK(cudaMemcpy(hx.data(), x, n * sizeof(T), cudaMemcpyDeviceToHost));
  BENCH_CHECK(cudaMemcpy(hy.data(), y, n * sizeof(T), cudaMemcpyDeviceToHost));
  std::size_t differ = 0;
  double most = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (std::memcmp(&hx[i], &hy[i], sizeof(T)) != 0) {
      ++differ;
      most = std::max(most, std::abs(as_double(hx[i]) - as_double(hy[i])));
    }
  return {differ, most};
}

template <class T>
void square_matmul(bench_run& b, const vendor& v, const options& o, const std::string& name,
                   index_t n, double tol) {
  if (!b.wanted(name)) return;
  row& r = b.start(name, "cupp::matmul(a, b)");
  const cupp::ndarray<T> x = plain<T>({n, n}, 1), y = plain<T>({n, n}, 2);
  cupp::ndarray<T> z, w = cupp::empty<T>({n, n});
  const int ni = static_cast<int>(n);
  if constexpr (std::is_same_v<T, cupp::complex64>) {
    b.time_pair(
        r, "cupp", [&] { z = cupp::matmul(x, y); }, vendor_gemm_name(x.data()),
        [&] { vendor_gemm(v.blas, ni, x.data(), y.data(), w.data()); });
  } else {
    const int device = cupp::cuda::runtime::getDevice();
    // CuPy's handle: cublasCreate and the current stream, nothing else set.
    cublasHandle_t cupy_handle = nullptr;
    BENCH_VENDOR(cublasCreate(&cupy_handle));
    BENCH_VENDOR(cublasSetStream(cupy_handle, stream()));
    lt_product<T> lt(ni);
    std::vector<cupp::ndarray<T>> out;
    for (int k = 0; k < 5; ++k) out.push_back(cupp::empty<T>({n, n}));
    // The fastest of cuBLASLt's offers, by a short timing of each.
    std::size_t best = 0;
    double best_ms = 1e30;
    for (std::size_t k = 0; k < lt.algos.size(); ++k) {
      const double ms = bench::median_ms_per_call(
          stream(), 3, 2, [&] { lt.run(k, x.data(), y.data(), out[4].data()); });
      std::printf("  cublasLt heuristic #%zu %38.4f ms\n", k, ms);
      if (ms < best_ms) best_ms = ms, best = k;
    }
    b.extra(r, "lt_algos", static_cast<double>(lt.algos.size()));
    b.extra(r, "lt_best_index", static_cast<double>(best));
    std::vector<std::pair<std::string, std::function<void()>>> calls = {
        {"cupp", [&] { z = cupp::matmul(x, y); }},
        {vendor_gemm_name(x.data()),
         [&] { vendor_gemm(v.blas, ni, x.data(), y.data(), w.data()); }},
        {"as cupp calls cuBLAS",
         [&] {
           cupp_style_gemm(cupp::cuda::blas_handle(device), ni, x.data(), y.data(), out[0].data());
         }},
        {"as CuPy calls cuBLAS",
         [&] { cupy_style_gemm(cupy_handle, ni, x.data(), y.data(), out[1].data()); }}};
    if (!lt.algos.empty()) {
      calls.push_back(
          {"cublasLt heuristic #0", [&] { lt.run(0, x.data(), y.data(), out[2].data()); }});
      calls.push_back({"cublasLt fastest of " + std::to_string(lt.algos.size()),
                       [&] { lt.run(best, x.data(), y.data(), out[3].data()); }});
    }
    time_group(r, o, calls);
    const std::size_t count = static_cast<std::size_t>(n * n);
    std::vector<std::pair<std::string, const T*>> others = {
        {"raw", w.data()}, {"cupp_style", out[0].data()}, {"cupy_style", out[1].data()}};
    if (!lt.algos.empty()) {
      others.push_back({"lt0", out[2].data()});
      others.push_back({"lt_fastest", out[3].data()});
    }
    for (const auto& [who, p] : others) {
      const auto [differ, most] = compare_bits(z.data(), p, count);
      b.extra(r, "differ_from_cupp " + who, static_cast<double>(differ));
      b.extra(r, "max_abs_diff " + who, most);
    }
    (void)cublasDestroy(cupy_handle);
  }
  for (index_t i : {index_t{0}, n / 3, n - 1})
    expect_close(name, as_double(z.item(i, n - 1 - i)), as_double(w.item(i, n - 1 - i)), tol);
}

// The cuBLAS and cuBLASLt this process runs (CuPy's may be others: compare
// with cupy_linalg.py's line).
void print_blas_versions() {
  int major = 0, minor = 0, patch = 0;
  (void)cublasGetProperty(MAJOR_VERSION, &major);
  (void)cublasGetProperty(MINOR_VERSION, &minor);
  (void)cublasGetProperty(PATCH_LEVEL, &patch);
  Dl_info blas{}, lt{};
  (void)::dladdr(reinterpret_cast<const void*>(&cublasCreate_v2), &blas);
  (void)::dladdr(reinterpret_cast<const void*>(&cublasLtCreate), &lt);
  std::printf("cuBLAS %d.%d.%d (%s), cuBLASLt %zu (%s)\n", major, minor, patch,
              blas.dli_fname ? blas.dli_fname : "?", cublasLtGetVersion(),
              lt.dli_fname ? lt.dli_fname : "?");
}

void stacked_matmul(bench_run& b, const vendor& v, int l2_bytes) {
  const std::string name = "matmul.65536x8x8.f32";
  if (!b.wanted(name)) return;
  row& r =
      b.start(name, "cupp::matmul(a, b) of (65536, 8, 8) stacks; GB/s of a, b read, c written");
  const index_t count = 65536, per = 64, elems = count * per;
  const double bytes = 3.0 * elems * 4;
  // Operand sets (a and b side by side, and an output with room for the
  // copy's 1.5 operands) spanning four times the L2.
  const int sets = std::max(2, static_cast<int>(std::ceil(4.0 * l2_bytes / bytes)));
  std::vector<cupp::ndarray<float>> ab, out;
  for (int k = 0; k < sets; ++k) {
    ab.push_back(plain<float>({2, count, 8, 8}, 100 + k));
    out.push_back(cupp::empty<float>({3 * elems / 2}));
  }
  std::size_t k = 0;
  const double copy_ms = b.time(r, "copy (cudaMemcpyAsync, same bytes)", [&] {
    const std::size_t i = k++ % ab.size();
    copy_async(out[i].data(), ab[i].data(), static_cast<std::size_t>(bytes / 2));
  });
  cupp::ndarray<float> z;
  const double cupp_ms = b.time(r, "cupp", [&] {
    const std::size_t i = k++ % ab.size();
    z = cupp::matmul(ab[i](0), ab[i](1));
  });
  const float one = 1, zero = 0;
  const double vendor_ms = b.time(r, "cublasSgemmStridedBatched", [&] {
    const std::size_t i = k++ % ab.size();
    const float* a = ab[i].data();
    BENCH_VENDOR(cublasSgemmStridedBatched(v.blas, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one,
                                           a + elems, 8, per, a, 8, per, &zero, out[i].data(), 8,
                                           per, static_cast<int>(count)));
  });
  const double copy_gbs = bytes / (copy_ms * 1e-3) / 1e9;
  b.extra(r, "copy_gbs", copy_gbs);
  b.extra(r, "cupp_gbs", bytes / (cupp_ms * 1e-3) / 1e9);
  b.extra(r, "cupp_of_copy_pct", 100.0 * copy_ms / cupp_ms);
  b.extra(r, "vendor_gbs", bytes / (vendor_ms * 1e-3) / 1e9);
  b.extra(r, "vendor_of_copy_pct", 100.0 * copy_ms / vendor_ms);
  // Checked on the first set, both computed again.
  z = cupp::matmul(ab[0](0), ab[0](1));
  const float* a = ab[0].data();
  BENCH_VENDOR(cublasSgemmStridedBatched(v.blas, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, a + elems,
                                         8, per, a, 8, per, &zero, out[0].data(), 8, per,
                                         static_cast<int>(count)));
  for (index_t m : {index_t{0}, count - 1})
    expect_close(name, z.item(m, 3, 5), out[0].item(m * per + 3 * 8 + 5), 1e-5);
}

void fused_matmul(bench_run& b, const vendor& v) {
  const std::string name = "matmul_2aa_c.4096.f32";
  if (!b.wanted(name) && !b.wanted("matmul.4096.f32")) return;
  const index_t n = 4096;
  const cupp::ndarray<float> a = plain<float>({n, n}, 3), c = plain<float>({n, n}, 4);
  cupp::ndarray<float> z, p, w = cupp::empty<float>({n, n});
  {
    row& r = b.start("matmul.4096.f32", "cupp::matmul(a, a): one product, the fused row's floor");
    b.time_pair(
        r, "cupp", [&] { p = cupp::matmul(a, a); }, "cublasSgemm",
        [&] { vendor_gemm(v.blas, static_cast<int>(n), a.data(), a.data(), w.data()); });
  }
  row& r = b.start(name, "z = 2 * cupp::matmul(a, a) + c; target: one gemm's time");
  // The floor: one gemm with alpha 2 and beta 1 into c's copy (it
  // accumulates over the calls, which changes nothing in the timing).
  copy_async(w.data(), c.data(), sizeof(float) * n * n);
  b.time_pair(
      r, "cupp", [&] { z = 2 * cupp::matmul(a, a) + c; }, "cublasSgemm alpha=2 beta=1",
      [&] { vendor_gemm(v.blas, static_cast<int>(n), a.data(), a.data(), w.data(), 2, 1); });
  p = cupp::matmul(a, a);
  for (index_t i : {index_t{0}, n / 2, n - 1})
    expect_close(name, z.item(i, 7), 2.0 * p.item(i, 7) + c.item(i, 7), 1e-5);
}

void tf32_matmul(bench_run& b, const vendor& v) {
  const std::string name = "matmul_tf32.8192.f32";
  if (!b.wanted(name)) return;
  row& r = b.start(name, "cupp::cuda::set_allow_tf32(true); cupp::matmul(a, b)");
  const index_t n = 8192;
  const cupp::ndarray<float> x = plain<float>({n, n}, 1), y = plain<float>({n, n}, 2);
  cupp::ndarray<float> z, w = cupp::empty<float>({n, n});
  b.time_pair(
      r, "cupp",
      [&] {
        cupp::cuda::set_allow_tf32(true);
        z = cupp::matmul(x, y);
        cupp::cuda::set_allow_tf32(false);
      },
      "cublasSgemm (TF32_TENSOR_OP_MATH)",
      [&] {
        BENCH_VENDOR(cublasSetMathMode(v.blas, CUBLAS_TF32_TENSOR_OP_MATH));
        vendor_gemm(v.blas, static_cast<int>(n), x.data(), y.data(), w.data());
        BENCH_VENDOR(cublasSetMathMode(v.blas, CUBLAS_DEFAULT_MATH));
      });
  // TF32 keeps 10 mantissa bits: sums of 8192 products of [-0.5, 0.5).
  expect_close(name, z.item(5, 9), w.item(5, 9), 1e-2);
}

// ---- 100,000 stacked 4x4 ------------------------------------------------------

void small_stacks(bench_run& b, const vendor& v, const cupp::ndarray<float>& a) {
  const index_t count = 100000, n = 4;
  const std::int64_t per = n * n;
  const cupp::ndarray<float> rhs = plain<float>({count, n, 1}, 12);
  const cupp::ndarray<float> acm = column_major(a);  // what cuBLAS reads
  cupp::ndarray<float> work = cupp::empty<float>({count, n, n}),
                       out = cupp::empty<float>({count, n, n}),
                       x = cupp::empty<float>({count, n, 1});
  cupp::ndarray<int> pivots = cupp::empty<int>({count, n}), info = cupp::empty<int>({count});
  cupp::ndarray<std::uint64_t> p1, p2, p3, p4;
  float** acm_p = pointers_into(p1, const_cast<float*>(acm.data()), per, count);
  float** work_p = pointers_into(p2, work.data(), per, count);
  float** out_p = pointers_into(p3, out.data(), per, count);
  float** x_p = pointers_into(p4, x.data(), n, count);
  const int ni = static_cast<int>(n), ci = static_cast<int>(count);

  if (b.wanted("inv.100000x4x4.f32")) {
    row& r = b.start("inv.100000x4x4.f32",
                     "cupp::linalg::inv(a), unchecked (CuPy's default); "
                     "cupp.checked: NumPy's default");
    cupp::ndarray<float> z;
    {
      cupp::linalg::unchecked scope;
      b.time(r, "cupp", [&] { z = cupp::linalg::inv(a); });
    }
    b.time(r, "cupp.checked", [&] { z = cupp::linalg::inv(a); });
    b.time(r, "cublasSgetrfBatched+getriBatched", [&] {
      copy_async(work.data(), acm.data(), sizeof(float) * count * per);
      BENCH_VENDOR(cublasSgetrfBatched(v.blas, ni, work_p, ni, pivots.data(), info.data(), ci));
      BENCH_VENDOR(
          cublasSgetriBatched(v.blas, ni, work_p, ni, pivots.data(), out_p, ni, info.data(), ci));
    });
    b.time(r, "cublasSmatinvBatched", [&] {
      BENCH_VENDOR(cublasSmatinvBatched(v.blas, ni, acm_p, ni, out_p, ni, info.data(), ci));
    });
    // out holds each inverse column-major: out[m, c, r] is inv(a)[m, r, c].
    for (index_t m : {index_t{0}, count - 1})
      expect_close("inv.100000x4x4.f32", z.item(m, 1, 2), out.item(m, 2, 1), 1e-4);
  }
  if (b.wanted("solve.100000x4x4.f32")) {
    row& r = b.start("solve.100000x4x4.f32",
                     "cupp::linalg::solve(a, b), b (100000, 4, 1), unchecked; cupp.checked: "
                     "NumPy's default");
    cupp::ndarray<float> z;
    {
      cupp::linalg::unchecked scope;
      b.time(r, "cupp", [&] { z = cupp::linalg::solve(a, rhs); });
    }
    b.time(r, "cupp.checked", [&] { z = cupp::linalg::solve(a, rhs); });
    int host_info = 0;
    b.time(r, "cublasSgetrfBatched+getrsBatched", [&] {
      copy_async(work.data(), acm.data(), sizeof(float) * count * per);
      copy_async(x.data(), rhs.data(), sizeof(float) * count * n);
      BENCH_VENDOR(cublasSgetrfBatched(v.blas, ni, work_p, ni, pivots.data(), info.data(), ci));
      BENCH_VENDOR(cublasSgetrsBatched(v.blas, CUBLAS_OP_N, ni, 1, work_p, ni, pivots.data(), x_p,
                                       ni, &host_info, ci));
    });
    for (index_t m : {index_t{0}, count / 2, count - 1})
      expect_close("solve.100000x4x4.f32", z.item(m, 2, 0), x.item(m, 2, 0), 1e-4);
  }
}

// ---- 1000² float64 --------------------------------------------------------------

struct square_problem {
  index_t n;
  cupp::ndarray<double> a, a_cm, spd, rhs, eye;
};

void lu_rows(bench_run& b, const vendor& v, const square_problem& q,
             const cupp::ndarray<double>& a) {
  const index_t n = q.n;
  const std::size_t mat = sizeof(double) * n * n;
  cupp::ndarray<double> lu = cupp::empty<double>({n, n}), x = cupp::empty<double>({n, n}),
                        det_out = cupp::empty<double>({1});
  cupp::ndarray<std::int64_t> ipiv = cupp::empty<std::int64_t>({n});
  cupp::ndarray<int> info = cupp::empty<int>({1});
  std::size_t dbytes = 0, hbytes = 0;
  BENCH_VENDOR(cusolverDnXgetrf_bufferSize(v.solver, v.params, n, n, CUDA_R_64F, lu.data(), n,
                                           CUDA_R_64F, &dbytes, &hbytes));
  workspace ws(dbytes, hbytes);
  auto getrf = [&] {
    copy_async(lu.data(), q.a_cm.data(), mat);
    BENCH_VENDOR(cusolverDnXgetrf(v.solver, v.params, n, n, CUDA_R_64F, lu.data(), n, ipiv.data(),
                                  CUDA_R_64F, ws.device.data(), ws.device_bytes, ws.host.data(),
                                  ws.host_bytes, info.data()));
  };
  auto getrs = [&](index_t nrhs) {
    BENCH_VENDOR(cusolverDnXgetrs(v.solver, v.params, CUBLAS_OP_N, n, nrhs, CUDA_R_64F, lu.data(),
                                  n, ipiv.data(), CUDA_R_64F, x.data(), n, info.data()));
  };

  if (b.wanted("solve.1000.f64.vector") || b.wanted("solve.1000.f64.column")) {
    const cupp::ndarray<double> column = q.rhs.reshape({n, 1});
    double vendor_ms = 0;
    for (const bool vector : {true, false}) {
      const std::string name = vector ? "solve.1000.f64.vector" : "solve.1000.f64.column";
      row& r = b.start(name, vector ? "cupp::linalg::solve(a, b), b (1000,), unchecked"
                                    : "cupp::linalg::solve(a, b), b (1000, 1), unchecked");
      cupp::ndarray<double> z;
      {
        cupp::linalg::unchecked scope;
        if (vector)
          b.time(r, "cupp", [&] { z = cupp::linalg::solve(a, q.rhs); });
        else
          b.time(r, "cupp", [&] { z = cupp::linalg::solve(a, column); });
      }
      // One right side either way: the vendor figure is measured once.
      if (vector)
        vendor_ms = b.time(r, "cusolverDnXgetrf+Xgetrs", [&] {
          getrf();
          copy_async(x.data(), q.rhs.data(), sizeof(double) * n);
          getrs(1);
        });
      else
        r.figures.push_back({"cusolverDnXgetrf+Xgetrs", vendor_ms});
      for (index_t i : {index_t{0}, n - 1})
        expect_close(name, vector ? z.item(i) : z.item(i, 0), x.item(0, i), 1e-10);
    }
  }
  if (b.wanted("det.1000.f64")) {
    row& r = b.start("det.1000.f64", "cupp::linalg::det(a), unchecked");
    double d = 0;
    {
      cupp::linalg::unchecked scope;
      decltype(cupp::linalg::det(a)) z;
      b.time(r, "cupp", [&] { z = cupp::linalg::det(a); });
      d = scalar_of(z);
    }
    b.time(r, "cusolverDnXgetrf+diagonal product", [&] {
      getrf();
      lu_determinant<<<1, 256, 0, stream()>>>(lu.data(), ipiv.data(), n, det_out.data());
    });
    expect_close("det.1000.f64", d, det_out.item(0), 1e-9);
  }
  if (b.wanted("inv.1000.f64")) {
    row& r = b.start("inv.1000.f64", "cupp::linalg::inv(a), unchecked");
    cupp::ndarray<double> z;
    {
      cupp::linalg::unchecked scope;
      b.time(r, "cupp", [&] { z = cupp::linalg::inv(a); });
    }
    b.time(r, "cusolverDnXgetrf+Xgetrs(I)", [&] {
      getrf();
      copy_async(x.data(), q.eye.data(), mat);
      getrs(n);
    });
    // x is inv(a) column-major: x[c, r] is inv(a)[r, c].
    for (index_t i : {index_t{0}, n / 2, n - 1})
      expect_close("inv.1000.f64", z.item(i, 3), x.item(3, i), 1e-10);
  }
}

void factor_rows(bench_run& b, const vendor& v, const square_problem& q,
                 const cupp::ndarray<double>& a, const cupp::ndarray<double>& spd) {
  const index_t n = q.n;
  const std::size_t mat = sizeof(double) * n * n;
  cupp::ndarray<double> work = cupp::empty<double>({n, n}), tau = cupp::empty<double>({n}),
                        w = cupp::empty<double>({n});
  cupp::ndarray<int> info = cupp::empty<int>({1});

  if (b.wanted("cholesky.1000.f64")) {
    row& r = b.start("cholesky.1000.f64", "cupp::linalg::cholesky(a), lower, unchecked");
    std::size_t d = 0, h = 0;
    BENCH_VENDOR(cusolverDnXpotrf_bufferSize(v.solver, v.params, CUBLAS_FILL_MODE_LOWER, n,
                                             CUDA_R_64F, work.data(), n, CUDA_R_64F, &d, &h));
    workspace ws(d, h);
    cupp::ndarray<double> z;
    {
      cupp::linalg::unchecked scope;
      b.time(r, "cupp", [&] { z = cupp::linalg::cholesky(spd); });
    }
    b.time(r, "cusolverDnXpotrf", [&] {
      copy_async(work.data(), q.spd.data(), mat);
      BENCH_VENDOR(cusolverDnXpotrf(v.solver, v.params, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F,
                                    work.data(), n, CUDA_R_64F, ws.device.data(), ws.device_bytes,
                                    ws.host.data(), ws.host_bytes, info.data()));
    });
    const cupp::ndarray<double> llt = cupp::matmul(z, z.T());
    for (index_t i : {index_t{0}, n / 2, n - 1})
      expect_close("cholesky.1000.f64", llt.item(i, n - 1 - i), q.spd.item(i, n - 1 - i), 1e-12);
  }
  if (b.wanted("qr.1000.f64")) {
    row& r = b.start("qr.1000.f64", "cupp::linalg::qr(a), reduced, unchecked");
    std::size_t d = 0, h = 0;
    BENCH_VENDOR(cusolverDnXgeqrf_bufferSize(v.solver, v.params, n, n, CUDA_R_64F, work.data(), n,
                                             CUDA_R_64F, tau.data(), CUDA_R_64F, &d, &h));
    int orgqr_elems = 0;
    const int ni = static_cast<int>(n);
    BENCH_VENDOR(cusolverDnDorgqr_bufferSize(v.solver, ni, ni, ni, work.data(), ni, tau.data(),
                                             &orgqr_elems));
    workspace ws(std::max(d, sizeof(double) * orgqr_elems), h);
    decltype(cupp::linalg::qr(a)) z;
    {
      cupp::linalg::unchecked scope;
      b.time(r, "cupp", [&] { z = cupp::linalg::qr(a); });
    }
    b.time(r, "cusolverDnXgeqrf+Dorgqr", [&] {
      copy_async(work.data(), q.a_cm.data(), mat);
      BENCH_VENDOR(cusolverDnXgeqrf(v.solver, v.params, n, n, CUDA_R_64F, work.data(), n,
                                    CUDA_R_64F, tau.data(), CUDA_R_64F, ws.device.data(),
                                    ws.device_bytes, ws.host.data(), ws.host_bytes, info.data()));
      BENCH_VENDOR(cusolverDnDorgqr(v.solver, ni, ni, ni, work.data(), ni, tau.data(),
                                    reinterpret_cast<double*>(ws.device.data()), orgqr_elems,
                                    info.data()));
    });
    const cupp::ndarray<double> qr = cupp::matmul(z.Q, z.R);
    for (index_t i : {index_t{0}, n / 2, n - 1})
      expect_close("qr.1000.f64", qr.item(i, 11), q.a.item(i, 11), 1e-12);
  }
  if (b.wanted("eigh.1000.f64")) {
    row& r =
        b.start("eigh.1000.f64", "cupp::linalg::eigh(a), symmetric positive definite, unchecked");
    std::size_t d = 0, h = 0;
    BENCH_VENDOR(cusolverDnXsyevd_bufferSize(v.solver, v.params, CUSOLVER_EIG_MODE_VECTOR,
                                             CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F, work.data(), n,
                                             CUDA_R_64F, w.data(), CUDA_R_64F, &d, &h));
    workspace ws(d, h);
    decltype(cupp::linalg::eigh(spd)) z;
    b.time_pair(
        r, "cupp",
        [&] {
          cupp::linalg::unchecked scope;
          z = cupp::linalg::eigh(spd);
        },
        "cusolverDnXsyevd",
        [&] {
          copy_async(work.data(), q.spd.data(), mat);
          BENCH_VENDOR(cusolverDnXsyevd(
              v.solver, v.params, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, CUDA_R_64F,
              work.data(), n, CUDA_R_64F, w.data(), CUDA_R_64F, ws.device.data(), ws.device_bytes,
              ws.host.data(), ws.host_bytes, info.data()));
        });
    for (index_t i : {index_t{0}, n - 1})
      expect_close("eigh.1000.f64", z.eigenvalues.item(i), w.item(i), 1e-12);
  }
}

void svd_rows(bench_run& b, const vendor& v, const square_problem& q,
              const cupp::ndarray<double>& a) {
  const index_t n = q.n;
  const std::size_t mat = sizeof(double) * n * n;
  cupp::ndarray<double> work = cupp::empty<double>({n, n}), u = cupp::empty<double>({n, n}),
                        vt = cupp::empty<double>({n, n}), s = cupp::empty<double>({n});
  cupp::ndarray<int> info = cupp::empty<int>({1});
  auto gesvd_workspace = [&](signed char job) {
    std::size_t d = 0, h = 0;
    BENCH_VENDOR(cusolverDnXgesvd_bufferSize(
        v.solver, v.params, job, job, n, n, CUDA_R_64F, work.data(), n, CUDA_R_64F, s.data(),
        CUDA_R_64F, u.data(), n, CUDA_R_64F, vt.data(), n, CUDA_R_64F, &d, &h));
    return workspace(d, h);
  };
  auto gesvdp_workspace = [&](cusolverEigMode_t job) {
    std::size_t d = 0, h = 0;
    BENCH_VENDOR(cusolverDnXgesvdp_bufferSize(
        v.solver, v.params, job, 0, n, n, CUDA_R_64F, work.data(), n, CUDA_R_64F, s.data(),
        CUDA_R_64F, u.data(), n, CUDA_R_64F, vt.data(), n, CUDA_R_64F, &d, &h));
    return workspace(d, h);
  };
  auto gesvd = [&](workspace& ws, signed char job) {
    copy_async(work.data(), q.a_cm.data(), mat);
    BENCH_VENDOR(cusolverDnXgesvd(v.solver, v.params, job, job, n, n, CUDA_R_64F, work.data(), n,
                                  CUDA_R_64F, s.data(), CUDA_R_64F, u.data(), n, CUDA_R_64F,
                                  vt.data(), n, CUDA_R_64F, ws.device.data(), ws.device_bytes,
                                  ws.host.data(), ws.host_bytes, info.data()));
  };
  double err_sigma = 0;
  auto gesvdp = [&](workspace& ws, cusolverEigMode_t job) {
    copy_async(work.data(), q.a_cm.data(), mat);
    BENCH_VENDOR(cusolverDnXgesvdp(v.solver, v.params, job, 0, n, n, CUDA_R_64F, work.data(), n,
                                   CUDA_R_64F, s.data(), CUDA_R_64F, u.data(), n, CUDA_R_64F,
                                   vt.data(), n, CUDA_R_64F, ws.device.data(), ws.device_bytes,
                                   ws.host.data(), ws.host_bytes, info.data(), &err_sigma));
  };
  auto expect_ok = [&](const char* name) {
    if (info.item(0) != 0)
      throw std::runtime_error(std::string(name) + ": the vendor call's info is " +
                               std::to_string(info.item(0)));
  };

  if (b.wanted("svd.1000.f64")) {
    row& r = b.start("svd.1000.f64",
                     "cupp::linalg::svd(a), full_matrices, unchecked; "
                     "error: ||U S Vh - A|| / ||A||, target <= 1e-13");
    decltype(cupp::linalg::svd(a)) z;
    {
      cupp::linalg::unchecked scope;
      b.time(r, "cupp", [&] { z = cupp::linalg::svd(a); });
    }
    // cupp's factors are row-major: read column-major they are Vh^T and
    // U^T, and Vh^T S U^T is A^T, a's buffer read column-major.
    const cupp::ndarray<double> uc = cupp::ascontiguousarray(z.U),
                                vc = cupp::ascontiguousarray(z.Vh);
    b.extra(r, "cupp_error",
            reconstruction_error(v, n, vc.data(), z.S.data(), uc.data(), CUBLAS_OP_N, q.a.data()));
    {
      workspace ws = gesvd_workspace('A');
      b.time(r, "cusolverDnXgesvd", [&] { gesvd(ws, 'A'); });
      expect_ok("svd.1000.f64 (gesvd)");
      b.extra(
          r, "gesvd_error",
          reconstruction_error(v, n, u.data(), s.data(), vt.data(), CUBLAS_OP_N, q.a_cm.data()));
    }
    {
      workspace ws = gesvdp_workspace(CUSOLVER_EIG_MODE_VECTOR);
      b.time(r, "cusolverDnXgesvdp", [&] { gesvdp(ws, CUSOLVER_EIG_MODE_VECTOR); });
      expect_ok("svd.1000.f64 (gesvdp)");
      // gesvdp returns V, not V^T.
      b.extra(
          r, "gesvdp_error",
          reconstruction_error(v, n, u.data(), s.data(), vt.data(), CUBLAS_OP_T, q.a_cm.data()));
    }
    for (index_t i : {index_t{0}, n - 1})
      expect_close("svd.1000.f64", z.S.item(i), s.item(i), 1e-12);
  }
  const bool want_vals = b.wanted("svdvals.1000.f64"), want_norm = b.wanted("norm2.1000.f64");
  if (!want_vals && !want_norm) return;
  // Singular values alone: one measurement of each vendor call serves both rows.
  workspace ws_n = gesvd_workspace('N');
  workspace ws_p = gesvdp_workspace(CUSOLVER_EIG_MODE_NOVECTOR);
  double gesvd_ms = -1;
  if (want_vals) {
    row& r = b.start("svdvals.1000.f64", "cupp::linalg::svdvals(a), unchecked");
    cupp::ndarray<double> z;
    {
      cupp::linalg::unchecked scope;
      b.time(r, "cupp", [&] { z = cupp::linalg::svdvals(a); });
    }
    gesvd_ms = b.time(r, "cusolverDnXgesvd (no vectors)", [&] { gesvd(ws_n, 'N'); });
    expect_close("svdvals.1000.f64", z.item(0), s.item(0), 1e-12);
    b.time(r, "cusolverDnXgesvdp (no vectors)", [&] { gesvdp(ws_p, CUSOLVER_EIG_MODE_NOVECTOR); });
    expect_close("svdvals.1000.f64", z.item(n - 1), s.item(n - 1), 1e-10);
  }
  if (want_norm) {
    row& r = b.start("norm2.1000.f64", "cupp::linalg::norm(a, 2), unchecked");
    double got = 0;
    {
      cupp::linalg::unchecked scope;
      decltype(cupp::linalg::norm(a, 2)) z;
      b.time(r, "cupp", [&] { z = cupp::linalg::norm(a, 2); });
      got = scalar_of(z);
    }
    if (gesvd_ms < 0)
      gesvd_ms = b.time(r, "cusolverDnXgesvd (no vectors)", [&] { gesvd(ws_n, 'N'); });
    else
      r.figures.push_back({"cusolverDnXgesvd (no vectors)", gesvd_ms});
    gesvd(ws_n, 'N');
    expect_close("norm2.1000.f64", got, s.item(0), 1e-12);
  }
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  bench::command_line(
      argc, argv,
      {bench::value("--runs", "N", o.runs), bench::value("--loop-ms", "MS", o.loop_ms),
       bench::value("--only", "SUBSTRING", o.only), bench::value("--json", "FILE", o.json)});
  return bench::run_on_gpu("bench_linalg", [&] {
    const auto& props = cupp::cuda::runtime::getDeviceProperties(cupp::cuda::runtime::getDevice());
    // NumPy's float32 products are full float32: TF32 only in its own row,
    // whatever CUPP_TF32 says.
    cupp::cuda::set_allow_tf32(false);
    bench_run b(o, "linalg");
    vendor v;
    print_blas_versions();

    square_matmul<__half>(b, v, o, "matmul.8192.f16", 8192, 1e-2);
    square_matmul<float>(b, v, o, "matmul.8192.f32", 8192, 1e-4);
    square_matmul<double>(b, v, o, "matmul.4096.f64", 4096, 1e-12);
    square_matmul<cupp::complex64>(b, v, o, "matmul.4096.c64", 4096, 1e-4);
    stacked_matmul(b, v, props.l2CacheSize);
    fused_matmul(b, v);
    tf32_matmul(b, v);
    cupp::cuda::get_default_memory_pool().free_all_blocks();

    if (b.wanted("inv.100000x4x4.f32") || b.wanted("solve.100000x4x4.f32")) {
      const cupp::ndarray<float> a = well_conditioned<float>({100000, 4, 4}, 11);
      small_stacks(b, v, a);
    }

    square_problem q;
    q.n = 1000;
    q.a = well_conditioned<double>({q.n, q.n}, 21);
    q.a_cm = column_major(q.a);
    q.spd = well_conditioned<double>({q.n, q.n}, 22, true);
    q.rhs = plain<double>({q.n}, 23);
    q.eye = filled<double>({q.n, q.n}, {0, q.n, 0.0, false});
    lu_rows(b, v, q, q.a);
    factor_rows(b, v, q, q.a, q.spd);
    svd_rows(b, v, q, q.a);

    if (!o.json.empty()) b.write_json(o.json, props.name);
  });
}
