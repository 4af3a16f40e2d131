// What numpy.linalg's solvers share, for the device (cuSOLVER) and the host
// (LAPACKE): the dtype they compute in, NumPy's shape checks and messages,
// stacks of matrices copied into the column-major layout LAPACK overwrites,
// and the reading of the solvers' status (info) into linalg_error.
#pragma once

#if CUPP_HAVE_HOST_BLAS
#include <complex>
#define LAPACK_COMPLEX_CUSTOM
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
#endif

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/linalg/gemm.hpp>
#include <cupp/detail/numerics/complex_parts.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

#if defined(__CUDACC__)
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/solver.hpp>
#include <cupp/cuda/stream.hpp>
#endif

namespace cupp::detail {

// The types LAPACK and cuSOLVER compute in: BLAS's four (gemm.hpp).
template <class T>
inline constexpr bool lapack_type_v = blas_float_v<T>;

// The dtype numpy.linalg computes in for an input of dtype T: the four
// LAPACK types as they are, integers and bool in float64. float16 and
// bfloat16 are refused at compile time (NumPy: "array type float16 is
// unsupported in linalg").
template <class T>
struct linalg_type {
  static_assert(!std::is_same_v<T, float16> && !std::is_same_v<T, bfloat16>,
                "cupp::linalg: float16 and bfloat16 are unsupported in linalg (as in NumPy); "
                "cast to float32 first");
  using type = std::conditional_t<lapack_type_v<T>, T, double>;
};
template <class T>
using linalg_type_t = typename linalg_type<T>::type;

// The real type of a LAPACK type (singular values, eigenvalues of
// Hermitian matrices, norms).
template <class T>
using lapack_real_t = numerics::real_of_t<T>;

// NumPy's _assert_stacked_2d and _assert_stacked_square.
inline void check_stacked_2d(const shape_t& s) {
  if (s.size() < 2)
    throw linalg_error(std::to_string(s.size()) +
                       "-dimensional array given. Array must be at least two-dimensional");
}
inline void check_stacked_square(const shape_t& s) {
  check_stacked_2d(s);
  if (s[s.size() - 1] != s[s.size() - 2])
    throw linalg_error("Last 2 dimensions of the array must be square");
}

// The number of matrices in a stack of shape (..., M, N).
inline index_t stack_count(const shape_t& s) {
  index_t n = 1;
  for (int i = 0; i + 2 < s.size(); ++i) n *= s[i];
  return n;
}

// A stack (..., M, N) of dtype T as the column-major matrices LAPACK reads
// and overwrites: a fresh C-contiguous array of shape (..., N, M), each
// matrix M x N column-major with leading dimension M, one after another.
// Its .swapaxes(-1, -2) is the stack again, as a view.
template <class T, class S, class U>
ndarray<T, S> column_major_stack(const ndarray<U, S>& x) {
  if constexpr (std::is_same_v<T, U>)
    return x.swapaxes(-1, -2).copy();
  else
    return astype_copy<T>(x.swapaxes(-1, -2));
}

// Throws linalg_error(message) when an info value is positive (a
// numerical failure); a negative one is an argument cupp passed wrongly.
inline void throw_on_info(const int* info, index_t count, const char* message,
                          const char* routine) {
  for (index_t i = 0; i < count; ++i) {
    if (info[i] > 0) throw linalg_error(message);
    if (info[i] < 0)
      throw std::logic_error(std::string("cupp: ") + routine + " rejected argument " +
                             std::to_string(-info[i]));
  }
}

// The host solvers' status: checked unless a cupp::linalg::unchecked scope
// is active.
inline void check_host_info(const int* info, index_t count, const char* message,
                            const char* routine) {
  if (linalg::checks_errors()) throw_on_info(info, count, message, routine);
}

#if defined(__CUDACC__)
// The device solvers' status, `count` ints at `device_info`: copied to the
// host after the stream's work, which waits for it (NumPy's default); not
// read at all in a cupp::linalg::unchecked scope.
inline void check_device_info(const int* device_info, index_t count, int device,
                              const char* message, const char* routine) {
  if (!linalg::checks_errors() || count == 0) return;
  std::vector<int> info(static_cast<std::size_t>(count));
  cudaStream_t stream = cuda::detail::current_stream_impl(device)->handle;
  cuda::check(cudaMemcpyAsync(info.data(), device_info, info.size() * sizeof(int),
                              cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync");
  cuda::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  throw_on_info(info.data(), count, message, routine);
}

// cuSOLVER's 64-bit API names its types by cudaDataType.
template <class T>
inline constexpr cudaDataType_t cuda_data_type_v = std::is_same_v<T, float>       ? CUDA_R_32F
                                                   : std::is_same_v<T, double>    ? CUDA_R_64F
                                                   : std::is_same_v<T, complex64> ? CUDA_C_32F
                                                                                  : CUDA_C_64F;
#endif

}  // namespace cupp::detail
