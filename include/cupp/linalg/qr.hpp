// numpy.linalg.qr on cuSOLVER and cuBLAS for device arrays and on LAPACKE
// for host arrays. Part of <cupp/linalg.hpp>.
//
// NumPy's four modes are a string, as in NumPy; the C++ result type is
// the same for all of them:
//   auto [Q, R] = cupp::linalg::qr(a);              // "reduced" (default)
//   auto [Q, R] = cupp::linalg::qr(a, "complete");  // Q is M x M
//   auto r = cupp::linalg::qr(a, "r").R;            // Q empty, shape (0,)
//   auto [h, tau] = cupp::linalg::qr_raw(a);        // NumPy's mode "raw"
// qr(a, "raw") gives the same two arrays in the fields Q (h) and R (tau).
// See docs/linalg.md.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/qr_run.hpp>
#include <cupp/diagonals.hpp>
#include <cupp/expression.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/ndarray.hpp>

namespace cupp {

namespace linalg {

// numpy.linalg.QRResult: Q (shape (..., M, K), or (..., M, M) for mode
// "complete"; empty for mode "r") and R (shape (..., K, N), or (..., M, N)
// for "complete"), K = min(M, N). Mode "raw" puts h in Q and tau in R.
template <class T, class S>
struct qr_result {
  ndarray<T, S> Q;
  ndarray<T, S> R;
};

// NumPy's qr(a, mode="raw"): h, shape (..., N, M), the Householder factor
// as LAPACK leaves it (R on and above the diagonal, the reflectors below)
// transposed, and tau, shape (..., K), the reflectors' scalars.
template <class T, class S>
struct qr_raw_result {
  ndarray<T, S> h;
  ndarray<T, S> tau;
};

// numpy.linalg.qr(a, mode="reduced"): A = Q R with Q's columns orthonormal
// and R upper-triangular, for every matrix of a (..., M, N) stack. mode is
// "reduced", "complete", "r" or "raw" (see qr_result); any other throws
// value_error("Unrecognized mode '...'"). Integers and bool compute in
// float64. Device: cusolverDnXgeqrf + orgqr/ungqr per matrix;
// cublas<t>geqrfBatched and a kernel of cupp's own for Q for stacks of
// matrices up to 128 rows (M >= N).
template <Expression A>
auto qr(const A& a, std::string_view mode = "reduced") {
  using T = typename operand_t<A>::value_type;
  static_assert(is_dtype_v<T>, "cupp::linalg::qr: a must be an array or an expression");
  using R = detail::linalg_type_t<T>;
  using S = detail::eval_space_t<typename operand_t<A>::space>;
  const detail::qr_mode parsed = detail::parse_qr_mode(mode);
  return detail::qr_arrays<R, S>(detail::product_operand<R, S>(a), parsed);
}

// numpy.linalg.qr(a, mode="raw") with named fields: {h, tau}.
template <Expression A>
auto qr_raw(const A& a) {
  auto [h, tau] = qr(a, "raw");
  using Result = qr_raw_result<typename decltype(h)::value_type, typename decltype(h)::space_type>;
  return Result{h, tau};
}

}  // namespace linalg

}  // namespace cupp
