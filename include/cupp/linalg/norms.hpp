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
#include <cupp/detail/linalg/norms_run.hpp>
#include <cupp/expression.hpp>
#include <cupp/index_types.hpp>
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

namespace linalg {

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
