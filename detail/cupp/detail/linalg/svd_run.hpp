// The engines of numpy.linalg.svd, svdvals and svd(hermitian=true): the
// shapes of the factors (identities or empty arrays where there is nothing
// to decompose), tall forms of wide matrices for cuSOLVER
// (svd_device.hpp), ?gesdd on the host (svd_host.hpp), and the Hermitian
// form through an eigendecomposition with NumPy's order and signs.
// <cupp/linalg/svd.hpp> keeps the public functions and the result type.
//
// numpy.take_along_axis (cupp::take_along_axis) has no internal form yet:
// its call below is unqualified, found through the arrays' namespace when
// the template is instantiated from <cupp/linalg/svd.hpp>, which includes
// <cupp/advanced_indexing.hpp>; so is the product operator of
// <cupp/ufunc/arithmetic.hpp>.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/generators/make.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/linalg_views.hpp>
#include <cupp/detail/linalg/product_operand.hpp>
#include <cupp/detail/linalg/svd_device.hpp>
#include <cupp/detail/linalg/svd_host.hpp>
#include <cupp/detail/memory/host_data.hpp>
#include <cupp/detail/ops/complex_parts.hpp>
#include <cupp/index_types.hpp>
#include <cupp/linalg/results_fwd.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

inline shape_t svd_shape(const shape_t& stack, std::initializer_list<index_t> tail) {
  shape_t s = stack;
  for (index_t t : tail) s.push_back(t);
  return s;
}

inline shape_t svd_stack_shape(const shape_t& s) {
  shape_t stack = shape_t::filled(0, 0);
  for (int i = 0; i + 2 < s.size(); ++i) stack.push_back(s[i]);
  return stack;
}

template <class T, class S>
ndarray<T, S> svd_on_space(const host::ndarray<T>& h) {
  if constexpr (std::is_same_v<S, device_space>) {
    // cupp::asarray(h): a device copy keeping C or F order.
    const order o = h.is_c_contiguous() || h.is_f_contiguous() ? keep_order(h) : order::C;
    ndarray<T> d(h.shape(), o);
    d.set(h);
    return d;
  } else {
    return h;
  }
}

template <class T, class S>
host::ndarray<T> svd_on_host(const ndarray<T, S>& x) {
  if constexpr (std::is_same_v<S, device_space>)
    return x.get();
  else
    return x;
}

template <class R, class S>
ndarray<R, S> svd_conj(const ndarray<R, S>& x) {
  if constexpr (is_complex_type_v<R>)
    return ndarray<R, S>(make_ufunc(ops::conjugate{}, x));
  else
    return x;
}

// (..., n, n) identities: NumPy's factor of a matrix with no columns (or
// no rows) under full_matrices.
template <class R, class S>
ndarray<R, S> svd_identity_stack(const shape_t& stack, index_t n) {
  const shape_t shape = svd_shape(stack, {n, n});
  if (size_of(shape) == 0) return ndarray<R, S>(shape);
  const ndarray<R, S> eye_n =
      product_operand<R, S>(make_diagonal<R, false, any_space>(n, n, 0, order::C));
  return broadcast_view(eye_n, shape).copy();
}

template <class R, class S>
linalg::svd_result<R, S> svd_arrays(const ndarray<R, S>& x, bool full, bool uv) {
  using Re = lapack_real_t<R>;
  const shape_t& sh = x.shape();
  const int nd = sh.size();
  const index_t m = sh[nd - 2], n = sh[nd - 1], k = std::min(m, n);
  const shape_t stack = svd_stack_shape(sh);
  const index_t count = stack_count(sh);
  ndarray<Re, S> s(svd_shape(stack, {k}));
  if (count == 0 || k == 0) {
    // Nothing to decompose; NumPy's factors are identities (full) or empty.
    if (!uv) return {ndarray<R, S>(), s, ndarray<R, S>()};
    return {full ? svd_identity_stack<R, S>(stack, m) : ndarray<R, S>(svd_shape(stack, {m, k})), s,
            full ? svd_identity_stack<R, S>(stack, n) : ndarray<R, S>(svd_shape(stack, {k, n}))};
  }
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    check_current_device(x.device_id());
    // The tall form X (p x q, column-major): A itself when m >= n, else A^T
    // (the C-order copy of A read column-major). A = X^T then gives
    // U = conj(Vx) and Vh = Ux^T.
    const bool tall = m >= n;
    const index_t p = tall ? m : n, q = k;
    ndarray<R, S> work = tall ? column_major_stack<R>(x) : x.copy();
    const bool batched = svd_uses_batched(p, q);
    const bool complete = uv && full;
    const index_t ucols = batched || complete ? p : q;
    // Ux^T and Vx^T as C-order arrays (Ux and Vx column-major).
    ndarray<R, S> ut(svd_shape(stack, {ucols, p}));
    ndarray<R, S> vt(svd_shape(stack, {q, q}));
    device_svd_tall(work.data(), s.data(), ut.data(), vt.data(), count, p, q, uv, complete,
                    x.device_id());
    if (!uv) return {ndarray<R, S>(), s, ndarray<R, S>()};
    if (!full && ucols > q) ut = ut(ellipsis, slice(0, q), _);
    const ndarray<R, S> v_conj_t = svd_conj(vt);  // conj(Vx)^T = Vx^H as C order
    if (tall) return {ut.swapaxes(-1, -2).copy(), s, v_conj_t};
    return {v_conj_t.swapaxes(-1, -2).copy(), s, ut.copy()};
#else
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
    ndarray<R, S> work = column_major_stack<R>(x);
    if (!uv) {
      host_gesdd<R>('N', work.data(), s.data(), nullptr, nullptr, count, m, n);
      return {ndarray<R, S>(), s, ndarray<R, S>()};
    }
    const index_t ucols = full ? m : k, vrows = full ? n : k;
    // U and V^H column-major: their transposes as C-order arrays.
    ndarray<R, S> ut(svd_shape(stack, {ucols, m}));
    ndarray<R, S> vht(svd_shape(stack, {n, vrows}));
    host_gesdd<R>(full ? 'A' : 'S', work.data(), s.data(), ut.data(), vht.data(), count, m, n);
    return {ut.swapaxes(-1, -2).copy(), s, vht.swapaxes(-1, -2).copy()};
  }
}

// The dtype of the eigenvalues' order (numpy.argsort's int64), named
// through the template's dtype R so that its host array needs the
// definition of ndarray only where the template is instantiated.
template <class R>
struct svd_order_index {
  using type = std::int64_t;
};

// NumPy's hermitian=True: eigh(a), singular values |w| in descending order
// (the reverse of a stable ascending sort, as NumPy's argsort()[..., ::-1]
// on small stacks), U the eigenvectors in that order, Vh = (U * sign)^H with
// sign copysign(1, w) so that a zero eigenvalue keeps a unit row.
template <class R, class S>
linalg::svd_result<R, S> hermitian_svd_arrays(const ndarray<R, S>& x, bool uv) {
  using Re = lapack_real_t<R>;
  check_stacked_square(x.shape());
  const shape_t& sh = x.shape();
  const index_t n = sh[sh.size() - 1];
  const shape_t stack = svd_stack_shape(sh);
  const index_t count = stack_count(sh);
  if (count == 0 || n == 0) {
    ndarray<Re, S> s(svd_shape(stack, {n}));
    if (!uv) return {ndarray<R, S>(), s, ndarray<R, S>()};
    return {ndarray<R, S>(svd_shape(stack, {n, n})), s, ndarray<R, S>(svd_shape(stack, {n, n}))};
  }
  ndarray<R, S> work = column_major_stack<R>(x);
  ndarray<Re, S> w(svd_shape(stack, {n}));
  if constexpr (std::is_same_v<S, device_space>) {
#if defined(__CUDACC__)
    check_current_device(x.device_id());
    device_hermitian_eigen(work.data(), w.data(), count, n, uv, x.device_id());
#else
    CUPP_NEEDS_NVCC(R);
#endif
  } else {
    host_hermitian_eigen(work.data(), w.data(), count, n, uv);
  }
  // The order and the signs are computed on the host: n values per matrix,
  // read back after the solver's status check has waited for them anyway.
  const host::ndarray<Re> wh = svd_on_host(w).copy();
  host::ndarray<Re> sh_out(svd_shape(stack, {n}));
  host::ndarray<typename svd_order_index<R>::type> order(svd_shape(stack, {1, n}));
  host::ndarray<R> sign(svd_shape(stack, {1, n}));
  std::vector<index_t> idx(static_cast<std::size_t>(n));
  for (index_t b = 0; b < count; ++b) {
    const Re* wb = wh.data() + b * n;
    std::iota(idx.begin(), idx.end(), index_t{0});
    std::stable_sort(idx.begin(), idx.end(),
                     [&](index_t i, index_t j) { return std::abs(wb[i]) < std::abs(wb[j]); });
    std::reverse(idx.begin(), idx.end());
    for (index_t j = 0; j < n; ++j) {
      const index_t i = idx[static_cast<std::size_t>(j)];
      sh_out.data()[b * n + j] = std::abs(wb[i]);
      order.data()[b * n + j] = i;
      sign.data()[b * n + j] = R(std::copysign(Re(1), wb[i]));
    }
  }
  const ndarray<Re, S> s = svd_on_space<Re, S>(sh_out);
  if (!uv) return {ndarray<R, S>(), s, ndarray<R, S>()};
  const ndarray<R, S> vectors = work.swapaxes(-1, -2);  // eigenvector j in column j
  const ndarray<R, S> u =
      take_along_axis(vectors, svd_on_space<std::int64_t, S>(order), index_t{-1});
  const ndarray<R, S> scaled = u * svd_on_space<R, S>(sign);
  return {u, s, svd_conj(scaled).swapaxes(-1, -2).copy()};
}

// numpy.linalg.svd of an array of the dtype it computes in: the
// Hermitian form, or NumPy's check of the axes and the general one.
template <class R, class S>
linalg::svd_result<R, S> svd_of(const ndarray<R, S>& x, bool full, bool uv, bool hermitian) {
  if (hermitian) return hermitian_svd_arrays(x, uv);
  check_stacked_2d(x.shape());
  return svd_arrays(x, full, uv);
}

}  // namespace cupp::detail
