// numpy.linalg.eigh, eigvalsh, eig and eigvals on cuSOLVER for device
// arrays and on LAPACKE for host arrays. Part of <cupp/linalg.hpp>.
//
//   auto [w, v] = cupp::linalg::eigh(a);        // ascending w, a @ v == v * w
//   auto w = cupp::linalg::eigvalsh(a, 'U');     // the upper triangle read
//   auto [l, x] = cupp::linalg::eig(a);          // always complex (NumPy:
//                                                // real when every l is)
// See docs/linalg.md.
#pragma once

#include <string>
#include <type_traits>

#include <cupp/detail/linalg/eigen_lapack.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/expression.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

namespace linalg {

// numpy.linalg.EighResult: eigenvalues (..., M) ascending, real;
// eigenvectors (..., M, M), column i for eigenvalue i.
template <class T, class S>
struct eigh_result {
  ndarray<detail::lapack_real_t<T>, S> eigenvalues;
  ndarray<T, S> eigenvectors;
};

// numpy.linalg.EigResult, always complex: eigenvalues (..., M) in
// LAPACK's order, eigenvectors (..., M, M) of unit 2-norm, column i for
// eigenvalue i.
template <class C, class S>
struct eig_result {
  ndarray<C, S> eigenvalues;
  ndarray<C, S> eigenvectors;
};

}  // namespace linalg

namespace detail {

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
    static_assert(dependent_false<R>,
                  "cupp::linalg::eigh of host arrays needs LAPACKE: link cupp::linalg on a "
                  "machine with OpenBLAS and LAPACKE (Debian: apt install libopenblas-dev "
                  "liblapacke-dev)");
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
      !static_cast<bool>(ndarray<bool, S>(cupp::all(cupp::isfinite(store))).item()))
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
    static_assert(dependent_false<R>,
                  "cupp::linalg::eig of host arrays needs LAPACKE: link cupp::linalg on a "
                  "machine with OpenBLAS and LAPACKE (Debian: apt install libopenblas-dev "
                  "liblapacke-dev)");
#endif
  }
  if (!vectors) return {w, v};
  return {w, v.swapaxes(-1, -2)};
}

}  // namespace detail

namespace linalg {

#define CUPP_EIGEN_OPERAND(a, x, name)                                                         \
  using T = typename operand_t<A>::value_type;                                                 \
  static_assert(is_dtype_v<T>, "cupp::linalg::" name ": a must be an array or an expression"); \
  using R = detail::linalg_type_t<T>;                                                          \
  using S = detail::eval_space_t<typename operand_t<A>::space>

// numpy.linalg.eigh(a, UPLO='L'): the eigenvalues (ascending) and
// orthonormal eigenvectors of every Hermitian (real symmetric) matrix of a
// (..., M, M) stack, reading only the UPLO triangle ('L' or 'U', either
// case; anything else throws value_error). Device: cusolverDnXsyevd,
// cusolverDnXsyevBatched for stacks of matrices up to 32 x 32. Throws
// linalg_error("Eigenvalues did not converge") when LAPACK reports so.
template <Expression A>
auto eigh(const A& a, char UPLO = 'L') {
  CUPP_EIGEN_OPERAND(a, x, "eigh");
  const char uplo = detail::parse_uplo(UPLO);
  return detail::eigh_arrays<R, S>(detail::product_operand<R, S>(a), uplo, true);
}

// numpy.linalg.eigvalsh(a, UPLO='L'): eigh's eigenvalues alone.
template <Expression A>
auto eigvalsh(const A& a, char UPLO = 'L') {
  CUPP_EIGEN_OPERAND(a, x, "eigvalsh");
  const char uplo = detail::parse_uplo(UPLO);
  return detail::eigh_arrays<R, S>(detail::product_operand<R, S>(a), uplo, false).eigenvalues;
}

// numpy.linalg.eig(a): the eigenvalues and right eigenvectors (unit
// 2-norm, largest component real, as LAPACK's geev) of every square matrix
// of a (..., M, M) stack, always complex (complex64 for float32 and
// complex64 inputs, complex128 otherwise). Device: cusolverDnXgeev, one
// matrix at a time. Throws linalg_error for NaN or Inf in a ("Array must
// not contain infs or NaNs") and "Eigenvalues did not converge".
template <Expression A>
auto eig(const A& a) {
  CUPP_EIGEN_OPERAND(a, x, "eig");
  return detail::eig_arrays<R, S>(detail::product_operand<R, S>(a), true);
}

// numpy.linalg.eigvals(a): eig's eigenvalues alone.
template <Expression A>
auto eigvals(const A& a) {
  CUPP_EIGEN_OPERAND(a, x, "eigvals");
  return detail::eig_arrays<R, S>(detail::product_operand<R, S>(a), false).eigenvalues;
}

#undef CUPP_EIGEN_OPERAND

}  // namespace linalg

}  // namespace cupp
