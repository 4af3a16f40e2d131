// The products of a planned matmul (matmul_plan.hpp): cuBLAS's strided
// batched gemm for float32/64 and complex64/128 and, through GemmEx with
// float32 accumulation, for float16 and bfloat16, except stacks of small
// products, which cupp's kernel in small_gemm.hpp streams faster; a
// kernel of cupp's own for integers and bool (NumPy's exact, wrapping
// results, which no BLAS gives); on the host, OpenBLAS's cblas_?gemm and
// the same exact loops. Every product computes C = alpha * A.B + beta * C
// (beta 0: C not read), which is how scalars and an addend fold into the
// call.
#pragma once

#include <algorithm>
#include <climits>
#include <type_traits>
#include <utility>

#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/linalg/host_blas.hpp>
#include <cupp/detail/linalg/matmul_plan.hpp>
#include <cupp/detail/linalg/small_gemm.hpp>
#include <cupp/array_fwd.hpp>
#include <cupp/dtype.hpp>

#if defined(__CUDACC__)
#include <cupp/cuda/blas.hpp>
#include <cupp/detail/linalg/gemm_lt.hpp>
#endif

namespace cupp::detail {

template <class T>
inline constexpr bool blas_float_v = std::is_same_v<T, float> || std::is_same_v<T, double> ||
                                     std::is_same_v<T, complex64> || std::is_same_v<T, complex128>;
template <class T>
inline constexpr bool blas_low_float_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

// One exact product element: the sum over k of a(i, l) * b(l, j), in the
// result's arithmetic (unsigned for signed integers, so that it wraps as
// NumPy's does; logical or of ands for bool).
// Unsigned arithmetic no narrower than unsigned int: uint8 and uint16
// operands would otherwise promote to (overflowing) int.
template <class T>
using wrapping_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
CUPP_HD inline T exact_dot(const T* a, index_t ars, index_t acs, const T* b, index_t brs,
                           index_t bcs, index_t i, index_t j, index_t k) {
  if constexpr (std::is_same_v<T, bool>) {
    bool acc = false;
    for (index_t l = 0; l < k && !acc; ++l) acc = a[i * ars + l * acs] && b[l * brs + j * bcs];
    return acc;
  } else if constexpr (std::is_integral_v<T>) {
    using U = wrapping_t<T>;
    U acc = 0;
    for (index_t l = 0; l < k; ++l)
      acc = static_cast<U>(acc + static_cast<U>(a[i * ars + l * acs]) *
                                     static_cast<U>(b[l * brs + j * bcs]));
    return static_cast<T>(acc);
  } else {
    // float16 and bfloat16 on the host: float32 accumulation, as on the GPU.
    float acc = 0;
    for (index_t l = 0; l < k; ++l)
      acc += convert<float>(a[i * ars + l * acs]) * convert<float>(b[l * brs + j * bcs]);
    return convert<T>(acc);
  }
}

// Operand strides for the exact loops: element strides of A's rows and
// columns and of B's, whatever their layout.
struct exact_strides {
  index_t ars, acs, brs, bcs;
};

// alpha and beta of a product (beta 0: C is not read).
template <class T>
struct gemm_scale {
  T alpha;
  T beta;
};

template <class T>
gemm_scale<T> plain_product() {
  return {convert<T>(1), convert<T>(0)};
}

template <class T>
CUPP_HD inline bool is_zero_scalar(const T& v) {
  if constexpr (std::is_same_v<T, bool>)
    return !v;
  else
    return convert<math_t<T>>(v) == math_t<T>(0);
}

// alpha * dot + beta * old in the exact arithmetic (wrapping for integers,
// as NumPy's separate multiply and add wrap; float32 for float16 and
// bfloat16). bool products are never scaled.
template <class T>
CUPP_HD inline T exact_scaled(T dot, const gemm_scale<T>& s, const T* old) {
  if constexpr (std::is_same_v<T, bool>) {
    return dot;
  } else if constexpr (std::is_integral_v<T>) {
    using U = wrapping_t<T>;
    U r = static_cast<U>(static_cast<U>(s.alpha) * static_cast<U>(dot));
    if (!is_zero_scalar(s.beta))
      r = static_cast<U>(r + static_cast<U>(s.beta) * static_cast<U>(*old));
    return static_cast<T>(r);
  } else {
    float r = convert<float>(s.alpha) * convert<float>(dot);
    if (!is_zero_scalar(s.beta)) r += convert<float>(s.beta) * convert<float>(*old);
    return convert<T>(r);
  }
}

#if defined(__CUDACC__)

template <class T>
__global__ void exact_matmul_kernel(const T* a, const T* b, T* c, exact_strides s, matmul_plan p,
                                    gemm_scale<T> scale) {
  for (index_t batch = blockIdx.z; batch < p.batches; batch += gridDim.z) {
    index_t off[3];
    batch_offsets(p, batch, off);
    for (index_t i = blockIdx.y * blockDim.y + threadIdx.y; i < p.m; i += gridDim.y * blockDim.y)
      for (index_t j = blockIdx.x * blockDim.x + threadIdx.x; j < p.n;
           j += gridDim.x * blockDim.x) {
        T* out = c + off[2] + i * p.n + j;
        *out = exact_scaled(
            exact_dot(a + off[0], s.ars, s.acs, b + off[1], s.brs, s.bcs, i, j, p.k), scale, out);
      }
  }
}

template <class T>
void device_exact_matmul(const matmul_plan& p, const exact_strides& s, const T* a, const T* b, T* c,
                         cudaStream_t stream, const gemm_scale<T>& scale = plain_product<T>()) {
  const dim3 block(32, 8);
  const auto blocks = [](index_t n, unsigned per) {
    return static_cast<unsigned>(std::clamp<index_t>((n + per - 1) / per, 1, 65535));
  };
  const dim3 grid(blocks(p.n, 32), blocks(p.m, 8),
                  static_cast<unsigned>(std::clamp<index_t>(p.batches, 1, 65535)));
  exact_matmul_kernel<T><<<grid, block, 0, stream>>>(a, b, c, s, p, scale);
  cuda::check_last_launch("matmul kernel");
}

inline cublasOperation_t blas_op(const gemm_side& s) {
  return s.conj ? CUBLAS_OP_C : s.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
}

// The batched call over the plan's last batch axis from offsets `off`.
template <class T>
void cublas_gemm_batched(cublasHandle_t h, const matmul_plan& p, const gemm_side& sa,
                         const gemm_side& sb, const T* a, const T* b, T* c, index_t count,
                         const index_t* stride, const gemm_scale<T>& scale) {
  // cuBLAS is column-major: C^T (n x m) = B^T (n x k) . A^T (k x m).
  const std::pair ops{blas_op(sb), blas_op(sa)};
  if constexpr (std::is_same_v<T, float>) {
    const float one = scale.alpha, zero = scale.beta;
    cuda::check(cublasSgemmStridedBatched_64(h, ops.first, ops.second, p.n, p.m, p.k, &one, b,
                                             sb.ld, stride[1], a, sa.ld, stride[0], &zero, c, p.n,
                                             stride[2], count),
                "cublasSgemmStridedBatched");
  } else if constexpr (std::is_same_v<T, double>) {
    const double one = scale.alpha, zero = scale.beta;
    cuda::check(cublasDgemmStridedBatched_64(h, ops.first, ops.second, p.n, p.m, p.k, &one, b,
                                             sb.ld, stride[1], a, sa.ld, stride[0], &zero, c, p.n,
                                             stride[2], count),
                "cublasDgemmStridedBatched");
  } else if constexpr (std::is_same_v<T, complex64>) {
    const cuComplex one{scale.alpha.real(), scale.alpha.imag()},
        zero{scale.beta.real(), scale.beta.imag()};
    // Through GemmEx with float32 compute, the call CuPy makes. 4096^2 on an
    // H100: through Cgemm cupp took 10.75 ms beside CuPy's 10.27 in one run;
    // through GemmEx 10.35 ms beside CuPy's 10.45 (raw Cgemm 10.33) in a
    // later one: within the runs' spread, so the same call as CuPy's.
    cuda::check(cublasGemmStridedBatchedEx_64(h, ops.first, ops.second, p.n, p.m, p.k, &one, b,
                                              CUDA_C_32F, sb.ld, stride[1], a, CUDA_C_32F, sa.ld,
                                              stride[0], &zero, c, CUDA_C_32F, p.n, stride[2],
                                              count, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                "cublasGemmStridedBatchedEx");
  } else if constexpr (std::is_same_v<T, complex128>) {
    const cuDoubleComplex one{scale.alpha.real(), scale.alpha.imag()},
        zero{scale.beta.real(), scale.beta.imag()};
    cuda::check(cublasZgemmStridedBatched_64(
                    h, ops.first, ops.second, p.n, p.m, p.k, &one,
                    reinterpret_cast<const cuDoubleComplex*>(b), sb.ld, stride[1],
                    reinterpret_cast<const cuDoubleComplex*>(a), sa.ld, stride[0], &zero,
                    reinterpret_cast<cuDoubleComplex*>(c), p.n, stride[2], count),
                "cublasZgemmStridedBatched");
  } else {
    static_assert(blas_low_float_v<T>);
    constexpr cudaDataType_t type = std::is_same_v<T, float16> ? CUDA_R_16F : CUDA_R_16BF;
    const float one = convert<float>(scale.alpha), zero = convert<float>(scale.beta);
    cuda::check(
        cublasGemmStridedBatchedEx_64(h, ops.first, ops.second, p.n, p.m, p.k, &one, b, type, sb.ld,
                                      stride[1], a, type, sa.ld, stride[0], &zero, c, type, p.n,
                                      stride[2], count, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmStridedBatchedEx");
  }
}

// Every product of the plan on the current device's current stream:
// C = alpha * A.B + beta * C_in, C_in being c_in (an array of C's layout)
// or, when that is null, C itself. With k == 0 the product is zero;
// callers fold no addend then (beta 0).
template <class T>
void device_gemm(const matmul_plan& p, const gemm_side& sa, const gemm_side& sb, const T* a,
                 const T* b, T* c, int device, const gemm_scale<T>& scale = plain_product<T>(),
                 const T* c_in = nullptr) {
  if (p.batches == 0 || p.m == 0 || p.n == 0) return;
  const T* old = is_zero_scalar(scale.beta) ? nullptr : c_in ? c_in : c;
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  if (p.k == 0) {
    cuda::check(
        cudaMemsetAsync(c, 0, static_cast<std::size_t>(p.batches * p.m * p.n) * sizeof(T), stream),
        "cudaMemsetAsync");
    return;
  }
  // Stacks of small products: cupp's kernel (the rule in small_gemm.hpp).
  if (small_gemm_applies<T>(p) && batch_axes_dense(p, 2, p.m * p.n)) {
    device_small_gemm(p, sa, sb, a, b, c, old, stream, scale.alpha, scale.beta);
    return;
  }
  cublasHandle_t h = cuda::blas_handle(device);
  const index_t count = p.nb > 0 ? p.ext[p.nb - 1] : 1;
  index_t stride[3] = {0, 0, 0};
  if (p.nb > 0)
    for (int s = 0; s < 3; ++s) stride[s] = p.st[s][p.nb - 1];
  // An addend apart from C goes to cuBLASLt, which reads C and writes D
  // apart; conjugated operands stay with cuBLAS (op C is not among the
  // cuBLASLt operations cupp relies on), after a copy of the addend into C.
  const bool apart = old && old != c;
  const bool lt = apart && !sa.conj && !sb.conj;
  const cuda::blas_lt lt_handle = lt ? cuda::blas_lt_handle(device) : cuda::blas_lt{};
  for (index_t outer = 0; outer < p.batches / count; ++outer) {
    index_t off[3];
    outer_batch_offsets(p, outer, off);
    if (lt && lt_gemm_batched(lt_handle, stream, p, blas_op(sa), sa.ld, blas_op(sb), sb.ld,
                              a + off[0], b + off[1], old + off[2], c + off[2], count, stride,
                              scale.alpha, scale.beta))
      continue;
    // C is C-contiguous: the batched call's products are one range.
    if (apart)
      cuda::check(cudaMemcpyAsync(c + off[2], old + off[2],
                                  static_cast<std::size_t>(count * p.m * p.n) * sizeof(T),
                                  cudaMemcpyDeviceToDevice, stream),
                  "cudaMemcpyAsync");
    cublas_gemm_batched(h, p, sa, sb, a + off[0], b + off[1], c + off[2], count, stride, scale);
  }
}

#endif  // __CUDACC__

// Every product of the plan on the host.
template <class T>
void host_gemm(const matmul_plan& p, const gemm_side& sa, const gemm_side& sb, const T* a,
               const T* b, T* c, const gemm_scale<T>& scale = plain_product<T>()) {
#if !CUPP_HAVE_HOST_BLAS
  static_assert(dependent_false<T>,
                CUPP_DETAIL_NO_HOST_BLAS("a float matrix product (matmul, dot, einsum, ...)"));
#else
  if (p.batches == 0 || p.m == 0 || p.n == 0) return;
  // The host BLAS takes int sizes.
  if (std::max({p.m, p.n, p.k, sa.ld, sb.ld}) > INT_MAX)
    throw value_error("matmul: a matrix of host arrays with an axis or a row of more than " +
                      std::to_string(INT_MAX) + " elements is more than the host BLAS takes");
  const auto op = [](const gemm_side& s) {
    return s.conj ? CblasConjTrans : s.trans ? CblasTrans : CblasNoTrans;
  };
  const auto opa = op(sa), opb = op(sb);
  for (index_t batch = 0; batch < p.batches; ++batch) {
    index_t off[3];
    batch_offsets(p, batch, off);
    const T *pa = a + off[0], *pb = b + off[1];
    T* pc = c + off[2];
    if (p.k == 0) {
      std::fill(pc, pc + p.m * p.n, T{});
      continue;
    }
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k),
              lda = static_cast<int>(sa.ld), ldb = static_cast<int>(sb.ld);
    if constexpr (std::is_same_v<T, float>) {
      cblas_sgemm(CblasRowMajor, opa, opb, m, n, k, scale.alpha, pa, lda, pb, ldb, scale.beta, pc,
                  n);
    } else if constexpr (std::is_same_v<T, double>) {
      cblas_dgemm(CblasRowMajor, opa, opb, m, n, k, scale.alpha, pa, lda, pb, ldb, scale.beta, pc,
                  n);
    } else if constexpr (std::is_same_v<T, complex64>) {
      cblas_cgemm(CblasRowMajor, opa, opb, m, n, k, &scale.alpha, pa, lda, pb, ldb, &scale.beta, pc,
                  n);
    } else {
      cblas_zgemm(CblasRowMajor, opa, opb, m, n, k, &scale.alpha, pa, lda, pb, ldb, &scale.beta, pc,
                  n);
    }
  }
#endif
}

// The exact products on the host (integers, bool, float16, bfloat16).
template <class T>
void host_exact_matmul(const matmul_plan& p, const exact_strides& s, const T* a, const T* b, T* c,
                       const gemm_scale<T>& scale = plain_product<T>()) {
  for (index_t batch = 0; batch < p.batches; ++batch) {
    index_t off[3];
    batch_offsets(p, batch, off);
    for (index_t i = 0; i < p.m; ++i)
      for (index_t j = 0; j < p.n; ++j) {
        T* out = c + off[2] + i * p.n + j;
        *out = exact_scaled(
            exact_dot(a + off[0], s.ars, s.acs, b + off[1], s.brs, s.bcs, i, j, p.k), scale, out);
      }
  }
}

}  // namespace cupp::detail
