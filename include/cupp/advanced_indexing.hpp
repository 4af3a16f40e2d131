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
#include <cupp/detail/indexing/flat_gather.hpp>
#include <cupp/detail/indexing/gather_scatter.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/expression.hpp>
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

template <class X>
inline constexpr bool is_int_vector_v = false;
template <class I>
inline constexpr bool is_int_vector_v<std::vector<I>> =
    std::is_integral_v<I> && !std::is_same_v<I, bool>;

// An index array as int64 in space S (a copy where it has another dtype or
// lives in the other space).
template <class S, class X>
ndarray<std::int64_t, S> to_index_array(const X& x) {
  if constexpr (is_int_vector_v<X>) {
    host::ndarray<std::int64_t> h(shape_t{static_cast<index_t>(x.size())});
    for (std::size_t i = 0; i < x.size(); ++i) h.data()[i] = static_cast<std::int64_t>(x[i]);
    if constexpr (std::is_same_v<S, device_space>)
      return cupp::asarray(h);
    else
      return h;
  } else {
    using U = typename X::value_type;
    using XS = typename X::space_type;
    static_assert(std::is_integral_v<U> && !std::is_same_v<U, bool>,
                  "cupp: an index array must have an integer dtype");
    static_assert(std::is_same_v<XS, S> || std::is_same_v<XS, host_space>,
                  "cupp: a device index array cannot index a host array; copy it with "
                  "cupp::asnumpy first");
    if constexpr (std::is_same_v<XS, S>) {
      if constexpr (std::is_same_v<U, std::int64_t>)
        return x;
      else
        return x.template astype<std::int64_t>();
    } else {
      if constexpr (std::is_same_v<U, std::int64_t>)
        return cupp::asarray(x);
      else
        return cupp::asarray(x.template astype<std::int64_t>());
    }
  }
}

inline bool ranges_overlap(const array_info& a, const array_info& b) {
  const char *alo, *ahi, *blo, *bhi;
  byte_range(a, alo, ahi);
  byte_range(b, blo, bhi);
  return alo < bhi && blo < ahi && alo != ahi && blo != bhi;
}

template <class T, class S>
array_info info_of(const ndarray<T, S>& a) {
  return {reinterpret_cast<const char*>(a.data()), &a.shape(), &a.strides(), a.itemsize(),
          a.device_id()};
}

}  // namespace detail

// x(indices) with K integer index arrays among the indices: a lazy operand
// of an expression, an array on conversion, and a target of assignment.
template <class T, class S, int K>
class gather_ref : public expression_base<gather_ref<T, S, K>> {
 public:
  using value_type = T;
  using space = S;
  static constexpr int slots = 1 + K;
  // Sets the elements per thread (16 bytes of them, detail/elementwise/kernel.hpp):
  // counted by the gathered type, at least 4, so that a thread has four
  // random reads in flight and reads 32 bytes of a single int64 index array
  // at once; the 8 of the indices bound it when there are several arrays,
  // to keep their registers in check.
  static constexpr int max_itemsize = std::max<int>(static_cast<int>(sizeof(T)), K == 1 ? 4 : 8);
  using index_arrays = std::array<ndarray<std::int64_t, S>, K>;

  gather_ref(ndarray<T, S> a, index_arrays idx, detail::gather_plan plan,
             detail::index_mode mode = detail::index_mode::raise)
      : a_(std::move(a)), idx_(std::move(idx)), plan_(std::move(plan)), mode_(mode) {}
  gather_ref(const gather_ref&) = default;

  const shape_t& shape() const { return plan_.shape; }

  // The same indexing without the bounds check (see the header's comment).
  gather_ref unchecked() const {
    gather_ref r(*this);
    r.mode_ = detail::index_mode::trusted;
    return r;
  }

  // The selected elements as a new array (C order): one kernel.
  ndarray<T, S> eval() const { return get(); }
  operator ndarray<T, S>() const { return get(); }
  // What `ndarray<U> y = x(idx);` runs (detail::evaluate_as).
  template <class U>
  ndarray<U, S> evaluate_self() const {
    if constexpr (std::is_same_v<U, T>)
      return get();
    else
      return detail::evaluate_fused<U, S>(*this);
  }

  // NumPy's x[idx] = v: v an expression, an array or a scalar, broadcast
  // to the indexed shape. With repeated indices one of the values is
  // written (NumPy: the last; on the device: any one).
  template <Operand V>
  const gather_ref& operator=(const V& v) const {
    write<detail::assign_op>(v, true);
    return *this;
  }
  const gather_ref& operator=(const gather_ref& v) const {
    write<detail::assign_op>(v, true);
    return *this;
  }

  // In-place operators: read, operate, write back (NumPy's x[idx] += v,
  // which does not accumulate over repeated indices: use scatter_add).
#define CUPP_GATHER_INPLACE(OP)                        \
  template <Operand V>                                 \
  const gather_ref& operator OP##=(const V& v) const { \
    const ndarray<T, S> cur = get();                   \
    write<detail::assign_op>(cur OP v, false);         \
    return *this;                                      \
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
    write<Op>(v, true);
  }

  // --- the expression interface (expression.hpp) ---------------------------

  void collect(strides_t*& p, const shape_t& out) const {
    if (mode_ == detail::index_mode::raise && !fault_) check_bounds();
    *p++ = detail::broadcast_strides(plan_.shape, plan_.src, out);
    for (int k = 0; k < K; ++k) *p++ = detail::broadcast_strides(plan_.shape, plan_.idx[k], out);
  }
  template <class To, int N>
  detail::gather_eval<T, K, N> lower(detail::lower_ctx& L) const {
    detail::gather_eval<T, K, N> e;
    const int s = L.take();
    e.src = reinterpret_cast<const char*>(a_.data()) + plan_.offset + L.base(s);
    L.kernel_strides(s, e.st);
    for (int k = 0; k < K; ++k) {
      const int sk = L.take();
      e.idx[k].data = reinterpret_cast<const char*>(idx_[k].data()) + L.base(sk);
      L.kernel_strides(sk, e.idx[k].st);
      e.ext[k] = plan_.ext[k];
      e.ast[k] = plan_.ast[k];
    }
    // The fused path checked the indices in collect(); the gather kernel
    // of get() checks through the fault word.
    e.mode = fault_ ? detail::index_mode::raise
                    : (mode_ == detail::index_mode::raise ? detail::index_mode::trusted : mode_);
    e.fault = fault_;
    return e;
  }
  template <class F>
  void for_each_array(F&& f) const {
    f(detail::info_of(a_));
    for (const auto& i : idx_) f(detail::info_of(i));
  }

  const ndarray<T, S>& source() const {
    return a_;
  }
  const detail::gather_plan& plan() const {
    return plan_;
  }

 private:
  // The first out-of-range index, checked array by array as NumPy does.
  void check_bounds() const {
    if (plan_.n_index == 0) return;
    for (int k = 0; k < K; ++k)
      if (const auto bad = detail::first_bad_index(idx_[k], plan_.ext[k], true))
        throw index_error(detail::out_of_bounds_message(*bad, plan_.axis[k], plan_.ext[k]));
  }

  ndarray<T, S> get() const {
    if constexpr (std::is_same_v<S, device_space> && K == 1)
      if (auto r = detail::flat_gather(a_, idx_[0], plan_, mode_)) return std::move(*r);
    if constexpr (std::is_same_v<S, device_space>) {
      if (mode_ == detail::index_mode::raise && detail::size_of(plan_.shape) > 0) {
        cuda::device_scope scope(a_.device_id());
        const cudaStream_t s = cuda::detail::current_stream_impl(a_.device_id())->handle;
        const cuda::memory_ptr word = detail::new_fault_word(s);
        gather_ref g(*this);
        g.fault_ = static_cast<detail::index_fault*>(word.get());
        ndarray<T, S> r = detail::evaluate_fused<T, S>(g);
        const detail::index_fault f = detail::read_fault_word(word, s);
        if (f.flag)
          throw index_error(
              detail::out_of_bounds_message(f.value, plan_.axis[f.which], plan_.ext[f.which]));
        return r;
      }
    }
    // An empty result reads no index, but NumPy still checks them.
    if (mode_ == detail::index_mode::raise && detail::size_of(plan_.shape) == 0) check_bounds();
    gather_ref g(*this);
    if (detail::size_of(plan_.shape) == 0) g.mode_ = detail::index_mode::trusted;
    return detail::evaluate_fused<T, S>(g);
  }

  template <class Op, class V>
  void write(const V& v, bool check) const {
    if (!a_.flags().writeable) throw value_error("assignment destination is read-only");
    const auto src = [&] {
      if constexpr (Scalar<V>) {
        const auto w = as_operand(v);
        using W = typename std::remove_cvref_t<decltype(w)>::value_type;
        static_assert(detail::assignable<W, T>(),
                      "cupp: the value's dtype does not cast to the array's dtype with casting "
                      "'same_kind'; convert it with .astype<T>()");
        if constexpr (is_weak_v<W>) {
          w.template check_fits<T>();
          return scalar_leaf<T>{w.template as<T>()};
        } else {
          return w;
        }
      } else {
        return as_operand(v);
      }
    }();
    using E = std::remove_cvref_t<decltype(src)>;
    static_assert(detail::assignable<typename E::value_type, T>(),
                  "cupp: the value's dtype does not cast to the array's dtype with casting "
                  "'same_kind'; convert it with .astype<T>()");
    // Mixing host and device operands fails here, with join_space's message.
    using J = typename detail::join_space<S, typename E::space>::type;
    static_assert(std::is_same_v<J, S>);
    if (!detail::broadcasts_to(src.shape(), plan_.shape))
      throw value_error("shape mismatch: value array of shape " +
                        detail::compact_shape(src.shape()) +
                        " could not be broadcast to indexing result of shape " +
                        detail::compact_shape(plan_.shape));
    if (check && mode_ == detail::index_mode::raise) check_bounds();
    if (detail::size_of(plan_.shape) == 0) return;
    const detail::array_info dst = detail::info_of(a_);
    // Overlap: every write may land anywhere in x, so any operand sharing
    // x's memory is read first (NumPy's result), and so are index arrays.
    bool overlap = false;
    src.for_each_array([&](const detail::array_info& i) {
      if (detail::ranges_overlap(dst, i)) overlap = true;
    });
    index_arrays idx = idx_;
    for (auto& i : idx)
      if (detail::ranges_overlap(dst, detail::info_of(i))) i = i.copy();
    const detail::index_mode m =
        mode_ == detail::index_mode::raise ? detail::index_mode::trusted : mode_;
    if (overlap) {
      const auto tmp = detail::evaluate_as<typename E::value_type, S>(src);
      detail::run_scatter<T, S, K, Op>(a_, plan_, idx, m,
                                       array_leaf<typename E::value_type, S>{tmp});
    } else {
      detail::run_scatter<T, S, K, Op>(a_, plan_, idx, m, src);
    }
  }

  ndarray<T, S> a_;
  index_arrays idx_;
  detail::gather_plan plan_;
  detail::index_mode mode_ = detail::index_mode::raise;
  detail::index_fault* fault_ = nullptr;
};

namespace detail {

template <class X>
inline constexpr bool is_index_array_arg_v = !basic_index<X>;

// x(items) for indices already split into basic items and K int64 index
// arrays (plan_item::array numbers them): the form every other entry
// point ends in. A boolean mask in an index tuple becomes its nonzero()
// arrays here.
template <int K, class T, class S>
gather_ref<T, S, K> make_gather(const ndarray<T, S>& a, std::span<const plan_item> items,
                                std::array<ndarray<std::int64_t, S>, K> idx,
                                index_mode mode = index_mode::raise) {
  shape_t shapes[K > 0 ? K : 1];
  strides_t strides[K > 0 ? K : 1];
  for (int k = 0; k < K; ++k) {
    shapes[k] = idx[k].shape();
    strides[k] = idx[k].strides();
  }
  gather_plan p = plan_gather(a.shape(), a.strides(), items, {shapes, K}, {strides, K});
  return gather_ref<T, S, K>(a, std::move(idx), std::move(p), mode);
}

// The entry point of x(i0, i1, ...) when some index is an index array
// (detail/views/array_views.hpp calls it).
template <class T, class S, class... I>
auto advanced_index(const ndarray<T, S>& a, const I&... x) {
  constexpr int K = (0 + ... + (basic_index<I> ? 0 : 1));
  static_assert(K <= max_index_arrays, "cupp: at most 8 index arrays in one indexing");
  std::array<ndarray<std::int64_t, S>, K> idx;
  plan_item items[sizeof...(I)];
  int n = 0, k = 0;
  auto add = [&](const auto& v) {
    using X = std::remove_cvref_t<decltype(v)>;
    if constexpr (basic_index<X>) {
      items[n++].basic = to_index_item(v);
    } else {
      idx[k] = to_index_array<S>(v);
      items[n++].array = k++;
    }
  };
  (add(x), ...);
  return make_gather<K>(a, {items, sizeof...(I)}, std::move(idx));
}

}  // namespace detail

// cupyx.scatter_add(a, indices, value): a[indices] += value, with repeated
// indices all counting (atomics on the device). scatter_add(a, idx, v),
// scatter_add(a, i0, slice(1, 3), i1, v): the last argument is the value.
// Every dtype is supported (bool adds as logical or); scatter_max and
// scatter_min support every dtype but complex (NumPy's NaN rules).
namespace detail {
template <class Op, class T, class S, class Tuple, std::size_t... I>
void scatter_call(const ndarray<T, S>& a, const Tuple& t, std::index_sequence<I...>) {
  const auto& v = std::get<sizeof...(I)>(t);
  auto target = a(std::get<I>(t)...);
  if constexpr (is_ndarray_v<decltype(target)>) {
    // Only basic indices: a view, where no position repeats.
    static_assert(scatter_supported_v<Op, T>,
                  "cupp::scatter_max/scatter_min: complex dtypes have no order");
    if constexpr (std::is_same_v<Op, add_op>)
      copyto(target, cupp::add(target, v));
    else if constexpr (std::is_same_v<Op, max_op>)
      copyto(target, cupp::maximum(target, v));
    else
      copyto(target, cupp::minimum(target, v));
  } else {
    target.template accumulate<Op>(v);
  }
}
}  // namespace detail

template <class T, class S, class... X>
requires(sizeof...(X) >= 2) void scatter_add(const ndarray<T, S>& a, const X&... x) {
  detail::scatter_call<detail::add_op>(a, std::forward_as_tuple(x...),
                                       std::make_index_sequence<sizeof...(X) - 1>{});
}
// a[indices] = maximum(a[indices], value), repeated indices all counting.
template <class T, class S, class... X>
requires(sizeof...(X) >= 2) void scatter_max(const ndarray<T, S>& a, const X&... x) {
  detail::scatter_call<detail::max_op>(a, std::forward_as_tuple(x...),
                                       std::make_index_sequence<sizeof...(X) - 1>{});
}
// a[indices] = minimum(a[indices], value), repeated indices all counting.
template <class T, class S, class... X>
requires(sizeof...(X) >= 2) void scatter_min(const ndarray<T, S>& a, const X&... x) {
  detail::scatter_call<detail::min_op>(a, std::forward_as_tuple(x...),
                                       std::make_index_sequence<sizeof...(X) - 1>{});
}

namespace detail {

// `a` as a 1-d array over its elements in C order, for put and
// put_along_axis(axis=None): a view when a is C-contiguous, else a copy
// that `finish` writes back.
template <class T, class S>
struct flat_target {
  ndarray<T, S> a, flat;
  bool copied;
  explicit flat_target(const ndarray<T, S>& x)
      : a(x),
        flat(x.is_c_contiguous() ? x.reshape(-1) : x.flatten()),
        copied(!x.is_c_contiguous()) {}
  void finish() const {
    if (copied) flat.reshape(a.shape()).copy_into(a);
  }
};

// The geometry of take_along_axis/put_along_axis: NumPy indexes arr with
// aranges along every other axis and `indices` along `axis`.
inline gather_plan along_axis_plan(const shape_t& shape, const strides_t& strides, int axis,
                                   const shape_t& ishape, const strides_t& istrides) {
  const int nd = shape.size();
  shape_t shapes[max_ndim];
  for (int d = 0; d < nd; ++d) {
    if (d == axis) {
      shapes[d] = ishape;
    } else {
      shapes[d] = shape_t::filled(nd, 1);
      shapes[d][d] = shape[d];
    }
  }
  const shape_t r = broadcast_index_shapes({shapes, static_cast<std::size_t>(nd)});
  gather_plan p;
  p.k = 1;
  p.shape = r;
  p.src = strides_t::filled(nd, 0);
  for (int d = 0; d < nd; ++d)
    if (d != axis && shape[d] != 1) p.src[d] = strides[d];
  p.idx[0] = broadcast_strides(ishape, istrides, r);
  p.ext[0] = shape[axis];
  p.ast[0] = strides[axis];
  p.axis[0] = axis;
  p.n_index = size_of(r);
  return p;
}

}  // namespace detail

// numpy.take(a, indices, axis=None, mode='raise'): the elements of a (of
// its flattened form when axis is empty) at `indices` along `axis`.
template <class T, class S, class X>
ndarray<T, S> take(const ndarray<T, S>& a, const X& indices, std::optional<index_t> axis = {},
                   take_mode mode = take_mode::raise) {
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
  if (!a.flags().writeable) throw value_error("assignment destination is read-only");
  auto idx = detail::to_index_array<S>(ind);
  if (!idx.is_c_contiguous()) idx = idx.copy();
  idx = idx.reshape(-1);
  const index_t n = idx.size();
  if (n == 0) return;
  if (a.size() == 0) throw index_error("cannot replace elements of an empty array");
  const detail::index_mode m = detail::to_index_mode(mode);
  const detail::flat_target<T, S> f(a);
  auto write = [&](const auto& values) {
    const detail::plan_item item[] = {{{}, 0}};
    detail::make_gather<1>(f.flat, item, {idx}, m) = values;
    f.finish();
  };
  if constexpr (Scalar<V>) {
    write(v);
  } else {
    const auto vals = [&] {
      if constexpr (is_ndarray_v<V>)
        return v;
      else
        return v.eval();
    }();
    using U = typename std::remove_cvref_t<decltype(vals)>::value_type;
    const ndarray<U, S> flat = vals.ravel();
    const index_t mv = flat.size();
    if (mv == 0) return;
    if (mv == n) {
      write(flat);
    } else {
      std::vector<std::int64_t> cyc(static_cast<std::size_t>(n));
      for (index_t j = 0; j < n; ++j) cyc[j] = j % mv;
      const detail::plan_item item[] = {{{}, 0}};
      const ndarray<U, S> rep = detail::make_gather<1>(flat, item, {detail::to_index_array<S>(cyc)},
                                                       detail::index_mode::trusted)
                                    .eval();
      write(rep);
    }
  }
}

namespace detail {
// NumPy's broadcast error for several operands (np.broadcast), naming the
// first mismatching pair.
inline shape_t broadcast_args(std::span<const shape_t> shapes) {
  int nd = 0;
  for (const shape_t& s : shapes) nd = std::max(nd, s.size());
  shape_t r = shape_t::filled(nd, 1);
  for (int i = 0; i < nd; ++i) {
    int src = -1;
    for (int j = 0; j < static_cast<int>(shapes.size()); ++j) {
      const int k = i + shapes[j].size() - nd;
      if (k < 0) continue;
      const index_t e = shapes[j][k];
      if (e == 1) continue;
      if (r[i] == 1) {
        r[i] = e;
        src = j;
      } else if (r[i] != e) {
        throw value_error(
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between arg " +
            std::to_string(src) + " with shape " + to_string(shapes[src]) + " and arg " +
            std::to_string(j) + " with shape " + to_string(shapes[j]) + ".");
      }
    }
  }
  return r;
}
}  // namespace detail

// numpy.choose(a, choices, mode='raise'): choices[a[i]][i] at every i of
// the broadcast of a and the choices (mode raise: a value outside
// [0, n) is an error).
template <class T, class S, class X>
ndarray<T, S> choose(const X& a, const std::vector<ndarray<T, S>>& choices,
                     take_mode mode = take_mode::raise) {
  const index_t n = static_cast<index_t>(choices.size());
  if (n == 0) throw value_error("0-length sequence.");
  auto idx = detail::to_index_array<S>(a);
  std::vector<shape_t> shapes;
  for (const auto& c : choices) shapes.push_back(c.shape());
  shapes.push_back(idx.shape());
  const shape_t r = detail::broadcast_args(shapes);
  if (mode == take_mode::raise && detail::size_of(r) > 0 && detail::first_bad_index(idx, n, false))
    throw value_error("invalid entry in choice array");
  shape_t sshape{n};
  for (index_t e : r) sshape.push_back(e);
  const ndarray<T, S> stack(sshape);
  for (index_t i = 0; i < n; ++i) copyto(stack(i, ellipsis), choices[i]);
  detail::gather_plan p;
  p.k = 1;
  p.shape = r;
  for (int d = 0; d < r.size(); ++d) p.src.push_back(stack.strides()[d + 1]);
  p.idx[0] = detail::broadcast_strides(idx.shape(), idx.strides(), r);
  p.ext[0] = n;
  p.ast[0] = stack.strides()[0];
  const detail::index_mode m =
      mode == take_mode::raise ? detail::index_mode::trusted : detail::to_index_mode(mode);
  return gather_ref<T, S, 1>(stack, {idx}, std::move(p), m).eval();
}
template <class T, class S, class X>
ndarray<T, S> choose(const X& a, std::initializer_list<ndarray<T, S>> choices,
                     take_mode mode = take_mode::raise) {
  return choose(a, std::vector<ndarray<T, S>>(choices), mode);
}

}  // namespace cupp
