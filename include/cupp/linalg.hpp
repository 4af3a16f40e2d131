// Linear algebra: numpy.matmul (and numpy.linalg.matmul) on cuBLAS for
// device arrays and on OpenBLAS for host arrays.
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
#include <cupp/ndarray.hpp>

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
  strides_t ea = product_strides(a), eb = product_strides(b);
  matmul_plan p = plan_matmul(a.shape(), ea, b.shape(), eb);
  ndarray<R, S> out(p.out_shape);
  if (out.size() == 0) return out;
  index_t ars, acs, brs, bcs;
  core_strides(a.shape(), ea, true, ars, acs);
  core_strides(b.shape(), eb, false, brs, bcs);
  if constexpr (blas_float_v<R> || (on_device && blas_low_float_v<R>)) {
    // A matrix with no unit-stride axis is copied (C order) and replanned.
    auto sa = gemm_side_of(p.m, p.k, ars, acs);
    auto sb = gemm_side_of(p.k, p.n, brs, bcs);
    if (!sa || !sb) {
      if (!sa) a = a.copy();
      if (!sb) b = b.copy();
      ea = product_strides(a);
      eb = product_strides(b);
      p = plan_matmul(a.shape(), ea, b.shape(), eb);
      core_strides(a.shape(), ea, true, ars, acs);
      core_strides(b.shape(), eb, false, brs, bcs);
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

namespace linalg {
// numpy.linalg.matmul (NumPy 2, the array API's): numpy.matmul.
template <Expression A, Expression B>
auto matmul(const A& a, const B& b) {
  return cupp::matmul(a, b);
}
}  // namespace linalg

}  // namespace cupp
