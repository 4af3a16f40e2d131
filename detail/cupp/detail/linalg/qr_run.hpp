// The engine of numpy.linalg.qr: NumPy's modes, geqrf of the column-major
// stack, R read from the factor, and Q formed from the reflectors (in the
// factor's memory where it fits), through qr_lapack.hpp's vendor calls.
// <cupp/linalg/qr.hpp> keeps the public functions and the result types.
//
// numpy.triu (cupp::triu) has no internal form yet: its call below is
// unqualified, found through the arrays' namespace when the template is
// instantiated from <cupp/linalg/qr.hpp>, which includes
// <cupp/diagonals.hpp>. numpy.copyto's writes are detail::assign, the
// engine it runs (its checks cannot fail on the fresh arrays here).
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/qr_lapack.hpp>
#include <cupp/errors.hpp>
#include <cupp/index_types.hpp>
#include <cupp/linalg/results_fwd.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

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
    static_assert(dependent_false<R>, CUPP_DETAIL_NO_HOST_BLAS("cupp::linalg::qr"));
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
    assign(q, as_operand(make_diagonal<R, false, any_space>(g.q_cols, m, 0, order::C)));
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
  assign(q(cupp::ellipsis, cupp::slice(0, n), cupp::_), as_operand(h));
  qr_form_q<R, S>(g, count, q.data(), m * m, tau.data(), q.device_id());
  return {q.swapaxes(-1, -2), r};
}

}  // namespace cupp::detail
