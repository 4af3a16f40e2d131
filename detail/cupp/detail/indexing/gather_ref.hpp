// The inside of x(idx), cupp::gather_ref (whose face is in
// include/cupp/advanced_indexing.hpp): the source array, its int64 index
// arrays and their gather_plan, and everything done with them. Read as an
// operand, a gather_ref lowers to a gather_eval inside the consumer's
// kernel; read on its own it is one gather kernel (the flat kernel of
// flat_gather.hpp where it applies); written, it is a scatter. Also here:
// make_gather and advanced_index, the functions that build a gather_ref
// from the indices of x(...), and scatter_add's dispatch.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

#include <cupp/cuda/device.hpp>
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/indexing/flat_gather.hpp>
#include <cupp/detail/indexing/gather_scatter.hpp>
#include <cupp/detail/indexing/index_arrays.hpp>
#include <cupp/errors.hpp>
// Expression machinery (lower_ctx, array_info, array_leaf, scalar_leaf,
// as_operand, evaluate_fused, evaluate_as, copyto) and ndarray: to be
// repointed at detail/ once they move.
#include <cupp/detail/expression/launch.hpp>
#include <cupp/array_fwd.hpp>
#include <cupp/lazy_fwd.hpp>

// cupp::gather_ref is declared in <cupp/lazy_fwd.hpp> and defined in
// advanced_indexing.hpp; the functions here that make one are instantiated
// only after that definition.

namespace cupp::detail {

inline bool ranges_overlap(const array_info& a, const array_info& b) {
  const char *alo, *ahi, *blo, *bhi;
  byte_range(a, alo, ahi);
  byte_range(b, blo, bhi);
  return alo < bhi && blo < ahi && alo != ahi && blo != bhi;
}

template <class T, class S>
array_info info_of(const ndarray<T, S>& a, bool elementwise = true) {
  return {reinterpret_cast<const char*>(a.data()), &a.shape(), &a.strides(), a.itemsize(),
          a.device_id(), elementwise};
}

// What a gather_ref<T, S, K> holds, and its reads and writes. `fault` is
// set only on the copy that read() evaluates, where the kernel reports the
// first bad index instead of a check kernel running first.
template <class T, class S, int K>
struct gather_state {
  using index_arrays = std::array<ndarray<std::int64_t, S>, K>;

  ndarray<T, S> a;
  index_arrays idx;
  gather_plan plan;
  index_mode mode = index_mode::raise;
  index_fault* fault = nullptr;

  // The first out-of-range index, checked array by array as NumPy does.
  void check_bounds() const {
    if (plan.n_index == 0) return;
    for (int k = 0; k < K; ++k)
      if (const auto bad = first_bad_index(idx[k], plan.ext[k], true))
        throw index_error(out_of_bounds_message(*bad, plan.axis[k], plan.ext[k]));
  }

  // --- the expression interface (detail/expression/operands.hpp) ----------

  void collect(strides_t*& p, const shape_t& out) const {
    if (mode == index_mode::raise && !fault) check_bounds();
    *p++ = broadcast_strides(plan.shape, plan.src, out);
    for (int k = 0; k < K; ++k) *p++ = broadcast_strides(plan.shape, plan.idx[k], out);
  }
  template <int N>
  gather_eval<T, K, N> lower(lower_ctx& L) const {
    gather_eval<T, K, N> e;
    const int s = L.take();
    e.src = reinterpret_cast<const char*>(a.data()) + plan.offset + L.base(s);
    L.kernel_strides(s, e.st);
    for (int k = 0; k < K; ++k) {
      const int sk = L.take();
      e.idx[k].data = reinterpret_cast<const char*>(idx[k].data()) + L.base(sk);
      L.kernel_strides(sk, e.idx[k].st);
      e.ext[k] = plan.ext[k];
      e.ast[k] = plan.ast[k];
    }
    // The fused path checked the indices in collect(); the gather kernel
    // of read() checks through the fault word.
    e.mode = fault ? index_mode::raise : (mode == index_mode::raise ? index_mode::trusted : mode);
    e.fault = fault;
    return e;
  }
  template <class F>
  void for_each_array(F&& f) const {
    f(info_of(a, false));  // read at the indices, not at the output's positions
    for (const auto& i : idx) f(info_of(i));
  }

  // --- reads and writes ---------------------------------------------------

  // The selected elements as a new array (C order): one kernel.
  ndarray<T, S> read() const {
    if constexpr (std::is_same_v<S, device_space> && K == 1)
      if (auto r = flat_gather(a, idx[0], plan, mode)) return std::move(*r);
    if constexpr (std::is_same_v<S, device_space>) {
      if (mode == index_mode::raise && size_of(plan.shape) > 0) {
        cuda::device_scope scope(a.device_id());
        const cudaStream_t s = cuda::detail::current_stream_impl(a.device_id())->handle;
        const cuda::memory_ptr word = new_fault_word(s);
        gather_state g(*this);
        g.fault = static_cast<index_fault*>(word.get());
        ndarray<T, S> r = evaluate_fused<T, S>(gather_ref<T, S, K>(std::move(g)));
        const index_fault f = read_fault_word(word, s);
        if (f.flag)
          throw index_error(out_of_bounds_message(f.value, plan.axis[f.which], plan.ext[f.which]));
        return r;
      }
    }
    // An empty result reads no index, but NumPy still checks them.
    if (mode == index_mode::raise && size_of(plan.shape) == 0) check_bounds();
    gather_state g(*this);
    if (size_of(plan.shape) == 0) g.mode = index_mode::trusted;
    return evaluate_fused<T, S>(gather_ref<T, S, K>(std::move(g)));
  }

  // x[idx] = v (Op assign_op) or Op(x[idx], v) at every selected position
  // (the scatter ops); `check` runs the bounds check first.
  template <class Op, class V>
  void write(const V& v, bool check) const {
    if (!a.flags().writeable) throw value_error("assignment destination is read-only");
    const auto src = [&] {
      if constexpr (Scalar<V>) {
        const auto w = as_operand(v);
        using W = typename std::remove_cvref_t<decltype(w)>::value_type;
        static_assert(assignable<W, T>(),
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
    static_assert(assignable<typename E::value_type, T>(),
                  "cupp: the value's dtype does not cast to the array's dtype with casting "
                  "'same_kind'; convert it with .astype<T>()");
    // Mixing host and device operands fails here, with join_space's message.
    using J = typename join_space<S, typename E::space>::type;
    static_assert(std::is_same_v<J, S>);
    if (!broadcasts_to(src.shape(), plan.shape))
      throw value_error("shape mismatch: value array of shape " + compact_shape(src.shape()) +
                        " could not be broadcast to indexing result of shape " +
                        compact_shape(plan.shape));
    if (check && mode == index_mode::raise) check_bounds();
    if (size_of(plan.shape) == 0) return;
    const array_info dst = info_of(a);
    // Overlap: every write may land anywhere in x, so any operand sharing
    // x's memory is read first (NumPy's result), and so are index arrays.
    bool overlap = false;
    src.for_each_array([&](const array_info& i) {
      if (ranges_overlap(dst, i)) overlap = true;
    });
    index_arrays ix = idx;
    for (auto& i : ix)
      if (ranges_overlap(dst, info_of(i))) i = i.copy();
    const index_mode m = mode == index_mode::raise ? index_mode::trusted : mode;
    if (overlap) {
      const auto tmp = evaluate_as<typename E::value_type, S>(src);
      run_scatter<T, S, K, Op>(a, plan, ix, m, array_leaf<typename E::value_type, S>{tmp});
    } else {
      run_scatter<T, S, K, Op>(a, plan, ix, m, src);
    }
  }
};

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

// scatter_add(a, indices..., v) and friends: `ufunc` is Op's ufunc
// (cupp::add for add_op), used where the indices are all basic and
// a(indices...) is a view, in which no position repeats.
template <class Op, class T, class S, class F, class Tuple, std::size_t... I>
void scatter_call(const ndarray<T, S>& a, F ufunc, const Tuple& t, std::index_sequence<I...>) {
  const auto& v = std::get<sizeof...(I)>(t);
  auto target = a(std::get<I>(t)...);
  if constexpr (is_ndarray_v<decltype(target)>) {
    static_assert(scatter_supported_v<Op, T>,
                  "cupp::scatter_max/scatter_min: complex dtypes have no order");
    copyto(target, ufunc(target, v));
  } else {
    target.template accumulate<Op>(v);
  }
}

}  // namespace cupp::detail
