// The operands of a product as the BLAS call reads them: an array of the
// result's dtype (a view where possible, else evaluated once into pooled
// memory) and whether its elements are read conjugated, so that conj(a)
// over a complex array reaches cuBLAS as the conjugate-transpose op
// instead of a kernel that writes the conjugate out.
#pragma once

#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/ops/complex_parts.hpp>

namespace cupp::detail {

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
    // evaluate_as first asks the value for a kernel of its own (a lazy
    // product evaluates straight into its result, with no second copy).
    return evaluate_as<R, S>(x);
  }
}

// An operand as the product reads it.
template <class R, class S>
struct product_input {
  ndarray<R, S> array;
  bool conj = false;  // elements read conjugated (complex R only)
};

// conj(x) (numpy.conjugate) of an array: the node the cupp::conj and
// cupp::conjugate functions build.
template <class X>
struct conj_of_array : std::false_type {};
template <class T, class S>
struct conj_of_array<ufunc_expr<ops::conjugate, array_leaf<T, S>>> : std::true_type {
  using value_type = T;
};

// The operand x of a product of dtype R: conj of an array of dtype R is
// the array read conjugated (real R: the array itself; conj changes
// nothing); everything else as product_operand.
template <class R, class S, class X>
product_input<R, S> gemm_operand(const X& x) {
  if constexpr (conj_of_array<X>::value) {
    using T = typename conj_of_array<X>::value_type;
    if constexpr (std::is_same_v<T, R> && !std::is_same_v<T, bool>)
      return {std::get<0>(x.args()).a, is_complex_type_v<R>};
    else
      return {product_operand<R, S>(x), false};
  } else {
    return {product_operand<R, S>(x), false};
  }
}

// The operand's conjugate written out (C order), for a layout the
// conjugate-transpose op cannot read.
template <class R, class S>
ndarray<R, S> conjugated_copy(const ndarray<R, S>& x) {
  return evaluate_as<R, S>(make_ufunc(ops::conjugate{}, x));
}

}  // namespace cupp::detail
