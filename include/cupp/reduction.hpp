// The reduction engine: a reduction operator (detail/reduce/reducers.hpp) applied
// to an array or a lazy expression over any axes, in one pass that reads
// each input element once (`sum(x * y)` reads x and y and writes one
// value), on the device or on the host; and cupp::reduction, which makes a
// user reduction (CuPy's ReductionKernel) from a map, a combining function,
// a post-map and an identity.
#pragma once

#include <array>
#include <tuple>
#include <type_traits>

#include <cupp/detail/reduce/kernel.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/detail/elementwise/ufunc_define.hpp>
#include <cupp/elementwise.hpp>
#include <cupp/expression.hpp>
#include <cupp/reduction_options.hpp>

namespace cupp {

namespace detail {

template <class Op, class... A>
struct is_masked_expr : std::false_type {};

// An operand laid out so that its kept axes are slowest and its reduced axes
// fastest: any reduction of it merges into two dimensions. Used when a
// layout does not merge into the kernel's six dimensions.
template <class E>
auto materialized(const E& e, axis_mask m) {
  using V = typename E::value_type;
  using S = eval_space_t<typename E::space>;
  if constexpr (is_pair_value_v<V>) {
    const auto& [x, mask] = e.args();
    return make_ufunc(ops::with_mask{}, materialized(x, m), materialized(mask, m));
  } else {
    const shape_t& shape = e.shape();
    int perm[max_ndim];
    kept_then_reduced(shape, m, perm);
    shape_t ps = shape;
    for (int i = 0; i < shape.size(); ++i) ps[i] = shape[perm[i]];
    ndarray<V, S> tmp(ps);
    strides_t st = shape;
    for (int i = 0; i < shape.size(); ++i) st[perm[i]] = tmp.strides()[i];
    ndarray<V, S> view(tmp.data(), shape, st, tmp.memory(), tmp.device_id(), false);
    // A fresh array overlaps no operand: straight to the kernel, without
    // assign's overlap check and the temporary it would compile.
    std::array<strides_t, E::slots + 1> ops;
    strides_t* p = ops.data() + 1;
    e.collect(p, shape);
    run_elementwise(std::tuple<const ndarray<V, S>&>(view), e, ops);
    return array_leaf<V, S>{view};
  }
}

// Whether every operand (slots 1 .. slots) stores its kernel rows one after
// another: dimension 1 steps over exactly n0 elements of dimension 0.
template <std::size_t S>
bool rows_follow(const std::array<strides_t, S>& st, index_t n0, int slots) {
  for (int s = 1; s <= slots; ++s)
    if (st[s][1] != st[s][0] * n0) return false;
  return true;
}

template <class Red, class Out, class S, class E>
void reduce_materialized(const Red& red, const E& e, axis_mask m, const ndarray<Out, S>& out,
                         bool has_initial, typename Red::acc_type initial);

// Writes red's result over the axes `m` of `e` into `out` (the reduced shape,
// with or without the reduced axes kept as 1). Compact: `e` and `out` are
// known to merge into at most two dimensions with dimension 0 reduced (the
// materialised path below), so only one kernel is compiled for the call.
template <class Red, class Out, class S, class E, bool Compact = false>
void reduce_into(const Red& red, const E& e, axis_mask m, const ndarray<Out, S>& out,
                 bool has_initial = false,
                 typename Red::acc_type initial = typename Red::acc_type{}) {
  using A = typename Red::acc_type;
  const shape_t& shape = e.shape();
  const index_t n = reduced_count(shape, m);
  if (out.size() == 0) return;
  result_writer<Red, Out> w{red, reinterpret_cast<char*>(out.data()), {}, n, has_initial, initial};
  if (n == 0) {
    A a = red.identity();
    if (has_initial) a = red.combine(initial, a);
    const Out v = red.template finish<Out>(a, 0);
    assign(out, make_ufunc(ops::cast<Out>{}, scalar_leaf<Out>{v}));
    return;
  }
  constexpr bool with_index = Red::needs_index;
  constexpr int nslots = E::slots + 1 + (with_index ? 1 : 0);
  std::array<strides_t, nslots> st;
  st[0] = result_strides_full(shape, m, out.shape(), out.strides());
  strides_t* p = st.data() + 1;
  e.collect(p, shape);
  if constexpr (with_index) st[nslots - 1] = reduced_positions(shape, m);
  reduce_plan pl = plan_reduction(shape, m, st);
  if constexpr (Compact) {
    // Nothing reduced (every reduced axis of extent 1): a reduced dimension
    // of extent 1 in front keeps the walk in the inner kernel.
    if (!(pl.reduced & 1)) as_inner_unit(pl);
  } else if (pl.nd > kernel_dims) {
    reduce_materialized(red, e, m, out, has_initial, initial);
    return;
  }
  constexpr bool on_device = std::is_same_v<S, device_space>;
  constexpr int N = on_device ? device_chunk(E::max_itemsize > 16 ? 16 : E::max_itemsize)
                              : host_chunk(E::max_itemsize);
  lower_ctx L{st, pl.nd, pl.nd, nullptr, 1};
  const auto ev = e.template lower<typename E::value_type, N>(L);
  L.kernel_strides(0, w.st);
  position_eval pos;
  if constexpr (with_index) L.kernel_strides(nslots - 1, pos.st);
  if constexpr (on_device) {
    const int dev = out.device_id();
    check_current_device(dev);
    e.for_each_array([&](const array_info& a) { check_current_device(a.device); });
#if defined(__CUDACC__)
    const index_t resident =
        reduce_resident_blocks<N, Compact, Red, std::remove_cv_t<decltype(ev)>, position_eval, Out>(
            pl, dev);
    // Flat modes: everything merged into one reduced run that every operand
    // stores densely (and, for arg reductions, positions that grow along
    // it), short dense rows each reduced to a result, or short dense rows of
    // kept results reduced over the rows.
    const bool dense = dense_loadable(ev);
    reduce_grid g;
    if (pl.nd == 1 && (pl.reduced & 1) && dense && (!with_index || pos.st[0] > 0)) {
      g = make_flat_grid(pl.shape[0], N, resident);
    } else if (pl.nd == 2 && (pl.reduced & 1) && !with_index && dense &&
               flat_rows_fit(pl.shape[0], N) && rows_follow(st, pl.shape[0], E::slots)) {
      g = make_flat_rows_grid(pl.shape[0], pl.shape[1], N, resident);
    } else if (!Compact && pl.nd == 2 && !(pl.reduced & 1) && !with_index && dense &&
               flat_outer_fits(pl.shape[0], N) && rows_follow(st, pl.shape[0], E::slots)) {
      g = make_flat_outer_grid(pl.shape[0], pl.shape[1], N, resident);
    } else {
      g = make_reduce_grid(pl, N, resident);
      if constexpr (with_index) g.ordered = walks_in_order(g, pos.st);
    }
    launch_reduce<N, Compact>(ev, pos, w, g, cuda::detail::current_stream_impl(dev)->handle);
#else
    CUPP_NEEDS_NVCC(E);
#endif
  } else {
    host_reduce<N>(ev, pos, w, make_reduce_grid(pl, N, 1));
  }
}

// A layout that does not merge into the kernel's dimensions: the operand is
// materialised kept axes first and reduced axes last, and reduced into a
// C-contiguous result (copied into `out` after when `out` is not one), so
// that both merge into two dimensions whatever `out`'s strides. One kernel
// per reduction operator and dtype serves every such layout.
template <class Red, class Out, class S, class E>
void reduce_materialized(const Red& red, const E& e, axis_mask m, const ndarray<Out, S>& out,
                         bool has_initial, typename Red::acc_type initial) {
  const auto x = materialized(e, m);
  using X = std::remove_cvref_t<decltype(x)>;
  if (out.flags().c_contiguous) {
    reduce_into<Red, Out, S, X, true>(red, x, m, out, has_initial, initial);
    return;
  }
  ndarray<Out, S> r(out.shape());
  reduce_into<Red, Out, S, X, true>(red, x, m, r, has_initial, initial);
  assign(out, array_leaf<Out, S>{r});
}

// --- options ---------------------------------------------------------------

template <template <class> class Tm, class... Opt>
struct find_option {
  using type = void;
};
template <template <class> class Tm, class O, class... Rest>
struct find_option<Tm, O, Rest...> {
  using type = typename find_option<Tm, Rest...>::type;
};
template <template <class> class Tm, class X, class... Rest>
struct find_option<Tm, Tm<X>, Rest...> {
  using type = Tm<X>;
};

template <class... Opt>
struct find_out {
  using type = void;
};
template <class O, class... Rest>
struct find_out<O, Rest...> {
  using type = typename find_out<Rest...>::type;
};
template <class T, class S, class... Rest>
struct find_out<out_arg<T, S>, Rest...> {
  using type = out_arg<T, S>;
};

template <class T, class... Opt>
const T* get_option(const Opt&... o) {
  const T* r = nullptr;
  (
      [&](const auto& x) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(x)>, T>) r = &x;
      }(o),
      ...);
  return r;
}

// What a reduction call asked for, parsed once.
template <class... Opt>
struct reduce_args {
  static_assert((is_reduce_option_v<Opt> && ...),
                "cupp: a reduction takes an axis and then options: kw::keepdims = b, kw::where "
                "= mask, kw::initial = v, kw::ddof = d, cupp::out(a)");
  using where_type = typename find_option<kw::where_arg, Opt...>::type;
  using initial_type = typename find_option<kw::initial_arg, Opt...>::type;
  using weights_type = typename find_option<kw::weights_arg, Opt...>::type;
  using out_type = typename find_out<Opt...>::type;
  static constexpr bool has_where = !std::is_void_v<where_type>;
  static constexpr bool has_initial = !std::is_void_v<initial_type>;
  static constexpr bool has_out = !std::is_void_v<out_type>;
  static constexpr bool has_weights = !std::is_void_v<weights_type>;
  static constexpr bool returned = (std::is_same_v<Opt, kw::returned_t> || ...);

  axis_arg axis;
  bool keepdims = false;
  double ddof = 0;
  const std::tuple<const Opt&...> all;

  reduce_args(axis_arg a, const Opt&... o) : axis(a), all(o...) {
    if (auto* k = get_option<kw::keepdims_arg>(o...)) keepdims = k->value;
    if (auto* d = get_option<kw::ddof_arg>(o...)) ddof = d->value;
    if (auto* x = get_option<kw::axis_kw_arg>(o...)) axis = x->value;
  }
  const auto& where() const requires has_where { return std::get<const where_type&>(all).mask; }
  const auto& initial() const requires has_initial {
    return std::get<const initial_type&>(all).value;
  }
  const auto& out() const requires has_out { return std::get<const out_type&>(all).array; }
  const auto& weights() const requires has_weights {
    return std::get<const weights_type&>(all).value;
  }
};

// NumPy's checks of the operands of a ufunc reduction (`name` is the ufunc:
// "add", "maximum" ...), in its order and with its messages: the rank of
// out=, its writeability, then the broadcast of its iterator over out= (the
// reduced axes as newaxis unless keepdims), the operand and where=, then
// out= extents that would need a reduction NumPy did not set up, then an
// operand smaller than where= (operands are not broadcast).
inline void check_reduction_shapes(const char* name, const shape_t& in, axis_mask m, bool keepdims,
                                   const shape_t* out, bool out_writeable, const shape_t* where) {
  const int nd = in.size();
  shape_t remap = shape_t::filled(nd, -1);  // out='s extent on each axis; -1: newaxis
  int out_axis[max_ndim] = {};
  if (out) {
    int want = 0;
    for (int i = 0; i < nd; ++i) want += keepdims || !(m >> i & 1);
    if (out->size() != want)
      throw value_error(std::string("output parameter for reduction operation ") + name +
                        " has the wrong number of dimensions: Found " +
                        std::to_string(out->size()) + " but expected " + std::to_string(want) +
                        (keepdims ? " (must match the operand's when keepdims=True)" : ""));
    if (!out_writeable) throw value_error("output array is read-only");
    for (int i = 0, j = 0; i < nd; ++i) {
      if (keepdims || !(m >> i & 1)) {
        out_axis[i] = j;
        remap[i] = (*out)[j++];
      }
    }
  }
  shape_t full = shape_t::filled(nd, 1);
  bool ok = true;
  const auto merge = [&](index_t e, int i) {
    if (e < 0 || e == 1) return;
    if (full[i] == 1)
      full[i] = e;
    else if (full[i] != e)
      ok = false;
  };
  for (int i = 0; ok && i < nd; ++i) merge(remap[i], i);
  for (int i = 0; ok && i < nd; ++i) merge(in[i], i);
  if (ok && where) {
    if (where->size() > nd)
      throw value_error("input operand has more dimensions than allowed by the axis remapping");
    for (int j = 0; ok && j < where->size(); ++j) merge((*where)[j], nd - where->size() + j);
  }
  if (!ok) {
    std::string msg =
        "operands could not be broadcast together with remapped shapes [original->remapped]: ";
    if (out) msg += np_shape(*out) + "->" + reshape_request_string(remap) + " ";
    msg += np_shape(in) + " ";
    if (where) msg += np_shape(*where) + " ";
    throw value_error(msg);
  }
  if (out) {
    for (int i = nd - 1; i >= 0; --i) {
      if (remap[i] < 0) continue;
      if (m >> i & 1) {
        if (remap[i] != 1)
          throw value_error("operand was set up as a reduction along axis " +
                            std::to_string(out_axis[i]) + ", but the length of the axis is " +
                            std::to_string(remap[i]) + " (it has to be 1)");
      } else if (remap[i] != full[i]) {
        throw value_error("output operand requires a reduction along dimension " +
                          std::to_string(out_axis[i]) +
                          ", but the reduction is not enabled. The dimension size of " +
                          std::to_string(remap[i]) + " does not match the expected output shape.");
      }
    }
  }
  if (!(full == in))
    throw value_error("non-broadcastable operand with shape " + np_shape(in) +
                      " doesn't match the broadcast shape " + np_shape(full));
}

// check_reduction_shapes for a reduction call's out= and where=.
template <class Args>
void check_reduction_args(const Args& args, const shape_t& in, axis_mask m, const char* name) {
  shape_t out_shape, where_shape;
  bool writeable = true;
  if constexpr (Args::has_out) {
    out_shape = args.out().shape();
    writeable = args.out().flags().writeable;
  }
  if constexpr (Args::has_where) where_shape = operand_shape(args.where());
  check_reduction_shapes(name, in, m, args.keepdims, Args::has_out ? &out_shape : nullptr,
                         writeable, Args::has_where ? &where_shape : nullptr);
}

// numpy.mean, var and std (Python functions) first broadcast where= to the
// operand with numpy.broadcast_to, whose messages they give.
template <class Args>
void check_where_broadcast_to(const Args& args, const shape_t& in) {
  if constexpr (Args::has_where) {
    const shape_t w = operand_shape(args.where());
    (void)broadcast_to_layout(w, strides_t::filled(w.size(), 0), in);
  }
}

// The operand with its where= mask attached (its shape checked above).
template <class Args, class E>
auto with_where(const Args& args, const E& e) {
  if constexpr (Args::has_where) {
    auto node = make_ufunc(ops::with_mask{}, e, args.where());
    if (!(node.shape() == e.shape()))
      throw value_error("non-broadcastable operand with shape " + np_shape(e.shape()) +
                        " doesn't match the broadcast shape " + np_shape(node.shape()));
    return node;
  } else {
    return e;
  }
}

// A new result array, or the out= array after checking its shape (the
// reductions named after a ufunc have run check_reduction_args already).
template <class Out, class S, class Args>
auto result_array(const Args& args, const shape_t& in, axis_mask m) {
  const shape_t shape = reduced_shape(in, m, args.keepdims);
  if constexpr (Args::has_out) {
    const auto& o = args.out();
    using O = typename std::remove_cvref_t<decltype(o)>::value_type;
    static_assert(std::is_same_v<typename std::remove_cvref_t<decltype(o)>::space_type, S>,
                  "cupp: out= must live where the operand does (host or device)");
    static_assert(can_cast_same_kind_v<Out, O>,
                  "cupp: Cannot cast the reduction's result to the out= array's dtype with "
                  "casting rule 'same_kind'");
    if (!o.flags().writeable) throw value_error("output array is read-only");
    if (!(o.shape() == shape))
      throw value_error("output parameter for reduction operation has the wrong shape: expected " +
                        np_shape(shape) + ", got " + np_shape(o.shape()));
    return o;
  } else {
    return ndarray<Out, S>(shape);
  }
}

template <class E>
using space_of_t = eval_space_t<typename operand_t<E>::space>;

}  // namespace detail

// --- user reductions ---------------------------------------------------------

// cupp::reduction(map, reduce, post, identity): CuPy's ReductionKernel. The
// map is applied to the operands element-wise (as cupp::elementwise), the
// mapped values are combined with `reduce` starting from `identity` (whose
// type is the accumulator's), and `post` turns each accumulator into the
// result. All three are __host__ __device__ function objects.
//
//   auto l2 = cupp::reduction([] CUPP_HD (float x) { return x * x; },
//                             [] CUPP_HD (float a, float b) { return a + b; },
//                             [] CUPP_HD (float a) { return sqrtf(a); }, 0.0f);
//   auto norms = l2(x, cupp::kw::axis = 1);
template <class Map, class Reduce, class Post, class Acc>
class reduction_kernel {
 public:
  reduction_kernel(Map map, Reduce reduce, Post post, Acc identity)
      : map_(map), reduce_(reduce), post_(post), identity_(identity) {}

  struct op {
    using acc_type = Acc;
    static constexpr bool needs_index = false;
    Reduce reduce;
    Post post;
    Acc id;
    CUPP_HD Acc identity() const { return id; }
    template <class V>
    CUPP_HD Acc map(const V& v, index_t) const {
      return detail::convert<Acc>(v);
    }
    CUPP_HD Acc combine(const Acc& a, const Acc& b) const { return reduce(a, b); }
    template <class Out>
    CUPP_HD Out finish(const Acc& a, index_t) const {
      return detail::convert<Out>(post(a));
    }
  };

  // Reduces map(operands...) over kw::axis (all axes by default); options:
  // kw::axis, kw::keepdims, cupp::out(a).
  template <class... X>
  auto operator()(const X&... x) const {
    return call(std::tuple<const X&...>(x...), std::make_index_sequence<count_operands<X...>()>{});
  }

 private:
  template <class... X>
  static constexpr std::size_t count_operands() {
    std::size_t n = 0;
    bool done = false;
    ((done = done || detail::is_reduce_option_v<X>, n += done ? 0 : 1), ...);
    return n;
  }
  template <class Tuple, std::size_t... I>
  auto call(const Tuple& t, std::index_sequence<I...>) const {
    constexpr std::size_t n = sizeof...(I);
    const auto mapped = elementwise(map_)(std::get<I>(t)...);
    using E = std::remove_cvref_t<decltype(mapped)>;
    using Out = std::remove_cvref_t<decltype(post_(std::declval<Acc>()))>;
    using S = detail::eval_space_t<typename E::space>;
    return apply_options(mapped, t, std::make_index_sequence<std::tuple_size_v<Tuple> - n>{},
                         std::integral_constant<std::size_t, n>{}, std::type_identity<Out>{},
                         std::type_identity<S>{});
  }
  template <class E, class Tuple, std::size_t... J, std::size_t n, class Out, class S>
  auto apply_options(const E& e, const Tuple& t, std::index_sequence<J...>,
                     std::integral_constant<std::size_t, n>, std::type_identity<Out>,
                     std::type_identity<S>) const {
    const detail::reduce_args<std::remove_cvref_t<std::tuple_element_t<n + J, Tuple>>...> args(
        axis_arg{}, std::get<n + J>(t)...);
    const detail::axis_mask m = detail::reduced_axes(args.axis, static_cast<int>(e.shape().size()));
    auto out = detail::result_array<Out, S>(args, e.shape(), m);
    detail::reduce_into(op{reduce_, post_, identity_}, e, m, out);
    return out;
  }

  Map map_;
  Reduce reduce_;
  Post post_;
  Acc identity_;
};

template <class Map, class Reduce, class Post, class Acc>
reduction_kernel<Map, Reduce, Post, Acc> reduction(Map map, Reduce reduce, Post post,
                                                   Acc identity) {
  static_assert(is_dtype_v<Acc>, "cupp::reduction: the identity must be a cupp dtype value");
  return {map, reduce, post, identity};
}

}  // namespace cupp
