// What cupp::begin, end, cbegin and cend (<cupp/iterator.hpp>) run: an
// array's iterator (writable only for a writable array) and an
// expression's, which evaluates one element where it is read.
#pragma once

#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/interop/flat_walk.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/expression_fwd.hpp>
#include <cupp/iterator_fwd.hpp>
#include <cupp/shape.hpp>

namespace cupp::detail::interop {

template <class X>
concept lazy_operand = Expression<X> && !is_ndarray_v<std::remove_cvref_t<X>>;

template <class T, class S>
array_iterator<T, S> array_begin(const ndarray<T, S>& x) {
  // NumPy refuses writes into read-only arrays (broadcast_to's views, whose
  // elements share memory); a writable iterator cannot check each write.
  if (!x.flags().writeable)
    throw value_error("cupp::begin: the array is read-only; iterate over it with cupp::cbegin");
  return {make_array_access(x.data(), x.shape(), x.strides()), 0};
}
template <class T, class S>
const_array_iterator<T, S> array_cbegin(const ndarray<T, S>& x) {
  return {make_array_access(static_cast<const T*>(x.data()), x.shape(), x.strides()), 0};
}

// Expressions that the element-wise kernels evaluate, which is what an
// expression iterator runs one element at a time.
template <class E>
concept lowerable = requires(const E& e, lower_ctx& L, strides_t*& p) {
  e.collect(p, e.shape());
  e.template lower<typename E::value_type, 1>(L);
};

template <class E>
auto expression_begin(const E& e) {
  static_assert(is_dtype_v<typename E::value_type>,
                "cupp::begin: this expression has two results (divmod, frexp, modf); iterate "
                "over each after evaluating it");
  if constexpr (!lowerable<E>) {
    static_assert(lowerable<E>,
                  "cupp::begin: this lazy value is computed by a library call (a matrix "
                  "product), not element by element; evaluate it into an array first and "
                  "iterate over that array");
    return 0;
  } else {
    using Access = decltype(make_expression_access(e));
    return flat_iterator<Access, eval_space_t<typename E::space>>{make_expression_access(e), 0};
  }
}

struct begin_fn {
  template <class T, class S>
  array_iterator<T, S> operator()(const ndarray<T, S>& x) const {
    return array_begin(x);
  }
  template <lazy_operand E>
  auto operator()(const E& e) const {
    return expression_begin(e);
  }
};
struct end_fn {
  template <class T, class S>
  array_iterator<T, S> operator()(const ndarray<T, S>& x) const {
    return array_begin(x) + x.size();
  }
  template <lazy_operand E>
  auto operator()(const E& e) const {
    return expression_begin(e) + size_of(e.shape());
  }
};
struct cbegin_fn {
  template <class T, class S>
  const_array_iterator<T, S> operator()(const ndarray<T, S>& x) const {
    return array_cbegin(x);
  }
  template <lazy_operand E>
  auto operator()(const E& e) const {
    return expression_begin(e);
  }
};
struct cend_fn {
  template <class T, class S>
  const_array_iterator<T, S> operator()(const ndarray<T, S>& x) const {
    return array_cbegin(x) + x.size();
  }
  template <lazy_operand E>
  auto operator()(const E& e) const {
    return expression_begin(e) + size_of(e.shape());
  }
};

}  // namespace cupp::detail::interop
