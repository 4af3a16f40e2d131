// What lazy values (expressions, generators, x(idx), x(mask)) answer when
// an array member is called on them: a compile error that names the value
// and what to write instead.
#pragma once

#include <span>
#include <type_traits>

#include <cupp/array_fwd.hpp>
#include <cupp/detail/views/array_views.hpp>
#include <cupp/index_types.hpp>

namespace cupp {

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

}  // namespace cupp
