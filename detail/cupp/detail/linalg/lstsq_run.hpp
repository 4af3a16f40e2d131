// The engines of numpy.linalg.pinv and lstsq: the pseudo-inverse from
// the SVD (svd_run.hpp) with one matrix product back, and the least-squares
// solution of a 2-d system in float64 (complex128), by LAPACK's ?gelsd on
// the host (norm_lstsq_host.hpp) and through the SVD on the device.
// <cupp/linalg/lstsq.hpp> keeps the public functions and lstsq's result.
//
// numpy.where (cupp::where) and numpy.copyto (cupp::copyto) have no
// internal form yet: the calls below are unqualified, found through the
// arrays' namespace when these templates are instantiated from
// <cupp/linalg/lstsq.hpp> (which includes <cupp/ufunc.hpp> through
// <cupp/linalg/norms.hpp>); so are the arithmetic and comparison operators
// of arrays.
#pragma once

#include <algorithm>
#include <limits>
#include <optional>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/axis.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/lapack_common.hpp>
#include <cupp/detail/linalg/linalg_views.hpp>
#include <cupp/detail/linalg/norm_lstsq_host.hpp>
#include <cupp/detail/linalg/norm_reduce.hpp>
#include <cupp/detail/linalg/norms_run.hpp>
#include <cupp/detail/linalg/product_run.hpp>
#include <cupp/detail/linalg/svd_run.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/ops/complex_parts.hpp>
#include <cupp/detail/reduce/arguments.hpp>
#include <cupp/detail/reduce/logical.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/errors.hpp>
#include <cupp/index_types.hpp>
#include <cupp/linalg/results_fwd.hpp>
#include <cupp/shape.hpp>

namespace cupp::linalg::detail_norms {

template <class R, class S>
ndarray<R, S> pinv_of(const ndarray<R, S>& a, std::optional<double> rcond, bool hermitian) {
  using Re = cupp::detail::lapack_real_t<R>;
  cupp::detail::check_stacked_2d(a.shape());
  const int nd = a.ndim();
  const index_t m = a.shape()[nd - 2], n = a.shape()[nd - 1];
  const double cut =
      rcond.value_or(static_cast<double>(std::max(m, n)) * std::numeric_limits<Re>::epsilon());
  if (cupp::detail::empty_matrices(a.shape())) {
    shape_t out = a.shape();
    out[nd - 2] = n;
    out[nd - 1] = m;
    return ndarray<R, S>(out);
  }
  // NumPy factors conj(a), so that the product below needs no conjugate.
  ndarray<R, S> ac = a;
  if constexpr (cupp::detail::is_complex_type_v<R>)
    ac = ndarray<R, S>(make_ufunc(ops::conjugate{}, a));
  auto [u, s, vh] = cupp::detail::svd_of(ac, false, true, hermitian);
  const ndarray<Re, S> smax = cupp::detail::reduce_norm<Re, cupp::detail::vnorm::max_abs>(
      cupp::array_leaf<Re, S>{s}, cupp::detail::axis_bit(s.ndim() - 1), true);
  const ndarray<Re, S> sinv = where(s > smax * static_cast<Re>(cut), Re(1) / s, Re(0));
  const ndarray<R, S> scaled =
      make_ufunc(ops::multiply{}, cupp::detail::expand_dims_view(sinv, -1), u.swapaxes(-1, -2));
  return cupp::detail::matmul_arrays(ndarray<R, S>(vh.swapaxes(-1, -2)), scaled);
}

// lstsq of 2-d a (m, n) and b (m, k) in D (float64 or complex128): the
// solution (n, k), the residuals' squares (k,) whatever the rank, the
// rank and the singular values.
template <class D, class S>
struct lstsq_parts {
  ndarray<D, S> x;
  ndarray<double, S> residuals;
  index_t rank = 0;
  ndarray<double, S> s;
};

template <class D, class S>
lstsq_parts<D, S> lstsq_2d(const ndarray<D, S>& a, const ndarray<D, S>& b, double rcond) {
  const index_t m = a.shape()[0], n = a.shape()[1], k = b.shape()[1];
  lstsq_parts<D, S> p;
  if (m == 0 || n == 0) {
    // LAPACK returns at once; NumPy's x is zero and the residuals are b's.
    p.x = ndarray<D, S>(shape_t{n, k});
    copyto(p.x, D(0));
    p.s = ndarray<double, S>(shape_t{0});
    p.residuals = cupp::detail::reduce_norm<double, cupp::detail::vnorm::squares>(
        cupp::array_leaf<D, S>{b}, cupp::detail::axis_bit(0), false);
    return p;
  }
  if constexpr (std::is_same_v<S, host_space>) {
    // b in a column-major buffer of max(m, n) rows (gelsd writes x there).
    const index_t ldb = std::max(m, n), cols = std::max<index_t>(k, 1);
    ndarray<D, S> work(shape_t{cols, ldb});
    copyto(work, D(0));
    work(slice(0, k), slice(0, m)) = b.T();
    ndarray<D, S> acol = cupp::detail::column_major_stack<D, S>(a);
    p.s = ndarray<double, S>(shape_t{std::min(m, n)});
    const int info = cupp::detail::host_gelsd(m, n, cols, acol.data(), m, work.data(), ldb,
                                              p.s.data(), rcond, p.rank);
    cupp::detail::check_host_info(&info, 1, "SVD did not converge in Linear Least Squares",
                                  "gelsd");
    p.x = ndarray<D, S>(work(slice(0, k), slice(0, n)).T());
    p.residuals = cupp::detail::reduce_norm<double, cupp::detail::vnorm::squares>(
        cupp::array_leaf<D, S>{work(slice(0, k), slice(n, m))}, cupp::detail::axis_bit(1), false);
  } else {
    // x = V diag(1/s, where s > rcond * s_max) U^H b, as gelsd's rank rule.
    // svd's failure (a NaN in a) is reported with NumPy's lstsq message.
    svd_result<D, S> factors;
    try {
      factors = cupp::detail::svd_of(a, false, true, false);
    } catch (const linalg_error&) {
      throw linalg_error("SVD did not converge in Linear Least Squares");
    }
    auto& [u, s, vh] = factors;
    p.s = s;
    const ndarray<double, S> smax = cupp::detail::reduce_norm<double, cupp::detail::vnorm::max_abs>(
        cupp::array_leaf<double, S>{s}, cupp::detail::axis_bit(0), true);
    const ndarray<bool, S> kept = s > smax * rcond;
    p.rank = static_cast<index_t>(cupp::detail::impl::count_nonzero<void>(
                                      as_operand(kept), cupp::detail::reduce_args<>(axis_arg{}))
                                      .item());
    const ndarray<double, S> sinv = where(kept, 1.0 / s, 0.0);
    const ndarray<D, S> uhb =
        cupp::detail::matmul_arrays(ndarray<D, S>(make_ufunc(ops::conjugate{}, u.T())), b);
    const ndarray<D, S> scaled =
        make_ufunc(ops::multiply{}, cupp::detail::expand_dims_view(sinv, -1), uhb);
    p.x = cupp::detail::matmul_arrays(ndarray<D, S>(make_ufunc(ops::conjugate{}, vh.T())), scaled);
    const ndarray<D, S> ax = cupp::detail::matmul_arrays(a, p.x);
    p.residuals = cupp::detail::reduce_norm<double, cupp::detail::vnorm::squares>(
        b - ax, cupp::detail::axis_bit(0), false);
  }
  return p;
}

}  // namespace cupp::linalg::detail_norms
