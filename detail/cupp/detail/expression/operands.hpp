// The operands of lazy expressions: where they live (device, host or
// anywhere: any_space, and the concepts Expression, Scalar and Operand are
// vocabulary in <cupp/expression_fwd.hpp>), the leaves
// (arrays, weak and strong scalars, generators) and operand_t, the leaf or
// node each C++ value becomes inside an expression.
//
// Every operand type (leaf or node) offers, on the host:
//   value_type      its dtype, or a weak scalar kind (weak_int ...)
//   space           device_space, host_space or any_space (scalars, generators)
//   slots           how many coordinates its leaves take
//   max_itemsize    the widest element its leaves load
//   shape()         its broadcast shape
//   collect(p, s)   appends the strides of its coordinates, broadcast to s
//   lower<To, N>(L) its evaluator (see detail/elementwise/evaluators.hpp); To is
//                   the type the consuming loop wants (used by weak scalars)
//   for_each_array(f)  visits the arrays it reads
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
#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/evaluators.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/expression_fwd.hpp>
#include <cupp/shape.hpp>
#include <cupp/ufunc_types.hpp>

namespace cupp {

namespace detail {

template <class A, class B>
struct join_space {
  static_assert(std::is_same_v<A, B>,
                "cupp: an expression mixes host and device arrays; move one side with "
                "cupp::asarray (host to device) or cupp::asnumpy (device to host)");
  using type = A;
};
template <class B>
struct join_space<any_space, B> {
  using type = B;
};
template <class A>
struct join_space<A, any_space> {
  using type = A;
};
template <>
struct join_space<any_space, any_space> {
  using type = any_space;
};

template <class... S>
struct space_of_all {
  using type = any_space;
};
template <class S, class... Rest>
struct space_of_all<S, Rest...> {
  using type = typename join_space<S, typename space_of_all<Rest...>::type>::type;
};

// Where an expression with no arrays is evaluated: on the device, as
// cupp's creation functions are (CuPy's).
template <class S>
using eval_space_t = std::conditional_t<std::is_same_v<S, any_space>, device_space, S>;

// What the arrays of an expression look like, for overlap and device checks.
struct array_info {
  const char* data;
  const shape_t* shape;
  const strides_t* strides;
  index_t itemsize;
  int device;
  // Read at the output's own positions (false for a gather such as roll,
  // which reads other elements: writing its source in place needs a copy
  // even when the views are the same).
  bool elementwise = true;
};

// Lowering of the operands for one launch: slot strides after planning, and
// the position of this launch along the dimensions the host iterates over.
struct lower_ctx {
  std::span<const strides_t> strides;
  int kd = 1;                      // dimensions the kernel walks
  int nd = 1;                      // all planned dimensions
  const index_t* outer = nullptr;  // coordinates of dimensions kd .. nd-1
  int next = 1;                    // next slot to hand out (0: the output)
  // Where the lowered expression runs: a device's ordinal, -1 for the host,
  // -2 where the caller does not say. A generator that reads cached tables
  // (a random draw's inverse cdf) binds them for that memory, and computes
  // the same values without them where it is -2.
  int device = -2;

  int take() { return next++; }
  index_t base(int slot) const {
    index_t b = 0;
    for (int k = kd; k < nd; ++k) b += outer[k - kd] * strides[slot][k];
    return b;
  }
  void kernel_strides(int slot, index_t* st) const {
    for (int k = 0; k < kernel_dims; ++k) st[k] = k < kd ? strides[slot][k] : 0;
  }
  // Both for a slot: its kernel strides into st, its base returned. Not
  // inlined: one copy serves every leaf of every expression.
  [[gnu::noinline]] index_t place(int slot, index_t* st) const {
    kernel_strides(slot, st);
    return base(slot);
  }
};

}  // namespace detail

// ---------------------------------------------------------------------------
// Leaves

// An array read by an expression (held by value: the expression keeps the
// memory alive).
template <class T, class S>
struct array_leaf {
  using is_cupp_expression = void;
  using value_type = T;
  using space = S;
  static constexpr int slots = 1;
  static constexpr int max_itemsize = sizeof(T);
  ndarray<T, S> a;

  const shape_t& shape() const { return a.shape(); }
  void collect(strides_t*& p, const shape_t& out) const {
    *p++ = detail::broadcast_strides(a.shape(), a.strides(), out);
  }
  template <class To, int N>
  detail::array_eval<T, N> lower(detail::lower_ctx& L) const {
    detail::array_eval<T, N> e;
    e.data = reinterpret_cast<const char*>(a.data()) + L.place(L.take(), e.st);
    return e;
  }
  template <class F>
  void for_each_array(F&& f) const {
    f(detail::array_info{reinterpret_cast<const char*>(a.data()), &a.shape(), &a.strides(),
                         a.itemsize(), a.device_id(), true});
  }
};

template <class X>
inline constexpr bool is_array_leaf_v = false;
template <class T, class S>
inline constexpr bool is_array_leaf_v<array_leaf<T, S>> = true;

// A weak scalar: its type is the one the consuming ufunc loop resolves to.
template <class Kind>
struct weak_leaf {
  using is_cupp_expression = void;
  using value_type = Kind;
  using space = any_space;
  static constexpr int slots = 0;
  static constexpr int max_itemsize = 0;
  using storage = std::conditional_t<
      std::is_same_v<Kind, weak_bool>, bool,
      std::conditional_t<std::is_same_v<Kind, weak_int>, std::int64_t,
                         std::conditional_t<std::is_same_v<Kind, weak_float>, double, complex128>>>;
  storage v{};
  bool big_unsigned = false;  // an integer above INT64_MAX, kept as its uint64 bits

  static inline const shape_t scalar_shape{};
  const shape_t& shape() const { return scalar_shape; }
  void collect(strides_t*&, const shape_t&) const {}
  template <class To, int N>
  detail::const_eval<To> lower(detail::lower_ctx&) const {
    return {as<To>()};
  }
  // The value in the type the operation resolved to.
  template <class To>
  To as() const {
    if constexpr (std::is_same_v<Kind, weak_int>) {
      if (big_unsigned) return detail::convert<To>(static_cast<std::uint64_t>(v));
    }
    return detail::convert<To>(v);
  }
  template <class F>
  void for_each_array(F&&) const {}

  // NumPy 2 raises OverflowError when a Python int does not fit the integer
  // type the operation resolves to.
  template <class To>
  void check_fits() const {
    if constexpr (std::is_same_v<Kind, weak_int> && is_integer_v<To>) {
      using L = std::numeric_limits<To>;
      bool ok;
      if (big_unsigned)
        ok = std::is_same_v<To, std::uint64_t>;
      else if constexpr (std::is_signed_v<To>)
        ok = v >= static_cast<std::int64_t>(L::min()) && v <= static_cast<std::int64_t>(L::max());
      else
        ok = v >= 0 && static_cast<std::uint64_t>(v) <= static_cast<std::uint64_t>(L::max());
      if (!ok)
        throw overflow_error(
            "Python integer " +
            (big_unsigned ? std::to_string(static_cast<std::uint64_t>(v)) : std::to_string(v)) +
            " out of bounds for " + std::string(dtype_of<To>().name));
    }
  }
};

// A strong scalar of dtype T (a 0-d operand: numpy.float16(x) and friends).
template <class T>
struct scalar_leaf {
  using is_cupp_expression = void;
  using value_type = T;
  using space = any_space;
  static constexpr int slots = 0;
  static constexpr int max_itemsize = 0;
  T v;

  static inline const shape_t scalar_shape{};
  const shape_t& shape() const { return scalar_shape; }
  void collect(strides_t*&, const shape_t&) const {}
  template <class To, int N>
  detail::const_eval<T> lower(detail::lower_ctx&) const {
    return {v};
  }
  template <class F>
  void for_each_array(F&&) const {}
};

// A generator leaf: values computed from K linear positions, each an affine
// function of the element's coordinates. Reshaping and transposing it only
// changes those functions (detail/generators/view.hpp).
template <class G, class S = any_space>
struct generator_leaf {
  using is_cupp_expression = void;
  using value_type = typename G::value_type;
  using space = S;
  static constexpr int K = G::coords;
  static constexpr int slots = K;
  static constexpr int max_itemsize = sizeof(value_type);
  static constexpr int chunk_scale = detail::chunk_scale_of<G>();
  G g;
  shape_t shape_;
  std::array<strides_t, K> st;  // per coordinate, in positions
  std::array<index_t, K> base{};

  const shape_t& shape() const { return shape_; }
  void collect(strides_t*& p, const shape_t& out) const {
    for (int k = 0; k < K; ++k) *p++ = detail::broadcast_strides(shape_, st[k], out);
  }
  template <class To, int N>
  detail::generator_eval_for<G, N> lower(detail::lower_ctx& L) const {
    detail::generator_eval_for<G, N> e;
    if constexpr (requires { g.bind(L.device); })
      e.g = g.bind(L.device);
    else
      e.g = g;
    for (int k = 0; k < K; ++k) {
      const int s = L.take();
      e.base[k] = base[k] + L.base(s);
      L.kernel_strides(s, e.st[k]);
    }
    return e;
  }
  template <class F>
  void for_each_array(F&&) const {}
};

namespace detail {

template <class X>
struct operand_of;
template <class T, class S>
struct operand_of<ndarray<T, S>> {
  using type = array_leaf<T, S>;
  static type make(const ndarray<T, S>& a) { return {a}; }
};
template <class X>
requires expression_node<X>
struct operand_of<X> {
  using type = X;
  static const X& make(const X& x) { return x; }
};
template <class X>
requires(std::is_arithmetic_v<X> || is_complex_type_v<X> || is_low_float_v<X> || requires {
  requires std::is_same_v<X, std::complex<typename X::value_type>>;
}) struct operand_of<X> {
  static constexpr bool is_complex = is_complex_type_v<X> || requires { typename X::value_type; };
  using kind = std::conditional_t<std::is_same_v<X, bool>, weak_bool,
                                  std::conditional_t<std::is_integral_v<X>, weak_int,
                                                     std::conditional_t<std::is_floating_point_v<X>,
                                                                        weak_float, weak_complex>>>;
  using type = std::conditional_t<is_low_float_v<X>, scalar_leaf<X>, weak_leaf<kind>>;
  static type make(const X& x) {
    if constexpr (is_low_float_v<X>) {
      return {x};
    } else if constexpr (std::is_same_v<kind, weak_complex>) {
      return {complex128(static_cast<double>(x.real()), static_cast<double>(x.imag())), false};
    } else if constexpr (std::is_integral_v<X> && !std::is_same_v<X, bool> &&
                         std::is_unsigned_v<X> && sizeof(X) == 8) {
      return {static_cast<std::int64_t>(x), x > static_cast<X>(INT64_MAX)};
    } else {
      return {static_cast<typename type::storage>(x), false};
    }
  }
};

}  // namespace detail

// The leaf or node an operand becomes inside an expression.
template <class X>
using operand_t = typename detail::operand_of<std::remove_cvref_t<X>>::type;

template <class X>
decltype(auto) as_operand(const X& x) {
  return detail::operand_of<std::remove_cvref_t<X>>::make(x);
}

}  // namespace cupp
