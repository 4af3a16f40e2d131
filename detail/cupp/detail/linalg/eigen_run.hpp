// The engines of numpy.linalg.eigh, eigvalsh, eig and eigvals: NumPy's
// UPLO argument, the column-major stacks the solvers overwrite, eig's check
// for NaN and Inf, and the vendor calls of eigen_lapack.hpp.
// <cupp/linalg/eigen.hpp> keeps the public functions and the result types.
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/eigen_lapack.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/ops/float_bits.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/logical.hpp>
#include <cupp/errors.hpp>
#include <cupp/linalg/results_fwd.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// NumPy's UPLO.upper() and its check.
inline char parse_uplo(char uplo) {
  if (uplo == 'l') uplo = 'L';
  if (uplo == 'u') uplo = 'U';
  if (uplo != 'L' && uplo != 'U') throw value_error("UPLO argument must be 'L' or 'U'");
  return uplo;
}

// The stack's shape without its last axis: the eigenvalues'.
inline shape_t eigenvalue_shape(const shape_t& s) {
  shape_t w = s;
  w.resize(s.size() - 1);
  return w;
}

template <class R, class S>
linalg::eigh_result<R, S> eigh_arrays(const ndarray<R, S>& a, char uplo, bool vectors) {
  using Re = lapack_real_t<R>;
  check_stacked_square(a.shape());
  if constexpr (std::is_same_v<S, device_space>) check_current_device(a.device_id());
  const shape_t& s = a.shape();
  const index_t n = s[s.size() - 1], count = stack_count(s);
  ndarray<Re, S> w(eigenvalue_shape(s));
  if (count == 0 || n == 0) return {w, vectors ? ndarray<R, S>(s) : ndarray<R, S>(shape_t{0})};
  ndarray<R, S> v = column_major_stack<R>(a);
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    const cuda::memory_ptr info = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
    int* pinfo = static_cast<int*>(info.get());
    device_eigh(count, n, v.data(), w.data(), vectors, uplo, pinfo, v.device_id());
    check_device_info(pinfo, count, v.device_id(), eig_no_convergence, "syevd");
#else
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
#if CUPP_HAVE_HOST_BLAS
    host_eigh(count, n, v.data(), w.data(), vectors, uplo);
#else
    static_assert(dependent_false<R>, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::eigh"));
#endif
  }
  if (!vectors) return {w, ndarray<R, S>(shape_t{0})};
  return {w, v.swapaxes(-1, -2)};
}

template <class R, class S>
linalg::eig_result<eig_complex_t<R>, S> eig_arrays(const ndarray<R, S>& a, bool vectors) {
  using C = eig_complex_t<R>;
  check_stacked_square(a.shape());
  if constexpr (std::is_same_v<S, device_space>) check_current_device(a.device_id());
  const shape_t& s = a.shape();
  const index_t n = s[s.size() - 1], count = stack_count(s);
  ndarray<C, S> w(eigenvalue_shape(s));
  if (count == 0 || n == 0) return {w, vectors ? ndarray<C, S>(s) : ndarray<C, S>(shape_t{0})};
  ndarray<R, S> store = column_major_stack<R>(a);
  // NumPy's _assert_finite (geev's iterations are meaningless on NaN or
  // Inf); a reduction that waits for the device, so skipped where the
  // caller asked for no checks.
  if (linalg::checks_errors() &&
      !static_cast<bool>(
          ndarray<bool, S>(impl::all<void>(as_operand(make_ufunc(ops::isfinite{}, store)),
                                           reduce_args<>(axis_arg{})))
              .item()))
    throw linalg_error("Array must not contain infs or NaNs");
  ndarray<C, S> v = vectors ? ndarray<C, S>(store.shape()) : ndarray<C, S>(shape_t{0});
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    const cuda::memory_ptr info = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
    int* pinfo = static_cast<int*>(info.get());
    const int device = store.device_id();
    if constexpr (is_complex_type_v<R>) {
      device_geev(count, n, store.data(), w.data(), vectors ? v.data() : nullptr, pinfo, device);
    } else {
      ndarray<R, S> packed = vectors ? ndarray<R, S>(store.shape()) : ndarray<R, S>(shape_t{0});
      device_geev(count, n, store.data(), w.data(), vectors ? packed.data() : nullptr, pinfo,
                  device);
      if (vectors) device_unpack_geev(count, n, packed.data(), w.data(), v.data(), device);
    }
    check_device_info(pinfo, count, device, eig_no_convergence, "geev");
#else
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
#if CUPP_HAVE_HOST_BLAS
    host_geev(count, n, store.data(), w.data(), vectors ? v.data() : nullptr);
#else
    static_assert(dependent_false<R>, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::eig"));
#endif
  }
  if (!vectors) return {w, v};
  return {w, v.swapaxes(-1, -2)};
}

}  // namespace cupp::detail
