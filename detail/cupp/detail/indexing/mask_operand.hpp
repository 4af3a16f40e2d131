// A boolean mask as an operand of x(mask) and of the nonzero family: the
// checks NumPy makes on its shape, the operand it becomes (an array leaf, a
// lazy predicate kept unevaluated, or a 0-d constant for a C++ bool), how
// it broadcasts against the array it indexes, and the shape arithmetic of
// "the mask's axes, then the rest of x's".
#pragma once

#include <array>
#include <string>
#include <type_traits>
#include <utility>

#include <cupp/config.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/errors.hpp>
#include <cupp/shape.hpp>
// Expression machinery (as_operand, operand_t, scalar_leaf, lower_ctx,
// assign, astype) and ndarray: to be repointed at detail/ once they move.
#include <cupp/detail/expression/launch.hpp>
#include <cupp/array_fwd.hpp>

namespace cupp::detail {

inline shape_t shape_prefix(const dims& s, int n) CUPP_HOST_BODY({
  dims r;
  for (int i = 0; i < n; ++i) r.push_back(s[i]);
  return r;
});
inline shape_t shape_suffix(const dims& s, int n) CUPP_HOST_BODY({
  dims r;
  for (int i = n; i < s.size(); ++i) r.push_back(s[i]);
  return r;
});
inline shape_t with_lead(index_t lead, const shape_t& rest) CUPP_HOST_BODY({
  shape_t r{lead};
  for (int i = 0; i < rest.size(); ++i) r.push_back(rest[i]);
  return r;
});

// NumPy's IndexError for a mask that does not fit the array it indexes.
inline void check_mask_shape(const shape_t& mask, const shape_t& x) CUPP_HOST_BODY({
  if (mask.size() > x.size()) throw index_error(index_count_message(mask.size(), x.size()));
  for (int a = 0; a < mask.size(); ++a)
    if (mask[a] != x[a])
      throw index_error("boolean index did not match indexed array along axis " +
                        std::to_string(a) + "; size of axis is " + std::to_string(x[a]) +
                        " but size of corresponding boolean axis is " + std::to_string(mask[a]));
});

// The operand a mask becomes: an array leaf, the expression itself, or a
// 0-d constant for a C++ bool.
template <class M>
auto mask_operand(const M& m) {
  if constexpr (std::is_same_v<M, bool>)
    return scalar_leaf<bool>{m};
  else
    return operand_t<M>(as_operand(m));
}
template <class M>
using mask_operand_t = decltype(mask_operand(std::declval<const M&>()));

// A mask over x's leading axes seen with x's rank: its shape followed by
// `r` unit axes, so that it broadcasts against x along the trailing ones.
template <class E>
struct lead_axes {
  using is_cupp_expression = void;
  using value_type = typename E::value_type;
  using space = typename E::space;
  static constexpr int slots = E::slots;
  static constexpr int max_itemsize = E::max_itemsize;
  E e;
  int r = 0;
  shape_t shape_;

  lead_axes(const E& inner, int trailing) : e(inner), r(trailing), shape_(inner.shape()) {
    for (int i = 0; i < r; ++i) shape_.push_back(1);
  }
  const shape_t& shape() const { return shape_; }
  void collect(strides_t*& p, const shape_t& out) const {
    strides_t* first = p;
    e.collect(p, shape_prefix(out, out.size() - r));
    for (strides_t* q = first; q != p; ++q)
      for (int i = 0; i < r; ++i) q->push_back(0);
  }
  template <class To, int N>
  auto lower(lower_ctx& L) const {
    return e.template lower<To, N>(L);
  }
  template <class F>
  void for_each_array(F&& f) const {
    e.for_each_array(f);
  }
};

template <class S, class E>
void check_operand_devices(const E& e) {
  if constexpr (std::is_same_v<S, device_space>)
    e.for_each_array([&](const array_info& a) { check_current_device(a.device); });
}

template <class S>
inline constexpr bool on_device_v = std::is_same_v<S, device_space>;

inline int device_for(int array_device) {
  return array_device >= 0 ? array_device : cuda::runtime::getDevice();
}

// The value of an operand as a dense C-ordered array of dtype T.
template <class T, class S, class V>
ndarray<T, S> dense_values(const V& v) {
  const auto o = as_operand(v);
  using VT = typename std::remove_cvref_t<decltype(o)>::value_type;
  ndarray<T, S> out(o.shape());
  if constexpr (is_weak_v<VT>)
    assign(out, scalar_leaf<T>{o.template as<T>()});
  else
    assign(out, astype<T>(o));
  return out;
}

}  // namespace cupp::detail
