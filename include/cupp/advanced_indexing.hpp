// Integer-array indexing (NumPy's advanced indexing with integer arrays)
// and the take/put family.
//
//   x(idx)                  x[idx]: idx a cupp::ndarray of any integer dtype
//                           in x's space, a host ndarray (uploaded for a
//                           device x) or a std::vector of integers
//   x(i0, slice(1, 3), i1)  index arrays mixed with basic indices; the index
//                           arrays (and integers) broadcast together
//   x(idx) = v; x(idx) += v NumPy's setitem and in-place operators
//   x(idx).unchecked()      the same without the bounds check
//   scatter_add(x, idx..., v), scatter_max, scatter_min
//   take, take_along_axis, put, put_along_axis, choose
//
// x(idx) is a lazy operand (cupp::gather_ref): `ndarray<float> y =
// cupp::sqrt(x(idx)) * 2;` reads x through idx inside the one kernel of
// the expression; `ndarray<float> y = x(idx);` runs one gather kernel.
//
// Bounds: an out-of-range index throws cupp::index_error with NumPy's
// message. On the device the check costs a synchronization of the stream
// and a 16-byte read back (the gather kernel itself sets an error word; a
// fused expression or a write first runs a check kernel over the indices,
// so that nothing is written on error). .unchecked() skips all of it:
// negative indices still count from the end, out-of-range ones are
// undefined behaviour.
#pragma once

#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cupp/creation.hpp>
#include <cupp/space_check.hpp>
#include <cupp/detail/indexing/gather_ref.hpp>
#include <cupp/detail/indexing/gather_scatter.hpp>
#include <cupp/detail/indexing/index_arrays.hpp>
#include <cupp/detail/indexing/take_put.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/expression.hpp>
#include <cupp/lazy_fwd.hpp>
#include <cupp/ndarray.hpp>
#include <cupp/ufunc/arithmetic.hpp>
#include <cupp/ufunc/misc.hpp>

namespace cupp {

// What take, put and choose do with an index out of range (NumPy's mode=):
// raise an error, wrap around, or clip to the ends (negative indices clip
// to 0).
enum class take_mode : char { raise, wrap, clip };

namespace detail {
inline index_mode to_index_mode(take_mode m) {
  return m == take_mode::wrap ? index_mode::wrap
                              : (m == take_mode::clip ? index_mode::clip : index_mode::raise);
}
}  // namespace detail

// x(indices) with K integer index arrays among the indices: a lazy operand
// of an expression, an array on conversion, and a target of assignment.
// What it holds and does is detail::gather_state (detail/indexing/gather_ref.hpp).
template <class T, class S, int K>
class gather_ref : public expression_base<gather_ref<T, S, K>> {
 public:
  using value_type = T;
  using space = S;
  static constexpr int slots = 1 + K;
  // Sets the elements per thread (16 bytes of them, detail/elementwise/evaluators.hpp):
  // counted by the gathered type, at least 4, so that a thread has four
  // random reads in flight and reads 32 bytes of a single int64 index array
  // at once; the 8 of the indices bound it when there are several arrays,
  // to keep their registers in check.
  static constexpr int max_itemsize = std::max<int>(static_cast<int>(sizeof(T)), K == 1 ? 4 : 8);
  using index_arrays = std::array<ndarray<std::int64_t, S>, K>;

  gather_ref(ndarray<T, S> a, index_arrays idx, detail::gather_plan plan,
             detail::index_mode mode = detail::index_mode::raise)
      : s_{std::move(a), std::move(idx), std::move(plan), mode} {}
  gather_ref(const gather_ref&) = default;

  const shape_t& shape() const { return s_.plan.shape; }

  // The same indexing without the bounds check (see the header's comment).
  gather_ref unchecked() const {
    gather_ref r(*this);
    r.s_.mode = detail::index_mode::trusted;
    return r;
  }

  // The selected elements as a new array (C order): one kernel.
  ndarray<T, S> eval() const { return s_.read(); }
  operator ndarray<T, S>() const { return s_.read(); }
  // What `ndarray<U> y = x(idx);` runs (detail::evaluate_as).
  template <class U>
  ndarray<U, S> evaluate_self() const {
    if constexpr (std::is_same_v<U, T>)
      return s_.read();
    else
      return detail::evaluate_fused<U, S>(*this);
  }

  // NumPy's x[idx] = v: v an expression, an array or a scalar, broadcast
  // to the indexed shape. With repeated indices one of the values is
  // written (NumPy: the last; on the device: any one).
  template <Operand V>
  const gather_ref& operator=(const V& v) const {
    CUPP_SAME_SPACE(ndarray<T, S>, V);
    s_.template write<detail::assign_op>(v, true);
    return *this;
  }
  const gather_ref& operator=(const gather_ref& v) const {
    s_.template write<detail::assign_op>(v, true);
    return *this;
  }

  // In-place operators: read, operate, write back (NumPy's x[idx] += v,
  // which does not accumulate over repeated indices: use scatter_add).
#define CUPP_GATHER_INPLACE(OP)                            \
  template <Operand V>                                     \
  const gather_ref& operator OP##=(const V& v) const {     \
    CUPP_SAME_SPACE(ndarray<T, S>, V);                     \
    const ndarray<T, S> cur = s_.read();                   \
    s_.template write<detail::assign_op>(cur OP v, false); \
    return *this;                                          \
  }
  CUPP_GATHER_INPLACE(+)
  CUPP_GATHER_INPLACE(-)
  CUPP_GATHER_INPLACE(*)
  CUPP_GATHER_INPLACE(/)
  CUPP_GATHER_INPLACE(%)
  CUPP_GATHER_INPLACE(&)
  CUPP_GATHER_INPLACE(|)
  CUPP_GATHER_INPLACE(^)
  CUPP_GATHER_INPLACE(<<)
  CUPP_GATHER_INPLACE(>>)
#undef CUPP_GATHER_INPLACE

  // Accumulating writes (scatter_add and friends): Op(current, v) at every
  // selected position, repeated positions included.
  template <class Op, class V>
  void accumulate(const V& v) const {
    static_assert(detail::scatter_supported_v<Op, T>,
                  "cupp::scatter_max/scatter_min: complex dtypes have no order; only scatter_add "
                  "supports them");
    s_.template write<Op>(v, true);
  }

  // --- the expression interface (detail/expression/operands.hpp) -----------
  void collect(strides_t*& p, const shape_t& out) const {
    s_.collect(p, out);
  }
  template <class To, int N>
  detail::gather_eval<T, K, N> lower(detail::lower_ctx& L) const {
    return s_.template lower<N>(L);
  }
  template <class F>
  void for_each_array(F&& f) const {
    s_.for_each_array(f);
  }

  const ndarray<T, S>& source() const {
    return s_.a;
  }
  const detail::gather_plan& plan() const {
    return s_.plan;
  }

 private:
  // gather_state evaluates copies of itself (with a fault word, or no
  // check) as gather_refs.
  friend struct detail::gather_state<T, S, K>;
  explicit gather_ref(detail::gather_state<T, S, K> s) : s_(std::move(s)) {}

  detail::gather_state<T, S, K> s_;
};

// cupyx.scatter_add(a, indices, value): a[indices] += value, with repeated
// indices all counting (atomics on the device). scatter_add(a, idx, v),
// scatter_add(a, i0, slice(1, 3), i1, v): the last argument is the value.
// Every dtype is supported (bool adds as logical or); scatter_max and
// scatter_min support every dtype but complex (NumPy's NaN rules).
template <class T, class S, class... X>
requires(sizeof...(X) >= 2) void scatter_add(const ndarray<T, S>& a, const X&... x) {
  // The last argument is the value; index arrays before it may live on the host.
  CUPP_SAME_SPACE(ndarray<T, S>, detail::index_arg<X>...,
                  typename decltype((std::type_identity<X>{}, ...))::type);
  detail::scatter_call<detail::add_op>(
      a, [](const auto& t, const auto& v) { return cupp::add(t, v); }, std::forward_as_tuple(x...),
      std::make_index_sequence<sizeof...(X) - 1>{});
}
// a[indices] = maximum(a[indices], value), repeated indices all counting.
template <class T, class S, class... X>
requires(sizeof...(X) >= 2) void scatter_max(const ndarray<T, S>& a, const X&... x) {
  // The last argument is the value; index arrays before it may live on the host.
  CUPP_SAME_SPACE(ndarray<T, S>, detail::index_arg<X>...,
                  typename decltype((std::type_identity<X>{}, ...))::type);
  detail::scatter_call<detail::max_op>(
      a, [](const auto& t, const auto& v) { return cupp::maximum(t, v); },
      std::forward_as_tuple(x...), std::make_index_sequence<sizeof...(X) - 1>{});
}
// a[indices] = minimum(a[indices], value), repeated indices all counting.
template <class T, class S, class... X>
requires(sizeof...(X) >= 2) void scatter_min(const ndarray<T, S>& a, const X&... x) {
  // The last argument is the value; index arrays before it may live on the host.
  CUPP_SAME_SPACE(ndarray<T, S>, detail::index_arg<X>...,
                  typename decltype((std::type_identity<X>{}, ...))::type);
  detail::scatter_call<detail::min_op>(
      a, [](const auto& t, const auto& v) { return cupp::minimum(t, v); },
      std::forward_as_tuple(x...), std::make_index_sequence<sizeof...(X) - 1>{});
}

// numpy.take(a, indices, axis=None, mode='raise'): the elements of a (of
// its flattened form when axis is empty) at `indices` along `axis`.
template <class T, class S, class X>
ndarray<T, S> take(const ndarray<T, S>& a, const X& indices, std::optional<index_t> axis = {},
                   take_mode mode = take_mode::raise) {
  CUPP_SAME_SPACE(ndarray<T, S>, detail::index_arg<X>);
  // NumPy takes along axis 0 of a 0-d array as of its 1-element form.
  const ndarray<T, S> src = axis && a.ndim() > 0 ? a : a.reshape(-1);
  const int ax = axis ? detail::checked_axis(*axis, src.ndim()) : 0;
  auto idx = detail::to_index_array<S>(indices);
  if (src.shape()[ax] == 0 && idx.size() > 0)
    throw index_error("cannot do a non-empty take from an empty axes.");
  std::vector<detail::plan_item> items(ax + 1);
  items[ax].array = 0;
  return detail::make_gather<1>(src, items, {idx}, detail::to_index_mode(mode)).eval();
}

// numpy.take_along_axis(arr, indices, axis): arr indexed by `indices`
// along `axis` (indices has arr's rank and broadcasts against it); axis
// empty: arr flattened, indices 1-d.
template <class T, class S, class X>
ndarray<T, S> take_along_axis(const ndarray<T, S>& arr, const X& indices,
                              std::optional<index_t> axis) {
  CUPP_SAME_SPACE(ndarray<T, S>, detail::index_arg<X>);
  auto idx = detail::to_index_array<S>(indices);
  ndarray<T, S> src = arr;
  int ax = 0;
  if (!axis) {
    if (idx.ndim() != 1)
      throw value_error("when axis=None, `indices` must have a single dimension.");
    src = arr.ravel();
  } else {
    ax = detail::checked_axis(*axis, arr.ndim());
    if (idx.ndim() != arr.ndim())
      throw value_error("`indices` and `arr` must have the same number of dimensions");
  }
  auto p = detail::along_axis_plan(src.shape(), src.strides(), ax, idx.shape(), idx.strides());
  return gather_ref<T, S, 1>(src, {idx}, std::move(p)).eval();
}

// numpy.put_along_axis(arr, indices, values, axis): the inverse of
// take_along_axis; values broadcast to the indexed shape.
template <class T, class S, class X, Operand V>
void put_along_axis(const ndarray<T, S>& arr, const X& indices, const V& values,
                    std::optional<index_t> axis) {
  CUPP_SAME_SPACE(ndarray<T, S>, detail::index_arg<X>, V);
  auto idx = detail::to_index_array<S>(indices);
  if (!axis) {
    if (idx.ndim() != 1)
      throw value_error("when axis=None, `indices` must have a single dimension.");
    // NumPy writes through arr.flat, which is read-only unless arr is
    // C-contiguous.
    if (!arr.flags().writeable || !arr.is_c_contiguous())
      throw value_error("assignment destination is read-only");
    const ndarray<T, S> flat = arr.reshape(-1);
    auto p = detail::along_axis_plan(flat.shape(), flat.strides(), 0, idx.shape(), idx.strides());
    gather_ref<T, S, 1>(flat, {idx}, std::move(p)) = values;
    return;
  }
  const int ax = detail::checked_axis(*axis, arr.ndim());
  if (idx.ndim() != arr.ndim())
    throw value_error("`indices` and `arr` must have the same number of dimensions");
  auto p = detail::along_axis_plan(arr.shape(), arr.strides(), ax, idx.shape(), idx.strides());
  gather_ref<T, S, 1>(arr, {idx}, std::move(p)) = values;
}

// numpy.put(a, ind, v, mode='raise'): a.flat[ind] = v, with v (an array or
// a scalar) repeated as often as ind needs; an empty v writes nothing.
template <class T, class S, class X, Operand V>
void put(const ndarray<T, S>& a, const X& ind, const V& v, take_mode mode = take_mode::raise) {
  CUPP_SAME_SPACE(ndarray<T, S>, detail::index_arg<X>, V);
  if (!a.flags().writeable) throw value_error("assignment destination is read-only");
  auto idx = detail::to_index_array<S>(ind);
  if (!idx.is_c_contiguous()) idx = idx.copy();
  idx = idx.reshape(-1);
  if (idx.size() == 0) return;
  if (a.size() == 0) throw index_error("cannot replace elements of an empty array");
  detail::put_flat(a, idx, v, detail::to_index_mode(mode));
}

// numpy.choose(a, choices, mode='raise'): choices[a[i]][i] at every i of
// the broadcast of a and the choices (mode raise: a value outside
// [0, n) is an error).
template <class T, class S, class X>
ndarray<T, S> choose(const X& a, const std::vector<ndarray<T, S>>& choices,
                     take_mode mode = take_mode::raise) {
  CUPP_SAME_SPACE(detail::index_arg<X>, ndarray<T, S>);
  if (choices.empty()) throw value_error("0-length sequence.");
  return detail::choose_from(detail::to_index_array<S>(a), choices, detail::to_index_mode(mode));
}
template <class T, class S, class X>
ndarray<T, S> choose(const X& a, std::initializer_list<ndarray<T, S>> choices,
                     take_mode mode = take_mode::raise) {
  return choose(a, std::vector<ndarray<T, S>>(choices), mode);
}

}  // namespace cupp
