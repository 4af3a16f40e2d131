// LU and Cholesky factorisations of host matrices: LAPACKE's getrf, getrs,
// getri and potrf, one call per matrix of the stack. As on the device
// (lu_device.hpp), every routine works on a C-order copy of the stack,
// which column-major LAPACK reads as the transposes.
#pragma once

#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <cupp/config.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>

namespace cupp::detail {

inline void check_host_lapack_size(index_t n, index_t k) {
  if (n > INT_MAX || k > INT_MAX || n * std::max<index_t>(n, k) > INT_MAX)
    throw value_error("cupp::linalg: a host matrix of " + std::to_string(n) + " rows and " +
                      std::to_string(std::max(n, k)) +
                      " columns is more than the host LAPACK (32-bit sizes) takes");
}

#if CUPP_HAVE_HOST_BLAS

template <class T>
auto* lapack_ptr(T* p) {
  if constexpr (std::is_same_v<T, complex64>)
    return reinterpret_cast<std::complex<float>*>(p);
  else if constexpr (std::is_same_v<T, complex128>)
    return reinterpret_cast<std::complex<double>*>(p);
  else
    return p;
}

// LAPACKE's _work entry points: they pass NaN on to LAPACK as NumPy does
// (the checking ones refuse a NaN input with a negative info before
// LAPACK runs), so that a NaN matrix gives NaN results.
#define CUPP_LAPACKE_BY_TYPE(T, name, ...)           \
  [&] {                                              \
    if constexpr (std::is_same_v<T, float>)          \
      return LAPACKE_s##name##_work(__VA_ARGS__);    \
    else if constexpr (std::is_same_v<T, double>)    \
      return LAPACKE_d##name##_work(__VA_ARGS__);    \
    else if constexpr (std::is_same_v<T, complex64>) \
      return LAPACKE_c##name##_work(__VA_ARGS__);    \
    else                                             \
      return LAPACKE_z##name##_work(__VA_ARGS__);    \
  }()

// LU factors of `count` C-order n x n matrices at a, in place; the pivots
// (n per matrix) and getrf's info (one per matrix) come back.
template <class T>
void host_getrf(T* a, index_t n, index_t count, std::vector<lapack_int>& piv,
                std::vector<int>& info) {
  check_host_lapack_size(n, n);
  piv.assign(static_cast<std::size_t>(count * n), 0);
  info.assign(static_cast<std::size_t>(count), 0);
  const auto ni = static_cast<lapack_int>(n);
  for (index_t m = 0; m < count; ++m) {
    const lapack_int r = CUPP_LAPACKE_BY_TYPE(T, getrf, LAPACK_COL_MAJOR, ni, ni,
                                              lapack_ptr(a + m * n * n), ni, piv.data() + m * n);
    info[static_cast<std::size_t>(m)] = static_cast<int>(r);
  }
}

// Solves A x = b for the factors of `a_count` matrices (1: the same matrix
// for every right-hand side) and `count` column-major n x k blocks at b.
template <class T>
void host_getrs(const T* a, const std::vector<lapack_int>& piv, index_t a_count, T* b, index_t n,
                index_t k, index_t count) {
  check_host_lapack_size(n, a_count == 1 ? count * k : k);
  const index_t calls = a_count == 1 ? 1 : count, nrhs = a_count == 1 ? count * k : k;
  const auto ni = static_cast<lapack_int>(n);
  for (index_t m = 0; m < calls; ++m) {
    const lapack_int r =
        CUPP_LAPACKE_BY_TYPE(T, getrs, LAPACK_COL_MAJOR, 'T', ni, static_cast<lapack_int>(nrhs),
                             lapack_ptr(const_cast<T*>(a) + m * n * n), ni, piv.data() + m * n,
                             lapack_ptr(b + m * n * k), ni);
    const int i = static_cast<int>(r);
    throw_on_info(&i, 1, "", "?getrs");
  }
}

// The inverses of the factored matrices, in place. A singular one (only
// reached in an unchecked scope) becomes NaN, as the device's would hold
// NaN or Inf, rather than its LU factors.
template <class T>
void host_getri(T* a, const std::vector<lapack_int>& piv, const std::vector<int>& info, index_t n,
                index_t count) {
  if (count == 0 || n == 0) return;
  const auto ni = static_cast<lapack_int>(n);
  T query{};
  lapack_int r = CUPP_LAPACKE_BY_TYPE(T, getri, LAPACK_COL_MAJOR, ni, lapack_ptr(a), ni, piv.data(),
                                      lapack_ptr(&query), -1);
  int status = static_cast<int>(r);
  throw_on_info(&status, 1, "Singular matrix", "?getri");
  lapack_int lwork;
  if constexpr (is_complex_type_v<T>)
    lwork = static_cast<lapack_int>(query.real());
  else
    lwork = static_cast<lapack_int>(query);
  std::vector<T> work(static_cast<std::size_t>(std::max<lapack_int>(lwork, std::max(ni, 1))));
  for (index_t m = 0; m < count; ++m) {
    if (info[static_cast<std::size_t>(m)] != 0) {
      const auto nan = std::numeric_limits<lapack_real_t<T>>::quiet_NaN();
      std::fill(a + m * n * n, a + (m + 1) * n * n, T(nan));
      continue;
    }
    r = CUPP_LAPACKE_BY_TYPE(T, getri, LAPACK_COL_MAJOR, ni, lapack_ptr(a + m * n * n), ni,
                             piv.data() + m * n, lapack_ptr(work.data()),
                             static_cast<lapack_int>(work.size()));
    const int i = static_cast<int>(r);
    throw_on_info(&i, 1, "Singular matrix", "?getri");
  }
}

// Cholesky factors in place, the other triangle zeroed (see
// device_potrf for the choice of triangle); getrf-style info per matrix.
template <class T>
std::vector<int> host_potrf(T* a, index_t n, index_t count, bool upper) {
  check_host_lapack_size(n, n);
  std::vector<int> info(static_cast<std::size_t>(count), 0);
  const auto ni = static_cast<lapack_int>(n);
  const char fill = upper ? 'L' : 'U';
  for (index_t m = 0; m < count; ++m) {
    T* x = a + m * n * n;
    const lapack_int r =
        CUPP_LAPACKE_BY_TYPE(T, potrf, LAPACK_COL_MAJOR, fill, ni, lapack_ptr(x), ni);
    info[static_cast<std::size_t>(m)] = static_cast<int>(r);
    for (index_t i = 0; i < n; ++i)
      for (index_t j = 0; j < n; ++j)
        if (upper ? j < i : j > i) x[i * n + j] = T(0);
  }
  return info;
}

#undef CUPP_LAPACKE_BY_TYPE

#endif  // CUPP_HAVE_HOST_BLAS

// NumPy's slogdet from LU factors (C-order stack, 1-based pivots): the sum
// of log|u_ii|, the product of u_ii / |u_ii| and the pivots' parity; a zero
// on the diagonal gives sign 0 and -inf. With logabs null, det = sign *
// exp(logabsdet) goes to sign.
template <class T, class P>
void host_lu_slogdet(const T* a, const P* piv, index_t n, index_t count, T* sign,
                     lapack_real_t<T>* logabs) {
  using Re = lapack_real_t<T>;
  for (index_t m = 0; m < count; ++m) {
    T s(1);
    Re l = 0;
    bool zero = false;
    for (index_t i = 0; i < n; ++i) {
      const T d = a[m * n * n + i * (n + 1)];
      Re ad;
      if constexpr (is_complex_type_v<T>)
        ad = ::cuda::std::abs(d);
      else
        ad = std::abs(d);
      if (ad == Re(0)) {
        zero = true;
      } else {
        s = s * (d / ad);
        l += std::log(ad);
      }
      if (piv[m * n + i] != static_cast<P>(i + 1)) s = -s;
    }
    if (zero) {
      s = T(0);
      l = -std::numeric_limits<Re>::infinity();
    }
    if (logabs) {
      sign[m] = s;
      logabs[m] = l;
    } else {
      sign[m] = s * T(std::exp(l));
    }
  }
}

}  // namespace cupp::detail
