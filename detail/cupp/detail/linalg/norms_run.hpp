// The engines of numpy.linalg.norm's matrix norms and of matrix_rank: the
// 2, -2 and nuclear norms reduced from the singular values (svd_run.hpp),
// the other matrix norms as reductions of the input (norm_reduce.hpp), and
// the rank counted from the singular values against NumPy's tolerance.
// <cupp/linalg/norms.hpp> keeps the public functions.
//
// The comparison operators of arrays (<cupp/ufunc/comparison.hpp>) and the
// product operator are found through the arrays' namespace when these
// templates are instantiated from <cupp/linalg/norms.hpp>, which includes
// <cupp/ufunc.hpp>.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/linalg_views.hpp>
#include <cupp/detail/linalg/norm_reduce.hpp>
#include <cupp/detail/linalg/product_operand.hpp>
#include <cupp/detail/linalg/svd_run.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/logical.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/errors.hpp>
#include <cupp/linalg/linalg_arguments.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

template <class X>
using norm_input_t = linalg_type_t<typename operand_t<X>::value_type>;
template <class X>
using norm_space_t = eval_space_t<typename operand_t<X>::space>;

// NumPy's _is_empty_2d: no elements, and none in the last two axes.
inline bool empty_matrices(const shape_t& s) {
  index_t last = 1;
  for (int i = s.size() >= 2 ? s.size() - 2 : 0; i < s.size(); ++i) last *= s[i];
  return size_of(s) == 0 && last == 0;
}

}  // namespace cupp::detail

namespace cupp::linalg::detail_norms {

// The singular values' max (2), min (-2) or sum ("nuc") of the matrices on
// axes (row, col) of a, with both axes kept as 1.
template <class Re, class R, class S>
ndarray<Re, S> singular_value_norm(const ndarray<R, S>& a, int row, int col, const norm_ord& ord) {
  const ndarray<Re, S> s =
      cupp::detail::svd_of(cupp::detail::moveaxis_view(a, axis_arg{row, col}, axis_arg{-2, -1}),
                           false, false, false)
          .S;
  const auto leaf = cupp::array_leaf<Re, S>{s};
  const cupp::detail::axis_mask last = cupp::detail::axis_bit(s.ndim() - 1);
  ndarray<Re, S> r =
      ord.is(2)    ? cupp::detail::reduce_norm<Re, cupp::detail::vnorm::max_abs>(leaf, last, false)
      : ord.is(-2) ? cupp::detail::reduce_norm<Re, cupp::detail::vnorm::min_abs>(leaf, last, false)
                   : cupp::detail::reduce_norm<Re, cupp::detail::vnorm::one>(leaf, last, false);
  return r.reshape(cupp::detail::reduced_shape(
      a.shape(), cupp::detail::axis_bit(row) | cupp::detail::axis_bit(col), true));
}

// numpy.linalg.norm over two distinct, normalized axes.
template <class R, class Re, class S, class X, class E>
ndarray<Re, S> matrix_norm_over(const X& x, const E& e, int row, int col, bool keepdims,
                                const norm_ord& ord) {
  const double inf = std::numeric_limits<double>::infinity();
  const cupp::detail::axis_mask both = cupp::detail::axis_bit(row) | cupp::detail::axis_bit(col);
  ndarray<Re, S> r;
  if (ord.is(2) || ord.is(-2) || ord.which() == norm_ord::kind::nuc)
    r = singular_value_norm<Re>(cupp::detail::product_operand<R, S>(x), row, col, ord);
  else if (ord.is(1) || ord.is(-1))
    r = cupp::detail::induced_matrix_norm<Re>(e, row, col, true, ord.is(1));
  else if (ord.is(inf) || ord.is(-inf))
    r = cupp::detail::induced_matrix_norm<Re>(e, row, col, false, ord.is(inf));
  else if (ord.is_none() || ord.which() == norm_ord::kind::fro)
    r = cupp::detail::reduce_norm<Re, cupp::detail::vnorm::two>(e, both, true);
  else
    throw value_error("Invalid norm order for matrices.");
  if (!keepdims) r = r.reshape(cupp::detail::reduced_shape(e.shape(), both, false));
  return r;
}

template <class R, class S>
ndarray<std::int64_t, S> rank_of_matrices(const ndarray<R, S>& a, std::optional<double> tol,
                                          std::optional<double> relative, bool hermitian) {
  using Re = cupp::detail::lapack_real_t<R>;
  const ndarray<Re, S> s = hermitian ? cupp::detail::svd_of(a, false, false, true).S
                                     : cupp::detail::svd_of(a, false, false, false).S;
  if (tol)
    return cupp::detail::impl::count_nonzero<void>(as_operand(s > *tol),
                                                   cupp::detail::reduce_args<>(-1));
  const index_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  const double rt =
      relative.value_or(static_cast<double>(std::max(m, n)) * std::numeric_limits<Re>::epsilon());
  // The largest singular value of each matrix, 0 for an empty one (NumPy's
  // initial=0).
  const ndarray<Re, S> smax = cupp::detail::reduce_norm<Re, cupp::detail::vnorm::max_abs>(
      cupp::array_leaf<Re, S>{s}, cupp::detail::axis_bit(s.ndim() - 1), true);
  return cupp::detail::impl::count_nonzero<void>(as_operand(s > smax * static_cast<Re>(rt)),
                                                 cupp::detail::reduce_args<>(-1));
}

template <class X>
auto rank_of(const X& x, std::optional<double> tol, std::optional<double> relative,
             bool hermitian) {
  using R = cupp::detail::norm_input_t<X>;
  using S = cupp::detail::norm_space_t<X>;
  const ndarray<R, S> a = cupp::detail::product_operand<R, S>(x);
  // NumPy: int(not all(A == 0)) below two dimensions.
  if (a.ndim() < 2)
    return ndarray<std::int64_t, S>(
        make_ufunc(ops::cast<std::int64_t>{},
                   cupp::detail::impl::any<void>(as_operand(a != R(0)),
                                                 cupp::detail::reduce_args<>(axis_arg{}))));
  return rank_of_matrices(a, tol, relative, hermitian);
}

}  // namespace cupp::linalg::detail_norms
