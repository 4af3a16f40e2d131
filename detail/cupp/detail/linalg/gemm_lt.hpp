// D = alpha * A.B + beta * C with C and D apart, through cuBLASLt: how a
// folded addend (`2 * matmul(a, b) + c`) reaches the product without first
// being copied into the result, which cuBLAS's gemm, writing over C,
// would need (a 4096^2 float32 addend: a 64 MiB copy, 1.7% of the gemm on
// an H100).
#pragma once

#if defined(__CUDACC__)

#include <climits>
#include <type_traits>
#include <utility>

#include <cupp/config.hpp>
#include <cupp/cuda/blas.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/linalg/matmul_plan.hpp>

namespace cupp::detail {

// cuBLASLt's descriptors, destroyed on every path out.
struct lt_descriptors {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  lt_descriptors() = default;
  lt_descriptors(const lt_descriptors&) = delete;
  lt_descriptors& operator=(const lt_descriptors&) = delete;
  ~lt_descriptors() {
    if (pref) (void)cublasLtMatmulPreferenceDestroy(pref);
    if (c) (void)cublasLtMatrixLayoutDestroy(c);
    if (b) (void)cublasLtMatrixLayoutDestroy(b);
    if (a) (void)cublasLtMatrixLayoutDestroy(a);
    if (op) (void)cublasLtMatmulDescDestroy(op);
  }
};

// The types of a cuBLASLt product of T: element, compute, and the scalars'
// (float for float16 and bfloat16, as the GemmEx calls).
template <class T>
struct lt_types;
template <>
struct lt_types<float> {
  static constexpr cudaDataType_t element = CUDA_R_32F, scalar = CUDA_R_32F;
  using scalar_t = float;
};
template <>
struct lt_types<double> {
  static constexpr cudaDataType_t element = CUDA_R_64F, scalar = CUDA_R_64F;
  using scalar_t = double;
};
template <>
struct lt_types<complex64> {
  static constexpr cudaDataType_t element = CUDA_C_32F, scalar = CUDA_C_32F;
  using scalar_t = cuComplex;
};
template <>
struct lt_types<complex128> {
  static constexpr cudaDataType_t element = CUDA_C_64F, scalar = CUDA_C_64F;
  using scalar_t = cuDoubleComplex;
};
template <>
struct lt_types<float16> {
  static constexpr cudaDataType_t element = CUDA_R_16F, scalar = CUDA_R_32F;
  using scalar_t = float;
};
template <>
struct lt_types<bfloat16> {
  static constexpr cudaDataType_t element = CUDA_R_16BF, scalar = CUDA_R_32F;
  using scalar_t = float;
};

template <class T>
typename lt_types<T>::scalar_t lt_scalar(const T& v) {
  if constexpr (is_complex_type_v<T>)
    return {v.real(), v.imag()};
  else
    return convert<typename lt_types<T>::scalar_t>(v);
}

template <class T>
cublasComputeType_t lt_compute_type() {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, complex128>)
    return CUBLAS_COMPUTE_64F;
  else if constexpr (std::is_same_v<T, float>)
    return cuda::allow_tf32() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  else
    return CUBLAS_COMPUTE_32F;
}

// A column-major layout of rows x cols, leading dimension ld, `count`
// matrices `stride` apart.
template <class T>
void lt_layout(cublasLtMatrixLayout_t& l, index_t rows, index_t cols, index_t ld, index_t count,
               index_t stride) {
  cuda::check(cublasLtMatrixLayoutCreate(&l, lt_types<T>::element, static_cast<std::uint64_t>(rows),
                                         static_cast<std::uint64_t>(cols), ld),
              "cublasLtMatrixLayoutCreate");
  const std::int32_t n = static_cast<std::int32_t>(count);
  const std::int64_t s = stride;
  cuda::check(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &n, sizeof n),
              "cublasLtMatrixLayoutSetAttribute");
  cuda::check(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &s,
                                               sizeof s),
              "cublasLtMatrixLayoutSetAttribute");
}

// D = alpha * A.B + beta * C for `count` products of the plan's last batch
// axis (strides `stride`: A, B, and C and D, which share C's layout). False,
// with nothing enqueued, where cuBLASLt offers no algorithm or the stack
// is longer than its 32-bit batch count: the caller then copies C into D
// and calls gemm.
template <class T>
bool lt_gemm_batched(const cuda::blas_lt& lt, cudaStream_t stream, const matmul_plan& p,
                     cublasOperation_t op_a, index_t ld_a, cublasOperation_t op_b, index_t ld_b,
                     const T* a, const T* b, const T* c, T* d, index_t count, const index_t* stride,
                     const T& alpha, const T& beta) {
  if (count > INT_MAX) return false;
  // Column-major, as the gemm calls: D^T (n x m) = B^T (n x k) . A^T (k x m).
  lt_descriptors ds;
  cuda::check(cublasLtMatmulDescCreate(&ds.op, lt_compute_type<T>(), lt_types<T>::scalar),
              "cublasLtMatmulDescCreate");
  const auto set_op = [&](cublasLtMatmulDescAttributes_t which, cublasOperation_t op) {
    cuda::check(cublasLtMatmulDescSetAttribute(ds.op, which, &op, sizeof op),
                "cublasLtMatmulDescSetAttribute");
  };
  set_op(CUBLASLT_MATMUL_DESC_TRANSA, op_b);
  set_op(CUBLASLT_MATMUL_DESC_TRANSB, op_a);
  const bool tb = op_b != CUBLAS_OP_N, ta = op_a != CUBLAS_OP_N;
  lt_layout<T>(ds.a, tb ? p.k : p.n, tb ? p.n : p.k, ld_b, count, stride[1]);
  lt_layout<T>(ds.b, ta ? p.m : p.k, ta ? p.k : p.m, ld_a, count, stride[0]);
  lt_layout<T>(ds.c, p.n, p.m, p.n, count, stride[2]);
  cuda::check(cublasLtMatmulPreferenceCreate(&ds.pref), "cublasLtMatmulPreferenceCreate");
  const std::uint64_t bytes = lt.workspace_bytes;
  cuda::check(cublasLtMatmulPreferenceSetAttribute(
                  ds.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof bytes),
              "cublasLtMatmulPreferenceSetAttribute");
  cublasLtMatmulHeuristicResult_t best{};
  int found = 0;
  const cublasStatus_t s = cublasLtMatmulAlgoGetHeuristic(lt.handle, ds.op, ds.a, ds.b, ds.c, ds.c,
                                                          ds.pref, 1, &best, &found);
  if (s == CUBLAS_STATUS_NOT_SUPPORTED || (s == CUBLAS_STATUS_SUCCESS && found == 0)) return false;
  cuda::check(s, "cublasLtMatmulAlgoGetHeuristic");
  const auto al = lt_scalar(alpha), be = lt_scalar(beta);
  cuda::check(cublasLtMatmul(lt.handle, ds.op, &al, b, ds.a, a, ds.b, &be, c, ds.c, d, ds.c,
                             &best.algo, lt.workspace, lt.workspace_bytes, stream),
              "cublasLtMatmul");
  return true;
}

}  // namespace cupp::detail

#endif  // __CUDACC__
