// Running an expression: planning the launch, the element-wise kernel (or
// the host loop) into one or two outputs, NumPy's K order for fresh
// results, the overlap check that makes a temporary when an operand shares
// memory with the output in another layout, and NumPy's out= checks.
#pragma once

#include <array>
#include <limits>
#include <string>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cupp/array_fwd.hpp>
#include <cupp/config.hpp>
#include <cupp/cuda/runtime.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/elementwise/kernel.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/elementwise/writers.hpp>
#include <cupp/detail/expression/operands.hpp>
#include <cupp/detail/expression/ufunc_expr.hpp>
#include <cupp/errors.hpp>
#include <cupp/expression_fwd.hpp>
#include <cupp/shape.hpp>
#include <cupp/ufunc_types.hpp>

namespace cupp {

namespace detail {

// The permutation NumPy's K order gives the result: the axes of the first
// operand that spans the whole output (no broadcast axis), from slowest to
// fastest; C order when there is none.
inline strides_t k_order_strides(const shape_t& shape, std::span<const strides_t> operand_strides,
                                 index_t itemsize) CUPP_HOST_BODY({
  const int nd = shape.size();
  for (const strides_t& st : operand_strides) {
    bool full = true;
    for (int i = 0; i < nd; ++i)
      if (shape[i] != 1 && st[i] == 0) full = false;
    if (!full) continue;
    if (is_c_contiguous(shape, st, 1) || nd < 2) break;
    int axes[max_ndim];
    for (int i = 0; i < nd; ++i) axes[i] = i;
    auto mag = [](index_t v) { return v < 0 ? -v : v; };
    std::stable_sort(axes, axes + nd, [&](int a, int b) { return mag(st[a]) > mag(st[b]); });
    strides_t r = strides_t::filled(nd, 0);
    index_t step = itemsize;
    for (int i = nd - 1; i >= 0; --i) {
      r[axes[i]] = step;
      step *= std::max<index_t>(shape[axes[i]], 1);
    }
    return r;
  }
  return contiguous_strides(shape, itemsize);
});

[[noreturn]] inline void throw_device_mismatch(int array_device, int current) {
  throw value_error("Array device must be same as the current device: array device = " +
                    std::to_string(array_device) + " while current = " + std::to_string(current));
}
inline void check_current_device(int array_device) CUPP_HOST_BODY({
  const int current = cuda::runtime::getDevice();
  if (array_device != current) throw_device_mismatch(array_device, current);
});

// What a launch needs that does not depend on the expression's type:
// planning, the grid, the stream. Kept out of the templates below so that
// each expression compiles only its own lowering.
struct launch_setup {
  elementwise_plan p;
  int kd = 1;
  index_t n_outer = 1;
  grid_params g;
  cudaStream_t stream = nullptr;
  // The current device (device launches of run_elementwise), and whether
  // the arrays read are more than one (see grid_params::covering).
  int current = -1;
  const char* first_read = nullptr;
  bool several_reads = false;
};

// `checked`: the caller has compared `device` with the current device.
inline void setup_launch(launch_setup& ls, const shape_t& shape, std::span<strides_t> st, int N,
                         int device, bool checked = false) CUPP_HOST_BODY({
  ls.p = plan_elementwise(shape, st);
  if (ls.p.size == 0) return;
  ls.kd = std::min(ls.p.nd, kernel_dims);
  for (int k = ls.kd; k < ls.p.nd; ++k) ls.n_outer *= ls.p.shape[k];
  ls.g = make_grid(ls.p, ls.kd, N);
  if (device >= 0) {
    if (!checked) check_current_device(device);
    ls.stream = cuda::detail::current_stream_impl(device)->handle;
  }
});

// The shared part of run_elementwise before the operands are visited:
// the plan, the grid and, for a device launch (device0 >= 0), the outputs'
// devices checked against the current one and its stream. False when there
// is nothing to do. Not inlined: every expression calls the same copy (an
// expression's own host code is then its lowering and its launch).
[[gnu::noinline]] inline bool begin_elementwise(launch_setup& ls, const shape_t& shape,
                                                std::span<strides_t> st, int N, int device0,
                                                int device1) CUPP_HOST_BODY({
  // Every operand on the current device, asked of the runtime once (each
  // query costs about 35 ns of a small expression's few microseconds).
  setup_launch(ls, shape, st, N, device0, true);
  if (ls.p.size == 0) return false;
  if (device0 >= 0) {
    ls.current = cuda::runtime::getDevice();
    if (device0 != ls.current) throw_device_mismatch(device0, ls.current);
    if (device1 != ls.current) throw_device_mismatch(device1, ls.current);
  }
  return true;
});

// One array a device expression reads: on the current device, and
// counted towards the distinct arrays read (x in softplus's four uses is
// one stream).
[[gnu::noinline]] inline void note_read(launch_setup& ls, const array_info& a) CUPP_HOST_BODY({
  if (a.device != ls.current) throw_device_mismatch(a.device, ls.current);
  if (!ls.first_read)
    ls.first_read = a.data;
  else if (a.data != ls.first_read)
    ls.several_reads = true;
});

// Steps to the next position along the dimensions the host iterates over.
inline void next_outer(const launch_setup& ls, index_t* outer) CUPP_HOST_BODY({
  for (int k = ls.kd; k < ls.p.nd; ++k) {
    if (++outer[k - ls.kd] < ls.p.shape[k]) break;
    outer[k - ls.kd] = 0;
  }
});

template <class T, int N>
array_out<T, N> make_writer(const T* data, const lower_ctx& L, int slot) {
  array_out<T, N> w;
  w.data = const_cast<char*>(reinterpret_cast<const char*>(data)) + L.place(slot, w.st);
  return w;
}

// Runs `e` into the outputs `outs` (one array, or two for two-output
// ufuncs), whose shape the expression broadcasts to; the strides of the
// expression's slots are already collected in st[outputs ..]. What does not
// depend on E is in the functions above; what is left here is E's: its
// lowering and its kernel.
template <class S, class E, class... T>
void run_elementwise(const std::tuple<const ndarray<T, S>&...>& outs, const E& e,
                     std::span<strides_t> st) {
  constexpr int n_out = sizeof...(T);
  constexpr int widest = std::max({E::max_itemsize, static_cast<int>(sizeof(T))...});
  constexpr bool on_device = std::is_same_v<S, device_space>;
  constexpr int N = on_device ? device_chunk(widest) * chunk_scale_of<E>() : host_chunk(widest);
  const auto& out0 = std::get<0>(outs);
  const auto& out1 = std::get<n_out - 1>(outs);
  const shape_t& shape = out0.shape();
  st[0] = broadcast_strides(shape, out0.strides(), shape);
  if constexpr (n_out == 2) st[1] = broadcast_strides(out1.shape(), out1.strides(), shape);
  const int device = on_device ? out0.device_id() : -1;
  launch_setup ls;
  if (!begin_elementwise(ls, shape, st, N, device, on_device ? out1.device_id() : -1)) return;
  if constexpr (on_device) {
    e.for_each_array([&](const array_info& a) { note_read(ls, a); });
    ls.g.covering = ls.several_reads && ls.g.rows == 1;
  }
  index_t outer[max_ndim] = {};
  for (index_t o = 0; o < ls.n_outer; ++o, next_outer(ls, outer)) {
    lower_ctx L{st, ls.kd, ls.p.nd, outer, n_out};
    L.device = device;
    const auto ev = e.template lower<typename E::value_type, N>(L);
    const auto w = [&] {
      if constexpr (n_out == 1) {
        return make_writer<T..., N>(out0.data(), L, 0);
      } else {
        using A = std::tuple_element_t<0, std::tuple<T...>>;
        using B = std::tuple_element_t<1, std::tuple<T...>>;
        return pair_out<A, B, N>{make_writer<A, N>(out0.data(), L, 0),
                                 make_writer<B, N>(out1.data(), L, 1)};
      }
    }();
    if constexpr (on_device) {
      ls.g.dense = ls.kd == 1 && ls.n_outer == 1 && dense_loadable(ev) && w.dense();
#if defined(__CUDACC__)
      launch_elementwise<N>(ev, w, ls.g, device, ls.stream);
#else
      CUPP_NEEDS_NVCC(E);
#endif
    } else {
      host_elementwise<N>(ev, w, ls.g);
    }
  }
}

// Byte range an array touches.
inline void byte_range(const array_info& a, const char*& lo, const char*& hi) CUPP_HOST_BODY({
  lo = hi = a.data;
  for (int i = 0; i < a.shape->size(); ++i) {
    const index_t e = (*a.shape)[i];
    if (e == 0) {
      hi = lo;
      return;
    }
    const index_t span = (e - 1) * (*a.strides)[i];
    if (span < 0)
      lo += span;
    else
      hi += span;
  }
  hi += a.itemsize;
});

// True when writing `out` element by element could change what `e` reads
// later: an operand shares memory with the output in another layout.
template <class T, class S, class E>
bool needs_temporary(const ndarray<T, S>& out, const E& e) {
  const array_info o{reinterpret_cast<const char*>(out.data()),
                     &out.shape(),
                     &out.strides(),
                     out.itemsize(),
                     out.device_id(),
                     true};
  const char *olo, *ohi;
  byte_range(o, olo, ohi);
  bool overlap = false;
  e.for_each_array([&](const array_info& a) {
    const char *lo, *hi;
    byte_range(a, lo, hi);
    if (lo >= ohi || olo >= hi || lo == hi || olo == ohi) return;
    const bool same_view = a.elementwise && a.data == o.data && a.itemsize == o.itemsize &&
                           broadcast_strides(*a.shape, *a.strides, out.shape()) ==
                               broadcast_strides(out.shape(), out.strides(), out.shape()) &&
                           broadcasts_to(*a.shape, out.shape()) && *a.shape == out.shape();
    if (!same_view) overlap = true;
  });
  return overlap;
}

// A fresh array of `shape` in NumPy's K order of the operands' strides:
// one copy per dtype, not per expression (not inlined into each).
template <class T, class S>
[[gnu::noinline]] ndarray<T, S> k_order_array(const shape_t& shape,
                                              std::span<const strides_t> operand_strides) {
  const strides_t s = k_order_strides(shape, operand_strides, sizeof(T));
  ndarray<T, S> tmp(shape);
  if (!(s == tmp.strides()))
    tmp = ndarray<T, S>(tmp.data(), shape, s, tmp.memory(), tmp.device_id(), true);
  return tmp;
}

// A fresh array of E's result (K order), evaluated by the element-wise
// kernel.
template <class T, class S, class E>
ndarray<T, S> evaluate_fused(const E& e) {
  static_assert(!std::is_same_v<typename E::space, host_space> || std::is_same_v<S, host_space>,
                "cupp: a host expression cannot become a device array: use cupp::asarray");
  static_assert(!std::is_same_v<typename E::space, device_space> || std::is_same_v<S, device_space>,
                "cupp: a device expression cannot become a host array: use cupp::asnumpy");
  static_assert(assignable<typename E::value_type, T>(),
                "cupp: the expression's dtype does not cast to the array's dtype with casting "
                "'same_kind'; convert it explicitly with .astype<T>()");
  const shape_t& shape = e.shape();
  std::array<strides_t, E::slots + 1> st;
  strides_t* p = st.data() + 1;
  e.collect(p, shape);
  ndarray<T, S> out =
      k_order_array<T, S>(shape, std::span<const strides_t>(st.data() + 1, E::slots));
  run_elementwise(std::tuple<const ndarray<T, S>&>(out), e, st);
  return out;
}

// A fresh array of E's result. An operand with a kernel of its own for
// standing alone (x(idx): bounds checked inside its gather) says so with
// evaluate_self<T>(); everything else takes the element-wise kernel.
template <class T, class S, class E>
ndarray<T, S> evaluate_as(const E& e) {
  if constexpr (requires { e.template evaluate_self<T>(); })
    return e.template evaluate_self<T>();
  else
    return evaluate_fused<T, S>(e);
}

template <class E>
auto evaluate(const E& e) {
  return evaluate_as<typename E::value_type, eval_space_t<typename E::space>>(e);
}

// Both results of a two-output expression, from one kernel (NumPy's K
// order for both).
template <class E>
auto evaluate_pair(const E& e) {
  using V = typename E::value_type;
  using A = decltype(V::first);
  using B = decltype(V::second);
  using S = eval_space_t<typename E::space>;
  const shape_t& shape = e.shape();
  std::array<strides_t, E::slots + 2> st;
  strides_t* p = st.data() + 2;
  e.collect(p, shape);
  const std::span<const strides_t> ops(st.data() + 2, E::slots);
  const ndarray<A, S> a = k_order_array<A, S>(shape, ops);
  const ndarray<B, S> b = k_order_array<B, S>(shape, ops);
  run_elementwise(std::tuple<const ndarray<A, S>&, const ndarray<B, S>&>(a, b), e, st);
  return std::pair<ndarray<A, S>, ndarray<B, S>>(a, b);
}

// NumPy's checks of a ufunc's out= arrays (and of in-place operators,
// whose output is their first operand): the operands and outputs broadcast
// together, and each output has the whole broadcast shape (outputs are not
// broadcast). Called before the expression is built, so that a mismatch
// among the inputs lists the outputs too, as NumPy's message does.
inline void check_out_shapes(std::span<const shape_t> inputs, std::span<const shape_t> outs) {
  bool ok = true;
  shape_t full;
  for (const auto* list : {&inputs, &outs})
    for (const shape_t& s : *list)
      if (ok) full = broadcast_shape_pair(full, s, ok);
  if (!ok) {
    std::vector<shape_t> all(inputs.begin(), inputs.end());
    all.insert(all.end(), outs.begin(), outs.end());
    throw value_error(shapes_message(all));
  }
  for (const shape_t& o : outs)
    if (!(o == full))
      throw value_error("non-broadcastable output operand with shape " + np_shape(o) +
                        " doesn't match the broadcast shape " + np_shape(full));
}

// The shape an operand has in NumPy's messages: () for a scalar.
template <class X>
shape_t operand_shape(const X& x) {
  if constexpr (requires { x.shape(); })
    return x.shape();
  else
    return shape_t{};
}

// NumPy's checks of a ufunc call with out= (or of an in-place operator,
// out being its first operand): out is writeable, then check_out_shapes.
template <class T, class S, class... X>
void check_ufunc_out(const ndarray<T, S>& out, const X&... x) {
  if (!out.flags().writeable) throw value_error("output array is read-only");
  const shape_t inputs[] = {operand_shape(x)...};
  check_out_shapes(inputs, std::span<const shape_t>(&out.shape(), 1));
}
// The same with two outputs (divmod, frexp, modf).
template <class T1, class T2, class S, class... X>
void check_ufunc_out2(const ndarray<T1, S>& out1, const ndarray<T2, S>& out2, const X&... x) {
  if (!out1.flags().writeable || !out2.flags().writeable)
    throw value_error("output array is read-only");
  const shape_t inputs[] = {operand_shape(x)...};
  const shape_t outs[] = {out1.shape(), out2.shape()};
  check_out_shapes(inputs, outs);
}

// Both results of a two-output expression written into existing arrays
// (out=(q, r)); neither may overlap an operand.
template <class A, class B, class S, class E>
void assign_pair(const ndarray<A, S>& a, const ndarray<B, S>& b, const E& e) {
  using V = typename E::value_type;
  static_assert(
      can_cast_same_kind_v<decltype(V::first), A> && can_cast_same_kind_v<decltype(V::second), B>,
      "cupp: Cannot cast the ufunc's outputs to the out= arrays' dtypes with casting "
      "rule 'same_kind'");
  if (!broadcasts_to(e.shape(), a.shape()) || !(a.shape() == b.shape())) {
    const shape_t outs[] = {a.shape(), b.shape()};
    check_out_shapes(std::span<const shape_t>(&e.shape(), 1), outs);
  }
  if (a.size() == 0) return;
  if (needs_temporary(a, e) || needs_temporary(b, e)) {
    const auto tmp = evaluate_pair(e);
    assign(a, array_leaf<decltype(V::first), S>{tmp.first});
    assign(b, array_leaf<decltype(V::second), S>{tmp.second});
    return;
  }
  std::array<strides_t, E::slots + 2> st;
  strides_t* p = st.data() + 2;
  e.collect(p, a.shape());
  run_elementwise(std::tuple<const ndarray<A, S>&, const ndarray<B, S>&>(a, b), e, st);
}

// Writes `e` into the existing array `out` (numpy.copyto / out=): the
// expression must broadcast to out's shape; an operand that overlaps out in
// another layout is evaluated into a temporary first.
template <class T, class S, class E>
void assign(const ndarray<T, S>& out, const E& e) {
  static_assert(
      std::is_same_v<typename E::space, any_space> || std::is_same_v<typename E::space, S>,
      "cupp: an expression mixes host and device arrays; move one side with "
      "cupp::asarray (host to device) or cupp::asnumpy (device to host)");
  if (!out.flags().writeable) throw value_error("assignment destination is read-only");
  if (!broadcasts_to(e.shape(), out.shape()))
    throw value_error("non-broadcastable output operand with shape " + np_shape(out.shape()) +
                      " doesn't match the broadcast shape " + np_shape(e.shape()));
  if (out.size() == 0) return;
  if (needs_temporary(out, e)) {
    const auto tmp = evaluate_as<typename E::value_type, S>(e);
    assign(out, array_leaf<typename E::value_type, S>{tmp});
    return;
  }
  std::array<strides_t, E::slots + 1> st;
  strides_t* p = st.data() + 1;
  e.collect(p, out.shape());
  run_elementwise(std::tuple<const ndarray<T, S>&>(out), e, st);
}

}  // namespace detail

namespace detail {
template <class U, class T, class S>
ndarray<U, S> astype_copy(const ndarray<T, S>& a) {
  return evaluate_as<U, S>(make_ufunc(ops::cast<U>{}, a));
}
}  // namespace detail

}  // namespace cupp
