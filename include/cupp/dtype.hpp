// Element types: the C++ types cupp arrays hold, their NumPy descriptors, and
// NumPy 2's type promotion as a compile-time trait.
// cupp-layer: vocabulary
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

#include <cuda/std/complex>

#include <cupp/config.hpp>

namespace cupp {

// NumPy's scalar type names for the C++ types that stand for them.
using bool_ = bool;
using int8 = std::int8_t;
using int16 = std::int16_t;
using int32 = std::int32_t;
using int64 = std::int64_t;
using uint8 = std::uint8_t;
using uint16 = std::uint16_t;
using uint32 = std::uint32_t;
using uint64 = std::uint64_t;
using float16 = __half;
using bfloat16 = __nv_bfloat16;
using float32 = float;
using float64 = double;
using complex64 = ::cuda::std::complex<float>;
using complex128 = ::cuda::std::complex<double>;

// The dtypes, in NumPy's order of type numbers (bfloat16, which NumPy knows
// only through ml_dtypes, after the builtin ones would break that order; it
// sits with the floats).
enum class dtype_id : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  bfloat16,
  float32,
  float64,
  complex64,
  complex128,
};
inline constexpr int n_dtypes = 15;

// A run-time dtype descriptor: what numpy.dtype reports for the type.
struct dtype {
  dtype_id id;
  std::string_view name;  // numpy.dtype.name: "float32"
  char kind;              // numpy.dtype.kind: 'b', 'i', 'u', 'f', 'c'; 'V' for bfloat16
  char char_code;         // numpy.dtype.char: '?', 'b', 'h', 'i', 'l', ...
  int itemsize;           // bytes

  constexpr bool operator==(const dtype& other) const noexcept { return id == other.id; }

  // As Python prints it: dtype('float32').
  friend std::ostream& operator<<(std::ostream& os, const dtype& d) {
    return os << "dtype('" << d.name << "')";
  }

  // numpy.dtype.str: byte order, kind and size, as in a .npy header ("<f4",
  // "|b1"). bfloat16 reads "<V2", which is what NumPy writes for ml_dtypes'
  // bfloat16.
  std::string str() const {
    const bool one_byte = itemsize == 1;
    std::string s(1, one_byte ? '|' : '<');
    s += kind;
    s += std::to_string(itemsize);
    return s;
  }

  // Look-ups by name ("float32"), by NumPy's character code ('f') or by a
  // .npy descriptor ("<f4", "|u1", "float32"). Unknown strings give nullopt.
  static constexpr std::optional<dtype> from_name(std::string_view name) noexcept;
  static constexpr std::optional<dtype> from_char(char code) noexcept;
  static std::optional<dtype> from_descr(std::string_view descr) noexcept;
};

namespace detail {

// The complex types (cuda::std::complex<T>), and the 16-bit floats that
// compute in float32: traits every layer asks of an element type.
template <class T>
inline constexpr bool is_complex_type_v = false;
template <class T>
inline constexpr bool is_complex_type_v<::cuda::std::complex<T>> = true;

template <class T>
inline constexpr bool is_low_float_v =
    std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

inline constexpr std::array<dtype, n_dtypes> dtype_table{{
    {dtype_id::bool_, "bool", 'b', '?', 1},
    {dtype_id::int8, "int8", 'i', 'b', 1},
    {dtype_id::int16, "int16", 'i', 'h', 2},
    {dtype_id::int32, "int32", 'i', 'i', 4},
    {dtype_id::int64, "int64", 'i', 'l', 8},
    {dtype_id::uint8, "uint8", 'u', 'B', 1},
    {dtype_id::uint16, "uint16", 'u', 'H', 2},
    {dtype_id::uint32, "uint32", 'u', 'I', 4},
    {dtype_id::uint64, "uint64", 'u', 'L', 8},
    {dtype_id::float16, "float16", 'f', 'e', 2},
    {dtype_id::bfloat16, "bfloat16", 'V', 'E', 2},
    {dtype_id::float32, "float32", 'f', 'f', 4},
    {dtype_id::float64, "float64", 'f', 'd', 8},
    {dtype_id::complex64, "complex64", 'c', 'F', 8},
    {dtype_id::complex128, "complex128", 'c', 'D', 16},
}};

}  // namespace detail

constexpr dtype descriptor(dtype_id id) noexcept {
  return detail::dtype_table[static_cast<int>(id)];
}

constexpr std::optional<dtype> dtype::from_name(std::string_view name) noexcept {
  for (const dtype& d : detail::dtype_table)
    if (d.name == name) return d;
  return std::nullopt;
}

constexpr std::optional<dtype> dtype::from_char(char code) noexcept {
  if (code == 'q') return descriptor(dtype_id::int64);  // long long
  if (code == 'Q') return descriptor(dtype_id::uint64);
  for (const dtype& d : detail::dtype_table)
    if (d.char_code == code) return d;
  return std::nullopt;
}

inline std::optional<dtype> dtype::from_descr(std::string_view descr) noexcept {
  if (auto by_name = from_name(descr)) return by_name;
  if (descr.size() < 2) return std::nullopt;
  const char order = descr.front();
  // Only little-endian (or byte-order-free single bytes) data is readable
  // without a swap; big-endian descriptors are rejected by the caller.
  if (order != '<' && order != '|' && order != '=') return std::nullopt;
  const std::string_view rest = descr.substr(1);
  for (const dtype& d : detail::dtype_table) {
    std::string s = d.str();
    if (std::string_view(s).substr(1) == rest) return d;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------
// C++ type <-> dtype.

namespace detail {

template <class T>
struct dtype_of_type {};
template <>
struct dtype_of_type<bool> : std::integral_constant<dtype_id, dtype_id::bool_> {};
template <>
struct dtype_of_type<signed char> : std::integral_constant<dtype_id, dtype_id::int8> {};
template <>
struct dtype_of_type<short> : std::integral_constant<dtype_id, dtype_id::int16> {};
template <>
struct dtype_of_type<int> : std::integral_constant<dtype_id, dtype_id::int32> {};
template <>
struct dtype_of_type<long>
    : std::integral_constant<dtype_id, sizeof(long) == 8 ? dtype_id::int64 : dtype_id::int32> {};
template <>
struct dtype_of_type<long long> : std::integral_constant<dtype_id, dtype_id::int64> {};
template <>
struct dtype_of_type<unsigned char> : std::integral_constant<dtype_id, dtype_id::uint8> {};
template <>
struct dtype_of_type<unsigned short> : std::integral_constant<dtype_id, dtype_id::uint16> {};
template <>
struct dtype_of_type<unsigned int> : std::integral_constant<dtype_id, dtype_id::uint32> {};
template <>
struct dtype_of_type<unsigned long>
    : std::integral_constant<dtype_id, sizeof(long) == 8 ? dtype_id::uint64 : dtype_id::uint32> {};
template <>
struct dtype_of_type<unsigned long long> : std::integral_constant<dtype_id, dtype_id::uint64> {};
template <>
struct dtype_of_type<__half> : std::integral_constant<dtype_id, dtype_id::float16> {};
template <>
struct dtype_of_type<__nv_bfloat16> : std::integral_constant<dtype_id, dtype_id::bfloat16> {};
template <>
struct dtype_of_type<float> : std::integral_constant<dtype_id, dtype_id::float32> {};
template <>
struct dtype_of_type<double> : std::integral_constant<dtype_id, dtype_id::float64> {};
template <>
struct dtype_of_type<::cuda::std::complex<float>>
    : std::integral_constant<dtype_id, dtype_id::complex64> {};
template <>
struct dtype_of_type<::cuda::std::complex<double>>
    : std::integral_constant<dtype_id, dtype_id::complex128> {};

template <dtype_id Id>
struct type_of_dtype {};
// clang-format off
template <> struct type_of_dtype<dtype_id::bool_> { using type = bool; };
template <> struct type_of_dtype<dtype_id::int8> { using type = std::int8_t; };
template <> struct type_of_dtype<dtype_id::int16> { using type = std::int16_t; };
template <> struct type_of_dtype<dtype_id::int32> { using type = std::int32_t; };
template <> struct type_of_dtype<dtype_id::int64> { using type = std::int64_t; };
template <> struct type_of_dtype<dtype_id::uint8> { using type = std::uint8_t; };
template <> struct type_of_dtype<dtype_id::uint16> { using type = std::uint16_t; };
template <> struct type_of_dtype<dtype_id::uint32> { using type = std::uint32_t; };
template <> struct type_of_dtype<dtype_id::uint64> { using type = std::uint64_t; };
template <> struct type_of_dtype<dtype_id::float16> { using type = __half; };
template <> struct type_of_dtype<dtype_id::bfloat16> { using type = __nv_bfloat16; };
template <> struct type_of_dtype<dtype_id::float32> { using type = float; };
template <> struct type_of_dtype<dtype_id::float64> { using type = double; };
template <> struct type_of_dtype<dtype_id::complex64> { using type = ::cuda::std::complex<float>; };
template <> struct type_of_dtype<dtype_id::complex128> { using type = ::cuda::std::complex<double>; };
// clang-format on

template <class T, class = void>
struct is_dtype_impl : std::false_type {};
template <class T>
struct is_dtype_impl<T, std::void_t<decltype(dtype_of_type<T>::value)>> : std::true_type {};

}  // namespace detail

// True for the C++ types an ndarray can hold (cv-qualifiers not allowed).
template <class T>
inline constexpr bool is_dtype_v = detail::is_dtype_impl<T>::value;

template <class T>
concept Dtype = is_dtype_v<T>;

// The descriptor of a C++ element type: dtype_of<float>().name == "float32".
template <Dtype T>
constexpr dtype dtype_of() noexcept {
  return descriptor(detail::dtype_of_type<T>::value);
}
template <Dtype T>
inline constexpr dtype_id dtype_id_of = detail::dtype_of_type<T>::value;

// The C++ type cupp uses for a dtype: type_of_t<dtype_id::float16> is __half.
template <dtype_id Id>
using type_of_t = typename detail::type_of_dtype<Id>::type;

// Kind predicates, as numpy.issubdtype answers them for the abstract types.
template <class T>
inline constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <class T>
inline constexpr bool is_signed_integer_v = is_dtype_v<T>&& dtype_of<T>().kind == 'i';
template <class T>
inline constexpr bool is_unsigned_integer_v = is_dtype_v<T>&& dtype_of<T>().kind == 'u';
template <class T>
inline constexpr bool is_integer_v = is_signed_integer_v<T> || is_unsigned_integer_v<T>;
template <class T>
inline constexpr bool is_floating_v = is_dtype_v<T> && (dtype_of<T>().kind == 'f' ||
                                                        std::is_same_v<T, __nv_bfloat16>);
template <class T>
inline constexpr bool is_complex_v = is_dtype_v<T>&& dtype_of<T>().kind == 'c';
template <class T>
inline constexpr bool is_inexact_v = is_floating_v<T> || is_complex_v<T>;

// ---------------------------------------------------------------------------
// Promotion (numpy.result_type for two dtypes, NumPy 2).
//
// For NumPy's builtin types the result is the first type, in the order
// below, to which both operands cast safely; NumPy's table is exactly that
// lattice. bfloat16 follows ml_dtypes, which defines common types with bool,
// int8 and uint8 (bfloat16) and with float32, float64, complex64 and
// complex128 (those types) only: there is no common type with float16 or the
// wider integers, and NumPy raises DTypePromotionError for such pairs.

namespace detail {

constexpr int int_bits(dtype d) {
  return d.itemsize * 8;
}

// numpy.can_cast(from, to, casting="safe") for the builtin dtypes.
constexpr bool can_cast_safe(dtype_id from_id, dtype_id to_id) {
  const dtype from = descriptor(from_id), to = descriptor(to_id);
  if (from_id == to_id || from_id == dtype_id::bool_) return true;
  if (to_id == dtype_id::bool_ || from_id == dtype_id::bfloat16 || to_id == dtype_id::bfloat16)
    return false;
  // The float type whose significand holds every value of an integer kind.
  auto float_size_for_int = [](int bits, bool is_signed) {
    const int value_bits = is_signed ? bits - 1 : bits;
    return value_bits <= 8 ? 2 : value_bits <= 16 ? 4 : 8;
  };
  switch (from.kind) {
    case 'u':
      if (to.kind == 'u') return to.itemsize >= from.itemsize;
      if (to.kind == 'i') return to.itemsize > from.itemsize;
      if (to.kind == 'f') return to.itemsize >= float_size_for_int(int_bits(from), false);
      if (to.kind == 'c') return to.itemsize / 2 >= float_size_for_int(int_bits(from), false);
      return false;
    case 'i':
      if (to.kind == 'i') return to.itemsize >= from.itemsize;
      if (to.kind == 'f') return to.itemsize >= float_size_for_int(int_bits(from), true);
      if (to.kind == 'c') return to.itemsize / 2 >= float_size_for_int(int_bits(from), true);
      return false;
    case 'f':
      if (to.kind == 'f') return to.itemsize >= from.itemsize;
      if (to.kind == 'c') return to.itemsize / 2 >= from.itemsize;
      return false;
    case 'c':
      return to.kind == 'c' && to.itemsize >= from.itemsize;
  }
  return false;
}

inline constexpr std::array<dtype_id, 14> promotion_order{
    dtype_id::bool_,     dtype_id::uint8,     dtype_id::int8,    dtype_id::uint16,
    dtype_id::int16,     dtype_id::uint32,    dtype_id::int32,   dtype_id::uint64,
    dtype_id::int64,     dtype_id::float16,   dtype_id::float32, dtype_id::float64,
    dtype_id::complex64, dtype_id::complex128};

// The promoted dtype, or nullopt where NumPy has no common dtype.
constexpr std::optional<dtype_id> promote(dtype_id a, dtype_id b) {
  if (a == dtype_id::bfloat16 || b == dtype_id::bfloat16) {
    const dtype_id other = a == dtype_id::bfloat16 ? b : a;
    switch (other) {
      case dtype_id::bool_:
      case dtype_id::int8:
      case dtype_id::uint8:
      case dtype_id::bfloat16:
        return dtype_id::bfloat16;
      case dtype_id::float32:
      case dtype_id::float64:
      case dtype_id::complex64:
      case dtype_id::complex128:
        return other;
      default:
        return std::nullopt;
    }
  }
  for (dtype_id t : promotion_order)
    if (can_cast_safe(a, t) && can_cast_safe(b, t)) return t;
  return std::nullopt;
}

template <class A, class B>
struct result_type_impl {};
template <class A, class B>
requires(is_dtype_v<A>&& is_dtype_v<B>&& promote(dtype_id_of<A>, dtype_id_of<B>)
             .has_value()) struct result_type_impl<A, B> {
  using type = type_of_t<*promote(dtype_id_of<A>, dtype_id_of<B>)>;
};

}  // namespace detail

// numpy.result_type at run time, for dtypes known only then (file headers).
constexpr std::optional<dtype> result_type(dtype a, dtype b) {
  if (auto id = detail::promote(a.id, b.id)) return descriptor(*id);
  return std::nullopt;
}

// True when NumPy has a common dtype for A and B.
template <class A, class B>
concept Promotable = requires {
  typename detail::result_type_impl<A, B>::type;
};

namespace detail {
template <class A, class... Rest>
struct result_type_fold {
  using type = A;
};
template <class A, class B, class... Rest>
struct result_type_fold<A, B, Rest...> {
  static_assert(is_dtype_v<A> && is_dtype_v<B>,
                "cupp::result_type_t takes cupp dtypes (bool, intN_t, uintN_t, __half, "
                "__nv_bfloat16, float, double, ::cuda::std::complex<float/double>)");
  static_assert(Promotable<A, B>,
                "cupp::result_type_t: NumPy has no common dtype for these two types "
                "(bfloat16 promotes only with bool, int8, uint8, float32, float64 and the "
                "complex types); cast one operand with astype<T>() first");
  // A stand-in after the failure keeps the error to the message above.
  using pair = std::conditional_t<Promotable<A, B>, result_type_impl<A, B>, std::type_identity<A>>;
  using type = typename result_type_fold<typename pair::type, Rest...>::type;
};
}  // namespace detail

// numpy.result_type(A, B, ...) for dtypes: result_type_t<std::int8_t,
// std::uint8_t> is std::int16_t. Pairs with no common dtype fail to compile.
template <class A, class... Rest>
using result_type_t = typename detail::result_type_fold<A, Rest...>::type;

}  // namespace cupp
