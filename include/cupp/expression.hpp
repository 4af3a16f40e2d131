// Lazy element-wise expressions: `x * y + w` builds a tree of ufunc nodes
// over array, scalar and generator leaves, held by value; assigning it to an
// array (or calling eval()) runs one kernel that reads each input once and
// writes the output once.
//
// Every operand type (leaf or node) offers, on the host:
//   value_type      its dtype, or a weak scalar kind (weak_int ...)
//   space           device_space, host_space or any_space (scalars, generators)
//   slots           how many coordinates its leaves take
//   max_itemsize    the widest element its leaves load
//   shape()         its broadcast shape
//   collect(p, s)   appends the strides of its coordinates, broadcast to s
//   lower<To, N>(L) its evaluator (see detail/elementwise/kernel.hpp); To is
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

#include <cupp/detail/convert.hpp>
#include <cupp/detail/elementwise/kernel.hpp>
#include <cupp/detail/elementwise/plan.hpp>
#include <cupp/detail/elementwise/ufunc_types.hpp>
#include <cupp/ndarray.hpp>

namespace cupp {

// The space of operands that live nowhere in particular: scalars and
// generators, which adopt the space of the other operands.
struct any_space {};

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
};

// Lowering of the operands for one launch: slot strides after planning, and
// the position of this launch along the dimensions the host iterates over.
struct lower_ctx {
  std::span<const strides_t> strides;
  int kd = 1;                      // dimensions the kernel walks
  int nd = 1;                      // all planned dimensions
  const index_t* outer = nullptr;  // coordinates of dimensions kd .. nd-1
  int next = 1;                    // next slot to hand out (0: the output)

  int take() { return next++; }
  index_t base(int slot) const {
    index_t b = 0;
    for (int k = kd; k < nd; ++k) b += outer[k - kd] * strides[slot][k];
    return b;
  }
  void kernel_strides(int slot, index_t* st) const {
    for (int k = 0; k < kernel_dims; ++k) st[k] = k < kd ? strides[slot][k] : 0;
  }
};

}  // namespace detail

// An array, a lazy expression or a generator.
template <class E>
concept Expression =
    is_ndarray_v<std::remove_cvref_t<E>> || detail::expression_node<std::remove_cvref_t<E>>;

// A C++ scalar taking part in an expression: bool, integers, floating-point
// and complex numbers are weak (NEP 50); __half and __nv_bfloat16 values
// are strong 0-d operands of their dtype.
template <class S>
concept Scalar = std::is_arithmetic_v<std::remove_cvref_t<S>> ||
    detail::is_complex_type_v<std::remove_cvref_t<S>> ||
    detail::is_low_float_v<std::remove_cvref_t<S>> || requires(const std::remove_cvref_t<S>& s) {
  requires std::is_same_v<std::remove_cvref_t<S>,
                          std::complex<typename std::remove_cvref_t<S>::value_type>>;
};

template <class X>
concept Operand = Expression<X> || Scalar<X>;

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
    const int s = L.take();
    detail::array_eval<T, N> e;
    e.data = reinterpret_cast<const char*>(a.data()) + L.base(s);
    L.kernel_strides(s, e.st);
    return e;
  }
  template <class F>
  void for_each_array(F&& f) const {
    f(detail::array_info{reinterpret_cast<const char*>(a.data()), &a.shape(), &a.strides(),
                         a.itemsize(), a.device_id()});
  }
};

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

// A strong scalar operand: cupp::scalar<float>(2) behaves as numpy.float32(2).
template <class T>
requires is_dtype_v<T> scalar_leaf<T> scalar(const T& v) {
  return {v};
}

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
  G g;
  shape_t shape_;
  std::array<strides_t, K> st;  // per coordinate, in positions
  std::array<index_t, K> base{};

  const shape_t& shape() const { return shape_; }
  void collect(strides_t*& p, const shape_t& out) const {
    for (int k = 0; k < K; ++k) *p++ = detail::broadcast_strides(shape_, st[k], out);
  }
  template <class To, int N>
  detail::generator_eval<G, N> lower(detail::lower_ctx& L) const {
    detail::generator_eval<G, N> e;
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

template <class Op, class... A>
class ufunc_expr;

namespace detail {
template <class E>
auto evaluate(const E& e);
template <class T, class S, class E>
void assign(const ndarray<T, S>& out, const E& e);
}  // namespace detail

namespace detail {

// What an array member called on a lazy value returns (after its
// static_assert has failed): it accepts assignments, converts to anything
// and streams as nothing, so that `x(mask) = 0` or `float v = x.item();`
// report the static_assert and no second error.
struct not_an_array {
  template <class U>
  operator U() const {
    return U();
  }
  template <class OS>
  friend OS& operator<<(OS& os, const not_an_array&) {
    return os;
  }
  template <class V>
  const not_an_array& operator=(const V&) const {
    return *this;
  }
#define CUPP_NOT_AN_ARRAY_ASSIGN(OP)                \
  template <class V>                                \
  const not_an_array& operator OP(const V&) const { \
    return *this;                                   \
  }
  CUPP_NOT_AN_ARRAY_ASSIGN(+=)
  CUPP_NOT_AN_ARRAY_ASSIGN(-=)
  CUPP_NOT_AN_ARRAY_ASSIGN(*=)
  CUPP_NOT_AN_ARRAY_ASSIGN(/=)
  CUPP_NOT_AN_ARRAY_ASSIGN(%=)
  CUPP_NOT_AN_ARRAY_ASSIGN(&=)
  CUPP_NOT_AN_ARRAY_ASSIGN(|=)
  CUPP_NOT_AN_ARRAY_ASSIGN(^=)
#undef CUPP_NOT_AN_ARRAY_ASSIGN
};

// Anything operator() of an array takes.
template <class I>
concept any_array_index = basic_index<I> || integer_index_array<I> || boolean_mask_index<I> ||
    std::is_convertible_v<const I&, std::span<const cupp::index_item>>;

// The members of ndarray that lazy values (expressions, generators,
// integer-array and boolean-mask indexing) lack, declared for them so that
// a call reports what the value is and what to write: `auto x =
// cupp::arange(12); x(x > 5) = 0;` would otherwise say that x has no
// operator(). Each member's return type is a class template holding a
// failing static_assert, instantiated when the call is resolved: the
// message comes at the call, before any error its result would cause.
// (A requires-expression that asks for one of these members on a lazy value
// is therefore an error too.) The members are templates of a class that is
// not itself a template: a declaration once per translation unit, nothing
// per expression type. Members a lazy type has (reshape, T and transpose of
// generators, the assignments of gather_ref and masked_ref) hide these.
// operator() takes only index types.
#define CUPP_LAZY_MESSAGE(USE)                                                                 \
  "cupp: " USE                                                                                 \
  " needs an array, but x is a lazy expression or generator (what arange, zeros, "             \
  "x * 2, x(idx) and x(mask) return), not an array: it computes nothing until it is assigned " \
  "to one. Write cupp::ndarray<T> x = ... (cupp::host::ndarray<T> for host values) instead "   \
  "of auto x = ..., or call x.eval()"
#define CUPP_LAZY_USE(NAME, USE)                                  \
  template <class... X>                                           \
  struct lazy_##NAME {                                            \
    static_assert(dependent_false<X...>, CUPP_LAZY_MESSAGE(USE)); \
    using type = not_an_array;                                    \
  };
#define CUPP_LAZY_MEMBER(NAME) CUPP_LAZY_USE(NAME, "x." #NAME "()")
// clang-format off
#define CUPP_LAZY_MEMBERS(X)                                                     \
  X(data) X(strides) X(itemsize) X(nbytes) X(flags) X(memory) X(device)          \
  X(device_id) X(is_c_contiguous) X(is_f_contiguous) X(view) X(copy) X(item)     \
  X(at) X(to_vector) X(get) X(set) X(get_into) X(copy_into) X(setflags)          \
  X(nonzero) X(reshape) X(ravel) X(flatten) X(T) X(transpose) X(swapaxes)        \
  X(squeeze) X(diagonal)
#define CUPP_LAZY_INPLACE(X)                                                     \
  X(+=, iadd) X(-=, isub) X(*=, imul) X(/=, idiv) X(%=, imod) X(&=, iand)        \
  X(|=, ior) X(^=, ixor) X(<<=, ilshift) X(>>=, irshift)
// clang-format on
CUPP_LAZY_MEMBERS(CUPP_LAZY_MEMBER)
CUPP_LAZY_USE(index, "indexing x(...)")
#define CUPP_LAZY_INPLACE_USE(OP, NAME) CUPP_LAZY_USE(NAME, "x " #OP " y")
CUPP_LAZY_INPLACE(CUPP_LAZY_INPLACE_USE)
#undef CUPP_LAZY_INPLACE_USE

class lazy_array_members {
 public:
  template <class... I>
  requires(any_array_index<I>&&...) typename lazy_index<I...>::type operator()(const I&...) const {
    return {};
  }
#define CUPP_LAZY_DECL(NAME)                                 \
  template <class... X>                                      \
  typename lazy_##NAME<X...>::type NAME(const X&...) const { \
    return {};                                               \
  }
  CUPP_LAZY_MEMBERS(CUPP_LAZY_DECL)
#undef CUPP_LAZY_DECL
#define CUPP_LAZY_DECL(OP, NAME)                              \
  template <class V>                                          \
  typename lazy_##NAME<V>::type operator OP(const V&) const { \
    return {};                                                \
  }
  CUPP_LAZY_INPLACE(CUPP_LAZY_DECL)
#undef CUPP_LAZY_DECL
};

#undef CUPP_LAZY_INPLACE
#undef CUPP_LAZY_MEMBERS
#undef CUPP_LAZY_MEMBER
#undef CUPP_LAZY_USE
#undef CUPP_LAZY_MESSAGE

// lazy_array_members as a dependent base (`lazy_members_t<D>`), so that
// unqualified names inside the class templates deriving from it (a `T`
// template parameter, a call to a free `copy`) never resolve to its members.
template <class>
struct lazy_members_of {
  using type = lazy_array_members;
};
template <class D>
using lazy_members_t = typename lazy_members_of<D>::type;

}  // namespace detail

// Members every expression node offers (CRTP).
template <class D>
class expression_base : public detail::lazy_members_t<D> {
 public:
  using is_cupp_expression = void;

  int ndim() const { return self().shape().size(); }
  index_t size() const { return detail::size_of(self().shape()); }
  // The dtype of the result.
  static constexpr cupp::dtype dtype() { return dtype_of<typename D::value_type>(); }
  // Runs the expression: one kernel, a new array (NumPy's K order).
  auto eval() const { return detail::evaluate(self()); }
  // A lazy cast (ndarray.astype) that fuses with the expression.
  template <class U>
  auto astype() const;

  // Reductions and scans as methods (x.sum(axis, ...)), defined in
  // <cupp/reductions.hpp>.
  CUPP_REDUCTION_METHODS

 private:
  const D& self() const { return static_cast<const D&>(*this); }
};

// A ufunc applied to operands: the node of an expression tree.
template <class Op, class... A>
class ufunc_expr : public expression_base<ufunc_expr<Op, A...>> {
 public:
  using signature = typename Op::template signature<typename A::value_type...>;
  using value_type = typename signature::out;
  using space = typename detail::space_of_all<typename A::space...>::type;
  static constexpr int slots = (0 + ... + A::slots);
  static constexpr int max_itemsize =
      std::max({static_cast<int>(sizeof(value_type)), A::max_itemsize...});
  static_assert(is_dtype_v<value_type> || detail::is_pair_value_v<value_type>,
                "cupp: a ufunc loop must produce a cupp dtype");
  static_assert(((is_dtype_v<typename A::value_type> || is_weak_v<typename A::value_type>)&&...),
                "cupp: a two-output ufunc (divmod, frexp, modf) cannot be the operand of another "
                "operation: evaluate it first");
  static_assert(slots < detail::max_slots, "cupp: an expression may have at most 63 leaves");

  explicit ufunc_expr(Op op, A... a) : op_(op), args_(std::move(a)...) {
    compute_shape(std::make_index_sequence<sizeof...(A)>{});
    check_weak(std::make_index_sequence<sizeof...(A)>{});
  }

  const shape_t& shape() const { return shape_; }
  const Op& op() const { return op_; }
  const std::tuple<A...>& args() const { return args_; }

  void collect(strides_t*& p, const shape_t& out) const {
    std::apply([&](const auto&... a) { (a.collect(p, out), ...); }, args_);
  }
  template <class To, int N>
  auto lower(detail::lower_ctx& L) const {
    return lower_impl<N>(L, std::make_index_sequence<sizeof...(A)>{});
  }
  template <class F>
  void for_each_array(F&& f) const {
    std::apply([&](const auto&... a) { (a.for_each_array(f), ...); }, args_);
  }

 private:
  template <std::size_t... I>
  void compute_shape(std::index_sequence<I...>) {
    if constexpr (sizeof...(A) == 1) {
      shape_ = std::get<0>(args_).shape();
    } else {
      const shape_t shapes[] = {std::get<I>(args_).shape()...};
      shape_ = detail::broadcast_shapes(shapes);
    }
  }
  template <std::size_t... I>
  void check_weak(std::index_sequence<I...>) const {
    (check_one<I>(), ...);
  }
  template <std::size_t I>
  void check_one() const {
    using Arg = std::tuple_element_t<I, std::tuple<A...>>;
    if constexpr (requires { &Arg::template check_fits<int>; })
      std::get<I>(args_).template check_fits<typename signature::template in<I>>();
  }
  template <int N, std::size_t... I>
  auto lower_impl(detail::lower_ctx& L, std::index_sequence<I...>) const {
    using list = detail::eval_list<
        decltype(std::get<I>(args_).template lower<typename signature::template in<I>, N>(L))...>;
    return detail::node_eval<
        Op, signature,
        decltype(std::get<I>(args_).template lower<typename signature::template in<I>, N>(L))...>{
        op_, make_list<list, N, 0>(L)};
  }
  template <class List, int N, std::size_t I>
  List make_list(detail::lower_ctx& L) const {
    if constexpr (I == sizeof...(A)) {
      return List{};
    } else {
      using Tail = decltype(std::declval<List>().tail);
      auto head = std::get<I>(args_).template lower<typename signature::template in<I>, N>(L);
      return List{head, make_list<Tail, N, I + 1>(L)};
    }
  }

  Op op_;
  std::tuple<A...> args_;
  shape_t shape_;
};

// Builds the node of `Op` over any operands (arrays, expressions, scalars).
template <class Op, class... X>
auto make_ufunc(Op op, const X&... x) {
  return ufunc_expr<Op, operand_t<X>...>(op, as_operand(x)...);
}

namespace ops {
// ndarray.astype: NumPy's unsafe cast (see detail/convert.hpp).
template <class U>
struct cast {
  static constexpr const char* name = "astype";
  template <class T>
  struct signature : loop<U, T> {
    static_assert(is_dtype_v<T>, "cupp::astype: cast an array or an expression, not a scalar");
  };
  template <class T>
  CUPP_HD U operator()(T v) const {
    return detail::convert<U>(v);
  }
};
}  // namespace ops

template <class D>
template <class U>
auto expression_base<D>::astype() const {
  static_assert(is_dtype_v<U>, "cupp: astype<T>() takes a cupp dtype");
  return make_ufunc(ops::cast<U>{}, self());
}

// A lazy cast of any expression (ndarray.astype(U, copy=False) that fuses).
template <class U, Operand E>
auto astype(const E& e) {
  return make_ufunc(ops::cast<U>{}, e);
}

// numpy.can_cast(From, To, casting='same_kind'): what out= and in-place
// operators accept.
template <class From, class To>
inline constexpr bool can_cast_same_kind_v = [] {
  auto rank = [](dtype d) {
    switch (d.kind) {
      case 'b':
        return 0;
      case 'u':
        return 1;
      case 'i':
        return 2;
      case 'f':
        return 3;
      default:
        return 4;
    }
  };
  return detail::can_cast_safe(dtype_id_of<From>, dtype_id_of<To>) ||
         rank(dtype_of<To>()) >= rank(dtype_of<From>());
}();

namespace detail {
// Weak scalars take the destination's type; other values must cast
// 'same_kind'.
template <class From, class To>
constexpr bool assignable() {
  if constexpr (is_weak_v<From>)
    return true;
  else
    return can_cast_same_kind_v<From, To>;
}
}  // namespace detail

namespace detail {

// The permutation NumPy's K order gives the result: the axes of the first
// operand that spans the whole output (no broadcast axis), from slowest to
// fastest; C order when there is none.
inline strides_t k_order_strides(const shape_t& shape, std::span<const strides_t> operand_strides,
                                 index_t itemsize) {
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
}

inline void check_current_device(int array_device) {
  const int current = cuda::runtime::getDevice();
  if (array_device != current)
    throw value_error("Array device must be same as the current device: array device = " +
                      std::to_string(array_device) + " while current = " + std::to_string(current));
}

// What a launch needs that does not depend on the expression's type:
// planning, the grid, the stream. Kept out of the templates below so that
// each expression compiles only its own lowering.
struct launch_setup {
  elementwise_plan p;
  int kd = 1;
  index_t n_outer = 1;
  grid_params g;
  cudaStream_t stream = nullptr;
};

inline void setup_launch(launch_setup& ls, const shape_t& shape, std::span<strides_t> st, int N,
                         int device) {
  ls.p = plan_elementwise(shape, st);
  if (ls.p.size == 0) return;
  ls.kd = std::min(ls.p.nd, kernel_dims);
  for (int k = ls.kd; k < ls.p.nd; ++k) ls.n_outer *= ls.p.shape[k];
  ls.g = make_grid(ls.p, ls.kd, N);
  if (device >= 0) {
    check_current_device(device);
    ls.stream = cuda::detail::current_stream_impl(device)->handle;
  }
}

// Steps to the next position along the dimensions the host iterates over.
inline void next_outer(const launch_setup& ls, index_t* outer) {
  for (int k = ls.kd; k < ls.p.nd; ++k) {
    if (++outer[k - ls.kd] < ls.p.shape[k]) break;
    outer[k - ls.kd] = 0;
  }
}

template <class T, int N>
array_out<T, N> make_writer(const T* data, const lower_ctx& L, int slot) {
  array_out<T, N> w;
  w.data = const_cast<char*>(reinterpret_cast<const char*>(data)) + L.base(slot);
  L.kernel_strides(slot, w.st);
  return w;
}

// Runs `e` into the outputs `outs` (one array, or two for two-output
// ufuncs), whose shape the expression broadcasts to; the strides of the
// expression's slots are already collected in st[outputs ..].
template <class S, class E, class... T>
void run_elementwise(const std::tuple<const ndarray<T, S>&...>& outs, const E& e,
                     std::span<strides_t> st) {
  constexpr int n_out = sizeof...(T);
  constexpr int widest = std::max({E::max_itemsize, static_cast<int>(sizeof(T))...});
  constexpr bool on_device = std::is_same_v<S, device_space>;
  constexpr int N = on_device ? device_chunk(widest) : host_chunk(widest);
  const auto& out0 = std::get<0>(outs);
  const shape_t& shape = out0.shape();
  std::apply(
      [&](const auto&... o) {
        int i = 0;
        ((st[i++] = broadcast_strides(o.shape(), o.strides(), shape)), ...);
      },
      outs);
  launch_setup ls;
  setup_launch(ls, shape, st, N, on_device ? out0.device_id() : -1);
  if (ls.p.size == 0) return;
  if constexpr (on_device) {
    if constexpr (n_out == 2) check_current_device(std::get<1>(outs).device_id());
    e.for_each_array([&](const array_info& a) { check_current_device(a.device); });
  }
  index_t outer[max_ndim] = {};
  for (index_t o = 0; o < ls.n_outer; ++o, next_outer(ls, outer)) {
    lower_ctx L{st, ls.kd, ls.p.nd, outer, n_out};
    const auto ev = e.template lower<typename E::value_type, N>(L);
    const auto w = [&] {
      if constexpr (n_out == 1) {
        return make_writer<T..., N>(out0.data(), L, 0);
      } else {
        using A = std::tuple_element_t<0, std::tuple<T...>>;
        using B = std::tuple_element_t<1, std::tuple<T...>>;
        return pair_out<A, B, N>{make_writer<A, N>(out0.data(), L, 0),
                                 make_writer<B, N>(std::get<1>(outs).data(), L, 1)};
      }
    }();
    if constexpr (on_device) {
#if defined(__CUDACC__)
      launch_elementwise<N>(ev, w, ls.g, out0.device_id(), ls.stream);
#else
      CUPP_NEEDS_NVCC(E);
#endif
    } else {
      host_elementwise<N>(ev, w, ls.g);
    }
  }
}

// Byte range an array touches.
inline void byte_range(const array_info& a, const char*& lo, const char*& hi) {
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
}

// True when writing `out` element by element could change what `e` reads
// later: an operand shares memory with the output in another layout.
template <class T, class S, class E>
bool needs_temporary(const ndarray<T, S>& out, const E& e) {
  const array_info o{reinterpret_cast<const char*>(out.data()), &out.shape(), &out.strides(),
                     out.itemsize(), out.device_id()};
  const char *olo, *ohi;
  byte_range(o, olo, ohi);
  bool overlap = false;
  e.for_each_array([&](const array_info& a) {
    const char *lo, *hi;
    byte_range(a, lo, hi);
    if (lo >= ohi || olo >= hi || lo == hi || olo == ohi) return;
    const bool same_view = a.data == o.data && a.itemsize == o.itemsize &&
                           broadcast_strides(*a.shape, *a.strides, out.shape()) ==
                               broadcast_strides(out.shape(), out.strides(), out.shape()) &&
                           broadcasts_to(*a.shape, out.shape()) && *a.shape == out.shape();
    if (!same_view) overlap = true;
  });
  return overlap;
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
  const strides_t out_strides =
      k_order_strides(shape, std::span<const strides_t>(st.data() + 1, E::slots), sizeof(T));
  ndarray<T, S> out = [&] {
    if constexpr (std::is_same_v<S, device_space>) {
      ndarray<T, S> tmp(shape);
      if (!(out_strides == tmp.strides()))
        tmp = ndarray<T, S>(tmp.data(), shape, out_strides, tmp.memory(), tmp.device_id(), true);
      return tmp;
    } else {
      ndarray<T, S> tmp(shape);
      if (!(out_strides == tmp.strides()))
        tmp = ndarray<T, S>(tmp.data(), shape, out_strides, tmp.memory(), -1, true);
      return tmp;
    }
  }();
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
  const strides_t sa =
      k_order_strides(shape, std::span<const strides_t>(st.data() + 2, E::slots), sizeof(A));
  const strides_t sb =
      k_order_strides(shape, std::span<const strides_t>(st.data() + 2, E::slots), sizeof(B));
  auto make = [&](auto tag, const strides_t& s) {
    using U = typename decltype(tag)::type;
    ndarray<U, S> tmp(shape);
    if (!(s == tmp.strides()))
      tmp = ndarray<U, S>(tmp.data(), shape, s, tmp.memory(), tmp.device_id(), true);
    return tmp;
  };
  const ndarray<A, S> a = make(std::type_identity<A>{}, sa);
  const ndarray<B, S> b = make(std::type_identity<B>{}, sb);
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

// `a && b`, `a || b` and `!a` on arrays and expressions do not compile, with
// a message that names the element-wise forms: C++ cannot apply && element
// by element and keep its short-circuit, and Python's `and`, `or` and `not`
// raise for arrays of more than one element. (The static_assert sits in
// the result type, so that it is reported at the use, first.)
namespace detail {
template <class... X>
struct no_logical_and {
  static_assert(dependent_false<X...>,
                "cupp: && is not an element-wise operator of arrays and expressions; write "
                "cupp::logical_and(a, b), or a & b on bool arrays (parenthesised: (x > 0) & (x < "
                "5))");
  using type = bool;
};
template <class... X>
struct no_logical_or {
  static_assert(dependent_false<X...>,
                "cupp: || is not an element-wise operator of arrays and expressions; write "
                "cupp::logical_or(a, b), or a | b on bool arrays (parenthesised: (x < 0) | (x > "
                "5))");
  using type = bool;
};
template <class... X>
struct no_logical_not {
  static_assert(dependent_false<X...>,
                "cupp: ! is not an element-wise operator of arrays and expressions; write "
                "cupp::logical_not(a), or ~a on a bool array");
  using type = bool;
};
}  // namespace detail

template <class A, class B>
requires(Expression<A> || Expression<B>) typename detail::no_logical_and<A, B>::type operator&&(
    const A&, const B&) {
  return false;
}
template <class A, class B>
requires(Expression<A> || Expression<B>) typename detail::no_logical_or<A, B>::type operator||(
    const A&, const B&) {
  return false;
}
template <Expression A>
typename detail::no_logical_not<A>::type operator!(const A&) {
  return false;
}

// numpy.copyto(dst, src, casting='same_kind'): writes an expression, an
// array or a scalar into dst in one kernel.
template <class T, class S, Operand E>
void copyto(const ndarray<T, S>& dst, const E& src) {
  const auto e = as_operand(src);
  using V = typename std::remove_cvref_t<decltype(e)>::value_type;
  static_assert(detail::assignable<V, T>(),
                "cupp::copyto: Cannot cast the source's dtype to the destination's with casting "
                "rule 'same_kind'; convert it with .astype<T>()");
  if (!dst.flags().writeable) throw value_error("assignment destination is read-only");
  if (!detail::broadcasts_to(e.shape(), dst.shape()))
    throw value_error("could not broadcast input array from shape " + detail::np_shape(e.shape()) +
                      " into shape " + detail::np_shape(dst.shape()));
  if constexpr (is_weak_v<V>) {
    e.template check_fits<T>();
    detail::assign(dst, make_ufunc(ops::cast<T>{}, scalar_leaf<T>{e.template as<T>()}));
  } else
    detail::assign(dst, e);
}

}  // namespace cupp

namespace cupp::detail {
template <class U, class T, class S>
ndarray<U, S> astype_copy(const ndarray<T, S>& a) {
  return evaluate_as<U, S>(make_ufunc(ops::cast<U>{}, a));
}
}  // namespace cupp::detail
