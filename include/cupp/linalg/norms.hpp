// numpy.linalg.norm, vector_norm and matrix_norm (NumPy 2), cond and
// matrix_rank, for device and host arrays and lazy expressions. Part of
// <cupp/linalg.hpp>; pinv, lstsq, tensorsolve and tensorinv are in
// <cupp/linalg/lstsq.hpp>.
//
// Vector norms and the 1, -1, inf, -inf and Frobenius matrix norms are
// cupp reductions of the input expression (one pass over x, nothing
// stored but the result: `norm(x - y)` never stores x - y); 2, -2 and
// "nuc" reduce the singular values (svdvals). See docs/linalg.md.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/norm_reduce.hpp>
#include <cupp/expression.hpp>
#include <cupp/indexing.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/linalg/solve.hpp>
#include <cupp/linalg/svd.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

namespace cupp {

namespace linalg {

// NumPy 2's rtol= of matrix_rank and pinv, which C++ cannot tell from
// their positional tol/rcond by name: rtol{} is rtol=None (max(M, N) * eps
// of the dtype), rtol{1e-5} a relative tolerance.
struct rtol {
  std::optional<double> value;
};

}  // namespace linalg

namespace detail {

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

}  // namespace detail

namespace linalg {

namespace detail_norms {

// The singular values' max (2), min (-2) or sum ("nuc") of the matrices on
// axes (row, col) of a, with both axes kept as 1.
template <class Re, class R, class S>
ndarray<Re, S> singular_value_norm(const ndarray<R, S>& a, int row, int col, const norm_ord& ord) {
  using linalg::svdvals;
  const ndarray<Re, S> s = svdvals(moveaxis(a, axis_arg{row, col}, axis_arg{-2, -1}));
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

}  // namespace detail_norms

// numpy.linalg.norm(x, ord, axis, keepdims): with axis none, the 2-norm of
// the flattened array when ord is none (any ndim), else x must be 1-d (a
// vector norm) or 2-d (a matrix norm); one axis gives vector norms, a pair
// ({0, 1}) matrix norms. float32 and complex64 give float32, other dtypes
// float64.
template <Expression X>
auto norm(const X& x, const norm_ord& ord = {}, const axis_arg& axis = {}, bool keepdims = false) {
  using R = cupp::detail::norm_input_t<X>;
  using Re = cupp::detail::lapack_real_t<R>;
  using S = cupp::detail::norm_space_t<X>;
  const auto e = as_operand(x);
  const int nd = e.shape().size();
  using kind = norm_ord::kind;
  if (axis.all() &&
      (ord.is_none() || (ord.which() == kind::fro && nd == 2) || (ord.is(2) && nd == 1)))
    return cupp::detail::reduce_norm<Re, cupp::detail::vnorm::two>(
        e, cupp::detail::reduced_axes(axis, nd), keepdims);
  const int count = axis.all() ? nd : axis.size();
  const int first = axis.all() ? 0 : axis[0];
  if (count == 1)
    return cupp::detail::vector_norm_over<Re>(e, cupp::detail::reduced_axes(axis_arg(first), nd),
                                              keepdims, ord);
  if (count != 2) throw value_error("Improper number of dimensions to norm.");
  const int row = static_cast<int>(cupp::detail::normalize_axis(first, nd));
  const int col = static_cast<int>(cupp::detail::normalize_axis(axis.all() ? 1 : axis[1], nd));
  if (row == col) throw value_error("Duplicate axes given.");
  return detail_norms::matrix_norm_over<R, Re, S>(x, e, row, col, keepdims, ord);
}

// numpy.linalg.vector_norm(x, axis=None, keepdims=False, ord=2) (NumPy 2):
// a vector norm over all axes (any ndim), one axis or several ({0, 2}).
template <Expression X>
auto vector_norm(const X& x, const axis_arg& axis = {}, bool keepdims = false,
                 const norm_ord& ord = 2) {
  using Re = cupp::detail::lapack_real_t<cupp::detail::norm_input_t<X>>;
  const auto e = as_operand(x);
  const int nd = e.shape().size();
  cupp::detail::axis_mask m = 0;
  if (axis.all()) {
    m = cupp::detail::reduced_axes(axis, nd);
  } else {
    for (int i = 0; i < axis.size(); ++i) {
      const auto bit =
          cupp::detail::axis_bit(static_cast<int>(cupp::detail::normalize_axis(axis[i], nd)));
      if (m & bit) throw value_error("repeated axis");
      m |= bit;
    }
  }
  return cupp::detail::vector_norm_over<Re>(e, m, keepdims, ord);
}

// numpy.linalg.matrix_norm(x, keepdims=False, ord="fro") (NumPy 2): the
// matrix norm of the last two axes of a stack.
template <Expression X>
auto matrix_norm(const X& x, bool keepdims = false, const norm_ord& ord = "fro") {
  return norm(x, ord, axis_arg{-2, -1}, keepdims);
}

// numpy.linalg.cond(x, p=None): for p none, 2 and -2 the ratio of the
// extreme singular values (any M x N stack); for 1, -1, inf, -inf and "fro"
// norm(x, p) * norm(inv(x), p) of square matrices, inverted in float64 (or
// complex128) as NumPy does. A singular matrix gives inf (NaN where x
// holds NaN), as NumPy.
template <Expression X>
auto cond(const X& x, const norm_ord& p = {}) {
  using R = cupp::detail::norm_input_t<X>;
  using Re = cupp::detail::lapack_real_t<R>;
  using S = cupp::detail::norm_space_t<X>;
  const ndarray<R, S> a = cupp::detail::product_operand<R, S>(x);
  if (cupp::detail::empty_matrices(a.shape()))
    throw linalg_error("cond is not defined on empty arrays");
  const double inf = std::numeric_limits<double>::infinity();
  ndarray<Re, S> r;
  if (p.is_none() || p.is(2) || p.is(-2)) {
    const ndarray<Re, S> s = svdvals(a);
    const index_t k = s.shape()[s.ndim() - 1];
    const ndarray<Re, S> first = s(ellipsis, 0), last = s(ellipsis, k - 1);
    r = p.is(-2) ? ndarray<Re, S>(last / first) : ndarray<Re, S>(first / last);
  } else {
    cupp::detail::check_stacked_square(a.shape());
    using D = std::conditional_t<cupp::detail::is_complex_type_v<R>, complex128, double>;
    const ndarray<D, S> ad = cupp::detail::product_operand<D, S>(a);
    ndarray<D, S> ainv;
    try {
      ainv = inv(ad);
    } catch (const linalg_error&) {
      // NumPy inverts each matrix alone and leaves NaN where one fails.
      ainv = ndarray<D, S>(ad.shape());
      const index_t n = ad.shape()[ad.ndim() - 1], count = cupp::detail::stack_count(ad.shape());
      const auto in = ad.reshape(shape_t{count, n, n});
      const auto out = ainv.reshape(shape_t{count, n, n});
      for (index_t i = 0; i < count; ++i) {
        try {
          out(i) = inv(ndarray<D, S>(in(i)));
        } catch (const linalg_error&) {
          out(i) = std::numeric_limits<double>::quiet_NaN();
        }
      }
    }
    r = astype<Re>(norm(a, p, axis_arg{-2, -1}) * norm(ainv, p, axis_arg{-2, -1}));
  }
  if constexpr (is_inexact_v<typename operand_t<X>::value_type>)
    return ndarray<Re, S>(
        where(isnan(r) & logical_not(any(isnan(a), axis_arg{-2, -1})), Re(inf), r));
  else
    return ndarray<Re, S>(where(isnan(r), Re(inf), r));
}

namespace detail_norms {

template <class R, class S>
ndarray<std::int64_t, S> rank_of_matrices(const ndarray<R, S>& a, std::optional<double> tol,
                                          std::optional<double> relative, bool hermitian) {
  using Re = cupp::detail::lapack_real_t<R>;
  const ndarray<Re, S> s = hermitian ? svd(a, false, false, true).S : svdvals(a);
  if (tol) return count_nonzero(s > *tol, -1);
  const index_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  const double rt =
      relative.value_or(static_cast<double>(std::max(m, n)) * std::numeric_limits<Re>::epsilon());
  // The largest singular value of each matrix, 0 for an empty one (NumPy's
  // initial=0).
  const ndarray<Re, S> smax = cupp::detail::reduce_norm<Re, cupp::detail::vnorm::max_abs>(
      cupp::array_leaf<Re, S>{s}, cupp::detail::axis_bit(s.ndim() - 1), true);
  return count_nonzero(s > smax * static_cast<Re>(rt), -1);
}

template <class X>
auto rank_of(const X& x, std::optional<double> tol, std::optional<double> relative,
             bool hermitian) {
  using R = cupp::detail::norm_input_t<X>;
  using S = cupp::detail::norm_space_t<X>;
  const ndarray<R, S> a = cupp::detail::product_operand<R, S>(x);
  // NumPy: int(not all(A == 0)) below two dimensions.
  if (a.ndim() < 2) return ndarray<std::int64_t, S>(astype<std::int64_t>(any(a != R(0))));
  return rank_of_matrices(a, tol, relative, hermitian);
}

}  // namespace detail_norms

// numpy.linalg.matrix_rank(A, tol=None, hermitian=False): the number of
// singular values above tol, by default above S.max() * max(M, N) * eps of
// the singular values' dtype; a stack gives one rank per matrix (int64),
// a 0-d or 1-d A 1 unless all zero.
template <Expression X>
auto matrix_rank(const X& A, std::optional<double> tol = std::nullopt, bool hermitian = false) {
  return detail_norms::rank_of(A, tol, std::nullopt, hermitian);
}
// matrix_rank(A, rtol=...): the tolerance S.max() * rtol.
template <Expression X>
auto matrix_rank(const X& A, rtol relative, bool hermitian = false) {
  return detail_norms::rank_of(A, std::nullopt, relative.value, hermitian);
}

}  // namespace linalg

}  // namespace cupp
