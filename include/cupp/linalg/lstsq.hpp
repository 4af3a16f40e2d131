// numpy.linalg.pinv, lstsq, tensorsolve and tensorinv, for device and host
// arrays. Part of <cupp/linalg.hpp>, next to <cupp/linalg/norms.hpp>.
//
// pinv reduces the SVD (svd.hpp) and multiplies it back with one matmul;
// lstsq calls LAPACK's ?gelsd on the host, as NumPy, and solves through
// the SVD on the device; tensorsolve and tensorinv reshape onto solve and
// inv (solve.hpp). See docs/linalg.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include <cupp/space_check.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/lstsq_run.hpp>
#include <cupp/detail/linalg/norm_lstsq_host.hpp>
#include <cupp/detail/linalg/norm_reduce.hpp>
#include <cupp/linalg/matmul.hpp>
#include <cupp/linalg/norms.hpp>
#include <cupp/linalg/solve.hpp>
#include <cupp/linalg/svd.hpp>

namespace cupp::linalg {

// numpy.linalg.lstsq's result: the solution (n,) or (n, k), the residuals'
// squared norms per column ((1,) or (k,) when the rank is n < m, else
// empty), the rank of a and its singular values (descending).
template <class R, class S>
struct lstsq_result {
  ndarray<R, S> x;
  ndarray<cupp::detail::lapack_real_t<R>, S> residuals;
  index_t rank;
  ndarray<cupp::detail::lapack_real_t<R>, S> s;
};

// numpy.linalg.pinv(a, rcond=1e-15, hermitian=False): the pseudo-inverse
// of each matrix of a stack (..., M, N) -> (..., N, M), singular values at
// most rcond times the largest taken as zero.
template <Expression X>
auto pinv(const X& a, double rcond = 1e-15, bool hermitian = false) {
  using R = cupp::detail::norm_input_t<X>;
  using S = cupp::detail::norm_space_t<X>;
  return detail_norms::pinv_of(cupp::detail::product_operand<R, S>(a), rcond, hermitian);
}
// pinv(a, rtol=...): rtol{} is max(M, N) * eps of the dtype.
template <Expression X>
auto pinv(const X& a, rtol relative, bool hermitian = false) {
  using R = cupp::detail::norm_input_t<X>;
  using S = cupp::detail::norm_space_t<X>;
  return detail_norms::pinv_of(cupp::detail::product_operand<R, S>(a), relative.value, hermitian);
}

// numpy.linalg.lstsq(a, b, rcond=None): the least-squares solution of
// a x = b for a 2-d a (M, N) and a 1-d (M,) or 2-d (M, K) b, computed in
// float64 (complex128) as NumPy, with rcond by default eps * max(M, N) of
// float64. The rank is read back (a synchronisation on the device).
template <Expression A, Expression B>
auto lstsq(const A& a, const B& b, std::optional<double> rcond = std::nullopt) {
  CUPP_SAME_SPACE(A, B);
  using TA = cupp::detail::norm_input_t<A>;
  using TB = cupp::detail::norm_input_t<B>;
  using R = result_type_t<TA, TB>;
  using Re = cupp::detail::lapack_real_t<R>;
  using S = cupp::detail::eval_space_t<typename cupp::detail::join_space<
      typename operand_t<A>::space, typename operand_t<B>::space>::type>;
  using D = std::conditional_t<cupp::detail::is_complex_type_v<R>, complex128, double>;
  ndarray<D, S> ad = cupp::detail::product_operand<D, S>(a);
  ndarray<D, S> bd = cupp::detail::product_operand<D, S>(b);
  const bool vector = bd.ndim() == 1;
  if (vector) bd = bd.reshape(shape_t{bd.shape()[0], 1});
  for (const int nd : {ad.ndim(), bd.ndim()})
    if (nd != 2)
      throw linalg_error(std::to_string(nd) +
                         "-dimensional array given. Array must be two-dimensional");
  const index_t m = ad.shape()[0], n = ad.shape()[1];
  if (bd.shape()[0] != m) throw linalg_error("Incompatible dimensions");
  const double cut =
      rcond.value_or(std::numeric_limits<double>::epsilon() * static_cast<double>(std::max(m, n)));
  auto p = detail_norms::lstsq_2d(ad, bd, cut);
  lstsq_result<R, S> r;
  r.x = ndarray<R, S>(astype<R>(p.x));
  if (vector) r.x = r.x.reshape(shape_t{n});
  if (p.rank == n && m > n)
    r.residuals = ndarray<Re, S>(astype<Re>(p.residuals));
  else
    r.residuals = ndarray<Re, S>(shape_t{0});
  r.rank = p.rank;
  r.s = ndarray<Re, S>(astype<Re>(p.s));
  return r;
}

// numpy.linalg.tensorsolve(a, b, axes=None): x with tensordot(a, x,
// x.ndim) == b, by solving a reshaped to a square matrix; axes are moved to
// the end of a first (non-negative, as NumPy's list.remove requires).
template <Expression A, Expression B>
auto tensorsolve(const A& a, const B& b, const axis_arg& axes = {}) {
  CUPP_SAME_SPACE(A, B);
  using R = result_type_t<cupp::detail::norm_input_t<A>, cupp::detail::norm_input_t<B>>;
  using S = cupp::detail::eval_space_t<typename cupp::detail::join_space<
      typename operand_t<A>::space, typename operand_t<B>::space>::type>;
  ndarray<R, S> at = cupp::detail::product_operand<R, S>(a);
  const ndarray<R, S> bt = cupp::detail::product_operand<R, S>(b);
  const int an = at.ndim(), bn = bt.ndim();
  if (!axes.all()) {
    std::vector<int> order;
    for (int i = 0; i < an; ++i) order.push_back(i);
    for (int i = 0; i < axes.size(); ++i) {
      const auto it = std::find(order.begin(), order.end(), axes[i]);
      if (it == order.end()) throw value_error("list.remove(x): x not in list");
      order.erase(it);
      order.push_back(axes[i]);
    }
    shape_t perm = shape_t::filled(0, 0);
    for (int v : order) perm.push_back(v);
    at = at.transpose(perm);
  }
  // Python's a.shape[-(an - bn):]: the whole shape when an == bn.
  int start = bn - an;
  if (start < 0) start = std::max(start + an, 0);
  shape_t unknown = shape_t::filled(0, 0);
  index_t count = 1;
  for (int i = std::min(start, an); i < an; ++i) {
    unknown.push_back(at.shape()[i]);
    count *= at.shape()[i];
  }
  if (at.size() != count * count)
    throw linalg_error(
        "Input arrays must satisfy the requirement             prod(a.shape[b.ndim:]) == "
        "prod(a.shape[:b.ndim])");
  ndarray<R, S> x = solve(at.reshape(shape_t{count, count}), bt.reshape(shape_t{bt.size()}));
  return x.reshape(unknown);
}

// numpy.linalg.tensorinv(a, ind=2): the inverse of a as the matrix of its
// first ind axes by the rest, shaped a.shape[ind:] + a.shape[:ind].
template <Expression X>
auto tensorinv(const X& a, int ind = 2) {
  using R = cupp::detail::norm_input_t<X>;
  using S = cupp::detail::norm_space_t<X>;
  const ndarray<R, S> at = cupp::detail::product_operand<R, S>(a);
  if (ind <= 0) throw value_error("Invalid ind argument.");
  const int nd = at.ndim(), split = std::min(ind, nd);
  shape_t inverse_shape = shape_t::filled(0, 0);
  index_t rows = 1;
  for (int i = split; i < nd; ++i) {
    inverse_shape.push_back(at.shape()[i]);
    rows *= at.shape()[i];
  }
  for (int i = 0; i < split; ++i) inverse_shape.push_back(at.shape()[i]);
  if (rows == 0)
    throw value_error("cannot reshape array of size " + std::to_string(at.size()) +
                      " into shape (0,newaxis)");
  ndarray<R, S> ia = inv(at.reshape(shape_t{rows, at.size() / rows}));
  return ia.reshape(inverse_shape);
}

}  // namespace cupp::linalg
