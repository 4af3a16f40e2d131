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
#include <cupp/detail/linalg/qr_lapack.hpp>
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

}  // namespace linalg

namespace detail {

enum class qr_mode { reduced, complete, r, raw };

// NumPy's modes; "full"/"f", which NumPy still takes (deprecated) as
// "reduced", too.
inline qr_mode parse_qr_mode(std::string_view mode) {
  if (mode == "reduced" || mode == "full" || mode == "f") return qr_mode::reduced;
  if (mode == "complete") return qr_mode::complete;
  if (mode == "r") return qr_mode::r;
  if (mode == "raw") return qr_mode::raw;
  throw value_error("Unrecognized mode '" + std::string(mode) + "'");
}

// geqrf of every matrix of the column-major stack h (shape (..., N, M)),
// the reflectors' scalars in tau (shape (..., K)).
template <class R, class S>
void qr_factor(const qr_geometry& g, index_t count, ndarray<R, S>& h, ndarray<R, S>& tau,
               bool batched) {
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    const int device = h.device_id();
    if (batched) {
      device_geqrf_batched(g, count, h.data(), tau.data(), device);
      return;
    }
    // info reports argument errors only, which cupp does not make: not read.
    const cuda::memory_ptr info = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
    for (index_t b = 0; b < count; ++b)
      device_geqrf(g, h.data() + b * g.m * g.n, tau.data() + b * g.k,
                   static_cast<int*>(info.get()) + b, device);
#else
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
    (void)batched;  // the host factors matrix by matrix
#if CUPP_HAVE_HOST_BLAS
    host_geqrf(g, count, h.data(), tau.data());
#else
    static_assert(dependent_false<R>,
                  "cupp::linalg::qr of host arrays needs LAPACKE: link cupp::linalg on a machine "
                  "with OpenBLAS and LAPACKE (Debian: apt install libopenblas-dev liblapacke-dev)");
#endif
  }
}

// Q (column-major, shape (..., q_cols, M)) formed in place from the
// reflectors its first K columns hold; matrices q_stride elements apart.
template <class R, class S>
void qr_form_q(const qr_geometry& g, index_t count, R* q, index_t q_stride, const R* tau,
               int device) {
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    const cuda::memory_ptr info = cuda::alloc(static_cast<std::size_t>(count) * sizeof(int));
    for (index_t b = 0; b < count; ++b)
      device_orgqr(g, q + b * q_stride, tau + b * g.k, static_cast<int*>(info.get()) + b, device);
#else
    (void)device;
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
#if CUPP_HAVE_HOST_BLAS
    (void)device;
    host_orgqr(g, count, q, q_stride, tau);
#endif
  }
}

template <class R, class S>
linalg::qr_result<R, S> qr_arrays(const ndarray<R, S>& a, qr_mode mode) {
  constexpr bool on_device = std::is_same_v<S, device_space>;
  check_stacked_2d(a.shape());
  if constexpr (on_device) check_current_device(a.device_id());
  const shape_t& s = a.shape();
  const int nd = s.size();
  const index_t m = s[nd - 2], n = s[nd - 1], k = std::min(m, n);
  const qr_geometry g{m, n, k, mode == qr_mode::complete ? m : k};
  const index_t count = stack_count(s);
  shape_t tau_shape = s;
  tau_shape.resize(nd - 1);
  tau_shape[nd - 2] = k;

  ndarray<R, S> h = column_major_stack<R>(a);
  ndarray<R, S> tau(tau_shape);
  const bool empty = count == 0 || k == 0;
  // cuBLAS's batched QR for stacks of small matrices (it wants m >= n).
  bool batched = false;
  if constexpr (on_device) batched = count > 1 && m >= n && m <= qr_batched_max_rows;
  if (!empty) qr_factor(g, count, h, tau, batched);
  if (mode == qr_mode::raw) return {h, tau};

  // R before Q: Q may be formed in h's memory.
  const index_t r_rows = mode == qr_mode::complete ? m : k;
  ndarray<R, S> r(triu(h.swapaxes(-1, -2)(cupp::ellipsis, cupp::slice(0, r_rows), cupp::_)));
  if (mode == qr_mode::r) return {ndarray<R, S>(shape_t{0}), r};

  shape_t q_store = s;  // column-major Q: (..., q_cols, M)
  q_store[nd - 2] = g.q_cols;
  q_store[nd - 1] = m;
  if (empty) {
    ndarray<R, S> q(q_store);
    copyto(q, make_diagonal<R, false, any_space>(g.q_cols, m, 0, order::C));
    return {q.swapaxes(-1, -2), r};
  }
  if (batched) {
#if defined(__CUDACC__)
    ndarray<R, S> q(q_store);
    device_form_q_batched(g, count, h.data(), tau.data(), q.data(), h.device_id());
    return {q.swapaxes(-1, -2), r};
#endif
  }
  if (g.q_cols <= n) {
    // Q's columns are the first q_cols of h's: formed in place (m < n
    // leaves h's last n - m columns unused, skipped by the stride).
    qr_form_q<R, S>(g, count, h.data(), m * n, tau.data(), h.device_id());
    return {h(cupp::ellipsis, cupp::slice(0, g.q_cols), cupp::_).swapaxes(-1, -2), r};
  }
  // "complete" with m > n: Q has more columns than h.
  ndarray<R, S> q(q_store);
  copyto(q(cupp::ellipsis, cupp::slice(0, n), cupp::_), h);
  qr_form_q<R, S>(g, count, q.data(), m * m, tau.data(), q.device_id());
  return {q.swapaxes(-1, -2), r};
}

}  // namespace detail

namespace linalg {

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
