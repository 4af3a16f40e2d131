// Basic indexing: the vocabulary of NumPy's `x[1:5:2, np.newaxis, ..., -1]`
// in C++, written `x(slice(1, 5, 2), newaxis, ellipsis, -1)`.
//
//   integer        one position along an axis (negative counts from the end);
//                  the axis disappears
//   slice(a, b, s) NumPy's a:b:s; `_` leaves a bound out (slice(_, _, -1) is
//                  ::-1), slice(b) is :b as Python's slice(b) is
//   _              on its own, a whole axis (NumPy's `:`)
//   newaxis        a new axis of extent 1
//   ellipsis       as many whole axes as the other indices leave (`...`)
//
// Every basic index gives a view (ndarray::operator(), defined with the
// array); this header only describes indices and has no CUDA in it.
// cupp::index_item holds any of them, for indices chosen at run time.
// cupp-layer: vocabulary
#pragma once

#include <concepts>
#include <type_traits>

#include <cupp/config.hpp>

namespace cupp {

// A bound left out of a slice (Python's empty `a[:5]` start), or on its own
// a whole axis.
struct omitted_t {
  constexpr explicit omitted_t(int) {}
};
inline constexpr omitted_t _{0};

// numpy.newaxis: inserts an axis of extent 1.
struct newaxis_t {
  constexpr explicit newaxis_t(int) {}
};
inline constexpr newaxis_t newaxis{0};

// Python's `...`: whole axes for every axis no other index names.
struct ellipsis_t {
  constexpr explicit ellipsis_t(int) {}
};
inline constexpr ellipsis_t ellipsis{0};

// Python's slice(start, stop, step). Bounds are clamped to the axis as
// Python clamps them, negative bounds count from the end, and an omitted
// bound means "from the first (last, for a negative step) element" or "to
// the end".
class slice {
 public:
  // One bound: an integer, or `_`.
  struct bound {
    bool given = false;
    index_t value = 0;
    constexpr bound(omitted_t) {}
    template <std::integral I>
    requires(!std::is_same_v<I, bool>) constexpr bound(I v)
        : given(true), value(static_cast<index_t>(v)) {}
  };

  // `:`, the whole axis.
  constexpr slice() = default;
  // slice(stop): `:stop`, as Python's one-argument slice.
  constexpr explicit slice(bound stop) : stop_(stop) {}
  // slice(start, stop, step): `start:stop:step`.
  constexpr slice(bound start, bound stop, bound step = _)
      : start_(start), stop_(stop), step_(step) {}

  constexpr const bound& start() const { return start_; }
  constexpr const bound& stop() const { return stop_; }
  constexpr const bound& step() const { return step_; }

 private:
  bound start_{_}, stop_{_}, step_{_};
};

namespace detail {

// One basic index, whatever its C++ type: what the non-template layout
// code in detail/views/layout.hpp works on.
struct index_item {
  enum class kind : char { integer, range, new_axis, rest };
  kind k = kind::range;
  index_t i = 0;
  cupp::slice s{};
};

// What operator() accepts. Booleans are NumPy's mask indices (`x[True]`),
// which are not basic indices: they are rejected rather than read as 0 or 1.
template <class X>
concept basic_index =
    (std::integral<X> && !std::is_same_v<X, bool>) || std::is_same_v<X, cupp::slice> ||
    std::is_same_v<X, omitted_t> || std::is_same_v<X, newaxis_t> || std::is_same_v<X, ellipsis_t>;

template <class X>
constexpr index_item to_index_item(const X& x) {
  using K = index_item::kind;
  if constexpr (std::is_same_v<X, cupp::slice>)
    return {K::range, 0, x};
  else if constexpr (std::is_same_v<X, omitted_t>)
    return {K::range, 0, {}};
  else if constexpr (std::is_same_v<X, newaxis_t>)
    return {K::new_axis, 0, {}};
  else if constexpr (std::is_same_v<X, ellipsis_t>)
    return {K::rest, 0, {}};
  else
    return {K::integer, static_cast<index_t>(x), {}};
}

}  // namespace detail

// One basic index chosen at run time, for indices built in a loop (NumPy's
// `x[tuple(items)]`): `std::vector<cupp::index_item> ix{0, cupp::_,
// cupp::newaxis}; x(ix)` is x(0, _, newaxis).
class index_item {
 public:
  template <class X>
  requires detail::basic_index<X>
  constexpr index_item(const X& x) : item_(detail::to_index_item(x)) {}
  constexpr const detail::index_item& get() const { return item_; }

 private:
  detail::index_item item_;
};

}  // namespace cupp
