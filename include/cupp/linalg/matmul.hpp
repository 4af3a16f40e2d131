// Linear algebra: numpy.matmul, dot, vdot and outer (and numpy.linalg's
// matmul, outer and matrix_transpose) on cuBLAS for device arrays and on
// OpenBLAS for host arrays.
//
// Not part of <cupp/cupp.hpp>: a program that multiplies matrices includes
// this header and links cupp::linalg (cuBLAS, cuSOLVER, OpenBLAS and
// LAPACKE); one that uses arrays alone links none of them and compiles none
// of their headers.
//
// Layouts reach the vendor call without a copy when either matrix axis has
// unit stride (C order, F order, x.T(), row or column slices): the
// transpose flags and leading dimensions say how to read them. Other
// layouts, operands of another dtype than the result and lazy expressions
// are evaluated once into pooled memory first. See docs/linalg.md.
#pragma once

#include <type_traits>

#include <cupp/cuda/runtime.hpp>
#include <cupp/detail/linalg/gemm.hpp>
#include <cupp/detail/linalg/matmul_plan.hpp>
#include <cupp/expression.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

namespace detail {

// An operand of a product as an array of dtype R: an array of that dtype
// itself (a view, no copy); anything else evaluated once.
template <class R, class S, class X>
ndarray<R, S> product_operand(const X& x) {
  if constexpr (is_ndarray_v<X>) {
    if constexpr (std::is_same_v<typename X::value_type, R>)
      return x;
    else
      return astype_copy<R>(x);
  } else {
    return evaluate_as<R, S>(as_operand(x));
  }
}

// The element strides of x, after a C-order copy when its byte strides are
// not whole elements.
template <class R, class S>
strides_t product_strides(ndarray<R, S>& x) {
  if (auto e = element_strides(x.strides(), sizeof(R))) return *e;
  x = x.copy();
  return *element_strides(x.strides(), sizeof(R));
}

template <class R, class S>
ndarray<R, S> matmul_arrays(ndarray<R, S> a, ndarray<R, S> b) {
  constexpr bool on_device = std::is_same_v<S, device_space>;
  if constexpr (on_device) {
    check_current_device(a.device_id());
    check_current_device(b.device_id());
  }
  matmul_plan p;
  index_t ars, acs, brs, bcs;
  const auto plan = [&] {
    const strides_t ea = product_strides(a), eb = product_strides(b);
    p = plan_matmul(a.shape(), ea, b.shape(), eb);
    core_strides(a.shape(), ea, true, ars, acs);
    core_strides(b.shape(), eb, false, brs, bcs);
  };
  plan();
  ndarray<R, S> out(p.out_shape);
  if (out.size() == 0) return out;
  if constexpr (blas_float_v<R> || (on_device && blas_low_float_v<R>)) {
    auto sa = gemm_side_of(p.m, p.k, ars, acs);
    auto sb = gemm_side_of(p.k, p.n, brs, bcs);
    if (!sa || !sb) {
      // A matrix with no unit-stride axis is copied (C order); replanned.
      if (!sa) a = a.copy();
      if (!sb) b = b.copy();
      plan();
      sa = gemm_side_of(p.m, p.k, ars, acs);
      sb = gemm_side_of(p.k, p.n, brs, bcs);
    }
    if constexpr (on_device) {
#if defined(__CUDACC__)
      device_gemm(p, *sa, *sb, a.data(), b.data(), out.data(), out.device_id());
#else
      CUPP_NEEDS_NVCC(R);
#endif
    } else {
      host_gemm(p, *sa, *sb, a.data(), b.data(), out.data());
    }
  } else {
    const exact_strides s{ars, acs, brs, bcs};
    if constexpr (on_device) {
#if defined(__CUDACC__)
      device_exact_matmul(p, s, a.data(), b.data(), out.data(),
                          cuda::detail::current_stream_impl(out.device_id())->handle);
#else
      CUPP_NEEDS_NVCC(R);
#endif
    } else {
      host_exact_matmul(p, s, a.data(), b.data(), out.data());
    }
  }
  return out;
}

// numpy.dot's check of the summed axes, with its message.
inline void check_dot_aligned(const shape_t& a, const shape_t& b) {
  const int da = a.size() - 1, db = b.size() >= 2 ? b.size() - 2 : 0;
  if (a[da] != b[db])
    throw value_error("shapes " + np_shape(a) + " and " + np_shape(b) +
                      " not aligned: " + std::to_string(a[da]) + " (dim " + std::to_string(da) +
                      ") != " + std::to_string(b[db]) + " (dim " + std::to_string(db) + ")");
}

template <class R, class S>
ndarray<R, S> dot_arrays(const ndarray<R, S>& a, const ndarray<R, S>& b) {
  const int na = a.ndim(), nb = b.ndim();
  if (na == 0 || nb == 0) return ndarray<R, S>(multiply(a, b));
  check_dot_aligned(a.shape(), b.shape());
  if (na <= 2 && nb <= 2) return matmul_arrays(a, b);
  // Every row of a (its last axis) with every column of b (its second to
  // last axis): one product of a as (rows, k) and b as (k, columns).
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
  const ndarray<R, S> a2 = a.reshape(shape_t{rows, k});
  const ndarray<R, S> b2 = moveaxis(b, nb - 2, 0).reshape(shape_t{k, cols});
  return matmul_arrays(a2, b2).reshape(out);
}

}  // namespace detail

// numpy.matmul(a, b) (a @ b): products of the last two axes, a 1-d operand
// taken as a row (first) or a column (second) and its unit axis dropped from
// the result, the leading axes broadcast as stacks of matrices. The result
// dtype is NumPy's promotion of the operands' dtypes; float16 and bfloat16
// accumulate in float32; integers and bool give NumPy's exact (wrapping)
// results. Two 1-d operands give a 0-d array (NumPy: a scalar).
template <Expression A, Expression B>
auto matmul(const A& a, const B& b) {
  using TA = typename operand_t<A>::value_type;
  using TB = typename operand_t<B>::value_type;
  static_assert(is_dtype_v<TA> && is_dtype_v<TB>,
                "cupp::matmul: multiply arrays, not scalars "
                "(numpy.matmul rejects scalar operands)");
  using R = result_type_t<TA, TB>;
  using SA = typename operand_t<A>::space;
  using SB = typename operand_t<B>::space;
  static_assert(
      std::is_same_v<SA, SB> || std::is_same_v<SA, any_space> || std::is_same_v<SB, any_space>,
      "cupp::matmul: the operands live on the host and on the device; move one with "
      "cupp::asarray or cupp::asnumpy");
  using S = detail::eval_space_t<typename detail::join_space<SA, SB>::type>;
  return detail::matmul_arrays<R, S>(detail::product_operand<R, S>(a),
                                     detail::product_operand<R, S>(b));
}

// The operands' result dtype and space, and the operands as arrays of it.
#define CUPP_PRODUCT_OPERANDS(a, b, x, y)                                                     \
  using TA = typename operand_t<decltype(a)>::value_type;                                     \
  using TB = typename operand_t<decltype(b)>::value_type;                                     \
  static_assert(is_dtype_v<TA> && is_dtype_v<TB>, "cupp: products take arrays, not scalars"); \
  using R = result_type_t<TA, TB>;                                                            \
  using S = detail::eval_space_t<typename detail::join_space<                                 \
      typename operand_t<decltype(a)>::space, typename operand_t<decltype(b)>::space>::type>; \
  const ndarray<R, S> x = detail::product_operand<R, S>(a);                                   \
  const ndarray<R, S> y = detail::product_operand<R, S>(b)

// numpy.dot(a, b): a product over a's last axis and b's second to last
// (its only one when 1-d): matmul for 1-d and 2-d operands, every row of a
// with every column of b for more axes (result a.shape[:-1] + b.shape[:-2]
// + b.shape[-1:]), an element-wise product when either is 0-d.
template <Expression A, Expression B>
auto dot(const A& a, const B& b) {
  CUPP_PRODUCT_OPERANDS(a, b, x, y);
  return detail::dot_arrays(x, y);
}

// numpy.vdot(a, b): the dot product of the flattened operands, the first
// conjugated; a 0-d array (NumPy: a scalar).
template <Expression A, Expression B>
auto vdot(const A& a, const B& b) {
  CUPP_PRODUCT_OPERANDS(a, b, x, y);
  const ndarray<R, S> xf = x.reshape(shape_t{x.size()});
  const ndarray<R, S> yf = y.reshape(shape_t{x.size()});  // NumPy's message when sizes differ
  if constexpr (detail::is_complex_type_v<R>)
    return detail::matmul_arrays(ndarray<R, S>(conj(xf)), yf);
  else
    return detail::matmul_arrays(xf, yf);
}

// numpy.outer(a, b): every element of a (flattened) times every element of
// b (flattened), shape (a.size, b.size).
template <Expression A, Expression B>
auto outer(const A& a, const B& b) {
  CUPP_PRODUCT_OPERANDS(a, b, x, y);
  return ndarray<R, S>(multiply(x.reshape(shape_t{x.size(), 1}), y.reshape(shape_t{1, y.size()})));
}

#undef CUPP_PRODUCT_OPERANDS

namespace linalg {

// numpy.linalg.outer (NumPy 2): numpy.outer of two 1-d operands.
template <Expression A, Expression B>
auto outer(const A& a, const B& b) {
  const int n1 = static_cast<int>(a.shape().size()), n2 = static_cast<int>(b.shape().size());
  if (n1 != 1 || n2 != 1)
    throw value_error("Input arrays must be one-dimensional, but they are x1.ndim=" +
                      std::to_string(n1) + " and x2.ndim=" + std::to_string(n2) + ".");
  return cupp::outer(a, b);
}

// numpy.linalg.matrix_transpose (NumPy 2): the last two axes swapped, a
// view.
template <class T, class S>
ndarray<T, S> matrix_transpose(const ndarray<T, S>& x) {
  if (x.ndim() < 2)
    throw value_error("Input array must be at least 2-dimensional, but it is " +
                      std::to_string(x.ndim()));
  return x.swapaxes(-1, -2);
}

// numpy.linalg.matmul (NumPy 2, the array API's): numpy.matmul.
template <Expression A, Expression B>
auto matmul(const A& a, const B& b) {
  return cupp::matmul(a, b);
}
}  // namespace linalg

}  // namespace cupp
