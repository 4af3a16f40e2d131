// What a reduction call asked for (axis=, keepdims=, where=, initial=,
// out=, dtype=), parsed once, and NumPy's checks of those arguments against
// the operand, with its messages; the result array (new or out=).
#pragma once

#include <string>
#include <tuple>
#include <type_traits>

#include <cupp/detail/expression/launch.hpp>
#include <cupp/detail/reduce/plan.hpp>
#include <cupp/detail/reduce/reducers.hpp>
#include <cupp/reduction_options.hpp>

namespace cupp {

namespace detail {

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

}  // namespace cupp
