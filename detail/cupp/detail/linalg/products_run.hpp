// The engines of NumPy's other products (products.hpp): the dtype and
// space of a product of operands, a contraction as one matrix product
// (tensordot, inner), numpy.cross component by component, and multi_dot's
// chain of products in the cheapest order. The matrix products are
// matmul_arrays (product_run.hpp); the shapes and checks are planned in
// products_plan.hpp.
//
// cross_arrays writes its components with detail::assign, the engine of
// numpy.copyto (whose checks cannot fail on the fresh result); the
// arithmetic operators of arrays (<cupp/ufunc/arithmetic.hpp>) in it are
// found through the arrays' namespace when the template is instantiated
// from <cupp/linalg/products.hpp>, which includes them.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/dot_run.hpp>
#include <cupp/detail/linalg/linalg_views.hpp>
#include <cupp/detail/linalg/product_run.hpp>
#include <cupp/detail/linalg/products_plan.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/detail/views/layout.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// The dtype (NumPy's promotion) and the space of a product of operands.
template <class... X>
struct product_of {
  static_assert((is_dtype_v<typename operand_t<X>::value_type> && ...),
                "cupp: products take arrays, not scalars");
  using type = typename result_type_fold<typename operand_t<X>::value_type...>::type;
  using space = eval_space_t<typename space_of_all<typename operand_t<X>::space...>::type>;
};

// a as a matrix (rows, cols), b likewise; one matrix product, reshaped.
template <class R, class S>
ndarray<R, S> contract(const ndarray<R, S>& a, const ndarray<R, S>& b, const contraction_plan& p) {
  const ndarray<R, S> at = a.transpose(p.perm_a).reshape(shape_t{p.rows, p.k});
  const ndarray<R, S> bt = b.transpose(p.perm_b).reshape(shape_t{p.k, p.cols});
  return matmul_arrays(at, bt).reshape(p.out);
}

template <class R, class S>
ndarray<R, S> inner_arrays(const ndarray<R, S>& a, const ndarray<R, S>& b) {
  const int na = a.ndim(), nb = b.ndim();
  if (na == 0 || nb == 0) return ndarray<R, S>(make_ufunc(ops::multiply{}, a, b));
  // NumPy checks inner as dot(a, b.swapaxes(-1, -2)) and says so.
  const shape_t bs = nb >= 2 ? b.swapaxes(-1, -2).shape() : b.shape();
  check_dot_aligned(a.shape(), bs);
  contraction_plan p;
  p.k = a.shape()[na - 1];
  p.perm_a = shape_t::filled(0, 0);
  p.perm_b = shape_t::filled(0, 0);
  p.out = shape_t::filled(0, 0);
  for (int i = 0; i < na; ++i) p.perm_a.push_back(i);
  p.perm_b.push_back(nb - 1);
  for (int i = 0; i + 1 < na; ++i) {
    p.rows *= a.shape()[i];
    p.out.push_back(a.shape()[i]);
  }
  for (int i = 0; i + 1 < nb; ++i) {
    p.perm_b.push_back(i);
    p.cols *= b.shape()[i];
    p.out.push_back(b.shape()[i]);
  }
  return contract(a, b, p);
}

// numpy.cross(a, b, axisa, axisb, axisc) on arrays of the result dtype.
template <class R, class S>
ndarray<R, S> cross_arrays(const ndarray<R, S>& a, const ndarray<R, S>& b, index_t axisa,
                           index_t axisb, index_t axisc) {
  static_assert(!std::is_same_v<R, bool>,
                "cupp::cross: numpy boolean subtract, the `-` operator, is not supported; cast "
                "the vectors to an integer dtype first");
  if (a.ndim() < 1 || b.ndim() < 1) throw value_error("At least one array has zero dimension");
  const int xa = checked_axis(axisa, a.ndim(), "axisa");
  const int xb = checked_axis(axisb, b.ndim(), "axisb");
  // Components first: u(i) is component i of every vector of u.
  const ndarray<R, S> u = moveaxis_view(a, xa, 0), v = moveaxis_view(b, xb, 0);
  const index_t nu = u.shape()[0], nv = v.shape()[0];
  if ((nu != 2 && nu != 3) || (nv != 2 && nv != 3))
    throw value_error("incompatible dimensions for cross product\n(dimension must be 2 or 3)");
  shape_t shape = cross_batch_shape(without_axis(u.shape(), 0), without_axis(v.shape(), 0));
  if (nu == 2 && nv == 2) return ndarray<R, S>(u(0) * v(1) - u(1) * v(0));
  shape.push_back(3);
  const int xc = checked_axis(axisc, shape.size(), "axisc");
  ndarray<R, S> out(shape);
  const ndarray<R, S> w = moveaxis_view(out, -1, 0);
  // A missing third component is zero: its products are left out (NumPy's
  // code), so that infinities give no NaN from 0 * inf.
  if (nu == 3 && nv == 3) {
    assign(w(0), as_operand(u(1) * v(2) - u(2) * v(1)));
    assign(w(1), as_operand(u(2) * v(0) - u(0) * v(2)));
  } else if (nu == 2) {
    assign(w(0), as_operand(u(1) * v(2)));
    assign(w(1), as_operand(-(u(0) * v(2))));
  } else {
    assign(w(0), as_operand(-(u(2) * v(1))));
    assign(w(1), as_operand(u(2) * v(0)));
  }
  assign(w(2), as_operand(u(0) * v(1) - u(1) * v(0)));
  return moveaxis_view(out, -1, xc);
}

template <class R, class S>
ndarray<R, S> chain_product(const std::vector<ndarray<R, S>>& m,
                            const std::vector<std::vector<int>>& split, int i, int j) {
  if (i == j) return m[i];
  return dot_arrays(chain_product(m, split, i, split[i][j]),
                    chain_product(m, split, split[i][j] + 1, j));
}

template <class R, class S>
ndarray<R, S> multi_dot_arrays(std::vector<ndarray<R, S>> m) {
  const std::size_t n = m.size();
  if (n < 2) throw value_error("Expecting at least two arrays.");
  if (n == 2) return dot_arrays(m[0], m[1]);
  // A 1-d first operand is a row, a 1-d last one a column, and their unit
  // axes leave the result.
  const bool row = m.front().ndim() == 1, column = m.back().ndim() == 1;
  if (row) m.front() = m.front().reshape(shape_t{1, m.front().size()});
  if (column) m.back() = m.back().reshape(shape_t{m.back().size(), 1});
  for (const auto& x : m)
    if (x.ndim() != 2)
      throw linalg_error(std::to_string(x.ndim()) +
                         "-dimensional array given. Array must be two-dimensional");
  ndarray<R, S> r;
  if (n == 3) {
    const auto &a = m[0].shape(), &c = m[2].shape();
    r = multiply_left_first(a[0], a[1], c[0], c[1]) ? dot_arrays(dot_arrays(m[0], m[1]), m[2])
                                                    : dot_arrays(m[0], dot_arrays(m[1], m[2]));
  } else {
    std::vector<index_t> dims;
    for (const auto& x : m) dims.push_back(x.shape()[0]);
    dims.push_back(m.back().shape()[1]);
    r = chain_product(m, matrix_chain_order(dims), 0, static_cast<int>(n) - 1);
  }
  if (row && column) return r.reshape(shape_t{});
  if (row || column) return r.reshape(shape_t{r.size()});
  return r;
}

}  // namespace cupp::detail
