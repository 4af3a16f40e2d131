// The engine of numpy.dot: its check of the summed axes, operands of more
// than two axes as one matrix product, and dot's out= with NumPy's checks
// and messages, the gemm writing straight into out where it can.
// <cupp/linalg/matmul.hpp> keeps the public functions.
#pragma once

#include <string>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/linalg/gemm.hpp>
#include <cupp/detail/linalg/linalg_views.hpp>
#include <cupp/detail/linalg/matmul_plan.hpp>
#include <cupp/detail/linalg/product_run.hpp>
#include <cupp/detail/ops/arithmetic.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail {

// numpy.dot's check of the summed axes, with its message.
inline void check_dot_aligned(const shape_t& a, const shape_t& b) {
  const int da = a.size() - 1, db = b.size() >= 2 ? b.size() - 2 : 0;
  if (a[da] != b[db])
    throw value_error("shapes " + np_shape(a) + " and " + np_shape(b) +
                      " not aligned: " + std::to_string(a[da]) + " (dim " + std::to_string(da) +
                      ") != " + std::to_string(b[db]) + " (dim " + std::to_string(db) + ")");
}

// numpy.dot of operands of more than two axes as one product: a as
// (rows, k), b moved to (k, columns); `out` is the result's shape.
template <class R, class S>
struct dot_product {
  ndarray<R, S> a2, b2;
  shape_t out;
};

template <class R, class S>
dot_product<R, S> dot_as_product(const ndarray<R, S>& a, const ndarray<R, S>& b) {
  const int na = a.ndim(), nb = b.ndim();
  const index_t k = a.shape()[na - 1];
  shape_t out = shape_t::filled(0, 0);
  index_t rows = 1, cols = 1;
  for (int i = 0; i + 1 < na; ++i) {
    out.push_back(a.shape()[i]);
    rows *= a.shape()[i];
  }
  for (int i = 0; i < nb; ++i)
    if (i != nb - 2) {
      out.push_back(b.shape()[i]);
      cols *= b.shape()[i];
    }
  return {a.reshape(shape_t{rows, k}), moveaxis_view(b, nb - 2, 0).reshape(shape_t{k, cols}), out};
}

template <class R, class S>
ndarray<R, S> dot_arrays(const ndarray<R, S>& a, const ndarray<R, S>& b) {
  const int na = a.ndim(), nb = b.ndim();
  if (na == 0 || nb == 0) return ndarray<R, S>(make_ufunc(ops::multiply{}, a, b));
  check_dot_aligned(a.shape(), b.shape());
  if (na <= 2 && nb <= 2) return matmul_arrays(a, b);
  const dot_product<R, S> d = dot_as_product(a, b);
  return matmul_arrays(d.a2, d.b2).reshape(d.out);
}

// numpy.dot's out=: its checks and messages (the BLAS path of float and
// complex matrices says "not acceptable" for a wrong shape too), then the
// gemm straight into out, or a temporary when out overlaps an operand.
template <class R, class S>
void dot_into(const ndarray<R, S>& out, const ndarray<R, S>& a, const ndarray<R, S>& b) {
  const int na = a.ndim(), nb = b.ndim();
  const bool scalar = na == 0 || nb == 0;
  if (!scalar) check_dot_aligned(a.shape(), b.shape());
  shape_t r;
  if (scalar)
    r = na == 0 ? b.shape() : a.shape();
  else if (na <= 2 && nb <= 2)
    r = matmul_shape(a.shape(), b.shape());
  else
    r = dot_as_product(a, b).out;
  const std::string bad =
      "output array is not acceptable (must have the right datatype, number of dimensions, and "
      "be a C-Array)";
  if (!out.flags().writeable || !out.is_c_contiguous() || out.ndim() != r.size())
    throw value_error(bad);
  if (!(out.shape() == r))
    throw value_error(blas_float_v<R> && !scalar && na <= 2 && nb <= 2
                          ? bad
                          : "output array has wrong dimensions");
  if (out.size() == 0) return;
  if (scalar) {
    assign(out, make_ufunc(ops::multiply{}, a, b));
  } else if (may_share_memory(out, a) || may_share_memory(out, b)) {
    assign(out, array_leaf<R, S>{dot_arrays(a, b)});
  } else if (na <= 2 && nb <= 2) {
    run_product(product_input<R, S>{a}, product_input<R, S>{b}, out, plain_product<R>());
  } else {
    const dot_product<R, S> d = dot_as_product(a, b);
    const ndarray<R, S> out2 = out.reshape(shape_t{d.a2.shape()[0], d.b2.shape()[1]});
    run_product(product_input<R, S>{d.a2}, product_input<R, S>{d.b2}, out2, plain_product<R>());
  }
}

}  // namespace cupp::detail
